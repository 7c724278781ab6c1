"""Transpose-like operations: transpose, permute_dims, swapaxes, moveaxis, rollaxis,
matrix_transpose. See NumPy's "Array manipulation / Transpose-like operations".

Every result is a view: only shape and strides change, no kernel runs.
"""

from __future__ import annotations

from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._core.ndarray import ndarray

__all__ = ["transpose", "permute_dims", "swapaxes", "moveaxis", "rollaxis", "matrix_transpose"]


def _permuted(a: ndarray, perm) -> ndarray:
    shape = tuple(a._shape[i] for i in perm)
    strides = tuple(a._strides[i] for i in perm)
    return ndarray._view(shape, strides, a._dtype, a.data, a)


def _permutation(axes, ndim: int) -> tuple:
    axes = tuple(axes)
    if len(axes) != ndim:
        raise ValueError("axes don't match array")
    perm = tuple(_shapes.normalize_axis_index(ax, ndim) for ax in axes)
    if len(set(perm)) != ndim:
        raise ValueError("repeated axis in transpose")
    return perm


def transpose(a, axes=None) -> ndarray:
    """See `numpy.transpose`. A view.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3)
    >>> cuarray.transpose(a)
    array([[0, 3],
           [1, 4],
           [2, 5]])
    >>> cuarray.transpose(cuarray.ones((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    a = as_array(a, "transpose")
    if axes is None:
        return _permuted(a, tuple(range(a.ndim - 1, -1, -1)))
    return _permuted(a, _permutation(axes, a.ndim))


def permute_dims(a, /, axes) -> ndarray:
    """See `numpy.permute_dims` (array API): `transpose` with required `axes`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.permute_dims(cuarray.ones((2, 3, 4)), (1, 2, 0)).shape
    (3, 4, 2)
    """
    return transpose(a, axes)


def swapaxes(a, axis1, axis2) -> ndarray:
    """See `numpy.swapaxes`. A view.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.swapaxes(cuarray.arange(6).reshape(1, 2, 3), 0, 2).shape
    (3, 2, 1)
    """
    a = as_array(a, "swapaxes")
    nd = a.ndim
    i = _shapes.normalize_axis_index(axis1, nd, "axis1")
    j = _shapes.normalize_axis_index(axis2, nd, "axis2")
    perm = list(range(nd))
    perm[i], perm[j] = perm[j], perm[i]
    return _permuted(a, perm)


def moveaxis(a, source, destination) -> ndarray:
    """See `numpy.moveaxis`. A view.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.moveaxis(cuarray.ones((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    a = as_array(a, "moveaxis")
    nd = a.ndim
    src = _shapes.normalize_axis_tuple(source, nd, "source")
    dst = _shapes.normalize_axis_tuple(destination, nd, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    rest = [ax for ax in range(nd) if ax not in src]
    for d, s in sorted(zip(dst, src)):
        rest.insert(d, s)
    return _permuted(a, rest)


def rollaxis(a, axis, start=0) -> ndarray:
    """See `numpy.rollaxis` (prefer `moveaxis`). A view.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.rollaxis(cuarray.ones((2, 3, 4)), 2).shape
    (4, 2, 3)
    """
    from numpy.exceptions import AxisError

    a = as_array(a, "rollaxis")
    nd = a.ndim
    axis = _shapes.normalize_axis_index(axis, nd)
    given = start
    if start < 0:
        start += nd
    if not 0 <= start < nd + 1:
        raise AxisError("'start' arg requires {} <= start < {}, but {} was passed in".format(-nd, nd + 1, given))
    if axis < start:
        start -= 1
    perm = list(range(nd))
    perm.remove(axis)
    perm.insert(start, axis)
    return _permuted(a, perm)


def matrix_transpose(x, /) -> ndarray:
    """See `numpy.matrix_transpose` (array API): swaps the last two axes.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.matrix_transpose(cuarray.arange(6).reshape(1, 2, 3))
    array([[[0, 3],
            [1, 4],
            [2, 5]]])
    """
    x = as_array(x, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional, but it is {}".format(x.ndim))
    return swapaxes(x, -1, -2)
