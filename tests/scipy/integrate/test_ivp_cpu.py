"""cuarray.scipy.integrate.solve_ivp's real step loop (NumPy standing in for the device routines)
against scipy.integrate.solve_ivp: the same accepted steps, values, nfev, events and errors."""

import importlib.util
import pathlib
import numpy as np
import pytest
import scipy.integrate as si


def _load(name):
    spec = importlib.util.spec_from_file_location("integrate_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


P = _load("ivp_problems").problems(np)
METHODS = ["RK23", "RK45", "DOP853"]


@pytest.fixture(scope="module")
def H():
    return _load("_ivp_host").host_integrate()


def same(res, ref, rtol=1e-7):
    """The same accepted steps (t) and values; a different step count fails first."""
    assert res.status == ref.status and res.success == ref.success and res.message == ref.message
    assert res.nfev == ref.nfev and res.njev == ref.njev == 0 and res.nlu == ref.nlu == 0
    assert np.shape(res.t) == np.shape(ref.t), (np.shape(res.t), np.shape(ref.t))
    np.testing.assert_allclose(res.t, ref.t, rtol=rtol, atol=1e-12)
    scale = np.abs(ref.y).max() if np.size(ref.y) else 1.0
    np.testing.assert_allclose(res.y, ref.y, rtol=rtol, atol=rtol * scale)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", list(P))
def test_problems_match_scipy(H, name, method):
    fun, t_span, y0, exact = P[name]
    kw = dict(rtol=1e-5, atol=1e-8)
    res = H.solve_ivp(fun, t_span, np.array(y0), method=method, dense_output=True, **kw)
    ref = si.solve_ivp(fun, t_span, np.array(y0), method=method, dense_output=True, **kw)
    same(res, ref)
    rng = np.random.default_rng()
    tq = rng.uniform(*sorted(t_span), 9)
    np.testing.assert_allclose(res.sol(tq), ref.sol(tq), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(res.sol(float(tq[0])), ref.sol(tq[0]), rtol=1e-7, atol=1e-9)
    if exact is not None:
        np.testing.assert_allclose(res.y, exact(res.t), rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("method", METHODS)
def test_backward_and_t_eval(H, method):
    fun, _, y0, _ = P["decay"]
    for t_span, t_eval in (([5, 0], np.linspace(5, 0, 11)), ([0, 5], np.sort(np.random.default_rng().uniform(0, 5, 8)))):
        res = H.solve_ivp(fun, t_span, np.array(y0), method=method, t_eval=t_eval)
        ref = si.solve_ivp(fun, t_span, np.array(y0), method=method, t_eval=t_eval)
        same(res, ref)
        np.testing.assert_array_equal(res.t, t_eval)
    res = H.solve_ivp(fun, [0, 5], np.array(y0), method=method, t_eval=[1.0, 2.0], dense_output=True)
    ref = si.solve_ivp(fun, [0, 5], np.array(y0), method=method, t_eval=[1.0, 2.0], dense_output=True)
    same(res, ref)
    np.testing.assert_allclose(res.sol([0.5, 4.5, 3.0]), ref.sol([0.5, 4.5, 3.0]), rtol=1e-9)


def test_t_eval_errors(H):
    fun, _, y0, _ = P["decay"]
    for t_span, t_eval, text in (([0, 5], [[1.0]], "1-dimensional"), ([0, 5], [6.0], "within"),
                                 ([0, 5], [2.0, 1.0], "sorted"), ([5, 0], [1.0, 2.0], "sorted")):
        for mod in (H, si):
            with pytest.raises(ValueError, match=text):
                mod.solve_ivp(fun, t_span, np.array(y0), t_eval=np.array(t_eval))


@pytest.mark.parametrize("method", METHODS)
def test_events(H, method):
    fun, t_span, y0, _ = P["rational"]

    def e1(t, y):
        return y[0] - y[1] - 0.7

    def e2(t, y):
        return y[1] - 0.205

    def e3(t, y):
        return y[1] - 0.2

    for direction, terminal in ((0, False), (1, False), (-1, False), (0, True), (-1, 2)):
        e1.direction = e2.direction = direction
        e3.terminal = terminal
        res = H.solve_ivp(fun, t_span, np.array(y0), method=method, events=(e1, e2, e3))
        ref = si.solve_ivp(fun, t_span, np.array(y0), method=method, events=(e1, e2, e3))
        same(res, ref)
        for a, b in zip(res.t_events, ref.t_events):
            np.testing.assert_allclose(a, b, rtol=1e-10)
        for a, b in zip(res.y_events, ref.y_events):
            assert np.shape(a) == np.shape(b)
            np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-12)


def test_terminal_count_and_bad_terminal(H):
    def f(t, y):
        return np.array([y[1], -y[0]])

    def event(t, y):
        return y[0]

    for n in (1, 2, 3):
        event.terminal = n
        res = H.solve_ivp(f, [0, 20], np.array([1.0, 0.0]), events=event)
        ref = si.solve_ivp(f, [0, 20], np.array([1.0, 0.0]), events=event)
        same(res, ref)
        np.testing.assert_allclose(res.t_events[0], ref.t_events[0], rtol=1e-10)
        assert len(res.t_events[0]) == n and res.t[-1] == res.t_events[0][-1]
    event.terminal = 1.5
    for mod in (H, si):
        with pytest.raises(ValueError, match="terminal"):
            mod.solve_ivp(f, [0, 20], np.array([1.0, 0.0]), events=event)


@pytest.mark.parametrize("method", METHODS)
def test_args_vectorized_steps_and_atol_array(H, method):
    def f(t, y, a, b):
        return np.vstack([a * y[1], -b * y[0]]) if y.ndim == 2 else np.array([a * y[1], -b * y[0]])

    kw = dict(args=(2.0, 0.5), atol=np.array([1e-8, 1e-6]), rtol=np.array([1e-4, 1e-5]), max_step=0.3,
              first_step=0.01)
    for vectorized in (False, True):
        res = H.solve_ivp(f, [0, 3], np.array([1.0, 0.5]), method=method, vectorized=vectorized, **kw)
        ref = si.solve_ivp(f, [0, 3], np.array([1.0, 0.5]), method=method, vectorized=vectorized, **kw)
        same(res, ref)
        assert np.diff(res.t).max() <= 0.3 + 1e-12


def test_solver_class_steps(H):
    fun, t_span, y0, _ = P["lotka_volterra"]
    a = H.RK45(fun, 0, np.array(y0), 1.0)
    b = si.RK45(fun, 0, np.array(y0), 1.0)
    while b.status == "running":
        a.step()
        b.step()
        assert a.status == b.status and a.t == pytest.approx(b.t, rel=1e-12)
        np.testing.assert_allclose(a.step_size, b.step_size, rtol=1e-10)
    np.testing.assert_allclose(a.dense_output()(0.99), b.dense_output()(0.99), rtol=1e-10)
    with pytest.raises(RuntimeError):
        a.step()
    assert a.nfev == b.nfev


def test_bad_input(H):
    fun, _, y0, _ = P["decay"]
    y0 = np.array(y0)
    cases = [
        (dict(t_span=[0, 1, 2], y0=y0), ValueError, "unpack"),
        (dict(t_span=[0], y0=y0), ValueError, "unpack"),
        (dict(t_span=[0, 1], y0=y0[None]), ValueError, "1-dimensional"),
        (dict(t_span=[0, 1], y0=np.array([1.0, np.inf])), ValueError, "finite"),
        (dict(t_span=[0, 1], y0=y0, method="Euler"), ValueError, "`method` must be one of"),
        (dict(t_span=[0, 1], y0=y0, first_step=-1.0), ValueError, "first_step"),
        (dict(t_span=[0, 1], y0=y0, first_step=2.0), ValueError, "exceeds"),
        (dict(t_span=[0, 1], y0=y0, max_step=0.0), ValueError, "max_step"),
        (dict(t_span=[0, 1], y0=y0, atol=[1e-6, 1e-6]), ValueError, "wrong shape"),
        (dict(t_span=[0, 1], y0=y0, atol=-1.0), ValueError, "positive"),
        (dict(t_span=[0, 1], y0=y0, args=3.0), TypeError, "unpacked"),
    ]
    for kw, exc, text in cases:
        for mod in (H, si):
            with pytest.raises(exc, match=text):
                mod.solve_ivp(fun, **kw)
    results = []
    for mod in (H, si):
        with pytest.warns(UserWarning, match="`rtol` is too small"):
            results.append(mod.solve_ivp(fun, [0, 1], y0, rtol=1e-20))
        with pytest.warns(UserWarning, match="no effect"):
            mod.solve_ivp(fun, [0, 1], y0, jac=None)
    same(*results)  # both run at rtol = 100 eps


def test_zero_interval_and_empty(H):
    fun, _, y0, _ = P["decay"]
    for t_span, y in (([1, 1], np.array(y0)), ([0, 1], np.empty(0))):
        res = H.solve_ivp(fun, t_span, y, dense_output=True)
        ref = si.solve_ivp(fun, t_span, y, dense_output=True)
        same(res, ref)
        np.testing.assert_array_equal(res.sol(t_span[1]), ref.sol(t_span[1]))
