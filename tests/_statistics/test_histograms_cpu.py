"""Histogram kernels compile for sm_90 with NVRTC; NumPy's equal-bin dtype steps and host edge
rules, checked without a device."""

import numpy as np
import pytest

from cuarray._statistics import histograms as h
from cuarray._statistics.histogram_bins import unsigned_subtract
from cuarray.cuda import compiler
from cuarray.cuda._backend import NoDeviceError

F4, F8, I8 = np.dtype("f4"), np.dtype("f8"), np.dtype("q")


@pytest.mark.nvrtc_fast
def test_every_instantiation_compiles():
    ds = [np.dtype(c) for c in "?bhiqBHIQfd"]
    names = [h.minmax_name(d) for d in ds]
    names += [h.bincount_name(d, w, s) for d in ds if d.kind in "biu" for w in (0, 1) for s in (0, 1)]
    names += [h.uniform_name((np.dtype(t),) + ty, w, s) for t in "fdiqB"
              for ty in [(F4, F4, F4, F4), (F4, F4, F4, F8), (F8, F8, F8, F8), (I8, F8, F8, F8)]
              for w in (0, 1) for s in (0, 1)]
    names += [h.edges_name(d, c, w, s) for d in ds for c in (F4, F8) for w in (0, 1) for s in (0, 1)]
    names = sorted(set(names))
    cubin, mapping = compiler.compile_cubin(h._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("a, b, want", [(np.int8(100), np.int8(-100), np.uint8(200)),
                                        (np.int64(5), np.int64(-3), np.uint64(8)), (2.5, 0.5, 2.0)])
def test_unsigned_subtract(a, b, want):
    r = unsigned_subtract(a, b)
    assert r == want and np.asarray(r).dtype == np.asarray(want).dtype


def _key(v):
    """The minmax kernel's order-preserving uint64 key of one value (templates: cuarray_minmax)."""
    b = np.float64(v).view(np.uint64)
    return b ^ np.uint64(1 << 63) if v >= 0 else ~b


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64], ids=str)
def test_minmax_values_are_of_the_data_dtype(dt):
    # float16 data is scanned as float32; its (min, max) are float16 scalars, as NumPy's a.min(),
    # so histogram/histogramdd edges from them are float16 as NumPy's (they were float32)
    lo, hi = dt(-0.80126953125), dt(3.390625)
    got = h.minmax_values(np.array([_key(lo), _key(hi)], np.uint64), np.dtype(dt))
    assert [type(v) for v in got] == [dt, dt] and got == (lo, hi)
    nan = h.minmax_values(np.array([_key(lo), 2**64 - 1], np.uint64), np.dtype(dt))
    assert type(nan[1]) is dt and np.isnan(nan[1])


@pytest.mark.parametrize("weights", [np.array([1j, 2j, 3j]), np.ones(2)])
def test_bincount_looks_at_negative_values_before_the_weights(recorded_launches, monkeypatch, weights):
    """NumPy's bincount raises for a negative value before it converts the weights or compares
    their length (the fuzzer, seed 271: complex weights gave the weights' TypeError here). The
    values' minimum comes from the device: stood in for by -1."""
    import cuarray as cp

    with pytest.raises(ValueError, match="no negative elements"):
        np.bincount(np.array([1, -1, 2]), weights)
    monkeypatch.setattr(h, "minmax", lambda x: (-1, 2))
    with pytest.raises(ValueError, match="no negative elements"):
        h.bincount(cp.ndarray((3,), np.int64), cp.ndarray(weights.shape, weights.dtype))


