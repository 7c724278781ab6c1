"""`apply_along_axis` and `apply_over_axes` (NumPy "Functional programming").

NumPy's algorithms over device views: the function runs once per 1-D slice (a Python loop,
so one or more launches per slice; for many short slices, prefer an axis-aware routine or
`vectorize`). Results the function returns as host data (lists, NumPy arrays) are copied to the
device like `cuarray.asarray` would.
"""

from __future__ import annotations

import numpy

from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._creation.from_data import asarray
from .._manipulation.dims import expand_dims
from .._manipulation.transpose import transpose

__all__ = ["apply_along_axis", "apply_over_axes"]


def _result_array(x) -> ndarray:
    return x if isinstance(x, ndarray) else asarray(x)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """See `numpy.apply_along_axis`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3)
    >>> cuarray.apply_along_axis(lambda row: row[0] + row[-1], 1, a)
    array([2, 8])
    """
    arr = as_array(arr, "apply_along_axis")
    nd = arr.ndim
    axis = _shapes.normalize_axis_index(axis, nd)
    in_dims = list(range(nd))
    view = transpose(arr, in_dims[:axis] + in_dims[axis + 1:] + [axis])
    inds = (ind + (Ellipsis,) for ind in numpy.ndindex(view.shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _result_array(func1d(view[ind0], *args, **kwargs))
    buff = zeros(view.shape[:-1] + res.shape, res.dtype)
    dims = list(range(buff.ndim))
    permute = dims[0:axis] + dims[buff.ndim - res.ndim:buff.ndim] + dims[axis:buff.ndim - res.ndim]
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _result_array(func1d(view[ind], *args, **kwargs))
    return transpose(buff, permute)


def apply_over_axes(func, a, axes):
    """See `numpy.apply_over_axes`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.apply_over_axes(cuarray.sum, cuarray.arange(6).reshape(2, 3), [0, 1])
    array([[15]])
    """
    val = as_array(a, "apply_over_axes")
    N = val.ndim
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val
