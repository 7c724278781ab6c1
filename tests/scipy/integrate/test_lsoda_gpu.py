"""cuarray.scipy.integrate's odeint and solve_ivp(method='LSODA') on the device against
tight-tolerance reference solutions and SciPy's LSODA on the host: nonstiff and stiff problems
(rounding may change the steps, so they are compared through the solutions, within the sum of
the local error allowances), the switch to BDF on stiff problems, Dfun, bands, tcrit, dense
output, t_eval, events, and bad input."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.integrate")

import cuarray  # noqa: E402
from cuarray.scipy import integrate as ci  # noqa: E402


def _load(name):
    spec = importlib.util.spec_from_file_location("integrate_gpu_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LP = _load("lsoda_problems")
HOST = LP.problems(np)
RTOL, ATOL = 1e-7, 1e-10


@pytest.fixture(scope="module")
def dev():
    """The problems on the device (built at run time: collection needs no device)."""
    return LP.problems(cuarray)


def H(x):
    return cuarray.asnumpy(x)


def within_steps(y, ref, nst, what=""):
    """Within the sum of LSODA's local error allowances, nst (rtol max|y| + atol), of the
    reference (see the CPU test: 300 fresh draws stayed below 0.4 of it)."""
    err = np.max(np.abs(y - ref), axis=1)
    bound = nst * (RTOL * np.max(np.abs(ref), axis=1) + ATOL)
    assert np.all(err <= bound), f"{what}: error / bound = {(err / bound).max():.3g}, errors {err}"


@pytest.mark.parametrize("name", list(HOST))
def test_odeint_problems(dev, name):
    func, _, t_end = dev[name]
    y0 = LP.initial_state(name, np.random.default_rng())
    t = np.concatenate([[0.0], np.sort(np.random.default_rng().uniform(0.0, t_end, 6))])
    y, info = ci.odeint(func, cuarray.asarray(y0), t, rtol=RTOL, atol=ATOL, mxstep=5000, full_output=True)
    assert isinstance(y, cuarray.ndarray) and y.shape == (t.size, y0.size) and y.dtype == np.float64
    assert info["message"] == "Integration successful.", info["message"]
    ref = LP.reference(name, y0, t)
    within_steps(H(y), ref, info["nst"][-1], name)
    ys, infos = si.odeint(HOST[name][0], y0, t, rtol=RTOL, atol=ATOL, mxstep=5000, full_output=True)
    assert set(info) == set(infos) and info["lenrw"] == infos["lenrw"]
    if name in LP.STIFF:  # started with Adams, switched to BDF (as SciPy's) and stayed there
        assert info["tsw"][-1] > 0.0 and info["mused"][-1] == 2 == infos["mused"][-1], (info["tsw"], info["mused"])
        assert info["nje"][-1] > 0


def test_odeint_dfun_band_tcrit(dev):
    func, jac, t_end = dev["robertson"]
    y0, t = np.array([1.0, 0.0, 0.0]), np.linspace(0.0, HOST["robertson"][2], 5)
    ref = LP.reference("robertson", y0, t)
    for kw in (dict(Dfun=jac), dict(Dfun=lambda y, s: jac(y, s).T, col_deriv=1)):
        y, info = ci.odeint(func, cuarray.asarray(y0), t, rtol=RTOL, atol=ATOL, full_output=True, **kw)
        within_steps(H(y), ref, info["nst"][-1], str(list(kw)))
    n, k = 12, 1e3

    def heat(y, s):
        z = y[:1] * 0.0
        return k * (cuarray.concatenate([z, y[:-1]]) - 2 * y + cuarray.concatenate([y[1:], z]))

    modes = np.sin(np.pi * np.outer([1, 2], np.arange(1, n + 1)) / (n + 1))
    c = np.array([1.0, 0.5])
    t = np.linspace(0.0, 0.2, 5)
    exact = (c * np.exp(np.outer(t, 2 * k * (np.cos(np.pi * np.array([1, 2]) / (n + 1)) - 1)))) @ modes
    y, info = ci.odeint(heat, cuarray.asarray(c @ modes), t, ml=1, mu=1, rtol=RTOL, atol=ATOL, full_output=True)
    within_steps(H(y), exact, info["nst"][-1], "banded")
    seen = []

    def capped(y, s):  # undefined beyond t = 1: tcrit keeps LSODA from evaluating it there
        seen.append(s)
        return -y / (2.0 - s)

    t = np.linspace(0.0, 1.0, 5)
    y = ci.odeint(capped, cuarray.asarray([1.0, 3.0]), t, tcrit=[1.0], rtol=RTOL, atol=ATOL)
    assert max(seen) <= 1.0
    np.testing.assert_allclose(H(y), np.array([1.0, 3.0]) * ((2.0 - t) / 2.0)[:, None], rtol=1e3 * RTOL)


@pytest.mark.parametrize("name", ["lotka_volterra", "van_der_pol"])
def test_solve_ivp_lsoda(dev, name):
    func, jac, t_end = dev[name]
    y0 = LP.initial_state(name, np.random.default_rng())
    kw = dict(method="LSODA", rtol=RTOL, atol=ATOL, dense_output=True)
    for extra in (dict(), dict(jac=lambda t, y: jac(y, t))):
        res = ci.solve_ivp(lambda t, y: func(y, t), [0.0, t_end], cuarray.asarray(y0), **kw, **extra)
        assert res.success and res.status == 0, res.message
        tq = np.sort(np.random.default_rng().uniform(0.0, t_end, 7))
        ref = LP.reference(name, y0, np.concatenate([[0.0], tq]))[1:]
        within_steps(H(res.sol(tq)).T, ref, H(res.t).size, f"{name} {list(extra)}")
        within_steps(H(res.y)[:, -1:].T, LP.reference(name, y0, np.array([0.0, t_end]))[1:], H(res.t).size, "end")


def test_solve_ivp_lsoda_t_eval_events(dev):
    fun = dev["oscillator"][0]
    y0 = np.random.default_rng().uniform(-2.0, 2.0, 2)
    roots = np.arctan2(y0[1], y0[0]) + np.pi / 2 + np.pi * np.arange(-2, 6)
    roots = roots[(roots > 0) & (roots < 10)]

    def event(t, y):
        return y[0]

    res = ci.solve_ivp(lambda t, y: fun(y, t), [0, 10], cuarray.asarray(y0), method="LSODA", rtol=RTOL, atol=ATOL,
                       events=event)
    np.testing.assert_allclose(H(res.t_events[0]), roots, atol=1e3 * RTOL)
    # backward from the exact y(10); nfev bounds the step count
    t_eval = np.linspace(10.0, 0.0, 7)
    y10 = LP.reference("oscillator", y0, np.array([10.0]))[0]
    res = ci.solve_ivp(lambda t, y: fun(y, t), [10, 0], y10.tolist(), method="LSODA", rtol=RTOL, atol=ATOL,
                       t_eval=t_eval)
    np.testing.assert_array_equal(H(res.t), t_eval)
    within_steps(H(res.y).T, LP.reference("oscillator", y0, t_eval), res.nfev, "backward")


def test_bad_input(dev):
    func = dev["oscillator"][0]
    with pytest.raises(TypeError, match="cuarray.asarray"):
        ci.odeint(func, np.ones(2), [0.0, 1.0])
    with pytest.raises(ValueError, match="monotonically"):
        ci.odeint(func, cuarray.ones(2), [0.0, 1.0, 0.5])
    with pytest.raises(RuntimeError, match="does not match the size of y0"):
        ci.odeint(lambda y, t: cuarray.ones(3), cuarray.ones(2), [0.0, 1.0])
    with pytest.warns(ci.ODEintWarning, match="Excess work done"):
        y = ci.odeint(dev["robertson"][0], cuarray.asarray([1.0, 0.0, 0.0]), [0.0, 1e3, 1e4], mxstep=10)
    assert np.isnan(H(y)[-1]).all()
    with pytest.raises(ValueError, match="complex"):
        ci.solve_ivp(lambda t, y: -y, [0, 1], cuarray.ones(2) + 1j, method="LSODA")


@pytest.mark.parametrize("ml, mu", LP.BANDS)
def test_banded_jacobian_kept_as_band(ml, mu):
    """A stiff banded linear problem (`lsoda_problems.banded`: contracting, I - c J diagonally
    dominant) by solve_ivp's LSODA with lband/uband (differences; a packed device `jac`) and odeint
    with ml/mu: within LSODA's error bound of the exact solution, as SciPy's with the same band
    (the CPU test checks that on the host copies over 300 draws)."""
    rng = np.random.default_rng()
    n = 8
    J = LP.banded(n, ml, mu, rng)
    b, y0, t = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n), np.linspace(0, 4, 5)
    want = LP.exact_linear(J, b, y0, t)
    Jd, bd, ab = cuarray.asarray(J), cuarray.asarray(b), cuarray.asarray(LP.packed(J, ml, mu))

    def check(y, nst, what):
        bound = nst * (RTOL * np.max(np.abs(want), axis=1) + ATOL)
        err = np.max(np.abs(y - want), axis=1)
        assert np.all(err <= bound), f"{what}: error / bound = {(err / bound).max():.3g}"

    def f(s, y):
        return Jd @ y + (bd if y.ndim == 1 else bd[:, None])
    kw = dict(method="LSODA", t_eval=t, rtol=RTOL, atol=ATOL, lband=ml, uband=mu)
    for jkw in (dict(vectorized=True), dict(jac=lambda s, y: ab)):
        res = ci.solve_ivp(f, (0, 4), cuarray.asarray(y0), **kw, **jkw)
        assert res.success and res.njev > 0, res.message
        check(H(res.y), res.nfev, "solve_ivp " + str(list(jkw)))
    y, info = ci.odeint(lambda y, s: f(s, y), cuarray.asarray(y0), t, ml=ml, mu=mu, rtol=RTOL, atol=ATOL,
                        full_output=True, mxstep=5000)
    assert info["message"] == "Integration successful." and info["nje"][-1] > 0
    check(H(y).T, info["nst"][-1], "odeint")


def test_large_tridiagonal_band():
    """The heat equation's first mode at n = 1e6 points with lband = uband = 1 (a dense Jacobian
    would take 8 TB). From LSODA's own first step (1e-5: h lam_max = -4e7) its Adams corrector
    (functional iteration) fails ten times at t0: SciPy's LSODA too ('Unexpected istate', 21
    calls of f, no Jacobian; the host copy's the same). From a first step of 1e-13 it switches
    to BDF, each Newton solve gtsv2's on the band, and reaches the exact decay exp(lam t) within
    steps x rtol (the flow contracts; SciPy and the host copy: 50 steps, error 1.1e-6)."""
    n = 10**6
    d2 = float((n + 1) ** 2)
    x = np.arange(1, n + 1) / (n + 1)

    def f(t, y):
        z = y[:1] * 0.0
        z = z if y.ndim == 1 else cuarray.zeros((1,) + y.shape[1:])
        p = cuarray.concatenate([z, y, z])
        return (p[:-2] - 2 * p[1:-1] + p[2:]) * d2

    def f_host(t, y):
        p = np.concatenate([np.zeros((1,) + y.shape[1:]), y, np.zeros((1,) + y.shape[1:])])
        return (p[:-2] - 2 * p[1:-1] + p[2:]) * d2
    lam = -4 * d2 * np.sin(np.pi / (2 * (n + 1))) ** 2
    kw = dict(method="LSODA", lband=1, uband=1, rtol=1e-6, atol=1e-9, vectorized=True)
    with pytest.warns(UserWarning, match=r"^lsoda: Repeated convergence failures") as w_got:
        res = ci.solve_ivp(f, (0, 0.01), cuarray.asarray(np.sin(np.pi * x)), **kw)
    with pytest.warns(UserWarning, match=r"^lsoda: Repeated convergence failures") as w_want:
        want = si.solve_ivp(f_host, (0, 0.01), np.sin(np.pi * x), **kw)
    def lsoda(w):
        return [str(m.message) for m in w if str(m.message).startswith("lsoda")]
    got = (res.success, res.status, res.message, res.nfev, res.njev, res.t.size, lsoda(w_got))
    assert got == (want.success, want.status, want.message, want.nfev, want.njev, want.t.size, lsoda(w_want)), got
    res = ci.solve_ivp(f, (0, 0.01), cuarray.asarray(np.sin(np.pi * x)), first_step=1e-13, **kw)
    assert res.success and res.njev > 0, res.message
    err = np.abs(H(res.y[:, -1]) - np.sin(np.pi * x) * np.exp(lam * 0.01)).max()
    assert err <= len(res.t) * 1e-6, (err, len(res.t))
