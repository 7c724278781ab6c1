"""The rows of issue 35's table (mismatches a differential run against NumPy found), as regression
tests. The CPU tests run the host path with no device (`host_path`, tests/fuzz/conftest.py): they
check what is decided before a kernel's result is read. The `gpu` tests compare values."""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np
import pytest

import cuarray as cp


# -- full / full_like / fill: NEP 50, a Python int out of the dtype's range raises -------------

@pytest.mark.parametrize("call", [
    lambda xp: xp.full(32, -4, dtype="uint8"),
    lambda xp: xp.full((2, 3), 300, dtype=np.int8),
    lambda xp: xp.full_like(xp.empty(4, np.uint32), 2**64 - 1),
    lambda xp: xp.full_like(xp.empty(4, np.float32), -1, dtype=np.uint16),
    lambda xp: xp.empty(3, np.uint8).fill(-4),
    lambda xp: xp.full_like(xp.empty((), np.int32), 2**64 - 1, dtype=bool),
], ids=["full-uint8", "full-int8", "full_like-uint32", "full_like-dtype", "fill", "full_like-bool"])
def test_full_python_int_out_of_range_raises(host_path, call):
    with pytest.raises(OverflowError) as np_exc:
        call(np)
    with pytest.raises(OverflowError) as cp_exc:
        call(cp)
    assert str(cp_exc.value) == str(np_exc.value)
    assert host_path == []  # raised before any launch


@pytest.mark.parametrize("value", [np.int64(-4), -4.0, 3.7, True])
def test_full_non_python_int_still_casts_unsafely(host_path, value):
    np.full(3, value, dtype=np.uint8)  # NumPy accepts (wraps / truncates)
    try:
        cp.full(3, value, dtype=np.uint8)
    except OverflowError:  # pragma: no cover - the failure this test is for
        pytest.fail("cuarray refused a fill value NumPy accepts")
    except cp.cuda._backend.NoDeviceError:
        pass  # the host path reached the device: the value was accepted


# -- nanpercentile / nanquantile of an empty input: NumPy answers nanmean (NaN, no q axis) --------

