"""Lazy mode's node core (`_core/_native/nodes.c`, the optional `_nodecore` extension): a node's
fields as a C struct, and `Trace.ufunc` / `Trace.ufunc_scalar` for their common case. The C
records make the same nodes, fields and entries as the Python methods (the reference, which also
serve what C hands back), errors included; the fields behave as the Python slots do; and the pure-
Python fallback (CUARRAY_PURE_PYTHON_NODES=1) runs the fast-path comparison too
(tests/_core/test_fusion_fastpath_cpu.py, both implementations)."""

from __future__ import annotations

import gc
import inspect
import os
import subprocess
import sys
import weakref

import numpy
import pytest

from cuarray._core.fusion import graph as g
from cuarray._core.fusion import trace as T

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
F4 = numpy.dtype("float32")
ATTR = ("multiply", "a resolved loop")  # (what a ufunc node's attr is does not matter here)
FIELDS = ("kind", "shape", "dtype", "attr", "value", "weak", "cost", "pos")

native = pytest.mark.skipif(g.native is None, reason="the _nodecore extension is not built (setup.py build_ext)")


class _Value:
    """Stands for a device array (an input node's value)."""


def _start(earlier=False):
    """A trace with two inputs and a ufunc node over them (cost 1, uncomputed); `earlier`: a
    second one of the same structure whose nodes were recorded in a trace before it."""
    tr = T.Trace()
    x = g.Node("array", (), (4,), F4, value=_Value())
    y = g.Node("array", (), (4,), F4, value=_Value())
    tr.record(x)
    tr.record(y)
    u = g.Node("ufunc", (x, y), (4,), F4, ATTR)
    tr.record(u)
    c = g.Node("ufunc", (x, x), (4,), F4, ATTR)  # computed: its cost no longer counts
    tr.record(c)
    c.value = _Value()
    if earlier:
        tr = T.Trace()
    return tr, x, y, u, c


def _describe(tr, n):
    """A node, its operands and the trace's entries, with trace ids made relative."""
    def val(v):  # (each start has inputs of its own)
        return "an input" if isinstance(v, _Value) else v

    def fields(m):
        return tuple(val(getattr(m, f)) for f in FIELDS) + (m.seg == tr.id,)

    return fields(n), [fields(a) for a in n.args], list(tr.ops), [fields(m) for m in tr.leaves], [
        val(v) for v in tr.values]


def _both(build):
    """`build(record_ufunc, record_ufunc_scalar, *start())` with the C functions and with the
    Python methods, on equal fresh starts."""
    out = []
    for fns in ((T.record_ufunc, T.record_ufunc_scalar), (T.Trace.ufunc, T.Trace.ufunc_scalar)):
        for earlier in (False, True):
            tr, *nodes = _start(earlier)
            out.append(_describe(tr, build(*fns, tr, *nodes)))
    return out[:2], out[2:]


CASES = {
    "scalar": lambda uf, us, tr, x, y, u, c: us(tr, ATTR, F4, u, 2.0, float, False),
    "scalar-reflected": lambda uf, us, tr, x, y, u, c: us(tr, ATTR, F4, u, 3, int, True),
    "scalar-of-computed": lambda uf, us, tr, x, y, u, c: us(tr, ATTR, F4, c, 0.5, float, False),
    "scalar-of-input": lambda uf, us, tr, x, y, u, c: us(tr, ATTR, F4, x, True, bool, True),
    "binary": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (u, u)),
    "binary-computed": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (c, u)),
    "binary-inputs": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (x, y)),
    "unary": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (u,)),
    "ternary": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (u, x, y)),
    "chain": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (us(tr, ATTR, F4, uf(tr, ATTR, F4, (4,), (u,)),
                                                                       1.0, float, False), c)),
    # A cost the C records do not sum as C integers (past int64, not an int): Python's arithmetic.
    "cost-past-int64": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (_cost(u, 2 ** 70), _cost(y, 3))),
    "cost-not-an-int": lambda uf, us, tr, x, y, u, c: uf(tr, ATTR, F4, (4,), (y, _cost(u, 2.5))),
}


def _cost(n, cost):
    n.cost = cost
    return n


