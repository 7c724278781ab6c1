"""`logsumexp`: SciPy's algorithm (scipy/special/_logsumexp.py) composed from cuarray's
elementwise routines and reductions: the term of largest real part (every tie of a real input)
taken out of the sum, log1p of the rest over it, the sign separated (a unit complex number for
complex input, whose magnitude's log is then real), the direct log|sum exp| wherever that is not
finite, zero weights dropping their terms, and the imaginary part of a complex result wrapped
into (-pi, pi]."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._creation.basic import full
from ..._creation.ranges import arange
from ..._logic.content import isfinite
from ..._manipulation.dims import broadcast_arrays
from ..._math.complex import imag, real
from ..._math.explog import exp, log, log1p
from ..._math.misc import abs as abs_, sign
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_

__all__ = ["logsumexp"]

_FN = "scipy.special.logsumexp"


def _sign(x):
    """SciPy's sign (array-api-compat's): x / |x| for complex x (NaN where both are infinite; 0
    at 0), NumPy's for real."""
    if x.dtype.kind != "c":
        return sign(x)
    return where(x == 0, 0.0, x / abs_(x))


def _max_real(a, axis):
    """(the term of largest real part, keepdims; the mask of the terms taken out): every tie of
    a real input, one of a complex input (the last in C order, as SciPy's index trick picks)."""
    if a.dtype.kind != "c":
        m = max_(a, axis=axis, keepdims=True)
        return m, a == m
    re = real(a)
    mask = re == max_(re, axis=axis, keepdims=True)
    i = where(mask, arange(a.size).reshape(a.shape), -1)
    mask = i == max_(i, axis=axis, keepdims=True)
    return sum_(where(mask, a, 0.0), axis=axis, keepdims=True, dtype=a.dtype), mask


def _shifted(a, b, axis, return_sign):
    """SciPy's `_logsumexp`: (log of the magnitude, or of the sum itself without `return_sign`;
    the sign), both keepdims."""
    if b is not None:  # a zero weight drops its term, even an infinite or NaN one
        a = where(b == 0, -math.inf, a)
    a_max, taken = _max_real(a, axis)
    a = where(taken, -math.inf, a)
    t = taken.astype(a.dtype)
    m = sum_(t if b is None else b * t, axis=axis, keepdims=True, dtype=a.dtype)
    e = exp(a - a_max) if b is None else b * exp(a - a_max)
    s = sum_(e, axis=axis, keepdims=True, dtype=e.dtype)
    s = where(s == 0, s, s / m)
    sgn = _sign(s + 1) * _sign(m)
    if a.dtype.kind != "c":
        s = where(s < -1, -s - 2, s)  # |1 + s| - 1: log1p's argument at least -1
        m = abs_(m)
    else:  # a_max's phase
        sgn = sgn * exp(imag(a_max) * 1j)
    out = log1p(s) + log(m) + a_max
    if return_sign:
        out = real(out)
    elif out.dtype.kind != "c":
        out = where(sgn < 0, math.nan, out)
    return out, sgn


def _wrap_radians(x):
    """x in (-pi, pi]; x itself where |x| < pi (its relative precision kept)."""
    return where(abs_(x) < math.pi, x, -((-x + math.pi) % (2 * math.pi) - math.pi))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """See `scipy.special.logsumexp`. The result is a device array (0-d where SciPy returns a
    NumPy scalar); `b` may be a host array (weights parametrise the sum).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> x = cuarray.array([[1., 2.], [3., 4.]])
    >>> special.logsumexp(x, axis=1)
    array([2.31326169, 4.31326169])
    """
    a = as_array(a, _FN)
    dtype = a.dtype
    if b is not None:
        b = as_parameter(b, _FN)
        dtype = numpy.result_type(dtype, b.dtype)
    if dtype.kind in "biu":
        dtype = numpy.dtype(numpy.float64)
    a = a.astype(dtype, copy=False)
    if b is not None:
        a, b = broadcast_arrays(a, b.astype(dtype, copy=False))
    if a.ndim == 0:
        a = a.reshape(1)
        b = b.reshape(1) if b is not None else None
    axis = tuple(range(a.ndim)) if axis is None else axis
    if a.size:
        direct = exp(a) if b is None else b * exp(a)  # where the shifted form is not finite
        total = sum_(direct, axis=axis, keepdims=True)
        sgn_direct = _sign(total) if return_sign else None
        out_direct = log(abs_(total) if return_sign else total)
        out, sgn = _shifted(a, b, axis, return_sign)
        finite = isfinite(out)
        out = where(finite, out, out_direct)
        sgn = where(finite, sgn, sgn_direct) if return_sign else None
    else:
        shape = list(a.shape)
        for ax in (axis if isinstance(axis, tuple) else (axis,)):
            shape[ax] = 1
        out = full(tuple(shape), -math.inf, dtype=dtype)
        sgn = _sign(out)
    if out.dtype.kind == "c" and not return_sign:
        out = real(out) + _wrap_radians(imag(out)) * 1j
    if not keepdims:
        out = out.squeeze(axis=axis)
        sgn = sgn.squeeze(axis=axis) if return_sign else None
    return (out, sgn) if return_sign else out
