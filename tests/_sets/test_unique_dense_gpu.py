"""unique's values-alone routes on the device against NumPy, bit for bit: the bitmap (integers
spanning few values), the heads of the sorted keys (no flag array) and the old flags route. Every
integer dtype, negative values, the dtype's extremes, all-equal values, NaN (equal or not), -0.0,
bools, the bitmap's cap boundary (a span of cap integers fits, cap + 1 goes to the sort: decided by
the device's min/max), spans at the dtype's ends, the full int32 range (the sort), non-contiguous
input, sizes at the route's threshold; return_* keep the sort."""

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
from cuarray._sets import unique as uq  # noqa: E402
from cuarray._sets import unique_dense as ud  # noqa: E402

INTS = [np.dtype(c) for c in "bBhHiIqQ"]
rng = np.random.default_rng()
D = cuarray.asarray


def check(x, equal_nan=True):
    """unique(x) by every route for the values alone (bitmap, sort + heads, sort + flags) equals
    NumPy's, dtype and all."""
    want = np.unique(x, equal_nan=equal_nan)
    for how in ("dense", "heads", "flags"):
        prev = uq.values_by(how)
        try:
            got = cuarray.unique(D(x), equal_nan=equal_nan).get()
        finally:
            uq.values_by(prev)
        np.testing.assert_array_equal(got, want, strict=True)


@pytest.mark.parametrize("dt", INTS, ids=testing.dtype_id)
def test_dense_every_int_dtype(dt):
    info = np.iinfo(dt)
    n = 20000
    lo = max(info.min, -3000)
    check(rng.integers(lo, min(info.max, lo + 5000), n, endpoint=True).astype(dt))
    ext = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)  # the whole range
    ext[:2] = info.min, info.max
    check(ext)
    top = np.full(n, info.max, dt)
    top[::7] = info.max - 1
    check(top)
    check(np.full(n, info.min, dt))  # all equal


def test_dense_cap_boundary_and_sizes():
    n = 20000
    cap = ud.plan(n, np.dtype(np.int32), 132)[1]
    for span in (cap - 1, cap, cap + 1, 31, 32, 33, ud.TILE_BITS - 1, ud.TILE_BITS):
        x = rng.integers(-50, -50 + span, n).astype(np.int32)
        x[0], x[1] = -50, -50 + span - 1
        check(x)
    for m in (ud.MIN_SIZE - 1, ud.MIN_SIZE, ud.MIN_SIZE + 1, 2**20 + 3):
        check(rng.integers(-(2**19), 2**19, m).astype(np.int32))
    check(rng.integers(-(2**31), 2**31, 50000, dtype=np.int64).astype(np.int32))  # full int32 range: the sort
    x = rng.integers(0, 2**20, 2**18).astype(np.int32)
    check(x[::3])
    check(x.reshape(512, 512).T)  # not contiguous: flattened in C order first
    np.testing.assert_array_equal(cuarray.unique(D(x.reshape(512, 512))).get(), np.unique(x), strict=True)


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "iIqQ"], ids=testing.dtype_id)
def test_dense_route_decision(dt):
    """ud.values itself: NumPy's values where the span (max - min + 1) is at most the cap, None (the
    sort's turn, nothing else launched) at cap + 1; spans of one integer and of a tile and one bit;
    at both ends of the dtype (the base key near 0 and near 2^64)."""
    n = 20000
    cap = ud.plan(n, dt, 132)[1]
    info = np.iinfo(dt)
    for span, fits in ((cap, True), (cap + 1, False), (1, True), (ud.TILE_BITS + 1, True), (2 * ud.TILE_BITS, True)):
        for lo in (int(info.min), int(info.max) - span + 1, -7 if dt.kind == "i" else 7):
            offs = rng.integers(0, span, n, dtype=np.uint64)
            offs[:2] = 0, span - 1
            x = np.asarray(lo, dt) + offs.astype(dt)
            got = ud.values(D(x))
            if fits:
                np.testing.assert_array_equal(got.get(), np.unique(x), strict=True)
            else:
                assert got is None
            check(x)
    for c in "bBhH":  # 8 and 16 bits: always the bitmap, the whole range
        x = rng.integers(np.iinfo(c).min, np.iinfo(c).max, ud.MIN_SIZE, endpoint=True, dtype=c)
        np.testing.assert_array_equal(ud.values(D(x)).get(), np.unique(x), strict=True)
    assert ud.values(D(np.zeros(n, np.float32))) is None


def test_dense_sampled_decision(monkeypatch):
    """The sample first (forced on 20000 elements: 1000 samples, step 20): an outlier the sample
    misses (index 1) still sends the data to the sort (the full pass sees it), one it holds (index
    0) too; data that fits gives NumPy's values."""
    monkeypatch.setattr(ud, "SAMPLE_BYTES", 0)
    monkeypatch.setattr(ud, "SAMPLES", 1000)
    n = 20000
    cap = ud.plan(n, np.dtype(np.int64), 132)[1]
    x = rng.integers(-7, 3000, n)
    x[5] = -7
    np.testing.assert_array_equal(ud.values(D(x)).get(), np.unique(x), strict=True)
    check(x)
    for i in (0, 1, n - 1):
        y = x.copy()
        y[i] = -7 + cap
        assert ud.values(D(y)) is None
        check(y)
        y[i] = -8 + cap  # the span is exactly the cap: the bitmap
        np.testing.assert_array_equal(ud.values(D(y)).get(), np.unique(y), strict=True)


def test_dense_leaves_options_to_the_sort():
    x = rng.integers(0, 3000, 30000).astype(np.int64)
    for kw in ({"return_index": True}, {"return_inverse": True}, {"return_counts": True}):
        got = cuarray.unique(D(x), **kw)
        want = np.unique(x, **kw)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.get(), w, strict=True)
    np.testing.assert_array_equal(cuarray.unique_values(D(x)).get(), np.unique(x), strict=True)
    check(np.zeros(0, np.int32))
    check(np.array([5], np.int32))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?fd"], ids=testing.dtype_id)
@pytest.mark.parametrize("equal_nan", [True, False])
def test_heads_bools_floats_nans(dt, equal_nan):
    """The values from the sorted keys (no flag array): NaNs kept once or each, -0.0 and 0.0 one
    value, infinities; tiles of 4096 and their boundaries; size 1 and all equal."""
    for n in (1, 2, 4095, 4096, 4097, 3 * 4096 + 5, 70000):
        if dt.kind == "b":
            x = rng.integers(0, 2, n).astype(bool)
        else:
            x = np.round(rng.normal(size=n) * 30).astype(dt)
            x[rng.integers(0, n, max(1, n // 50))] = np.nan
            x[rng.integers(0, n, max(1, n // 50))] = -0.0
            x[:: max(1, n // 7)] = np.inf
        check(x, equal_nan)
    check(np.full(10000, np.nan if dt.kind == "f" else True, dt), equal_nan)
    check(np.zeros(9000, dt), equal_nan)
