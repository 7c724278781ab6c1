"""Lazy mode's evaluation log and CUDA-graph replay decisions (fusion/replay.py): `decide` is a
pure function (every reason it gives, and the one case it says yes), and what lazy mode notes
for each evaluation (its launches, host times, repeats of one structure, inputs that changed
address or value), shown by `explain()`. The evaluation log with the device stubbed runs in a
subprocess (cuarray/testing/fake_device.py replaces the launches for the whole process)."""

import os
import subprocess
import sys
import textwrap

import pytest

from cuarray._core.fusion import replay as R
from cuarray._core import nodecore

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

K3 = ("elementwise", "eager-ufunc", "reduction")  # three kernel launches (a cuBLAS call counts more)


def _run_script(script, steady):
    """Run a script of this file in a fresh process with the device stubbed; `steady`: with the end
    of a lazy block's C path (`evaluation._steady_finish`, `_native/steady.c`) where it is built,
    else the Python path alone (the same assertions hold on either)."""
    script = script.format(tests=os.path.join(_ROOT, "tests"))
    if not steady:
        script = script.replace("install()\n", "install()\nfrom cuarray._core.fusion import evaluation as _E\n"
                                "_E._steady_finish = None\n", 1)
        assert "_steady_finish = None" in script
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0 and res.stdout.strip().endswith("ok"), res.stdout + res.stderr


@pytest.mark.parametrize("args, enabled, want", [
    # (kinds, output_is_input, repeats, changed_arrays, changed_scalars)
    (((), False, 5, 0, 0), True, "nothing launched"),
    ((("elementwise", "call solve"), False, 5, 0, 0), True, "not capturable: call solve"),
    ((("call getitem",) + K3, False, 5, 0, 0), True, "not capturable: call getitem"),
    ((K3 * 2, True, 5, 0, 0), True, "an output is an input"),
    ((K3 * 2, False, 5, 0, 1), True, "1 scalar argument(s) changed value"),
    ((K3 * 2, False, R.MIN_REPEATS - 1, 0, 0), True, "structure seen {} time(s)".format(R.MIN_REPEATS - 1)),
    # (a graph launch counts as GRAPH_LAUNCH = 0.5 of a kernel launch, a copy in as one; MIN_SAVED = 0.25)
    ((("elementwise",), False, 9, 1, 0), True, "would not pay: 1 launch(es)"),  # 1 - (0.5 + 1) < 0.25
    ((("elementwise", "eager-ufunc"), False, 9, 2, 0), True, "would not pay: 2 launch(es)"),  # 2 - 2.5
    ((("product",), False, 9, 3, 0), True, "would not pay: 3 launch(es)"),  # a cuBLAS call: 3 - (0.5 + 3)
    ((K3 * 2, False, 9, 6, 0), True, "would not pay: 6 launch(es)"),  # 6 - (0.5 + 6)
    ((K3 * 2, False, 9, 1, 0), False, "eligible, saves 4.5 launch(es); graph replay is off"),
])
def test_decide_says_why_not(args, enabled, want):
    ok, why = R.decide(*args, enabled=enabled)
    assert not ok and why.startswith(want), why


def test_a_cublas_call_counts_as_three_launches():
    # cublasLtMatmul's host time is several kernel launches' (issue 57): a body of one GEMM, or of one
    # GEMM with its bias and ReLU in the epilogue, pays for a capture even with two inputs copied in,
    # where a one-kernel body with one does not
    assert R.launches_of(("product", "view", "epilogue", "elementwise")) == 7
    for body in (("product",), ("epilogue",), ("view", "product")):
        assert R.decide(body, False, R.MIN_REPEATS, 2, 0, enabled=True) == (True, "replay"), body
    ok, why = R.decide(("elementwise",), False, 9, 1, 0, enabled=True)
    assert not ok and why.startswith("would not pay: 1 launch(es)"), why


