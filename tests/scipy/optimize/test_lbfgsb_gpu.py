"""cuarray.scipy.optimize.minimize(method='L-BFGS-B') on the device against SciPy's: Rosenbrock
with and without bounds (jac callable / True / finite differences), random strictly convex
quadratics with many active bounds, bounded and unbounded logistic regression, limits, callbacks,
float32 and the inverse-Hessian operator. The minimizers are unique and well conditioned, so x
and fun are compared to the problem's accuracy; iteration counts only loosely (the Cauchy point's
prefix sums and cuBLAS's dot products round differently from SciPy's sequential code)."""

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
BOUNDS = {"none": None, "box": [(-1.5, 0.9)] * 5, "mixed": [(0, 2)] * 2 + [(None, 0.5)] * 3}


def _check(r, ref, x_atol, nit_slack=5):
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.jac, cuarray.ndarray)
    assert r.success and ref.success, (r.message, ref.message)
    assert abs(r.nit - ref.nit) <= nit_slack, ("nit", r.nit, ref.nit)
    np.testing.assert_allclose(r.x.get(), ref.x, rtol=0, atol=x_atol, err_msg="x (nit {} vs {})".format(r.nit, ref.nit))
    assert abs(float(r.fun) - ref.fun) <= 1e-10 + 1e-8 * abs(ref.fun), ("fun", float(r.fun), ref.fun)


@pytest.mark.parametrize("bounds", list(BOUNDS))
@pytest.mark.parametrize("jac", [None, "callable", True, "3-point"])
def test_rosenbrock(bounds, jac):
    b = BOUNDS[bounds]
    f_ours = (lambda x: (co.rosen(x), co.rosen_der(x))) if jac is True else co.rosen
    f_ref = (lambda x: (so.rosen(x), so.rosen_der(x))) if jac is True else so.rosen
    j_ours, j_ref = (co.rosen_der, so.rosen_der) if jac == "callable" else (jac, jac)
    r = co.minimize(f_ours, cuarray.asarray(X0), method="L-BFGS-B", jac=j_ours, bounds=b)
    ref = so.minimize(f_ref, X0, method="L-BFGS-B", jac=j_ref, bounds=b)
    # both stop at ftol's relative reduction 2.2e-9 of f: x near the minimizer to ~1e-4 on Rosenbrock
    _check(r, ref, x_atol=2e-4 if b is None else 1e-6, nit_slack=8)
    if b is not None:
        lo = np.array([-np.inf if v[0] is None else v[0] for v in b])
        hi = np.array([np.inf if v[1] is None else v[1] for v in b])
        assert np.all(r.x.get() >= lo) and np.all(r.x.get() <= hi)


@pytest.mark.parametrize("n", [6, 300])
def test_quadratic_active_bounds(n):
    rng = np.random.default_rng()
    q = rng.standard_normal((n, n))
    a = q @ q.T / n + np.eye(n)  # eigenvalues in about [1, 5]: well conditioned
    b = rng.standard_normal(n) * 3
    lb, ub = -rng.uniform(0.1, 1, n), rng.uniform(0.1, 1, n)
    ad, bd = cuarray.asarray(a), cuarray.asarray(b)
    opts = {"ftol": 1e-15, "gtol": 1e-9}
    r = co.minimize(lambda x: (0.5 * x @ ad @ x - bd @ x, ad @ x - bd), cuarray.zeros(n), jac=True,
                    method="L-BFGS-B", bounds=co.Bounds(lb, ub), options=opts)
    ref = so.minimize(lambda x: (0.5 * x @ a @ x - b @ x, a @ x - b), np.zeros(n), jac=True,
                      method="L-BFGS-B", bounds=so.Bounds(lb, ub), options=opts)
    _check(r, ref, x_atol=1e-6, nit_slack=max(5, ref.nit // 4))
    x = r.x.get()
    g = a @ x - b
    pg = np.where(g < 0, np.maximum(x - ub, g), np.minimum(x - lb, g))
    assert np.abs(pg).max() < 1e-6, "projected gradient {}".format(np.abs(pg).max())


def _logreg(xp, n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d) / np.sqrt(d)
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ w))).astype(float)
    Xd, yd = xp.asarray(X), xp.asarray(y)

    def f(w):
        z = Xd @ w
        return (xp.sum(xp.logaddexp(0.0, z) - yd * z) / n + 0.5e-2 * xp.sum(w * w),
                Xd.T @ (1 / (1 + xp.exp(-z)) - yd) / n + 1e-2 * w)
    return f


