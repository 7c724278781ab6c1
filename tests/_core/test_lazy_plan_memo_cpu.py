"""The thread's plans (`planner.Plans`, kept by lazy mode per thread): a loop body whose graph has
the structure predicted (the last evaluation's, or the one that followed it last time) reuses that
Program without a plan-cache look-up, and any change of structure (an operation, a dtype, a shape, a scalar's type, two inputs that were
one array) is planned or looked up again, never served by the stale Program (fake device: the
launches are recorded, so each evaluation's kernel arguments are checked against its inputs)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import cuarray as cp
from cuarray._core.fusion import graph
from cuarray._core.fusion import lazy_mode as L
from cuarray._core.fusion import planner
from cuarray._core.fusion import replay as R
from cuarray.testing.fake_device import SCRIPT_PRELUDE

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

N = 1 << 12


class _Counting(dict):
    def __init__(self, *a):
        super().__init__(*a)
        self.gets = 0

    def get(self, *a):
        self.gets += 1
        return super().get(*a)


def _last_program():
    return R._logs.lg.prog


def _ptrs(call):
    return [a for a in call[3:] if isinstance(a, int) and a >= 1 << 20]


def test_a_repeated_structure_skips_the_cache_look_up(recorded_launches, monkeypatch):
    table = _Counting(planner._programs)
    monkeypatch.setattr(planner, "_programs", table)
    x, y = cp.empty(N, dtype="float32"), cp.empty(N, dtype="float32")
    progs = []
    for _ in range(5):
        with cp.lazy():
            z = (x * 2.0 + y) * y - 1.0
        progs.append(_last_program())
    assert table.gets == 1  # the first evaluation only: the others compared with the thread's last plan
    assert all(p is progs[0] for p in progs)
    assert z.is_computed and _ptrs(recorded_launches[-1])[:2] == [x.data.ptr, y.data.ptr]


def test_a_structure_change_mid_loop_plans_again(recorded_launches):
    x, y = cp.empty(N, dtype="float32"), cp.empty(N, dtype="float32")
    xd, y2 = cp.empty(N, dtype="float64"), cp.empty(2 * N, dtype="float32")
    x2 = cp.empty(2 * N, dtype="float32")
    bodies = {
        "base": lambda: (x * 2.0 + y, (x, y)),
        "op": lambda: (x * 2.0 - y, (x, y)),  # same entries but one operation
        "dtype": lambda: (xd * 2.0 + y, (xd, y)),
        "shape": lambda: (x2 * 2.0 + y2, (x2, y2)),
        "scalar type": lambda: (x * 2 + y, (x, y)),
        "one array twice": lambda: (x * 2.0 + x, (x,)),
        # One operation, add of two lazy arrays (one operator, one memo hit), over other operands: (u, t) ...
        "operand positions": lambda: ((lambda t: (lambda u: u + t)(t * 3.0))(x * 2.0), (x,)),
        "operand positions 2": lambda: ((lambda t: (lambda u: u + u)(t * 3.0))(x * 2.0), (x,)),  # ... against (u, u)
    }
    seen = {}
    # Each structure twice in a row, then back to the base: a change after a repeat (the operators'
    # memos filled, the last plan's entries expected), and the same alternations again.
    order = [m for name in bodies if name != "base" for m in ("base", "base", name, name)] + ["base"]
    pos = ["operand positions"] * 2 + ["operand positions 2"] * 2 + ["operand positions"]  # (one right after the other)
    for name in order + order + pos:
        with cp.lazy():
            z, ins = bodies[name]()
        prog = _last_program()
        assert seen.setdefault(name, prog) is prog, name  # each structure its own Program, found again
        got = _ptrs(recorded_launches[-1])
        assert got[:len(ins)] == [a.data.ptr for a in ins] and got[-1] == z._materialize().data.ptr, name
    assert len({id(p) for p in seen.values()}) == len(bodies)


def test_structures_in_turn_are_each_found_without_a_look_up(recorded_launches, monkeypatch):
    """Two `with lazy():` blocks a step, and a value read mid-body (two stretches of one block):
    each evaluation's structure is the one that followed the last last time."""
    table = _Counting(planner._programs)
    monkeypatch.setattr(planner, "_programs", table)
    x, y = cp.empty(N, dtype="float32"), cp.empty(N, dtype="float32")
    progs = []
    for step in range(6):
        if step == 2:
            table.gets = 0
        with cp.lazy():
            u = x * 2.0 + y
        with cp.lazy():
            v = (x - y) * 0.5
            w = cp.exp(v)._materialize()  # a value needed mid-body (as a routine taking it asks): its own evaluation
            z = w * x + u
        progs.append(_last_program())
        assert u.is_computed and z.is_computed
    assert table.gets == 0  # (after the first two steps: every evaluation predicted)
    assert len(set(progs[1:])) == 1