@pytest.mark.parametrize("q,axis,keepdims", [([25.5, 3], 1, False), (25.5, 1, False), ([10], 1, True)])
def test_nanpercentile_empty_shape(host_path, q, axis, keepdims):
    a = np.zeros((0, 4, 2, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.nanpercentile(a, q, axis=axis, method="nearest", keepdims=keepdims)
    got = cp.nanpercentile(cp.empty(a.shape), q, axis=axis, method="nearest", keepdims=keepdims)
    assert (got.shape, got.dtype) == (expected.shape, expected.dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
@pytest.mark.parametrize("fn", ["nanpercentile", "nanquantile"])
def test_nanquantiles_empty_values(fn, dtype):
    a = np.zeros((0, 4, 2, 5), dtype)
    q = 25.5 if fn == "nanpercentile" else 0.255
    for axis in (None, 1, (0, 2)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(np, fn)(a, q, axis=axis, method="nearest")
            got = getattr(cp, fn)(cp.asarray(a), q, axis=axis, method="nearest")
        assert got.dtype == expected.dtype and got.shape == np.shape(expected)
        np.testing.assert_array_equal(got.get(), expected)


# -- ufunc.reduce of a 0-d array: the element (axis=0 or -1 is accepted, as NumPy does) -----------

@pytest.mark.parametrize("axis", [(0, 1), (-1, 1), ((0,), 0), (1, 0)], ids=["0", "-1", "(0,)", "1"])
@pytest.mark.parametrize("name", ["bitwise_xor", "multiply", "add", "maximum"])
def test_reduce_0d_axis_decision(host_path, name, axis):
    axis, accepted = axis
    if not accepted:
        with pytest.raises(np.exceptions.AxisError):
            getattr(np, name).reduce(np.array(3), axis=axis)
        with pytest.raises(np.exceptions.AxisError):
            getattr(cp, name).reduce(cp.empty((), np.int64), axis=axis)
        return
    getattr(np, name).reduce(np.array(3), axis=axis)
    try:
        getattr(cp, name).reduce(cp.empty((), np.int64), axis=axis)
    except np.exceptions.AxisError:
        pytest.fail("{}.reduce of a 0-d array refused axis={}".format(name, axis))
    except cp.cuda._backend.NoDeviceError:
        pass  # past the axis check: the reduction reached the device


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float32, np.complex64, np.bool_])
@pytest.mark.parametrize("name", ["bitwise_xor", "multiply", "add", "maximum", "logical_or"])
def test_reduce_0d_values(name, dtype):
    if name == "bitwise_xor" and np.dtype(dtype).kind in "fc":
        pytest.skip("no float bitwise_xor")
    a = (np.random.default_rng(1).random(()) * 50 + 1).astype(dtype)
    for kw in ({}, {"axis": -1}, {"axis": None}, {"keepdims": True}):
        expected = getattr(np, name).reduce(a, **kw)
        got = getattr(cp, name).reduce(cp.asarray(a), **kw)
        assert got.dtype == np.asarray(expected).dtype and got.shape == np.shape(expected)
        np.testing.assert_array_equal(got.get(), expected)


# -- dirichlet / multinomial take their parameter vectors as host values, as NumPy does ----------

@pytest.mark.parametrize("call,exc", [
    (lambda r: r.dirichlet(3.0), TypeError),
    (lambda r: r.dirichlet([[1.0, 2.0]]), ValueError),
    (lambda r: r.multinomial(3, 0.5), ValueError),
], ids=["dirichlet-scalar", "dirichlet-2d", "multinomial-scalar"])
def test_vector_parameters_errors(call, exc):
    with pytest.raises(exc):
        call(np.random.default_rng(0))
    with pytest.raises(exc):
        call(cp.random.default_rng(0))


@pytest.mark.gpu
def test_dirichlet_multinomial_accept_lists():
    for mod in (cp.random.default_rng(5), cp.random.RandomState(5), cp.random):
        d = mod.dirichlet([0.5, 0.5, 3.0], size=1000)
        assert d.shape == (1000, 3) and d.dtype == np.float64
        np.testing.assert_allclose(d.sum(axis=1).get(), 1.0)
        np.testing.assert_allclose(d.mean(axis=0).get(), [0.125, 0.125, 0.75], atol=0.03)
        d = mod.dirichlet(np.array([1.0, 2.0]), size=(0, 3))
        assert d.shape == (0, 3, 2)
        m = mod.multinomial(0, [1.0], (0, 4))
        assert m.shape == (0, 4, 1) and m.dtype == np.int64
        m = mod.multinomial(20, (0.2, 0.8), 500)
        assert m.shape == (500, 2) and (m.sum(axis=1) == 20).all()
        assert abs(float(m[:, 0].mean()) - 4.0) < 0.5


# -- device-side index errors: one rule for every gather/scatter ---------------------------------
# Device index arrays are checked by the kernel; the IndexError surfaces at the next
# synchronisation (here `.get()`), or at the call with set_sync_index_checks(True); host index
# arrays are checked at the call. docs/differences.md, "Advanced indexing".

def _device_index_ops():
    bad = lambda: cp.asarray(np.array([0, 255], np.uint8))  # noqa: E731
    return {
        "take-0d": lambda a: cp.asarray(np.array(7)).take(bad(), axis=None),
        "take": lambda a: cp.take(a, bad(), axis=1),
        "getitem": lambda a: a[:, bad()],
        "setitem": lambda a: a.__setitem__((slice(None), bad()), 1.5),
        "put": lambda a: cp.put(a, bad().astype(np.int64) * 1000, 2.0),
        "take_along_axis": lambda a: cp.take_along_axis(a, cp.asarray(np.full((3, 1), 9)), axis=1),
        "put_along_axis": lambda a: cp.put_along_axis(a, cp.asarray(np.full((3, 1), -9)), 1.0, axis=1),
        "add.at": lambda a: cp.add.at(a, (slice(None), bad()), 1.0),
    }


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(_device_index_ops()))
def test_device_index_errors_surface_at_next_sync(name):
    host = np.random.default_rng(2).random((3, 4))
    a = cp.asarray(host)
    op = _device_index_ops()[name]
    cp.check_index_errors()
    r = op(a)  # no synchronisation: returns
    with pytest.raises(IndexError, match="out of bounds for axis"):
        (r if isinstance(r, cp.ndarray) else a).get()
    cp.check_index_errors()  # cleared: nothing left to raise
    if name in ("take-0d", "take", "getitem", "take_along_axis"):
        np.testing.assert_array_equal(a.get(), host)  # nothing written, library usable
    prev = cp.set_sync_index_checks(True)
    try:
        with pytest.raises(IndexError, match="out of bounds for axis"):
            op(cp.asarray(host))  # synchronous mode: at the call
    finally:
        cp.set_sync_index_checks(prev)


_HOST_PATH_INDEX_OPS = {  # device index arrays (values unread on the host path)
    "take": lambda a, i: cp.take(a, i, axis=1),
    "getitem": lambda a, i: a[:, i],
    "setitem": lambda a, i: a.__setitem__((slice(None), i), 1.5),
    "put": lambda a, i: cp.put(a, i, cp.zeros(1)),
}


@pytest.mark.parametrize("name", list(_HOST_PATH_INDEX_OPS))
def test_device_index_ops_do_not_synchronise(host_path, monkeypatch, name):
    """The same rule decided on the host: no gather/scatter with a device index reads the error
    channel at the call (the old `put` did: one synchronisation per call)."""
    from cuarray._core import device_errors

    reads = []
    monkeypatch.setattr(device_errors, "_take_error", lambda: reads.append(1))
    _HOST_PATH_INDEX_OPS[name](cp.empty((3, 4)), cp.zeros(2, np.int64))
    assert host_path and not reads


@pytest.mark.gpu
def test_host_index_errors_raise_at_the_call():
    a = cp.asarray(np.array(7))
    with pytest.raises(IndexError, match="index 255 is out of bounds for axis 0 with size 1"):
        a.take(np.array([0, 255], np.uint8), axis=None)
    with pytest.raises(IndexError):
        cp.put(cp.zeros(4), [9], 1.0)


# -- what the fuzzer's host-only mode found (fixed with it) -------------------------------------

@pytest.mark.parametrize("call", [
    lambda xp, a: xp.nanmax(a, axis=0), lambda xp, a: xp.nanargmin(a, axis=0), lambda xp, a: xp.all(a, axis=-1),
    lambda xp, a: xp.prod(a, axis=0), lambda xp, a: xp.argmin(a, axis=0), lambda xp, a: xp.ptp(a, axis=0),
    lambda xp, a: xp.repeat(a, 2, axis=0), lambda xp, a: xp.take(a, [0], axis=0),
    lambda xp, a: xp.bitwise_xor.reduce(a, axis=-1),
], ids=["nanmax", "nanargmin", "all", "prod", "argmin", "ptp", "repeat", "take", "bitwise_xor.reduce"])
def test_0d_int_axis_accepted(host_path, call):
    expected = call(np, np.array(3, np.int64))
    try:
        got = call(cp, cp.empty((), np.int64))
    except cp.cuda._backend.NoDeviceError:
        return  # past the checks
    assert got.shape == np.shape(expected) and got.dtype == np.asarray(expected).dtype


@pytest.mark.parametrize("call,exc", [
    (lambda xp: xp.max(xp.empty((5, 2, 0, 0), np.uint32), axis=-1, keepdims=True), ValueError),
    (lambda xp: xp.argmax(xp.empty((0, 0)), axis=0), ValueError),
    (lambda xp: xp.logical_and(xp.empty((), np.uint64), 2**64), OverflowError),
    (lambda xp: xp.logical_or(xp.empty(3, np.float32), -2**63 - 1), OverflowError),
    (lambda xp: xp.power(xp.empty(3, np.int8), -2**63), OverflowError),
    (lambda xp: xp.power(xp.empty(3, bool), -2**63 - 1), OverflowError),  # (bool ** Python int: int64)
    (lambda xp: xp.bitwise_xor.reduce(xp.empty((2, 3)), axis=5), np.exceptions.AxisError),
    (lambda xp: xp.repeat(xp.empty((), np.int8), 2, axis=1), np.exceptions.AxisError),
], ids=["max-empty-axis", "argmax-empty-axis", "logical_and-2**64", "logical_or-float", "power-huge-negative",
        "power-bool-below-int64", "reduce-axis-before-dtype", "repeat-0d-axis1"])
def test_host_mode_finds_raise_like_numpy(host_path, call, exc):
    with pytest.raises(exc):
        call(np)
    with pytest.raises(exc):
        call(cp)


@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "equal", "not_equal"])
@pytest.mark.parametrize("value", [2**63, -2**63 - 1, 2**64])
def test_bool_array_compared_with_a_huge_int_raises(host_path, name, value):
    with pytest.raises(OverflowError):
        getattr(np, name)(np.ones(3, bool), value)
    with pytest.raises(OverflowError):
        getattr(cp, name)(cp.empty(3, bool), value)
    getattr(np, name)(np.ones(3, np.int8), value)  # int arrays: NumPy answers a constant, so does cuarray
    getattr(cp, name)(cp.empty(3, np.int8), value)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int64])