def test_a_graph_launch_costs_half_a_kernel_launch():
    # cuGraphLaunch of a captured one-kernel graph costs the host about half of cuLaunchKernel of
    # that kernel (issue 57): a body of one fused kernel pays where its inputs are read in place,
    # not where one must be copied in first (a copy costs a launch)
    assert (R.GRAPH_LAUNCH, R.MIN_SAVED) == (0.5, 0.25)
    assert R.pays(1, 0) and not R.pays(1, 1) and R.pays(2, 1) and not R.pays(0, 0)
    assert R.decide(("elementwise",), False, R.MIN_REPEATS, 0, 0, enabled=True) == (True, "replay")
    assert R.decide(("reduction",), False, R.MIN_REPEATS, 0, 0, enabled=True) == (True, "replay")
    ok, why = R.decide(("elementwise",), False, R.MIN_REPEATS, 1, 0, enabled=True)
    assert not ok and why == "would not pay: 1 launch(es) against 1 graph launch (0.5 of a launch) + 1 copy(ies) in", why
    prev = R.set_replay_costs(1.0, 2)  # (the fake device's: the launch-count model)
    try:
        assert prev == (0.5, 0.25) and not R.pays(1, 0) and not R.pays(2, 0) and R.pays(3, 0)
    finally:
        assert R.set_replay_costs(*prev) == (1.0, 2)
    assert (R.GRAPH_LAUNCH, R.MIN_SAVED) == prev
    # what the steady C path could not read as a number is refused, and nothing is changed
    for bad, exc, match in (({"graph_launch": "0.5"}, TypeError, "graph_launch must be a real number, not str"),
                            ({"min_saved": True}, TypeError, "min_saved must be a real number, not bool"),
                            ({"graph_launch": -0.1}, ValueError, "graph_launch must be finite and >= 0"),
                            ({"graph_launch": 0.5, "min_saved": float("nan")}, ValueError, "min_saved must be finite")):
        with pytest.raises(exc, match=match):
            R.set_replay_costs(**bad)
        assert (R.GRAPH_LAUNCH, R.MIN_SAVED) == prev


def test_views_are_capturable_and_launch_nothing():
    # transpose / basic indexing / reshape of a computed value: no host synchronisation, no launch
    V = ("view",)
    assert R.decide(V + K3 * 2 + V, False, 5, 1, 0, enabled=True) == (True, "replay")
    ok, why = R.decide(V * 3, False, 9, 0, 0, enabled=True)
    assert not ok and why.startswith("nothing launched"), why
    ok, why = R.decide(V * 4 + K3, False, 9, 3, 0, enabled=True)  # 3 launches, not 7
    assert not ok and why.startswith("would not pay: 3 launch(es)"), why


def _step(cls, name=None, ins=()):
    st = object.__new__(cls)
    if name is not None:
        st.name = name
    if ins:
        st.ins = ins
    return st


class _Prog:
    def __init__(self, n_in, steps, outputs):
        self.inputs, self.steps, self.outputs = [None] * n_in, steps, outputs


def test_step_kinds_of_views_products_and_other_calls():
    from cuarray._core.fusion import epilogue, planner

    for name in ("transpose", "getitem", "reshape"):
        assert R.step_kind(_step(planner._Call, name, (0,))) == "view"
    assert R.step_kind(_step(planner._Call, "dot", (0, 1))) == "product"
    assert R.step_kind(_step(planner._Call, "matmul", (0, 1))) == "product"
    assert R.step_kind(_step(planner._Call, "tensordot", (0, 1))) == "call tensordot"
    assert R.step_kind(_step(epilogue.Epilogue, "matmul")) == "epilogue"
    assert R.step_kind(_step(planner._Elementwise)) == "elementwise"
    assert R.step_kind(_step(planner._Reduction)) == "reduction"
    assert R.step_kind(_step(planner._EagerUfunc)) == "eager-ufunc"


