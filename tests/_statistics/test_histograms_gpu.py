"""bincount, histogram, histogram_bin_edges, histogram2d, histogramdd on the device against NumPy:
counts exact (NumPy's equal-bin arithmetic in NumPy's types, values on the edges), weights,
density, explicit edges, ranges, the string bin rules, shared-memory and global-atomic bin
counts, empty input, and NumPy's exceptions."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

rng = np.random.default_rng()
D = cuarray.asarray


def check(got, want, exact=True, rtol=1e-6):
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            check(g, w, exact, rtol)
        return
    if isinstance(want, list):
        for g, w in zip(got, want):
            check(g, w, exact, rtol)
        return
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape
    if exact:
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=rtol)


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bhiqBHI"], ids=testing.dtype_id)
@pytest.mark.parametrize("minlength", [0, 5, 20000])
def test_bincount(dt, minlength):
    x = rng.integers(0, 2 if dt.kind == "b" else 100, 10000).astype(dt)
    check(cuarray.bincount(D(x), minlength=minlength), np.bincount(x, minlength=minlength))
    w = rng.uniform(-1, 1, x.size)
    check(cuarray.bincount(D(x), D(w), minlength), np.bincount(x, w, minlength), exact=False)


def test_bincount_many_bins_and_empty():
    x = rng.integers(0, 50000, 100000)
    check(cuarray.bincount(D(x)), np.bincount(x))
    check(cuarray.bincount(D(x), D(x.astype(np.float32))), np.bincount(x, x.astype(np.float32)), exact=False)
    e = np.zeros(0, np.int64)
    check(cuarray.bincount(D(e)), np.bincount(e))
    check(cuarray.bincount(D(e), minlength=3), np.bincount(e, minlength=3))


def test_bincount_errors():
    with pytest.raises(ValueError, match="negative"):
        cuarray.bincount(D(np.array([1, -1, 2])))
    with pytest.raises(ValueError, match="minlength"):
        cuarray.bincount(D(np.array([1])), minlength=-1)
    with pytest.raises(TypeError):
        cuarray.bincount(D(np.array([1.0])))
    with pytest.raises(TypeError):
        cuarray.bincount(D(np.array([1], np.uint64)))
    with pytest.raises(ValueError):
        cuarray.bincount(D(np.ones((2, 2), np.int64)))
    with pytest.raises(ValueError):
        cuarray.bincount(D(np.array([1, 2])), D(np.ones(3)))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "bhiqfd"], ids=testing.dtype_id)
@pytest.mark.parametrize("bins", [1, 10, 100, 9000])
def test_histogram_int_bins(dt, bins):
    x = (rng.uniform(-20, 20, 20000) * (1 if dt.kind in "iu" else 7.3)).astype(dt)
    check(cuarray.histogram(D(x), bins), np.histogram(x, bins))
    # values exactly on the edges of a range
    r = (-10, 10.5)
    xe = np.linspace(-12, 12, 97).astype(dt) if dt.kind == "f" else x
    check(cuarray.histogram(D(xe), bins, range=r), np.histogram(xe, bins, range=r))


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
def test_histogram_weights_density_edges(dt):
    x = rng.normal(size=(50, 40)).astype(dt)
    w = rng.uniform(0, 2, x.shape).astype(dt)
    check(cuarray.histogram(D(x), 30, weights=D(w)), np.histogram(x, 30, weights=w), exact=False)
    check(cuarray.histogram(D(x), 30, density=True), np.histogram(x, 30, density=True), exact=False)
    e = np.array([-3.0, -1.0, -1.0, 0.0, 0.5, 2.0])
    check(cuarray.histogram(D(x), D(e)), np.histogram(x, e))
    # NumPy sums float32 weights by a float32 cumsum and differences; cuarray sums in float64.
    check(cuarray.histogram(D(x), D(e), weights=D(w), density=True), np.histogram(x, e, weights=w, density=True),
          exact=False, rtol=2e-5)
    wi = rng.integers(0, 5, x.shape)
    check(cuarray.histogram(D(x), 7, weights=D(wi)), np.histogram(x, 7, weights=wi))
    # edges holding NaN take NumPy's cumulative steps: the counts are the weights' dtype (int8 wraps)
    en = np.array([-1.0, 0.0, np.nan, np.nan])
    for wn in (rng.integers(-100, 100, x.shape).astype(np.int8), np.zeros((0,), np.int8)):
        xn = x if wn.size else x[:0, 0]
        check(cuarray.histogram(D(xn), D(en), weights=D(wn)), np.histogram(xn, en, weights=wn))
    wc = (w + 1j * w).astype(np.complex128)
    check(cuarray.histogram(D(x), 7, weights=D(wc)), np.histogram(x, 7, weights=wc), exact=False)
    xn = x.copy()
    xn[0, :3] = np.nan
    check(cuarray.histogram(D(xn), 7, range=(-1, 1)), np.histogram(xn, 7, range=(-1, 1)))
    check(cuarray.histogram(D(x[:0]), 4), np.histogram(x[:0], 4))
    check(cuarray.histogram(D(np.full(5, 3.0, dt)), 4), np.histogram(np.full(5, 3.0, dt), 4))


@pytest.mark.parametrize("rule", ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"])
def test_string_bins(rule):
    x = np.round(rng.normal(size=3000), 2)
    check(cuarray.histogram_bin_edges(D(x), rule), np.histogram_bin_edges(x, rule), exact=False)
    check(cuarray.histogram(D(x), rule, range=(-1, 1))[0], np.histogram(x, rule, range=(-1, 1))[0])
    xi = rng.integers(0, 30, 1000)
    check(cuarray.histogram(D(xi), rule)[0], np.histogram(xi, rule)[0])


def test_histogram_errors():
    x = D(np.arange(10.0))
    with pytest.raises(ValueError, match="monotonically"):
        cuarray.histogram(x, D(np.array([1.0, 0.0, 2.0])))
    with pytest.raises(ValueError):
        cuarray.histogram(x, 0)
    with pytest.raises(ValueError, match="range"):
        cuarray.histogram(x, 3, range=(2, 1))
    with pytest.raises(ValueError, match="not finite"):
        cuarray.histogram(D(np.array([1.0, np.nan])), 3)
    with pytest.raises(ValueError, match="estimator"):
        cuarray.histogram(x, "foo")
    with pytest.raises(TypeError):
        cuarray.histogram(x, "auto", weights=x)
    with pytest.raises(ValueError):
        cuarray.histogram(x, 3, weights=D(np.ones(3)))
    with pytest.raises(ValueError):
        cuarray.histogram(x, D(np.ones((2, 2))))


def test_histogram2d_dd():
    x, y, z = rng.normal(size=(3, 5000))
    w = rng.uniform(size=5000)
    got = cuarray.histogram2d(D(x), D(y), bins=(8, 5), weights=D(w), density=True)
    check(got, np.histogram2d(x, y, bins=(8, 5), weights=w, density=True), exact=False)
    got = cuarray.histogram2d(D(x), D(y), bins=6, range=[[-1, 1], [-2, 2]])
    check(got, np.histogram2d(x, y, bins=6, range=[[-1, 1], [-2, 2]]))
    s = np.stack([x, y, z], axis=1)
    e = [np.array([-1.0, 0.0, 1.0]), np.array([-3.0, 3.0]), np.array([-2.0, -1.0, 0.0, 5.0])]
    got = cuarray.histogramdd(D(s), bins=[D(v) for v in e])
    want = np.histogramdd(s, bins=e)
    check(got[0], want[0])
    check(cuarray.histogramdd(D(s), bins=4)[0], np.histogramdd(s, bins=4)[0])
    with pytest.raises(ValueError, match="monotonically"):
        cuarray.histogramdd(D(s), bins=[D(e[0][::-1]), D(e[1]), D(e[2])])


@pytest.mark.parametrize("shape", [(1, 3), (40, 2), (500, 3)])
def test_float16_edges_are_float16(shape):
    # NumPy's edges from a float16 sample's min and max are float16 (cuarray's were float32)
    x = rng.normal(scale=3, size=shape).astype(np.float16)
    got, want = cuarray.histogramdd(D(x)), np.histogramdd(x)
    assert [e.dtype for e in got[1]] == [e.dtype for e in want[1]]
    check(got, want)
    got2, want2 = cuarray.histogram(D(x[:, 0]), 7), np.histogram(x[:, 0], 7)
    assert got2[1].dtype == want2[1].dtype == np.float16
    check(got2, want2)
    check(cuarray.histogram_bin_edges(D(x[:, 1]), "sturges"), np.histogram_bin_edges(x[:, 1], "sturges"))


def _both_routes(x, bins, view=lambda a: a, **kw):
    """histogram on the device route and on the host route (min/max read first), each against
    NumPy's counts and edges, exactly; `view` applied to the host data and to the device copy
    (a device view: offsets that break 16-byte alignment)."""
    from cuarray._statistics import histograms as h

    want = np.histogram(view(x), bins, **kw)
    d = view(D(x))
    prev = h.auto_range_by("host")
    try:
        host = cuarray.histogram(d, bins, **kw)
    finally:
        h.auto_range_by(prev)
    dev = cuarray.histogram(d, bins, **kw)
    exact = not kw.get("density")
    check(dev, want, exact=exact)
    check(host, want, exact=exact)
    np.testing.assert_array_equal(dev[1].get(), host[1].get(), strict=True)


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
@pytest.mark.parametrize("bins", [1, 7, 100, 1024, 1025, 8192, 8193])
def test_histogram_range_on_device(dt, bins):
    """The device route (an int `bins`, the range from the data): per-warp bin copies (up to 1024
    bins), one copy per block (to 8192), the host route beyond; 16-byte loads and their tail."""
    x = rng.normal(size=40003).astype(dt)
    _both_routes(x, bins)
    _both_routes(x, bins, lambda a: a[1:])  # not 16-byte aligned: element loads
    _both_routes(x, bins, lambda a: a[2:-1])  # float64: 16-byte aligned again
    _both_routes(x, bins, lambda a: a[::3])  # a strided view, made contiguous


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
def test_histogram_range_on_device_edge_data(dt):
    _both_routes(np.array([2.5], dt), 10)  # one element: min == max, edges +-0.5
    _both_routes(np.full(1001, -3.0, dt), 4)  # all equal
    _both_routes(np.array([-0.0, 0.0, 1.0, -0.0], dt), 3)
    _both_routes(np.array([1e-40, 3e-40, 2e-40], dt) if dt is np.float32 else np.array([1e-310, 3e-310], dt), 5)
    _both_routes(np.linspace(-1, 1, 4097).astype(dt), 64)  # values on the edges
    _both_routes(rng.uniform(-1e30, 1e30, 5000).astype(dt), 100)
    _both_routes(rng.normal(size=3000).astype(dt), 50, density=True)
    x2 = rng.normal(size=(60, 70)).astype(dt)
    _both_routes(x2, 33)
    _both_routes(np.asfortranarray(x2), 33)
    big = np.full(10, 1e8 if dt is np.float32 else 1e17, dt)  # min - 0.5 == min: NumPy's error
    with pytest.raises(ValueError, match="Too many bins"):
        np.histogram(big, 4)
    with pytest.raises(ValueError, match="Too many bins"):
        cuarray.histogram(D(big), 4)
    for bad in (np.nan, np.inf, -np.inf):
        x = rng.normal(size=1000).astype(dt)
        x[17] = bad
        with pytest.raises(ValueError, match="not finite"):
            np.histogram(x, 10)
        with pytest.raises(ValueError, match="not finite"):
            cuarray.histogram(D(x), 10)
    with pytest.raises(ValueError, match="not finite"):
        cuarray.histogram(D(np.full(5, np.nan, dt)), 10)
    # a histogram after an error starts from zero counts
    x = rng.normal(size=777).astype(dt)
    _both_routes(x, 10)


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
def test_equal_bins_whose_edges_are_not_finite_raise(dt):
    """Edges that are not finite (a width past the dtype's range: NaN first edge; a range past
    float32: -inf, inf) raise ValueError on both routes, where NumPy counts over a NaN edge or
    raises IndexError (GPU fuzz seed 21, docs/differences.md "Numerics"); float16 histogram2d
    whose width overflows float16: NumPy's ValueError too. A range just inside stays NumPy's."""
    top = float(np.finfo(dt).max)
    x = np.array([-top / 1.5, 0.25, top / 1.5], dt)
    with np.errstate(all="ignore"):
        assert np.isnan(np.histogram_bin_edges(x, 1)[0])  # (NumPy's histogram: IndexError)
    with pytest.raises(ValueError, match="finite-sized bins"):  # the device route (range from the data)
        cuarray.histogram(D(x), 1)
    with pytest.raises(ValueError, match="finite-sized bins: the range .* overflows"):
        cuarray.histogram(D(x), 1, range=(-top / 1.5, top / 1.5))
    with pytest.raises(ValueError, match="finite-sized bins: the range .* overflows float32 edges"):
        cuarray.histogram(D(np.float32([0.125])), bins="stone", range=(-1e308, 1e308))
    x16 = np.array([6144.0, -30288.0, -59104.0, 60992.0, 2404.0], np.float16)
    y8 = np.array([9, 5, 0, -9, -5], np.int8)
    with np.errstate(all="ignore"), pytest.raises(ValueError):
        np.histogram2d(x16, y8, bins=10)
    with pytest.raises(ValueError, match=r"`bins\[0\]`: .*overflows float16 edges"):
        cuarray.histogram2d(D(x16), D(y8), bins=10)
    half = x / 4
    check(cuarray.histogram(D(half), 3), np.histogram(half, 3))
    check(cuarray.histogram(D(half), 3, range=(-top / 4, top / 4)), np.histogram(half, 3, range=(-top / 4, top / 4)))


def _outcome(f):
    """(exception type name, None) or (None, result): both libraries' answer to one call."""
    try:
        return None, f()
    except Exception as e:  # noqa: BLE001 (the type is what is compared)
        return type(e).__name__, None


