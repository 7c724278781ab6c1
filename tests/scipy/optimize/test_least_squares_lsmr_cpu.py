"""least_squares(tr_solver='lsmr') for 'trf' and 'dogbox' (the real loops, lsmr's subspace steps and
the operator models, NumPy and SciPy's lsmr standing in for the device routines), checked against
the exact minimizer of fresh random problems rather than against SciPy's own lsmr path: lsmr's
inexact steps and the two libraries' rounding make the paths differ, while the minimizer does not.

The problems: f(x) = A x + c tanh(x) (padded with zeros to m = 3n entries) - b, A Gaussian / sqrt(m).
A's singular values lie in [1 - sqrt(n/m), 1 + sqrt(n/m)] = [0.42, 1.58] (Marchenko-Pastur); each
draw is kept only if J(x*)'s smallest singular value is over 0.3. Without bounds b = f(x_true),
a zero residual: the minimizer is x_true, and |x - x_true| <= |f(x)| / 0.3 near it. With bounds
that cut x_true off, c = 0.05 keeps the residual's curvature term (<= 0.05 * 0.77 * max|r|, about
0.03) below J'J's smallest eigenvalue (0.09): the cost is strictly convex, its minimizer the one
of the reduced problem with the two bounds held (see test_bounded_minimizer)."""

import numpy as np
import pytest
import scipy.optimize as so

from lsq_compare import raises_as_scipy

TIGHT = {"ftol": 1e-12, "xtol": 1e-12, "gtol": 1e-12}


def draw(rng, c):
    """(A, b, fun, jac, x_true) of a problem of the module's docstring, b = f(x_true)."""
    while True:
        n = int(rng.integers(4, 16))
        m = 3 * n
        A = rng.standard_normal((m, n)) / np.sqrt(m)
        x_true = rng.standard_normal(n)

        def f0(x):
            return A @ x + c * np.concatenate([np.tanh(x), np.zeros(m - n)])

        def jac(x, *args):
            return A + c * np.vstack([np.diag(1 / np.cosh(x) ** 2), np.zeros((m - n, n))])

        if np.linalg.svd(jac(x_true), compute_uv=False)[-1] > 0.3:
            b = f0(x_true)
            return A, b, (lambda x: f0(x) - b), jac, x_true


def _problem(rng, c):
    return draw(rng, c)[2:]


OPTIONS = [({}, "linear"), ({"regularize": False}, "linear"), ({"atol": 1e-10, "btol": 1e-10}, "linear"),
           ({"damp": 0.1, "maxiter": 200}, "linear"), ({}, "soft_l1")]


@pytest.mark.parametrize("method", ["trf", "dogbox"])
@pytest.mark.parametrize("tr_options,loss", OPTIONS)
def test_zero_residual_minimizer(host_optimize, method, tr_options, loss):
    # soft_l1's rho'(0) = 1: at a zero residual the robust cost has the same minimizer and curvature
    rng = np.random.default_rng()
    fun, jac, x_true = _problem(rng, 0.2)
    opts = dict(tr_options)
    if method == "dogbox":
        opts.pop("regularize", None)
    r = host_optimize.least_squares(fun, np.zeros(x_true.size), jac=jac, method=method, tr_solver="lsmr",
                                    tr_options=opts, loss=loss, **TIGHT)
    assert r.success and r.status in (1, 2, 3, 4), r.message
    res = np.linalg.norm(fun(r.x))
    assert np.linalg.norm(r.x - x_true) <= 2 * res / 0.3 + 1e-12, (np.linalg.norm(r.x - x_true), res)
    # and the run converged: the step test (xtol) bounds neither |x - x_true| nor |f|; with soft_l1,
    # SciPy's own lsmr runs of these problems stop on it at |f| up to ~2e-8 |f(x0)| (the host copy
    # follows SciPy's path there), so 1e-6 only tells a converged run from a stalled one
    assert res <= 1e-6 * np.linalg.norm(fun(np.zeros(x_true.size))), res
    if loss == "linear":
        np.testing.assert_allclose(r.cost, 0.5 * res ** 2, rtol=1e-12, atol=1e-30)
    np.testing.assert_array_equal(r.fun, fun(r.x))
    assert r.njev >= 1 and r.nfev >= r.njev


def reduced_minimizer(fun, jac, c, x_start, fixed):
    """The minimizer with the first variables held at `fixed`: 'lm' on the rest, then Newton's
    iteration on the gradient J'f with the exact Hessian J'J + diag(c r_i tanh''(x_i)) (an 'lm' stop
    on its cost test leaves x only within sqrt(ftol cost / mu) of the minimizer)."""
    k = len(fixed)

    def full(z):
        return np.concatenate([fixed, z])

    x = full(so.least_squares(lambda z: fun(full(z)), x_start[k:], method="lm").x)
    for _ in range(6):
        r, J = fun(x), jac(x)
        n = x.size
        H = J.T @ J + np.diag(c * r[:n] * -2 * np.tanh(x) / np.cosh(x) ** 2)
        x[k:] -= np.linalg.solve(H[k:, k:], (J.T @ r)[k:])
    return x


