"""Planning: a graph -> a `Program`, the few kernel launches that compute its outputs.

Grouping rules:
- a maximal connected set of elementwise nodes ('ufunc', 'cast', 'where') becomes one kernel
  (a `codegen.Cluster`); its inputs are the arrays, scalars and non-elementwise nodes it reads;
- a reduction whose operand is elementwise takes that cluster as its map: the producer is
  computed in the reduction's load and never written to memory;
- everything else ('call': matmul, dot, views of computed values) runs its eager routine.

Shared subexpressions: inside one kernel a node is computed once. A node read by several
kernels is recomputed by each or computed once into memory, whichever the cost model
(`cost.py`: arithmetic of the shared subtree against writing and re-reading the value plus a
launch) says is cheaper.

Matmul epilogues (`epilogue.py`): a float product of a matrix (or a stack of them) by a matrix
whose only consumer chain starts with a power-of-two scalar multiple, `+ bias` (a row vector)
and/or `maximum(., 0)` is one cublasLt call applying them; what reads the chain's last node reads
the GEMM's output.

A `Program` is pure data over "slots" (its inputs, then one slot per step); it holds no device
arrays, so `fuse` keeps one per signature and replays it with new inputs.
"""

from __future__ import annotations

import numpy

from .. import reduction_ops as _rops
from .. import shapes as _shapes
from .. import tracing as _tracing
from ...cuda import caches as _caches
from ...cuda import compiler as _compiler
from ...cuda import launch as _launch
from ...cuda import memory as _memory
from ...cuda import stream as _stream
from ..elementwise import ELEMENTWISE as _EW
from ..elementwise import _INT32_MAX, FlatLaunch
from ..ndarray import _c_layout, _new_c, ndarray
from ..nodecore import native as _native
from ..nodecore import record_base as _record_base
from . import codegen as _codegen
from . import cost as _cost
from . import epilogue as _epilogue
from ..reduction import plan as _rplan

__all__ = ["Program", "clear", "plan", "plan_cached", "plan_traced", "signature"]

class _Elementwise(_record_base("ElementwiseFields", ("defn", "ins", "scalars", "shape", "dtype", "cluster", "policy",
                                                      "cfgs", "m_all", "vec", "last"))):
    """One fused elementwise kernel of a Program. `run(slots)`: its output, made and launched
    (`_native/elementwise_run.c` where the node core is built: `launch_into`'s first case in C)."""

    __slots__ = ()  # (the fields are the base's: C members read by index, or Python slots)

    def prepare(self):
        """The engine's launch policy over the inputs, then the output (elementwise.FlatLaunch);
        its cache, mask and width copied to slots for the inline look-up in `run`."""
        sizes = [self.cluster.inputs[i].dtype.itemsize for i in range(len(self.ins))] + [self.dtype.itemsize]
        p = self.policy = FlatLaunch(self.defn, sizes)
        self.cfgs, self.m_all, self.vec = p.cfgs, p.mask, p.vec
        # Per scalar: (the last value, its kernel argument). A loop body's literals (`y * 0.5`)
        # are the same objects at every evaluation: converted once, not per launch.
        self.last = [(None, None)] * len(self.scalars)

    def run(self, slots):
        if _native_run is not None:
            return _native_run(self, slots)
        return self.launch_into(slots, _new_c(self.shape, self.dtype))

    def launch_into(self, slots, out):
        """The kernel's launch into `out` (a new C-contiguous array of the step's shape and dtype)."""
        n = out._size
        if not n:
            return out
        shape = self.shape
        # The common case straight to the launch, as the eager ufuncs' prepared path does:
        # every input C-contiguous with the output's shape; else the engine's general path.
        args = []
        po = orp = out.data.ptr
        for k in self.ins:
            a = slots[k]
            if a._shape != shape or not a._c:
                return self._general(slots, out)
            p = a.data.ptr
            orp |= p
            args.append(p)
        m = self.m_all
        hit = self.cfgs.get(n if n >= self.vec and not orp & m else -n - 1) if m is not None else None
        if hit is None:
            if n > _INT32_MAX:
                return self._general(slots, out)
            hit = self.policy.prepare(n, (*args, po))
        last, j = self.last, 0
        for k, conv in self.scalars:
            v = slots[k]
            c = last[j]
            if c[0] is not v:  # (identity: equal values may differ, -0.0 and 0.0)
                c = last[j] = (v, conv(v))
            args.append(c[1])
            j += 1
        args.append(po)
        args.append(hit[2])
        _EW.enqueue(_stream.current_core_stream(), hit[1], hit[0], *args)
        return out

    def _general(self, slots, out):
        arrays = [slots[k] for k in self.ins]
        arrays.append(out)
        self.defn.run(arrays, tuple(conv(slots[k]) for k, conv in self.scalars), self.shape)
        return out

    def bind(self, binders):
        """A launcher taking the call's arguments directly (`fuse`'s one-kernel case): `binders`
        map each input slot to an argument position, or to a constant (-1, value), whose kernel
        argument is converted once here."""
        ins = [binders[k] for k in self.ins]
        if any(k < 0 for k, _ in ins):
            return None
        ins = tuple(k for k, _ in ins)
        sc = tuple((binders[k][0], conv, conv(binders[k][1]) if binders[k][0] < 0 else None)
                   for k, conv in self.scalars)
        shape, dtype, run = self.shape, self.dtype, self.defn.run

        def launch(args):
            out = _new_c(shape, dtype)
            if out._size:
                arrays = [args[k] for k in ins]
                arrays.append(out)
                run(arrays, tuple([c if k < 0 else conv(args[k]) for k, conv, c in sc]), shape)
            return out

        return launch

    def describe(self):
        return "elementwise kernel {} -> {} {}".format(self.defn.name, self.dtype.name, self.shape)

    def source(self):
        return self.defn.source("flat", 1, numpy.int32)[1]