def test_nan_statistics_0d_axis0(host_path, name, dtype):
    a = np.array(3, dtype)
    try:
        expected = getattr(np, name)(a, axis=0)
    except np.exceptions.AxisError:
        with pytest.raises(np.exceptions.AxisError):
            getattr(cp, name)(cp.empty((), dtype), axis=0)
        return
    try:
        got = getattr(cp, name)(cp.empty((), dtype), axis=0)
    except cp.cuda._backend.NoDeviceError:
        return
    assert got.shape == () and got.dtype == np.asarray(expected).dtype


# -- around of a boolean array (a row fuzz_regressions.KNOWN listed) -----------------------------

@pytest.mark.parametrize("decimals,out", [(0, None), (0, "float32"), (1, "float32"), (-1, "float64"),
                                          (1, None), (-2, None), (1, "bool"), (-1, "int8")])
def test_around_bool_as_numpy(host_path, decimals, out):
    """decimals 0: rint's float16 (or out's type); otherwise only into a floating out (TypeError
    when the float64 scaling would be cast to bool or an integer out, as NumPy's)."""
    h = np.array([True, False, True])

    def call(xp, a):
        o = None if out is None else xp.empty(3, out)
        return xp.around(a, decimals, out=o)

    try:
        want = call(np, h)
    except TypeError:
        with pytest.raises(TypeError):
            call(cp, cp.empty(3, bool))
        return
    got = call(cp, cp.empty(3, bool))
    assert got.dtype == want.dtype and got.shape == want.shape


# -- an empty integer array to a negative scalar power (a fuzz_regressions.KNOWN row) --------------

@pytest.mark.parametrize("dtype", ["int64", "int8", "bool", "uint8", "uint64", "float32"])
@pytest.mark.parametrize("exponent", [-1, np.int64(-1), np.int8(-2), -300], ids=["int", "int64", "int8", "int-300"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (), (2,)])
def test_integer_negative_scalar_power_raises_only_with_elements(host_path, dtype, exponent, shape):
    """NumPy's ValueError comes from its loop's first element: an empty base answers; uint64 with
    a NumPy int64 exponent computes in float64 (found by the host-path fuzzer, seed 14)."""
    def call(xp):
        return xp.power(xp.empty(shape, dtype), exponent)

    try:
        want = call(np)
    except (ValueError, OverflowError) as e:
        with pytest.raises(type(e)):
            call(cp)
        return
    got = call(cp)
    assert got.dtype == want.dtype and got.shape == want.shape


# -- repeat with a negative count (a fuzz_regressions.KNOWN row) ----------------------------------

@pytest.mark.parametrize("shape,reps,axis", [
    ((0,), -1, None), ((0, 3), -1, 0), ((0, 3), -1, 1), ((2, 0), -1, 0), ((0,), [-1], None), ((2,), -1, None),
    ((1,), [-1], None), ((3,), np.array([-1]), None), ((0,), np.array([], np.int64), None), ((0, 3), [-1, 2, 3], 1),
    ((2,), [1, -1], None), ((0, 3), np.int8(-2), 0)])
def test_repeat_negative_counts_as_numpy(host_path, shape, reps, axis):
    """A single count sizes the result as n * count (an empty axis answers, anything else is
    'negative dimensions'); a count per element may not be negative."""
    try:
        want = np.repeat(np.empty(shape), reps, axis)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            cp.repeat(cp.empty(shape), reps, axis)
        return
    got = cp.repeat(cp.empty(shape), reps, axis)
    assert got.shape == want.shape and got.dtype == want.dtype


# -- take where nothing is gathered (a fuzz_regressions.KNOWN row) ---------------------------------

@pytest.mark.parametrize("shape,ind,axis", [((0, 3), [5], 1), ((2, 0, 3), [5], 2), ((0, 3, 2), [7], 1),
                                            ((0, 3), [-9], 1), ((3, 0), [5], 0), ((0, 3), 5, 1),
                                            ((0, 0), [1], 1), ((0, 3), [[4, 1]], 1)])
@pytest.mark.parametrize("method", [False, True], ids=["take", "ndarray.take"])
def test_take_with_nothing_gathered_reads_no_index(host_path, shape, ind, axis, method):
    def call(xp):
        a = xp.empty(shape)
        return a.take(ind, axis=axis) if method else xp.take(a, ind, axis=axis)

    try:
        want = call(np)
    except IndexError as e:
        with pytest.raises(IndexError, match=str(e)):
            call(cp)
        return
    got = call(cp)
    assert got.shape == want.shape and got.dtype == want.dtype


# -- quantile / percentile of empty input (two fuzz_regressions.KNOWN rows) -------------------------

@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint16", "bool"])
@pytest.mark.parametrize("method", ["linear", "nearest", "lower", "midpoint", "inverted_cdf", "hazen", "weibull"])
@pytest.mark.parametrize("q", [0.5, np.float32(0.5), [0.2, 0.5], 1, np.array([0.25, 0.75])],
                         ids=["float", "float32", "list", "int", "numpy"])
@pytest.mark.parametrize("shape,axis", [((0, 3), 1), ((3, 0), 0), ((0, 3), 0), ((0, 0), 1), ((0,), None), ((2, 0, 4), 1)])
def test_quantile_of_empty_input_as_numpy(host_path, dtype, method, q, shape, axis):
    """NumPy's result dtype when there are no rows; its IndexError whenever the reduced axis is
    empty (numpy/numpy#29315), rows or not."""
    for fn, qq in (("quantile", q), ("percentile", [x * 100 for x in q] if isinstance(q, list) else q * 100)):
        # (a NumPy array q is a parameter, accepted as CuPy accepts it)
        def call(xp):
            return getattr(xp, fn)(xp.empty(shape, dtype), qq, axis=axis, method=method)

        try:
            want = call(np)
        except (IndexError, TypeError) as e:
            with pytest.raises(type(e)):
                call(cp)
            continue
        got = call(cp)
        assert (got.dtype, got.shape) == (want.dtype, want.shape), fn


