"""The profiler and the memory hooks on a GPU: call counts, GPU times against a synced region's wall
time, transfers and sync causes, hooks on the real pool in CuPy's order, LineProfileHook lines,
the OOM message naming the largest array, managed memory, NVTX."""

from __future__ import annotations

import gc
import io
import json
import re
import time

import numpy as np
import pytest

import cuarray
from cuarray.cuda import _backend, launch, memory
from cuarray.cuda.memory_hooks import DebugPrintHook, LineProfileHook

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]


def _rand(n, seed=0):
    return cuarray.asarray(np.random.default_rng(seed).random(n, dtype=np.float32) + 0.5)


def test_each_op_appears_with_its_call_count():
    x, y = _rand(1000, 1), _rand(1000, 2)
    for f in (lambda: x + y, lambda: x.sum(), lambda: cuarray.cumsum(x), lambda: x * 2):
        f()  # compile outside the profile
    cuarray.cuda.synchronize()
    seen = []

    def counting(real, stream, config, kernel, args):  # an earlier hook: the profiler must chain it
        seen.append(kernel)
        real(stream, config, kernel, *args)

    prev = launch.set_launch_hook(counting)
    try:
        with cuarray.profile() as prof:
            for _ in range(3):
                x + y
            for _ in range(2):
                x * 2
            x.sum()
    finally:
        launch.set_launch_hook(prev)
    print(prof)
    kernels = [r for r in prof.rows() if r["kind"] == "kernel"]
    assert sum(r["calls"] for r in kernels) == len(seen) >= 6
    def calls(prefix):
        return sum(r["calls"] for r in kernels if r["name"].startswith(prefix))

    # kernel names say what they are: cuarray_<ufunc>_<input dtypes>[__layout]
    assert calls("cuarray_add_float32_float32") == 3, prof.table()
    assert calls("cuarray_multiply_float32_") == 2, prof.table()
    assert all(r["gpu_us"] > 0 for r in kernels)
    assert launch.get_launch_hook() is None


def test_gpu_times_add_up_to_the_synced_wall_time():
    # 512 MiB per float32 array: each op is ~250 us of GPU work (H200), so the loop stays
    # device-bound even when a parallel test run slows this host's launches 3-5x (at 128 MiB an
    # x2 run of 24 workers measured 69 us of GPU against 144 us of wall per op).
    n = 1 << 27
    x = _rand(n, 3)
    out = cuarray.empty_like(x)
    cuarray.multiply(x, 2.0, out=out)
    cuarray.cuda.synchronize()
    t0 = time.perf_counter()
    with cuarray.profile() as prof:
        for _ in range(100):
            cuarray.multiply(x, 2.0, out=out)
    wall_us = (time.perf_counter() - t0) * 1e6
    gpu_us = prof.summary["gpu_us"]
    print(prof.table(limit=5), "\nwall {:.0f} us, GPU {:.0f} us".format(wall_us, gpu_us))
    assert prof.summary["kernels"] == 100
    assert abs(gpu_us - wall_us) <= 0.10 * wall_us, (gpu_us, wall_us)


def test_transfers_and_sync_causes():
    host = np.random.default_rng(4).random(1 << 16)
    with cuarray.profile() as prof:
        a = cuarray.asarray(host)
        b = (a * 3).get()
        v = a.sum().item()
    np.testing.assert_allclose(b, host * 3)
    assert v == pytest.approx(host.sum())
    rows = {r["name"]: r for r in prof.rows()}
    htod = [r for n, r in rows.items() if n.startswith("memcpy HtoD")]
    dtoh = [r for n, r in rows.items() if n.startswith("memcpy DtoH")]
    assert sum(r["bytes"] for r in htod) == host.nbytes and sum(r["bytes"] for r in dtoh) >= host.nbytes + 8
    assert all(r["gbps"] > 0 for r in htod + dtoh)
    syncs = [n for n in rows if n.startswith("synchronize")]
    assert "synchronize (get)" in syncs and "synchronize (item)" in syncs, syncs
    trace = prof.to_json()
    assert json.loads(trace)["summary"]["transfers"] >= 2