_UNSIGNED_RANGES = [None, (250, 255), (0, 300), (-5, 2), (-5, -2), (300, 400), (3, 3), (255, 255), (2.5, 2.5),
                    (5, 2)]


@pytest.mark.parametrize("dt", [np.uint8, np.uint16, np.uint64], ids=str)
@pytest.mark.parametrize("bins", [1, 3, "auto", "sturges", "fd", [], [5], [0, 3, 200]],
                         ids=["1", "3", "auto", "sturges", "fd", "no_edges", "one_edge", "edges"])
def test_histogram_of_unsigned_data_over_ranges(dt, bins):
    """Unsigned data with a range partly or wholly outside it, endpoints past the dtype's maximum
    or below zero, equal endpoints: counts, edges and errors as NumPy's (whichever raises, both
    raise the same type). Explicit edges of no bins (`[]`, `[5]`) give empty counts, as NumPy's:
    the old code asked for -1 bins for `[]` ("negative dimensions are not allowed")."""
    x = np.array([0, 1, 2, 3, 3, 200, 250, 255] + ([2**63 + 5, 2**64 - 1] if dt is np.uint64 else []), dt)
    for rng_ in _UNSIGNED_RANGES:
        for w in (None, np.linspace(0.5, 2.0, x.size)):
            for density in (None, True):
                if isinstance(bins, str) and w is not None:
                    continue  # (NumPy's TypeError: covered by test_histogram_errors)
                kw = dict(bins=bins, range=rng_, density=density)
                err, want = _outcome(lambda: np.histogram(x, weights=w, **kw))
                gerr, got = _outcome(lambda: cuarray.histogram(D(x), weights=None if w is None else D(w), **kw))
                assert gerr == err, (rng_, w is not None, density, gerr, err)
                if err is None:
                    check(got, want, exact=not density and w is None, rtol=1e-12)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.uint64, np.float16, np.float32, np.float64], ids=str)
