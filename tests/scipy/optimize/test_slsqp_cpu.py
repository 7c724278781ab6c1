"""minimize(method='SLSQP') (the real loop, NumPy standing in for the device routines) against
scipy.optimize.minimize(method='SLSQP') on SciPy's classic constrained problems and fresh random
convex QPs: the same minimizer, value, status and message; constraint satisfaction; SciPy's
errors and warnings. The QP subproblem is solved by another factorization (QR of the equality
rows, a least-squares NNLS) than SciPy's, so the results agree to rounding, not bit for bit:
counts are compared with a small slack."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.optimize as so

_slsqp_py = pytest.importorskip("scipy.optimize._slsqp_py")


def _hs71(x):
    return x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2]


def _hs71_der(x):
    return np.array([x[3] * (2 * x[0] + x[1] + x[2]), x[0] * x[3], x[0] * x[3] + 1, x[0] * (x[0] + x[1] + x[2])])


def _hs71_cons(with_jac):
    ineq = {"type": "ineq", "fun": lambda x: x[0] * x[1] * x[2] * x[3] - 25}
    eq = {"type": "eq", "fun": lambda x: x @ x - 40}
    if with_jac:
        ineq["jac"] = lambda x: np.array([x[1] * x[2] * x[3], x[0] * x[2] * x[3], x[0] * x[1] * x[3], x[0] * x[1] * x[2]])
        eq["jac"] = lambda x: 2 * x
    return [ineq, eq]


def _signed(x, sign=1.0):
    return sign * (2 * x[0] * x[1] + 2 * x[0] - x[0] ** 2 - 2 * x[1] ** 2)


def _tutorial(x):
    return (x[0] - 1) ** 2 + (x[1] - 2.5) ** 2


_TUTORIAL_CONS = [{"type": "ineq", "fun": lambda x: x[0] - 2 * x[1] + 2},
                  {"type": "ineq", "fun": lambda x: -x[0] - 2 * x[1] + 6},
                  {"type": "ineq", "fun": lambda x: -x[0] + 2 * x[1] + 2}]


def _new_style(mod):
    """SciPy's tutorial constraints (Rosenbrock), as `mod`'s LinearConstraint/NonlinearConstraint."""
    return [mod.LinearConstraint([[1, 2], [2, 1]], [-np.inf, 1], [1, 1]),
            mod.NonlinearConstraint(lambda x: np.array([x[0] ** 2 + x[1], x[0] ** 2 - x[1]]), -np.inf, 1,
                                    jac=lambda x: np.array([[2 * x[0], 1], [2 * x[0], -1]]))]


# name: (fun, x0, keywords, constraints as a function of the module) -- SciPy's test_slsqp.py and tutorial cases
CASES = {
    "eq+ineq,args": (_signed, [-1.0, 1.0], {"args": (-1.0,)}, lambda m: [
        {"type": "eq", "fun": lambda x, s: x[0] ** 3 - x[1], "args": (-1.0,)},
        {"type": "ineq", "fun": lambda x: x[1] - 1}]),
    "tutorial,bounds": (_tutorial, [2.0, 0.0], {"bounds": ((0, None), (0, None))}, lambda m: _TUTORIAL_CONS),
    "tutorial": (_tutorial, [2.0, 0.0], {}, lambda m: _TUTORIAL_CONS),
    "hs71,fd": (_hs71, [1.0, 5, 5, 1], {"bounds": [(1, 5)] * 4, "options": {"ftol": 1e-9}},
                lambda m: _hs71_cons(False)),
    "hs71,3-point": (_hs71, [1.0, 5, 5, 1], {"bounds": [(1, 5)] * 4, "jac": "3-point"}, lambda m: _hs71_cons(False)),
    "hs71,jac": (_hs71, [1.0, 5, 5, 1], {"bounds": [(1, 5)] * 4, "jac": _hs71_der, "tol": 1e-10},
                 lambda m: _hs71_cons(True)),
    "new-style": (so.rosen, [0.5, 0.0], {"jac": so.rosen_der, "bounds": "Bounds"}, _new_style),
    "infeasible start": (lambda x: x[0] ** 2 - 2 * x[0] + 1, [10.0], {}, lambda m: [
        {"type": "ineq", "fun": lambda x: 0 - x}]),
    "inconsistent linearization": (lambda x: x[0] ** 2 + x[1] ** 2, [0.0, 1.0], {"bounds": ((0, None), (0, None))},
                                   lambda m: [{"type": "eq", "fun": lambda x: x[0] + x[1] - 2},
                                              {"type": "ineq", "fun": lambda x: x[0] ** 2 - 1}]),
    "bounds only, jac=True": (lambda x: (so.rosen(x), so.rosen_der(x)), [1.3, 0.7, 0.8, 1.9, 1.2],
                              {"jac": True, "bounds": [(-1.5, 0.9)] * 5}, lambda m: ()),
}


def _run(mod, case):
    fun, x0, kw, cons = CASES[case]
    kw = dict(kw)
    if kw.get("bounds") == "Bounds":
        kw["bounds"] = mod.Bounds([0, -0.5], [1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", so.OptimizeWarning)  # the mixed LinearConstraint (checked below)
        return mod.minimize(fun, np.array(x0), method="SLSQP", constraints=cons(mod), **kw)


def _residuals(case, x):
    """The constraint values at x: equalities (== 0) and inequalities (>= 0)."""
    cons = CASES[case][3](so)
    eq = [np.atleast_1d(c["fun"](x, *c.get("args", ()))) for c in cons if isinstance(c, dict) and c["type"] == "eq"]
    ineq = [np.atleast_1d(c["fun"](x, *c.get("args", ()))) for c in cons if isinstance(c, dict) and c["type"] == "ineq"]
    for c in cons:
        if not isinstance(c, dict):
            v = c.A @ x if hasattr(c, "A") else c.fun(x)
            ineq += [v - c.lb, c.ub - v]
    cat = lambda vs: np.concatenate(vs) if vs else np.zeros(0)  # noqa: E731
    return cat(eq), cat(ineq)


@pytest.mark.parametrize("case", list(CASES))
def test_classic_problems_as_scipy(host_optimize, case):
    r, want = _run(host_optimize, case), _run(so, case)
    assert (r.status, r.success, r.message) == (want.status, want.success, want.message), (r, want)
    # forward differences (step 1.5e-8) leave x accurate to ~1e-7; analytic derivatives to ftol's square root
    fd = CASES[case][2].get("jac") in (None, "2-point")
    np.testing.assert_allclose(r.x, want.x, rtol=0, atol=1e-6 if fd else 1e-7)
    np.testing.assert_allclose(r.fun, want.fun, rtol=1e-8, atol=1e-12)
    assert abs(r.nit - want.nit) <= 2, (r.nit, want.nit)
    assert r.multipliers.shape == want.multipliers.shape
    np.testing.assert_allclose(r.multipliers, want.multipliers, rtol=1e-4, atol=1e-5)
    eq, ineq = _residuals(case, r.x)
    # SLSQP stops when the violations sum to less than ftol
    kw = CASES[case][2]
    ftol = kw.get("options", {}).get("ftol", kw.get("tol", 1e-6))
    assert np.abs(eq).sum() + np.maximum(-ineq, 0).sum() < ftol, (eq, ineq)
    b = CASES[case][2].get("bounds")
    if isinstance(b, list):
        assert np.all(r.x >= [v[0] for v in b]) and np.all(r.x <= [v[1] for v in b])
    assert r.jac.shape == r.x.shape and r.nfev >= r.nit and r.njev >= 1


def _random_qp(rng, n, k_eq, k_in, bounded):
    """min x'Qx/2 + q'x (Q well conditioned) with a strictly feasible point x_f: A x = A x_f,
    G x <= G x_f + slack, boxes around x_f; the unconstrained minimizer lies far outside."""
    m = rng.standard_normal((n, n))
    q_mat = m @ m.T / n + np.eye(n)
    q = rng.standard_normal(n) * 5
    x_f = rng.uniform(-1, 1, n)
    a = rng.standard_normal((k_eq, n))
    g = rng.standard_normal((k_in, n))
    h = g @ x_f + rng.uniform(0.05, 0.5, k_in)
    cons = [{"type": "ineq", "fun": lambda x: h - g @ x, "jac": lambda x: -g}]
    if k_eq:
        cons.append({"type": "eq", "fun": lambda x: a @ x - a @ x_f, "jac": lambda x: a})
    bounds = list(zip(x_f - rng.uniform(0.2, 1, n), x_f + rng.uniform(0.2, 1, n))) if bounded else None
    x0 = rng.uniform(-3, 3, n)  # infeasible in general
    return (lambda x: 0.5 * x @ q_mat @ x + q @ x), (lambda x: q_mat @ x + q), cons, bounds, x0, (a, a @ x_f, g, h)


def _qp_optimum(q_mat, q, rows, rhs):
    """The equality-constrained QP's minimizer and multipliers from its KKT system (exact up to
    rounding): min x'Qx/2 + q'x subject to rows x = rhs."""
    n, k = len(q), len(rhs)
    kkt = np.block([[q_mat, rows.T], [rows, np.zeros((k, k))]])
    sol = np.linalg.solve(kkt, np.concatenate([-q, rhs]))
    return sol[:n], -sol[n:]


@pytest.mark.parametrize("n,k_eq,k_in,bounded", [(3, 1, 2, False), (6, 2, 4, True), (8, 0, 5, True)])
def test_random_convex_qp(host_optimize, n, k_eq, k_in, bounded):
    """Fresh random strictly convex QPs against their exact minimizer: the active set read off our
    answer, the KKT system solved, and the multipliers' signs checked (so x* is the optimum).
    SciPy's SLSQP is the oracle for success and f; at ftol = 1e-13 it stops with mode 8 on ~2%
    of these problems (its line search at the rounding floor), ours on none of 18,000."""
    rng = np.random.default_rng()
    f, df, cons, bounds, x0, (a, b, g, h) = _random_qp(rng, n, k_eq, k_in, bounded)
    opts = {"ftol": 1e-13, "maxiter": 200}
    r = host_optimize.minimize(f, x0, method="SLSQP", jac=df, constraints=cons, bounds=bounds, options=opts)
    want = so.minimize(f, x0, method="SLSQP", jac=df, constraints=cons, bounds=bounds, options=opts)
    assert r.success, r
    eye = np.eye(n)
    on_g = np.abs(g @ r.x - h) < 1e-6
    lo, hi = np.array(bounds).T if bounds is not None else (np.full(n, -np.inf), np.full(n, np.inf))
    on_lo, on_hi = np.abs(r.x - lo) < 1e-6, np.abs(r.x - hi) < 1e-6
    rows = np.vstack([a, g[on_g], -eye[on_lo], eye[on_hi]])
    rhs = np.concatenate([b, h[on_g], -lo[on_lo], hi[on_hi]])
    q_mat, q = np.array([df(e) - df(0 * e) for e in eye]).T, df(np.zeros(n))
    x_star, mult = _qp_optimum(q_mat, q, rows, rhs)
    # x* is the optimum: feasible, and the active inequalities' multipliers are not negative
    assert np.all(g @ x_star <= h + 1e-12) and np.all(x_star >= lo - 1e-12) and np.all(x_star <= hi + 1e-12)
    assert np.all(mult[k_eq:] <= 1e-9), mult
    # both stop where |f_k - f_k-1| < ftol: |x - x*| ~ sqrt(ftol / lambda_min) (Q's eigenvalues >= 1;
    # seen: up to 1.2e-6 in 6,000 random problems, SciPy's up to 1.0e-6)
    np.testing.assert_allclose(r.x, x_star, rtol=0, atol=3e-6)
    if want.success:
        np.testing.assert_allclose(r.fun, want.fun, rtol=1e-9, atol=1e-9)
    assert np.all(np.abs(a @ r.x - b) <= 1e-8) and np.all(g @ r.x <= h + 1e-8)
    assert np.all(r.x >= lo) and np.all(r.x <= hi)
    assert np.all(r.multipliers[k_eq:] >= -1e-8)  # the inequality multipliers (listed after the equalities)


@pytest.mark.parametrize("jac,opts", [(None, {"eps": 0.05}), ("2-point", {"finite_diff_rel_step": 0.05})])
def test_difference_steps(host_optimize, jac, opts):
    """eps / finite_diff_rel_step reach the objective's and the constraints' differences: steps
    this large move the answer by > 1e-5 from the default steps', ours stays on SciPy's."""
    kw = {"jac": jac, "bounds": [(1, 5)] * 4, "constraints": _hs71_cons(False)}
    x0 = np.array([1.0, 5, 5, 1])
    r = host_optimize.minimize(_hs71, x0, method="SLSQP", options=opts, **kw)
    want = so.minimize(_hs71, x0, method="SLSQP", options=opts, **kw)
    default = so.minimize(_hs71, x0, method="SLSQP", **kw)
    assert np.abs(want.x - default.x).max() > 1e-5
    np.testing.assert_allclose(r.x, want.x, rtol=0, atol=1e-8)
    assert (r.status, r.nit, r.nfev) == (want.status, want.nit, want.nfev)


def test_float32_start_with_bounds(host_optimize):
    """SciPy's SLSQP core is float64: a float32 x0 with bounds comes back float64."""
    kw = {"bounds": [(1, 5)] * 4, "constraints": _hs71_cons(False)}
    x0 = np.array([1.0, 5, 5, 1], dtype=np.float32)
    r, want = host_optimize.minimize(_hs71, x0, method="SLSQP", **kw), so.minimize(_hs71, x0, method="SLSQP", **kw)
    assert r.x.dtype == want.x.dtype == np.float64 and r.success and want.success
    np.testing.assert_allclose(r.x, want.x, rtol=0, atol=1e-6)