if _native is not None:
    _native.configure_elementwise_run(_Elementwise, ndarray, _memory, _c_layout, _stream.current_core_stream, _launch)
    _native_run = _native.elementwise_run
else:
    _native_run = None


class _ElementwiseMulti:
    """A fused kernel writing several outputs of one shape (sibling results sharing nodes or
    inputs: `t = f(x); return t * 2 + x, t * t - 1` reads x once and computes t once). `run`
    returns the outputs, which fill consecutive slots (`Program._run_multi`)."""

    __slots__ = ("defn", "ins", "scalars", "shape", "dtypes", "cluster", "policy", "nout")

    dtype = property(lambda self: self.dtypes[0])

    def prepare(self):
        sizes = [self.cluster.inputs[i].dtype.itemsize for i in range(len(self.ins))]
        self.policy = FlatLaunch(self.defn, sizes + [d.itemsize for d in self.dtypes])
        self.nout = len(self.dtypes)

    def run(self, slots):
        shape = self.shape
        outs = [_new_c(shape, d) for d in self.dtypes]
        n = outs[0]._size
        if not n:
            return outs
        args = []
        for k in self.ins:
            a = slots[k]
            if a._shape != shape or not a._c:
                arrays = [slots[j] for j in self.ins] + outs
                self.defn.run(arrays, tuple(conv(slots[j]) for j, conv in self.scalars), shape)
                return outs
            args.append(a.data.ptr)
        po = [o.data.ptr for o in outs]
        if n > _INT32_MAX:
            arrays = [slots[j] for j in self.ins] + outs
            self.defn.run(arrays, tuple(conv(slots[j]) for j, conv in self.scalars), shape)
            return outs
        hit = self.policy.prepare(n, args + po)
        for k, conv in self.scalars:
            args.append(conv(slots[k]))
        args += po
        args.append(hit[2])
        _EW.enqueue(_stream.current_core_stream(), hit[1], hit[0], *args)
        return outs

    def describe(self):
        return "elementwise kernel {} -> {} outputs {} {}".format(
            self.defn.name, self.nout, "/".join(d.name for d in self.dtypes), self.shape)

    def source(self):
        return self.defn.source("flat", 1, numpy.int32)[1]


