"""Lazy mode: `with cuarray.lazy():` and `@cuarray.lazy`.

Inside, the operations a user writes (ufuncs and operators, `where`, `clip`, `astype`,
reductions, `dot`/`matmul`/`tensordot`, basic-index views) build graph nodes (`graph.py`) instead
of launching, and return `LazyArray`s whose shape and dtype are known at once. Values are
computed (`planner.plan`, then the Program's few launches) when something needs them: `.get()`,
`item`, `float`/`int`/`bool`/`len`, `repr`, indexing with it, passing it to a routine that does
not build nodes (every routine's `host_input.as_array` computes it), and leaving the context
(every lazy array made inside that is still alive is computed then, in one Program, so common
subexpressions are shared).

How operations reach it: the thread's lazy state is its tracer (`_core/tracing.py`), installed
for that thread while it is in lazy mode; every traceable operation asks it at its top
(`_State.ufunc`, `_State.call`). Nothing else changes: other threads read their own empty slot
and run eagerly.

What is recorded: a call with a lazy operand, always; a call on concrete arrays (and scalars)
only, unless the thread is inside a routine that does not trace. Such a routine takes its arrays
through the host-input policy (`host_input.as_array`, which tells the tracer,
`routine_input`); the operations it then makes on concrete arrays run eagerly, so it never sees
a lazy array it did not expect, until the next operation on a lazy array (the user's code again).
An operation the tracer does not record (an `out=`, an unsupported argument) runs eagerly with
tracing suspended, so its own internal calls are eager too.

`lazy(evaluate="numpy")`: the same graphs with NumPy arrays as leaves (`host`), never computed on
a device: their values are NumPy's evaluation of the graph (`numpy_eval.py`).
"""

from __future__ import annotations

import functools
import operator as _operator
import threading
import weakref

import numpy

from .. import host_input as _host_input
from .. import reduction_ops as _rops
from .. import registry as _registry
from .. import shapes as _shapes
from .. import tracing as _tracing
from ..ndarray import ndarray
from ..nodecore import LAYOUTS as _LAYOUTS
from ..power_shortcuts import shortcut as _shortcut
from ..transfer import from_host as _from_host
from . import fast_paths as _fast
from . import graph as _g
from . import numpy_eval as _numpy_eval
from . import evaluation as _evaluation
from . import graph_replay as _graph_replay
from . import lazy_block as _lazy_block
from . import products as _products
from . import replay as _replay
from .lazy_array import MAX_CHAIN, LazyArray
from .plans import Plans as _Plans
from .planner import plan
from ..dtypes import PY_SCALARS as _PY_SCALARS

__all__ = ["LazyArray", "lazy", "is_lazy_mode", "MAX_CHAIN"]

_UFUNC_DEFAULTS = {"out": None, "where": True, "casting": "same_kind", "order": "K", "dtype": None, "subok": True}
_tstate = _tracing.state


def _is_default(key, value, table=_UFUNC_DEFAULTS) -> bool:
    """Whether a keyword is its default (`==` on plain Python values only: an array's is elementwise)."""
    return table.get(key, 0) is value or (type(value) in (str, bool, int, float) and table.get(key, 0) == value)


class _Unsupported(Exception):
    """A call lazy mode does not build a node for: it runs eagerly."""


class _StateFields:
    """The fields every operator and block reads as Python slots: `_nodecore.StateFields`'s fallback
    (one layout, `nodecore.LAYOUTS`, which the C operators read by offset, not by a look-up by name)."""

    __slots__ = _LAYOUTS["StateFields"]


