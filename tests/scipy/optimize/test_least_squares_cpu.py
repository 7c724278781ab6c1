"""least_squares ('trf', 'lm') and curve_fit: the real loops with NumPy standing in for the device
routines, against scipy.optimize on fresh random problems. Tolerances: the fits stop on ftol/xtol
of 1e-12 (or SciPy's own on the doc examples), so both solvers sit at the same minimizer and x
agrees to about cond(J) * 1e-12; the random exponential fits have cond(J) below 1e3, hence
rtol 1e-6 on x and 1e-9 on the cost. 'lm' solves its subproblem by SVD where MINPACK uses QR,
so its counts are not compared. A '2-point' Jacobian is off by about sqrt(eps) = 1.5e-8 relative,
which moves the point where the fit stops by that times cond(J): rtol 2e-5 on x there."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.optimize as so

from lsq_compare import raises_as_scipy

TIGHT = {"ftol": 1e-12, "xtol": 1e-12, "gtol": 1e-12}


def _exp_problem(rng, m=40, outliers=0):
    t = np.linspace(0, 4, m)
    truth = np.array([rng.uniform(2, 3), rng.uniform(0.7, 1.5), rng.uniform(-1, 1)])
    y = truth[0] * np.exp(-truth[1] * t) + truth[2] + 0.05 * rng.standard_normal(m)
    y[rng.choice(m, outliers, replace=False)] += 1.0

    def fun(x, t, y):
        return x[0] * np.exp(-x[1] * t) + x[2] - y

    def jac(x, t, y):
        e = np.exp(-x[1] * t)
        return np.stack([e, -x[0] * t * e, np.ones_like(t)], axis=1)

    return fun, jac, (t, y), truth


def _same_minimum(r, ref, rtol=1e-6):
    assert r.success and ref.success, (r.message, ref.message)
    # normwise, as the step test (|dx| <= xtol |x|) stops both: a small parameter of the fit
    # (-4.5e-4) differed by 1.5e-9 in one of 40 runs with a '3-point' Jacobian
    assert np.linalg.norm(r.x - ref.x) <= rtol * np.linalg.norm(ref.x) + 1e-9, (r.x, ref.x)
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(r.fun, ref.fun, rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(r.grad, ref.grad, atol=1e-6 * max(1.0, np.abs(ref.grad).max()))
    assert r.jac.shape == ref.jac.shape and r.active_mask.shape == ref.active_mask.shape


def _x_rtol(jac):
    return 2e-5 if jac == "2-point" else 1e-6


def _cauchy_callable(z):
    return np.stack([np.log1p(z), 1 / (1 + z), -1 / (1 + z) ** 2])


@pytest.mark.parametrize("loss", ["linear", "soft_l1", "huber", "cauchy", "arctan", "callable"])
@pytest.mark.parametrize("jac", ["callable", "2-point", "3-point", "cs"])
def test_trf_losses_and_jacobians(host_optimize, loss, jac):
    rng = np.random.default_rng()
    # outliers only where a robust loss discounts them: with the linear loss they can pull the fit
    # to the degenerate b -> 0 (SciPy too then stops at max_nfev)
    fun, jacf, args, _ = _exp_problem(rng, outliers=0 if loss == "linear" else 3)
    loss = _cauchy_callable if loss == "callable" else loss
    kw = dict(TIGHT, jac=jacf if jac == "callable" else jac, loss=loss, f_scale=float(rng.uniform(0.5, 1.5)), args=args)
    _same_minimum(host_optimize.least_squares(fun, [1.0, 1.0, 0.0], **kw), so.least_squares(fun, [1.0, 1.0, 0.0], **kw),
                  rtol=_x_rtol(jac))


@pytest.mark.parametrize("method", ["trf", "dogbox"])
@pytest.mark.parametrize("x_scale", [None, "jac", "array"])
@pytest.mark.parametrize("loss", ["linear", "soft_l1"])
def test_bounds_active(host_optimize, method, x_scale, loss):
    rng = np.random.default_rng()
    fun, jacf, args, truth = _exp_problem(rng)
    # the amplitude's upper bound and the offset's lower bound cut off the unconstrained minimum
    lb, ub = [0.0, 0.0, truth[2] + 0.3], [truth[0] - 0.3, 5.0, 3.0]
    xs = rng.uniform(0.5, 2, 3) if x_scale == "array" else x_scale
    x0 = [0.5 * truth[0], 1.0, truth[2] + 1.0]
    kw = dict(TIGHT, method=method, jac=jacf, bounds=(lb, ub), x_scale=xs, loss=loss, args=args)
    r, ref = host_optimize.least_squares(fun, x0, **kw), so.least_squares(fun, x0, **kw)
    _same_minimum(r, ref)
    np.testing.assert_array_equal(r.active_mask, ref.active_mask)
    assert np.any(ref.active_mask != 0)  # the case is the bounded one
    np.testing.assert_allclose(r.optimality, ref.optimality, rtol=1e-3, atol=1e-10)


@pytest.mark.parametrize("jac", ["callable", "2-point", "3-point", "cs"])
@pytest.mark.parametrize("x_scale", [None, "array"])
def test_lm_as_scipy(host_optimize, jac, x_scale):
    rng = np.random.default_rng()
    fun, jacf, args, truth = _exp_problem(rng)
    xs = rng.uniform(0.5, 2, 3) if x_scale == "array" else x_scale
    kw = dict(TIGHT, method="lm", jac=jacf if jac == "callable" else jac, x_scale=xs, args=args)
    r, ref = host_optimize.least_squares(fun, [1.0, 1.0, 0.0], **kw), so.least_squares(fun, [1.0, 1.0, 0.0], **kw)
    _same_minimum(r, ref, rtol=_x_rtol(jac))
    assert (r.njev is None) == (ref.njev is None) and r.active_mask.dtype == ref.active_mask.dtype
    np.testing.assert_allclose(r.x, truth, atol=0.3)  # and a fit, not just agreement


def _rosen_res(x):
    return np.array([10 * (x[1] - x[0] ** 2), 1 - x[0]])


def _rosen_jac(x):
    return np.array([[-20 * x[0], 10], [-1, 0]])


@pytest.mark.parametrize("kw", [{}, {"jac": _rosen_jac, "bounds": ([-np.inf, 1.5], np.inf)},
                                {"jac": "3-point", "bounds": ([-3, 1.5], [3, 3])}, {"method": "lm"},
                                {"max_nfev": 3}, {"diff_step": 1e-3}, {"ftol": None, "xtol": None},
                                {"method": "dogbox"}, {"method": "dogbox", "bounds": ([-np.inf, 1.5], np.inf)},
                                {"method": "dogbox", "jac": "3-point", "bounds": ([-3, 1.5], [3, 3]), "loss": "huber"},
                                {"method": "dogbox", "x_scale": "jac", "max_nfev": 4}])
def test_scipy_doc_rosenbrock(host_optimize, kw):
    """SciPy's docstring example: the same algorithm gives the same path, so status, counts and
    active constraints are SciPy's ('lm' only the minimum: its subproblem solver differs)."""
    r, ref = host_optimize.least_squares(_rosen_res, [2.0, 2.0], **kw), so.least_squares(_rosen_res, [2.0, 2.0], **kw)
    np.testing.assert_allclose(r.x, ref.x, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-7, atol=1e-20)
    assert (r.status, r.success, r.message) == (ref.status, ref.success, ref.message)
    if kw.get("method") != "lm":
        assert (r.nfev, r.njev) == (ref.nfev, ref.njev)
        np.testing.assert_array_equal(r.active_mask, ref.active_mask)


