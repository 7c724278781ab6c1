"""cuarray.scipy.differentiate on the device against scipy.differentiate on the host: derivatives
of fresh random points over dtypes, shapes, orders and step directions, Jacobians and Hessians of
SciPy's test functions. df agrees to SciPy's own error estimate scale; statuses exactly, and the
iteration counts on all but a few points (the device may contract a*b+c into one FMA)."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sd = pytest.importorskip("scipy.differentiate")

import cuarray  # noqa: E402
import cuarray.scipy.differentiate as cd  # noqa: E402


def host(v):
    return cuarray.asnumpy(v) if isinstance(v, cuarray.ndarray) else np.asarray(v)


def mod(x):
    return cuarray if isinstance(x, cuarray.ndarray) else np


def check(got, ref, key="df"):
    assert sorted(k for k in got if not k.startswith("_")) == sorted(k for k in ref if not k.startswith("_"))
    g, r = host(got[key]), np.asarray(ref[key])
    assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, r.dtype, g.shape, r.shape)
    tol = 1e-3 if r.dtype == np.float32 else 1e-7
    # two runs of one estimator agree to within their error estimates (a step apart they differ by that)
    err = np.nan_to_num(np.abs(host(got.error)) + np.abs(np.asarray(ref.error)), posinf=0.0)
    bad = ~(np.abs(g - r) <= tol * (1 + np.abs(r)) + 10 * err) & ~(np.isnan(g) & np.isnan(r))
    assert not bad.any(), "{}: ours {} SciPy's {} error {}".format(key, g[bad][:10], r[bad][:10], err[bad][:10])
    # Where the derivative is small against the problem's scale (an exact zero, a root of f'), the
    # tolerance sqrt(eps)*|df| meets the estimate's error floor (rounding eps*|f|/h against an
    # order-8 truncation: about eps**0.9 of |f| at best), and rounding decides the iteration that
    # converges and the status (0, -1, -2): SciPy's own float32 nit passes 3 on 333 of 400,000
    # random points of `wave`, all within 0.0056 of the scale; reversing rosen's sum changes 3-6 of
    # its 25 Hessian statuses. Below eps**(1/4) of the scale they are compared by value only (above).
    finite = np.abs(r[np.isfinite(r)])
    scale = finite.max(initial=0.0)
    decided = ~(np.abs(r) <= np.finfo(r.dtype).eps ** 0.25 * scale)
    gs, rs = host(got.status)[decided], np.asarray(ref.status)[decided]
    assert (gs != rs).sum() <= max(1, 0.05 * rs.size), "status: ours {} SciPy's {}".format(gs, rs)
    if "nit" in ref:
        off = np.abs(host(got.nit).astype(np.int64) - ref.nit)[decided]
        assert off.max(initial=0) <= 1 and (off != 0).sum() <= max(1, 0.05 * off.size), (host(got.nit), ref.nit)


def wave(x):
    m = mod(x)
    return m.exp(x) * m.sin(3 * x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f4", "f8"])
@pytest.mark.parametrize("shape", [(), (500,), (4, 30)], ids=["0d", "1d", "2d"])
def test_derivative(dtype, shape):
    x = (np.random.default_rng().random(shape) * 2 - 1).astype(dtype)
    check(cd.derivative(wave, cuarray.asarray(x)), sd.derivative(wave, x))
    check(cd.derivative(wave, cuarray.asarray(x), order=3, step_direction=-1, maxiter=4),
          sd.derivative(wave, x, order=3, step_direction=-1, maxiter=4))


def test_derivative_directions_nan_preserve_shape():
    x = np.array([1., np.nan, 0.3, 2.])
    d = np.array([-1, 0, 1, 0])
    check(cd.derivative(wave, cuarray.asarray(x), step_direction=cuarray.asarray(d)),
          sd.derivative(wave, x, step_direction=d))

    def stacked(x):
        m = mod(x)
        return m.stack([x, m.sin(3 * x), x + m.sin(10 * x)])

    check(cd.derivative(stacked, cuarray.asarray(0.4), preserve_shape=True), sd.derivative(stacked, 0.4, preserve_shape=True))


def rosen(x):
    return (100.0 * (x[1:] - x[:-1] ** 2.0) ** 2.0 + (1 - x[:-1]) ** 2.0).sum(axis=0)


def on_device(f):
    """`f` for SciPy's reference, evaluated on the device, so both algorithms see the same values
    (CUDA's sin/cos differ from glibc's in the last ulp; the error estimates are differences of such
    values, and they decide the status)."""
    return lambda x: cuarray.asnumpy(f(cuarray.asarray(x)))


def f3(z):
    r, phi, th = z
    m = mod(z)
    return m.stack([r * m.sin(phi) * m.cos(th), r * m.sin(phi) * m.sin(th), r * m.cos(phi)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f4", "f8"])
def test_jacobian_hessian(dtype):
    rng = np.random.default_rng()
    z = (rng.random((3, 7)) + 0.5).astype(dtype)
    check(cd.jacobian(f3, cuarray.asarray(z)), sd.jacobian(on_device(f3), z))
    x = (rng.random(5) + 0.5).astype(dtype)
    check(cd.jacobian(rosen, cuarray.asarray(x)), sd.jacobian(on_device(rosen), x))
    if dtype == np.float32:  # a float32 Hessian is a difference of noisy differences: SciPy's own test's point
        x = np.random.default_rng(458912319542).random(3).astype(dtype)
    got, ref = cd.hessian(rosen, cuarray.asarray(x)), sd.hessian(on_device(rosen), x)
    if dtype == np.float64:
        check(got, ref, key="ddf")
    else:  # against the exact Hessian at SciPy's own test's tolerance
        from scipy.optimize import rosen_hess

        ddf, want = host(got.ddf), rosen_hess(x)
        assert ddf.dtype == want.dtype and ddf.shape == want.shape
        np.testing.assert_allclose(ddf, want, rtol=4 * np.finfo(np.float32).eps ** 0.5,
                                   atol=1e-2 * np.abs(want[want != 0]).min())
    assert host(got.nfev).shape == np.asarray(ref.nfev).shape


def test_host_input_refused():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cd.derivative(wave, np.ones(3))
