"""Basic operations: copyto, ndim, shape, size. See NumPy's "Array manipulation / Basic operations".

`copyto(dst, src)` is one kernel (or one memcpy when layouts match); `where=` adds a boolean mask
operand to the same kernel. Python scalars follow NumPy 2's weak-scalar rules (an out-of-range
integer raises OverflowError; a float into an integer array fails the 'same_kind' check).
"""

from __future__ import annotations

import numpy

from .._core import dtypes as _dtypes
from .._core import copying as _copying
from .._core import shapes as _shapes
from .._core.host_input import as_array, is_scalar, reject
from .._core.ndarray import ndarray
from .._core.dtypes import PY_SCALARS as _PY_SCALARS

__all__ = ["copyto", "ndim", "shape", "size"]

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_BOOL = numpy.dtype(bool)


def _cast_error(what, src_dt, dst_dt, casting):
    return TypeError("Cannot cast {} from {!r} to {!r} according to the rule '{}'".format(
        what, numpy.dtype(src_dt), numpy.dtype(dst_dt), casting))


def _check_broadcast(what, src_shape, dst_shape):
    try:
        ok = _shapes.broadcast_shapes(src_shape, dst_shape) == tuple(dst_shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError("could not broadcast {} from shape {} into shape {}".format(
            what, tuple(src_shape), tuple(dst_shape)))


def _scalar_value(value, dt, casting):
    """A scalar `value` as a NumPy scalar of `dt`, with NumPy's casting check."""
    if type(value) in _PY_SCALARS:
        src_dt = numpy.result_type(dt, value)  # the dtype NumPy reports for a weak scalar
        if not numpy.can_cast(src_dt, dt, casting):
            raise _cast_error("scalar", src_dt, dt, casting)
        return _dtypes.check_weak_scalar(value, dt)
    src_dt = value.dtype
    if not numpy.can_cast(src_dt, dt, casting):
        raise _cast_error("scalar", src_dt, dt, casting)
    return numpy.asarray(value).astype(dt)[()]


def copyto(dst, src, casting="same_kind", where=True) -> None:
    """See `numpy.copyto`: copy `src` into `dst` with broadcasting, where `where` is True.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.zeros(3)
    >>> cuarray.copyto(a, cuarray.array([1, 2, 3]))
    >>> a
    array([1., 2., 3.])
    >>> cuarray.copyto(a, 0, where=cuarray.array([True, False, True]))
    >>> a
    array([0., 2., 0.])
    """
    if not isinstance(dst, ndarray):
        raise TypeError("copyto() argument 1 must be a cuarray.ndarray, not {}".format(type(dst).__name__))
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' "
                         "(got {!r})".format(casting))
    if not dst._writeable:
        raise ValueError("assignment destination is read-only")
    dt = dst._dtype
    scalar = None
    if isinstance(src, ndarray):
        if not numpy.can_cast(src._dtype, dt, casting):
            raise _cast_error("array data", src._dtype, dt, casting)
        if src.ndim > dst.ndim:
            src = _copying.drop_leading_ones(src, dst.ndim)
        _check_broadcast("input array", src._shape, dst._shape)
        if src._dtype.kind == "c" and dt.kind != "c":
            _copying.warn_complex_discard(src._dtype, dt, stacklevel=3)
    elif is_scalar(src):
        scalar = _scalar_value(src, dt, casting)
    elif isinstance(src, numpy.ndarray) and src.size == 1:
        # CuPy takes a one-element NumPy array as the NumPy scalar it holds (no device copy).
        scalar = _scalar_value(src.reshape(())[()], dt, casting)
    else:
        raise reject(src, "copyto")

    mask = None
    if where is not True:
        if type(where) is bool or isinstance(where, numpy.bool_):
            if not where:
                return
        else:
            mask = as_array(where, "copyto")
            if mask._dtype != _BOOL:
                raise _cast_error("array data", mask._dtype, _BOOL, "safe")
            _check_broadcast("where mask", mask._shape, dst._shape)
    if dst._size == 0:
        return
    if scalar is not None:
        if mask is None:
            _copying.fill(dst, scalar)
        else:
            _copying.copyto_where_unchecked(dst, scalar, mask)
        return
    # A source that partly overlaps the destination is copied first (NumPy does the same).
    src = _copying.unaliased(src, dst)
    if mask is None:
        _copying.copyto_unchecked(dst, src)
    else:
        _copying.copyto_where_unchecked(dst, src, mask)


# ndim/shape/size read attributes: a cuarray array answers itself (no device work); anything else
# (a list, a NumPy array) is NumPy's question, answered on the host without a device copy.
def ndim(a) -> int:
    """See `numpy.ndim`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ndim(cuarray.zeros((2, 3)))
    2
    """
    return a.ndim if isinstance(a, ndarray) else numpy.ndim(a)


def shape(a) -> tuple:
    """See `numpy.shape`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.shape(cuarray.zeros((2, 3)))
    (2, 3)
    """
    return a.shape if isinstance(a, ndarray) else numpy.shape(a)


def size(a, axis=None) -> int:
    """See `numpy.size` (`axis` an int or a tuple of ints).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.zeros((2, 3))
    >>> cuarray.size(a), cuarray.size(a, 1)
    (6, 3)
    """
    if not isinstance(a, ndarray):
        return numpy.size(a, axis)
    if axis is None:
        return a.size
    axes = _shapes.normalize_axis_tuple(axis if isinstance(axis, tuple) else (axis,), a.ndim)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n
