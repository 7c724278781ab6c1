"""Power series with coefficients lowest power first: `cuarray.polynomial.polynomial` and the
`Polynomial` class, the basics of `numpy.polynomial`.

Coefficient arrays are cuarray arrays and the arithmetic runs on the device (ufuncs, `convolve`,
`linalg.eigvals`, `linalg.lstsq`). `domain` and `window` are two host numbers each, as NumPy keeps
them. NumPy trims trailing zero coefficients after `+`, `-`, `*` and division; finding them reads
a mask back to the host (one synchronisation per such operation). Multi-dimensional coefficient
arrays (`axis=`, `tensor=`) and the other bases (Chebyshev, Legendre, ...) are not provided.
"""

from __future__ import annotations

import operator
import warnings

import numpy

from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.basic import empty, ones, zeros
from .._creation.from_data import array
from .._creation.ranges import arange
from .._manipulation.joining import concatenate
from .._manipulation.transpose import moveaxis
from .._math.convolution import convolve
from .._math.misc import sqrt
from .._polynomial.routines import fit_points
from .._sorting.sorting import sort
from .._statistics.order import max as max_, min as min_
from ..linalg import eigvals, lstsq

__all__ = ["Polynomial", "polyval", "polyadd", "polysub", "polymul", "polydiv", "polypow", "polyder",
           "polyint", "polyroots", "polycompanion", "polyfromroots", "polyvander", "polyfit", "polyline",
           "polyx", "polyone", "polyzero", "polydomain", "trimseq", "as_series", "mapparms", "getdomain"]

polydomain = numpy.array([-1.0, 1.0])
polyzero = numpy.array([0])
polyone = numpy.array([1])
polyx = numpy.array([0, 1])


def _dev(c) -> ndarray:
    if isinstance(c, ndarray):
        return c
    if isinstance(c, (list, tuple, numpy.ndarray)):
        return array(c)  # coefficients written out by the caller: a small constructor
    return as_array(c, "polynomial")


def trimseq(seq: ndarray) -> ndarray:
    """Drop trailing zeros, keeping at least one coefficient (reads the zero mask back)."""
    if seq.shape[0] == 0:
        return seq
    nz = numpy.flatnonzero((seq != 0).get())
    last = int(nz[-1]) if nz.size else 0
    return seq[:last + 1]


def as_series(alist, trim=True) -> list:
    """1-D device copies of a common inexact type (NumPy's `polyutils.as_series`)."""
    arrays = []
    for a in alist:
        a = _dev(a)
        a = a.reshape((1,)) if a.ndim == 0 else a
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
        arrays.append(trimseq(a) if trim else a)
    dtype = numpy.common_type(*[numpy.empty(0, a.dtype) for a in arrays])
    return [a.astype(dtype, copy=True) for a in arrays]


def mapparms(old, new):
    """(off, scl) of the linear map from `old` to `new` (host numbers)."""
    oldlen = old[1] - old[0]
    newlen = new[1] - new[0]
    return (old[1] * new[0] - old[0] * new[1]) / oldlen, newlen / oldlen


def getdomain(x) -> numpy.ndarray:
    """The smallest interval holding `x` (two numbers read back to the host)."""
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        rmin, rmax = min_(x.real).get()[()], max_(x.real).get()[()]
        imin, imax = min_(x.imag).get()[()], max_(x.imag).get()[()]
        return numpy.array((complex(rmin, imin), complex(rmax, imax)))
    return numpy.array((min_(x).get()[()], max_(x).get()[()]))


def _mapdomain(x, old, new):
    off, scl = mapparms(old, new)
    return off + scl * x


def polyline(off, scl) -> ndarray:
    """See `numpy.polynomial.polynomial.polyline`."""
    return array([off, scl]) if scl != 0 else array([off])


def polyval(x, c, tensor=True):
    """See `numpy.polynomial.polynomial.polyval` (1-D `c`): Horner's rule on the device."""
    c = _dev(c)
    c = c.reshape((1,)) if c.ndim == 0 else c
    if c.dtype.kind in "biu":
        c = c + 0.0
    if c.ndim != 1:
        raise NotImplementedError("polyval: multi-dimensional coefficient arrays are not supported")
    if not isinstance(x, ndarray) and not isinstance(x, (int, float, complex, numpy.generic)):
        x = _dev(x)
    c0 = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        c0 = c[-i] + c0 * x
    return c0


def polyadd(c1, c2) -> ndarray:
    """See `numpy.polynomial.polynomial.polyadd`."""
    c1, c2 = as_series([c1, c2])
    if c1.shape[0] > c2.shape[0]:
        c1[:c2.shape[0]] += c2
        return trimseq(c1)
    c2[:c1.shape[0]] += c1
    return trimseq(c2)


def polysub(c1, c2) -> ndarray:
    """See `numpy.polynomial.polynomial.polysub`."""
    c1, c2 = as_series([c1, c2])
    if c1.shape[0] > c2.shape[0]:
        c1[:c2.shape[0]] -= c2
        return trimseq(c1)
    c2 = -c2
    c2[:c1.shape[0]] += c1
    return trimseq(c2)


def polymul(c1, c2) -> ndarray:
    """See `numpy.polynomial.polynomial.polymul` (`convolve`)."""
    c1, c2 = as_series([c1, c2])
    return trimseq(convolve(c1, c2))


def polydiv(c1, c2):
    """See `numpy.polynomial.polynomial.polydiv`: (quotient, remainder). The zero check of the
    divisor's last coefficient reads it back."""
    c1, c2 = as_series([c1, c2])
    if bool(c2[-1] == 0):
        raise ZeroDivisionError("polynomial division by zero")
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


