"""Lazy mode: `with cuarray.lazy():` and `@cuarray.lazy`.

Inside, the operations a user writes (ufuncs and operators, `where`, `clip`, `astype`,
reductions, `dot`/`matmul`, basic-index views) build graph nodes (`graph.py`) instead of
launching, and return `LazyArray`s whose shape and dtype are known at once. Values are computed
(`planner.plan`, then the Program's few launches) when something needs them: `.get()`, `item`,
`float`/`int`/`bool`/`len`, `repr`, indexing with it, passing it to a routine that does not
build nodes (every routine's `host_input.as_array` materialises it), and leaving the context
(every lazy array made inside that is still alive is computed then, in one Program, so common
subexpressions are shared).

How eager dispatch is hooked: when a thread enters lazy mode, `ufunc.__call__`, `matmul` and
a few namespace functions are replaced by wrappers (`_patch`). They stay installed when the
block ends (a loop of lazy blocks installs them once, not ~30 attributes per block); the first
wrapper called outside lazy mode while no thread is in it removes them (`release_hooks`) and
runs eagerly, so eager code after lazy blocks pays one removal, then exactly what it did. The
wrappers build nodes only for a thread in lazy mode and only for calls made by user code: calls
from cuarray's own modules (a routine that uses ufuncs internally) stay eager, so routines never
see lazy arrays they did not expect.
"""

from __future__ import annotations

import functools
import sys
import threading
import weakref

import numpy

from .. import registry as _registry
from .. import shapes as _shapes
from ..ndarray import ndarray
from . import fast_paths as _fast
from . import graph as _g
from . import numpy_eval as _numpy_eval
from . import products as _products
from .planner import plan, plan_traced
from .trace import Trace

__all__ = ["LazyArray", "lazy", "is_lazy_mode"]

class _State(threading.local):
    # Class-level defaults: reading a missing thread-local attribute with a default costs more.
    depth = 0
    live = None  # weak references to the lazy arrays made (None while `fuse` traces)
    trace = None  # the `Trace` recording the graph since the last computation


_tls = _State()
_lock = threading.Lock()
_active = _registry.lazy_threads  # threads in lazy mode
_PY_SCALARS = (bool, int, float, complex)


def is_lazy_mode() -> bool:
    return _tls.depth > 0


_SKIP, _USER, _INTERNAL = 0, 1, 2
_code_kinds: dict = {}  # code object -> how `_user_call` treats its frames


def _code_kind(f) -> int:
    code = f.f_code
    k = _code_kinds.get(code)
    if k is None:
        mod = f.f_globals.get("__name__", "")
        if mod == "cuarray._array_methods" or mod.startswith("cuarray._core.fusion") or code.co_name == "__call__":
            k = _SKIP  # operators, our wrappers, ufunc subclasses' __call__
        elif mod.startswith(("cuarray.bench", "cuarray.testing")) or not (mod == "cuarray" or mod.startswith("cuarray.")):
            k = _USER
        else:
            k = _INTERNAL
        _code_kinds[code] = k
    return k


def _user_call() -> bool:
    """Whether the wrapper was called (through operators) by code outside cuarray's modules."""
    f = sys._getframe(2)
    kinds = _code_kinds
    while f is not None:
        k = kinds.get(f.f_code)  # (`_code_kind`'s look-up inline: one call less per frame)
        if k is None:
            k = _code_kind(f)
        if k:
            return k == _USER
        f = f.f_back
    return True


def _building() -> bool:
    return _tls.depth > 0 and _user_call()


def _array_node(a) -> _g.Node:
    """The node of a concrete array: while recording, one per distinct array of the trace (two
    uses of `h` are one input), made and recorded at once."""
    st = _tls
    if st.live is not None:
        return st.trace.array(a)
    return _g.array_node(a)


def _operand(x):
    """The node of a ufunc operand, None for anything lazy mode does not take."""
    t = type(x)
    if t is LazyArray:
        return x._node
    if t is ndarray:
        st = _tls
        return st.trace.array(x) if st.live is not None else _g.array_node(x)
    if t is float or t is int:
        return _g.scalar_node(x)
    if isinstance(x, ndarray):
        return _array_node(x)
    if isinstance(x, _PY_SCALARS) or isinstance(x, numpy.generic):
        return _g.scalar_node(x)
    return None


