"""Sums, products (NumPy "Mathematical functions / Sums, products, differences"): the reductions
sum, prod, nansum, nanprod and trace. (cumsum/cumprod and diff live with the scans.)

GPU differences: float sums combine in a tree (per-thread runs, then warp and block trees, then a
fixed-order pass over block partials) instead of NumPy's pairwise order, so float results may
differ in the last bits; they are deterministic run to run. See docs/reductions.md.
"""

from __future__ import annotations

from .._core import reduction_ops as _r
from .._core.ndarray import ndarray

__all__ = ["sum", "prod", "nansum", "nanprod", "trace"]


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):  # noqa: A001
    """See `numpy.sum`. Bool and small integers accumulate in int64 (uint64), float16 in float32."""
    return _r.reduce_fast("sum", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.prod`."""
    return _r.reduce_fast("prod", a, axis, dtype, out, keepdims, initial, where)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.nansum`: NaNs count as zero."""
    return _r.reduce_fast("nansum", a, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.nanprod`: NaNs count as one."""
    return _r.reduce_fast("nanprod", a, axis, dtype, out, keepdims, initial, where)


def diagonal_view(a: ndarray, offset=0, axis1=0, axis2=1) -> ndarray:
    """The diagonal of `a` over (axis1, axis2) as a view, moved to the last axis (numpy.diagonal)."""
    from .._core import shapes as _shapes

    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1 = _shapes.normalize_axis_index(axis1, a.ndim)
    axis2 = _shapes.normalize_axis_index(axis2, a.ndim)
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    n1, n2 = a._shape[axis1], a._shape[axis2]
    s1, s2 = a._strides[axis1], a._strides[axis2]
    offset = int(offset)
    start = 0
    if offset >= 0:
        n = max(0, min(n1, n2 - offset))
        if n:
            start = offset * s2
    else:
        n = max(0, min(n1 + offset, n2))
        if n:
            start = -offset * s1
    rest = [i for i in range(a.ndim) if i not in (axis1, axis2)]
    shape = tuple(a._shape[i] for i in rest) + (n,)
    strides = tuple(a._strides[i] for i in rest) + (s1 + s2,)
    return ndarray._view(shape, strides, a._dtype, a.data + start, a)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """See `numpy.trace`: the sum of the diagonal view (no copy)."""
    a = _r.as_array(a)
    return sum(diagonal_view(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)