def test_exit_modes(host_optimize):
    cases = [  # iteration limit, more equalities than variables, incompatible inequalities
        (_hs71, [1.0, 5, 5, 1], {"bounds": [(1, 5)] * 4, "options": {"maxiter": 2}}, _hs71_cons(False)),
        (lambda x: x @ x, [1.0, 2.0], {}, [{"type": "eq", "fun": lambda x: np.array([x[0] - 1, x[1] - 1, x[0] + x[1]])}]),
        (lambda x: x @ x, [1.0, 2.0], {}, [{"type": "ineq", "fun": lambda x: np.array([x[0] - 1, -x[0]])}]),
    ]
    for (fun, x0, kw, cons), want_status in zip(cases, (9, 2, (4, 8))):
        r = host_optimize.minimize(fun, np.array(x0), method="SLSQP", constraints=cons, **kw)
        want = so.minimize(fun, np.array(x0), method="SLSQP", constraints=cons, **kw)
        assert not r.success and not want.success
        if isinstance(want_status, tuple):  # incompatible: which failure comes first depends on rounding
            assert r.status in want_status and want.status in want_status, (r, want)
        else:
            assert (r.status, r.message, r.nit) == (want.status, want.message, want.nit)


def test_callback_and_stop(host_optimize):
    seen = {}
    for mod in (host_optimize, so):
        xs = []
        r = mod.minimize(_hs71, np.array([1.0, 5, 5, 1]), method="SLSQP", jac=_hs71_der, bounds=[(1, 5)] * 4,
                         constraints=_hs71_cons(True), callback=lambda x: xs.append(np.array(x)))
        seen[mod] = (r, xs)
    (r, xs), (want, want_xs) = seen[host_optimize], seen[so]
    assert len(xs) == r.nit and len(want_xs) == want.nit  # once an iteration, at its first trial point
    np.testing.assert_allclose(xs[0], want_xs[0], rtol=1e-10)

    def stop(intermediate_result):
        assert set(intermediate_result) >= {"x", "fun"}
        if intermediate_result.fun < 20:
            raise StopIteration

    for mod in (host_optimize, so):
        r = mod.minimize(_hs71, np.array([1.0, 5, 5, 1]), method="SLSQP", bounds=[(1, 5)] * 4,
                         constraints=_hs71_cons(False), callback=stop)
        assert (r.status, r.success, r.message, r.nit) == (99, False, "`callback` raised `StopIteration`.", 1)