class _Reduction:
    __slots__ = ("rdef", "ins", "scalars", "in_shape", "raxes", "kshape", "final", "dtype", "cluster")

    def run(self, slots):
        y = _new_c(self.kshape, self.dtype)
        arrays = [slots[k] for k in self.ins]
        self.rdef.run(self.in_shape, arrays, tuple(conv(slots[k]) for k, conv in self.scalars), y, self.raxes)
        if self.final != self.kshape:
            y = ndarray._view(self.final, _shapes.c_strides(self.final, y._dtype.itemsize), y._dtype, y.data, y)
        return y

    def describe(self):
        return "reduction kernel {} over axes {} -> {} {}".format(self.rdef.name, self.raxes, self.dtype.name,
                                                                  self.final)

    def source(self):
        p = _rplan_for_source(self)
        st = self.rdef.stages(p)[0][0]
        return self.rdef.source(st)[1]


class _EagerUfunc:
    """A lone elementwise node (nothing to fuse with): run by the ufunc's eager path, so a graph
    that saves no launch costs what eager mode does, with eager mode's kernel (no kernel of its
    own to generate and compile)."""

    __slots__ = ("uf", "ins")

    def run(self, slots):
        return self.uf(*[slots[k] for k in self.ins])  # (a Program runs with tracing suspended)

    def describe(self):
        return "eager {}".format(self.uf.__name__)

    def source(self):
        return None


class _Call:
    __slots__ = ("name", "fn", "ins")

    def run(self, slots):
        return self.fn(*[slots[k] for k in self.ins])

    def describe(self):
        return "eager {}".format(self.name)

    def source(self):
        return None


def _rplan_for_source(step):
    strides = [_shapes.c_strides(step.in_shape, 4)] * len(step.ins)
    y = _shapes.c_strides(step.kshape, step.dtype.itemsize)
    return _rplan(step.in_shape, strides, (4,) * len(step.ins), y, step.raxes)


def _scalar_converter(dtype):
    """Python/NumPy scalar -> the C-typed kernel argument of a loop input of `dtype` (what the
    eager ufunc passes: the loop type, float16 as float)."""
    t = dtype.type
    if dtype.kind in "fc" and dtype.char != "e":
        # The NumPy scalar type itself (a C call, no Python frame): for a float or complex loop,
        # `t(v)` of a NumPy scalar rounds as `v.astype(dtype)` does.
        return t
    if dtype.char == "e":
        return lambda v: numpy.float32(v.astype(dtype) if isinstance(v, numpy.generic) else t(v))
    return lambda v: v.astype(dtype) if isinstance(v, numpy.generic) else t(v)


class _Label:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def label(self) -> str:
        return self.text