def test_callback_stop_and_args_kwargs(host_optimize):
    seen = []

    def cb(intermediate_result):
        seen.append(intermediate_result.cost)
        if len(seen) == 2:
            raise StopIteration

    def res(x, a, *, b):
        return np.array([a * (x[1] - x[0] ** 2), b - x[0]])

    r = host_optimize.least_squares(res, [2.0, 2.0], args=(10,), kwargs={"b": 1}, callback=cb)
    ref = so.least_squares(res, [2.0, 2.0], args=(10,), kwargs={"b": 1})
    assert r.status == -2 and not r.success and len(seen) == 2 \
        and r.message == "Stopped because `callback` function raised `StopIteration` or returned `True`"
    assert ref.success and seen[1] < seen[0]


def _raises_as_scipy(host_optimize, fun, x0, **kw):
    raises_as_scipy(host_optimize.least_squares, so.least_squares, fun, x0, **kw)


@pytest.mark.parametrize("kw", [
    {"bounds": ([3, 0], [4, 5])}, {"method": "lm", "bounds": ([0, 0], [5, 5])}, {"loss": "l1"},
    {"method": "lm", "loss": "huber"}, {"method": "xx"}, {"jac": "4-point"}, {"tr_solver": "qr"},
    {"bounds": ([0, 0, 0], [5, 5, 5])}, {"bounds": ([1, 1], [1, 5])}, {"bounds": (0, 1, 2)},
    {"x_scale": -1.0}, {"x_scale": [1, 2, 3]}, {"max_nfev": 0}, {"verbose": 3},
    {"ftol": None, "xtol": None, "gtol": None}, {"method": "lm", "gtol": None}, {"jac": lambda x: np.ones((3, 2))},
])
def test_bad_input_as_scipy(host_optimize, kw):
    _raises_as_scipy(host_optimize, _rosen_res, [2.0, 2.0], **kw)