# -- the second pass: rows for the rest of the namespace (a host-path run found these) --------------

def _outcome(call, xp):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            r = call(xp)
    except Exception as e:  # noqa: BLE001 - the class is the outcome
        return e
    return [(x.dtype, x.shape) for x in r] if isinstance(r, (list, tuple)) else (r.dtype, r.shape)


def _agrees(call):
    """cuarray's host path decides as NumPy: the same class of exception (or a subclass), or the
    same dtypes and shapes."""
    want, got = _outcome(call, np), _outcome(call, cp)
    if isinstance(want, Exception):
        assert isinstance(got, type(want)), (want, got)
    elif isinstance(got, (cp.cuda._backend.NoDeviceError, ImportError)):
        pass  # every decision before the first kernel (or CUDA library) agreed: the host path ends there
    else:
        assert not isinstance(got, Exception) and got == want, (want, got)


@pytest.mark.parametrize("shape,axis,kth", [((0, 4), 1, 5), ((0, 4), 0, 0), ((3, 0), 1, -1), ((0,), 0, 3),
                                            ((2, 0), None, 0), ((0, 4), 1, [0, 9])])
@pytest.mark.parametrize("fn", ["partition", "argpartition"])
def test_partition_of_empty_input_has_no_kth_bounds(host_path, fn, shape, axis, kth):
    _agrees(lambda xp: getattr(xp, fn)(xp.empty(shape), kth, axis=axis))


@pytest.mark.parametrize("N,M", [(3, -1), (-1, None), (-2, 3), (0, -5)])
def test_tri_negative_dimension_is_empty(host_path, N, M):
    _agrees(lambda xp: xp.tri(N, M))


@pytest.mark.parametrize("fn", ["split", "hsplit", "vsplit", "dsplit"])
@pytest.mark.parametrize("sections", [0, -1])
def test_split_zero_sections_is_numpys_zero_division(host_path, fn, sections):
    _agrees(lambda xp: getattr(xp, fn)(xp.empty((4, 4, 4)), sections))


_U8, _F8 = np.dtype(np.uint8), np.dtype(np.float64)


@pytest.mark.parametrize("fn", ["putmask", "place"])
@pytest.mark.parametrize("dt,mask_shape,values", [
    (_U8, (3,), "complex-array"), (_U8, (3,), "int8-array"), (_F8, (3,), "complex-array"), (_U8, (3,), 300),
    (_U8, (3,), -1), (_U8, (3,), 1.5 + 1j), (_U8, (2,), "float-array"), (_U8, (3, 1), 1), (_U8, (0,), "complex-array"),
    (_U8, (3,), 1.5), (np.dtype(np.int64), (3,), float("nan"))])
def test_putmask_place_convert_values_as_numpy(host_path, fn, dt, mask_shape, values):
    arrays = {"complex-array": np.complex128, "int8-array": np.int8, "float-array": np.float64}

    def call(xp):
        v = values
        if isinstance(v, str):
            v = xp.empty(1, arrays[v])
        getattr(xp, fn)(xp.empty((3,) if mask_shape != (0,) else (0,), dt), xp.empty(mask_shape, bool), v)
        return xp.empty(0)

    _agrees(call)


@pytest.mark.parametrize("val", [float("nan"), float("inf"), 300, 2.5, 1.5 + 0.5j, 1j, np.float64("nan"),
                                 np.complex128(1 + 2j), np.array(-3.5)])
@pytest.mark.parametrize("dt", [np.uint8, np.int32, np.float32, bool])
@pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")
def test_fill_diagonal_converts_the_value_as_numpy(host_path, val, dt):
    """A Python float NaN into an int array is NumPy's ValueError, a NumPy scalar's NaN its unsafe
    cast (the old code raised for both)."""
    _agrees(lambda xp: xp.fill_diagonal(xp.empty((3, 3), dt), val) or xp.empty(0))


@pytest.mark.parametrize("sa,sb,kw", [((2,), (2,), {}), ((4, 2), (2,), {}), ((4, 2), (2,), {"axisc": 1}),
                                      ((4, 2), (3,), {}), ((4, 2), (3,), {"axisc": 2}), ((2,), (3,), {})])
def test_cross_of_2_vectors_has_no_vector_axis(host_path, sa, sb, kw):
    _agrees(lambda xp: xp.cross(xp.empty(sa), xp.empty(sb), **kw))


@pytest.mark.parametrize("n,axis", [(1, 0), (1, -1), (0, 0), (1, 1), (1, None)])  # (a longer one: the gpu test below)
def test_compress_takes_a_0d_array_as_1d(host_path, n, axis):
    _agrees(lambda xp: xp.compress(xp.ones(n, bool), xp.empty((), np.float32), axis=axis))


@pytest.mark.parametrize("d1,n1,d2,n2", [(np.float32, 0, np.int32, 2), (np.int32, 3, np.float64, 0), (np.int64, 0, np.int64, 0),
                                         (np.float32, 0, np.float32, 1)])
def test_polymul_of_no_coefficients_is_the_zero_polynomial(host_path, d1, n1, d2, n2):
    _agrees(lambda xp: xp.polymul(xp.empty(n1, d1), xp.empty(n2, d2)))


@pytest.mark.parametrize("default", [-2**63, 2**40, -1, 0, 1.5, np.int64(-2**63)])
def test_select_casts_a_python_int_default_unsafely(host_path, default):
    _agrees(lambda xp: xp.select([xp.empty(3, bool)], [xp.empty(3, np.int32)], default=default))


_SCALARS = [True, 2, -1.5, 1 + 2j, np.float16(2.0), np.float32(-1.0), np.int8(3), np.uint16(7), np.bool_(True),
            np.complex64(1j), np.float64(2.5)]


@pytest.mark.parametrize("fn", ["linspace", "logspace", "geomspace"])
@pytest.mark.parametrize("start", _SCALARS, ids=repr)
@pytest.mark.parametrize("stop", [True, 3, 0.5, np.float16(4.0), np.int64(5)], ids=repr)
def test_space_dtype_takes_python_scalars_as_weak(host_path, fn, start, stop):
    _agrees(lambda xp: getattr(xp, fn)(start, stop, num=3))


