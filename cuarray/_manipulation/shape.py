"""Changing array shape: reshape, ravel (and the `flatten` method). See NumPy's "Array
manipulation / Changing array shape". A reshape is a view whenever NumPy's would be one."""

from __future__ import annotations

from .._core import copying as _copying
from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._core.ndarray import _c_layout, ndarray

__all__ = ["reshape", "ravel", "flatten"]


def reshape(a: ndarray, shape=None, order="C", *, newshape=None, copy=None) -> ndarray:
    """See `numpy.reshape`: a view when the layout allows, else a copy (copy=False forbids it).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.reshape(cuarray.arange(6), (3, 2))
    array([[0, 1],
           [2, 3],
           [4, 5]])
    """
    if newshape is not None:
        if shape is not None:
            raise TypeError("You cannot specify 'newshape' and 'shape' arguments at the same time.")
        shape = newshape
    if shape is None:
        raise TypeError("reshape() missing required argument 'shape'")
    if copy is not None:
        copy = _copying.copy_flag(copy)
    if order != "C" and order != "F":
        order = _reshape_order(a, order)
    new_shape = _shapes.reshape_size(shape, a._size)
    if a._c and order == "C" and not copy:
        # HOT PATH: a C-contiguous array reshaped in C order is C-contiguous (memoised layout).
        strides, _, f = _c_layout(new_shape, a._dtype.itemsize)
        return ndarray._view(new_shape, strides, a._dtype, a.data, a, True, f)
    if copy:
        src = _copying.copy(a, order=order)
        strides = _shapes.reshape_strides(src._shape, src._strides, src._dtype.itemsize, new_shape, order)
        return ndarray._view(new_shape, strides, src._dtype, src.data, src)
    if new_shape == a._shape:
        return ndarray._view(a._shape, a._strides, a._dtype, a.data, a, a._c, a._f)
    strides = _shapes.reshape_strides(a._shape, a._strides, a._dtype.itemsize, new_shape, order)
    if strides is not None:
        return ndarray._view(new_shape, strides, a._dtype, a.data, a)
    if copy is False:
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    src = _copying.copy(a, order=order)
    strides = _shapes.reshape_strides(src._shape, src._strides, src._dtype.itemsize, new_shape, order)
    return ndarray._view(new_shape, strides, src._dtype, src.data, src)


def _reshape_order(a: ndarray, order) -> str:
    """'C' or 'F' for reshape's `order` other than those two; NumPy's errors and messages."""
    if order is None:
        return "C"
    if not isinstance(order, str):
        raise TypeError("order must be str, not {}".format(type(order).__name__))
    up = order.upper()
    if up == "A":
        return "F" if a._f and not a._c else "C"
    if up == "K":
        raise ValueError("order 'K' is not permitted for reshaping")
    if up not in ("C", "F"):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got {!r})".format(order))
    return up


def ravel(a: ndarray, order="C") -> ndarray:
    """See `numpy.ravel`: a 1-D view when possible.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ravel(cuarray.arange(6).reshape(2, 3))
    array([0, 1, 2, 3, 4, 5])
    >>> cuarray.ravel(cuarray.arange(6).reshape(2, 3), order='F')
    array([0, 3, 1, 4, 2, 5])
    """
    if order not in ("C", "F", "A", "K"):
        order = _shapes.normalize_order(order, "C")
    if not isinstance(a, ndarray):
        a = as_array(a, "ravel")
    if order == "K":
        if a._c or a._f:
            return reshape(a, (a._size,), "C" if a._c else "F")
        # NumPy's 'K' (PyArray_Ravel): the axes by decreasing |stride|, ties in C order, each
        # read in its own direction (a negative stride is not flipped); then a C-order ravel of
        # that view (a copy unless it is dense)
        axes = sorted(range(a.ndim), key=lambda i: -abs(a._strides[i]))
        if axes != list(range(a.ndim)):
            a = a.transpose(axes)
        order = "C"
    if order == "A":
        order = "F" if a._f and not a._c else "C"
    return reshape(a, (a._size,), order)


def flatten(a: ndarray, order="C") -> ndarray:
    """`ndarray.flatten`: always a copy."""
    order = _shapes.normalize_order(order, "C")
    if order == "A":
        order = "F" if a._f and not a._c else "C"
    elif order == "K":
        order = "F" if a._f and not a._c else "C"  # dense layouts; 'K' of other strides is C here
    return reshape(a, (a._size,), order, copy=True)
