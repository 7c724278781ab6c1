"""NumPy's argument errors of creation and shape routines on the fake device: the `copy` keyword as
NumPy reads it, and NumPy's 64-dimension limit wherever an array, a view or a shape is made."""

import numpy as np
import pytest

import cuarray as cp


def _same_error(np_call, cp_call):
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(type(want.value)) as got:
        cp_call()
    # (the first line: NumPy adds a migration note to copy=False's ValueError)
    assert str(got.value).splitlines()[0] == str(want.value).splitlines()[0]


_COPY_CALLS = {
    "reshape": lambda xp, a, c: xp.reshape(a, (2, 3), copy=c),
    "method": lambda xp, a, c: a.reshape(2, 3, copy=c),
    "method_tuple": lambda xp, a, c: a.reshape((3, 2), copy=c),
    "asarray": lambda xp, a, c: xp.asarray(a, copy=c),
    "asanyarray": lambda xp, a, c: xp.asanyarray(a, copy=c),
    "array": lambda xp, a, c: xp.array(a, copy=c),
}


@pytest.mark.parametrize("call", list(_COPY_CALLS.values()), ids=list(_COPY_CALLS))
@pytest.mark.parametrize("copy", ["yes", "", "never"])
def test_copy_keyword_refuses_strings(recorded_launches, call, copy):
    """The old code read a string by its truth: reshape(copy='yes') copied, asarray(copy='') did not."""
    _same_error(lambda: call(np, np.empty(6), copy), lambda: call(cp, cp.empty(6), copy))
    assert not recorded_launches


@pytest.mark.parametrize("copy", [0, 0.0, np.False_, [], np._CopyMode.NEVER], ids=repr)
def test_copy_keyword_false_like_values_forbid_a_copy(recorded_launches, copy):
    """NumPy reads `copy` by its truth (and its _CopyMode): a falsy value forbids a copy, as False.
    The old code tested `copy is False`: 0 or np.False_ copied silently."""
    _same_error(lambda: np.reshape(np.empty((2, 3)).T, (6,), copy=copy),
                lambda: cp.reshape(cp.empty((2, 3)).T, (6,), copy=copy))
    _same_error(lambda: np.asarray(np.empty(6), dtype=np.float32, copy=copy),
                lambda: cp.asarray(cp.empty(6), dtype=np.float32, copy=copy))
    a = cp.empty(6)
    assert cp.asarray(a, copy=copy) is a and cp.reshape(a, (2, 3), copy=copy).base is a
    assert not recorded_launches


def test_copy_keyword_array_ambiguous_truth(recorded_launches):
    _same_error(lambda: np.reshape(np.empty(6), (2, 3), copy=np.array([1, 2])),
                lambda: cp.reshape(cp.empty(6), (2, 3), copy=np.array([1, 2])))


_ONE = (1,) * 64
_TOO_MANY = {
    "reshape": lambda xp: xp.empty(1).reshape((1,) * 65),
    "reshape_copy": lambda xp: xp.empty(1).reshape((1,) * 65, copy=True),
    "shape_setter": lambda xp: setattr(xp.empty(1), "shape", (1,) * 65),
    "expand_dims": lambda xp: xp.expand_dims(xp.empty(_ONE), 0),
    "newaxis": lambda xp: xp.empty(_ONE)[..., None],
    "broadcast_to": lambda xp: xp.broadcast_to(xp.empty(1), (1,) * 65),
    "broadcast_to_2": lambda xp: xp.broadcast_to(xp.empty(_ONE), (2,) * 65),
    "broadcast_shapes": lambda xp: xp.broadcast_shapes((1,) * 65, (1,)),
    "broadcast_shapes_one": lambda xp: xp.broadcast_shapes((1,) * 65),
    "as_strided": lambda xp: xp.lib.stride_tricks.as_strided(xp.empty(1), (1,) * 65, (8,) * 65),
    "sliding_window_view": lambda xp: xp.lib.stride_tricks.sliding_window_view(xp.empty(_ONE), _ONE),
    "stack": lambda xp: xp.stack([xp.empty(_ONE)]),
    "stack_last": lambda xp: xp.stack([xp.empty(_ONE)], axis=-1),
    "resize": lambda xp: xp.resize(xp.empty(1), (1,) * 65),
    "ndmin": lambda xp: xp.array(xp.empty(1), ndmin=65, copy=None),
    "unravel_index": lambda xp: xp.unravel_index(0, (1,) * 65),
    "ravel_multi_index": lambda xp: xp.ravel_multi_index([[0]] * 65, (1,) * 65),
    "ix_": lambda xp: xp.ix_(*[[0]] * 65),
    "tensordot": lambda xp: xp.tensordot(xp.empty((1,) * 33), xp.empty((1,) * 33), 0),
    "outer": lambda xp: xp.multiply.outer(xp.empty((1,) * 33), xp.empty((1,) * 32)),
}


@pytest.mark.parametrize("call", list(_TOO_MANY.values()), ids=list(_TOO_MANY))
def test_more_than_64_dimensions_everywhere(recorded_launches, call):
    """NumPy refuses a 65th dimension wherever one would be made. The old code made 65-dim views
    (broadcast_to, as_strided, the shape setter), broadcast 65-dim shapes, and reached the device
    (a copy, an upload) before refusing in reshape(copy=True), resize, ix_, unravel_index and
    tensordot."""
    with pytest.raises((ValueError, IndexError)) as want:
        call(np)
    with pytest.raises(type(want.value)) as got:
        call(cp)
    if "outer" not in str(want.value):  # (NumPy's ufunc.outer names itself: "... but `multiply.outer()` ...")
        assert str(got.value) == str(want.value)
    assert not recorded_launches


def test_64_dimensions_still_work(recorded_launches):
    assert cp.broadcast_to(cp.empty(1), _ONE).shape == _ONE
    assert (cp.empty(_ONE) + cp.empty(1)).ndim == 64  # (broadcasting in operations takes 64 dims)
    assert cp.empty(1).reshape(_ONE).ndim == 64
    assert cp.lib.stride_tricks.as_strided(cp.empty(1), _ONE, (8,) * 64).ndim == 64
    assert cp.array(cp.empty(1), ndmin=64, copy=None).ndim == 64


_LEGACY_ITER = {
    "broadcast_shapes": lambda xp: xp.broadcast_shapes((1,) * 33, (1,)),
    "broadcast_shapes_64": lambda xp: xp.broadcast_shapes(_ONE),
    "broadcast_arrays": lambda xp: xp.broadcast_arrays(xp.empty((1,) * 33), xp.empty(1)),
    "broadcast": lambda xp: xp.broadcast(xp.empty((1,) * 40), xp.empty(1)),
}


@pytest.mark.parametrize("call", list(_LEGACY_ITER.values()), ids=list(_LEGACY_ITER))
def test_broadcast_functions_take_32_dimensions_as_numpy(recorded_launches, call):
    """NumPy's broadcast, broadcast_shapes and broadcast_arrays go through its legacy iterator: a
    shape past 32 dimensions is a RuntimeError there (operations take 64). cuarray answered."""
    _same_error(lambda: call(np), lambda: call(cp))
    assert cp.broadcast_shapes((1,) * 32, (3,)) == np.broadcast_shapes((1,) * 32, (3,))
