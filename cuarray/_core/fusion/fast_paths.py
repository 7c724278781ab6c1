"""Lazy mode's fast paths: the common operations built from memos, one look-up and one call each.

Building a node is lazy mode's host cost: an operation costs about what the eager launch it
replaces does, so a host-bound body gains only through the launches fusion saves. The general
path (`lazy_mode`'s operators and tracer, `graph.ufunc_node`, `Trace.record`) resolves the loop,
the result dtype and shape, makes the nodes and records them, ~8 Python calls for `l - 1.0`.
Here the common calls -- a LazyArray operator with a LazyArray, concrete `ndarray`, Python
float or int operand, or a unary one; a traced ufunc call with one or two such operands; a whole-array
reduction method -- look up what the general path resolved for the same operand types
(memoised from nodes it built, so the first call raises what eager mode raises and a memo holds
only resolved loops) and make and record the nodes at once (`Trace.scalar`, `trace.record_ufunc`), in
the general path's recording order, so the trace's key (and the cached Program) is the same
whichever path built a node (tests/_core/test_fusion_fastpath_cpu.py compares them).
"""

from __future__ import annotations

import types
import weakref

from .. import shapes as _shapes
from ..ndarray import ndarray
from . import graph as _g
from .graph import native as _native
from .lazy_array import MAX_CHAIN, LazyArray
from .trace import Trace
from .trace import record_ufunc as _record_ufunc
from .trace import record_ufunc_scalar as _record_ufunc_scalar

__all__ = ["binary_operator", "unary_operator", "fast_unary", "traced_ufunc", "ufunc_dispatch", "remember_ufunc",
           "traced_call", "call_dispatch", "remember_product", "fast_reduce", "reduce_method", "remember_reduce", "operator_memo", "clear_memos",
           "REDUCTIONS", "PRODUCTS", "MATMUL_KEYWORDS", "FAST_SCALARS"]

FAST_SCALARS = (float, int)
_new = object.__new__
_ref = weakref.ref
def operator_memo(name: str, reflected: bool) -> dict:
    """The memo of one LazyArray operator: (dtype of self, dtype of the other operand or its
    Python scalar type) -> (attr, dtype) of the ufunc node."""
    return operator_memos.setdefault((name, reflected), {})




def _emit(n, st) -> "LazyArray":
    """The fast paths' `_wrap` of a node already recorded: its LazyArray, in the thread's live set
    (what leaving lazy mode computes, `evaluation.flush`): a `_nodecore.Live` links it (no weak
    reference: `_native/live.c`); a list (the pure-Python build, or one a test sets) takes a weak
    reference, pruned past 4096. The live-set step is inlined where a node is made (`live.__class__`,
    an attribute, read rather than `type(live)` called): the lazy rows have a budget of Python
    calls, tests/_core/test_lazy_rows_calls_cpu.py."""
    out = _new(LazyArray)
    out._node = n
    live = st.live
    if live.__class__ is list:  # (`_emit`'s live-set step, inline)
        live.append(_ref(out))
        if len(live) > 4096:
            live[:] = [r for r in live if r() is not None]
    else:
        live.add(out)
    if n.cost > MAX_CHAIN:
        st.compute([n])
    return out


