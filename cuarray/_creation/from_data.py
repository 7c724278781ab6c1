"""From existing data: array, asarray, ascontiguousarray, asfortranarray, copy. See NumPy's
"Array creation / From existing data". Host data (NumPy arrays, lists, scalars) is copied to the
device; device data (cuarray arrays, objects with `__cuda_array_interface__` or `__dlpack__`) is
used without a copy where the request allows."""

from __future__ import annotations

import numpy

from .._core import copying as _copying
from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core import transfer as _transfer
from .._core.interop import from_foreign
from .._core.ndarray import ndarray
from .._manipulation.joining import stack
from ..cuda import stream as _stream
from ..cuda.device import get_device_id as _get_device_id

__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "copy", "asnumpy"]

asnumpy = _transfer.asnumpy


def _is_device_foreign(obj) -> bool:
    return (not isinstance(obj, (numpy.ndarray, numpy.generic)) and
            (hasattr(obj, "__cuda_array_interface__") or
             (hasattr(obj, "__dlpack_device__") and _dlpack_on_cuda(obj))))


def _dlpack_on_cuda(obj) -> bool:
    try:
        return obj.__dlpack_device__()[0] in (2, 3, 13)
    except Exception:
        return False


def _order_ok(a: ndarray, order) -> bool:
    if order in (None, "K", "A"):
        return True  # NumPy keeps any layout for these (asarray(non_contiguous, order='A') is itself)
    if order == "C":
        return a._c
    if order == "F":
        return a._f
    raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got {!r})".format(order))


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, like=None, blocking=False) -> ndarray:
    """See `numpy.array`. Host data is copied to the current device. `blocking=True` (CuPy's
    keyword) waits until a host-to-device copy is complete.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.array([[1, 2], [3, 4]])
    array([[1, 2],
           [3, 4]])
    >>> cuarray.array([1, 2, 3], dtype=cuarray.float32)
    array([1., 2., 3.], dtype=float32)
    """
    if copy is not True and copy is not None:
        copy = _copying.copy_flag(copy)
    if ndmin > _shapes.MAXDIMS:
        raise ValueError("ndmin must be <= ndmax ({})".format(_shapes.MAXDIMS))
    if order is not None and order not in ("C", "F", "A", "K"):
        order = _shapes.normalize_order(order)
    if _is_device_foreign(obj) and not isinstance(obj, ndarray):
        obj = from_foreign(obj)
    if isinstance(obj, ndarray):
        dt = obj.dtype if dtype is None else _dtypes.storage_dtype(dtype)
        if obj.size and obj.data.device_id != _get_device_id():
            # An array of another device: copied here (peer to peer where the hardware allows),
            # as CuPy does; the copy is new, so copy=True needs no second one.
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array on device {} from an "
                                 "array on device {}.".format(_get_device_id(), obj.data.device_id))
            obj, copy = _transfer.from_other_device(obj), None
        if copy is False:
            if dt != obj.dtype or not _order_ok(obj, order):
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            out = obj
        elif copy is None and dt == obj.dtype and _order_ok(obj, order):
            out = obj
        else:
            out = obj.astype(dt, order="K" if order is None else order, copy=True)
    else:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating a device array from host data.")
        if isinstance(obj, (list, tuple)) and _contains_device_array(obj):
            out = _stack_nested(obj, dtype, "F" if order == "F" else "C")
        else:
            out = _transfer.from_host(obj, dtype=dtype, order="K" if order in (None, "A") else order)
            if blocking:
                _stream.get_current_stream().synchronize()
    if ndmin > out.ndim:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def _contains_device_array(obj) -> bool:
    for x in obj:
        if isinstance(x, ndarray):
            return True
        if isinstance(x, (list, tuple)) and _contains_device_array(x):
            return True
    return False


def _stack_nested(obj, dtype, order="C"):
    # A list holding device arrays: stack them on the device (no round trip through the host).
    # NumPy's result is a new C-ordered array (F with order='F') whatever the parts' layouts: the
    # strides of `array([x.T, y.T], dtype=...)` are C's (the stack and the cast keep 'K' order).
    parts = [array(x, dtype=dtype) if not isinstance(x, ndarray) else x for x in obj]
    out = stack(parts)
    return out.astype(out.dtype if dtype is None else dtype, order=order, copy=False)


def asarray(a, dtype=None, order=None, *, copy=None, device=None, like=None, blocking=False) -> ndarray:
    """See `numpy.asarray`. Returns `a` itself when it is already a suitable cuarray array.
    `blocking=True` (CuPy's keyword) waits until a host-to-device copy is complete.

    Examples
    --------
    >>> import numpy as np
    >>> import cuarray
    >>> a = cuarray.asarray(np.arange(3.0))     # one host-to-device copy
    >>> type(a).__name__, a.dtype, a.shape
    ('ndarray', dtype('float64'), (3,))
    >>> cuarray.asarray(a) is a                  # already on the device: no copy
    True
    """
    if type(a) is ndarray and dtype is None and order is None and copy is None and (
            a.data.device_id == _get_device_id() or not a._size):
        return a
    return array(a, dtype=dtype, copy=copy, order=order, blocking=blocking)


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None) -> ndarray:
    """See `numpy.ascontiguousarray`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3).T
    >>> bool(a.flags['C_CONTIGUOUS']), bool(cuarray.ascontiguousarray(a).flags['C_CONTIGUOUS'])
    (False, True)
    """
    out = array(a, dtype=dtype, copy=None, order="C")
    return out.reshape((1,)) if out.ndim == 0 else out


def asfortranarray(a, dtype=None, *, like=None) -> ndarray:
    """See `numpy.asfortranarray`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.asfortranarray(cuarray.arange(6).reshape(2, 3))
    >>> bool(a.flags['F_CONTIGUOUS']), a.strides
    (True, (8, 16))
    """
    out = array(a, dtype=dtype, copy=None, order="F")
    return out.reshape((1,)) if out.ndim == 0 else out


def copy(a, order="K", subok=False) -> ndarray:
    """See `numpy.copy`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1, 2, 3])
    >>> b = cuarray.copy(a)
    >>> b[0] = 10
    >>> a
    array([1, 2, 3])
    """
    return array(a, copy=True, order=order)