def test_histogramdd_bins_listed_per_dimension(dt):
    """Array-like bins in a list, one entry per dimension: device arrays, host lists and ints mixed,
    with a range for the int entries, weights and density: counts and edges as NumPy's."""
    n = 400
    s = np.stack([rng.integers(0, 100, n), rng.integers(0, 100, n), rng.integers(0, 100, n)], axis=1).astype(dt)
    w = rng.uniform(size=n)
    edges = [np.array([0.0, 10.5, 50.0, 99.0]), [0, 25, 50, 75, 100], np.arange(0, 100, 7, dtype=np.int64)]
    for bins, dev in [([edges[0], edges[1], edges[2]], [D(edges[0]), edges[1], D(edges[2])]),
                      ([edges[0], 4, edges[2]], [D(edges[0]), 4, D(edges[2])]),
                      ([5, edges[1], 3], [5, edges[1], 3]),
                      ([np.array([50.0]), edges[1], 2], [D(np.array([50.0])), edges[1], 2])]:
        for kw in ({}, {"weights": w}, {"density": True}, {"range": [(10, 60), None, (0, 99)]}):
            want = np.histogramdd(s, bins=bins, **kw)
            got = cuarray.histogramdd(D(s), bins=dev, **{k: D(v) if k == "weights" else v for k, v in kw.items()})
            check(got[0], want[0], exact=not kw.get("density") and "weights" not in kw, rtol=1e-12)
            for g, e in zip(got[1], want[1]):
                np.testing.assert_array_equal(g.get(), e)
    with pytest.raises(ValueError):
        np.histogramdd(s, bins=[edges[0]] * 2)
    with pytest.raises(ValueError):
        cuarray.histogramdd(D(s), bins=[D(edges[0])] * 2)
    with pytest.raises(ValueError):
        cuarray.histogramdd(D(s), bins=[D(edges[0]), D(np.ones((2, 2))), 3])
    with pytest.raises(ValueError):
        np.histogramdd(s, bins=[edges[0], np.ones((2, 2)), 3])


