"""A lazy loop body's Program replayed as a CUDA graph (`replay.GRAPH_REPLAY`, off by default).

`run(prog, values)` is asked before each evaluation (`evaluation.compute`) and returns the
outputs, or None (the caller runs the Program as usual). It answers only when `replay.decide`
says yes for this evaluation: same Program as the thread's last evaluations, capturable steps,
no scalar changed, enough launches saved net of the copies, few bytes copied.

Capture (the first time): inputs whose address or layout changed since the previous evaluation
get a fixed C-contiguous buffer of their own (`static`); the others (`stable`: `X`, `W` of a
training loop) are read where they are. The current values are copied into the fixed buffers,
the Program's launches are captured into a graph (`cuda.graph`, on this thread's capture stream
for the current stream (`_capture_stream`), with the graph's private memory pool: the outputs,
intermediates and a GEMM's workspace get fixed addresses that no other allocation is given
while the graph lives), the graph is replayed once on the current stream, and each
output is copied out into a new array (the user keeps it while the next replay overwrites the
graph's memory). Replay (later evaluations): the same, less the capture; refused (None, and the
entry dropped: the next evaluation decides again) when a stable input moved, a scalar changed
value, or the current stream or device is not the capture's. All copies and the replay are on
the current stream, in that order, so a replay reads this evaluation's inputs and the previous
replay's outputs were copied out before it overwrites them.

Entries are per thread (fixed buffers must not be shared by two threads' streams) and per
Program, at most `replay.MAX_GRAPHS`; a Program whose capture failed or whose outputs are too
large to copy is remembered as declined, with its reason.
"""

from __future__ import annotations

import threading

from ...cuda import _sync_hooks
from ...cuda import device as _device
from ...cuda import memory as _memory
from ...cuda import stream as _stream
# The module's names themselves: the package attribute `cuarray.cuda.graph` is the context manager
# (torch.cuda.graph's place), not this module, so `from ...cuda import graph` gives the class.
from ...cuda.graph import CUDAGraph as _CUDAGraph
from ...cuda.graph import graph as _capturing
from .. import reduction as _reduction
from .. import tracing as _tracing
from ..ndarray import _new_c, ndarray
from . import replay as _replay

__all__ = ["run", "reason"]


class _Entry:
    __slots__ = ("graph", "stable", "static", "sig", "outs", "stream", "device", "keep")


class _State(threading.local):
    entries = None  # Program -> _Entry
    declined = None  # Program -> reason
    facts = None  # Program -> `_facts` (what `replay.decide` reads of it that no evaluation changes)
    cstreams = None  # (device, replay stream's ptr) -> the Stream its graphs are captured on


_st = _State()
_synchronize = _device.synchronize


def reason(prog):
    """Why `prog` is not replayed on this thread (a capture failed, outputs too large), or None."""
    d = _st.declined
    return None if d is None else d.get(prog)


def _capture_stream(dev, replay_stream):
    """(stream, its reduction workspace): the stream this thread captures the graphs replayed on
    `replay_stream` on, one per (device, replay stream), kept for the thread's life. Stream-keyed scratch made during a
    capture (a fused reduction's counter and partials, `reduction._workspaces`) is then shared
    only by graphs replayed on one stream, in order, never by two streams' work at once; a
    stream made per capture would also leave an entry per capture, and a later stream given its
    handle would share a live graph's scratch. (The legacy default stream cannot be captured.)"""
    cs = _st.cstreams
    if cs is None:
        cs = _st.cstreams = {}
    key = (dev, replay_stream.ptr)
    s = cs.get(key)
    if s is None:
        s = cs[key] = _stream.Stream(non_blocking=True)
    return s, _reduction.stream_workspace(s)  # (made here: making a counter synchronises)


def _capture(prog, values):
    """(graph, outputs, keep): `prog`'s launches on `values` captured (`cuda.graph`: on a capture
    stream, allocations from the graph's private pool), not run; `keep`: scratch memory the
    graph's kernels use that it does not own, to be held as long as it is. Raises what the
    capture raises (`StreamCaptureError` for a host synchronisation inside)."""
    dev = _device.get_device_id()
    cs, before = _capture_stream(dev, _stream.get_current_stream())  # (before: partials a reduction may replace)
    g = _CUDAGraph()
    try:
        with _tracing.suspended():
            with _capturing(g, stream=cs):
                outs = prog.run(values)
    finally:
        # A cuBLAS workspace kept for the capture stream was made in this capture, from the
        # graph's pool: dropped from the library's registry now, it stays in that pool (no later
        # allocation comes from it), reserved for this graph; the next capture makes its own.
        _memory.release_library_memory(dev, cs.ptr)
    return g, outs, (before, _reduction.stream_workspace(cs))