def _outcome(call):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = call()
        except Exception as exc:  # noqa: BLE001 -- the exception is the outcome compared
            return type(exc), str(exc), [(x.category, str(x.message)) for x in w]
    return r.status, r.message, [(x.category, str(x.message)) for x in w]


@pytest.mark.parametrize("bad", [
    {"constraints": [{"fun": lambda x: x[0]}]},  # no type
    {"constraints": [{"type": "equality", "fun": lambda x: x[0]}]},
    {"constraints": [{"type": "eq"}]},  # no function
    {"constraints": [{"type": 1, "fun": lambda x: x[0]}]},
    {"constraints": [[lambda x: x[0]]]},
    {"bounds": [(0, 1)] * 3},
    {"bounds": [(1, 0), (0, 1)]},
    {"options": {"maxiter": 5, "gtol": 1e-3}},  # an unknown option: OptimizeWarning
    {"constraints": [{"type": "ineq", "fun": lambda x: x[0]}], "hess": lambda x: np.eye(2)},
    {"constraints": "linear,eq+ineq"},
    {"constraints": "nonlinear,keep_feasible"},
    {"constraints": "unbounded"},
])
def test_bad_input_as_scipy(host_optimize, bad):
    def call(mod):
        kw = dict(bad)
        if kw.get("constraints") == "linear,eq+ineq":
            kw["constraints"] = mod.LinearConstraint([[1.0, 1.0], [1.0, -1.0]], [1.0, -np.inf], [1.0, 0.5])
        elif kw.get("constraints") == "nonlinear,keep_feasible":
            kw["constraints"] = mod.NonlinearConstraint(lambda x: x @ x, 1.0, 4.0, keep_feasible=True)
        elif kw.get("constraints") == "unbounded":
            kw["constraints"] = mod.LinearConstraint([[1.0, 1.0], [1.0, 0.0]], [-np.inf, 0.5], [np.inf, np.inf])
        return lambda: mod.minimize(lambda x: (x[0] - 2) ** 2 + x[1] ** 2, np.array([0.5, 0.5]), method="SLSQP", **kw)

    got, want = _outcome(call(host_optimize)), _outcome(call(so))
    assert got[:2] == want[:2]
    # SciPy also warns from its own internals in some versions; every warning it gives for the input, we give
    assert set(got[2]) == set(want[2]), (got[2], want[2])