@native
@pytest.mark.parametrize("case", sorted(CASES))
def test_native_records_what_the_python_methods_record(case):
    c_records, py_records = _both(CASES[case])
    assert c_records == py_records


@native
def test_native_records_raise_what_the_python_methods_raise():
    for fn in (T.record_ufunc_scalar, T.Trace.ufunc_scalar):  # a scalar type without an entry
        tr, x, y, u, c = _start()
        with pytest.raises(KeyError):
            fn(tr, ATTR, F4, u, "2", str, False)
    for fn in (T.record_ufunc, T.Trace.ufunc):  # an operand that is not a node
        tr, x, y, u, c = _start()
        with pytest.raises(AttributeError):
            fn(tr, ATTR, F4, (4,), (u, 2.0))
    with pytest.raises(TypeError):
        T.record_ufunc(tr, ATTR, F4, (4,))


def test_node_fields_behave_as_slots():
    n = g.Node("ufunc", (), (3,), F4, ATTR)
    assert (n.kind, n.args, n.shape, n.dtype, n.attr, n.value, n.weak, n.cost, n.seg, n.pos) == (
        "ufunc", (), (3,), F4, ATTR, None, None, 1, 0, -1)
    bare = object.__new__(g.Node)
    with pytest.raises(AttributeError):
        bare.kind
    del n.value
    with pytest.raises(AttributeError):
        n.value
    n.value = None
    with pytest.raises(AttributeError):
        n.other = 1  # (no __dict__: a misspelt field is an error, as with slots)
    # A cycle through `args` is collected; nodes take weak references.
    m = g.Node("ufunc", (n,), (3,), F4, ATTR)
    n.args = (m,)
    ref = weakref.ref(m)
    del m, n
    gc.collect()
    assert ref() is None
    # A deep chain is freed without exhausting the C stack.
    node = g.Node("array", (), (3,), F4, value=_Value())
    for _ in range(100000):
        node = g.Node("ufunc", (node,), (3,), F4, ATTR)
    del node