class Program(_record_base("ProgramFields", ("inputs", "steps", "outputs", "eager", "multi", "one", "replay_facts"))):
    """Steps over slots: `inputs` (nodes whose values fill the first slots, in order), `steps`,
    `outputs` (slot of each requested node). A record (steady.c reads `inputs`, `one` and
    `replay_facts` by index at each evaluation of a loop body)."""

    __slots__ = ()  # (the fields are the base's: C members read by index, or Python slots)

    def run(self, values):
        """Run with the input values (device arrays and scalars, in `inputs` order). Steps call
        eager routines (a lone ufunc, a product): tracing is suspended on this thread meanwhile,
        so they launch instead of recording."""
        one = self.one
        if one is not None:  # one fused kernel, its value the output: no slots list to build
            return [one.run(values)]
        if self.multi:
            return self._run_multi(values)
        slots = list(values)
        if _tracing.active and self.eager:
            with _tracing.suspended():
                for st in self.steps:
                    slots.append(st.run(slots))
        else:
            for st in self.steps:
                slots.append(st.run(slots))
        outs = self.outputs
        if len(outs) == 1:  # (the common case, without a comprehension's frame)
            return [slots[outs[0]]]
        return [slots[k] for k in outs]

    def _run_multi(self, values):
        """`run` of a Program with a multi-output kernel (its outputs fill several slots)."""
        slots = list(values)
        with _tracing.suspended():
            for st in self.steps:
                if type(st) is _ElementwiseMulti:
                    slots.extend(st.run(slots))
                else:
                    slots.append(st.run(slots))
        return [slots[k] for k in self.outputs]

    def detach(self) -> None:
        """Drop the references to the graph it was planned from (a cached Program must not
        keep that graph's arrays alive); `explain` keeps the inputs' descriptions."""
        self.inputs = [_Label(n.label()) for n in self.inputs]
        for st in self.steps:
            if hasattr(st, "cluster"):
                st.cluster = None

    def explain(self, compile=False) -> str:
        """Inputs, steps, outputs and each kernel's CUDA source; `compile`: each source is also
        compiled by NVRTC for sm_90 (no GPU needed), and the cubin's size shown."""
        lines = ["inputs:"]
        lines += ["  [{}] {}".format(k, n.label()) for k, n in enumerate(self.inputs)]
        k = len(self.inputs)
        src = []
        for st in self.steps:
            m = getattr(st, "nout", 1)
            at = "{}".format(k) if m == 1 else "{}..{}".format(k, k + m - 1)
            k += m
            lines.append("  [{}] = {}".format(at, st.describe()))
            s = st.source()
            if s is not None:
                src.append("// ---- [{}] {}\n{}".format(at, st.describe(), s))
                if compile:
                    d = getattr(st, "defn", None) or st.rdef
                    cubin, _ = _compiler.compile_cubin(s, arch="sm_90", options=d.options, name=d.name)
                    lines.append("        compiled for sm_90 by NVRTC: {} bytes of cubin".format(len(cubin)))
        lines.append("outputs: {}".format(self.outputs))
        return "\n".join(lines + src)


def _consumers(order):
    users = {}
    for n in order:
        if n.value is None:
            for a in n.args:
                users.setdefault(id(a), set()).add(id(n))
    return users


def _scan(outputs, want_key=True, dedupe=True):
    """One pass over the graph: (order, leaves, slot, key). `order`: nodes, inputs before users;
    `leaves`: the graph's inputs (scalars, and one node per distinct computed array) in that
    order; `slot`: id(node) -> leaf index; `key`: the structure (see `signature`) or None."""
    order, leaves, slot, by_value, pos, key, seen = [], [], {}, {}, {}, [], set()
    stack = [(n, False) for n in reversed(outputs)]
    cacheable = want_key
    while stack:
        n, done = stack.pop()
        i = id(n)
        if done:
            if n.value is not None or n.kind == "scalar":
                if n.kind == "scalar":
                    k = len(leaves)
                    leaves.append(n)
                    sig = (k, n.weak or n.dtype)
                else:
                    vid = id(n.value) if dedupe else i
                    k = by_value.get(vid)
                    if k is None:
                        k = by_value[vid] = len(leaves)
                        leaves.append(n)
                    sig = (k, n.dtype, n.shape)
                slot[i] = k
            elif cacheable:
                kind = n.kind
                if kind == "call":
                    op = n.attr[3]
                    cacheable = op is not None
                else:
                    op = n.attr if kind != "where" else n.dtype
                sig = (kind, op, tuple([pos[id(a)] for a in n.args]))
            if cacheable:
                pos[i] = len(key)
                key.append(sig)
            order.append(n)
            continue
        if i in seen:
            continue
        seen.add(i)
        stack.append((n, True))
        if n.value is None:
            for a in reversed(n.args):
                if id(a) not in seen:
                    stack.append((a, False))
    if cacheable:
        key.append(tuple([pos[id(n)] for n in outputs]))
        return order, leaves, slot, tuple(key)
    return order, leaves, slot, None


def signature(outputs):
    """(structure key, input values): two graphs with one key are computed by one Program
    (same operations, dtypes, shapes, scalar types; other input arrays and scalar values).
    The key is None when a node cannot say what it does (a call without a signature)."""
    _, leaves, _, key = _scan(outputs)
    return key, [n.value for n in leaves]