def as_node(x) -> _g.Node:
    t = type(x)
    if t is LazyArray:
        return x._node
    if t is ndarray or isinstance(x, ndarray):
        return _array_node(x)
    if t in _PY_SCALARS or isinstance(x, _PY_SCALARS) or isinstance(x, numpy.generic):
        return _g.scalar_node(x)
    from ..host_input import reject

    raise reject(x, "lazy")


def _value(x):
    return x._materialize() if type(x) is LazyArray else x


# A lazy elementwise chain longer than this is computed when built (a loop that never looks at
# its values would otherwise make one kernel of thousands of nodes, slow to compile). Reasoned:
# 128 nodes compile in well under a second and are far past any memory-bound gain.
MAX_CHAIN = 128


def _wrap(node) -> "LazyArray":
    out = _new(LazyArray)  # (no __init__ frame: this runs once per operation)
    out._node = node
    st = _tls
    live = st.live
    if live is not None:  # (None while `fuse` traces: nothing may be computed then)
        live.append(_ref(out))
        if len(live) > 4096:
            live[:] = [r for r in live if r() is not None]
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
            _compute([node])
    return out


_new = object.__new__
_ref = weakref.ref


class LazyArray:
    """An array whose value is computed when needed. See `cuarray.lazy`; shape, dtype, ndim and
    size are known without computing anything."""

    __slots__ = ("_node", "__weakref__")
    __array_priority__ = 200  # NumPy defers to our reflected operators

    def __init__(self, node):
        self._node = node

    # -- metadata, no computation -------------------------------------------------------
    shape = property(lambda self: self._node.shape)
    dtype = property(lambda self: self._node.dtype)
    ndim = property(lambda self: len(self._node.shape))
    size = property(lambda self: self._node.size)
    itemsize = property(lambda self: self._node.dtype.itemsize)
    nbytes = property(lambda self: self._node.size * self._node.dtype.itemsize)
    strides = property(lambda self: _shapes.c_strides(self._node.shape, self._node.dtype.itemsize))

    @property
    def is_computed(self) -> bool:
        return self._node.value is not None

    # -- computing ------------------------------------------------------------------------
    def _materialize(self) -> ndarray:
        n = self._node
        if n.value is None:
            _compute([n])
        v = n.value
        return v if isinstance(v, ndarray) else _from_scalar(v)

    __cuarray_materialize__ = _materialize

    def get(self, *args, **kwargs):
        return self._materialize().get(*args, **kwargs)

    def item(self, *args):
        return self._materialize().item(*args)

    def __float__(self):
        return float(self._materialize())

    def __int__(self):
        return int(self._materialize())

    def __complex__(self):
        return complex(self._materialize())

    def __index__(self):
        return self._materialize().__index__()

    def __bool__(self):
        return bool(self._materialize())

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        return iter(self._materialize())

    def __repr__(self):
        return repr(self._materialize())

    def __str__(self):
        return str(self._materialize())

    def __array__(self, *args, **kwargs):
        return self._materialize().__array__(*args, **kwargs)

    @property
    def __cuda_array_interface__(self):
        return self._materialize().__cuda_array_interface__

    @property
    def data(self):
        return self._materialize().data

    def numpy(self) -> numpy.ndarray:
        """The same graph evaluated by NumPy on host copies of its inputs (for testing)."""
        return _numpy_eval.evaluate(self._node)

    def explain(self) -> str:
        """The graph, the planned kernels and their generated CUDA source."""
        lines = ["graph:"]
        for k, n in enumerate(_g.walk([self._node])):
            lines.append("  {}{}".format(n.label(), "  (computed)" if n.value is not None and n.kind != "array" else ""))
        return "\n".join(lines) + "\nplan:\n" + plan([self._node]).explain()

    # -- operations: nodes in lazy mode, eager calls outside -------------------------------
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if is_lazy_mode():
            return _astype(self, dtype, copy=copy)
        return self._materialize().astype(dtype, order=order, casting=casting, copy=copy)

    def __getitem__(self, key):
        if is_lazy_mode() and type(key) is not LazyArray:
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
        if is_lazy_mode():
            return _wrap(_g.view_node("transpose", self._node, lambda a: a.transpose(axes), ("transpose", axes)))
        return self._materialize().transpose(axes)

    T = property(lambda self: self.transpose())

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if is_lazy_mode() and order == "C":
            return _wrap(_g.view_node("reshape", self._node, lambda a: a.reshape(shape), ("reshape", shape)))
        return self._materialize().reshape(shape, order=order)

    def ravel(self):
        return self.reshape(-1)


