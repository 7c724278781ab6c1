"""Allocation paths compared in one process (run on the GPU machine): cuarray's MemoryPool, the
MallocAsyncMemoryPool (cuda.core Buffers), the driver's stream-ordered pool called through
cuda.bindings directly (cuMemAllocFromPoolAsync / cuMemFreeAsync with pre-built handles, each
block owned by a small object whose __del__ frees it, as a pool would hand out), and CuPy.
Rows: one malloc+free of 8 MB repeated (us), and the pool-churn sequence (ms for 10000 allocations
of 1 KiB-4 MiB, <= 65 live; cuarray/bench/cases/pool.py)."""

from __future__ import annotations

import functools
import time

import numpy as np


def per_call(fn, reps=20000):
    for _ in range(200):
        fn()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, time.perf_counter() - t0)
    return best / reps * 1e6


def churn_ms(alloc, sync):
    from cuarray.bench.cases.pool import churn, churn_sizes

    sizes = churn_sizes(10_000)
    out = []
    for _ in range(5):
        sync()
        t0 = time.perf_counter()
        churn(alloc, sizes)
        sync()
        out.append((time.perf_counter() - t0) * 1e3)
    return min(out), sorted(out)[len(out) // 2]


def main():
    import cuarray
    from cuarray.cuda import memory
    from cuarray.cuda import _backend

    dev = cuarray.cuda.Device()
    sync = dev.synchronize
    rows = []
    default = memory.get_default_memory_pool()

    for name in ("MemoryPool", "MallocAsyncMemoryPool"):
        pool = getattr(memory, name)()
        memory.set_allocator(pool.malloc)
        rows.append((name + " malloc+free 8MB", per_call(lambda: pool.malloc(8_000_000)), "us"))
        rows.append((name + " empty(8MB)+free", per_call(lambda: cuarray.empty(1_000_000, np.int64)), "us"))
        rows.append((name + " churn malloc()", churn_ms(pool.malloc, sync), "ms"))
        rows.append((name + " churn empty()", churn_ms(functools.partial(cuarray.empty, dtype=np.uint8), sync), "ms"))
        memory.set_allocator(default.malloc)
        pool.free_all_blocks()

    # The driver's pool through cuda.bindings, no cuda.core objects on the path.
    drv = _backend.driver()
    cs = cuarray.cuda.get_current_stream()
    hstream = drv.CUstream(cs.ptr)
    props = drv.CUmemPoolProps()
    props.allocType = drv.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED
    props.location.type = drv.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
    props.location.id = 0
    err, mpool = drv.cuMemPoolCreate(props)
    assert err == 0, err
    attr = drv.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
    drv.cuMemPoolSetAttribute(mpool, attr, drv.cuuint64_t(2**64 - 1))
    alloc_async = drv.cuMemAllocFromPoolAsync
    free_async = drv.cuMemFreeAsync

    def raw_pair():
        err, p = alloc_async(8_000_000, mpool, hstream)
        free_async(p, hstream)

    rows.append(("bindings alloc+free pair 8MB", per_call(raw_pair), "us"))

    class _Mem:
        __slots__ = ("ptr", "size", "device_id", "handle")

        def __del__(self):
            free_async(self.handle, hstream)

    BasePtr = memory.MemoryPointer
    new = object.__new__

    def bind_malloc(size):
        err, h = alloc_async(size, mpool, hstream)
        if err:
            raise MemoryError(err)
        m = new(_Mem)
        m.handle = h
        m.ptr = int(h)
        m.size = size
        m.device_id = 0
        p = new(BasePtr)
        p.mem = m
        p.ptr = m.ptr
        p.device_id = 0
        return p

    rows.append(("bindings malloc+free 8MB (objects)", per_call(lambda: bind_malloc(8_000_000)), "us"))
    rows.append(("bindings churn malloc()", churn_ms(bind_malloc, sync), "ms"))
    memory.set_allocator(bind_malloc)
    rows.append(("bindings empty(8MB)+free", per_call(lambda: cuarray.empty(1_000_000, np.int64)), "us"))
    rows.append(("bindings churn empty()", churn_ms(functools.partial(cuarray.empty, dtype=np.uint8), sync), "ms"))
    memory.set_allocator(default.malloc)
    sync()
    err, = drv.cuMemPoolTrimTo(mpool, 0)
    try:
        import cupy

        cpool = cupy.get_default_memory_pool()
        csync = cupy.cuda.Device().synchronize
        rows.append(("cupy malloc+free 8MB", per_call(lambda: cpool.malloc(8_000_000)), "us"))
        rows.append(("cupy empty(8MB)+free", per_call(lambda: cupy.empty(1_000_000, np.int64)), "us"))
        rows.append(("cupy churn empty()", churn_ms(functools.partial(cupy.empty, dtype=np.uint8), csync), "ms"))
    except ImportError:
        pass
    for name, val, unit in rows:
        if isinstance(val, tuple):
            print("{:40s} best {:8.2f} median {:8.2f} {}".format(name, val[0], val[1], unit))
        else:
            print("{:40s} {:8.3f} {}".format(name, val, unit))


if __name__ == "__main__":
    main()
