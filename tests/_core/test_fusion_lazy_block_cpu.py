"""`with cuarray.lazy():`'s entry and exit in C (`_nodecore.LazyBlock`, `_native/lazy_block.c`)
against the pure-Python reference it stands for (`fusion.lazy_block`'s class, which runs with
CUARRAY_PURE_PYTHON_NODES=1): blocks of every kind run in two fresh processes on the fake device,
each writing what it saw (kernel launches, what was computed, the thread's lazy state after each
block, NumPy-evaluated values, the exceptions raised), and the two transcripts must be equal. The
kinds: a plain block, nested blocks (only the outermost computes), an exception passing through
(nothing computed, the state left clean, the exception unchanged), a flush that raises, the
steady path switched off, `evaluate="numpy"` blocks and functions decorated with `lazy`, a
tracing block (`_track=False`, as `fuse` makes), one context object entered twice, bad
arguments, blocks in four threads at once."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from cuarray._core.nodecore import native
from cuarray.testing.fake_device import COUNTING_PRELUDE, SCRIPT_PRELUDE

_SCRIPT = SCRIPT_PRELUDE + COUNTING_PRELUDE + textwrap.dedent('''
    import json, threading
    import numpy as np
    import cuarray as cp
    from cuarray._core import tracing
    from cuarray._core.fusion import evaluation as E, lazy_mode as L
    from cuarray._core.nodecore import native

    out = {"c": native is not None and L.lazy.__mro__[1] is native.LazyBlock}
    transcript = []
    N = 1000
    a, b = cp.ndarray((N,), np.float32), cp.ndarray((N,), np.float32)

    def state():
        st = L._threads.st
        return [st.depth, st.host, st.live is None, st.trace is None, tracing.state.tracer is None,
                len(tracing.active)]

    def note(name, *xs):
        transcript.append([name, len(launches), [bool(x.is_computed) for x in xs], state()])

    def raised(name, fn):
        try:
            fn()
        except Exception as e:
            transcript.append([name, type(e).__name__, str(e), state()])
        else:
            transcript.append([name, "no exception", state()])

    for i in range(4):  # a plain block, again (its steady state from the third)
        with cp.lazy():
            y = cp.sqrt(a * 2.0 + b) - 1.0
            transcript.append(["inside", L.is_lazy_mode(), state()])
        note("plain", y)
    with cp.lazy():  # nested: the inner exit computes nothing
        y = a * 3.0
        with cp.lazy():
            z = y + b
            transcript.append(["inner", state()])
        note("after inner", y, z)
    note("after outer", y, z)

    def failing():
        with cp.lazy():
            global w
            w = a * 5.0 - b
            raise KeyError("in the body")
    raised("body raises", failing)
    transcript.append(["w", bool(w.is_computed)])

    def boom(st, nodes):
        raise RuntimeError("flush failed (test)")
    E._steady_finish, keep = boom, E._steady_finish

    def flushed():
        with cp.lazy():
            global v
            v = a * 7.0 + b
    raised("flush raises", flushed)
    transcript.append(["v", bool(v.is_computed)])
    E._steady_finish = None  # (the steady path off: `compute` does it)
    for i in range(3):
        with cp.lazy():
            y = cp.exp(a * 2.0 + b)
        note("no steady path", y)
    E._steady_finish = keep
    with cp.lazy():
        y = cp.exp(a * 2.0 + b)
    note("steady path back", y)

    x = np.linspace(0.0, 1.0, 7)
    with cp.lazy(evaluate="numpy") as lz:
        h = lz.leaf(x)
        transcript.append(["numpy inside", state()])
        r = cp.exp(-h) * 2 + 1
    transcript.append(["numpy block", r.numpy().tolist(), state()])

    @cp.lazy
    def f(u, v):
        return cp.sin(u) * v + 1.0

    transcript.append(["decorated", f(x, x).tolist(), f.__name__, state()])

    @cp.lazy(evaluate="numpy")
    def g(u):
        return u * u - 2

    transcript.append(["decorated numpy", g(x).tolist(), state()])
    with L.lazy(_track=False):  # (tracing: nothing is computed on exit)
        t = a * 2.0
        transcript.append(["tracing inside", state()])
    transcript.append(["tracing", bool(t.is_computed), state(), len(launches)])
    ctx = cp.lazy()
    with ctx:
        y = a + 1.0
    with ctx:
        z = b + 2.0
    note("one context twice", y, z)
    raised("fn not callable", lambda: cp.lazy(3))
    raised("evaluate unknown", lambda: cp.lazy(evaluate="host"))
    raised("leaf outside", lambda: cp.lazy.leaf(x))

    seen = {}

    def worker(k):
        for i in range(20):
            with cp.lazy():
                y = (a * float(k) + b) * 0.5
                assert L._threads.st.depth == 1
            assert y.is_computed and L._threads.st.depth == 0
        seen[k] = state()

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    transcript.append(["threads", [seen.get(k) for k in range(4)], state()])
    out["transcript"] = transcript
    print(json.dumps(out))
''')


def _run(pure):
    env = dict(os.environ)
    env.pop("CUARRAY_PURE_PYTHON_NODES", None)
    if pure:
        env["CUARRAY_PURE_PYTHON_NODES"] = "1"
    proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_lazy_keeps_its_signature():
    """`lazy` has no __init__ of its own (the base takes its arguments): inspect.signature and
    help() still show its parameters (with the C base they raised "no signature found")."""
    import inspect

    import cuarray

    assert str(inspect.signature(cuarray.lazy)) == "(fn=None, *, evaluate=None, _track=True)"

    @cuarray.lazy
    def f(a, b=2):
        return a

    assert str(inspect.signature(f)) == "(a, b=2)" and f.__name__ == "f"


@pytest.mark.skipif(native is None, reason="the node core is not built")
def test_blocks_in_c_do_what_the_python_blocks_do():
    c, py = _run(False), _run(True)
    assert c["c"] and not py["c"]
    assert len(c["transcript"]) == len(py["transcript"]) > 20
    for got, want in zip(c["transcript"], py["transcript"]):
        assert got == want
    by_name = {r[0]: r for r in c["transcript"]}
    assert by_name["body raises"][1:3] == ["KeyError", "'in the body'"]
    assert by_name["flush raises"][1:3] == ["RuntimeError", "flush failed (test)"]
    clean = [0, False, True, True, True, 0]
    assert by_name["body raises"][3] == by_name["flush raises"][3] == clean
    assert by_name["inner"][1][0] == 2 and by_name["after inner"][2] == [False, False]
    assert by_name["after outer"][2] == [True, True] and by_name["tracing"][1] is False
    assert by_name["threads"][1] == [clean] * 4
