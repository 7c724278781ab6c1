"""poly1d and the poly* routines on the device, against NumPy. Roots are compared sorted (the
eigenvalue solver's order is not LAPACK's)."""

import warnings

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

TOL = dict(rtol={"f": 1e-4, "F": 1e-4, "default": 1e-9}, atol={"f": 1e-4, "F": 1e-4, "default": 1e-9})
DT = [numpy.float64, numpy.float32, numpy.int64, numpy.complex128]
dtypes = pytest.mark.parametrize("dtype", DT, ids=testing.dtype_id)


def rand(xp, shape, dtype, seed=None, scale=4):
    return testing.shaped_random(shape, xp, dtype, scale=scale, seed=seed)


@dtypes
@pytest.mark.parametrize("xshape", [(7,), (2, 3), ()])
@testing.numpy_cuarray_allclose(**TOL)
def test_polyval(xp, dtype, xshape):
    p = rand(xp, (5,), dtype, seed=1)
    x = rand(xp, xshape, numpy.float32, seed=2)
    return xp.polyval(p, x), xp.polyval(p, x[...] if xshape else x, ), xp.polyval(p[:1], x)


@dtypes
@pytest.mark.parametrize("n1,n2", [(4, 4), (2, 5), (6, 1)])
@testing.numpy_cuarray_allclose(**TOL)
def test_polyadd_sub_mul(xp, dtype, n1, n2):
    a, b = rand(xp, (n1,), dtype, seed=3), rand(xp, (n2,), numpy.float32, seed=4)
    return xp.polyadd(a, b), xp.polysub(a, b), xp.polysub(b, a), xp.polymul(a, b)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int64, numpy.complex128], ids=testing.dtype_id)
@pytest.mark.parametrize("n1,n2", [(6, 3), (3, 3), (2, 4), (5, 1)])
@testing.numpy_cuarray_allclose(**TOL)
def test_polydiv(xp, dtype, n1, n2):
    u, v = rand(xp, (n1,), dtype, seed=5), rand(xp, (n2,), dtype, seed=6)
    return xp.polydiv(u, v)


@testing.numpy_cuarray_allclose(**TOL)
def test_polydiv_exact_remainder_trimmed(xp):
    v = xp.asarray(numpy.array([1.0, -2.0]))
    u = xp.polymul(v, xp.asarray(numpy.array([3.0, 1.0, 4.0])))
    return xp.polydiv(u, v)


@dtypes
@pytest.mark.parametrize("m", [0, 1, 2, 5])
@testing.numpy_cuarray_allclose(**TOL)
def test_polyder_polyint(xp, dtype, m):
    p = rand(xp, (5,), dtype, seed=7)
    return xp.polyder(p, m), xp.polyint(p, m), xp.polyint(p, m, k=2.5), xp.polyint(p, m, k=[1.0] * max(m, 1))


@pytest.mark.parametrize("case", ["der_neg", "int_neg", "int_k"])
@testing.numpy_cuarray_allclose(accept_error=True)
def test_polyder_polyint_errors(xp, case):
    p = rand(xp, (4,), numpy.float64)
    if case == "der_neg":
        return xp.polyder(p, -1)
    if case == "int_neg":
        return xp.polyint(p, -1)
    return xp.polyint(p, 3, k=[1.0, 2.0])


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int32, numpy.complex128, numpy.float32], ids=testing.dtype_id)
@testing.numpy_cuarray_allclose(**TOL)
def test_poly_from_roots(xp, dtype):
    r = rand(xp, (4,), dtype, seed=8)
    return xp.poly(r)


@testing.numpy_cuarray_allclose(**TOL)
def test_poly_conjugate_pairs_and_empty(xp):
    r = xp.asarray(numpy.array([1 + 2j, 1 - 2j, 3.0]))
    return xp.poly(r), xp.poly(xp.asarray(numpy.zeros(0)))


