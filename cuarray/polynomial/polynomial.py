"""`numpy.polynomial.polynomial`: power series, coefficients lowest power first, and the
`Polynomial` class.

Coefficient arrays are device arrays and the arithmetic runs on the device (ufuncs, `convolve`,
`linalg.eigvals`, `linalg.lstsq`). NumPy trims trailing zero coefficients after `+`, `-`, `*` and
division; finding them reads a mask back to the host (one synchronisation per such operation).
"""

from __future__ import annotations

import numpy

from . import _kernels as K
from . import _series as S
from .._core.host_input import as_parameter
from .._core.ndarray import ndarray
from .._creation.basic import empty, zeros
from .._manipulation.transpose import moveaxis
from .._math.convolution import convolve
from ._base import SeriesBase
from .polyutils import as_series, getdomain, mapparms, trimcoef, trimseq

__all__ = ["polyzero", "polyone", "polyx", "polydomain", "polyline", "polyadd", "polysub", "polymulx", "polymul",
           "polydiv", "polypow", "polyval", "polyvalfromroots", "polyder", "polyint", "polyfromroots", "polyvander",
           "polyfit", "polytrim", "polyroots", "Polynomial", "polyval2d", "polyval3d", "polyvalnd", "polygrid2d", "polygrid3d",
           "polyvander2d", "polyvander3d", "polycompanion",
           # polyutils' names, kept here for the code written against this module before polyutils
           "trimseq", "as_series", "mapparms", "getdomain"]

polytrim = trimcoef
polydomain = numpy.array([-1.0, 1.0])
polyzero = numpy.array([0])
polyone = numpy.array([1])
polyx = numpy.array([0, 1])


def polyline(off, scl):
    """See `numpy.polynomial.polynomial.polyline`."""
    return S.line(off, scl)


def polyadd(c1, c2):
    """See `numpy.polynomial.polynomial.polyadd`."""
    return S.add(c1, c2)


def polysub(c1, c2):
    """See `numpy.polynomial.polynomial.polysub`."""
    return S.sub(c1, c2)


def polymulx(c):
    """See `numpy.polynomial.polynomial.polymulx`."""
    (c,), (c_is_zero,) = S.as_series_flags([c])
    if c_is_zero:
        return c
    return S.power_mulx(c)


def _mul(c1, c2):
    return convolve(c1, c2)


def polymul(c1, c2):
    """See `numpy.polynomial.polynomial.polymul` (`convolve`)."""
    c1, c2 = as_series([c1, c2])
    return trimseq(_mul(c1, c2))


def polydiv(c1, c2):
    """See `numpy.polynomial.polynomial.polydiv`: (quotient, remainder), one small update per
    quotient coefficient. The zero check of the divisor's last coefficient reads it back."""
    (c1, c2), (_, c2_is_zero) = S.as_series_flags([c1, c2])
    if c2_is_zero:
        raise ZeroDivisionError
    lc1, lc2 = c1.shape[0], c2.shape[0]
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    dlen = lc1 - lc2
    scl = c2[-1]
    c2 = c2[:-1] / scl
    i, j = dlen, lc1 - 1
    while i >= 0:
        c1[i:j] -= c2 * c1[j]
        i -= 1
        j -= 1
    return c1[j + 1:] / scl, trimseq(c1[:j + 1])


def polypow(c, pow, maxpower=None):
    """See `numpy.polynomial.polynomial.polypow`."""
    return S.pow_(_mul, c, pow, maxpower, trim=False)


def polyval(x, c, tensor=True):
    """See `numpy.polynomial.polynomial.polyval`: Horner's rule (one kernel at a device array or number)."""
    x, c = S.val_args(x, c, tensor)
    y = K.evaluate("poly", x, c)
    if y is not None:
        return y
    c0 = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        c0 = c[-i] + c0 * x
    return c0


def polyvalfromroots(x, r, tensor=True):
    """See `numpy.polynomial.polynomial.polyvalfromroots`: the product of ``x - r``."""
    r = S.coef_array(r, copy=False)
    if isinstance(x, (tuple, list, numpy.ndarray)):
        x = as_parameter(x, "polyvalfromroots")
    if isinstance(x, ndarray):
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return (x - r).prod(axis=0)


def polyval2d(x, y, c):
    """See `numpy.polynomial.polynomial.polyval2d`."""
    return S.valnd(polyval, c, x, y)


