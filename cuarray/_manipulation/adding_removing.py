"""Adding and removing elements (NumPy "Array manipulation / Adding and removing elements"):
resize, append, insert, delete, trim_zeros. Positions are planned on the host (NumPy computes the
kept/inserted index sets from the shapes alone); the data moves in one gather or a few copies.
`trim_zeros` needs the device's data to size its result (one host synchronisation)."""

from __future__ import annotations

import numpy

from .._core import shapes as _shapes
from .._core.host_input import as_array, is_scalar
from .._core.ndarray import ndarray
from .._core.transfer import from_host
from .._creation.basic import empty, zeros
from .dims import broadcast_to
from .joining import concatenate
from .tiling import tile
from .transpose import moveaxis

__all__ = ["resize", "append", "insert", "delete", "trim_zeros"]


def resize(a, new_shape):
    """See `numpy.resize`: the flat input repeated to fill `new_shape`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.resize(cuarray.array([1, 2, 3]), (2, 4))
    array([[1, 2, 3, 1],
           [2, 3, 1, 2]])
    """
    a = as_array(a, "resize")
    new_shape = (new_shape,) if isinstance(new_shape, int) else tuple(new_shape)
    _shapes.check_ndim(len(new_shape))
    if any(d < 0 for d in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    n = int(numpy.prod(new_shape))
    flat = a.reshape(-1)
    if a.size == 0 or n == 0:
        return zeros(new_shape, a.dtype)
    reps = -(-n // a.size)
    return tile(flat, reps)[:n].reshape(new_shape)


def append(arr, values, axis=None):
    """See `numpy.append`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.append(cuarray.array([1, 2, 3]), cuarray.array([4, 5]))   # not a list: no implicit upload
    array([1, 2, 3, 4, 5])
    >>> cuarray.append(cuarray.array([[1, 2]]), cuarray.array([[3, 4]]), axis=0)
    array([[1, 2],
           [3, 4]])
    """
    arr = as_array(arr, "append")
    values = as_array(values, "append")
    if axis is None:
        return concatenate((arr.reshape(-1), values.reshape(-1)), axis=0)
    return concatenate((arr, values), axis=axis)


def delete(arr, obj, axis=None):
    """See `numpy.delete`: one gather of the kept positions (computed on the host).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.delete(cuarray.arange(6), [0, 2])
    array([1, 3, 4, 5])
    >>> cuarray.delete(cuarray.arange(6).reshape(2, 3), 1, axis=1)
    array([[0, 2],
           [3, 5]])
    """
    arr = as_array(arr, "delete")
    if axis is None:
        arr = arr.reshape(-1)
        axis = 0
    axis = _shapes.normalize_axis_index(axis, arr.ndim)
    n = arr.shape[axis]
    if isinstance(obj, ndarray):
        obj = obj.get()
    keep = numpy.delete(numpy.arange(n), obj)
    if keep.size == n:
        return arr.copy()
    return arr[(slice(None),) * axis + (keep,)]


def insert(arr, obj, values, axis=None):
    """See `numpy.insert`: NumPy plans the positions on a small host index array, then the result
    is filled with one scatter of `values` and one scatter of `arr`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.insert(cuarray.array([1, 2, 3]), 1, 9)
    array([1, 9, 2, 3])
    >>> cuarray.insert(cuarray.array([1, 2, 3]), [0, 3], cuarray.array([7, 8]))
    array([7, 1, 2, 3, 8])
    """
    arr = as_array(arr, "insert")
    if axis is None:
        arr = arr.reshape(-1)
        axis = 0
    axis = _shapes.normalize_axis_index(axis, arr.ndim)
    n = arr.shape[axis]
    if isinstance(obj, ndarray):
        obj = obj.get()
    # Plan with NumPy on index arrays: positions of old elements in the new axis (first: NumPy
    # checks the positions before it converts the values)
    late = None
    try:
        marker = numpy.insert(numpy.arange(n) + 1, obj, 0)
    except ValueError as e:
        if not str(e).startswith("NumPy boolean array indexing assignment"):
            raise
        late = e  # NumPy meets it when it copies `arr`, after writing (converting) the values
    if is_scalar(values):  # NumPy's cast of a scalar to arr's dtype (OverflowError when out of range)
        vals = from_host(numpy.asarray(values, dtype=arr.dtype))
    else:
        vals = as_array(values, "insert")
    if late is not None:
        raise late
    new_n = marker.size
    old_pos = numpy.nonzero(marker)[0]
    new_pos = numpy.nonzero(marker == 0)[0]
    shape = arr.shape[:axis] + (new_n,) + arr.shape[axis + 1:]
    out = empty(shape, arr.dtype)
    pre = (slice(None),) * axis
    if numpy.ndim(obj) == 0 and vals.ndim:
        # A scalar position inserts `values` as a block: NumPy moves its axis 0 to `axis`.

        v = vals.reshape((1,) * (arr.ndim - vals.ndim) + vals.shape) if vals.ndim < arr.ndim else vals
        v = moveaxis(v, 0, axis)
        k = new_pos.size
        tgt_shape = arr.shape[:axis] + (k,) + arr.shape[axis + 1:]

        vv = broadcast_to(v, tgt_shape)
    else:
        vv = vals
    if new_pos.size:
        out[pre + (new_pos,)] = vv
    if old_pos.size:
        out[pre + (old_pos,)] = arr
    return out


def trim_zeros(filt, trim="fb", axis=None):
    """See `numpy.trim_zeros` (NumPy 2.2+: any ndim, `axis`). One small host read per trimmed axis:
    `any(filt != 0)` over the other axes says where the nonzero span of that axis starts and ends.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.trim_zeros(cuarray.array([0, 0, 1, 2, 0, 3, 0]))
    array([1, 2, 0, 3])
    >>> cuarray.trim_zeros(cuarray.array([0, 0, 1, 2, 0]), trim='f')
    array([1, 2, 0])
    """
    filt = as_array(filt, "trim_zeros")
    low = trim.lower()
    bad = set(low) - set("fb")
    if bad:
        raise ValueError("unexpected character(s) in `trim`: {!r}".format(trim))
    nd = filt.ndim
    if nd == 0:
        return filt
    axes = tuple(range(nd)) if axis is None else _shapes.normalize_axis_tuple(axis, nd, argname="axis")
    nonzero = filt != 0
    index = [slice(None)] * nd
    for d in axes:
        others = tuple(k for k in range(nd) if k != d)
        span = numpy.flatnonzero(nonzero.any(axis=others).get() if others else nonzero.get())
        if span.size == 0:
            index[d] = slice(0, 0)
            continue
        start = int(span[0]) if "f" in low else 0
        stop = int(span[-1]) + 1 if "b" in low else filt.shape[d]
        index[d] = slice(start, stop)
    return filt[tuple(index)]
