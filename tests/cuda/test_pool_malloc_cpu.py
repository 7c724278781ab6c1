"""`MemoryPool.malloc`'s common case in C (`_poolcore.malloc_function`, cuda/_native/pool_malloc.c)
against the method itself: the same blocks for the same sequence, the method's own answer wherever
it decides (sizes that are not positive ints, the per-thread default stream, a device or stream
not seen yet, memory hooks), and the thread's own device and stream (no GPU: fake backings)."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from cuarray.cuda import device as device_mod
from cuarray.cuda import memory
from cuarray.cuda import stream as stream_mod
from cuarray.cuda.memory import MemoryPool

from pool_core import native_core  # tests/cuda is on sys.path (pytest rootdir mode)
from cuarray.testing.fake_device import FakeBacking
from test_memory import KiB, MiB, A, B

core = native_core()
pytestmark = pytest.mark.skipif(core is None, reason="the C core of the pool is not built here")


def _pool():
    saved = memory._native
    memory._native = core
    try:
        return MemoryPool(backing=FakeBacking())
    finally:
        memory._native = saved


class Counting:
    """The pool's method, counting the calls the C form hands it."""

    def __init__(self, pool):
        self.pool, self.sizes = pool, []

    def __call__(self, size):
        self.sizes.append(size)
        return self.pool.malloc(size)


def _streams(monkeypatch, table):
    monkeypatch.setattr(stream_mod._tls, "streams", table)


def _describe(p):
    return type(p), p.ptr, p.device_id, p.mem.size, type(p.mem)


@pytest.mark.parametrize("seed", range(3))
def test_the_same_blocks_as_the_method(seed, monkeypatch):
    """Two pools on identical fake backings, one allocated through the C form and one through the
    method, with the same sizes (both size classes, 512-byte edges), frees and current streams:
    every pointer is the same, and the C form took its own path for all but the first allocation
    of each (device, stream, size class)."""
    rng = random.Random(seed)
    c_pool, py_pool = _pool(), _pool()
    method = Counting(c_pool)
    fast = core.malloc_function(c_pool._tables, method)
    live_c, live_py = [], []
    edges = [1, 511, 512, 513, 4 * KiB, MiB - 1, MiB, 3 * MiB]
    keys = set()
    for step in range(400):
        cur = rng.choice([None, A, B])
        _streams(monkeypatch, None if cur is None else {0: stream_mod.ExternalStream(cur)})
        size = rng.choice(edges) if rng.random() < 0.4 else rng.randrange(1, 2 * MiB)
        keys.add((cur or 0, size + 511 & -512 < memory.SMALL_LIMIT))
        pc, pp = fast(size), py_pool.malloc(size)
        assert _describe(pc) == _describe(pp), step
        live_c.append(pc)
        live_py.append(pp)
        while live_c and rng.random() < 0.45:
            i = rng.randrange(len(live_c))
            del live_c[i], live_py[i]
    assert len(method.sizes) == len(keys)  # (each new bins: made by the method, then found in C)


def test_the_method_answers_where_it_decides(monkeypatch):
    pool = _pool()
    method = Counting(pool)
    fast = core.malloc_function(pool._tables, method)
    fast(KiB)  # (the bins of the default stream now exist)
    del method.sizes[:]
    p = fast(KiB)
    assert method.sizes == [] and p.ptr
    for size in (0, -5, np.int64(KiB), 2 ** 70, True):
        try:
            fast(size)
        except Exception as exc:
            with pytest.raises(type(exc)):
                pool.malloc(size)
    assert method.sizes == [0, -5, np.int64(KiB), 2 ** 70, True]
    del method.sizes[:]
    _streams(monkeypatch, {0: stream_mod.Stream.ptds})  # (handle 2: keyed per thread by the method)
    fast(KiB)
    fast(KiB)
    assert method.sizes == [KiB, KiB]

    class Table(dict):  # (a stream table of another class: the method reads it)
        pass

    _streams(monkeypatch, Table())
    fast(KiB)
    assert method.sizes == [KiB] * 3
    _streams(monkeypatch, {0: stream_mod.ExternalStream(A)})
    monkeypatch.setattr(stream_mod._tls.streams[0], "ptr", -1)  # (a handle that is no u64: the method's)
    assert fast(KiB).ptr and fast(KiB).ptr  # (the second finds the bins the first made: no error left set)
    assert method.sizes == [KiB] * 5
    del method.sizes[-2:]
    _streams(monkeypatch, None)
    monkeypatch.setattr(device_mod._tls, "device_id", 1)  # (a device not seen yet)
    q = fast(KiB)
    assert method.sizes == [KiB] * 4 and q.device_id == 1
    fast(KiB)
    assert method.sizes == [KiB] * 4  # (then found in C)


def test_each_thread_allocates_on_its_own_stream(monkeypatch):
    """Threads that set their own stream tables allocate on their streams, a thread with none on the
    default stream, and the tables stay theirs. This thread's table is a fresh one for the test
    (a GPU test earlier in the worker may have made it a dict: the conftest's stream reset), so
    the last check does not depend on what ran before."""
    _streams(monkeypatch, None)
    pool = _pool()
    fast = core.malloc_function(pool._tables, pool.malloc)
    got = {}

    def run(name, handle):
        if handle is not None:
            stream_mod._tls.streams = {0: stream_mod.ExternalStream(handle)}
        p = fast(4 * KiB)
        got[name] = (p, p.mem.bins.stream_ptr)

    threads = [threading.Thread(target=run, args=(n, h)) for n, h in (("a", A), ("b", B), ("default", None))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {k: v[1] for k, v in got.items()} == {"a": A, "b": B, "default": 0}
    assert stream_mod._tls.streams is None  # (this thread's own table untouched)


def test_alloc_calls_the_c_form_only_without_hooks(monkeypatch):
    pool = memory.get_default_memory_pool()
    if pool._native is None:
        pytest.skip("the default pool is the Python one here")
    form = memory._fast_form(pool.malloc)
    assert form is not pool.malloc and form is memory._fast_form(pool.malloc)  # (one C form an allocator)
    assert memory._fast_form(memory.malloc) is memory.malloc
    monkeypatch.setattr(memory, "_hooks", object())
    m = pool.malloc
    assert memory._fast_form(m) is m


def test_a_pool_set_aside_is_not_kept_alive():
    """`set_allocator(pool.malloc)`, then another allocator: nothing of memory.py holds the first
    pool any more (its C form went with it), so its segments can go back to the driver."""
    import gc
    import weakref

    pool = _pool()
    prev = memory.get_allocator()
    memory.set_allocator(pool.malloc)
    try:
        assert type(memory._allocator).__name__ == "builtin_function_or_method"
        memory.alloc(KiB)
        memory.set_allocator(memory.malloc)  # (no pool: plain cuMemAlloc, not called here)
        gone = weakref.ref(pool)
        del pool
        gc.collect()
        assert gone() is None
    finally:
        memory.set_allocator(prev)
