"""The end of a lazy block in its steady state as one C call (`evaluation._steady_finish`,
cuarray/_core/_native/steady.c) against the Python path it stands for: loops of every kind the
replay logic knows (carried values, a scalar that changes, an output kept by the caller, an input
that moves, a one-kernel body never replayed, a one-GEMV body replayed, a structure change, two
blocks a step, graph replay switched off and on, an in-place write mid-body, device times) run in
two fresh processes with the device stubbed and a fake capture, one with the C path and one
without; each writes what it saw step by step (graphs replayed, copies, captures, the evaluation
log, which arrays the caller got), and the two transcripts must be equal. The C run must also have
done the evaluations it is for (so the comparison is not of two Python runs)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from cuarray._core.fusion.graph import native

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = textwrap.dedent('''
    import json, sys
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray.cuda.libs import cublas
    cublas.gemm = lambda *a, **k: None  # (the fake device has no cuBLAS: the products launch nothing)
    cublas.gemv = lambda *a, **k: True
    from cuarray._core.fusion import evaluation as E
    from cuarray._core.fusion import graph_replay as G
    from cuarray._core.fusion import replay as R

    STEADY = {steady}
    used = {{"done": 0, "planned": 0, "none": 0}}
    if STEADY:
        assert E._steady_finish is not None
        fast = E._steady_finish

        def counted(st, nodes):
            r = fast(st, nodes)
            used["done" if r is True else "none" if r is None else "planned"] += 1
            return r

        E._steady_finish = counted
    else:
        E._steady_finish = None

    events = []
    names = {{}}

    def name(o):  # objects numbered in the order first seen (the same order in both runs)
        return names.setdefault(id(o), len(names))

    class FakeGraph:
        def replay(self, stream):
            events.append(("replay", name(self)))

    keep_alive = []

    def fake_capture(prog, values, after=None):
        g = FakeGraph()
        outs = prog.run(values)
        keep_alive.append((g, outs))
        events.append(("capture", name(g), after is not None))
        return g, outs, ()

    def fake_copy_in(ent, values, carried):
        events.extend(("moved", i) for i in ent.static)
        if carried:
            events.extend(("carried", i) for i in ent.inbufs)

    G._capture, G._copy_in, G._synchronize = fake_capture, fake_copy_in, lambda: None
    G._copy_back = lambda ent, outs: None
    R.GRAPH_REPLAY = True
    transcript = []

    def note(label, outs):
        vals = [o._node.value if hasattr(o, "_node") else o for o in outs]  # (a look: nothing handed out)
        ev = [dict((k, v) for k, v in e.items() if k not in ("build_us", "host_us", "device_us"))
              for e in R.evaluations()[-2:]]
        transcript.append([label, list(events), [name(v) for v in vals], ev])
        del events[:]

    N, F = 40, 30
    X, Y = cp.ndarray((N, F), np.float32), cp.ndarray((N,), np.float32)

    def logreg(w, b, lr=0.1):
        with cp.lazy():
            p = 1 / (1 + cp.exp(-cp.dot(X, w) - b))
            gw = cp.dot(X.T, p - Y) / N + 0.02 * w
            gb = (p - Y).mean()
            w, b = w - lr * gw, b - lr * gb
        return w, b

    w, b = cp.ndarray((F,), np.float32), 0.0
    for i in range(14):  # carried w and b, X and Y stable
        w, b = logreg(w, b)
        note("logreg", [w, b])
    for i in range(8):  # a scalar that changes, and back
        w, b = logreg(w, b, 0.2 if i in (2, 3) else 0.1)
        note("lr", [w, b])
    kept = []
    for i in range(8):  # an output the caller keeps for a while
        w, b = logreg(w, b)
        if i == 2:
            kept.append(w)
        if i == 5:
            del kept[:]
        note("kept", [w, b])
    for i in range(6):  # an input that moves once
        if i == 2:
            X = cp.ndarray((N, F), np.float32)
        w, b = logreg(w, b)
        note("moved", [w, b])
    a, c = cp.ndarray((1000,), np.float32), cp.ndarray((1000,), np.float32)
    for i in range(6):  # one kernel: never replayed
        with cp.lazy():
            y = cp.sqrt(cp.exp(a * 2.0 + c) * c - 1.0)
        note("chain", [y])
    for i in range(10):  # one GEMV a body: a cuBLAS call pays for a capture (replay.LAUNCHES)
        with cp.lazy():
            u = cp.dot(X, w)
        note("gemv", [u])
    for i in range(6):  # a structure change mid-loop, and back
        with cp.lazy():
            y = cp.exp(a * 2.0 + c) * c
            if i == 3:
                y = y + a
            y = cp.dot(y, c) + y.sum()
        note("change", [y])
    for i in range(6):  # two blocks a step: two Programs in turn
        with cp.lazy():
            u = cp.dot(X, w) * 2.0 + cp.dot(X, w).sum()
        with cp.lazy():
            w = w - 0.01 * cp.dot(X.T, u) + cp.dot(X.T, u).mean()
        note("two", [u, w])
    for i in range(8):  # graph replay off for a while
        if i == 3:
            R.set_graph_replay(False)
        if i == 5:
            R.set_graph_replay(True)
        w, b = logreg(w, b)
        note("switch", [w, b])
    Z = cp.ndarray((F,), np.float32)
    for i in range(5):  # an in-place write mid-body (an evaluation that is not the last)
        with cp.lazy():
            h = cp.dot(X, w) * 0.5
            cp.multiply(h.sum(), w, out=Z)
            w = w - cp.dot(X.T, h) * 0.01 + Z
        note("write", [w])
    for i in range(5):  # device times asked for
        R.set_device_times(i in (1, 2))
        try:
            w, b = logreg(w, b)
            note("timed", [w, b])
        except Exception as e:
            transcript.append(["timed", type(e).__name__])
    R.set_device_times(False)
    print(json.dumps({{"transcript": transcript, "used": used}}))
''')


def _run(steady):
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", _SCRIPT.format(steady=steady)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(native is None, reason="the node core is not built (CUARRAY_PURE_PYTHON_NODES=1 or no compiler)")
def test_the_steady_path_does_what_the_python_path_does():
    c, py = _run(True), _run(False)
    assert py["used"] == {"done": 0, "planned": 0, "none": 0}
    used = c["used"]
    # replays and never-replayed kernels done whole in C; predictions kept where a replay is decided
    assert used["done"] >= 30 and used["planned"] >= 5 and used["none"] >= 5, used
    for got, want in zip(c["transcript"], py["transcript"]):
        assert got == want
    assert len(c["transcript"]) == len(py["transcript"])
    replays = sum(1 for step in c["transcript"] for e in step[1] if e[0] == "replay")
    assert replays >= 25, replays
