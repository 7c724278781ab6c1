"""Power-series polynomial routines (NumPy "Polynomials / Poly1d": polyval, polyfit, polyadd,
polysub, polymul, polydiv, polyder, polyint, poly, roots).

Coefficients are device arrays, highest power first, and every step runs on the device with
the existing engines: `polyval` is Horner's rule (one multiply-add per coefficient), `polymul` is
`convolve`, `polyfit` is `linalg.lstsq` on the scaled Vandermonde matrix, `roots` the eigenvalues
of the companion matrix (`linalg.eigvals`, cuSOLVER's geev: the roots come out in the solver's
order, which may differ from LAPACK's; all-real roots of a real polynomial are returned real, as
NumPy does). Host reads happen where NumPy's result depends on data:
`roots` trims zero coefficients, `polydiv` trims the remainder, `poly` checks for conjugate pairs.
"""

from __future__ import annotations

import warnings

import numpy

from .._core.host_input import as_array, is_scalar
from .._core.ndarray import ndarray
from .._creation.basic import ones, zeros, zeros_like
from .._creation.from_data import array
from .._creation.matrices import diag, vander
from .._creation.ranges import arange
from .._logic.comparison_reduce import allclose
from .._logic.truth import all as all_
from .._manipulation.joining import concatenate, hstack
from .._math.convolution import convolve
from .._math.misc import sqrt
from .._sorting.searching_nonzero import nonzero
from .._sorting.sorting import sort_complex
from ..linalg import eigvals, inv, lstsq
from ..linalg._products import dot, outer

__all__ = ["polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint",
           "poly", "roots"]


def _poly1d():
    """The poly1d class."""
    from .poly1d import poly1d  # cycle: poly1d imports this module

    return poly1d


def _is_poly1d(x) -> bool:
    return isinstance(x, _poly1d())


def _coeffs(x, fn, scalar=True) -> ndarray:
    """A 1-D (at least) device array of coefficients from a poly1d, an array, a scalar (when
    `scalar`: else NumPy's TypeError of iterating over it) or a list."""
    if _is_poly1d(x):
        return x.coeffs
    if isinstance(x, (list, tuple)):
        x = array(x)  # coefficients written out by the caller: a small array constructor
    if not scalar and (is_scalar(x) or (isinstance(x, ndarray) and x.ndim == 0)):
        raise TypeError("iteration over a 0-d array")
    a = as_array(x, fn)
    return a.reshape((1,)) if a.ndim == 0 else a


def _wrap(val, truepoly):
    return _poly1d()(val) if truepoly else val


def polyval(p, x):
    """See `numpy.polyval`: Horner's rule, one fused multiply-add launch per coefficient.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.polyval(cuarray.array([1, 2, 3]), cuarray.array([0, 1, 2]))
    array([ 3,  6, 11])
    """
    if _is_poly1d(x):
        y = _poly1d()([0])
        p = _coeffs(p, "polyval", scalar=False)
        for k in range(p.shape[0]):
            y = y * x + p[k]
        return y
    p = _coeffs(p, "polyval", scalar=False)
    x = as_array(x, "polyval")
    y = zeros_like(x)
    for k in range(p.shape[0]):
        y = y * x + p[k]
    return y


def _pad_front(a: ndarray, n: int) -> ndarray:
    return concatenate((zeros((n,), a.dtype), a))


def polyadd(a1, a2):
    """See `numpy.polyadd`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.polyadd(cuarray.array([1, 2]), cuarray.array([1, 0, 3]))
    array([1, 1, 5])
    """
    truepoly = _is_poly1d(a1) or _is_poly1d(a2)
    a1, a2 = _coeffs(a1, "polyadd"), _coeffs(a2, "polyadd")
    diff = a2.shape[0] - a1.shape[0]
    if diff == 0:
        val = a1 + a2
    elif diff > 0:
        val = _pad_front(a1, diff) + a2
    else:
        val = a1 + _pad_front(a2, -diff)
    return _wrap(val, truepoly)


