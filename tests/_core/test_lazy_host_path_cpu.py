"""Lazy mode's per-evaluation host path keeps its promises after its trims (fake device):
a value carried from step to step forgets how it was computed once a graph reads it (so a loop
keeps no chain of graphs alive), a fused step's scalar arguments follow the values given (the
per-literal conversion cache is keyed by identity), and each thread has its own state."""

from __future__ import annotations

import threading

import numpy as np

import cuarray as cp
from cuarray._core.fusion import lazy_mode as L

N = 1 << 12


def test_a_carried_value_forgets_its_graph(recorded_launches):
    x = cp.empty(N, dtype="float32")
    with cp.lazy():
        w = x * 0.5 + 1.0
    assert w.is_computed and w._node.args  # (nothing has read it yet)
    for _ in range(3):
        prev = w
        with cp.lazy():
            w = prev * 0.5 + x
        assert prev._node.args == ()  # read by this graph: its own graph is dropped
        assert w.is_computed and w._node.args


def test_scalar_arguments_follow_the_values(recorded_launches):
    calls = recorded_launches
    x = cp.empty(N, dtype="float32")
    seen = []
    for s in (0.5, 0.5, -0.0, 0.0, 2.0, float("nan")):
        del calls[:]
        with cp.lazy():
            y = x * s + 1.0
        assert y.is_computed and len(calls) == 1
        seen.append([a for a in calls[0][3:] if isinstance(a, np.float32)][0])
    assert [float(v) for v in seen[:3]] == [0.5, 0.5, -0.0] and np.signbit(seen[2])
    assert not np.signbit(seen[3]) and seen[4] == 2.0 and np.isnan(seen[5])


def test_each_thread_has_its_own_state():
    states = {}

    def run(k):
        states[k] = L._threads.st

    ts = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert states[0] is not states[1] and L._threads.st not in (states[0], states[1])


def test_input_slots_follow_the_recording_order(recorded_launches):
    """`Trace.input_slot` (made on a plan cache miss from the leaves, not kept per input): each
    input node's index among the program's inputs, for arrays used twice, scalars, a computed
    value read again, and a second node of that value's array (one entry, one input)."""
    x = cp.empty(N, dtype="float32")
    with cp.lazy():
        w = x * 0.5 + 1.0
    st = L._threads.st
    with cp.lazy():
        y = (w * x + 2.0) * x - w
        tr = st.trace
        again = tr.array(w._node.value)  # the computed value's array: the entry `w` made
        assert again is not w._node and again.pos == w._node.pos and again.seg == tr.id
        leaves = tr.leaves
        assert sorted(n.kind for n in leaves) == ["array", "scalar", "ufunc"]  # x, 2.0 and w's value
        assert [tr.input_slot(n) for n in leaves] == [0, 1, 2]
        assert tr.input_slot(again) == tr.input_slot(w._node) == leaves.index(w._node)
        assert tr.values == [n.value for n in leaves]
    assert y.is_computed


def test_a_traced_ufunc_call_takes_the_memo_once_the_general_path_filled_it(recorded_launches, monkeypatch):
    """The tracer's `ufunc` is the memoised fast path (`fast_paths.ufunc_dispatch`); the general path
    (`_State.general_ufunc`) builds a call of a new type combination and a call with keywords, and
    the memo's node is the general path's."""
    from cuarray._core.fusion import fast_paths

    # (with the node core built, a C `Operator` taking the memo's hits and handing the rest to it)
    assert L._State.ufunc is fast_paths.ufunc_dispatch
    assert getattr(fast_paths.ufunc_dispatch, "general", fast_paths.ufunc_dispatch) is fast_paths.traced_ufunc
    general = []
    plain = L._State.general_ufunc

    def counted(st, uf, args, kwargs):
        general.append(uf.__name__)
        return plain(st, uf, args, kwargs)

    monkeypatch.setattr(L._State, "general_ufunc", counted)
    fast_paths.clear_memos()
    x = cp.empty(N, dtype="float16")
    with cp.lazy():
        l = x * 1.0  # (a traced multiply: the memos are empty, the general path builds it)
        assert general == ["multiply"]
        del general[:]
        first = cp.arccos(l)
        entries = list(L._threads.st.trace.ops)
        second = cp.arccos(l)
        assert general == ["arccos"] and L._threads.st.trace.ops[len(entries):] == [
            ("ufunc", first._node.attr, (l._node.pos,))]
        assert (second.dtype, second.shape, second._node.attr) == (first.dtype, first.shape, first._node.attr)
        cp.arccos(l, dtype="float32")
        assert general == ["arccos", "arccos"]
