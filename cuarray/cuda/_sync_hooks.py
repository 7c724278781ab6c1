"""Callbacks run after every host synchronisation (stream, event, device).

The runtime layer cannot import the engine, yet the engine has work to finish at the points
where the host has waited for the device anyway: e.g. out-of-bounds indices found by a gather
kernel are recorded on the device and raised as IndexError at the next synchronisation
(docs/differences.md). The engine registers such checks here; the runtime calls them.
"""

from __future__ import annotations

__all__ = ["register", "unregister", "run", "capturing", "check_not_capturing", "StreamCaptureError"]

_hooks: list = []
# Streams being captured into a CUDA graph (cuda/graph.py): a host synchronisation while one is
# would invalidate the capture (and wait for work that has not run), so it raises instead.
capturing: list = []


class StreamCaptureError(RuntimeError):
    """An operation that cannot be part of a CUDA graph ran while capturing one."""


def check_not_capturing() -> None:
    """Raise StreamCaptureError when a CUDA graph capture is under way (called before syncs)."""
    if capturing:
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
