"""Indexing: basic indices (ints, slices, Ellipsis, None) as view arithmetic.

Advanced indexing (integer and boolean arrays) arrives with its own issue; until then such an
index raises NotImplementedError naming what is missing, never a wrong answer.
"""

from __future__ import annotations

import numpy

from . import shapes as _shapes
from .ndarray import ndarray

__all__ = ["getitem", "setitem"]


def getitem(a: ndarray, index) -> ndarray:
    try:
        shape, strides, offset = _shapes.basic_index(a._shape, a._strides, index)
    except _shapes.AdvancedIndexRequired:
        raise NotImplementedError(
            "advanced indexing (integer or boolean array indices) is not implemented yet") from None
    return ndarray._view(shape, strides, a._dtype, a.data + offset if offset else a.data, a._root())


def setitem(a: ndarray, index, value) -> None:
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    view = getitem(a, index)
    if view._size == 0:
        if isinstance(value, ndarray) or isinstance(value, (list, tuple, numpy.ndarray)):
            _check_broadcast(numpy.shape(value) if not isinstance(value, ndarray) else value._shape, view._shape)
        return
    from . import elementwise

    if isinstance(value, ndarray):
        src = value
    elif isinstance(value, (bool, int, float, complex, numpy.generic)):
        elementwise.fill(view, value)
        return
    else:
        from .transfer import from_host

        src = from_host(numpy.asarray(value))
        if src.ndim == 0:
            elementwise.fill(view, src.get()[()])
            return
    _check_broadcast(src._shape, view._shape)
    # Overlapping source and destination (e.g. a[1:] = a[:-1]): copy the source first.
    lo, hi = view._extent()
    slo, shi = src._extent()
    if slo < hi and lo < shi and not (src.data.ptr == view.data.ptr and src._strides == view._strides
                                      and src._shape == view._shape and src._dtype == view._dtype):
        src = elementwise.copy(src)
    elementwise.copyto_unchecked(view, src)


def _check_broadcast(src_shape, dst_shape) -> None:
    try:
        b = _shapes.broadcast_shapes(src_shape, dst_shape)
    except ValueError:
        b = None
    if b != tuple(dst_shape):
        raise ValueError("could not broadcast input array from shape {} into shape {}".format(
            tuple(src_shape), tuple(dst_shape)))
