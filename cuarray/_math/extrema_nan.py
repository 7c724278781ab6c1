"""NumPy's NaN in max/min reductions of complex input (`numpy.max`, `numpy.maximum.reduce`, and the
min forms): NumPy's reduction meets the elements one by one in its iterator's order (the reduced
axes by decreasing |stride|, each in its own direction) and keeps the first NaN; the parallel
reduction keeps whichever it meets, so a second pass (isnan, argmax and a gather: a few small
kernels, complex input only, no synchronisation) writes that first NaN where the result is NaN.
"""

from __future__ import annotations

import math

import numpy

from .._core import reduction_ops as _r
from .._core.copying import copyto_where_unchecked, fill
from .._logic.content import isnan
from .._logic.ops import logical_and
from .._manipulation.dims import broadcast_to
from .._sorting.searching_reduce import argmax
from .arithmetic import floor_divide, remainder


def nan_order(strides, raxes):
    """(the kept axes, the reduced axes in NumPy's order of iteration): by decreasing |stride|, ties
    in C order (NumPy's iterator sorts the axes so and keeps negative strides for a reduction)."""
    kept = [i for i in range(len(strides)) if i not in raxes]
    return kept, sorted(raxes, key=lambda i: -abs(strides[i]))  # (a stable sort)


def first_nan(a, axis, keepdims, initial, where, res):
    """`res` (max or min of complex `a`) with NumPy's NaN where it is NaN: the first NaN of each
    slice in NumPy's order of iteration (`nan_order`), each axis in its own direction."""
    if getattr(a, "dtype", None) is None or a.dtype.kind != "c" or not a.size or res.dtype.kind != "c":
        return res  # (into a real out=, which NaN it was is lost in the cast)
    if initial is not _r.NOVALUE and numpy.asarray(initial).dtype.kind in "fc" and numpy.isnan(initial):
        fill(res, initial)  # NumPy's first element of every slice, which no later one replaces
        return res
    if a.ndim == 0:
        return res  # one element: no NaN to choose (NumPy takes axis 0 or -1 of a 0-d array)
    kept, order = nan_order(a.strides, _r.normalize_axes(axis, a.ndim))
    red_shape = tuple(a.shape[i] for i in order)
    n_red = math.prod(red_shape)
    if n_red <= 1:
        return res
    kshape = tuple(a.shape[i] for i in kept)
    t = a.transpose(tuple(kept + order))
    nan = isnan(t)
    if where is not True:
        nan = logical_and(nan, broadcast_to(where, a.shape).transpose(tuple(kept + order)))
    # the first NaN of each slice (0: none); 1-d at least, as a 0-d index array is read to the host
    first = argmax(nan.reshape(kshape + (n_red,)), axis=-1).reshape(kshape or (1,))
    # its value: one gather by the kept axes' positions and the flat index's coordinates (device
    # index arrays, broadcast to the kept shape)
    from .._creation.ranges import arange  # import time: `import cuarray` leaves it for first use

    k = len(kshape)
    index = [arange(n).reshape((1,) * i + (n,) + (1,) * (k - 1 - i)) for i, n in enumerate(kshape)]
    step = n_red
    for j, d in enumerate(red_shape):
        step //= d
        index.append(remainder(floor_divide(first, step), d) if j else floor_divide(first, step))
    vals = t[tuple(index)].reshape(res.shape)
    copyto_where_unchecked(res, vals, isnan(res))
    return res
