"""minimize(method='Powell') on the device against scipy.optimize: the objective is a device
computation, the iterate and direction set are device arrays. Device reductions round differently
from NumPy, so the paths may part; the assertions are the minimum to the tolerances asked for
(and, on SciPy's Rosenbrock start, the iteration count within 2: 200 runs with rounding-sized
perturbations of x0 all took SciPy's 18)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

so = pytest.importorskip("scipy.optimize")

import cuarray  # noqa: E402
import cuarray.scipy.optimize as co  # noqa: E402

X0 = np.array([1.3, 0.7, 0.8, 1.9, 1.2])
TIGHT = {"xtol": 1e-9, "ftol": 1e-13}


def test_rosenbrock():
    r = co.minimize(co.rosen, cuarray.asarray(X0), method="Powell")
    ref = so.minimize(so.rosen, X0, method="Powell")
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.direc, cuarray.ndarray) and r.direc.shape == (5, 5)
    assert (r.status, r.success, r.message) == (ref.status, ref.success, ref.message), (r, ref)
    assert abs(r.nit - ref.nit) <= 2, (r.nit, ref.nit)
    np.testing.assert_allclose(r.x.get(), np.ones(5), atol=1e-8)
    assert float(r.fun) < 1e-18, r.fun


def test_convex_quartic_float32_start():
    # smooth and convex (A has condition number at most 10): any correct run ends at c
    rng = np.random.default_rng(1234)
    n = 4
    q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    a = (q * rng.uniform(1, 10, n)) @ q.T
    bm, c = rng.standard_normal((n, n)) / 2, rng.standard_normal(n)
    x0 = rng.standard_normal(n).astype(np.float32)
    a_d, bt_d, c_d = cuarray.asarray(a), cuarray.asarray(bm.T.copy()), cuarray.asarray(c)

    def f(x):
        d = x - c_d
        return 0.5 * cuarray.sum(d * (a_d @ d)) + 0.25 * cuarray.sum((bt_d @ d) ** 4)

    r = co.minimize(f, cuarray.asarray(x0), method="Powell", options=TIGHT)
    ref = so.minimize(lambda x: 0.5 * (x - c) @ a @ (x - c) + 0.25 * np.sum(((x - c) @ bm) ** 4), x0,
                      method="Powell", options=TIGHT)
    assert r.success and ref.success, (r, ref)
    assert r.x.dtype == ref.x.dtype == np.float64  # the float64 direction set promotes x, as in SciPy
    np.testing.assert_allclose(r.x.get(), c, atol=1e-8)
    assert float(r.fun) < 1e-18, r.fun  # f >= |x - c|^2 / 2


@pytest.mark.parametrize("sides", ["both", "lower"])
def test_bounds_active(sides):
    # separable, its unconstrained minimum c partly outside the box: the minimum is clip(c, lb, ub)
    rng = np.random.default_rng(99 if sides == "both" else 7)
    n = 5
    w, c = rng.uniform(1, 10, n), np.array([-2.5, -0.3, 0.4, 1.7, 2.9])
    lb = np.full(n, -1.0)
    ub = np.full(n, 1.0) if sides == "both" else np.full(n, np.inf)
    x0 = rng.uniform(-0.9, 0.9, n)
    w_d, c_d = cuarray.asarray(w), cuarray.asarray(c)
    r = co.minimize(lambda x: cuarray.sum(w_d * (x - c_d) ** 2 + 0.1 * (x - c_d) ** 4), cuarray.asarray(x0),
                    method="Powell", bounds=list(zip(lb, ub)), options=TIGHT)
    xs = np.clip(c, lb, ub)
    fs = np.sum(w * (xs - c) ** 2 + 0.1 * (xs - c) ** 4)
    assert r.status == 0 and r.success, r
    x = r.x.get()
    assert np.all(x >= lb) and np.all(x <= ub), x
    # bounded Brent's tolerance, up to 17x in x through arctan where one side is open
    np.testing.assert_allclose(x, xs, atol=2e-6)
    assert abs(float(r.fun) - fs) <= 1e-5 * (1 + fs), (r.fun, fs)


def test_limits_callback_and_errors():
    r = co.minimize(co.rosen, cuarray.asarray(X0), method="Powell", options={"maxfev": 50})
    ref = so.minimize(so.rosen, X0, method="Powell", options={"maxfev": 50})
    assert (r.status, r.nfev, r.message) == (ref.status, ref.nfev, ref.message) == (1, 50, ref.message)
    seen = []

    def cb(intermediate_result):
        seen.append(intermediate_result.x.get())
        if len(seen) == 2:
            raise StopIteration

    r = co.minimize(co.rosen, cuarray.asarray(X0), method="Powell", callback=cb, options={"return_all": True})
    assert (r.status, r.nit, len(seen), len(r.allvecs)) == (99, 2, 2, 3), r
    np.testing.assert_array_equal(seen[-1], r.x.get())
    with pytest.raises(ValueError, match="upper bound is less than"):
        co.minimize(co.rosen, cuarray.asarray(X0), method="Powell", bounds=[(1, 0)] * 5)
    with pytest.raises(ValueError, match="must return a scalar"):
        co.minimize(lambda x: x, cuarray.asarray(X0), method="Powell")
