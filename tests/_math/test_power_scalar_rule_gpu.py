"""power with a stride-0 exponent (a host scalar or a 0-d array) against NumPy on the GPU: NumPy's
float32/float64 fast path for -1, 0, 0.5, 1, 2 (1/x, 1, sqrt, x, x*x: bit for bit, NaN, inf and
signed zeros included; fuzz seed 7 index 81: (-inf)**0.5 nan expected, inf returned), and the plain
loop for other exponents (special values exact, finite values within pow's error: NumPy's pow is
SVML's or libm's, CUDA's within 2 ulp), out= and where=, float32/float64/integer bases."""

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402

FAST = (0.5, 2.0, -1.0, 1.0, 0.0)
SPECIAL = [-np.inf, np.inf, -0.0, 0.0, np.nan, -2.0, 4.0, 1.0, -1.0]


def _compare(got, want, exact):
    assert got.dtype == want.dtype and got.shape == want.shape
    g = got.get()
    if exact:
        np.testing.assert_array_equal(g, want)
        # signed zeros (-0.0 ** 0.5 is -0.0); a NaN's sign is not IEEE's to define (x86's sqrtss
        # makes -nan, CUDA's sqrtf +nan: the NaN positions are compared above)
        num = ~np.isnan(want)
        np.testing.assert_array_equal(np.signbit(g[num]), np.signbit(want[num]))
        return
    n = len(SPECIAL)
    np.testing.assert_array_equal(g[..., :n], want[..., :n])  # special values: C99's pow on both sides
    np.testing.assert_allclose(g[..., n:], want[..., n:], rtol=4 * np.finfo(want.dtype).eps, atol=0)


@pytest.mark.parametrize("base,exp", [("f8", "f4"), ("f8", "f8"), ("f4", "f4"), ("f4", "f8"), ("i4", "f8")])
@pytest.mark.parametrize("e", [*FAST, 2.5, -0.5, 3.0])
def test_zero_d_exponent_as_numpy(base, exp, e):
    rng = np.random.default_rng()
    if base[0] == "i":
        h = rng.integers(-50, 50, 16).astype(base)
        h[:3] = (0, 1, -1)
    else:
        h = np.concatenate([SPECIAL, rng.uniform(-5, 5, 9)]).astype(base)
    he = np.array(e, exp)
    exact = e in FAST
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.power(h, he)
        got = cuarray.power(cuarray.asarray(h), cuarray.asarray(he))
        if base[0] == "i":
            if e in FAST:
                np.testing.assert_array_equal(got.get(), want)
            else:
                np.testing.assert_allclose(got.get(), want, rtol=4 * np.finfo(want.dtype).eps)
        else:
            _compare(got, want, exact)
        # a 0-d base
        ha = h[3:4].reshape(())
        g0, w0 = cuarray.power(cuarray.asarray(ha), cuarray.asarray(he)).get(), np.power(ha, he)
        if exact:
            np.testing.assert_array_equal(g0, w0)
        else:
            np.testing.assert_allclose(g0, w0, rtol=4 * np.finfo(w0.dtype).eps)
        if base[0] == "i":
            return
        mask = rng.random(h.size) < 0.5
        want = np.full(h.shape, 7.0, np.result_type(h, he))
        np.power(h, he, out=want, where=mask)
        got = cuarray.full(h.shape, 7.0, want.dtype)
        cuarray.power(cuarray.asarray(h), cuarray.asarray(he), out=got, where=cuarray.asarray(mask))
        _compare(got, want, exact)


@pytest.mark.parametrize("dt", ["f4", "f8"])
@pytest.mark.parametrize("e", [*FAST, 2, -1, 0, 1, np.float64(2.0), np.float32(0.5), 2.5])
def test_host_scalar_exponent_as_numpy(dt, e):
    rng = np.random.default_rng()
    h = np.concatenate([SPECIAL, rng.uniform(-1e3, 1e3, 40), rng.standard_normal(40)]).astype(dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.power(h, e)
        got = cuarray.power(cuarray.asarray(h), e)
        _compare(got, want, exact=float(e) in FAST)
        # a non-contiguous, negative-stride base
        want = np.power(h[::-3], e)
        got = cuarray.power(cuarray.asarray(h)[::-3], e)
        if float(e) in FAST:
            _compare(got, want, exact=True)


@pytest.mark.parametrize("how", ["positional", "keyword", "inplace"])
@pytest.mark.parametrize("dt", ["f4", "f8"])
@pytest.mark.parametrize("e", [0.5, 2.0, -1.0])
def test_out_given_any_way_takes_the_rule(how, dt, e):
    # power(a, 0.5, o) took the plain loop (pow: (-inf) ** 0.5 inf, not nan) where out=o took the rule
    rng = np.random.default_rng()
    h = np.concatenate([SPECIAL, rng.uniform(-1e3, 1e3, 40)]).astype(dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.power(h, e)
        a, o = cuarray.asarray(h), cuarray.empty(h.shape, dt)
        if how == "positional":
            got = cuarray.power(a, e, o)
        elif how == "keyword":
            got = cuarray.power(a, e, out=o)
        else:
            a **= e
            got = o = a
    assert got is o
    _compare(got, want, exact=True)
