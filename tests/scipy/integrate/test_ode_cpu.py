"""cuarray.scipy.integrate's `ode` and `complex_ode` (the legacy object interface over the LSODA
port and the Runge-Kutta solvers), run with NumPy standing in for the device routines, against
exact solutions of linear problems and against SciPy's `ode`: every integrator, parameters, the
step and relax modes, solout, complex systems, return codes, warnings and errors."""

import importlib.util
import pathlib

import numpy as np
import pytest
import scipy.integrate as si
import scipy.linalg


def _load(name):
    spec = importlib.util.spec_from_file_location("integrate_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


INTEGRATORS = [("vode", {}), ("vode", dict(method="bdf")), ("lsoda", {}), ("dopri5", {}), ("dop853", {})]
RTOL, ATOL = 1e-9, 1e-12
# The test flows contract (eigenvalues' real parts <= -0.1) and take under 1000 steps at these
# tolerances, so the global error is at most 1000 local allowances: 1e3 (RTOL |y| + ATOL) <= 1e-5
# with |y| <= 10.
BOUND = 1e-5


@pytest.fixture(scope="module")
def H():
    return _load("_ivp_host").host_integrate()


def problem(rng):
    """y' = k A y with A = [[-a, w], [-w, -b]], a, b in [0.1, 1], w in [1, 3]: a damped rotation
    (eigenvalues' real parts -(a + b) / 2 <= -0.1), and its exact flow."""
    a, b = rng.uniform(0.1, 1, 2)
    w = rng.uniform(1, 3)
    A = np.array([[-a, w], [-w, -b]])
    k = rng.uniform(0.5, 1.5)
    return A, k, (lambda y0, t: scipy.linalg.expm(k * A * t) @ y0)


@pytest.mark.parametrize("name, kw", INTEGRATORS)
def test_integrators_reach_the_exact_solution_as_scipys(H, name, kw):
    rng = np.random.default_rng()
    A, k, flow = problem(rng)
    y0 = rng.uniform(-1, 1, 2)
    times = np.sort(rng.uniform(0.1, 4, 3))

    def f(t, y, k):
        return k * (A @ y)

    def jac(t, y, k):
        return k * A
    for j in (None, jac):
        for mod in (H, si):
            r = mod.ode(f, j).set_integrator(name, rtol=RTOL, atol=ATOL, **kw)
            r.set_initial_value(y0, 0.0).set_f_params(k).set_jac_params(k)
            for t in times:
                y = r.integrate(t)
                # SciPy's vode may land an ulp off the target (ours lands on it)
                assert r.successful() and abs(r.t - t) <= 4 * np.finfo(float).eps * t
                np.testing.assert_allclose(y, flow(y0, t), rtol=0, atol=BOUND)
                np.testing.assert_array_equal(r.y, y)
            assert r.get_return_code() == (1 if name.startswith("dop") else 2)


@pytest.mark.parametrize("name", ["vode", "lsoda"])
def test_step_and_relax(H, name):
    """step=True takes one step (t between t0 and the target); relax=True stops at the first step
    past the target, without interpolating; the state there is the exact flow's."""
    rng = np.random.default_rng()
    A, k, flow = problem(rng)
    y0 = rng.uniform(-1, 1, 2)
    r = H.ode(lambda t, y: k * (A @ y)).set_integrator(name, rtol=RTOL, atol=ATOL).set_initial_value(y0, 0.0)
    ts = []
    while r.t < 1.0:
        y = r.integrate(1.0, step=True)
        ts.append(r.t)
        np.testing.assert_allclose(y, flow(y0, r.t), rtol=0, atol=BOUND)
    assert len(ts) > 3 and np.all(np.diff(ts) > 0) and r.successful()
    y = r.integrate(2.0, relax=True)
    assert r.t >= 2.0 and r.successful()
    np.testing.assert_allclose(y, flow(y0, r.t), rtol=0, atol=BOUND)
    # SciPy's vode steps so too (its lsoda, since 1.17's C LSODA, integrates to the target instead:
    # docs/differences.md)
    ref = si.ode(lambda t, y: k * (A @ y)).set_integrator("vode", rtol=RTOL, atol=ATOL).set_initial_value(y0, 0.0)
    ref.integrate(1.0, step=True)
    assert 0 < ref.t < 1.0


@pytest.mark.parametrize("name", ["dopri5", "dop853"])
def test_solout(H, name):
    """solout sees the start and every accepted step; returning -1 stops there (return code 2,
    still successful), as SciPy's."""
    rng = np.random.default_rng()
    A, k, flow = problem(rng)
    y0 = rng.uniform(-1, 1, 2)
    for mod in (H, si):
        seen = []

        def solout(t, y):
            seen.append((t, np.array(y)))
            return -1 if t > 1.0 else 0
        r = mod.ode(lambda t, y: k * (A @ y)).set_integrator(name, rtol=RTOL, atol=ATOL)
        r.set_solout(solout)
        r.set_initial_value(y0, 0.0)
        y = r.integrate(3.0)
        assert seen[0][0] == 0.0 and 1.0 < r.t < 3.0 and seen[-1][0] == r.t
        assert r.successful() and r.get_return_code() == 2
        np.testing.assert_allclose(y, flow(y0, r.t), rtol=0, atol=BOUND)
        for t, ys in seen:
            np.testing.assert_allclose(ys, flow(y0, t), rtol=0, atol=BOUND)


@pytest.mark.parametrize("name", ["zvode", "complex_ode-vode", "complex_ode-lsoda", "complex_ode-dopri5",
                                  "complex_ode-dop853"])
def test_complex(H, name):
    """y' = (i w - c) y (and a coupled complex pair), exact: ode with zvode and complex_ode with the
    real integrators, with and without the complex Jacobian."""
    rng = np.random.default_rng()
    M = np.array([[1j * rng.uniform(1, 3) - rng.uniform(0.1, 1), 0.3], [-0.3j, -rng.uniform(0.1, 1)]])
    y0 = rng.uniform(-1, 1, 2) + 1j * rng.uniform(-1, 1, 2)

    def f(t, y):
        return M @ y

    def jac(t, y):
        return M
    cls, integ = (H.ode, "zvode") if name == "zvode" else (H.complex_ode, name.split("-")[1])
    for j in (None, jac):
        r = cls(f, j).set_integrator(integ, rtol=RTOL, atol=ATOL).set_initial_value(y0, 0.0)
        y = r.integrate(2.0)
        assert r.successful() and np.iscomplexobj(y) and np.iscomplexobj(r.y) and r.t == 2.0
        np.testing.assert_allclose(y, scipy.linalg.expm(2.0 * M) @ y0, rtol=0, atol=BOUND)


def test_failures_return_codes_and_errors(H):
    """nsteps exceeded: SciPy's warning text, successful() False and its return code; the errors
    SciPy raises for solout on LSODA, zvode in complex_ode, an unknown method; an unknown
    integrator warns and keeps the previous one."""
    def f(t, y):
        return -1000.0 * y  # stiff for the explicit methods
    for name, code in (("lsoda", -1), ("vode", -1), ("dopri5", -2), ("dop853", -2)):
        got = []
        for mod in (H, si):
            r = mod.ode(lambda t, y: np.cos(50 * t) * y).set_integrator(name, nsteps=5).set_initial_value([1.0], 0)
            with pytest.warns(UserWarning, match=name) as caught:
                r.integrate(100.0)
            got.append((r.successful(), r.get_return_code(), str(caught[0].message)))
        assert got[0] == got[1] and got[0][:2] == (False, code), got
    r = H.ode(f).set_integrator("lsoda")
    with pytest.raises(ValueError, match="solout"):
        r.set_solout(lambda t, y: 0)
    r = H.complex_ode(f).set_integrator("lsoda")
    with pytest.raises(TypeError, match="solout"):
        r.set_solout(lambda t, y: 0)
    with pytest.raises(ValueError, match="zvode must be used with ode"):
        H.complex_ode(f).set_integrator("zvode")
    with pytest.raises(ValueError, match="Unknown integration method"):
        H.ode(f).set_integrator("vode", method="rk")
    r = H.ode(f).set_integrator("dopri5")
    with pytest.warns(UserWarning, match="No integrator name match with 'nope'"):
        r.set_integrator("nope")
    assert r.get_return_code() == 1 and r._integrator.name == "dopri5"
    with pytest.raises(NotImplementedError, match="beta"):
        H.ode(f).set_integrator("dopri5", beta=0.04)