class _State(_StateFields if _g.native is None else _g.native.StateFields):
    """A thread's lazy mode (`_threads.st`, a plain object: a fifth of a thread-local's reads); its tracer."""

    def __init__(self):
        self.depth = 0  # the `lazy()` blocks this thread is inside
        self.host = False  # `lazy(evaluate="numpy")`: NumPy arrays are leaves; nothing reaches a device
        self.live = None  # the lazy arrays made: a `_Live` (None while `fuse` traces)
        self.trace = None  # the `Trace` recording the graph since the last computation
        # Inside a routine that does not trace (see the module docstring): (trace, its length) when
        # the routine took its inputs; the user's code is back once anything was recorded since.
        self.internal = None
        self.plans = _Plans()  # the Programs this thread ran, the next one predicted (`plans.Plans`)

    def _inside_routine(self) -> bool:
        i = self.internal
        return i is not None and i[0] is self.trace and i[1] == len(i[0].ops)

    ufunc = _fast.ufunc_dispatch  # (the ufunc call's dispatch point: the memoised fast path, else the method below)

    def general_ufunc(self, uf, args, kwargs):
        """`uf(*args, **kwargs)`: a node, or the eager call (`ufunc`'s general path)."""
        nin = uf.nin
        if len(args) == nin and uf.nout == 1 and (not kwargs or all(_is_default(k, v) for k, v in kwargs.items())) and (
                any(type(a) is LazyArray for a in args) or not self._inside_routine()):  # (asked before a node is made)
            nodes, arrays = [], False
            for a in args:
                t = type(a)
                if t is LazyArray:
                    nodes.append(a._node)
                    arrays = True
                elif t is ndarray or isinstance(a, ndarray):
                    nodes.append(_array_node(a))
                    arrays = True
                elif t in _PY_SCALARS or isinstance(a, _PY_SCALARS) or isinstance(a, numpy.generic):
                    nodes.append(_g.scalar_node(a))
                elif t is numpy.ndarray and self.host:
                    nodes.append(_g.array_node(a))
                    arrays = True
                else:
                    break
            else:
                if arrays or self.host:  # (evaluated by NumPy, even a call on scalars only is a node)
                    out = _wrap(_g.ufunc_node(uf, nodes))
                    if not kwargs and nin <= 2:
                        _fast.remember_ufunc(uf, args, out, self)
                    return out
        if kwargs.get("out") is not None or len(args) > nin:  # (positional `out`)
            _evaluation.flush(self)  # an in-place write: pending graphs read the old values
        with _tracing.suspended():
            return uf(*[_value(a) for a in args], **kwargs)

    call = _fast.call_dispatch  # (a routine's dispatch point: the memoised products, else the method below)

    def general_call(self, name, fn, args, kwargs):
        """`fn(*args, **kwargs)`, the traceable routine `name` (`_BUILDERS`): a node, or the
        eager call with tracing suspended."""
        lazy_in = False
        for a in args:
            if type(a) is LazyArray:
                lazy_in = True
        build = _BUILDERS.get(name)  # (None: a routine sharing a dispatch point, `nansum`)
        if build is not None and (lazy_in or not self._inside_routine()):
            try:
                out = build(*args, **kwargs)
            except _Unsupported:
                pass
            else:
                if name in _fast.PRODUCTS:
                    _fast.remember_product(name, args, out, self)
                return out
        if kwargs.get("out") is not None:
            _evaluation.flush(self)
        with _tracing.suspended():
            return fn(*[_value(a) for a in args], **{k: _value(v) for k, v in kwargs.items()})

    def before_write(self, a) -> None:
        _evaluation.flush(self)

    def routine_input(self) -> None:
        tr = self.trace
        self.internal = (tr, len(tr.ops)) if tr is not None else None

    def compute(self, nodes) -> None:
        _evaluation.compute(self, nodes)


if _g.native is not None:  # (the ufunc call's C dispatch point asks this state's `ufunc` without a look-up)
    _g.native.configure_lazy_ufunc(_State, _State.ufunc)


class _Threads(threading.local):
    def __init__(self):  # (run in each thread at its first use)
        self.st = _State()


_threads = _Threads()
# `_threads.st` for a block's entry and exit: kept in the thread's state dict where the node core is
# built (`_native/threadlocal.c`: a C call and a dict look-up, ~250 instructions less than the
# thread-local's read on CPython 3.11)
_thread_state = _operator.attrgetter("st") if _g.native is None else _g.native.thread_state


def is_lazy_mode() -> bool:
    """Whether this thread is inside `cuarray.lazy` (or a `fuse` trace)."""
    return _threads.st.depth > 0


def _recording() -> bool:
    return _tstate.tracer is _threads.st


def _array_node(a) -> _g.Node:
    """A concrete array's node: while recording, one per distinct array (two uses are one input)."""
    st = _threads.st
    if st.live is not None:
        return st.trace.array(a)
    return _g.array_node(a)


def _operand(x):
    """The node of an operand, None for anything lazy mode does not take."""
    t = type(x)
    if t is LazyArray:
        return x._node
    if t is ndarray:
        st = _threads.st
        return st.trace.array(x) if st.live is not None else _g.array_node(x)
    if t is float or t is int:
        return _g.scalar_node(x)
    if isinstance(x, ndarray):
        return _array_node(x)
    if isinstance(x, _PY_SCALARS) or isinstance(x, numpy.generic):
        return _g.scalar_node(x)
    if t is numpy.ndarray and _threads.st.host:
        return _g.array_node(x)
    return None


