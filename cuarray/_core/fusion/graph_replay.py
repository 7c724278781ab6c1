"""A lazy loop body's Program replayed as a CUDA graph (`replay.GRAPH_REPLAY`, on by default).

`run(prog, values)` runs each evaluation (`evaluation.compute`) with the graph replay on: it
returns the Program's outputs on `values`, by a replay where `replay.decide` says yes for this
evaluation (same Program as the thread's last evaluations, capturable steps, no scalar changed,
enough launches saved net of the copies, few bytes copied), else by running the Program.

A captured graph reads and writes fixed addresses; a loop body's inputs are of three kinds:
- stable: the same address as the previous evaluation (`X`, `W` of a training loop), read in place;
- carried: an output of the previous evaluation (`w = w - lr * g`), handed back;
- moved: any other array whose address changed, copied into a fixed buffer of its own (`static`).
Each Program gets two graphs, 0 and 1, captured on this thread's capture stream for the current
stream (`_capture_stream`), each with its private memory pool (outputs, intermediates, a GEMM's
workspace at fixed addresses). Graph 0 reads the carried inputs from fixed buffers (`inbufs`);
graph 1 reads them from graph 0's outputs and, last, copies its own carried outputs into those
buffers. So a loop that hands its outputs back alternates 1, 0, 1, ... with no copy launched from
the host: graph 1 reads what graph 0 wrote, graph 0 what graph 1 copied for it. A carried input
that is not the last replay's output (the loop's first replay, a value the user replaced) is copied
into its buffer and graph 0 runs.

Graph 1's copy into graph 0's buffers happens at its end, before the user sees its outputs: a
carried output the user may have written since (handed to user code as a device array by
`LazyArray._materialize`: `asarray(w)`, `w[...]`, an export; `handed_out` marks it, through
`carried_outputs`) is copied in again by the next replay, which runs graph 0 (`ent.last = -1`).

The outputs handed to the user are the graph's own arrays. A graph may overwrite them only when
nothing outside this module refers to them any more (no array, view or export of them: their
reference count, `_unheld`); otherwise the evaluation runs the Program (its outputs new arrays,
the user's earlier results untouched) and `explain()` says why. Replays are also refused, and the
entry dropped (the next evaluation decides again), when a stable input moved, a scalar changed
value, or the current stream or device is not the capture's. All copies and replays are on the
current stream, in order, so a replay reads this evaluation's inputs.

Entries are per thread (fixed buffers must not be shared by two threads' streams) and per
Program, at most `replay.MAX_GRAPHS`. A Program whose capture failed, or whose arrays are large
(`replay.MAX_GRAPH_BYTES`: its kernels are long next to a launch, and its graphs would hold that
much memory), is remembered as declined, with its reason.
"""

from __future__ import annotations

import functools
import sys
import threading
import weakref
from operator import itemgetter as _itemgetter

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
from ..nodecore import record_base as _record_base
from . import replay as _replay

__all__ = ["run", "reason", "handed_out", "carried_outputs"]

_refcount = sys.getrefcount


class _Entry(_record_base("EntryFields", ("graphs", "outs", "keep", "stable", "static", "inbufs", "carried",
                                          "run_values", "n", "stream", "device", "last", "scalars_of",
                                          "scalar_values", "arrays_at"))):
    __slots__ = ("__weakref__",)  # (`carried_outputs` refers to entries weakly)


# Graph 1's carried outputs: id(array) -> (weak reference to it, weak reference to its entry). Weak
# both ways: an entry dropped (and its graphs' memory) is not kept by this map; an array that dies
# takes its id out (`_unwatch`), so an id here is always that array's.
carried_outputs: dict = {}


def _watch(ent, outs) -> None:
    er = weakref.ref(ent)
    for j in set(ent.carried.values()):
        k = id(outs[j])
        carried_outputs[k] = (weakref.ref(outs[j], functools.partial(_unwatch, k)), er)


def _unwatch(k, ref) -> None:
    v = carried_outputs.get(k)
    if v is not None and v[0] is ref:
        del carried_outputs[k]