def test_poly_of_matrix():
    h = testing.shaped_random((3, 3), numpy, numpy.float64, seed=9)
    numpy.testing.assert_allclose(cuarray.poly(cuarray.asarray(h)).get(), numpy.poly(h), rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("coeffs", [[1.0, -6.0, 11.0, -6.0], [0.0, 0.0, 2.0, 0.0, 0.0], [3.0], [0.0, 0.0],
                                    [1.0, 0.0, 1.0], [2, -3, 1], [1 + 1j, 2.0, -1j]], ids=str)
def test_roots(coeffs):
    h = numpy.array(coeffs)
    ref = numpy.roots(h)
    got = cuarray.roots(cuarray.asarray(h))
    assert got.shape == ref.shape
    assert got.dtype.kind == ref.dtype.kind or (ref.size == 0 and got.dtype == ref.dtype)
    numpy.testing.assert_allclose(numpy.sort_complex(got.get()), numpy.sort_complex(ref), rtol=1e-8, atol=1e-8)
    with pytest.raises(ValueError):
        cuarray.roots(cuarray.asarray(numpy.ones((2, 2))))


@pytest.mark.parametrize("case", ["plain", "w", "2dy", "full", "cov", "cov_unscaled", "deg0", "rcond"])
@testing.numpy_cuarray_allclose(rtol=1e-6, atol=1e-6)
def test_polyfit(xp, case):
    x = xp.asarray(numpy.linspace(-2, 3, 25))
    y = rand(xp, (25,), numpy.float64, seed=10)
    if case == "plain":
        return xp.polyfit(x, y, 3)
    if case == "w":
        return xp.polyfit(x, y, 2, w=rand(xp, (25,), numpy.float64, seed=11, scale=1) + 2)
    if case == "2dy":
        return xp.polyfit(x, rand(xp, (25, 3), numpy.float64, seed=12), 2)
    if case == "full":
        c, res, rank, sv, rc = xp.polyfit(x, y, 4, full=True)
        return c, res, rank, sv, rc
    if case == "cov":
        return xp.polyfit(x, rand(xp, (25, 2), numpy.float64, seed=13), 2, cov=True)
    if case == "cov_unscaled":
        return xp.polyfit(x, y, 2, cov="unscaled")
    if case == "deg0":
        return xp.polyfit(x, y, 0)
    return xp.polyfit(x, y, 3, rcond=1e-3)


@pytest.mark.parametrize("case", ["deg", "x2d", "xempty", "y3d", "len", "w2d", "wlen"])
@testing.numpy_cuarray_allclose(accept_error=True)
def test_polyfit_errors(xp, case):
    x = xp.asarray(numpy.linspace(0, 1, 6))
    y = rand(xp, (6,), numpy.float64)
    if case == "deg":
        return xp.polyfit(x, y, -1)
    if case == "x2d":
        return xp.polyfit(x.reshape(2, 3), y, 1)
    if case == "xempty":
        return xp.polyfit(x[:0], y[:0], 1)
    if case == "y3d":
        return xp.polyfit(x, y.reshape(6, 1, 1), 1)
    if case == "len":
        return xp.polyfit(x, y[:5], 1)
    if case == "w2d":
        return xp.polyfit(x, y, 1, w=y.reshape(2, 3))
    return xp.polyfit(x, y, 1, w=y[:4])


def test_polyfit_rank_warning():
    x = cuarray.asarray(numpy.array([0.0, 1.0, 2.0]))
    with pytest.warns(numpy.exceptions.RankWarning):
        cuarray.polyfit(x, x, 5)


# -- poly1d ----------------------------------------------------------------------------------------
def P(xp, coeffs, **kw):
    c = numpy.array(coeffs)
    return xp.poly1d(c if xp is numpy else cuarray.asarray(c), **kw)


def _c(p):
    return p.coeffs if isinstance(p, (numpy.poly1d, cuarray.poly1d)) else p


@testing.numpy_cuarray_allclose(**TOL)
def test_poly1d_arithmetic(xp):
    p, q = P(xp, [0.0, 1.0, -2.0, 3.0]), P(xp, [2.0, 0.5])
    x = xp.asarray(numpy.array([0.5, -1.0, 2.0]))
    quot, rem = p / q
    return [_c(p), _c(q), _c(p + q), _c(p - q), _c(q - p), _c(p * q), _c(p * 2), _c(3 * p), _c(p ** 3), _c(-p),
            _c(p + 1.5), _c(1.5 - p), _c(p / 2.0), _c(quot), _c(rem), p(x), p(2.0), _c(p(q)), _c(p.deriv()),
            _c(p.deriv(2)), _c(p.integ()), _c(p.integ(2, k=1.0)), p.order, len(p), p[0], p[2], p[7], _c(p.c),
            _c(p.coef), _c(p.coefficients), p.o]


def test_poly1d_text_roots_eq_setitem():
    for coeffs in ([1.0, -3.0, 2.0], [0.0, 2.5, 0.0, -1.0], [1 + 2j, 3.0], [0.0]):
        h, d = numpy.poly1d(coeffs), P(cuarray, coeffs)
        assert str(d) == str(h) and repr(d) == repr(h)
    h, d = numpy.poly1d([1.0, -3.0, 2.0], variable="z"), P(cuarray, [1.0, -3.0, 2.0], variable="z")
    assert str(d) == str(h) and d.variable == "z"
    numpy.testing.assert_allclose(numpy.sort(d.roots.get()), numpy.sort(h.roots))
    numpy.testing.assert_allclose(numpy.sort(d.r.get()), numpy.sort(h.r))
    assert d == P(cuarray, [1.0, -3.0, 2.0]) and d != P(cuarray, [1.0, -3.0, 2.5]) and d != P(cuarray, [1.0, 2.0])
    fromroots = cuarray.poly1d(cuarray.asarray(numpy.array([1.0, 2.0])), r=True)
    numpy.testing.assert_allclose(fromroots.coeffs.get(), numpy.poly1d([1.0, 2.0], r=True).coeffs)
    d[4] = 7.0
    h[4] = 7.0
    numpy.testing.assert_array_equal(d.coeffs.get(), h.coeffs)
    d[1] = -1.0
    h[1] = -1.0
    numpy.testing.assert_array_equal(d.coeffs.get(), h.coeffs)
    with pytest.raises(ValueError):
        d[-1] = 1.0
    with pytest.raises(ValueError):
        d ** -1
    with pytest.raises(ValueError):
        cuarray.poly1d(cuarray.ones((2, 2)))
    with pytest.raises(AttributeError):
        d.coeffs = cuarray.ones(3)
    assert cuarray.poly1d(d).coeffs is d.coeffs
