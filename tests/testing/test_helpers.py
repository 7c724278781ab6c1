"""Tests of cuarray.testing itself, on the CPU: the second library is a stand-in for cuarray that
delegates to NumPy, so every check can be made to pass and to fail without a GPU."""

from __future__ import annotations

import types

import numpy
import pytest

from cuarray import testing
from cuarray.testing import _compare


@pytest.fixture(autouse=True)
def fake_cuarray(monkeypatch):
    """A module standing in for cuarray: NumPy under another name (so a body can tell them apart).

    Every test here uses it, so they run with no GPU and do not depend on cuarray's own progress.
    """
    fake = types.ModuleType("fake_cuarray")
    fake.__getattr__ = lambda name: getattr(numpy, name)
    fake.asnumpy = numpy.asarray
    monkeypatch.setattr(_compare, "_other_xp", fake)
    return fake


def _marks(fn):
    (mark,) = fn.pytestmark
    return mark.args, mark.kwargs


# ---- dtype decorators -------------------------------------------------------------------------


def test_for_all_dtypes_ids():
    @testing.for_all_dtypes()
    def f(dtype):
        pass

    (name, values), kw = _marks(f)
    assert name == "dtype"
    assert kw["ids"] == ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                         "uint64", "float16", "float32", "float64", "complex64", "complex128"]
    assert [numpy.dtype(v).name for v in values] == kw["ids"]


@pytest.mark.parametrize(
    "kwargs, missing",
    [
        ({"no_bool": True}, {"bool"}),
        ({"no_float16": True}, {"float16"}),
        ({"no_complex": True}, {"complex64", "complex128"}),
        ({"no_float64": True}, {"float64", "complex128"}),
        ({"no_int": True}, {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}),
    ],
)
def test_for_all_dtypes_exclusions(kwargs, missing):
    @testing.for_all_dtypes(name="t", **kwargs)
    def f(t):
        pass

    (name, values), kw = _marks(f)
    assert name == "t"
    assert set(kw["ids"]) == {numpy.dtype(d).name for d in testing.ALL_DTYPES} - missing


@pytest.mark.parametrize(
    "deco, ids",
    [
        (testing.for_float_dtypes, ["float16", "float32", "float64"]),
        (testing.for_signed_dtypes, ["int8", "int16", "int32", "int64"]),
        (testing.for_unsigned_dtypes, ["uint8", "uint16", "uint32", "uint64"]),
        (testing.for_complex_dtypes, ["complex64", "complex128"]),
        # CuPy's default: bool too.
        (testing.for_int_dtypes, ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                  "uint64"]),
    ],
)
def test_kind_decorators(deco, ids):
    @deco()
    def f(dtype):
        pass

    assert _marks(f)[1]["ids"] == ids


def test_for_dtype_pairs_full_and_sampled():
    @testing.for_dtype_pairs()
    def full(dtype1, dtype2):
        pass

    (names, pairs), kw = _marks(full)
    assert names == "dtype1,dtype2" and len(pairs) == 196 and len(set(kw["ids"])) == 196
    assert "float32-int8" in kw["ids"]

    def sampled(seed):
        @testing.for_dtype_pairs(sample=20, seed=seed)
        def f(dtype1, dtype2):
            pass

        return _marks(f)[1]["ids"]

    assert sampled(3) == sampled(3)  # deterministic
    assert len(sampled(3)) == 20 and set(sampled(3)) <= set(kw["ids"])
    assert sampled(3) != sampled(4)
    assert sampled(3) == sorted(sampled(3), key=kw["ids"].index)  # product order


# ---- tolerances and comparison ----------------------------------------------------------------


def test_tolerance_for():
    assert testing.tolerance_for(numpy.int32) == (0.0, 0.0)
    assert testing.tolerance_for(numpy.bool_) == (0.0, 0.0)
    assert testing.tolerance_for(numpy.complex64) == testing.tolerance_for(numpy.float32)
    assert testing.tolerance_for(numpy.complex128) == testing.tolerance_for(numpy.float64)
    f16, f32, f64 = (testing.tolerance_for(t)[0] for t in (numpy.float16, numpy.float32, numpy.float64))
    assert f16 > f32 > f64 > 0


def test_compare_accepts_equal_and_close():
    a = numpy.linspace(-3, 3, 12, dtype=numpy.float32).reshape(3, 4)
    testing.compare_results(a, a.copy())
    testing.compare_results(a, a * numpy.float32(1 + 2e-6))  # within float32 tolerance
    testing.compare_results((a, [1, 2.5]), (a.copy(), [1, 2.5]))


