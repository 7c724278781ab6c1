"""unique and the array-API forms unique_all, unique_counts, unique_inverse, unique_values.

Values alone of integers whose values span at most about 4 integers an element: a bitmap of
the values present instead of the sort (unique_dense.py), decided by one min/max pass and one read
before any bitmap work (8- and 16-bit integers need neither); wider integers, floats and bools:
the sort, then the values found in the sorted keys by two passes (unique_heads.py) instead of a
flag array and a mask compaction.

NumPy's method on the device: a stable sort (with positions when indices or the inverse are
asked for), a flag per sorted element that differs from its predecessor (NaNs equal to each other
with `equal_nan`; one kernel for numbers and bools), then for the values alone one mask compaction
of the sorted values (tile counts, a scan, one pass: the one synchronisation, the result's size);
with indices, inverse or counts one `flatnonzero` of the flags and gathers: values and first
positions at the flags, counts as differences of the flag positions, the inverse as a scatter of
the running flag count through the permutation.
Results are bit-identical to NumPy's (the sort is stable, so `return_index` gives first
occurrences as NumPy's mergesort does).
"""

from __future__ import annotations

import collections

import numpy

from .._core import mask_compact, sort
from .._core.copying import copy, copyto_where_unchecked
from .._core import dtypes as _dtypes
from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._core.shapes import normalize_axis_index
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import not_equal
from .._logic.content import isnan, isnat
from .._logic.ops import logical_and, logical_not
from .._logic.truth import any as any_
from .._manipulation.joining import concatenate
from .._manipulation.transpose import moveaxis
from .._math.arithmetic import subtract
from .._math.sums_scan import cumsum, diff
from .._sorting.searching_nonzero import flatnonzero
from .._sorting.searching_reduce import argmax
from . import unique_dense as _dense
from . import unique_heads as _heads
from ..cuda import caches as _caches

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "sorted_flags", "nats_equal"]

_I8 = numpy.dtype(numpy.int64)

UniqueAllResult = collections.namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = collections.namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = collections.namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


# The flags of a sorted 1-D array in one pass, the head included (no slices, no concatenation):
# integers and bools, and float32/float64 with NaNs equal (NaN != NaN, so a pair of NaNs is the
# one case where != is true and neither equals itself).
_FLAGS_OP = "f = i == 0 || x[i] != x[i - 1]"
_FLAGS_NAN_OP = "f = i == 0 || (x[i] != x[i - 1] && (x[i] == x[i] || x[i - 1] == x[i - 1]))"
_BOOL = numpy.dtype(bool)
_flag_defs: dict = {}
_caches.register("unique flag definitions", _flag_defs)


def flags_definition(dt, equal_nan: bool) -> Definition:
    """The engine's elementwise kernel flagging the heads of a sorted C-contiguous `dt` array."""
    key = (dt, equal_nan)
    d = _flag_defs.get(key)
    if d is None:
        name = "cuarray_unique_flags_equal_nan" if equal_nan else "cuarray_unique_flags"
        params = [KernelParam("x", "raw", dt, dt), KernelParam("f", "out", _BOOL, _BOOL, by_ref=True)]
        d = _flag_defs[key] = Definition("{}_{}_bool".format(name, dt.name), params,
                                         _FLAGS_NAN_OP if equal_nan else _FLAGS_OP,
                                         preamble="typedef {} T;\n".format(_dtypes.ctype(dt)))
    return d


def _fused_flags(aux: ndarray, equal_nan: bool):
    """The flags by one kernel where the dtype allows (None otherwise); `aux` C-contiguous."""
    if aux._dtype.kind in "biu":
        d = flags_definition(aux._dtype, False)
    elif aux._dtype.char in "fd":
        d = flags_definition(aux._dtype, bool(equal_nan))
    else:
        return None
    mask = ndarray((aux._size,), _BOOL)
    d.run([mask], (), mask._shape, raw=(aux,))
    return mask