def test_profile_overhead_per_op_when_on():
    a, b = _rand(16, 5), _rand(16, 6)
    for _ in range(200):
        a + b
    cuarray.cuda.synchronize()

    def run():
        t = time.perf_counter()
        for _ in range(2000):
            a + b
        cuarray.cuda.synchronize()
        return (time.perf_counter() - t) / 2000 * 1e6

    # The three modes alternate, each keeping its best round: under a parallel test run the host's
    # load moves from second to second (one sequential run measured host-only at +9 us; with 5
    # rounds a 30-worker run failed the first guard once and passed alone, so 9 rounds, same guards).
    off = on = host_only = float("inf")
    for _ in range(9):
        off = min(off, run())
        with cuarray.profile():
            on = min(on, run())
        with cuarray.profile(gpu_time=False):
            host_only = min(host_only, run())
    print("ew-small per op: off {:.2f} us, events {:.2f} us (+{:.2f}), host only {:.2f} us (+{:.2f})".format(
        off, on, on - off, host_only, host_only - off))
    # the bench 'profiler' case reports these; here only gross regressions fail. The host-only
    # mode's few microseconds are counted, not timed (the next test): under a 30-worker run the
    # host's load moved them past any guard that a quiet host would still hold it to.
    assert on - off < 20.0


def test_profile_host_only_mode_adds_only_its_record():
    """The host-only mode's work per launch beside any launch hook's: two clock reads and the
    record's append (Python calls, which a loaded host's timing hides; a timed guard of this
    failed under a 30-worker run)."""
    from cuarray.testing.fake_device import python_calls

    a, b = _rand(16, 5), _rand(16, 6)
    a + b
    cuarray.cuda.synchronize()
    off = python_calls(lambda: a + b)
    prev = launch.set_launch_hook(lambda raw, stream, config, kernel, args: raw(stream, config, kernel, *args))
    try:
        a + b
        bare = python_calls(lambda: a + b)
    finally:
        launch.set_launch_hook(prev)
    with cuarray.profile(gpu_time=False):
        a + b
        host_only = python_calls(lambda: a + b)
    print("a + b: {} Python calls off, {} under a bare launch hook, {} host-only".format(off, bare, host_only))
    assert host_only - bare <= 3


class Order(cuarray.cuda.MemoryHook):
    name = "Order"

    def __init__(self):
        self.log = []

    def malloc_preprocess(self, **kw):
        self.log.append(("malloc_pre", kw["size"]))

    def alloc_preprocess(self, **kw):
        self.log.append(("alloc_pre", kw["mem_size"]))

    def alloc_postprocess(self, **kw):
        self.log.append(("alloc_post", kw["mem_ptr"] != 0))

    def malloc_postprocess(self, **kw):
        self.log.append(("malloc_post", kw["mem_size"], kw["mem_ptr"]))

    def free_preprocess(self, **kw):
        self.log.append(("free_pre", kw["mem_ptr"]))

    def free_postprocess(self, **kw):
        self.log.append(("free_post", kw["mem_ptr"]))


def test_hooks_fire_in_cupy_order_on_the_default_pool():
    gc.collect()
    cuarray.get_default_memory_pool().free_all_blocks()
    hook = Order()
    with hook:
        a = cuarray.empty(3000, np.float32)  # 12000 bytes -> 12288
        ptr = a.data.ptr
        del a
    log = hook.log
    assert log[0] == ("malloc_pre", 12000)
    names = [e[0] for e in log]
    assert names[-3:] == ["malloc_post", "free_pre", "free_post"]
    assert names[1:-3] in ([], ["alloc_pre", "alloc_post"])  # a miss only if nothing was cached
    assert log[-3][1:] == (12288, ptr) and log[-2][1] == log[-1][1] == ptr


def test_debug_print_hook_on_gpu():
    out = io.StringIO()
    with DebugPrintHook(out):
        a = cuarray.arange(10)
        del a
    recs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["hook"] for r in recs if r["hook"] != "alloc"][:2] == ["malloc", "free"]


def _make(n):
    return cuarray.zeros(n, np.float64)


def test_line_profile_hook_names_the_lines():
    hook = LineProfileHook()
    with hook:
        a = _make(1000)  # 8000 bytes -> 8192 used
        b = cuarray.ones(64, np.float32)  # 256 -> 512
    report = hook.report()
    print(report)
    lines = report.splitlines()
    made = [ln for ln in lines if ln.strip().split(" (")[0].endswith(":_make")]
    mine = [ln for ln in lines if ln.strip().split(" (")[0].endswith(":test_line_profile_hook_names_the_lines")]
    assert len(made) == 1 and len(mine) == 2  # the line calling _make, and the line calling ones
    indent = len(made[0]) - len(made[0].lstrip())
    assert indent == len(mine[0]) - len(mine[0].lstrip()) + 2  # _make's line sits below its caller's

    def used(ln):
        num, unit = re.fullmatch(r"([\d.]+)([A-Z]+)", ln.rsplit(" (", 1)[1].split(",")[0]).groups()
        return float(num) * {"B": 1, "KB": 1024, "MB": 1 << 20}[unit]

    assert used(made[0]) >= 8192 and used(made[0]) == used(mine[0])
    assert 512 <= used(mine[1]) < 8192  # ones(64, float32): 256 bytes, rounded to 512 (plus any scalar)
    del a, b


