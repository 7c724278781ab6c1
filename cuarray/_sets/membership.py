"""Membership: isin and in1d. The test values are sorted once (the sort engine); each element is
then found by binary search (`_sorting/searchsorted.search`) and compared with the value at its
position. No synchronisation; NaN is never a member (NaN != NaN), as in NumPy."""

from __future__ import annotations

import warnings

import numpy

from .._core.copying import astype
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._indexing.inserting import take
from .._logic.comparison import equal
from .._logic.ops import logical_not
from .._math.extrema import minimum
from .._sorting.searchsorted import search
from .unique import _engine

__all__ = ["isin", "in1d"]

_KINDS = (None, "sort", "table")


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """See `numpy.isin`. `kind` is accepted; every kind runs the sort-and-search method.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isin(cuarray.array([1, 2, 3, 4]), cuarray.array([2, 4]))
    array([False,  True, False,  True])
    """
    if kind not in _KINDS:
        raise ValueError("Invalid kind: '{}'. Please use None, 'sort' or 'table'.".format(kind))
    element = as_array(element, "isin")
    test = as_array(test_elements, "isin")
    return member(element, test.reshape(-1), invert)


def member(element: ndarray, test: ndarray, invert: bool) -> ndarray:
    """bool array of element's shape: whether each element equals some value of the 1-D `test`."""
    if test._size == 0 or element._size == 0:
        out = ndarray(element._shape, numpy.dtype(bool))
        out.fill(bool(invert))
        return out
    dt = numpy.promote_types(element._dtype, test._dtype)
    sdt = numpy.dtype(numpy.float32) if dt.char == "e" else dt
    srt = _engine().sort(astype(test, sdt, copy=False), axis=None)
    e = astype(element, sdt, copy=False)
    pos = search(srt, e, False)
    hit = take(srt, minimum(pos, numpy.int64(test._size - 1)))
    found = equal(hit, e)
    return logical_not(found) if invert else found


def in1d(ar1, ar2, assume_unique=False, invert=False, *, kind=None):
    """See `numpy.in1d` (removed from NumPy 2.4; `isin(ar1, ar2).ravel()`).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.in1d(cuarray.array([1, 2, 3, 4]), cuarray.array([2, 4]))
    array([False,  True, False,  True])
    """
    warnings.warn("`in1d` is deprecated. Use `np.isin` instead.", DeprecationWarning, stacklevel=2)
    return isin(ar1, ar2, assume_unique, invert, kind=kind).reshape(-1)

