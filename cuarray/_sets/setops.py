"""Set operations on 1-D arrays: intersect1d, union1d, setdiff1d, setxor1d, with NumPy's recipes
(unique, a stable sort of the concatenation, neighbour flags, one compaction) so the results are
NumPy's, indices included. Each synchronises where its size depends on the data."""

from __future__ import annotations

import numpy

from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import equal, not_equal
from .._logic.ops import logical_and
from .._manipulation.joining import concatenate
from .._math.arithmetic import subtract
from .._sorting.searching_nonzero import flatnonzero
from .membership import member
from .unique import _engine, unique

__all__ = ["intersect1d", "union1d", "setdiff1d", "setxor1d"]

_B = numpy.dtype(bool)


def _flat(x, fn) -> ndarray:
    return as_array(x, fn).reshape(-1)


def _concat(a, b):
    return concatenate([a, b])


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """See `numpy.intersect1d`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.intersect1d(cuarray.array([1, 3, 4, 3]), cuarray.array([3, 1, 2, 1]))
    array([1, 3])
    """
    ar1, ar2 = _flat(ar1, "intersect1d"), _flat(ar2, "intersect1d")
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    aux = _concat(ar1, ar2)
    n = aux._size
    if return_indices:
        if n:
            aux, order = _engine().sort_pairs(aux, arange(n, dtype=numpy.int64))
        else:
            order = ndarray((0,), numpy.dtype(numpy.int64))
    elif n:
        aux = _engine().sort(aux, axis=None)
    if n < 2:
        mask = ndarray((0,), _B)
        idx = flatnonzero(mask)
        common = aux[:0]
    else:
        idx = flatnonzero(equal(aux[1:], aux[:-1]))
        common = take(aux[:-1], idx)
    if not return_indices:
        return common
    i1 = take(order[:-1], idx) if n >= 2 else order[:0]
    i2 = subtract(take(order[1:], idx), numpy.int64(ar1._size)) if n >= 2 else order[:0]
    if not assume_unique:
        i1, i2 = take(ind1, i1), take(ind2, i2)
    return common, i1, i2


def union1d(ar1, ar2):
    """See `numpy.union1d`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.union1d(cuarray.array([-1, 0, 1]), cuarray.array([-2, 0, 2]))
    array([-2, -1,  0,  1,  2])
    """
    return unique(_concat(_flat(ar1, "union1d"), _flat(ar2, "union1d")))


def setdiff1d(ar1, ar2, assume_unique=False):
    """See `numpy.setdiff1d`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.setdiff1d(cuarray.array([1, 2, 3, 2, 4, 1]), cuarray.array([3, 4, 5, 6]))
    array([1, 2])
    """
    ar1 = _flat(ar1, "setdiff1d")
    ar2 = _flat(ar2, "setdiff1d")
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    return ar1[member(ar1, ar2, True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """See `numpy.setxor1d`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.setxor1d(cuarray.array([1, 2, 3, 2, 4]), cuarray.array([2, 3, 5, 7, 5]))
    array([1, 4, 5, 7])
    """
    ar1, ar2 = _flat(ar1, "setxor1d"), _flat(ar2, "setxor1d")
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = _concat(ar1, ar2)
    if aux._size == 0:
        return aux
    aux = _engine().sort(aux, axis=None)
    edge = ndarray((1,), _B)
    edge.fill(True)
    flag = _concat(_concat(edge, not_equal(aux[1:], aux[:-1])), edge)
    return aux[logical_and(flag[1:], flag[:-1])]