def test_fixed_variables(host_optimize):
    b = [(1, 5), (4.5, 4.5), (1, 5), (1, 5)]
    for jac in (None, _hs71_der):
        r, want = (mod.minimize(_hs71, np.array([1.0, 4.5, 5, 1]), method="SLSQP", jac=jac, bounds=b,
                                constraints=_hs71_cons(False)) for mod in (host_optimize, so))
        assert (r.status, r.message) == (want.status, want.message)
        np.testing.assert_allclose(r.x, want.x, atol=1e-6)
        assert r.x[1] == 4.5
        assert np.isnan(r.jac[1]) == np.isnan(want.jac[1])
    for cons in ((), _hs71_cons(False)):
        r, want = (mod.minimize(_hs71, np.array([1.0, 4.5, 5, 1]), method="SLSQP", bounds=[(2, 2)] * 4,
                                constraints=cons) for mod in (host_optimize, so))
        assert (r.success, r.message, r.fun, r.nfev) == (want.success, want.message, want.fun, want.nfev)
        np.testing.assert_array_equal(r.x, want.x)


def test_options_and_signature(host_optimize_copies, capsys):
    from cuarray.scipy.optimize import _minimize, _slsqp

    theirs = inspect.signature(_slsqp_py._minimize_slsqp).parameters
    ours = inspect.signature(_slsqp.minimize_slsqp).parameters
    skip = {"func", "fun", "x0", "args", "jac", "bounds", "constraints", "callback", "halt", "unknown_options"}
    assert {k: v.default for k, v in ours.items() if k not in skip} == \
        {k: v.default for k, v in theirs.items() if k not in skip}
    assert set(_minimize._SLSQP_OPTIONS) == set(theirs) - skip
    # disp/iprint print SciPy's report
    outs = []
    for mod in (host_optimize_copies[""], so):
        mod.minimize(_hs71, np.array([1.0, 5, 5, 1]), method="SLSQP", jac=_hs71_der, bounds=[(1, 5)] * 4,
                     constraints=_hs71_cons(True), options={"disp": True, "iprint": 2})
        outs.append(capsys.readouterr().out.splitlines())
    assert [line.split()[:2] for line in outs[0]] == [line.split()[:2] for line in outs[1]]
    assert outs[0][-5].startswith("Optimization terminated successfully    (Exit mode 0)")