def as_node(x) -> _g.Node:
    n = _operand(x)
    if n is None:
        raise _host_input.reject(x, "lazy")
    return n


def _value(x):
    return x._materialize() if type(x) is LazyArray else x


def _wrap(node) -> LazyArray:
    out = _new(LazyArray)  # (no __init__ frame: this runs once per operation)
    out._node = node
    st = _threads.st
    live = st.live
    if live is not None:  # (None while `fuse` traces: nothing may be computed then)
        if live.__class__ is list:  # (`fast_paths._emit`'s live-set step, inline)
            live.append(_ref(out))
            if len(live) > 4096:
                live[:] = [r for r in live if r() is not None]
        else:
            live.add(out)
        tr = st.trace
        kind = node.kind
        if kind == "ufunc":  # `Trace.record`'s common case inline: every input recorded here
            tid = tr.id
            pos = []
            for a in node.args:
                if a.seg != tid:
                    tr.record(node)
                    break
                pos.append(a.pos)
            else:
                ops = tr.ops
                node.pos = len(ops)
                ops.append(("ufunc", node.attr, tuple(pos)))
                node.seg = tid
        else:
            tr.record(node)
        if node.cost > MAX_CHAIN:
            _evaluation.compute(st, [node])
    elif st.host:
        node.seg = -1  # (no trace has id -1) a graph of NumPy leaves: `_materialize` evaluates it by NumPy
    return out


_new = object.__new__
_ref = weakref.ref
# A thread's live set (`fast_paths._emit`): linked in C where the node core is built, else weak references.
_Live = list if _g.native is None else _g.native.Live


# -- LazyArray's computing methods and views (bound onto the type below, as the operators are) ---------
class _Methods:
    def _materialize(self, handed=True):  # (handed: to user code, which may write it; False: a read)
        n = self._node
        if n.seg == -1 and type(n.value) is not ndarray:  # built by `lazy(evaluate="numpy")`
            return self.numpy()
        if n.value is None:
            _evaluation.compute(_threads.st, [n])
        v = n.value
        if handed and _graph_replay.carried_outputs:  # (a replayed graph's carried output, written?)
            _graph_replay.handed_out(v)
        return v if isinstance(v, ndarray) else _from_host(v)

    def __cuarray_materialize__(self):
        # The host-input policy's question (`host_input.lazy_value`): the device value. A graph of
        # NumPy leaves has none: no upload is ever implicit.
        if self._node.seg == -1:
            raise TypeError("cuarray: a lazy array of NumPy data (`lazy(evaluate='numpy')`) can only take part in "
                            "the operations lazy mode records (see docs/fusion.md); this routine needs device "
                            "arrays: call cuarray.asarray() on its NumPy value (`.numpy()`) first")
        return self._materialize()

    def get(self, *args, **kwargs):
        v = self._materialize(False)
        return v if type(v) is numpy.ndarray else v.get(*args, **kwargs)

    def item(self, *args):
        return self._materialize(False).item(*args)

    def __float__(self):
        return float(self._materialize(False))

    def __int__(self):
        return int(self._materialize(False))

    def __complex__(self):
        return complex(self._materialize(False))

    def __index__(self):
        return self._materialize(False).__index__()

    def __bool__(self):
        return bool(self._materialize(False))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        return iter(self._materialize())

    def __repr__(self):
        return repr(self._materialize(False))

    def __str__(self):
        return str(self._materialize(False))

    def __array__(self, *args, **kwargs):
        return self._materialize(False).__array__(*args, **kwargs)

    @property
    def __cuda_array_interface__(self):
        return self._materialize().__cuda_array_interface__

    @property
    def data(self):
        return self._materialize().data

    def numpy(self) -> numpy.ndarray:
        """The same graph evaluated by NumPy on host copies of its inputs (for testing)."""
        return _numpy_eval.evaluate(self._node)

    def explain(self, compile=False) -> str:
        """The graph, the planned kernels and their CUDA source (NumPy leaves: as for device arrays), this
        thread's last evaluations (`replay.py`); `compile=True` also compiles each with NVRTC for sm_90."""
        lines = ["graph:"]
        for k, n in enumerate(_g.walk([self._node])):
            lines.append("  {}{}".format(n.label(), "  (computed)" if n.value is not None and n.kind != "array" else ""))
        return "\n".join(lines) + "\nplan:\n" + plan([self._node]).explain(compile) + "\n" + _replay.describe()

    # -- operations: nodes in lazy mode, eager calls outside -------------------------------
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if _recording():
            return _astype(self, dtype, copy=copy)
        return self._materialize().astype(dtype, order=order, casting=casting, copy=copy)

    def __getitem__(self, key):
        if _recording() and type(key) is not LazyArray:
            try:
                _shapes.basic_index(self.shape, _shapes.c_strides(self.shape, self.itemsize), key)
            except _shapes.AdvancedIndexRequired:
                pass
            else:
                return _wrap(_g.view_node("getitem", self._node, lambda a: a[key], ("getitem", repr(key))))
        return self._materialize()[_value(key) if type(key) is LazyArray else key]

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        axes = tuple(axes) if axes else None
        if _recording():
            return _wrap(_g.view_node("transpose", self._node, lambda a: a.transpose(axes), ("transpose", axes)))
        return self._materialize().transpose(axes)

    T = property(lambda self: self.transpose())

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if _recording() and order == "C":
            return _wrap(_g.view_node("reshape", self._node, lambda a: a.reshape(shape), ("reshape", shape)))
        return self._materialize().reshape(shape, order=order)

    def ravel(self):
        return self.reshape(-1)


