"""Threads and processes without a device (docs/runtime.md, "Threads and processes").

- Context bookkeeping over a fake primary context (no cuda.core): whichever thread initialised the device, a thread's
  first launch (and its first after another device's context was made current) makes the current
  device's context current first, once, not on every launch.
- The per-thread default stream keys the memory pool per thread.
- The pool under 16 threads allocating and freeing (also across threads), both implementations.
- One NVRTC compile per kernel when threads ask for it at once.
- A child forked after the parent used CUDA gets ForkedProcessError at its first device use.
"""

from __future__ import annotations

import bisect
import os
import queue
import random
import threading

import pytest

from cuarray.cuda import _backend, compiler, launch, memory
from cuarray.cuda import device as _device
from cuarray.cuda import stream as _stream
from cuarray.cuda.memory import MemoryPool

from test_memory import FakeBacking, check_invariants  # tests/cuda/test_memory.py
from cuarray.testing.fake_device import fake_core


def _in_thread(fn):
    """Run `fn` in a new thread; return its result (re-raising its exception)."""
    out = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


@pytest.fixture
def fake_driver(monkeypatch):
    """The primary context (`device._Context`) replaced by one that records (thread, device) at
    each set_current(); the driver counts as initialised with two devices. Returns the record."""
    events = []

    class RecordingContext:  # the primary context only: set_current recorded
        def __init__(self, i):
            self.id = i

        def set_current(self):
            events.append(("set_current", threading.get_ident(), self.id))

    monkeypatch.setattr(_device, "_Context", RecordingContext)
    monkeypatch.setattr(_backend, "core", lambda: pytest.fail("cuda.core imported by a context or a launch"))
    monkeypatch.setattr(_device, "_first_use", [False])
    monkeypatch.setattr(_device, "_check_ordinal", lambda i: None)
    monkeypatch.setattr(_device, "_seen_devices", set())
    monkeypatch.setattr(_device, "multi_device", [False])
    # This thread starts as a fresh one would (its context state is restored afterwards).
    monkeypatch.setattr(_device._tls, "made_current", None)
    monkeypatch.setattr(_device._tls, "active_context", None)
    monkeypatch.setattr(_device._tls, "device_id", 0)
    monkeypatch.setattr(_stream.Stream.null, "_cs", "legacy stream")
    return events


def _contexts(events, ident):
    return [dev for kind, t, dev in events if kind == "set_current" and t == ident]


def test_a_second_thread_makes_the_context_current_before_its_first_launch(fake_driver, monkeypatch):
    """The failure of issue #26: the main thread used the GPU, a worker's launch found no context."""
    launched = []
    monkeypatch.setattr(launch, "enqueue",
                        lambda s, cfg, k, *a: launched.append((threading.get_ident(), _device._tls.active_context)))
    monkeypatch.setattr(launch, "_configs", {(1, 128, 0): "cfg"})
    main = threading.get_ident()
    launch.launch("kernel", 1, 128, ())
    assert _contexts(fake_driver, main) == [0]

    def worker():
        launch.launch("kernel", 1, 128, ())
        launch.launch("kernel", 1, 128, ())  # the second launch: no driver call
        return threading.get_ident()

    ident = _in_thread(worker)
    assert _contexts(fake_driver, ident) == [0]
    # ...and the context was current before the launch, in the launching thread
    order = [e for e in fake_driver if e[1] == ident]
    assert order == [("set_current", ident, 0)]
    assert launched[1:] == [(ident, 0), (ident, 0)]


def test_the_prepared_fast_paths_stream_lookup_makes_the_context_current(fake_driver):
    """Prepared fast paths take `current_core_stream()` straight to the raw launch."""
    assert _stream.current_core_stream() == "legacy stream"
    ident = _in_thread(lambda: (_stream.current_core_stream(), threading.get_ident())[1])
    assert _contexts(fake_driver, ident) == [0]


