"""cuarray.scipy.optimize.elementwise on the device against scipy.optimize.elementwise on the host:
fresh random problems over dtypes, 0-d/N-D broadcast shapes, maxiter, failed brackets, NaN inputs
and callback stops. The device may contract a*b+c into one FMA, so an iterate can differ from the
host's in its last bit: values are compared to the method's tolerance, statuses exactly, and the
iteration counts to within one on a few elements (the others exactly)."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

se = pytest.importorskip("scipy.optimize.elementwise")

import cuarray  # noqa: E402
import cuarray.scipy.optimize.elementwise as ce  # noqa: E402


def host(v):
    return cuarray.asnumpy(v) if isinstance(v, cuarray.ndarray) else np.asarray(v)


def check(got, ref, rtol):
    assert sorted(k for k in got if not k.startswith("_")) == sorted(k for k in ref if not k.startswith("_"))
    np.testing.assert_array_equal(host(got.status), ref.status, err_msg="status")
    np.testing.assert_array_equal(host(got.success), ref.success, err_msg="success")
    for key in ("nit", "nfev"):
        g, r = host(got[key]), np.asarray(ref[key])
        assert g.dtype == r.dtype and g.shape == r.shape, key
        off = np.abs(g.astype(np.int64) - r)
        assert off.max(initial=0) <= 1 and (off != 0).sum() <= max(1, 0.05 * r.size), \
            "{}: ours {} SciPy's {}".format(key, g.ravel()[:20], r.ravel()[:20])
    for key in [k for k in ("x", "f_x", "bracket", "f_bracket") if k in ref]:
        gs, rs = (got[key], ref[key]) if isinstance(ref[key], tuple) else ((got[key],), (ref[key],))
        for g, r in zip(gs, rs):
            g, r = host(g), np.asarray(r)
            assert g.dtype == r.dtype and g.shape == r.shape, (key, g.dtype, r.dtype, g.shape, r.shape)
            np.testing.assert_allclose(g, r, rtol=rtol, atol=rtol, equal_nan=True, err_msg=key)


def on_device(f):
    """`f` for SciPy's reference, evaluated on the device: both algorithms then see the same function
    values (CUDA's pow and cos differ from glibc's in the last ulp, and near a root that moves a
    step count), so the comparison is of the algorithms alone."""
    def host_f(x, *args):
        return cuarray.asnumpy(f(cuarray.asarray(x), *[cuarray.asarray(a) for a in args]))

    return host_f


def cubic(x, p):
    return x ** 3 - p


def valley(x, p):
    mod = cuarray if isinstance(x, cuarray.ndarray) else np
    return (x - p) ** 2 + 0.1 * mod.cos(3 * x)


TOL = {np.float32: 1e-4, np.float64: 1e-10}


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f4", "f8"])
@pytest.mark.parametrize("shape", [(), (1000,), (3, 1, 40)], ids=["0d", "1d", "3d"])
def test_find_root(dtype, shape):
    rng = np.random.default_rng()
    p = (rng.random(shape) * 4 - 2).astype(dtype)
    lo = (-3 - rng.random(shape[-1:])).astype(dtype)
    got = ce.find_root(cubic, (cuarray.asarray(lo), dtype(3)), args=(cuarray.asarray(p),))
    check(got, se.find_root(on_device(cubic), (lo, dtype(3)), args=(p,)), TOL[dtype])


def test_find_root_statuses_and_callback():
    a = np.array([0., 0., 0., np.nan, 0., -1.])
    b = np.array([5., 1., 3., 2., 2., 1.])
    p = np.array([1., 8., 2., 1., np.nan, 0.])
    args = (cuarray.asarray(a), cuarray.asarray(b)), (cuarray.asarray(p),)
    for kw in [dict(maxiter=2), {}]:
        with np.errstate(invalid="ignore"):
            check(ce.find_root(cubic, args[0], args=args[1], **kw), se.find_root(cubic, (a, b), args=(p,), **kw), 1e-10)
    def stop_at_2(seen):
        def callback(res):
            seen.append(host(res.x))
            if len(seen) == 2:
                raise StopIteration
        return callback

    got_seen, ref_seen = [], []
    res = ce.find_root(cubic, (cuarray.asarray(a[:3]), cuarray.asarray(b[:3])), args=(cuarray.asarray(p[:3]),),
                       callback=stop_at_2(got_seen))
    ref = se.find_root(cubic, (a[:3], b[:3]), args=(p[:3],), callback=stop_at_2(ref_seen))
    assert len(got_seen) == len(ref_seen) == 2
    np.testing.assert_allclose(got_seen[1], ref_seen[1], rtol=1e-10)
    check(res, ref, 1e-10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f4", "f8"])
def test_find_minimum(dtype):
    rng = np.random.default_rng()
    p = (rng.random((4, 50)) * 2 - 1).astype(dtype)
    xm = (rng.random(50) * 0.2 - 0.1).astype(dtype)
    got = ce.find_minimum(valley, (dtype(-2), cuarray.asarray(xm), dtype(2.5)), args=(cuarray.asarray(p),))
    # a minimum is flat: x is determined to about sqrt(eps)
    check(got, se.find_minimum(on_device(valley), (dtype(-2), xm, dtype(2.5)), args=(p,)),
          3e-3 if dtype == np.float32 else 1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f4", "f8"])
def test_brackets(dtype):
    rng = np.random.default_rng()
    p = (rng.random((3, 64)) * 20 - 10).astype(dtype)
    x0 = (rng.random(64) * 2 - 1).astype(dtype)
    P, X0 = cuarray.asarray(p), cuarray.asarray(x0)
    for kw in [{}, dict(xmin=dtype(-4), xmax=dtype(6)), dict(maxiter=2)]:
        check(ce.bracket_root(cubic, X0, args=(P,), **kw), se.bracket_root(cubic, x0, args=(p,), **kw), TOL[dtype])
        check(ce.bracket_minimum(valley, X0, args=(P,), **kw), se.bracket_minimum(valley, x0, args=(p,), **kw),
              TOL[dtype])
    xl0 = np.array([0., 2., np.nan, -1.], dtype)  # invalid, invalid, NaN, no root before the limit
    q = np.array([1., 2., 1., 300.], dtype)
    with np.errstate(invalid="ignore"):
        check(ce.bracket_root(cubic, cuarray.asarray(xl0), dtype(1), xmin=-5, xmax=5, args=(cuarray.asarray(q),)),
              se.bracket_root(cubic, xl0, dtype(1), xmin=-5, xmax=5, args=(q,)), TOL[dtype])


def test_empty_and_host_input():
    res = ce.find_root(cubic, (cuarray.zeros(0), 3.), args=(cuarray.zeros(0),))
    assert res.x.shape == (0,) and res.nit.shape == (0,)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        ce.find_root(cubic, (np.zeros(3), 3.), args=(1.,))