for _k, _v in list(vars(_Methods).items()):
    if _k not in ("__dict__", "__weakref__", "__module__", "__doc__", "__qualname__"):
        setattr(LazyArray, _k, _v)


# -- operators ----------------------------------------------------------------------------------
# In recording lazy mode the common operator is built by `fast_paths` (memoised from what the
# general path below resolved for the same operand types); the rest takes the general path.
def _binary(name, reflected=False):
    uf = []  # the ufunc, looked up on first use (the registry fills after this module loads)
    memo = _fast.operator_memo(name, reflected)

    def op(self, other):  # (the general path: `binary_operator` tries the memo first)
        st = _threads.st
        t = type(other)
        if t is LazyArray:
            node = other._node
        elif t is ndarray or (t not in _PY_SCALARS and isinstance(other, ndarray)):
            node = None  # (its input node is made below, in lazy mode only)
        elif t in _PY_SCALARS or isinstance(other, _PY_SCALARS) or isinstance(other, numpy.generic):
            node = _g.scalar_node(other)
        elif t is numpy.ndarray and st.host:
            node = _g.array_node(other)
        else:
            return NotImplemented
        if not uf:  # (matmul is bound on first use: the namespace's attribute)
            uf.append(_registry.ufuncs.get(name) or getattr(_registry.namespace(), name))
        if _tstate.tracer is not st:  # not recording: the eager ufunc on the values
            args = (other, self) if reflected else (self, other)
            return uf[0](*[_value(a) for a in args])
        if name == "matmul":  # (`a @ b`: the traced `matmul(a, b)`, memoised products included)
            return st.call("matmul", uf[0], (other, self) if reflected else (self, other), _fast.MATMUL_KEYWORDS)
        if node is None:
            node = st.trace.array(other) if st.live is not None else _g.array_node(other)
        mine = self._node
        out = _wrap(_g.ufunc_node(uf[0], (node, mine) if reflected else (mine, node)))
        if mine.weak is not None and (node.weak is not None and (t is LazyArray or t in _PY_SCALARS)):
            _make_weak(out)
        elif st.live is not None and mine.weak is None and (t in _fast.FAST_SCALARS or node.weak is None):
            n = out._node  # (resolved without an error: the fast path may build it from now on)
            memo[(mine.dtype, t if t in _fast.FAST_SCALARS else node.dtype)] = (n.attr, n.dtype)
        return out

    return _fast.binary_operator(memo, reflected, _threads, op)


def _unary(name):
    uf = []

    def op(self):
        st = _threads.st
        if st.live is not None and uf:  # recording lazy mode: the memoised fast path
            out = _fast.fast_unary(uf[0], self._node, st)
            if out is not None:
                return out
        if not uf:
            uf.append(_registry.ufuncs[name])
        if _tstate.tracer is not st:
            return uf[0](self._materialize())
        out = _wrap(_g.ufunc_node(uf[0], (self._node,)))
        if self._node.weak is not None:
            _make_weak(out)
        else:
            _fast.remember_ufunc(uf[0], (self,), out, st)
        return out

    return _fast.unary_operator(uf, _threads, op)


