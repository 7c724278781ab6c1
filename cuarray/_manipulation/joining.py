"""Joining arrays (NumPy "Array manipulation / Joining arrays"): concatenate, stack, vstack,
hstack, dstack, column_stack, row_stack.

`concatenate` allocates the result once. Inputs that are C-contiguous and of the result's dtype
(the usual case) are copied by one batched kernel launch for all of them (`_core.batched_copy`),
along any axis; the others (strided, or needing a cast) get one copy each, as do all inputs when
there are fewer than `batched_copy.MIN_PIECES`. Measured for 100 inputs of 4 MiB: docs/benchmarks.md.
"""

from __future__ import annotations

import warnings as _warnings

import numpy

from .._core import batched_copy as _batched_copy
from .._core import device_check as _device_check
from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core.copying import copyto_unchecked, unaliased
from .._core.host_input import as_array
from .._core.ndarray import ndarray

__all__ = ["concatenate", "concat", "stack", "vstack", "hstack", "dstack", "column_stack", "row_stack"]


def _result_dtype(in_dtypes, dtype):
    # (storage: structured arrays of one dtype are joined by copies; another dtype's copy refuses)
    if dtype is not None:
        return _dtypes.storage_dtype(dtype)
    return _dtypes.storage_dtype(numpy.result_type(*in_dtypes))


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """See `numpy.concatenate`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3)
    >>> cuarray.concatenate([a, a], axis=1)
    array([[0, 1, 2, 0, 1, 2],
           [3, 4, 5, 3, 4, 5]])
    """
    if out is None and dtype is None and type(arrays) in (list, tuple) and len(arrays) >= _batched_copy.MIN_PIECES:
        res = _concat_dense(arrays, axis)
        if res is not None:
            return res
    if isinstance(arrays, ndarray):
        arrays = [arrays[i] for i in range(arrays.shape[0])] if arrays.ndim else [arrays]
    arrays = [as_array(a, "concatenate") for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    first = arrays[0]
    if first.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    nd = first.ndim
    axis = _shapes.normalize_axis_index(axis, nd)
    # Host cost matters here (100 inputs: the checks below run once per input), so shapes are
    # compared as tuples and casts are checked once per distinct dtype.
    ref = first._shape[:axis] + first._shape[axis + 1:]
    total = 0
    for i, a in enumerate(arrays):
        s = a._shape
        if len(s) != nd:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at index 0 has {} "
                "dimension(s) and the array at index {} has {} dimension(s)".format(nd, i, len(s)))
        if s[:axis] + s[axis + 1:] != ref:
            d = next(d for d in range(nd) if d != axis and s[d] != first._shape[d])
            raise ValueError(
                "all the input array dimensions except for the concatenation axis must match exactly, but "
                "along dimension {}, the array at index 0 has size {} and the array at index {} has size {}".format(
                    d, first._shape[d], i, s[d]))
        total += s[axis]
    shape = first._shape[:axis] + (total,) + first._shape[axis + 1:]
    in_dtypes = list(dict.fromkeys(a._dtype for a in arrays))
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray array")
        if out.shape != shape:
            raise ValueError("Output array is the wrong shape")
        res_dt = out.dtype
    else:
        res_dt = _result_dtype(in_dtypes, dtype)
    for dt in in_dtypes:
        if not numpy.can_cast(dt, res_dt, casting):
            raise TypeError("Cannot cast array data from {!r} to {!r} according to the rule '{}'".format(
                dt, res_dt, casting))
    if _device_check.active[0]:  # the batched copy launches on raw pointers: check here
        _device_check.check(arrays + [out])
    res = out if out is not None else ndarray(shape, res_dt)
    if res._size == 0:
        return res
    if out is not None and any(a._overlaps(out) for a in arrays):
        # NumPy copies the inputs one after another, each reading memory as the earlier copies
        # left it (concatenate([a[1:], a[:1]], out=a) sees a[0] already overwritten). Do the same:
        # in order, each overlapping input first copied aside.
        start = 0
        idx = [slice(None)] * nd
        for a in arrays:
            n = a.shape[axis]
            if n and a._size:
                idx[axis] = slice(start, start + n)
                dst = res[tuple(idx)]
                copyto_unchecked(dst, unaliased(a, dst))
            start += n
        return res
    # Inputs that are C-contiguous and of the result's type go into one batched launch when the
    # result is C-contiguous too; the others get one copy (or cast) each.
    batch = []
    rest = []
    start = 0
    for a in arrays:
        n = a.shape[axis]
        if n and a._size:
            (batch if res._c and a._c and a._dtype == res_dt else rest).append((a, start))
        start += n
    if len(batch) < _batched_copy.MIN_PIECES:
        rest += batch
    else:
        rows, pitch, pieces = _batched_copy.concat_geometry(
            shape, axis, res._dtype.itemsize, [(a.data.ptr, a.shape[axis], s) for a, s in batch])
        _batched_copy.copy_pieces(res.data.ptr, pitch, rows, pieces)
    idx = [slice(None)] * nd
    for a, s in rest:
        idx[axis] = slice(s, s + a.shape[axis])
        copyto_unchecked(res[tuple(idx)], a)
    return res


