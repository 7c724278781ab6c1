"""`numpy.polynomial.hermite_e`: probabilists' Hermite series and the `HermiteE` class.

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
from .._creation.basic import empty, full as full_, zeros
from .._creation.from_data import array
from .._manipulation.transpose import moveaxis
from .._math.explog import exp
from .._math.misc import absolute
from .._statistics.order import max as max_
from ..linalg._decomp import eigvalsh
from ._base import SeriesBase
from .polyutils import as_series, trimcoef, trimseq

__all__ = ["hermezero", "hermeone", "hermex", "hermedomain", "hermeline", "hermeadd", "hermesub", "hermemulx",
           "hermemul", "hermediv", "hermepow", "hermeval", "hermeder", "hermeint", "herme2poly", "poly2herme",
           "hermefromroots", "hermevander", "hermefit", "hermetrim", "hermeroots", "HermiteE", "hermeval2d",
           "hermeval3d", "hermevalnd", "hermegrid2d", "hermegrid3d", "hermevander2d", "hermevander3d", "hermecompanion",
           "hermegauss", "hermeweight"]

hermetrim = trimcoef
hermedomain = numpy.array([-1.0, 1.0])
hermezero = numpy.array([0])
hermeone = numpy.array([1])
hermex = numpy.array([0, 1])


def hermeline(off, scl):
    """See `numpy.polynomial.hermite_e.hermeline`."""
    return S.line(off, scl)


def _rec(i):
    """He_{i+1} = x He_i - i He_{i-1}"""
    return 1.0, 0.0, float(i)


def hermeadd(c1, c2):
    """See `numpy.polynomial.hermite_e.hermeadd`."""
    return S.add(c1, c2)


def hermesub(c1, c2):
    """See `numpy.polynomial.hermite_e.hermesub`."""
    return S.sub(c1, c2)


def _mulx(c):
    # x He_i = He_{i+1} + i He_{i-1}
    n = c.shape[0]
    prd = empty((n + 1,), dtype=c.dtype)
    prd[0] = c[0] * 0
    prd[1:] = c
    if n > 1:
        prd[:n - 1] += c[1:] * S.real_ints(1, n, c)
    return prd


def hermemulx(c):
    """See `numpy.polynomial.hermite_e.hermemulx`."""
    (c,), (c_is_zero,) = S.as_series_flags([c])
    if c_is_zero:
        return c
    return _mulx(c)


def _step(cx, c0, c1, nd):
    return S.sub_raw(cx, c1 * (nd - 1)), S.add_raw(c0, _mulx(c1))


def _final(c0, c1):
    return S.add_raw(c0, _mulx(c1))


def _mul_recursion(c1, c2):
    return S.recurrence_mul(c1, c2, _step, _final)


def _mul(c1, c2):
    return S.table_mul(_rec, c1, c2, _mul_recursion)


def hermemul(c1, c2):
    """See `numpy.polynomial.hermite_e.hermemul`."""
    c1, c2 = as_series([c1, c2])
    return trimseq(_mul(c1, c2))


def hermediv(c1, c2):
    """See `numpy.polynomial.hermite_e.hermediv` (long division over `hermemul`)."""
    return S.div(_mul, c1, c2, _rec)


def hermepow(c, pow, maxpower=16):
    """See `numpy.polynomial.hermite_e.hermepow`."""
    return S.pow_(_mul, c, pow, maxpower)


def hermeval(x, c, tensor=True):
    """See `numpy.polynomial.hermite_e.hermeval`: Clenshaw's recurrence (one kernel at a device array or number)."""
    x, c = S.val_args(x, c, tensor)
    y = K.evaluate("herme", x, c)
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
            c0, c1 = c[-i] - c1 * (nd - 1), c0 + c1 * x
    return c0 + c1 * x


def hermeval2d(x, y, c):
    """See `numpy.polynomial.hermite_e.hermeval2d`."""
    return S.valnd(hermeval, c, x, y)


def hermegrid2d(x, y, c):
    """See `numpy.polynomial.hermite_e.hermegrid2d`."""
    return S.gridnd(hermeval, c, x, y)


def hermeval3d(x, y, z, c):
    """See `numpy.polynomial.hermite_e.hermeval3d`."""
    return S.valnd(hermeval, c, x, y, z)


def hermevalnd(pts, c):
    """See `numpy.polynomial.hermite_e.hermevalnd` (NumPy 2.5): the N-D series at the points whose N
    coordinates are the items of `pts` (a sequence, or an array of N rows)."""
    return S.valnd(hermeval, c, *pts)


def hermegrid3d(x, y, z, c):
    """See `numpy.polynomial.hermite_e.hermegrid3d`."""
    return S.gridnd(hermeval, c, x, y, z)


def _der_step(c):
    # d/dx He_j = j He_{j-1}
    return c[1:] * S.real_ints(1, c.shape[0], c)


def _der_matrix(n):
    """d/dx He_j = j He_{j-1}"""
    d = numpy.zeros((n - 1, n))
    d[numpy.arange(n - 1), numpy.arange(1, n)] = numpy.arange(1, n)
    return d


def hermeder(c, m=1, scl=1, axis=0):
    """See `numpy.polynomial.hermite_e.hermeder`."""
    return S.der(c, m, scl, axis, _der_step, _der_matrix)


def _int_step(c):
    # the integral of He_j is He_{j+1} / (j + 1)
    n = c.shape[0]
    tmp = empty((n + 1,) + c.shape[1:], dtype=c.dtype)
    tmp[0] = c[0] * 0
    tmp[1:] = c / S.real_ints(1, n + 1, c)
    return tmp


def hermeint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """See `numpy.polynomial.hermite_e.hermeint`."""
    return S.integ(c, m, k, lbnd, scl, axis, _int_step, hermeval)


