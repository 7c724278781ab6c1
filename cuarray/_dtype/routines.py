"""Data type routines that take arrays: can_cast, result_type, common_type, min_scalar_type, and
the Array API's astype. See NumPy's "Data type routines".

NumPy's own versions of these read an array's dtype; given a cuarray array they would either try
to convert it to a host array (refused) or, through `__array_function__`, come back here. So each
replaces a cuarray array by its dtype (NEP 50: an array's value never matters) and hands the rest
to NumPy, the oracle. `min_scalar_type` of a 0-d device array is the one that reads a value: it
copies that element to the host. Routines that take only dtypes (`promote_types`, `issubdtype`,
`isdtype`, `finfo`, `iinfo`, ...) are NumPy's, re-exported as they are.
"""

from __future__ import annotations

import numpy

from .._core import copying as _copying
from .._core.host_input import reject
from .._core.ndarray import ndarray

__all__ = ["can_cast", "result_type", "common_type", "min_scalar_type", "astype"]


def _dtype_of(x):
    return x.dtype if isinstance(x, ndarray) else x


def can_cast(from_, to, casting="safe") -> bool:
    """See `numpy.can_cast`; `from_` may be a cuarray array (its dtype is used).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.can_cast(cuarray.int32, cuarray.float64), cuarray.can_cast(cuarray.float64, cuarray.int32)
    (True, False)
    >>> cuarray.can_cast(cuarray.float64, cuarray.float32, casting='same_kind')
    True
    """
    return numpy.can_cast(_dtype_of(from_), _dtype_of(to), casting)


def result_type(*arrays_and_dtypes) -> numpy.dtype:
    """See `numpy.result_type`; cuarray arrays count by their dtype, Python scalars are weak.

    Examples
    --------
    NumPy 2's rules (NEP 50): a Python float does not widen float32.

    >>> import numpy as np
    >>> import cuarray
    >>> cuarray.result_type(np.float32, 2.0)
    dtype('float32')
    >>> cuarray.result_type(np.float32, np.float64)
    dtype('float64')
    """
    return numpy.result_type(*(_dtype_of(x) for x in arrays_and_dtypes))


def common_type(*arrays):
    """See `numpy.common_type` (a scalar type, float64 for integer arrays).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.common_type(cuarray.arange(3), cuarray.ones(2, dtype=cuarray.float32))
    <class 'numpy.float64'>
    """
    stand_ins = []
    for a in arrays:
        if not isinstance(a, ndarray):
            raise reject(a, "common_type")
        stand_ins.append(numpy.empty(0, a.dtype))  # only the dtype matters; no device data moves
    return numpy.common_type(*stand_ins)


def min_scalar_type(a) -> numpy.dtype:
    """See `numpy.min_scalar_type`. A 0-d device array's value is read (one element copied to the
    host, synchronising); for other arrays the result is their dtype, as in NumPy.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.min_scalar_type(10), cuarray.min_scalar_type(-1000)
    (dtype('uint8'), dtype('int16'))
    """
    if isinstance(a, ndarray):
        if a.ndim == 0:
            return numpy.min_scalar_type(a.get())
        return a.dtype
    return numpy.min_scalar_type(a)


def astype(x, dtype, /, *, copy=True, device=None) -> ndarray:
    """See `numpy.astype` (the Array API function). `device` may be None or the array's device
    (cuarray does not move arrays between devices here; use `to_device`).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.astype(cuarray.array([1.5, -2.5]), cuarray.int32)
    array([ 1, -2], dtype=int32)
    """
    if not isinstance(x, ndarray):
        raise TypeError("Input should be a cuarray array. It is a {}.".format(type(x).__name__))
    if device is not None and device != x.device:
        raise ValueError("astype: device {!r} is not the array's device {!r}; use x.to_device()".format(
            device, x.device))
    return _copying.astype(x, dtype, order="K", casting="unsafe", copy=copy)