def handed_out(a) -> None:
    """`a`, a device array, is handed to user code: where it is graph 1's carried output, the user may
    write into it before the next evaluation, whose replay then copies its carried inputs in and
    runs graph 0 (graph 1 copied this output into graph 0's buffers before the user could write it)."""
    v = carried_outputs.get(id(a))
    if v is not None and v[0]() is a:
        ent = v[1]()
        if ent is not None:
            ent.last = -1


class _State(threading.local):
    entries = None  # Program -> _Entry
    declined = None  # Program -> reason
    retries = None  # Program -> [evaluations before the next capture attempt, attempts made]
    cstreams = None  # (device, replay stream's ptr) -> the Stream its graphs are captured on


_st = _State()
_synchronize = _device.synchronize


def reason(prog):
    """Why `prog` is not replayed on this thread (a capture failed), or None."""
    d = _st.declined
    return None if d is None else d.get(prog)


def _unheld(outs) -> bool:
    """Whether nothing but `outs` (a list this module keeps) refers to each array in it: no
    user variable, view (a view's `base` is the array), lazy array's node or export."""
    for o in outs:
        if _refcount(o) > _HELD:
            return False
    return True


def _held_refs() -> int:
    """The reference count `_unheld` reads of an array only its list refers to (the list, the
    loop's name, the call's argument: 3 on CPython 3.11-3.13), measured by the same loop."""
    probe = [object()]
    for o in probe:
        return _refcount(o)


_HELD = _held_refs()


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


def _capture(prog, values, after=None):
    """(graph, outputs, keep): `prog`'s launches on `values`, then `after(outputs)`'s, captured
    (`cuda.graph`: on a capture stream, allocations from the graph's private pool), not run;
    `keep`: scratch memory the graph's kernels use that it does not own, to be held as long as
    it is. Raises what the capture raises (`StreamCaptureError` for a host synchronisation inside)."""
    dev = _device.get_device_id()
    cs, before = _capture_stream(dev, _stream.get_current_stream())  # (before: partials a reduction may replace)
    g = _CUDAGraph()
    try:
        with _tracing.suspended():
            with _capturing(g, stream=cs):
                outs = prog.run(values)
                if after is not None:
                    after(outs)
    finally:
        # A cuBLAS workspace kept for the capture stream was made in this capture, from the
        # graph's pool: dropped from the library's registry now, it stays in that pool (no later
        # allocation comes from it), reserved for this graph; the next capture makes its own.
        _memory.release_library_memory(dev, cs.ptr)
    return g, outs, (before, _reduction.stream_workspace(cs))


def run(prog, values):
    """`prog`'s outputs on `values`: by a graph replay where one is decided, else by `prog.run`."""
    lg = _replay._logs.lg
    facts = prog.replay_facts
    if facts is None:
        facts = prog.replay_facts = _facts(prog)
    if facts[3] or not _replay.pays(facts[0], 0):
        # Never replayed, whatever its inputs (a step not capturable, nothing launched): no input
        # signature is made for `explain()`, which says why from the Program alone (a 10-node chain
        # paid ~1 us an evaluation for the question).
        lg.sig, lg.why, lg.outs = (values, ()), facts[4], None
        one = prog.one  # (`Program.run`'s one-kernel case inline: the commonest Program of a loop body)
        return [one.run(values)] if one is not None else prog.run(values)
    outs = _replayed(lg, prog, values, facts)
    if outs is None:
        outs = prog.run(values)
        big = _too_big(values, outs)
        if big is not None:  # (the sizes are the Program's: never replayed from now on, and said why)
            prog.replay_facts = facts[:3] + (True, big)
    # (the next evaluation's carried inputs are found among these; a declined Program's are not held)
    declined = _st.declined
    lg.outs = outs if declined is None or prog not in declined else None
    return outs


