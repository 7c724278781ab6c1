"""The tracer switch (`tracing.install` / `uninstall`) and lazy mode's thread state, read and
written in C where the node core is built (`_core/_native/threadlocal.c`): the same results and the
same effects on `tracing.state` and `tracing.active` as the Python functions (the reference), in the
thread that installs and in others, errors included."""

from __future__ import annotations

import threading

import pytest

from cuarray._core import tracing
from cuarray._core.fusion import lazy_mode
from cuarray._core.nodecore import native

pytestmark = pytest.mark.skipif(native is None, reason="the _nodecore extension is not built (setup.py build_ext)")

PY = (tracing._install, tracing._uninstall)
C = (native.install_tracer, native.uninstall_tracer) if native is not None else None


class _Tracer:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


def _script(install, uninstall):
    """Nested installs and their undoing, with what each call returns and the state after it."""
    seen = []

    def note(r):  # (tracers by name: each run makes its own)
        seen.append((repr(r), repr(tracing.state.tracer), len(tracing.active)))

    a, b = _Tracer("a"), _Tracer("b")
    p1 = install(a)
    note(p1)
    p2 = install(b)  # (inside: replaces a, `active` unchanged)
    note(p2)
    p3 = install(b)  # (the same tracer again)
    note(p3)
    note(uninstall(p3))
    note(uninstall(p2))
    note(uninstall(p1))  # (eager again: `active` back to where it was)
    note(uninstall(None))  # (nothing installed: nothing popped)
    return seen


def _in_thread(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def test_install_and_uninstall_in_c_do_what_the_python_functions_do():
    assert tracing.install is native.install_tracer and tracing.uninstall is native.uninstall_tracer
    before = list(tracing.active)
    assert _script(*C) == _script(*PY)
    assert tracing.active == before and tracing.state.tracer is None
    # in a thread that never read `tracing.state` (its tracer the class default) ...
    assert _in_thread(lambda: _script(*C)) == _in_thread(lambda: _script(*PY))
    # ... and while another thread traces: each thread reads and writes its own slot
    other = _Tracer("other")
    hold, done = threading.Event(), threading.Event()

    def tracing_thread():
        prev = tracing.install(other)
        hold.set()
        done.wait(10)
        tracing.uninstall(prev)

    t = threading.Thread(target=tracing_thread)
    t.start()
    hold.wait(10)
    try:
        assert tracing.state.tracer is None and len(tracing.active) == len(before) + 1
        # (the counts in `active` include the other thread's entry in both runs)
        assert _script(*C) == _script(*PY)
        assert tracing.state.tracer is None
    finally:
        done.set()
        t.join()
    assert tracing.active == before


def test_uninstall_of_a_tracer_never_installed_raises_as_the_python_function_does():
    # (a tracer set without `install`: `active` has no entry to pop -> IndexError, state kept)
    for uninstall in (native.uninstall_tracer, tracing._uninstall):
        def run():
            tracing.state.tracer = _Tracer("set by hand")
            try:
                with pytest.raises(IndexError):
                    uninstall(None)
                return tracing.state.tracer.name, list(tracing.active)
            finally:
                tracing.state.tracer = None

        assert _in_thread(run) == ("set by hand", [])


def test_a_block_reads_its_own_threads_lazy_state():
    read = lazy_mode._thread_state
    assert read(lazy_mode._threads) is lazy_mode._threads.st
    mine = lazy_mode._threads.st
    theirs = _in_thread(lambda: (read(lazy_mode._threads), lazy_mode._threads.st))
    assert theirs[0] is theirs[1] and theirs[0] is not mine
