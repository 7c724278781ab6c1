"""Host <-> device copies of whole arrays, any layout.

Dense arrays (C- or F-contiguous) move with one copy; other layouts are packed on the device
first (device-to-host) or on the host first (host-to-device), so each transfer is one contiguous
copy over the bus. The host buffer may always be released (or changed) as soon as a call
returns: small uploads are copied into a pinned block first (the driver may read a pageable
source after returning, see `_h2d`), large ones go through staging, and downloads synchronise.

Transfers larger than `PINNED_THRESHOLD` bytes go through our own pinned staging (`_staging.py`):
two pinned buffers of `PINNED_CHUNK` bytes, so the host copy of one chunk overlaps the bus copy of
the other. The same rules hold (the host buffer may be released when the call returns).
"""

from __future__ import annotations

import ctypes

import numpy

from ..cuda import _sync_hooks
from ..cuda import device as _device
from ..cuda import pinned_memory as _pinned
from ..cuda import stream as _stream
from . import dtypes as _dtypes
from . import _staging
from . import copying as _copying
from .ndarray import ndarray

__all__ = ["to_host", "from_host", "from_host_into", "asnumpy"]


def _h2d(dst_ptr, host: numpy.ndarray, nbytes: int, stream) -> None:
    """Copy the dense host array `host` (nbytes) to device memory at `dst_ptr`."""
    if nbytes > _staging.PINNED_THRESHOLD:
        if _pinned.is_pinned(host.ctypes.data):
            # Already page-locked: one bus copy. Synchronise so that, as with pageable memory,
            # the caller may change `host` as soon as this returns.
            dst_ptr.copy_from_host_async(host.ctypes.data, nbytes, stream)
            stream.synchronize()
        else:
            _staging.upload(dst_ptr, host, nbytes, stream)
    else:
        # The driver may read a pageable source after returning (CUDA's API synchronisation
        # notes only say it "may" stage it), while `host` is often a temporary the caller drops
        # at once. So copy into a pinned block first; the block is recycled only after an event
        # on `stream` says the bus copy is done, and the upload stays asynchronous.
        blk = _pinned.alloc_pinned_memory(nbytes)
        ctypes.memmove(blk.ptr, host.ctypes.data, nbytes)
        dst_ptr.copy_from_host_async(blk, nbytes, stream)


def _d2h(host: numpy.ndarray, src_ptr, nbytes: int, stream) -> None:
    """Copy device memory at `src_ptr` into the dense host array `host`; complete on return
    for staged copies, queued on `stream` otherwise."""
    if nbytes > _staging.PINNED_THRESHOLD and not _pinned.is_pinned(host.ctypes.data):
        _staging.download(host, src_ptr, nbytes, stream)
    else:
        src_ptr.copy_to_host_async(host.ctypes.data, nbytes, stream)


def to_host(a: ndarray, stream=None, out=None, blocking=True) -> numpy.ndarray:
    """Copy `a` to a new NumPy array (or into `out`), preserving C/F order when dense. An array
    of another device is copied on that device's stream (as CuPy does), after the work queued
    there: the current device's stream is not ordered with it."""
    if _device.multi_device[0] and stream is None and a.data.device_id != _device.get_device_id():
        with _device.Device(a.data.device_id):
            return to_host(a, out=out, blocking=blocking)
    if blocking and _sync_hooks.is_capturing():
        _sync_hooks.check_not_capturing()  # before the copy: a clear error, not the driver's
    if stream is None:
        stream = _stream.get_current_stream()
    if out is not None:
        if not isinstance(out, numpy.ndarray):
            raise TypeError("out must be a numpy.ndarray, got {}".format(type(out).__name__))
        if out.shape != a._shape or out.dtype != a._dtype:
            raise ValueError("out must have shape {} and dtype {}; got {} {}".format(
                a._shape, a._dtype, out.shape, out.dtype))
    if a._size == 0:
        host = numpy.empty(a._shape, a._dtype)
        if out is not None:
            return out
        return host
    src = a
    if not (a._c or a._f):
        src = _copying.copy(a, order="C")
    order = "C" if src._c else "F"
    if out is not None and ((order == "C" and out.flags.c_contiguous) or (order == "F" and out.flags.f_contiguous)):
        host = out
    else:
        host = numpy.empty(a._shape, a._dtype, order=order)
    _d2h(host, src.data, src.nbytes, stream)
    if blocking:
        stream.synchronize()
    if out is not None and host is not out:
        out[...] = host
        return out
    return host