_programs: dict = {}


def _keep(key, prog):
    if len(_programs) > 1024:
        clear()
    prog.detach()
    _programs[key] = prog
    return prog


def plan_cached(outputs):
    """(Program, input values) for `outputs`, the Program planned once per graph structure:
    a loop body that builds the same graph each iteration plans and generates code once."""
    key, values = signature(outputs)
    if key is None:
        prog = plan(outputs)
        return prog, [n.value for n in prog.inputs]
    prog = _programs.get(key)
    if prog is None:
        prog = _keep(key, plan(outputs))
    return prog, values


_generation = [0]  # bumped by each `clear` of the plan cache: `LastPlan`s made before are stale


def clear() -> None:
    """Empty the plan cache (every later evaluation plans afresh)."""
    _programs.clear()
    _generation[0] += 1


_caches.register("fused programs", count=lambda: len(_programs), clear=clear)


def plan_traced(trace, outputs, plans=None):
    """(Program, input values) for `outputs`, all recorded in `trace` (`trace.Trace`): the key
    was built with the graph, so a hit costs one dictionary look-up of it, or with `plans` (the
    thread's `plans.Plans`) where the structure is the predicted one, an equality test of the
    entries (0.8 -> 0.3 us for a 10-node chain, stubbed). A prediction holds only
    while the plan cache it came from is the one in use and not cleared since (`clear`), so a
    test that swaps the cache out plans afresh."""
    n = outputs[0] if len(outputs) == 1 else None  # (one output recorded here: `positions` inline)
    pos = (n.pos,) if n is not None and n.seg == trace.id and trace.cacheable else trace.positions(outputs)
    if pos is None:
        return plan_cached(outputs)
    ops = trace.ops
    if plans is not None:
        p = plans.predicted
        if (p is not None and p.pos == pos and p.table is _programs and p.gen == _generation[0]
                and p.ops == ops):
            plans.last.next = p  # (`plans.step(p)`, inline: this runs at every evaluation of a loop)
            plans.last = p
            q = plans.predicted = p.next or p
            plans.expect = q.ops
            return p.prog, trace.values
    key = (tuple(ops), pos)
    prog = _programs.get(key)
    if prog is None:
        try:
            prog = plan(outputs, trace=trace)
        except KeyError:  # an input the trace did not see (computed by another thread meanwhile)
            return plan_cached(outputs)
        prog = _keep(key, prog)
    if plans is not None:
        plans.ran(prog, ops, pos, _programs, _generation[0])
    return prog, trace.values