def test_aliased_follows_views_to_inputs_and_between_outputs():
    from cuarray._core.fusion import planner

    def view(k):
        return _step(planner._Call, "transpose", (k,))

    def ew(*ks):
        return _step(planner._Elementwise, None, ks)

    def dot(a, b):
        return _step(planner._Call, "dot", (a, b))

    # slots: inputs 0, 1; steps from 2
    assert not R.aliased(_Prog(2, [ew(0, 1)], [2]))
    assert R.aliased(_Prog(2, [ew(0, 1)], [0]))                    # an input itself
    assert R.aliased(_Prog(2, [view(0)], [2]))                     # x.T of an input
    assert R.aliased(_Prog(2, [view(0), view(2)], [3]))            # a view of a view of an input
    assert not R.aliased(_Prog(2, [view(0), dot(2, 1)], [3]))      # x.T read by a product: a new array
    assert not R.aliased(_Prog(2, [ew(0, 1), view(2)], [3]))       # a view of a computed value
    assert R.aliased(_Prog(2, [ew(0, 1), view(2)], [2, 3]))        # y and y.T: one memory
    assert R.aliased(_Prog(2, [ew(0, 1)], [2, 2]))                 # one slot twice
    assert not R.aliased(_Prog(2, [ew(0, 1), ew(2, 0)], [2, 3]))


def test_capture_uses_the_graph_module_api():
    # `cuarray.cuda.graph` (the package attribute) is the context manager, not the module: the
    # capture must reach CUDAGraph and the context manager through the module itself.
    import inspect

    from cuarray.cuda import graph as package_attr
    from cuarray._core.fusion import graph_replay as G

    mod = sys.modules["cuarray.cuda.graph"]
    assert G._CUDAGraph is mod.CUDAGraph and G._capturing is mod.graph
    assert package_attr is mod.graph and not hasattr(package_attr, "CUDAGraph")
    assert "stream" in inspect.signature(G._capturing).parameters
    assert "stream" in inspect.signature(G._CUDAGraph.replay).parameters


def test_decide_replays_only_a_safe_repeated_paying_body():
    assert R.decide(K3 * 2, False, R.MIN_REPEATS, 1, 0, enabled=True) == (True, "replay")
    assert R.decide(("eager-ufunc",) * 3, False, 7, 0, 0, enabled=True) == (True, "replay")
    # the default is the module switch, on unless the environment turns it off
    assert R.GRAPH_REPLAY is (os.environ.get("CUARRAY_GRAPH_REPLAY", "1") not in ("", "0"))
    assert R.decide(K3 * 2, False, 9, 0, 0)[0] is R.GRAPH_REPLAY


def test_the_switch_by_call_and_by_environment():
    prev = R.set_graph_replay(False)
    try:
        assert R.GRAPH_REPLAY is False and not R.decide(K3 * 2, False, 9, 0, 0)[0]
        assert R.set_graph_replay(True) is False
        assert R.GRAPH_REPLAY is True and R.decide(K3 * 2, False, 9, 0, 0) == (True, "replay")
    finally:
        R.set_graph_replay(prev)
    code = "from cuarray._core.fusion import replay; print(replay.GRAPH_REPLAY)"
    env0 = {k: v for k, v in os.environ.items() if k != "CUARRAY_GRAPH_REPLAY"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(env0, PYTHONPATH=_ROOT), timeout=120)
    assert out.stdout.strip() == "True", (out.stdout, out.stderr)  # on by default
    for value, want in (("1", "True"), ("0", "False"), ("", "False")):
        env = dict(os.environ, CUARRAY_GRAPH_REPLAY=value, PYTHONPATH=_ROOT)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
        assert out.stdout.strip() == want, (value, out.stdout, out.stderr)