def run(prog, values):
    """`prog`'s outputs on `values` by a graph replay, or None (run the Program)."""
    lg = _replay._logs.lg
    if prog is not lg.prog or not lg.log or _sync_hooks.is_capturing():
        return None  # (inside the user's own capture: the Program's launches go into their graph)
    declined = _st.declined
    if declined is not None and prog in declined:
        return None
    entries = _st.entries
    ent = entries.get(prog) if entries is not None else None
    facts = None
    if ent is None:
        # What `decide` reads of the Program itself, once per Program (not per evaluation): one that
        # can never pay, even with no input moved, is refused here with no signature made (a loop
        # whose body never replays paid ~80 Python calls a step for asking: seed-logreg, issue 57).
        facts = _facts(prog)
        if facts[4] or facts[0] - facts[1] < _replay.MIN_SAVED:
            return None
    sig = _replay._signature(values)
    lg.sig = (values, sig)  # (`replay.note` takes it from here: one signature per evaluation)
    prev = lg.log[-1][4]  # (the previous evaluation's input signature: same Program)
    if ent is not None:
        return _replay_entry(ent, prog, values, sig)
    arrays, scalars, nbytes = _replay._changes(sig, prev)
    if facts[0] - facts[1] - arrays < _replay.MIN_SAVED:  # (`decide`'s "would not pay", its commonest no)
        return None
    ok, _ = _replay.decide(facts[2], facts[3], lg.repeats + 1, arrays, scalars, len(prog.outputs),
                           copy_bytes=nbytes)
    if not ok:
        return None
    return _new_entry(prog, values, sig, prev)


def _facts(prog) -> tuple:
    """(launches, fixed cost, kinds, aliased, never) of `prog`, as `replay.decide` counts them:
    its launches; what a replay costs with no input moved (the graph launch, a copy out per
    output); its steps' kinds; whether an output is an input or shares memory; whether `decide`
    refuses it whatever its inputs (nothing launched, a step not capturable, aliased). Per
    thread, per Program."""
    f = _st.facts
    if f is None:
        f = _st.facts = {}
    got = f.get(prog)
    if got is None:
        kinds = [_replay.step_kind(st) for st in prog.steps]
        al = _replay.aliased(prog)
        launches = sum(1 for k in kinds if k != "view")
        never = not launches or al or any(k not in _replay.CAPTURABLE for k in kinds)
        if len(f) >= 256:  # (cached Programs come and go: the plan cache's own bound is larger)
            f.clear()
        got = f[prog] = (launches, 1 + len(prog.outputs), kinds, al, never)
    return got


def _new_entry(prog, values, sig, prev):
    ent = _Entry()
    ent.stream, ent.device = _stream.get_current_stream(), _device.get_device_id()
    ent.sig = sig
    ent.static = {}
    ent.stable = []
    run_values = list(values)
    for i, v in enumerate(values):
        if type(v) is ndarray:
            if prev is not None and i < len(prev) and prev[i] == sig[i]:
                ent.stable.append(i)
            else:
                ent.static[i] = run_values[i] = _new_c(v._shape, v._dtype)
        elif type(sig[i]) is tuple:  # (neither a device array nor a scalar: nothing to check it by)
            _decline(prog, "input {} is a {}, not a device array or a scalar".format(i, type(v).__name__))
            return None
    # The capture synchronises first: an error of earlier work (a device-side IndexError) is raised
    # here, as at any synchronisation, not inside the capture, where it would read as its failure.
    _synchronize()
    _copy_in(ent, values)
    try:
        ent.graph, ent.outs, ent.keep = _capture(prog, run_values)
    except Exception as e:  # noqa: BLE001 - nothing ran: the Program runs as usual
        _decline(prog, "capture failed: {}: {}".format(type(e).__name__, e))
        return None
    out_bytes = sum(o._size * o._dtype.itemsize for o in ent.outs)
    if out_bytes + sum(sig[i][2] for i in ent.static) > _replay.MAX_COPY_BYTES:
        _decline(prog, "would not pay: its outputs are {} bytes to copy out".format(out_bytes))
        return None
    entries = _st.entries
    if entries is None:
        entries = _st.entries = {}
    if len(entries) >= _replay.MAX_GRAPHS:
        entries.pop(next(iter(entries)))
    entries[prog] = ent
    return _launch(ent)


def _replay_entry(ent, prog, values, sig):
    if _stream.get_current_stream() is not ent.stream or _device.get_device_id() != ent.device or len(
            sig) != len(ent.sig) or any(sig[i] != ent.sig[i] for i in ent.stable) or any(
            type(a) is not tuple and (type(a) is not type(b) or a != b) for a, b in zip(sig, ent.sig)):
        del _st.entries[prog]  # (a stable input moved, a scalar changed, another stream: decide again)
        return None
    _copy_in(ent, values)
    return _launch(ent)


def _copy_in(ent, values):
    with _tracing.suspended():  # (an assignment in lazy mode would flush and record)
        for i, buf in ent.static.items():
            buf[...] = values[i]


def _copy_out(outs):
    with _tracing.suspended():
        return [o.copy() for o in outs]


def _launch(ent):
    ent.graph.replay(ent.stream)
    outs = _copy_out(ent.outs)
    _replay._logs.lg.replayed = True
    return outs


def _decline(prog, why):
    if _st.declined is None:
        _st.declined = {}
    if len(_st.declined) > 64:
        _st.declined.clear()
    _st.declined[prog] = why
