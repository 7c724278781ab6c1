"""broyden1, broyden2 and root(method='broyden1'|'broyden2') (the real loop and the low-rank inverse
Jacobian with its rank reductions, NumPy standing in for the device routines) against SciPy's on
fresh random well-conditioned systems. The two runs round differently, so the roots are compared
within what the stopping test and the Jacobian's smallest singular value allow (see
test_root_krylov_cpu), and the low-rank matrix itself is compared with a dense reference."""

import inspect

import numpy as np
import pytest
import scipy.optimize as so
from test_root_krylov_cpu import F_TOL, _same_root, dominant  # tests/scipy/optimize is on sys.path

REDUCTIONS = [("restart", None), ("restart", 3), ("simple", 4), ("svd", 5), (("svd", 2), 5)]


def _neg_dominant(rng, n):
    # -f of the dominant map: a Jacobian near -3 I, of the sign of Broyden's start -1/alpha
    fp, sigma = dominant(rng, n)
    return (lambda x: -fp(x)), sigma


@pytest.mark.parametrize("method", ["broyden1", "broyden2"])
@pytest.mark.parametrize("reduction,max_rank", REDUCTIONS)
def test_root_as_scipy(host_optimize, method, reduction, max_rank):
    rng = np.random.default_rng()
    n = int(rng.integers(3, 30))
    f, sigma = _neg_dominant(rng, n)
    x0 = rng.standard_normal(n)
    opts = {"jac_options": {"reduction_method": reduction, "max_rank": max_rank}}
    r = host_optimize.root(f, x0, method=method, options=opts)
    e = so.root(f, x0, method=method, options=opts)
    _same_root(r, e, f, sigma, method=method)


@pytest.mark.parametrize("method", ["broyden1", "broyden2"])
def test_functions_as_scipy(host_optimize, method):
    # SciPy's documented example, x0 on a grid (F sees x0's shape), alpha, Wolfe's search
    rng = np.random.default_rng()
    fp, sigma = dominant(rng, 6)

    def f(x):
        return -fp(x.ravel()).reshape(2, 3)

    x0 = rng.standard_normal((2, 3))
    for kw in ({}, {"alpha": 0.2, "line_search": "wolfe"}, {"line_search": None, "alpha": 0.3}):
        x = getattr(host_optimize, method)(f, x0, **kw)
        e = getattr(so, method)(f, x0, **kw)
        assert x.shape == e.shape == (2, 3)
        fr, fe = f(x), f(e)
        assert np.abs(fr).max() <= F_TOL
        assert np.linalg.norm(x - e) <= (np.linalg.norm(fr) + np.linalg.norm(fe)) / sigma

    def g(x):
        return [x[0] + 0.5 * (x[0] - x[1]) ** 3 - 1.0, 0.5 * (x[1] - x[0]) ** 3 + x[1]]

    x = getattr(host_optimize, method)(lambda x: np.asarray(g(x)), [0.0, 0.0], f_tol=1e-14)
    # the root of SciPy's example; its Jacobian's smallest singular value is about 0.5 there
    np.testing.assert_allclose(x, [0.8411639, 0.1588361], atol=1e-6)


