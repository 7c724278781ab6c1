"""The short-row quantile route without a GPU: the block-a-row selection kernel and the sorted-rows
take compile for sm_90 for every dtype; the planner's boundaries; a NumPy model of the kernel's
passes (per-pass shared histograms, a warp's scan over lanes of eight digits, equal prefixes
sharing a histogram) finds NumPy's order statistics; and the launches on the fake device: a
percentile along 131072 short rows is one selection launch and one interpolation launch (it was
a memset of 805 MB of histograms and two launches a pass a 65535-row chunk, then seven small
elementwise launches), and the sort route reads its ranks with one launch, not an indexing
gather."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._statistics import quantile_select as qs
from cuarray.cuda import compiler


DTYPES = "?bhiqBHIQefd"


def float32_keys(x):
    """The kernel's keys of float32 values (NumPy's order, every NaN largest)."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    k = np.where(u >> 31, ~u & 0xFFFFFFFF, u | 0x80000000)
    return np.where(np.isnan(x), 0xFFFFFFFF, k).astype(np.uint64)


def test_rows_and_take_compile():
    names = [qs.rows_kernel_name(np.dtype(c), t) for c in DTYPES for t in (128, 256)]
    names += [qs.take_kernel_name(np.dtype(c)) for c in DTYPES]
    cubin, mapping = compiler.compile_cubin(qs._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin[:4] == b"\x7fELF" and set(mapping) == set(names)


@pytest.mark.parametrize("dt, cap", [("f4", 7680), ("i1", 7680), ("e", 7680), ("f8", 3840), ("i8", 3840)])
def test_rows_plan_boundaries(dt, cap):
    dt = np.dtype(dt)
    threads, smem = qs.rows_plan(cap, dt, 16)
    assert threads == 256 and smem % 16 == 0
    assert smem + 16 * (8 + 8 + 4) <= 48 * 1024  # dynamic + the block's static state: no opt-in
    assert qs.rows_plan(cap + 1, dt, 1) is None
    assert qs.rows_plan(1, dt, 1) == (128, 16 + 1024)
    assert qs.rows_plan(2048, dt, 3)[0] == 128 and qs.rows_plan(2049, dt, 3)[0] == 256
    assert qs.rows_plan(10, dt, 0) is None and qs.rows_plan(10, dt, qs.MAX_TARGETS + 1) is None


def model_rows(keys: np.ndarray, ranks, bits: int, kbits: int = 32) -> list:
    """The kernel's passes in NumPy, step for step: the keys of the target prefixes counted per
    digit (one histogram per distinct prefix), then each target's digit found as a warp does it
    (lane l holds digits 8l..8l+7: the first lane whose inclusive sum passes the rank, then the
    digit inside it)."""
    full = (1 << kbits) - 1
    t = len(ranks)
    prefix, rank, src = [0] * t, list(ranks), [0] * t
    for shift in range(bits - 8, -1, -8):
        hi_mask = 0 if shift + 8 >= kbits else (full << (shift + 8)) & full
        bins = np.zeros((t, 256), np.int64)
        for c in range(t):
            if src[c] == c:
                sel = keys[(keys ^ prefix[c]) & hi_mask == 0]
                bins[c] = np.bincount((sel >> shift).astype(np.int64) & 255, minlength=256)
        for i in range(t):
            lanes = bins[src[i]].reshape(32, 8)
            mine = lanes.sum(axis=1)
            incl = np.cumsum(mine)
            hold = np.flatnonzero(incl > rank[i])
            lane = int(hold[0]) if hold.size else 31
            before = int(incl[lane] - mine[lane])
            d = 0
            while d < 7 and before + lanes[lane, d] <= rank[i]:
                before += int(lanes[lane, d])
                d += 1
            prefix[i] |= (lane * 8 + d) << shift
            rank[i] -= before
        src = [next(u for u in range(i + 1) if prefix[u] == prefix[i]) for i in range(t)]
    return prefix


@pytest.mark.parametrize("n", [1, 2, 7, 128, 1000])
def test_model_of_the_rows_kernel_finds_order_statistics(n):
    rng = np.random.default_rng(n)
    x = rng.random(n, dtype=np.float32)  # uniform [0, 1): every key shares its top digit
    if n > 4:
        x[:5] = [np.nan, -0.0, 0.0, np.inf, x[6]]  # NaN last, signed zeros, a tie
    keys = float32_keys(x)
    order = np.sort(keys)
    ranks = sorted({0, n // 2, max(0, n // 2 - 1), n - 1, n // 3})
    ranks = ranks + ranks[:2]  # repeated ranks: equal prefixes all the way
    assert model_rows(keys, ranks, 32) == [int(order[r]) for r in ranks]


def test_model_of_eight_bit_keys():
    keys = np.random.default_rng(3).integers(0, 256, 300).astype(np.uint64)
    order = np.sort(keys)
    assert model_rows(keys, [0, 150, 299], 8) == [int(order[r]) for r in (0, 150, 299)]


@pytest.fixture
def fake(recorded_launches, monkeypatch):
    """The recording fake device with 132 SMs, memsets and uploads recorded: (launch names, memset
    sizes, upload sizes) of what a call does."""
    import cuarray as cp
    from cuarray._core import device_errors, transfer
    from cuarray.cuda import _memory_base, device

    monkeypatch.setitem(device._SM_COUNT, device.get_device_id(), 132)
    monkeypatch.setitem(device_errors._buffers, device.get_device_id(), cp.empty(4, dtype="uint64"))
    sets, ups = [], []
    monkeypatch.setattr(_memory_base.MemoryPointer, "memset_async", lambda self, v, size, s=None: sets.append(size))
    monkeypatch.setattr(transfer, "_h2d", lambda d, h, nb, s: ups.append(nb))

    def names():  # a generated kernel's name without its dtypes
        return [c[2] if isinstance(c[2], str) else c[2][0].split("_float")[0] for c in recorded_launches]

    return names, sets, ups


@pytest.fixture
def by():
    from cuarray._statistics import quantiles

    saved = quantiles.order_statistics_by(None)
    yield quantiles.order_statistics_by
    quantiles.order_statistics_by(saved)


def test_short_rows_select_is_one_selection_and_one_interpolation(fake, by):
    import cuarray as cp

    names, sets, ups = fake
    by("select")
    r = cp.percentile(cp.ndarray((131072, 128), np.float32), 50.0, axis=1)
    assert r.shape == (131072,) and r.dtype == np.float32
    got = names()
    assert got == ["cuarray::qselect::cuarray_qselect_rows<float, 128>", "cuarray_quantile_lerp_weak_nan"], got
    assert sets == [] and ups == [3 * 8]  # one row of 3 ranks (previous, next, last)


def test_sort_route_reads_its_ranks_with_one_launch(fake, by):
    import cuarray as cp

    names, sets, ups = fake
    by("sort")
    cp.percentile(cp.ndarray((131072, 128), np.float32), 50.0, axis=1)
    got = names()
    assert len(got) == 3 and got[0].startswith("cuarray_block_sort<"), got
    assert got[1:] == ["cuarray::qselect::cuarray_qselect_take<float>", "cuarray_quantile_lerp_weak_nan"]
    del got[:]
    n0 = len(names())
    cp.percentile(cp.ndarray((10**6,), np.float32), (10.0, 50.0, 90.0))
    got = names()[n0:]
    assert "cuarray::qselect::cuarray_qselect_take<float>" in got
    assert not [g for g in got if "gather" in g or "index" in g], got
    assert got[-1] == "cuarray_quantile_lerp_nan"


def test_long_rows_keep_the_histogram_passes(fake, by):
    import cuarray as cp

    names, sets, ups = fake
    by("select")
    cp.percentile(cp.ndarray((4, 8000), np.float32), 50.0, axis=1)  # 32000 bytes of keys: too long
    got = names()
    assert got.count("cuarray::qselect::cuarray_qselect_hist<float>") == 4
    assert "cuarray::qselect::cuarray_qselect_rows<float, 256>" not in got


def test_ranks_are_computed_once_per_signature(fake, by, monkeypatch):
    """A repeated call reuses NumPy's index arithmetic (kept per n, q, method and dtype)."""
    import cuarray as cp
    from cuarray._statistics import quantiles

    quantiles._same_ranks.cache_clear()
    x = cp.ndarray((8, 100), np.float64)
    for _ in range(3):
        cp.quantile(x, [0.25, 0.75], axis=1, method="hazen")
    info = quantiles._same_ranks.cache_info()
    assert (info.misses, info.hits) == (1, 2)
    ranks, gamma = quantiles._same_ranks(100, "<f8", (2,), np.array([0.25, 0.75]).tobytes(), "hazen", "<f8")
    assert not ranks.flags.writeable and not gamma.flags.writeable


@pytest.mark.parametrize("nan", [False, True])
@pytest.mark.parametrize("dt", ["f4", "f8"])
def test_weak_lerp_compiles(nan, dt):
    from cuarray._statistics import quantiles

    d = quantiles.lerp_definition(True, nan, np.dtype(dt))
    cubin, _ = compiler.compile_cubin(d.source("flat", 1, np.int64)[1], arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_weak_lerp_operation_is_numpys(dt):
    """The weak kernel's arithmetic (d in T, d * T(t) or d * T(1 - t) each rounded in T, the side
    from the exact t) equals NumPy's `_lerp` with a Python float t, bit for bit."""
    from numpy.lib import _function_base_impl as npq

    rng = np.random.default_rng(5)
    lo = (rng.normal(size=200) * 1e3).astype(dt)
    hi = lo + np.abs(rng.normal(size=200)).astype(dt) * 7
    lo[:2], hi[:2] = -np.inf, np.inf
    for t in (0.0, 0.1, 1 / 3, 0.49999999999, 0.5, 0.7, 0.999999999):
        with np.errstate(invalid="ignore"):
            want = npq._lerp(lo, hi, t)
            d = hi - lo
            got = np.where(t >= 0.5, hi - d * dt(1 - t), lo + d * dt(t))
        assert got.dtype == want.dtype == dt
        np.testing.assert_array_equal(got, want, strict=True)
