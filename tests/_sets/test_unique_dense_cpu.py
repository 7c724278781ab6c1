"""unique's bitmap route without a GPU: its kernels compile for sm_90 for every integer dtype,
the planner's boundaries (size, dtype, the bitmap's cap), the order keys, and the launches: the
route is decided by the min/max read before any bitmap work, so values too wide for the bitmap
cost one min/max launch and then the sort (no bitmap launch, no memset); 8- and 16-bit integers
skip the min/max; floats, bools and the return_* options take the sort and the heads."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._sets import unique_dense as ud
from cuarray.cuda import compiler

INTS = [np.dtype(c) for c in "bBhHiIqQ"]


def test_kernels_compile():
    names = sorted({"cuarray::unique_dense::" + n for dt in INTS for n in ud.kernel_names(dt)})
    cubin, mapping = compiler.compile_cubin(ud._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


T = ud.TILE_BITS


@pytest.mark.parametrize("n, dt, want", [
    (ud.MIN_SIZE - 1, "i4", None), (ud.MIN_SIZE, "i4", (5, 4 * ud.MIN_SIZE)), (2**22, "i4", (528, 2**24)),
    (10**6, "f4", None), (10**6, "?", None), (10**6, "M8[s]", None), (10**6, "m8[s]", None),
    (2**22, "i1", (528, 256)), (2**22, "u2", (528, 2**16)), (ud.MIN_SIZE, "i2", (5, 2**16)),
    (2**22, "u8", (528, 2**24)), (2**29, "i8", (528, 2**30)), (2**30, "i4", (528, 2**30)),
    (T // 4 * 2 + 1, "u4", (9, T * 2 + 4)), (T // 2, "i4", (8, 2 * T)), (T // 2, "u2", (8, 2**16)),
    (T // 2, "i1", (8, 256))])
def test_plan_boundaries(n, dt, want):
    assert ud.plan(n, np.dtype(dt), 132) == want


@pytest.mark.parametrize("dt", INTS)
def test_keys_are_the_kernels_order(dt):
    """key() is the kernels' key_of: signed values as uint64 with the sign bit flipped."""
    info = np.iinfo(dt)
    v = np.unique(np.array([info.min, info.min + 1, -1 if info.min else 0, 0, 1, info.max - 1, info.max], dt))
    as_u64 = v.astype(np.int64).view(np.uint64) if dt.kind == "i" else v.astype(np.uint64)
    want = as_u64 ^ np.uint64(1 << 63) if dt.kind == "i" else as_u64
    got = [ud.key(e, dt) for e in v.tolist()]
    assert got == [int(w) for w in want] and got == sorted(got)


@pytest.fixture
def fake(recorded_launches, monkeypatch):
    """The recording fake device, 132 SMs, the scans and reads patched (the device's answers), the
    memsets recorded: (the recorded launches, the memset sizes)."""
    import cuarray as cp
    from cuarray._core import device_errors, mask_compact, scan
    from cuarray._sets import unique_heads as uh
    from cuarray.cuda import _memory_base, device

    monkeypatch.setitem(device._SM_COUNT, device.get_device_id(), 132)
    monkeypatch.setattr(scan, "inclusive_sum_1d", lambda counts, dtype=None: counts)  # (generated: not recorded)
    monkeypatch.setattr(ud, "read_total", lambda incl: 12345)
    monkeypatch.setattr(uh, "read_total", lambda incl: 9)
    monkeypatch.setattr(mask_compact, "_count", lambda mask, k, dt: (1, 1, mask, 7))
    monkeypatch.setitem(device_errors._buffers, device.get_device_id(), cp.empty(4, dtype="uint64"))  # (gathers)
    sets = []
    monkeypatch.setattr(_memory_base.MemoryPointer, "memset_async", lambda self, v, size, s=None: sets.append(size))
    return recorded_launches, sets


def _dense(calls):
    """(kernel, grid, args) of the bitmap route's launches."""
    return [(c[2].split("cuarray_dense_")[1].split("<")[0], c[1][1], c[3:]) for c in calls if "cuarray_dense_" in c[2]]


