"""Freed nodes and lazy arrays kept for reuse (`_native/nodecore.h`, `FreeList`): an object made
from a kept one is as a new one is (every field unset until written, no weak reference carried
over), the classes' reference counts stay balanced over many blocks, and a class configured again
frees what was kept of the old one."""

from __future__ import annotations

import gc
import sys
import weakref

import numpy
import pytest

import cuarray as cp
from cuarray._core.fusion import graph as g
from cuarray._core.fusion import trace as T
from cuarray._core.fusion.lazy_array import LazyArray

F4 = numpy.dtype("float32")
ATTR = ("multiply", "a resolved loop")
FIELDS = ("kind", "args", "shape", "dtype", "attr", "value", "weak", "cost", "seg", "pos")

native = pytest.mark.skipif(g.native is None, reason="the _nodecore extension is not built (setup.py build_ext)")


class _Value:
    """Stands for a device array (an input node's value)."""


def _fields(n, tid):
    """A node's fields, its operands' in place of `args`, `seg` as whether it is `tid`."""
    out = []
    for f in FIELDS:
        v = getattr(n, f, "unset")
        if f == "args":
            v = tuple(_fields(a, tid) for a in v)
        elif f == "seg":
            v = v == tid
        elif isinstance(v, _Value):
            v = "an input"
        out.append(v)
    return tuple(out)


def _scalar_node(tr, x, v):
    return T.record_ufunc_scalar(tr, ATTR, F4, x, v, float, False)


def _input(tr):
    x = g.Node("array", (), (4,), F4, value=_Value())
    tr.record(x)
    return x


def _block(h, steps=6):
    """One `lazy(evaluate="numpy")` block of a few operations on `h` (LazyArrays and nodes made by
    the C operators)."""
    with cp.lazy(evaluate="numpy") as lz:
        y = lz.leaf(h)
        for _ in range(steps):
            y = y * 2.0 + y
        out = y
    return out


@native
def test_a_node_from_a_kept_one_is_a_new_node():
    tr = T.Trace()
    x = _input(tr)
    fresh = _fields(_scalar_node(tr, x, 2.0), tr.id)
    # Nodes with every field written, then freed: the next ones are made from their memory.
    for _ in range(50):
        tr2 = T.Trace()
        n = _scalar_node(tr2, _input(tr2), 3.0)
        n.value = _Value()
        n.weak = float
        ref = weakref.ref(n)
        del n, tr2
        assert ref() is None
    tr3 = T.Trace()
    again = _fields(_scalar_node(tr3, _input(tr3), 2.0), tr3.id)
    assert again == fresh
    assert "unset" not in str(again)


@native
def test_a_weak_reference_does_not_reach_a_reused_object():
    h = numpy.arange(4, dtype=numpy.float32)
    with cp.lazy(evaluate="numpy") as lz:
        a = lz.leaf(h) * 2.0
        node_ref, array_ref = weakref.ref(a._node), weakref.ref(a)
        del a
        assert array_ref() is None and node_ref() is None
        kept = [lz.leaf(h) * float(i) for i in range(20)]  # (made from the freed ones' memory)
        assert array_ref() is None and node_ref() is None
        assert all(type(k) is LazyArray for k in kept)
    assert [numpy.asarray(k).tolist() for k in kept[:3]] == [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 4, 6]]


@native
def test_class_references_stay_balanced_over_blocks():
    h = numpy.arange(8, dtype=numpy.float32)
    expect = numpy.asarray(_block(h))
    gc.collect()
    before = sys.getrefcount(g.Node), sys.getrefcount(LazyArray)
    for _ in range(300):
        got = _block(h)
    del got
    gc.collect()
    after = sys.getrefcount(g.Node), sys.getrefcount(LazyArray)  # (outside the assert: its rewriting holds what it reads)
    assert after == before
    numpy.testing.assert_array_equal(numpy.asarray(_block(h)), expect)


@native
def test_configuring_again_frees_the_kept_objects():
    h = numpy.arange(8, dtype=numpy.float32)
    for _ in range(5):
        _block(h)
    # The node class configured again (as the module does at import): what was kept is freed
    # through its class, and lazy mode goes on.
    _block(h, steps=2)  # (its structure's plan made, then predicted)
    _block(h, steps=2)
    gc.collect()
    before = sys.getrefcount(g.Node)
    g.native.configure(g.Node, T._S_ENTRY, T._PY_DTYPES, T.Trace.ufunc_scalar, T.Trace.ufunc)
    _block(h, steps=2)
    gc.collect()
    after = sys.getrefcount(g.Node)
    assert after == before
    numpy.testing.assert_array_equal(numpy.asarray(_block(h, steps=2)), h * 9)
