"""root(method='krylov') and newton_krylov (the real Newton-Krylov loop, its J v differences and line
searches, NumPy standing in for the device routines and SciPy's Krylov solvers for cuarray's) against
SciPy's on fresh random well-conditioned systems: a discretised 1-D Bratu problem and diagonally
dominant nonlinear maps; options, statuses, errors and signatures. The two runs round differently
(the norms' summation order), so the roots are compared within what the stopping test and the
Jacobian's smallest singular value allow, not bit for bit."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.optimize as so
from scipy.sparse.linalg import LinearOperator

F_TOL = np.finfo(np.float64).eps ** (1 / 3)  # SciPy's default: |F|_max <= f_tol


def bratu(n, lam):
    """u'' + lam e^u = 0 on (0, 1), u(0) = u(1) = 0, by central differences at n interior points.
    For lam <= 1.5 the Jacobian L / h^2 + lam diag(e^u) stays negative definite with singular
    values above pi^2 - 1.5 e^0.3 > 7 near the root."""
    h2 = (1.0 / (n + 1)) ** 2

    def f(u):
        up = np.concatenate([u[1:], u[:1] * 0])
        um = np.concatenate([u[:1] * 0, u[:-1]])
        return (up - 2 * u + um) / h2 + lam * np.exp(u)

    return f, 7.0


def dominant(rng, n, symmetric=False):
    """f = A x + 0.3 tanh(x) - b, A = 3 I + 0.5 G / sqrt(n) (G Gaussian, symmetrised on request): the
    Jacobian's singular values stay above 3 - 0.5 |G| / sqrt(n) > 1 in all but vanishing cases."""
    g = rng.standard_normal((n, n))
    if symmetric:
        g = (g + g.T) / 2
    a = 3 * np.eye(n) + 0.5 * g / np.sqrt(n)
    b = rng.standard_normal(n)
    return (lambda x: a @ x + 0.3 * np.tanh(x) - b), 1.0


def _same_root(r, e, f, sigma, f_tol=F_TOL, method="krylov"):
    """Both runs stopped by the residual test; |x - x*| <= |f(x)|_2 / sigma for each."""
    assert r.success and e.success and r.status == e.status == 1, (r, e)
    assert r.message == e.message and r.method == e.method == method
    fr, fe = f(r.x), f(e.x)
    assert np.abs(fr).max() <= f_tol, np.abs(fr).max()
    np.testing.assert_array_equal(r.fun, fr.ravel())
    bound = (np.linalg.norm(fr) + np.linalg.norm(fe)) / sigma
    assert np.linalg.norm(r.x - e.x) <= bound, (np.linalg.norm(r.x - e.x), bound)
    assert r.nit >= 1 and r.nfev >= r.nit


@pytest.mark.parametrize("inner", ["lgmres", "gmres", "bicgstab", "cgs"])
@pytest.mark.parametrize("line_search", ["armijo", "wolfe", None])
def test_bratu_as_scipy(host_optimize, inner, line_search):
    rng = np.random.default_rng()
    n, lam = int(rng.integers(20, 45)), float(rng.uniform(0.3, 1.5))
    f, sigma = bratu(n, lam)
    opts = {"line_search": line_search, "jac_options": {"method": inner}}
    r = host_optimize.root(f, np.zeros(n), method="krylov", options=opts)
    e = so.root(f, np.zeros(n), method="krylov", options=opts)
    _same_root(r, e, f, sigma)


@pytest.mark.parametrize("inner,symmetric", [("lgmres", False), ("gmres", False), ("bicgstab", False),
                                             ("tfqmr", False), ("minres", True)])
def test_dominant_map_as_scipy(host_optimize, inner, symmetric):
    rng = np.random.default_rng()
    n = int(rng.integers(3, 40))
    f, sigma = dominant(rng, n, symmetric)
    x0 = rng.standard_normal(n)
    opts = {"jac_options": {"method": inner}}
    r = host_optimize.root(f, x0, method="krylov", options=opts)
    e = so.root(f, x0, method="krylov", options=opts)
    _same_root(r, e, f, sigma)


def bratu2d(lam, h):
    """The Bratu problem on the unit square (five-point Laplacian, zero boundary): for lam <= 3 the
    Jacobian's singular values stay above 2 pi^2 - 3 e^0.3 > 10 near the root."""

    def f(u):
        p = np.pad(u, 1)
        return (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2] - 4 * u) / h ** 2 + lam * np.exp(u)

    return f, 10.0


