"""Sums, products (NumPy "Mathematical functions / Sums, products, differences"): the reductions
sum, prod, nansum, nanprod and trace. (cumsum/cumprod and diff live with the scans.)

GPU differences: float sums combine in a tree (per-thread runs, then warp and block trees, then a
fixed-order pass over block partials) instead of NumPy's pairwise order, so float results may
differ in the last bits; they are deterministic run to run. See docs/reductions.md.
"""

from __future__ import annotations

from .._core import reduction_ops as _r
from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._core.ndarray import ndarray

__all__ = ["sum", "prod", "nansum", "nanprod", "trace"]


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):  # noqa: A001
    """See `numpy.sum`. Bool and small integers accumulate in int64 (uint64), float16 in float32.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3)
    >>> cuarray.sum(a, axis=0)
    array([3, 5, 7])
    >>> int(a.sum())                              # a host value: waits for the GPU
    15
    """
    return _r.reduce_fast("sum", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.prod`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1, 2], [3, 4]])
    >>> cuarray.prod(a, axis=1)
    array([ 2, 12])
    >>> int(cuarray.prod(a))  # a host value: waits for the GPU
    24
    """
    return _r.reduce_fast("prod", a, axis, dtype, out, keepdims, initial, where)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.nansum`: NaNs count as zero.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> float(cuarray.nansum(a))
    4.0
    """
    return _r.reduce_fast("nansum", a, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_r.NOVALUE, where=True):
    """See `numpy.nanprod`: NaNs count as one.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> float(cuarray.nanprod(a))
    3.0
    """
    return _r.reduce_fast("nanprod", a, axis, dtype, out, keepdims, initial, where)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """See `numpy.trace`: the sum of the diagonal view (no copy).

    Examples
    --------
    >>> import cuarray
    >>> int(cuarray.trace(cuarray.arange(9).reshape(3, 3)))
    12
    """
    a = as_array(a, "trace")
    shape, strides, start = _shapes.diagonal(a._shape, a._strides, offset, axis1, axis2)
    diag = ndarray._view(shape, strides, a._dtype, a.data + start if start else a.data, a)
    return sum(diag, axis=-1, dtype=dtype, out=out)
