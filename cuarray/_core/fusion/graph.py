"""Expression graph nodes, with shapes and dtypes inferred when a node is built.

A `Node` is one operation of a lazy expression (or a traced `fuse` function): a concrete device
array ('array'), a scalar argument ('scalar'), an elementwise operation ('ufunc', 'cast',
'where'), a reduction ('reduce') or an operation run by its eager routine when the graph is
evaluated ('call': matmul, dot, views of computed values...). Every node knows its `shape` and
`dtype` as soon as it exists, computed by the eager rules: a ufunc node resolves its loop
through the ufunc's own memoised resolution (NumPy's, NEP 50 weak scalars included), a
reduction asks the same table as `reduction_ops`, so a lazy result has the dtype eager mode
would give, and building a node raises what the eager call would raise (broadcast errors,
missing loops, AxisError).
"""

from __future__ import annotations

import math

import numpy

from .. import dtypes as _dtypes
from .. import reduction_ops as _rops
from .. import shapes as _shapes
from ..nodecore import LAYOUTS as _LAYOUTS
from ..nodecore import leaf_class as _leaf_class
from ..nodecore import native  # (the optional C node core, `_core/nodecore.py`)
from ..ndarray import ndarray
from ..dtypes import PY_SCALARS as _PY_SCALARS

__all__ = ["Node", "array_node", "scalar_node", "ufunc_node", "cast_node", "where_node", "reduce_node",
           "call_node", "view_node", "ELEMENTWISE", "REDUCE_OPS", "native", "implementation"]

ELEMENTWISE = frozenset(("ufunc", "cast", "where"))
# Reductions a graph fuses (the reduction engine's table rows): name -> the NumPy function
REDUCE_OPS = ("sum", "prod", "max", "min", "any", "all")
_BOOL = numpy.dtype(bool)




class _NodeFields:
    """A node's fields as Python slots: `_nodecore.NodeFields`'s fallback (one layout: `LAYOUTS`)."""

    __slots__ = _LAYOUTS["NodeFields"]


def implementation() -> str:
    """Where a node's fields live and the trace's commonest records are made: "native" (`_nodecore`)
    or "python"."""
    return "python" if native is None else "native"


class _NodeMethods:
    """One operation. `args`: input nodes; `attr`: what the kind needs (see the builders);
    `value`: the computed device array once evaluated (an 'array' node holds it from the
    start; a NumPy array for a leaf of `lazy(evaluate="numpy")`). `weak`: for a Python scalar,
    its type (NEP 50: the scalar takes the array's dtype)."""

    __slots__ = ()  # (`Node`'s methods: its fields are the base's, C members by offset or Python slots)

    def __init__(self, kind, args, shape, dtype, attr=None, value=None, weak=None):
        self.kind = kind
        self.args = args = tuple(args)
        # Elementwise nodes not yet computed below this one (shared ones counted per use): lazy
        # mode computes a chain that grows past a bound instead of making one huge kernel.
        if kind in ELEMENTWISE:
            c = 1
            for a in args:
                if a.value is None:
                    c += a.cost
            self.cost = c
        else:
            self.cost = 0
        self.shape = shape
        self.dtype = dtype
        self.attr = attr
        self.value = value
        self.weak = weak
        self.seg = 0  # the `trace.Trace` that recorded it (its id) and its entry there
        self.pos = -1

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def elementwise(self) -> bool:
        return self.kind in ELEMENTWISE

    def label(self) -> str:
        """A one-line description for `explain()`."""
        k = self.kind
        if k == "array":
            return "array {} {}".format(self.dtype.name, self.shape)
        if k == "scalar":
            return "scalar {!r} ({})".format(self.value, self.weak.__name__ if self.weak else self.dtype.name)
        if k == "ufunc":
            return "{} -> {} {}".format(self.attr[0].__name__, self.dtype.name, self.shape)
        if k == "cast":
            return "astype({}) {}".format(self.dtype.name, self.shape)
        if k == "reduce":
            return "{}(axis={}) -> {} {}".format(self.attr[0], self.attr[1], self.dtype.name, self.shape)
        if k == "call":
            return "{} -> {} {}".format(self.attr[0], self.dtype.name, self.shape)
        return "{} -> {} {}".format(k, self.dtype.name, self.shape)

    def __repr__(self) -> str:
        return "<Node {}>".format(self.label())