def binary_operator(memo, reflected, tls, general):
    """A LazyArray operator: `self <op> other` (reflected: `other <op> self`) built from the memo
    in recording lazy mode (`tls.st`: the thread's lazy-mode state), else `general(self, other)` (lazy
    mode's general path, which fills the memo). `_emit` inlined, and a Python scalar operand's
    node made with the ufunc's (`trace.record_ufunc_scalar`): the operator is the commonest operation
    of a lazy body, so it is the method itself, with no frame between it and the trace. Where the
    node core is built, the same steps in one C call (`_native/lazyops.c`, an `Operator`)."""
    if _native is not None:
        return _native.binary_operator(memo, reflected, tls, general)

    def op(self, other):
        st = tls.st
        live = st.live
        mine = self._node
        if live is None or mine.weak is not None:  # (not recording; a `fuse` scalar: NEP 50)
            return general(self, other)
        tr = st.trace
        t = type(other)
        if t is float or t is int:
            hit = memo.get((mine.dtype, t))
            if hit is None:
                return general(self, other)
            n = _record_ufunc_scalar(tr, hit[0], hit[1], mine, other, t, reflected)
        else:
            if t is LazyArray:
                node = other._node
                if node.weak is not None:
                    return general(self, other)
                hit = memo.get((mine.dtype, node.dtype))
                if hit is None:
                    return general(self, other)
            elif t is ndarray:
                hit = memo.get((mine.dtype, other._dtype))
                if hit is None:
                    return general(self, other)
                node = tr.array(other)
            else:
                return general(self, other)
            shape = mine.shape
            if node.shape != shape:
                shape = _shapes.broadcast_shapes(shape, node.shape) if node.shape else shape
            n = _record_ufunc(tr, hit[0], hit[1], shape, (node, mine) if reflected else (mine, node))
        out = _new(LazyArray)
        out._node = n
        live.append(_ref(out))
        if len(live) > 4096:
            live[:] = [r for r in live if r() is not None]
        if n.cost > MAX_CHAIN:
            st.compute([n])
        return out

    return op


def _fast_key(x):
    """What the fast paths' memos key an operand by: its dtype (a LazyArray that is not a `fuse`
    scalar, a concrete `ndarray`), its type (a Python float or int), or None (general path)."""
    t = type(x)
    if t is LazyArray:
        n = x._node
        return n.dtype if n.weak is None else None
    if t is ndarray:
        return x._dtype
    if t is float or t is int:
        return t
    return None


_ufunc_memo: dict = {}  # (ufunc, operand keys) -> (attr, dtype): traced ufunc calls' fast path


def traced_ufunc(st, uf, args, kwargs):
    """The thread's tracer's `uf(*args, **kwargs)` (`lazy_mode._State.ufunc`: the method the ufunc
    call's dispatch point calls, with no frame between them): in recording lazy mode, a call of one
    or two operands and no keywords built from the memo; anything else (not memoised yet, anything
    unusual, a call inside a routine) the tracer's general path, `st.general_ufunc`."""
    if st.live is None or kwargs:
        return st.general_ufunc(uf, args, kwargs)
    if len(args) == 2:
        a, b = args
        ta, tb = type(a), type(b)  # (`_fast_key` of each, inline)
        ka = (a._node.dtype if a._node.weak is None else None) if ta is LazyArray else a._dtype if ta is ndarray \
            else ta if ta is float or ta is int else None
        kb = (b._node.dtype if b._node.weak is None else None) if tb is LazyArray else b._dtype if tb is ndarray \
            else tb if tb is float or tb is int else None
        hit = _ufunc_memo.get((uf, ka, kb))
        if hit is None:  # (the memo holds no scalar-only or None keys)
            return st.general_ufunc(uf, args, kwargs)
        if st.internal is not None and type(a) is not LazyArray and type(b) is not LazyArray and st._inside_routine():
            return st.general_ufunc(uf, args, kwargs)  # (inside a routine that does not trace: lazy operands only)
        tr = st.trace
        if (ka is float or ka is int or kb is float or kb is int) and (
                (ta is LazyArray and a._node.seg != tr.id) or (tb is LazyArray and b._node.seg != tr.id)):
            # (a scalar with a node of an earlier stretch: the general path's recording order)
            return st.general_ufunc(uf, args, kwargs)
        # Nodes in the general path's recording order: arrays (in `_operand`), then scalars.
        na = a._node if ta is LazyArray else tr.array(a) if ta is ndarray else None
        nb = b._node if tb is LazyArray else tr.array(b) if tb is ndarray else None
        if na is None:  # a Python scalar and the ufunc in one call (`record_ufunc_scalar`: same entries)
            n = _record_ufunc_scalar(tr, hit[0], hit[1], nb, a, ka, True)
        elif nb is None:
            n = _record_ufunc_scalar(tr, hit[0], hit[1], na, b, kb, False)
        else:
            shape = na.shape
            if nb.shape != shape:
                shape = _shapes.broadcast_shapes(shape, nb.shape)
            n = _record_ufunc(tr, hit[0], hit[1], shape, (na, nb))
    elif len(args) == 1:
        a = args[0]
        ta = type(a)
        ka = (a._node.dtype if a._node.weak is None else None) if ta is LazyArray else a._dtype if ta is ndarray \
            else None  # (`_fast_key`, inline; a scalar alone is never memoised)
        hit = _ufunc_memo.get((uf, ka))
        if hit is None:
            return st.general_ufunc(uf, args, kwargs)
        if st.internal is not None and type(a) is not LazyArray and st._inside_routine():
            return st.general_ufunc(uf, args, kwargs)
        na = a._node if type(a) is LazyArray else st.trace.array(a)
        n = _record_ufunc(st.trace, hit[0], hit[1], na.shape, (na,))
    else:
        return st.general_ufunc(uf, args, kwargs)
    out = _new(LazyArray)  # (`_emit`, inline: one frame less per traced ufunc call)
    out._node = n
    live = st.live
    if live.__class__ is list:  # (`_emit`'s live-set step, inline)
        live.append(_ref(out))
        if len(live) > 4096:
            live[:] = [r for r in live if r() is not None]
    else:
        live.add(out)
    if n.cost > MAX_CHAIN:
        st.compute([n])
    return out


