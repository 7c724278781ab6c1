"""Memory hooks over the pool's fake backing allocator (no GPU): CuPy's callback order and
arguments, the plain entry points restored when the last hook goes, DebugPrintHook's lines,
LineProfileHook's tree, the memory snapshot and the OOM message that uses it."""

from __future__ import annotations

import io
import json

import pytest

from cuarray.cuda import memory, memory_hook
from cuarray.cuda import _snapshot
from cuarray.cuda.memory import MemoryPool, OutOfMemoryError
from cuarray.cuda.memory_hooks import DebugPrintHook, LineProfileHook

from cuarray.testing.fake_device import FakeBacking  # tests/ is on sys.path (tests/conftest.py)
from test_memory import KiB, MiB, A  # tests/cuda is on sys.path (pytest rootdir mode)

pytestmark = pytest.mark.usefixtures("pool_impl")  # both bookkeeping implementations (conftest.py)


class Recording(memory_hook.MemoryHook):
    name = "Recording"

    def __init__(self, log=None, tag=""):
        self.log = [] if log is None else log
        self.tag = tag

    def _add(self, what, kw):
        self.log.append((self.tag + what, kw))

    def alloc_preprocess(self, **kw):
        self._add("alloc_pre", kw)

    def alloc_postprocess(self, **kw):
        self._add("alloc_post", kw)

    def malloc_preprocess(self, **kw):
        self._add("malloc_pre", kw)

    def malloc_postprocess(self, **kw):
        self._add("malloc_post", kw)

    def free_preprocess(self, **kw):
        self._add("free_pre", kw)

    def free_postprocess(self, **kw):
        self._add("free_post", kw)


@pytest.fixture
def fake():
    return FakeBacking()


@pytest.fixture
def pool(fake):
    p = MemoryPool(backing=fake)
    prev = memory.get_allocator()
    memory.set_allocator(p.malloc)
    yield p
    memory.set_allocator(prev)


def _plain_state():
    return (memory._hooks, memory._pool_bins._free_hook, memory._allocator is memory._fast_form(memory._chosen))


def test_cupy_order_and_arguments_on_a_miss_then_a_hit(pool, fake):
    hook = Recording()
    with hook:
        p = memory.alloc(1000)  # a miss: the pool asks the backing for a segment
        ptr, pmem = p.ptr, id(p.mem)
        del p
        q = pool.malloc(700, stream_ptr=memory._get_current_stream().ptr)  # a hit: no alloc hooks
        del q
    names = [w for w, _ in hook.log]
    assert names == ["malloc_pre", "alloc_pre", "alloc_post", "malloc_post", "free_pre", "free_post",
                     "malloc_pre", "malloc_post", "free_pre", "free_post"]
    kw = [k for _, k in hook.log]
    assert kw[0] == {"device_id": 0, "size": 1000, "mem_size": 1024}
    assert kw[1] == {"device_id": 0, "mem_size": 2 * MiB}
    assert kw[2] == {"device_id": 0, "mem_size": 2 * MiB, "mem_ptr": fake.next - 2 * MiB - fake.gap}
    assert kw[3] == {"device_id": 0, "size": 1000, "mem_size": 1024, "mem_ptr": ptr, "pmem_id": pmem}
    assert kw[4] == kw[5] == {"device_id": 0, "mem_size": 1024, "mem_ptr": ptr, "pmem_id": pmem}
    assert kw[6] == {"device_id": 0, "size": 700, "mem_size": 1024}


def test_hooks_run_in_registration_order_and_names_are_unique(pool):
    log = []
    first, second = Recording(log, "1:"), Recording(log, "2:")
    second.name = "Second"
    with first, second:
        p = memory.alloc(10)
        del p
    assert [w for w, _ in log if "malloc" in w] == ["1:malloc_pre", "2:malloc_pre", "1:malloc_post", "2:malloc_post"]
    with first:
        with pytest.raises(KeyError, match="already exists"):
            Recording().__enter__()


def test_the_hook_point_is_filled_only_while_a_hook_is_active(pool):
    assert _plain_state() == (None, None, True)
    with Recording():
        hooks, free, plain_alloc = _plain_state()
        assert hooks is not None and free == hooks.free and plain_alloc  # nothing wraps `alloc`
    assert _plain_state() == (None, None, True)
    assert memory.get_allocator() == pool.malloc  # get_allocator says what set_allocator chose


def test_a_hook_that_allocates_is_hooked_and_the_pool_is_not_entered_twice(pool):
    log = []

    class Nested(Recording):
        def malloc_preprocess(self, **kw):
            super().malloc_preprocess(**kw)
            if kw["size"] == 100:
                log.append(memory.alloc(50))  # an allocation made by a hook: hooked too

    hook = Nested()
    with hook:
        p = memory.alloc(100)
    sizes = [k["size"] for w, k in hook.log if w == "malloc_post"]
    assert sizes == [50, 100]
    assert [k["size"] for w, k in hook.log if w == "malloc_pre"] == [100, 50]
    del p, log