def _replayed(lg, prog, values, facts):
    """`prog`'s outputs on `values` by a graph replay, or None (run the Program)."""
    if prog is not lg.prog or not lg.log or _sync_hooks.is_capturing():
        return None  # (inside the user's own capture: the Program's launches go into their graph)
    declined = _st.declined
    if declined is not None and prog in declined:
        _retry_due(prog)  # (when due, the next evaluation captures again, its carried inputs known)
        return None
    entries = _st.entries
    ent = entries.get(prog) if entries is not None else None
    if ent is not None:
        lg.sig = (values, None)  # (a replay checks its inputs against the entry: no signature made)
        return _replay_entry(ent, prog, values, lg)
    sig = _replay._signature(values)
    lg.sig = (values, sig)  # (`replay.note` takes it from here: one signature per evaluation)
    prev = lg.log[-1][4]  # (the previous evaluation's input signature: same Program)
    carried = _carried(values, lg.outs)
    arrays, scalars, nbytes = _replay._changes(sig, prev, carried)
    if not _replay.pays(facts[0], arrays):  # (`decide`'s "would not pay", its commonest no)
        return None
    ok, why = _replay.decide(facts[1], facts[2], lg.repeats + 1, arrays, scalars, copy_bytes=nbytes)
    if not ok:
        lg.why = why  # (`explain()` could not tell the carried inputs from the moved ones)
        return None
    return _new_entry(prog, values, sig, prev, carried)


def _carried(values, prev_outs) -> dict:
    """{input index: output index} of the inputs that are outputs of the previous evaluation."""
    carried = {}
    if prev_outs:
        for i, v in enumerate(values):
            if type(v) is ndarray:
                for j, o in enumerate(prev_outs):
                    if v is o:
                        carried[i] = j
                        break
    return carried


def _facts(prog) -> tuple:
    """(launches, kinds, aliased, never, why) of `prog`, as `replay.decide` reads them: its
    launches; its steps' kinds; whether an output is an input or shares memory; whether `decide`
    refuses it whatever its inputs (nothing launched, a step not capturable, aliased), and why
    (`decide`'s reason with no input changed), or None. Pure: kept on the Program (`replay_facts`)."""
    kinds = [_replay.step_kind(st) for st in prog.steps]
    al = _replay.aliased(prog)
    launches = _replay.launches_of(kinds)
    never = not launches or al or any(k not in _replay.CAPTURABLE for k in kinds)
    if never or not _replay.pays(launches, 0):
        why = _replay.decide(kinds, al, _replay.MIN_REPEATS, 0, 0, enabled=True)[1]
    else:
        why = None
    return launches, kinds, al, never, why


def _too_big(values, outs):
    """Why a Program with these inputs and outputs is never replayed (its arrays past
    `MAX_GRAPH_BYTES`: its kernels are long next to a launch, and its two graphs' pools would hold
    at least its outputs twice), or None. Its sizes are its own (shapes and dtypes are in its
    key), so the first evaluation that runs it tells, before any capture."""
    most = _replay.MAX_GRAPH_BYTES
    in_bytes = sum(v.nbytes for v in values if type(v) is ndarray)
    if in_bytes > most:
        return ("would not pay: its inputs are {} bytes (kernels long next to a launch; its graphs would "
                "hold memory of that order)".format(in_bytes))
    out_bytes = sum(v.nbytes for v in outs if type(v) is ndarray)
    if 2 * out_bytes > most:
        return "would not pay: its graphs would hold {} bytes of outputs (more than {})".format(2 * out_bytes, most)
    return None