def unary_operator(ufs, tls, general):
    """A LazyArray's unary operator (`-l`): `general(self)` itself (lazy mode's, which tries
    `fast_unary` first once its ufunc is in the list `ufs`), or, where the node core is built,
    `fast_unary`'s steps in one C call that hands the rest to `general`."""
    if _native is not None:
        return _native.unary_operator(ufs, _ufunc_memo, tls, general)
    return general


def fast_unary(uf, node, st):
    """The LazyArray of a LazyArray's unary operator (`-l`, `abs(l)`: `uf` of one lazy
    operand, as the traced `uf(l)` builds it), or None."""
    if node.weak is not None:
        return None
    hit = _ufunc_memo.get((uf, node.dtype))
    if hit is None:
        return None
    return _emit(_record_ufunc(st.trace, hit[0], hit[1], node.shape, (node,)), st)


def remember_ufunc(uf, args, out, st):
    """Memoise a ufunc node the tracer's general path built from `args` (for `traced_ufunc`)."""
    n = out._node
    if n.kind != "ufunc" or st.live is None:
        return
    keys = tuple([_fast_key(a) for a in args])
    if None not in keys and not all(k is float or k is int for k in keys):
        _ufunc_memo[(uf,) + keys] = (n.attr, n.dtype)


# The tracer's ufunc call (`lazy_mode._State.ufunc`): `traced_ufunc`, or its one- and two-operand
# memo hits in one C call (`_native/lazyops.c`) that hands the rest to it. The C operators take
# what they need of lazy mode's types here, once.
if _native is not None:
    _native.configure_lazy(LazyArray, ndarray, _shapes.broadcast_shapes, types.MethodType, MAX_CHAIN, Trace.array)
    ufunc_dispatch = _native.traced_ufunc_operator(_ufunc_memo, traced_ufunc)
else:
    ufunc_dispatch = traced_ufunc

PRODUCTS = frozenset(("dot", "matmul"))
_product_memo: dict = {}  # (name, dtypes, shapes of the operands) -> (shape, dtype, attr) of its node


