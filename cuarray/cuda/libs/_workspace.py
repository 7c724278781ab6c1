"""Workspaces that a library handle keeps between calls (cuBLAS's `cublasSetWorkspace`): pool
memory, one buffer per (device, stream), bounded per device, given back by `free_all_blocks()`.

Why per stream, and never shared between two streams: a workspace is scratch memory the library's
kernels write while they run. Two kernels may use the same scratch only if one is certain to finish
before the other starts, and on a GPU that is exactly "they are ordered on one stream" (or by events,
which the library cannot see). Kernels of two streams may run at the same time, so one buffer for
two streams would let one GEMM overwrite another's partial sums. Handles of several threads may
share one stream's buffer: their kernels are ordered on that stream. That is also what makes
giving a buffer back safe without a synchronisation: the pool hands a freed block only to later
allocations on the stream it was allocated on (`cuda/memory.py`), which run after the library's
kernels. cuBLASLt and cuFFT need no kept buffer at all: each call takes what its plan asks for from
the pool on the current stream and drops it after the enqueue (same stream-order argument).

The bound: `get_limit()` bytes per device in all kept buffers (default `DEFAULT_LIMIT`: room for 4
streams at cuBLAS's recommended 32 MiB). A stream that needs a buffer past the limit takes the place
of the least recently used stream's, which goes back to the pool. A limit below one buffer's size
makes the buffers that small (0: cuBLAS runs without a workspace, which only some algorithms need).

Release: `memory.free_all_blocks()` calls `release(device, stream)` first (a hook the pool runs),
so the kept buffers of the device (or of that stream) go back with the pool's cache. A buffer still
bound to another thread's handle is held by that thread until its next call rebinds the handle:
`generation` changes on every release, and bound handles compare it on each call.
"""

from __future__ import annotations

import collections
import threading

from .. import caches as _caches
from .. import memory as _memory
from .. import stream as _stream

__all__ = ["STREAM_BYTES", "DEFAULT_LIMIT", "Workspaces", "get_limit", "set_limit"]

STREAM_BYTES = 32 * 2**20  # cuBLAS's recommendation for Hopper and later (its default there)
DEFAULT_LIMIT = 4 * STREAM_BYTES
_limit = [DEFAULT_LIMIT]  # what new registries start with; set_limit changes every registry


class Workspaces:
    """Kept workspaces of one library: (device, stream ptr) -> pool memory, LRU, bounded per
    device. `alloc` is `cuda.memory.alloc` (tests give a fake). Thread-safe."""

    def __init__(self, name: str, stream_bytes: int = STREAM_BYTES, limit: int | None = None, alloc=None):
        self.name = name
        self.stream_bytes = stream_bytes
        self._limit = _limit[0] if limit is None else limit
        self._alloc = _memory.alloc if alloc is None else alloc
        self._lock = threading.Lock()
        self._kept: dict = {}  # device -> OrderedDict(stream ptr -> memory), oldest first
        # Bumped whenever a kept buffer is dropped: bound handles compare it (one list subscript).
        self.generation = [0]

    def size(self) -> int:
        """Bytes of one stream's buffer under the current limit."""
        return min(self.stream_bytes, self._limit)

    def get(self, device_id: int, stream_ptr: int):
        """The buffer of (device, stream), made on first use: memory (`.ptr`) or None (size 0).
        The caller keeps a reference while a handle points at it."""
        if stream_ptr == 2:  # the per-thread default stream: another stream in each thread
            stream_ptr = _stream.ptds_pool_key()
        with self._lock:
            kept = self._kept.get(device_id)
            if kept is None:
                kept = self._kept[device_id] = collections.OrderedDict()
            mem = kept.get(stream_ptr)
            if mem is not None:
                kept.move_to_end(stream_ptr)
                return mem
            size = self.size()
            if size <= 0:
                return None
            dropped = []
            while kept and (len(kept) + 1) * size > self._limit:
                dropped.append(kept.popitem(last=False)[1])
            if dropped:
                self.generation[0] += 1
        dropped = []  # back to the pool outside our lock (a pool free may run hooks)
        mem = self._alloc(size)
        with self._lock:
            kept = self._kept.setdefault(device_id, collections.OrderedDict())
            other = kept.get(stream_ptr)
            if other is not None:  # another thread made it meanwhile: use theirs
                return other
            kept[stream_ptr] = mem
            # Other threads may have added buffers while this one allocated: bound again.
            while len(kept) > 1 and len(kept) * size > self._limit:
                dropped.append(kept.popitem(last=False)[1])
            if dropped:
                self.generation[0] += 1
        del dropped
        return mem

    def release(self, device_id: int | None = None, stream_ptr: int | None = None) -> int:
        """Drop the kept buffers of `device_id` (all devices: None), only `stream_ptr`'s if given.
        Returns the bytes dropped (they go back to the pool's cache)."""
        with self._lock:
            dropped = []
            for dev, kept in self._kept.items():
                if device_id is not None and dev != device_id:
                    continue
                for sp in [sp for sp in kept if stream_ptr is None or sp == stream_ptr]:
                    dropped.append(kept.pop(sp))
            if dropped:
                self.generation[0] += 1
            nbytes = len(dropped) * self.size()
        del dropped  # back to the pool outside our lock
        return nbytes

    def kept_bytes(self, device_id: int) -> int:
        with self._lock:
            return len(self._kept.get(device_id, ())) * self.size()

    def streams(self, device_id: int) -> list:
        with self._lock:
            return list(self._kept.get(device_id, ()))

    def set_limit(self, nbytes: int) -> None:
        nbytes = int(nbytes)
        if nbytes < 0:
            raise ValueError("the workspace limit must be >= 0 bytes, got {}".format(nbytes))
        self.release()  # buffers of the old size: made again at the next call, at the new size
        with self._lock:
            self._limit = nbytes

    def get_limit(self) -> int:
        return self._limit


_registries: list = []


def register(ws: Workspaces) -> Workspaces:
    _registries.append(ws)
    return ws


def _release_all(device_id: int, stream_ptr) -> None:
    for ws in list(_registries):
        ws.release(device_id, stream_ptr)


_memory.add_release_hook(_release_all)


def _kept_entries() -> int:
    return sum(len(kept) for ws in list(_registries) for kept in list(ws._kept.values()))


def _kept_bytes() -> int:
    return sum(ws.kept_bytes(dev) for ws in list(_registries) for dev in list(ws._kept))


_caches.register("library workspaces", count=_kept_entries, clear=lambda: _release_all(None, None),
                 nbytes=_kept_bytes)


def get_limit() -> int:
    """Bytes per device that library handles may keep as workspace between calls (all streams)."""
    return _limit[0]


def set_limit(nbytes: int) -> None:
    """Set the per-device bound on kept library workspace (bytes, all streams together); 0: none
    (cuBLAS then runs without a workspace). Kept buffers go back to the pool now."""
    nbytes = int(nbytes)
    if nbytes < 0:
        raise ValueError("the workspace limit must be >= 0 bytes, got {}".format(nbytes))
    _limit[0] = nbytes
    for ws in _registries:
        ws.set_limit(nbytes)
