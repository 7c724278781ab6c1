"""Creation from host buffers, iterables and strings, and from a function of the indices:
frombuffer, fromiter, fromstring, fromfunction. See NumPy's "Array creation /
From existing data" and "Numerical ranges".

The host forms parse on the host with NumPy (the oracle) and copy the result to the device once:
an explicit creation from host data, like `cuarray.array`. `fromfunction` calls the function
with device index arrays (`cuarray.indices`), so array code in it runs on the GPU.
"""

from __future__ import annotations

import numpy

from .._core import transfer as _transfer
from .._core.ndarray import ndarray
from .._indexing.generating import indices

__all__ = ["frombuffer", "fromiter", "fromstring", "fromfunction"]


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None) -> ndarray:
    """See `numpy.frombuffer`: the host buffer is read with NumPy and copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.frombuffer(bytes([1, 2, 3, 4]), dtype=cuarray.uint8)
    array([1, 2, 3, 4], dtype=uint8)
    """
    return _transfer.from_host(numpy.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromiter(iter, dtype, count=-1, *, like=None) -> ndarray:  # noqa: A002  (NumPy's name)
    """See `numpy.fromiter`: consumed on the host, then copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fromiter((i * i for i in range(5)), dtype=int)
    array([ 0,  1,  4,  9, 16])
    """
    return _transfer.from_host(numpy.fromiter(iter, dtype=dtype, count=count))


def fromstring(string, dtype=float, count=-1, *, sep, like=None) -> ndarray:
    """See `numpy.fromstring` (text mode: `sep` is required, as NumPy 2 requires for anything but
    the deprecated binary mode).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fromstring('1 2 3', dtype=int, sep=' ')
    array([1, 2, 3])
    """
    return _transfer.from_host(numpy.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """See `numpy.fromfunction`: `function` gets one device index array per axis.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=int)
    array([[ 0,  1,  2],
           [10, 11, 12]])
    """
    return function(*indices(shape, dtype=dtype), **kwargs)