def polysub(a1, a2):
    """See `numpy.polysub`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.polysub(cuarray.array([1, 2]), cuarray.array([1, 0, 3]))
    array([-1,  1, -1])
    """
    truepoly = _is_poly1d(a1) or _is_poly1d(a2)
    a1, a2 = _coeffs(a1, "polysub"), _coeffs(a2, "polysub")
    diff = a2.shape[0] - a1.shape[0]
    if diff == 0:
        val = a1 - a2
    elif diff > 0:
        val = _pad_front(a1, diff) - a2
    else:
        val = a1 - _pad_front(a2, -diff)
    return _wrap(val, truepoly)


def polymul(a1, a2):
    """See `numpy.polymul`: `convolve` of the coefficients, leading zeros trimmed first as NumPy's
    poly1d does (where they end is read back: one synchronisation).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.polymul(cuarray.array([1, 2]), cuarray.array([1, 3]))
    array([1, 5, 6])
    """
    truepoly = _is_poly1d(a1) or _is_poly1d(a2)
    # NumPy makes poly1d's of both: leading zero coefficients trimmed (their count read back), no
    # coefficients left is the zero polynomial, [0] of that dtype
    c1, c2 = _trim_leading_zeros((_coeffs(a1, "polymul"), _coeffs(a2, "polymul")))
    val = convolve(c1, c2)
    return _wrap(val, truepoly)


def _trim_leading_zeros(cs):
    """`cs` as poly1d keeps its coefficients: without leading zeros, [0] of its dtype where none is
    left (or none was given); where each first nonzero is, read back in one transfer."""
    marks = []
    for c in cs:
        if c.size:
            nz = c != 0
            marks += [nz.argmax().astype(numpy.int64).reshape(1), nz.any().astype(numpy.int64).reshape(1)]
    got = iter(concatenate(marks).get().tolist()) if marks else iter(())
    out = []
    for c in cs:
        if c.size:
            first, has = next(got), next(got)
            c = c[first:] if has else c[:0]
        out.append(c if c.size else zeros((1,), c.dtype))
    return out


def polydiv(u, v):
    """See `numpy.polydiv`: long division, one small update per quotient coefficient; trimming
    the remainder's leading near-zeros reads them back (one synchronisation each).

    Examples
    --------
    >>> import cuarray
    >>> q, r = cuarray.polydiv(cuarray.array([1., 5., 6.]), cuarray.array([1., 2.]))
    >>> q
    array([1., 3.])
    >>> r
    array([0.])
    """
    truepoly = _is_poly1d(u) or _is_poly1d(v)
    u = _coeffs(u, "polydiv") + 0.0
    v = _coeffs(v, "polydiv") + 0.0
    w = u[0] + v[0]
    m = u.shape[0] - 1
    n = v.shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros((max(m - n + 1, 1),), w.dtype)
    r = u.astype(w.dtype)
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[-1] > 1 and bool(allclose(r[0], 0, rtol=1e-14)):
        r = r[1:]
    if truepoly:
        return _wrap(q, True), _wrap(r, True)
    return q, r


def polyder(p, m=1):
    """See `numpy.polyder`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.polyder(cuarray.array([1, 2, 3]))
    array([2, 2])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = _is_poly1d(p)
    p = _coeffs(p, "polyder")
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * arange(n, 0, -1)
    return _wrap(p, truepoly)


def polyint(p, m=1, k=None):
    """See `numpy.polyint`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.polyint(cuarray.array([3., 2., 1.]))
    array([1., 1., 1., 0.])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = zeros((m,), float)
    k = k if isinstance(k, ndarray) else array(k, dtype=None)
    k = k.reshape((1,)) if k.ndim == 0 else k
    if k.shape[0] == 1 and m > 1:
        k = k[0] * ones((m,), float)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = _is_poly1d(p)
    p = _coeffs(p, "polyint")
    for j in range(m):
        p = concatenate((p / arange(p.shape[0], 0, -1), k[j:j + 1]))
    return _wrap(p, truepoly)