@pytest.mark.parametrize("xs,xd,ws,wd,minlength", [
    ((2, 2), np.int64, None, None, -1), ((2,), np.float64, None, None, -1), ((0,), np.float64, None, None, -1),
    ((0,), np.int64, (3,), np.float64, 2), ((0,), np.int64, (3,), np.complex128, 0), ((2,), np.int64, (2,), np.complex128, 0),
    ((2,), np.int64, (3,), np.float64, 0), ((0,), np.int64, (2, 2), np.float64, 0), ((2,), np.int64, (3,), np.complex64, 0)])
def test_bincount_checks_in_numpys_order(host_path, xs, xd, ws, wd, minlength):
    call = lambda xp: xp.bincount(xp.zeros(xs, xd), None if ws is None else xp.ones(ws, wd),  # noqa: E731
                                  minlength=minlength)
    if ws is not None and math.prod(xs) and len(xs) == 1 and np.dtype(xd).kind in "iu":
        # NumPy reads x's values (a negative one raises first) before it converts the weights:
        # here that read is the device's, where the host path ends (the GPU fuzzer's regression
        # case ("bincount(counts weights)", 271, 15) and test_histograms_cpu check the order)
        with pytest.raises(cp.cuda._backend.NoDeviceError):
            call(cp)
        with pytest.raises((TypeError, ValueError)):
            call(np)
        return
    _agrees(call)


@pytest.mark.parametrize("dt", [np.float16, np.int8, bool, np.float32, np.complex64, np.int64])
@pytest.mark.parametrize("shape", [(2, 0), (3, 0, 4), (2, 2)])
@pytest.mark.parametrize("kw", [{}, {"rtol": None}, {"rcond": 1e-3}], ids=["default", "rtol-None", "rcond"])
def test_pinv_of_empty_keeps_the_dtype(host_path, dt, shape, kw):
    _agrees(lambda xp: xp.linalg.pinv(xp.zeros(shape, dt), **kw))


@pytest.mark.parametrize("sa,sb,axes", [((1,), (1, 2), 2), ((2, 2), (2,), 2), ((2, 2), (3,), 1), ((2, 2), (2, 2), ([0, 1], [5, 0])),
                                        ((2, 2), (2, 2), ([0, 7], [1, 0])), ((2, 2), (2, 2), -1), ((2, 2), (2, 2), 0),
                                        ((2, 3), (3, 2), ([1, 0], [0, 1])), ((2, 3), (3, 2), 1)])
def test_tensordot_axes_beyond_ndim_raise_numpys_index_error(host_path, sa, sb, axes):
    _agrees(lambda xp: xp.tensordot(xp.empty(sa), xp.empty(sb), axes))


@pytest.mark.parametrize("fn", ["rfftn", "rfft2"])
@pytest.mark.parametrize("shape", [(2, 0, 8, 3), (0, 4), (3, 0), (2, 5)])
@pytest.mark.parametrize("dt", [np.complex128, np.complex64, np.float32])
def test_rfftn_of_complex_fails_on_the_last_axis_first(host_path, fn, shape, dt):
    _agrees(lambda xp: getattr(xp.fft, fn)(xp.empty(shape, dt)))


@pytest.mark.parametrize("fn", ["linalg.vector_norm", "linalg.norm"])
@pytest.mark.parametrize("ord_", [np.inf, -np.inf, 2])
@pytest.mark.parametrize("shape,axis", [((0, 2), None), ((0, 2), 0), ((0, 2), 1), ((0,), None), ((3, 0), 1)])
@pytest.mark.parametrize("dt", [np.complex128, np.float32])
def test_inf_norm_of_no_elements_is_zero(host_path, fn, ord_, shape, axis, dt):
    if fn == "linalg.norm" and axis is None and len(shape) == 2:
        axis = 0  # (norm's axis=None of a matrix is a matrix norm)
    _agrees(lambda xp: operator.attrgetter(fn)(xp)(xp.zeros(shape, dt), ord=ord_, axis=axis))


@pytest.mark.parametrize("n,shape,axis", [(2, (), None), (3, (2,), None), (3, (2, 2), 1), (5, (2, 3), 0)])
def test_compress_condition_longer_than_the_axis_reads_its_tail(host_path, n, shape, axis):
    """Only a True beyond the axis is out of bounds (NumPy takes the True positions): the host path
    must not refuse a longer condition before reading its tail (it then reaches the device)."""
    _agrees(lambda xp: xp.compress(xp.zeros(n, bool), xp.empty(shape), axis=axis))


@pytest.mark.gpu
@pytest.mark.parametrize("cond,shape,axis", [([False, False], (), None), ([True, False, True], (2,), None),
                                             ([True, False, False], (2, 2), 1), ([False, True, False, False, True], (2, 3), 0),
                                             ([1, 0, 0], (2,), 0), ([True, True], (), 0)])
def test_compress_condition_longer_than_the_axis_values(cond, shape, axis):
    a = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape)
    try:
        want = np.compress(cond, a, axis=axis)
    except IndexError as e:
        with pytest.raises(IndexError, match=str(e)):
            cp.compress(cp.asarray(np.array(cond)), cp.asarray(a), axis=axis)
        return
    got = cp.compress(cp.asarray(np.array(cond)), cp.asarray(a), axis=axis)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("pw", [(), np.array([1, 1], np.uint8), ((1.5, 2),), True, ((1, 2), (1, 1)), 1, (1, 2)],
                         ids=["empty", "uint8", "float", "bool", "too-many", "int", "pair"])
@pytest.mark.parametrize("shape", [(), (3,)])
def test_pad_width_dtype_checked_first(host_path, pw, shape):
    _agrees(lambda xp: xp.pad(xp.empty(shape), pw))


@pytest.mark.parametrize("decimals", [1, -1, 2, 0])
@pytest.mark.parametrize("fn", ["round", "around"])
def test_round_bool_raises_numpys_ufunc_type_error(host_path, fn, decimals):
    want, got = _outcome(lambda xp: getattr(xp, fn)(xp.empty(3, bool), decimals), np), \
        _outcome(lambda xp: getattr(xp, fn)(xp.empty(3, bool), decimals), cp)
    assert type(got) is type(want) if isinstance(want, Exception) else not isinstance(got, TypeError)


@pytest.mark.parametrize("xs,xd,ps,pd,fs,fd", [
    ((2,), np.float64, (2,), np.complex128, (0,), np.float64), ((2,), np.float64, (2,), np.complex128, (2,), np.float64),
    ((2,), np.complex128, (2,), np.float64, (1,), np.float64), ((2,), np.complex128, (0,), np.float64, (0,), np.float64),
    ((2,), np.float64, (0,), np.float64, (1,), np.float64), ((2,), np.float64, (2, 2), np.float64, (2,), np.float64),
    ((2,), np.complex128, (2,), np.float64, (2, 2), np.float64), ((3,), np.uint64, (2,), np.int64, (2,), np.complex64)])
