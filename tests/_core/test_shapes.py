"""cuarray._core.shapes against NumPy (the oracle), mostly property-based."""

import itertools
import math
import timeit

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError
from numpy.lib import array_utils

from cuarray._core import shapes as S

SETTINGS = settings(max_examples=200, deadline=None)

dims = st.integers(0, 4)
shapes = st.lists(dims, min_size=0, max_size=4).map(tuple)
itemsizes = st.sampled_from([1, 2, 4, 8, 16])
_DT = {1: np.int8, 2: np.float16, 4: np.float32, 8: np.float64, 16: np.complex128}


def _outcome(fn):
    try:
        return fn()
    except (ValueError, IndexError, TypeError) as exc:
        return (type(exc), str(exc))


def _np_index(view, index):
    """``view[index]`` as an array view (a trailing ``...`` keeps 0-d results arrays)."""
    index = index if isinstance(index, tuple) else (index,)
    if not any(item is Ellipsis for item in index):
        index = index + (Ellipsis,)
    return view[index]


def _offset(view):
    base = view
    while base.base is not None:
        base = base.base
    return view.__array_interface__["data"][0] - base.__array_interface__["data"][0]


@st.composite
def views(draw, max_ndim=4, allow_broadcast=True):
    """Arbitrary strided NumPy views: steps (incl. negative), transposes, broadcasts."""
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=0, max_size=max_ndim)))
    base = np.empty(shape, _DT[draw(itemsizes)])
    if draw(st.booleans()):
        base = base if base.ndim < 2 else np.asfortranarray(base)
    index = []
    for n in shape:
        step = draw(st.sampled_from([1, 1, 1, 2, 3, -1, -2]))
        start = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
        stop = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
        index.append(slice(start, stop, step))
    view = base[tuple(index) + (Ellipsis,)]  # the ellipsis keeps 0-d results arrays
    view = view.transpose(draw(st.permutations(range(view.ndim))))
    if allow_broadcast and draw(st.booleans()):
        extra = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
        target = extra + tuple(draw(st.integers(1, 3)) if d == 1 else d for d in view.shape)
        view = np.broadcast_to(view, target)
    return view


# ----------------------------------------------------------------------------- broadcasting

@SETTINGS
@given(st.lists(st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=4).map(tuple), max_size=4))
def test_broadcast_shapes(shape_list):
    assert _outcome(lambda: S.broadcast_shapes(*shape_list)) == \
        _outcome(lambda: np.broadcast_shapes(*shape_list))
    assert _outcome(lambda: S.broadcast_shapes(*shape_list)) == \
        _outcome(lambda: np.broadcast_shapes(*shape_list))  # memoised


def test_broadcast_shapes_messages():
    for args in [((2, 3), (4,)), ((2, 3), (1,), (4,)), ((2, 3), (3,), (4, 5, 3), (7, 1, 1)),
                 (3, (3,)), ([2, 3], (3,)), ((-1,), (3,)), ()]:
        assert _outcome(lambda: S.broadcast_shapes(*args)) == \
            _outcome(lambda: np.broadcast_shapes(*args)), args
    assert S.broadcast_shapes((1000,), (1000,)) == (1000,)


@SETTINGS
@given(views(), st.lists(st.sampled_from([0, 1, 2, 3]), max_size=2), st.data())
def test_broadcast_to_strides(view, extra, data):
    target = tuple(extra) + tuple(data.draw(st.sampled_from([d, d, 1, 2, 3])) for d in view.shape)
    expected = _outcome(lambda: np.broadcast_to(view, target).strides)
    got = _outcome(lambda: S.broadcast_to_strides(view.shape, view.strides, target))
    assert got == expected


def test_broadcast_to_messages():
    a = np.ones((2, 3))
    for target in [(4,), (4, 3), (3,), (-1, 3), (2, 0), 5]:
        assert _outcome(lambda: S.broadcast_to_strides(a.shape, a.strides, target)) == \
            _outcome(lambda: np.broadcast_to(a, target).strides), target


# ----------------------------------------------------------------------------- axes

@SETTINGS
@given(st.integers(-6, 6), st.integers(0, 5), st.sampled_from([None, "axis", "foo"]))
def test_normalize_axis_index(axis, ndim, prefix):
    def run(fn):
        try:
            return fn(axis, ndim, prefix)
        except AxisError as exc:
            return (type(exc), str(exc))
    assert run(S.normalize_axis_index) == run(array_utils.normalize_axis_index)


def test_normalize_axis_index_types():
    assert S.normalize_axis_index(np.int64(-1), 3) == 2
    assert S.normalize_axis_index(True, 3) == 1
    assert _outcome(lambda: S.normalize_axis_index(1.0, 3)) == \
        _outcome(lambda: array_utils.normalize_axis_index(1.0, 3))