def _new_entry(prog, values, sig, prev, carried):
    in_bytes = sum(a[2] for a in sig if type(a) is tuple)
    if in_bytes > _replay.MAX_GRAPH_BYTES:
        _decline(prog, "would not pay: its inputs are {} bytes (kernels long next to a launch; its graphs would "
                       "hold memory of that order)".format(in_bytes))
        return None
    ent = _Entry()
    ent.stream, ent.device = _stream.get_current_stream(), _device.get_device_id()
    ent.n = len(values)
    ent.static, ent.inbufs, ent.stable, ent.carried = {}, {}, [], carried
    at, scalars = [], []
    run_values = list(values)
    for i, v in enumerate(values):
        if type(v) is ndarray:
            if i in carried:
                ent.inbufs[i] = run_values[i] = _new_c(v._shape, v._dtype)
            elif prev is not None and i < len(prev) and prev[i] == sig[i]:
                ent.stable.append((i, v.data.ptr, v._strides))
            else:
                ent.static[i] = run_values[i] = _new_c(v._shape, v._dtype)
        elif type(sig[i]) is tuple:  # (neither a device array nor a scalar: nothing to check it by)
            _decline(prog, "input {} is a {}, not a device array or a scalar".format(i, type(v).__name__))
            return None
        else:
            at.append(i)
            scalars.append(v)
    # What `_changed_inputs` compares at each replay: the scalars as one tuple (a C comparison, not
    # a loop), and the indices of the inputs that must be device arrays.
    ent.scalars_of = _itemgetter(*at) if len(at) > 1 else (lambda vals, i=at[0]: (vals[i],)) if at else (lambda vals: ())
    ent.scalar_values = tuple(scalars)
    ent.arrays_at = tuple(ent.static) + tuple(ent.inbufs)
    ent.run_values = run_values
    # The capture synchronises first: an error of earlier work (a device-side IndexError) is raised
    # here, as at any synchronisation, not inside the capture, where it would read as its failure.
    _synchronize()
    try:
        g, outs, keep = _capture(prog, run_values)
    except Exception as e:  # noqa: BLE001 - nothing ran: the Program runs as usual
        _capture_failed(prog, e)
        return None
    held = _pool_bytes(g)
    if 2 * held > _replay.MAX_GRAPH_BYTES:
        _decline(prog, "would not pay: its graph holds {} bytes of intermediates and outputs".format(held))
        return None
    ent.graphs, ent.outs, ent.keep, ent.last = [g, None], [outs, None], [keep, None], -1
    entries = _st.entries
    if entries is None:
        entries = _st.entries = {}
    if len(entries) >= _replay.MAX_GRAPHS:
        entries.pop(next(iter(entries)))
    entries[prog] = ent
    _copy_in(ent, values, True)
    return _launch(ent, 0)


def _pool_bytes(g) -> int:
    """Bytes the graph `g`'s private pool holds (0 where it has none: a stand-in graph)."""
    pool = getattr(g, "pool", None)
    return pool.total_bytes() if pool is not None else 0


def _capture_second(ent, prog):
    """Graph 1: the Program on graph 0's outputs where inputs are carried, its carried outputs
    then copied into graph 0's input buffers. False (and the Program declined) if it fails."""
    run_values = list(ent.run_values)
    outs0 = ent.outs[0]
    for i, j in ent.carried.items():
        run_values[i] = outs0[j]

    _synchronize()
    try:
        g, outs, keep = _capture(prog, run_values, lambda outs: _copy_back(ent, outs))
    except Exception as e:  # noqa: BLE001 - nothing ran
        _capture_failed(prog, e)
        del _st.entries[prog]
        return False
    ent.graphs[1], ent.outs[1], ent.keep[1] = g, outs, keep
    _watch(ent, outs)
    return True


def _replay_entry(ent, prog, values, lg):
    why = _changed_inputs(ent, values)
    if why is not None:
        del _st.entries[prog]  # (a stable input moved, a scalar changed, another stream: decide again)
        lg.why = why
        return None
    # Graph 1 if every carried input is graph 0's output from the last replay; graph 0 without
    # copies if each is graph 1's; else graph 0 with the carried inputs copied into its buffers.
    last, outs, p, copy = ent.last, ent.outs, 0, True
    if last >= 0:
        prev = outs[last]
        for i, j in ent.carried.items():
            if values[i] is not prev[j]:
                break
        else:
            p, copy = 1 - last, False
    if outs[p] is not None and not _unheld(outs[p]):
        ent.last = -1
        lg.why = "an output of an earlier replay is still held (graph {} would overwrite it)".format(p)
        return None
    if outs[p] is None and not _capture_second(ent, prog):
        return None
    _copy_in(ent, values, copy)
    return _launch(ent, p)


