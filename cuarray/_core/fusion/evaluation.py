"""Computing lazy graphs: a thread's pending lazy arrays at once (`flush`), or given nodes
(`compute`), as one Program (planned once per graph structure, `planner.plan_traced`), its
outputs kept as the nodes' values and the evaluation noted for `explain()` (`replay.note`).

`st` is the thread's lazy-mode state (`lazy_mode._State`: `live`, the weak references to the
lazy arrays made; `trace`, the structure key recorded since the last computation). Both run at
every evaluation of a lazy loop body, so they are written for the common case: one look-up of
each attribute, loops rather than comprehensions (their frames cost more than these few nodes).
"""

from __future__ import annotations

from ...cuda import _sync_hooks
from ...cuda import device as _device
from ...cuda import launch as _launch
from ...cuda import stream as _stream
from . import graph_replay as _graph_replay
from . import planner as _planner
from . import plans as _plans
from . import replay as _replay
from .graph import native as _native
from .planner import plan_traced
from .trace import Trace

__all__ = ["compute", "flush"]

_perf_counter = _replay.perf_counter

# The end of a lazy block in its steady state (the predicted Program, replayed as the graph that
# follows the last replay, or one never replayed) as one C call, where the node core is built
# (`_native/steady.c`: this module's steps and their effects, in order). It answers True when done;
# None, with nothing done, where the prediction does not hold; (prog, values, t0) once only the plan
# is confirmed and the last step's graph released, where a step would decide or record anything else
# (`_run` does the rest).
_steady_finish = None
if _native is not None:
    _native.configure_steady(_planner._programs, _planner._generation, _replay, _replay._logs, _graph_replay._st,
                             _sync_hooks.is_capturing, _stream.get_current_stream, _device.get_device_id,
                             _perf_counter, _planner._Label, _launch.graph_launcher, _stream.current_core_stream)
    _native.configure_steady_records(_plans.LastPlan, _plans.Plans, _graph_replay._Entry, _replay._Log,
                                     _planner.Program)
    _steady_finish = _native.steady_finish


def compute(st, nodes, last=False) -> None:
    """Compute `nodes` (one Program) and keep their values, and those of the matmuls and
    reductions computed on the way (recomputing those would cost more than keeping them).
    `last`: the thread leaves lazy mode after this (no new stretch of building follows)."""
    trace = st.trace
    new = None
    if trace is None:  # outside lazy mode: the graph is recorded now
        trace = Trace()
    elif not last:  # what is built after this is a new stretch, with its own key
        inside = st._inside_routine()  # (a routine's write computed it: the routine goes on)
        st.trace = new = Trace()
        if inside:
            st.internal = (new, 0)
    t0 = _perf_counter()
    prog, inputs = plan_traced(trace, nodes, st.plans)
    if new is not None:  # (nothing recorded in it yet: what follows this evaluation is predicted now)
        new.expect = st.plans.expect
    # Computed nodes read by this graph forget how they were computed: a loop that carries a
    # value from step to step (`w = w - lr * grad`) would otherwise keep every step's graph, and
    # its arrays, alive through `args`. (`numpy()` of this graph starts from their values.) Before
    # the run: the previous step's graph, and the values it read, are gone when a graph replay
    # asks whether the outputs it would overwrite are still held (`graph_replay._unheld`).
    held = trace.held
    if held is not None:  # (the leaves with `args`: `Trace._leaf` lists them)
        for n in held:
            n.args = ()
    _run(trace, nodes, prog, inputs, t0)


def _run(trace, nodes, prog, inputs, t0) -> None:
    """`compute`'s run of the Program `prog` planned for `nodes` from `t0` (`perf_counter`) on its inputs' values."""
    started = _replay.DEVICE_TIMES and _replay.start_timing() or None  # (`explain()`'s device time)
    values = _graph_replay.run(prog, inputs) if _replay.GRAPH_REPLAY else prog.run(inputs)
    if len(nodes) == 1:  # (the common case: one result, no zip)
        nodes[0].value = values[0]
    else:
        for n, v in zip(nodes, values):
            n.value = v
    _replay.note(prog, inputs, t0, trace.t0, started)  # (`explain()`: what ran, host and device times, replay)


def flush(st, last=False) -> None:
    """Compute every lazy array of this thread still alive and not computed, in one Program. Run
    when leaving the context and before an in-place write into a concrete array (`a[...] = v`, a
    ufunc's `out=`): a pending graph reading that array sees it as it was built, as eager mode."""
    live = st.live
    if not live:
        return
    if live.__class__ is list:  # weak references (`fast_paths._emit`)
        pending = []
        for r in live:
            x = r()
            if x is not None and x._node.value is None:
                pending.append(x._node)
        if not last:
            del live[:]
    else:  # a `_nodecore.Live`: its members are the live ones
        pending = live.pending()
        if not last:
            live.clear()
    if last:
        st.live = None  # (leaving lazy mode: the set goes with it; a Live's members leave it as they go)
    if pending:
        if last and _steady_finish is not None:  # (here, not in `compute`: one frame less a block)
            done = _steady_finish(st, pending)  # (True: all done; else None, or the Program planned as `compute` plans)
            if done is not None:
                if done is not True:
                    _run(st.trace, pending, *done)
                return
        compute(st, pending, last)
