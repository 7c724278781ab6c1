"""Searching by reduction (NumPy "Sorting, searching, and counting / Searching"): argmax, argmin,
nanargmax, nanargmin.

One pass: the accumulator is a (value, flat index) pair; ties keep the smaller index (NumPy's first
occurrence) and a NaN beats every number (the first NaN wins), whatever the tree order.
GPU difference: nanargmax/nanargmin synchronise once to raise NumPy's "All-NaN slice encountered"
ValueError (the result's validity depends on device data).
"""

from __future__ import annotations

import numpy

from .._core import reduction_ops as _r
from .._core.host_input import as_array

__all__ = ["argmax", "argmin", "nanargmax", "nanargmin"]

_INTP = numpy.dtype(numpy.intp)


def _arg(op, a, axis, out, keepdims):
    key = None
    if out is None:
        key = _r.fast_key(op, a, axis, keepdims, None)
        f = _r._fast.get(key)
        if f is not None:
            res = f(a)
            if op.startswith("nan") and a._dtype.kind in "fc":
                _check_all_nan(res)
            return res
    a = as_array(a, op)
    if axis is not None and not isinstance(axis, (int, numpy.integer)):
        raise TypeError("'{}' object cannot be interpreted as an integer".format(type(axis).__name__))
    if out is not None and out.dtype != _INTP:
        raise TypeError("Cannot cast array data from dtype('int64') to dtype('{}') according to the rule 'safe'"
                        .format(out.dtype))
    res = _r.reduce(op, a, axis, None, out, keepdims, res_dtype=_INTP, keep_order=True, fast_key=key)
    if op.startswith("nan") and a.dtype.kind in "fc":
        _check_all_nan(res)
    return res


def _check_all_nan(res):
    if res.size and _r.reduce("min", res).get() < 0:
        raise ValueError("All-NaN slice encountered")


def argmax(a, axis=None, out=None, *, keepdims=False, dtype=None):
    """See `numpy.argmax`. `dtype` (CuPy's extension, keyword-only here as NumPy's third
    positional argument is `out`): the integer type of the result.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3, 7], [5, 1]])
    >>> int(cuarray.argmax(a))  # a host value: waits for the GPU
    1
    >>> cuarray.argmax(a, axis=0)
    array([1, 0])
    """
    return _with_dtype(_arg("argmax", a, axis, out, keepdims), dtype, out)


def argmin(a, axis=None, out=None, *, keepdims=False, dtype=None):
    """See `numpy.argmin`. `dtype`: as in `argmax`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3, 7], [5, 1]])
    >>> int(cuarray.argmin(a))
    3
    >>> cuarray.argmin(a, axis=0)
    array([0, 1])
    """
    return _with_dtype(_arg("argmin", a, axis, out, keepdims), dtype, out)


def _with_dtype(res, dtype, out):
    if dtype is None or out is not None:
        return res
    dt = numpy.dtype(dtype)
    if dt.kind not in "iu":
        raise TypeError("argmin/argmax dtype must be an integer type, got {}".format(dt))
    return res.astype(dt, copy=False)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """See `numpy.nanargmax`. Synchronises to check for all-NaN slices.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> int(cuarray.nanargmax(a))
    2
    """
    return _arg("nanargmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """See `numpy.nanargmin`. Synchronises to check for all-NaN slices.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> int(cuarray.nanargmin(a))
    0
    """
    return _arg("nanargmin", a, axis, out, keepdims)