@pytest.mark.parametrize("m,n", [(8, 5), (5, 8), (12, 12)])
def test_host_nnls_as_scipy(m, n):
    """The subproblem's NNLS against SciPy's on fresh random problems (unique solutions)."""
    from cuarray.scipy.optimize._slsqp_qp import nnls_host

    rng = np.random.default_rng()
    a, b = rng.standard_normal((m, n)), rng.standard_normal(m)
    x, rnorm, ok = nnls_host(a, b, 3 * n)
    want, want_rnorm = so.nnls(a, b)
    assert ok and np.all(x >= 0)
    np.testing.assert_allclose(rnorm, want_rnorm, rtol=1e-10, atol=1e-12)
    if m >= n:  # full column rank: the minimizer is unique
        np.testing.assert_allclose(x, want, rtol=0, atol=1e-10)


def test_host_nnls_step_that_lands_on_zero():
    """The component that sets an NNLS step's length leaves the passive set even when rounding
    leaves it at 4e-65 (it cycled until the 3n limit: SLSQP's mode 3 on a random QP in CI)."""
    from cuarray.scipy.optimize._slsqp_qp import nnls_host

    a = np.array([[1.3943204784217156, 0.23761143782767533],
                  [-0.08488929997614308, 0.0688767032505138],
                  [3.995982557257775, 0.8560188451758551]])
    b = np.array([0.0, 0.0, 1.0])
    x, rnorm, ok = nnls_host(a, b, 6)
    want, want_rnorm = so.nnls(a, b)
    assert ok
    np.testing.assert_allclose(x, want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rnorm, want_rnorm, rtol=1e-12)