def test_compare_detects_dtype_mismatch():
    a = numpy.arange(4, dtype=numpy.float32)
    with pytest.raises(AssertionError, match="dtype float32 from NumPy, float64"):
        testing.compare_results(a, a.astype(numpy.float64))
    testing.compare_results(a, a.astype(numpy.float64), type_check=False)


def test_compare_detects_value_and_shape_mismatch():
    a = numpy.arange(6, dtype=numpy.float64).reshape(2, 3)
    b = a.copy()
    b[1, 2] += 1e-9
    with pytest.raises(AssertionError):
        testing.compare_results(a, b)
    with pytest.raises(AssertionError, match="shape"):
        testing.compare_results(a, a.reshape(3, 2))
    i = numpy.arange(5)
    with pytest.raises(AssertionError):
        testing.compare_results(i, i + numpy.eye(1, 5, 4, dtype=i.dtype)[0])  # ints are exact


def test_compare_float16_tolerance_looser_than_float32():
    x = numpy.full(3, 1.0)
    y = x * (1 + 5e-4)
    testing.compare_results(x.astype(numpy.float16), y.astype(numpy.float16))
    with pytest.raises(AssertionError):
        testing.compare_results(x.astype(numpy.float32), y.astype(numpy.float32))


def test_compare_nan_positions_must_match():
    a = numpy.array([1.0, numpy.nan, 3.0])
    testing.compare_results(a, a.copy())
    with pytest.raises(AssertionError):
        testing.compare_results(a, numpy.array([1.0, 2.0, 3.0]))
    with pytest.raises(AssertionError):
        testing.compare_results(numpy.array([1.0, 2.0, 3.0]), a)
    with pytest.raises(AssertionError):
        testing.compare_results(a.astype(complex), numpy.array([1.0, 2.0, numpy.nan], dtype=complex))


def test_compare_bool_and_structure():
    t = numpy.array([True, False, True])
    testing.compare_results(t, t.copy())
    with pytest.raises(AssertionError):
        testing.compare_results(t, ~t)
    with pytest.raises(AssertionError, match="tuple"):
        testing.compare_results((t,), [t])
    with pytest.raises(AssertionError, match="items"):
        testing.compare_results((t, t), (t,))


def test_compare_scalars():
    testing.compare_results(3, 3)
    testing.compare_results(numpy.float32(2.5), numpy.asarray(2.5, dtype=numpy.float32))  # 0-d ok
    with pytest.raises(AssertionError, match="Python int"):
        testing.compare_results(3, 3.0)
    with pytest.raises(AssertionError, match="Python bool"):
        testing.compare_results(True, numpy.True_)


def test_explicit_tolerances():
    a = numpy.ones(3, dtype=numpy.float32)
    with pytest.raises(AssertionError):
        testing.compare_results(a, a * 1.01)
    testing.compare_results(a, a * numpy.float32(1.01), rtol=0.02)
    testing.compare_results(a, a * numpy.float32(1.01), rtol={numpy.float32: 0.02, "default": 0})


# ---- the decorators, end to end --------------------------------------------------------------


def _run(decorated, **kwargs):
    """Call a decorated test as pytest would (without the xp argument)."""
    return decorated(**kwargs)


def test_decorator_passes_and_hides_xp(fake_cuarray):
    seen = []

    @testing.numpy_cuarray_allclose()
    def body(xp, dtype):
        seen.append(xp)
        return xp.arange(5, dtype=dtype) * 2

    import inspect

    assert list(inspect.signature(body).parameters) == ["dtype"]  # pytest must not look for `xp`
    assert _run(body, dtype=numpy.float32) is None
    assert seen == [numpy, fake_cuarray]


def test_decorator_detects_mismatches(fake_cuarray):
    @testing.numpy_cuarray_allclose()
    def wrong_dtype(xp):
        return xp.arange(3, dtype=numpy.float32 if xp is numpy else numpy.float64)

    @testing.numpy_cuarray_allclose()
    def wrong_value(xp):
        return xp.arange(3.0) + (0 if xp is numpy else 1e-3)

    @testing.numpy_cuarray_array_equal()
    def not_exact(xp):
        return xp.arange(3.0) + (0 if xp is numpy else 1e-13)

    for body in (wrong_dtype, wrong_value, not_exact):
        with pytest.raises(AssertionError):
            _run(body)