@pytest.mark.skipif(graph.native is None, reason="the C records (_nodecore) are not built")
def test_a_repeated_body_records_the_last_plans_entries(recorded_launches):
    """With the C records, a loop body's entries are the last plan's own objects (`Trace.expect`):
    no tuple is made for them, and the plan's equality test meets identical entries."""
    x, y = cp.empty(N, dtype="float32"), cp.empty(N, dtype="float32")
    st = L._threads.st
    with cp.lazy():  # (`l - y` once before: its first use takes the general path, which makes its entries anew)
        z = x * 2.0 - y
    for k in range(3):
        with cp.lazy():
            z = cp.exp(x * 2.0 + y) * y - 1.0
            tr = st.trace
            ops = list(tr.ops)
        assert z.is_computed
    assert tr.expect is st.plans.last.ops and len(ops) == len(tr.expect)
    assert all(e is f for e, f in zip(ops, tr.expect))
    with cp.lazy():
        z = cp.exp(x * 2.0 - y) * y - 1.0  # (one operation differs: only its entry is made anew)
        ops = list(st.trace.ops)
    same = [e is f for e, f in zip(ops, tr.expect)]  # (x, 2.0, multiply, y, subtract, ...)
    assert same == [True] * 4 + [False] + [True] * (len(ops) - 5) and ops != tr.expect


def test_inputs_reassigned_shared_and_views_reach_the_kernel(recorded_launches):
    a = [cp.empty(N, dtype="float32") for _ in range(3)]
    big = cp.empty(2 * N, dtype="float32")
    w = a[0]
    for i in range(6):
        x = a[i % 3]
        with cp.lazy():
            w = (w * 0.5 + x) * x  # w: the last iteration's value (a new array each time)
        got = _ptrs(recorded_launches[-1])
        assert x.data.ptr in got and w._materialize().data.ptr == got[-1]
    v = big[::2]  # a view (not contiguous): the same structure, the engine's strided path
    for _ in range(2):
        with cp.lazy():
            u = (v * 0.5 + a[1]) * a[1]
        assert u.is_computed and u.shape == (N,)


def test_clearing_or_swapping_the_plan_cache_plans_again(recorded_launches, monkeypatch):
    x = cp.empty(N, dtype="float32")
    planned = []
    plain = planner.plan

    def counted(*a, **k):
        planned.append(1)
        return plain(*a, **k)

    monkeypatch.setattr(planner, "plan", counted)
    monkeypatch.setattr(planner, "_programs", {})  # (this test's own cache)

    def evaluate():
        with cp.lazy():
            z = x * 3.25 - 0.75
        assert z.is_computed

    evaluate()
    evaluate()
    assert len(planned) == 1
    planner.clear()
    evaluate()
    evaluate()
    assert len(planned) == 2
    monkeypatch.setattr(planner, "_programs", {})  # another cache: nothing kept from the one before is used
    evaluate()
    assert len(planned) == 3 and len(planner._programs) == 1