def test_set_allocator_while_hooked_still_hooks(pool, fake):
    other = MemoryPool(backing=fake)
    hook = Recording()
    with hook:
        memory.set_allocator(other.malloc)
        p = memory.alloc(100)
        assert any(p.mem.bins is b for b in other._devices[0].all_bins())
        memory.set_allocator(lambda n: other.malloc(n))  # a plain function: malloc hooks only
        q = memory.alloc(100)
    memory.set_allocator(pool.malloc)
    assert [w for w, _ in hook.log].count("malloc_post") == 2
    del p, q


def test_debug_print_hook_lines(pool):
    out = io.StringIO()
    with DebugPrintHook(out):
        p = memory.alloc(24)
        del p
    recs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["hook"] for r in recs] == ["alloc", "malloc", "free"]
    assert recs[1]["size"] == 24 and recs[1]["mem_size"] == 512
    assert recs[1]["pmem_id"] == recs[2]["pmem_id"] and recs[1]["pmem_id"].startswith("0x")


def _allocate_here():
    return memory.alloc(3 * KiB)


def test_line_profile_hook_attributes_bytes_to_lines(pool):
    hook = LineProfileHook()
    with hook:
        a = _allocate_here()
        b = memory.alloc(KiB)
    report = hook.report()
    lines = report.splitlines()
    assert lines[0] == "_root (4.00KB, 2.00MB)"  # 3 KiB + 1 KiB used, one 2 MiB segment acquired
    helper = [ln for ln in lines if ln.strip().split(" (")[0].endswith(":_allocate_here")]
    assert len(helper) == 1 and "(3.00KB, 2.00MB)" in helper[0]
    assert helper[0].startswith("    ")  # below the test function's line
    mine = [ln for ln in lines if "test_line_profile_hook_attributes_bytes_to_lines" in ln]
    assert any("(1.00KB, 0.00B)" in ln for ln in mine)
    assert "cuarray/cuda" not in report  # cuarray's own frames are left out
    del a, b


def test_memory_snapshot_and_oom_message(fake):
    fake.capacity = 10 * MiB
    pool = MemoryPool(backing=fake)
    prev = memory.get_allocator()
    memory.set_allocator(pool.malloc)
    _snapshot.enable_memory_snapshot()
    try:
        big = memory.alloc(6 * MiB)  # the largest: named in the OOM text
        small = memory.alloc(KiB)
        snap = _snapshot.memory_snapshot()
        assert [r["size"] for r in snap] == [6 * MiB, KiB]
        assert "test_memory_hooks.py" in snap[0]["where"] and "test_memory_snapshot_and_oom_message" in snap[0]["where"]
        with pytest.raises(OutOfMemoryError) as info:
            memory.alloc(6 * MiB)
        msg = str(info.value)
        assert "live (in arrays): 6,292,480 bytes" in msg
        assert "largest live allocations" in msg
        first = msg.split("largest live allocations")[1].splitlines()[1]
        assert "6,291,456 bytes (6.00 MiB)" in first and "test_memory_hooks.py" in first
        del small
        assert [r["size"] for r in _snapshot.memory_snapshot()] == [6 * MiB]
        del big
    finally:
        _snapshot.enable_memory_snapshot(False)
        memory.set_allocator(prev)
    with pytest.raises(RuntimeError, match="enable_memory_snapshot"):
        _snapshot.memory_snapshot()
    assert memory._allocator is memory._fast_form(memory._chosen)


def test_oom_without_snapshot_keeps_its_first_sentence(fake):
    fake.capacity = 4 * MiB
    pool = MemoryPool(backing=fake)
    keep = pool.malloc(3 * MiB, stream_ptr=A)
    with pytest.raises(OutOfMemoryError) as info:
        pool.malloc(3 * MiB, stream_ptr=A)
    msg = str(info.value)
    assert msg.startswith("Out of memory allocating 3,145,728 bytes (3.00 MiB) on device 0: the memory pool "
                          "reserves 3,145,728 bytes (3.00 MiB) and it has no limit")
    assert "cached (free in the pool): 0 bytes" in msg and "largest" not in msg
    assert "device:" not in msg  # a fake backing has no device to ask
    del keep


def test_pinned_pool_used_and_free_bytes():
    from cuarray.cuda import pinned_memory

    from cuarray.testing.fake_device import FakePinned

    fp = FakePinned()
    pool = pinned_memory.PinnedMemoryPool(backing=fp)
    p = pool.malloc(1000)
    assert (pool.used_bytes(), pool.free_bytes(), pool.total_bytes()) == (1024, 0, 1024)
    del p
    assert (pool.used_bytes(), pool.free_bytes()) == (1024, 0)  # released, its copies not known done
    for ev in fp.events:
        ev["done"] = True
    assert (pool.used_bytes(), pool.free_bytes(), pool.total_bytes()) == (0, 1024, 1024)


def test_hooks_are_per_thread(pool):
    import threading

    hook = Recording()
    done = []

    def other():
        p = memory.alloc(100)  # another thread: not seen by this thread's hook
        done.append(p.ptr)
        del p

    with hook:
        t = threading.Thread(target=other)
        t.start()
        t.join()
        q = memory.alloc(200)
    assert done and [k["size"] for w, k in hook.log if w == "malloc_pre"] == [200]
    del q