def test_host_qp_kkt():
    """The subproblem's solution satisfies its KKT conditions (fresh random QP with active rows)."""
    from cuarray.scipy.optimize._slsqp_qp import qp_step

    rng = np.random.default_rng()
    n, meq, mineq = 6, 2, 4
    m_ = rng.standard_normal((n, n))
    bmat = m_ @ m_.T + np.eye(n)
    g, cmat, c = rng.standard_normal(n) * 3, rng.standard_normal((meq + mineq, n)), rng.uniform(-0.5, 0.5, meq + mineq)
    nan = np.full(n, np.nan)
    d, mult, mode = qp_step(bmat, g, cmat, c, meq, nan, nan)
    assert mode == 1
    res = cmat @ d + c
    np.testing.assert_allclose(res[:meq], 0, atol=1e-12)
    assert np.all(res[meq:] >= -1e-12) and np.all(mult[meq:] >= 0)
    np.testing.assert_allclose(mult[meq:] * res[meq:], 0, atol=1e-10)  # complementarity
    np.testing.assert_allclose(bmat @ d + g, cmat.T @ mult, atol=1e-10)  # stationarity
    # x0 = 0 and x0 = 1 at once: no point, mode 4 (Kraft's relaxation then takes over)
    assert qp_step(np.eye(1), np.ones(1), np.array([[1.0], [-1.0]]), np.array([-1.0, 0.0]), 0,
                   np.full(1, np.nan), np.full(1, np.nan))[2] == 4
