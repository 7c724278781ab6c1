"""Interchange with other GPU libraries: `__cuda_array_interface__` v3 and DLPack (export and
import), `from_dlpack`, `get_array_module`. Zero-copy both ways.

DLPack structs are built with ctypes following the DLPack 1.x header (`DLTensor`,
`DLManagedTensor`, `DLManagedTensorVersioned`); their sizes are checked by the CPU tests. An
exported tensor keeps its array alive in `_live` until the consumer calls the deleter; a capsule
that nobody consumed calls the deleter from its own destructor.

Stream rules (the DLPack Python spec, dmlc.github.io/dlpack/latest/python_spec.html, and CAI v3,
nvidia.github.io/numba-cuda/user/cuda_array_interface.html): an exporter records an event on the
current stream and makes the consumer's stream wait on it (no host synchronisation); `stream=-1`
means "do not synchronise"; `0` is forbidden; 1 is the legacy default stream, 2 the per-thread
one. An importer passes its current stream (1 for the legacy default stream) and, for CAI, makes
its current stream wait on the producer's stream.
"""

from __future__ import annotations

import ctypes

import numpy

from ..cuda import memory as _memory
from ..cuda import stream as _stream
from ..cuda.device import get_device_id
from ..cuda.memory import MemoryPointer, UnownedMemory
from . import dtypes as _dtypes
from . import registry as _registry
from . import structured as _structured
from .ndarray import ndarray
from .shapes import c_strides
from .transfer import from_host

__all__ = ["cuda_array_interface", "to_dlpack", "from_dlpack", "fromDlpack", "to_dlpack_capsule",
           "from_foreign", "get_array_module",
           "DLDevice", "DLDataType", "DLTensor", "DLManagedTensor", "DLManagedTensorVersioned",
           "dlpack_dtype", "dtype_from_dlpack"]

# -- DLPack constants ------------------------------------------------------------------------
kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13
kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6
DLPACK_FLAG_BITMASK_READ_ONLY = 1 << 0
DLPACK_FLAG_BITMASK_IS_COPIED = 1 << 1
DLPACK_VERSION = (1, 0)  # the ABI of the structs below


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _Deleter)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", _Deleter),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


_DL_CODES = {"b": kDLBool, "i": kDLInt, "u": kDLUInt, "f": kDLFloat, "c": kDLComplex}


def dlpack_dtype(dt: numpy.dtype) -> tuple:
    """(code, bits, lanes) of a supported dtype; BufferError, as NumPy's, for one DLPack has no
    code for (datetime64, timedelta64)."""
    code = _DL_CODES.get(dt.kind)
    if code is None:
        raise BufferError("DLPack only supports signed/unsigned integers, float and complex dtypes.")
    return code, dt.itemsize * 8, 1


def dtype_from_dlpack(code: int, bits: int, lanes: int) -> numpy.dtype:
    """The NumPy dtype of a DLPack (code, bits, lanes); TypeError when cuarray has none."""
    if lanes == 1:
        name = {kDLInt: "int", kDLUInt: "uint", kDLFloat: "float", kDLComplex: "complex"}.get(code)
        if code == kDLBool and bits == 8:
            return numpy.dtype(bool)
        if name is not None:
            try:
                return _dtypes.normalize_dtype(name + str(bits))
            except TypeError:
                pass
    raise TypeError("cuarray does not support the DLPack dtype (code={}, bits={}, lanes={})".format(code, bits, lanes))


# -- capsule helpers (CPython C API through ctypes) ------------------------------------------
_api = ctypes.pythonapi
_PyCapsule_New = _api.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
_PyCapsule_IsValid = _api.PyCapsule_IsValid
_PyCapsule_IsValid.restype = ctypes.c_int
_PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
_PyCapsule_GetPointer = _api.PyCapsule_GetPointer
_PyCapsule_GetPointer.restype = ctypes.c_void_p
_PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
_PyCapsule_GetName = _api.PyCapsule_GetName
_PyCapsule_GetName.restype = ctypes.c_char_p
_PyCapsule_GetName.argtypes = [ctypes.py_object]
_PyCapsule_SetName = _api.PyCapsule_SetName
_PyCapsule_SetName.restype = ctypes.c_int
_PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_void_p]

# A capsule keeps a pointer to its name: these buffers live as long as the module.
_NAME = ctypes.create_string_buffer(b"dltensor")
_NAME_V = ctypes.create_string_buffer(b"dltensor_versioned")
_USED = ctypes.create_string_buffer(b"used_dltensor")
_USED_V = ctypes.create_string_buffer(b"used_dltensor_versioned")

_live: dict = {}  # managed-tensor address -> holder (struct, shape/strides, the array)


def _deleter_impl(addr):
    try:
        _live.pop(addr, None)
    except Exception:  # interpreter shutdown
        pass


