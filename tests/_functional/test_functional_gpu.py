"""vectorize (compiled), apply_along_axis, apply_over_axes and piecewise on the device, against
NumPy. Fresh random data."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

TOL = dict(rtol={"e": 1e-2, "f": 1e-5, "F": 1e-5, "default": 1e-12},
           atol={"e": 1e-2, "f": 1e-5, "F": 1e-5, "default": 1e-12})


def rand(xp, shape, dtype, seed=None, scale=5):
    return testing.shaped_random(shape, xp, dtype, scale=scale, seed=seed)


def _body(name, xp):
    return {
        "poly": lambda x, y: 3 * x * x + 2 * y - 1.5,
        "compare": lambda x, y: (x > y) | (x == 2),
        "ufuncs": lambda x, y: xp.exp(x / 10) + numpy.sin(y) / xp.sqrt(abs(x) + 1),
        "intdiv": lambda x, y: x // 3 - y % 5,
        "power": lambda x, y: x ** 2 + y,
        "divmod": lambda x, y: divmod(x, 3),
        "clip": lambda x, y: xp.clip(x, -1, 1) * y,
        "const": lambda x, y: 7,
    }[name]


@pytest.mark.parametrize("name", ["poly", "compare", "ufuncs", "intdiv", "power", "divmod", "clip", "const"])
@pytest.mark.parametrize("dts", [("f4", "f4"), ("f8", "i4"), ("i8", "i8"), ("i2", "u1"), ("f2", "f4")],
                         ids=lambda d: "-".join(d))
@testing.numpy_cuarray_allclose(**TOL)
def test_vectorize_against_numpy(xp, name, dts):
    if name == "ufuncs" and dts[1] == "u1":
        pytest.skip("documented difference: sin(uint8) is the ufunc's float16 loop (computed in float) in "
                    "the kernel, Python float in NumPy's vectorize")
    x = rand(xp, (4, 5), dts[0], seed=1)
    y = rand(xp, (5,), dts[1], seed=2, scale=4) + 0  # broadcast against x
    if xp is numpy:  # NumPy's vectorize on Python objects; types from its first call (as ours)
        f = numpy.vectorize(_body(name, numpy))
    else:
        f = cuarray.vectorize(_body(name, cuarray))
    if name in ("intdiv", "divmod", "poly", "power") and "f2" in dts:
        pytest.skip("NumPy computes float16 bodies in Python float: values differ beyond float16")
    with numpy.errstate(all="ignore"):
        return f(x, y)


@testing.numpy_cuarray_allclose(**TOL)
def test_vectorize_otypes_excluded_kwargs_noncontiguous(xp):
    x = rand(xp, (6, 4), numpy.float64, seed=3).T[::2]

    def f(a, scale, b=1.0):
        return a * scale + b

    v = xp.vectorize(f, otypes=[numpy.float32], excluded={1})
    return v(x, 2.0, b=xp.asarray(numpy.float64(0.5))), v(x, 3, b=2.0)


@testing.numpy_cuarray_allclose(**TOL)
def test_vectorize_tuple_output_and_closure_constant(xp):
    x = rand(xp, (7,), numpy.float32, seed=4)
    c = [1.5]
    f = xp.vectorize(lambda a: (a + c[0], a > c[0]))
    r1 = f(x)
    c[0] = -2.0  # constants are kernel arguments: the new value is used
    return r1, f(x)


def test_vectorize_errors():
    x = cuarray.asarray(1.5 - numpy.arange(4.0))  # first output a float, so numpy.vectorize infers float64
    # Conditional expressions and where() compile now (vectorize compiles the source, as CuPy's)
    got = cuarray.vectorize(lambda a: a if a > 0 else 0)(x)
    numpy.testing.assert_array_equal(got.get(), numpy.vectorize(lambda a: a if a > 0 else 0)(x.get()))
    got = cuarray.vectorize(lambda a: cuarray.where(a > 0, a, 0))(x)
    numpy.testing.assert_array_equal(got.get(), numpy.where(x.get() > 0, x.get(), 0))
    with pytest.raises(TypeError, match="Invalid return type"):  # CuPy's error for a function returning nothing
        cuarray.vectorize(lambda a: None)(x)
    with pytest.raises(ValueError, match="size 0"):
        cuarray.vectorize(lambda a: a)(x[:0])
    assert cuarray.vectorize(lambda a: a, otypes="d")(x[:0]).shape == (0,)
    with pytest.raises(TypeError):
        cuarray.vectorize(lambda a: a)(numpy.arange(3.0))


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
@pytest.mark.parametrize("fn", ["sum", "cumsum", "outer", "scalar", "sort"])
@testing.numpy_cuarray_allclose(rtol=1e-6, atol=1e-6)
def test_apply_along_axis(xp, axis, fn):
    a = rand(xp, (3, 4, 5), numpy.float64, seed=5)
    f = {"sum": lambda v: v.sum(), "cumsum": lambda v: xp.cumsum(v), "outer": lambda v: xp.outer(v, v[:2]),
         "scalar": lambda v: 2.5, "sort": lambda v, k: xp.sort(v) * k}[fn]
    if fn == "sort":
        return xp.apply_along_axis(f, axis, a, 3.0)
    return xp.apply_along_axis(f, axis, a)


@testing.numpy_cuarray_allclose(accept_error=True)
def test_apply_along_axis_errors(xp):
    return xp.apply_along_axis(lambda v: v, 1, rand(xp, (0, 3), numpy.float64))


@pytest.mark.parametrize("axes", [0, [0, 2], (-1,), [1, 0]], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-6, atol=1e-6)
def test_apply_over_axes(xp, axes):
    a = rand(xp, (3, 4, 5), numpy.float32, seed=6)
    return xp.apply_over_axes(xp.sum, a, axes), xp.apply_over_axes(lambda x, ax: xp.mean(x, axis=ax, keepdims=True),
                                                                     a, axes)


@testing.numpy_cuarray_allclose(accept_error=True)
def test_apply_over_axes_error(xp):
    return xp.apply_over_axes(lambda x, ax: x.sum(), rand(xp, (3, 4, 5), numpy.float32), [0])


@testing.numpy_cuarray_allclose()
def test_piecewise_callables(xp):
    x = rand(xp, (10,), numpy.float64, seed=7)
    return (xp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]),
            xp.piecewise(x, [x < -1, x > 1], [lambda v, k: v * k, 0.5, lambda v, k: v + k], 3.0))