def _default_keywords(name, kwargs) -> bool:
    """Whether a product's dispatch point passed only its defaults: `dot`'s `out=None`; `matmul`'s
    keywords (all passed, each its default object: `MATMUL_KEYWORDS`)."""
    if name == "dot":
        return len(kwargs) == 1 and kwargs.get("out", 0) is None
    for k, v in kwargs.items():
        if MATMUL_KEYWORDS.get(k, 0) is not v:
            return False
    return True


MATMUL_KEYWORDS = {"out": None, "casting": "same_kind", "order": "K", "dtype": None, "subok": True,
                    "signature": None, "axes": None, "axis": None}


def traced_call(st, name, fn, args, kwargs):
    """The thread's tracer's `call` (`lazy_mode._State.call`: a traceable routine's dispatch point):
    in recording lazy mode, `dot`/`matmul` of two arrays (lazy or concrete) with default keywords
    built from the memo of what the general path resolved for the same dtypes and shapes; anything
    else, or a miss, the general path (`st.general_call`, which fills the memo). The node and its
    entries are the general path's (`_b_dot`/`_b_matmul`, then `_wrap`): the operands' input
    nodes in order, then the product's ("call", attr, positions)."""
    if st.live is None or len(args) != 2 or name not in PRODUCTS or not _default_keywords(name, kwargs):
        return st.general_call(name, fn, args, kwargs)
    a, b = args
    ta, tb = type(a), type(b)
    tr = st.trace
    tid = tr.id
    # An operand is a lazy array recorded here, one computed earlier (a loop's carried `w`: an
    # input, as `Trace.record` makes it), or a concrete array; anything else takes the general path.
    if ta is LazyArray:
        na = a._node
        if na.weak is not None or (na.seg != tid and na.value is None):  # (a `fuse` scalar; a graph of
            return st.general_call(name, fn, args, kwargs)  # an earlier stretch, not computed)
        ka = (na.dtype, na.shape)
    elif ta is ndarray:
        na = None
        ka = (a._dtype, a._shape)
    else:
        return st.general_call(name, fn, args, kwargs)
    if tb is LazyArray:
        nb = b._node
        if nb.weak is not None or (nb.seg != tid and nb.value is None):
            return st.general_call(name, fn, args, kwargs)
        kb = (nb.dtype, nb.shape)
    elif tb is ndarray:
        nb = None
        kb = (b._dtype, b._shape)
    else:
        return st.general_call(name, fn, args, kwargs)
    hit = _product_memo.get((name, ka, kb))
    if hit is None or (na is None and nb is None and st.internal is not None and st._inside_routine()):
        return st.general_call(name, fn, args, kwargs)
    # The general path's order: the concrete operands' input nodes as it takes them (a's, then
    # b's), then, as the product is recorded, the computed lazy operands' (a's, then b's).
    if na is None:
        na = tr.array(a)
    if nb is None:
        nb = tr.array(b)
    if na.seg != tid:
        tr._leaf(na)
    if nb.seg != tid:
        tr._leaf(nb)
    n = _new(_g.Node)
    n.kind = "call"
    n.args = (na, nb)
    n.shape, n.dtype, n.attr = hit
    n.value = n.weak = None
    n.cost = 0
    ops = tr.ops
    n.pos = len(ops)
    ops.append(("call", hit[2][3], (na.pos, nb.pos)))
    n.seg = tid
    out = _new(LazyArray)  # (`_emit`, inline; a product's cost is 0: never past MAX_CHAIN)
    out._node = n
    live = st.live
    if live.__class__ is list:  # (`_emit`'s live-set step, inline)
        live.append(_ref(out))
        if len(live) > 4096:
            live[:] = [r for r in live if r() is not None]
    else:
        live.add(out)
    return out


# The tracer's routine call (`lazy_mode._State.call`): `traced_call`, or `dot`'s memo hits in one C
# call (`_native/lazyops.c`) that hands the rest to it.
call_dispatch = _native.traced_call_operator(_product_memo, traced_call) if _native is not None else traced_call