def test_interp_checks_in_numpys_order(host_path, xs, xd, ps, pd, fs, fd):
    _agrees(lambda xp: xp.interp(xp.empty(xs, xd), xp.empty(ps, pd), xp.empty(fs, fd)))


@pytest.mark.parametrize("xs,cshapes,nf", [((5, 5, 0), [(1, 0), (0,), (5, 1, 0)], 3), ((3,), [], 1), ((3,), [(3,), (3,)], 3),
                                           ((3, 2), [(3,)], 1), ((3, 2), [()], 2), ((3, 2), [(2,)], 1), ((3,), [(3,), ()], 2)])
def test_piecewise_conditions_stack_and_index_as_numpys(host_path, xs, cshapes, nf):
    _agrees(lambda xp: xp.piecewise(xp.empty(xs), [xp.zeros(s, bool) for s in cshapes], [1.5] * nf))


@pytest.mark.gpu
@pytest.mark.parametrize("cshape", [(3,), (), (3, 2)])
def test_piecewise_leading_condition_values(cshape):
    rng = np.random.default_rng(35)
    x = rng.standard_normal((3, 2))
    # As arrays: NumPy takes a list whose first item is a scalar bool as one condition, not two.
    conds = [np.asarray(rng.random(cshape) < 0.5), np.asarray(rng.random(cshape) < 0.5)]
    want = np.piecewise(x, conds, [np.sin, -2.0, np.square])
    got = cp.piecewise(cp.asarray(x), [cp.asarray(c) for c in conds], [cp.sin, -2.0, cp.square])
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)


@pytest.mark.parametrize("shape,bins", [((3, 0), 4), ((0, 0), 4), ((0, 0), []), ((3, 2), 2)])
def test_histogramdd_of_no_dimensions_raises(host_path, shape, bins):
    _agrees(lambda xp: xp.histogramdd(xp.zeros(shape), bins=bins)[0])


@pytest.mark.parametrize("bins", [[-1.0, 0.0, 1.0, 2.0], [3, [0.0, 1.0]], (0.0, 1.0, 5.0), np.array([0.0, 1.0, 2.0])],
                         ids=["edges", "int-and-edges", "tuple", "numpy"])
def test_histogram2d_takes_host_edges_as_histogram_does(host_path, bins):
    _agrees(lambda xp: xp.histogram2d(xp.zeros(5), xp.zeros(5), bins=bins)[0])


@pytest.mark.parametrize("fn", ["histogram", "histogram_bin_edges", "histogramdd"])
def test_histogram_of_complex_data_is_not_implemented(host_path, fn):
    """NumPy answers (lexicographic edges): cuarray says it does not implement it, not that the call is wrong."""
    shape = (4, 1) if fn == "histogramdd" else (4,)
    np_result = getattr(np, fn)(np.array([1 + 1j, 2 - 1j, 0.5, 3j]).reshape(shape), bins=3)
    assert np_result is not None
    with pytest.raises(NotImplementedError):
        getattr(cp, fn)(cp.empty(shape, np.complex128), bins=3)


@pytest.mark.parametrize("dt,shape,obj,value", [
    (np.int8, (3, 0, 2, 0), np.array([-1, 0]), 2**40), (np.uint64, (2, 3), np.array([6, 0, 1]), -1),
    (np.uint32, (), np.array([], np.uint8), float("inf")), (np.uint8, (4,), 1, 300), (np.int16, (4,), [0, 9], 1.5)])
def test_insert_checks_positions_before_values(host_path, dt, shape, obj, value):
    _agrees(lambda xp: xp.insert(xp.empty(shape, dt), obj, value))


@pytest.mark.parametrize("ord_", [2, -2, 1, -1, np.inf, -np.inf, "nuc", "fro"], ids=repr)
@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (2, 0, 0)])
def test_matrix_norm_of_empty_matrices(host_path, ord_, shape):
    _agrees(lambda xp: xp.linalg.matrix_norm(xp.zeros(shape), ord=ord_))
    _agrees(lambda xp: xp.linalg.norm(xp.zeros(shape), ord=ord_, axis=(-2, -1)))


@pytest.mark.parametrize("shape,val", [((3, 0), -1), ((0, 0), 300), ((2, 2), -1), ((3, 0), 1.5)])
def test_fill_diagonal_checks_a_python_int_with_nothing_to_fill(host_path, shape, val):
    _agrees(lambda xp: xp.fill_diagonal(xp.empty(shape, np.uint8), val) or xp.empty(0))


@pytest.mark.parametrize("xs,cs,nf", [((1, 0, 0), (0, 0), 1), ((2, 3), (0,), 2), ((2, 3), (1,), 1), ((2, 0), (3, 0), 1),
                                      ((2,), (0, 0), 1), ((2, 3), (0,), 4)])
def test_piecewise_empty_boolean_axis_matches_any_length(host_path, xs, cs, nf):
    _agrees(lambda xp: xp.piecewise(xp.empty(xs, np.uint32), [xp.zeros(cs, bool)], [0] * nf))


@pytest.mark.parametrize("bins", ["auto", "fd", 3])
def test_histogramdd_string_bins_raise_numpys_error(host_path, bins):
    _agrees(lambda xp: xp.histogramdd(xp.zeros((5, 2)), bins=[bins, bins])[0])


@pytest.mark.parametrize("mode", ["wrap", "edge", "reflect", "symmetric", "maximum", "mean", "constant", "empty"])
@pytest.mark.parametrize("shape,pw", [((0, 1, 3), ((0, 0), (2, 2), (1, 2))), ((2, 0), ((1, 1), (0, 0))), ((), 2)])
@pytest.mark.parametrize("odd", [False, True])
def test_pad_of_an_empty_array_pads_the_other_axes(host_path, mode, shape, pw, odd):
    kw = {"reflect_type": "odd"} if odd and mode in ("reflect", "symmetric") else {}
    _agrees(lambda xp: xp.pad(xp.empty(shape, np.uint16), pw, mode=mode, **kw))


@pytest.mark.parametrize("bd", [np.complex128, np.complex64, np.float32, np.uint64, bool])
@pytest.mark.parametrize("n", [0, 1, 3])
def test_digitize_refuses_complex_bins(host_path, bd, n):
    _agrees(lambda xp: xp.digitize(xp.empty((4, 0)), xp.zeros(n, bd)))