def _concat_dense(arrays, axis):
    """The common case in one pass over the inputs (host time is the cost of concatenating many
    arrays: the general path below checks and classifies each input several times): every input
    a non-empty C-contiguous cuarray array of one dtype and ndim >= 1, shapes matching off `axis`,
    one device. None for anything else, which the general path handles (and its errors)."""
    if type(axis) is not int or _device_check.active[0]:
        return None
    first = arrays[0]
    if type(first) is not ndarray:
        return None
    fs = first._shape
    nd = len(fs)
    if not nd or not -nd <= axis < nd:
        return None
    if axis < 0:
        axis += nd
    dt = first._dtype
    inner = dt.itemsize
    for d in fs[axis + 1:]:
        inner *= d
    head, tail = fs[:axis], fs[axis + 1:]
    parts = []
    total = 0
    for a in arrays:
        if type(a) is not ndarray or not a._c or a._dtype is not dt and a._dtype != dt:
            return None
        s = a._shape
        n = s[axis] if len(s) == nd else 0
        if not n or s[:axis] != head or s[axis + 1:] != tail:
            return None
        parts.append((a.data.ptr, n * inner, total * inner))
        total += n
    rows = 1
    for d in head:
        rows *= d
    res = ndarray(head + (total,) + tail, dt)
    if res._size:
        _batched_copy.copy_pieces(res.data.ptr, total * inner, rows, parts)
    return res


concat = concatenate


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """See `numpy.stack`.

    Examples
    --------
    >>> import cuarray
    >>> a, b = cuarray.array([1, 2]), cuarray.array([3, 4])
    >>> cuarray.stack([a, b])
    array([[1, 2],
           [3, 4]])
    >>> cuarray.stack([a, b], axis=1)
    array([[1, 3],
           [2, 4]])
    """
    arrays = [as_array(a, "stack") for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    axis = _shapes.normalize_axis_index(axis, len(shape) + 1)
    if len(shape) + 1 > _shapes.MAXDIMS:  # NumPy's: it inserts the axis by indexing with newaxis
        raise IndexError("number of dimensions must be within [0, {}], indexing result would have {}".format(
            _shapes.MAXDIMS, len(shape) + 1))
    expanded = [a.reshape(a.shape[:axis] + (1,) + a.shape[axis:]) for a in arrays]
    return concatenate(expanded, axis=axis, out=out, dtype=dtype, casting=casting)


def _atleast(a, n, fn):
    a = as_array(a, fn)
    if a.ndim >= n:
        return a
    if n == 1:
        return a.reshape(1)
    if n == 2:
        return a.reshape((1,) * (2 - a.ndim) + a.shape)
    if a.ndim == 0:
        return a.reshape(1, 1, 1)
    if a.ndim == 1:
        return a.reshape(1, a.shape[0], 1)
    return a.reshape(a.shape + (1,))


def vstack(tup, *, dtype=None, casting="same_kind"):
    """See `numpy.vstack`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.vstack([cuarray.array([1, 2]), cuarray.array([3, 4])])
    array([[1, 2],
           [3, 4]])
    """
    return concatenate([_atleast(a, 2, "vstack") for a in tup], axis=0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """See `numpy.row_stack`: NumPy 2's deprecated alias of `vstack`, with its DeprecationWarning
    (NumPy 2.5 removed the name; cuarray keeps it for CuPy programs). Use `vstack`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.row_stack([cuarray.array([1, 2]), cuarray.array([3, 4])]).shape  # (warns)
    (2, 2)
    """
    _warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """See `numpy.hstack`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.hstack([cuarray.array([1, 2]), cuarray.array([3, 4, 5])])
    array([1, 2, 3, 4, 5])
    """
    arrs = [_atleast(a, 1, "hstack") for a in tup]
    if arrs and arrs[0].ndim == 1:
        return concatenate(arrs, axis=0, dtype=dtype, casting=casting)
    return concatenate(arrs, axis=1, dtype=dtype, casting=casting)


def dstack(tup):
    """See `numpy.dstack`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.dstack([cuarray.array([1, 2]), cuarray.array([3, 4])])
    array([[[1, 3],
            [2, 4]]])
    """
    return concatenate([_atleast(a, 3, "dstack") for a in tup], axis=2)


def column_stack(tup):
    """See `numpy.column_stack`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.column_stack([cuarray.array([1, 2]), cuarray.array([3, 4])])
    array([[1, 3],
           [2, 4]])
    """
    arrs = []
    for a in tup:
        a = as_array(a, "column_stack")
        if a.ndim < 2:
            a = a.reshape(-1, 1)
        arrs.append(a)
    return concatenate(arrs, axis=1)