def remember_product(name, args, out, st) -> None:
    """Memoise a `dot`/`matmul` node the tracer's general path built from two arrays (for `traced_call`)."""
    if type(out) is not LazyArray or st.live is None:
        return
    n = out._node
    a, b = args
    if n.kind != "call" or len(n.args) != 2 or n.attr[3] is None or n.value is not None:
        return
    keys = []
    for x in (a, b):
        t = type(x)
        if t is LazyArray and x._node.weak is None:
            keys.append((x._node.dtype, x._node.shape))
        elif t is ndarray:
            keys.append((x._dtype, x._shape))
        else:
            return
    if len(_product_memo) > 1024:  # (keyed by shapes: a program with many shapes must not grow it)
        _product_memo.clear()
    _product_memo[(name, keys[0], keys[1])] = (n.shape, n.dtype, n.attr)


operator_memos: dict = {}  # (ufunc name, reflected) -> that operator's memo (`fast_binary`)


def clear_memos() -> None:
    """Forget the fast paths' memos (tests: the next operations take the general path)."""
    for m in operator_memos.values():
        m.clear()
    _ufunc_memo.clear()
    _reduce_memo.clear()
    _product_memo.clear()
    if _native is not None:
        _native.memos_cleared()  # (the C operators' cached hits go too)


REDUCTIONS = frozenset(("sum", "prod", "mean", "max", "min", "any", "all"))
_reduce_memo: dict = {}  # (method, dtype, shape) -> how its nodes are made (`remember_reduce`)


def fast_reduce(name, x, st):
    """`x.sum()` (or another whole-array reduction method without arguments) of a LazyArray, from
    the memo: the nodes the general path (`_reduce`, `_mean`) makes, in its recording order,
    without its argument parsing, axis normalisation and dtype rules. None: not memoised yet."""
    hit = _reduce_memo.get((name, x.dtype, x.shape))
    if hit is None:
        return None
    tr = st.trace
    attr, dtype, shape, div = hit
    if div is None:
        n = _g.Node("reduce", (x,), shape, dtype, attr)
        tr.record(n)
    else:  # mean: sum, then divide by the count (a scalar argument), then maybe a cast
        count, q_attr, q_dtype, cast = div
        c = tr.scalar(count, float)
        s = _g.Node("reduce", (x,), shape, dtype, attr)
        tr.record(s)
        n = tr.ufunc(q_attr, q_dtype, shape, (s, c))
        if cast is not None:
            n = _g.Node("cast", (n,), shape, cast, cast)
            tr.record(n)
    return _emit(n, st)


def reduce_method(name, tstate, tls, general):
    """`LazyArray.<name>` (a whole-array reduction method): `general` (the Python method, which
    tries `fast_reduce` first), or, with the node core built, its memo hits in one C call
    (`_native/lazyops.c`) that hands the rest to it. `tstate`: `tracing.state` (the method
    records only while this thread's tracer is its lazy state); `tls`: lazy mode's thread state."""
    if _native is not None:
        return _native.reduce_operator(name, tstate, _reduce_memo, tls, general)
    return general


def remember_reduce(name, x, out) -> None:
    """Memoise how the general path built `x.<name>()` (for `fast_reduce`)."""
    r = out._node if type(out) is LazyArray else None
    if r is None or x.weak is not None:
        return
    if len(_reduce_memo) > 1024:  # (keyed by shape: a program with many shapes must not grow it)
        _reduce_memo.clear()
    if name != "mean":
        if r.kind == "reduce" and r.args[0] is x:
            _reduce_memo[(name, x.dtype, x.shape)] = (r.attr, r.dtype, r.shape, None)
        return
    cast = None
    if r.kind == "cast":
        cast, r = r.dtype, r.args[0]
    if r.kind == "ufunc" and r.args[0].kind == "reduce" and r.args[1].kind == "scalar":
        s, c = r.args
        _reduce_memo[(name, x.dtype, x.shape)] = (s.attr, s.dtype, s.shape, (c.value, r.attr, r.dtype, cast))
