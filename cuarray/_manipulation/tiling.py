"""Tiling arrays (NumPy "Array manipulation / Tiling arrays"): tile (one broadcast copy) and
repeat (one gather along the axis, index computed on the host)."""

from __future__ import annotations

import numpy

from .._core import shapes as _shapes
from .._core.copying import copyto_unchecked
from .._core.host_input import as_array
from .._core.ndarray import ndarray

__all__ = ["tile", "repeat"]


def tile(A, reps):
    """See `numpy.tile`: the input broadcast into an interleaved (rep, dim, ...) view of the result.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.tile(cuarray.array([1, 2]), 3)
    array([1, 2, 1, 2, 1, 2])
    >>> cuarray.tile(cuarray.array([1, 2]), (2, 2))
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    A = as_array(A, "tile")
    reps = (int(reps),) if numpy.ndim(reps) == 0 else tuple(int(r) for r in reps)
    d = len(reps)
    if d < A.ndim:
        reps = (1,) * (A.ndim - d) + reps
    shape = (1,) * (len(reps) - A.ndim) + A.shape
    A = A.reshape(shape)
    out_shape = tuple(s * r for s, r in zip(shape, reps))
    out = ndarray(out_shape, A.dtype)
    if out.size == 0:
        return out
    inter = []
    for s, r in zip(shape, reps):
        inter += [r, s]
    view = out.reshape(tuple(inter))
    src = A.reshape(tuple(x for s in shape for x in (1, s)))
    copyto_unchecked(view, src)
    return out


def repeat(a, repeats, axis=None):
    """See `numpy.repeat`. Device `repeats` are copied to the host (their sum sizes the result).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.repeat(cuarray.array([1, 2, 3]), 2)
    array([1, 1, 2, 2, 3, 3])
    >>> cuarray.repeat(cuarray.array([[1, 2], [3, 4]]), [1, 2], axis=0)
    array([[1, 2],
           [3, 4],
           [3, 4]])
    """
    a = as_array(a, "repeat")
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    elif a.ndim == 0:  # NumPy's PyArray_CheckAxis: a 0-d array is taken as 1-d
        a = a.reshape(-1)
    axis = _shapes.normalize_axis_index(axis, a.ndim)
    if isinstance(repeats, ndarray):
        repeats = repeats.get()
    reps = numpy.asarray(repeats)
    if reps.dtype.kind not in "iu" and reps.dtype.kind != "b":
        reps = reps.astype(numpy.intp, casting="safe")
    n = a.shape[axis]
    if reps.ndim > 1 or (reps.ndim == 1 and reps.size not in (1, n)):
        raise ValueError("operands could not be broadcast together with shape ({},) ({},)".format(n, reps.size))
    if reps.ndim == 0 or reps.size == 1:
        r = int(reps.reshape(-1)[0])
        if r < 0:  # NumPy sizes the result n * r first: fine when n is 0
            if n:
                raise ValueError("negative dimensions are not allowed")
            r = 0
        if r == 1:
            return a.copy()
        # Broadcast copy: insert a length-r axis after `axis`.
        shape = a.shape[:axis + 1] + (r,) + a.shape[axis + 1:]
        out = ndarray(shape, a.dtype)
        if out.size:
            copyto_unchecked(out, a.reshape(a.shape[:axis + 1] + (1,) + a.shape[axis + 1:]))
        return out.reshape(a.shape[:axis] + (n * r,) + a.shape[axis + 1:])
    if (reps < 0).any():
        raise ValueError("repeats may not contain negative values.")
    idx = numpy.repeat(numpy.arange(n), reps)
    return a[(slice(None),) * axis + (idx,)]
