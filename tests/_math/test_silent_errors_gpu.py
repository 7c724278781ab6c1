"""Issue 54, "silent wrong answers": calls where NumPy raises and cuarray answered. Each case is
run by NumPy and by cuarray; both must raise the same type (cuarray's deferred device checks by the
next synchronisation, `get()`)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

INTS = ["int8", "int16", "int32", "int64"]


def _both_raise(exc, np_call, cp_call):
    with pytest.raises(exc):
        np_call()
    with pytest.raises(exc):
        r = cp_call()
        for x in (r if isinstance(r, tuple) else (r,)):
            if isinstance(x, cp.ndarray):
                x.get()
    cp.check_index_errors()  # the channel is clear afterwards


@pytest.mark.parametrize("da", INTS + ["uint8"])
@pytest.mark.parametrize("db", INTS)
def test_integer_power_negative_array_exponent(da, db):
    rng = np.random.default_rng(0)
    a = rng.integers(1, 5, size=(3, 7)).astype(da)
    b = rng.integers(0, 4, size=(3, 7)).astype(db)
    b[1, 3] = -1
    if np.result_type(a, b).kind not in "iu":
        pytest.skip("a float loop: {} ** {}".format(da, db))
    ga, gb = cp.asarray(a), cp.asarray(b)
    msg = "Integers to negative integer powers are not allowed"
    for call in (lambda x, y: x ** y, np.power, lambda x, y: x.__pow__(y)):
        with pytest.raises(ValueError, match=msg):
            call(a, b)
    for call in (lambda x, y: x ** y, cp.power, cp.pow, lambda x, y: np.power(x, y)):
        r = call(ga, gb)
        with pytest.raises(ValueError, match=msg):
            r.get()
    # broadcast, non-contiguous exponent, Python-int base
    strided = cp.asarray(np.repeat(b, 2, axis=1))[:, ::2]  # b again, not contiguous
    with pytest.raises(ValueError, match=msg):
        cp.power(ga, strided).get()
    with pytest.raises(ValueError, match=msg):
        cp.power(ga[1:2], gb[1]).get()  # broadcast
    with pytest.raises(ValueError, match=msg):
        (3 ** gb).get()
    # no negative element: values as NumPy's, nothing raised later
    ok = np.abs(b)
    np.testing.assert_array_equal(cp.power(ga, cp.asarray(ok)).get(), np.power(a, ok))
    cp.cuda.Stream.null.synchronize()
    # an empty result raises nothing (NumPy's loop raises at its first element)
    assert cp.power(ga[:0], gb[:0]).get().shape == (0, 7)
    cp.cuda.Stream.null.synchronize()


@pytest.mark.parametrize("dt", INTS)
def test_integer_power_negative_scalar_after_fast_path(dt):
    a = cp.arange(1, 5, dtype=dt)
    a ** 2  # prepares the (dtype, int) fast path
    with pytest.raises(ValueError):
        np.arange(1, 5, dtype=dt) ** -1
    with pytest.raises(ValueError):
        a ** -1
    with pytest.raises(ValueError):
        cp.power(a, -3)


def test_float_exponent_array_still_answers():
    a = np.arange(1, 6, dtype=np.int64)
    b = np.array([-1.0, 2, -3, 0.5, 1])
    np.testing.assert_allclose((cp.asarray(a) ** cp.asarray(b)).get(), a ** b)


@pytest.mark.parametrize("name", ["less", "remainder", "float_power", "add"])
def test_out_shape_not_the_broadcast_shape(name):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 4, 4, 17))
    y = rng.standard_normal((4, 17)) + 3
    o = np.empty((4, 4, 17), dtype=getattr(np, name)(x, y).dtype)
    f, g = getattr(np, name), getattr(cp, name)
    gx, gy, go = cp.asarray(x), cp.asarray(y), cp.asarray(o)
    _both_raise(ValueError, lambda: f(x, y, out=o), lambda: g(gx, gy, out=go))
    # the mask widens the broadcast shape too
    xs, os_ = x[0, 0, 0], o[0, 0]
    w = np.ones((3, 17), bool)
    _both_raise(ValueError, lambda: f(xs, y[0], out=os_, where=w),
                lambda: g(cp.asarray(xs), cp.asarray(y[0]), out=cp.asarray(os_), where=cp.asarray(w)))
    # a larger output: the inputs broadcast to it, every element written
    big = np.zeros((2, 4, 4, 17), o.dtype)
    gbig = cp.asarray(big)
    f(x, y, out=big)
    g(gx, gy, out=gbig)
    # exactly the call without out=, broadcast to it (every element written by the same loop)
    np.testing.assert_array_equal(gbig.get(), np.broadcast_to(g(gx, gy).get(), big.shape))
    if name == "float_power":  # CUDA's pow is within 2 ulp, not glibc's bits (values 1 ulp apart)
        np.testing.assert_allclose(gbig.get(), big, rtol=4.5e-16, atol=0)
    else:
        np.testing.assert_array_equal(gbig.get(), big)


@pytest.mark.parametrize("fn", ["max", "min", "amax", "amin"])
@pytest.mark.parametrize("dt,init", [("uint8", -2), ("uint16", -2), ("uint64", -2), ("uint8", 300),
                                     ("int8", 200), ("int8", 2 ** 70)])
def test_initial_out_of_range(fn, dt, init):
    a = np.arange(1, 5, dtype=dt)
    _both_raise(OverflowError, lambda: getattr(np, fn)(a, initial=init),
                lambda: getattr(cp, fn)(cp.asarray(a), initial=init))


def test_initial_in_range_still_answers():
    a = np.arange(1, 5, dtype=np.uint8)
    assert int(cp.max(cp.asarray(a), initial=200)) == np.max(a, initial=200)
    assert int(cp.min(cp.asarray(a), initial=np.int64(-2))) == np.min(a, initial=np.int64(-2))


@pytest.mark.parametrize("fn", ["max", "min", "sum", "maximum.reduce", "nanmin"])
@pytest.mark.parametrize("dt,init,out", [
    ("uint8", np.int64(-2), None), ("uint8", -2, "int64"), ("int64", -2, "uint8"), ("int8", -2.5, None),
    ("uint16", np.float64(1e30), None), ("float16", 1e6, None), ("bool", -2, None), ("float32", -2.5, "float64"),
    ("uint32", None, None)])
def test_initial_values(fn, dt, init, out):
    """initial= as NumPy's start value: in the loop's dtype, which an out= of another dtype sets
    (max of uint8 into int64 from -2); columns the mask leaves empty are that value."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 9, size=(5, 6)).astype(dt)
    w = rng.random((5, 6)) < 0.5
    w[:, 2] = False
    w[:, 3] = True
    f = {"maximum.reduce": lambda xp: xp.maximum.reduce}.get(fn, lambda xp: getattr(xp, fn))
    if init is None:
        w[:, 2] = True  # (no start value: every column needs an element)
    for masked in (False, True):
        def kw(xp):
            k = {"axis": 0, "initial": init}
            if masked:
                k["where"] = xp.asarray(w)
            if out is not None:
                k["out"] = xp.zeros(6, out)
            return k
        with np.errstate(all="ignore"):
            try:
                want = f(np)(a, **kw(np))
            except (TypeError, ValueError, OverflowError) as e:
                with pytest.raises(type(e)):
                    f(cp)(cp.asarray(a), **kw(cp))
                continue
        got = f(cp)(cp.asarray(a), **kw(cp))
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_array_equal(got.get(), want, err_msg="{} {} initial={!r} out={} where={}".format(
            fn, dt, init, out, masked))


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "complex128"])
def test_average_zero_weight_sum(dt):
    a = np.arange(6, dtype=dt).reshape(2, 3)
    for w, axis in ((np.array([1.0, -1.0, 0.0]), 1), (np.zeros((2, 3)), None), (np.array([2.0, -2.0]), 0)):
        _both_raise(ZeroDivisionError, lambda: np.average(a, axis=axis, weights=w),
                    lambda: cp.average(cp.asarray(a), axis=axis, weights=cp.asarray(w)))
