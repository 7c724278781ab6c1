"""cuarray.scipy.integrate.quad_vec run as the real code with NumPy standing in for the device
routines (conftest.host_integrate), against scipy.integrate.quad_vec: the integral, the error and
full_output's neval, status, intervals, integrals and errors, over the rules, norms, points,
infinite limits, tolerances, limit, complex and scalar integrands and N-D values."""

import inspect
import math

import numpy as np
import pytest
import scipy.integrate as si


def same(got, want, full=True, err_atol=1e-300):
    """`err_atol`: the error estimates are sums of norms in SciPy's order or the device's, and a
    running total of the heap's differences: their last bits may differ at that scale."""
    g, w = np.asarray(got[0]), np.asarray(want[0])
    assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
    np.testing.assert_allclose(g, w, rtol=1e-13, atol=1e-13 * np.max(np.abs(w), initial=1))
    assert got[1] == pytest.approx(want[1], rel=1e-6, abs=err_atol)
    if full:
        gi, wi = got[2], want[2]
        assert (gi.neval, gi.status, gi.success, gi.message) == (wi.neval, wi.status, wi.success, wi.message)
        np.testing.assert_array_equal(np.sort(gi.intervals, axis=0), np.sort(wi.intervals, axis=0))
        np.testing.assert_allclose(np.sort(gi.errors), np.sort(wi.errors), rtol=1e-6, atol=err_atol)
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


class Counted:
    """f with a record of how each call passed x: a float, or the shape of an array of nodes."""

    def __init__(self, f):
        self.f, self.calls = f, []

    def __call__(self, x, *args):
        self.calls.append("float" if isinstance(x, float) else np.shape(x))
        return self.f(x, *args)


def random_case(rng, case):
    """(f, a, b, keywords) of a fresh random vector integrand of the kind `case`."""
    n = int(rng.integers(3, 9))
    c, p = rng.uniform(0.5, 2, n), rng.uniform(-1, 1, n)
    if case == "finite-2":
        return (lambda x: np.sin(c * x + p) * np.exp(-x)), 0.0, rng.uniform(2, 6), {}
    if case == "finite-max-points":
        return (lambda x: np.cos(c * x) + p * x * x), 0.0, 1.0, dict(norm="max", points=[0.4, rng.uniform(0.5, 1)])
    if case == "semi":
        return (lambda x: np.exp(-c * x) * np.cos(p * x)), rng.uniform(-1, 1), np.inf, {}
    if case == "semi-lower":
        return (lambda x: np.exp(c * x) * (1 + p)), -np.inf, rng.uniform(-1, 1), {}
    if case == "semi-reversed-points":
        start = rng.uniform(-1, 1)
        return (lambda x: np.exp(c * x) / (1 + x * x)), start, -np.inf, dict(points=[start - 0.5])
    if case == "double-max":
        return (lambda x: np.exp(-c * (x - p) ** 2)), -np.inf, np.inf, dict(norm="max", points=[0.5])
    if case == "matrix-complex":
        m = rng.standard_normal((2, 3))
        return (lambda x: np.exp(1j * m * x) / (1 + x * x)), -1.0, 2.0, dict(quadrature="gk15")
    if case == "trapezoid":
        return (lambda x: np.cos(c * x) ** 2), 0.0, 2.0, dict(quadrature="trapezoid", epsrel=1e-5)
    return (lambda x: np.exp(-c[0] * x * x)), 0.0, 3.0, {}  # scalar


CASES = ["finite-2", "finite-max-points", "semi", "semi-lower", "semi-reversed-points", "double-max", "matrix-complex",
         "trapezoid", "scalar"]


@pytest.mark.parametrize("case", CASES)
def test_vectorized_integrand_is_called_once_a_round(host_integrate, case):
    # SciPy calls f once per node (neval calls); a vectorizable f is called with floats at two
    # nodes, then once a round with an array of all the round's nodes, shape (k, 1, ...)
    f, a, b, kw = random_case(np.random.default_rng(), case)
    counted = Counted(f)
    with np.errstate(all="ignore"):
        got = host_integrate.quad_vec(counted, a, b, full_output=True, **kw)
        want = si.quad_vec(f, a, b, full_output=True, **kw)
    # the total error is a running sum of the heap's differences: rounding of its first, large
    # terms (~eps times the first estimate) stays in it; a thousandth of the tolerance covers it
    tol = max(1e-200, kw.get("epsrel", 1e-8) * np.linalg.norm(want[0]))
    same(got, want, err_atol=1e-3 * tol)
    assert np.max(np.abs(got[0] - want[0])) <= tol
    arrays = counted.calls[2:]
    assert counted.calls[:2] == ["float", "float"] and arrays, counted.calls
    ndim = 1 + np.ndim(want[0])
    assert all(len(s) == ndim and s[1:] == (1,) * (ndim - 1) for s in arrays), arrays
    assert sum(s[0] for s in arrays) == got[2].neval or kw.get("quadrature") == "trapezoid"  # its midpoints shared
    rounds = 24 if kw.get("quadrature") == "trapezoid" else 12  # at most 17 and 9 in 150 seeds
    assert len(arrays) <= rounds < want[2].neval, (len(arrays), want[2].neval)


