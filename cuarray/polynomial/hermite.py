"""`numpy.polynomial.hermite`: physicists' Hermite series and the `Hermite` class.

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

__all__ = ["hermzero", "hermone", "hermx", "hermdomain", "hermline", "hermadd", "hermsub", "hermmulx", "hermmul",
           "hermdiv", "hermpow", "hermval", "hermder", "hermint", "herm2poly", "poly2herm", "hermfromroots",
           "hermvander", "hermfit", "hermtrim", "hermroots", "Hermite", "hermval2d", "hermval3d", "hermvalnd", "hermgrid2d",
           "hermgrid3d", "hermvander2d", "hermvander3d", "hermcompanion", "hermgauss", "hermweight"]

hermtrim = trimcoef
hermdomain = numpy.array([-1.0, 1.0])
hermzero = numpy.array([0])
hermone = numpy.array([1])
hermx = numpy.array([0, 1 / 2])


def hermline(off, scl):
    """See `numpy.polynomial.hermite.hermline`."""
    return array([off, scl / 2]) if scl != 0 else array([off])


def _rec(i):
    """H_{i+1} = 2x H_i - 2i H_{i-1}"""
    return 2.0, 0.0, 2.0 * i


def hermadd(c1, c2):
    """See `numpy.polynomial.hermite.hermadd`."""
    return S.add(c1, c2)


def hermsub(c1, c2):
    """See `numpy.polynomial.hermite.hermsub`."""
    return S.sub(c1, c2)


def _mulx(c):
    # x H_i = H_{i+1} / 2 + i H_{i-1}
    n = c.shape[0]
    prd = empty((n + 1,), dtype=c.dtype)
    prd[0] = c[0] * 0
    prd[1:] = c / 2
    if n > 1:
        prd[:n - 1] += c[1:] * S.real_ints(1, n, c)
    return prd


def hermmulx(c):
    """See `numpy.polynomial.hermite.hermmulx`."""
    (c,), (c_is_zero,) = S.as_series_flags([c])
    if c_is_zero:
        return c
    return _mulx(c)


def _step(cx, c0, c1, nd):
    return S.sub_raw(cx, c1 * (2 * (nd - 1))), S.add_raw(c0, _mulx(c1) * 2)


def _final(c0, c1):
    return S.add_raw(c0, _mulx(c1) * 2)


def _mul_recursion(c1, c2):
    return S.recurrence_mul(c1, c2, _step, _final)


def _mul(c1, c2):
    return S.table_mul(_rec, c1, c2, _mul_recursion)


def hermmul(c1, c2):
    """See `numpy.polynomial.hermite.hermmul`."""
    c1, c2 = as_series([c1, c2])
    return trimseq(_mul(c1, c2))


def hermdiv(c1, c2):
    """See `numpy.polynomial.hermite.hermdiv` (long division over `hermmul`)."""
    return S.div(_mul, c1, c2, _rec)


def hermpow(c, pow, maxpower=16):
    """See `numpy.polynomial.hermite.hermpow`."""
    return S.pow_(_mul, c, pow, maxpower)


def hermval(x, c, tensor=True):
    """See `numpy.polynomial.hermite.hermval`: Clenshaw's recurrence (one kernel at a device array or number)."""
    x, c = S.val_args(x, c, tensor)
    y = K.evaluate("herm", x, c)
    if y is not None:
        return y
    x2 = x * 2
    if c.shape[0] == 1:
        c0, c1 = c[0], 0
    elif c.shape[0] == 2:
        c0, c1 = c[0], c[1]
    else:
        nd = c.shape[0]
        c0, c1 = c[-2], c[-1]
        for i in range(3, c.shape[0] + 1):
            nd -= 1
            c0, c1 = c[-i] - c1 * (2 * (nd - 1)), c0 + c1 * x2
    return c0 + c1 * x2


def hermval2d(x, y, c):
    """See `numpy.polynomial.hermite.hermval2d`."""
    return S.valnd(hermval, c, x, y)


def hermgrid2d(x, y, c):
    """See `numpy.polynomial.hermite.hermgrid2d`."""
    return S.gridnd(hermval, c, x, y)


def hermval3d(x, y, z, c):
    """See `numpy.polynomial.hermite.hermval3d`."""
    return S.valnd(hermval, c, x, y, z)


def hermvalnd(pts, c):
    """See `numpy.polynomial.hermite.hermvalnd` (NumPy 2.5): the N-D series at the points whose N
    coordinates are the items of `pts` (a sequence, or an array of N rows)."""
    return S.valnd(hermval, c, *pts)


def hermgrid3d(x, y, z, c):
    """See `numpy.polynomial.hermite.hermgrid3d`."""
    return S.gridnd(hermval, c, x, y, z)


def _der_step(c):
    # d/dx H_j = 2j H_{j-1}
    return c[1:] * S.real_ints(2, 2 * c.shape[0] - 1, c, 2)


def _der_matrix(n):
    """d/dx H_j = 2j H_{j-1}"""
    d = numpy.zeros((n - 1, n))
    d[numpy.arange(n - 1), numpy.arange(1, n)] = 2 * numpy.arange(1, n)
    return d


def hermder(c, m=1, scl=1, axis=0):
    """See `numpy.polynomial.hermite.hermder`."""
    return S.der(c, m, scl, axis, _der_step, _der_matrix)


def _int_step(c):
    # the integral of H_j is H_{j+1} / (2j + 2)
    n = c.shape[0]
    tmp = empty((n + 1,) + c.shape[1:], dtype=c.dtype)
    tmp[0] = c[0] * 0
    tmp[1:] = c / S.real_ints(2, 2 * n + 1, c, 2)
    return tmp