def poly2herme(pol):
    """See `numpy.polynomial.hermite_e.poly2herme`: a product with the table of the powers of x in the basis."""
    return S.from_power(_rec, _mulx, pol)


def herme2poly(c):
    """See `numpy.polynomial.hermite_e.herme2poly`: a product with the table of the basis polynomials."""
    c, = as_series([c])
    n = c.shape[0]
    if n == 1:
        return c
    if n == 2:
        return c
    res = S.to_power(_rec, c)
    if res is not None:
        return res
    c0, c1 = c[-2:-1], c[-1:]
    for i in range(n - 1, 1, -1):
        c0, c1 = S.sub_raw(c[i - 2:i - 1], c1 * (i - 1)), S.add_raw(c0, S.power_mulx(c1))
    return trimseq(S.add_raw(c0, S.power_mulx(c1)))


def _lines(neg_r):
    return S.line_rows(neg_r, 1)


def hermefromroots(roots):
    """See `numpy.polynomial.hermite_e.hermefromroots`."""
    return S.fromroots(_lines, _mul, roots)


def hermevander(x, deg):
    """See `numpy.polynomial.hermite_e.hermevander`."""
    ideg, x = S.vander_x(x, deg, "hermevander")
    v = empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = x * 0 + 1
    if ideg > 0:
        v[1] = x
        for i in range(2, ideg + 1):
            v[i] = v[i - 1] * x - v[i - 2] * (i - 1)
    return moveaxis(v, 0, -1)


def hermevander2d(x, y, deg):
    """See `numpy.polynomial.hermite_e.hermevander2d`."""
    return S.vander_nd_flat((hermevander, hermevander), (x, y), deg)


def hermevander3d(x, y, z, deg):
    """See `numpy.polynomial.hermite_e.hermevander3d`."""
    return S.vander_nd_flat((hermevander, hermevander, hermevander), (x, y, z), deg)


def hermefit(x, y, deg, rcond=None, full=False, w=None):
    """See `numpy.polynomial.hermite_e.hermefit`."""
    return S.fit(hermevander, x, y, deg, rcond, full, w)


def hermecompanion(c):
    """See `numpy.polynomial.hermite_e.hermecompanion` (the scaled, symmetric form)."""
    c, = as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape((1, 1))
    n = c.shape[0] - 1
    mat = zeros((n, n), dtype=c.dtype)
    scl = numpy.hstack((1.0, 1.0 / numpy.sqrt(numpy.arange(n - 1, 0, -1))))
    scl = numpy.ascontiguousarray(numpy.multiply.accumulate(scl)[::-1])
    off = array(numpy.sqrt(numpy.arange(1, n)))
    mat.reshape(-1)[1::n + 1] = off
    mat.reshape(-1)[n::n + 1] = off
    mat[:, -1] -= array(scl) * c[:-1] / c[-1]
    return mat


def hermeroots(c):
    """See `numpy.polynomial.hermite_e.hermeroots` (companion eigenvalues, sorted: complex for a series of
    degree two or more from NumPy 2.5 on, as NumPy's, even when every root is real)."""
    return S.roots(hermecompanion, c, real_if_real=False)


def _normed_hermite_e_n(x, n):
    """The normalised HermiteE function of degree `n` at `x` (NumPy's recurrence, which does not
    overflow for large `n`)."""
    if n == 0:
        return full_(x.shape, 1 / numpy.sqrt(numpy.sqrt(2 * numpy.pi)))
    c0 = 0.0
    c1 = 1.0 / numpy.sqrt(numpy.sqrt(2 * numpy.pi))
    nd = float(n)
    for _ in range(n - 1):
        c0, c1 = -c1 * numpy.sqrt((nd - 1.0) / nd), c0 + c1 * x * numpy.sqrt(1.0 / nd)
        nd = nd - 1.0
    return c0 + c1 * x


def hermegauss(deg):
    """See `numpy.polynomial.hermite_e.hermegauss`: NumPy's method on the device (eigenvalues of the
    symmetric companion matrix, one Newton step, weights from normalised Hermite functions)."""
    ideg = S.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = zeros((ideg + 1,))
    c[-1] = 1
    x = eigvalsh(hermecompanion(c))
    dy = _normed_hermite_e_n(x, ideg)
    df = _normed_hermite_e_n(x, ideg - 1) * numpy.sqrt(ideg)
    x -= dy / df
    fm = _normed_hermite_e_n(x, ideg - 1)
    fm /= max_(absolute(fm))
    w = 1 / (fm * fm)
    w = (w + w[::-1]) / 2
    x = (x - x[::-1]) / 2
    w *= float(numpy.sqrt(2 * numpy.pi)) / w.sum()
    return x, w


def hermeweight(x):
    """See `numpy.polynomial.hermite_e.hermeweight`."""
    x = as_array(x, "hermeweight")
    return exp(-0.5 * x ** 2)


class HermiteE(SeriesBase):
    """A HermiteE series. See `numpy.polynomial.HermiteE`; `coef` is a device array."""

    _add = staticmethod(hermeadd)
    _sub = staticmethod(hermesub)
    _mul = staticmethod(hermemul)
    _div = staticmethod(hermediv)
    _pow = staticmethod(hermepow)
    _val = staticmethod(hermeval)
    _int = staticmethod(hermeint)
    _der = staticmethod(hermeder)
    _fit = staticmethod(hermefit)
    _line = staticmethod(hermeline)
    _roots = staticmethod(hermeroots)
    _fromroots = staticmethod(hermefromroots)
    domain = numpy.array(hermedomain)
    window = numpy.array(hermedomain)
    basis_name = "He"
    _host_kind = numpy.polynomial.HermiteE
