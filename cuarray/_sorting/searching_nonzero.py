"""nonzero, flatnonzero, argwhere and one-argument `where` (NumPy "Sorting, searching, and counting").

All four are one prefix sum of the (flattened) condition plus one kernel writing the coordinates
of its true elements; the result's length needs one host synchronisation (the last prefix value),
as in any GPU library.
"""

from __future__ import annotations

import numpy

from .._core import indexing as _indexing
from .._core.host_input import as_array, lazy_value
from .._core.ndarray import ndarray
from .._creation.from_data import asarray
from .._logic.comparison import not_equal

__all__ = ["nonzero", "flatnonzero", "argwhere", "where_nonzero"]


def _device(a) -> ndarray:
    if isinstance(a, ndarray) or lazy_value(a) is not None:
        return as_array(a, "nonzero")  # (through the host-input policy: a tracer knows a routine runs)

    return asarray(a)


def _truth(a: ndarray) -> ndarray:
    if a._dtype == numpy.dtype(bool):
        return a

    return not_equal(a, 0)


def nonzero(a):
    """See `numpy.nonzero`. A tuple of int64 arrays (rows of one (ndim, count) array).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[0, 3], [4, 0]])
    >>> cuarray.nonzero(a)
    (array([0, 1]), array([1, 0]))
    """
    a = _device(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. "
                         "If the context of this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.")
    coords, _ = _indexing.mask_nonzero(_truth(a), "rows")
    return tuple(coords[d] for d in range(a.ndim))


def flatnonzero(a):
    """See `numpy.flatnonzero`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.flatnonzero(cuarray.array([[0, 3], [4, 0]]))
    array([1, 2])
    """
    a = _device(a)
    flat = a.reshape(-1) if a.ndim != 1 else a
    coords, _ = _indexing.mask_nonzero(_truth(flat), "rows")
    return coords[0]


def argwhere(a):
    """See `numpy.argwhere`: an int64 array of shape (count, ndim).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[0, 3], [4, 0]])
    >>> cuarray.argwhere(a)
    array([[0, 1],
           [1, 0]])
    """
    a = _device(a)
    if a.ndim == 0:
        t = _truth(a.reshape(1))
        coords, count = _indexing.mask_nonzero(t, "cols")
        return coords[:, :0]
    coords, _ = _indexing.mask_nonzero(_truth(a), "cols")
    return coords


def where_nonzero(condition):
    """`where(condition)` with one argument: `nonzero(asarray(condition))`."""
    return nonzero(condition)
