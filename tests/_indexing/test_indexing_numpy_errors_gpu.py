"""The device halves of NumPy's errors in put/take/flat (their host halves: test_indexing_numpy_errors_cpu.py):
a device index out of range in `put` (a scatter: its IndexError at the next synchronisation, naming
put), take's `out` of another dtype (the values NumPy writes), the keys `a.flat` takes (values,
assignment's cycling), and poly1d's power of a float."""

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray as cp  # noqa: E402

rng = np.random.default_rng()


@pytest.mark.parametrize("shape", [(7,), (2, 3), (4, 3, 2)], ids=str)
@pytest.mark.parametrize("ind", [[2, -1, 3, 1000], [2, -1000, 3, 0]], ids=["over", "under"])
@pytest.mark.parametrize("call", ["function", "method", "fortran"])
def test_put_device_indices_out_of_range_raise_at_the_next_sync(shape, ind, call):
    """NumPy raises at the call; a device index is checked by the scatter, its IndexError raised
    by the next synchronisation with the operation named (docs/differences.md, deferred errors)."""
    cp.check_index_errors()
    with pytest.raises(IndexError):
        np.put(np.zeros(shape), ind, np.ones(4))
    a = cp.zeros(shape, order="F" if call == "fortran" else "C")
    idx, v = cp.asarray(np.array(ind)), cp.asarray(np.ones(4))
    assert (a.put(idx, v) if call == "method" else cp.put(a, idx, v)) is None
    size = int(np.prod(shape))
    bad = [i for i in ind if not -size <= i < size][0]
    msg = r"index {} is out of bounds for axis 0 with size {} \(found on the device in a scatter \(x\[idx\] = v, put,"
    with pytest.raises(IndexError, match=msg.format(bad, size)):
        cp.cuda.Stream.null.synchronize()
    cp.check_index_errors()  # reported once