@pytest.mark.parametrize("kind", ["floats only", "branch", "list of values", "reduces over x", "wrong values"])
def test_functions_of_floats_are_called_node_by_node(host_integrate, kind):
    # an integrand that fails on the array call, returns another shape or other values at the
    # probed nodes is called node by node, SciPy's way (the array call is the one extra call)
    v = np.random.default_rng().uniform(0.5, 2, 4)
    f = {"floats only": lambda x: v * math.exp(-x),
         "branch": lambda x: v * x if x < 1 else v,
         "list of values": lambda x: np.array([np.sqrt(x), np.log1p(x)]),
         "reduces over x": lambda x: v * np.max(x),
         "wrong values": lambda x: v * (2 * x - np.mean(x))}[kind]  # v x for a float
    counted = Counted(f)
    got = host_integrate.quad_vec(counted, 0.0, 2.0, full_output=True)
    want = si.quad_vec(f, 0.0, 2.0, full_output=True)
    same(got, want)
    assert counted.calls.count("float") == want[2].neval and len(counted.calls) == want[2].neval + 1


def test_a_round_past_the_batch_size_is_called_in_chunks(host_integrate, monkeypatch):
    # at most _BATCH_VALUES values a call: a round of many intervals is evaluated in chunks
    monkeypatch.setitem(host_integrate.quad_vec.__globals__, "_BATCH_VALUES", 21 * 4 * 5)
    w = np.random.default_rng().uniform(20, 40, 4)
    counted = Counted(lambda x: np.sin(w * x) ** 2)
    got = host_integrate.quad_vec(counted, 0.0, 6.0, full_output=True)
    same(got, si.quad_vec(lambda x: np.sin(w * x) ** 2, 0.0, 6.0, full_output=True))
    arrays = counted.calls[2:]
    assert max(s[0] for s in arrays) == 21 * 5 and len(arrays) > 8, arrays


def test_float32_parameters_stay_batched(host_integrate):
    # float32 data times a float node computes in float32, times the float64 array of nodes in
    # float64: the probe takes values that agree to float32's precision
    c = np.random.default_rng().uniform(0.5, 2, 5).astype(np.float32)
    counted = Counted(lambda x: np.sin(c * x) * np.exp(-x))
    got = host_integrate.quad_vec(counted, 0.0, 3.0, epsrel=1e-5, full_output=True)
    want = si.quad_vec(lambda x: np.sin(c * x) * np.exp(-x), 0.0, 3.0, epsrel=1e-5, full_output=True)
    assert got[0].dtype == want[0].dtype and got[2].status == want[2].status == 0
    assert np.max(np.abs(got[0] - want[0])) <= 1e-5 * np.linalg.norm(want[0])
    assert all(s != "float" for s in counted.calls[2:]) and len(counted.calls) <= 2 + 12, counted.calls


@pytest.mark.parametrize("vectorized", [True, False])
def test_nodes_next_to_t_0_are_scipys_zeros(host_integrate, vectorized):
    # a point at x = 1e153 puts an interval on t in (0, 1e-153): its nodes under sqrt(min float)
    # are zero (SciPy's SemiInfiniteFunc; the array call sees x = 0 there), the others are f's
    v = np.random.default_rng().uniform(0.5, 2, 3)
    f = (lambda x: v / (1 + x * x)) if vectorized else (lambda x: v / (1 + math.pow(x, 2)))
    counted = Counted(f)
    got = host_integrate.quad_vec(counted, 0.0, np.inf, points=[1e153, 3.0], full_output=True)
    same(got, si.quad_vec(f, 0.0, np.inf, points=[1e153, 3.0], full_output=True))
    assert all(s != "float" for s in counted.calls[2:]) == vectorized, counted.calls[:4]
