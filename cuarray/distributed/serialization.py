"""distributed's serializers for cuarray arrays: how a chunk travels between Dask workers.

Two families, as for CuPy arrays (`distributed.protocol.cupy`):

- "cuda": the bytes stay on the device. The one frame is a 1-D uint8 cuarray array over the
  array's own memory (no copy), which a transport that carries device memory (UCX, through
  dask-cuda and distributed-ucxx) reads through `__cuda_array_interface__`; on receipt the
  transport's device buffer (any object with `__cuda_array_interface__`) becomes the array, again
  with no copy. A host frame (a spilled or relayed message) is uploaded to the current device.
- "dask": a host copy, for transports that carry host memory only (TCP, the default): the one
  frame is the array's bytes; the receiver uploads them to its thread's current device.

The header (msgpack-encodable) is the same for both: ``shape``, ``strides`` (bytes, the frame's
layout: the array's own when it is C- or F-contiguous; a view that is neither is packed in C order
on its own device first), ``dtype`` (``dtype.str``, or the pickled dtype of a structured one, as
distributed's NumPy serializer does) and ``device`` (the sender's ordinal, for information).
Pickling (distributed's "pickle" family) works too: `ndarray.__reduce__` hands NumPy a host copy,
which protocol 5 sends as an out-of-band buffer.

`register()` adds both families and `dask.sizeof` to distributed's tables. It runs by itself when
cuarray is imported into a process that has already imported distributed (a Dask worker meeting
cuarray in its first task), and from `cuarray.distributed.register_dask()` otherwise.

Streams: a frame leaves through another engine than cuarray's streams (a host copy on the
serialising thread's stream, or UCX, which synchronises the legacy default stream). Work that any
thread queued on the legacy default stream, cuarray's default, is ordered before both. With
per-thread default streams (CUARRAY_PER_THREAD_DEFAULT_STREAM=1) it is not, so the array's device is
synchronised before its frames are handed over, and an upload is waited for before the array is
handed to the task threads.
"""

from __future__ import annotations

import pickle
import threading

import numpy

from .._core.copying import copy
from .._core.interop import from_foreign
from .._core.ndarray import ndarray
from .._core.transfer import from_host, to_host
from ..cuda import device as _device
from ..cuda import stream as _stream

__all__ = ["cuda_serialize", "cuda_deserialize", "dask_serialize", "dask_deserialize", "header_of",
           "register"]

_U8 = numpy.dtype(numpy.uint8)
_lock = threading.Lock()
_done = False


def _dtype_to_header(dt: numpy.dtype):
    # dtype.str says everything but a structured dtype's fields ('|V12'): those are pickled, bytes
    # being msgpack-encodable (a header's type is pickled by distributed too).
    return dt.str if dt.names is None else pickle.dumps(dt)


def _dtype_from_header(value) -> numpy.dtype:
    return numpy.dtype(value) if isinstance(value, str) else pickle.loads(value)


def header_of(shape, strides, dtype, device_id: int) -> dict:
    """The header both families send."""
    return {"shape": list(shape), "strides": list(strides), "dtype": _dtype_to_header(numpy.dtype(dtype)),
            "device": int(device_id)}


def _parse(header: dict, nbytes: int):
    """(shape, strides, dtype) of a header, checked against the `nbytes` of the frame they lay out."""
    shape = tuple(int(n) for n in header["shape"])
    strides = tuple(int(s) for s in header["strides"])
    dt = _dtype_from_header(header["dtype"])
    if len(strides) != len(shape):
        raise ValueError("cuarray header: shape {} and strides {} differ in length".format(shape, strides))
    if all(shape):
        lo = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
        hi = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0) + dt.itemsize
        if lo < 0 or hi > nbytes:
            raise ValueError("cuarray header: shape {} and strides {} of {} need {} bytes; the frame has {}".format(
                shape, strides, dt, hi - lo, nbytes))
    return shape, strides, dt


