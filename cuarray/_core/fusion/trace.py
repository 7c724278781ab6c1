"""The trace cache: a lazy graph's structure key, recorded while the graph is built.

Lazy mode records every node it hands to user code into the thread's current `Trace` (one per
stretch of building between two computations): one entry per node, made of what decides the
kernels (operation, resolved loop, dtypes, shapes, scalar types, which inputs are the same
array) and never of values or device pointers. When something is computed, the entries so far
and the positions of the requested nodes are the key of the cached `Program`
(`planner.plan_traced`), so a loop body that builds the same graph each iteration goes straight
from the last operation to the cached launches: no walk over the graph, no planning, no code
generation. Recording costs one tuple per node at build time, where the node's shape, dtype and
loop are already known (they were computed by the eager rules when the node was made).

Entries: an input array or computed value is ("a", dtype, shape), one entry per distinct array
(two uses of `h` are one input, as the planner's inputs are); a scalar argument is ("s", its
Python type or dtype), one per use; an operation is (kind, what it does, positions of its
inputs). A node built under an earlier trace and never computed is recorded again when a new
node uses it (its subgraph is walked once then). The layout of an input array (strides,
alignment) is not in the key: the engines the Program calls choose flat/vector/strided kernels
per launch.
"""

from __future__ import annotations

import itertools
from time import perf_counter as _clock

from ..nodecore import LAYOUTS as _LAYOUTS
from .graph import _PY_DTYPES, Node
from .graph import native as _native

__all__ = ["Trace", "record_ufunc", "record_ufunc_scalar"]

_ids = itertools.count(1)
_new = object.__new__
_S_ENTRY = {t: ("s", t) for t in _PY_DTYPES}  # a Python scalar's entry (one tuple per type, shared)


class _TraceFields:
    """A trace's fields as Python slots and their first values: `_nodecore.TraceFields`'s fallback
    (one layout, `nodecore.LAYOUTS`, which the C records read without a look-up by name; its
    `__init__` is this one's, step for step)."""

    __slots__ = _LAYOUTS["TraceFields"]

    def __init__(self, expect=None):
        self.expect = expect
        self.t0 = _clock()  # (when this stretch of building began: `explain()`'s build time)
        self.id = next(_ids)
        self.ops = []
        self.leaves = []
        self.values = []
        self.by_value = {}  # id(array) -> its input node (the array is held by `values`)
        self.ordinal = None  # entry position of an input -> its index among the inputs (`input_slot`)
        self.cacheable = True
        self.held = None  # leaves that are computed operations (their `args` go after the evaluation)