def test_decorator_errors(fake_cuarray):
    @testing.numpy_cuarray_allclose(accept_error=ValueError)
    def both_raise(xp):
        raise ValueError("bad axis")

    @testing.numpy_cuarray_allclose(accept_error=True)
    def different_types(xp):
        raise (ValueError if xp is numpy else TypeError)("x")

    @testing.numpy_cuarray_allclose(accept_error=True)
    def only_numpy_raises(xp):
        if xp is numpy:
            raise IndexError("out of bounds")
        return xp.zeros(1)

    @testing.numpy_cuarray_allclose()
    def raises_unaccepted(xp):
        raise KeyError("k")

    _run(both_raise)
    with pytest.raises(AssertionError, match="NumPy raised ValueError but cuarray raised TypeError"):
        _run(different_types)
    with pytest.raises(AssertionError, match="cuarray raised nothing"):
        _run(only_numpy_raises)
    with pytest.raises(KeyError):
        _run(raises_unaccepted)


def test_decorator_contiguous_check(fake_cuarray):
    @testing.numpy_cuarray_allclose(contiguous_check=True)
    def layout(xp):
        a = numpy.arange(6.0).reshape(2, 3)
        return a.copy() if xp is numpy else a.T.copy().T

    with pytest.raises(AssertionError, match="c_contiguous"):
        _run(layout)


@testing.for_dtypes([numpy.int16, numpy.float32])
@testing.numpy_cuarray_allclose()
def test_decorator_under_pytest(xp, dtype, fake_cuarray):
    # Real use: pytest supplies dtype and the fixture; the decorator supplies xp.
    return testing.shaped_random((2, 3), xp, dtype, seed=7) + 1


# ---- data ------------------------------------------------------------------------------------


@testing.for_all_dtypes()
def test_shaped_random_dtype_shape_not_constant(dtype):
    a = testing.shaped_random((4, 5), numpy, dtype)
    assert a.dtype == numpy.dtype(dtype) and a.shape == (4, 5)
    assert len(numpy.unique(a)) > 1
    assert testing.shaped_random(2, numpy, dtype).shape == (2,)  # even two elements differ
    assert len(set(testing.shaped_random(2, numpy, dtype).tolist())) == 2


def test_shaped_random_ranges():
    s = testing.shaped_random(1000, numpy, numpy.int32, scale=10, seed=0)
    assert s.min() < 0 and s.max() < 10 and s.min() >= -10
    u = testing.shaped_random(1000, numpy, numpy.uint8, scale=10, seed=0)
    assert u.max() < 10
    f = testing.shaped_random(1000, numpy, numpy.float64, scale=3, seed=0)
    assert -3 <= f.min() < 0 < f.max() < 3
    p = testing.shaped_random(1000, numpy, numpy.float32, positive=True, seed=0)
    assert p.min() > 0
    assert testing.shaped_random(1000, numpy, numpy.int8, positive=True, seed=0).min() >= 1
    c = testing.shaped_random(100, numpy, numpy.complex64, seed=0)
    assert (c.imag != 0).any() and (c.real != 0).any()
    big = testing.shaped_random(1000, numpy, numpy.int8, scale=1000, seed=0)
    assert big.min() >= -128  # clipped to the dtype's range (no wrap-around)


def test_shaped_random_seed():
    a = testing.shaped_random((3, 3), numpy, seed=5)
    assert (a == testing.shaped_random((3, 3), numpy, seed=5)).all()
    assert not (a == testing.shaped_random((3, 3), numpy, seed=6)).all()
    assert not (testing.shaped_random(9, numpy) == testing.shaped_random(9, numpy)).all()  # fresh


@testing.for_layouts()
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (7,)])
def test_non_contiguous(layout, shape):
    x = testing.shaped_random(shape, numpy, numpy.float32, seed=1)
    y = testing.non_contiguous(x, layout)
    assert y.shape == x.shape and y.dtype == x.dtype and (y == x).all()
    if layout == "contiguous":
        assert y.flags.c_contiguous
    elif layout == "transposed":
        assert y.flags.f_contiguous and (len(shape) == 1 or not y.flags.c_contiguous)
    elif layout == "step2":
        assert y.base is not None and y.strides == tuple(2 * s for s in y.base.strides)
    else:
        assert all(s < 0 for s in y.strides)


def test_non_contiguous_rejects_unknown_layout():
    with pytest.raises(ValueError):
        testing.non_contiguous(numpy.zeros(3), "diagonal")


def test_compare_requires_cuarray_arrays(fake_cuarray, monkeypatch):
    class DeviceArray:  # stands for cuarray.ndarray: a host array from cuarray is a bug
        pass

    monkeypatch.setattr(fake_cuarray, "ndarray", DeviceArray, raising=False)
    with pytest.raises(AssertionError, match="not its ndarray"):
        testing.compare_results(numpy.ones(2), numpy.ones(2))