def _dense(x: ndarray) -> ndarray:
    """`x` when it is C- or F-contiguous; else a C-contiguous copy made on `x`'s own device."""
    if x._c or x._f:
        return x
    dev = x.data.device_id
    if dev == _device.get_device_id():
        return copy(x, order="C")
    with _device.Device(dev):
        return copy(x, order="C")


def _ready_for_transport(x: ndarray) -> None:
    if _stream.default_stream() is not _stream.Stream.null:
        _device.Device(x.data.device_id).synchronize()


def _after_upload() -> None:
    if _stream.default_stream() is not _stream.Stream.null:
        _stream.get_current_stream().synchronize()


def _bytes_view(x: ndarray) -> ndarray:
    """The memory of the dense array `x` as a 1-D uint8 array (no copy; keeps `x` alive)."""
    return ndarray._view((x.nbytes,), (1,), _U8, x.data, x, c=True, f=True)


# -- "cuda": device frames --------------------------------------------------------------------------
def cuda_serialize(x: ndarray):
    """(header, [device frame]) for the "cuda" family: no copy of a dense array."""
    x = _dense(x)
    _ready_for_transport(x)
    return header_of(x._shape, x._strides, x._dtype, x.data.device_id), [_bytes_view(x)]


def _device_bytes(frame) -> ndarray:
    if isinstance(frame, ndarray):
        return frame
    if hasattr(frame, "__cuda_array_interface__"):
        return from_foreign(frame)  # the transport's buffer, kept alive by the array
    out = from_host(numpy.frombuffer(frame, dtype=_U8))  # a host frame: uploaded here
    _after_upload()
    return out


def cuda_deserialize(header: dict, frames):
    """The array of a "cuda" header and its one frame, over the frame's memory."""
    (frame,) = frames
    buf = _device_bytes(frame)
    shape, strides, dt = _parse(header, buf.nbytes)
    if buf._dtype != _U8 or not buf._c:
        raise ValueError("cuarray's cuda frame must be contiguous bytes, got {} {}".format(buf.dtype, buf.strides))
    return ndarray(shape, dt, memptr=buf.data, strides=strides)


# -- "dask": host frames ----------------------------------------------------------------------------
def dask_serialize(x: ndarray):
    """(header, [host frame]) for the "dask" family: one host copy, C or F order as the array."""
    x = _dense(x)
    _ready_for_transport(x)
    host = to_host(x)  # dense: the same layout on the host
    # Bytes in memory order (a view, also of F-ordered data); datetimes cannot be buffers themselves.
    frame = memoryview(numpy.ravel(host, order="K").view(_U8))
    return header_of(host.shape, host.strides, host.dtype, x.data.device_id), [frame]


def dask_deserialize(header: dict, frames):
    """The array of a "dask" header and its host frame(s), uploaded to the current device."""
    buf = frames[0] if len(frames) == 1 else b"".join(frames)
    nbytes = memoryview(buf).nbytes
    shape, strides, dt = _parse(header, nbytes)
    host = numpy.ndarray(shape, dt, buffer=buf, strides=strides)
    out = from_host(host)
    _after_upload()
    return out


def _nbytes(x: ndarray) -> int:
    return int(x.nbytes)


def register() -> None:
    """Add the "cuda" and "dask" families and `dask.sizeof` for cuarray.ndarray to distributed's
    tables (idempotent; needs distributed)."""
    global _done
    if _done:
        return
    with _lock:
        if _done:
            return
        from dask.sizeof import sizeof  # optional dependencies: cuarray never imports them itself
        from distributed.protocol import cuda_deserialize as cuda_loads
        from distributed.protocol import cuda_serialize as cuda_dumps
        from distributed.protocol import dask_deserialize as dask_loads
        from distributed.protocol import dask_serialize as dask_dumps

        cuda_dumps.register(ndarray, cuda_serialize)
        cuda_loads.register(ndarray, cuda_deserialize)
        dask_dumps.register(ndarray, dask_serialize)
        dask_loads.register(ndarray, dask_deserialize)
        sizeof.register(ndarray, _nbytes)
        _done = True
