"""Memory ranges (NumPy "Miscellaneous routines"): may_share_memory, shares_memory.

Both answer from addresses, shapes and strides alone; no device data is read. `shares_memory`
gives NumPy's exact answer by asking NumPy about stand-in host arrays that carry the device
addresses: NumPy's overlap solver does pointer arithmetic only and never dereferences them.
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray

__all__ = ["may_share_memory", "shares_memory"]


def _check(a, b, fn):
    for x in (a, b):
        if not isinstance(x, ndarray):
            raise TypeError("cuarray.{} takes cuarray arrays, got {}".format(fn, type(x).__name__))


def may_share_memory(a, b, /, max_work=0) -> bool:
    """See `numpy.may_share_memory` (bounds of the memory each view can touch).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6)
    >>> bool(cuarray.may_share_memory(a[:3], a[3:]))
    False
    >>> bool(cuarray.may_share_memory(a[::2], a[1::2]))
    True
    """
    _check(a, b, "may_share_memory")
    if a.size == 0 or b.size == 0:
        return False
    if max_work != 0:
        return shares_memory(a, b, max_work=max_work)
    return a._overlaps(b)


class _Interface:
    __slots__ = ("__array_interface__",)

    def __init__(self, a: ndarray):
        self.__array_interface__ = {
            "shape": a.shape, "typestr": a.dtype.str, "data": (a.data.ptr, False),
            "strides": a.strides, "version": 3,
        }


def shares_memory(a, b, /, max_work=None) -> bool:
    """See `numpy.shares_memory` (exact, as NumPy solves it; `max_work` as NumPy's).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6)
    >>> bool(cuarray.shares_memory(a[::2], a[1::2]))
    False
    """
    _check(a, b, "shares_memory")
    if a.size == 0 or b.size == 0 or not a._overlaps(b):
        return False
    if a.data.device_id != b.data.device_id:
        return False
    return bool(numpy.shares_memory(numpy.asarray(_Interface(a)), numpy.asarray(_Interface(b)),
                                    max_work=max_work))
