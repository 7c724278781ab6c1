"""minimize(method='Powell'): the real loop (NumPy standing in for the device routines) against
scipy.optimize. On SciPy's Rosenbrock start the arithmetic is SciPy's, so the iterates and counts
are SciPy's; on fresh random problems our objective sums in another order (as the device does),
the paths may part, and what must hold is the minimum to the tolerances asked for."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.optimize as so

X0 = np.array([1.3, 0.7, 0.8, 1.9, 1.2])  # SciPy's Rosenbrock start (test_optimize.py)
TIGHT = {"xtol": 1e-9, "ftol": 1e-13}


def _quiet(fn, *a, **k):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn(*a, **k)
    return r, [str(m.message) for m in w]


@pytest.mark.parametrize("kw", [{}, {"bounds": [(0, 1.1)] * 5}, {"bounds": [(-np.inf, 0.9)] * 5},
                                {"bounds": [(None, None), (0.5, None), (0, 2), (None, 1.5), (-1, 1)]},
                                {"options": {"maxfev": 50}}, {"options": {"maxiter": 3, "return_all": True}},
                                {"tol": 1e-7}, {"options": {"direc": np.diag([0.5, 1, 2, 1, 1]) + 0.1}}])
def test_rosenbrock_as_scipy(host_optimize, kw):
    # deterministic: the same start and the same arithmetic as SciPy's, so the same path
    r, w_ours = _quiet(host_optimize.minimize, host_optimize.rosen, X0, method="Powell", **kw)
    ref, w_ref = _quiet(so.minimize, so.rosen, X0, method="Powell", **kw)
    assert w_ours == w_ref
    assert (r.nit, r.nfev, r.status, r.success, r.message) == (ref.nit, ref.nfev, ref.status, ref.success,
                                                               ref.message)
    np.testing.assert_allclose(r.x, ref.x, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(r.direc, ref.direc, rtol=1e-12, atol=1e-14)
    assert r.fun == pytest.approx(ref.fun, rel=1e-12, abs=1e-300)
    if "return_all" in kw.get("options", {}):
        np.testing.assert_allclose(np.array(r.allvecs), np.array(ref.allvecs), rtol=1e-12)


def _spd(rng, n):
    q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    return (q * rng.uniform(1, 10, n)) @ q.T  # condition number at most 10


def test_random_quadratic(host_optimize):
    rng = np.random.default_rng()
    n = int(rng.integers(2, 7))
    a, b, x0 = _spd(rng, n), rng.standard_normal(n), rng.standard_normal(n)
    xs = np.linalg.solve(a, b)
    fs = -0.5 * b @ xs
    r = host_optimize.minimize(lambda x: 0.5 * np.sum(x * (a @ x)) - np.sum(b * x), x0, method="Powell",
                               options=TIGHT)
    ref = so.minimize(lambda x: 0.5 * x @ a @ x - b @ x, x0, method="Powell", options=TIGHT)
    assert r.success and ref.success and r.status == 0, (r, ref)
    # f - f* = (x - x*)' A (x - x*) / 2 and A >= I: the value's accuracy bounds the point's
    for res in (r, ref):
        assert res.fun - fs <= 1e-10 * (1 + abs(fs)), (res.fun, fs)
        np.testing.assert_allclose(res.x, xs, atol=2e-5 * (1 + abs(fs)) ** 0.5)
    assert r.x.shape == (n,) and r.direc.shape == (n, n)


def test_random_convex_quartic(host_optimize):
    # smooth, convex, not quadratic: Powell's directions do not degenerate, the minimum is c
    rng = np.random.default_rng()
    n = int(rng.integers(2, 6))
    a, bm, c, x0 = _spd(rng, n), rng.standard_normal((n, n)) / n ** 0.5, rng.standard_normal(n), rng.standard_normal(n)
    r = host_optimize.minimize(lambda x: 0.5 * np.sum((x - c) * (a @ (x - c))) + 0.25 * np.sum((bm.T @ (x - c)) ** 4),
                               x0, method="Powell", options=TIGHT)
    ref = so.minimize(lambda x: 0.5 * (x - c) @ a @ (x - c) + 0.25 * np.sum(((x - c) @ bm) ** 4), x0, method="Powell",
                      options=TIGHT)
    assert r.success and ref.success, (r, ref)
    for res in (r, ref):
        assert res.fun < 1e-18, res  # f >= |x - c|^2 / 2: below 1e-18, x is within 1.5e-9 of c
        np.testing.assert_allclose(res.x, c, atol=1e-8)


def test_random_rosenbrock(host_optimize):
    # Powell's direction set can collapse onto Rosenbrock's curved valley and crawl to maxfev (SciPy's
    # own run does so from about 5% of these starts): a run either converges to (1, 1, 1) or stops
    # there, lower than it started, with status 1
    rng = np.random.default_rng()
    x0 = 1 + 0.3 * rng.standard_normal(3)

    def rosen_other_order(x):
        return np.sum((1 - x[:-1]) ** 2 + 100.0 * (x[1:] - x[:-1] ** 2) ** 2)

    r = host_optimize.minimize(rosen_other_order, x0, method="Powell")
    ref = so.minimize(so.rosen, x0, method="Powell")
    for res in (r, ref):
        if res.success:
            assert res.fun < 1e-18 and res.nfev < 3000, res
            np.testing.assert_allclose(res.x, np.ones(3), atol=1e-8)
        else:
            assert (res.status, res.nfev) == (1, 3000) and res.fun < so.rosen(x0), res


@pytest.mark.parametrize("sides", ["both", "lower", "upper"])
def test_random_bounded_active(host_optimize, sides):
    # a separable objective whose unconstrained minimum c lies partly outside the box: Powell's
    # first sweep along the coordinates (bounded Brent on each, or over arctan(alpha) where one
    # side is open) lands on clip(c, lb, ub), which any correct run reaches. (With coupled
    # variables an active bound can stall Powell's directions short of the constrained minimum,
    # SciPy's as well as ours, so such problems test nothing robust.)
    rng = np.random.default_rng()
    n = int(rng.integers(2, 6))
    w, c = rng.uniform(1, 10, n), rng.uniform(-3, 3, n)
    lb = np.full(n, -np.inf) if sides == "upper" else np.full(n, -1.0)
    ub = np.full(n, np.inf) if sides == "lower" else np.full(n, 1.0)
    x0 = rng.uniform(-0.9, 0.9, n)
    bounds = list(zip(lb, ub))
    r = host_optimize.minimize(lambda x: np.sum(w * (x - c) ** 2 + 0.1 * (x - c) ** 4), x0, method="Powell",
                               bounds=bounds, options=TIGHT)
    ref = so.minimize(lambda x: w @ ((x - c) ** 2) + 0.1 * np.sum((x - c) ** 4), x0, method="Powell",
                      bounds=bounds, options=TIGHT)
    xs = np.clip(c, lb, ub)
    fs = np.sum(w * (xs - c) ** 2 + 0.1 * (xs - c) ** 4)
    assert r.status == 0 and ref.status == 0, (r, ref)
    assert np.all(r.x >= lb) and np.all(r.x <= ub)
    for res in (r, ref):
        # bounded Brent stops within a few tol1 = sqrt(eps)|x| + xtol/3 of the minimum or a bound, in
        # arctan(alpha) where one side is open: up to (1 + alpha^2) = 17 times that in x (|alpha| < 4)
        np.testing.assert_allclose(res.x, xs, atol=2e-6)
        assert abs(res.fun - fs) <= 1e-5 * (1 + fs), (res.fun, fs)


def test_callback_forms_and_stop(host_optimize):
    seen = {"ours": [], "ref": []}

    def make(key, form):
        if form == "xk":
            def cb(xk):
                seen[key].append(np.array(xk))
                if len(seen[key]) == 3:
                    raise StopIteration
        else:
            def cb(intermediate_result):
                seen[key].append(np.array(intermediate_result.x))
                assert np.isscalar(intermediate_result.fun) or np.ndim(intermediate_result.fun) == 0
        return cb

    for form in ("xk", "intermediate_result"):
        seen["ours"], seen["ref"] = [], []
        r = host_optimize.minimize(host_optimize.rosen, X0, method="Powell", callback=make("ours", form))
        ref = so.minimize(so.rosen, X0, method="Powell", callback=make("ref", form))
        assert (r.nit, r.status, r.success, r.message) == (ref.nit, ref.status, ref.success, ref.message)
        assert len(seen["ours"]) == len(seen["ref"]) == r.nit
        np.testing.assert_allclose(np.array(seen["ours"]), np.array(seen["ref"]), rtol=1e-12)
    assert r.status == 0 and ref.nit > 3


def test_special_values(host_optimize):
    # a NaN objective (status 3), a start outside the bounds (SciPy's warning), an all-zero
    # direction (skipped), one variable, float32 and integer starts
    for f_ours, f_ref, x0, kw in [
            (lambda x: np.nan * np.sum(x), lambda x: np.nan * np.sum(x), np.ones(2), {}),
            (host_optimize.rosen, so.rosen, np.array([2.0, 2.0]), {"bounds": [(0, 1)] * 2}),
            (host_optimize.rosen, so.rosen, np.array([0.5, 0.5]), {"options": {"direc": [[0, 0], [0, 1.0]]}}),
            (lambda x: np.sum((x - 3) ** 2), lambda x: np.sum((x - 3) ** 2), np.array([1.0]), {}),
            (host_optimize.rosen, so.rosen, np.array([0.5, 0.5], np.float32), {}),
            (lambda x: np.sum((x - 0.5) ** 2), lambda x: np.sum((x - 0.5) ** 2), np.array([2, 3]), {})]:
        r, w_ours = _quiet(host_optimize.minimize, f_ours, x0, method="Powell", **kw)
        ref, w_ref = _quiet(so.minimize, f_ref, x0, method="Powell", **kw)
        assert w_ours == w_ref, (w_ours, w_ref)
        assert (r.status, r.success, r.message, r.nit, r.nfev) == (ref.status, ref.success, ref.message, ref.nit,
                                                                   ref.nfev), (r, ref)
        np.testing.assert_allclose(r.x, ref.x, rtol=1e-12, atol=1e-15)
        assert (np.isnan(r.fun) and np.isnan(ref.fun)) or r.fun == pytest.approx(ref.fun, rel=1e-12, abs=1e-300)


def test_options_and_bad_input(host_optimize):
    m = host_optimize.minimize
    with pytest.raises(ValueError, match="upper bound is less than"):
        m(host_optimize.rosen, X0, method="Powell", bounds=[(1, 0)] * 5)
    with pytest.raises(ValueError, match="not compatible with the length"):
        m(host_optimize.rosen, X0, method="Powell", bounds=[(0, 1)] * 2)
    with pytest.raises(ValueError, match="tolerance should be >= 0"):
        so.minimize(so.rosen, X0, method="Powell", options={"xtol": -1})
    with pytest.raises(ValueError, match="tolerance should be >= 0"):
        m(host_optimize.rosen, X0, method="Powell", options={"xtol": -1})
    with pytest.raises(ValueError, match="must return a scalar"):
        m(lambda x: x, X0, method="Powell")
    with pytest.warns(so.OptimizeWarning, match="direc input is not full rank"):
        m(host_optimize.rosen, X0[:2], method="Powell", options={"direc": np.ones((2, 2)), "maxiter": 1})
    with pytest.warns(so.OptimizeWarning, match="Unknown solver options: bogus"):
        m(host_optimize.rosen, X0, method="Powell", options={"maxiter": 1, "bogus": 1})
    with pytest.warns(RuntimeWarning, match="does not use gradient information"):
        m(host_optimize.rosen, X0, method="Powell", jac=host_optimize.rosen_der, options={"maxiter": 1})
    with pytest.warns(RuntimeWarning, match="cannot handle constraints"):
        m(host_optimize.rosen, X0, method="Powell", constraints=[{"type": "eq", "fun": np.sum}],
          options={"maxiter": 1})
    for opts in ({"maxiter": 2}, {"maxfev": 30}, {"maxiter": np.inf, "maxfev": 40}):
        r = m(host_optimize.rosen, X0, method="Powell", options=opts)
        ref = so.minimize(so.rosen, X0, method="Powell", options=opts)
        assert (r.status, r.nit, r.nfev, r.message) == (ref.status, ref.nit, ref.nfev, ref.message)


def test_options_are_scipys():
    from cuarray.scipy.optimize import _minimize
    from scipy.optimize._optimize import _minimize_powell

    params = [p for p in inspect.signature(_minimize_powell).parameters.values() if p.kind == p.KEYWORD_ONLY
              or (p.default is not inspect.Parameter.empty and p.name not in ("args", "callback", "bounds"))]
    assert sorted(p.name for p in params) == sorted(_minimize._POWELL_OPTIONS)
    from cuarray.scipy.optimize._powell import minimize_powell

    ours = inspect.signature(minimize_powell).parameters
    for p in params:
        assert ours[p.name].default == p.default or (ours[p.name].default is p.default), p.name