def plan(outputs, kernel_name=None, dedupe=True, trace=None) -> Program:
    """The Program computing the nodes `outputs`; `kernel_name` names its kernels (`fuse`).
    `dedupe`: one input per distinct array (False for `fuse`, whose Program is replayed with
    other arrays: two arguments that were one array at trace time need not be later).
    `trace`: the `Trace` recording the graph; the Program's inputs are then its inputs, in
    its order (those no output needs included), so its values can be passed as they are."""
    order, leaves, slot, _ = _scan(outputs, False, dedupe)
    if trace is not None:
        leaves = list(trace.leaves)
        for n in order:
            if n.kind == "scalar" or n.value is not None:
                slot[id(n)] = trace.input_slot(n)
    users = _consumers(order)
    prog = Program()
    prog.replay_facts = None  # (`graph_replay._facts`, made at its first evaluation)
    prog.steps, prog.outputs = [], []
    prog.inputs = leaves
    base = len(prog.inputs)
    prog.steps = []
    roots = {id(n) for n in outputs}
    node_of = {id(n): n for n in order}
    epi, absorbed = _match_epilogues(order, users, node_of, roots)
    group_of = {id(r): g for g in _siblings(outputs, users, epi, absorbed) for r in g}
    inside = {id(m) for g in group_of.values() for r in g for m in _cluster_of(r, roots, slot).nodes}
    _shared(order, users, node_of, roots, absorbed | inside, set(epi))
    nslots = [base]

    def name():
        if kernel_name is None:
            return None
        k = sum(1 for s in prog.steps if not isinstance(s, _Call))
        return kernel_name if k == 0 else "{}_{}".format(kernel_name, k)

    def emit(st, count=1):
        prog.steps.append(st)
        nslots[0] += count
        return nslots[0] - count

    def cluster_of(root):
        return _cluster_of(root, roots, slot)

    def require(n):
        k = slot.get(id(n))
        if k is None:
            k = slot[id(n)] = compute(n)
        return k

    def scalar_slots(cl):
        return tuple((slot[id(s)], _scalar_converter(dt)) for s, dt in cl.scalars)

    def compute(n):
        if id(n) in epi:
            return emit(epilogue_step(n, *epi[id(n)]))
        if id(n) in group_of:
            g = group_of[id(n)]
            return _emit_siblings(n, g, _cluster_of(g[0], roots, slot, g), require, slot, scalar_slots, name, emit)
        if n.elementwise:
            cl = cluster_of(n)
            if len(cl.nodes) == 1 and n.kind == "ufunc" and dedupe and kernel_name is None:
                st = _EagerUfunc()
                st.uf = n.attr[0]
                st.ins = tuple(require(a) for a in n.args)
                return emit(st)
            st = _Elementwise()
            st.defn = _codegen.elementwise_definition(cl, name())
            st.ins = tuple(require(i) for i in cl.inputs)
            st.scalars = scalar_slots(cl)
            st.shape, st.dtype, st.cluster = n.shape, n.dtype, cl
            st.prepare()
            return emit(st)
        if n.kind == "reduce":
            op_name, raxes, keepdims, _ = n.attr
            x = n.args[0]
            if x.elementwise and x.value is None and id(x) not in roots:
                cl = cluster_of(x)
            else:
                cl = _codegen.Cluster(x, [], [x])
            st = _Reduction()
            st.rdef = _codegen.reduction_definition(cl, op_name, n.dtype, name())
            st.ins = tuple(require(i) for i in cl.inputs)
            st.scalars = scalar_slots(cl)
            st.in_shape, st.raxes, st.dtype, st.cluster = x.shape, raxes, n.dtype, cl
            st.kshape = tuple(d for i, d in enumerate(x.shape) if i not in raxes)
            st.final = _rops.reduced_shape(x.shape, raxes, keepdims)
            return emit(st)
        if n.kind == "call":
            st = _Call()
            st.name, st.fn = n.attr[0], n.attr[1]
            st.ins = tuple(require(a) for a in n.args)
            return emit(st)
        raise AssertionError(n.kind)

    def epilogue_step(last, mm, chain, alpha, div, bias, relu):
        return _epilogue_step(last, mm, chain, alpha, div, bias, relu, require, slot, name)

    prog.outputs = [require(n) for n in outputs]
    # Whether a step may call a traceable routine (so `run` suspends tracing): all but the fused
    # kernels, whose launches go straight to the engine (a one-kernel Program saves the switch).
    prog.eager = any(type(st) is not _Elementwise for st in prog.steps)
    prog.multi = any(type(st) is _ElementwiseMulti for st in prog.steps)
    prog.one = prog.steps[0] if (len(prog.steps) == 1 and type(prog.steps[0]) is _Elementwise
                                 and prog.outputs == [base]) else None
    # require and compute call each other through their cells: a reference cycle that would keep
    # this graph's nodes, and the arrays they hold (a lazy chain's result too), until the garbage
    # collector runs. Emptying the cells breaks it: the device memory goes back when the last
    # user reference does.
    del require, compute
    return prog


