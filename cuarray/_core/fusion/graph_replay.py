"""A lazy loop body's Program replayed as a CUDA graph (`replay.GRAPH_REPLAY`, off by default).

`run(prog, values)` is asked before each evaluation (`lazy_mode._compute`) and returns the
outputs, or None (the caller runs the Program as usual). It answers only when `replay.decide`
says yes for this evaluation: same Program as the thread's last evaluations, capturable steps,
no scalar changed, enough launches saved net of the copies, few bytes copied.

Capture (the first time): inputs whose address or layout changed since the previous evaluation
get a fixed C-contiguous buffer of their own (`static`); the others (`stable`: `X`, `W` of a
training loop) are read where they are. The current values are copied into the fixed buffers,
the Program's launches are captured into a graph (`cuda.graph`, with its private memory pool:
the outputs and intermediates get fixed addresses), the graph is replayed once, and each
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

from ...cuda import device as _device
from ...cuda import stream as _stream
from .. import tracing as _tracing
from ..ndarray import _new_c, ndarray
from . import replay as _replay

__all__ = ["run", "reason"]


class _Entry:
    __slots__ = ("graph", "stable", "static", "sig", "outs", "stream", "device")


class _State(threading.local):
    entries = None  # Program -> _Entry
    declined = None  # Program -> reason


_st = _State()


def reason(prog):
    """Why `prog` is not replayed on this thread (a capture failed, outputs too large), or None."""
    d = _st.declined
    return None if d is None else d.get(prog)


def _capture(prog, values):
    """(graph, outputs): `prog`'s launches on `values` captured, not run. Raises what the capture
    raises (`StreamCaptureError` for a host synchronisation inside)."""
    from ...cuda import graph as _graph  # import time: only when graph replay is switched on

    g = _graph.CUDAGraph()
    with _tracing.suspended():
        with _graph.graph(g):
            outs = prog.run(values)
    return g, outs


def run(prog, values):
    """`prog`'s outputs on `values` by a graph replay, or None (run the Program)."""
    lg = _replay._log
    if prog is not lg.prog or not lg.log:
        return None
    declined = _st.declined
    if declined is not None and prog in declined:
        return None
    sig = _replay._signature(values)
    prev = lg.log[-1][4]  # (the previous evaluation's input signature: same Program)
    arrays, scalars, nbytes = _replay._changes(sig, prev)
    entries = _st.entries
    ent = entries.get(prog) if entries is not None else None
    if ent is not None:
        return _replay_entry(ent, prog, values, sig)
    kinds = [_replay.step_kind(st) for st in prog.steps]
    ok, _ = _replay.decide(kinds, _replay._aliased(prog.outputs, len(prog.inputs)), lg.repeats + 1, arrays,
                           scalars, len(prog.outputs), copy_bytes=nbytes)
    if not ok:
        return None
    return _new_entry(prog, values, sig, prev)


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
    _copy_in(ent, values)
    try:
        ent.graph, ent.outs = _capture(prog, run_values)
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
    _replay._log.replayed = True
    return outs


def _decline(prog, why):
    if _st.declined is None:
        _st.declined = {}
    if len(_st.declined) > 64:
        _st.declined.clear()
    _st.declined[prog] = why
