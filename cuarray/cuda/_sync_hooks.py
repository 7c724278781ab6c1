"""Callbacks run after every host synchronisation (stream, event, device).

The runtime layer cannot import the engine, yet the engine has work to finish at the points
where the host has waited for the device anyway: e.g. out-of-bounds indices found by a gather
kernel are recorded on the device and raised as IndexError at the next synchronisation
(docs/differences.md). The engine registers such checks here; the runtime calls them.
"""

from __future__ import annotations

import threading

__all__ = ["register", "unregister", "run", "begin_capture", "end_capture", "is_capturing",
           "check_not_capturing", "StreamCaptureError", "enter_device_wait", "leave_device_wait", "enter_capture",
           "leave_capture"]

_hooks: list = []


class _Capturing(threading.local):
    # Streams this thread is capturing into a CUDA graph (cuda/graph.py): a host synchronisation
    # in this thread while one is would invalidate the capture (and wait for work that has not
    # run), so it raises instead. Per thread: captures are relaxed-mode, so other threads may
    # synchronise meanwhile.
    streams: tuple = ()


_capturing = _Capturing()


def begin_capture(stream_ptr: int) -> None:
    _capturing.streams += (stream_ptr,)


def end_capture(stream_ptr: int) -> None:
    s = list(_capturing.streams)
    if stream_ptr in s:
        s.remove(stream_ptr)
    _capturing.streams = tuple(s)


# Context-wide waits and stream captures exclude each other across threads, and captures of
# different threads run one at a time. Captures are relaxed-mode, but the driver refuses a
# context-wide synchronisation (cuCtxSynchronize) while any stream of the context is capturing
# (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED), and two threads' concurrent captures of lazy loop bodies
# (with cuBLAS calls) had one invalidated (CUDA_ERROR_STREAM_CAPTURE_INVALIDATED); lazy mode's graph
# replay captures without the user asking. So a context-wide wait waits for other threads' captures
# to end, and a capture waits for waits in progress and other threads' captures (each is short next
# to the work it waits for). A capture waiting to begin holds new waits back (a thread synchronising
# in a loop would otherwise keep it waiting for ever).
_gate = threading.Condition()
_gate_counts = [0, 0, 0]  # context-wide waits in progress, captures in progress, captures waiting to begin


def enter_device_wait() -> None:
    """Before a context-wide wait: wait until no other thread is capturing or waiting to (this
    thread's own capture is not waited for: the wait then fails as the driver says)."""
    own = len(_capturing.streams)
    with _gate:
        while _gate_counts[1] > own or (_gate_counts[2] and not own):
            _gate.wait()
        _gate_counts[0] += 1


def leave_device_wait() -> None:
    with _gate:
        _gate_counts[0] -= 1
        _gate.notify_all()


def enter_capture() -> None:
    """Before a stream capture begins: wait until no context-wide wait and no other thread's
    capture is in progress."""
    own = len(_capturing.streams)
    with _gate:
        _gate_counts[2] += 1
        try:
            while _gate_counts[0] or _gate_counts[1] > own:
                _gate.wait()
        finally:
            _gate_counts[2] -= 1
        _gate_counts[1] += 1


def leave_capture() -> None:
    with _gate:
        _gate_counts[1] -= 1
        _gate.notify_all()


def is_capturing() -> bool:
    """Whether the calling thread is capturing a CUDA graph."""
    return bool(_capturing.streams)


class StreamCaptureError(RuntimeError):
    """An operation that cannot be part of a CUDA graph ran while capturing one."""


def check_not_capturing() -> None:
    """Raise StreamCaptureError when this thread is capturing a CUDA graph (called before syncs)."""
    if _capturing.streams:
        raise StreamCaptureError(
            "host synchronisation during CUDA graph capture: get(), item(), float()/bool(), printing "
            "values, nonzero, boolean-mask indexing and synchronize() wait for the device and cannot be "
            "captured; move them out of the `with cuarray.cuda.graph(...)` block")


def register(fn) -> None:
    """Call `fn()` after every synchronisation (it may raise; it must be cheap when idle)."""
    if fn not in _hooks:
        _hooks.append(fn)


def unregister(fn) -> None:
    """Stop calling `fn` (no error if it was not registered)."""
    if fn in _hooks:
        _hooks.remove(fn)


def run() -> None:
    for fn in _hooks:
        fn()
