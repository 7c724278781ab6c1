"""minimize(method='TNC') and fmin_tnc (the real loop, NumPy standing in for the device routines)
against scipy.optimize's TNC and against exact minimizers: SciPy's Schittkowski test problems
(test_tnc.py), Rosenbrock, fresh random strictly convex quadratics on boxes built around a known
minimizer (tnc_problems.py), a separable box QP's closed form, fixed
variables, callbacks, limits, options and SciPy's errors and warnings.

The CG loop's Hessian-vector products are forward differences of the gradient with a step near
sqrt(eps), which multiply rounding differences by ~1e8: the iterates agree with SciPy's C code to
rounding only for a few iterations, so the results are compared with the minimizer to the
accuracy of TNC's stopping tests, not with SciPy's iterates. Without CG (maxCGit=0) nothing is
differenced and the loop is SciPy's step for step."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.optimize as so
from lsq_compare import raises_as_scipy
from tnc_problems import known_box_qp


def _f1(x, a=100.0):
    return a * (x[1] - x[0] ** 2) ** 2 + (1.0 - x[0]) ** 2


def _g1(x, a=100.0):
    d1 = 2 * a * (x[1] - x[0] ** 2)
    return np.array([-2.0 * (x[0] * (d1 - 1.0) + 1.0), d1])


def _f3(x):
    return x[1] + (x[1] - x[0]) ** 2 * 1.0e-5


def _g3(x):
    d0 = -2.0 * (x[1] - x[0]) * 1.0e-5
    return np.array([d0, 1.0 - d0])


def _f4(x):
    return (x[0] + 1.0) ** 3 / 3.0 + x[1]


def _g4(x):
    return np.array([(x[0] + 1.0) ** 2, 1.0])


def _f5(x):
    return np.sin(x[0] + x[1]) + (x[0] - x[1]) ** 2 - 1.5 * x[0] + 2.5 * x[1] + 1.0


def _g5(x):
    v1, v2 = np.cos(x[0] + x[1]), 2.0 * (x[0] - x[1])
    return np.array([v1 + v2 - 1.5, v1 - v2 + 2.5])


def _f38(x):
    return (100.0 * (x[1] - x[0] ** 2) ** 2 + (1.0 - x[0]) ** 2 + 90.0 * (x[3] - x[2] ** 2) ** 2 + (1.0 - x[2]) ** 2
            + 10.1 * ((x[1] - 1.0) ** 2 + (x[3] - 1.0) ** 2) + 19.8 * (x[1] - 1.0) * (x[3] - 1.0)) * 1.0e-5


def _g38(x):
    return np.array([(-400.0 * x[0] * (x[1] - x[0] ** 2) - 2.0 * (1.0 - x[0])) * 1.0e-5,
                     (200.0 * (x[1] - x[0] ** 2) + 20.2 * (x[1] - 1.0) + 19.8 * (x[3] - 1.0)) * 1.0e-5,
                     (-360.0 * x[2] * (x[3] - x[2] ** 2) - 2.0 * (1.0 - x[2])) * 1.0e-5,
                     (180.0 * (x[3] - x[2] ** 2) + 20.2 * (x[3] - 1.0) + 19.8 * (x[1] - 1.0)) * 1.0e-5])


def _f45(x):
    return 2.0 - np.prod(x) / 120.0


def _g45(x):
    return np.array([-np.prod(np.delete(x, i)) / 120.0 for i in range(5)])


# SciPy's test_tnc.py (Schittkowski's problems): f, g, x0, bounds, the minimizer
CASES = {
    "1": (_f1, _g1, [-2, 1], [(-np.inf, None), (-1.5, None)], [1, 1]),
    "2": (_f1, _g1, [-2, 1], [(-np.inf, None), (1.5, None)], [-1.2210262419616387, 1.5]),
    "3": (_f3, _g3, [10, 1], [(-np.inf, None), (0.0, None)], [0, 0]),
    "4": (_f4, _g4, [1.125, 0.125], [(1, None), (0, None)], [1, 0]),
    "5": (_f5, _g5, [0, 0], [(-1.5, 4), (-3, 3)], [-0.54719755119659763, -1.5471975511965976]),
    "38": (_f38, _g38, [-3, -1, -3, -1], [(-10, 10)] * 4, [1] * 4),
    "45": (_f45, _g45, [2] * 5, [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)], [1, 2, 3, 4, 5]),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("jac", ["callable", True, None])
def test_schittkowski_as_scipy(host_optimize, case, jac):
    f, g, x0, bounds, xopt = CASES[case]
    fun = (lambda x: (f(x), g(x))) if jac is True else f
    j = g if jac == "callable" else jac
    lo = np.array([-np.inf if b[0] is None else b[0] for b in bounds])
    hi = np.array([np.inf if b[1] is None else b[1] for b in bounds])
    if jac is None and np.any((np.array(x0) < lo) | (np.array(x0) > hi)):
        # x0 outside the bounds: SciPy's finite differences refuse it
        _raises_as_scipy(host_optimize, so, lambda m: m.minimize(fun, np.array(x0, dtype=float), method="TNC",
                                                                 jac=j, bounds=bounds))
        return
    r = host_optimize.minimize(fun, np.array(x0, dtype=float), method="TNC", jac=j, bounds=bounds,
                               options={"maxfun": 200})
    ref = so.minimize(fun, np.array(x0, dtype=float), method="TNC", jac=j, bounds=bounds, options={"maxfun": 200})
    # SciPy's own tolerances on f at the solution: 1e-8 with gradients, 1e-4 with forward differences
    atol = 1e-4 if jac is None else 1e-8
    assert abs(r.fun - f(np.array(xopt, dtype=float))) <= atol, (r.fun, r.message)
    assert abs(r.fun - ref.fun) <= atol and r.success == ref.success, (r, ref)
    assert r.fun == f(r.x) and np.array_equal(r.jac, g(r.x) if jac else r.jac)
    assert np.all(r.x >= lo) and np.all(r.x <= hi)
    assert sorted(r) == sorted(ref) and r.message == so._tnc.RCSTRINGS[r.status]


@pytest.mark.parametrize("case", ["1", "5", "38"])
@pytest.mark.parametrize("how", ["fg", "fprime", "approx"])
def test_fmin_tnc_as_scipy(host_optimize, case, how):
    f, g, x0, bounds, xopt = CASES[case]
    kw = {"fg": {}, "fprime": {"fprime": g}, "approx": {"approx_grad": True}}[how]
    fun = (lambda x: (f(x), g(x))) if how == "fg" else f
    x, nfev, rc = host_optimize.fmin_tnc(fun, x0, bounds=bounds, messages=0, maxfun=200, **kw)
    xr, nfevr, rcr = so.fmin_tnc(fun, x0, bounds=bounds, messages=0, maxfun=200, **kw)
    atol = 1e-4 if how == "approx" else 1e-8
    assert abs(f(x) - f(np.array(xopt, dtype=float))) <= atol
    assert isinstance(nfev, int) and -1 < rc < 3 and -1 < rcr < 3


def test_fmin_tnc_bad_bounds(host_optimize):
    for mod in (host_optimize, so):
        with pytest.raises(ValueError, match="length of x0 != length of bounds"):
            mod.fmin_tnc(so.rosen, [1.0, 2.0, 3.0], so.rosen_der, bounds=[(0, 1)] * 2, messages=0)
    # the bounds fixing every variable: SciPy's status 5 (fmin_tnc keeps the variables)
    x, _, rc = host_optimize.fmin_tnc(so.rosen, [1.0, 2.0], so.rosen_der, bounds=[(0, 0), (1, 1)], messages=0)
    assert rc == so.fmin_tnc(so.rosen, [1.0, 2.0], so.rosen_der, bounds=[(0, 0), (1, 1)], messages=0)[2] == 5
    np.testing.assert_array_equal(x, [0.0, 1.0])


def test_steepest_descent_is_scipys_loop(host_optimize):
    # maxCGit=0: the direction is -g, nothing is differenced, so the step search, the active set and
    # the stopping tests run SciPy's C code step for step (rounding of the norms only)
    x0 = np.array([-1.2, 1.0, 0.5, 0.8])
    for bounds in (None, [(-1, 0.5)] * 4):
        r = host_optimize.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, bounds=bounds,
                                   options={"maxCGit": 0, "maxfun": 150})
        ref = so.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, bounds=bounds,
                          options={"maxCGit": 0, "maxfun": 150})
        assert (r.nit, r.status, r.message) == (ref.nit, ref.status, ref.message)
        np.testing.assert_allclose(r.x, ref.x, rtol=1e-9, atol=1e-12)
        assert abs(r.nfev - ref.nfev) <= 1


def test_rosenbrock_reaches_the_minimum(host_optimize):
    # ftol = xtol = 0: with the gradient TNC stops on its projected-gradient test (status 0), |g * (1
    # + |x0|)| below 1.2e-6; Rosenbrock's Hessian at [1]*5 has smallest eigenvalue ~0.4, so |x - 1|
    # <= 3e-6. With forward differences (error ~1e-8 |f''| ~ 1e-5 in g) the step search fails at
    # that accuracy first (status 4, as SciPy's): |x - 1| <= 1e-5 / 0.4, 1e-4 with a margin of 4
    x0 = np.array([1.3, 0.7, 0.8, 1.9, 1.2])  # SciPy's start (test_optimize.py), in [1]*5's basin
    for jac, status, atol in ((so.rosen_der, (0,), 1e-5), ("2-point", (0, 4), 1e-4)):
        r = host_optimize.minimize(so.rosen, x0, method="TNC", jac=jac, options={"maxfun": 5000, "ftol": 0, "xtol": 0})
        assert r.status in status, r.message
        np.testing.assert_allclose(r.x, np.ones(5), atol=atol)


@pytest.mark.parametrize("jac", ["callable", True])
def test_random_box_qp_exact_minimizer(host_optimize, jac):
    # TNC with ftol = xtol = 1e-14 stops on its projected-gradient test: |pg * scale| <= 1.2e-6
    # (pgtol's default) with scale = hi - lo >= 0.2 or 1 + |x0| >= 1, so |pg| <= 6e-6; with the
    # Hessian's eigenvalues >= 1 the distance to the minimizer is below that: 2e-5 leaves a margin
    # of 3. Or on |f_n - f_n-1| <= 1e-14 (status 1): a change of a few ulps of f, which on these
    # quadratics (condition <= 10) comes only at the minimizer. (With forward differences SciPy's
    # TNC, like ours, often stops early on such problems: not tested here.)
    rng = np.random.default_rng()
    for n in (int(rng.integers(1, 5)), int(rng.integers(5, 30))):
        a, c, lo, hi, want = known_box_qp(rng, n)
        x0 = rng.uniform(-1, 1, n)
        f = lambda x: 0.5 * x @ a @ x - c @ x  # noqa: E731
        g = lambda x: a @ x - c  # noqa: E731
        fun, j = ((lambda x: (f(x), g(x))), True) if jac is True else (f, g)
        r = host_optimize.minimize(fun, x0, method="TNC", jac=j, bounds=list(zip(lo, hi)),
                                   options={"ftol": 1e-14, "xtol": 1e-14, "maxfun": 100 * n})
        assert r.status in (0, 1), (r.message, a, c, lo, hi, x0)
        np.testing.assert_allclose(r.x, want, rtol=0, atol=2e-5, err_msg=repr((a, c, lo, hi, x0)))
        assert np.all(r.x >= lo) and np.all(r.x <= hi)


def test_separable_box_qp_closed_form(host_optimize):
    # x'Dx/2 - c'x on a box: the minimizer is clip(c / d, lo, hi); d in [1, 4] and the box's widths
    # >= 0.2 give, as above, |x - x*| <= 1.2e-6 / 0.2 / 1 at TNC's projected-gradient stop. With 40
    # variables f's rounding (|f| ~ 20, ulp ~ 4e-15) can also end it on |f_n - f_n-1| <= 1e-14 (status
    # 1), a change of a few ulps, which on this quadratic (condition <= 4) happens only at the minimizer
    rng = np.random.default_rng()
    n = 40
    d, c = rng.uniform(1, 4, n), rng.standard_normal(n) * 2
    lo, hi = rng.uniform(-1, -0.1, n), rng.uniform(0.1, 1, n)
    r = host_optimize.minimize(lambda x: (0.5 * x @ (d * x) - c @ x, d * x - c), np.zeros(n), method="TNC",
                               jac=True, bounds=list(zip(lo, hi)), options={"ftol": 1e-14, "xtol": 1e-14})
    assert r.status in (0, 1), r.message
    np.testing.assert_allclose(r.x, np.clip(c / d, lo, hi), rtol=0, atol=2e-5)


def test_fixed_variables_as_scipy(host_optimize):
    x0 = np.array([-1.2, 1.0, 0.5])
    bounds = [(0.2, 0.2), (0, 1), (0, 1)]
    for jac in (so.rosen_der, None):
        r = host_optimize.minimize(so.rosen, x0, method="TNC", jac=jac, bounds=bounds)
        ref = so.minimize(so.rosen, x0, method="TNC", jac=jac, bounds=bounds)
        assert r.status == ref.status and r.x[0] == 0.2 and np.isnan(r.jac[0]) and np.isnan(ref.jac[0])
        np.testing.assert_allclose(r.x, ref.x, atol=1e-5)
    seen = []
    host_optimize.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, bounds=bounds, callback=seen.append)
    assert seen and all(len(x) == 3 and x[0] == 0.2 for x in seen)
    r = host_optimize.minimize(so.rosen, x0, method="TNC", bounds=[(0, 0), (1, 1), (3, 3)])
    ref = so.minimize(so.rosen, x0, method="TNC", bounds=[(0, 0), (1, 1), (3, 3)])
    assert (r.message, r.fun, r.nfev, r.success) == (ref.message, ref.fun, ref.nfev, ref.success)
    np.testing.assert_array_equal(r.x, ref.x)


def test_callback(host_optimize):
    x0 = np.array([1.0, 2.0, 3.0, 4.0])
    seen = []
    r = host_optimize.minimize(so.rosen, x0, method="TNC", bounds=[(0, 10)] * 4, options={"maxfun": 1000},
                               callback=seen.append)
    plain = host_optimize.minimize(so.rosen, x0, method="TNC", bounds=[(0, 10)] * 4, options={"maxfun": 1000})
    # SciPy's gh-14879: a callback does not change the minimization; it sees each iterate
    assert len(seen) == r.nit and r.nfev == plain.nfev
    np.testing.assert_array_equal(r.x, plain.x)
    np.testing.assert_allclose(seen[-1], r.x, atol=1e-12)
    # TNC calls callback(x) even when it names intermediate_result (SciPy's TNC does not wrap it)
    got = []

    def cb(intermediate_result):
        got.append(intermediate_result)
    host_optimize.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, callback=cb, options={"maxfun": 10})
    assert got and isinstance(got[0], np.ndarray)

    def stop(x):
        raise ValueError("callback")
    for mod in (host_optimize, so):  # exceptions propagate, StopIteration included
        with pytest.raises(ValueError, match="callback"):
            mod.minimize(so.rosen, x0, method="TNC", callback=stop)
        with pytest.raises(StopIteration):
            mod.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, callback=lambda x: next(iter(())))


def test_limits_and_options(host_optimize):
    x0 = np.array([-1.2, 1.0, 0.5])
    for opts in ({"maxfun": 0}, {"maxfun": 1}, {"maxfun": 25}):
        r = host_optimize.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, options=opts)
        ref = so.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, options=opts)
        assert (r.status, r.message, r.success) == (ref.status, ref.message, ref.success) == (3, ref.message, False)
        assert r.nfev <= max(opts["maxfun"], 1) + 1  # the C count stops at maxfun; the final evaluation
    # scale, offset, stepmx, eta, rescale, accuracy, minfev and tol reach the same minimizer
    a = np.diag([1.0, 3.0, 5.0])
    c = np.array([1.0, -2.0, 3.0])
    lo, hi = np.array([-1.0, -0.5, -2.0]), np.array([0.5, 2.0, 0.3])
    want = np.clip(c / np.diag(a), lo, hi)
    for opts in ({"scale": np.array([1.0, 2.0, 0.5]), "offset": np.array([0.1, 0.0, -0.2])}, {"stepmx": 0.1},
                 {"eta": 0.5, "rescale": 0.0, "accuracy": 1e-10, "minfev": -10.0}, {"maxCGit": 1}):
        r = host_optimize.minimize(lambda x: (0.5 * x @ a @ x - c @ x, a @ x - c), np.zeros(3), method="TNC",
                                   jac=True, bounds=list(zip(lo, hi)), tol=1e-14, options=opts)
        assert r.success, (opts, r.message)
        np.testing.assert_allclose(r.x, want, atol=2e-5, err_msg=repr(opts))


def test_non_finite_x0_as_scipy(host_optimize):
    # SciPy's TNC raises nothing: a NaN start ends "Unable to progress" after maxfun's calls
    x0 = np.array([np.nan, 1.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        r = host_optimize.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der)
        ref = so.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der)
    assert (r.status, r.message, r.nit, r.success) == (ref.status, ref.message, ref.nit, False)
    np.testing.assert_array_equal(r.x, ref.x)


def _raises_as_scipy(ours, theirs, call):
    raises_as_scipy(lambda: call(ours), lambda: call(theirs))


def test_errors_and_warnings_as_scipy(host_optimize):
    x0 = np.array([-1.2, 1.0, 0.5])
    for kw in ({"bounds": [(0, 1)] * 2}, {"bounds": [(2, 1)] * 3},
               {"options": {"scale": np.array([1.0, 2.0])}}, {"options": {"offset": np.array([1.0, 2.0])}}):
        _raises_as_scipy(host_optimize, so, lambda m: m.minimize(so.rosen, x0, method="TNC", **kw))
    _raises_as_scipy(host_optimize, so, lambda m: m.minimize(so.rosen, np.ones((2, 2)), method="TNC"))
    _raises_as_scipy(host_optimize, so, lambda m: m.minimize(so.rosen, [], method="TNC", jac=so.rosen_der))

    def boom(x):
        raise RuntimeError("myfunc")
    _raises_as_scipy(host_optimize, so, lambda m: m.minimize(boom, [0.0, 1.0], method="TNC"))
    for kw, cls, text in (({"options": {"foo": 1}}, so.OptimizeWarning, "Unknown solver options: foo"),
                          ({"options": {"return_all": True}}, RuntimeWarning, "does not support the return_all"),
                          ({"hess": so.rosen_hess}, RuntimeWarning, "does not use Hessian information"),
                          ({"constraints": {"type": "ineq", "fun": lambda x: x[0]}}, RuntimeWarning,
                           "cannot handle constraints")):
        seen = []
        for mod in (host_optimize, so):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                mod.minimize(so.rosen, x0, method="TNC", jac=so.rosen_der, options={"maxfun": 5, **kw.get("options", {})},
                             **{k: v for k, v in kw.items() if k != "options"})
            seen.append(sorted((x.category.__name__, str(x.message)) for x in w))
        assert seen[0] == seen[1] and any(c == cls.__name__ and text in m for c, m in seen[0]), seen


def test_fmin_tnc_signature():
    import cuarray.scipy.optimize as ours

    a, b = inspect.signature(ours.fmin_tnc), inspect.signature(so.fmin_tnc)
    assert list(a.parameters) == list(b.parameters)
    assert all(a.parameters[p].default == b.parameters[p].default for p in a.parameters)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "TNC" in ours._minimize.SUPPORTED