def test_histogram_no_edges_density():
    x = np.arange(5.0)
    for bins in ([], [2.0]):
        want = np.histogram(x, bins=np.array(bins), density=True)
        check(cuarray.histogram(D(x), bins=D(np.array(bins)), density=True), want)


@pytest.mark.parametrize("case", range(6))
def test_explicit_edges_holding_nan_as_numpy(case):
    """A NaN edge passes NumPy's monotonic check and sorts last in its searchsorted steps: its
    counts (negative ones included) and weighted sums are NumPy's (the bin kernel gave 0s)."""
    nan, inf = np.nan, np.inf
    x, w, e = [
        (np.array([18, 13, 17, 18, 12], np.uint8), np.array([0.4767, 0.0822, -0.2203, -0.1712, -0.1619]),
         [-1.5, -1.5, inf, nan]),
        (np.array([-3], np.int8), None, [-300.0, -1.5, 3.0, 256.0, nan]),
        (np.array([349507106.984905]), None, [-0.0, 250.0, 250.0, nan]),
        (np.array([9], np.uint64), None, [nan, -1.5, -1.5]),
        (np.arange(-10, 10, dtype=np.int8), None, [3.0, nan]),
        (np.array([1.0, nan, 3, nan, -2, 0.5]), np.arange(1.0, 7.0), [0.0, 2, nan]),
    ][case]
    e = np.array(e)
    for density in (None, True):
        with np.errstate(all="ignore"):
            want = np.histogram(x, bins=e, weights=w, density=density)
            got = cuarray.histogram(D(x), bins=D(e), weights=None if w is None else D(w),
                               density=density)
        assert got[0].dtype == want[0].dtype, (case, density)
        np.testing.assert_allclose(got[0].get(), want[0], rtol=1e-12, err_msg=str((case, density)))
        np.testing.assert_array_equal(got[1].get(), want[1])


