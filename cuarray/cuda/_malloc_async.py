"""The driver's stream-ordered pool (cudaMallocAsync) behind cuarray's allocator API.

Re-exported by `cuarray.cuda.memory`; `memory.USE_MALLOC_ASYNC` makes it the default allocator.
"""

from __future__ import annotations

import os
import threading

from . import _backend
from . import device as _device
from . import stream as _stream
from ._memory_base import (
    BaseMemory,
    MemoryPointer,
    _device_total,
    _oom_error,
    _limit_bytes,
    _zero_pointer,
    release_library_memory,
)

try:  # the C core (cuda/_native/async.c, built by setup.py where a compiler exists)
    from . import _poolcore as _built
except ImportError:
    _built = None

__all__ = ["MallocAsyncMemoryPool"]

_get_device_id = _device.get_device_id
_get_current_stream = _stream.get_current_stream
_core_device = _device._core_device

_UINT64_MAX = 2**64 - 1
_CUDA_ERROR_OUT_OF_MEMORY = 2


def _load_native():
    """`_poolcore.async_alloc` (cuda/_native/async.c: the driver called from C, the memory an
    AsyncBlock that frees itself), or None: then cuda.core's Buffer path below (the same memory,
    about 9 us per allocation and free on the H100 against ~2 in C). CUARRAY_PURE_PYTHON_POOL=1
    forces the fallback, as it does for MemoryPool."""
    if os.environ.get("CUARRAY_PURE_PYTHON_POOL", "0") not in ("", "0") or _built is None:
        return None
    return _built if hasattr(_built, "async_alloc") else None


_poolcore = _load_native()
_native_ready = [False]  # the driver's entry points handed to the C core (once per process)


def _configure_native() -> bool:
    """Give async.c cuMemAllocFromPoolAsync's and cuMemFreeAsync's addresses (cuGetProcAddress)."""
    drv = _backend.driver()
    flag = drv.CUdriverProcAddress_flags.CU_GET_PROC_ADDRESS_DEFAULT
    ptrs = []
    for name in (b"cuMemAllocFromPoolAsync", b"cuMemFreeAsync"):
        err, ptr, _status = drv.cuGetProcAddress(name, 11020, flag)
        if err != 0 or not int(ptr):
            return False
        ptrs.append(int(ptr))
    _poolcore.async_configure(*ptrs)
    return True


class _AsyncMemory(BaseMemory):
    """Memory of a cuda.core Buffer; dropping it frees the buffer on its allocation stream."""

    __slots__ = ("buf",)

    def __init__(self, buf, device_id: int):
        self.buf = buf
        self.ptr = int(buf.handle)
        self.size = int(buf.size)
        self.device_id = device_id