def test_oom_message_names_the_largest_array():
    pool = cuarray.get_default_memory_pool()
    gc.collect()
    pool.free_all_blocks()
    cuarray.cuda.enable_memory_snapshot()
    try:
        big = cuarray.empty(64 << 20, np.uint8)  # the largest live array, made on this line
        small = cuarray.empty(1000, np.uint8)
        snap = cuarray.cuda.memory_snapshot()
        assert snap[0]["size"] == 64 << 20 and "test_oom_message_names_the_largest_array" in snap[0]["where"]
        pool.set_limit(size=pool.total_bytes() + (8 << 20))
        with pytest.raises(cuarray.cuda.OutOfMemoryError) as info:
            cuarray.empty(32 << 20, np.uint8)
        msg = str(info.value)
        print(msg)
        assert "largest live allocations" in msg and "device:" in msg and "free of" in msg
        first = msg.split("largest live allocations")[1].splitlines()[1]
        assert "(64.00 MiB)" in first and "test_profiler_gpu.py" in first
        del big, small
    finally:
        pool.set_limit()
        cuarray.cuda.enable_memory_snapshot(False)


def test_managed_memory_roundtrip_and_pool():
    p = cuarray.cuda.malloc_managed(1 << 20)
    host = np.random.default_rng(7).integers(0, 256, 1 << 20, dtype=np.uint8)
    out = np.empty_like(host)
    p.copy_from_host(host.ctypes.data, host.nbytes)
    p.mem.prefetch()
    p.copy_to_host(out.ctypes.data, out.nbytes)
    np.testing.assert_array_equal(out, host)
    managed_pool = memory.MemoryPool(cuarray.cuda.malloc_managed)
    prev = memory.get_allocator()
    memory.set_allocator(managed_pool.malloc)
    try:
        x = cuarray.asarray(np.arange(1000, dtype=np.float32))
        np.testing.assert_array_equal((x * 2).get(), np.arange(1000, dtype=np.float32) * 2)
        assert managed_pool.used_bytes() > 0
        del x
    finally:
        memory.set_allocator(prev)


def test_nvtx_ranges_or_a_clear_error():
    from cuarray.cuda import nvtx

    a = _rand(16, 8)
    if not nvtx.available():
        with pytest.raises(ImportError, match="pip install nvtx"):
            cuarray.profile(nvtx=True).__enter__()
        return
    with cuarray.profile(nvtx=True) as prof:
        a + a
    assert prof.summary["kernels"] == 1
    with cuarray.profiler.time_range("a block"):
        a * 2
    assert launch.get_launch_hook() is None


def test_compiles_and_pool_misses_have_rows():
    salt = time.time_ns() % 1_000_003  # a kernel no cache has seen
    k = cuarray.ElementwiseKernel("float32 x", "float32 y", "y = x * 2 + {}".format(salt), "cuarray_test_salted")
    x = _rand(100, 9)
    with cuarray.profile() as prof:
        y = k(x)
        big = cuarray.empty(300 << 20, np.uint8)  # 300 MiB: more than the pool caches here
    rows = {r["name"]: r for r in prof.rows()}
    compiles = [n for n in rows if n.startswith("compile ") and "cuarray_test_salted" in n]
    assert compiles and compiles[0].endswith("[nvrtc]"), list(rows)
    assert rows["cuMemAlloc (pool miss)"]["bytes"] >= 300 << 20
    np.testing.assert_allclose(y.get(), x.get() * 2 + salt, rtol=1e-6)
    del big


def test_cublas_calls_have_rows():
    a = cuarray.asarray(np.random.default_rng(10).random((256, 256), dtype=np.float32))
    v = cuarray.asarray(np.random.default_rng(11).random(256, dtype=np.float32))
    a @ a, a @ v  # handles and plans made outside the profile
    with cuarray.profile() as prof:
        c = a @ a
        d = cuarray.dot(a, v)
    rows = {r["name"]: r for r in prof.rows()}
    assert rows["cublas gemm (float32)"]["calls"] == 1 and rows["cublas gemm (float32)"]["gpu_us"] > 0, list(rows)
    assert sum(r["calls"] for n, r in rows.items() if n.startswith("cublas ")) == 2, list(rows)  # dot: gemv
    np.testing.assert_allclose(c.get(), a.get() @ a.get(), rtol=1e-4)
    np.testing.assert_allclose(d.get(), a.get() @ v.get(), rtol=1e-4)
