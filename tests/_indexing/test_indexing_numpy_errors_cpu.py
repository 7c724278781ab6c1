"""NumPy's errors for `put`, `take`, `take_along_axis`/`put_along_axis` and `a.flat[...]` where they
depend on the arguments only (host indices, keys, dtypes, shapes): raised before anything reaches
the device, so the fake device checks them against NumPy (the installed one: CI runs 2.4 and 2.5)."""

import warnings

import numpy as np
import pytest

import cuarray as cp
from cuarray._indexing.flatiter import flat_key


def _same_error(np_call, cp_call):
    """Both raise the same exception type (NumPy's message for cuarray's where they are NumPy's)."""
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(type(want.value)) as got:
        cp_call()
    return str(want.value), str(got.value)


# -- put ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(7,), (2, 3), (4, 3, 2), ()], ids=str)
@pytest.mark.parametrize("ind", [[2, -1, 3, 24], [2, -25], 24, -25, np.int64(24), np.array([[0], [24]])],
                         ids=["list_hi", "list_lo", "int_hi", "int_lo", "npint", "2d"])
@pytest.mark.parametrize("call", ["function", "method"])
def test_put_out_of_bounds_raises_at_the_call(recorded_launches, shape, ind, call):
    def run(xp):
        a = xp.empty(shape)
        v = xp.empty(2)
        return xp.put(a, ind, v, mode="raise") if call == "function" else a.put(ind, v)

    want, got = _same_error(lambda: run(np), lambda: run(cp))
    assert got == want


def test_put_on_views_and_fortran_order_checks_first(recorded_launches):
    for make in (lambda xp: xp.empty((3, 4), order="F"), lambda xp: xp.empty((3, 4)).T, lambda xp: xp.empty((4, 6))[:, ::2]):
        want, got = _same_error(lambda: np.put(make(np), [12], 1.0), lambda: cp.put(make(cp), [12], 1.0))
        assert got == want
    assert not recorded_launches  # (nothing copied for an index that fails)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_put_device_uint8_indices_into_a_larger_array(recorded_launches, mode):
    """Device uint8 indices with wrap/clip into 300 elements: NumPy's intp indices, no OverflowError
    of 300 (299) as a uint8 (the old code's idx % 300 under NEP 50: the fuzzer's put into a
    transposed (5, 4, 5, 3) array)."""
    from cuarray._indexing.inserting import _apply_mode

    idx = _apply_mode(cp.empty(6, np.uint8), 300, mode)
    assert idx.dtype == np.intp and idx.shape == (6,)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_empty_values_write_nothing_and_check_nothing(recorded_launches, mode):
    """NumPy returns before it reads an index when there are no values (the old code raised
    IndexError for mode='raise')."""
    a = cp.empty(6)
    for xp, arr, vals in ((np, np.zeros(6), np.empty(0)), (cp, a, cp.empty(0))):
        assert xp.put(arr, [7, -9], vals, mode=mode) is None
    assert not recorded_launches


def test_put_argument_order_is_numpys(recorded_launches):
    """The mode first, then an empty `a`, each before the values or the bounds."""
    for a, ind, mode in ((0, [1], "x"), (0, [], "x"), (3, [7], "x"), (0, [1], "raise"), (0, [1], "wrap")):
        want, got = _same_error(lambda: np.put(np.zeros(a), ind, np.ones(1), mode=mode),
                                lambda: cp.put(cp.empty(a), ind, cp.empty(1), mode=mode))
        assert got == want


# -- take, take_along_axis, put_along_axis ----------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.take(a, [7]), lambda xp, a: xp.take(a, -7), lambda xp, a: xp.take(a, [[0], [-7]]),
    lambda xp, a: xp.take(a, [3], axis=1), lambda xp, a: a.take(-4, axis=1),
    lambda xp, a: xp.take_along_axis(a, np.array([[0, 3]]), 1), lambda xp, a: xp.take_along_axis(a, np.array([[-3]]), 0),
    lambda xp, a: xp.take_along_axis(a, np.array([6]), None),
    lambda xp, a: xp.put_along_axis(a, np.array([[3]]), 1.0, 1), lambda xp, a: xp.put_along_axis(a, np.array([[-3]]), 1.0, 0),
], ids=["take", "take_scalar", "take_2d", "take_axis", "method_axis", "along_hi", "along_lo", "along_none",
        "put_along_hi", "put_along_lo"])
