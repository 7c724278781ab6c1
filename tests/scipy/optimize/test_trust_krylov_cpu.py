"""minimize's 'trust-krylov' (the real loop and Lanczos subproblem, NumPy standing in for the
device routines) against scipy.optimize's (trlib): Rosenbrock from SciPy's start, fresh random
convex quadratics and nonconvex problems reach SciPy's minimizer; the tridiagonal subproblem
against a dense solve; SciPy's errors."""

import numpy as np
import pytest
import scipy.optimize as so

X0 = np.array([1.3, 0.7, 0.8, 1.9, 1.2])


@pytest.mark.parametrize("form", ["hess", "hessp"])
@pytest.mark.parametrize("inexact", [True, False])
def test_rosenbrock_reaches_scipys_minimizer(host_optimize, form, inexact):
    kw = {form: getattr(host_optimize, "rosen_hess" if form == "hess" else "rosen_hess_prod")}
    ref = {form: so.rosen_hess if form == "hess" else so.rosen_hess_prod}
    r = host_optimize.minimize(host_optimize.rosen, X0, method="trust-krylov", jac=host_optimize.rosen_der,
                               options={"inexact": inexact}, **kw)
    e = so.minimize(so.rosen, X0, method="trust-krylov", jac=so.rosen_der, options={"inexact": inexact}, **ref)
    assert r.success and e.success and r.status == 0, (r.message, e.message)
    np.testing.assert_allclose(r.x, e.x, atol=1e-6)  # both at the minimum (1, ..., 1) to gtol 1e-4's x
    assert r.fun <= 1e-10 and np.linalg.norm(r.jac) < 1e-4
    assert r.nit <= 3 * e.nit + 5 and ("hess" in r) == ("hess" in e)


def test_random_quadratics_and_a_nonconvex_problem(host_optimize):
    rng = np.random.default_rng()
    n = int(rng.integers(5, 40))
    q = rng.standard_normal((n, n))
    a = q @ q.T + n * np.eye(n) * rng.uniform(0.05, 1)
    b = rng.standard_normal(n)
    f = lambda x: 0.5 * x @ a @ x - b @ x  # noqa: E731
    g = lambda x: a @ x - b  # noqa: E731
    hp = lambda x, p: a @ p  # noqa: E731
    x0 = rng.standard_normal(n)
    # (gtol 1e-10 is past what f's rounding lets either library predict: SciPy ends with status 2
    # at the same iteration there)
    r = host_optimize.minimize(f, x0, method="trust-krylov", jac=g, hessp=hp, options={"gtol": 1e-6})
    assert r.success and np.linalg.norm(r.jac) < 1e-6
    # a quadratic's x - x* = A^-1 g: within |g| / lambda_min of the solution
    err = np.linalg.norm(r.x - np.linalg.solve(a, b))
    assert err <= np.linalg.norm(r.jac) / np.linalg.eigvalsh(a)[0] * (1 + 1e-6) + 1e-14
    # nonconvex from a saddle's neighbourhood: negative curvature steps to the boundary, then the
    # same local minimum as SciPy's from the same start (the double well's x = +-1 in each coordinate)
    fw = lambda x: np.sum((x ** 2 - 1) ** 2) + 0.1 * np.sum(x)  # noqa: E731
    gw = lambda x: 4 * x * (x ** 2 - 1) + 0.1  # noqa: E731
    hw = lambda x: np.diag(12 * x ** 2 - 4)  # noqa: E731
    x0 = rng.uniform(-0.3, 0.3, 6) + np.where(rng.random(6) < 0.5, -0.7, 0.7)
    r = host_optimize.minimize(fw, x0, method="trust-krylov", jac=gw, hess=hw)
    e = so.minimize(fw, x0, method="trust-krylov", jac=gw, hess=hw)
    assert r.success and e.success
    np.testing.assert_allclose(r.x, e.x, atol=1e-5)


@pytest.mark.parametrize("radius", [0.05, 1.0, 100.0])
def test_tridiagonal_step_is_the_dense_solution(host_optimize_copies, radius):
    tk = host_optimize_copies["_trustkrylov"]
    rng = np.random.default_rng()
    k = int(rng.integers(1, 12))
    alphas, betas = list(rng.standard_normal(k) + rng.uniform(-1, 2)), list(rng.uniform(0.1, 1, k - 1))
    t = np.diag(alphas) + np.diag(betas, 1) + np.diag(betas, -1)
    gn = float(rng.uniform(0.1, 3))
    h, boundary = tk.tridiagonal_step(alphas, betas, gn, radius)
    g = np.zeros(k)
    g[0] = gn
    assert np.linalg.norm(h) <= radius * (1 + 1e-10)
    model = lambda v: g @ v + 0.5 * v @ t @ v  # noqa: E731
    # no point of the ball (random directions, and the scaled ones on the boundary) does better
    for d in rng.standard_normal((2000, k)):
        for s in (radius * rng.random() ** (1 / k), radius):
            v = s * d / np.linalg.norm(d)
            assert model(h) <= model(v) + 1e-9 * (1 + abs(model(v)))
    if np.linalg.eigvalsh(t)[0] > 0 and np.linalg.norm(np.linalg.solve(t, g)) < radius * (1 - 1e-9):
        assert not boundary
        np.testing.assert_allclose(h, -np.linalg.solve(t, g), rtol=1e-10, atol=1e-12)
    else:
        assert boundary and np.linalg.norm(h) == pytest.approx(radius, rel=1e-9)


def test_errors_as_scipy(host_optimize):
    with pytest.raises(ValueError, match="Jacobian is required"):
        host_optimize.minimize(host_optimize.rosen, X0, method="trust-krylov")
    with pytest.raises(ValueError, match="Either the Hessian or the Hessian-vector product is required for Krylov"):
        host_optimize.minimize(host_optimize.rosen, X0, method="trust-krylov", jac=host_optimize.rosen_der)
    with pytest.raises(ValueError, match="Either the Hessian or the Hessian-vector product is required for Krylov"):
        so.minimize(so.rosen, X0, method="trust-krylov", jac=so.rosen_der)
