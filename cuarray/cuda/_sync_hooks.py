"""Callbacks run after every host synchronisation (stream, event, device).

The runtime layer cannot import the engine, yet the engine has work to finish at the points
where the host has waited for the device anyway: e.g. out-of-bounds indices found by a gather
kernel are recorded on the device and raised as IndexError at the next synchronisation
(docs/differences.md). The engine registers such checks here; the runtime calls them.
"""

from __future__ import annotations

import threading

__all__ = ["register", "unregister", "run", "begin_capture", "end_capture", "is_capturing",
           "check_not_capturing", "StreamCaptureError"]

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
