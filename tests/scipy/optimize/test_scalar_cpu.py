"""minimize_scalar and root_scalar (their host wrapping, NumPy standing in for the device values)
against scipy.optimize: the same roots, minima, iteration and call counts, and errors."""

import inspect

import numpy as np
import pytest
import scipy.optimize as so


def _f(x, c):
    return np.asarray((x - c) ** 3 - 2 * np.sin(x))  # a 0-d array, as a device function returns


def _fp(x, c):
    return np.asarray(3 * (x - c) ** 2 - 2 * np.cos(x))


def _fpp(x, c):
    return np.asarray(6 * (x - c) + 2 * np.sin(x))


@pytest.mark.parametrize("method", ["bisect", "brentq", "brenth", "ridder", "toms748"])
def test_bracketing_roots(host_optimize, method):
    c = float(np.random.default_rng().uniform(0.5, 1.5))
    r = host_optimize.root_scalar(_f, args=(c,), method=method, bracket=[-1.0, 4.0])
    ref = so.root_scalar(lambda x, c: float(_f(x, c)), args=(c,), method=method, bracket=[-1.0, 4.0])
    assert (r.root, r.iterations, r.function_calls, r.converged, r.flag) == \
        (ref.root, ref.iterations, ref.function_calls, ref.converged, ref.flag)


@pytest.mark.parametrize("method,kw", [("newton", {"fprime": _fp}), ("newton", {"fprime": True}),
                                       ("secant", {"x1": 2.5}), ("halley", {"fprime": _fp, "fprime2": _fpp})])
def test_open_methods(host_optimize, method, kw):
    c = float(np.random.default_rng().uniform(0.5, 1.5))
    ref_kw = dict(kw)
    f, f_ref = _f, (lambda x, c: float(_f(x, c)))
    if kw.get("fprime") is True:
        f = lambda x, c: (_f(x, c), _fp(x, c))  # noqa: E731
        f_ref = lambda x, c: (float(_f(x, c)), float(_fp(x, c)))  # noqa: E731
    r = host_optimize.root_scalar(f, args=(c,), method=method, x0=3.0, **kw)
    ref = so.root_scalar(f_ref, args=(c,), method=method, x0=3.0, **ref_kw)
    assert (r.root, r.iterations, r.function_calls, r.converged) == \
        (pytest.approx(ref.root, rel=1e-14), ref.iterations, ref.function_calls, ref.converged)


@pytest.mark.parametrize("method,kw", [("brent", {}), ("golden", {}), ("bounded", {"bounds": (-1.0, 3.0)})])
def test_minimize_scalar(host_optimize, method, kw):
    c = float(np.random.default_rng().uniform(-0.5, 2.5))

    def g(x, c):
        return np.asarray((x - c) ** 2 + 0.1 * np.cos(3 * x))

    r = host_optimize.minimize_scalar(g, args=(c,), method=method, **kw)
    ref = so.minimize_scalar(lambda x, c: float(g(x, c)), args=(c,), method=method, **kw)
    assert (r.x, r.fun, r.nfev, r.nit, r.success) == (ref.x, ref.fun, ref.nfev, ref.nit, ref.success)


def test_errors(host_optimize):
    with pytest.raises(ValueError, match="must return a scalar"):
        host_optimize.minimize_scalar(lambda x: np.ones(3))
    with pytest.raises(ValueError):
        host_optimize.root_scalar(_f, args=(1.0,), method="brentq", bracket=[3.0, 4.0])  # no sign change
    with pytest.raises(ValueError, match="Unknown solver"):
        host_optimize.minimize_scalar(lambda x: np.asarray(x * x), method="nope")


def test_signatures_match_scipy():
    import cuarray.scipy.optimize as ours

    for name in ("minimize_scalar", "root_scalar"):
        assert inspect.signature(getattr(ours, name)) == inspect.signature(getattr(so, name))