_deleter = _Deleter(_deleter_impl)
_deleter_addr = ctypes.cast(_deleter, ctypes.c_void_p).value


def _capsule_destructor_impl(capsule):
    # An unconsumed capsule still has its original name: release the tensor ourselves.
    try:
        for name in (_NAME, _NAME_V):
            if _PyCapsule_IsValid(capsule, ctypes.addressof(name)):
                addr = _PyCapsule_GetPointer(capsule, ctypes.addressof(name))
                if addr:
                    _deleter_impl(addr)
                return
    except Exception:
        pass


_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_capsule_destructor = _CapsuleDestructor(_capsule_destructor_impl)


def _make_capsule(ptr: int, shape, strides_elems, dt, device, owner, readonly, copied, versioned):
    nd = len(shape)
    shape_arr = (ctypes.c_int64 * max(nd, 1))(*shape)
    strides_arr = (ctypes.c_int64 * max(nd, 1))(*strides_elems)
    managed = DLManagedTensorVersioned() if versioned else DLManagedTensor()
    t = managed.dl_tensor
    t.data = ptr or None
    t.device = DLDevice(*device)
    t.ndim = nd
    t.dtype = DLDataType(*dlpack_dtype(dt))
    if nd:
        t.shape = ctypes.cast(shape_arr, ctypes.POINTER(ctypes.c_int64))
        t.strides = ctypes.cast(strides_arr, ctypes.POINTER(ctypes.c_int64))
    t.byte_offset = 0
    managed.manager_ctx = None
    managed.deleter = _deleter
    if versioned:
        managed.version = DLPackVersion(*DLPACK_VERSION)
        managed.flags = ((DLPACK_FLAG_BITMASK_READ_ONLY if readonly else 0) |
                         (DLPACK_FLAG_BITMASK_IS_COPIED if copied else 0))
    addr = ctypes.addressof(managed)
    _live[addr] = (managed, shape_arr, strides_arr, owner)
    name = _NAME_V if versioned else _NAME
    return _PyCapsule_New(addr, ctypes.addressof(name), ctypes.cast(_capsule_destructor, ctypes.c_void_p).value)


# -- export ------------------------------------------------------------------------------------
def _stream_token(stream) -> int:
    """The CAI / DLPack integer for one of our streams: its handle, or 1 for the legacy default."""
    return stream.ptr if stream.ptr else 1


def cuda_array_interface(a: ndarray) -> dict:
    """`ndarray.__cuda_array_interface__` (version 3)."""
    dt = a._dtype
    typestr = dt.str
    return {
        "shape": a._shape,
        "typestr": typestr,  # '|V<itemsize>' for a structured dtype, whose fields `descr` lists
        "descr": dt.descr if dt.names is not None else [("", typestr)],
        "data": (a.data.ptr if a._size else 0, not a._writeable),
        "strides": None if a._c else a._strides,
        "version": 3,
        "stream": _stream_token(_stream.get_current_stream()),
    }


