"""Order statistics (NumPy "Statistics / Order statistics"): min/amin, max/amax, ptp, nanmin,
nanmax (percentiles and quantiles need sorting: later).

GPU differences: nanmin/nanmax of an all-NaN slice return NaN without NumPy's RuntimeWarning
(the warning would need a device synchronisation).

max/min of complex input return NumPy's NaN where a slice holds several (_math/extrema_nan.py).
"""

from __future__ import annotations

from .._core import reduction_ops as _r
from .._math.arithmetic import subtract
from .._math.extrema_nan import first_nan

__all__ = ["amax", "max", "amin", "min", "ptp", "nanmax", "nanmin"]


def max(a, axis=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):  # noqa: A001
    """See `numpy.max`. NaN propagates; complex values compare lexicographically.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3, 7], [5, 1]])
    >>> cuarray.max(a, axis=0)
    array([5, 7])
    >>> int(cuarray.max(a))  # a host value: waits for the GPU
    7
    >>> float(cuarray.max(cuarray.array([1., cuarray.nan])))   # NaN propagates
    nan
    """
    res = _r.reduce_fast("max", a, axis, None, out, keepdims, initial, where)
    return first_nan(a, axis, keepdims, initial, where, res)


def min(a, axis=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):  # noqa: A001
    """See `numpy.min`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3, 7], [5, 1]])
    >>> cuarray.min(a, axis=0)
    array([3, 1])
    >>> int(cuarray.min(a))
    1
    """
    res = _r.reduce_fast("min", a, axis, None, out, keepdims, initial, where)
    return first_nan(a, axis, keepdims, initial, where, res)


amax = max
amin = min


def nanmax(a, axis=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.nanmax`: NaNs are ignored; an all-NaN slice gives NaN (no warning).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> float(cuarray.nanmax(a))
    3.0
    """
    return _r.reduce_fast("nanmax", a, axis, None, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.nanmin`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> float(cuarray.nanmin(a))
    1.0
    """
    return _r.reduce_fast("nanmin", a, axis, None, out, keepdims, initial, where)


def ptp(a, axis=None, out=None, keepdims=False):
    """See `numpy.ptp`: max - min (two reductions and a subtraction).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ptp(cuarray.array([[4, 9, 2], [1, 5, 7]]), axis=1)
    array([7, 6])
    """
    hi = max(a, axis, None, keepdims)
    lo = min(a, axis, None, keepdims)
    if out is not None:
        return subtract(hi, lo, out=out)
    return subtract(hi, lo)
