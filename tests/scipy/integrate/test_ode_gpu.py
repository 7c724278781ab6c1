"""cuarray.scipy.integrate's legacy `ode` and `complex_ode` on the device: every integrator on a
damped rotation against its exact flow (and SciPy's `ode` on the host), step/relax, solout, the
complex forms, a failure's return code. The CPU test (test_ode_cpu.py) runs the same bodies on the
host copies over 300 fresh draws."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.integrate")
scipy_linalg = pytest.importorskip("scipy.linalg")

import cuarray  # noqa: E402
from cuarray.scipy import integrate as ci  # noqa: E402

RTOL, ATOL = 1e-9, 1e-12
# contracting flows (eigenvalues' real parts <= -0.1), under 1000 steps: the global error is at
# most 1000 local allowances, 1e3 (RTOL |y| + ATOL) <= 1e-5 for |y| <= 10
BOUND = 1e-5


def problem(rng):
    a, b = rng.uniform(0.1, 1, 2)
    A = np.array([[-a, rng.uniform(1, 3)], [-rng.uniform(1, 3), -b]])
    return A, (lambda y0, t: scipy_linalg.expm(A * t) @ y0)


@pytest.mark.parametrize("name, kw", [("vode", {}), ("vode", dict(method="bdf")), ("lsoda", {}), ("dopri5", {}),
                                      ("dop853", {})])
def test_integrators(name, kw):
    rng = np.random.default_rng()
    A, flow = problem(rng)
    Ad = cuarray.asarray(A)
    y0 = rng.uniform(-1, 1, 2)
    for jac in (None, lambda t, y, k: k * Ad):
        r = ci.ode(lambda t, y, k: k * (Ad @ y), jac).set_integrator(name, rtol=RTOL, atol=ATOL, **kw)
        r.set_initial_value(cuarray.asarray(y0), 0.0).set_f_params(1.0).set_jac_params(1.0)
        for t in (0.5, 2.0):
            y = r.integrate(t)
            assert isinstance(y, cuarray.ndarray) and r.successful() and r.t == t, r.get_return_code()
            np.testing.assert_allclose(cuarray.asnumpy(y), flow(y0, t), rtol=0, atol=BOUND)
        assert r.get_return_code() == (1 if name.startswith("dop") else 2)


def test_step_relax_and_solout():
    rng = np.random.default_rng()
    A, flow = problem(rng)
    Ad = cuarray.asarray(A)
    y0 = rng.uniform(-1, 1, 2)
    r = ci.ode(lambda t, y: Ad @ y).set_integrator("lsoda", rtol=RTOL, atol=ATOL).set_initial_value(
        cuarray.asarray(y0), 0.0)
    y = r.integrate(1.0, step=True)
    assert 0 < r.t < 1.0 and r.successful()
    np.testing.assert_allclose(cuarray.asnumpy(y), flow(y0, r.t), rtol=0, atol=BOUND)
    y = r.integrate(1.0, relax=True)
    assert r.t >= 1.0
    np.testing.assert_allclose(cuarray.asnumpy(y), flow(y0, r.t), rtol=0, atol=BOUND)
    seen = []
    r = ci.ode(lambda t, y: Ad @ y).set_integrator("dopri5", rtol=RTOL, atol=ATOL)
    r.set_solout(lambda t, y: seen.append(t) or (-1 if t > 1.0 else 0))
    r.set_initial_value(cuarray.asarray(y0), 0.0)
    y = r.integrate(3.0)
    assert seen[0] == 0.0 and seen[-1] == r.t and 1.0 < r.t < 3.0 and r.get_return_code() == 2
    np.testing.assert_allclose(cuarray.asnumpy(y), flow(y0, r.t), rtol=0, atol=BOUND)


@pytest.mark.parametrize("cls, name", [("ode", "zvode"), ("complex_ode", "lsoda"), ("complex_ode", "dop853")])
def test_complex(cls, name):
    rng = np.random.default_rng()
    M = np.array([[1j * rng.uniform(1, 3) - rng.uniform(0.1, 1), 0.3], [-0.3j, -rng.uniform(0.1, 1)]])
    Md = cuarray.asarray(M)
    y0 = rng.uniform(-1, 1, 2) + 1j * rng.uniform(-1, 1, 2)
    for jac in (None, lambda t, y: Md):
        r = getattr(ci, cls)(lambda t, y: Md @ y, jac).set_integrator(name, rtol=RTOL, atol=ATOL)
        r.set_initial_value(cuarray.asarray(y0), 0.0)
        y = r.integrate(2.0)
        assert r.successful() and y.dtype == np.complex128 and r.y.dtype == np.complex128
        np.testing.assert_allclose(cuarray.asnumpy(y), scipy_linalg.expm(2.0 * M) @ y0, rtol=0, atol=BOUND)


def test_excess_work_as_scipy():
    """nsteps exceeded: SciPy's warning, successful() False, the same return code as SciPy's."""
    for name in ("lsoda", "dopri5"):
        r = ci.ode(lambda t, y: cuarray.cos(50 * t) * y).set_integrator(name, nsteps=5)
        r.set_initial_value(cuarray.asarray([1.0]), 0.0)
        ref = si.ode(lambda t, y: np.cos(50 * t) * y).set_integrator(name, nsteps=5).set_initial_value([1.0], 0.0)
        with pytest.warns(UserWarning, match=name):
            r.integrate(100.0)
        with pytest.warns(UserWarning, match=name):
            ref.integrate(100.0)
        assert (r.successful(), r.get_return_code()) == (ref.successful(), ref.get_return_code())
