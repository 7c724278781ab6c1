"""Library workspaces, handles and plan caches without a GPU: the per-device bound, per-stream
release through `free_all_blocks(stream=s)`, the pool counting live workspace, cuBLAS rebinding a
handle after a release, handles destroyed when their thread ends, plan-cache limits and `clear`.
The pool runs over cuarray.testing.fake_device's FakeBacking; the libraries are recording stand-ins."""

from __future__ import annotations

import threading
import types

import pytest

from cuarray.cuda import _memory_base, memory
from cuarray.cuda.libs import _handles, _workspace, cublas
from cuarray.cuda.memory import MemoryPool
from cuarray.testing.fake_device import FakeBacking  # the one fake backing (cuarray.testing.fake_device)

MiB = 2**20
A, B, C = 0x1000, 0x2000, 0x3000  # fake stream handles


class FakeMem:
    def __init__(self, size, log):
        self.size, self.ptr, self.log = size, 0x10000 + 0x100 * len(log), log
        log.append(("alloc", size))

    def __del__(self):
        self.log.append(("free", self.size))


def _ws(limit, stream_bytes=32 * MiB):
    log = []
    return _workspace.Workspaces("test", stream_bytes, limit, alloc=lambda n: FakeMem(n, log)), log


def test_bounded_per_device_not_per_stream():
    ws, log = _ws(limit=64 * MiB)
    for sp in (A, B, C):
        assert ws.get(0, sp).size == 32 * MiB
    # 3 streams x 32 MiB under a 64 MiB bound: the least recently used stream (A) gave its place.
    assert ws.streams(0) == [B, C] and ws.kept_bytes(0) == 64 * MiB
    assert log.count(("free", 32 * MiB)) == 1
    ws.get(1, A)  # another device has its own bound
    assert ws.kept_bytes(0) == 64 * MiB and ws.kept_bytes(1) == 32 * MiB


def test_reuse_and_lru_order():
    ws, log = _ws(limit=64 * MiB)
    a = ws.get(0, A)
    ws.get(0, B)
    assert ws.get(0, A) is a  # A is now the most recent: C evicts B
    ws.get(0, C)
    assert ws.streams(0) == [A, C]


def test_release_one_stream_or_all_and_generation():
    ws, log = _ws(limit=128 * MiB)
    for sp in (A, B, C):
        ws.get(0, sp)
    g = ws.generation[0]
    assert ws.release(0, B) == 32 * MiB
    assert ws.streams(0) == [A, C] and ws.generation[0] == g + 1
    assert ws.release(0, 0xDEAD) == 0 and ws.generation[0] == g + 1  # nothing dropped: no rebinds
    assert ws.release(0) == 64 * MiB and ws.streams(0) == []
    assert log.count(("free", 32 * MiB)) == 3


def test_limit_below_one_buffer_shrinks_it_and_zero_means_none():
    ws, _ = _ws(limit=8 * MiB)
    assert ws.get(0, A).size == 8 * MiB
    ws.set_limit(0)
    assert ws.get(0, A) is None and ws.streams(0) == []
    with pytest.raises(ValueError):
        ws.set_limit(-1)


def test_public_limit_applies_to_every_registry():
    old = _workspace.get_limit()
    try:
        _workspace.set_limit(32 * MiB)
        assert cublas._workspaces.get_limit() == 32 * MiB
        with pytest.raises(ValueError):
            _workspace.set_limit(-5)
    finally:
        _workspace.set_limit(old)
    assert cublas._workspaces.get_limit() == old


# -- with the real pool over a fake backing --------------------------------------------------------
@pytest.fixture
def pool_ws():
    fake = FakeBacking()
    pool = MemoryPool(backing=fake)
    ws = _workspace.register(_workspace.Workspaces("pooled", 32 * MiB, 64 * MiB))
    stream = {"ptr": A}
    ws._alloc = lambda n: pool.malloc(n, stream_ptr=stream["ptr"])
    yield pool, ws, stream, fake
    ws.release()
    _workspace._registries.remove(ws)


def test_pool_counts_live_workspace_and_free_all_blocks_returns_it(pool_ws):
    pool, ws, stream, fake = pool_ws
    for sp in (A, B):
        stream["ptr"] = sp
        ws.get(0, sp)
    assert pool.used_bytes() == 64 * MiB  # a user sees the kept workspace as live
    pool.free_all_blocks()
    assert ws.streams(0) == [] and pool.used_bytes() == 0 and pool.total_bytes() == 0
    assert fake.reserved == 0