def bounded_case(rng, problem):
    """A problem of `problem(rng, 0.05)` (its first return values fun and jac on the host, its last
    x_true) with lb0 = x_true0 + 0.3 and ub1 = x_true1 - 0.3, drawn until both bounds are active at
    the minimizer (the KKT multipliers J'f of the reduced minimizer over 1e-3 in the right sign;
    where one is not, the other bound alone holds the minimizer). Returns (problem's values, lb, ub, x*)."""
    while True:
        out = problem(rng, 0.05)
        fun, jac, x_true = out[0], out[1], out[-1]
        n = x_true.size
        lb, ub = np.full(n, -np.inf), np.full(n, np.inf)
        lb[0], ub[1] = x_true[0] + 0.3, x_true[1] - 0.3
        x_star = reduced_minimizer(fun, jac, 0.05, x_true, [lb[0], ub[1]])
        g = jac(x_star).T @ fun(x_star)
        if g[0] > 1e-3 and g[1] < -1e-3:
            return out + (lb, ub, x_star)


@pytest.mark.parametrize("method", ["trf", "dogbox"])
@pytest.mark.parametrize("x_scale,tr_options", [(None, {}), ("jac", {}), (None, {"regularize": False})])
def test_bounded_minimizer(host_optimize, method, x_scale, tr_options):
    # the minimizer has x0 = lb0 and x1 = ub1 (bounded_case), so it is the reduced problem's. The a
    # posteriori bound of strongly convex box problems, |x - x*| <= (1 + L) / mu |x - P(x - grad)|
    # (P the projection on the box), with L <= 1.63^2 + 0.03 < 2.7 and mu >= 0.03 (J's singular
    # values stay over 0.3 - 0.05 where tanh' changes, less the curvature term 0.03), gives the
    # factor 124; and lsmr's steps (atol 1e-6) must have converged: a stop on ftol leaves at most
    # sqrt(2 ftol cost / mu) = sqrt(2e-12 * 0.05 / 0.03) < 2e-6
    fun, jac, x_true, lb, ub, x_star = bounded_case(np.random.default_rng(), _problem)
    n = x_true.size
    x0 = np.clip(np.zeros(n), lb + 0.1, ub - 0.1)
    opts = {k: v for k, v in tr_options.items() if method == "trf"}
    r = host_optimize.least_squares(fun, x0, jac=jac, method=method, bounds=(lb, ub), x_scale=x_scale,
                                    tr_solver="lsmr", tr_options=opts, **TIGHT)
    assert r.success, r.message
    g = jac(r.x).T @ fun(r.x)
    bound = 124 * np.linalg.norm(r.x - np.clip(r.x - g, lb, ub)) + 1e-13
    err = np.linalg.norm(r.x - x_star)
    assert err <= bound and err <= 1e-5, (err, bound)
    np.testing.assert_allclose(r.cost, 0.5 * np.linalg.norm(fun(r.x)) ** 2, rtol=1e-12)
    assert r.cost >= 0.5 * np.linalg.norm(fun(x_star)) ** 2 * (1 - 1e-12)


@pytest.mark.parametrize("kw", [{}, {"bounds": ([-np.inf, 1.5], np.inf)}, {"method": "dogbox"},
                                {"method": "dogbox", "bounds": ([-3, 1.5], [3, 3]), "loss": "huber"}])
def test_scipy_doc_rosenbrock(host_optimize, kw):
    # SciPy's docstring example: the minimizer (1, 1), or (1.2247, 1.5) on the bound x1 >= 1.5
    def res(x):
        return np.array([10 * (x[1] - x[0] ** 2), 1 - x[0]])

    r = host_optimize.least_squares(res, [2.0, 2.0], tr_solver="lsmr", **kw)
    ref = so.least_squares(res, [2.0, 2.0], tr_solver="exact", **kw)
    assert r.success and ref.success
    np.testing.assert_allclose(r.x, ref.x, rtol=1e-6)  # SciPy's default tolerances (1e-8), cond(J) < 30


def test_options_and_errors_as_scipy(host_optimize):
    def res(x):
        return np.array([10 * (x[1] - x[0] ** 2), 1 - x[0]])

    for mod in (host_optimize, so):
        with pytest.warns(UserWarning, match="The keyword 'regularize' in `tr_options` is not relevant for 'dogbox'"):
            r = mod.least_squares(res, [2.0, 2.0], method="dogbox", tr_solver="lsmr", tr_options={"regularize": True})
        assert r.success
    raises_as_scipy(host_optimize.least_squares, so.least_squares, res, [2.0, 2.0], tr_solver="lsmr",
                    tr_options={"bogus": 1})
    # tr_options is SciPy's: not changed by the call
    opts = {"regularize": False, "damp": 0.0}
    host_optimize.least_squares(res, [2.0, 2.0], tr_solver="lsmr", tr_options=opts)
    assert opts == {"regularize": False, "damp": 0.0}
