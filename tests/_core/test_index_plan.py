"""Index planning on the host (no device): the plan, applied to a NumPy array with the gather
kernel's arithmetic (`apply_plan_numpy`), must select what NumPy's own indexing selects."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cuarray._core import index_plan as ip


def _specs(items):
    out = []
    for it in items:
        if isinstance(it, (np.ndarray, list)) or isinstance(it, (bool, np.bool_)):
            a = np.asarray(it)
            out.append(ip.ArraySpec(a.shape, a.dtype == bool))
        else:
            out.append(it)
    return out


def _planned(x, index):
    items = ip.normalize_items(index)
    plan = ip.plan_index(x.shape, _specs(items))
    arrays = ip.index_arrays_numpy(plan, items)
    return ip.apply_plan_numpy(x, plan, arrays)


def _check(x, index):
    try:
        expected = x[index]
    except IndexError:
        with pytest.raises(IndexError):
            _planned(x, index)
        return
    got = _planned(x, index)
    assert np.shape(got) == expected.shape, (index, np.shape(got), expected.shape)
    np.testing.assert_array_equal(got, expected)


@st.composite
def index_cases(draw):
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim)))
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    items = []
    axis = 0
    used_ellipsis = False
    n_items = draw(st.integers(1, ndim + 2))
    for _ in range(n_items):
        kind = draw(st.sampled_from(["int", "slice", "none", "ell", "arr", "arr", "bool", "bool0", "arr0"]))
        n = shape[axis] if axis < ndim else 0
        if kind == "none":
            items.append(None)
            continue
        if kind == "ell":
            if not used_ellipsis:
                used_ellipsis = True
                items.append(Ellipsis)
            continue
        if kind == "bool0":
            items.append(draw(st.booleans()))
            continue
        if axis >= ndim:
            break
        if kind == "int":
            items.append(draw(st.integers(-n - 1, n)))
        elif kind == "slice":
            items.append(slice(draw(st.none() | st.integers(-5, 5)), draw(st.none() | st.integers(-5, 5)),
                               draw(st.none() | st.sampled_from([-2, -1, 1, 2]))))
        elif kind == "arr0":
            items.append(np.array(draw(st.integers(-n, max(n - 1, 0)))))
        elif kind == "arr":
            bshape = draw(st.sampled_from([(), (1,), (2,), (3,), (2, 1), (1, 3), (2, 3)]))
            lo = -n if n else 0
            hi = n - 1 if n else 0
            vals = draw(st.lists(st.integers(lo, hi), min_size=int(np.prod(bshape)), max_size=int(np.prod(bshape))))
            arr = np.array(vals, dtype=np.int64).reshape(bshape)
            items.append(arr if n or arr.size == 0 else arr)
        else:  # a boolean mask over the next k axes
            k = draw(st.integers(1, max(1, ndim - axis)))
            k = min(k, ndim - axis)
            mshape = shape[axis:axis + k]
            items.append(np.array(draw(st.lists(st.booleans(), min_size=int(np.prod(mshape)),
                                                max_size=int(np.prod(mshape)))), dtype=bool).reshape(mshape))
            axis += k - 1
        axis += 1
    return x, tuple(items) if draw(st.booleans()) or len(items) != 1 else items[0]


@settings(max_examples=600, deadline=None)
@given(index_cases())
def test_plan_matches_numpy(case):
    x, index = case
    _check(x, index)


@pytest.mark.parametrize("shape,index", [
    ((3, 4, 5), ([0], None, [0])),
    ((3, 4, 5), (slice(None), [0], None, [0])),
    ((3, 4, 5), (slice(None), [0], Ellipsis, [0])),
    ((3, 4, 5), (0, slice(None), [1, 2])),
    ((3, 4, 5), (slice(None), 0, [1, 2])),
    ((2, 3), (slice(None), True)),
    ((2, 3), (True, slice(None), 1)),
    ((2, 3), (0, True)),
    ((2, 3), (1, slice(None), True)),
    ((2, 3), (False,)),
    ((2, 3), ([0, 1], False)),
    ((2, 3), (np.ones((2, 3), bool),)),
    ((2, 3), (np.ones((2, 2), bool),)),
    ((2, 3), ([[0], [1]], [0, 2, 1])),
    ((2, 3, 4), (slice(None), np.array([[True, False, True, True]] * 3))),
    ((2, 3), ([0, 1, 2],)),
])
def test_plan_cases(shape, index):
    x = np.arange(int(np.prod(shape))).reshape(shape)
    _check(x, index)


def test_layout_front_vs_in_place():
    plan = ip.plan_index((3, 4, 5), [slice(None), ip.ArraySpec((2,), False), ip.ArraySpec((2,), False)])
    assert not plan.front and plan.adv_axes == (1, 2)
    assert plan.result_layout((3, 4, 5), (2,))[0] == (3, 2)
    plan = ip.plan_index((3, 4, 5), [ip.ArraySpec((2,), False), slice(None), ip.ArraySpec((2,), False)])
    assert plan.front and plan.result_layout((3, 4, 5), (2,))[0] == (2, 4)


def test_errors():
    with pytest.raises(IndexError, match="too many indices"):
        ip.plan_index((2,), [ip.ArraySpec((1,), False), 0])
    with pytest.raises(IndexError, match="boolean index did not match"):
        ip.plan_index((2, 3), [ip.ArraySpec((3,), True)])
    with pytest.raises(IndexError, match="could not be broadcast"):
        ip.plan_index((2, 3), [ip.ArraySpec((2,), False), ip.ArraySpec((3,), False)])
    with pytest.raises(IndexError, match="out of bounds"):
        ip.plan_index((2, 3), [ip.ArraySpec((2,), False), 5])
