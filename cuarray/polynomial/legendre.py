"""`numpy.polynomial.legendre`: Legendre series and the `Legendre` class.

Short products, the divisor products of division and the conversions to and from power series
are matrix products with host tables built from the basis's recurrence (`_rec`, _tables.py);
long series run NumPy's recursions. Evaluation at a device array or a number is one kernel
(_kernels.py). Multiply-by-x, the integral and the derivative are vectorised where NumPy loops
over coefficients.
"""

from __future__ import annotations

import numpy

from . import _kernels as K
from . import _series as S
from .._core.host_input import as_array
from .._creation.basic import empty, zeros
from .._creation.from_data import array
from .._manipulation.transpose import moveaxis
from .._math.misc import absolute
from .._statistics.order import max as max_
from ..linalg._decomp import eigvalsh
from ._base import SeriesBase
from .polyutils import as_series, trimcoef, trimseq

__all__ = ["legzero", "legone", "legx", "legdomain", "legline", "legadd", "legsub", "legmulx", "legmul", "legdiv",
           "legpow", "legval", "legder", "legint", "leg2poly", "poly2leg", "legfromroots", "legvander", "legfit",
           "legtrim", "legroots", "Legendre", "legval2d", "legval3d", "legvalnd", "leggrid2d", "leggrid3d", "legvander2d",
           "legvander3d", "legcompanion", "leggauss", "legweight"]

legtrim = trimcoef
legdomain = numpy.array([-1.0, 1.0])
legzero = numpy.array([0])
legone = numpy.array([1])
legx = numpy.array([0, 1])


def legline(off, scl):
    """See `numpy.polynomial.legendre.legline`."""
    return S.line(off, scl)


def _rec(i):
    """P_{i+1} = ((2i + 1) x P_i - i P_{i-1}) / (i + 1)"""
    return (2 * i + 1) / (i + 1), 0.0, i / (i + 1)


def legadd(c1, c2):
    """See `numpy.polynomial.legendre.legadd`."""
    return S.add(c1, c2)


def legsub(c1, c2):
    """See `numpy.polynomial.legendre.legsub`."""
    return S.sub(c1, c2)


def _mulx(c):
    # x P_i = ((i + 1) P_{i+1} + i P_{i-1}) / (2i + 1)
    n = c.shape[0]
    prd = zeros((n + 1,), dtype=c.dtype)
    prd[0] = c[0] * 0
    prd[1] = c[0]
    if n > 1:
        i = S.real_ints(1, n, c)
        s = 2 * i + 1
        prd[2:] = c[1:] * (i + 1) / s
        prd[:n - 1] += c[1:] * i / s
    return prd


def legmulx(c):
    """See `numpy.polynomial.legendre.legmulx`."""
    (c,), (c_is_zero,) = S.as_series_flags([c])
    if c_is_zero:
        return c
    return _mulx(c)


def _step(cx, c0, c1, nd):
    return S.sub_raw(cx, c1 * (nd - 1) / nd), S.add_raw(c0, _mulx(c1) * (2 * nd - 1) / nd)


def _final(c0, c1):
    return S.add_raw(c0, _mulx(c1))


def _mul_recursion(c1, c2):
    return S.recurrence_mul(c1, c2, _step, _final)


def _mul(c1, c2):
    return S.table_mul(_rec, c1, c2, _mul_recursion)


def legmul(c1, c2):
    """See `numpy.polynomial.legendre.legmul`."""
    c1, c2 = as_series([c1, c2])
    return trimseq(_mul(c1, c2))


def legdiv(c1, c2):
    """See `numpy.polynomial.legendre.legdiv` (long division over `legmul`)."""
    return S.div(_mul, c1, c2, _rec)


def legpow(c, pow, maxpower=16):
    """See `numpy.polynomial.legendre.legpow`."""
    return S.pow_(_mul, c, pow, maxpower)


def legval(x, c, tensor=True):
    """See `numpy.polynomial.legendre.legval`: Clenshaw's recurrence (one kernel at a device array or number)."""
    x, c = S.val_args(x, c, tensor)
    y = K.evaluate("leg", x, c)
    if y is not None:
        return y
    if c.shape[0] == 1:
        c0, c1 = c[0], 0
    elif c.shape[0] == 2:
        c0, c1 = c[0], c[1]
    else:
        nd = c.shape[0]
        c0, c1 = c[-2], c[-1]
        for i in range(3, c.shape[0] + 1):
            nd -= 1
            c0, c1 = c[-i] - c1 * ((nd - 1) / nd), c0 + c1 * x * ((2 * nd - 1) / nd)
    return c0 + c1 * x


def legval2d(x, y, c):
    """See `numpy.polynomial.legendre.legval2d`."""
    return S.valnd(legval, c, x, y)


def leggrid2d(x, y, c):
    """See `numpy.polynomial.legendre.leggrid2d`."""
    return S.gridnd(legval, c, x, y)


def legval3d(x, y, z, c):
    """See `numpy.polynomial.legendre.legval3d`."""
    return S.valnd(legval, c, x, y, z)


def legvalnd(pts, c):
    """See `numpy.polynomial.legendre.legvalnd` (NumPy 2.5): the N-D series at the points whose N
    coordinates are the items of `pts` (a sequence, or an array of N rows)."""
    return S.valnd(legval, c, *pts)


def leggrid3d(x, y, z, c):
    """See `numpy.polynomial.legendre.leggrid3d`."""
    return S.gridnd(legval, c, x, y, z)


def _der_step(c):
    # d/dx P_j = sum of (2i + 1) P_i over i = j - 1, j - 3, ...
    return S.revcumsum2(c[1:]) * S.real_ints(1, 2 * c.shape[0] - 2, c, 2)