def test_implementation_and_the_pure_python_fallback():
    assert g.implementation() == ("python" if g.native is None else "native")
    script = ("from cuarray._core.fusion import graph, trace\n"
              "assert graph.implementation() == 'python' and graph.native is None\n"
              "assert trace.record_ufunc is trace.Trace.ufunc and trace.record_ufunc_scalar is trace.Trace.ufunc_scalar\n"
              "assert graph.Node.__mro__[1:3] == (graph._NodeMethods, graph._NodeFields)\n"
              "from cuarray._core.fusion import lazy_array\n"
              "assert trace.Trace.__mro__[1] is trace._TraceFields\n"
              "assert lazy_array.LazyArray.__mro__[1:3] == (lazy_array._LazyMethods, lazy_array._LazyFields)\n"
              "from cuarray._core.fusion import lazy_mode\n"
              "assert lazy_mode._State.__mro__[1] is lazy_mode._StateFields\n"
              "print('ok')\n")
    env = dict(os.environ, CUARRAY_PURE_PYTHON_NODES="1",
               PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stdout + res.stderr


def test_a_new_trace_has_the_fields_the_python_init_gives():
    """`Trace(expect)` (`TraceFields`' C `__init__` where built) sets what `_TraceFields.__init__`
    does: fresh lists and dict, a new id, the clock read, `expect` kept; bad arguments raise."""

    class Reference(T._TraceFields):  # (the Python `__init__`, on Python slots)
        __slots__ = ()

    expect = [("a", F4, (4,))]
    for make in (T.Trace, Reference):
        t0 = T._clock()
        a, b, c = make(), make(expect), make(expect=expect)
        assert a.expect is None and b.expect is expect and c.expect is expect
        assert a.id < b.id < c.id and t0 <= a.t0 <= b.t0 <= c.t0
        for tr in (a, b, c):
            assert (tr.ops, tr.leaves, tr.values, tr.by_value, tr.ordinal, tr.cacheable, tr.held) == (
                [], [], [], {}, None, True, None)
        assert a.ops is not b.ops and a.leaves is not b.leaves and a.by_value is not b.by_value
        for bad in (lambda: make(expect, 1), lambda: make(other=1)):
            with pytest.raises(TypeError):
                bad()


def test_trace_and_lazy_array_fields_behave_as_slots():
    """`Trace`, `LazyArray` and a thread's lazy state on their C bases where built (`TraceFields`,
    `LazyFields`, `StateFields`: the C operators read and write them by offset): the same fields
    as the Python slots, no others."""
    from cuarray._core.fusion import lazy_mode
    from cuarray._core.fusion.lazy_array import LazyArray

    if g.native is not None:
        assert T.Trace.__mro__[1] is g.native.TraceFields and LazyArray.__mro__[2] is g.native.LazyFields
        assert lazy_mode._State.__mro__[1] is g.native.StateFields
    st = lazy_mode._State()  # (a thread's lazy state: the fields the operators read, set at once)
    assert (st.live, st.trace, st.internal, st.depth, st.host) == (None, None, None, 0, False)
    st.trace = st  # (a cycle through the C fields is collected)
    ref = weakref.ref(st)
    del st
    gc.collect()
    assert ref() is None
    tr = T.Trace()
    assert (tr.ops, tr.leaves, tr.values, tr.by_value, tr.cacheable, tr.held) == ([], [], [], {}, True, None)
    with pytest.raises(AttributeError):
        tr.other = 1
    n = g.Node("array", (), (4,), F4, value=_Value())
    x = LazyArray(n)
    assert x._node is n and x.shape == (4,) and weakref.ref(x)() is x
    with pytest.raises(AttributeError):
        object.__new__(LazyArray)._node
    with pytest.raises(AttributeError):
        x.other = 1
    x._node = tr  # (a LazyArray's node reaching a cycle through the trace is collected)
    tr.held = [x]
    ref = weakref.ref(x)
    del x, tr
    gc.collect()
    assert ref() is None


@native
def test_node_and_lazy_array_are_classes_made_over_their_fields():
    """`Node` and `LazyArray` made in C (`leaf_class.c`: freed by the fields' own dealloc): their
    methods' class, then the fields', in the MRO; the methods' `__init__`, `__repr__`, properties
    and docstring; weak references and their callbacks; cycles collected; instances reused; a
    subclass made by a `class` statement works; a kind it does not know is refused."""
    from cuarray._core.fusion.lazy_array import LazyArray, _LazyMethods

    assert g.Node.__mro__ == (g.Node, g._NodeMethods, g.native.NodeFields, object)
    assert LazyArray.__mro__ == (LazyArray, _LazyMethods, g.native.LazyFields, object)
    assert g.Node.__module__ == g.__name__ and g.Node.__name__ == "Node" and LazyArray.__name__ == "LazyArray"
    assert g.Node.__doc__ == g._NodeMethods.__doc__ and "computed when needed" in LazyArray.__doc__
    n = g.Node("ufunc", (), (2, 3), F4, ATTR)
    assert (n.kind, n.shape, n.cost, n.pos, n.ndim, n.size) == ("ufunc", (2, 3), 1, -1, 2, 6)
    assert repr(g.Node("array", (), (4,), F4)) == "<Node array float32 (4,)>"
    assert LazyArray(n).shape == (2, 3) and LazyArray(n).size == 6
    for cls, make in ((g.Node, lambda: g.Node("array", (), (4,), F4, value=_Value())),
                      (LazyArray, lambda: LazyArray(g.Node("array", (), (4,), F4, value=_Value())))):
        x, called = make(), []
        r = weakref.ref(x, lambda ref: called.append(ref))
        assert r() is x and weakref.getweakrefcount(x) == 1
        del x
        assert called == [r] and r() is None  # (cleared and called on the dealloc)
        x = make()
        if cls is g.Node:  # (a cycle through a field)
            x.value = x
        else:
            x._node = x
        r = weakref.ref(x)
        del x
        gc.collect()
        assert r() is None

        class Sub(cls):  # (the generic dealloc again, over the class's)
            __slots__ = ()

            def extra(self):
                return 7

        s = Sub(g.Node("array", (), (4,), F4, value=_Value())) if cls is LazyArray else Sub("array", (), (4,), F4)
        r = weakref.ref(s)
        assert s.extra() == 7 and isinstance(s, cls) and r() is s
        del s
        assert r() is None
    for bad in (("other", g._NodeMethods), ("node", 3)):
        with pytest.raises((ValueError, TypeError)):
            g.native.leaf_class(*bad)


class _Array(_Value):
    """Stands for a concrete device array (`Trace.array` reads `_shape` and `_dtype`)."""

    def __init__(self, shape=(4,)):
        self._shape, self._dtype = shape, F4


@native
def test_native_array_records_what_trace_array_records():
    """`_nodecore.array` (the C operators' input of a concrete operand) against `Trace.array`: a new
    array, the same array again, and an array that is the value of a node computed here."""
    out = []
    for array in (g.native.array, T.Trace.array):
        tr, x, y, u, c = _start()
        a, b = _Array(), _Array((2, 4))
        first, again, other = array(tr, a), array(tr, a), array(tr, b)
        c.value = _Array()
        tr._leaf(c)  # (c's value becomes an input of this trace)
        of_c = array(tr, c.value)
        assert again is first and of_c is not c and of_c.pos == c.pos
        out.append([_describe(tr, n) for n in (first, other, of_c)])
    assert out[0] == out[1]


@native
def test_operators_are_method_descriptors():
    """A C `Operator` in a class behaves as the Python function it replaces: called through the
    class with the instance first, bound on an instance, NotImplemented for what it does not take."""
    import types

    import cuarray
    from cuarray._core.fusion import lazy_mode as L

    # (`__pow__` is a Python function around its Operator: NumPy's shortcuts for `a ** 2` and the
    # like; `__rpow__` and the comparisons are Operators as bound)
    assert type(L.LazyArray.__rpow__) is g.native.Operator and type(L.LazyArray.__neg__) is g.native.Operator
    assert type(L.LazyArray.__lt__) is g.native.Operator
    with cuarray.lazy(evaluate="numpy") as lz:
        a = lz.leaf(numpy.arange(3.0))
        bound = a.__rpow__
        assert type(bound) is types.MethodType and bound.__self__ is a
        for y in (bound(2.0), L.LazyArray.__pow__(a, 2.0), a ** 2.0, L.LazyArray.__rpow__(a, 2.0), -a, a < 1.0):
            assert type(y) is L.LazyArray
        assert a.__pow__("x") is NotImplemented and a.__rpow__("x") is NotImplemented
        with pytest.raises(TypeError):
            a ** "x"
        assert numpy.array_equal((2.0 ** a).numpy(), 2.0 ** numpy.arange(3.0))
        assert numpy.array_equal((-a).numpy(), -numpy.arange(3.0))


def test_binary_operators_are_the_number_slots():
    """`l + x`, `x + l` and the other binary operators but `**` are LazyFields' number slots where
    built (each runs the `Operator` pair lazy mode bound, `__add__` then `__radd__` with the operands
    swapped, as Python's slot runs the two methods): the same results, methods and errors as the
    Python methods of the pure-Python build."""
    import cuarray
    from cuarray._core.fusion import lazy_mode as L

    if g.native is not None:
        assert "__add__" not in vars(L.LazyArray) and "__pow__" in vars(L.LazyArray)
        assert L.LazyArray.__add__ is g.native.LazyFields.__add__
    x, i = numpy.arange(1.0, 4.0), numpy.arange(1, 4)
    cases = [(lambda a, b: a + 1.5, x), (lambda a, b: 1.5 + a, x), (lambda a, b: a - b, x), (lambda a, b: 2 - a, x),
             (lambda a, b: a * b, x), (lambda a, b: a / 2, x), (lambda a, b: 2 / a, x), (lambda a, b: a // 2, x),
             (lambda a, b: 7 % a, x), (lambda a, b: a & 6, i), (lambda a, b: 6 | a, i), (lambda a, b: a ^ b, i),
             (lambda a, b: a << 1, i), (lambda a, b: 16 >> a, i), (lambda a, b: x @ a, x), (lambda a, b: b + a, x)]
    with cuarray.lazy(evaluate="numpy") as lz:
        for f, v in cases:
            a, b = lz.leaf(v), lz.leaf(v[::-1].copy())
            y = f(a, b)
            assert type(y) is L.LazyArray and numpy.array_equal(y.numpy(), f(v, v[::-1]))
        a = lz.leaf(x)
        assert a.__add__("x") is NotImplemented and a.__rsub__(1.0).numpy().tolist() == (1.0 - x).tolist()
        for bad in (lambda: a + "x", lambda: "x" - a, lambda: a @ "x"):
            with pytest.raises(TypeError):
                bad()
        a += 1.0  # (no in-place method: the binary one)
        assert type(a) is L.LazyArray and numpy.array_equal(a.numpy(), x + 1.0)


@native
def test_live_set_keeps_the_lazy_arrays_alive_in_order():
    """`_nodecore.Live` (`lazy_mode._State.live` with the node core): each lazy array links itself
    in when made and out when it goes (no weak reference), `pending()` lists the uncomputed ones'
    nodes oldest first, `clear()` empties it, and a member that goes in another thread leaves too."""
    import threading

    from cuarray._core.fusion.lazy_array import LazyArray

    def lazy(value=None):
        x = LazyArray(g.Node("ufunc", (), (4,), F4, ATTR, value=value))
        return x

    live = g.native.Live()
    xs = [lazy() for _ in range(5)]
    done = lazy(value=_Value())
    for x in xs[:3] + [done] + xs[3:]:
        live.add(x)
    del x
    assert len(live) == 6 and weakref.getweakrefcount(xs[0]) == 0
    assert live.pending() == [x._node for x in xs]
    del xs[1]
    assert len(live) == 5 and live.pending() == [x._node for x in xs]
    other = g.native.Live()
    other.add(xs[0])  # (a member of one set at a time: it moves)
    assert len(live) == 4 and len(other) == 1 and other.pending() == [xs[0]._node]
    gone = xs.pop()
    t = threading.Thread(target=lambda x: None, args=(gone,))
    del gone  # (the thread's argument is the last reference: it goes there)
    t.start()
    t.join()
    del t
    assert live.pending() == [x._node for x in xs[1:]] and len(live) == 3
    held = sys.getrefcount(live)
    live.clear()  # (each member held a reference to its set)
    assert len(live) == 0 and live.pending() == [] and sys.getrefcount(live) == held - 2
    keep = lazy()
    s = g.native.Live()
    s.add(keep)
    del s  # (its member keeps it, until the member goes)
    del keep
    cyc = lazy()  # a member in a cycle through its node is collected, and leaves its set
    s = g.native.Live()
    s.add(cyc)
    cyc._node.attr = cyc
    del cyc
    gc.collect()
    assert len(s) == 0
    with pytest.raises(TypeError):
        s.add(object())


@native
def test_lazy_mode_makes_no_weak_reference_per_lazy_array(recorded_launches):
    import cuarray as cp
    from cuarray._core.fusion import lazy_mode as L

    x = cp.empty(64, dtype="float32")
    with cp.lazy():
        y = x * 2.0 + 1.0
        z = cp.exp(y)
        assert type(L._threads.st.live) is g.native.Live and len(L._threads.st.live) == 2
        assert weakref.getweakrefcount(y) == 0 and weakref.getweakrefcount(z) == 0
        del z
        assert len(L._threads.st.live) == 1
    assert y.is_computed and L._threads.st.live is None


def test_a_build_older_than_the_sources_runs_the_python_fallback():
    """A `_nodecore` built from older sources (one without what these use: `Live`, ...) is not
    mixed with them: the pure-Python nodes run, as when none is built."""
    script = ("import sys, types\n"
              "stale = types.ModuleType('cuarray._core._nodecore')\n"
              "stale.NodeFields = type('NodeFields', (), {'__slots__': ()})\n"  # (an older build's names only)
              "sys.modules['cuarray._core._nodecore'] = stale\n"
              "from cuarray._core.fusion import graph\n"
              "assert graph.native is None and graph.implementation() == 'python'\n"
              "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("CUARRAY_PURE_PYTHON_NODES", None)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stdout + res.stderr


def test_the_ufunc_call_asks_the_thread_tracer_first():
    """A ufunc's call (`UfuncCall`'s C call slot where built, else `ufunc.__call__`): the thread's
    tracer gets `(uf, args, kwargs)`, kwargs a dict of its own (as `**kwargs` is); with none, the
    eager call and its errors."""
    import cuarray as cp
    from cuarray._core import tracing
    from cuarray._core import ufunc as U

    if g.native is not None:
        assert U.ufunc.__mro__[1] is g.native.UfuncCall and "__call__" not in vars(U.ufunc)
    else:
        assert "__call__" in vars(U.ufunc)
    seen = []

    class Tracer:
        def ufunc(self, uf, args, kwargs):
            seen.append((uf, args, dict(kwargs)))
            kwargs["seen"] = True
            return "traced"

    kw = {"dtype": None}
    prev = tracing.install(Tracer())
    try:
        assert cp.exp(1.5) == "traced" and cp.add(1, 2, **kw) == "traced"
    finally:
        tracing.uninstall(prev)
    assert seen == [(cp.exp, (1.5,), {}), (cp.add, (1, 2), {"dtype": None})] and kw == {"dtype": None}
    with pytest.raises(TypeError, match="unexpected keyword"):
        cp.exp(1.5, other=1)
    # (what inspect says of the call, and of the class, as of a Python `__call__`)
    assert str(inspect.signature(cp.exp)) == "(*args, **kwargs)"
    assert list(inspect.signature(U.ufunc).parameters)[:4] == ["name", "nin", "nout", "ops"]


def test_lazy_mode_takes_the_ufunc_call_with_or_without_keywords():
    """Lazy mode's state as the tracer (where built, `UfuncCall` runs its `ufunc` Operator itself):
    a call without keywords and one with default keywords build the same node; the keywords
    reach the general path as a dict of its own."""
    import cuarray as cp
    from cuarray._core.fusion import lazy_mode as L

    x, kw = numpy.arange(1.0, 4.0), {"dtype": None, "casting": "same_kind"}
    with cp.lazy(evaluate="numpy") as lz:
        a = lz.leaf(x)
        for y in (cp.exp(a), cp.exp(a, **kw), cp.add(a, 1.5), cp.add(a, 1.5, **kw), cp.sqrt(a + 1)):
            assert type(y) is L.LazyArray
        assert numpy.allclose(cp.exp(a, **kw).numpy(), numpy.exp(x)) and kw == {"dtype": None, "casting": "same_kind"}
        assert numpy.array_equal(cp.add(a, 1.5).numpy(), x + 1.5)


@native
def test_an_operators_memo_cache_keeps_a_bodys_keys():
    """A C operator answers each of a loop body's questions (`*` of a float32 lazy array by a Python
    float, an int, lazy arrays of six dtypes: eight keys) from its cache once it has seen them, with
    no memo look-up per step (`memo_misses` stays put). Its slots were chosen by the keys' addresses
    before: eight keys in eight slots almost surely shared one (99.8%) and evicted each other at
    every step, in some processes more than others (2 of a 10-node chain's 10 look-ups, measured)."""
    from cuarray.testing.fake_device import SCRIPT_PRELUDE

    script = SCRIPT_PRELUDE + (
        "import numpy as np\n"
        "import cuarray as cp\n"
        "from cuarray._core.fusion import lazy_mode as L\n"
        "op = L._binary('multiply')  # (an operator of its own: its cache starts empty)\n"
        "arrays = [cp.ndarray((4,), dt) for dt in (np.float32, np.float64, np.int32, np.int64, np.float16,\n"
        "                                          np.complex64)]\n"
        "seen = []\n"
        "for step in range(12):\n"
        "    with cp.lazy():\n"
        "        x = arrays[0] + 0.0\n"
        "        for o in [2.0, 3] + [a + 0 for a in arrays]:\n"
        "            y = op(x, o)\n"
        "    seen.append(op.memo_misses)\n"
        "print(seen)\n")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    seen = eval(res.stdout.strip())
    # (each key misses twice: at the first step the memo has no answer (the Python path makes it),
    # at the second the cache takes the memo's; none after)
    assert seen[1] == 2 * 8 and set(seen[1:]) == {seen[1]}, seen
