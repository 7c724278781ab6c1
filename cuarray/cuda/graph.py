"""CUDA graphs: capture the launches of a piece of code once, replay them for a few µs.

    g = cuarray.cuda.CUDAGraph()
    step(x_static)                      # warm up: compiles kernels, creates workspaces
    with cuarray.cuda.graph(g):
        y_static = step(x_static)       # captured, not run
    for batch in data:
        x_static[...] = batch           # new inputs go into the captured arrays
        g.replay()                      # y_static now holds step(batch)

Capture is CUDA stream capture (relaxed mode) on a stream of the graph's own: every launch made
through `launch.enqueue`, every memset and device-to-device copy on the current stream becomes a
node. Allocations made while capturing come from a memory pool private to the graph: arrays freed
during the capture go back to it and are reused by later captured operations (their order is the
stream order, as when running), and it lives as long as the graph, so replays allocate nothing and
the addresses baked into the graph stay valid. Arrays the captured code reads or returns must be
kept alive by the caller (the graph does not own them), as with PyTorch. When the graph is
destroyed (`reset`, or its last reference gone), its pool's memory goes back to the driver; the
part the caller still holds (the captured outputs) goes back once those arrays are gone, at the
next capture or reset in the process (`_release`).

What cannot be captured raises `StreamCaptureError`: a host synchronisation (`get()`, `item()`,
`float()`, printing values, `nonzero`, boolean-mask indexing, `stream.synchronize()`...), and any
operation the driver refuses while capturing. The capture is then abandoned.
"""

from __future__ import annotations

from . import _backend
from . import _sync_hooks
from . import device as _device
from . import launch as _launch
from . import memory as _memory
from . import stream as _stream

__all__ = ["CUDAGraph", "graph", "StreamCaptureError"]



StreamCaptureError = _sync_hooks.StreamCaptureError

# The private pools of destroyed graphs whose segments are not all free yet
# (arrays the caller still holds), or that the garbage collector destroyed (no device
# synchronisation there): trimmed at the next capture or `reset` of any graph (`_release`). Only
# appended to and popped from, each atomic: no lock a collection inside `_release` could re-enter.
_retired: list = []


def _release(pool=None) -> None:
    """Give the free segments of the retired pools (and of `pool`) back to the driver; keep those
    that still reserve memory for a later call. (A destroyed graph's pool held all its segments
    for the process's life: 20 graphs of a 64 MiB step kept 2.5 GiB.)"""
    todo = [pool] if pool is not None else []
    while _retired:
        todo.append(_retired.pop())
    for p in todo:
        if p.trim():
            _retired.append(p)


