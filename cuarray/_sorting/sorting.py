"""Sorting (NumPy "Sorting, searching, and counting / Sorting"): sort, argsort, lexsort,
sort_complex, partition, argpartition, and the in-place `ndarray.sort`/`ndarray.partition`.

Every sort is the engine's stable radix sort (`cuarray._core.sort`), whatever `kind` says:
results equal NumPy's `kind='stable'` ones bit for bit (NaNs last, -0.0 and +0.0 kept in input
order, complex lexicographic with NumPy's NaN classes). `partition`/`argpartition` sort fully,
which satisfies NumPy's contract (the k-th element in place, nothing larger before it, nothing
smaller after).
"""

from __future__ import annotations

import numpy

from .._core import shapes as _shapes
from .._core import sort as _engine
from .._core.copying import copyto_unchecked
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._manipulation.rearranging import flip

__all__ = ["sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition"]

_KINDS = {"q": "quicksort", "h": "heapsort", "m": "mergesort", "s": "stable"}


def _check_kind(kind, stable, order, a) -> None:
    """NumPy's argument checks of sort/argsort (the kind itself changes nothing here)."""
    if kind is not None:
        if stable is not None:
            raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                             "Use only one of them.")
        if not isinstance(kind, str) or not kind or kind[0].lower() not in _KINDS:
            raise ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got {!r})".format(kind))
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if a._dtype.kind not in "biufcMm":  # datetimes: NaT last, as NumPy (cuarray/_core/sort.py)
        raise TypeError("cuarray cannot sort arrays of dtype {}".format(a._dtype))


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """See `numpy.sort`. Always stable (a radix sort). `descending=True` is the Array API's
    keyword (NumPy has none): the ascending result reversed along the axis.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3, 1, 2], [9, 7, 8]])
    >>> cuarray.sort(a)
    array([[1, 2, 3],
           [7, 8, 9]])
    >>> cuarray.sort(a, axis=0)
    array([[3, 1, 2],
           [9, 7, 8]])
    """
    a = as_array(a, "sort")
    _check_kind(kind, stable, order, a)
    out = _engine.sort(a, axis)
    if descending:
        out = flip(out, -1 if axis is None else axis)
    return out


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """See `numpy.argsort`. Always stable (a radix sort). `descending=True` is the Array API's
    keyword: still stable (equal elements keep their input order), computed as the ascending
    argsort of the reversed input, reversed and mapped back (n - 1 - i).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.argsort(cuarray.array([3, 1, 2]))
    array([1, 2, 0])
    """
    a = as_array(a, "argsort")
    _check_kind(kind, stable, order, a)
    if a.ndim == 0 and axis in (-1, 0, None):
        a = a.reshape(1)  # NumPy: a 0-d input gives array([0])
    if not descending:
        return _engine.argsort(a, axis)
    if axis is None:
        a, axis = a.reshape(-1), 0
    n = a.shape[axis]
    return (n - 1) - flip(_engine.argsort(flip(a, axis), axis), axis)


def lexsort(keys, axis=-1):
    """See `numpy.lexsort`. `keys` is a sequence of arrays (or one 2-D array, its rows the keys).

    Examples
    --------
    >>> import cuarray
    >>> first = cuarray.array([1, 1, 0])
    >>> last = cuarray.array([2, 1, 3])
    >>> cuarray.lexsort((last, first))
    array([2, 1, 0])
    """
    if isinstance(keys, ndarray):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    else:
        keys = [as_array(k, "lexsort") for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    for k in keys:
        if k._dtype.kind not in "biufcMm":
            raise TypeError("cuarray cannot sort arrays of dtype {}".format(k._dtype))
    if axis is None:
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    if len(shape) == 0:
        return _engine.lexsort([k.reshape(1) for k in keys]).reshape(())

    ax = _shapes.normalize_axis_index(axis, len(shape))
    if ax != len(shape) - 1:
        moved = [k.swapaxes(ax, -1) for k in keys]
        return _engine.lexsort(moved).swapaxes(ax, -1)
    return _engine.lexsort(keys)


def sort_complex(a):
    """See `numpy.sort_complex`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sort_complex(cuarray.array([1 + 2j, 1 - 1j, 5j]))
    array([0.+5.j, 1.-1.j, 1.+2.j])
    """
    a = as_array(a, "sort_complex")
    if a._dtype.kind in "Mm":  # NumPy sorts first (NaT last), then casts NaT to -2**63
        return _engine.sort(a, -1).astype(numpy.complex128)
    if a._dtype.kind != "c":
        target = numpy.complex64 if a._dtype.char in "bhBH" else numpy.complex128
        a = a.astype(target)
    return _engine.sort(a, -1)


def _check_kth(kth, a, axis) -> None:
    """NumPy's kth checks: integers (or a sequence of them) within the axis length."""
    if a.ndim == 0:
        _shapes.normalize_axis_index(-1 if axis is None else axis, 0)

    n = a._size if axis is None else a._shape[_shapes.normalize_axis_index(axis, a.ndim)]
    ks = numpy.atleast_1d(numpy.asarray(kth))
    if ks.dtype.kind not in "biu":
        raise TypeError("Partition index must be integer")
    if a._size == 0:
        return  # NumPy's partition of an empty array returns before its bounds check
    for k in ks.tolist():
        if not -n <= k < n:
            raise ValueError("kth(={}) out of bounds ({})".format(k, n))


def _check_select(kind, order, a) -> None:
    if kind != "introselect":
        raise ValueError("select kind must be 'introselect' (got {!r})".format(kind))
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """See `numpy.partition`. The result is fully sorted along `axis` (a valid partition).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([7, 1, 5, 3, 9])
    >>> int(cuarray.partition(a, 2)[2])
    5
    """
    a = as_array(a, "partition")
    _check_select(kind, order, a)
    _check_kth(kth, a, axis)
    return _engine.sort(a, axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """See `numpy.argpartition`. The positions fully sort `a` along `axis` (a valid partition).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([7, 1, 5, 3, 9])
    >>> int(cuarray.argpartition(a, 2)[2])
    2
    """
    a = as_array(a, "argpartition")
    _check_select(kind, order, a)
    if a.ndim == 0 and axis in (-1, 0, None):
        a = a.reshape(1)
    _check_kth(kth, a, axis)
    return _engine.argsort(a, axis)


# -- ndarray methods (bound in _core/_array_methods.py) -----------------------------------------

def _assign(self: ndarray, result: ndarray) -> None:
    copyto_unchecked(self, result)


def ndarray_sort(self, axis=-1, kind=None, order=None, *, stable=None):
    """See `numpy.ndarray.sort`: sorts in place (a sorted copy written back)."""
    _check_kind(kind, stable, order, self)
    if self._size and not self.flags.writeable:
        raise ValueError("assignment destination is read-only")
    _assign(self, _engine.sort(self, axis))


def ndarray_partition(self, kth, axis=-1, kind="introselect", order=None):
    """See `numpy.ndarray.partition`: in place, fully sorted along `axis`."""
    _check_select(kind, order, self)
    _check_kth(kth, self, axis)
    _assign(self, _engine.sort(self, axis))


def ndarray_argsort(self, axis=-1, kind=None, order=None, *, stable=None):
    """See `numpy.ndarray.argsort`."""
    return argsort(self, axis, kind, order, stable=stable)


def ndarray_argpartition(self, kth, axis=-1, kind="introselect", order=None):
    """See `numpy.ndarray.argpartition`."""
    return argpartition(self, kth, axis, kind, order)