_SCRIPT = textwrap.dedent('''
    import sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray._core.fusion import replay as R

    a, b = cp.ndarray((1000,), np.float32), cp.ndarray((1000,), np.float32)

    def run(x, s=2.0):
        with cp.lazy():
            y = cp.exp(x * s + b) - 1.0
        return y

    n0 = len(R.evaluations())
    for i in range(4):
        run(a)
    ev = R.evaluations()[n0:]
    assert [e["repeats"] for e in ev] == [1, 2, 3, 4], ev
    assert all(e["steps"] == ev[0]["steps"] and len(e["steps"]) == 1 for e in ev), ev
    assert "elementwise kernel" in ev[0]["steps"][0]
    assert all(e["host_us"] > 0 and e["build_us"] > 0 for e in ev), ev
    # one fused kernel: never replayed, said from the first evaluation on (no input signature made)
    assert all(e["reason"].startswith("would not pay: 1 launch(es)") for e in ev), ev
    # With the replay off, each evaluation's inputs are compared with the last one's for explain():
    # a changed scalar value is counted (a graph bakes it in); a new input array is a copy in
    R.set_graph_replay(False)
    run(a)
    run(a, 3.0)
    assert R.evaluations()[-1]["reason"].startswith("1 scalar argument(s) changed"), R.evaluations()[-1]
    run(a, 3.0)
    c = cp.ndarray((1000,), np.float32)
    run(c, 3.0)
    assert R.evaluations()[-1]["reason"].startswith("would not pay: 1 launch(es) against 1 graph launch (1.0 of a launch) + 1 copy"), \
        R.evaluations()[-1]
    assert R.evaluations()[-1]["repeats"] == 8
    # a structure change starts the count again
    with cp.lazy():
        y = (a * 2.0).sum() + (b * a).max() * b
    e = R.evaluations()[-1]
    assert e["repeats"] == 1 and len(e["steps"]) >= 2, e
    # the log is bounded and explain() shows it
    for i in range(2 * R.KEEP):
        run(a)
    assert len(R.evaluations()) == R.KEEP
    with cp.lazy():
        y = cp.exp(a * 2.0 + b) - 1.0
        text = y.explain()
    assert "evaluations (this thread" in text and "graph replay: no, would not pay" in text, text
    # device times, when asked for: an event pair around each evaluation's launches, read with the log
    assert R.evaluations()[-1]["device_us"] is None and "device not timed" in R.describe()
    from cuarray.cuda import stream as S
    recorded = []

    class Event:
        def __init__(self):
            self.k = len(recorded)

        def record(self):
            recorded.append(self)

        def synchronize(self):
            pass

    S.Event, S.get_elapsed_time = Event, lambda a, b: 0.25 * (b.k - a.k)
    assert R.set_device_times(True) is False
    run(a)
    assert len(recorded) == 2 and R.evaluations()[-1]["device_us"] == 250.0, R.evaluations()[-1]
    assert "device 250.0 us" in R.describe()
    R.set_device_times(False)
    run(a)
    assert len(recorded) == 2 and R.evaluations()[-1]["device_us"] is None
    # another thread has its own log
    import threading
    seen = []
    t = threading.Thread(target=lambda: seen.append(len(R.evaluations())))
    t.start(); t.join()
    assert seen == [0], seen
    print("ok")
''')


@pytest.mark.parametrize("steady", [True, False], ids=["steady-path", "python-path"])
def test_evaluations_are_logged_with_their_launches_times_and_replay_decision(steady):
    _run_script(_SCRIPT, steady)