def test_free_all_blocks_of_one_stream_releases_only_its_workspace(pool_ws):
    pool, ws, stream, fake = pool_ws
    for sp in (A, B):
        stream["ptr"] = sp
        ws.get(0, sp)
    pool.free_all_blocks(stream=types.SimpleNamespace(ptr=A))
    assert ws.streams(0) == [B]
    assert pool.used_bytes() == 32 * MiB and pool.total_bytes() == 32 * MiB  # A's segment went back
    pool.free_all_blocks(stream=types.SimpleNamespace(ptr=B))
    assert pool.total_bytes() == 0


# -- cuBLAS binds its handle to the stream's workspace, and rebinds after a release ---------------
class FakeCublas:
    def __init__(self):
        self.calls = []
        self.n = 0

    def create(self):
        self.n += 1
        return 500 + self.n

    def destroy(self, h):
        self.calls.append(("destroy", h))

    def set_pointer_mode(self, h, mode):
        pass

    def set_stream(self, h, sp):
        self.calls.append(("set_stream", h, sp))

    def set_workspace(self, h, ptr, size):
        self.calls.append(("set_workspace", h, ptr, size))


@pytest.fixture
def fake_cublas(monkeypatch, pool_ws):
    pool, ws, stream, fake = pool_ws
    lib = FakeCublas()
    monkeypatch.setattr(cublas, "_lib", lib)
    monkeypatch.setattr(cublas, "_handles", _handles.PerThreadHandle(lib.create, lib.destroy, activate=lambda d: None))
    monkeypatch.setattr(cublas, "_workspaces", ws)
    monkeypatch.setattr(cublas, "_ws_gen", ws.generation)
    monkeypatch.setattr(cublas._tls, "bound", None)
    current = types.SimpleNamespace(ptr=A)
    monkeypatch.setattr(cublas._stream, "get_current_stream", lambda dev=None: current)
    return lib, pool, ws, stream, current


def test_handle_binds_once_per_stream_and_rebinds_after_release(fake_cublas):
    lib, pool, ws, stream, current = fake_cublas
    h = cublas.handle()
    assert cublas.handle() == h
    binds = [c for c in lib.calls if c[0] == "set_workspace"]
    assert len(binds) == 1 and binds[0][3] == 32 * MiB  # bound once: the fast path skips the calls
    pool.free_all_blocks()  # drops the kept workspace; this thread's handle lets go of it too
    assert pool.used_bytes() == 0 and pool.total_bytes() == 0
    cublas.handle()
    assert len([c for c in lib.calls if c[0] == "set_workspace"]) == 2  # rebound to a new buffer
    current.ptr = B
    stream["ptr"] = B
    cublas.handle()
    assert lib.calls[-2] == ("set_stream", h, B)
    assert ws.streams(0) == [A, B]


def test_zero_limit_runs_cublas_without_workspace(fake_cublas):
    lib, pool, ws, stream, current = fake_cublas
    ws.set_limit(0)
    cublas.handle()
    assert lib.calls[-1][0] == "set_workspace" and lib.calls[-1][2:] == (0, 0)
    assert pool.used_bytes() == 0


# -- handles per (device, thread), destroyed when the thread ends ---------------------------------
def test_handles_are_destroyed_when_their_thread_ends():
    made, destroyed = [], []

    def create():
        made.append(len(made) + 1)
        return made[-1]

    hs = _handles.PerThreadHandle(create, destroyed.append, activate=lambda d: None)
    main = hs.get()
    assert hs.get() == main and made == [1]
    seen = []
    t = threading.Thread(target=lambda: seen.append(hs.get()))
    t.start()
    t.join()
    assert seen == [2] and destroyed == [2]  # the thread's handle went with the thread
    assert hs.live() == 1
    hs.destroy_all()
    assert destroyed == [2, 1] and hs.live() == 0


def test_prefetch_imports_in_one_background_thread_once(monkeypatch):
    started = []
    monkeypatch.setattr(_handles, "_prefetch", [])
    monkeypatch.setattr(_handles, "_import_quietly", lambda: started.append(threading.current_thread().name))
    _handles.prefetch()
    _handles.prefetch()
    _handles._prefetch[0].join()
    assert started == [_handles._PREFETCH_THREAD]


# -- plan caches: limits and clear ----------------------------------------------------------------
def test_lt_plan_cache_limit_and_clear(monkeypatch):
    monkeypatch.setattr(cublas, "_plans", {})
    old = cublas.get_plan_cache_size()
    try:
        cublas._plans.update({i: None for i in range(3)})
        cublas.set_plan_cache_size(2)  # a new limit empties the cache
        assert cublas.plan_cache_info() == {"plans": 0, "epilogue_plans": 0, "limit": 2}
        cublas._plans.update({i: None for i in range(2)})
        cublas.clear_plan_cache()
        assert cublas._plans == {}
        with pytest.raises(ValueError):
            cublas.set_plan_cache_size(-1)
    finally:
        cublas.set_plan_cache_size(old)