@pytest.mark.parametrize("shape, ind", [((2, 3), [0, -1, 5]), ((4, 3, 2), np.array([[23], [-24]])), ((7,), 3)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_put_n_d_and_empty_values_as_numpy(shape, ind, order):
    h = rng.normal(size=shape)
    want = np.array(h, order=order)
    np.put(want, ind, [7.5, -1.0])
    a = cp.asarray(np.array(h, order=order))
    cp.put(a, ind, cp.asarray(np.array([7.5, -1.0])))
    np.testing.assert_array_equal(a.get(), want)
    cp.put(a, [1000, -1000], cp.empty(0))  # no values: nothing written, nothing checked (NumPy's)
    np.testing.assert_array_equal(a.get(), want)


_TAKE_PAIRS = [("i4", "f4"), ("f8", "i4"), ("f4", "f8"), ("i8", "i2"), ("u1", "i8"), ("?", "f4"), ("f8", "c16"),
               ("c8", "c16"), ("i4", "u4"), ("f2", "f4")]


@pytest.mark.parametrize("a_dt, out_dt", _TAKE_PAIRS, ids=["{}-{}".format(*p) for p in _TAKE_PAIRS])
def test_take_out_of_another_dtype_as_the_numpy_installed(a_dt, out_dt):
    """NumPy 2.4 refuses an `out` it could not cast back to `a`'s dtype safely; 2.5 casts into any
    `out` (DeprecationWarning across kinds). The values written are NumPy's."""
    h = (rng.normal(size=(3, 5)) * 50).astype(a_dt)
    res = []
    for xp, arr in ((np, h), (cp, cp.asarray(h))):
        out = xp.zeros((3, 2), out_dt)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                r = xp.take(arr, [4, -5], axis=1, out=out)
                assert r is out
                res.append((None, out if xp is np else out.get()))
            except TypeError as e:
                res.append((str(e), None))
        res[-1] += (sorted({str(w.message) for w in seen if issubclass(w.category, DeprecationWarning)}),)
    assert res[1][0] == res[0][0] and res[1][2] == res[0][2]
    if res[0][1] is not None:
        np.testing.assert_array_equal(res[1][1], res[0][1])


_FLAT_KEYS = {"int": 5, "neg": -1, "slice": slice(2, 9, 3), "back": slice(None, None, -2), "ellipsis": Ellipsis,
              "tuple_int": (4,), "tuple_slice": (slice(1, 4),), "tuple_array": (np.array([0, 11]),), "list": [1, 3, 3],
              "nested": [[0, 1], [10, 11]], "array2d": np.array([[2, 5]]), "mask": np.arange(12) % 5 == 0,
              "device": "dev_int", "device_mask": "dev_mask", "device_2d": "dev_2d", "empty": []}


def _key(k, xp):
    if not isinstance(k, str):  # a NumPy key compared with a name is elementwise
        return k
    if k == "dev_int":
        return xp.asarray(np.array([3, 0, 7])) if xp is cp else np.array([3, 0, 7])
    if k == "dev_mask":
        m = np.arange(12) % 3 == 1
        return cp.asarray(m) if xp is cp else m
    if k == "dev_2d":
        return cp.asarray(np.array([[1], [8]])) if xp is cp else np.array([[1], [8]])
    return k


@pytest.mark.parametrize("name", list(_FLAT_KEYS))
@pytest.mark.parametrize("order", ["C", "F"])
def test_flat_keys_read_and_assign_as_numpy(name, order):
    h = np.asfortranarray(rng.normal(size=(3, 4))) if order == "F" else rng.normal(size=(3, 4))
    a = cp.asarray(h)
    key = _FLAT_KEYS[name]
    np.testing.assert_array_equal(cp.asnumpy(a.flat[_key(key, cp)]), h.flat[_key(key, np)])
    v = np.array([-1.0, -2.0])  # shorter than most selections: repeated, NumPy's flat rule
    if name != "int" and name != "neg" and name != "tuple_int":
        h.flat[_key(key, np)] = v
        a.flat[_key(key, cp)] = cp.asarray(v)
        np.testing.assert_array_equal(a.get(), h)


@pytest.mark.parametrize("key", [True, False, 2.0, np.array(True), [1.0, 3.0]], ids=["true", "false", "float", "0d_bool",
                                                                               "floats"])
def test_flat_deprecated_keys(key):
    h = rng.normal(size=(3, 4))
    a = cp.asarray(h)
    with pytest.warns(DeprecationWarning):
        want = h.flat[key]
    with pytest.warns(DeprecationWarning):
        got = a.flat[key]
    np.testing.assert_array_equal(cp.asnumpy(got), want)


@pytest.mark.parametrize("power, exc", [(2.5, ValueError), (2.0, TypeError), (np.float64(3.0), TypeError),
                                        (-1, ValueError), (np.array(2), ValueError), (np.int64(3), None), (True, None)],
                         ids=["2.5", "2.0", "npfloat", "negative", "array", "npint", "bool"])
def test_poly1d_power(power, exc):
    """NumPy's __pow__ runs range(power): a float power that is a whole number is a TypeError (the
    old code took int(power))."""
    c = np.array([1.0, -2.0, 3.0])
    if exc is not None:
        with pytest.raises(exc):
            np.poly1d(c) ** power
        with pytest.raises(exc):
            cp.poly1d(cp.asarray(c)) ** power
        return
    np.testing.assert_allclose((cp.poly1d(cp.asarray(c)) ** power).coeffs.get(), (np.poly1d(c) ** power).coeffs)


@pytest.mark.parametrize("call, site", [
    (lambda a, i: cp.take_along_axis(a, i, 1), "a gather"),
    (lambda a, i: cp.put_along_axis(a, i, 1.0, 1), "a scatter"),
    (lambda a, i: a.flat.__setitem__(i.reshape(-1), 2.0), "a scatter"),
], ids=["take_along_axis", "put_along_axis", "flat_assign"])
def test_along_axis_device_indices_deferred_with_the_operation_named(call, site):
    """Device indices of take_along_axis/put_along_axis/flat assignment: the IndexError comes at the
    next synchronisation and names the operation (docs/differences.md lists these deferred errors)."""
    cp.check_index_errors()
    a = cp.asarray(rng.normal(size=(2, 3)))
    call(a, cp.asarray(np.array([[0, 9], [1, 2]])))
    with pytest.raises(IndexError, match=r"index 9 is out of bounds .*found on the device in {}".format(site)):
        a.get()
    cp.check_index_errors()