_THREADS = SCRIPT_PRELUDE + textwrap.dedent('''
    import threading
    import numpy as np
    import cuarray as cp
    from cuarray._core.fusion import lazy_mode as L
    from cuarray._core.fusion import replay as R

    x, y = cp.ndarray((1000,), np.float32), cp.ndarray((1000,), np.float32)
    bar, got, errors = threading.Barrier(2), {}, []

    def run(k):
        try:
            progs = []
            for _ in range(20):
                bar.wait(60)  # (the two threads' evaluations interleave)
                with cp.lazy():
                    z = x * 2.0 + y if k == 0 else x * 2.0 - y
                assert z.is_computed
                progs.append(R._logs.lg.prog)
            got[k] = (L._threads.st.plans.last, progs)
        except BaseException as e:
            errors.append(repr(e))
            bar.abort()

    ts = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert not errors, errors
    (m0, p0), (m1, p1) = got[0], got[1]
    assert m0 is not m1 and m0.prog is p0[0] and m1.prog is p1[0] and p0[0] is not p1[0]
    assert all(p is p0[0] for p in p0) and all(p is p1[0] for p in p1)

    # Threads one after the other (a thread's ident may be reused): each records into its own
    # state, never the state of one that ended (the C operators keep the last thread's state).
    states = []

    def one():
        try:
            st = L._threads.st
            with cp.lazy():
                z = x * 2.0 + y
                w = z * z - 1.0
                assert w._node.seg == st.trace.id and z._node.seg == st.trace.id
                assert st.live is not None and L._threads.st is st
            assert w.is_computed and st.live is None
            states.append(st)
        except BaseException as e:
            errors.append(repr(e))

    for _ in range(4):
        t = threading.Thread(target=one)
        t.start()
        t.join()
    with cp.lazy():  # (and the main thread's own)
        z = x * 2.0 + y
        w = z * z - 1.0
        assert w._node.seg == L._threads.st.trace.id
    assert not errors, errors
    assert len({id(s) for s in states}) == 4 and L._threads.st not in states

    # One thread stays inside lazy mode after its operators ran while another builds: the
    # second's operators record into its own state, not the first's (the last one seen).
    inside, built = threading.Event(), threading.Event()

    def first():
        try:
            with cp.lazy():
                a = x * 2.0 + y
                inside.set()
                assert built.wait(60)
                assert a._node.seg == L._threads.st.trace.id and len(L._threads.st.trace.ops) == 5
        except BaseException as e:
            errors.append(repr(e))
            inside.set()

    def second():
        try:
            assert inside.wait(60)
            with cp.lazy():
                b = x * 3.0 - y
                c = b * b
                assert c._node.seg == L._threads.st.trace.id and len(L._threads.st.trace.ops) == 6
        except BaseException as e:
            errors.append(repr(e))
        finally:
            built.set()

    ts = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert not errors, errors

    # A thread that ended leaves nothing of its own held (its lazy state, and with its thread-locals
    # a library's per-thread handles, go with it), although its operators ran last.
    import gc, weakref
    refs = []

    def last():
        with cp.lazy():
            w = (x * 2.0 + y) * y
        refs.append(weakref.ref(L._threads.st))

    t = threading.Thread(target=last)
    t.start()
    t.join()
    del t, ts
    gc.collect()
    assert refs[0]() is None
    print("ok")
''')


def test_each_thread_has_its_own_last_plan():
    r = subprocess.run([sys.executable, "-c", _THREADS], cwd=_ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


def test_clearing_the_memos_sends_the_operators_to_the_general_path_again(recorded_launches):
    """The C operators keep the memo hits they were asked for (`lazyops.c`'s per-operator cache);
    `clear_memos` empties the memos and those caches: the next operation takes the general path,
    which fills the memo again (a stale cached hit would leave it empty)."""
    from cuarray._core.fusion import fast_paths

    x = cp.empty(N, dtype="float32")
    memos = [fast_paths.operator_memo("multiply", False), fast_paths.operator_memo("subtract", False),
             fast_paths._ufunc_memo]
    for _ in range(3):
        with cp.lazy():
            y = cp.exp(x * 2.0) - x
            z = y * y
        assert z.is_computed
    assert all(memos)
    L.clear_memos()
    assert not any(memos)
    with cp.lazy():
        y = cp.exp(x * 2.0) - x
        z = y * y
    assert z.is_computed and all(memos)
