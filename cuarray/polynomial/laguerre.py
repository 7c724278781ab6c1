"""`numpy.polynomial.laguerre`: Laguerre series and the `Laguerre` class.

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
from .._manipulation.rearranging import flip
from .._manipulation.transpose import moveaxis
from .._math.explog import exp
from .._math.misc import absolute
from .._math.sums_scan import cumsum
from .._statistics.order import max as max_
from ..linalg._decomp import eigvalsh
from ._base import SeriesBase
from .polyutils import as_series, trimcoef, trimseq

__all__ = ["lagzero", "lagone", "lagx", "lagdomain", "lagline", "lagadd", "lagsub", "lagmulx", "lagmul", "lagdiv",
           "lagpow", "lagval", "lagder", "lagint", "lag2poly", "poly2lag", "lagfromroots", "lagvander", "lagfit",
           "lagtrim", "lagroots", "Laguerre", "lagval2d", "lagval3d", "lagvalnd", "laggrid2d", "laggrid3d", "lagvander2d",
           "lagvander3d", "lagcompanion", "laggauss", "lagweight"]

lagtrim = trimcoef
lagdomain = numpy.array([0.0, 1.0])
lagzero = numpy.array([0])
lagone = numpy.array([1])
lagx = numpy.array([1, -1])


def lagline(off, scl):
    """See `numpy.polynomial.laguerre.lagline`."""
    return array([off + scl, -scl]) if scl != 0 else array([off])


def _rec(i):
    """L_{i+1} = ((2i + 1 - x) L_i - i L_{i-1}) / (i + 1)"""
    return -1.0 / (i + 1), (2 * i + 1) / (i + 1), i / (i + 1)


def lagadd(c1, c2):
    """See `numpy.polynomial.laguerre.lagadd`."""
    return S.add(c1, c2)


def lagsub(c1, c2):
    """See `numpy.polynomial.laguerre.lagsub`."""
    return S.sub(c1, c2)


def _mulx(c):
    # x L_i = -(i + 1) L_{i+1} + (2i + 1) L_i - i L_{i-1}
    n = c.shape[0]
    prd = empty((n + 1,), dtype=c.dtype)
    prd[0] = c[0]
    prd[1:] = -c * S.real_ints(1, n + 1, c)
    if n > 1:
        prd[1:n] += c[1:] * S.real_ints(3, 2 * n, c, 2)
        prd[:n - 1] -= c[1:] * S.real_ints(1, n, c)
    return prd


def lagmulx(c):
    """See `numpy.polynomial.laguerre.lagmulx`."""
    (c,), (c_is_zero,) = S.as_series_flags([c])
    if c_is_zero:
        return c
    return _mulx(c)


def _step(cx, c0, c1, nd):
    return S.sub_raw(cx, c1 * (nd - 1) / nd), S.add_raw(c0, S.sub_raw((2 * nd - 1) * c1, _mulx(c1)) / nd)


def _final(c0, c1):
    return S.add_raw(c0, S.sub_raw(c1, _mulx(c1)))


def _mul_recursion(c1, c2):
    return S.recurrence_mul(c1, c2, _step, _final)


def _mul(c1, c2):
    return S.table_mul(_rec, c1, c2, _mul_recursion)


def lagmul(c1, c2):
    """See `numpy.polynomial.laguerre.lagmul`."""
    c1, c2 = as_series([c1, c2])
    return trimseq(_mul(c1, c2))


def lagdiv(c1, c2):
    """See `numpy.polynomial.laguerre.lagdiv` (long division over `lagmul`)."""
    return S.div(_mul, c1, c2, _rec)


def lagpow(c, pow, maxpower=16):
    """See `numpy.polynomial.laguerre.lagpow`."""
    return S.pow_(_mul, c, pow, maxpower)


def lagval(x, c, tensor=True):
    """See `numpy.polynomial.laguerre.lagval`: Clenshaw's recurrence (one kernel at a device array or number)."""
    x, c = S.val_args(x, c, tensor)
    y = K.evaluate("lag", x, c)
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
            c0, c1 = c[-i] - c1 * (nd - 1) / nd, c0 + c1 * (2 * nd - 1 - x) / nd
    return c0 + c1 * (1 - x)


def lagval2d(x, y, c):
    """See `numpy.polynomial.laguerre.lagval2d`."""
    return S.valnd(lagval, c, x, y)


def laggrid2d(x, y, c):
    """See `numpy.polynomial.laguerre.laggrid2d`."""
    return S.gridnd(lagval, c, x, y)


def lagval3d(x, y, z, c):
    """See `numpy.polynomial.laguerre.lagval3d`."""
    return S.valnd(lagval, c, x, y, z)


def lagvalnd(pts, c):
    """See `numpy.polynomial.laguerre.lagvalnd` (NumPy 2.5): the N-D series at the points whose N
    coordinates are the items of `pts` (a sequence, or an array of N rows)."""
    return S.valnd(lagval, c, *pts)


def laggrid3d(x, y, z, c):
    """See `numpy.polynomial.laguerre.laggrid3d`."""
    return S.gridnd(lagval, c, x, y, z)


def _der_step(c):
    # d/dx L_j = -(L_0 + ... + L_{j-1})
    return -flip(cumsum(flip(c[1:], 0), axis=0), 0)


