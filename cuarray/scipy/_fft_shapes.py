"""scipy.fft's host rules for the n-d transforms' `s`/`axes` (its `_iterable_of_int` and
`_init_nd_shape_and_axes`): pure functions of the input's shape, shared by `cuarray.scipy.fft`'s
DCT/DST family and `cuarray.scipy.fftpack` (which adds fftpack's own `_good_shape` rule)."""

from __future__ import annotations

import operator
from numbers import Number

__all__ = ["iterable_of_int", "nd_shape_axes"]


def iterable_of_int(x, name):
    """scipy.fft's rule: a number is a one-element list; anything else a list of integers."""
    if isinstance(x, Number):
        x = (x,)
    try:
        return [operator.index(a) for a in x]
    except TypeError as e:
        raise ValueError("{} must be a scalar or iterable of integers".format(name)) from e


def nd_shape_axes(xshape, shape, axes):
    """(sizes, axes) of an n-d transform of an array of shape `xshape` (both lists; axes
    non-negative and distinct; a size of -1 is the input's), or SciPy's ValueError."""
    ndim = len(xshape)
    if axes is not None:
        axes = iterable_of_int(axes, "axes")
        axes = [a + ndim if a < 0 else a for a in axes]
        if any(a >= ndim or a < 0 for a in axes):
            raise ValueError("axes exceeds dimensionality of input")
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if shape is not None:
        shape = iterable_of_int(shape, "shape")
        if axes and len(axes) != len(shape):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
        if axes is None:
            if len(shape) > ndim:
                raise ValueError("shape requires more axes than are present")
            axes = list(range(ndim - len(shape), ndim))
        shape = [xshape[a] if s == -1 else s for s, a in zip(shape, axes)]
    elif axes is None:
        shape, axes = list(xshape), list(range(ndim))
    else:
        shape = [xshape[a] for a in axes]
    if any(s < 1 for s in shape):
        raise ValueError("invalid number of data points ({}) specified".format(shape))
    return list(shape), list(axes)
