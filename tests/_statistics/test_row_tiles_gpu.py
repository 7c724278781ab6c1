"""Row tiles, longer sub-chunk walks and output vectors on the GPU (issue 32) against NumPy, fresh
random data: every `reduction_plan._ROW_TILE` value the sweep tries (short aligned rows of 1-8 16-byte
vectors a lane, several rows a group, the last warps clamped), every `_UNROLL_SUB` and `_OUT_VEC`
value (a few outputs along a fast kept axis: `sum(axis=0)` of (n, 4); output vectors combine a
block's sub-chunks in the block), for sum, max, argmax (ties), mean, var and the nan-variants,
float16/32/64, int32/int64, complex64, odd row counts, reversed, offset and strided views, several
kept dims, a fused producer and a second input broadcast along the row."""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402


def seed_of(request) -> int:
    return zlib.crc32(request.node.nodeid.encode()) + np.random.SeedSequence().entropy % 1000


def _host(rng, shape, dt, nans=False):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        return rng.integers(-1000, 1000, shape).astype(dt)
    h = (rng.standard_normal(shape) * 10).astype(dt)
    if dt.kind == "c":
        h = h + 1j * (rng.standard_normal(shape) * 10).astype(dt)
    if nans and h.size > 4:
        h.flat[rng.integers(0, h.size, max(1, h.size // 50))] = np.nan
    return h


def _compare(name, h, g, axis=1):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        wide = h.dtype.kind == "f" and name in ("sum", "mean", "var", "nansum", "nanmean", "nanvar")
        want = getattr(np, name)(h.astype(np.float64) if wide else h, axis=axis)
        got = getattr(cuarray, name)(g, axis=axis)
    assert got.shape == want.shape, name
    if "arg" in name:
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want, err_msg=name)
        return
    assert got.dtype == getattr(np, name)(h[:1] if axis != 0 else h, axis=axis).dtype, name
    tol = {"e": 2e-2, "f": 2e-5, "F": 2e-5}.get(h.dtype.char, 1e-11)
    finite = np.abs(h[np.isfinite(h)]) if h.dtype.kind in "fc" else np.abs(h)
    big = float(finite.max()) if finite.size else 1.0
    if name in ("sum", "nansum"):  # rounding grows like the square root of the length
        scale = big * 10 * np.sqrt(h.shape[axis])
    elif name in ("var", "nanvar"):  # a float32 var of 1e6 elements, in its own units
        scale = 5 * big * big
    else:
        scale = big
    wide = np.complex128 if want.dtype.kind == "c" else np.float64
    np.testing.assert_allclose(got.get().astype(wide), want.astype(wide), rtol=tol, atol=tol * scale, err_msg=name)


# The sweep's values of _ROW_TILE (8 the default); the other values run a subset of the rows (each
# setting, dtype, op and rows-a-thread is a kernel of its own: NVRTC time on the test machine).
TILES = [0, 4, 8, 16]
ROWS_CASES = [(8, "f4", (4, 8, 12, 16, 32, 64), None), (8, "f8", (2, 4, 6, 16), None), (8, "f2", (8, 16, 24), None),
              (8, "i4", (4, 16), None), (8, "i8", (2, 4), None), (8, "F", (2, 4, 8), None),
              (0, "f4", (4, 16, 64), ("sum", "argmax", "var", "nanmax")), (1, "f4", (4, 16), ("sum", "argmax")),
              (4, "f4", (4, 16, 64), ("sum", "argmax", "var", "nanmax")), (4, "f8", (2, 8), ("sum", "max")),
              (16, "f4", (4, 8, 16, 64), ("sum", "argmax", "var", "nanmax")), (16, "f8", (2, 8), ("sum", "max"))]


@pytest.mark.parametrize("tile, dt, widths, only", ROWS_CASES, ids=lambda v: str(v))
def test_rows_every_tile(request, few_sms, setting, tile, dt, widths, only):
    """Row counts around a block's rows (256 / G x R) and a warp's, so full warps, the clamped last
    warps and single-row grids all run."""
    setting("_ROW_TILE", tile)
    rng = np.random.default_rng(seed_of(request))
    names = ["sum", "mean"]
    if dt[0] in "fi":
        names += ["max", "argmax", "argmin"]
    if dt[0] == "f":
        names += ["var", "nansum", "nanmax", "nanargmin"]
    names = [n for n in names if only is None or n in only]
    for n_red in widths:
        for n_out in (3, 31, 257, 2049, 20_011):
            for name in names:
                if dt == "f2" and name == "var":
                    continue
                h = _host(rng, (n_out, n_red), dt, nans=name.startswith("nan"))
                if name == "nanargmin":
                    h[:, 0] = 0.5  # a number in every row (NumPy raises on an all-NaN row)
                _compare(name, h, cuarray.asarray(h))


@pytest.mark.parametrize("tile", [0, 8, 16])
def test_argmax_ties_and_nans(request, few_sms, setting, tile):
    """Ties go to the first index and the first NaN wins, across a row's vectors and its lanes."""
    setting("_ROW_TILE", tile)
    rng = np.random.default_rng(seed_of(request))
    for n_red in (4, 8, 16, 32):
        h = rng.integers(0, 3, (4099, n_red)).astype("f4")  # many ties
        h[::7, rng.integers(0, n_red)] = np.nan
        g = cuarray.asarray(h)
        for name in ("argmax", "argmin", "max", "min"):
            _compare(name, h, g)
        for name in ("nanargmax", "nanargmin", "nanmax"):
            hh = h.copy()
            hh[:, -1] = 1.0  # no all-NaN row
            _compare(name, hh, cuarray.asarray(hh))


@pytest.mark.parametrize("tile", [0, 8])
def test_views_and_kept_dims(request, few_sms, setting, tile):
    """Reversed rows order, offsets that keep or break 16-byte alignment, strided rows, rows at a
    wider pitch, F order, and two kept dims (the output index unravelled per row)."""
    setting("_ROW_TILE", tile)
    rng = np.random.default_rng(seed_of(request))
    h = _host(rng, (3001, 40), "f4")
    g = cuarray.asarray(h)
    for n_red in (4, 8, 16):
        for v in (np.s_[:, :n_red], np.s_[::-1, :n_red], np.s_[:, 4:4 + n_red], np.s_[:, 1:1 + n_red],
                  np.s_[1::3, :n_red], np.s_[-2::-5, 8:8 + n_red], np.s_[:, n_red - 1::-1], np.s_[:, ::2]):
            for name in ("sum", "argmax", "var"):
                _compare(name, h[v], g[v])
    h3 = _host(rng, (37, 29, 16), "f4")
    g3 = cuarray.asarray(h3)
    for name in ("sum", "max", "argmax"):
        _compare(name, h3, g3, axis=2)
        _compare(name, h3[::-1, 1:], g3[::-1, 1:], axis=2)
        _compare(name, h3.transpose(1, 0, 2), g3.transpose(1, 0, 2), axis=2)
    np.testing.assert_allclose(cuarray.sum(g3, axis=2, keepdims=True).get(),
                               h3.astype(np.float64).sum(axis=2, keepdims=True), rtol=2e-5, atol=1e-3)


@pytest.mark.parametrize("tile", TILES)
def test_large_rows_on_the_whole_gpu(request, setting, tile):
    """The bench's sizes with the device's own SM count: 8 rows a thread of one vector, 4 of two."""
    setting("_ROW_TILE", tile)
    rng = np.random.default_rng(seed_of(request))
    for shape, dt, names in (((1_000_003, 4), "f4", ("sum", "max", "argmax", "var")),
                             ((700_001, 16), "f4", ("sum", "argmax", "nanmax")),
                             ((400_003, 2), "f8", ("sum", "max", "argmin"))):
        h = _host(rng, shape, dt, nans=True) if "nanmax" in names else _host(rng, shape, dt)
        g = cuarray.asarray(h)
        for name in names:
            _compare(name, h, g)
        _compare("sum", h[::-1], g[::-1])


@pytest.mark.parametrize("tile", [0, 8])
def test_fused_producer_and_broadcast_input(request, setting, tile):
    """The EM step's shapes: exp fused into the load of rows of 2 float64, max(keepdims) and a
    division; and a ReductionKernel whose second input is broadcast along the row (one element a
    row, read as is while the first takes vectors)."""
    setting("_ROW_TILE", tile)
    rng = np.random.default_rng(seed_of(request))
    h = rng.standard_normal((400_003, 2))
    g = cuarray.asarray(h)
    np.testing.assert_allclose(cuarray.exp(g).sum(axis=1).get(), np.exp(h).sum(axis=1), rtol=1e-12)
    m = g.max(axis=1, keepdims=True)
    r = cuarray.exp(g - m)
    r = r / r.sum(axis=1, keepdims=True)
    e = np.exp(h - h.max(axis=1, keepdims=True))
    np.testing.assert_allclose(r.get(), e / e.sum(axis=1, keepdims=True), rtol=1e-12)
    k = cuarray.ReductionKernel("T x, T m", "T y", "(x - m) * (x - m)", "a + b", "y = a", "0", "sqdev_rows")
    hx = rng.standard_normal((10_001, 8)).astype("f4")
    hm = hx.mean(axis=1, keepdims=True)
    got = k(cuarray.asarray(hx), cuarray.asarray(hm), axis=1)
    np.testing.assert_allclose(got.get(), ((hx - hm) ** 2).sum(axis=1), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("unroll, out_vec, dt", [(16, 1, "f4"), (16, 1, "f8"), (16, 1, "f2"), (16, 1, "i4"),
                                                 (0, 0, "f4"), (16, 0, "f4"), (32, 0, "f4"), (32, 0, "f8"),
                                                 (16, 0, "i4")])
def test_sub_chunk_walks(request, setting, unroll, dt, out_vec):
    """A few outputs along a fast kept axis with every `_UNROLL_SUB` and `_OUT_VEC`: odd row
    counts, chunk ends mid-round, reversed and strided views, var (the Welford/Chan accumulator)."""
    setting("_UNROLL_SUB", unroll)
    setting("_OUT_VEC", out_vec)
    rng = np.random.default_rng(seed_of(request))
    for shape in ((1_000_003, 4), (100_001, 2), (50_001, 32), (4097, 3), (300_007, 8)):
        h = _host(rng, shape, dt)
        if dt == "f2":
            h = (h / 10).astype(dt)
        g = cuarray.asarray(h)
        names = ("sum", "max", "argmax") + (("var", "mean", "nansum") if dt in ("f4", "f8") else ())
        for name in names:
            if dt == "f2" and name == "sum" and shape[0] > 5000:
                continue  # float16 sums of 1e5 terms: NumPy's pairwise order differs beyond tolerance
            _compare(name, h, g, axis=0)
            _compare(name, h[::-1], g[::-1], axis=0)
            _compare(name, h[1::3], g[1::3], axis=0)


@pytest.mark.parametrize("out_vec", [0, 1])
@pytest.mark.parametrize("dt", ["f4", "f8", "f2", "i4", "i8"])
def test_output_vectors(request, setting, out_vec, dt):
    """Columns 16 bytes at a time: 2-128 outputs, chunk counts from 1 to the whole GPU (fused and
    two-launch second passes), reversed/strided/offset views (aligned or not), argmax ties."""
    setting("_OUT_VEC", out_vec)
    rng = np.random.default_rng(seed_of(request))
    v = 16 // np.dtype(dt).itemsize
    names = ["sum", "max", "argmax", "argmin"]
    if dt[0] == "f" and dt != "f2":
        names += ["mean", "var", "nansum", "nanmax"]
    for n_red, n_out in ((4096, v), (70_001, v), (1_000_003, v), (100_003, 2 * v), (50_001, 8 * v), (9001, 32 * v),
                         (20_011, 3 * v)):
        h = _host(rng, (n_red, n_out), dt, nans=dt[0] == "f" and dt != "f2")
        if dt == "f2":
            h = (h / 10).astype(dt)
        g = cuarray.asarray(h)
        for name in names:
            if dt == "f2" and name == "sum" and n_red > 5000:
                continue  # float16 sums of many terms: NumPy's pairwise order differs beyond tolerance
            if name.startswith("arg") and dt[0] == "f":
                hh = np.where(np.isnan(h), 0, h).astype(dt)
                hh[::5] = np.round(hh[::5])  # ties across rows
                _compare(name, hh, cuarray.asarray(hh), axis=0)
                continue
            _compare(name, h, g, axis=0)
        h0 = np.where(np.isnan(h), 0, h).astype(dt) if dt[0] == "f" else h
        g0 = cuarray.asarray(h0)
        # reversed, every third row, reversed columns' half, the second vector of columns, and
        # columns one element off alignment (no output vectors there)
        for view in (np.s_[::-1], np.s_[1::3], np.s_[::-2, :v], np.s_[:, v:2 * v], np.s_[:, 1:1 + v]):
            if h0[view].shape[1] == 0:
                continue
            for name in ("max", "argmax") + (("sum",) if dt != "f2" else ()):
                _compare(name, h0[view], g0[view], axis=0)


@pytest.mark.parametrize("out_vec", [0, 1])
def test_output_vectors_em_step_and_broadcast(request, setting, out_vec):
    """The EM step's column sums (r.sum(0) of (4e5, 2) float64) and a ReductionKernel with a second
    input broadcast along the reduced axis (one row of means read by every row)."""
    setting("_OUT_VEC", out_vec)
    rng = np.random.default_rng(seed_of(request))
    h = rng.random((400_000, 2))
    np.testing.assert_allclose(cuarray.asarray(h).sum(axis=0).get(), h.sum(axis=0), rtol=1e-12)
    k = cuarray.ReductionKernel("T x, T m", "T y", "(x - m) * (x - m)", "a + b", "y = a", "0", "sqdev_cols")
    hx = rng.standard_normal((100_003, 8)).astype("f4")
    hm = hx.mean(axis=0, keepdims=True)
    got = k(cuarray.asarray(hx), cuarray.asarray(hm), axis=0)
    np.testing.assert_allclose(got.get(), ((hx.astype(np.float64) - hm) ** 2).sum(axis=0), rtol=1e-4)


@pytest.mark.parametrize("tile, out_vec", [(0, 0), (8, 1), (4, 1)])
def test_median_and_user_kernels_on_the_new_plans(request, few_sms, setting, tile, out_vec):
    """Other reductions the engine runs through the same plans: median's passes (the input with the
    row's key and rank, broadcast along the row or the column), and a ReductionKernel whose map
    reads `_j`, the element's index within its reduction."""
    setting("_ROW_TILE", tile)
    setting("_OUT_VEC", out_vec)
    rng = np.random.default_rng(seed_of(request))
    for shape in ((20_011, 4), (20_011, 16), (30_001, 8)):
        h = _host(rng, shape, "f4")
        g = cuarray.asarray(h)
        for axis in (0, 1):
            np.testing.assert_array_equal(cuarray.median(g, axis=axis).get(), np.median(h, axis=axis))
    k = cuarray.ReductionKernel("T x", "T y", "x * (_j + 1)", "a + b", "y = a", "0", "weighted_by_index")
    for shape, axis in (((20_011, 4), 1), ((20_011, 16), 1), ((100_003, 4), 0), ((100_003, 8), 0)):
        h = rng.standard_normal(shape).astype("f4")
        w = np.arange(1, shape[axis] + 1, dtype=np.float64)
        want = (h.astype(np.float64) * (w if axis == 1 else w[:, None])).sum(axis=axis)
        got = k(cuarray.asarray(h), axis=axis)
        np.testing.assert_allclose(got.get(), want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


@pytest.mark.parametrize("dt", ["?", "u1", "i2", "i4"])
def test_narrow_and_integer_inputs(request, few_sms, dt):
    """16 or 8 elements a vector (bool, uint8, int16) and int32: rows of one vector (row tiles) and
    16 columns (output vectors), sum/mean/var/max/argmax."""
    rng = np.random.default_rng(seed_of(request))
    n_vec = 16 // np.dtype(dt).itemsize
    for shape, axis in (((20_011, n_vec), 1), ((20_011, 2 * n_vec), 1), ((100_003, n_vec), 0), ((50_001, 32), 0)):
        h = rng.random(shape) < 0.3 if dt == "?" else rng.integers(0, 100, shape).astype(dt)
        g = cuarray.asarray(h)
        for name in ("sum", "mean", "var", "max", "argmax"):
            _compare(name, h, g, axis=axis)