def _der_matrix(n):
    """d/dx L_j = -(L_0 + ... + L_{j-1})"""
    return numpy.triu(-numpy.ones((n - 1, n)), 1)


def lagder(c, m=1, scl=1, axis=0):
    """See `numpy.polynomial.laguerre.lagder`."""
    return S.der(c, m, scl, axis, _der_step, _der_matrix)


def _int_step(c):
    # the integral of L_j is L_j - L_{j+1}
    n = c.shape[0]
    tmp = empty((n + 1,) + c.shape[1:], dtype=c.dtype)
    tmp[0] = c[0]
    tmp[1:] = -c
    if n > 1:
        tmp[1:n] += c[1:]
    return tmp


def lagint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """See `numpy.polynomial.laguerre.lagint`."""
    return S.integ(c, m, k, lbnd, scl, axis, _int_step, lagval)


def poly2lag(pol):
    """See `numpy.polynomial.laguerre.poly2lag`: a product with the table of the powers of x in the basis."""
    return S.from_power(_rec, _mulx, pol)


def lag2poly(c):
    """See `numpy.polynomial.laguerre.lag2poly`: a product with the table of the basis polynomials."""
    c, = as_series([c])
    n = c.shape[0]
    if n == 1:
        return c
    res = S.to_power(_rec, c)
    if res is not None:
        return res
    c0, c1 = c[-2:-1], c[-1:]
    for i in range(n - 1, 1, -1):
        c0, c1 = (S.sub_raw(c[i - 2:i - 1], c1 * (i - 1) / i),
                  S.add_raw(c0, S.sub_raw((2 * i - 1) * c1, S.power_mulx(c1)) / i))
    return trimseq(S.add_raw(c0, S.sub_raw(c1, S.power_mulx(c1))))


def _lines(neg_r):
    return S.line_rows(neg_r + 1, -1)


def lagfromroots(roots):
    """See `numpy.polynomial.laguerre.lagfromroots`."""
    return S.fromroots(_lines, _mul, roots)


def lagvander(x, deg):
    """See `numpy.polynomial.laguerre.lagvander`."""
    ideg, x = S.vander_x(x, deg, "lagvander")
    v = empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = x * 0 + 1
    if ideg > 0:
        v[1] = 1 - x
        for i in range(2, ideg + 1):
            v[i] = (v[i - 1] * (2 * i - 1 - x) - v[i - 2] * (i - 1)) / i
    return moveaxis(v, 0, -1)


def lagvander2d(x, y, deg):
    """See `numpy.polynomial.laguerre.lagvander2d`."""
    return S.vander_nd_flat((lagvander, lagvander), (x, y), deg)


def lagvander3d(x, y, z, deg):
    """See `numpy.polynomial.laguerre.lagvander3d`."""
    return S.vander_nd_flat((lagvander, lagvander, lagvander), (x, y, z), deg)


def lagfit(x, y, deg, rcond=None, full=False, w=None):
    """See `numpy.polynomial.laguerre.lagfit`."""
    return S.fit(lagvander, x, y, deg, rcond, full, w)


def lagcompanion(c):
    """See `numpy.polynomial.laguerre.lagcompanion`."""
    c, = as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (1 + c[0] / c[1]).reshape((1, 1))
    n = c.shape[0] - 1
    mat = zeros((n, n), dtype=c.dtype)
    off = array(-numpy.arange(1, n))
    mat.reshape(-1)[1::n + 1] = off
    mat.reshape(-1)[0::n + 1] = array(2.0 * numpy.arange(n) + 1.0)
    mat.reshape(-1)[n::n + 1] = off
    mat[:, -1] += c[:-1] / c[-1] * n
    return mat


def lagroots(c):
    """See `numpy.polynomial.laguerre.lagroots` (companion eigenvalues, sorted)."""
    return S.roots(lagcompanion, c)


def laggauss(deg):
    """See `numpy.polynomial.laguerre.laggauss`: NumPy's method on the device (eigenvalues of the
    companion matrix, one Newton step, weights from the derivative)."""
    ideg = S.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = zeros((ideg + 1,))
    c[-1] = 1
    x = eigvalsh(lagcompanion(c))
    dy = lagval(x, c)
    df = lagval(x, lagder(c))
    x -= dy / df
    fm = lagval(x, c[1:])
    fm /= max_(absolute(fm))
    df /= max_(absolute(df))
    w = 1 / (fm * df)
    w /= w.sum()
    return x, w


def lagweight(x):
    """See `numpy.polynomial.laguerre.lagweight`."""
    return exp(-as_array(x, "lagweight"))


class Laguerre(SeriesBase):
    """A Laguerre series. See `numpy.polynomial.Laguerre`; `coef` is a device array."""

    _add = staticmethod(lagadd)
    _sub = staticmethod(lagsub)
    _mul = staticmethod(lagmul)
    _div = staticmethod(lagdiv)
    _pow = staticmethod(lagpow)
    _val = staticmethod(lagval)
    _int = staticmethod(lagint)
    _der = staticmethod(lagder)
    _fit = staticmethod(lagfit)
    _line = staticmethod(lagline)
    _roots = staticmethod(lagroots)
    _fromroots = staticmethod(lagfromroots)
    domain = numpy.array(lagdomain)
    window = numpy.array(lagdomain)
    basis_name = "L"
    _host_kind = numpy.polynomial.Laguerre