@SETTINGS
@given(st.one_of(st.integers(-4, 4), st.lists(st.integers(-4, 4), max_size=4).map(tuple),
                 st.lists(st.integers(-4, 4), max_size=3)),
       st.integers(0, 4), st.sampled_from([None, "axes"]), st.booleans())
def test_normalize_axis_tuple(axis, ndim, argname, allow_duplicate):
    def run(fn):
        try:
            return fn(axis, ndim, argname, allow_duplicate)
        except (AxisError, ValueError, TypeError) as exc:
            return (type(exc), str(exc))
    assert run(S.normalize_axis_tuple) == run(array_utils.normalize_axis_tuple)


def test_normalize_axis_tuple_odd_inputs():
    for axis in [1.5, None, np.array(1), np.array([1, 0]), range(2)]:
        assert _outcome(lambda: S.normalize_axis_tuple(axis, 2)) == \
            _outcome(lambda: array_utils.normalize_axis_tuple(axis, 2)), axis


# ----------------------------------------------------------------------------- contiguity

@SETTINGS
@given(shapes, itemsizes)
def test_c_f_strides(shape, itemsize):
    # A size-0 *view* (reshape) shows the fill rule; fresh size-0 arrays report zeros.
    flat = np.empty((1,) * 5 + (math.prod(shape),), _DT[itemsize])  # never the same shape
    assert S.c_strides(shape, itemsize) == flat.reshape(shape).strides
    assert S.f_strides(shape, itemsize) == flat.reshape(shape, order="F").strides \
        or len(shape) <= 1
    if math.prod(shape):
        assert S.c_strides(shape, itemsize) == np.empty(shape, _DT[itemsize]).strides
        assert S.f_strides(shape, itemsize) == np.empty(shape, _DT[itemsize], order="F").strides


@SETTINGS
@given(views())
def test_contiguity_flags(view):
    args = (view.shape, view.strides, view.itemsize)
    assert S.is_c_contiguous(*args) == view.flags.c_contiguous
    assert S.is_f_contiguous(*args) == view.flags.f_contiguous


@SETTINGS
@given(views())
def test_k_order_strides(view):
    assert S.k_order_strides(view.shape, view.strides, view.itemsize) == \
        np.empty_like(view, order="K").strides


# ----------------------------------------------------------------------------- reshape

@SETTINGS
@given(st.integers(0, 24), st.one_of(st.integers(-2, 24),
                                     st.lists(st.integers(-2, 6), max_size=4).map(tuple)))
def test_reshape_size(size, new_shape):
    assert _outcome(lambda: S.reshape_size(new_shape, size)) == \
        _outcome(lambda: np.empty(size).reshape(new_shape).shape)


def test_reshape_size_messages():
    cases = [(6, 4), (6, (4, -1)), (6, (-1, -1)), (6, (-2, 3)), (6, (-1, 0)), (0, (-1, 0)),
             (0, (-1, 5)), (0, (-1, 0, 5)), (6, ()), (1, ()), (1, (-1,)), (6, [2, 3]),
             (6, (np.int64(2), 3)), (6, (2.0, 3)), (6, (2**62, 2**62)), (6, (-1, 2**62, 2**62)),
             (6, (-1, 2**64)), (0, (-1, 2**62, 2**62)), (0, (0, 2**62, 2**62))]
    for size, new_shape in cases:
        assert _outcome(lambda: S.reshape_size(new_shape, size)) == \
            _outcome(lambda: np.empty(size, np.int8).reshape(new_shape).shape), (size, new_shape)


@st.composite
def new_shapes(draw, size):
    """A random shape with ``size`` elements, sprinkled with length-1 dims."""
    if size == 0:
        out = draw(st.lists(st.integers(0, 4), min_size=1, max_size=4))
        out[draw(st.integers(0, len(out) - 1))] = 0
        return tuple(out)
    factors = []
    n, p = size, 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    factors = draw(st.permutations(factors))
    out, i = [], 0
    while i < len(factors):
        k = draw(st.integers(1, 2))
        out.append(math.prod(factors[i:i + k]))
        i += k
    for _ in range(draw(st.integers(0, 2))):
        out.insert(draw(st.integers(0, len(out))), 1)
    return tuple(out)


@settings(max_examples=400, deadline=None)
@given(views(), st.sampled_from(["C", "F", "A"]), st.data())
def test_reshape_strides(view, order, data):
    new_shape = data.draw(new_shapes(view.size))
    try:
        expected = np.reshape(view, new_shape, order=order, copy=False).strides
    except ValueError:
        expected = None
    assert S.reshape_strides(view.shape, view.strides, view.itemsize, new_shape, order) == expected