_REPLAY_SCRIPT = textwrap.dedent('''
    import sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray._core.fusion import graph_replay as G
    from cuarray._core.fusion import replay as R

    captured, replayed = [], []

    class FakeGraph:
        def __init__(self, k):
            self.k = k

        def replay(self, stream):
            replayed.append(self.k)

    def fake_capture(prog, values, after=None):
        # what the graph would compute: the Program's launches (stubbed) on the values it reads
        captured.append(([v.data.ptr if isinstance(v, cp.ndarray) else v for v in values], after is not None))
        return FakeGraph(len(captured) - 1), prog.run(values), ()

    copies = []

    def fake_copy_in(ent, values, carried):  # (the stub has no device-to-device copy)
        copies.extend(("moved", i) for i in ent.static)
        if carried:
            copies.extend(("carried", i) for i in ent.inbufs)

    G._capture, G._copy_in, G._synchronize = fake_capture, fake_copy_in, lambda: None
    R.GRAPH_REPLAY, R.MIN_SAVED = True, -9  # (a one-kernel body pays here: the logic is under test)
    X = cp.ndarray((100,), np.float32)

    def step(w, s=0.5):
        with cp.lazy():
            w = cp.exp(w * s + X) - w
        return w

    def value(w):  # (its node's value: a look that hands nothing to user code, unlike `cp.asarray(w)`)
        return w._node.value if hasattr(w, "_node") else w

    w = cp.ndarray((100,), np.float32)
    for i in range(8):
        w = step(w)
    ev = R.evaluations()
    # one Program from the first step on (a carried lazy value records as the array it was)
    assert [e["repeats"] for e in ev[-8:]] == [1, 2, 3, 4, 5, 6, 7, 8], ev
    assert [e["replay"] for e in ev[-8:]] == [False, False] + [True] * 6, ev
    assert ev[-1]["reason"].startswith("replayed"), ev[-1]
    # two graphs, alternating: graph 0 reads w from its buffer, graph 1 from graph 0's output and
    # copies its own into that buffer; X (stable) is read where it is by both
    assert len(captured) == 2 and replayed == [0, 1, 0, 1, 0, 1], (captured, replayed)
    ent = next(iter(G._st.entries.values()))
    assert not ent.static and list(ent.carried.items()) == [(0, 0)] and ent.stable, (ent.static, ent.carried)
    assert ent.inbufs[0].data.ptr in captured[0][0] and not captured[0][1]
    assert ent.outs[0][0].data.ptr in captured[1][0] and captured[1][1]
    assert X.data.ptr in captured[0][0] and X.data.ptr in captured[1][0]
    assert copies == [("carried", 0)], copies  # the previous step's w, once, at the first replay
    # the user's w is the last replay's output itself (no copy out)
    assert value(w) is ent.outs[1][0]
    # an output still held (the user keeps it, or a view of it) is never overwritten: that step
    # runs the Program, and the next replays copy the carried value in again
    for keep in (lambda w: w, lambda w: value(w)[10:20]):
        kept = keep(w)
        before = value(w)
        n = len(replayed)
        w = step(w)  # graph 0 (its outputs are free)
        w = step(w)  # graph 1 would overwrite `before`
        assert replayed[n:] == [0], replayed[n:]
        assert R.evaluations()[-1]["reason"].startswith("an output of an earlier replay is still held"), \
            R.evaluations()[-1]
        assert value(w) is not before and value(w) is not ent.outs[1][0]
        w = step(w)
        assert replayed[-1] == 0 and copies[-1] == ("carried", 0), (replayed, copies)
        w = step(w)  # graph 1's output is still held
        assert replayed[-1] == 0 and len(replayed) == n + 2, replayed
        del kept, before
        w = step(w)
        w = step(w)
        assert replayed[-2:] == [0, 1] and len(copies) == 3, (replayed, copies)  # (graph 1 reads graph 0's output)
        copies[:] = [copies[0]]
    # graph 1's carried output handed to user code (`cp.asarray(w)`, which may write into it): graph 1
    # copied it into graph 0's buffer before the user had it, so the next replay copies it in again
    # and runs graph 0; a read (`get()`, `item()`, `float()`, `repr()`: `_materialize(False)`) hands nothing out
    for i in range(4):
        w = step(w)
    if replayed[-1] != 1:
        w = step(w)
    n, c = len(replayed), len(copies)
    assert replayed[-1] == 1 and value(w) is ent.outs[1][0], replayed
    cp.asarray(w)
    w = step(w)
    assert replayed[n:] == [0] and copies[c:] == [("carried", 0)], (replayed[n:], copies[c:])
    w = step(w)
    w._materialize(False)  # (the fake device cannot copy to the host: the read's own step)
    w = step(w)
    assert replayed[n:] == [0, 1, 0] and copies[c:] == [("carried", 0)], (replayed[n:], copies[c:])
    # an input that moves (a new array each step, not an output): copied into its own buffer
    G._st.entries = None
    n = len(replayed)
    for i in range(6):
        fresh = cp.ndarray((100,), np.float32)
        with cp.lazy():
            y = cp.exp(fresh * 0.5 + X) * fresh
    assert len(replayed) - n == 4 and copies.count(("moved", 0)) == 4, (replayed, copies)
    # a scalar changing value: no replay (the entry is dropped); the next evaluations capture again
    for i in range(4):
        w = step(w)
    n, c = len(replayed), len(captured)
    w = step(w, 0.25)
    assert len(replayed) == n and R._logs.lg.prog not in G._st.entries, G._st.entries
    assert R.evaluations()[-1]["reason"].startswith("1 scalar argument(s) changed"), R.evaluations()[-1]
    for i in range(3):
        w = step(w, 0.25)
    assert len(captured) == c + 2 and len(replayed) == n + 3, (len(captured), len(replayed))
    # another stream: no replay
    G._st.entries[R._logs.lg.prog].stream = object()  # (as if captured on another stream)
    w = step(w, 0.25)
    assert len(replayed) == n + 3 and R._logs.lg.prog not in G._st.entries
    # a NaN literal of the body (`cp.nan`: the same object each step) is an unchanged scalar: replayed;
    # a NaN made anew at each step never equals the last one: not replayed
    for i in range(4):
        w = step(w, cp.nan)
    n = len(replayed)
    for i in range(3):
        w = step(w, cp.nan)
    assert len(replayed) == n + 3, (n, len(replayed), R.evaluations()[-1])
    for i in range(4):
        w = step(w, float("nan"))
    assert len(replayed) == n + 3, (n, len(replayed))
    assert R.evaluations()[-1]["reason"].startswith("1 scalar argument(s) changed"), R.evaluations()[-1]
    n = len(replayed)
    # a structure change: a new Program, no stale replay
    with cp.lazy():
        y = cp.exp(w * 0.25 + X) + w  # (+ instead of -)
    assert R.evaluations()[-1]["repeats"] == 1 and len(replayed) == n
    # a capture that fails: declined, with its reason, and the Program runs as usual
    def failing(prog, values, after=None):
        raise RuntimeError("host synchronisation inside")
    G._capture = failing
    for i in range(5):
        with cp.lazy():
            y = cp.sin(w * 2.0) * X
    e = R.evaluations()[-1]
    assert not e["replay"] and "capture failed: RuntimeError: host synchronisation inside" in e["reason"], e
    assert y.shape == (100,)
    # ... tried again after RETRY_AFTER evaluations, MAX_CAPTURES times in all (another thread's
    # operation may have invalidated it); a host synchronisation inside the body is not retried
    tries = []
    def failing(prog, values, after=None, error=RuntimeError):
        tries.append(1)
        raise error("invalidated")
    G._capture = failing
    for i in range(4 + (G.RETRY_AFTER + 1) * 4):
        with cp.lazy():
            y = cp.tan(w * 2.0) * X
    assert len(tries) == G.MAX_CAPTURES, len(tries)
    del tries[:]
    G._capture = lambda prog, values, after=None: failing(prog, values, after, cp.cuda.StreamCaptureError)
    for i in range(4 + (G.RETRY_AFTER + 1) * 2):
        with cp.lazy():
            y = cp.tanh(w * 2.0) * X
    assert len(tries) == 1, len(tries)
    # moved inputs too large to copy in: not replayed
    G._capture = fake_capture
    for i in range(5):
        big = cp.ndarray((1 << 19,), np.float32)
        with cp.lazy():
            y = cp.cos(big * 2.0) * big
    e = R.evaluations()[-1]
    assert not e["replay"] and "would not pay: its copies move" in e["reason"], e
    # a step whose arrays are large: declined before any capture (its graphs would hold that memory)
    R.MAX_GRAPH_BYTES = 300
    c = len(captured)
    for i in range(5):
        with cp.lazy():
            y = cp.cos(X * 2.0) * X + 1.0
    e = R.evaluations()[-1]
    assert not e["replay"] and "would not pay: its inputs are 400 bytes" in e["reason"], e
    assert len(captured) == c
    # ... or whose outputs, twice over (two graphs), would be: told by its first evaluation, never
    # captured, and from then on run as a Program that is never replayed (the steady path's)
    R.MAX_GRAPH_BYTES = 700  # (X: 400 bytes in; the output 400 bytes, 800 in two graphs)
    for i in range(6):
        with cp.lazy():
            y = cp.cos(X * 3.0) * X - 1.0
    e = R.evaluations()[-1]
    assert not e["replay"] and e["reason"].startswith("would not pay: its graphs would hold 800 bytes of outputs"), e
    assert len(captured) == c and R._logs.lg.prog.replay_facts[3] is True
    print("ok")
''')


