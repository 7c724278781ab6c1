"""Evaluations of lazy graphs: what each ran and its host time (`explain()`), and whether its
launches could be replayed as a CUDA graph (`decide`, a pure function of what an evaluation ran).

Every evaluation in lazy mode (`evaluation.compute`) notes here, on its thread, the Program it
ran, the host time of planning and launching it, how many evaluations in a row ran that same
Program (the plan cache's structure key: the same Program object), and its inputs' addresses
and scalar values. `explain()` lists the last `KEEP` evaluations of the thread.

CUDA-graph replay of a loop body. A body whose structure repeats runs the same Program each
iteration; capturing its launches once and replaying them costs one graph launch, but a captured
graph reads and writes fixed addresses. An input carried from the previous evaluation's outputs
(`w = w - lr * g`) is read where the previous replay wrote it (`graph_replay.py`: two graphs a
Program, alternating); any other input whose address changes must be copied into a fixed buffer
first, and a scalar argument is baked into the kernels (a new value needs a new capture). `decide`
counts those copies against the launches the graph would save (a cuBLAS call counted as several:
`LAUNCHES`) and says why not when it does not pay or is not safe (a step that may synchronise with
the host or cannot be captured, an output that is a view of an input). The decision is shown for each evaluation; the capture and replay
run with the module switch `GRAPH_REPLAY` on (the default; `CUARRAY_GRAPH_REPLAY=0` turns it off).
"""

from __future__ import annotations

import collections
import math
import os
import threading
import time

import numpy

from ...cuda import _sync_hooks
from ...cuda import backend as _seam
from ...cuda import stream as _stream
from ..ndarray import ndarray
from ..nodecore import record_base as _record_base
from .planner import _Label

__all__ = ["GRAPH_REPLAY", "MIN_REPEATS", "KEEP", "decide", "pays", "launches_of", "step_kind", "note", "evaluations",
           "describe", "set_graph_replay", "set_replay_costs", "DEVICE_TIMES", "set_device_times", "start_timing"]

# The switch: replay eligible loop bodies as CUDA graphs. On by default (docs/fusion.md);
# `CUARRAY_GRAPH_REPLAY=0` in the environment, or `set_graph_replay(False)`, turns it off.
GRAPH_REPLAY = os.environ.get("CUARRAY_GRAPH_REPLAY", "1") not in ("", "0")
MIN_REPEATS = 3  # evaluations of one structure in a row before a capture would be made
KEEP = 16  # evaluations kept per thread for `explain()`
# What a replay saves, in kernel launches' host time: the launches it replaces, less its graph launch
# and its copies in (`pays`). cuGraphLaunch of a captured graph costs the host about half a kernel
# launch through the C enqueue: a one-kernel graph 1.5-2.4 us against cuLaunchKernel's 3.7-4.6 us of
# the same kernel, the same H200 host and process (docs/perf-notes.md,
# "Lazy mode's host cost"), so a body of one fused kernel pays (a cached 10-node chain: 8.9 us an
# evaluation replayed against 10.6 run).
GRAPH_LAUNCH = 0.5
MIN_SAVED = 0.25  # launches a replay must save, net of its graph launch and copies, to be worth a capture
MAX_COPY_BYTES = 1 << 20  # bytes a replay's copies in may move (device bandwidth they take)
MAX_GRAPHS = 8  # Programs whose graphs are kept per thread (each graph holds its pool, buffers and outputs)
# Memory a Program's two graphs may hold (their pools: intermediates and outputs, kept while the
# graphs live). A step whose arrays are larger launches kernels long next to a launch's host time:
# replaying it saves little, and its graphs would keep that memory from the rest of the program.
MAX_GRAPH_BYTES = 64 << 20