def polygrid2d(x, y, c):
    """See `numpy.polynomial.polynomial.polygrid2d`."""
    return S.gridnd(polyval, c, x, y)


def polyval3d(x, y, z, c):
    """See `numpy.polynomial.polynomial.polyval3d`."""
    return S.valnd(polyval, c, x, y, z)


def polyvalnd(pts, c):
    """See `numpy.polynomial.polynomial.polyvalnd` (NumPy 2.5): the N-D series at the points whose N
    coordinates are the items of `pts` (a sequence, or an array of N rows)."""
    return S.valnd(polyval, c, *pts)


def polygrid3d(x, y, z, c):
    """See `numpy.polynomial.polynomial.polygrid3d`."""
    return S.gridnd(polyval, c, x, y, z)


def _der_step(c):
    return c[1:] * S.real_ints(1, c.shape[0], c)


def _der_matrix(n):
    """d/dx x**j = j x**(j-1)"""
    d = numpy.zeros((n - 1, n))
    d[numpy.arange(n - 1), numpy.arange(1, n)] = numpy.arange(1, n)
    return d


def polyder(c, m=1, scl=1, axis=0):
    """See `numpy.polynomial.polynomial.polyder`."""
    return S.der(c, m, scl, axis, _der_step, _der_matrix)


def _int_step(c):
    tmp = empty((c.shape[0] + 1,) + c.shape[1:], dtype=c.dtype)
    tmp[0] = c[0] * 0
    tmp[1:] = c / S.real_ints(1, c.shape[0] + 1, c)
    return tmp


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """See `numpy.polynomial.polynomial.polyint`. Integrating the zero constant (NumPy's special
    case) reads one bool back."""
    return S.integ(c, m, k, lbnd, scl, axis, _int_step, polyval)


def polycompanion(c):
    """See `numpy.polynomial.polynomial.polycompanion`."""
    c, = as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape((1, 1))
    n = c.shape[0] - 1
    mat = zeros((n, n), dtype=c.dtype)
    mat.reshape(-1)[n::n + 1] = 1
    mat[:, -1] -= c[:-1] / c[-1]
    return mat


def polyroots(c):
    """See `numpy.polynomial.polynomial.polyroots` (companion eigenvalues, sorted)."""
    return S.roots(polycompanion, c, flip=False)


def _lines(neg_r):
    return S.line_rows(neg_r, 1)


def polyfromroots(roots):
    """See `numpy.polynomial.polynomial.polyfromroots`."""
    return S.fromroots(_lines, _mul, roots)


def polyvander(x, deg):
    """See `numpy.polynomial.polynomial.polyvander`."""
    ideg, x = S.vander_x(x, deg, "polyvander")
    # NumPy's recurrence in x's own dtype (float32 stays float32: `vander` promotes with int, to
    # float64), powers along the first axis moved last: NumPy's layout, strides and flags.
    v = empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = x * 0 + 1  # (NaN where x is inf or NaN, as NumPy's)
    if ideg > 0:
        v[1] = x
        for i in range(2, ideg + 1):
            v[i] = v[i - 1] * x
    return moveaxis(v, 0, -1)


def polyvander2d(x, y, deg):
    """See `numpy.polynomial.polynomial.polyvander2d`."""
    return S.vander_nd_flat((polyvander, polyvander), (x, y), deg)


def polyvander3d(x, y, z, deg):
    """See `numpy.polynomial.polynomial.polyvander3d`."""
    return S.vander_nd_flat((polyvander, polyvander, polyvander), (x, y, z), deg)


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """See `numpy.polynomial.polynomial.polyfit`: `linalg.lstsq` on the column-scaled
    Vandermonde matrix."""
    return S.fit(polyvander, x, y, deg, rcond, full, w)


class Polynomial(SeriesBase):
    """A power series. See `numpy.polynomial.Polynomial`; `coef` is a device array."""

    _add = staticmethod(polyadd)
    _sub = staticmethod(polysub)
    _mul = staticmethod(polymul)
    _div = staticmethod(polydiv)
    _pow = staticmethod(polypow)
    _val = staticmethod(polyval)
    _int = staticmethod(polyint)
    _der = staticmethod(polyder)
    _fit = staticmethod(polyfit)
    _line = staticmethod(polyline)
    _roots = staticmethod(polyroots)
    _fromroots = staticmethod(polyfromroots)
    domain = numpy.array(polydomain)
    window = numpy.array(polydomain)
    basis_name = None
    _host_kind = numpy.polynomial.Polynomial