def test_newton_krylov_2d_as_scipy(host_optimize):
    # x0 on a grid: F sees x0's shape, x comes back in it
    rng = np.random.default_rng()
    nx, ny = (int(v) for v in rng.integers(5, 12, 2))
    f, sigma = bratu2d(float(rng.uniform(0.5, 3)), 1 / (max(nx, ny) + 1))
    x = host_optimize.newton_krylov(f, np.zeros((nx, ny)))
    e = so.newton_krylov(f, np.zeros((nx, ny)))
    assert x.shape == e.shape == (nx, ny)
    fr, fe = f(x), f(e)
    assert np.abs(fr).max() <= F_TOL
    assert np.linalg.norm(x - e) <= (np.linalg.norm(fr) + np.linalg.norm(fe)) / sigma


def test_options_as_scipy(host_optimize):
    rng = np.random.default_rng()
    n = 12
    f, sigma = dominant(rng, n)
    x0 = np.zeros(n)

    def both(**kw):
        return host_optimize.root(f, x0, method="krylov", **kw), so.root(f, x0, method="krylov", **kw)

    # nit and maxiter stop after a fixed count, whatever the rounding: status 2, the same nit
    for opts in ({"nit": 2}, {"maxiter": 2}):
        r, e = both(options=opts)
        assert (r.status, r.success, r.message, r.nit) == (e.status, e.success, e.message, e.nit), (opts, r, e)
        assert not r.success and r.status == 2
    # tighter residual tolerances, a relative step tolerance (root's tol), a 2-norm for the tests
    r, e = both(options={"fatol": 1e-10})
    _same_root(r, e, f, sigma, f_tol=1e-10)
    r, e = both(options={"tol_norm": np.linalg.norm, "fatol": 1e-9})
    assert r.success and np.linalg.norm(f(r.x)) <= 1e-9
    r, e = both(tol=1e-7)  # |dx| <= 1e-7 |x| only: Newton's quadratic step puts |f| well below that
    assert r.success and e.success and np.linalg.norm(f(r.x)) <= 1e-5
    np.testing.assert_allclose(r.x, e.x, rtol=0, atol=1e-5)
    r, e = both(options={"ftol": 1e-6, "fatol": np.inf})
    assert r.success and np.abs(f(r.x)).max() <= 1e-6 * np.abs(f(x0)).max()
    # the inner solver's options: SciPy's names with the inner_ prefix
    r, e = both(options={"jac_options": {"inner_maxiter": 5, "outer_k": 3, "rdiff": 1e-6, "inner_rtol": 1e-3}})
    _same_root(r, e, f, sigma)


def test_callback_verbose_and_float32(host_optimize, capsys):
    rng = np.random.default_rng()
    f, _ = dominant(rng, 8)
    seen = []
    r = host_optimize.root(f, np.zeros(8), method="krylov", callback=lambda x, fx: seen.append((x, fx)),
                           options={"disp": True})
    lines = capsys.readouterr().out.splitlines()
    # one callback and one line per step taken; check n counts from 1, so nit - 1 steps
    assert len(seen) == len(lines) == r.nit - 1 >= 1, (len(seen), lines, r.nit)
    assert lines[0].startswith("0:  |F(x)| = ") and lines[-1].endswith("; step 1")
    np.testing.assert_array_equal(seen[-1][0], r.x)
    x = host_optimize.newton_krylov(lambda x: x * x - 4, np.ones(3, np.float32))
    assert x.dtype == np.float32
    np.testing.assert_allclose(x, 2, rtol=1e-5)


def test_preconditioner_and_callable_method(host_optimize):
    rng = np.random.default_rng()
    n = 10
    f, sigma = dominant(rng, n)
    calls = []

    class Jacobi(LinearOperator):
        # an adaptive preconditioner (1/3 I): SciPy calls its setup once and its update each step
        def __init__(self):
            super().__init__(np.float64, (n, n))

        def _matvec(self, v):
            return v / 3

        def setup(self, x, fx, func):
            calls.append("setup")

        def update(self, x, fx):
            calls.append("update")

    r = host_optimize.root(f, np.zeros(n), method="krylov", options={"jac_options": {"inner_M": Jacobi()}})
    assert r.success and calls[0] == "setup" and calls[1:] == ["update"] * (r.nit - 1), (calls, r.nit)
    used = []

    def my_gmres(A, b, rtol=1e-5, maxiter=None, M=None, atol=0.0):
        import scipy.sparse.linalg as spla

        used.append(rtol)
        return spla.gmres(A, b, rtol=rtol, atol=atol, maxiter=maxiter, M=M)

    r = host_optimize.newton_krylov(f, np.zeros(n), method=my_gmres)
    assert np.abs(f(r)).max() <= F_TOL and used and used[0] == 1e-3  # the first forcing term