# Step kinds a stream capture takes: kernels launched through `launch.enqueue`, the GEMM/GEMV call,
# the cuBLASLt call with an epilogue (its bias pointer and scale are read at the call, its workspace
# comes from the capture's pool as a GEMM's does), and views (transpose, basic indexing, reshape:
# host arithmetic on a pointer and strides, no host synchronisation; a reshape that must copy
# launches its copy on the current stream).
CAPTURABLE = frozenset(("elementwise", "reduction", "eager-ufunc", "product", "epilogue", "view"))
# What a step's launch costs the host, counted in kernel launches: a view launches nothing; a cuBLAS
# call (GEMM, GEMV, cuBLASLt with an epilogue) costs several. Measured on the H100 hosts:
# one cublasLtMatmul took 9-20 us of host time whatever its algorithm, a kernel launch through the C
# enqueue 4.3-4.6 us, so a loop body of one GEMM saves more host time than its graph launch costs.
LAUNCHES = {"view": 0, "product": 3, "epilogue": 3}
_PRODUCTS = frozenset(("dot", "matmul"))
VIEWS = frozenset(("transpose", "getitem", "reshape"))  # the lazy view nodes (lazy_mode.py `view_node`)
perf_counter = time.perf_counter
_SCALARS = frozenset((bool, int, float, complex))


# Device time of each evaluation (`explain()`): two CUDA events around its launches on the current
# stream, read when the log is (`evaluations`). Off by default (an event pair costs ~2-4 us of host
# time an evaluation); `CUARRAY_LAZY_DEVICE_TIMES=1` or `set_device_times(True)` turns it on.
DEVICE_TIMES = os.environ.get("CUARRAY_LAZY_DEVICE_TIMES", "") not in ("", "0")


def set_device_times(on: bool) -> bool:
    """Time each lazy evaluation on the device for `explain()` (process-wide); returns the previous setting."""
    global DEVICE_TIMES
    prev, DEVICE_TIMES = DEVICE_TIMES, bool(on)
    return prev


def start_timing():
    """The start event of an evaluation's device time, recorded on the current stream (None
    while this thread captures a CUDA graph: an event there is a graph node, not a time)."""
    if _sync_hooks.is_capturing():
        return None
    ev = _stream.Event()
    ev.record()
    return ev


def set_graph_replay(on: bool) -> bool:
    """Turn graph replay of lazy loop bodies on or off for the process; returns the previous setting."""
    global GRAPH_REPLAY
    prev, GRAPH_REPLAY = GRAPH_REPLAY, bool(on)
    return prev


def set_replay_costs(graph_launch=None, min_saved=None) -> tuple:
    """Set the cost model `pays` reads for the process: `GRAPH_LAUNCH` (a graph launch's host time,
    in kernel launches) and `MIN_SAVED` (None: unchanged); returns the previous pair. The fake
    device (`cuarray.testing.fake_device`), where no graph is captured, has (1.0, 2) (a backend's
    `replay_costs`)."""
    global GRAPH_LAUNCH, MIN_SAVED
    # (checked here: the steady C path reads both as doubles at every evaluation of a loop body)
    for name, v in (("graph_launch", graph_launch), ("min_saved", min_saved)):
        if v is None:
            continue
        if type(v) is bool or not isinstance(v, (int, float)):
            raise TypeError("set_replay_costs: {} must be a real number, not {}".format(name, type(v).__name__))
        if not math.isfinite(v) or (name == "graph_launch" and v < 0):
            raise ValueError("set_replay_costs: {} must be finite{}, got {!r}".format(
                name, " and >= 0" if name == "graph_launch" else "", v))
    prev = GRAPH_LAUNCH, MIN_SAVED
    if graph_launch is not None:
        GRAPH_LAUNCH = graph_launch
    if min_saved is not None:
        MIN_SAVED = min_saved
    return prev


