"""Device memory on a real GPU: pool stress, copies, stream safety, OOM, malloc-async, pinned."""

from __future__ import annotations

import gc
import random

import numpy as np

from cuarray.cuda.raw import RawKernel
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

from cuarray.cuda import memory, pinned_memory  # noqa: E402
from cuarray.cuda.device import Device  # noqa: E402
from cuarray.cuda.stream import Stream  # noqa: E402

MiB = 1 << 20


@pytest.fixture
def pool():
    p = memory.MemoryPool()
    yield p
    gc.collect()
    p.free_all_blocks()


def roundtrip(ptr, nbytes, stream=None, seed=0):
    host = np.random.default_rng(seed).integers(0, 256, nbytes, dtype=np.uint8)
    out = np.empty_like(host)
    ptr.copy_from_host(host.ctypes.data, nbytes, stream)
    ptr.copy_to_host(out.ctypes.data, nbytes, stream)
    return host, out


def test_stress_random_sizes(pool):
    rng = random.Random(0)
    live = []
    for i in range(2000):
        size = rng.choice([rng.randint(1, 4096), rng.randint(1, 4 * MiB)])
        live.append((pool.malloc(size), size))
        assert live[-1][0].ptr % 512 == 0  # 512-byte blocks inside 2 MiB-aligned segments
        if i % 250 == 0:  # the bytes really are ours: no two live blocks alias
            live[-1][0].memset(i & 0xFF, size)
            ends = sorted((q.ptr, q.ptr + s) for q, s in live)
            assert all(a[1] <= b[0] for a, b in zip(ends, ends[1:]))
        if len(live) > 40 or rng.random() < 0.3:
            live.pop(rng.randrange(len(live)))
    assert pool.used_bytes() == sum((s + 511) // 512 * 512 for _, s in live)
    live.clear()
    assert pool.used_bytes() == 0
    pool.free_all_blocks()
    assert pool.total_bytes() == 0


@pytest.mark.parametrize("nbytes", [1, 511, 4096, 3 * MiB + 7])
def test_host_device_host_roundtrip(pool, nbytes):
    p = pool.malloc(nbytes)
    host, out = roundtrip(p, nbytes, seed=nbytes)
    np.testing.assert_array_equal(out, host)


def test_device_to_device_offset_and_memset(pool):
    n = 1 << 16
    a = pool.malloc(n)
    b = pool.malloc(n)
    host = np.random.default_rng(1).integers(0, 256, n, dtype=np.uint8)
    a.copy_from_host(host.ctypes.data, n)
    b.memset(0x5A, n)
    (b + 100).copy_from_device(a + 200, 1000)
    out = np.empty(n, np.uint8)
    b.copy_to_host(out.ctypes.data, n)
    expect = np.full(n, 0x5A, np.uint8)
    expect[100:1100] = host[200:1200]
    np.testing.assert_array_equal(out, expect)


def test_async_copies_on_a_stream(pool):
    s = Stream(non_blocking=True)
    with s:
        p = pool.malloc(1 << 20)
        host, out = roundtrip(p, 1 << 20, stream=s, seed=3)
    np.testing.assert_array_equal(out, host)


def test_cross_stream_reuse_safety(pool):
    a_stream = Stream(non_blocking=True)
    b_stream = Stream(non_blocking=True)
    with a_stream:
        x = pool.malloc(1 << 20)
        hold = pool.malloc(1 << 20)  # keeps x's segment partly live, so it stays cached (not released)
    addr = x.ptr
    del x  # cached for stream A
    with b_stream:
        y = pool.malloc(1 << 20)
    assert y.ptr != addr
    with a_stream:
        z = pool.malloc(1 << 20)
    assert z.ptr == addr
    del y, z, hold


def test_oom_limit_then_smaller_works(pool):
    pool.set_limit(size=8 * MiB)
    keep = pool.malloc(6 * MiB)
    with pytest.raises(memory.OutOfMemoryError) as info:
        pool.malloc(4 * MiB)
    assert "8,388,608 bytes" in str(info.value)
    small = pool.malloc(1 * MiB)
    host, out = roundtrip(small, 1 * MiB)
    np.testing.assert_array_equal(out, host)
    del keep, small
    pool.set_limit(fraction=0.5)
    assert pool.get_limit() == Device().mem_info[1] // 2
    pool.set_limit()


def test_real_oom_is_out_of_memory_error(pool):
    free, total = Device().mem_info
    with pytest.raises(memory.OutOfMemoryError):
        pool.malloc(total * 2)
    p = pool.malloc(MiB)  # still usable
    host, out = roundtrip(p, MiB)
    np.testing.assert_array_equal(out, host)


def test_memory_info_consistent():
    pool = memory.get_default_memory_pool()
    old = memory.get_allocator()
    memory.set_allocator(pool.malloc)
    try:
        before = memory.memory_info()
        ps = [memory.alloc(3 * MiB) for _ in range(3)]
        info = memory.memory_info()
        assert info["live"] == before["live"] + 9 * MiB
        assert info["reserved"] == info["live"] + info["cached"] == pool.total_bytes()
        assert info["peak"] >= info["live"]
        del ps
        after = memory.memory_info()
        assert after["live"] == before["live"]
        assert after["reserved"] == info["reserved"]  # cached, not leaked
    finally:
        memory.set_allocator(old)


def test_set_allocator_none_uses_plain_malloc():
    old = memory.get_allocator()
    memory.set_allocator(None)
    try:
        p = memory.alloc(12345)
        assert isinstance(p.mem, memory.Memory)
        host, out = roundtrip(p, 12345)
        np.testing.assert_array_equal(out, host)
    finally:
        memory.set_allocator(old)


def test_malloc_async_pool_roundtrip():
    pool = memory.MallocAsyncMemoryPool()
    p = pool.malloc(5 * MiB)
    host, out = roundtrip(p, 5 * MiB, seed=5)
    np.testing.assert_array_equal(out, host)
    assert pool.used_bytes() >= 5 * MiB
    assert pool.total_bytes() >= pool.used_bytes()
    del p
    Device().synchronize()
    assert pool.used_bytes() == 0
    assert pool.total_bytes() > 0  # release threshold UINT64_MAX: kept across the sync
    pool.free_all_blocks()
    assert pool.malloc(0).ptr == 0


def test_pinned_roundtrip_and_reuse():
    ppool = pinned_memory.PinnedMemoryPool()
    dpool = memory.MemoryPool()
    n = 4 * MiB
    src = ppool.malloc(n)
    view = src.numpy_view(n)
    view[:] = np.random.default_rng(7).integers(0, 256, n, dtype=np.uint8)
    d = dpool.malloc(n)
    s = Stream(non_blocking=True)
    d.copy_from_host_async(src, n, s)  # the pinned pointer itself: it learns the stream
    dst = ppool.malloc(n)
    d.copy_to_host_async(dst, n, s)
    s.synchronize()
    np.testing.assert_array_equal(dst.numpy_view(n), view)
    addr = src.ptr
    # Keep `s` busy (a kernel spinning ~200 ms), then use `src` again on it and release it: the
    # event recorded at release is still pending, so the block must not be handed out yet.
    spin = RawKernel(
        'extern "C" __global__ void spin(long long cycles) {'
        ' long long t0 = clock64(); while (clock64() - t0 < cycles) {} }', "spin")
    spin((1,), (1,), (np.int64(400_000_000),), stream=s)
    d.copy_from_host_async(src, n, s)
    del src, view
    assert ppool.n_free_blocks() == 0
    other = ppool.malloc(n)
    other_addr = other.ptr
    assert other_addr != addr
    del other
    s.synchronize()
    assert ppool.n_free_blocks() == 2  # both blocks are idle now
    assert ppool.malloc(n).ptr in (addr, other_addr)
    assert pinned_memory.alloc_pinned_memory(100).size == 100
