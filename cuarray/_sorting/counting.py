"""Counting (NumPy "Sorting, searching, and counting / Counting"): count_nonzero.

GPU difference: `count_nonzero(a)` with no axis returns a 0-d int64 array, not a Python int
(that would need a device synchronisation); `int(...)` it when a host value is needed.
"""

from __future__ import annotations

from .._core import reduction_ops as _r

__all__ = ["count_nonzero"]


def count_nonzero(a, axis=None, *, keepdims=False):
    """See `numpy.count_nonzero`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[0, 3], [4, 5]])
    >>> int(cuarray.count_nonzero(a))
    3
    >>> cuarray.count_nonzero(a, axis=0)
    array([1, 2])
    """
    return _r.reduce("count_nonzero", a, axis, None, None, keepdims)