def _host_dense(arr: numpy.ndarray) -> numpy.ndarray:
    if arr.flags.c_contiguous or arr.flags.f_contiguous:
        return arr
    return numpy.ascontiguousarray(arr)


def from_host(obj, dtype=None, order="K") -> ndarray:
    """A new device array holding a copy of host data (NumPy array, nested lists, scalar)."""
    arr = numpy.asarray(obj, dtype=dtype, order=None if order == "K" else order)
    if not arr.dtype.isnative:  # CuPy's rule: '>i4' data uploads as the native '<i4' (same values)
        arr = arr.astype(arr.dtype.newbyteorder("="))
    dt = _dtypes.storage_dtype(arr.dtype)  # (structured dtypes too: their bytes move as they are)
    arr = _host_dense(arr)
    if order == "C" and not arr.flags.c_contiguous:
        arr = numpy.ascontiguousarray(arr)
    elif order == "F" and not arr.flags.f_contiguous:
        arr = numpy.asfortranarray(arr)
    f_order = arr.flags.f_contiguous and not arr.flags.c_contiguous
    out = ndarray(arr.shape, dt, order="F" if f_order else "C")
    if out._size:
        _h2d(out.data, arr, out.nbytes, _stream.get_current_stream())
    return out


def from_host_into(dst: ndarray, arr, stream=None) -> None:
    """`dst.set(arr)`: copy a NumPy array of the same shape and dtype into `dst` (on its own
    device's stream when it lives on another device, as in `to_host`)."""
    if _device.multi_device[0] and stream is None and dst.data.device_id != _device.get_device_id():
        with _device.Device(dst.data.device_id):
            return from_host_into(dst, arr)
    if not isinstance(arr, numpy.ndarray):
        raise TypeError("set() needs a numpy.ndarray, got {}".format(type(arr).__name__))
    if arr.shape != dst._shape:
        raise ValueError("Shape mismatch. Old shape: {}, new shape: {}".format(dst._shape, arr.shape))
    if arr.dtype != dst._dtype:
        raise TypeError("{} array cannot be set to {} array".format(arr.dtype, dst._dtype))
    if dst._size == 0:
        return
    if stream is None:
        stream = _stream.get_current_stream()
    if dst._c or dst._f:
        host = numpy.asarray(arr, order="C" if dst._c else "F")
        if not (host.flags.c_contiguous if dst._c else host.flags.f_contiguous):
            host = numpy.array(arr, order="C" if dst._c else "F")
        _h2d(dst.data, host, dst.nbytes, stream)
        return
    tmp = from_host(arr)
    _copying.copyto_unchecked(dst, tmp)


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    """Copy to host: cuarray arrays become NumPy arrays; anything else goes through numpy.asarray.

    Examples
    --------
    >>> import numpy as np
    >>> import cuarray
    >>> h = cuarray.asnumpy(cuarray.arange(3))   # the same as cuarray.arange(3).get()
    >>> type(h) is np.ndarray, h
    (True, array([0, 1, 2]))
    """
    if isinstance(a, ndarray):
        return to_host(a, stream=stream, out=out, blocking=blocking)
    if hasattr(a, "__cuda_array_interface__") or hasattr(a, "__dlpack__") and not isinstance(a, numpy.ndarray):
        from .interop import from_foreign  # cycle: interop imports this module

        return to_host(from_foreign(a), stream=stream, out=out, blocking=blocking)
    res = numpy.asarray(a, order=order)
    if out is not None:
        out[...] = res
        return out
    return res


# A copy between devices, on the elementwise engine's copies (`a.copy()` takes it too).
from_other_device = _copying.from_other_device
