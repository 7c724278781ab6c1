"""Callbacks run after every host synchronisation (stream, event, device).

The runtime layer cannot import the engine, yet the engine has work to finish at the points
where the host has waited for the device anyway: e.g. out-of-bounds indices found by a gather
kernel are recorded on the device and raised as IndexError at the next synchronisation
(docs/differences.md). The engine registers such checks here; the runtime calls them.
"""

from __future__ import annotations

__all__ = ["register", "unregister", "run"]

_hooks: list = []


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