class MallocAsyncMemoryPool:
    """The driver's stream-ordered pool (cudaMallocAsync) through cuda.core. See `cupy.cuda.MemoryAsyncPool`.

    Each device gets its own pool whose release threshold is UINT64_MAX (a new pool's threshold is
    0, which hands memory back to the OS at every synchronisation). A buffer is freed on the stream
    it was allocated on. `set_limit` is checked against the pool's used bytes before each allocation.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._mrs: dict = {}
        self._pool_handles: dict = {}  # device -> the pool's CUmemoryPool as an int (the C path)
        self._limits: dict = {}

    def _mr(self, dev: int):
        mr = self._mrs.get(dev)
        if mr is None:
            with self._lock:
                mr = self._mrs.get(dev)
                if mr is None:
                    core = _backend.core()
                    drv = _backend.driver()
                    _device.core_device(dev)  # cuda.core's thread state too: it makes the pool
                    mr = core.DeviceMemoryResource(dev, core.DeviceMemoryResourceOptions())
                    attr = drv.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
                    _backend.check(drv.cuMemPoolSetAttribute(mr.handle, attr, drv.cuuint64_t(_UINT64_MAX)))
                    if _poolcore is not None and not _native_ready[0]:
                        _native_ready[0] = _configure_native()
                    self._pool_handles[dev] = int(mr.handle)
                    self._mrs[dev] = mr
        return mr

    def malloc(self, size: int) -> MemoryPointer:
        size = int(size)
        dev = _get_device_id()
        if size <= 0:
            return _zero_pointer(size, dev)
        mr = self._mr(dev)
        limit = self._limits.get(dev, 0)
        stream = _get_current_stream()
        cs = stream._core()
        if limit and self.used_bytes() + size > limit:
            raise _oom_error(size, self.total_bytes(), limit, dev, used=self.used_bytes())
        if _native_ready[0]:
            return self._malloc_native(size, dev, stream.ptr, cs, limit)
        _device.core_device(dev)  # (cuda.core allocates here: its thread state set, once per thread)
        try:
            buf = mr.allocate(size, stream=cs)
        except Exception as exc:
            if "OUT_OF_MEMORY" not in str(exc):
                raise
            self.free_all_blocks()
            try:
                buf = mr.allocate(size, stream=cs)
            except Exception as exc2:
                if "OUT_OF_MEMORY" not in str(exc2):
                    raise
                raise _oom_error(size, self.total_bytes(), limit, dev, used=self.used_bytes()) from None
        return MemoryPointer(_AsyncMemory(buf, dev), 0)

    def _malloc_native(self, size: int, dev: int, stream_ptr: int, cs, limit: int) -> MemoryPointer:
        _core_device(dev)  # the legacy default stream (handle 0) means the current context
        r = _poolcore.async_alloc(size, self._pool_handles[dev], stream_ptr, cs, dev)
        if type(r) is not int:
            return r
        if r == _CUDA_ERROR_OUT_OF_MEMORY:
            self.free_all_blocks()
            r = _poolcore.async_alloc(size, self._pool_handles[dev], stream_ptr, cs, dev)
            if type(r) is not int:
                return r
            if r == _CUDA_ERROR_OUT_OF_MEMORY:
                raise _oom_error(size, self.total_bytes(), limit, dev, used=self.used_bytes())
        _backend.check((_backend.driver().CUresult(r),))
        raise AssertionError("unreachable: a failed allocation raised above")

    def _attrs(self, dev=None):
        if dev is None:
            dev = _get_device_id()
        if dev not in self._mrs:
            return None
        return self._mrs[dev].attributes

    def used_bytes(self) -> int:
        a = self._attrs()
        return 0 if a is None else int(a.used_mem_current)

    def total_bytes(self) -> int:
        a = self._attrs()
        return 0 if a is None else int(a.reserved_mem_current)

    def free_bytes(self) -> int:
        return self.total_bytes() - self.used_bytes()

    def peak_bytes(self) -> int:
        a = self._attrs()
        return 0 if a is None else int(a.used_mem_high)

    def reset_peak(self) -> None:
        mr = self._mrs.get(_get_device_id())
        if mr is not None:
            drv = _backend.driver()
            attr = drv.CUmemPool_attribute.CU_MEMPOOL_ATTR_USED_MEM_HIGH
            _backend.check(drv.cuMemPoolSetAttribute(mr.handle, attr, drv.cuuint64_t(0)))

    def n_free_blocks(self) -> int:
        return 0  # the driver does not say

    def free_all_blocks(self, stream=None) -> None:
        """Give every cached byte back to the driver (waits for the device first); `stream` is ignored."""
        dev = _get_device_id()
        release_library_memory(dev, None)
        mr = self._mrs.get(dev)
        if mr is not None:
            _device._context_synchronize(dev)
            _backend.check(_backend.driver().cuMemPoolTrimTo(mr.handle, 0))

    def set_limit(self, size: int | None = None, fraction: float | None = None) -> None:
        dev = _get_device_id()
        self._limits[dev] = _limit_bytes(size, fraction, lambda: _device_total(dev))

    def get_limit(self) -> int:
        return self._limits.get(_get_device_id(), 0)

    def _info(self, device_id: int) -> dict:
        a = self._attrs(device_id)
        if a is None:
            live = reserved = peak = 0
        else:
            live, reserved, peak = int(a.used_mem_current), int(a.reserved_mem_current), int(a.used_mem_high)
        limit = self._limits.get(device_id, 0)
        return {"live": live, "cached": reserved - live, "reserved": reserved, "peak": peak, "limit": limit}