def _select(prev, new) -> None:
    """The backend seam (`cuda.backend.on_select`): `new`'s replay costs where it has its own
    (the fake device's, where no graph is captured), and back to what they were where it has none."""
    global GRAPH_LAUNCH, MIN_SAVED
    prev.table("replay")["costs"] = GRAPH_LAUNCH, MIN_SAVED
    costs = new.replay_costs if new.replay_costs is not None else new.table("replay").get("costs")
    if costs is not None:
        set_replay_costs(*costs)


_seam.on_select(_select)


def step_kind(st) -> str:
    """The kind of a Program step, as `decide` takes it: 'elementwise' (a fused kernel),
    'reduction', 'eager-ufunc' (a lone ufunc's launch), 'product' (dot/matmul: the GEMM),
    'view' (transpose, basic indexing, reshape of a computed value), 'epilogue' (cuBLASLt with an
    epilogue), 'call <name>' (another eager routine)."""
    name = type(st).__name__
    if name == "_Elementwise" or name == "_ElementwiseMulti":
        return "elementwise"
    if name == "_Reduction":
        return "reduction"
    if name == "_EagerUfunc":
        return "eager-ufunc"
    if name == "Epilogue":
        return "epilogue"
    n = getattr(st, "name", "?")
    if n in _PRODUCTS:
        return "product"
    return "view" if n in VIEWS and name == "_Call" else "call " + str(n)


def launches_of(kinds) -> int:
    """The launches a Program's steps of these kinds make, each cuBLAS call counted as `LAUNCHES` says."""
    return sum(LAUNCHES.get(k, 1) for k in kinds)


def pays(launches, copies) -> bool:
    """Whether replaying `launches` kernel launches' worth of steps as one graph launch, after
    `copies` copies in (each a launch), saves the host at least `MIN_SAVED` launches."""
    return launches - GRAPH_LAUNCH - copies >= MIN_SAVED


def decide(kinds, output_is_input, repeats, changed_arrays, changed_scalars, enabled=None,
           copy_bytes=0) -> tuple:
    """(replay, reason): whether an evaluation's launches would be replayed as a CUDA graph.
    `kinds`: its steps' kinds (`step_kind`); `output_is_input`: an output is an input or a view
    of one; `repeats`: evaluations of this Program in a row, this one included;
    `changed_arrays`/`changed_scalars`: inputs whose address or layout / value differs from
    the previous evaluation's (arrays carried from its outputs not counted: a replay reads them
    where the last replay wrote them); `enabled`: the switch
    (`GRAPH_REPLAY` when None); `copy_bytes`: bytes those copies move (each is a read and a
    write of device memory a replay adds). Pure: no device, no state."""
    if enabled is None:
        enabled = GRAPH_REPLAY
    launches = launches_of(kinds)
    if not launches:
        return False, "nothing launched"
    bad = [k for k in kinds if k not in CAPTURABLE]
    if bad:
        return False, "not capturable: {} (may synchronise with the host or is not known to be captured safely)".format(
            bad[0])
    if output_is_input:
        return False, ("an output is an input or a view of one, or two outputs share memory (a replay hands out "
                       "each output as memory of its own, and reads moved inputs from its own buffers)")
    if changed_scalars:
        return False, "{} scalar argument(s) changed value since the last evaluation (baked into a graph)".format(
            changed_scalars)
    if repeats < MIN_REPEATS:
        return False, "structure seen {} time(s) in a row (a capture needs {})".format(repeats, MIN_REPEATS)
    if not pays(launches, changed_arrays):
        return False, "would not pay: {} launch(es) against 1 graph launch ({} of a launch) + {} copy(ies) in".format(
            launches, GRAPH_LAUNCH, changed_arrays)
    if copy_bytes > MAX_COPY_BYTES:
        return False, "would not pay: its copies move {} bytes (more than {})".format(copy_bytes, MAX_COPY_BYTES)
    if not enabled:
        return False, "eligible, saves {:g} launch(es); graph replay is off (fusion.replay.GRAPH_REPLAY)".format(
            launches - GRAPH_LAUNCH - changed_arrays)
    return True, "replay"


