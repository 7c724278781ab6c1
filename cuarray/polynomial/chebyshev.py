"""`numpy.polynomial.chebyshev`: Chebyshev series of the first kind and the `Chebyshev` class.

Products, quotients and powers go through NumPy's z-series (a Chebyshev series as a symmetric
Laurent series): a product is one `convolve`. Evaluation at a device array or a number is one
kernel (_kernels.py); conversions to and from power series are matrix products with host tables
(_tables.py). The derivative's carries are one reversed cumulative sum per parity instead of
NumPy's loop over coefficients.
"""

from __future__ import annotations

import numpy

from . import _kernels as K
from . import _series as S
from .._core.host_input import as_array
from .._creation.basic import empty, ones, zeros
from .._creation.from_data import array
from .._creation.ranges import arange, linspace
from .._manipulation.transpose import moveaxis
from .._math.convolution import convolve
from .._math.misc import sqrt
from .._math.trigonometric import cos, sin
from ..linalg._products import dot
from ._base import SeriesBase
from .polyutils import as_series, mapdomain, trimcoef, trimseq

__all__ = ["chebzero", "chebone", "chebx", "chebdomain", "chebline", "chebadd", "chebsub", "chebmulx", "chebmul",
           "chebdiv", "chebpow", "chebval", "chebder", "chebint", "cheb2poly", "poly2cheb", "chebfromroots",
           "chebvander", "chebfit", "chebtrim", "chebroots", "chebpts1", "chebpts2", "Chebyshev", "chebval2d",
           "chebval3d", "chebvalnd", "chebgrid2d", "chebgrid3d", "chebvander2d", "chebvander3d", "chebcompanion", "chebgauss",
           "chebweight", "chebinterpolate"]

chebtrim = trimcoef
chebdomain = numpy.array([-1.0, 1.0])
chebzero = numpy.array([0])
chebone = numpy.array([1])
chebx = numpy.array([0, 1])


# -- z-series -------------------------------------------------------------------------------------
def _c_to_z(c):
    n = c.shape[0]
    zs = zeros((2 * n - 1,), dtype=c.dtype)
    zs[n - 1:] = c / 2
    return zs + zs[::-1]


def _z_to_c(zs):
    n = (zs.shape[0] + 1) // 2
    c = zs[n - 1:].copy()
    c[1:n] *= 2
    return c


def _z_div(z1, z2):
    """NumPy's z-series division: two quotient coefficients per step from both ends."""
    z1 = z1.copy()
    z2 = z2.copy()
    lc1, lc2 = z1.shape[0], z2.shape[0]
    if lc2 == 1:
        z1 /= z2
        return z1, z1[:1] * 0
    if lc1 < lc2:
        return z1[:1] * 0, z1
    dlen = lc1 - lc2
    scl = z2[0].copy()
    z2 /= scl
    quo = empty((dlen + 1,), dtype=z1.dtype)
    i, j = 0, dlen
    while i < j:
        r = z1[i].copy()
        quo[i] = r
        quo[dlen - i] = r
        tmp = r * z2
        z1[i:i + lc2] -= tmp
        z1[j:j + lc2] -= tmp
        i += 1
        j -= 1
    r = z1[i].copy()
    quo[i] = r
    z1[i:i + lc2] -= r * z2
    quo /= scl
    return quo, z1[i + 1:i - 1 + lc2].copy()


# -- arithmetic -------------------------------------------------------------------------------------
def chebline(off, scl):
    """See `numpy.polynomial.chebyshev.chebline`."""
    return S.line(off, scl)


def _rec(i):
    """T_1 = x, T_{i+1} = 2x T_i - T_{i-1} (the conversions' tables)"""
    return (1.0, 0.0, 0.0) if i == 0 else (2.0, 0.0, 1.0)


def chebadd(c1, c2):
    """See `numpy.polynomial.chebyshev.chebadd`."""
    return S.add(c1, c2)


def chebsub(c1, c2):
    """See `numpy.polynomial.chebyshev.chebsub`."""
    return S.sub(c1, c2)


def _mulx(c):
    prd = zeros((c.shape[0] + 1,), dtype=c.dtype)
    prd[0] = c[0] * 0
    prd[1] = c[0]
    if c.shape[0] > 1:
        tmp = c[1:] / 2
        prd[2:] = tmp
        prd[0:-2] += tmp
    return prd


def chebmulx(c):
    """See `numpy.polynomial.chebyshev.chebmulx`."""
    (c,), (c_is_zero,) = S.as_series_flags([c])
    if c_is_zero:
        return c
    return _mulx(c)


def _mul(c1, c2):
    return _z_to_c(convolve(_c_to_z(c1), _c_to_z(c2)))


def chebmul(c1, c2):
    """See `numpy.polynomial.chebyshev.chebmul` (one `convolve` of z-series)."""
    c1, c2 = as_series([c1, c2])
    return trimseq(_mul(c1, c2))