def polypow(c, pow, maxpower=None) -> ndarray:
    """See `numpy.polynomial.polynomial.polypow`."""
    [c] = as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return ones((1,), c.dtype)
    prd = c
    for _ in range(2, power + 1):
        prd = polymul(prd, c)
    return prd


def _as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError("{} must be an integer, received {}".format(desc, x)) from None


def _coef_copy(c) -> ndarray:
    c = _dev(c)
    c = c.reshape((1,)) if c.ndim == 0 else c.copy()
    if c.ndim != 1:
        raise NotImplementedError("multi-dimensional coefficient arrays (axis=) are not supported")
    return c + 0.0 if c.dtype.kind in "biu" else c


def polyder(c, m=1, scl=1, axis=0) -> ndarray:
    """See `numpy.polynomial.polynomial.polyder` (1-D coefficients, axis=0)."""
    c = _coef_copy(c)
    cdt = c.dtype
    cnt = _as_int(m, "the order of derivation")
    _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    if cnt == 0:
        return c
    n = c.shape[0]
    if cnt >= n:
        return c[:1] * 0
    for _ in range(cnt):
        n -= 1
        c = ((c * scl)[1:] * arange(1, n + 1)).astype(cdt, copy=False)
    return c


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0) -> ndarray:  # noqa: B006  (NumPy's signature)
    """See `numpy.polynomial.polynomial.polyint` (1-D coefficients, axis=0). Each step reads one
    bool back (NumPy's special case of an all-zero constant series)."""
    c = _coef_copy(c)
    cdt = c.dtype
    if not numpy.iterable(k):
        k = [k]
    cnt = _as_int(m, "the order of integration")
    _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if numpy.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if numpy.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    if cnt == 0:
        return c
    k = list(k) + [0] * (cnt - len(k))
    for i in range(cnt):
        n = c.shape[0]
        c = c * scl
        if n == 1 and bool(c[0] == 0):
            c = c + k[i]
        else:
            tmp = concatenate((zeros((1,), cdt), (c / arange(1, n + 1)).astype(cdt, copy=False)))
            tmp[0] += k[i] - polyval(lbnd, tmp)
            c = tmp
    return c


def polycompanion(c) -> ndarray:
    """See `numpy.polynomial.polynomial.polycompanion`."""
    [c] = as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape((1, 1))
    n = c.shape[0] - 1
    mat = zeros((n, n), dtype=c.dtype)
    mat.reshape(-1)[n::n + 1] = 1
    mat[:, -1] -= c[:-1] / c[-1]
    return mat


def polyroots(c) -> ndarray:
    """See `numpy.polynomial.polynomial.polyroots` (companion eigenvalues, sorted)."""
    [c] = as_series([c])
    if c.shape[0] < 2:
        return ndarray((0,), c.dtype)
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape((1,))
    r = eigvals(polycompanion(c))
    if r.dtype.kind == "c" and c.dtype.kind != "c" and not bool((r.imag != 0).any()):
        r = r.real.copy()  # as NumPy: real roots of a real series are real, whichever eigvals it has
    return sort(r)


def polyfromroots(roots) -> ndarray:
    """See `numpy.polynomial.polynomial.polyfromroots`."""
    r = _dev(roots)
    if r.size == 0:
        return ones((1,), numpy.float64)
    [r] = as_series([r], trim=False)
    r = sort(r)
    p = [_line(r[i]) for i in range(r.shape[0])]
    n = len(p)
    while n > 1:
        m, rem = divmod(n, 2)
        tmp = [polymul(p[i], p[i + m]) for i in range(m)]
        if rem:
            tmp[0] = polymul(tmp[0], p[-1])
        p = tmp
        n = m
    return p[0]


def _line(root: ndarray) -> ndarray:
    """[-root, 1] on the device."""
    out = ones((2,), root.dtype)
    out[0] = -root
    return out


def polyvander(x, deg) -> ndarray:
    """See `numpy.polynomial.polynomial.polyvander`."""
    ideg = _as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = as_array(x, "polyvander") + 0.0
    if x.ndim == 0:
        x = x.reshape(1)  # NumPy's ndmin=1
    # NumPy's recurrence in x's own dtype (float32 stays float32: `vander` promotes with int, to
    # float64), powers along the first axis moved last: NumPy's layout, strides and flags.
    v = empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = x * 0 + 1  # (NaN where x is inf or NaN, as NumPy's)
    if ideg > 0:
        v[1] = x
        for i in range(2, ideg + 1):
            v[i] = v[i - 1] * x
    return moveaxis(v, 0, -1)


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """See `numpy.polynomial.polynomial.polyfit` (an integer `deg`): `linalg.lstsq` on the
    row-scaled Vandermonde matrix."""
    if numpy.ndim(deg) != 0 or not isinstance(deg, (int, numpy.integer)):
        raise NotImplementedError("polyfit: only an integer deg is supported")
    x, y = fit_points(x, y, deg)
    order = int(deg) + 1
    lhs = polyvander(x, deg).T
    rhs = y.T
    if w is not None:
        w = as_array(w, "polyfit") + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if x.shape[0] != w.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = x.shape[0] * numpy.finfo(x.dtype).eps
    sq = lhs.real * lhs.real + lhs.imag * lhs.imag if lhs.dtype.kind == "c" else lhs * lhs
    scl = sqrt(sq.sum(1))
    scl = scl + (scl == 0)  # NumPy's scl[scl == 0] = 1
    c, resids, rank, s = lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", numpy.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, [resids, rank, s, rcond]
    return c


from ._polynomial_class import Polynomial  # noqa: E402  (the class uses the functions above)