def _der_matrix(n):
    """d/dx P_j = sum of (2i + 1) P_i over i = j - 1, j - 3, ..."""
    d = numpy.zeros((n - 1, n))
    for j in range(1, n):
        d[j - 1::-2, j] = 2 * numpy.arange(j - 1, -1, -2) + 1
    return d


def legder(c, m=1, scl=1, axis=0):
    """See `numpy.polynomial.legendre.legder`."""
    return S.der(c, m, scl, axis, _der_step, _der_matrix)


def _int_step(c):
    # the integral of P_j is (P_{j+1} - P_{j-1}) / (2j + 1)
    n = c.shape[0]
    tmp = empty((n + 1,) + c.shape[1:], dtype=c.dtype)
    tmp[0] = c[0] * 0
    tmp[1] = c[0]
    if n > 1:
        tmp[2:] = c[1:] / S.real_ints(3, 2 * n, c, 2)
    if n > 2:
        tmp[1:n - 1] -= c[2:] / S.real_ints(5, 2 * n, c, 2)
    return tmp


def legint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """See `numpy.polynomial.legendre.legint`."""
    return S.integ(c, m, k, lbnd, scl, axis, _int_step, legval)


def poly2leg(pol):
    """See `numpy.polynomial.legendre.poly2leg`: a product with the table of the powers of x in the basis."""
    return S.from_power(_rec, _mulx, pol)


def leg2poly(c):
    """See `numpy.polynomial.legendre.leg2poly`: a product with the table of the basis polynomials."""
    c, = as_series([c])
    n = c.shape[0]
    if n < 3:
        return c
    res = S.to_power(_rec, c)
    if res is not None:
        return res
    c0, c1 = c[-2:-1], c[-1:]
    for i in range(n - 1, 1, -1):
        c0, c1 = (S.sub_raw(c[i - 2:i - 1], c1 * (i - 1) / i),
                  S.add_raw(c0, S.power_mulx(c1) * (2 * i - 1) / i))
    return trimseq(S.add_raw(c0, S.power_mulx(c1)))


def _lines(neg_r):
    return S.line_rows(neg_r, 1)


def legfromroots(roots):
    """See `numpy.polynomial.legendre.legfromroots`."""
    return S.fromroots(_lines, _mul, roots)


def legvander(x, deg):
    """See `numpy.polynomial.legendre.legvander`."""
    ideg, x = S.vander_x(x, deg, "legvander")
    v = empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = x * 0 + 1
    if ideg > 0:
        v[1] = x
        for i in range(2, ideg + 1):
            v[i] = (v[i - 1] * x * (2 * i - 1) - v[i - 2] * (i - 1)) / i
    return moveaxis(v, 0, -1)


def legvander2d(x, y, deg):
    """See `numpy.polynomial.legendre.legvander2d`."""
    return S.vander_nd_flat((legvander, legvander), (x, y), deg)


def legvander3d(x, y, z, deg):
    """See `numpy.polynomial.legendre.legvander3d`."""
    return S.vander_nd_flat((legvander, legvander, legvander), (x, y, z), deg)


def legfit(x, y, deg, rcond=None, full=False, w=None):
    """See `numpy.polynomial.legendre.legfit`."""
    return S.fit(legvander, x, y, deg, rcond, full, w)


def legcompanion(c):
    """See `numpy.polynomial.legendre.legcompanion` (the scaled, symmetric form)."""
    c, = as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape((1, 1))
    n = c.shape[0] - 1
    mat = zeros((n, n), dtype=c.dtype)
    scl = 1.0 / numpy.sqrt(2 * numpy.arange(n) + 1)
    off = array(numpy.arange(1, n) * scl[:n - 1] * scl[1:n])
    mat.reshape(-1)[1::n + 1] = off
    mat.reshape(-1)[n::n + 1] = off
    mat[:, -1] -= c[:-1] / c[-1] * array(scl / scl[-1]) * (n / (2 * n - 1))
    return mat


def legroots(c):
    """See `numpy.polynomial.legendre.legroots` (companion eigenvalues, sorted: complex for a series of
    degree two or more from NumPy 2.5 on, as NumPy's, even when every root is real)."""
    return S.roots(legcompanion, c, real_if_real=False)


def leggauss(deg):
    """See `numpy.polynomial.legendre.leggauss`: NumPy's method on the device (eigenvalues of the
    symmetric companion matrix, one Newton step, weights from the derivative)."""
    ideg = S.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = zeros((ideg + 1,))
    c[-1] = 1
    x = eigvalsh(legcompanion(c))
    dy = legval(x, c)
    df = legval(x, legder(c))
    x -= dy / df
    fm = legval(x, c[1:])
    fm /= max_(absolute(fm))
    df /= max_(absolute(df))
    w = 1 / (fm * df)
    w = (w + w[::-1]) / 2
    x = (x - x[::-1]) / 2
    w *= 2.0 / w.sum()
    return x, w


def legweight(x):
    """See `numpy.polynomial.legendre.legweight`."""
    return as_array(x, "legweight") * 0.0 + 1.0


class Legendre(SeriesBase):
    """A Legendre series. See `numpy.polynomial.Legendre`; `coef` is a device array."""

    _add = staticmethod(legadd)
    _sub = staticmethod(legsub)
    _mul = staticmethod(legmul)
    _div = staticmethod(legdiv)
    _pow = staticmethod(legpow)
    _val = staticmethod(legval)
    _int = staticmethod(legint)
    _der = staticmethod(legder)
    _fit = staticmethod(legfit)
    _line = staticmethod(legline)
    _roots = staticmethod(legroots)
    _fromroots = staticmethod(legfromroots)
    domain = numpy.array(legdomain)
    window = numpy.array(legdomain)
    basis_name = "P"
    _host_kind = numpy.polynomial.Legendre