class Trace(_TraceFields if _native is None else _native.TraceFields):
    """Nodes recorded since the last computation: `ops` (the structure entries), `leaves` (one
    node per program input, in input order), `values` (their values), `cacheable` (False once a
    node cannot say what it does: a call without a signature). `expect`: the entries of the
    thread's last plan (`planner.LastPlan.ops`), or None: the C records append the entry found
    there at the same position when it is the one they would make (equal, so the key is the
    same), so a loop body's entries are not made anew and the plan's equality test meets the
    same objects (the Python methods make their own: the key is the same either way)."""

    __slots__ = ()  # (the fields, and `__init__(expect=None)`, are the base's: C, or Python slots)

    def record(self, n) -> int:
        """Record `n` (and, first, its inputs not yet recorded here); its entry's position."""
        tid = self.id
        if n.seg == tid:
            return n.pos
        if n.kind == "scalar" or n.value is not None:
            return self._leaf(n)
        pos = []
        for a in n.args:
            if a.seg == tid:
                pos.append(a.pos)
            elif a.kind == "scalar" or a.value is not None:
                pos.append(self._leaf(a))
            else:  # an operation built before the last computation and still not computed
                return self._record_graph(n)
        kind = n.kind
        if kind == "call":
            return self._op(n, tuple(pos))
        ops = self.ops
        k = n.pos = len(ops)
        ops.append((kind, n.attr if kind != "where" else n.dtype, tuple(pos)))
        n.seg = tid
        return k

    def array(self, a) -> Node:
        """The input node of the concrete array `a`, recorded: one node per distinct array (the
        second use of `h` costs one look-up, not a node and an entry). The node is made and its
        entry appended here, as `Node(...)` then `_leaf` would (two frames less per input)."""
        vid = id(a)
        known = self.by_value.get(vid)
        if known is not None:
            if known.kind == "array":
                return known
        n = _new(Node)
        n.kind = "array"
        n.args = ()
        n.shape = a._shape
        n.dtype = a._dtype
        n.attr = n.weak = None
        n.value = a
        n.cost = 0
        if known is None:
            ops = self.ops
            k = len(ops)
            self.by_value[vid] = n
            ops.append(("a", n.dtype, n.shape))
            self.leaves.append(n)
            self.values.append(a)
        else:  # the array is the value of a computed node recorded here: its entry
            k = known.pos
        n.seg = self.id
        n.pos = k
        return n

    # The hot path of lazy mode's operators: the node of a Python scalar operand, or of a ufunc
    # whose loop is known, made and recorded in one call. The slots are set here rather than
    # through `Node.__init__` (one frame less) and the entry is appended directly: an operator
    # in lazy mode cost ~8 Python calls before (scalar node, node, `record`, `_leaf`...).
    def scalar(self, v, t) -> Node:
        """The node of the Python scalar `v` of type `t` (a key of `graph._PY_DTYPES`), recorded:
        what `graph.scalar_node` then `_leaf` make (one entry per use: values never reach the key)."""
        n = _new(Node)
        n.kind = "scalar"
        n.args = n.shape = ()
        n.dtype = _PY_DTYPES[t]
        n.attr = None
        n.value = v
        n.weak = t
        n.cost = 0
        ops = self.ops
        k = n.pos = len(ops)
        ops.append(_S_ENTRY[t])
        n.seg = self.id
        self.leaves.append(n)
        self.values.append(v)
        return n

    def ufunc(self, attr, dtype, shape, args) -> Node:
        """The node of a single-output ufunc over the nodes `args` with the loop already resolved
        (`attr`: (ufunc, loop) as `graph.ufunc_node` makes it; `dtype`, `shape`: its result),
        recorded; equal to what `ufunc_node` then `record` make."""
        n = _new(Node)
        n.kind = "ufunc"
        n.args = args
        n.shape = shape
        n.dtype = dtype
        n.attr = attr
        n.value = n.weak = None
        tid = self.id
        if len(args) == 2:  # (the operators' case, without the loop)
            a, b = args
            n.cost = 1 + (a.cost if a.value is None else 0) + (b.cost if b.value is None else 0)
            pos = (a.pos, b.pos) if a.seg == tid and b.seg == tid else None
        else:
            c, pos = 1, []
            for a in args:
                if a.value is None:
                    c += a.cost
                pos.append(a.pos if a.seg == tid else None)
            n.cost = c
            pos = None if None in pos else tuple(pos)
        if pos is None:  # an input not recorded here (computed, or from before the last computation)
            n.seg, n.pos = 0, -1
            self.record(n)
        else:
            ops = self.ops
            n.pos = len(ops)
            ops.append(("ufunc", attr, pos))
            n.seg = tid
        return n

    def ufunc_scalar(self, attr, dtype, x, v, t, reflected) -> Node:
        """`scalar(v, t)` then `ufunc(attr, dtype, x.shape, (x, s))` (`(s, x)` when `reflected`)
        in one call: an operator of a lazy array and a Python scalar, the commonest node; the
        same nodes and entries, in the same order."""
        s = _new(Node)
        s.kind = "scalar"
        s.args = s.shape = ()
        s.dtype = _PY_DTYPES[t]
        s.attr = None
        s.value = v
        s.weak = t
        s.cost = 0
        tid = self.id
        if x.seg != tid:  # x from before the last computation: recorded with n, as `record` orders them
            s.seg, s.pos = 0, -1
            n = Node("ufunc", (s, x) if reflected else (x, s), x.shape, dtype, attr)
            self.record(n)
            return n
        ops = self.ops
        k = s.pos = len(ops)
        ops.append(_S_ENTRY[t])
        s.seg = tid
        self.leaves.append(s)
        self.values.append(v)
        n = _new(Node)
        n.kind = "ufunc"
        n.args = (s, x) if reflected else (x, s)
        n.shape = x.shape
        n.dtype = dtype
        n.attr = attr
        n.value = n.weak = None
        if x.value is None:
            n.cost = 1 + x.cost
        else:
            n.cost = 1
        n.pos = len(ops)
        ops.append(("ufunc", attr, (k, x.pos) if reflected else (x.pos, k)))
        n.seg = tid
        return n

    def _leaf(self, n) -> int:
        ops = self.ops
        v = n.value
        if n.kind == "scalar":
            k = len(ops)
            w = n.weak
            ops.append(_S_ENTRY[w] if w in _S_ENTRY else ("s", w or n.dtype))  # (shared: `scalar`'s)
        else:
            known = self.by_value.get(id(v))
            if known is None:
                k = len(ops)
                self.by_value[id(v)] = n
                ops.append(("a", n.dtype, n.shape))
            else:
                n.seg = self.id
                n.pos = k = known.pos
                return k
        self.leaves.append(n)
        self.values.append(v)
        if n.args:
            if self.held is None:
                self.held = []
            self.held.append(n)
        n.seg = self.id
        n.pos = k
        return k

    def _op(self, n, pos) -> int:
        kind = n.kind
        if kind == "call":
            op = n.attr[3]
            if op is None:
                self.cacheable = False
        elif kind == "where":
            op = n.dtype
        else:
            op = n.attr
        k = n.pos = len(self.ops)
        self.ops.append((kind, op, pos))
        n.seg = self.id
        return k

    def _record_graph(self, root) -> int:
        """`record` of a node whose graph is partly unrecorded: a walk without recursion (an
        uncomputed graph may be deeper than Python's recursion limit)."""
        tid = self.id
        stack = [root]
        while stack:
            n = stack[-1]
            if n.seg == tid:
                stack.pop()
            elif n.kind == "scalar" or n.value is not None:
                self._leaf(n)
                stack.pop()
            else:
                todo = [a for a in n.args if a.seg != tid]
                if todo:
                    stack.extend(todo)
                else:
                    self._op(n, tuple([a.pos for a in n.args]))
                    stack.pop()
        return root.pos

    def positions(self, outputs):
        """The entry positions of `outputs` (nodes; recorded first where they are not), the key's
        second half, or None when the trace is not cacheable."""
        tid = self.id  # (`record`'s first test inline: outputs built here are recorded already)
        if len(outputs) == 1:  # (no comprehension frame in the common case)
            n = outputs[0]
            pos = (n.pos if n.seg == tid else self.record(n),)
        else:
            pos = tuple([n.pos if n.seg == tid else self.record(n) for n in outputs])
        return pos if self.cacheable else None

    def key(self, outputs):
        """The structure key of computing `outputs` (nodes), or None when not cacheable."""
        pos = self.positions(outputs)
        return None if pos is None else (tuple(self.ops), pos)

    def input_slot(self, n) -> int:
        """The program input index of a recorded input node (an array or a scalar). (The map
        from entry positions is made here, on a plan cache miss, rather than kept up to date per
        input as the graph is built.)"""
        slots = self.ordinal
        if slots is None:
            slots = self.ordinal = {m.pos: k for k, m in enumerate(self.leaves)}
        return slots[n.pos]


# `Trace.ufunc` and `Trace.ufunc_scalar` as functions of the trace: the C extension's where it is
# built (`_core/_native/nodes.c`: the same nodes and entries, written into the C fields; it hands
# what it does not handle back to the methods), else the methods themselves. The fast paths call
# these: one call from the operator to its recorded node.
if _native is not None:
    _native.configure(Node, _S_ENTRY, _PY_DTYPES, Trace.ufunc_scalar, Trace.ufunc)
    _native.configure_trace(Trace, _clock, _ids)
    record_ufunc, record_ufunc_scalar = _native.ufunc, _native.ufunc_scalar
else:
    record_ufunc, record_ufunc_scalar = Trace.ufunc, Trace.ufunc_scalar
