"""vectorize's compiled control flow on the device against numpy.vectorize, fresh random data: the
bodies of tests/_functional/test_vectorize_compile_cpu.py (if/elif/else, loops, tuples, min/max,
math, casts, and/or, break/continue) and CuPy's own vectorize test bodies."""

import math

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402

import test_vectorize_compile_cpu as cpu  # noqa: E402  (the bodies; pytest puts this folder on sys.path)


def _data(dts, shape=(7, 31)):
    rng = numpy.random.default_rng()
    out = []
    for d in dts:
        d = numpy.dtype(d)
        if d.kind in "iu":
            out.append(rng.integers(1, 12, shape).astype(d))  # (loop counts: small; no division by 0)
        else:
            out.append(((rng.random(shape) - 0.3) * 8).astype(d))
    return out


def _check(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        g = g.get()
        if w.dtype.kind in "fc":
            # float32 kernels compute in float32; numpy.vectorize computes in Python floats and rounds
            tol = 1e-5 if w.dtype.char in "fF" else 1e-12
            numpy.testing.assert_allclose(g, w, rtol=tol, atol=tol)
        else:
            numpy.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("fn,dts", cpu.CASES, ids=lambda c: c.__name__ if callable(c) else "-".join(c))
def test_against_numpy_vectorize(fn, dts):
    args = _data(dts)
    if fn is cpu.f_for_step:  # start, stop, step as CuPy's test: steps of both signs, never 0
        args[2] = numpy.where(args[2] % 2 == 0, -1, 2) * (args[2] % 3 + 1)
    with numpy.errstate(all="ignore"):
        want = numpy.vectorize(fn)(*args)
    got = cuarray.vectorize(fn)(*[cuarray.asarray(a) for a in args])
    _check(got, want)


def test_complex_comparisons_are_lexicographic():
    rng = numpy.random.default_rng()
    re = rng.integers(0, 3, 200).astype("f8")  # (ties in the real part: the imaginary part decides)
    x = re + 1j * rng.integers(0, 3, 200)
    y = rng.permutation(re) + 1j * rng.integers(0, 3, 200)
    lt, ge, mx = cuarray.vectorize(cpu.f_complex_compare)(cuarray.asarray(x), cuarray.asarray(y))
    numpy.testing.assert_array_equal(lt.get(), x < y)
    numpy.testing.assert_array_equal(ge.get(), x >= y)
    numpy.testing.assert_array_equal(mx.get(), numpy.where(y > x, y, x))


def test_cupy_bodies():
    x = cuarray.asarray(numpy.array([0.4, -0.2, 1.8, -1.2], numpy.float32))
    r = cuarray.vectorize(lambda v: v if v > 0.0 else 0.0)(x)  # CuPy's relu: float32
    assert r.dtype == numpy.float32
    numpy.testing.assert_array_equal(r.get(), numpy.array([0.4, 0, 1.8, 0], numpy.float32))

    def my_func(x1, x2, x3):
        y = x1 + x2 * x3 ** x1
        x2 = y + x3 * x1
        return x1 + x2 + x3

    a = [numpy.random.default_rng().integers(0, 4, (20, 30)) for _ in range(3)]
    _check(cuarray.vectorize(my_func)(*[cuarray.asarray(v) for v in a]), numpy.vectorize(my_func)(*a))


def test_excluded_keyword_and_default_arguments():
    def f(x, scale, offset=1.5):
        return x * scale[0] + offset if x > 0 else -x

    x = _data(["f8"])[0]
    want = numpy.vectorize(f, excluded={1, "offset"})(x, (3.0,), offset=2.0)
    got = cuarray.vectorize(f, excluded={1, "offset"})(cuarray.asarray(x), (3.0,), offset=2.0)
    _check(got, want)


def test_otypes_and_math_on_float32():
    x = _data(["f4"])[0]
    f = cuarray.vectorize(cpu.f_math, otypes=[numpy.float64])
    want = numpy.vectorize(cpu.f_math, otypes=[numpy.float64])(x)
    got = f(cuarray.asarray(x))
    assert got.dtype == numpy.float64
    # (the body computes in float32 where NumPy's Python floats compute in double; otypes casts last)
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)
    assert math.isfinite(float(got.get().sum()))