Node = _leaf_class("node", "Node", _NodeMethods, _NodeFields)  # (C over `NodeFields` where built)


def array_node(a) -> Node:
    """The input node of a concrete array: a device array, or a NumPy array (a leaf of
    `lazy(evaluate="numpy")`, which never reaches a device)."""
    if type(a) is numpy.ndarray:
        return Node("array", (), a.shape, _dtypes.normalize_dtype(a.dtype), None, a)
    return Node("array", (), a._shape, a._dtype, None, a)


_PY_DTYPES = {t: _dtypes.normalize_dtype(numpy.asarray(t(0)).dtype) for t in _PY_SCALARS}


def scalar_node(v) -> Node:
    t = type(v)
    d = _PY_DTYPES.get(t)
    if d is not None:
        return Node("scalar", (), (), d, None, v, t)
    return Node("scalar", (), (), _dtypes.normalize_dtype(v.dtype), None, v)


def _in_type(n: Node):
    """What a ufunc's loop resolution sees for this input: a dtype, or a weak scalar's type."""
    return n.weak if n.weak is not None else n.dtype


def _broadcast(nodes) -> tuple:
    if len(nodes) == 1:
        return nodes[0].shape
    shapes = [n.shape for n in nodes if n.kind != "scalar"]
    if not shapes:
        return ()
    s0 = shapes[0]
    for s in shapes:
        if s != s0:
            return _shapes.broadcast_shapes(*shapes)
    return s0


_loops: dict = {}  # (ufunc, input types) -> its loop, memoised (nodes are built per operation)


def ufunc_node(uf, args) -> Node:
    """`uf(*args)` of single-output ufuncs; the loop is the one eager mode resolves."""
    if len(args) == 2:  # (the common case, spelled out: this runs once per operator)
        a, b = args
        loop = _loops.get((uf, (a.weak or a.dtype, b.weak or b.dtype)))
        if loop is not None:
            if a.kind == "scalar":
                shape = b.shape
            elif b.kind == "scalar" or a.shape == b.shape:
                shape = a.shape
            else:
                shape = _shapes.broadcast_shapes(a.shape, b.shape)
            return Node("ufunc", args, shape, loop.out_dtypes[0], (uf, loop))
    in_types = tuple([a.weak or a.dtype for a in args])
    loop = _loops.get((uf, in_types))
    if loop is not None:
        return Node("ufunc", args, _broadcast(args), loop.out_dtypes[0], (uf, loop))
    if loop is None:
        if uf.nout != 1:
            raise NotImplementedError("multi-output ufuncs are not fused")
        if len(args) != uf.nin:
            raise TypeError("{}() takes {} positional arguments but {} were given".format(
                uf.__name__, uf.nin, len(args)))
        loop = uf._resolve(in_types, None, "same_kind")
        uf._op_for(loop)  # a loop without a GPU expression raises now, as eagerly
        _loops[(uf, in_types)] = loop
    return Node("ufunc", args, _broadcast(args), loop.out_dtypes[0], attr=(uf, loop))


def cast_node(x: Node, dtype) -> Node:
    dt = _dtypes.normalize_dtype(dtype)
    return Node("cast", (x,), x.shape, dt, attr=dt)


def where_node(c: Node, x: Node, y: Node) -> Node:
    # A weak operand (a Python scalar) takes part through a value of its type, as NEP 50 wants.
    res = numpy.result_type(x.weak(0) if x.weak else x.dtype, y.weak(0) if y.weak else y.dtype)
    res = _dtypes.normalize_dtype(res)
    return Node("where", (c, x, y), _broadcast((c, x, y)), res)


def reduce_node(op_name: str, x: Node, axis=None, keepdims=False, dtype=None) -> Node:
    """A reduction of the engine's table (`reduction_ops.OPS`) with NumPy's result dtype."""
    op = _rops.OPS[op_name]
    raxes = _rops.normalize_axes(axis, x.ndim)
    dt = None if dtype is None else _dtypes.normalize_dtype(dtype)
    res = _rops.result_dtype(op.np_fn, x.dtype, dt)
    n_red = math.prod(x.shape[i] for i in raxes)
    n_out = math.prod(d for i, d in enumerate(x.shape) if i not in raxes)
    if n_red == 0 and n_out > 0 and not op.has_identity:
        raise ValueError("zero-size array to reduction operation {} which has no identity".format(op.np_name))
    shape = _rops.reduced_shape(x.shape, raxes, keepdims)
    return Node("reduce", (x,), shape, res, attr=(op_name, raxes, keepdims, dt))