def test_reshape_strides_examples():
    # A transposed contiguous array flattens without copying only in F order.
    assert S.reshape_strides((4, 3), (8, 32), 8, (12,), "C") is None
    assert S.reshape_strides((4, 3), (8, 32), 8, (12,), "F") == (8,)
    # A broadcast array splits its zero-stride axis.
    assert S.reshape_strides((4, 3), (0, 8), 8, (2, 2, 3), "C") == (0, 0, 8)
    assert S.reshape_strides((4, 3), (0, 8), 8, (12,), "C") is None
    # Negative strides are fine within a group.
    a = np.empty((6, 4))[::-1, ::-2]
    assert S.reshape_strides(a.shape, a.strides, 8, (3, 2, 2), "C") == \
        a.reshape(3, 2, 2, copy=False).strides


# ----------------------------------------------------------------------------- basic indexing

_INDEX_ITEM = st.one_of(
    st.integers(-6, 6),
    st.integers(-6, 6).map(np.intp),
    st.builds(slice, st.one_of(st.none(), st.integers(-7, 7)),
              st.one_of(st.none(), st.integers(-7, 7)),
              st.one_of(st.none(), st.sampled_from([1, 2, 3, -1, -2, -3]))),
    st.just(slice(None)), st.just(None), st.just(Ellipsis),
)


@SETTINGS
@given(views(allow_broadcast=False),
       st.one_of(_INDEX_ITEM, st.lists(_INDEX_ITEM, max_size=5).map(tuple)))
def test_basic_index(view, index):
    try:
        res = _np_index(view, index)
        expected = (res.shape, res.strides, _offset(res) - _offset(view))
    except (IndexError, ValueError, TypeError) as exc:
        expected = (type(exc), str(exc))
    got = _outcome(lambda: S.basic_index(view.shape, view.strides, index))
    assert got == expected


def test_basic_index_errors():
    a = np.ones((3, 4))
    cases = [5, -4, (0, 7), (0, 0, 0), (Ellipsis, 0, 0, 0), (Ellipsis, Ellipsis),
             slice(None, None, 0), 1.0, (1.0, 0), "a", slice(0, 1.5), np.float64(1), 2**70,
             (0, "x"), {}, object(), slice(1.0, None)]
    for index in cases:
        assert _outcome(lambda: S.basic_index(a.shape, a.strides, index)) == \
            _outcome(lambda: a[index]), index
    assert _outcome(lambda: S.basic_index((3,), (8,), (0, 0))) == _outcome(lambda: np.ones(3)[0, 0])
    assert _outcome(lambda: S.basic_index((), (), 0)) == _outcome(lambda: np.ones(())[0])
    # NumPy's 64-dimension limit on the result.
    b = np.ones((2, 2))
    for index in [(None,) * 63 + (0, 0), (None,) * 64 + (0, 0), (None,) * 62]:
        expected = _outcome(lambda: (b[index].shape, b[index].strides, 0))
        assert _outcome(lambda: S.basic_index(b.shape, b.strides, index)) == expected


class _Index:
    def __index__(self):
        return 1


def test_basic_index_special_items():
    a = np.empty((3, 4))
    for index in [_Index(), (0, _Index()), slice(_Index(), None), slice(True, None),
                  np.int8(1), (), Ellipsis, (Ellipsis, None), slice(None, None, 2**70),
                  slice(0, 2**70)]:
        res = _np_index(a, index)
        assert S.basic_index(a.shape, a.strides, index) == \
            (res.shape, res.strides, _offset(res)), index
    assert S.basic_index((), (), ()) == ((), (), 0)
    assert S.basic_index((), (), Ellipsis) == ((), (), 0)


@pytest.mark.parametrize("index", [
    [0, 1], True, False, np.bool_(True), (0, True), np.array([0]), np.array(1), (0, [0, 0]),
    (slice(None), np.array([True, False, True, True])), ((0, 1),),
], ids=repr)
def test_basic_index_advanced(index):
    with pytest.raises(S.AdvancedIndexRequired):
        S.basic_index((3, 4), (32, 8), index)


def test_basic_index_invalid_beats_advanced():
    # NumPy rejects a float anywhere in the index, even next to an advanced item.
    a = np.ones((3, 4))
    assert _outcome(lambda: S.basic_index(a.shape, a.strides, ([0], 1.0))) == \
        _outcome(lambda: a[[0], 1.0])


# ----------------------------------------------------------------------------- collapsing

def _visits(shape, strides_list):
    """Sorted tuples of each operand's byte offset, over all elements."""
    out = []
    for idx in itertools.product(*(range(d) for d in shape)):
        out.append(tuple(sum(i * s for i, s in zip(idx, st_)) for st_ in strides_list))
    return sorted(out)


