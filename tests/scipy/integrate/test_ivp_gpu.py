"""cuarray.scipy.integrate.solve_ivp and solve_ivp_batched on the device against
scipy.integrate.solve_ivp on the host: SciPy's test problems (the same accepted steps, values and
nfev), t_eval both ways, events, dense output at random points, complex y, args, and an ensemble
of Lotka-Volterra systems each equal to SciPy solving it alone; bad input errors."""

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


PR = _load("ivp_problems")
DEV, HOST = PR.problems(cuarray), PR.problems(np)
METHODS = ["RK23", "RK45", "DOP853"]


def H(x):
    return cuarray.asnumpy(x)


def same(res, ref, rtol=1e-7):
    assert (res.status, res.success, res.message) == (ref.status, ref.success, ref.message)
    assert res.nfev == ref.nfev, (res.nfev, ref.nfev)
    assert isinstance(res.y, cuarray.ndarray) and res.y.shape == ref.y.shape, (res.y.shape, ref.y.shape)
    np.testing.assert_allclose(H(res.t), ref.t, rtol=rtol, atol=1e-12)
    np.testing.assert_allclose(H(res.y), ref.y, rtol=rtol, atol=rtol * np.abs(ref.y).max())


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", list(DEV))
def test_problems_match_scipy(name, method):
    fun, t_span, y0, _ = DEV[name]
    res = ci.solve_ivp(fun, t_span, cuarray.asarray(y0), method=method, dense_output=True, rtol=1e-5, atol=1e-8)
    ref = si.solve_ivp(HOST[name][0], t_span, np.array(y0), method=method, dense_output=True, rtol=1e-5, atol=1e-8)
    same(res, ref)
    tq = np.random.default_rng().uniform(*sorted(t_span), 9)
    np.testing.assert_allclose(H(res.sol(tq)), ref.sol(tq), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(H(res.sol(cuarray.asarray(tq))), ref.sol(tq), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_t_eval_backward_events_args(method):
    fun, _, y0, _ = DEV["decay"]
    te = np.linspace(5, 0, 7)
    res = ci.solve_ivp(fun, [5, 0], cuarray.asarray(y0), method=method, t_eval=te)
    same(res, si.solve_ivp(HOST["decay"][0], [5, 0], np.array(y0), method=method, t_eval=te))

    def osc(t, y, w):
        return cuarray.stack([y[1], -w * w * y[0]])

    def osc_h(t, y, w):
        return np.array([y[1], -w * w * y[0]])

    def ev(t, y, w):
        return y[0]

    ev.terminal, ev.direction = 2, -1
    kw = dict(method=method, events=ev, args=(1.5,), dense_output=True)
    res = ci.solve_ivp(osc, [0, 20], cuarray.asarray([1.0, 0.0]), **kw)
    ref = si.solve_ivp(osc_h, [0, 20], np.array([1.0, 0.0]), **kw)
    same(res, ref)
    np.testing.assert_allclose(H(res.t_events[0]), ref.t_events[0], rtol=1e-10)
    np.testing.assert_allclose(H(res.y_events[0]), ref.y_events[0], rtol=1e-7, atol=1e-10)


def test_batched_lotka_volterra_ensemble():
    rng = np.random.default_rng()
    rates, y0 = rng.uniform([0.5, 0.5, 1.0, 0.5], [2.0, 1.5, 3.0, 1.5], (4096, 4)), rng.uniform(1, 10, (4096, 2))
    kw = dict(rtol=1e-6, atol=1e-9)
    res = ci.solve_ivp_batched(PR.lv_batch(cuarray, cuarray.asarray(rates)), (0, 10), cuarray.asarray(y0), **kw)
    assert res.success and res.y.shape == (4096, 2)
    y, nfev = H(res.y), H(res.nfev)
    for i in rng.choice(4096, 12, replace=False):
        ref = si.solve_ivp(PR.lv_single(rates[i]), (0, 10), y0[i], **kw)
        np.testing.assert_allclose(y[i], ref.y[:, -1], rtol=1e-7, err_msg=f"system {i}")
        assert nfev[i] == ref.nfev, (i, nfev[i], ref.nfev)


def test_batched_dop853_complex_backward():
    rng = np.random.default_rng()
    k = rng.uniform(0.5, 2, (64, 1))
    y0 = rng.normal(size=(64, 3)) + 1j * rng.normal(size=(64, 3))
    kd = cuarray.asarray(k)
    res = ci.solve_ivp_batched(lambda t, y: -kd * y * cuarray.cos(t), (3, -1), cuarray.asarray(y0), method="DOP853")
    y = H(res.y)
    for i in (0, 17, 63):
        ref = si.solve_ivp(lambda t, x: -k[i, 0] * x * np.cos(t), (3, -1), y0[i], method="DOP853")
        np.testing.assert_allclose(y[i], ref.y[:, -1], rtol=1e-7)
        assert int(H(res.nfev)[i]) == ref.nfev


def test_bad_input():
    fun = DEV["decay"][0]
    with pytest.raises(TypeError, match="cuarray.asarray"):
        ci.solve_ivp(fun, [0, 1], np.ones(3))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        ci.solve_ivp_batched(fun, [0, 1], np.ones((2, 3)))
    with pytest.raises(ValueError, match="1-dimensional"):
        ci.solve_ivp(fun, [0, 1], cuarray.ones((2, 3)))
    res = ci.solve_ivp(fun, [0, 1], [1.0, 2.0, 4.0])  # a Python list is a literal: copied
    ref = si.solve_ivp(HOST["decay"][0], [0, 1], [1.0, 2.0, 4.0])
    same(res, ref)
    with pytest.raises(ValueError, match="`method` must be one of"):
        ci.solve_ivp(fun, [0, 1], cuarray.ones(3), method="Euler")
    with pytest.raises(ValueError, match="finite"):
        ci.solve_ivp(fun, [0, 1], cuarray.asarray([1.0, np.nan]))
    with pytest.warns(UserWarning, match="too small"):
        ci.solve_ivp(fun, [0, 1], cuarray.ones(3), rtol=1e-20)