_WEAK = {"b": bool, "i": int, "u": int, "f": float, "c": complex}


def _make_weak(out):
    """An operator on Python scalars only (a `fuse` scalar argument) is Python arithmetic: its
    result stays a weak scalar, as `1.5 + 1.5` is (NEP 50). (Callers check that every operand
    is a weak lazy scalar or a Python scalar.)"""
    out._node.weak = _WEAK[out._node.dtype.kind]


_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floor_divide",
           "mod": "remainder", "pow": "power", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
           "lshift": "left_shift", "rshift": "right_shift", "matmul": "matmul"}
for _k, _v in _BINARY.items():
    _op, _rop = _binary(_v), _binary(_v, True)
    # Where the node core is built, the C base's number slot runs the two (`_native/live.c`: no
    # method look-up or argument tuple per operation); else (and for `pow`) they are the methods.
    if _g.native is None or not _g.native.bind_binary(_k, _op, _rop):
        setattr(LazyArray, "__{}__".format(_k), _op)
        setattr(LazyArray, "__r{}__".format(_k), _rop)


def _power_operator(general):
    """`a ** s` as the eager operator: NumPy's shortcuts (`power_shortcuts`), so lazy and eager give
    one dtype and one value (a bool ** 2 is int8), `power` otherwise. A `fuse` scalar (a weak
    node) keeps Python's arithmetic."""
    by_name = {name: _unary(name) for name in ("square", "reciprocal", "sqrt")}

    def __pow__(self, other):
        name = None if self._node.weak is not None else _shortcut(self._node.dtype.kind, other)
        return general(self, other) if name is None else by_name[name](self)

    return __pow__


LazyArray.__pow__ = _power_operator(LazyArray.__pow__)
_COMPARE = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal", "eq": "equal",
            "ne": "not_equal"}
for _k, _v in _COMPARE.items():
    setattr(LazyArray, "__{}__".format(_k), _binary(_v))
for _k, _v in {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}.items():
    setattr(LazyArray, "__{}__".format(_k), _unary(_v))
LazyArray.__hash__ = None