@pytest.mark.parametrize("val", [2**64 - 1, 2**63, -1, 2])
def test_fill_diagonal_bool_takes_any_python_int(host_path, val):
    _agrees(lambda xp: xp.fill_diagonal(xp.empty((3, 3), bool), val) or xp.empty(0))


@pytest.mark.parametrize("xs,cs,funcs", [((4, 5, 0), (0,), [-2, 0]), ((1, 4, 0), (1, 0), [1.5, -2]), ((3,), (3,), [-2]),
                                         ((3,), (3,), [1j]), ((3,), (3,), [300]), ((3,), (3,), [1.5])])
def test_piecewise_converts_scalar_values_as_numpy(host_path, xs, cs, funcs):
    _agrees(lambda xp: xp.piecewise(xp.empty(xs, np.uint8 if 300 in funcs else np.uint32), [xp.zeros(cs, bool)], funcs))


# -- scalar assignment into integer and real arrays: NumPy's conversion, not full's cast -----------

@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 1e30, 2.5, np.float64(np.nan), np.float32(np.inf),
                                   np.float16(-2.5), 1 + 2j, np.complex128(3 + 0j)],
                         ids=lambda v: repr(v))
@pytest.mark.parametrize("dtype", ["int64", "uint8", "int16", "float32", "bool"])
@pytest.mark.parametrize("how", ["setitem", "setitem-slice", "fill", "setitem-empty"])
def test_scalar_assignment_converts_as_numpy(host_path, value, dtype, how):
    """`a[...] = nan` into an int array raised nothing and filled INT_MIN (a silent wrong answer);
    NumPy converts through int()/float(): ValueError, OverflowError, TypeError, or a warning."""
    def call(xp):
        a = xp.zeros((0,) if how == "setitem-empty" else (3,), dtype)
        if how == "fill":
            a.fill(value)
        elif how == "setitem-slice":
            a[1:] = value
        else:
            a[...] = value
        return a

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            want = call(np)
        except Exception as e:  # noqa: BLE001 - the class is the outcome
            with pytest.raises(type(e)):
                call(cp)
            return
        got = call(cp)
    assert got.dtype == want.dtype and got.shape == want.shape


@pytest.mark.parametrize("make", [
    lambda xp: xp.empty(3, "M8[D]") == 5, lambda xp: xp.empty((2, 3), "m8[s]") != 5.0,
    lambda xp: xp.empty((2, 1), "M8[D]") == xp.zeros(3), lambda xp: xp.empty(3, "M8[D]") == xp.zeros(4),
    lambda xp: xp.empty(3, "i8") == "x", lambda xp: xp.empty(3, "f4") != b"x", lambda xp: xp.empty(3, "f4") == None,
    lambda xp: xp.empty((2, 2), "M8[s]") == None, lambda xp: xp.zeros(3) == xp.zeros(4)],  # noqa: E711
    ids=["M8==5", "m8!=5.0", "M8==f8-broadcast", "M8==f8-no-broadcast", "i8==str", "f4!=bytes", "f4==None",
         "M8==None", "f8==f8-no-broadcast"])
def test_equality_of_dtypes_that_do_not_compare(host_path, make):
    """`==`/`!=` where `equal` has no loop: NumPy's array of False/True (broadcast; ValueError when
    the shapes do not broadcast), not the ufunc's UFuncTypeError (was: raised; `a == "x"` and
    `a == None` were a scalar False)."""
    _agrees(make)


@pytest.mark.gpu
def test_equality_of_dtypes_that_do_not_compare_values():
    d = np.array(["2020-01-01", "NaT", "1999-12-31"], "M8[D]")
    g = cp.asarray(d)
    for got, want in [(g == 5, d == 5), (g != 5, d != 5), (g == None, d == None), (g != None, d != None),  # noqa: E711
                      (cp.arange(3) == "x", np.arange(3) == "x"), (cp.arange(3) != "x", np.arange(3) != "x")]:
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)


def test_output_casting_error_with_a_none_out_is_numpys(host_path):
    """divmod(f8, 2.0, out=(None, i8)): NumPy's output-casting UFuncTypeError for the second output
    (the oracle dropped the None and asked NumPy with a one-entry `out`: ValueError)."""
    _agrees(lambda xp: xp.divmod(xp.zeros(3), 2.0, out=(None, xp.zeros(3, "i8"))))


# -- the 1.4 million calls of session 12 (14 processes on the H100, NumPy 2.5.2) -------------------

def test_put_into_empty_array_raises_before_mode_and_values(host_path):
    for mode in ("raise", "wrap", "clip"):
        for xp in (np, cp):
            with pytest.raises(IndexError, match="cannot replace elements of an empty array"):
                xp.put(xp.zeros((0, 1), np.float32), np.arange(3), xp.zeros((0, 2)), mode=mode)
    cp.put(cp.zeros((0, 1), np.float32), np.arange(0), cp.zeros(2))  # no indices: nothing to do


@pytest.mark.gpu
def test_compress_beyond_the_axis_of_an_array_with_no_outer_rows():
    """NumPy's compress takes cond's True positions and checks one only while copying an outer
    row: with none, a True beyond the axis is no error and counts in the result's shape."""
    cond = np.array([True])
    for shape, axis in [((0, 0, 0), -1), ((0, 3, 0), 2)]:
        want = np.compress(cond, np.zeros(shape, np.float16), axis=axis)
        got = cp.compress(cond, cp.zeros(shape, np.float16), axis=axis)
        assert (got.dtype, got.shape) == (want.dtype, want.shape)
    with pytest.raises(IndexError, match="non-empty take from an empty axes"):
        np.compress(cond, np.zeros((2, 0), np.float16), axis=-1)
    with pytest.raises(IndexError, match="non-empty take from an empty axes"):
        cp.compress(cond, cp.zeros((2, 0), np.float16), axis=-1)


def test_histogram_bool_becomes_uint8_complex_is_not_implemented(host_path):
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        _agrees_or_stops(lambda xp: xp.histogram_bin_edges(xp.zeros(2, bool)))
    launches = len(host_path)
    for fn in ("histogram", "histogram_bin_edges"):  # with range= too (it compiled a kernel and failed)
        with pytest.raises(NotImplementedError, match="complex data is not supported"):
            getattr(cp, fn)(cp.empty(2, np.complex128), range=(0, 1))
    assert len(host_path) == launches  # refused before any launch