def test_bad_input_residuals_as_scipy(host_optimize):
    _raises_as_scipy(host_optimize, lambda x: x[:1] * x[1], [1.0, 2.0], method="lm")  # m < n for 'lm'
    _raises_as_scipy(host_optimize, lambda x: x / 0.0, [1.0, 2.0])  # residuals not finite at x0
    _raises_as_scipy(host_optimize, _rosen_res, [2.0 + 1j, 2.0])
    _raises_as_scipy(host_optimize, _rosen_res, [2.0, 2.0], loss=lambda z: np.stack([z, z, z, z]))


def _same_cov(pcov, ref, rtol):
    """pcov to `rtol` of its scale: entries over sqrt(pcov_ii pcov_jj), so near-zero covariances
    are judged on the variances' scale, not on their own."""
    scale = np.sqrt(np.outer(np.diag(ref), np.diag(ref)))
    np.testing.assert_array_less(np.abs(pcov - ref) / scale, rtol)


def _model(t, a, b, c):
    return a * np.exp(-b * t) + c


def _model_jac(t, a, b, c):
    e = np.exp(-b * t)
    return np.stack([e, -a * t * e, np.ones_like(t)], axis=1)


@pytest.mark.parametrize("method", [None, "trf", "lm"])
@pytest.mark.parametrize("sigma", [None, "1-D", "2-D"])
@pytest.mark.parametrize("jac", [None, "callable"])
def test_curve_fit_as_scipy(host_optimize, method, sigma, jac):
    rng = np.random.default_rng()
    t = np.linspace(0, 4, 30)
    y = _model(t, 2.5, 1.3, 0.5) + 0.05 * rng.standard_normal(t.size)
    sig = {None: None, "1-D": rng.uniform(0.5, 2, t.size)}.get(sigma)
    if sigma == "2-D":
        a = rng.standard_normal((t.size, t.size))
        sig = a @ a.T / t.size + np.eye(t.size)
    kw = dict(p0=[1, 1, 0], sigma=sig, absolute_sigma=bool(rng.integers(2)), method=method,
              jac=_model_jac if jac else None, full_output=True)
    r, ref = host_optimize.curve_fit(_model, t, y, **kw), so.curve_fit(_model, t, y, **kw)
    np.testing.assert_allclose(r[0], ref[0], rtol=1e-6)
    # 'lm': SciPy's pcov is from MINPACK's last Jacobian, one step before the returned x (ours is
    # at x): 1e-3 of the variances' scale; 'trf': both at x, to cond(J)^2 * the x agreement
    _same_cov(r[1], ref[1], 1e-3 if method in (None, "lm") else 1e-5)
    np.testing.assert_allclose(r[2]["fvec"], ref[2]["fvec"], rtol=1e-5, atol=1e-8)
    # which test stops the fit (ftol or gtol at their edge) follows the last bits: a success code
    # each, and the same message where the codes agree
    assert r[4] in (1, 2, 3, 4) and ref[4] in (1, 2, 3, 4)
    assert r[3] == ref[3] or r[4] != ref[4]


def test_curve_fit_bounds_p0_none_and_inf_pcov(host_optimize):
    rng = np.random.default_rng()
    t = np.linspace(0, 4, 25)
    y = _model(t, 2.5, 1.3, 0.5) + 0.05 * rng.standard_normal(t.size)
    kw = dict(bounds=([0, 0, -1], [5, 5, 2]))
    r, ref = host_optimize.curve_fit(_model, t, y, **kw), so.curve_fit(_model, t, y, **kw)
    np.testing.assert_allclose(r[0], ref[0], rtol=1e-6)
    _same_cov(r[1], ref[1], 1e-5)
    # as many points as parameters (on the curve, so an exact fit exists): no covariance estimate
    y3 = _model(t[:3], *rng.uniform([2, 1, 0], [3, 1.5, 1]))
    for mod in (host_optimize, so):
        with pytest.warns(so.OptimizeWarning, match="Covariance of the parameters could not be estimated"):
            popt, pcov = mod.curve_fit(_model, t[:3], y3, p0=[2, 1, 0])
        assert np.all(np.isinf(pcov))


@pytest.mark.parametrize("case", ["empty", "sigma_shape", "lm_bounds", "nan", "nan_raise", "args", "n_gt_m",
                                  "propagate", "p0_none_unknown", "sigma_not_pd"])