def _span(monkeypatch, lo, hi, dt="i4"):
    monkeypatch.setattr(ud, "read_range", lambda part: (ud.key(lo, dt), ud.key(hi, dt)))


def test_dense_launches(fake, monkeypatch):
    """Values in [0, 2^20): min/max, the read, a memset of the span's 32 tiles, the bits, the
    counts, the values; no sort."""
    import cuarray as cp

    calls, sets = fake
    _span(monkeypatch, 0, 2**20 - 1)
    out = cp.unique(cp.ndarray((2**22,), np.int32))
    assert out.shape == (12345,) and out.dtype == np.int32
    got = _dense(calls)
    assert [(k, g) for k, g, _ in got] == [("minmax", 528), ("mark", 528), ("tile_counts", 32), ("expand", 32)]
    assert got[0][2][1:3] == (2**22, 1)  # all the elements, step 1 (16 MiB: no sample)
    assert got[1][2][2] == 1 << 63 == got[3][2][2]  # base: the key of 0
    assert sets == [32 * T // 8]  # the bitmap, sized to the span
    assert not any("radix" in str(c) or "unique_head" in str(c) for c in calls)


@pytest.mark.parametrize("lo, hi, bitmap", [(-5, -5 + 2**24 - 1, True), (-5, -5 + 2**24, False),
                                            (-(2**31), 2**31 - 1, False), (7, 7, True)])
def test_route_decided_before_the_bitmap(fake, monkeypatch, lo, hi, bitmap):
    """A span over the cap (2^24 for 4 Mi elements): one min/max launch, then the sort and the
    heads: no bitmap launch, no bitmap memset. A span of exactly the cap: the bitmap."""
    import cuarray as cp

    calls, sets = fake
    _span(monkeypatch, lo, hi)
    cp.unique(cp.ndarray((2**22,), np.int32))
    kernels = [k for k, _, _ in _dense(calls)]
    if bitmap:
        tiles = -(-(hi - lo + 1) // T)
        assert kernels == ["minmax", "mark", "tile_counts", "expand"] and sets == [tiles * T // 8]
        assert _dense(calls)[2][1] == tiles and _dense(calls)[1][2][2] == ud.key(lo, "i4")
        assert not any("radix" in str(c) for c in calls)
    else:
        assert kernels == ["minmax"]
        assert T // 8 * -(-(hi - lo + 1) // T) not in sets and 2**24 // 8 not in sets
        assert any("cuarray_radix_onesweep" in c[2] for c in calls)
        assert any("cuarray_head_compact<int, false, int>" in c[2] for c in calls)  # sort + heads, not flags
        assert not any("unique_flags" in str(c) for c in calls)


@pytest.mark.parametrize("answers, kernels", [
    ([(0, 2**27)], [("minmax", 32)]),  # the sample is too wide: no full pass
    ([(0, 5), (0, 2**27)], [("minmax", 32), ("minmax", 528)]),  # the sample fits, the data does not
    ([(0, 5), (0, 2**20)], [("minmax", 32), ("minmax", 528), ("mark", 528), ("tile_counts", 33), ("expand", 33)])])
def test_large_data_sampled_first(fake, monkeypatch, answers, kernels):
    """128 MiB or more: a strided sample's min/max (2^16 elements, step n / 2^16) and read first;
    the full pass only where the sample fits the cap (2^27 for 2^25 elements)."""
    import cuarray as cp

    calls, sets = fake
    answers = list(answers)
    monkeypatch.setattr(ud, "read_range", lambda part: tuple(ud.key(v, "i4") for v in answers.pop(0)))
    n = 2**25
    assert n * 4 == ud.SAMPLE_BYTES and ud.plan(n, np.int32, 132)[1] == 2**27
    cp.unique(cp.ndarray((n,), np.int32))
    got = _dense(calls)
    assert [(k, g) for k, g, _ in got] == kernels and not answers
    assert got[0][2][1:3] == (2**16, 2**9)
    assert any("cuarray_radix_onesweep" in str(c) for c in calls) == (kernels[-1][0] == "minmax")
    if len(got) > 1:
        assert got[1][2][1:3] == (n, 1)
    ud_n = ud.SAMPLE_BYTES // 4 - 1  # just under: no sample
    monkeypatch.setattr(ud, "read_range", lambda part: (ud.key(0, "i4"), ud.key(2**31 - 1, "i4")))
    calls.clear()
    cp.unique(cp.ndarray((ud_n,), np.int32))
    assert [(k, g) for k, g, _ in _dense(calls)] == [("minmax", 528)]


@pytest.mark.parametrize("dt, tiles", [("i1", 1), ("u1", 1), ("i2", 2), ("u2", 2)])
def test_small_ints_skip_the_minmax(fake, monkeypatch, dt, tiles):
    """8- and 16-bit integers: the bitmap over the dtype's whole range, no min/max, no read."""
    import cuarray as cp

    calls, sets = fake
    monkeypatch.setattr(ud, "read_range", lambda part: pytest.fail("no read for a small dtype"))
    cp.unique(cp.ndarray((ud.MIN_SIZE,), np.dtype(dt)))
    got = _dense(calls)
    assert [(k, g) for k, g, _ in got] == [("mark", 5), ("tile_counts", tiles), ("expand", tiles)]
    assert got[0][2][2] == ud.key(np.iinfo(dt).min, dt) and sets == [tiles * T // 8]


@pytest.mark.parametrize("case", ["f4", "f8", "?", "small", "index", "heads", "flags"])
def test_sort_routes(fake, monkeypatch, case):
    """Floats and bools: the sort and the heads (not the flags); fewer than MIN_SIZE integers; the
    return_index option (its flags); values_by('heads'|'flags'): no bitmap launch at all."""
    import cuarray as cp
    from cuarray._sets import unique as u

    calls, _ = fake
    monkeypatch.setattr(ud, "read_range", lambda part: pytest.fail("the bitmap is not tried"))
    dt = np.dtype(case if case in ("f4", "f8", "?") else "i4")
    n = ud.MIN_SIZE - 1 if case == "small" else 2**22
    x = cp.ndarray((n,), dt)
    monkeypatch.setattr(u, "flatnonzero", lambda mask: cp.ndarray((9,), "int64"))  # (its count is a read)
    prev = u.values_by(case if case in ("heads", "flags") else "dense")
    try:
        cp.unique(x, return_index=case == "index")
    finally:
        u.values_by(prev)
    names = [str(c) for c in calls]
    assert not any("cuarray_dense_" in s for s in names)
    assert any("cuarray_radix" in s for s in names) == (case != "small")  # (fewer: one block's sort)
    assert any("cuarray_head_compact" in s for s in names) == (case not in ("flags", "index"))
    assert any("unique_flags" in s for s in names) == (case in ("flags", "index"))
    if dt.kind == "f":
        assert any("cuarray_head_compact<{}, true, int>".format("float" if dt.itemsize == 4 else "double") in s
                   for s in names)


def test_values_by_rejects():
    from cuarray._sets import unique as u

    with pytest.raises(ValueError, match="bitmap"):
        u.values_by("bitmap")


def test_heads_kernels_compile_and_names():
    from cuarray._sets import unique_heads as uh

    names = sorted({"cuarray::unique_heads::" + n for c in "?bBhHiIqQfd" for e in (False, True) for o in (4, 8)
                    for n in uh.kernel_names(np.dtype(c), e, o)})
    cubin, mapping = compiler.compile_cubin(uh._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)
    assert uh.kernel_names(np.dtype("f4"), True, 4)[0] == "cuarray_head_counts<float, true, int>"
    assert uh.kernel_names(np.dtype("i4"), True, 8)[1] == "cuarray_head_compact<int, false, long long>"
    assert uh.TILE == 4096
