"""root(method='hybr') and root(method='lm') (the real loops, NumPy standing in for the device
routines) against SciPy's MINPACK hybrd/hybrj and lmdif/lmder: SciPy's example, fresh random well-conditioned systems, the Broyden
tridiagonal system of the bench, options, statuses and errors."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.optimize as so


def _example(x):
    return np.array([x[0] + 0.5 * (x[0] - x[1]) ** 3 - 1.0, 0.5 * (x[1] - x[0]) ** 3 + x[1]])


def _example_jac(x):
    return np.array([[1 + 1.5 * (x[0] - x[1]) ** 2, -1.5 * (x[0] - x[1]) ** 2],
                     [-1.5 * (x[1] - x[0]) ** 2, 1 + 1.5 * (x[1] - x[0]) ** 2]])


def broyden_tridiagonal(x):
    """f_i = (3 - 2 x_i) x_i - x_{i-1} - 2 x_{i+1} + 1 (x_0 = x_{n+1} = 0; Moré, Garbow and
    Hillstrom's test problem 30), from x0 = -1."""
    xm = np.concatenate([x[:1] * 0, x[:-1]])
    xp = np.concatenate([x[1:], x[:1] * 0])
    return (3 - 2 * x) * x - xm - 2 * xp + 1


def _counts_as_scipy(r, e):
    # the same MINPACK path: SciPy's nfev adds a shape-check call at x0 and one at the end
    assert (r.status, bool(r.success), r.message, r.method) == (e.status, bool(e.success), e.message, e.method), \
        (r, e)
    assert r.nfev == e.nfev - 2, (r.nfev, e.nfev)
    assert r.get("njev") == e.get("njev")


@pytest.mark.parametrize("jac", [None, "callable", True])
def test_scipy_example(host_optimize, jac):
    if jac is True:
        r = host_optimize.root(lambda x: (_example(x), _example_jac(x)), np.zeros(2), jac=True)
        e = so.root(lambda x: (_example(x), _example_jac(x)), [0, 0], jac=True)
    else:
        j = _example_jac if jac else None
        r = host_optimize.root(_example, np.zeros(2), jac=j)
        e = so.root(_example, [0, 0], jac=j)
    _counts_as_scipy(r, e)
    np.testing.assert_allclose(r.x, e.x, rtol=1e-12)
    np.testing.assert_allclose(r.fun, _example(r.x), rtol=0, atol=1e-14)
    # the final Jacobian approximation, fjac' R, is SciPy's (its factors' signs may differ)
    rr = np.zeros((2, 2))
    rr[np.triu_indices(2)] = r.r
    re = np.zeros((2, 2))
    re[np.triu_indices(2)] = e.r
    np.testing.assert_allclose(r.fjac.T @ rr, e.fjac.T @ re, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(r.fjac @ r.fjac.T, np.eye(2), atol=1e-14)
    np.testing.assert_allclose(r.qtf, r.fjac @ r.fun, atol=1e-15)


@pytest.mark.parametrize("jac", [None, "callable"])
def test_lm_scipy_example(host_optimize, jac):
    j = _example_jac if jac else None
    for x0 in ([0.0, 0.0], [2.0, -1.0]):  # from 0 without jac both stop at the same local minimum of |f|
        r = host_optimize.root(_example, np.array(x0), method="lm", jac=j)
        e = so.root(_example, x0, method="lm", jac=j)
        _counts_as_scipy(r, e)
        np.testing.assert_allclose(r.x, e.x, rtol=1e-12, atol=1e-15)
        assert (r.cov_x is None) == (e.cov_x is None)
        if e.cov_x is not None:
            # forward-difference Jacobians agree to about sqrt(eps); the callable one to rounding
            np.testing.assert_allclose(r.cov_x, e.cov_x, rtol=1e-6 if j is None else 1e-10)


@pytest.mark.parametrize("opts", [{"maxiter": 5}, {"xtol": 1e-3}, {"ftol": 1e-4, "xtol": 1e-12}, {"gtol": 0.5},
                                  {"factor": 0.5, "diag": [1.0, 3.0]}, {"col_deriv": True}, {"eps": 1e-6},
                                  {"ftol": -1}])
def test_lm_options_as_scipy(host_optimize, opts):
    kw = {"jac": (lambda x: _example_jac(x).T) if opts.get("col_deriv") else _example_jac}
    if "eps" in opts or "maxiter" in opts:
        kw = {}
    x0 = np.array([2.0, -1.0])
    r = host_optimize.root(_example, x0, method="lm", options=dict(opts), **kw)
    e = so.root(_example, x0, method="lm", options=dict(opts), **kw)
    if opts.get("ftol") == -1:  # improper input: MINPACK returns at once (SciPy still counts two calls)
        assert (r.status, r.success, r.message) == (e.status, e.success, e.message) == (0, False, e.message)
        return
    _counts_as_scipy(r, e)
    # a stop in mid-path: forward-difference quotients (1/h ~ 1e8) carry the two factorizations'
    # rounding into the step at about 1e-8; with a callable Jacobian the iterates agree to rounding
    np.testing.assert_allclose(r.x, e.x, rtol=1e-7 if not kw else 1e-10)


@pytest.mark.parametrize("method", ["hybr", "lm"])
@pytest.mark.parametrize("n", [3, 12])
def test_random_well_conditioned_system(host_optimize, n, method):
    # f = A x + 0.2 tanh(x) - b with A = I + 0.3 Q / sqrt(n): the Jacobian's singular values stay
    # within [0.4, 1.6], so the root is unique and |x - x*| <= |f| / 0.4
    rng = np.random.default_rng()
    a = np.eye(n) + 0.3 * rng.standard_normal((n, n)) / np.sqrt(n)
    b = rng.standard_normal(n)
    args = (a, b)

    def f(x, a, b):
        return a @ x + 0.2 * np.tanh(x) - b

    def jac(x, a, b):
        return a + np.diag(0.2 / np.cosh(x) ** 2)

    for j in (None, jac):
        r = host_optimize.root(f, np.zeros(n), args=args, jac=j, method=method)
        e = so.root(f, np.zeros(n), args=args, jac=j, method=method)
        assert r.success and e.success, (r, e)
        # MINPACK's path (SciPy's two extra calls: shape check, end); where rounding at a tolerance's
        # edge stops the two by different tests (status 2 against 4 in one of 40 runs), one
        # evaluation apart
        assert r.nfev == e.nfev - 2 or (r.status != e.status and abs(r.nfev - (e.nfev - 2)) <= 1), (r, e)
        assert np.linalg.norm(f(r.x, a, b)) < 1e-8
        np.testing.assert_allclose(r.x, e.x, rtol=0, atol=1e-7)


def test_broyden_tridiagonal(host_optimize):
    n = 60
    r = host_optimize.root(broyden_tridiagonal, -np.ones(n))
    e = so.root(broyden_tridiagonal, -np.ones(n))
    assert r.success and e.success and r.status == e.status == 1
    np.testing.assert_allclose(r.x, e.x, rtol=0, atol=1e-8)
    # xtol = 1.5e-8 bounds the step relative to |D x| (about 50 here); |J| < 6 turns that into f
    assert np.abs(broyden_tridiagonal(r.x)).max() < 1e-6
    np.testing.assert_array_equal(r.fun, broyden_tridiagonal(r.x))


@pytest.mark.parametrize("method", ["hybr", "lm"])
def test_bench_case(host_optimize, method):
    # the root-hybr bench row's system and Jacobian (NumPy's), at a smaller n
    from cuarray.bench.cases import optimize_root as C

    f, jac, x0 = C.system(np, 80)
    r = host_optimize.root(f, x0, method=method, jac=jac)
    e = so.root(f, x0, method=method, jac=jac)
    assert r.success and e.success
    np.testing.assert_allclose(r.x, e.x, rtol=0, atol=1e-8)


@pytest.mark.parametrize("opts", [{"maxfev": 7}, {"xtol": 1e-3}, {"factor": 0.5}, {"diag": [1.0, 3.0]},
                                  {"col_deriv": True}, {"eps": 1e-6}])
def test_options_as_scipy(host_optimize, opts):
    kw = {"jac": (lambda x: _example_jac(x).T) if opts.get("col_deriv") else _example_jac}
    if "eps" in opts:
        kw = {}
    x0 = np.array([2.0, -1.0])
    r = host_optimize.root(_example, x0, options=dict(opts), **kw)
    e = so.root(_example, x0, options=dict(opts), **kw)
    _counts_as_scipy(r, e)
    np.testing.assert_allclose(r.x, e.x, rtol=1e-10)


@pytest.mark.parametrize("use_jac", [False, True])
def test_hybr_singular_jacobian_at_start(host_optimize, use_jac):
    # J = [[2 x0, 1], [0, 1]] is singular at x0 = 0: MINPACK's zero-pivot rule gives a long step
    # along the null space (the exact Jacobian reaches the root); differences leave x0 at 0 (status 5)
    def f(x):
        return np.array([x[0] ** 2 + x[1] - 1, x[1] - 0.5])

    j = (lambda x: np.array([[2 * x[0], 1.0], [0.0, 1.0]])) if use_jac else None
    r = host_optimize.root(f, np.zeros(2), jac=j)
    e = so.root(f, np.zeros(2), jac=j)
    _counts_as_scipy(r, e)
    np.testing.assert_allclose(r.x, e.x, rtol=1e-10, atol=1e-14)


def test_status_and_errors(host_optimize):
    r = host_optimize.root(_example, np.zeros(2), options={"factor": 0})
    e = so.root(_example, [0, 0], options={"factor": 0})
    assert (r.status, r.success, r.message) == (e.status, e.success, e.message) == (0, False, e.message)
    r = host_optimize.root(_example, np.zeros(2), tol=1e-2)
    e = so.root(_example, [0, 0], tol=1e-2)
    _counts_as_scipy(r, e)
    with pytest.raises(ValueError, match="Unknown solver foo"):
        host_optimize.root(_example, np.zeros(2), method="foo")
    with pytest.raises(ValueError, match="Unknown solver foo"):
        so.root(_example, [0, 0], method="foo")
    with pytest.raises(TypeError, match=r"mismatch between the input and output shape.*Shape should be \(2,\)"):
        host_optimize.root(lambda x: np.ones(3), np.zeros(2))
    with pytest.raises(TypeError, match="mismatch between the input and output shape"):
        so.root(lambda x: np.ones(3), np.zeros(2))
    with pytest.warns(RuntimeWarning, match="Method hybr does not accept callback."):
        host_optimize.root(_example, np.zeros(2), callback=lambda x, f: None)
    with pytest.warns(RuntimeWarning, match="Method lm does not accept callback."):
        host_optimize.root(_example, np.zeros(2), method="lm", callback=lambda x, f: None)
    with pytest.warns(so.OptimizeWarning, match="Unknown solver options: bogus"):
        host_optimize.root(_example, np.zeros(2), options={"bogus": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        host_optimize.root(_example, [0.0, 0.0])  # a host list x0 is a parameter


def test_root_signature_matches_scipy():
    import cuarray.scipy.optimize as ours

    a, b = inspect.signature(ours.root), inspect.signature(so.root)
    assert list(a.parameters) == list(b.parameters)
    assert all(a.parameters[p].default == b.parameters[p].default for p in a.parameters)