@pytest.mark.parametrize("bounded", [False, True])
def test_logistic_regression(bounded):
    seed = int(np.random.default_rng().integers(1 << 30))
    n, d = 5000, 200
    b = so.Bounds(-0.05, 0.05) if bounded else None
    # gtol short of the rounding floor; the 1e-2 ridge makes the Hessian's smallest eigenvalue >= 1e-2
    opts = {"ftol": 1e-12, "gtol": 1e-7}
    r = co.minimize(_logreg(cuarray, n, d, seed), cuarray.zeros(d), method="L-BFGS-B", jac=True, bounds=b,
                    options=opts)
    ref = so.minimize(_logreg(np, n, d, seed), np.zeros(d), method="L-BFGS-B", jac=True, bounds=b, options=opts)
    _check(r, ref, x_atol=5e-5, nit_slack=max(5, ref.nit // 4))


@pytest.mark.parametrize("jac", [None, "3-point"])
def test_finite_differences_stay_inside_the_bounds(jac):
    def f(x):
        assert not bool(cuarray.any((x < 0) | (x > 10))), "evaluated outside the bounds"
        return cuarray.sum(cuarray.sqrt(x) - 0.3 * x) + cuarray.sum((x - 4) ** 2) * 0.01

    def f_ref(x):
        return np.sum(np.sqrt(x) - 0.3 * x) + np.sum((x - 4) ** 2) * 0.01

    x0 = np.array([0.0, 1.0, 10.0, 0.5])
    r = co.minimize(f, cuarray.asarray(x0), method="L-BFGS-B", jac=jac, bounds=[(0, 10)] * 4)
    ref = so.minimize(f_ref, x0, method="L-BFGS-B", jac=jac, bounds=[(0, 10)] * 4)
    _check(r, ref, x_atol=1e-5, nit_slack=5)


def test_limits_callback_float32_and_hess_inv():
    x0 = cuarray.asarray(X0)
    r = co.minimize(co.rosen, x0, method="L-BFGS-B", jac=co.rosen_der, options={"maxiter": 4})
    ref = so.minimize(so.rosen, X0, method="L-BFGS-B", jac=so.rosen_der, options={"maxiter": 4})
    assert (r.status, r.message, r.nit) == (ref.status, ref.message, ref.nit) == (1, ref.message, 4)
    np.testing.assert_allclose(r.x.get(), ref.x, rtol=1e-8)
    np.testing.assert_allclose(r.hess_inv.todense().get(), ref.hess_inv.todense(), rtol=1e-7, atol=1e-12)
    v = np.arange(5.0)
    np.testing.assert_allclose((r.hess_inv @ cuarray.asarray(v)).get(), ref.hess_inv @ v, rtol=1e-7, atol=1e-12)
    r = co.minimize(co.rosen, x0, method="L-BFGS-B", jac=co.rosen_der, options={"maxfun": 7})
    assert r.status == 1 and r.message == "STOP: TOTAL NO. OF F,G EVALUATIONS EXCEEDS LIMIT"
    seen = []

    def cb(intermediate_result):
        seen.append(intermediate_result.x.get())
        if len(seen) == 3:
            raise StopIteration
    r = co.minimize(co.rosen, x0, method="L-BFGS-B", jac=co.rosen_der, bounds=BOUNDS["box"], callback=cb)
    assert r.status == 99 and r.nit == 3 and len(seen) == 3
    r = co.minimize(co.rosen, x0.astype(cuarray.float32), method="L-BFGS-B", jac=co.rosen_der, tol=1e-4)
    ref = so.minimize(so.rosen, X0.astype(np.float32), method="L-BFGS-B", jac=so.rosen_der, tol=1e-4)
    assert r.x.dtype == cuarray.float32 and r.success
    np.testing.assert_allclose(r.x.get(), ref.x, rtol=1e-2)
    with pytest.raises(ValueError, match="not compatible with the length"):
        co.minimize(co.rosen, x0, method="L-BFGS-B", bounds=[(0, 1)] * 3)
