"""Pinned staging for large host<->device copies (double buffering).

Copies from pageable memory cannot be DMA'd directly; the driver stages them through its own small
pinned buffers. Here a large copy is split into `PINNED_CHUNK`-byte chunks that go through two
pinned buffers of ours: while chunk k crosses the bus from (to) buffer k % 2, the host copies chunk
k + 1 into (out of) the other buffer. An event per buffer says when its last bus copy has finished,
so a buffer is reused only after that.

The thresholds are module constants so they can be tuned by measurement (`python -m cuarray.bench`
case "transfer"); the lead measures them on the GPU machine.

Thread safety: one lock per device guards its pair of buffers; a transfer holds it for its whole
duration. Buffers are allocated on first use and kept for the life of the process.
"""

from __future__ import annotations

import ctypes
import os
import threading

import numpy

from ..cuda import caches as _caches
from ..cuda import pinned_memory as _pinned
from ..cuda.device import get_device_id
from ..cuda.stream import Event

__all__ = ["PINNED_THRESHOLD", "PINNED_CHUNK", "HOST_COPY_THREADS", "upload", "download"]

# Transfers above this many bytes are staged; below it, one cuMemcpyAsync on pageable memory.
# Measured on an H200, float64 GB/s direct -> staged: 4 MiB H2D 8.0 -> 4.8; 16 MiB 8.3 -> 13.0.
# Staging pays from 16 MiB up.
PINNED_THRESHOLD = 16 << 20
# Bytes per staging buffer (two per device).
# H200 sweep (scripts/perf/transfer_sweep.py, 1 GiB float32): 8 MiB chunks x 4 threads gave H2D
# 19.2 / D2H-into-a-new-array 6.7 GB/s; 32 MiB x 8 threads 29.9 / 13.6 GB/s (12 threads: 30.0 / 15.4).
PINNED_CHUNK = 32 << 20
# Threads for the host-side copy of one chunk (NumPy releases the GIL while copying).
HOST_COPY_THREADS = max(1, min(8, os.cpu_count() or 1))
_HOST_SPLIT_MIN = 1 << 20

_lock = threading.Lock()
_per_device: dict = {}
_pool = None  # a concurrent.futures.ThreadPoolExecutor, made (and imported: ~4 ms) on first use


def _forget_buffers() -> None:
    """Drop every device's staging buffers once their last copies are done."""
    with _lock:
        for st in list(_per_device.values()):
            with st.lock:
                for b in st.buffers:
                    b.wait()
        _per_device.clear()


_caches.register("pinned staging buffers", count=lambda: len(_per_device), clear=_forget_buffers,
                 nbytes=lambda: sum(2 * st.size for st in list(_per_device.values())))


class _Buffer:
    """One pinned buffer: address, a uint8 NumPy view of it, and the event of its last copy."""

    __slots__ = ("ptr", "view", "event", "pending", "_keep")

    def __init__(self, size: int):
        ptr, keep = _alloc_pinned(size)
        self.ptr = ptr
        self._keep = keep
        self.view = numpy.frombuffer((ctypes.c_char * size).from_address(ptr), dtype=numpy.uint8)
        self.event = Event(disable_timing=True)
        self.pending = False

    def wait(self) -> None:
        if self.pending:
            self.event.synchronize()
            self.pending = False

    def record(self, stream) -> None:
        stream.record(self.event)
        self.pending = True


def _alloc_pinned(size: int):
    """(address, owner) of `size` bytes of page-locked host memory from the pinned pool."""
    mem = _pinned.alloc_pinned_memory(size)
    return int(mem.ptr), mem


class _Staging:
    def __init__(self):
        self.lock = threading.Lock()
        self.size = PINNED_CHUNK
        self.buffers = (_Buffer(self.size), _Buffer(self.size))


def _staging() -> _Staging:
    dev = get_device_id()
    st = _per_device.get(dev)
    if st is None:
        with _lock:
            st = _per_device.get(dev)
            if st is None:
                st = _per_device[dev] = _Staging()
    return st


def _host_copy(dst: numpy.ndarray, src: numpy.ndarray) -> None:
    """dst[...] = src for 1-D uint8 arrays, split over threads when large."""
    global _pool
    n = dst.shape[0]
    parts = HOST_COPY_THREADS
    if parts <= 1 or n < _HOST_SPLIT_MIN:
        numpy.copyto(dst, src)
        return
    if _pool is None:
        from concurrent.futures import ThreadPoolExecutor

        _pool = ThreadPoolExecutor(max_workers=parts, thread_name_prefix="cuarray-staging")
    step = -(-n // parts)
    futures = [_pool.submit(numpy.copyto, dst[i:i + step], src[i:i + step]) for i in range(0, n, step)]
    for f in futures:
        f.result()


def _bytes_of(host: numpy.ndarray) -> numpy.ndarray:
    # A dense (C or F) array's memory as 1-D uint8, in memory order, without copying.
    return host.ravel(order="K").view(numpy.uint8)


def upload(dst_ptr, host: numpy.ndarray, nbytes: int, stream) -> None:
    """Copy `nbytes` of the dense host array `host` to the device pointer `dst_ptr` on `stream`.
    Returns once the host data has been copied into pinned memory (bus copies may be in flight)."""
    src = _bytes_of(host)
    st = _staging()
    with st.lock:
        chunk = st.size
        for k, off in enumerate(range(0, nbytes, chunk)):
            buf = st.buffers[k & 1]
            n = min(chunk, nbytes - off)
            buf.wait()  # its previous bus copy must be done before we overwrite it
            _host_copy(buf.view[:n], src[off:off + n])
            (dst_ptr + off).copy_from_host_async(buf.ptr, n, stream)
            buf.record(stream)


def download(host: numpy.ndarray, src_ptr, nbytes: int, stream) -> None:
    """Copy `nbytes` from the device pointer `src_ptr` into the dense host array `host`.
    Returns when the data is in `host`."""
    dst = _bytes_of(host)
    st = _staging()
    with st.lock:
        chunk = st.size
        offsets = list(range(0, nbytes, chunk))

        def issue(k):
            buf = st.buffers[k & 1]
            off = offsets[k]
            buf.wait()
            (src_ptr + off).copy_to_host_async(buf.ptr, min(chunk, nbytes - off), stream)
            buf.record(stream)

        issue(0)
        if len(offsets) > 1:
            issue(1)
        for k, off in enumerate(offsets):
            buf = st.buffers[k & 1]
            n = min(chunk, nbytes - off)
            buf.wait()
            _host_copy(dst[off:off + n], buf.view[:n])
            if k + 2 < len(offsets):
                issue(k + 2)
