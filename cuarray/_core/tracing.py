"""The one dispatch point for tracing: the thread's tracer, consulted where each traceable
operation is defined.

A tracer (lazy mode and `fuse`, `fusion/lazy_mode.py`; `vectorize`'s element tracer) is
installed for one thread (`install`/`uninstall`); nothing else changes. Each operation that a
tracer can record -- the ufunc call, `matmul`/`dot`/`tensordot`, the table reductions and
`mean`, `where`, `clip`, `ndarray.astype` -- starts with the same check:

    if active:                          # the eager hot path's one read: no thread traces
        t = state.tracer                # this thread's tracer, None when it is eager
        if t is not None:
            return t.call("dot", dot, (a, b), {"out": out})

The tracer either records the call (returning its lazy result) or runs `fn` itself with tracing
suspended on this thread (`suspended()`): everything the eager routine calls inside runs
eagerly, so no routine sees a lazy array it did not expect. Nothing patches module attributes
and nothing inspects the call stack; another thread's calls read its own (empty) slot.

`before_write(a)`: every in-place write into a concrete array (`a[...] = v`, a ufunc's
`out=`) calls it first, so a pending graph that reads `a` is computed while `a` still holds the
value the graph was built on.

`routine_input()`: the host-input policy (`host_input.as_array`) calls it for the arrays a
routine that does not trace takes; the tracer then keeps that routine's own operations on
concrete arrays eager (see `fusion/lazy_mode.py`, "What is recorded").
"""

from __future__ import annotations

import threading

from . import nodecore as _nodecore

__all__ = ["state", "active", "install", "uninstall", "suspended", "before_write", "routine_input", "current"]


class _State(threading.local):
    tracer = None  # (a class default: no per-thread setup, and a missing attribute costs more)


state = _State()
# One entry per thread with a tracer installed: while empty, no traceable operation reads `state`.
# A list of tokens rather than a locked count: `append` and `pop` are each one atomic operation
# (under the GIL, and per list in a free-threaded build), so no lock is taken at each entry to
# and exit from lazy mode (a `with lock:` around `active[0] += 1` cost 0.18 us each, stubbed).
active = []


def current():
    """This thread's tracer, or None."""
    return state.tracer if active else None


def _install(tracer):
    """Make `tracer` this thread's tracer; returns the one it replaces (for `uninstall`)."""
    prev = state.tracer
    state.tracer = tracer
    if prev is None:
        active.append(None)
    return prev


def _uninstall(prev) -> None:
    """Put back the tracer `install` replaced (None: this thread is eager again)."""
    if state.tracer is not None and prev is None:
        active.pop()
    state.tracer = prev


# `install` / `uninstall`: the two functions above, or their C versions step for step where the
# node core is built (`_native/threadlocal.c`: every `with lazy():` block calls both; with the
# block's thread state read in C and `flush` asking `steady_finish` itself, 2.5k instructions a
# replayed seed-logreg step less, callgrind, stubbed; tests/_core/test_tracing_switch_cpu.py
# compares the two).
if _nodecore.native is not None:
    _nodecore.native.configure_tracing(state, active)
    install, uninstall = _nodecore.native.install_tracer, _nodecore.native.uninstall_tracer
else:
    install, uninstall = _install, _uninstall


class suspended:
    """`with suspended():` runs its body eagerly on this thread (a tracer running an operation
    it does not record, or computing a graph). Cheap: one attribute swap."""

    __slots__ = ("prev",)

    def __enter__(self):
        self.prev = state.tracer
        state.tracer = None

    def __exit__(self, *exc):
        state.tracer = self.prev
        return False


def before_write(a) -> None:
    """Called before `a` is written in place (see the module docstring)."""
    if active:
        t = state.tracer
        if t is not None:
            t.before_write(a)


def routine_input() -> None:
    """Called by the host-input policy for each array a non-tracing routine takes."""
    if active:
        t = state.tracer
        if t is not None:
            t.routine_input()
