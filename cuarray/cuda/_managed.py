"""Managed (unified) memory: `malloc_managed` and `ManagedMemory`. See `cupy.cuda.malloc_managed`.

Managed memory is reachable from the host and every device; the driver migrates pages on demand.
For a pool of managed memory: ``set_allocator(MemoryPool(malloc_managed).malloc)``.
"""

from __future__ import annotations

from . import _backend
from . import device as _device
from . import stream as _stream
from ._memory_base import Memory, MemoryPointer, _oom_error

__all__ = ["ManagedMemory", "malloc_managed"]


class ManagedMemory(Memory):
    """Managed memory from cuMemAllocManaged (attached globally), freed when this object dies. See `cupy.cuda.ManagedMemory`."""

    __slots__ = ()

    def __init__(self, size: int):
        self.ptr = 0
        self.size = size = int(size)
        self.device_id = dev = _device.get_device_id()
        if size > 0:
            _device._core_device(dev)
            drv = _backend.driver()
            err, ptr = drv.cuMemAllocManaged(size, drv.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL.value)
            if err == drv.CUresult.CUDA_ERROR_OUT_OF_MEMORY:
                raise _oom_error(size, 0, 0, dev)
            _backend.check((err,))
            self.ptr = int(ptr)

    def prefetch(self, stream=None, device_id: int | None = None) -> None:
        """Migrate the pages to `device_id` (default: this memory's device; -1: the host) in
        `stream` order (default: the current stream)."""
        if not self.size:
            return
        stream = _stream.get_current_stream() if stream is None else stream
        drv = _backend.driver()
        dev = self.device_id if device_id is None else device_id
        loc = drv.CUmemLocation()
        if dev < 0:
            loc.type = drv.CUmemLocationType.CU_MEM_LOCATION_TYPE_HOST
        else:
            loc.type = drv.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
            loc.id = dev
        _device._core_device(self.device_id)
        _backend.check(drv.cuMemPrefetchAsync(self.ptr, self.size, loc, 0, stream.ptr))


def malloc_managed(size: int) -> MemoryPointer:
    """`size` bytes of managed memory, no pooling: usable as an allocator. See `cupy.cuda.malloc_managed`."""
    return MemoryPointer(ManagedMemory(size), 0)
