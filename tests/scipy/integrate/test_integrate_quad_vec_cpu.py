"""cuarray.scipy.integrate.quad_vec run as the real code with NumPy standing in for the device
routines (conftest.host_integrate), against scipy.integrate.quad_vec: the integral, the error and
full_output's neval, status, intervals, integrals and errors, over the rules, norms, points,
infinite limits, tolerances, limit, complex and scalar integrands and N-D values."""

import inspect

import numpy as np
import pytest
import scipy.integrate as si


def same(got, want, full=True):
    g, w = np.asarray(got[0]), np.asarray(want[0])
    assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
    np.testing.assert_allclose(g, w, rtol=1e-13, atol=1e-13 * np.max(np.abs(w), initial=1))
    assert got[1] == pytest.approx(want[1], rel=1e-6, abs=1e-300)
    if full:
        gi, wi = got[2], want[2]
        assert (gi.neval, gi.status, gi.success, gi.message) == (wi.neval, wi.status, wi.success, wi.message)
        np.testing.assert_array_equal(np.sort(gi.intervals, axis=0), np.sort(wi.intervals, axis=0))
        np.testing.assert_allclose(np.sort(gi.errors), np.sort(wi.errors), rtol=1e-6)
        assert np.asarray(gi.integrals).shape == np.asarray(wi.integrals).shape


def run(host, *args, **kw):
    with np.errstate(all="ignore"):
        return host.quad_vec(*args, full_output=True, **kw), si.quad_vec(*args, full_output=True, **kw)


@pytest.mark.parametrize("kw", [{}, dict(norm="max"), dict(quadrature="gk15"), dict(quadrature="gk21"),
                                dict(quadrature="trapezoid", epsrel=1e-4), dict(points=[0.3, 0.7, 5.0]),
                                dict(epsrel=1e-13, limit=40), dict(epsabs=1e-3, epsrel=0), dict(norm=np.linalg.norm)])
def test_options(host_integrate, kw):
    alpha = np.random.default_rng().uniform(0, 2, 6)
    same(*run(host_integrate, lambda x: x ** alpha, 0, 2, **kw))


@pytest.mark.parametrize("a, b", [(0, np.inf), (-np.inf, 1.0), (-np.inf, np.inf), (np.inf, -np.inf), (2.0, 0.0),
                                  (1.0, 1.0)])
def test_limits(host_integrate, a, b):
    c = np.random.default_rng().uniform(0.5, 2, 4)
    same(*run(host_integrate, lambda x: np.exp(-c * x * x), a, b))


def test_values_of_every_kind(host_integrate):
    rng = np.random.default_rng()
    m = rng.standard_normal((2, 3))
    same(*run(host_integrate, lambda x: np.sin(m * x), 0, 3))  # N-D values
    same(*run(host_integrate, lambda x, k: np.exp(1j * k * x), 0, 1, args=(np.arange(1.0, 4.0),)))  # complex, args
    same(*run(host_integrate, lambda x: np.cos(x) ** 2, 0, 3))  # scalar
    same(*run(host_integrate, lambda x: np.array([1 / np.sqrt(x), np.log(x)]), 0, 1))  # endpoint singularities


def test_small_cache_recomputes_evicted_intervals(host_integrate):
    # an LRU of a few intervals: splitting an evicted one evaluates it again, as SciPy counts
    v = np.arange(1.0, 5.0)  # sys.getsizeof of a 4-vector: 144 bytes, so 3 intervals are kept
    got, want = run(host_integrate, lambda x: np.sqrt(np.abs(np.sin(v * x))), 0, 3, cache_size=3 * 144, epsrel=1e-6)
    same(got, want)
    # without eviction each split costs 42 evaluations: some split evaluated an evicted interval again
    assert want[2].neval > 21 * (2 * len(want[2].intervals) - 1)


def test_bad_input(host_integrate):
    for kw in [dict(quadrature="gk7"), dict(a=np.nan)]:
        args = dict(a=0.0, b=1.0) | {k: v for k, v in kw.items() if k in "ab"}
        rest = {k: v for k, v in kw.items() if k not in "ab"}
        with pytest.raises(ValueError) as want:
            si.quad_vec(np.sin, args["a"], args["b"], **rest)
        with pytest.raises(ValueError, match=str(want.value)[:12]):
            host_integrate.quad_vec(np.sin, args["a"], args["b"], **rest)


def test_signature():
    from cuarray.scipy import integrate

    assert inspect.signature(integrate.quad_vec) == inspect.signature(si.quad_vec)