def _agrees_or_stops(call):
    want, got = call(np), None
    try:
        got = call(cp)
    except cp.cuda._backend.NoDeviceError:
        return  # the host path ends at the first kernel: the conversion came before it
    assert (got.dtype, got.shape) == (want.dtype, want.shape)


def test_interp_of_no_points_needs_no_sample_points(host_path):
    """NumPy 2.5 answers an empty x whatever xp holds (2.4 raised ValueError); xp empty with a
    non-empty x still raises."""
    got = cp.interp(cp.zeros(0, np.int64), cp.zeros(0, np.uint64), cp.zeros(0))
    assert (got.dtype, got.shape) == (np.dtype(np.float64), (0,))
    with pytest.raises(ValueError, match="array of sample points is empty"):
        cp.interp(cp.zeros(2), cp.zeros(0), cp.zeros(0))


@pytest.mark.gpu
def test_complex_special_values_follow_c99_and_numpy():
    """sqrt(nan + 0j) is nan + nanj (C99 csqrt; cuarray gave nan + 0j); tan(-inf + 0j) is nan + 0j
    (C11 ctanh(+-0 + i inf) is +-0 + i nan; cuarray gave nan + nanj); 1/(x + 0j) is 1/x - 0j
    (NumPy's reciprocal loop; cuarray gave +0j)."""
    for dt in (np.complex64, np.complex128):
        x = np.array([complex(np.nan, 0), complex(-np.inf, 0), complex(np.inf, 0), complex(0, np.inf),
                      complex(-0.0, np.nan), 1e-30 + 0j, -2.5 + 0j, 0.5 - 0j, complex(0, -3), 2 + 3j], dt)
        for fn in ("sqrt", "tan", "tanh", "reciprocal"):
            with np.errstate(all="ignore"):
                want = getattr(np, fn)(x)
            got = getattr(cp, fn)(cp.asarray(x)).get()
            for g, w in ((got.real, want.real), (got.imag, want.imag)):  # (a NaN's sign is unspecified)
                np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=fn)
                np.testing.assert_array_equal(np.signbit(g[~np.isnan(w)]), np.signbit(w[~np.isnan(w)]), err_msg=fn)
            np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=fn)


@pytest.mark.gpu
def test_nanmax_of_all_nan_complex_is_its_element():
    """NumPy's fmax.reduce answers an all-NaN slice with its first element (nan + 0j stays nan + 0j);
    the reduction's NaN identity gave nan + nanj. fmax.reduce itself too; the fmax ufunc unchanged."""
    for dt in (np.complex64, np.complex128):
        x = np.array([complex(np.nan, 0), complex(0, np.nan), complex(np.nan, 2)], dt)
        for fn in ("nanmax", "nanmin"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for a in (x[0], x[:1], x[1:2]):
                    want = getattr(np, fn)(a)
                    got = getattr(cp, fn)(cp.asarray(a)).get()
                    np.testing.assert_array_equal(np.isnan(np.c_[got.real, got.imag]),
                                                  np.isnan(np.c_[want.real, want.imag]), err_msg=fn)
        got = cp.fmax.reduce(cp.asarray(x[:1])).get()
        assert np.isnan(got.real) and got.imag == 0
        y = cp.fmax(cp.asarray(x[1:2]), cp.asarray(x[:1])).get()  # NumPy: the first operand when both are NaN
        np.testing.assert_array_equal(np.isnan(y.imag), np.isnan(np.fmax(x[1:2], x[:1]).imag))


@pytest.mark.gpu
def test_nanpercentile_first_row_all_nan_keeps_input_dtype():
    for dt in (np.float16, np.float32):
        for a in (np.array([[np.nan]], dt), np.array([[np.nan, np.nan], [1, 2]], dt),
                  np.array([[1, 2], [np.nan, np.nan]], dt)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = np.nanpercentile(a, [10.0], axis=-1)
                got = cp.nanpercentile(cp.asarray(a), [10.0], axis=-1)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.get(), want, rtol=1e-3)


@pytest.mark.gpu
def test_i0_of_infinities_is_nan_as_numpy():
    for dt in (np.float16, np.float32, np.float64):
        x = np.array([np.inf, -np.inf, 0.0, 2.5, -3.0], dt)
        with np.errstate(all="ignore"):
            want = np.i0(x)
        got = cp.i0(cp.asarray(x)).get()
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_allclose(got[2:], want[2:], rtol=2e-3)


@pytest.mark.gpu
def test_interp_compress_put_values():
    assert cp.interp(cp.zeros(0), cp.zeros(0), cp.zeros(0)).size == 0
    a = cp.arange(6.0)
    cp.put(a, [1, 4], cp.asarray([-1.0, -2.0]))
    np.testing.assert_array_equal(a.get(), [0, -1, 2, 3, -2, 5])
    assert cp.compress(np.array([True]), cp.zeros((0, 0, 0)), axis=-1).shape == (0, 0, 1)


@pytest.mark.gpu
@pytest.mark.parametrize("mode", ["wrap", "edge", "reflect", "symmetric", "constant", "mean", "linear_ramp", "maximum"])
def test_pad_of_a_0d_array_is_its_value(mode):
    """A 0-d array has no axis to pad: NumPy returns its value; the gather modes returned an
    uninitialised 0-d array (3.25e-319 for pad(nan, 1, 'wrap'): the fuzzer, seed 22)."""
    for v in (np.nan, 2.5, -7.0):
        np.testing.assert_array_equal(cp.pad(cp.asarray(np.array(v)), 1, mode=mode).get(), np.pad(np.array(v), 1, mode=mode))


@pytest.mark.parametrize("mode", ["linear_ramp", "edge", "wrap", "mean", "reflect"])
def test_pad_cannot_extend_an_empty_axis(host_path, mode):
    """NumPy refuses to extend an empty axis in every mode but constant and empty (linear_ramp
    extended it: the fuzzer's seeds 36 and 44); the axis named is the one extended."""
    for shape, pw in [((5, 0, 1, 1), 2), ((3, 0), ((0, 0), (1, 0)))]:
        with pytest.raises(ValueError) as want:
            np.pad(np.zeros(shape, np.int8), pw, mode=mode)
        with pytest.raises(ValueError) as got:
            cp.pad(cp.zeros(shape, np.int8), pw, mode=mode)
        assert str(got.value) == str(want.value)
