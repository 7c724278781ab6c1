"""ufunc calls into a given output against NumPy on the GPU: `ufunc(..., out=o)`, `ufunc(a, b, o)`
and the in-place operators, which take the prepared launcher's `into` when the output is what the
full call would launch into (ufunc_launchers.make_fast) and the full call otherwise: aliasing
(`add(a, a, out=a)`), outputs sharing memory with an input at another offset or item size
(computed through a temporary, as NumPy), a cast into the output, another layout, broadcasting,
Python scalars, unary ufuncs, empty and 0-d arrays, integer and complex dtypes."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402


def _data(shape, dt, rng):
    x = np.asarray(rng.standard_normal(shape) * 50)  # (an array for shape () too)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return np.asarray(x).astype(dt)


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(1000,), (37, 19), (), (0,), (3, 0)])
@pytest.mark.parametrize("form", ["keyword", "tuple", "positional", "inplace"])
def test_binary_into_out_as_numpy(dt, shape, form):
    rng = np.random.default_rng()
    ha, hb, ho = (_data(shape, dt, rng) for _ in range(3))
    for _ in range(2):  # the first call prepares the launcher, the second takes it
        a, b, o = cuarray.asarray(ha), cuarray.asarray(hb), cuarray.asarray(ho)
        want = ho.copy()
        if form == "keyword":
            np.subtract(ha, hb, out=want)
            r = cuarray.subtract(a, b, out=o)
        elif form == "tuple":
            np.subtract(ha, hb, out=(want,))
            r = cuarray.subtract(a, b, out=(o,))
        elif form == "positional":
            np.subtract(ha, hb, want)
            r = cuarray.subtract(a, b, o)
        else:
            want = ha.copy()
            want -= hb
            a -= b
            r = o = a
        assert r is o
        np.testing.assert_array_equal(o.get(), want)


@pytest.mark.parametrize("dt", ["float32", "float64", "int16", "complex64"])
def test_aliased_and_scalar_operands(dt):
    rng = np.random.default_rng()
    h = _data((513,), dt, rng)
    for _ in range(2):
        a = cuarray.asarray(h)
        want = h.copy()
        np.add(want, want, out=want)
        cuarray.add(a, a, out=a)
        np.testing.assert_array_equal(a.get(), want)
        np.multiply(3, want, out=want)
        cuarray.multiply(3, a, out=a)
        np.testing.assert_array_equal(a.get(), want)
        want *= 2
        a *= 2
        np.testing.assert_array_equal(a.get(), want)


@pytest.mark.parametrize("shift", [1, -1, 4])
def test_output_overlapping_an_input_at_another_offset(shift):
    # NumPy computes as if into a temporary: every output element from the inputs as they were
    rng = np.random.default_rng()
    n = 1024
    h = rng.standard_normal(n + 8).astype(np.float32)
    for _ in range(2):
        d = cuarray.asarray(h)
        want = h.copy()
        lo, hi = 4, 4 + shift
        np.add(want[lo:lo + n - 8], want[lo:lo + n - 8], out=want[hi:hi + n - 8])
        cuarray.add(d[lo:lo + n - 8], d[lo:lo + n - 8], out=d[hi:hi + n - 8])
        np.testing.assert_array_equal(d.get(), want)


def test_output_of_another_item_size_on_the_same_memory():
    # int16 x over the bytes of the int32 output: one address, other items (a temporary)
    rng = np.random.default_rng()
    h = rng.integers(-1000, 1000, 256).astype(np.int32)
    hy = rng.integers(-1000, 1000, 256).astype(np.int32)
    for _ in range(2):
        d, y = cuarray.asarray(h), cuarray.asarray(hy)
        want = h.copy()
        np.add(want.view(np.int16)[:256], hy, out=want)
        cuarray.add(d.view(cuarray.int16)[:256], y, out=d)
        np.testing.assert_array_equal(d.get(), want)


@pytest.mark.parametrize("out_dt,order", [("float64", "C"), ("float32", "F"), ("complex64", "C")])
def test_cast_and_layout_of_the_output(out_dt, order):
    rng = np.random.default_rng()
    ha, hb = rng.standard_normal((33, 17)).astype(np.float32), rng.standard_normal((33, 17)).astype(np.float32)
    for _ in range(2):
        want = np.zeros((33, 17), out_dt, order=order)
        o = cuarray.asarray(want.copy(order="K"))
        assert o.flags.f_contiguous == (order == "F") or want.ndim < 2
        np.multiply(ha, hb, out=want)
        r = cuarray.multiply(cuarray.asarray(ha), cuarray.asarray(hb), out=o)
        assert r is o
        np.testing.assert_array_equal(o.get(), want)


def test_broadcast_into_a_larger_output_and_errors():
    rng = np.random.default_rng()
    ha = rng.standard_normal(16).astype(np.float32)
    want = np.zeros((3, 16), np.float32)
    o = cuarray.zeros((3, 16), np.float32)
    np.add(ha, ha, out=want)
    cuarray.add(cuarray.asarray(ha), cuarray.asarray(ha), out=o)
    np.testing.assert_array_equal(o.get(), want)
    a = cuarray.asarray(ha)
    with pytest.raises(ValueError):
        cuarray.add(cuarray.ones((3, 16), np.float32), a, out=cuarray.empty(16, np.float32))
    with pytest.raises(TypeError):  # float64 into int32 under same_kind (NumPy's UFuncTypeError)
        cuarray.add(cuarray.ones(16), cuarray.ones(16), out=cuarray.empty(16, np.int32))
    a += 1  # the library is usable after both errors
    np.testing.assert_array_equal(a.get(), ha + 1)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex128"])
def test_unary_into_out(dt):
    rng = np.random.default_rng()
    h = _data((300,), dt, rng) / 50
    for _ in range(2):
        a, o = cuarray.asarray(h), cuarray.empty((300,), dt)
        assert cuarray.exp(a, out=o) is o and cuarray.negative(a, a) is a
        np.testing.assert_allclose(o.get(), np.exp(h), rtol=8 * np.finfo(dt).eps)
        np.testing.assert_array_equal(a.get(), -h)
