"""A `with cuarray.lazy():` block's entry and exit: the base class of `lazy_mode.lazy`.

`base(threads, thread_state, live_class)` gives `_nodecore.LazyBlock` (`_native/lazy_block.c`)
where the node core is built, else the pure-Python class below, which stays the reference (the C
one is it step for step; tests/_core/test_fusion_lazy_block_cpu.py runs blocks both ways). Either
keeps the context's fields (`_fn`, `_evaluate`, `_host`, `_track`; a block's saved state), sets
nothing when made with no argument (the common case: a loop body's block at every step), and
calls the class's `_setup(*args, **kwargs)` otherwise.

On entry: the thread's depth goes up; the outermost block gives the thread a new live set and a
new trace (which expects the entries of its predicted plan), and installs the thread's tracer.
On exit: the outermost block computes what is still pending (`evaluation.flush(st, last=True)`)
unless an exception is passing, then leaves lazy mode whatever happened.
"""

from __future__ import annotations

from .. import tracing as _tracing
from ..nodecore import native as _native
from . import evaluation as _evaluation
from .trace import Trace

__all__ = ["base"]


def base(threads, thread_state, live_class):
    """The base class of `lazy` for this thread-local state (`threads.st`, read by `thread_state`)
    and this class of live set."""
    if _native is not None:
        _native.configure_lazy_block(threads, live_class, Trace, _evaluation, _native.steady_finish)
        return _native.LazyBlock

    class LazyBlock:
        """`with cuarray.lazy():`'s entry and exit (the pure-Python reference)."""

        _fn = _evaluate = _saved = _prev = _host_saved = None
        _host = False
        _track = True

        def __init__(self, fn=None, *, evaluate=None, _track=True):
            if fn is not None or evaluate is not None or _track is not True:
                self._setup(fn, evaluate=evaluate, _track=_track)

        def __enter__(self):
            st = thread_state(threads)
            depth = st.depth
            self._host_saved = st.host
            if self._host:
                st.host = True
            if depth == 0:
                st.live = live_class()
                st.trace = Trace(st.plans.expect)
                st.internal = None
            # This thread's tracer from here to `__exit__` (another thread's calls read their own
            # slot); inside an outer `lazy()`, it already is (`install` returns it: nothing to undo).
            self._prev = _tracing.install(st)
            st.depth = depth + 1
            if not self._track:  # tracing (`fuse`): nothing is computed on exit
                self._saved, st.live = st.live, None
            return self

        def __exit__(self, *exc):
            st = thread_state(threads)
            st.host = self._host_saved
            st.depth -= 1
            if not self._track:
                st.live = self._saved
            if st.depth:
                if self._prev is not st:
                    _tracing.uninstall(self._prev)
                return False
            try:
                if exc[0] is None and self._track:
                    _evaluation.flush(st, last=True)
            finally:
                st.live = st.trace = None
                if self._prev is not st:
                    _tracing.uninstall(self._prev)
            return False

    return LazyBlock