def test_errors_as_scipy(host_optimize):
    x0 = np.zeros(3)

    def f(x):
        return x * x - 1 + x

    for mod in (host_optimize, so):
        with pytest.raises(ValueError, match="Invalid line search"):
            mod.root(f, x0, method="krylov", options={"line_search": "bogus"})
        with pytest.raises(ValueError, match="Unknown parameter foo"):
            mod.newton_krylov(f, x0, foo=1)
        with pytest.warns(UserWarning, match="Option 'inner_rtl' is invalid for the inner method: lgmres.*"
                                             "Did you mean 'rtol'"):
            mod.newton_krylov(f, x0, inner_rtl=1e-3)
        with pytest.warns(so.OptimizeWarning, match="Unknown solver options: bogus"):
            mod.root(f, x0, method="krylov", options={"bogus": 1})
        with pytest.warns(RuntimeWarning, match="Method krylov does not use the jacobian"):
            mod.root(f, x0, method="krylov", jac=lambda x: np.eye(3))
        with pytest.raises(ValueError, match="Jacobian inversion yielded zero vector"):
            mod.root(lambda x: np.ones(3), x0, method="krylov")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's sqrt of a negative probe
            with pytest.raises(ValueError, match="Function returned non-finite results"):
                mod.root(lambda x: np.sqrt(x) - 1, x0, method="krylov")
    # no convergence: NoConvergence carries the last iterate, in x0's shape
    with pytest.raises(host_optimize.NoConvergence) as ours:
        host_optimize.newton_krylov(lambda x: np.exp(x) + 1, np.ones((2, 2)), maxiter=2)
    with pytest.raises(so.NoConvergence) as theirs:
        so.newton_krylov(lambda x: np.exp(x) + 1, np.ones((2, 2)), maxiter=2)
    assert ours.value.args[0].shape == theirs.value.args[0].shape == (2, 2)
    # fun returning (f, J) with jac=True: the Jacobian is ignored, as SciPy does with args
    a = np.array([2.0, 3.0, 4.0])
    with pytest.warns(RuntimeWarning, match="does not use the jacobian"):
        r = host_optimize.root(lambda x, a: (x * a - 1, None), x0, args=(a,), jac=True, method="krylov")
    np.testing.assert_allclose(r.x, 1 / a, rtol=1e-5)
    assert r.nfev >= 2 and list(r.keys())[:2] == ["x", "method"]


MIXING = ["anderson", "linearmixing", "diagbroyden", "excitingmixing"]


@pytest.mark.parametrize("method", MIXING)
@pytest.mark.parametrize("line_search", ["armijo", None])
def test_mixing_methods_as_scipy(host_optimize, method, line_search):
    # -f of the dominant map: a Jacobian near -3 I, which the scalar and diagonal models (-1/alpha)
    # approximate in sign; SciPy's quasi-Newton updates on it converge from a random start
    rng = np.random.default_rng()
    n = int(rng.integers(3, 40))
    fp, sigma = dominant(rng, n)

    def f(x):
        return -fp(x)

    x0 = rng.standard_normal(n)
    r = host_optimize.root(f, x0, method=method, options={"line_search": line_search})
    e = so.root(f, x0, method=method, options={"line_search": line_search})
    _same_root(r, e, f, sigma, method=method)


@pytest.mark.parametrize("method,kw", [("anderson", {"alpha": 0.2, "M": 0}), ("anderson", {"w0": 0.1, "M": 3}),
                                       ("linearmixing", {"alpha": 0.25}), ("diagbroyden", {"alpha": 0.3}),
                                       ("excitingmixing", {"alpha": 0.1, "alphamax": 0.3})])
def test_mixing_functions_as_scipy(host_optimize, method, kw):
    rng = np.random.default_rng()
    n = 10
    fp, sigma = dominant(rng, n)

    def f(x):
        return -fp(x)

    x0 = rng.standard_normal((2, 5))  # F sees x0's shape, x comes back in it
    x = getattr(host_optimize, method)(lambda x: f(x.ravel()).reshape(2, 5), x0, **kw)
    e = getattr(so, method)(lambda x: f(x.ravel()).reshape(2, 5), x0, **kw)
    assert x.shape == e.shape == (2, 5)
    fr, fe = f(x.ravel()), f(e.ravel())
    assert np.abs(fr).max() <= F_TOL
    assert np.linalg.norm(x - e) <= (np.linalg.norm(fr) + np.linalg.norm(fe)) / sigma
    for mod in (host_optimize, so):
        with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
            getattr(mod, method)(f, x0.ravel(), bogus=1)


def test_signatures_match_scipy():
    import cuarray.scipy.optimize as ours

    for name in ["newton_krylov", "root"] + MIXING:
        a, b = inspect.signature(getattr(ours, name)), inspect.signature(getattr(so, name))
        assert a == b, (name, a, b)
    assert issubclass(ours.NoConvergence, Exception)