def _from_scalar(v):
    from ..transfer import from_host

    return from_host(v)


# -- operators ----------------------------------------------------------------------------------
# In recording lazy mode the common operator is built by `fast_paths` (memoised from what the
# general path below resolved for the same operand types); the rest takes the general path.
def _binary(name, reflected=False):
    uf = []  # the ufunc, looked up on first use (the registry fills after this module loads)
    memo = _fast.operator_memo(name, reflected)
    fast_binary = _fast.fast_binary

    def op(self, other):
        st = _tls
        if st.live is not None:  # recording lazy mode (not `fuse` tracing)
            out = fast_binary(memo, reflected, st, self._node, other, type(other))
            if out is not None:
                return out
        t = type(other)
        if t is LazyArray:
            node = other._node
        elif t is ndarray or (t not in _PY_SCALARS and isinstance(other, ndarray)):
            node = None  # (its input node is made below, in lazy mode only)
        elif t in _PY_SCALARS or isinstance(other, _PY_SCALARS) or isinstance(other, numpy.generic):
            node = _g.scalar_node(other)
        else:
            return NotImplemented
        if not uf:  # (matmul is bound on first use: the namespace's attribute)
            uf.append(_registry.ufuncs.get(name) or getattr(_registry.namespace(), name))
        st = _tls
        if not st.depth:
            args = (other, self) if reflected else (self, other)
            return uf[0](*[_value(a) for a in args])
        if name == "matmul":
            return _matmul(*((other, self) if reflected else (self, other)))
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

    return op