# -- the device route of an int `bins` with the range from float data ---------------------------
def test_auto_kernels_compile():
    names = sorted({"cuarray::histograms::" + n for d in (F4, F8) for c in (1, h.AUTO_COPIES)
                    for n in h.auto_names(d, c)})
    cubin, mapping = compiler.compile_cubin(h._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("n, nbins, want", [
    (1, 1, (1, 8, 32)), (0, 10, None), (10, 0, None), (10**7, 100, (528, 8, 3200)),
    (4096, 1024, (1, 8, 32768)), (4097, 1025, (2, 1, 4100)), (5, h._SHARED_BINS, (1, 1, 4 * h._SHARED_BINS)),
    (5, h._SHARED_BINS + 1, None), (256 * 16 * 528, 3, (528, 8, 96)), (256 * 16 * 528 + 1, 3, (528, 8, 96))])
def test_auto_plan_boundaries(n, nbins, want):
    assert h.auto_plan(n, nbins, 132) == want


def _linspace_steps(first, last, nbins):
    """The edges kernel's arithmetic (every step rounded in the data's type), in NumPy."""
    t = type(first)
    if first == last:
        first, last = t(first - t(0.5)), t(last + t(0.5))
    div, delta = t(nbins), t(last - first)
    step = t(delta / div)
    i = np.arange(nbins, dtype=t)
    y = (i / div) * delta if step == 0 else i * step
    return np.append(y + first, last).astype(t), first, last


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
def test_auto_edges_steps_are_numpys(dt):
    """numpy.histogram's edges for an int `bins` are linspace(min, max, bins + 1) of the data's
    dtype (min == max: +-0.5 first); the kernel's steps give them bit for bit, denormal ranges
    (step 0) and equal ends included."""
    rng = np.random.default_rng(7)
    tiny = 1e-42 if dt is np.float32 else 1e-320
    cases = [(dt(-5.25), dt(5.5), 100), (dt(0), dt(1), 1), (dt(3), dt(3), 10), (dt(tiny), dt(3 * tiny), 7),
             (dt(-1e30), dt(1e30), 8192), (dt(1e8), dt(1e8), 4)]
    cases += [(dt(a), dt(a + abs(b)), int(k)) for a, b, k in zip(rng.normal(size=40) * 10.0 ** rng.integers(-8, 8, 40),
                                                                 rng.normal(size=40), rng.integers(1, 3000, 40))]
    top = np.finfo(dt).max
    cases += [(dt(-top / 1.5), dt(top / 1.5), 1), (dt(-top / 1.5), dt(top / 1.5), 3)]  # (the width overflows)
    ok = flagged = 0
    for lo, hi, nb in cases:
        x = np.array([lo, hi], dt)
        with np.errstate(all="ignore"):
            got = _linspace_steps(lo, hi, nb)[0]
        if not np.all(got[:-1] < got[1:]):  # the kernel's flag 2: not increasing, or NaN
            flagged += 1
            with np.errstate(all="ignore"):
                try:  # NumPy's edges: "Too many bins", or the same NaN ones (cuarray's ValueError)
                    np.testing.assert_array_equal(got, np.histogram_bin_edges(x, nb), strict=True)
                    assert not np.isfinite(got).all()
                except ValueError as e:
                    assert "Too many bins" in str(e)
            continue
        np.testing.assert_array_equal(got, np.histogram_bin_edges(x, nb), strict=True)
        ok += 1
    assert ok >= 30 and flagged >= 2


def test_auto_route_launches(recorded_launches, monkeypatch):
    """Three launches and one read: partials over the blocks, one block of edges, the counts
    with the plan's shared memory; the flags raise NumPy's ValueErrors; other data, weights, a
    `range` or too many bins keep the host route (its min/max read first)."""
    import cuarray as cp
    from cuarray.cuda import device

    monkeypatch.setitem(device._SM_COUNT, device.get_device_id(), 132)
    x = cp.ndarray((10**6,), F4)
    # the one device read, faked (a driver fake: the state words the kernels would leave)
    clean = np.array([0, 0, 0], np.uint64)
    monkeypatch.setattr(h, "read_state", lambda s: clean)
    n, e = h.histogram(x, 100)
    assert n.dtype == I8 and n.shape == (100,) and e.dtype == F4 and e.shape == (101,)
    names = [str(c) for c in recorded_launches]
    assert len(recorded_launches) == 3, names
    assert "minmax_partials<float>" in names[0] and "auto_edges<float>" in names[1]
    assert "cuarray_histogram_auto<float, 8>" in names[2]
    blocks, copies, smem = h.auto_plan(10**6, 100, 132)
    assert [c[1] for c in recorded_launches] == [("cfg", blocks, 256, 0), ("cfg", 1, 256, 0),
                                                 ("cfg", blocks, 256, smem)]
    top = np.uint64(1 << 63)
    key = lambda v: np.float64(v).view(np.uint64) ^ top if v >= 0 else ~np.float64(v).view(np.uint64)  # noqa: E731
    not_finite = np.array([key(1.0), 2**64 - 1, 1], np.uint64)
    monkeypatch.setattr(h, "read_state", lambda s: not_finite)
    with pytest.raises(ValueError, match=r"autodetected range of \[1.0, nan\] is not finite"):
        h.histogram(x, 100)
    too_many = np.array([key(1.0), key(1.0), 2], np.uint64)
    monkeypatch.setattr(h, "read_state", lambda s: too_many)
    with pytest.raises(ValueError, match="Too many bins for data range. Cannot create 7 finite"):
        h.histogram(x, 7)
    for args, kw in [((cp.ndarray((10,), I8), 5), {}), ((x, 5), {"range": (0, 1)}), ((x, h._SHARED_BINS + 1), {}),
                     ((x, "auto"), {}), ((x, 5), {"weights": cp.ndarray((10**6,), F4)}),
                     ((cp.ndarray((0,), F4), 5), {}), ((cp.ndarray((4,), np.float16), 5), {})]:
        assert h._auto_bins(args[0], args[1], kw.get("range"), kw.get("weights")) is None
    assert h._auto_bins(x, np.int16(5), None, None) == 5
    prev = h.auto_range_by("host")
    assert prev == "device" and h._auto_bins(x, 5, None, None) is None
    h.auto_range_by(prev)
    with pytest.raises(ValueError):
        h.auto_range_by("gpu")


@pytest.mark.parametrize("dt", ["u1", "u8", "i4", "f8"])
@pytest.mark.parametrize("weighted", [False, True])
def test_no_edges_give_no_bins(recorded_launches, dt, weighted):
    """Explicit bins of no edges (`bins=[]`): NumPy's counts are the diff of its cumulative counts,
    none; the old code asked for -1 bins ("negative dimensions are not allowed"). (density=True:
    tests/_statistics/test_histograms_gpu.py, its sum needs a device.)"""
    import cuarray as cp

    w = np.ones(4) if weighted else None
    hist, edges = np.histogram(np.arange(4, dtype=dt), bins=np.empty(0), weights=w)
    got, got_edges = cp.histogram(cp.empty(4, dt), bins=cp.empty(0), weights=cp.empty(4) if weighted else None)
    assert (got.shape, got.dtype, got_edges.shape) == (hist.shape, hist.dtype, edges.shape)



@pytest.mark.parametrize("bins", [[1.0], np.array([3]), []], ids=["one_float", "one_int", "none"])
def test_bool_weights_over_explicit_edges_raise_numpys_error(recorded_launches, bins):
    """NumPy bins explicit edges by cumulative sums of the weights: a bool weight's cumsum is int64,
    which its bool counts cannot take (UFuncTypeError), whatever the number of edges; no data, no
    sum, no error (fuzz seed 12 index 57, three edges: cuarray answered; tests/_statistics/
    test_histograms_gpu.py). One edge or none here, as these need no read of the edges."""
    import cuarray as cp

    with pytest.raises(TypeError) as want:
        np.histogram(np.arange(10, dtype=np.uint16), bins=bins, weights=np.ones(10, bool))
    edges = cp.empty(len(bins), np.asarray(bins).dtype)  # (on the fake device: no upload)
    with pytest.raises(type(want.value)) as got:
        cp.histogram(cp.empty(10, np.uint16), bins=edges, weights=cp.empty(10, bool))
    assert str(got.value) == str(want.value)
    want = np.histogram(np.empty(0, np.uint16), bins=bins, weights=np.ones(0, bool))[0]
    got = cp.histogram(cp.empty(0, np.uint16), bins=edges, weights=cp.empty(0, bool))[0]
    assert (got.dtype, got.shape) == (want.dtype, want.shape)


# -- equal bins whose edges are not finite: ValueError (GPU fuzz seed 21) ---------------------------
def test_a_range_past_the_edges_dtype_raises(recorded_launches):
    """histogram(float32, bins='stone' or 1, range=(-1e308, 1e308)): the float32 edges are -inf and
    inf (NumPy's bin arithmetic turns them into an IndexError, index 0 * inf); a float64 range whose
    width overflows has a NaN first edge (NumPy counts on over it). Neither count means anything:
    ValueError, before any launch. histogram_bin_edges still returns NumPy's edges (no counting)."""
    import cuarray as cp

    x = cp.ndarray((1,), np.float32)
    for bins, top in ((1, 1e308), (1, 1e39), (3, 1e39)):  # ([-inf, -3.3e38, 3.3e38, inf] increase)
        with pytest.raises(ValueError, match="finite-sized bins: the range .* overflows float32 edges"):
            cp.histogram(x, bins=bins, range=(-top, top))
    with pytest.raises(ValueError, match="finite-sized bins: the range .* overflows float64 edges"):
        cp.histogram(cp.ndarray((4,), np.float64), bins=1, range=(-1e308, 1e308))
    with np.errstate(all="ignore"):
        with pytest.raises(IndexError):  # NumPy's own answer to the fuzz case (seed 21 index 157)
            np.histogram(np.float32(0.125), bins="stone", range=(-1e308, 1e308))
        want = np.histogram_bin_edges(np.zeros(1, np.float32), bins=1, range=(-1e308, 1e308))
    assert not recorded_launches and not np.isfinite(want).all()
    with pytest.raises(NoDeviceError):  # (NumPy's edges, uploaded: no ValueError)
        cp.histogram_bin_edges(x, bins=1, range=(-1e308, 1e308))


def test_histogram2d_of_float16_whose_width_overflows_raises():
    """GPU fuzz seed 21 index 186: histogram2d of float16 x from -59104 to 60992 (bins=10): NumPy
    computes the edges in float16, whose width overflows (edges NaN, inf, ..., 6.1e4), and raises
    ValueError ('invalid entry in coordinates array': its searchsorted gives the maximum bin -1);
    cuarray counted over those edges. histogramdd's check of the edges it builds (numpy.linspace
    over the data's minimum and maximum, per dimension) raises ValueError now; the whole call is
    checked on the GPU (test_histograms_gpu.py)."""
    from cuarray._statistics.histogram_bins import finite_edges

    lo, hi = np.float16(-59104.0), np.float16(60992.0)
    x16 = np.array([6144.0, -30288.0, lo, hi, 2404.0], np.float16)
    y8 = np.array([9, 5, 0, -9, -5], np.int8)
    with np.errstate(all="ignore"), pytest.raises(ValueError):
        np.histogram2d(x16, y8, bins=10)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"`bins\[0\]`: .*overflows float16 edges"):
        finite_edges(np.linspace(lo, hi, 11), lo, hi, 0)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"`bins\[0\]`: .*overflows float64 edges"):
        finite_edges(np.linspace(-1e308, 1e308, 3), -1e308, 1e308, 0)
    finite_edges(np.linspace(np.float16(-9), np.float16(9), 11), -9, 9, 1)  # finite: no error


def test_equal_bins_whose_subtraction_overflows_the_edges_type_raise(recorded_launches):
    """Finite float32 edges of a range given as Python floats wider than float32's: NumPy's
    x - first_edge in float32 overflows (its histogram: IndexError; our kernel's width is inf, so
    every value landed in bin 0). histogram raises ValueError; histogramdd's edges are searched,
    not subtracted, and stay NumPy's."""
    import cuarray as cp
    from cuarray._statistics import histogram_bins as hb

    top = float(np.finfo(np.float32).max)
    x = cp.ndarray((3,), F4)
    with np.errstate(all="ignore"):
        assert np.isfinite(np.histogram_bin_edges(np.float32([0]), 3, range=(-top / 1.5, top / 1.5))).all()
        with pytest.raises(IndexError):
            np.histogram(np.float32([-top / 1.5, 0.25, top / 1.5]), 3, range=(-top / 1.5, top / 1.5))
    with pytest.raises(ValueError, match="Cannot create 3 finite-sized bins: the range .* overflows float32"):
        hb.bin_edges(x, 3, (-top / 1.5, top / 1.5), None, counting=True)
    # a range just inside keeps NumPy's answer: the GPU test (test_histograms_gpu.py) counts it
