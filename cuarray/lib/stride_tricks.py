"""as_strided and sliding_window_view: views with chosen strides. See `numpy.lib.stride_tricks`.

Both are views of the same device memory (no copy, no kernel). As in NumPy, `as_strided` trusts
its arguments: strides that reach outside the array's memory read or write other memory.
"""

from __future__ import annotations

import numpy

from .._core.host_input import as_array
from .._core.shapes import MAXDIMS
from .._core.ndarray import ndarray

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True) -> ndarray:
    """See `numpy.lib.stride_tricks.as_strided` (`strides` in bytes)."""
    x = as_array(x, "as_strided")
    shape = x.shape if shape is None else tuple(int(s) for s in shape)
    strides = x.strides if strides is None else tuple(int(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    if len(shape) > MAXDIMS:  # (NumPy's message: it builds the view through __array_interface__)
        raise ValueError("number of dimensions must be within [0, {}], got {}".format(MAXDIMS, len(shape)))
    out = ndarray._view(shape, strides, x.dtype, x.data, x)
    if not writeable:
        out._writeable = False
    return out


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False) -> ndarray:
    """See `numpy.lib.stride_tricks.sliding_window_view` (read-only by default, as NumPy's)."""
    x = as_array(x, "sliding_window_view")
    window_shape = tuple(window_shape) if numpy.iterable(window_shape) else (window_shape,)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError("Since axis is `None`, must provide window_shape for all dimensions of `x`; "
                             "got {} window_shape elements and `x.ndim` is {}.".format(len(window_shape), x.ndim))
    else:
        axis = numpy.lib.array_utils.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window_shape) != len(axis):
            raise ValueError("Must provide matching length window_shape and axis; got {} window_shape "
                             "elements and {} axes elements.".format(len(window_shape), len(axis)))
    out_shape = list(x.shape)
    for ax, w in zip(axis, window_shape):
        if out_shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        out_shape[ax] -= w - 1
    out_strides = x.strides + tuple(x.strides[ax] for ax in axis)
    return as_strided(x, tuple(out_shape) + window_shape, out_strides, writeable=writeable)