def call_node(name: str, args, shape, dtype, run, run_numpy, sig=None) -> Node:
    """An operation evaluated by an eager routine: `run(*device arrays)` on the GPU,
    `run_numpy(*host arrays)` for `numpy()`. `sig`: a hashable description of what `run` does
    (graphs with one structure share a Program); None: not cached."""
    return Node("call", args, tuple(shape), _dtypes.normalize_dtype(dtype), attr=(name, run, run_numpy, sig))


def view_node(name: str, x: Node, fn, sig=None) -> Node:
    """A view (`fn(array)` is a view of its argument: basic indexing, transpose, reshape).
    Of a concrete array it is taken at once; of a computed node, after computing it."""
    if x.kind == "array":
        return array_node(fn(x.value))
    dummy = numpy.broadcast_to(numpy.empty((), x.dtype), x.shape)  # no memory: shape arithmetic only
    shape = fn(dummy).shape
    return call_node(name, (x,), shape, x.dtype, fn, fn, sig)


def matmul_shape(a: tuple, b: tuple, fn: str) -> tuple:
    """The result shape of `matmul` / `dot` (NumPy's rules and messages)."""
    if fn == "dot":
        if not a or not b:
            return _shapes.broadcast_shapes(a, b) if (a and b) else (a or b)
        k_b = b[-2] if len(b) > 1 else b[0]
        if a[-1] != k_b:
            raise ValueError("shapes {} and {} not aligned: {} (dim {}) != {} (dim {})".format(
                a, b, a[-1], len(a) - 1, k_b, max(len(b) - 2, 0)))
        return a[:-1] + b[:-2] + b[-1:] if len(b) > 1 else a[:-1]
    if not a or not b:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    a2 = a if len(a) > 1 else (1,) + a
    b2 = b if len(b) > 1 else b + (1,)
    if a2[-1] != b2[-2]:
        raise ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                         "signature (n?,k),(k,m?)->(n?,m?) (size {} is different from {})".format(b2[-2], a2[-1]))
    batch = _shapes.broadcast_shapes(a2[:-2], b2[:-2])
    out = batch + (a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def tensordot_axes(a: tuple, b: tuple, axes) -> tuple:
    """NumPy's `tensordot` axes, normalised to (axes of a, axes of b), and the result shape;
    ValueError("shape-mismatch for sum") as NumPy."""
    if isinstance(axes, int):
        axes_a, axes_b = tuple(range(len(a) - axes, len(a))), tuple(range(axes))
    else:
        axes_a, axes_b = axes
        axes_a = (axes_a,) if isinstance(axes_a, int) else tuple(axes_a)
        axes_b = (axes_b,) if isinstance(axes_b, int) else tuple(axes_b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = tuple(x + len(a) if x < 0 else x for x in axes_a)
    axes_b = tuple(x + len(b) if x < 0 else x for x in axes_b)
    for i, j in zip(axes_a, axes_b):
        if not (0 <= i < len(a) and 0 <= j < len(b)) or a[i] != b[j]:
            raise ValueError("shape-mismatch for sum")
    shape = tuple(d for i, d in enumerate(a) if i not in axes_a) + tuple(d for j, d in enumerate(b) if j not in axes_b)
    return (axes_a, axes_b), shape


def walk(outputs) -> list:
    """Nodes reachable from `outputs`, inputs before their users (topological order)."""
    order, seen = [], set()
    stack = [(n, False) for n in reversed(outputs)]
    while stack:
        n, done = stack.pop()
        if done:
            order.append(n)
            continue
        if id(n) in seen:
            continue
        seen.add(id(n))
        stack.append((n, True))
        if n.value is None:
            for a in reversed(n.args):
                if id(a) not in seen:
                    stack.append((a, False))
    return order