def _match_epilogues(order, users, node_of, roots) -> tuple:
    """({id of the last node of an epilogue chain: (product node, its match...)}, ids of the nodes
    the chains absorb); each chain's last node joins `roots`."""
    epi, absorbed = {}, set()  # last node of an epilogue chain -> its match; nodes it absorbs

    def user_of(n):
        u = users.get(id(n), ())
        return node_of[next(iter(u))] if len(u) == 1 else None

    for n in order:
        if n.kind == "call" and n.value is None:
            mt = _epilogue.match(n, user_of, roots)
            if mt is not None:
                last, chain = mt[0], mt[1]
                epi[id(last)] = (n,) + mt[1:]
                absorbed.add(id(n))
                absorbed.update(id(c) for c in chain[:-1])
                roots.add(id(last))
    return epi, absorbed


# One multi-output kernel at most: nodes (compile time, registers; MAX_CHAIN's bound), outputs
# and input arrays (with the scalars, under the 4 KiB of kernel parameters: <= 352 x 8 bytes).
MAX_SIBLING_NODES, MAX_SIBLING_OUTPUTS, MAX_SIBLING_INPUTS = 128, 32, 64


def _siblings(outputs, users, epi, absorbed) -> list:
    """Groups (lists of output nodes, in output order) to compute as one multi-output kernel:
    uncomputed elementwise outputs of one shape whose graphs share a node or an input array and
    read only computed values and scalars (so no other step sits between them: no cycle), with
    every node of the group read only inside the group (nothing else needs one in memory)."""
    cands, seen = [], set()
    for n in outputs:
        if id(n) in seen or n.value is not None or not n.elementwise or id(n) in epi or id(n) in absorbed:
            continue
        seen.add(id(n))
        members, leaves, stack, ok = set(), set(), [n], True
        while stack and ok:
            m = stack.pop()
            if m.kind == "scalar" or id(m) in members:
                continue
            if m.value is not None:
                leaves.add(id(m.value))
            elif m.elementwise and id(m) not in absorbed and (m is n or id(m) not in epi):
                members.add(id(m))
                stack.extend(m.args)
            else:
                ok = False
        if ok:
            cands.append((n, members, leaves))
    # Union-find over the candidates: two of one shape sharing a node or an input array join
    # (an index by (shape, id), so many outputs plan in linear time).
    parent, owner = list(range(len(cands))), {}

    def find(i):
        while parent[i] != i:
            parent[i] = i = parent[parent[i]]
        return i

    for i, (n, members, leaves) in enumerate(cands):
        for ids in (members, leaves):
            for m in ids:
                j = owner.setdefault((n.shape, m), i)
                if j != i:
                    parent[find(j)] = find(i)
    groups = {}
    for i, c in enumerate(cands):
        groups.setdefault(find(i), []).append(c)
    del find  # (it reads `parent` through its cell: no cycle, but nothing keeps it)
    out = []
    for g in groups.values():
        members = set().union(*[c[1] for c in g])
        if 1 < len(g) <= MAX_SIBLING_OUTPUTS and len(members) <= MAX_SIBLING_NODES and len(
                set().union(*[c[2] for c in g])) <= MAX_SIBLING_INPUTS and all(
                users.get(m, set()) <= members for m in members):
            out.append([c[0] for c in g])  # (candidates are in output order)
    return out


def _cluster_of(root, roots, slot, tops=None):
    """The elementwise nodes computed with `root` (stopping at roots and valued nodes); with
    `tops` (a sibling group, `root` first), those of every node of `tops`, each once."""
    nodes, inputs, seen = [], [], set()
    top_ids = {id(root)} if tops is None else {id(t) for t in tops}

    def visit(n, top):
        if id(n) in seen:
            return
        seen.add(id(n))
        if n.kind == "scalar":
            return
        if n.value is not None or not n.elementwise or (not top and id(n) in roots and id(n) not in top_ids):
            inputs.append(n)
            return
        for a in n.args:
            visit(a, False)
        nodes.append(n)

    for t in (root,) if tops is None else tops:
        visit(t, True)
    del visit  # it calls itself through its cell: a cycle holding the nodes (and their arrays)
    # One parameter per distinct input (`h * (1 - h)` reads h once).
    uniq, first = [], {}
    for n in inputs:
        k = slot.get(id(n), id(n))
        if k not in first:
            first[k] = n
            uniq.append(n)
    cl = _codegen.Cluster(root, nodes, uniq, tops)
    for n in inputs:
        cl._names[id(n)] = cl._names[id(first[slot.get(id(n), id(n))])]
    return cl