def _method(name):
    reduction = name in _fast.REDUCTIONS

    def method(self, *args, **kwargs):
        st = _threads.st
        if reduction and not args and not kwargs and st.live is not None and _tstate.tracer is st:
            out = _fast.fast_reduce(name, self._node, st)
            if out is not None:
                return out
            out = getattr(_registry.namespace(), name)(self)
            _fast.remember_reduce(name, self._node, out)
            return out
        # The namespace function: its dispatch point hands it to this thread's tracer.
        return getattr(_registry.namespace(), name)(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = "See `numpy.ndarray.{}`.".format(name)
    return method


for _k in ("sum", "prod", "mean", "max", "min", "any", "all", "dot", "clip"):
    setattr(LazyArray, _k, _fast.reduce_method(_k, _tstate, _threads, _method(_k)) if _k in _fast.REDUCTIONS
            else _method(_k))


# -- node builders used by operators, methods and the tracer ------------------------------------------
def _ufunc(uf, args):
    return _wrap(_g.ufunc_node(uf, [as_node(a) for a in args]))


def _astype(x, dtype, copy=True):
    n = as_node(x)
    dt = numpy.dtype(dtype)
    if dt == n.dtype and not copy:
        return x
    return _wrap(_g.cast_node(n, dt))


def _product(name):
    def build(a, b):
        return _wrap(_products.product_node(name, as_node(a), as_node(b)))

    return build


def _tensordot(a, b, axes=2):
    return _wrap(_products.tensordot_node(as_node(a), as_node(b), axes))


_dot, _matmul = _product("dot"), _product("matmul")


def _reduce(op_name):
    def build(a, axis=None, dtype=None, keepdims=False):
        return _wrap(_g.reduce_node(op_name, as_node(a), axis, keepdims, dtype))

    return build


def _mean(a, axis=None, dtype=None, keepdims=False):
    n = as_node(a)
    res = _rops.result_dtype(numpy.mean, n.dtype, None if dtype is None else numpy.dtype(dtype))
    acc = numpy.dtype(numpy.float32) if res.char == "e" else res
    s = _g.reduce_node("sum", n, axis, keepdims, acc)
    count = n.size // max(s.size, 1) if n.size else 0
    q = _g.ufunc_node(_registry.ufuncs["divide"], [s, _g.scalar_node(float(count))])
    if q.dtype != res:
        q = _g.cast_node(q, res)
    return _wrap(q)


def _where(c, x, y):
    return _wrap(_g.where_node(as_node(c), as_node(x), as_node(y)))


def _clip(a, lo, hi):
    if lo is None:
        return _ufunc(_registry.ufuncs["minimum"], (a, hi))
    if hi is None:
        return _ufunc(_registry.ufuncs["maximum"], (a, lo))
    return _ufunc(_registry.ufuncs["clip"], (a, lo, hi))


# -- the context ------------------------------------------------------------------------------------
class lazy(_lazy_block.base(_threads, _thread_state, _Live)):
    """Lazy evaluation: `with cuarray.lazy():` or `@cuarray.lazy` on a function. Inside,
    operations build an expression graph and return `LazyArray` objects with their shape and dtype;
    values are computed, in as few fused kernels as the graph allows, when needed or when the
    context ends. A decorated function returns computed ndarrays.

    `evaluate="numpy"`: the same graphs with NumPy arrays as leaves, on any machine (no GPU
    needed): `leaf(x)` makes a NumPy array a graph input, values are computed by NumPy
    (`.numpy()`, or whatever needs one), `explain(compile=True)` shows and compiles the CUDA a
    device would run. A decorated function called with NumPy arrays (and no device array)
    runs this way and returns NumPy arrays. Without it, NumPy inputs raise TypeError (the
    host-input policy: no upload is implicit).

    Examples
    --------
    Without a GPU, on NumPy data: the graph, its shapes at once, and NumPy's values.

    >>> import numpy as np
    >>> import cuarray
    >>> x = np.linspace(0.0, 1.0, 4)
    >>> with cuarray.lazy(evaluate="numpy") as lz:
    ...     a = lz.leaf(x)
    ...     y = cuarray.exp(-a) * 2 + 1
    ...     print(y.shape, y.dtype)                 # known before anything is computed
    (4,) float64
    >>> np.allclose(y.numpy(), np.exp(-x) * 2 + 1)
    True

    On device arrays, ``with cuarray.lazy():`` evaluates the same graph as fused kernels.
    """

    # `with cuarray.lazy():`, the common case, is the base's defaults: it sets nothing (the base
    # calls `_setup` only for arguments). Entry and exit: `lazy_block` (C where it is built).

    def _setup(self, fn=None, *, evaluate=None, _track=True):
        if evaluate not in (None, "device", "numpy"):
            raise ValueError("lazy: evaluate must be 'device' or 'numpy', not {!r}".format(evaluate))
        if fn is not None and not callable(fn):
            raise TypeError("lazy: {!r} is not callable (use `with cuarray.lazy():` or `@cuarray.lazy`)".format(fn))
        self._fn = fn
        self._host = evaluate == "numpy"
        self._evaluate = evaluate
        self._track = bool(_track) and not self._host  # (a NumPy graph is never computed on a device)
        if fn is not None:
            functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        if self._fn is None:  # `@cuarray.lazy(evaluate=...)`
            return lazy(args[0], evaluate=self._evaluate)
        if self._host or (self._evaluate is None and _numpy_call(args, kwargs)):
            with lazy(evaluate="numpy") as lz:
                out = self._fn(*[lz.leaf(a) if type(a) is numpy.ndarray else a for a in args],
                               **{k: lz.leaf(v) if type(v) is numpy.ndarray else v for k, v in kwargs.items()})
            return _unwrap(out)
        with lazy():
            out = self._fn(*args, **kwargs)
        return _unwrap(out)

    @staticmethod
    def leaf(*arrays):
        """Graph inputs of these arrays (NumPy arrays inside `lazy(evaluate="numpy")`, device
        arrays in lazy mode): `x = lz.leaf(x)`, so NumPy's own operators on `x` build nodes too."""
        if not _threads.st.depth:
            raise RuntimeError("lazy.leaf: only inside `with cuarray.lazy(...)`")
        out = []
        for a in arrays:
            if type(a) is LazyArray:
                out.append(a)
            elif _array(a):
                out.append(_wrap(_g.array_node(a)))
            else:  # (a NumPy array in device lazy mode: the host-input policy's TypeError)
                raise _host_input.reject(a, "lazy.leaf")
        return out[0] if len(out) == 1 else tuple(out)


def _numpy_call(args, kwargs) -> bool:
    """Whether a decorated function's call takes NumPy arrays and no device or lazy array."""
    vals = args + tuple(kwargs.values())
    return any(type(v) is numpy.ndarray for v in vals) and not any(
        type(v) is LazyArray or isinstance(v, ndarray) for v in vals)


def _unwrap(out):
    if type(out) is LazyArray:
        return out._materialize()
    if type(out) in (tuple, list):
        return type(out)(_unwrap(o) for o in out)
    if type(out) is dict:
        return {k: _unwrap(v) for k, v in out.items()}
    return out


# -- what the tracer builds for each traceable routine (`_State.call`) ------------------------------
def _array(x) -> bool:
    return type(x) is LazyArray or isinstance(x, ndarray) or (type(x) is numpy.ndarray and _threads.st.host)


def _plain(x) -> bool:
    return _array(x) or isinstance(x, _PY_SCALARS) or isinstance(x, numpy.generic)


def _lead(*xs) -> None:
    """Operands lazy mode takes: arrays (lazy or concrete) and scalars, at least one array."""
    arrays = False
    for x in xs:  # (a loop, not `all(map(...))`: this runs for every recorded product and reduction)
        t = type(x)
        if t is LazyArray or t is ndarray or _array(x):
            arrays = True
        elif not (t is float or t is int or _plain(x)):
            raise _Unsupported
    if not arrays:
        raise _Unsupported


def _b_reduce(name, a, axis=None, dtype=None, out=None, keepdims=False, initial=_rops.NOVALUE, where=True):
    """`reduction_ops.reduce_fast(name, a, ...)`: the table reductions."""
    _lead(a)
    if out is not None or where is not True or initial is not _rops.NOVALUE:
        raise _Unsupported
    return _reduce(name)(a, axis, dtype, keepdims)


def _b_mean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    _lead(a)
    if out is not None or where is not True:
        raise _Unsupported
    return _mean(a, axis, dtype, keepdims)


def _b_where(c, x=None, y=None):
    if x is None or y is None:
        raise _Unsupported
    _lead(c)
    if not (_plain(x) and _plain(y)):
        raise _Unsupported
    return _where(c, x, y)


def _b_clip(a, a_min=numpy._NoValue, a_max=numpy._NoValue, out=None, **kw):
    nv = numpy._NoValue
    lo, hi = kw.pop("min", nv), kw.pop("max", nv)
    lo, hi = a_min if lo is nv else lo, a_max if hi is nv else hi
    lo, hi = None if lo is nv else lo, None if hi is nv else hi
    _lead(a)
    if out is not None or kw or (lo is None and hi is None) or not all(_plain(v) for v in (lo, hi) if v is not None):
        raise _Unsupported
    return _clip(a, lo, hi)


def _b_dot(a, b, out=None):
    _lead(a)
    if out is not None:
        raise _Unsupported
    na, nb = _operand(a), _operand(b)  # (in this order: the trace records a's input first)
    if nb is None:
        raise _Unsupported
    return _wrap(_products.product_node("dot", na, nb))


def _b_matmul(a, b, **kw):  # (the dispatch point passes every keyword, defaults included)
    defaults = _fast.MATMUL_KEYWORDS
    if any([v is not defaults.get(k) for k, v in kw.items()]) and not all(  # (identity first)
            _is_default(k, v, defaults) for k, v in kw.items()):
        raise _Unsupported
    if not (_array(a) and _array(b)):
        raise _Unsupported
    return _matmul(a, b)


def _b_tensordot(a, b, axes=2):
    _lead(a)
    if not _plain(b) or not (isinstance(axes, int) or len(axes) == 2):
        raise _Unsupported
    return _tensordot(a, b, axes)


def _b_astype(a, dtype, order="K", casting="unsafe", subok=None, copy=True):
    if order != "K" or casting != "unsafe":
        raise _Unsupported
    return _astype(a, dtype, copy)


_BUILDERS = {"sum": _b_reduce, "prod": _b_reduce, "max": _b_reduce, "min": _b_reduce, "any": _b_reduce,
             "all": _b_reduce, "mean": _b_mean, "where": _b_where, "clip": _b_clip, "dot": _b_dot, "matmul": _b_matmul,
             "tensordot": _b_tensordot, "astype": _b_astype}
clear_memos = _fast.clear_memos