@pytest.mark.parametrize("kind", ["broyden1", "broyden2"])
def test_low_rank_inverse_as_dense(host_optimize_copies, kind):
    # the approximation after a few updates (past n, where it turns dense) against the dense update
    # formulas of SciPy's docstrings, and each reduction against SciPy's LowRankMatrix
    from scipy.optimize import _nonlin as sn

    mod = host_optimize_copies["_nonlin_broyden"]
    rng = np.random.default_rng()
    n = 5
    ours = mod.broyden_jacobians()[kind](alpha=0.7)
    ours.setup(rng.standard_normal(n), rng.standard_normal(n), None)
    H = -0.7 * np.eye(n)
    for _ in range(n + 3):
        x, fx = rng.standard_normal(n), rng.standard_normal(n)
        dx, df = x - ours.last_x, fx - ours.last_f
        ours.update(x, fx)
        if kind == "broyden1":
            H = H + np.outer(dx - H @ df, dx @ H) / (dx @ H @ df)
        else:
            H = H + np.outer(dx - H @ df, df) / (df @ df)
        v = rng.standard_normal(n)
        # conditioning: H's updates are well scaled for Gaussian steps but not orthogonal; 1e-9 relative
        np.testing.assert_allclose(ours.solve(v), H @ v, rtol=1e-9, atol=1e-9 * np.abs(H).max() * np.abs(v).sum())
    assert ours.Gm.full is not None
    for method, args in (("restart_reduce", (2,)), ("simple_reduce", (2,)), ("svd_reduce", (4,)),
                         ("svd_reduce", (4, 1))):
        cs, ds = [rng.standard_normal(8) for _ in range(5)], [rng.standard_normal(8) for _ in range(5)]
        a, b = mod._LowRank(-0.5, 8, np.float64), sn.LowRankMatrix(-0.5, 8, np.float64)
        a.cs, a.ds, b.cs, b.ds = list(cs), list(ds), list(cs), list(ds)
        getattr(a, method)(*args)
        getattr(b, method)(*args)
        assert len(a.cs) == len(b.cs), method
        v = rng.standard_normal(8)
        np.testing.assert_allclose(a.matvec(v), b.matvec(v), rtol=1e-10, atol=1e-10 * np.abs(b.matvec(v)).max())


def test_nonfinite_step_restarts(host_optimize_copies):
    # an update that leaves a non-finite inverse (SciPy's case of dx^H H df = 0): the step's read sees
    # it, the approximation starts afresh at -alpha I (alpha kept), and the loop still converges
    mod = host_optimize_copies["_nonlin_broyden"]
    events = []

    class Poisoned(mod.broyden_jacobians()["broyden1"]):
        def setup(self, x, f, func):
            events.append("setup")
            super().setup(x, f, func)

        def _update(self, x, f, dx, df):
            super()._update(x, f, dx, df)
            if len(events) == 1:
                self.Gm.append(dx * np.inf, dx)
                events.append("poisoned")

    a = np.diag(np.linspace(-4, -2, 6))
    b = np.random.default_rng().standard_normal(6)
    x = host_optimize_copies["_nonlin"].nonlin_solve(lambda x: a @ x - b, np.zeros(6), Poisoned(alpha=0.3))
    assert events[:3] == ["setup", "poisoned", "setup"] and len(events) == 3, events
    np.testing.assert_allclose(x, np.linalg.solve(a, b), atol=F_TOL)  # |a^-1| <= 1/2


def test_errors_and_statuses_as_scipy(host_optimize):
    x0 = np.array([0.5, 0.5])
    for mod in (host_optimize, so):
        with pytest.raises(ValueError, match="Unknown rank reduction method 'bogus'"):
            mod.root(lambda x: x, x0, method="broyden1", options={"jac_options": {"reduction_method": "bogus"}})
        with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
            mod.broyden2(lambda x: x, x0, bogus=1)
        with pytest.raises(ValueError, match="Invalid line search"):
            mod.broyden1(lambda x: x, x0, line_search="bogus")
        with pytest.warns(RuntimeWarning, match="Method broyden2 does not use the jacobian"):
            mod.root(lambda x: x - 1, x0, method="broyden2", jac=lambda x: np.eye(2))
        with pytest.warns(so.OptimizeWarning, match="Unknown solver options: bogus"):
            mod.root(lambda x: x - 1, x0, method="broyden1", options={"bogus": 1})
    for opts in ({"nit": 2}, {"maxiter": 3}):
        r = host_optimize.root(lambda x: np.exp(x) + 1, x0, method="broyden1", options=opts)
        e = so.root(lambda x: np.exp(x) + 1, x0, method="broyden1", options=opts)
        assert (r.status, r.success, r.message, r.nit) == (e.status, e.success, e.message, e.nit) == (2, False,
                                                                                                    e.message, e.nit)
    with pytest.raises(host_optimize.NoConvergence):
        host_optimize.broyden2(lambda x: np.exp(x) + 1, x0, maxiter=2)


def test_signatures_match_scipy():
    import cuarray.scipy.optimize as ours

    for name in ("broyden1", "broyden2"):
        a, b = inspect.signature(getattr(ours, name)), inspect.signature(getattr(so, name))
        assert a == b, (name, a, b)