def hermint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """See `numpy.polynomial.hermite.hermint`."""
    return S.integ(c, m, k, lbnd, scl, axis, _int_step, hermval)


def poly2herm(pol):
    """See `numpy.polynomial.hermite.poly2herm`: a product with the table of the powers of x in the basis."""
    return S.from_power(_rec, _mulx, pol)


def herm2poly(c):
    """See `numpy.polynomial.hermite.herm2poly`: a product with the table of the basis polynomials."""
    c, = as_series([c])
    n = c.shape[0]
    if n == 1:
        return c
    if n == 2:
        c[1] *= 2
        return c
    res = S.to_power(_rec, c)
    if res is not None:
        return res
    c0, c1 = c[-2:-1], c[-1:]
    for i in range(n - 1, 1, -1):
        c0, c1 = S.sub_raw(c[i - 2:i - 1], c1 * (2 * (i - 1))), S.add_raw(c0, S.power_mulx(c1) * 2)
    return trimseq(S.add_raw(c0, S.power_mulx(c1) * 2))


def _lines(neg_r):
    return S.line_rows(neg_r, 0.5)


def hermfromroots(roots):
    """See `numpy.polynomial.hermite.hermfromroots`."""
    return S.fromroots(_lines, _mul, roots)


def hermvander(x, deg):
    """See `numpy.polynomial.hermite.hermvander`."""
    ideg, x = S.vander_x(x, deg, "hermvander")
    v = empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = x * 0 + 1
    if ideg > 0:
        x2 = x * 2
        v[1] = x2
        for i in range(2, ideg + 1):
            v[i] = v[i - 1] * x2 - v[i - 2] * (2 * (i - 1))
    return moveaxis(v, 0, -1)


def hermvander2d(x, y, deg):
    """See `numpy.polynomial.hermite.hermvander2d`."""
    return S.vander_nd_flat((hermvander, hermvander), (x, y), deg)


def hermvander3d(x, y, z, deg):
    """See `numpy.polynomial.hermite.hermvander3d`."""
    return S.vander_nd_flat((hermvander, hermvander, hermvander), (x, y, z), deg)


def hermfit(x, y, deg, rcond=None, full=False, w=None):
    """See `numpy.polynomial.hermite.hermfit`."""
    return S.fit(hermvander, x, y, deg, rcond, full, w)


def hermcompanion(c):
    """See `numpy.polynomial.hermite.hermcompanion` (the scaled, symmetric form)."""
    c, = as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (-0.5 * c[0] / c[1]).reshape((1, 1))
    n = c.shape[0] - 1
    mat = zeros((n, n), dtype=c.dtype)
    scl = numpy.hstack((1.0, 1.0 / numpy.sqrt(2.0 * numpy.arange(n - 1, 0, -1))))
    scl = numpy.ascontiguousarray(numpy.multiply.accumulate(scl)[::-1])
    off = array(numpy.sqrt(0.5 * numpy.arange(1, n)))
    mat.reshape(-1)[1::n + 1] = off
    mat.reshape(-1)[n::n + 1] = off
    mat[:, -1] -= array(scl) * c[:-1] / (2.0 * c[-1])
    return mat


def hermroots(c):
    """See `numpy.polynomial.hermite.hermroots` (companion eigenvalues, sorted)."""
    return S.roots(hermcompanion, c)


def _normed_hermite_n(x, n):
    """The normalised Hermite function of degree `n` at `x` (NumPy's recurrence, which does not
    overflow for large `n`)."""
    if n == 0:
        return full_(x.shape, 1 / numpy.sqrt(numpy.sqrt(numpy.pi)))
    c0 = 0.0
    c1 = 1.0 / numpy.sqrt(numpy.sqrt(numpy.pi))
    nd = float(n)
    for _ in range(n - 1):
        c0, c1 = -c1 * numpy.sqrt((nd - 1.0) / nd), c0 + c1 * x * numpy.sqrt(2.0 / nd)
        nd = nd - 1.0
    return c0 + c1 * x * numpy.sqrt(2)


def hermgauss(deg):
    """See `numpy.polynomial.hermite.hermgauss`: NumPy's method on the device (eigenvalues of the
    symmetric companion matrix, one Newton step, weights from normalised Hermite functions)."""
    ideg = S.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = zeros((ideg + 1,))
    c[-1] = 1
    x = eigvalsh(hermcompanion(c))
    dy = _normed_hermite_n(x, ideg)
    df = _normed_hermite_n(x, ideg - 1) * numpy.sqrt(2 * ideg)
    x -= dy / df
    fm = _normed_hermite_n(x, ideg - 1)
    fm /= max_(absolute(fm))
    w = 1 / (fm * fm)
    w = (w + w[::-1]) / 2
    x = (x - x[::-1]) / 2
    w *= float(numpy.sqrt(numpy.pi)) / w.sum()
    return x, w


def hermweight(x):
    """See `numpy.polynomial.hermite.hermweight`."""
    x = as_array(x, "hermweight")
    return exp(-x ** 2)


class Hermite(SeriesBase):
    """A Hermite series. See `numpy.polynomial.Hermite`; `coef` is a device array."""

    _add = staticmethod(hermadd)
    _sub = staticmethod(hermsub)
    _mul = staticmethod(hermmul)
    _div = staticmethod(hermdiv)
    _pow = staticmethod(hermpow)
    _val = staticmethod(hermval)
    _int = staticmethod(hermint)
    _der = staticmethod(hermder)
    _fit = staticmethod(hermfit)
    _line = staticmethod(hermline)
    _roots = staticmethod(hermroots)
    _fromroots = staticmethod(hermfromroots)
    domain = numpy.array(hermdomain)
    window = numpy.array(hermdomain)
    basis_name = "H"
    _host_kind = numpy.polynomial.Hermite