def _unary(name):
    uf = []

    def op(self):
        st = _tls
        if st.live is not None and uf:  # recording lazy mode: the memoised fast path
            out = _fast.fast_unary(uf[0], self._node, st)
            if out is not None:
                return out
        if not uf:
            uf.append(_registry.ufuncs[name])
        if not st.depth:
            return uf[0](self._materialize())
        out = _wrap(_g.ufunc_node(uf[0], (self._node,)))
        if self._node.weak is not None:
            _make_weak(out)
        else:
            _fast.remember_ufunc(uf[0], (self,), out)
        return out

    return op


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
    setattr(LazyArray, "__{}__".format(_k), _binary(_v))
    setattr(LazyArray, "__r{}__".format(_k), _binary(_v, True))
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
        st = _tls
        if reduction and not args and not kwargs and st.live is not None:
            out = _fast.fast_reduce(name, self._node, st)
            if out is not None:
                return out
            out = getattr(_registry.namespace(), name)(self)
            _fast.remember_reduce(name, self._node, out)
            return out
        # The namespace function: while lazy mode is on, the wrapper that builds a node.
        return getattr(_registry.namespace(), name)(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = "See `numpy.ndarray.{}`.".format(name)
    return method


for _k in ("sum", "prod", "mean", "max", "min", "any", "all", "dot", "clip"):
    setattr(LazyArray, _k, _method(_k))


# -- node builders used by operators, methods and the wrappers ------------------------------------------
def _ufunc(uf, args):
    return _wrap(_g.ufunc_node(uf, [as_node(a) for a in args]))


def _astype(x, dtype, copy=True):
    n = as_node(x)
    dt = numpy.dtype(dtype)
    if dt == n.dtype and not copy:
        return x
    return _wrap(_g.cast_node(n, dt))


def _orig(name):
    return _originals[name]


def _dot_like(name, np_fn):
    sig = (name,)
    memo = {}  # (shapes, dtypes of the operands) -> (shape, dtype, attr) of the product's node

    def nodes(na, nb):
        """The product of two nodes (a scalar or 0-d operand of `dot`: a multiplication)."""
        if name == "dot" and (na.kind == "scalar" or nb.kind == "scalar" or not na.shape or not nb.shape):
            return _wrap(_g.ufunc_node(_registry.ufuncs["multiply"], (na, nb)))
        key = (na.shape, nb.shape, na.dtype, nb.dtype)
        hit = memo.get(key)  # (a loop body multiplies the same shapes every iteration)
        if hit is None:
            shape = _g.matmul_shape(na.shape, nb.shape, name)
            dtype = _g._dtypes.normalize_dtype(numpy.result_type(na.dtype, nb.dtype))
            if len(memo) > 1024:
                memo.clear()
            hit = memo[key] = (shape, dtype, (name, _originals[name], np_fn, sig))
        return _wrap(_g.Node("call", (na, nb), hit[0], hit[1], hit[2]))

    def build(a, b):
        return nodes(as_node(a), as_node(b))

    build.nodes = nodes
    return build


def _tensordot(a, b, axes=2):
    na, nb = as_node(a), as_node(b)
    axes, shape = _g.tensordot_axes(na.shape, nb.shape, axes)
    dtype = numpy.result_type(na.dtype, nb.dtype)
    fn = _orig("tensordot")
    return _wrap(_g.call_node("tensordot", (na, nb), shape, dtype, lambda x, y: fn(x, y, axes),
                              lambda x, y: numpy.tensordot(x, y, axes), ("tensordot", axes)))


_dot = _dot_like("dot", numpy.dot)
_matmul = _dot_like("matmul", numpy.matmul)


def _reduce(op_name):
    def build(a, axis=None, dtype=None, keepdims=False):
        return _wrap(_g.reduce_node(op_name, as_node(a), axis, keepdims, dtype))

    return build


def _mean(a, axis=None, dtype=None, keepdims=False):
    from .. import reduction_ops as _rops

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


def _compute(nodes, last=False) -> None:
    """Compute `nodes` (one Program) and keep their values, and those of the matmuls and
    reductions computed on the way (recomputing those would cost more than keeping them)."""
    trace = _tls.trace
    if trace is None:  # outside lazy mode: the graph is recorded now
        trace = Trace()
    elif not last:  # what is built after this is a new stretch, with its own key
        _tls.trace = Trace()
    prog, inputs = plan_traced(trace, nodes)
    values = prog.run(inputs)
    for n, v in zip(nodes, values):
        n.value = v
    # Computed nodes read by this graph forget how they were computed: a loop that carries a
    # value from step to step (`w = w - lr * grad`) would otherwise keep every step's graph, and
    # its arrays, alive through `args`. (`numpy()` of this graph starts from their values.)
    for n in trace.leaves:
        if n.args:
            n.args = ()


def flush(last=False) -> None:
    """Compute every lazy array of this thread still alive and not computed, in one Program. Run
    when leaving the context and before an in-place write into a concrete array (`a[...] = v`, a
    ufunc's `out=`): a pending graph reading that array must see it as it was when the graph was
    built, as eager mode would have."""
    live = _tls.live
    if not live:
        return
    pending = [r() for r in live]
    pending = [x._node for x in pending if x is not None and x._node.value is None]
    del live[:]
    if pending:
        _compute(pending, last)


# -- the context ------------------------------------------------------------------------------------
class lazy:
    """Lazy evaluation: `with cuarray.lazy():` or `@cuarray.lazy` on a function. Inside,
    operations build an expression graph and return `LazyArray`s with their shape and dtype;
    values are computed, in as few fused kernels as the graph allows, when needed or when the
    context ends. A decorated function returns computed ndarrays."""

    def __init__(self, fn=None, *, _track=True):
        self._fn = fn
        self._track = _track
        self._saved = None
        if fn is not None:
            functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        with lazy():
            out = self._fn(*args, **kwargs)
        return _unwrap(out)

    def __enter__(self):
        st = _tls
        depth = st.depth
        if depth == 0:
            st.live = []
            st.trace = Trace()
            with _lock:
                if not _patched[0]:
                    _patch()
                _active[0] += 1
        st.depth = depth + 1
        if not self._track:  # tracing (`fuse`): nothing is computed on exit
            self._saved, st.live = st.live, None
        return self

    def __exit__(self, *exc):
        st = _tls
        st.depth -= 1
        if not self._track:
            st.live = self._saved
        if st.depth:
            return False
        try:
            if exc[0] is None and self._track:
                flush(last=True)
        finally:
            st.live = st.trace = None
            with _lock:
                _active[0] -= 1
        # The hooks stay installed: a loop of lazy blocks does not install and remove ~30 of
        # them per block. The first hooked call made outside lazy mode removes them.
        return False


def _unwrap(out):
    if type(out) is LazyArray:
        return out._materialize()
    if type(out) in (tuple, list):
        return type(out)(_unwrap(o) for o in out)
    if type(out) is dict:
        return {k: _unwrap(v) for k, v in out.items()}
    return out


# -- hooks into eager dispatch (only while some thread is in lazy mode) ------------------------------
_originals: dict = {}
_table: list = []
_UFUNC_DEFAULTS = {"out": None, "where": True, "casting": "same_kind", "order": "K", "dtype": None, "subok": True}


def _array_arg(x) -> bool:
    return type(x) is LazyArray or isinstance(x, ndarray)


def _plain_arg(x) -> bool:
    return _array_arg(x) or isinstance(x, _PY_SCALARS) or isinstance(x, numpy.generic)


_patched = [False]  # whether the hooks are installed (changed under `_lock`)


def _patch() -> None:
    if not _table:
        _build_table()
    for owner, name, _, fn in _table:
        setattr(owner, name, fn)
    _patched[0] = True


def _unpatch() -> None:
    for owner, name, orig, _ in reversed(_table):
        setattr(owner, name, orig)
    _patched[0] = False


def release_hooks() -> None:
    """Remove the hooks when no thread is in lazy mode. Called by a hook reached outside lazy
    mode (so eager code after a lazy block pays for the removal once, then nothing), and by
    tests."""
    if _active[0] == 0 and _patched[0]:
        with _lock:
            if _active[0] == 0 and _patched[0]:
                _unpatch()


def _build_table() -> None:
    """(owner, attribute, original, wrapper) for every hook, built once."""
    from ..ufunc import ufunc

    ns = _registry.namespace()
    mm = ns.matmul  # (the namespace's attribute: matmul is bound on first use, then registered)
    matmul_t = type(mm)
    orig_call = ufunc.__call__
    orig_mm = matmul_t.__call__
    _originals.update(dot=_products.prepared(ns.dot), tensordot=ns.tensordot,
                      matmul=_products.prepared(lambda a, b: orig_mm(mm, a, b)))

    def ufunc_call(self, *args, **kwargs):
        st = _tls
        if st.live is not None and not kwargs:  # recording lazy mode: the memoised fast path
            out = _fast.fast_ufunc(self, args, st)
            if out is not None:
                return out
        if not st.depth:  # outside lazy mode: the hooks are not needed any more
            release_hooks()
            return orig_call(self, *args, **kwargs)
        nin = self.nin
        if not kwargs and len(args) == 2 and nin == 2 and self.nout == 1:
            # The common case (`x - z`, `1.0 - h` through ndarray's operators), spelled out.
            a, b = args
            na, nb = _operand(a), _operand(b)
            if na is not None and nb is not None:
                # At least one array (a lazy operand counts, even a `fuse` scalar argument).
                arrays = na.kind != "scalar" or nb.kind != "scalar" or type(a) is LazyArray or type(b) is LazyArray
                if arrays and _user_call():
                    out = _wrap(_g.ufunc_node(self, (na, nb)))
                    _fast.remember_ufunc(self, args, out)
                    return out
        elif len(args) == nin and self.nout == 1 and (not kwargs or all(
                _UFUNC_DEFAULTS.get(k, 0) is v or _UFUNC_DEFAULTS.get(k, 0) == v for k, v in kwargs.items())
                ) and _user_call():
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
                else:
                    break
            else:
                if arrays:
                    out = _wrap(_g.ufunc_node(self, nodes))
                    if nin == 1 and not kwargs:
                        _fast.remember_ufunc(self, args, out)
                    return out
        if kwargs.get("out") is not None or len(args) > nin:  # (positional `out`)
            flush()  # an in-place write: pending graphs read the old values
        return orig_call(self, *[_value(a) for a in args], **kwargs)

    def matmul_call(self, a, b, /, out=None, **kwargs):
        if not _tls.depth:
            release_hooks()
        elif out is None and not kwargs and _array_arg(a) and _array_arg(b) and _user_call():
            return _matmul(a, b)
        return orig_mm(self, _value(a), _value(b), out=out, **kwargs)

    def simple(name, build, nargs=1):
        orig = getattr(ns, name)

        def fn(*args, **kwargs):
            if not _tls.depth:
                release_hooks()
            elif args and _user_call():
                lead = args[:nargs]
                if all(map(_plain_arg, lead)) and any(map(_array_arg, lead)):
                    try:
                        return build(*args, **kwargs)
                    except _Unsupported:
                        pass
            return orig(*[_value(a) for a in args], **kwargs)

        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = orig.__doc__
        return orig, fn

    def red(op_name, has_dtype=True):
        builder = _mean if op_name == "mean" else _reduce(op_name)

        def build(a, axis=None, *rest, dtype=None, out=None, keepdims=False, **kw):
            if has_dtype and rest:
                dtype, rest = rest[0], rest[1:]
            if rest and rest[0] is not None:
                raise _Unsupported
            if out is not None or kw or (len(rest) > 1):
                raise _Unsupported
            if not has_dtype and dtype is not None:
                raise _Unsupported
            return builder(a, axis, dtype, keepdims)

        return build

    def where(c, x=None, y=None):
        if x is None or y is None or not all(map(_plain_arg, (x, y))):
            raise _Unsupported
        return _where(c, x, y)

    def clip(a, a_min=numpy._NoValue, a_max=numpy._NoValue, out=None, **kw):
        lo = kw.pop("min", a_min)
        hi = kw.pop("max", a_max)
        lo = None if lo is numpy._NoValue else lo
        hi = None if hi is numpy._NoValue else hi
        if out is not None or kw or (lo is None and hi is None) or not all(_plain_arg(v) for v in (lo, hi) if v is not None):
            raise _Unsupported
        return _clip(a, lo, hi)

    def dot(a, b, out=None):
        if out is not None or not (_plain_arg(b)):
            raise _Unsupported
        return _dot(a, b)

    def tensordot(a, b, axes=2):
        if not _plain_arg(b) or not (isinstance(axes, int) or len(axes) == 2):
            raise _Unsupported
        return _tensordot(a, b, axes)

    dot_nodes, orig_dot = _dot.nodes, ns.dot

    def dot_hook(a, b, out=None):
        # `cp.dot(a, b)`, the common product call, without the generic wrapper's steps.
        if not _tls.depth:
            release_hooks()
        elif out is None and (type(a) is LazyArray or isinstance(a, ndarray)) and _user_call():
            na, nb = _operand(a), _operand(b)
            if nb is not None:
                return dot_nodes(na, nb)
        return orig_dot(_value(a), _value(b), out=out)

    dot_hook.__name__ = dot_hook.__qualname__ = "dot"
    dot_hook.__doc__ = orig_dot.__doc__
    _table.append((ns, "dot", orig_dot, dot_hook))
    builds = {"where": (where, 1), "clip": (clip, 1), "tensordot": (tensordot, 1)}
    for op_name, has_dtype in (("sum", True), ("prod", True), ("mean", True), ("max", False), ("min", False),
                               ("amax", False), ("amin", False), ("any", False), ("all", False)):
        table = {"amax": "max", "amin": "min"}.get(op_name, op_name)
        builds[op_name] = (red(table, has_dtype), 1)
    for name, (build, nargs) in builds.items():
        if hasattr(ns, name):
            orig, fn = simple(name, build, nargs)
            _table.append((ns, name, orig, fn))

    orig_astype = ndarray.astype

    def astype(self, dtype, *args, **kwargs):
        if _building() and not args and set(kwargs) <= {"copy"}:
            return _astype(self, dtype, kwargs.get("copy", True))
        return orig_astype(self, dtype, *args, **kwargs)

    _table.append((ufunc, "__call__", orig_call, ufunc_call))
    _table.append((matmul_t, "__call__", orig_mm, matmul_call))


class _Unsupported(Exception):
    """A call lazy mode does not build a node for: it runs eagerly."""


clear_memos = _fast.clear_memos
_fast.bind(LazyArray, _tls, _user_call, _compute, MAX_CHAIN)