def sorted_flags(aux: ndarray, equal_nan: bool) -> ndarray:
    """bool flags of the sorted 1-D `aux`: True where an element starts a new value."""
    n = aux._size
    if n > 1 and aux._c:
        mask = _fused_flags(aux, equal_nan)
        if mask is not None:
            return mask
    head = ndarray((min(n, 1),), numpy.dtype(bool))
    head.fill(True)
    if n <= 1:
        return head
    ne = not_equal(aux[1:], aux[:-1])
    if equal_nan and aux._dtype.kind in "fcMm":  # NaNs (NaTs) equal: one of them kept, as NumPy
        nan = isnat if aux._dtype.kind in "Mm" else isnan
        ne = logical_and(ne, logical_not(logical_and(nan(aux[1:]), nan(aux[:-1]))))
    return concatenate([head, ne])


def nats_equal(dt: numpy.dtype, equal_nan: bool, only_values: bool) -> bool:
    """Whether a flattened unique keeps one NaN (NaT) of `dt`. `equal_nan`, except for datetime64
    when only the values are asked for: NumPy then takes its hash-based unique, whose table has
    datetime64 (hashed and compared as uint64, so NaT equals NaT whatever `equal_nan` says) but not
    timedelta64 (numpy/_core/src/multiarray/unique.cpp, NumPy 2.3 on)."""
    return bool(equal_nan) or (dt.kind == "M" and only_values)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):  # noqa: A002
    """See `numpy.unique`. Synchronises once (the number of unique values). Values come out
    sorted whatever `sorted` says (NumPy allows any order when it is False).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([3, 1, 3, 2, 1])
    >>> cuarray.unique(a)
    array([1, 2, 3])
    >>> values, counts = cuarray.unique(a, return_counts=True)
    >>> counts
    array([2, 1, 2])
    """
    ar = as_array(ar, "unique")
    if axis is None:
        only_values = not (return_index or return_inverse or return_counts)
        flat = ar.reshape(-1)
        ret = _unique1d(flat, return_index, return_inverse, return_counts,
                        nats_equal(ar._dtype, equal_nan, only_values))
        if only_values and equal_nan and ar._dtype.kind == "c":
            _first_nan_kept(ret[0], flat)
        if return_inverse:
            ret = list(ret)
            ret[1 + return_index] = ret[1 + return_index].reshape(ar._shape)
            ret = tuple(ret)
        return ret[0] if len(ret) == 1 else ret
    axis = normalize_axis_index(axis, ar.ndim)
    return _unique_axis(ar, axis, return_index, return_inverse, return_counts)


def _first_nan_kept(vals: ndarray, flat: ndarray) -> None:
    """NumPy's values alone go through a hash set (NumPy 2.4 and 2.5), which keeps the input's first
    NaN (all complex NaNs equal: unique([nan - 0.5j, -2 + nanj]) is [nan - 0.5j]), where the sort
    keeps the first in NumPy's order of NaNs (R + nanj, nan + Rj, nan + nanj: -2 + nanj): the
    input's first NaN is written over the last value where that is NaN. Three small kernels, no
    synchronisation."""
    if vals.size == 0:
        return
    first = take(flat, argmax(isnan(flat)).reshape(1))  # (1-d: a 0-d index is read to the host)
    last = vals[vals.size - 1:]
    copyto_where_unchecked(last, first, isnan(last))


_values_by = "dense"


def values_by(how: str) -> str:
    """How unique finds the values alone: "dense" (the default: integers spanning few values by a
    bitmap, else a sort and the heads found in the sorted keys), "heads" (always the sort, then the
    heads) or "flags" (the sort, a flag array, a mask compaction: the route before the other two);
    returns the previous setting. For benchmarks and tests: process-wide."""
    global _values_by
    if how not in ("dense", "heads", "flags"):
        raise ValueError("unique values by 'dense', 'heads' or 'flags', not {!r}".format(how))
    prev = _values_by
    _values_by = how
    return prev


