"""unique's bitmap route without a GPU: its kernels compile for sm_90 for every integer dtype,
the planner's boundaries (size, dtype, the bitmap's cap), and the launches: four kernels, a scan
and one read; a total of 0 (the values do not fit) falls back to the sort."""

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
    (ud.MIN_SIZE - 1, "i4", None), (ud.MIN_SIZE, "i4", (5, 2)), (2**22, "i4", (528, 512)), (10**6, "f4", None),
    (10**6, "?", None), (10**6, "M8[s]", None), (2**22, "i1", (528, 1)), (2**22, "u2", (528, 2)),
    (2**22, "u8", (528, 512)), (2**29, "i8", (528, 2**30 // T)), (T // 2, "i4", (8, 2)),
    (T // 2 + 1, "i4", (9, 3)), (T // 2, "u2", (8, 2)), (T // 2, "i1", (8, 1))])
def test_plan_boundaries(n, dt, want):
    assert ud.plan(n, np.dtype(dt), 132) == want


def test_launches_and_fallback(recorded_launches, monkeypatch):
    import cuarray as cp
    from cuarray._sets import unique as u
    from cuarray.cuda import device

    from cuarray._core import scan

    monkeypatch.setitem(device._SM_COUNT, device.get_device_id(), 132)
    monkeypatch.setattr(scan, "inclusive_sum_1d", lambda counts, dtype=None: counts)  # (generated: not recorded)
    x = cp.ndarray((2**22,), np.int32)
    monkeypatch.setattr(ud, "read_total", lambda incl: 12345)
    out = u.unique(x)
    assert out.shape == (12345,) and out.dtype == np.int32
    names = [str(c) for c in recorded_launches]
    dense = [i for i, s in enumerate(names) if "cuarray_dense_" in s]
    assert [names[i].split("cuarray_dense_")[1].split("<")[0].split("'")[0] for i in dense] == [
        "minmax", "mark", "tile_counts", "expand"]
    blocks, tiles = ud.plan(2**22, np.int32, 132)
    assert [recorded_launches[i][1][1] for i in dense] == [blocks, blocks, tiles, tiles]
    assert not any("radix" in s for s in names)
    recorded_launches.clear()
    monkeypatch.setattr(ud, "read_total", lambda incl: 0)  # the values did not fit: sorted instead
    from cuarray._sets import unique_heads as uh

    monkeypatch.setattr(uh, "read_total", lambda incl: 9)
    from cuarray._core import mask_compact

    monkeypatch.setattr(mask_compact, "_count", lambda mask, k, dt: (1, 1, mask, 7))
    from cuarray.cuda import _memory_base  # the sort zeroes its scratch with a driver memset

    monkeypatch.setattr(_memory_base.MemoryPointer, "memset_async", lambda self, *a, **k: None)
    u.unique(x)
    names = [str(c) for c in recorded_launches]
    assert any("cuarray_radix_onesweep" in s for s in names) and not any("dense_expand" in s for s in names)
    assert any("cuarray_head_compact<int, false, int>" in s for s in names)  # the values from the sorted keys
    assert not any("unique_flags" in s for s in names)
    # "dense" reads a total of 0 here (patched): the bitmap's kernels, then the heads
    for how, dense, heads in (("heads", False, True), ("flags", False, False), ("dense", True, True)):
        prev = u.values_by(how)
        try:
            recorded_launches.clear()
            u.unique(x)
            names = [str(c) for c in recorded_launches]
            assert any("cuarray_dense_" in s for s in names) == dense
            assert any("cuarray_head_" in s for s in names) == heads
            assert any("unique_flags" in s for s in names) == (how == "flags")
        finally:
            u.values_by(prev)
    with pytest.raises(ValueError):
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