def test_host_indices_raise_at_the_call(recorded_launches, call):
    """Host index arrays of take_along_axis/put_along_axis were uploaded first: their IndexError came
    at the next synchronisation (a device check), NumPy's comes at the call."""
    want, got = _same_error(lambda: call(np, np.empty((2, 3))), lambda: call(cp, cp.empty((2, 3))))
    assert got == want
    assert not recorded_launches


_OUT_DTYPES = [np.dtype(c) for c in "?bhilBHIefdFD"]


@pytest.mark.parametrize("a_dt", _OUT_DTYPES, ids=str)
def test_take_out_dtype_as_the_numpy_installed(recorded_launches, a_dt):
    """NumPy 2.4 refuses an `out` that would not cast back safely to `a`'s dtype (TypeError, before
    any index is read); NumPy 2.5 takes any `out`, with a DeprecationWarning across kinds. The old
    code cast silently (2.5 without its warning, 2.4 without its error)."""
    for out_dt in _OUT_DTYPES:
        outcome = []
        for xp in (np, cp):
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                try:
                    xp.take(xp.empty(4, a_dt), [0, 9], out=xp.empty(2, out_dt))
                    err = None
                except (TypeError, IndexError) as e:
                    err = type(e).__name__
            outcome.append((err, [str(w.message) for w in seen if issubclass(w.category, DeprecationWarning)]))
        assert outcome[1] == outcome[0], (a_dt, out_dt)


def test_take_out_checks_come_first(recorded_launches):
    for out in (lambda xp: xp.empty(3), lambda xp: [0, 0]):
        want, got = _same_error(lambda: np.take(np.empty(4), [0, 9], out=out(np)),
                                lambda: cp.take(cp.empty(4), [0, 9], out=out(cp)))
        assert got == want


# (a, indices, keywords): each check before the next in NumPy's order. NumPy's argument parser
# (`out` an array, the mode), the axis, the indices, `out`'s shape, then an empty axis
_TAKE_ORDER = [
    ((0, 3, 3), [0, 2], dict(axis=0, out=lambda xp: xp.empty(5, np.uint8))),   # shape before empty axis
    ((4, 1, 3, 0), [1, 0, 2], dict(mode="bogus")),                             # mode before empty axis
    ((0,), [1], dict(axis=3, mode="bogus")),                                   # mode before axis
    ((0,), [1], dict(mode="bogus", out=lambda xp: [0])),                       # out an array before mode
    ((0,), [1], dict(axis=2, out=lambda xp: xp.empty(7))),                     # axis before out's shape
    ((0,), np.array([0.5]), dict(out=lambda xp: xp.empty(7))),                 # indices before out's shape
    ((0,), [1], dict(out=lambda xp: xp.empty(1))),                             # then the empty axis
]


@pytest.mark.parametrize("case", _TAKE_ORDER, ids=["out_shape", "mode", "mode_axis", "out_type", "axis_out",
                                                   "indices_out", "empty_axis"])
def test_take_checks_in_numpys_order(recorded_launches, case):
    """The empty axis's IndexError came first, before the mode and `out`'s shape."""
    shape, ind, kw = case

    def run(xp):
        k = {n: (v(xp) if callable(v) else v) for n, v in kw.items()}
        return xp.take(xp.empty(shape), ind, **k)

    want, got = _same_error(lambda: run(np), lambda: run(cp))
    assert got == want


@pytest.mark.parametrize("mode", ["clip", "wrap"])
@pytest.mark.parametrize("shape,axis", [((0, 0, 1), 0), ((2, 0, 0), 1), ((0, 4), 1)], ids=str)
def test_take_from_an_empty_axis_into_an_empty_result(recorded_launches, mode, shape, axis):
    """clip and wrap read no index when the result is empty (the old code raised the non-empty
    take's IndexError). NumPy 2.4's wrap loops forever on a trailing empty axis: 2.5's answer,
    which clip gives in both."""
    ind = [0, 2, -1]
    want = np.take(np.empty(shape), ind, axis=axis, mode="clip")
    for method in (False, True):
        a = cp.empty(shape)
        got = a.take(ind, axis=axis, mode=mode) if method else cp.take(a, ind, axis=axis, mode=mode)
        assert (got.shape, got.dtype) == (want.shape, want.dtype)
    assert not recorded_launches