class _Log(_record_base("LogFields", ("prog", "repeats", "replayed", "sig", "why", "outs", "log"))):
    """A thread's evaluation log (`_logs.lg`: a plain object per thread, cheaper to read than a
    thread-local's attributes at every evaluation)."""

    __slots__ = ()

    def __init__(self):
        self.prog = None  # the last Program this thread ran
        self.repeats = 0
        self.replayed = False  # set by `graph_replay.run` when it ran the evaluation being noted
        self.sig = None  # (values, their `_signature`) made by `graph_replay.run` for the evaluation being noted
        self.why = None  # why `graph_replay.run` did not replay the evaluation being noted, where `decide` cannot say
        self.outs = None  # the last evaluation's outputs (`graph_replay.run`: the next one's carried inputs)
        self.log = None  # deque of records, newest last


class _Logs(threading.local):
    def __init__(self):  # (run in each thread at its first use)
        self.lg = _Log()


_logs = _Logs()


def _signature(values) -> list:
    """Per input: (address, strides, bytes) of an array (its shape and dtype are in the structure
    key), a scalar itself (its value reaches the kernel), ('o', id, 0) of anything else."""
    sig = []  # (a loop, not a comprehension: its frame costs more than these few inputs)
    for v in values:
        t = type(v)
        sig.append((v.data.ptr, v._strides, v._size * v._dtype.itemsize) if t is ndarray else v
                   if t in _SCALARS or isinstance(v, numpy.generic) else ("o", id(v), 0))
    return sig


def note(prog, values, t0, t_build, started=None) -> None:
    """Note an evaluation of `prog` (already launched) with inputs `values`, planned from `t0`
    (`perf_counter`), its graph built from `t_build`: its host times and input signature (what
    changed since the previous evaluation is counted when read, `evaluations`); `started`: its
    start event (`start_timing`), whose end is recorded here."""
    host = perf_counter() - t0
    if started is not None:
        end = _stream.Event()
        end.record()
        started = (started, end)
    lg = _logs.lg
    ins = prog.inputs
    if ins and type(ins[0]) is not _Label:
        # Not a cached Program (`detach`ed): it holds its graph and arrays; keep a summary only.
        prog = _summary(prog)
    if prog is lg.prog:
        repeats = lg.repeats + 1
    else:
        lg.prog, repeats = prog, 1
    lg.repeats = repeats
    log = lg.log
    if log is None:
        log = lg.log = collections.deque(maxlen=KEEP)
    replayed = lg.replayed
    if replayed:
        lg.replayed = False
    sig = lg.sig  # (made by `graph_replay.run`; a replay compared its inputs otherwise: none kept)
    if sig is not None:
        lg.sig = None
        sig = sig[1] if sig[0] is values else None
    if sig is None and not replayed:
        sig = _signature(values)
    why = lg.why
    if why is not None:
        lg.why = None
    log.append((prog, t0 - t_build, host, repeats, sig, replayed, why, started))


class _Summary:
    """What `evaluations` reads of a Program that is not kept in the plan cache (its steps'
    kinds and descriptions), without its graph."""

    __slots__ = ("kinds", "descs", "aliased", "declined")


def _summary(prog) -> _Summary:
    s = _Summary()
    s.kinds = [step_kind(st) for st in prog.steps]
    s.descs = [st.describe() for st in prog.steps]
    s.aliased = aliased(prog)
    from . import graph_replay  # cycle: graph_replay imports this module

    s.declined = graph_replay.reason(prog)
    return s