def chebdiv(c1, c2):
    """See `numpy.polynomial.chebyshev.chebdiv`: z-series division. The divisor's zero check
    reads its last coefficient back."""
    (c1, c2), (_, c2_is_zero) = S.as_series_flags([c1, c2])
    if c2_is_zero:
        raise ZeroDivisionError
    lc1, lc2 = c1.shape[0], c2.shape[0]
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    quo, rem = _z_div(_c_to_z(c1), _c_to_z(c2))
    return trimseq(_z_to_c(quo)), trimseq(_z_to_c(rem))


def chebpow(c, pow, maxpower=16):
    """See `numpy.polynomial.chebyshev.chebpow` (z-series convolutions; untrimmed, as NumPy's)."""
    c, = as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return ones((1,), dtype=c.dtype)
    if power == 1:
        return c
    zs = _c_to_z(c)
    prd = zs
    for _ in range(2, power + 1):
        prd = convolve(prd, zs)
    return _z_to_c(prd)


# -- evaluation -------------------------------------------------------------------------------------
def chebval(x, c, tensor=True):
    """See `numpy.polynomial.chebyshev.chebval`: Clenshaw's recurrence (one kernel at a device array or number)."""
    x, c = S.val_args(x, c, tensor)
    y = K.evaluate("cheb", x, c)
    if y is not None:
        return y
    if c.shape[0] == 1:
        c0, c1 = c[0], 0
    elif c.shape[0] == 2:
        c0, c1 = c[0], c[1]
    else:
        x2 = 2 * x
        c0, c1 = c[-2], c[-1]
        for i in range(3, c.shape[0] + 1):
            c0, c1 = c[-i] - c1, c0 + c1 * x2
    return c0 + c1 * x


def chebval2d(x, y, c):
    """See `numpy.polynomial.chebyshev.chebval2d`."""
    return S.valnd(chebval, c, x, y)


def chebgrid2d(x, y, c):
    """See `numpy.polynomial.chebyshev.chebgrid2d`."""
    return S.gridnd(chebval, c, x, y)


def chebval3d(x, y, z, c):
    """See `numpy.polynomial.chebyshev.chebval3d`."""
    return S.valnd(chebval, c, x, y, z)


def chebvalnd(pts, c):
    """See `numpy.polynomial.chebyshev.chebvalnd` (NumPy 2.5): the N-D series at the points whose N
    coordinates are the items of `pts` (a sequence, or an array of N rows)."""
    return S.valnd(chebval, c, *pts)


def chebgrid3d(x, y, z, c):
    """See `numpy.polynomial.chebyshev.chebgrid3d`."""
    return S.gridnd(chebval, c, x, y, z)


# -- calculus ---------------------------------------------------------------------------------------
def _der_step(c):
    e = S.revcumsum2(c[1:] * S.real_ints(1, c.shape[0], c))  # e[j-1] = sum of k c[k], k = j, j+2, ...
    der = e * 2
    der[0] = e[0]
    return der


def _der_matrix(n):
    """d/dx T_j = 2j (T_{j-1} + T_{j-3} + ...), the T_0 term halved"""
    d = numpy.zeros((n - 1, n))
    for j in range(1, n):
        d[j - 1::-2, j] = 2 * j
    d[0, 1::2] = numpy.arange(1, n, 2)
    return d


def chebder(c, m=1, scl=1, axis=0):
    """See `numpy.polynomial.chebyshev.chebder`."""
    return S.der(c, m, scl, axis, _der_step, _der_matrix)


def _int_step(c):
    n = c.shape[0]
    tmp = empty((n + 1,) + c.shape[1:], dtype=c.dtype)
    tmp[0] = c[0] * 0
    tmp[1] = c[0]
    if n > 1:
        tmp[2:] = c[1:] / S.real_ints(4, 2 * n + 1, c, 2)
    if n > 2:
        tmp[1:n - 1] -= c[2:] / S.real_ints(2, 2 * n - 3, c, 2)
    return tmp


def chebint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """See `numpy.polynomial.chebyshev.chebint`."""
    return S.integ(c, m, k, lbnd, scl, axis, _int_step, chebval)


# -- conversions, roots, fits -----------------------------------------------------------------------
def poly2cheb(pol):
    """See `numpy.polynomial.chebyshev.poly2cheb`: a product with the table of the powers of x in the basis."""
    return S.from_power(_rec, _mulx, pol)


def cheb2poly(c):
    """See `numpy.polynomial.chebyshev.cheb2poly`: a product with the table of the basis polynomials."""
    c, = as_series([c])
    n = c.shape[0]
    if n < 3:
        return c
    res = S.to_power(_rec, c)
    if res is not None:
        return res
    c0, c1 = c[-2:-1], c[-1:]
    for i in range(n - 1, 1, -1):
        c0, c1 = S.sub_raw(c[i - 2:i - 1], c1), S.add_raw(c0, S.power_mulx(c1) * 2)
    return trimseq(S.add_raw(c0, S.power_mulx(c1)))


def _lines(neg_r):
    return S.line_rows(neg_r, 1)


def chebfromroots(roots):
    """See `numpy.polynomial.chebyshev.chebfromroots`."""
    return S.fromroots(_lines, _mul, roots)