class CUDAGraph:
    """A captured sequence of GPU work. See `torch.cuda.CUDAGraph`; capture with `graph(g)`."""

    def __init__(self):
        self._graph = None
        self._exec = None
        self._exec_handle = 0  # (the exec's handle as an integer: `launch.graph_launcher()`'s argument)
        self._stream = None
        self._prev_alloc = None
        self.pool = None  # the graph's private MemoryPool (created at capture)
        self._own_pool = None  # the pool where it is the graph's own, not the caller's

    def capture_begin(self, stream=None, pool=None) -> None:
        """Start capturing the work queued on `stream` (a new non-blocking one by default; the
        legacy default stream cannot be captured). `pool`: a MemoryPool to allocate from."""
        if self._exec is not None:
            raise RuntimeError("this CUDAGraph was already captured; call reset() first")
        if stream is None:
            stream = _stream.Stream(non_blocking=True)
        if stream.ptr == 0:
            raise StreamCaptureError("the legacy default stream cannot be captured: use another Stream")
        self._stream = stream
        if _retired:
            _release()
        self.pool = pool if pool is not None else _memory.MemoryPool()
        self._own_pool = self.pool if pool is None else None
        # This thread's allocations come from the graph's pool; other threads keep theirs.
        self._prev_alloc = _memory.use_thread_allocator(self.pool.malloc)
        _stream.core_stream(stream)  # its device's context current in this thread
        _sync_hooks.enter_capture()  # (no other thread's context-wide wait in progress: `_sync_hooks`)
        try:
            drv = _backend.driver()
            # Relaxed: allocations (cuMemAlloc, for the private pool) are allowed while capturing.
            mode = drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED
            _backend.check(drv.cuStreamBeginCapture(stream.ptr, mode))
        except Exception:
            _sync_hooks.leave_capture()
            _memory.use_thread_allocator(self._prev_alloc)
            raise
        _sync_hooks.begin_capture(stream.ptr)

    def capture_end(self, abandon: bool = False) -> None:
        """Stop capturing and instantiate the graph (`abandon`: discard it, after an error)."""
        drv = _backend.driver()
        _sync_hooks.end_capture(self._stream.ptr)
        _memory.use_thread_allocator(self._prev_alloc)
        try:
            res = drv.cuStreamEndCapture(self._stream.ptr)
        finally:
            _sync_hooks.leave_capture()
        status, g = res[0], res[1]
        if abandon:
            if status == 0 and g is not None:
                drv.cuGraphDestroy(g)
            return
        if status != 0:
            raise StreamCaptureError(
                "CUDA graph capture failed ({}): an operation that cannot be captured ran inside it "
                "(a host synchronisation, or a call the driver refuses while capturing)".format(
                    _backend._error_text(status)))
        self._graph = g
        self._exec = _backend.check(drv.cuGraphInstantiate(g, 0))
        self._exec_handle = int(self._exec)

    def replay(self, stream=None) -> None:
        """Run the captured work again on `stream` (default: the current stream)."""
        if self._exec is None:
            raise RuntimeError("nothing captured: use `with cuarray.cuda.graph(g):` first")
        s = _stream.get_current_stream() if stream is None else stream
        _stream.core_stream(s)  # its device's context current in this thread
        launch = _launch.graph_launcher()
        if launch is not None:  # (cuGraphLaunch from C: a lazy loop body's replay is this call)
            status = launch(self._exec_handle, s.ptr)
            if status:  # (the error cuda.bindings' call would give: `check` of its CUresult)
                _backend.check((_backend.driver().CUresult(status),))
        else:
            _backend.check(_backend.driver().cuGraphLaunch(self._exec, s.ptr))

    def reset(self) -> None:
        """Destroy the captured graph and release its pool: its free memory goes back to the
        driver now (after a device synchronisation), what the caller still holds once it is free."""
        self._destroy()
        own, self._own_pool = self._own_pool, None
        if own is not None:
            _release(own)
        elif _retired:
            _release()

    def _destroy(self) -> None:
        drv = _backend.driver() if (self._exec is not None or self._graph is not None) else None
        if self._exec is not None:
            drv.cuGraphExecDestroy(self._exec)
            self._exec, self._exec_handle = None, 0
        if self._graph is not None:
            drv.cuGraphDestroy(self._graph)
            self._graph = None
        self.pool = None

    def __del__(self):
        # The garbage collector may run this inside a pool's own locked code: the pool is only
        # retired here, trimmed at the next capture or reset.
        try:
            self._destroy()
        except Exception:
            pass
        own, self._own_pool = self._own_pool, None
        if own is not None:
            _retired.append(own)


class graph:
    """Context manager capturing the GPU work of its body into `cuda_graph` (see
    `torch.cuda.graph`). The body runs with a capture stream current; nothing executes until
    `cuda_graph.replay()`. Warm up (run the body once) before capturing, so that kernels are
    compiled and workspaces exist."""

    def __init__(self, cuda_graph: CUDAGraph, pool=None, stream=None):
        self._g = cuda_graph
        self._pool = pool
        self._stream = stream

    def __enter__(self):
        _device.synchronize()  # work queued before the capture is not part of it
        s = self._stream if self._stream is not None else _stream.Stream(non_blocking=True)
        self._ctx = s
        s.__enter__()
        try:
            self._g.capture_begin(s, self._pool)
        except Exception:
            s.__exit__(None, None, None)
            raise
        return self._g

    def __exit__(self, exc_type, exc, tb):
        try:
            self._g.capture_end(abandon=exc_type is not None)
        finally:
            self._ctx.__exit__(None, None, None)
        return False