def test_each_thread_has_its_own_device_and_context(fake_driver):
    def worker():
        with _device.Device(1):
            _stream.current_core_stream()
            _stream.current_core_stream()
            inner = _device.get_device_id()
        _stream.current_core_stream()
        return threading.get_ident(), inner, _device.get_device_id()

    ident, inner, after = _in_thread(worker)
    assert (inner, after) == (1, 0)
    # device 1 made current on entry; device 0's context (new in this thread) on leaving
    assert _contexts(fake_driver, ident) == [1, 0]
    assert _device.get_device_id() == 0  # the main thread never left device 0


def test_a_context_made_current_for_another_device_is_switched_back_at_the_next_launch(fake_driver):
    main = threading.get_ident()
    _stream.current_core_stream()
    _device._core_device(1)  # e.g. a property of device 1, or peer access set-up
    _stream.current_core_stream()
    _stream.current_core_stream()
    assert _contexts(fake_driver, main) == [0, 1, 0]


def test_stream_methods_make_their_devices_context_current(fake_driver, monkeypatch):
    calls = []

    class FakeDriver:
        def cuStreamQuery(self, ptr):
            calls.append(("query", threading.get_ident(), _device._tls.active_context))
            return (0,)

    monkeypatch.setattr(_backend, "driver", lambda: FakeDriver())
    ident = _in_thread(lambda: (_stream.Stream.null.done, threading.get_ident())[1])
    assert calls == [("query", ident, 0)]
    assert _contexts(fake_driver, ident) == [0]


def test_per_thread_default_stream_keys_the_pool_per_thread():
    """Stream.ptds has one handle value (2) but is another stream in each thread: a block freed by
    one thread's work must not be handed to another thread's while that work may still run."""
    pool = MemoryPool(backing=FakeBacking())

    def alloc_free():
        _stream.Stream.ptds.use()
        p = pool.malloc(4096)
        ptr = p.ptr
        del p  # freed: cached for this thread's stream only
        q = pool.malloc(4096)
        return ptr, q.ptr, _stream.ptds_pool_key()

    a_freed, a_again, key_a = _in_thread(alloc_free)
    b_first, _, key_b = _in_thread(alloc_free)
    assert a_again == a_freed  # the same thread's stream reuses its own block
    assert b_first != a_freed  # another thread's never does
    assert key_a != key_b and key_a & 0xFF == 2


@pytest.mark.usefixtures("pool_impl")
def test_pool_stays_consistent_under_16_threads():
    """10^5 allocations and frees from 16 threads (a quarter freed by another thread), on their
    own and on a shared stream: no block is handed out twice, every byte comes back."""
    backing = FakeBacking()
    pool = MemoryPool(backing=backing)
    live_lock = threading.Lock()
    live: dict = {}  # ptr -> size of every block handed out and not yet freed
    handoff: queue.SimpleQueue = queue.SimpleQueue()
    errors = []
    n_threads, per_thread = 16, 6250

    starts: list = []  # sorted keys of `live`

    def claim(p):
        ptr, size = p.ptr, p.mem.size
        with live_lock:
            i = bisect.bisect_left(starts, ptr)
            if (i < len(starts) and starts[i] < ptr + size) or (i and starts[i - 1] + live[starts[i - 1]] > ptr):
                errors.append("block {:#x} overlaps a live block".format(ptr))
            starts.insert(i, ptr)
            live[ptr] = size

    def release(p):
        with live_lock:
            del live[p.ptr]
            del starts[bisect.bisect_left(starts, p.ptr)]

    def worker(seed):
        rng = random.Random(seed)
        stream_ptr = 0 if seed % 2 else 0x10000 * (seed + 1)  # half on the shared stream
        mine = []
        for _ in range(per_thread):
            if mine and rng.random() < 0.45:
                p = mine.pop(rng.randrange(len(mine)))
                release(p)
                if rng.random() < 0.25:
                    handoff.put(p)  # freed by whichever thread takes it
                    continue
                del p
            else:
                p = pool.malloc(rng.choice((512, 1000, 4096, 70000, 1 << 20, rng.randrange(1, 3 << 20))),
                                stream_ptr=stream_ptr)
                claim(p)
                mine.append(p)
            while True:
                try:
                    handoff.get_nowait()
                except queue.Empty:
                    break
        for p in mine:
            release(p)
        mine.clear()

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    while not handoff.empty():
        handoff.get()
    assert not errors, errors[:3]
    assert pool.used_bytes() == 0
    assert pool.total_bytes() == backing.reserved
    if memory._native is None:
        check_invariants(pool, dev=0)
    pool.free_all_blocks()
    assert backing.reserved == 0 and pool.total_bytes() == 0