def chebvander(x, deg):
    """See `numpy.polynomial.chebyshev.chebvander`."""
    ideg, x = S.vander_x(x, deg, "chebvander")
    v = empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = x * 0 + 1
    if ideg > 0:
        x2 = 2 * x
        v[1] = x
        for i in range(2, ideg + 1):
            v[i] = v[i - 1] * x2 - v[i - 2]
    return moveaxis(v, 0, -1)


def chebvander2d(x, y, deg):
    """See `numpy.polynomial.chebyshev.chebvander2d`."""
    return S.vander_nd_flat((chebvander, chebvander), (x, y), deg)


def chebvander3d(x, y, z, deg):
    """See `numpy.polynomial.chebyshev.chebvander3d`."""
    return S.vander_nd_flat((chebvander, chebvander, chebvander), (x, y, z), deg)


def chebfit(x, y, deg, rcond=None, full=False, w=None):
    """See `numpy.polynomial.chebyshev.chebfit`."""
    return S.fit(chebvander, x, y, deg, rcond, full, w)


def chebcompanion(c):
    """See `numpy.polynomial.chebyshev.chebcompanion` (the scaled, symmetric form)."""
    c, = as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape((1, 1))
    n = c.shape[0] - 1
    mat = zeros((n, n), dtype=c.dtype)
    scl = numpy.array([1.0] + [numpy.sqrt(0.5)] * (n - 1))
    off = numpy.full(n - 1, 0.5)
    off[0] = numpy.sqrt(0.5)
    off = array(off)
    mat.reshape(-1)[1::n + 1] = off
    mat.reshape(-1)[n::n + 1] = off
    mat[:, -1] -= c[:-1] / c[-1] * array(scl / scl[-1]) * 0.5
    return mat


def chebroots(c):
    """See `numpy.polynomial.chebyshev.chebroots` (companion eigenvalues, sorted: complex for a series of
    degree two or more from NumPy 2.5 on, as NumPy's, even when every root is real)."""
    return S.roots(chebcompanion, c, real_if_real=False)


def chebinterpolate(func, deg, args=()):
    """See `numpy.polynomial.chebyshev.chebinterpolate`: `func` is called with a device array of
    the Chebyshev points of the first kind."""
    deg = numpy.asarray(deg)
    if deg.ndim > 0 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int")
    if deg < 0:
        raise ValueError("expected deg >= 0")
    order = int(deg) + 1
    xcheb = chebpts1(order)
    yfunc = func(xcheb, *args)
    m = chebvander(xcheb, int(deg))
    c = dot(m.T, yfunc)
    c[0] /= order
    c[1:] /= 0.5 * order
    return c


def chebgauss(deg):
    """See `numpy.polynomial.chebyshev.chebgauss`: Gauss-Chebyshev nodes and weights (closed form)."""
    ideg = S.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    x = cos(numpy.pi * arange(1, 2 * ideg, 2) / (2.0 * ideg))
    w = ones((ideg,)) * (numpy.pi / ideg)
    return x, w


def chebweight(x):
    """See `numpy.polynomial.chebyshev.chebweight`."""
    x = as_array(x, "chebweight")
    return 1.0 / (sqrt(1.0 + x) * sqrt(1.0 - x))


def chebpts1(npts):
    """See `numpy.polynomial.chebyshev.chebpts1`."""
    _npts = int(npts)
    if _npts != npts:
        raise ValueError("npts must be integer")
    if _npts < 1:
        raise ValueError("npts must be >= 1")
    x = 0.5 * numpy.pi / _npts * arange(-_npts + 1, _npts + 1, 2)
    return sin(x)


def chebpts2(npts):
    """See `numpy.polynomial.chebyshev.chebpts2`."""
    _npts = int(npts)
    if _npts != npts:
        raise ValueError("npts must be integer")
    if _npts < 2:
        raise ValueError("npts must be >= 2")
    return cos(linspace(-numpy.pi, 0, _npts))


class Chebyshev(SeriesBase):
    """A Chebyshev series. See `numpy.polynomial.Chebyshev`; `coef` is a device array."""

    _add = staticmethod(chebadd)
    _sub = staticmethod(chebsub)
    _mul = staticmethod(chebmul)
    _div = staticmethod(chebdiv)
    _pow = staticmethod(chebpow)
    _val = staticmethod(chebval)
    _int = staticmethod(chebint)
    _der = staticmethod(chebder)
    _fit = staticmethod(chebfit)
    _line = staticmethod(chebline)
    _roots = staticmethod(chebroots)
    _fromroots = staticmethod(chebfromroots)
    domain = numpy.array(chebdomain)
    window = numpy.array(chebdomain)
    basis_name = "T"
    _host_kind = numpy.polynomial.Chebyshev

    @classmethod
    def interpolate(cls, func, deg, domain=None, args=()):
        """See `numpy.polynomial.Chebyshev.interpolate` (`func` gets device arrays)."""
        if domain is None:
            domain = cls.domain

        def xfunc(x):
            return func(mapdomain(x, cls.window, domain), *args)

        return cls(chebinterpolate(xfunc, deg), domain=domain)