def _changed_inputs(ent, values):
    """None where `values` are what the entry's graphs were captured for (the inputs read in
    place at their addresses and layouts, the scalars of the same type and value, the current
    stream and device the capture's), else why not. The scalars are compared as tuples (each the
    same object or an equal one): a NaN literal of the loop body is the same object each time; a
    NaN made anew at each step never equals the captured one (a new capture)."""
    if len(values) != ent.n or _stream.get_current_stream() is not ent.stream or \
            _device.get_device_id() != ent.device:
        return "another stream or device than its capture's"
    for i, ptr, strides in ent.stable:
        v = values[i]
        if type(v) is not ndarray or v.data.ptr != ptr or v._strides != strides:
            return "input {} moved since its capture (its graphs read it in place)".format(i)
    # (Their types need no test: the Program's key holds each scalar's, ("s", type) or ("s", dtype).)
    got = ent.scalars_of(values)
    if got != ent.scalar_values:
        changed = sum(1 for v, x in zip(got, ent.scalar_values) if not (v is x or v == x))
        return "{} scalar argument(s) changed value since its capture (baked into its graphs)".format(changed)
    for i in ent.arrays_at:  # (moved inputs: any array of the Program's shape and dtype, copied in)
        if type(values[i]) is not ndarray:
            return "input {} is not a device array".format(i)
    return None


def _copy_in(ent, values, carried):
    """The moved inputs (and the carried ones, if `carried`) into their fixed buffers."""
    with _tracing.suspended():  # (an assignment in lazy mode would flush and record)
        for i, buf in ent.static.items():
            buf[...] = values[i]
        if carried:
            for i, buf in ent.inbufs.items():
                buf[...] = values[i]


def _copy_back(ent, outs):
    """Graph 1's carried outputs into graph 0's input buffers (captured: graph 1's last launches)."""
    for i, j in ent.carried.items():
        ent.inbufs[i][...] = outs[j]


def _launch(ent, p):
    ent.graphs[p].replay(ent.stream)
    ent.last = p
    _replay._logs.lg.replayed = True
    return list(ent.outs[p])


# A capture that failed for a reason of the moment is tried again later, a few times: another
# thread's operation that synchronises implicitly (a library handle made or destroyed, a module
# loaded) invalidates a capture in progress (CUDA_ERROR_STREAM_CAPTURE_INVALIDATED; four threads
# replaying loops at once lost some captures so on the H100). A host synchronisation inside the
# body (`StreamCaptureError`) fails every time: not tried again.
RETRY_AFTER = 16  # evaluations of the Program before the next attempt
MAX_CAPTURES = 3  # attempts per Program and thread


def _capture_failed(prog, e):
    _decline(prog, "capture failed: {}: {}".format(type(e).__name__, e))
    if isinstance(e, _sync_hooks.StreamCaptureError):
        return
    if _st.retries is None:
        _st.retries = {}
    r = _st.retries.get(prog)
    made = 1 if r is None else r[1] + 1
    if made < MAX_CAPTURES:
        if len(_st.retries) > 64:
            _st.retries.clear()
        _st.retries[prog] = [RETRY_AFTER, made]
    elif r is not None:
        del _st.retries[prog]


def _retry_due(prog) -> None:
    """Count down to the next capture attempt of a Program declined after a failed capture; when
    due, it is declined no more (this evaluation's outputs are then kept, so the next one finds
    its carried inputs)."""
    r = _st.retries.get(prog) if _st.retries is not None else None
    if r is None or r[0] < 0:
        return
    if r[0]:
        r[0] -= 1
        return
    r[0] = -1  # (attempting: a new failure sets the count again)
    del _st.declined[prog]


def _decline(prog, why):
    if _st.declined is None:
        _st.declined = {}
    if len(_st.declined) > 64:
        _st.declined.clear()
    _st.declined[prog] = why