@pytest.mark.parametrize("case", range(5))
def test_explicit_edges_with_weights_not_finite_as_numpy(case):
    """NumPy bins explicit edges by the cumulative sum of the sorted data's weights: a NaN weight
    (or inf and -inf) carries into every later bin, an out-of-range value's too (fuzz seed 12 index
    354: NumPy's [nan, nan, nan], the bin kernel's [0, 0, 0]); bool weights raise its UFuncTypeError
    (index 57: cuarray answered)."""
    nan, inf = np.nan, np.inf
    x, w, e = [
        (np.array([-2294.788390331842, -7247.731493485639, -36941.34142289942]),
         np.array([1.7014117331926443e+38, nan, nan], np.float32), [1.0, 250.0, 255.0, inf]),
        (np.arange(8.0), np.array([1, 2, nan, 4, 5, 6, 7, 8], np.float64), [0.5, 3.0, 5.0, 9.0]),
        (np.arange(8, dtype=np.int16), np.array([1, inf, 3, -inf, 5, 6, 7, 8], np.float32), [0, 2, 5, 7]),
        (np.arange(6, dtype=np.uint8), np.array([1, 2, 3, 4, 5, complex(nan, 1)], np.complex64), [-1.0, 2.0, 4.0]),
        (np.arange(6.0), np.array([1, 2, 3, 4, 5, 6], np.float32), [-1.0, 2.0, 4.0]),  # all finite: the kernel
    ][case]
    e = np.array(e)
    for density in (None, True):
        with np.errstate(all="ignore"):
            want = np.histogram(x, bins=e, weights=w, density=density)
            got = cuarray.histogram(D(x), bins=D(e), weights=D(w), density=density)
        what = str((case, density, want[0], got[0].get()))
        assert got[0].dtype == want[0].dtype, what
        np.testing.assert_allclose(got[0].get(), want[0], rtol=1e-6, err_msg=what)
    x = np.array([7, 6, 12, 14, 16, 14, 16, 18, 5, 15], np.uint16)
    with pytest.raises(TypeError) as want:
        np.histogram(x, bins=[-300.0, 255.0, inf], weights=np.ones(10, bool))
    with pytest.raises(type(want.value), match="Cannot cast ufunc 'add' output"):
        cuarray.histogram(D(x), bins=[-300.0, 255.0, inf], weights=D(np.ones(10, bool)))