def test_put_along_axis_converts_the_values_before_the_bounds(recorded_launches):
    """NumPy's assignment converts the values before it checks the indices' bounds (a complex value
    into an integer array: TypeError, not the IndexError of an index past an empty axis)."""
    for a, ind, v in (((0, 7), np.zeros((2, 7), int), 1.5 + 0.5j), ((3, 4), np.full((1, 4), 5), 1.5 + 0.5j),
                      ((3, 4), np.full((1, 4), 5), None), ((0, 7), np.zeros((2, 7), int), 1.5)):
        want, got = _same_error(lambda: np.put_along_axis(np.zeros(a, np.uint8), ind, v, 0),
                                lambda: cp.put_along_axis(cp.empty(a, np.uint8), ind, v, 0))
        assert got == want
    assert not recorded_launches


# -- a.flat[key] ------------------------------------------------------------------------------------
_BAD_KEYS = {"none": None, "tuple2": (1, 2), "tuple3": (1, 2, 3), "tuple_none": (None,), "tuple_int_ell": (1, Ellipsis),
             "tuple_ell_int": (Ellipsis, 1), "tuple_slice_none": (slice(None), None), "str": "a",
             "bool2d": (np.arange(12) % 2 == 0).reshape(3, 4), "bool_short": np.array([True, False]),
             "bool_list": [True, False] * 6, "np_bool": np.True_, "bool_tuple": (True,), "float_array": np.array([1.0]),
             "two_arrays": (np.array([1, 2]), np.array([1])), "list_none": [None]}


@pytest.mark.parametrize("key", list(_BAD_KEYS.values()), ids=list(_BAD_KEYS))
@pytest.mark.parametrize("order", ["C", "F"])
def test_flat_refuses_what_numpy_refuses(recorded_launches, key, order):
    """`a.flat[None]` was a view with a new axis, `(1, ...)` an element, a list of bools a mask."""
    want, got = _same_error(lambda: np.empty((3, 4), order=order).flat[key],
                            lambda: cp.empty((3, 4), order=order).flat[key])
    assert got == want
    want, got = _same_error(lambda: np.empty((3, 4), order=order).flat.__setitem__(key, 1.0),
                            lambda: cp.empty((3, 4), order=order).flat.__setitem__(key, 1.0))
    assert got == want


@pytest.mark.parametrize("key", [(), (Ellipsis,)], ids=["empty_tuple", "ellipsis_tuple"])
def test_flat_zero_d_key_reads_but_does_not_assign(recorded_launches, key):
    a, h = cp.empty((3, 4)), np.empty((3, 4))
    assert a.flat[key].shape == h.flat[key].shape == (12,)
    want, got = _same_error(lambda: h.flat.__setitem__(key, 1.0), lambda: a.flat.__setitem__(key, 1.0))
    assert got == want


@pytest.mark.parametrize("key", [True, False, 1.0, np.float64(2.0), np.array(True), [1.0, 2.0]],
                         ids=["true", "false", "float", "np_float", "0d_bool", "float_list"])
def test_flat_deprecated_keys_warn_as_numpy(key):
    """NumPy 2.4 deprecated bool and float keys of a flat iterator: it warns and still selects."""
    h = np.arange(12.0).reshape(3, 4)
    with pytest.warns(DeprecationWarning) as want:
        expect = h.flat[key]
    with pytest.warns(DeprecationWarning) as got:
        k = flat_key(key, 12, False)
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    np.testing.assert_array_equal(h.ravel()[k], expect)


@pytest.mark.parametrize("key", [3, -1, slice(1, 5), slice(None, None, -2), Ellipsis, (2,), (slice(1, 3),), [1, 2],
                                 [[1, 2]], [], np.array([[1, 2], [3, 4]]), np.arange(12) % 3 == 0, np.int8(3),
                                 (np.array([1, 2]),), np.array(3)],
                         ids=["int", "neg", "slice", "step", "ellipsis", "tuple_int", "tuple_slice", "list",
                              "nested", "empty", "2d", "mask", "npint", "tuple_array", "0d"])
def test_flat_keys_numpy_takes_select_the_same(key):
    h = np.arange(12.0).reshape(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(h.ravel()[flat_key(key, 12, False)], h.flat[key])