def test_curve_fit_bad_input_as_scipy(host_optimize, case):
    t = np.linspace(0, 1, 5)
    y = t.copy()
    kw = {}
    if case == "empty":
        t, y = t[:0], y[:0]
    elif case == "sigma_shape":
        kw = {"sigma": np.ones(4)}
    elif case == "lm_bounds":
        kw = {"method": "lm", "bounds": (0, 1)}
    elif case == "nan":
        y[1] = np.nan
    elif case in ("nan_raise", "propagate"):
        y[1] = np.nan
        kw = {"nan_policy": "raise" if case == "nan_raise" else "propagate"}
    elif case == "args":
        kw = {"args": (1,)}
    elif case == "n_gt_m":
        t, y = t[:2], y[:2]
    elif case == "sigma_not_pd":
        kw = {"sigma": -np.eye(5)}
    f = (lambda *a: a[0]) if case == "p0_none_unknown" else _model
    with pytest.raises(Exception) as ref:
        so.curve_fit(f, t, y, **kw)
    with pytest.raises(ref.type) as ours:
        host_optimize.curve_fit(f, t, y, **kw)
    assert str(ours.value) == str(ref.value)


def test_curve_fit_nan_omit(host_optimize):
    rng = np.random.default_rng()
    t = np.linspace(0, 4, 30)
    y = _model(t, 2.5, 1.3, 0.5) + 0.05 * rng.standard_normal(t.size)
    y[[3, 17]] = np.nan
    sig = rng.uniform(0.5, 2, t.size)
    r = host_optimize.curve_fit(_model, t, y, p0=[1, 1, 0], sigma=sig, nan_policy="omit")
    ref = so.curve_fit(_model, t, y, p0=[1, 1, 0], sigma=sig, nan_policy="omit")
    np.testing.assert_allclose(r[0], ref[0], rtol=1e-6)
    _same_cov(r[1], ref[1], 1e-3)


def test_signatures_match_scipy():
    import cuarray.scipy.optimize as ours

    for name in ("least_squares", "curve_fit"):
        assert inspect.signature(getattr(ours, name)) == inspect.signature(getattr(so, name)), name


def _batch(rng, batch, m=30):
    t = np.linspace(0, 4, m)
    p = np.stack([rng.uniform(2, 3, batch), rng.uniform(0.7, 1.5, batch), rng.uniform(-1, 1, batch)], axis=1)
    y = p[:, :1] * np.exp(-p[:, 1:2] * t) + p[:, 2:] + 0.05 * rng.standard_normal((batch, m))

    def fun(x, t, y):
        return x[:, :1] * np.exp(-x[:, 1:2] * t) + x[:, 2:] - y

    def jac(x, t, y):
        e = np.exp(-x[:, 1:2] * t)
        return np.stack([e, -x[:, :1] * t * e, np.ones_like(e)], axis=2)
    return fun, jac, t, y


@pytest.mark.parametrize("jac", ["2-point", "callable"])
def test_batched_fits_are_scipys_one_by_one(host_optimize, jac):
    """A different algorithm (Nielsen-damped Levenberg-Marquardt) at the same minimizers: the
    ftol stop (1e-12 of the cost) leaves x within about sqrt(1e-12) * cond(J) of it, rtol 1e-5."""
    rng = np.random.default_rng()
    fun, jacf, t, y = _batch(rng, 16)
    x0 = np.tile([1.0, 1.0, 0.0], (16, 1))
    r = host_optimize.least_squares_batched(fun, x0, jac=jacf if jac == "callable" else jac, args=(t, y), **TIGHT)
    assert r.x.shape == (16, 3) and r.fun.shape == (16, 30) and r.jac.shape == (16, 30, 3)
    assert np.all(r.success) and np.all((r.status >= 1) & (r.status <= 4)) and r.nfev <= 300
    for i in range(16):
        ref = so.least_squares(lambda p, i=i: fun(p[None], t, y[i])[0], x0[i], **TIGHT)
        # normwise (the offset parameter may be near 0)
        assert np.linalg.norm(r.x[i] - ref.x) <= 1e-5 * np.linalg.norm(ref.x), (i, r.x[i], ref.x)
        np.testing.assert_allclose(r.cost[i], ref.cost, rtol=1e-10, err_msg=str(i))
        np.testing.assert_allclose(r.grad[i], ref.grad, atol=1e-6)


def test_batched_max_nfev_and_bad_input(host_optimize):
    fun, jacf, t, y = _batch(np.random.default_rng(), 4)
    x0 = np.tile([1.0, 1.0, 0.0], (4, 1))
    r = host_optimize.least_squares_batched(fun, x0, jac=jacf, args=(t, y), max_nfev=3)
    assert r.nfev == 3 and np.all(r.status == 0) and not np.any(r.success) and "maximum number" in r.message
    with pytest.raises(ValueError, match=r"shape \(batch, n\)"):
        host_optimize.least_squares_batched(fun, x0[0], args=(t, y))
    with pytest.raises(ValueError, match="'2-point' or callable"):
        host_optimize.least_squares_batched(fun, x0, jac="3-point", args=(t, y))
    with pytest.raises(ValueError, match=r"\(batch, m\)"):
        host_optimize.least_squares_batched(lambda x: x[0], x0)