def _changes(sig, prev, carried=()) -> tuple:
    """(arrays, scalars, bytes of those arrays) of `sig` that differ from `prev` (None: all
    arrays), the inputs at the indices in `carried` not counted."""
    arrays = scalars = nbytes = 0
    if sig is None:  # (a replay's: its inputs were checked against its graph's, not recorded)
        return arrays, scalars, nbytes
    if prev is None or len(prev) != len(sig):
        for i, a in enumerate(sig):
            if type(a) is tuple and i not in carried:
                arrays += 1
                nbytes += a[2]
        return arrays, scalars, nbytes
    for i, (a, b) in enumerate(zip(sig, prev)):
        if type(a) is tuple and type(b) is tuple:
            if a != b and i not in carried:
                arrays += 1
                nbytes += a[2]
        elif type(a) is not type(b) or (a is not b and a != b):  # (the same NaN object is unchanged, a new one changed)
            scalars += 1
    return arrays, scalars, nbytes


def aliased(prog) -> bool:
    """Whether an output of the Program `prog` is an input or a view of one (a replay would hand
    out a view of its fixed input buffer, not of the user's input), or two outputs share memory
    (one slot twice, a value and a view of it: `graph_replay` checks, carries and hands out each
    output as memory of its own). A view step's result shares the memory of its operand; any
    other step's is new."""
    n_in = len(prog.inputs)
    root = list(range(n_in))
    for st in prog.steps:  # (a multi-output kernel fills several slots, each its own memory)
        root += [root[st.ins[0]]] if step_kind(st) == "view" else range(len(root), len(root) + getattr(st, "nout", 1))
    roots = [root[k] for k in prog.outputs]
    return any(r < n_in for r in roots) or len(set(roots)) != len(roots)


def evaluations() -> list:
    """This thread's last evaluations, oldest first: dicts with 'steps' (each step's
    description), 'build_us' (host time from the start of the stretch of building, or of the
    context, to the evaluation: the body's own Python included), 'host_us' (planning and
    launching), 'device_us' (from its first launch's start to its last launch's end on the
    device, waited for here; None unless `DEVICE_TIMES`), 'repeats', 'replay' and 'reason'
    (`decide`'s answer)."""
    out = []
    prev = None
    for prog, build, host, repeats, sig, replayed, held, timed in (_logs.lg.log or ()):
        arrays, scalars, nbytes = _changes(sig, prev if repeats > 1 else None)
        prev = sig
        if type(prog) is not _Summary:
            prog = _summary(prog)
        ok, why = decide(prog.kinds, prog.aliased, repeats, arrays, scalars, copy_bytes=nbytes)
        if replayed:
            ok, why = True, "replayed: its {} launch(es) as one captured graph".format(len(prog.kinds))
        elif held is not None:
            ok, why = False, held
        elif ok:  # (decided, but the capture failed)
            ok, why = False, "declined after capture" if prog.declined is None else prog.declined
        device = None
        if timed is not None:
            timed[1].synchronize()
            device = _stream.get_elapsed_time(*timed) * 1e3
        out.append({"steps": prog.descs, "build_us": build * 1e6, "host_us": host * 1e6, "device_us": device,
                    "repeats": repeats, "replay": ok, "reason": why})
    return out


def describe() -> str:
    """`evaluations()` as text, for `explain()`."""
    evs = evaluations()
    if not evs:
        return "evaluations (this thread): none yet"
    lines = ["evaluations (this thread, oldest first; host time building the graph, then planning and launching; "
             "device time from the first launch to the end of the last):"]
    for k, e in enumerate(evs):
        device = ("device {:.1f} us".format(e["device_us"]) if e["device_us"] is not None else
                  "device not timed (CUARRAY_LAZY_DEVICE_TIMES=1)")
        lines.append("  #{}: {} launch(es), host {:.1f} us + {:.1f} us, {}, same structure {} time(s) in a row".format(
            k, len(e["steps"]), e["build_us"], e["host_us"], device, e["repeats"]))
        lines += ["      " + s for s in e["steps"]]
        lines.append("      graph replay: {}".format("yes, " + e["reason"] if e["replay"] else "no, " + e["reason"]))
    return "\n".join(lines)