def _elem_strides(a: ndarray) -> tuple:
    item = a._dtype.itemsize
    out = []
    for s in a._strides:
        if s % item:
            raise BufferError("DLPack needs strides that are multiples of the item size; got {} "
                              "for itemsize {}".format(a._strides, item))
        out.append(s // item)
    return tuple(out)


def _sync_consumer(stream) -> None:
    """Make the consumer's stream (a DLPack `stream` value) wait for our current stream."""
    if stream == -1:
        return
    consumer = 1 if stream is None else int(stream)
    ours = _stream.get_current_stream()
    if _stream_token(ours) == consumer:
        return
    ev = _stream.Event(disable_timing=True)
    ours.record(ev)
    _stream.ExternalStream(consumer).wait_event(ev)


def to_dlpack(a: ndarray, stream=None, max_version=None, dl_device=None, copy=None):
    """`ndarray.__dlpack__`: a "dltensor" capsule, or "dltensor_versioned" when the consumer's
    `max_version` is at least (1, 0)."""
    if stream is not None and (type(stream) is not int and not isinstance(stream, numpy.integer)):
        raise TypeError("stream must be an int or None, got {}".format(type(stream).__name__))
    if stream == 0:
        raise ValueError("stream 0 is not allowed by the DLPack protocol (use 1 for the legacy default stream)")
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    dlpack_dtype(a._dtype)  # a dtype DLPack cannot describe raises before any copy
    dev = a.data.device_id
    to_host = False
    if dl_device is not None:
        dl_device = tuple(int(x) for x in dl_device)
        if dl_device == (kDLCPU, 0):
            if copy is False:
                raise BufferError("exporting to the CPU needs a copy, and copy=False forbids it")
            to_host = True
        elif dl_device != (kDLCUDA, dev):
            raise BufferError("cannot export a cuarray array on CUDA device {} to DLPack device {}".format(
                dev, dl_device))
    if to_host:
        host = a.get()  # synchronises: the host data is complete when the consumer gets it
        strides = tuple(s // host.itemsize for s in host.strides)
        return _make_capsule(host.ctypes.data, host.shape, strides, host.dtype, (kDLCPU, 0), host,
                             False, True, versioned)
    src = a.copy() if copy else a
    capsule = _make_capsule(src.data.ptr if src._size else 0, src._shape, _elem_strides(src), src._dtype,
                            (kDLCUDA, dev), src, not src._writeable and not copy, bool(copy), versioned)
    _sync_consumer(stream)
    return capsule


# -- import ------------------------------------------------------------------------------------
class _DLPackOwner:
    """Keeps an imported DLPack tensor alive; calls the producer's deleter when collected."""

    __slots__ = ("addr", "deleter", "capsule")

    def __init__(self, addr, deleter, capsule):
        self.addr = addr
        self.deleter = deleter
        self.capsule = capsule  # holds the producer's memory for producers that tie it to the capsule

    def __del__(self):
        if self.deleter:
            try:
                _Deleter(self.deleter)(self.addr)
            except Exception:
                pass


def _wrap_device_memory(ptr, shape, strides_bytes, dt, owner, device_id, readonly) -> ndarray:
    item = dt.itemsize
    size = 0
    if all(shape):
        lo = hi = 0
        for n, s in zip(shape, strides_bytes):
            if s > 0:
                hi += (n - 1) * s
            else:
                lo += (n - 1) * s
        size = hi - lo + item
    mem = UnownedMemory(ptr, size, owner, device_id)
    out = ndarray(shape, dt, memptr=MemoryPointer(mem, 0), strides=strides_bytes)
    if readonly:
        out._writeable = False
    return out


def _from_cai(obj) -> ndarray:
    cai = obj.__cuda_array_interface__
    if cai.get("mask") is not None:
        raise NotImplementedError("__cuda_array_interface__ with a mask is not supported")
    typestr = cai["typestr"]
    descr = cai.get("descr")
    if descr is not None and typestr[1:2] == "V" and list(map(tuple, descr)) != [("", typestr)]:
        dt = _dtypes.storage_dtype(_structured.descr_dtype(descr, typestr))  # a structured dtype
    else:
        dt = _dtypes.normalize_dtype(numpy.dtype(typestr))
    shape = tuple(int(n) for n in cai["shape"])
    ptr, readonly = cai["data"]
    strides = cai.get("strides")
    if strides is None:
        strides = c_strides(shape, dt.itemsize)
    strides = tuple(int(s) for s in strides)
    producer = cai.get("stream") if cai.get("version", 0) >= 3 else None
    if producer == 0:
        raise ValueError("__cuda_array_interface__ stream 0 is forbidden by the protocol")
    if producer is not None:
        ours = _stream.get_current_stream()
        if _stream_token(ours) != producer:
            ev = _stream.Event(disable_timing=True)
            ev.record(_stream.ExternalStream(producer))
            ours.wait_event(ev)
    dev = _memory.pointer_device(ptr) if ptr else None
    return _wrap_device_memory(int(ptr), shape, strides, dt, obj, get_device_id() if dev is None else dev,
                               bool(readonly))


def _capsule_of(x, stream_token, copy):
    try:
        return x.__dlpack__(stream=stream_token, max_version=DLPACK_VERSION, copy=copy)
    except TypeError:
        if copy:
            raise
        return x.__dlpack__(stream=stream_token)


def _from_capsule(capsule) -> ndarray:
    name = _PyCapsule_GetName(capsule)
    if name == b"dltensor_versioned":
        addr = _PyCapsule_GetPointer(id(capsule), ctypes.addressof(_NAME_V))
        managed = DLManagedTensorVersioned.from_address(addr)
        if managed.version.major > 1:
            raise BufferError("DLPack version {}.{} is newer than cuarray supports".format(
                managed.version.major, managed.version.minor))
        readonly = bool(managed.flags & DLPACK_FLAG_BITMASK_READ_ONLY)
        used = _USED_V
    elif name == b"dltensor":
        addr = _PyCapsule_GetPointer(id(capsule), ctypes.addressof(_NAME))
        managed = DLManagedTensor.from_address(addr)
        readonly = False
        used = _USED
    else:
        raise ValueError("expected a DLPack capsule, got one named {!r}".format(name))
    t = managed.dl_tensor
    if t.device.device_type not in (kDLCUDA, kDLCUDAManaged, kDLCUDAHost):
        raise BufferError("DLPack tensor is not in CUDA memory (device type {})".format(t.device.device_type))
    dt = dtype_from_dlpack(t.dtype.code, t.dtype.bits, t.dtype.lanes)
    nd = t.ndim
    shape = tuple(t.shape[i] for i in range(nd))
    item = dt.itemsize
    if nd and t.strides:
        strides = tuple(t.strides[i] * item for i in range(nd))
    else:
        strides = c_strides(shape, item)
    ptr = (t.data or 0) + t.byte_offset
    deleter = ctypes.cast(managed.deleter, ctypes.c_void_p).value
    dev = t.device.device_id if t.device.device_type == kDLCUDA else (_memory.pointer_device(ptr) or 0)
    # The capsule is ours now: rename it so its destructor leaves the tensor alone.
    _PyCapsule_SetName(capsule, ctypes.addressof(used))
    owner = _DLPackOwner(addr, deleter, capsule)
    return _wrap_device_memory(ptr, shape, strides, dt, owner, dev, readonly)


def from_dlpack(x, /, *, device=None, copy=None) -> ndarray:
    """See `numpy.from_dlpack`: zero-copy from any DLPack producer in CUDA memory.

    Host (CPU) producers are copied to the current device unless ``copy=False`` (BufferError).
    ``copy=True`` always returns a new array.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(3)
    >>> b = cuarray.from_dlpack(a)   # zero-copy; also from PyTorch, JAX or CuPy arrays on the GPU
    >>> b.shape, b.dtype
    ((3,), dtype('int64'))
    """
    if device is not None and not (hasattr(device, "id") or device in ("gpu", "cuda")):
        raise ValueError("cuarray.from_dlpack: unsupported device {!r}".format(device))
    if isinstance(x, ndarray):
        # NumPy's from_dlpack goes through __dlpack__ even for its own arrays: datetime64 and
        # timedelta64 (no DLPack code) raise BufferError there, so here too
        dlpack_dtype(x._dtype)
        return x.copy() if copy else x
    if not hasattr(x, "__dlpack__"):
        raise TypeError("from_dlpack needs an object with __dlpack__, got {}".format(type(x).__name__))
    dev_type, _ = x.__dlpack_device__()
    if dev_type == kDLCPU:
        if copy is False:
            raise BufferError("the DLPack producer is on the CPU: importing to the GPU needs a copy, "
                              "and copy=False forbids it")
        return from_host(numpy.from_dlpack(x))
    token = _stream_token(_stream.get_current_stream()) if dev_type in (kDLCUDA, kDLCUDAManaged) else None
    # copy=True: import the producer's memory and copy it here (one copy either way, and no
    # reliance on producers that ignore the `copy` argument).
    out = _from_capsule(_capsule_of(x, token, None if copy else copy))
    return out.copy() if copy else out


def fromDlpack(dltensor) -> ndarray:  # noqa: N802  (CuPy's legacy name)
    """CuPy's legacy `cupy.fromDlpack`: a DLPack capsule (as `toDlpack` makes), or any object
    with ``__dlpack__`` (then as `from_dlpack`). Zero-copy.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(3)
    >>> cuarray.fromDlpack(a.toDlpack())   # prefer cuarray.from_dlpack(a)
    array([0, 1, 2])
    """
    if hasattr(dltensor, "__dlpack__"):
        return from_dlpack(dltensor)
    if type(dltensor).__name__ != "PyCapsule":
        raise TypeError("fromDlpack needs a DLPack capsule or an object with __dlpack__, got {}".format(
            type(dltensor).__name__))
    return _from_capsule(dltensor)


def to_dlpack_capsule(a: ndarray):
    """`ndarray.toDlpack()`: CuPy's legacy export, an unversioned ``dltensor`` capsule of `a`
    (the consumer must order its work after the current stream's)."""
    return to_dlpack(a)


def from_foreign(obj) -> ndarray:
    """A zero-copy cuarray view of another library's GPU array (CAI first, then DLPack)."""
    if isinstance(obj, ndarray):
        return obj
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_cai(obj)
    if hasattr(obj, "__dlpack__"):
        return from_dlpack(obj)
    raise TypeError("{} is neither a CUDA array interface nor a DLPack object".format(type(obj).__name__))


def get_array_module(*args):
    """See `cupy.get_array_module`: `cuarray` if any argument is a cuarray array, else `numpy`.

    Examples
    --------
    One function for NumPy and cuarray arrays (no device is needed for NumPy ones):

    >>> import numpy as np
    >>> import cuarray
    >>> def norm2(x):
    ...     xp = cuarray.get_array_module(x)
    ...     return xp.sqrt((x * x).sum())
    >>> cuarray.get_array_module(np.ones(3)) is np
    True
    >>> float(norm2(np.array([3.0, 4.0])))
    5.0
    """
    for a in args:
        if isinstance(a, ndarray):
            return _registry.namespace()
    return numpy