def _emit_siblings(n, group, cl, require, slot, scalar_slots, name, emit):
    """Emit the multi-output kernel of a sibling group (`cl`: its cluster, roots in group order);
    every root's slot is set; `n`'s slot is returned."""
    cl.root = group[0]
    st = _ElementwiseMulti()
    st.defn = _codegen.elementwise_definition(cl, name())
    st.ins = tuple(require(i) for i in cl.inputs)
    st.scalars = scalar_slots(cl)
    st.shape, st.dtypes, st.cluster = group[0].shape, tuple(r.dtype for r in group), cl
    st.prepare()
    k = emit(st, len(group))
    for j, r in enumerate(group):
        slot[id(r)] = k + j
    return slot[id(n)]


def _epilogue_step(last, mm, chain, alpha, div, bias, relu, require, slot, name):
    """The Epilogue step of a product `mm` and its chain ending at `last` (`require`: a node's
    slot, computing it; `name`: the next kernel's name, asked after the operands' steps)."""
    st = _epilogue.Epilogue()
    st.name, st.fn = mm.attr[0], mm.attr[1]
    st.ia, st.ib = require(mm.args[0]), require(mm.args[1])
    st.ibias = require(bias) if bias is not None else -1
    st.ialpha = slot[id(alpha)] if alpha is not None else -1
    st.irelu = slot[id(relu)] if relu is not None else -1
    st.div = div
    st.kind = ("relu_" if relu is not None else "") + ("bias" if bias is not None else "")
    st.kind = st.kind.rstrip("_") or "default"
    st.shape, st.dtype = last.shape, last.dtype
    # The fallback: the chain as one kernel over [product, bias?] and its scalars.
    ins = [mm] + ([bias] if bias is not None else [])
    cl = _codegen.Cluster(last, list(chain), ins)
    fb = _Elementwise()
    fb.defn = _codegen.elementwise_definition(cl, name())
    fb.ins = tuple(range(len(ins)))
    fb.scalars = tuple((len(ins) + j, _scalar_converter(dt)) for j, (_, dt) in enumerate(cl.scalars))
    fb.shape, fb.dtype, fb.cluster = last.shape, last.dtype, cl
    fb.prepare()
    fb.cluster = None
    st.fallback = fb
    st.fb_scalars = tuple(slot[id(sn)] for sn, _ in cl.scalars)
    return st


def _shared(order, users, node_of, roots, absorbed, epi_last) -> None:
    """Add to `roots` the shared elementwise nodes the cost model says to compute once into
    memory. Consumers first (reverse order), so each node knows which kernels read it: `kern`
    maps a node to the kernels (ids of their roots) that compute it inline. A node read by a
    step that needs it in memory (a matmul, a view of it, an epilogue's bias) is `forced`."""
    kern = {}

    def stop_node(n):
        return id(n) in roots

    for n in reversed(order):
        i = id(n)
        if n.value is not None or not n.elementwise or i in absorbed:
            continue
        if i in roots:
            kern[i] = (i,)
            continue
        ks, forced = set(), False
        for u in users.get(i, ()):
            if u in absorbed or u in epi_last:
                forced = True
            elif u in roots or not node_of[u].elementwise:
                if node_of[u].kind == "call":
                    forced = True
                else:
                    ks.add(u)
            else:
                ks.update(kern.get(u, ()))
        if forced:
            if ks and _cost.materialise(n, len(ks), stop_node, True):
                roots.add(i)
                kern[i] = (i,)
            else:
                ks.add(i)  # its own kernel (a matmul operand) and those recomputing it
                kern[i] = tuple(ks)
        elif len(ks) > 1 and _cost.materialise(n, len(ks), stop_node):
            roots.add(i)
            kern[i] = (i,)
        else:
            kern[i] = tuple(ks)
