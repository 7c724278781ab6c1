"""cuarray.scipy.integrate's LSODA and odeint (ODEPACK's DSTODA and LSODA driver ported; the real
Nordsieck steps, method switches and driver run with NumPy standing in for the device routines)
against tight-tolerance reference solutions and against SciPy's LSODA/odeint: nonstiff and stiff
problems, the Adams-to-BDF switch, options, full_output, solve_ivp's t_eval, dense output and
events, and SciPy's errors for bad input."""

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest
import scipy.integrate as si


def _load(name):
    spec = importlib.util.spec_from_file_location("integrate_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LP = _load("lsoda_problems")
P = LP.problems(np)
RTOL, ATOL = 1e-7, 1e-10


@pytest.fixture(scope="module")
def H():
    return _load("_ivp_host").host_integrate()


@pytest.fixture(scope="module")
def stiff_references():
    """The stiff problems' fixed initial states and their reference solutions, computed once."""
    out = {}
    for name in LP.STIFF:
        y0 = LP.initial_state(name, None)
        t = np.linspace(0.0, P[name][2], 9)
        out[name] = (y0, t, LP.reference(name, y0, t))
    return out


def within_steps(y, ref, nst):
    """LSODA keeps each step's local error below rtol |y_i| + atol in every component, so the
    global error is at most the sum of the local errors, nst (rtol max|y| + atol), wherever the
    flow does not amplify earlier errors: the oscillator's is a rotation, the stiff problems'
    contract; Lotka-Volterra's amplifies little over [0, 10] (300 fresh draws stayed below 0.4 of
    the bound)."""
    err = np.max(np.abs(y - ref), axis=1)
    bound = nst * (RTOL * np.max(np.abs(ref), axis=1) + ATOL)
    assert np.all(err <= bound), (err / bound).max()


def run_both(H, func, y0, t, **kw):
    """(ours, SciPy's) odeint with full_output."""
    ours = H.odeint(func, y0, t, full_output=True, **kw)
    theirs = si.odeint(func, y0, t, full_output=True, **kw)
    return ours, theirs


def same_steps(info, ref_info):
    """SciPy's step sequence: on the CPU the stand-ins do SciPy's C operations in its order (n <= 3:
    no pairwise sums), so the counts, orders, methods and step sizes are SciPy's."""
    for key in ("nst", "nfe", "nje", "nqu", "mused"):
        np.testing.assert_array_equal(info[key], ref_info[key], err_msg=key)
    np.testing.assert_allclose(info["hu"], ref_info["hu"], rtol=1e-12)
    np.testing.assert_allclose(info["tsw"], ref_info["tsw"], rtol=1e-12)


@pytest.mark.parametrize("name", ["oscillator", "lotka_volterra"])
def test_nonstiff(H, name):
    rng = np.random.default_rng()
    func, _, t_end = P[name]
    y0 = LP.initial_state(name, rng)
    t = np.concatenate([[0.0], np.sort(rng.uniform(0.0, t_end, 8))])
    (y, info), (ys, infos) = run_both(H, func, y0, t, rtol=RTOL, atol=ATOL)
    within_steps(y, LP.reference(name, y0, t), info["nst"][-1])
    np.testing.assert_allclose(y, ys, rtol=1e-9, atol=1e-12)
    same_steps(info, infos)  # SciPy's switches too: LSODA may try BDF on these for a while
    assert info["mused"][0] in (1, 2) and info["message"] == "Integration successful."


@pytest.mark.parametrize("name", LP.STIFF)
def test_stiff_switches_to_bdf(H, stiff_references, name):
    func, _, _ = P[name]
    y0, t, ref = stiff_references[name]
    (y, info), (ys, infos) = run_both(H, func, y0, t, rtol=RTOL, atol=ATOL, mxstep=5000)
    within_steps(y, ref, info["nst"][-1])
    np.testing.assert_allclose(y, ys, rtol=1e-9, atol=1e-12)
    same_steps(info, infos)
    # LSODA starts with Adams; the stiffness test moved it to BDF at tsw > 0 and it stays there
    assert info["tsw"][-1] > 0.0 and info["mused"][-1] == 2
    assert info["nje"][-1] > 0


@pytest.mark.parametrize("name", LP.STIFF)
def test_stiff_user_jacobian(H, stiff_references, name):
    func, jac, _ = P[name]
    y0, t, ref = stiff_references[name]
    for kw in (dict(Dfun=jac), dict(Dfun=lambda y, s: jac(y, s).T, col_deriv=1),
               dict(Dfun=lambda s, y: jac(y, s), tfirst=True)):
        f = (lambda s, y: func(y, s)) if kw.get("tfirst") else func
        (y, info), (ys, infos) = run_both(H, f, y0, t, rtol=RTOL, atol=ATOL, mxstep=5000, **kw)
        within_steps(y, ref, info["nst"][-1])
        same_steps(info, infos)


def test_banded_jacobian(H):
    """A tridiagonal method-of-lines heat equation: the band reduces the finite differences to
    ml + mu + 1 = 3 calls of func; with a banded Dfun in packed rows too. SciPy's banded LSODA
    factors the band (LAPACK gbtrf), ours the dense matrix: the steps may differ, the solutions
    agree within the tolerances."""
    n, k = 12, 1e3  # stiff: LSODA switches to BDF and forms Jacobians

    def heat(y, t):
        return k * (np.concatenate([[0.0], y[:-1]]) - 2 * y + np.concatenate([y[1:], [0.0]]))

    def packed(y, t):
        out = np.zeros((3, n))
        out[0, 1:], out[1], out[2, :-1] = k, -2 * k, k
        return out

    modes = np.sin(np.pi * np.outer([1, 2], np.arange(1, n + 1)) / (n + 1))
    c = np.array([1.0, 0.5])
    y0 = c @ modes  # smooth: the fast modes stay quiet, the problem stiff
    t = np.linspace(0.0, 200.0 / k, 6)  # k t = 200: long enough for the stiffness test to pick BDF
    rates = 2 * k * (np.cos(np.pi * np.array([1, 2]) / (n + 1)) - 1)  # the two modes' eigenvalues
    exact = (c * np.exp(np.outer(t, rates))) @ modes
    calls = []
    band, info = H.odeint(lambda y, s: calls.append(1) or heat(y, s), y0, t, rtol=RTOL, atol=ATOL, ml=1, mu=1,
                          full_output=True)
    assert len(calls) == info["nfe"][-1] and info["nje"][-1] > 0
    assert info["nfe"][-1] - 3 * info["nje"][-1] < info["nst"][-1] * 4  # 3 calls a Jacobian, not n
    for y, nst in ((band, info["nst"][-1]), *(((y, i["nst"][-1]) for y, i in (
            H.odeint(heat, y0, t, rtol=RTOL, atol=ATOL, full_output=True),
            H.odeint(heat, y0, t, Dfun=packed, ml=1, mu=1, rtol=RTOL, atol=ATOL, full_output=True))))):
        within_steps(y, exact, nst)


def test_options(H):
    func, _, _ = P["van_der_pol"]
    y0, t = np.array([2.0, 0.0]), np.linspace(0.0, 300.0, 7)
    for kw in (dict(hmax=5.0), dict(h0=1e-4, hmin=1e-10), dict(mxordn=4, mxords=2), dict(rtol=[1e-6, 1e-8],
               atol=[1e-8, 1e-9]), dict(tcrit=[150.0, 250.0])):
        (y, info), (ys, infos) = run_both(H, func, y0, t, mxstep=5000, **kw)
        same_steps(info, infos)
        np.testing.assert_allclose(y, ys, rtol=1e-8, atol=1e-10)
        assert set(info) == set(infos) and info["lenrw"] == infos["lenrw"] and info["leniw"] == infos["leniw"]
        if "hmax" in kw:
            assert np.all(info["hu"] <= 5.0)
        if "mxordn" in kw:
            assert np.all(info["nqu"] <= np.where(info["mused"] == 1, 4, 2))


def test_tcrit_is_not_passed(H):
    """A right-hand side undefined beyond t = 1: with tcrit = 1 LSODA never evaluates it there."""
    def func(y, t):
        assert t <= 1.0, t
        return -y / (2.0 - t)

    t = np.linspace(0.0, 1.0, 5)
    y = H.odeint(func, np.array([1.0, 3.0]), t, tcrit=[1.0], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(y, np.array([1.0, 3.0]) * ((2.0 - t) / 2.0)[:, None], rtol=1e3 * RTOL)


def test_args_and_scalar_state(H):
    t = np.linspace(0.0, 2.0, 5)
    rate = np.random.default_rng().uniform(0.1, 2.0)
    y = H.odeint(lambda y, s, r: -r * y, np.float64(3.0), t, args=(rate,), rtol=RTOL, atol=ATOL)
    assert y.shape == (5, 1)
    np.testing.assert_allclose(y[:, 0], 3.0 * np.exp(-rate * t), rtol=1e3 * RTOL)
    assert H.odeint(lambda y, s: -y, np.ones(2), [1.0, 1.0]).shape == (2, 2)  # only t0: y0 repeated


def test_failure_warns_and_reports(H):
    """Too many steps for mxstep: SciPy's warning and message at the failing output time, the
    state reached there, and NaN at the later times (SciPy leaves them uninitialized)."""
    t = np.array([0.0, 1.0, 1e3, 1e4])
    out = []
    for mod in (H, si):
        with pytest.warns(mod.ODEintWarning, match="Excess work done"):
            out.append(mod.odeint(P["robertson"][0], np.array([1.0, 0, 0]), t, mxstep=20, full_output=True))
    (y, info), (ys, infos) = out
    assert info["message"] == infos["message"] == "Excess work done on this call (perhaps wrong Dfun type)."
    failed = int(np.argmax(info["nst"] == 0)) if np.any(info["nst"] == 0) else len(t) - 1
    assert failed >= 1 and np.isnan(y[failed + 1:]).all() and np.isfinite(y[:failed + 1]).all()
    np.testing.assert_allclose(y[:failed + 1], ys[:failed + 1], rtol=1e-9, atol=1e-12)
    with pytest.warns(H.ODEintWarning, match="Integration successful"):
        H.odeint(lambda y, s: -y, np.ones(2), [0.0, 1.0], printmessg=1)


def _stiff(y, t):
    return np.array([-1e4, -1.0]) * y  # stiff: LSODA switches to BDF and calls Dfun


BAD = [dict(t=[0.0, 1.0, 0.5]), dict(args=3), dict(func=3), dict(Dfun=3), dict(y0=np.ones((2, 2))),
       dict(rtol=[1e-6] * 3), dict(atol=np.ones(5)), dict(mxordn=-1), dict(mxords=-1),
       dict(func=lambda y, t: np.ones((2, 1))), dict(func=lambda y, t: np.ones(3)),
       dict(Dfun=lambda y, t: np.ones((3, 2))), dict(Dfun=lambda y, t: np.ones((2, 2, 1))),
       dict(Dfun=lambda y, t: np.ones((2, 2)), ml=1, mu=1)]
ILLEGAL = [dict(rtol=-1.0), dict(hmax=-1.0), dict(hmin=-1.0), dict(mxstep=-1), dict(ixpr=2), dict(mxhnil=-1),
           dict(ml=2), dict(h0=-0.1), dict(tcrit=[0.3, 0.4]), dict(atol=0.0, rtol=0.0)]


@pytest.mark.parametrize("kw", BAD, ids=lambda kw: "-".join(kw))
def test_bad_input_raises_as_scipy(H, kw):
    errors = []
    for mod in (H, si):
        args = {**dict(func=_stiff, y0=np.array([1.0, 2.0]), t=np.linspace(0.0, 1.0, 5)), **kw}
        with pytest.raises(Exception) as info:
            mod.odeint(args.pop("func"), args.pop("y0"), args.pop("t"), **args)
        errors.append(info.value)
    assert type(errors[0]).__name__ == type(errors[1]).__name__ and str(errors[0]) == str(errors[1])


@pytest.mark.parametrize("kw", ILLEGAL, ids=lambda kw: "-".join(kw))
def test_illegal_input_warns_as_scipy(H, kw):
    for mod in (H, si):
        with pytest.warns(mod.ODEintWarning, match=r"Illegal input detected \(internal error\)\. Run with"):
            y, info = mod.odeint(lambda y, t: -y, np.array([1.0, 2.0]), np.linspace(0.0, 1.0, 5), full_output=True,
                                 **kw)
        assert info["message"] == "Illegal input detected (internal error)."
        np.testing.assert_array_equal(y[0], [1.0, 2.0])


# -- solve_ivp(method='LSODA') --------------------------------------------------------------------

def _ivp(func):
    return lambda t, y: func(y, t)


@pytest.mark.parametrize("name", ["lotka_volterra", "van_der_pol"])
def test_solve_ivp_lsoda(H, name):
    """SciPy's accepted steps, nfev and njev (the same driver with itask 5), a solution within the
    tolerances of the reference, and the dense output: the last step's Nordsieck polynomial."""
    func, jac, t_end = P[name]
    y0 = LP.initial_state(name, np.random.default_rng())
    kw = dict(method="LSODA", rtol=RTOL, atol=ATOL, dense_output=True)
    res = H.solve_ivp(_ivp(func), [0.0, t_end], y0, **kw)
    ref = si.solve_ivp(_ivp(func), [0.0, t_end], y0, **kw)
    assert res.success and res.status == 0 and (res.nfev, res.njev, res.nlu) == (ref.nfev, ref.njev, ref.nlu)
    np.testing.assert_allclose(res.t, ref.t, rtol=1e-12)
    tq = np.sort(np.random.default_rng().uniform(0.0, t_end, 9))
    np.testing.assert_allclose(res.sol(tq), ref.sol(tq), rtol=1e-8, atol=1e-10)
    within_steps(res.sol(tq).T, LP.reference(name, y0, np.concatenate([[0.0], tq]))[1:], len(res.t))
    res_jac = H.solve_ivp(_ivp(func), [0.0, t_end], y0, jac=lambda t, y: jac(y, t), **kw)
    ref_jac = si.solve_ivp(_ivp(func), [0.0, t_end], y0, jac=lambda t, y: jac(y, t), **kw)
    np.testing.assert_allclose(res_jac.t, ref_jac.t, rtol=1e-12)
    assert res_jac.nfev == ref_jac.nfev and res_jac.njev == ref_jac.njev


def test_solve_ivp_lsoda_t_eval_events_backward(H):
    """The oscillator's y_0 = R cos(t - phi) vanishes at phi + pi/2 + k pi: the events' roots, a
    terminal event, t_eval both ways and options as SciPy's LSODA."""
    rng = np.random.default_rng()
    y0 = rng.uniform(-2.0, 2.0, 2)
    roots = np.arctan2(y0[1], y0[0]) + np.pi / 2 + np.pi * np.arange(-2, 6)
    roots = roots[(roots > 0) & (roots < 10)]
    fun = _ivp(P["oscillator"][0])

    def event(t, y):
        return y[0]

    kw = dict(method="LSODA", rtol=RTOL, atol=ATOL)
    res = H.solve_ivp(fun, [0, 10], y0, events=event, **kw)
    np.testing.assert_allclose(res.t_events[0], np.sort(roots), atol=1e3 * RTOL)
    event.terminal, event.direction = True, 1
    res = H.solve_ivp(fun, [0, 10], y0, events=event, **kw)
    ref = si.solve_ivp(fun, [0, 10], y0, events=event, **kw)
    assert res.status == ref.status == 1 and res.t[-1] == pytest.approx(ref.t[-1], rel=1e-10)
    for t_span in ([0.0, 10.0], [10.0, 0.0]):
        t_eval = np.sort(rng.uniform(0.0, 10.0, 7))[::1 if t_span[0] == 0 else -1]
        res = H.solve_ivp(fun, t_span, y0, t_eval=t_eval, **kw)
        ref = si.solve_ivp(fun, t_span, y0, t_eval=t_eval, **kw)
        np.testing.assert_array_equal(res.t, t_eval)
        np.testing.assert_allclose(res.y, ref.y, rtol=1e-8, atol=1e-10)
    opts = dict(first_step=0.01, max_step=0.3, min_step=1e-9)
    res, ref = (mod.solve_ivp(fun, [0, 10], y0, **opts, **kw) for mod in (H, si))
    np.testing.assert_allclose(res.t, ref.t, rtol=1e-12)
    assert np.diff(res.t).max() <= 0.3


def test_solve_ivp_lsoda_errors(H):
    fun = _ivp(P["oscillator"][0])
    for kw, exc, text in ((dict(max_step=0.0), ValueError, "`max_step` must be positive"),
                          (dict(min_step=-1.0), ValueError, "`min_step` must be nonnegative"),
                          (dict(first_step=2.0), ValueError, "exceeds"),
                          (dict(atol=[1e-6] * 3), ValueError, "wrong shape")):
        for mod in (H, si):
            with pytest.raises(exc, match=text):
                mod.solve_ivp(fun, [0, 1], np.ones(2), method="LSODA", **kw)
    for mod in (H, si):
        with pytest.raises(ValueError, match="complex"):
            mod.solve_ivp(fun, [0, 1], np.ones(2) + 1j, method="LSODA")
        with pytest.warns(UserWarning, match="no effect"):
            mod.solve_ivp(fun, [0, 1], np.ones(2), method="LSODA", jac_sparsity=None)


@pytest.mark.parametrize("y0, kw", [([0.0, 1.0], dict(atol=0.0)), ([1.0, 1.0], dict(rtol=1e-20, atol=1e-30))],
                         ids=["vanished-weight", "excess-accuracy"])
def test_solve_ivp_lsoda_failure_as_scipy(H, y0, kw):
    """solve_ivp's LSODA stops where SciPy's does, with its warning ('lsoda: ' and ODEPACK's
    message, from SciPy's ode('lsoda')): a weight 1 / (rtol |y| + atol) that is infinite at t0
    (illegal input), and rtol raised to solve_ivp's floor 100 eps with atol 1e-30, where
    uround ||y w||, at most uround / rtol = 0.01, passes 0.01 by rounding after 11 steps."""
    got = []
    for mod in (H, si):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            res = mod.solve_ivp(lambda t, y: -y, (0, 1), np.array(y0), method="LSODA", **kw)
        got.append((res.status, res.message, res.nfev, int(res.njev), res.t.size,
                    [str(m.message) for m in w if str(m.message).startswith("lsoda")]))
    assert got[0] == got[1] and got[1][-1], got
