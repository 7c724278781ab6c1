"""cuarray.polynomial (Polynomial and the power-series functions, lowest power first) on the
device, against numpy.polynomial."""

import numpy
import numpy.polynomial.polynomial as NP
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
import cuarray.polynomial.polynomial as CP  # noqa: E402
from cuarray import testing  # noqa: E402

TOL = dict(rtol={"f": 1e-4, "F": 1e-4, "default": 1e-9}, atol={"f": 1e-4, "F": 1e-4, "default": 1e-9})


def M(xp):
    return NP if xp is numpy else CP


def rand(xp, shape, dtype, seed=None):
    return testing.shaped_random(shape, xp, dtype, scale=4, seed=seed)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.int64, numpy.complex128], ids=testing.dtype_id)
@testing.numpy_cuarray_allclose(**TOL)
def test_power_series_functions(xp, dtype):
    m = M(xp)
    c1, c2 = rand(xp, (5,), dtype, seed=1), rand(xp, (3,), dtype, seed=2)
    x = rand(xp, (6,), numpy.float64, seed=3)
    zero_tail = xp.concatenate((c2, xp.zeros(2, c2.dtype)))
    return [m.polyval(x, c1), m.polyval(2.0, c2), m.polyadd(c1, c2), m.polysub(c2, c1), m.polymul(c1, c2),
            m.polyadd(zero_tail, -zero_tail), *m.polydiv(c1, c2), m.polypow(c2, 3), m.polyder(c1), m.polyder(c1, 2, 0.5),
            m.polyder(c2, 5), m.polyint(c1), m.polyint(c1, 2, k=[1.0, 2.0], lbnd=0.5, scl=2.0),
            m.polyvander(x, 3), m.polycompanion(c1)]


@testing.numpy_cuarray_allclose(**TOL)
def test_polyroots_fromroots(xp):
    m = M(xp)
    r = xp.asarray(numpy.array([-1.5, 0.25, 2.0, 3.0]))
    c = m.polyfromroots(r)
    return c, m.polyroots(c), m.polyroots(xp.asarray(numpy.array([2.0, 4.0]))), m.polyroots(xp.asarray(
        numpy.array([1.0 + 1j, 2.0, 1.0])))


@pytest.mark.parametrize("case", ["plain", "w", "full", "2dy"])
@testing.numpy_cuarray_allclose(rtol=1e-7, atol=1e-7)
def test_polyfit_lowest_first(xp, case):
    m = M(xp)
    x = xp.asarray(numpy.linspace(-1, 2, 20))
    y = rand(xp, (20,), numpy.float64, seed=4)
    if case == "plain":
        return m.polyfit(x, y, 3)
    if case == "w":
        return m.polyfit(x, y, 2, w=xp.abs(y) + 1)
    if case == "full":
        c, (res, rank, s, rc) = m.polyfit(x, y, 4, full=True)
        return c, res, rank, s, rc
    return m.polyfit(x, rand(xp, (20, 2), numpy.float64, seed=5), 2)


def C(xp, coef, **kw):
    cls = numpy.polynomial.Polynomial if xp is numpy else cuarray.polynomial.Polynomial
    return cls(coef if xp is numpy else cuarray.asarray(numpy.asarray(coef)), **kw)


@testing.numpy_cuarray_allclose(**TOL)
def test_polynomial_class(xp):
    p = C(xp, [1.0, -2.0, 0.5, 3.0], domain=[0, 4], window=[-1, 1])
    q = C(xp, [2.0, 1.0], domain=[0, 4], window=[-1, 1])
    x = xp.asarray(numpy.linspace(0, 4, 7))
    quo, rem = divmod(p, q)
    out = [p(x), p(1.5), (p + q).coef, (p - q).coef, (q - p).coef, (p * q).coef, (p * 2).coef, (2 * p).coef,
           (p + 1.5).coef, (1.5 - p).coef, (-p).coef, (p / 2.0).coef, (p ** 2).coef, quo.coef, rem.coef,
           (p // q).coef, (p % q).coef, p.deriv().coef, p.deriv(2).coef, p.integ().coef,
           p.integ(2, k=[1.0, -1.0], lbnd=1.0).coef, p.degree(), len(p), p.copy().coef, p.truncate(2).coef,
           p.cutdeg(1).coef, *p.linspace(5), p.roots()]
    return out


def test_polynomial_class_fit_text_errors():
    h = numpy.linspace(-3, 5, 30)
    yh = testing.shaped_random((30,), numpy, numpy.float64, seed=6)
    x, y = cuarray.asarray(h), cuarray.asarray(yh)
    ref = numpy.polynomial.Polynomial.fit(h, yh, 3)
    got = cuarray.polynomial.Polynomial.fit(x, y, 3)
    numpy.testing.assert_allclose(got.coef.get(), ref.coef, rtol=1e-8, atol=1e-8)
    numpy.testing.assert_array_equal(got.domain, ref.domain)
    numpy.testing.assert_allclose(got(x).get(), ref(h), rtol=1e-8, atol=1e-8)
    assert str(C(cuarray, [1.0, 2.0, 3.0])) == str(C(numpy, [1.0, 2.0, 3.0]))
    assert repr(C(cuarray, [1.0, 2.0])) == repr(C(numpy, [1.0, 2.0]))
    fr = cuarray.polynomial.Polynomial.fromroots(cuarray.asarray(numpy.array([1.0, 2.0])))
    numpy.testing.assert_allclose(fr.coef.get(), numpy.polynomial.Polynomial.fromroots([1.0, 2.0]).coef)
    ident = cuarray.polynomial.Polynomial.identity(domain=[0, 2])
    numpy.testing.assert_allclose(ident.coef.get(), numpy.polynomial.Polynomial.identity(domain=[0, 2]).coef)
    trimmed = C(cuarray, [1.0, 1e-9, 2.0, 1e-12, 0.0]).trim(1e-6)
    numpy.testing.assert_allclose(trimmed.coef.get(), C(numpy, [1.0, 1e-9, 2.0, 1e-12, 0.0]).trim(1e-6).coef)
    assert C(cuarray, [1.0, 2.0]) == C(cuarray, [1.0, 2.0]) and C(cuarray, [1.0, 2.0]) != C(cuarray, [1.0, 3.0])
    with pytest.raises(TypeError):
        C(cuarray, [1.0, 2.0]) + C(cuarray, [1.0], domain=[0, 1])
    with pytest.raises(ValueError):
        C(cuarray, [1.0]) ** -1
    with pytest.raises(ZeroDivisionError):
        divmod(C(cuarray, [1.0, 2.0]), C(cuarray, [0.0]))
    with pytest.raises(ValueError):
        cuarray.polynomial.Polynomial(cuarray.ones((2, 2)))