@pytest.mark.parametrize("steady", [True, False], ids=["steady-path", "python-path"])
def test_graph_replay_logic_with_a_fake_capture(steady):
    _run_script(_REPLAY_SCRIPT, steady)


_CAPTURE_SCRIPT = textwrap.dedent('''
    import itertools, sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray.cuda import memory as M
    from cuarray.cuda import stream as S
    from cuarray._core import reduction
    from cuarray._core.fusion import graph_replay as G
    from cuarray._core.fusion import replay as R

    # The real `_capture` (capture stream, library workspace release, held scratch) with the
    # driver's parts stubbed: the fake device has no stream, no graph.
    ptrs = itertools.count(0x7000)

    class FakeStream:
        def __init__(self, non_blocking=False):
            assert non_blocking  # (a blocking stream would wait on the legacy stream while capturing)
            self.ptr = next(ptrs)

    S.Stream = FakeStream
    released, graphs, captures, replays = [], [], [], []
    M.add_release_hook(lambda dev, sp: released.append(sp))

    class FakeCUDAGraph:
        def __init__(self):
            graphs.append(self)

        def replay(self, stream=None):
            replays.append((self, stream))

    class FakeCapturing:
        def __init__(self, cuda_graph, pool=None, stream=None):
            self.g, self.s = cuda_graph, stream

        def __enter__(self):
            captures.append((self.g, self.s))
            return self.g

        def __exit__(self, *exc):
            return False

    G._CUDAGraph, G._capturing = FakeCUDAGraph, FakeCapturing
    G._synchronize = lambda: captures.append("synchronize")  # (before a capture: earlier errors raise there)
    G._copy_in = lambda ent, values, carried: None  # (the stub has no device-to-device copy)
    G._copy_back = lambda ent, outs: None
    R.GRAPH_REPLAY, R.MIN_SAVED = True, -9
    X = cp.ndarray((10, 10), np.float32)
    w = cp.ndarray((10, 10), np.float32)
    for i in range(5):  # a transpose, a slice and a reshape of computed values: captured
        with cp.lazy():
            t = (w * 0.5 + X).T
            w = (t[::-1] * 2.0).reshape(100).reshape(10, 10) - X.sum() * w
    ev = R.evaluations()[-5:]
    assert [e["replay"] for e in ev] == [False, False, True, True, True], R.describe()
    assert ev[-1]["reason"].startswith("replayed"), R.describe()
    steps = " ".join(ev[-1]["steps"])
    assert "eager transpose" in steps and "eager getitem" in steps and "eager reshape" in steps, steps
    # w is carried: graph 0 at the first replay, graph 1 (reading graph 0's output) at the second
    assert len(graphs) == 2 and len(replays) == 3, (graphs, captures, replays)
    assert captures[0] == "synchronize" and captures[2] == "synchronize", captures
    (g0, cs), (g1, cs1) = captures[1], captures[3]
    assert [g for g, _ in replays] == [g0, g1, g0] and (g0, g1) == tuple(graphs) and cs1 is cs
    assert isinstance(cs, FakeStream)
    assert all(s is S.get_current_stream() for _, s in replays)  # replayed on the current stream
    assert released == [cs.ptr] * 2, released  # the capture stream's library workspace, after each capture
    ent = next(iter(G._st.entries.values()))
    for keep in ent.keep:  # the partials its reduction uses, held by each graph
        assert keep[1] is reduction.stream_workspace(cs), ent.keep
    # another body replayed on the same stream is captured on the same capture stream
    del captures[:]
    for i in range(4):
        with cp.lazy():
            w = cp.sin(w * 2.0) * X + X.T
    assert captures == ["synchronize", (graphs[2], cs), "synchronize", (graphs[3], cs)], captures
    assert released == [cs.ptr] * 4, released
    # an output that is a view of an input: not replayed (a copy would cut it from the input)
    for i in range(5):
        with cp.lazy():
            v = (w * 0.5 + X).sum() * X + w
            u = v.T
            vt = X.T
    e = R.evaluations()[-1]
    assert not e["replay"] and e["reason"].startswith("an output is an input or a view of one"), e
    assert len(captures) == 4 and len(graphs) == 4, captures
    print("ok")
''')