def poly(seq_of_zeros):
    """See `numpy.poly`: the product of (x - z), one small update per zero; square input goes
    through `linalg.eigvals` first.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.poly(cuarray.array([1., 2.]))
    array([ 1., -3.,  2.])
    """
    a = as_array(seq_of_zeros, "poly") if not isinstance(seq_of_zeros, (list, tuple)) else _coeffs(
        seq_of_zeros, "poly")
    a = a.reshape((1,)) if a.ndim == 0 else a
    sh = a.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        a = eigvals(a)
    elif len(sh) == 1:
        a = a.astype(numpy.mintypecode(a.dtype.char), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if a.shape[0] == 0:
        return 1.0
    dt = a.dtype
    c = ones((1,), dtype=dt)
    for j in range(a.shape[0]):
        z = a[j]
        nxt = ones((c.shape[0] + 1,), dtype=dt)
        nxt[:-1] = c
        nxt[-1] = 0
        nxt[1:] -= z * c
        c = nxt
    if dt.kind == "c":
        r = sort_complex(a.astype(numpy.complex128))
        if bool(all_(r == sort_complex(r.conj()))):
            c = c.real.copy()
    return c


def roots(p):
    """See `numpy.roots`: eigenvalues of the companion matrix (`linalg.eigvals`). Finding the
    first and last non-zero coefficient reads the coefficients' mask back to the host.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sort(cuarray.roots(cuarray.array([1., -3., 2.])))
    array([1., 2.])
    """
    if _is_poly1d(p):  # NumPy's roots takes a poly1d through __array__
        p = p.coeffs
    if is_scalar(p) or (isinstance(p, ndarray) and p.ndim == 0):  # NumPy: its dispatcher iterates over p
        raise TypeError("roots: the coefficients must be a 1-D sequence, not a 0-d array or a scalar")
    p = as_array(p, "roots") if not isinstance(p, (list, tuple)) else _coeffs(p, "roots")
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = nonzero(p)[0].get()
    if nz.size == 0:
        return zeros((0,), numpy.float64)
    trailing = p.shape[0] - int(nz[-1]) - 1
    p = p[int(nz[0]):int(nz[-1]) + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(float)
    n = p.shape[0]
    if n > 1:
        A = diag(ones((n - 2,), p.dtype), -1)
        A[0, :] = -p[1:] / p[0]
        r = eigvals(A)
        if r.dtype.kind == "c" and p.dtype.kind != "c" and not bool((r.imag != 0).any()):
            r = r.real.copy()  # real roots of a real polynomial are real, whichever eigvals NumPy has
    else:
        r = zeros((0,), numpy.float64)
    return hstack((r, zeros((trailing,), r.dtype)))


def fit_points(x, y, deg):
    """polyfit's x and y as float device arrays, checked with NumPy's messages."""
    x = as_array(x, "polyfit") + 0.0
    y = as_array(y, "polyfit") + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    check_fit_points(x, y)
    return x, y


def check_fit_points(x, y) -> None:
    """NumPy's checks of a fit's sample points and values, by their shapes (numpy.polyfit and
    the numpy.polynomial fits share them)."""
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """See `numpy.polyfit`: `linalg.lstsq` on the column-scaled Vandermonde matrix (cuSOLVER);
    the rank comes back to the host, as NumPy returns it.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([0., 1., 2., 3.])
    >>> cuarray.polyfit(x, 2 * x + 1, 1)
    array([2., 1.])
    """
    order = int(deg) + 1
    x, y = fit_points(x, y, deg)
    if rcond is None:
        rcond = x.shape[0] * numpy.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = as_array(w, "polyfit") + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", numpy.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = inv(dot(lhs.T, lhs))
        vbase = vbase / outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c