def test_lt_plan_is_destroyed_after_its_last_user():
    destroyed = []
    fake = types.SimpleNamespace(matmul_desc_destroy=lambda d: destroyed.append(d),
                                 matrix_layout_destroy=lambda lay: destroyed.append(lay))
    old = cublas._ltlib
    cublas._ltlib = fake
    try:
        p = cublas._LtPlan()
        p.desc, p.la, p.lb, p.lc = 1, 2, 3, 4
        cache = {"k": p}
        in_use = cache["k"]  # a thread enqueueing with it
        cache.clear()  # another thread clears the cache
        assert destroyed == []
        del p, in_use
        assert destroyed == [1, 2, 3, 4]
    finally:
        cublas._ltlib = old


def test_memory_release_hooks_run_before_the_pool_releases():
    seen = []
    fn = lambda dev, sp: seen.append((dev, sp))  # noqa: E731
    memory.add_release_hook(fn)
    memory.add_release_hook(fn)  # once
    try:
        pool = MemoryPool(backing=FakeBacking())
        pool.free_all_blocks(stream=types.SimpleNamespace(ptr=B))
        pool.free_all_blocks()
        assert seen == [(0, B), (0, None)]
    finally:
        _memory_base._release_hooks.remove(fn)


def test_clear_plan_caches_clears_every_library_cache(monkeypatch):
    from cuarray.cuda import libs
    from cuarray.cuda.libs import cufft, cusparse

    cleared = []
    monkeypatch.setattr(cublas, "_plans", {"k": None})
    monkeypatch.setattr(cufft._tls, "caches", {0: types.SimpleNamespace(clear=lambda: cleared.append("fft"))})
    monkeypatch.setattr(cusparse, "clear_descriptor_cache", lambda: cleared.append("sparse"))
    libs.clear_plan_caches()
    assert cublas._plans == {} and sorted(cleared) == ["fft", "sparse"]  # (in the registry's order)
    assert libs.get_workspace_limit() == _workspace.get_limit()


def test_prefetch_then_first_binding_import_in_a_fresh_process():
    """The first library call waits for the prefetch thread; with nvmath missing it says what to install."""
    import os
    import subprocess
    import sys

    code = (
        "import threading, cuarray\n"
        "from cuarray.cuda.libs import _handles, prefetch\n"
        "prefetch()\n"
        "try:\n"
        "    m = _handles.nvmath_bindings('cublas'); print('IMPORTED', m.__name__)\n"
        "except ImportError as e:\n"
        "    print('MISSING', e)\n"
        "print('alive', _handles._prefetch[0].is_alive())\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "alive False" in out
    assert "IMPORTED nvmath.bindings.cublas" in out or ("MISSING" in out and "cuarray[cu13]" in out), out


def test_a_missing_library_at_handle_creation_says_what_to_install():
    def create():
        raise RuntimeError('Failure finding "libcublas.so.13": No such file')

    hs = _handles.PerThreadHandle(create, lambda h: None, activate=lambda d: None)
    with pytest.raises(_handles.LibraryNotFoundError, match=r"cuarray\[cu13\].*cuarray info"):
        hs.get()

    def broken():
        raise ValueError("something else")

    with pytest.raises(ValueError):
        _handles.PerThreadHandle(broken, lambda h: None, activate=lambda d: None).get()


def test_bound_holds_with_threads_adding_buffers_at_once():
    ws, log = _ws(limit=64 * MiB)
    barrier = threading.Barrier(8)

    def body(i):
        barrier.wait()
        for j in range(20):
            ws.get(0, 0x100 * (i + 1) + j % 3)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ws.kept_bytes(0) <= 64 * MiB and len(ws.streams(0)) <= 2


def test_routines_without_workspace_keep_none_and_a_gemm_then_binds_one(fake_cublas):
    lib, pool, ws, stream, current = fake_cublas
    h = cublas.handle(False)  # GEMV, batched LU
    assert lib.calls[-1] == ("set_workspace", h, 0, 0) and ws.streams(0) == []
    assert cublas.handle(False) == h and len(lib.calls) == 2  # bound: no more calls
    cublas.handle()  # a GEMM needs the stream's workspace: bound now
    assert lib.calls[-1][3] == 32 * MiB and ws.streams(0) == [A]
    n = len(lib.calls)
    cublas.handle(False)  # a binding with a workspace serves routines that need none
    assert len(lib.calls) == n
    pool.free_all_blocks()
    cublas.handle(False)  # released: rebinds, without a workspace
    assert lib.calls[-1] == ("set_workspace", h, 0, 0) and ws.streams(0) == []