@pytest.mark.parametrize("steady", [True, False], ids=["steady-path", "python-path"])
def test_capture_path_with_a_stubbed_driver(steady):
    _run_script(_CAPTURE_SCRIPT, steady)


_C_LAUNCH_SCRIPT = textwrap.dedent('''
    import itertools, sys
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray.cuda import _sync_hooks, device, stream as S
    from cuarray._core.fusion import evaluation as E, graph_replay as G, planner, replay as R

    # The steady path's replay (`_native/steady.c`) launches a captured graph from C: the context made
    # current, then `launch.graph_launcher()`'s function on the exec handle and the stream's pointer,
    # and the graph's own `replay` method only where that function is missing or fails.
    handles = itertools.count(0xA000)
    methods, launches, cores, status = [], [], [], [0]

    class FakeCUDAGraph:
        def __init__(self):
            self._exec_handle = next(handles)

        def replay(self, stream=None):
            methods.append((self, stream))

    def fake_capture(prog, values, after=None):  # (what the graph would compute: the launches, stubbed)
        return FakeCUDAGraph(), prog.run(values), ()

    def launcher(h, p):
        launches.append((h, p))
        return status[0]

    fn = [launcher]
    G._capture, G._synchronize = fake_capture, lambda: None
    G._copy_in = G._copy_back = lambda *a: None
    E._native.configure_steady(planner._programs, planner._generation, R, R._logs, G._st, _sync_hooks.is_capturing,
                               S.get_current_stream, device.get_device_id, R.perf_counter, planner._Label,
                               lambda: fn[0], lambda: cores.append(1))
    R.GRAPH_REPLAY, R.MIN_SAVED = True, -9
    X = cp.ndarray((64,), np.float32)

    def step():
        with cp.lazy():
            y = cp.exp(X * 2.0) - X
        return R.evaluations()[-1]

    for i in range(6):
        e = step()
    assert e["replay"] and e["reason"].startswith("replayed"), R.describe()
    ent = next(iter(G._st.entries.values()))
    graphs = [g for g in ent.graphs if g is not None]
    # the first replay of each graph came from the Python path (its capture): the rest from C
    n = len(launches)
    replays = sum(1 for e in R.evaluations()[-6:] if e["replay"])
    assert len(graphs) == 2 and len(methods) == 2 and n == replays - 2 >= 2, (replays, methods, launches)
    assert len(cores) == n and all(h in [g._exec_handle for g in graphs] and p == 0 for h, p in launches), launches
    # a launch that fails: the method then (it raises the driver's error, or launches)
    status[0] = 719
    m = len(methods)
    e = step()
    assert e["replay"] and len(launches) == n + 1 and len(methods) == m + 1, (launches, methods)
    # no C launcher (no driver or CUARRAY_PURE_PYTHON_LAUNCH=1): the method, nothing else
    fn[0], status[0] = None, 0
    e = step()
    assert e["replay"] and len(launches) == n + 1 and len(methods) == m + 2, (launches, methods)
    # a stand-in graph without an exec handle: the method
    fn[0] = launcher
    for g in graphs:
        del g._exec_handle
    e = step()
    assert e["replay"] and len(launches) == n + 1 and len(methods) == m + 3, (launches, methods)
    print("ok")
''')


def test_the_steady_path_launches_a_replayed_graph_from_c():
    if nodecore.native is None:
        pytest.skip("the node core is not built (pure-Python nodes)")
    _run_script(_C_LAUNCH_SCRIPT, True)
