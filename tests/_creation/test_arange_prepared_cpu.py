"""arange's prepared launch (memoised plans) passes the same kernel, grid and arguments as the
general elementwise path it short-cuts, for every kind of dtype (no device: the launch is recorded,
kernels are placeholders named by their layout, memory comes from a fake backing). The arange
Definitions, plans and kernel caches are fresh for each test, so that no placeholder outlives it."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._creation import ranges
from cuarray.cuda import memory


@pytest.fixture
def recorded(recorded_launches, monkeypatch):
    monkeypatch.setattr(ranges, "_arange_plans", {})
    # fresh Definitions: their caches would otherwise keep the placeholder kernels for later tests
    monkeypatch.setattr(ranges, "_arange_defs", {})
    return recorded_launches


def _args(call):
    """A recorded launch without the output pointer (a fresh allocation each time)."""
    s, cfg, kern, *args = call
    return s, cfg, kern, tuple(a for a in args if type(a) is not int), [type(a) for a in args]


@pytest.mark.parametrize("args,dtype", [
    ((1_000_000,), None), ((3, 1000), None), ((0.5, 100.25, 0.5), None), ((1, 100_000, 7), "float32"),
    ((5, 70000), np.uint8), ((-3, 5000), np.int16), ((2, 80000), "complex64"), ((0.0, 1e4), "float16"),
])
def test_prepared_launch_matches_general_path(recorded, args, dtype):
    a = ranges.arange(*args, dtype=dtype)  # plan made: the general path launches
    b = ranges.arange(*args, dtype=dtype)  # memoised: the prepared launch
    assert len(recorded) == 2
    assert a.shape == b.shape and a.dtype == b.dtype
    assert _args(recorded[0]) == _args(recorded[1])
    assert recorded[0][-2] == a.data.ptr and recorded[1][-2] == b.data.ptr


def test_short_and_misaligned_results_take_the_general_path(recorded, monkeypatch, host_only_backing):
    ranges.arange(1)  # shorter than one vector
    ranges.arange(1)
    assert len(recorded) == 2 and recorded[0][2][1] == recorded[1][2][1] == "flat"
    # A foreign allocator handing out addresses the vector kernel cannot take
    pool = memory.MemoryPool(backing=host_only_backing(offset=8))
    memory.set_allocator(pool.malloc)
    ranges.arange(100_000)
    ranges.arange(100_000)
    assert [c[2][1] for c in recorded[2:]] == ["flat", "flat"]


def test_empty_result_launches_nothing(recorded):
    for _ in range(2):
        assert ranges.arange(5, 2).shape == (0,)
    assert recorded == []