def _unique1d(x: ndarray, return_index, return_inverse, return_counts, equal_nan) -> tuple:
    n = x._size
    only_values = not (return_index or return_inverse or return_counts)
    if only_values and _values_by == "dense" and x._dtype.kind in "iu" and n >= _dense.MIN_SIZE:
        vals = _dense.values(x if x._c else copy(x))  # integers spanning few values: a bitmap, no sort
        if vals is not None:
            return (vals,)
    if return_index or return_inverse:
        # One stable sort moving the positions along (NumPy: mergesort for return_index).
        aux, perm = _engine().sort_pairs(x, arange(n, dtype=numpy.int64)) if n else (copy(x), ndarray((0,), _I8))
    else:
        perm = None
        aux = _engine().sort(x, axis=None) if n else copy(x)
    if only_values and n and _values_by != "flags" and _heads.supports(aux):
        return (_heads.values(aux, equal_nan),)  # the values from the sorted keys: no flag array
    mask = sorted_flags(aux, equal_nan)
    if only_values and mask_compact.supports(aux):
        return (mask_compact.compact(aux, mask),)  # the values straight from the flags: no index array
    idx = flatnonzero(mask)
    ret = (take(aux, idx),)
    if return_index:
        ret += (take(perm, idx),)
    if return_inverse:
        inv = ndarray((n,), _I8)
        if n:
            inv[perm] = subtract(cumsum(mask, dtype=_I8), numpy.int64(1))
        ret += (inv,)
    if return_counts:
        end = ndarray((1,), _I8)
        end.fill(n)
        ret += (diff(concatenate([idx, end])) if n else ndarray((0,), _I8),)
    return ret


def _unique_axis(ar: ndarray, axis: int, return_index, return_inverse, return_counts):
    """unique slices along `axis`: rows of the (n, rest) view ordered lexicographically (the
    first column most significant) by stable passes of the sort, last column first."""
    moved = moveaxis(ar, axis, 0)
    n = moved._shape[0]
    rows = copy(moved).reshape(n, -1) if n else moved.reshape(0, -1)
    perm = ndarray((n,), _I8)
    if n:
        perm = arange(n, dtype=numpy.int64)
        for c in range(rows._shape[1] - 1, -1, -1):
            keys = take(rows[:, c], perm)
            _, perm = _engine().sort_pairs(keys, perm)
    srt = take(rows, perm, axis=0)
    head = ndarray((min(n, 1),), numpy.dtype(bool))
    head.fill(True)
    if n > 1 and rows._shape[1]:
        mask = concatenate([head, any_(not_equal(srt[1:], srt[:-1]), axis=1)])
    elif n > 1:
        mask = concatenate([head, ndarray((n - 1,), numpy.dtype(bool))])
        mask[1:] = False
    else:
        mask = head
    idx = flatnonzero(mask)
    vals = take(srt, idx, axis=0).reshape((-1,) + moved._shape[1:])
    ret = (moveaxis(vals, 0, axis),)
    if return_index:
        ret += (take(perm, idx),)
    if return_inverse:
        inv = ndarray((n,), _I8)
        if n:
            inv[perm] = subtract(cumsum(mask, dtype=_I8), numpy.int64(1))
        ret += (inv,)
    if return_counts:
        end = ndarray((1,), _I8)
        end.fill(n)
        ret += (diff(concatenate([idx, end])),)
    return ret[0] if len(ret) == 1 else ret


def unique_all(x):
    """See `numpy.unique_all`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([3, 1, 3, 2, 1])
    >>> values, indices, inverse, counts = cuarray.unique_all(a)
    >>> indices
    array([1, 3, 0])
    """
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


def unique_counts(x):
    """See `numpy.unique_counts`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([3, 1, 3, 2, 1])
    >>> values, counts = cuarray.unique_counts(a)
    >>> counts
    array([2, 1, 2])
    """
    return UniqueCountsResult(*unique(x, False, False, True, equal_nan=False))


def unique_inverse(x):
    """See `numpy.unique_inverse`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([3, 1, 3, 2, 1])
    >>> values, inverse = cuarray.unique_inverse(a)
    >>> inverse
    array([2, 0, 2, 1, 0])
    """
    return UniqueInverseResult(*unique(x, False, True, False, equal_nan=False))


def unique_values(x):
    """See `numpy.unique_values` (values come out sorted).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([3, 1, 3, 2, 1])
    >>> cuarray.sort(cuarray.unique_values(a))   # NumPy's order is arbitrary
    array([1, 2, 3])
    """
    return unique(x, equal_nan=False, sorted=False)


def _engine():
    """The sort engine, imported when first needed (it compiles nothing at import)."""
    return sort
