"""Argument rules shared by `Rotation` and `RigidTransform`: float device arrays of their inputs
and the `num`/`shape` of their constructors of many transforms (SciPy words the two classes'
errors differently: `owner` and `joiner` carry the difference)."""

from __future__ import annotations

import numpy

from ...._core.host_input import as_parameter
from ...._core.ndarray import ndarray

__all__ = ["float_array", "shape_of"]


def float_array(x, fn, dtype=None, owner="Rotation"):
    """A float device array of `x` (a cuarray float32 array stays float32, the rest becomes
    float64), or of `dtype`; `fn` names the method in a host-input error (`owner.fn`)."""
    a = as_parameter(x, owner + "." + fn)
    if dtype is not None:
        return a.astype(dtype, copy=False)
    if not isinstance(x, ndarray) or a.dtype.kind != "f":
        return a.astype(numpy.float64, copy=False)
    return a.astype(numpy.float32, copy=False) if a.dtype.itemsize < 4 else a


def shape_of(num, shape, joiner="or"):
    """The batch shape of `num` or `shape` (at most one given; neither: a single transform)."""
    if num is not None and shape is not None:
        raise ValueError("Only one of `num` {} `shape` can be specified.".format(joiner))
    if num is None and shape is None:
        return ()
    if num is not None:
        return (num,)
    if isinstance(shape, int):
        return (shape,)
    if not isinstance(shape, tuple):
        raise ValueError("`shape` must be an int or a tuple of ints or None.")
    return shape
