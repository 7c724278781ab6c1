"""`packbits` and `unpackbits` (NumPy "Bit-wise operations / Bit packing").

Built from the engine's ufuncs and reductions: packing compares with zero, shifts each bit into
place and sums groups of 8 (distinct bits, so the uint8 sum is exact); unpacking shifts and masks
each byte against the 8 bit positions. A 0-d input counts as 1-D, as in NumPy. Results are
C-contiguous uint8 arrays.
"""

from __future__ import annotations

import operator

import numpy

from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._creation.from_data import ascontiguousarray
from .._creation.ranges import arange
from .._manipulation.joining import concatenate
from .._math.sums import sum as sum_
from .ops import bitwise_and, left_shift, right_shift

__all__ = ["packbits", "unpackbits"]

_U8 = numpy.dtype(numpy.uint8)


def _shifts(bitorder: str) -> ndarray:
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return arange(7, -1, -1, dtype=_U8) if bitorder == "big" else arange(0, 8, dtype=_U8)


def _to_last(a: ndarray, axis):
    """(array with the working axis last, axis) with NumPy's flattening for axis=None."""
    if a.ndim == 0:
        a = a.reshape((1,))
    if axis is None:
        return a.reshape((-1,)), 0
    axis = _shapes.normalize_axis_index(axis, a.ndim)
    return a.swapaxes(axis, -1), axis


def _from_last(out: ndarray, axis: int) -> ndarray:
    return ascontiguousarray(out.swapaxes(axis, -1))


def packbits(a, /, axis=None, bitorder="big") -> ndarray:
    """See `numpy.packbits`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.packbits(cuarray.array([1, 0, 1, 1, 0, 0, 0, 1], dtype=cuarray.uint8))
    array([177], dtype=uint8)
    """
    a = as_array(a, "packbits")
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    shifts = _shifts(bitorder)
    b, axis = _to_last(a, axis)
    n = b.shape[-1]
    m = -(-n // 8)
    bits = (b != 0).astype(_U8)
    if n % 8:
        bits = concatenate((bits, zeros(b.shape[:-1] + (8 * m - n,), _U8)), axis=-1)
    bits = bits.reshape(b.shape[:-1] + (m, 8))
    packed = sum_(left_shift(bits, shifts), axis=-1, dtype=_U8)
    return _from_last(packed, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big") -> ndarray:
    """See `numpy.unpackbits`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.unpackbits(cuarray.array([177], dtype=cuarray.uint8))
    array([1, 0, 1, 1, 0, 0, 0, 1], dtype=uint8)
    """
    a = as_array(a, "unpackbits")
    if a.dtype != _U8:
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = _shifts(bitorder)
    b, axis = _to_last(a, axis)
    n = b.shape[-1] * 8
    if count is None:
        keep = n
    else:
        count = operator.index(count)
        if count < 0:
            if -count > n:
                raise ValueError("-count larger than number of elements")
            keep = n + count
        else:
            keep = count
    bits = bitwise_and(right_shift(b[..., None], shifts), 1).reshape(b.shape[:-1] + (n,))
    if keep < n:
        bits = bits[..., :keep]
    elif keep > n:
        bits = concatenate((bits, zeros(b.shape[:-1] + (keep - n,), _U8)), axis=-1)
    return _from_last(bits, axis)
