"""Changing number of dimensions: squeeze, expand_dims, broadcast_to, broadcast_arrays,
broadcast_shapes, atleast_1d/2d/3d. See NumPy's "Array manipulation / Changing number of
dimensions". Every result is a view (no kernel runs).
"""

from __future__ import annotations

import operator as _operator

from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .shape import reshape

__all__ = ["squeeze", "expand_dims", "broadcast_to", "broadcast_arrays", "broadcast_shapes",
           "atleast_1d", "atleast_2d", "atleast_3d"]


def broadcast_shapes(*args):
    """See `numpy.broadcast_shapes`. As NumPy's, it takes shapes of at most 32 dimensions (its
    legacy iterator's limit; arrays themselves take 64).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.broadcast_shapes((2, 1), (3,))
    (2, 3)
    """
    shapes = [_shapes._as_shape(s) for s in args]
    for s in shapes:  # (NumPy makes an empty array of each shape first)
        _shapes.check_ndim(len(s))
        if any(d < 0 for d in s):
            raise ValueError("negative dimensions are not allowed")
    _shapes.check_legacy_iter_ndim(shapes)
    return _shapes.broadcast_shapes(*shapes)


def _view(a: ndarray, shape, strides) -> ndarray:
    return ndarray._view(tuple(shape), tuple(strides), a._dtype, a.data, a)


def squeeze(a, axis=None) -> ndarray:
    """See `numpy.squeeze`. A view.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.squeeze(cuarray.zeros((1, 3, 1))).shape
    (3,)
    >>> cuarray.squeeze(cuarray.zeros((1, 3, 1)), axis=0).shape
    (3, 1)
    """
    a = as_array(a, "squeeze")
    if a._shape == () and not isinstance(axis, (tuple, list)) and axis is not None:
        # NumPy lets an int axis 0 or -1 squeeze a 0-d array (itself); (0,) stays an AxisError
        if _operator.index(axis) in (0, -1):
            return _view(a, [], [])
    if axis is None:
        keep = [i for i, n in enumerate(a._shape) if n != 1]
    else:
        drop = _shapes.normalize_axis_tuple(axis, a.ndim)
        for i in drop:
            if a._shape[i] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
        keep = [i for i in range(a.ndim) if i not in drop]
    return _view(a, [a._shape[i] for i in keep], [a._strides[i] for i in keep])


def expand_dims(a, axis) -> ndarray:
    """See `numpy.expand_dims`. A view (strides as NumPy's reshape gives them).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([1, 2, 3])
    >>> cuarray.expand_dims(x, 0)
    array([[1, 2, 3]])
    >>> cuarray.expand_dims(x, (0, 2)).shape
    (1, 3, 1)
    """
    a = as_array(a, "expand_dims")
    if type(axis) not in (tuple, list):
        axis = (axis,)
    out_nd = len(axis) + a.ndim
    axes = _shapes.normalize_axis_tuple(axis, out_nd)
    it = iter(a._shape)
    shape = tuple(1 if i in axes else next(it) for i in range(out_nd))
    return reshape(a, shape)


def broadcast_to(array, shape) -> ndarray:
    """See `numpy.broadcast_to`: a read-only view, as in NumPy.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.broadcast_to(cuarray.array([1, 2, 3]), (2, 3))
    array([[1, 2, 3],
           [1, 2, 3]])
    """
    a = as_array(array, "broadcast_to")
    shape = _shapes._as_shape(shape)
    if not shape and a._shape:
        raise ValueError("cannot broadcast a non-scalar to a scalar array")
    strides = _shapes.broadcast_to_strides(a._shape, a._strides, shape)
    out = _view(a, shape, strides)
    out._writeable = False
    return out


def broadcast_arrays(*args):
    """See `numpy.broadcast_arrays`: a tuple of views of the broadcast shape.

    NumPy warns when a broadcast result is written to (a future read-only flag); cuarray leaves
    them writeable without a warning. Arrays already of the shape are returned as they are.

    Examples
    --------
    >>> import cuarray
    >>> x, y = cuarray.broadcast_arrays(cuarray.array([[1], [2]]), cuarray.array([10, 20, 30]))
    >>> x
    array([[1, 1, 1],
           [2, 2, 2]])
    >>> y
    array([[10, 20, 30],
           [10, 20, 30]])
    """
    arrays = [as_array(x, "broadcast_arrays") for x in args]
    _shapes.check_legacy_iter_ndim([x._shape for x in arrays])
    shape = _shapes.broadcast_shapes(*[x._shape for x in arrays])
    out = []
    for x in arrays:
        if x._shape == shape:
            out.append(x)
        else:
            out.append(_view(x, shape, _shapes.broadcast_to_strides(x._shape, x._strides, shape)))
    return tuple(out)


def _one_or_tuple(res):
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    """See `numpy.atleast_1d`: one array for one argument, else a tuple.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.atleast_1d(5)
    array([5])
    >>> cuarray.atleast_1d(1, cuarray.array([2, 3]))
    (array([1]), array([2, 3]))
    """
    res = []
    for x in arys:
        x = as_array(x, "atleast_1d")
        res.append(_view(x, (1,), (x.itemsize,)) if x.ndim == 0 else x)
    return _one_or_tuple(res)


def atleast_2d(*arys):
    """See `numpy.atleast_2d`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.atleast_2d(cuarray.array([1, 2, 3]))
    array([[1, 2, 3]])
    """
    res = []
    for x in arys:
        x = as_array(x, "atleast_2d")
        if x.ndim == 0:
            x = _view(x, (1, 1), (x.itemsize, x.itemsize))
        elif x.ndim == 1:
            x = x[None, :]
        res.append(x)
    return _one_or_tuple(res)


def atleast_3d(*arys):
    """See `numpy.atleast_3d` (a 1-D array of n becomes (1, n, 1), a 2-D one (m, n, 1)).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.atleast_3d(cuarray.array([1, 2, 3])).shape
    (1, 3, 1)
    >>> cuarray.atleast_3d(cuarray.ones((2, 3))).shape
    (2, 3, 1)
    """
    res = []
    for x in arys:
        x = as_array(x, "atleast_3d")
        if x.ndim == 0:
            x = _view(x, (1, 1, 1), (x.itemsize,) * 3)
        elif x.ndim == 1:
            x = x[None, :, None]
        elif x.ndim == 2:
            x = x[:, :, None]
        res.append(x)
    return _one_or_tuple(res)