def test_threads_compiling_the_same_kernel_compile_it_once(monkeypatch):
    built = []
    gate = threading.Event()

    def slow_build(source, arch, *a, **kw):
        gate.wait(5)  # every thread is inside compile_module before the first build ends
        built.append(source)
        return b"cubin", {}

    monkeypatch.setattr(compiler, "_load_or_compile_cubin", slow_build)
    monkeypatch.setattr(compiler, "Module", lambda cubin, mapping, name="": object())
    src = "extern \"C\" __global__ void k_threads_{}() {{}}".format(os.getpid())
    mods = []
    threads = [threading.Thread(target=lambda: mods.append(compiler.compile_module(src, arch="sm_90")))
               for _ in range(8)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert len(built) == 1 and len(mods) == 8 and all(m is mods[0] for m in mods)
    assert compiler._compiling == {}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_after_cuda_was_used_gets_a_clear_error(monkeypatch):
    monkeypatch.setattr(_backend, "_initialized", True)  # the parent "used the GPU"
    monkeypatch.setattr(_device._tls, "made_current", {0: object()})
    monkeypatch.setattr(_device._tls, "active_context", 0)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report what the first device use raises, then leave at once
        try:
            try:
                _stream.current_core_stream()
                msg = "no error"
            except _backend.ForkedProcessError as exc:
                msg = "ForkedProcessError: " + str(exc)
            except BaseException as exc:  # noqa: BLE001
                msg = "{}: {}".format(type(exc).__name__, exc)
            msg += " | available={}".format(_backend.is_available())
            os.write(w, msg.encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        got = f.read()
    os.waitpid(pid, 0)
    assert got.startswith("ForkedProcessError:"), got
    assert "'spawn'" in got and got.endswith("available=False")


def test_no_fork_error_when_the_parent_never_initialised_cuda(monkeypatch):
    monkeypatch.setattr(_backend, "_initialized", False)
    monkeypatch.setattr(_backend, "_fork_error", None)
    _backend._after_fork_in_child()
    assert _backend._fork_error is None


def test_a_threads_own_allocator_serves_that_thread_only(monkeypatch):
    """A CUDA graph capture allocates from its private pool in the capturing thread only."""
    from cuarray.cuda import _sync_hooks

    base = memory._allocator
    calls = []
    own = lambda size: calls.append(("own", threading.get_ident(), size))  # noqa: E731
    prev = memory.use_thread_allocator(own)
    try:
        assert memory._allocator is not base  # the per-thread look-up, only while a thread has one
        memory._allocator(512)
        assert memory.get_allocator() is own
        assert _in_thread(memory.get_allocator) is memory._chosen
        _sync_hooks.begin_capture(0x1234)
        with pytest.raises(_sync_hooks.StreamCaptureError):
            _sync_hooks.check_not_capturing()
        _in_thread(_sync_hooks.check_not_capturing)  # another thread may synchronise meanwhile
    finally:
        _sync_hooks.end_capture(0x1234)
        memory.use_thread_allocator(prev)
    assert calls == [("own", threading.get_ident(), 512)]
    assert memory._allocator is base and memory._threads_with_own == [0]
    _sync_hooks.check_not_capturing()



def test_a_context_wide_wait_and_another_threads_capture_exclude_each_other():
    """The driver refuses cuCtxSynchronize while any stream is capturing (a GPU run: lazy mode's
    graph replay on two threads, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED): a context-wide wait
    waits for other threads' captures to end, a capture for waits in progress and for other
    threads' captures, a capture waiting to begin holds new waits back; a thread's own capture
    is not waited for."""
    from cuarray.cuda import _sync_hooks as H

    events = []
    began, release = threading.Event(), threading.Event()

    def capture():
        H.enter_capture()
        H.begin_capture(0x99)
        events.append("capture begins")
        began.set()
        release.wait(5)
        events.append("capture ends")
        H.end_capture(0x99)
        H.leave_capture()

    t = threading.Thread(target=capture)
    t.start()
    began.wait(5)
    waiter = threading.Thread(target=lambda: (H.enter_device_wait(), events.append("wait"), H.leave_device_wait()))
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive() and events == ["capture begins"], events  # held back by the capture
    release.set()
    t.join(5)
    waiter.join(5)
    assert events == ["capture begins", "capture ends", "wait"], events
    # a wait in progress holds a capture back
    H.enter_device_wait()
    cap = threading.Thread(target=lambda: (H.enter_capture(), events.append("capture 2"), H.leave_capture()))
    cap.start()
    cap.join(0.2)
    assert cap.is_alive()
    H.leave_device_wait()
    cap.join(5)
    assert events[-1] == "capture 2" and H._gate_counts == [0, 0, 0], (events, H._gate_counts)
    # a capture waiting to begin holds new waits back; another thread's capture waits for this one
    H.enter_device_wait()
    cap = threading.Thread(target=lambda: (H.enter_capture(), events.append("capture 3"), H.leave_capture()))
    cap.start()
    while not H._gate_counts[2]:
        threading.Event().wait(0.01)
    w2 = threading.Thread(target=lambda: (H.enter_device_wait(), events.append("wait 2"), H.leave_device_wait()))
    w2.start()
    w2.join(0.2)
    assert w2.is_alive() and cap.is_alive()
    H.leave_device_wait()
    cap.join(5)
    w2.join(5)
    assert events[-2:] == ["capture 3", "wait 2"], events
    H.enter_capture()
    cap = threading.Thread(target=lambda: (H.enter_capture(), events.append("capture 4"), H.leave_capture()))
    cap.start()
    cap.join(0.2)
    assert cap.is_alive()
    H.leave_capture()
    cap.join(5)
    assert events[-1] == "capture 4" and H._gate_counts == [0, 0, 0]
    # this thread's own capture: not waited for (the driver's error is what it gets)
    H.enter_capture()
    H.begin_capture(0x98)
    try:
        H.enter_device_wait()
        H.leave_device_wait()
    finally:
        H.end_capture(0x98)
        H.leave_capture()
    assert H._gate_counts == [0, 0, 0]


def test_a_library_module_another_thread_is_still_importing_is_not_handed_out():
    """While one thread runs nvmath's package __init__ (which imports its binding modules), the
    module is in sys.modules half made; another thread must wait for the import, not get it
    (the old fast path returned it: AttributeError 'partially initialized module', 32 threads)."""
    import sys
    import types

    from cuarray.cuda.libs import _handles

    name = "zz_half_made"
    full = "nvmath.bindings." + name
    mod = types.ModuleType(full)
    got = []
    try:
        with _handles._import_lock:  # this thread is "importing" it
            sys.modules[full] = mod
            t = threading.Thread(target=lambda: got.append(_handles.nvmath_bindings(name)))
            t.start()
            t.join(0.3)
            assert t.is_alive() and not got  # it waits for the import to finish
            mod.create = lambda: 1
        t.join(10)
        assert got == [mod]
    finally:
        sys.modules.pop(full, None)
        getattr(_handles, "_imported", {}).pop(name, None)