@SETTINGS
@given(views(max_ndim=4), st.data())
def test_collapse_dims_visits_same_elements(view, data):
    # Output: a new K-ordered array; inputs: the view and a broadcast/transposed peer.
    out_strides = np.empty_like(view, order="K").strides
    other = np.empty(view.shape[::-1], np.float32).T
    strides_list = (out_strides, view.strides, other.strides)
    shape, collapsed = S.collapse_dims(view.shape, strides_list)
    assert all(len(s) == len(shape) for s in collapsed)
    assert math.prod(shape) == view.size
    assert all(d != 1 for d in shape)
    if view.size:
        assert _visits(shape, collapsed) == _visits(view.shape, strides_list)
    else:
        assert shape == (0,)


@SETTINGS
@given(st.lists(st.integers(1, 4), min_size=0, max_size=5).map(tuple), itemsizes, st.data())
def test_collapse_dims_contiguous_is_flat(shape, itemsize, data):
    size = math.prod(shape)
    c = S.c_strides(shape, itemsize)
    f = S.f_strides(shape, itemsize)
    expect = ((size,), ((itemsize,),) * 2) if size > 1 else ((), ((),) * 2)
    assert S.collapse_dims(shape, (c, c)) == expect
    assert S.collapse_dims(shape, (f, f)) == expect
    # `a.T * 2` on a contiguous `a`: output in 'K' order is the same layout.
    perm = data.draw(st.permutations(range(len(shape))))
    t_shape = tuple(shape[p] for p in perm)
    t_strides = tuple(c[p] for p in perm)
    k = S.k_order_strides(t_shape, t_strides, itemsize)
    assert S.collapse_dims(t_shape, (k, t_strides)) == expect


def test_collapse_dims_examples():
    assert S.collapse_dims((2, 0, 3), ((24, 24, 8), (0, 0, 0))) == ((0,), ((0,), (0,)))
    assert S.collapse_dims((), ((), ())) == ((), ((), ()))
    assert S.collapse_dims((1, 1), ((8, 8), (8, 8))) == ((), ((), ()))
    # Broadcast row: the broadcast operand keeps the outer axis apart.
    assert S.collapse_dims((3, 4), ((32, 8), (0, 8))) == ((3, 4), ((32, 8), (0, 8)))
    # A list of strides is accepted.
    assert S.collapse_dims((3, 4), [(32, 8), (32, 8)]) == ((12,), ((8,), (8,)))


# ----------------------------------------------------------------------------- cost

def test_print_per_call_costs():
    n = 200_000
    cases = {
        "broadcast_shapes((1000,), (1000,))": lambda: S.broadcast_shapes((1000,), (1000,)),
        "broadcast_shapes((3, 1), (4,))": lambda: S.broadcast_shapes((3, 1), (4,)),
        "collapse_dims 2-D, 3 operands":
            lambda: S.collapse_dims((30, 40), ((320, 8), (320, 8), (0, 8))),
        "is_c_contiguous 3-D": lambda: S.is_c_contiguous((2, 3, 4), (96, 32, 8), 8),
        "basic_index a[3]": lambda: S.basic_index((10, 4), (32, 8), 3),
        "basic_index a[:, 1:3]":
            lambda: S.basic_index((10, 4), (32, 8), (slice(None), slice(1, 3))),
    }
    for name, fn in cases.items():
        fn()
        t = min(timeit.repeat(fn, number=n, repeat=3)) / n
        print(f"{name}: {t * 1e9:.0f} ns/call")


@pytest.mark.parametrize("shape,order", [((4, 5), "C"), ((3, 4, 5), "F"), ((2, 6, 3), "C"), ((0, 3), "C")])
def test_diagonal_layout_matches_numpy(shape, order):
    # One geometry serves diagonal, trace and diag: shape, strides and the offset of element 0.
    from cuarray._core import shapes

    h = np.zeros(shape, order=order)
    nd = len(shape)
    for off in (-3, -1, 0, 1, 2, 7):
        for a1, a2 in ((0, 1), (1, 0), (-1, 0)):
            if a1 % nd == a2 % nd:
                continue
            d = np.diagonal(h, off, a1, a2)
            s, st, start = shapes.diagonal(h.shape, h.strides, off, a1, a2)
            assert s == d.shape
            if d.size:
                assert st == d.strides
                assert start == d.__array_interface__["data"][0] - h.__array_interface__["data"][0]
    with pytest.raises(ValueError, match="at least two"):
        shapes.diagonal((3,), (8,))
    with pytest.raises(ValueError, match="cannot be the same"):
        shapes.diagonal((3, 3), (24, 8), 0, 1, -1)
    with pytest.raises(AxisError):
        shapes.diagonal((3, 3), (24, 8), 0, 0, 2)
