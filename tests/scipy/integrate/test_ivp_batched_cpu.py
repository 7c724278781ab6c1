"""solve_ivp_batched's real loop (NumPy standing in for the device routines): each row equals
scipy.integrate.solve_ivp on that system alone, with SciPy's nfev and status."""

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


PR = _load("ivp_problems")


@pytest.fixture(scope="module")
def H():
    return _load("_ivp_host").host_integrate()


def check_rows(res, refs, rtol):
    for i, ref in enumerate(refs):
        assert int(res.status[i]) == ref.status, i
        assert int(res.nfev[i]) == ref.nfev, (i, int(res.nfev[i]), ref.nfev)
        assert res.t[i] == pytest.approx(ref.t[-1], rel=1e-12)
        np.testing.assert_allclose(res.y[i], ref.y[:, -1], rtol=rtol, atol=1e-9 * np.abs(ref.y).max())
    assert res.success == all(r.status == 0 for r in refs)


@pytest.mark.parametrize("method", ["RK23", "RK45", "DOP853"])
def test_lotka_volterra_ensemble(H, method):
    rng = np.random.default_rng()
    params = rng.uniform([0.5, 0.5, 1.0, 0.5], [2.0, 1.5, 3.0, 1.5], (6, 4))
    y0 = rng.uniform(1, 10, (6, 2))
    kw = dict(rtol=1e-6, atol=1e-9)
    res = H.solve_ivp_batched(PR.lv_batch(np, params), (0, 5), y0, method=method, **kw)
    refs = [si.solve_ivp(PR.lv_single(p), (0, 5), y, method=method, **kw) for p, y in zip(params, y0)]
    check_rows(res, refs, 1e-7)


def test_time_dependent_backward_complex_args_and_atol_array(H):
    rng = np.random.default_rng()
    k = rng.uniform(0.5, 2, (4, 1))
    y0 = rng.normal(size=(4, 3)) + 1j * rng.normal(size=(4, 3))

    def f(t, y, w):
        assert t.shape == (4, 1)
        return -k * y * np.cos(w * t)

    kw = dict(rtol=1e-5, atol=np.array([1e-8, 1e-7, 1e-6]), max_step=0.7)
    res = H.solve_ivp_batched(f, (3, -1), y0, args=(2.0,), **kw)
    refs = [si.solve_ivp(lambda t, y, w, i=i: -k[i, 0] * y * np.cos(w * t), (3, -1), y0[i], args=(2.0,), **kw)
            for i in range(4)]
    assert res.y.dtype == np.complex128
    check_rows(res, refs, 1e-7)
    res = H.solve_ivp_batched(f, (0, 2), y0, args=(1.0,), first_step=1e-3)
    refs = [si.solve_ivp(lambda t, y, i=i: -k[i, 0] * y * np.cos(t), (0, 2), y0[i], first_step=1e-3) for i in range(4)]
    check_rows(res, refs, 1e-7)


def test_failing_system_is_reported(H):
    # y' = y^2 blows up at t = 1 / y0: the row with y0 = 1 fails before t = 2 as SciPy's does
    y0 = np.array([[1.0], [0.25]])
    res = H.solve_ivp_batched(lambda t, y: y * y, (0, 2), y0)
    refs = [si.solve_ivp(lambda t, y: y * y, (0, 2), y) for y in y0]
    assert [r.status for r in refs] == [-1, 0]
    assert not res.success
    # the blown-up row: SciPy's own y at its stop moves by 10% when y0 and rtol move by 3e-16 (its
    # t by 1e-15, its nfev not at all), so the last bits of a SIMD power (the GPU machine's NumPy)
    # decide y there: status, nfev and t as SciPy's, y to its order of magnitude
    assert int(res.status[0]) == -1 and int(res.nfev[0]) == refs[0].nfev
    assert res.t[0] == pytest.approx(refs[0].t[-1], rel=1e-12)
    assert 0.5 < res.y[0, 0] / refs[0].y[0, -1] < 2
    sub = type(res)(**{k: v[1:] if k in ("status", "nfev", "t", "y") else v for k, v in res.items()})
    sub.success = True
    check_rows(sub, refs[1:], 1e-7)


def test_batched_bad_input(H):
    f = lambda t, y: -y  # noqa: E731
    with pytest.raises(ValueError, match="2-dimensional"):
        H.solve_ivp_batched(f, (0, 1), np.ones(3))
    with pytest.raises(ValueError, match="`method` must be one of"):
        H.solve_ivp_batched(f, (0, 1), np.ones((2, 3)), method="BDF")
    with pytest.raises(ValueError, match="finite"):
        H.solve_ivp_batched(f, (0, 1), np.full((2, 3), np.nan))
    with pytest.raises(ValueError, match="wrong shape"):
        H.solve_ivp_batched(f, (0, 1), np.ones((2, 3)), atol=[1e-6, 1e-6])
    with pytest.raises(ValueError, match="unpack"):
        H.solve_ivp_batched(f, (0, 1, 2), np.ones((2, 3)))
    with pytest.warns(UserWarning, match="too small"):
        H.solve_ivp_batched(f, (0, 1), np.ones((2, 3)), rtol=0.0)
    res = H.solve_ivp_batched(f, (1, 1), np.ones((2, 3)))
    assert res.success and np.all(res.nfev == 1) and np.all(res.y == 1)
