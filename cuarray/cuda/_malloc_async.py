"""The driver's stream-ordered pool (cudaMallocAsync) behind cuarray's allocator API.

Re-exported by `cuarray.cuda.memory`; `memory.USE_MALLOC_ASYNC` makes it the default allocator.
"""

from __future__ import annotations

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
)

__all__ = ["MallocAsyncMemoryPool"]

_get_device_id = _device.get_device_id
_get_current_stream = _stream.get_current_stream

_UINT64_MAX = 2**64 - 1


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
        self._limits: dict = {}

    def _mr(self, dev: int):
        mr = self._mrs.get(dev)
        if mr is None:
            with self._lock:
                mr = self._mrs.get(dev)
                if mr is None:
                    core = _backend.core()
                    drv = _backend.driver()
                    _device._core_device(dev)
                    mr = core.DeviceMemoryResource(dev, core.DeviceMemoryResourceOptions())
                    attr = drv.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
                    _backend.check(drv.cuMemPoolSetAttribute(mr.handle, attr, drv.cuuint64_t(_UINT64_MAX)))
                    self._mrs[dev] = mr
        return mr

    def malloc(self, size: int) -> MemoryPointer:
        size = int(size)
        dev = _get_device_id()
        if size <= 0:
            return _zero_pointer(size, dev)
        mr = self._mr(dev)
        limit = self._limits.get(dev, 0)
        cs = _get_current_stream()._core()
        if limit and self.used_bytes() + size > limit:
            raise _oom_error(size, self.total_bytes(), limit, dev, used=self.used_bytes())
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
        from .memory import release_library_memory  # memory.py imports this module

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
