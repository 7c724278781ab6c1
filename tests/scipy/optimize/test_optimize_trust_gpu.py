"""minimize's 'trust-ncg', 'trust-krylov' and 'trust-exact' on the device against scipy.optimize: Rosenbrock (hess
and hessp), fresh random convex quadratics, a nonconvex start (negative curvature, failed
Cholesky factorizations), float32 and SciPy's errors. Device dot products round differently from
NumPy's, so the assertions are on the solution (within what gtol and the Hessian's smallest
eigenvalue allow) and the status, not on iteration counts."""

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


@pytest.mark.parametrize("method,form", [("trust-ncg", "hess"), ("trust-ncg", "hessp"), ("trust-exact", "hess"),
                                         ("trust-krylov", "hess"), ("trust-krylov", "hessp")])
def test_rosenbrock(method, form):
    ours = {form: co.rosen_hess if form == "hess" else co.rosen_hess_prod}
    ref = {form: so.rosen_hess if form == "hess" else so.rosen_hess_prod}
    r = co.minimize(co.rosen, cuarray.asarray(X0), method=method, jac=co.rosen_der, **ours)
    e = so.minimize(so.rosen, X0, method=method, jac=so.rosen_der, **ref)
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.jac, cuarray.ndarray)
    assert (r.status, r.success, r.message) == (e.status, e.success, e.message) == (0, True, e.message), (r, e)
    # both stop at |g| < gtol = 1e-4: within gtol / lambda_min(H(1)) of the minimum at ones
    bound = 1e-4 / np.linalg.eigvalsh(so.rosen_hess(np.ones(5)))[0]
    assert np.abs(r.x.get() - 1).max() < bound, (r.x.get(), bound)
    assert float(r.fun) < 1e-9 and isinstance(r.fun, float)
    assert float(cuarray.linalg.norm(r.jac)) < 1e-4
    assert r.nfev >= r.nit and r.njev >= 1 and r.nhev >= 1
    if form == "hess":
        np.testing.assert_allclose(r.hess.get(), so.rosen_hess(r.x.get()), rtol=1e-12)


@pytest.mark.parametrize("method", ["trust-ncg", "trust-krylov", "trust-exact"])
def test_random_convex_quadratic(method):
    rng = np.random.default_rng()
    n = 60
    q = rng.standard_normal((n, n))
    a = q @ q.T + n * np.eye(n)  # eigenvalues above n: |x - x*| <= |g| / n
    b = rng.standard_normal(n)
    x0 = 5 * rng.standard_normal(n)
    ad, bd = cuarray.asarray(a), cuarray.asarray(b)
    r = co.minimize(lambda x: 0.5 * x @ ad @ x - bd @ x, cuarray.asarray(x0), method=method, jac=lambda x: ad @ x - bd,
                    hess=lambda x: ad, tol=1e-6)
    e = so.minimize(lambda x: 0.5 * x @ a @ x - b @ x, x0, method=method, jac=lambda x: a @ x - b, hess=lambda x: a,
                    tol=1e-6)
    assert r.success and e.success, (r.message, e.message)
    xs = np.linalg.solve(a, b)
    np.testing.assert_allclose(r.x.get(), xs, rtol=0, atol=1e-6 / n)
    assert abs(r.fun - e.fun) <= 1e-9 * abs(e.fun)


@pytest.mark.parametrize("method", ["trust-ncg", "trust-krylov", "trust-exact"])
def test_nonconvex_start(method):
    # f = sum(x^4/4 - x^2/2) + s.x, H = diag(3x^2 - 1) indefinite near 0: Steihaug's d.Bd < 0 branch
    # and failed Cholesky factorizations in trust-exact
    rng = np.random.default_rng()
    n = 40
    s = cuarray.asarray(rng.uniform(-0.2, 0.2, n))

    def f(x):
        return cuarray.sum(x ** 4 / 4 - x ** 2 / 2) + s @ x

    def g(x):
        return x ** 3 - x + s

    kw = dict(hess=lambda x: cuarray.diag(3 * x ** 2 - 1)) if method == "trust-exact" else \
        dict(hessp=lambda x, p: (3 * x ** 2 - 1) * p)
    x0 = cuarray.asarray(rng.uniform(-0.1, 0.1, n))
    r = co.minimize(f, x0, method=method, jac=g, **kw)
    assert r.success, r
    x = r.x.get()
    assert np.linalg.norm(g(r.x).get()) < 1e-4 and np.all(3 * x ** 2 - 1 > 0) and r.fun < float(f(x0))


@pytest.mark.parametrize("method", ["trust-ncg", "trust-exact"])
def test_float32_and_errors(method):
    r = co.minimize(co.rosen, cuarray.asarray(X0.astype(np.float32)), method=method, jac=co.rosen_der,
                    hess=co.rosen_hess, options={"gtol": 1e-3})
    assert r.x.dtype == np.float32 and r.success, r
    np.testing.assert_allclose(r.x.get(), np.ones(5), atol=2e-2)
    msg = "Jacobian is required for" if method == "trust-ncg" else "Jacobian is required for trust region exact"
    with pytest.raises(ValueError, match=msg):
        co.minimize(co.rosen, cuarray.asarray(X0), method=method, hess=co.rosen_hess)
    with pytest.raises(ValueError, match="is required for"):
        co.minimize(co.rosen, cuarray.asarray(X0), method=method, jac=co.rosen_der)
