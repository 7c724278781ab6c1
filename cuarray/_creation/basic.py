"""Ones and zeros: empty, zeros, ones, full and their `_like` forms. See NumPy's "Array creation".

`zeros` is one memset; `ones`/`full` one fill kernel (or a memset when every byte is equal).
"""

from __future__ import annotations

import operator

import numpy

from .._core import dtypes as _dtypes
from .._core import copying as _copying
from .._core import shapes as _shapes
from .._core.ndarray import ndarray, _new_c, _normalize_shape

__all__ = ["empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like"]


def _check_order(order):
    if order not in ("C", "F", None):
        if order in ("c", "f"):
            return order.upper()
        raise ValueError("order must be one of 'C', 'F' (got {!r})".format(order))
    return order or "C"


_dtype_cache = _dtypes._normalize_cache  # dtype-like -> canonical dtype, filled by normalize_dtype
_INTP_MAX = 2**63 - 1


def _numpy_shape_errors(shape, dtype):
    """Raise what NumPy's creation raises before it has an array of `dtype`: it converts the shape
    (more than 64 dimensions, a dimension beyond intp), then the dtype (NumPy's own TypeError),
    then checks the shape against it (negative, too many bytes). cuarray's TypeError for a dtype
    NumPy holds and cuarray does not (object, strings) comes after these, as NumPy makes that array."""
    try:
        dims = tuple(operator.index(d) for d in shape)
    except TypeError:
        dims = (operator.index(shape),)
    _shapes.check_ndim(len(dims))
    if any(d > _INTP_MAX or d < -_INTP_MAX - 1 for d in dims):
        raise ValueError("Maximum allowed dimension exceeded")
    dt = numpy.dtype(dtype)
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    # (NumPy makes an unsized string dtype one character long; an unsized void stays empty)
    nbytes = dt.itemsize or {"S": 1, "U": 4}.get(dt.kind, 0)
    for d in dims:
        nbytes *= d or 1
    if nbytes > _INTP_MAX:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                         "possible size.")


def _storage_dtype(shape, dtype):
    """`storage_dtype(dtype)`, NumPy's shape errors before cuarray's TypeError for the dtype."""
    try:
        return _dtype_cache[dtype]
    except (KeyError, TypeError):
        pass
    try:
        return _dtypes.storage_dtype(dtype)
    except TypeError:
        _numpy_shape_errors(shape, dtype)
        raise


def empty(shape, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    """See `numpy.empty`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.empty((2, 3), dtype=cuarray.float32)  # values not set
    >>> a.shape, a.dtype
    ((2, 3), dtype('float32'))
    """
    if order == "C":  # HOT PATH (pool churn): ndarray() without the constructor call's layers
        # An int size and a dtype seen before skip the two normalising calls (~0.08 us stubbed).
        try:
            dt = _dtype_cache[dtype]
        except (KeyError, TypeError):  # TypeError: unhashable (storage_dtype says what is wrong)
            dt = _storage_dtype(shape, dtype)  # (a structured dtype too; NumPy's dtype error first)
        shape = (shape,) if type(shape) is int and shape >= 0 else _normalize_shape(shape)
        return _new_c(shape, dt)
    return ndarray(shape, _storage_dtype(shape, dtype), order=_check_order(order))


def zeros(shape, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    """See `numpy.zeros`. One memset.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.zeros((2, 3), dtype=cuarray.float32)
    array([[0., 0., 0.],
           [0., 0., 0.]], dtype=float32)
    """
    dt = _storage_dtype(shape, dtype)
    a = ndarray(_normalize_shape(shape), dt, order=_check_order(order))
    if a._size:
        a.data.memset_async(0, a.nbytes)
    return a


def ones(shape, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """See `numpy.ones`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ones((2, 3))
    array([[1., 1., 1.],
           [1., 1., 1.]])
    >>> cuarray.ones(3, dtype=cuarray.int32)
    array([1, 1, 1], dtype=int32)
    """
    dt = _storage_dtype(shape, float if dtype is None else dtype)
    a = ndarray(_normalize_shape(shape), dt, order=_check_order(order))
    _copying.fill(a, 1)
    return a


def _full_dtype(fill_value, dtype):
    if dtype is not None:
        return _dtypes.storage_dtype(dtype)
    if isinstance(fill_value, ndarray):
        return fill_value.dtype
    return _dtypes.normalize_dtype(numpy.asarray(fill_value).dtype)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    """See `numpy.full`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.full((2, 3), 7)
    array([[7, 7, 7],
           [7, 7, 7]])
    >>> cuarray.full(3, 0.5, dtype=cuarray.float32)
    array([0.5, 0.5, 0.5], dtype=float32)
    """
    try:
        dt = _full_dtype(fill_value, dtype)
    except TypeError:  # (NumPy's asarray of the value first, its shape errors next)
        _numpy_shape_errors(shape, numpy.asarray(fill_value).dtype if dtype is None else dtype)
        raise
    a = ndarray(_normalize_shape(shape), dt, order=_check_order(order))
    if isinstance(fill_value, ndarray) and fill_value.ndim:
        _copying.copyto_unchecked(a, fill_value)
    else:
        _copying.fill(a, fill_value)
    return a


def _like(a, dtype, order, shape):
    if not isinstance(a, ndarray):
        a_dtype = numpy.asarray(a).dtype if dtype is None else dtype
        return ndarray(_normalize_shape(numpy.shape(a) if shape is None else shape), a_dtype)
    dt = a.dtype if dtype is None else _dtypes.storage_dtype(dtype)
    if shape is not None:
        shape = _normalize_shape(shape)
        if len(shape) != a.ndim and order == "K":
            order = "C"
    else:
        shape = a.shape
    if order not in ("C", "F", "A", "K"):
        order = _shapes.normalize_order(order)
    if order == "A":
        order = "F" if a._f and not a._c else "C"
    if order == "K":
        if a._c or a.ndim <= 1 or shape != a.shape:
            order = "C"
        elif a._f:
            order = "F"
        else:
            return ndarray._new_strided(shape, dt, _shapes.k_order_strides(a._shape, a._strides, dt.itemsize))
    return ndarray(shape, dt, order=_check_order(order))


def empty_like(prototype, dtype=None, order="K", subok=None, shape=None, *, device=None) -> ndarray:
    """See `numpy.empty_like` (default order 'K' follows the prototype's layout).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.empty_like(cuarray.arange(6).reshape(2, 3))
    >>> a.shape, a.dtype
    ((2, 3), dtype('int64'))
    """
    return _like(prototype, dtype, order, shape)


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None) -> ndarray:
    """See `numpy.zeros_like`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.zeros_like(cuarray.arange(6.0).reshape(2, 3))
    array([[0., 0., 0.],
           [0., 0., 0.]])
    """
    out = _like(a, dtype, order, shape)
    if out._size:
        out.data.memset_async(0, out.nbytes)
    return out


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None) -> ndarray:
    """See `numpy.ones_like`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ones_like(cuarray.arange(6).reshape(2, 3))
    array([[1, 1, 1],
           [1, 1, 1]])
    """
    out = _like(a, dtype, order, shape)
    _copying.fill(out, 1)
    return out


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None) -> ndarray:
    """See `numpy.full_like`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.full_like(cuarray.arange(4), 9)
    array([9, 9, 9, 9])
    """
    out = _like(a, dtype, order, shape)
    _copying.fill(out, fill_value)
    return out
