"""Device memory: the default memory pool and the allocator every array goes through.

`alloc(size)` is the one function the array code calls; it goes straight to the current allocator
(the default `MemoryPool`'s `malloc` unless `set_allocator` changed it). Memory goes back to the pool
when the last reference to the returned memory object dies (its `__del__`).

Stream safety: a pool block remembers the stream it was allocated on, and once freed it is handed
out again only to allocations on that same stream. Stream order then guarantees that the new owner's
work runs after the old owner's, with no synchronisation. So an array must be freed only once all
work that uses it *on other streams* is ordered before its allocation stream (CuPy's rule too).

Nothing here touches the driver at import or when a pool is created: the first allocation does.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from bisect import bisect_left, insort

from . import _backend
from . import backend as _seam
from . import device as _device
from . import stream as _stream
from . import _observe
from . import _pool_bins
from ._malloc_async import MallocAsyncMemoryPool as MallocAsyncMemoryPool
from ._memory_base import (
    BaseMemory as BaseMemory,
    Memory as Memory,
    MemoryPointer as MemoryPointer,
    OutOfMemoryError as OutOfMemoryError,
    UnownedMemory as UnownedMemory,
    _MemoryType,
    _oom_error,
    add_release_hook as add_release_hook,
    release_library_memory as release_library_memory,
    _device_total,
    _limit_bytes,
    _zero_pointer,
)
from ._pool_bins import (  # noqa: F401 (KEY_SHIFT .. RECENT_PROBE: read here by tests and tools)
    ADDR_MASK,
    KEY_SHIFT,
    RECENT_CREDIT,
    RECENT_MAX,
    RECENT_PROBE,
    _Bins,
    _PooledMemory,
)

__all__ = [
    "pointer_device",
    "BaseMemory",
    "Memory",
    "UnownedMemory",
    "MemoryPointer",
    "MemoryPool",
    "MallocAsyncMemoryPool",
    "OutOfMemoryError",
    "alloc",
    "malloc",
    "set_allocator",
    "get_allocator",
    "using_allocator",
    "get_default_memory_pool",
    "memory_info",
]

_get_device_id = _device.get_device_id
_device_tls = _device._tls
_get_current_stream = _stream.get_current_stream
_stream_tls = _stream._tls
_default_stream = _stream._default  # Stream.null, or Stream.ptds (CUARRAY_PER_THREAD_DEFAULT_STREAM=1)
_default_ptr = _default_stream.ptr
_ptds_pool_key = _stream.ptds_pool_key

# -- segment policy ------------------------------------------------------------------------------
# Requests are rounded up to 512 bytes. Blocks come from large driver allocations ("segments");
# small and large requests never share a segment, so long-lived small arrays cannot pin big ones.
#   small (< 1 MiB): 2 MiB segments.
#   large, < 10 MiB: a 20 MiB segment while the pool caches < 8 MiB of free bytes; otherwise only
#                    the request rounded up to 2 MiB (the cache is big enough, just fragmented:
#                    a big segment would mostly add more cache).
#   large, >= 10 MiB: the request rounded up to 2 MiB (cudaMalloc maps 2 MiB pages anyway).
# When a segment must be added while the pool caches more than half as many free bytes as are
# live (and over 16 MiB), the fully free segments go back to the driver first (after a device
# synchronisation).
# Measured with the pool-churn simulation of tests/cuda/test_memory.py (10 000 allocations of
# 1 KiB-4 MiB, at most 65 live, FIFO-ish frees; 4 seeds x 3 free patterns): peak reserved / peak
# live <= 1.30 for uniform sizes (<= 79 segment allocations, <= 6 releases), <= 1.50 for
# log-uniform sizes (<= 69 segment allocations). CuPy leaves 4632 MiB reserved on this workload.
# Also tried: 20 MiB segments always (uniform 1.31, log-uniform 1.73); large segments rounded to
# 2 MiB only (1.45 / 1.60, up to 104 cudaMallocs); 8 or 12 MiB large segments (1.33 / 1.59);
# releasing only when the cache exceeds the live bytes (1.30 / 1.56), or whenever the cache could
# hold the new segment (1.26 / 1.36 but ~400 cudaMallocs and ~130 device synchronisations).
SMALL_LIMIT = 1 << 20
SMALL_SEGMENT = 2 << 20
LARGE_SEGMENT = 20 << 20
LARGE_ALONE = 10 << 20
SEGMENT_ROUND = 2 << 20
LARGE_GROW_CACHED = 8 << 20
RELEASE_FLOOR = 16 << 20
# The C core of the pool (`_poolcore`, built by setup.py where a compiler exists), or None: then the
# pure-Python `_Bins` below serve (the same choices, ~3x the host time per allocation).
try:
    from . import _poolcore as _core_module
except ImportError:
    _core_module = None
# What new pools use: the C core unless CUARRAY_PURE_PYTHON_POOL=1 forces the fallback. Read when
# a MemoryPool is created (tests swap it to run both implementations).
_native = None if os.environ.get("CUARRAY_PURE_PYTHON_POOL", "") not in ("", "0") else _core_module


def implementation() -> str:
    """Which bookkeeping new pools use: "native" (the C core) or "python"."""
    return "python" if _native is None else "native"


def _release_first(cached: int, used: int, want: int) -> bool:
    """Give fully free segments back before adding one? When the cache is over half the live bytes
    (and not tiny: releasing costs a device synchronisation)."""
    return 2 * cached > used and cached > RELEASE_FLOOR


def _segment_size(rsize: int, cached: int) -> int:
    """Bytes of the segment to add for a request of `rsize` while the pool caches `cached` free bytes."""
    if rsize < SMALL_LIMIT:
        return SMALL_SEGMENT
    seg = -(-rsize // SEGMENT_ROUND) * SEGMENT_ROUND
    if rsize < LARGE_ALONE and seg < LARGE_SEGMENT and cached < LARGE_GROW_CACHED:
        return LARGE_SEGMENT
    return seg


class _BackingOutOfMemory(Exception):
    """A backing allocator could not get the memory (cuMemAlloc's CUDA_ERROR_OUT_OF_MEMORY)."""


class _DriverBacking:
    """Segments from cuMemAlloc/cuMemFree (the default backing)."""

    def malloc(self, size: int, device_id: int) -> int:
        _device._core_device(device_id)
        drv = _backend.driver()
        err, ptr = drv.cuMemAlloc(size)
        if err == drv.CUresult.CUDA_ERROR_OUT_OF_MEMORY:
            raise _BackingOutOfMemory(size)
        _backend.check((err,))
        return int(ptr)

    def free(self, ptr: int, size: int, device_id: int) -> None:
        _device._core_device(device_id)
        _backend.check(_backend.driver().cuMemFree(ptr))

    def synchronize(self, device_id: int) -> None:
        _device._context_synchronize(device_id)

    def device_total(self, device_id: int) -> int:
        return _device_total(device_id)


# The memory hooks' hook point (memory_hook.py registers its runner by `set_memory_hooks` while any
# hook is active, None otherwise): `MemoryPool.malloc` and `_segment_malloc` test it once, and the
# pools' blocks call the runner's `free` (the free hook slot of `_pool_bins` and of the C core).
# The runner has ``pool_malloc(pool, size, stream_ptr) -> MemoryPointer or None`` (None: the
# plain path, as when this thread has no hook), ``segment_malloc(call, backing, size, device_id)``
# and ``free(phase, device_id, mem_size, mem_ptr, pmem_id)``.
_hooks = None


def set_memory_hooks(runner) -> None:
    """Install the memory hooks' runner (memory_hook.py), or None to remove it."""
    global _hooks
    _hooks = runner
    free = None if runner is None else runner.free
    _pool_bins.set_free_hook(free)
    if _core_module is not None:
        _core_module.set_free_hook(free)
    _refresh_allocator()  # (while hooks are installed, the pool's Python malloc runs: it calls them)


def _segment_malloc(backing, size: int, device_id: int) -> int:
    """A pool's request for a new segment (a pool miss): through the memory hooks' alloc hooks
    while any is active, and reported to the observer (`_observe`: the profiler)."""
    if _hooks is not None:
        return _hooks.segment_malloc(_observed_segment_malloc, backing, size, device_id)
    return _observed_segment_malloc(backing, size, device_id)


def _observed_segment_malloc(backing, size: int, device_id: int) -> int:
    obs = _observe.observer
    if obs is not None:
        return obs.segment(_plain_segment_malloc, backing, size, device_id)
    return backing.malloc(size, device_id)


def _plain_segment_malloc(backing, size: int, device_id: int) -> int:
    return backing.malloc(size, device_id)


class _AllocatorBacking(_DriverBacking):
    """Segments from a user allocator ``size -> MemoryPointer`` (CuPy's ``MemoryPool(allocator)``)."""

    def __init__(self, allocator):
        self.allocator = allocator
        self.held: dict = {}  # segment address -> the MemoryPointer that owns it

    def malloc(self, size: int, device_id: int) -> int:
        try:
            mp = self.allocator(size)
        except OutOfMemoryError as exc:
            raise _BackingOutOfMemory(size) from exc
        self.held[mp.ptr] = mp
        return mp.ptr

    def free(self, ptr: int, size: int, device_id: int) -> None:
        del self.held[ptr]


# -- bookkeeping records ---------------------------------------------------------------------
# A free block is two dict entries and one int, no object: ``fs[ptr] = size``, ``fe[ptr + size] =
# ptr`` and the key ``size << KEY_SHIFT | ptr`` in the sorted list ``keys``, so best fit is one
# bisect (smallest size, then lowest address), and splitting or merging touches ints only. It
# replaced a _Free record per block filed in per-size dicts behind a sorted list of sizes: pool
# churn (the bench's sequence, device stubbed, scripts/perf/pool_compare.py) 31.1 -> 22.2 ms per
# 10 000 malloc+free, the same best-fit choices (reserved / peak live 1.27 -> 1.24).
class _DevicePool:
    """One device's blocks. Every method runs with the MemoryPool's lock held (and, for the C core,
    with `core` held: see _NativeDevicePool)."""

    core = None  # the C core's Dev (segment starts, live/peak bytes, hold state), or None

    def __init__(self, owner: "MemoryPool", device_id: int):
        self.owner = owner
        self.lock = owner._lock
        self.pending = owner._pending
        self.backing = owner._backing
        self.device_id = device_id
        self.small: dict = {}  # stream ptr -> _Bins for blocks < SMALL_LIMIT
        self.large: dict = {}
        self.segments: dict = {}  # segment address -> its size
        self.used = 0
        self.total = 0
        self.peak = 0
        self.limit = 0

    # -- allocate ---------------------------------------------------------------------------
    def grow(self, rsize: int, bins: _Bins) -> None:
        """Add a segment holding at least `rsize` bytes as a free block of `bins`; raise OutOfMemoryError."""
        cached = self.total - self.used
        want = _segment_size(rsize, cached)
        if _release_first(cached, self.used, want):
            self.release_free_segments()
        for attempt in (0, 1):
            for size in (want, rsize) if want != rsize else (rsize,):
                if self.limit and self.total + size > self.limit:
                    continue
                try:
                    ptr = _segment_malloc(self.backing, size, self.device_id)
                except _BackingOutOfMemory:
                    continue
                self.segments[ptr] = size
                if self.core is not None:
                    self.core.add_segment(ptr)
                self.total += size
                bins.insert(ptr, size)
                return
            if attempt == 0 and not self.release_free_segments():
                break  # nothing cached to give back: retrying cannot help
        raise _oom_error(rsize, self.total, self.limit, self.device_id, used=self.used,
                         ask_device=isinstance(self.backing, _DriverBacking))

    # -- free -------------------------------------------------------------------------------
    def free_block(self, ptr: int, size: int, bins: _Bins) -> None:
        """Give a live block back to `bins`, merged with its free neighbours (the path
        `_PooledMemory.__del__` inlines)."""
        self.used -= size
        start = ptr
        end = ptr + size
        fs = bins.fs
        fe = bins.fe
        keys = bins.keys
        segments = self.segments
        prev = fe.pop(ptr, None)
        if prev is not None:
            if ptr in segments:  # a segment starts at ptr: prev lies in the one below, not ours to merge
                fe[ptr] = prev
            else:
                del keys[bisect_left(keys, (ptr - prev) << KEY_SHIFT | prev)]
                start = prev
        nsize = fs.pop(end, None)
        if nsize is not None:
            if end in segments:
                fs[end] = nsize
            else:
                del keys[bisect_left(keys, nsize << KEY_SHIFT | end)]
                end += nsize
        size = end - start
        fs[start] = size
        fe[end] = start
        insort(keys, size << KEY_SHIFT | start)

    def flush_recent(self, bins: _Bins) -> None:
        """Merge the blocks `bins` keeps for exact reuse into its free lists."""
        size_blocks = bins.recent
        bins.recent = {}
        bins.n_recent = 0
        for size, ptrs in size_blocks.items():
            for ptr in ptrs:
                self.used += size  # free_block takes it off again
                self.free_block(ptr, size, bins)

    def all_bins(self) -> list:
        return list(self.small.values()) + list(self.large.values())

    def flush_all_recent(self) -> None:
        for bins in self.all_bins():
            if bins.n_recent:
                self.flush_recent(bins)

    def n_free_blocks(self) -> int:
        return sum(b.n_blocks for b in self.all_bins())

    # -- giving memory back -----------------------------------------------------------------
    def release_free_segments(self, stream_ptr: int | None = None) -> int:
        """Give fully free segments back to the backing (all, or those whose free blocks all
        belong to `stream_ptr`). Synchronises the device first: a freed block's last kernels may
        still be running. Returns the number of bytes given back."""
        self.flush_all_recent()
        all_bins = self.all_bins()
        victims = []
        for seg, seg_size in self.segments.items():
            # Free blocks never span a segment start, so the segment is free when they tile it.
            blocks = []
            addr, end = seg, seg + seg_size
            while addr < end:
                for bins in all_bins:
                    size = bins.size_at(addr)
                    if size is not None:
                        blocks.append((addr, size, bins))
                        addr += size
                        break
                else:
                    break  # a live block at addr
            if addr == end and (stream_ptr is None or all(b.stream_ptr == stream_ptr for _, _, b in blocks)):
                victims.append((seg, seg_size, blocks))
        if not victims:
            return 0
        self.backing.synchronize(self.device_id)
        freed = 0
        for seg, seg_size, blocks in victims:
            for addr, size, bins in blocks:
                bins.remove(addr, size)
            del self.segments[seg]
            if self.core is not None:
                self.core.remove_segment(seg)
            self.backing.free(seg, seg_size, self.device_id)
            self.total -= seg_size
            freed += seg_size
        return freed


class _NativeDevicePool(_DevicePool):
    """One device's blocks with the C core's bookkeeping: live and peak bytes live in `core` (the
    bins update them without the lock); the pool's slow paths hold `core` while they work."""

    def __init__(self, owner: "MemoryPool", device_id: int):
        self.core = owner._native.Dev(owner._hold)
        self.core.owner = weakref.ref(self)  # for _native_slow; weak: the core must not keep us alive
        super().__init__(owner, device_id)

    used = property(lambda self: self.core.used, lambda self, v: setattr(self.core, "used", v))
    peak = property(lambda self: self.core.peak, lambda self, v: setattr(self.core, "peak", v))

    def flush_recent(self, bins) -> None:
        bins.flush()

    def new_bins(self, stream_ptr: int):
        return self.owner._native.Bins(self.core, stream_ptr, _pool_bins.RECENT_MAX, _pool_bins.RECENT_CREDIT,
                                       _pool_bins.RECENT_PROBE)


class MemoryPool:
    """Caching device allocator: best fit with coalescing, free blocks kept per stream. See `cupy.cuda.MemoryPool`.

    One instance serves every device (state is kept per device; methods act on the current one).
    `allocator`, if given, is a ``size -> MemoryPointer`` callable that supplies the segments instead
    of cuMemAlloc. `backing` (keyword, internal/tests) replaces the driver: an object with
    ``malloc(size, device_id) -> int`` (raising `_BackingOutOfMemory`), ``free(ptr, size, device_id)``,
    ``synchronize(device_id)`` and ``device_total(device_id)``.
    """

    def __init__(self, allocator=None, *, backing=None):
        # One lock for all devices: uncontended acquire+release is ~50 ns, and frees from other
        # threads' garbage collections must not race the allocating thread.
        self._lock = threading.Lock()
        self._pending: list = []  # frees that could not take the lock (see _PooledMemory.__del__)
        if backing is None:
            backing = _DriverBacking() if allocator is None else _AllocatorBacking(allocator)
        self._backing = backing
        self._native = _native  # the C core's module (bookkeeping in C), or None (pure Python)
        # The C core's hold state, shared by every device of this pool as the lock is: a slow path
        # on one device queues the frees of all (the same choices as the Python pool).
        self._hold = None if _native is None else _native.Dev()
        self._devices: dict = {}  # device id -> _DevicePool
        self._tables: dict = {}  # device id -> (small, large) of that _DevicePool: one lookup less

    def _device_pool(self, dev: int) -> _DevicePool:
        """Device `dev`'s pool, made on first use (lock held)."""
        dpool = self._devices.get(dev)
        if dpool is None:
            dpool = self._devices[dev] = (_DevicePool if self._native is None else _NativeDevicePool)(self, dev)
            self._tables[dev] = (dpool.small, dpool.large)
        return dpool

    def _new_device(self, dev: int):
        with self._lock:  # two threads' first allocations on a device must share one _DevicePool
            self._device_pool(dev)
            return self._tables[dev]

    def _new_bins(self, dev: int, table: dict, stream_ptr: int):
        with self._lock:
            bins = table.get(stream_ptr)
            if bins is None:
                dpool = self._devices[dev]
                if dpool.core is None:
                    bins = _Bins(stream_ptr, dpool)
                else:
                    bins = dpool.new_bins(stream_ptr)
                table[stream_ptr] = bins
            return bins

    def malloc(self, size: int, stream_ptr: int | None = None) -> MemoryPointer:
        """Allocate `size` bytes on the current device and stream (`stream_ptr` overrides the
        stream; internal/tests). Size 0 gives a pointer with address 0 and touches nothing."""
        if _hooks is not None:  # memory hooks are active (in some thread): they wrap this call
            p = _hooks.pool_malloc(self, size, stream_ptr)
            if p is not None:
                return p
        dev = _device_tls.device_id  # get_device_id() inlined
        if size <= 0:
            return _zero_pointer(size, dev)
        if stream_ptr is None:  # get_current_stream() inlined
            streams = _stream_tls.streams
            stream_ptr = _default_ptr if streams is None else streams.get(dev, _default_stream).ptr
        if stream_ptr == 2:  # the per-thread default stream: one key per thread (stream.ptds_pool_key)
            stream_ptr = _ptds_pool_key()
        rsize = (size + 511) & -512  # sizes rounded up to 512 bytes
        # HOT PATH: find this (device, stream, size class)'s bins; it takes an exact or best fit
        # block, splits it and wraps it (the C core's Bins.alloc, or _Bins.alloc).
        tables = self._tables.get(dev)
        if tables is None:
            tables = self._new_device(dev)
        table = tables[0] if rsize < SMALL_LIMIT else tables[1]
        bins = table.get(stream_ptr)
        if bins is None:
            bins = self._new_bins(dev, table, stream_ptr)
        return bins.alloc(rsize, dev)

    def _drain(self) -> None:
        pending = self._pending
        while pending:
            dpool, ptr, size, bins = pending.pop()
            dpool.free_block(ptr, size, bins)

    def _locked(self, fn, device_id=None):
        dev = _get_device_id() if device_id is None else device_id
        with self._lock:
            if self._pending:
                self._drain()
            dpool = self._device_pool(dev)
            core = dpool.core
            if core is not None:
                core.hold()
            try:
                dpool.flush_all_recent()  # queries see merged free blocks
                return fn(dpool)
            finally:
                if core is not None:
                    core.unhold()

    def trim(self) -> int:
        """Give the fully free segments back to the driver, on every device this pool has used
        (without dropping library workspaces, unlike `free_all_blocks`); the bytes it still
        reserves. A destroyed graph's private pool is trimmed so (`graph.CUDAGraph.reset`)."""

        def trim(d):
            d.release_free_segments()
            return d.total

        with self._lock:
            devices = list(self._devices)
        return sum(self._locked(trim, dev) for dev in devices)

    def used_bytes(self) -> int:
        """Bytes in live blocks (sizes rounded up to 512) on the current device."""
        return self._locked(lambda d: d.used)

    def total_bytes(self) -> int:
        """Bytes reserved from the driver (all segments) on the current device."""
        return self._locked(lambda d: d.total)

    def free_bytes(self) -> int:
        """Bytes cached in free blocks on the current device."""
        return self._locked(lambda d: d.total - d.used)

    def n_free_blocks(self) -> int:
        return self._locked(lambda d: d.n_free_blocks())

    def peak_bytes(self) -> int:
        """Highest `used_bytes` since the pool was created or `reset_peak` was called."""
        return self._locked(lambda d: d.peak)

    def reset_peak(self) -> None:
        def reset(d):
            d.peak = d.used

        self._locked(reset)

    def free_all_blocks(self, stream=None) -> None:
        """Give every fully free segment back to the driver (only those whose free blocks all belong
        to `stream`, if given). Blocks inside segments that still hold live blocks stay cached.
        Library workspaces kept between calls (cuBLAS's, per stream) are dropped first, so they go
        back too."""
        stream_ptr = None if stream is None else stream.ptr
        if stream_ptr == 2:
            stream_ptr = _ptds_pool_key()
        release_library_memory(_get_device_id(), stream_ptr)
        self._locked(lambda d: d.release_free_segments(stream_ptr))

    def set_limit(self, size: int | None = None, fraction: float | None = None) -> None:
        """Cap the bytes this pool reserves on the current device. See `cupy.cuda.MemoryPool.set_limit`.

        `fraction` is of the device's total memory; no argument (or 0) removes the limit. Memory
        already reserved above a new limit is not given back until it is free.
        """
        dev = _get_device_id()
        limit = _limit_bytes(size, fraction, lambda: self._backing.device_total(dev))

        def set_(d):
            d.limit = limit

        self._locked(set_, dev)

    def get_limit(self) -> int:
        return self._locked(lambda d: d.limit)

    def _info(self, device_id: int) -> dict:
        def info(d):
            return {"live": d.used, "cached": d.total - d.used, "reserved": d.total, "peak": d.peak, "limit": d.limit}

        return self._locked(info, device_id)


def _native_slow(bins, rsize: int, code: int) -> int:
    """The C core's allocation under the pool's lock (Bins.alloc calls it, its bookkeeping done):
    after another slow path held the pool (-2), or adding a segment when no block fits (-1).
    Holding the core queues frees that come meanwhile (a garbage collection while the backing
    allocates, another thread): they are merged at unhold."""
    dpool = bins.dev.owner()
    core = dpool.core
    with dpool.lock:
        core.hold()
        try:
            if code == -2:
                code = bins.take_held(rsize)
            if code == -1:
                dpool.grow(rsize, bins)
                code = bins.fit(rsize)
        finally:
            core.unhold()
    return code


if _core_module is not None:
    _core_module.configure(MemoryPointer, _native_slow)
    _core_module.configure_malloc(SMALL_LIMIT)  # (the thread's stream: configured by stream.py)
    _MemoryType.virtual = (_core_module.Block,)  # isinstance(block, BaseMemory), as _PooledMemory


# ---------------------------------------------------------------------------------------------
# The current allocator
# ---------------------------------------------------------------------------------------------
def malloc(size: int) -> MemoryPointer:
    """Plain cuMemAlloc, no pooling: the allocator `set_allocator(None)` installs."""
    return MemoryPointer(Memory(size), 0)


# Which pool `alloc` starts with. Our MemoryPool is the default: best-fit segments with per-stream
# free lists, malloc+free in about 1 us of Python with no driver call once warm. The driver's
# cudaMallocAsync pool costs ~1.6 us per alloc+free through cuda.core, frees in stream order (safer
# for arrays used on several streams) and its reserve is driver-managed. The pool-churn benchmark
# decides; switch this to True if MallocAsyncMemoryPool wins there.
USE_MALLOC_ASYNC = False

_default_pool = MallocAsyncMemoryPool() if USE_MALLOC_ASYNC else MemoryPool()
_chosen = _default_pool.malloc  # what set_allocator chose
# what alloc calls: _chosen (its C form, `_fast_form`, set below), or a per-thread look-up while a thread has its own
_allocator = _chosen


class _ThreadAllocator(threading.local):
    allocator = None  # this thread's own allocator (a CUDA graph capture's pool), or None


_thread_allocator = _ThreadAllocator()
_threads_with_own = [0]  # how many threads have one: while any do, `alloc` looks per thread
_allocator_lock = threading.Lock()


def use_thread_allocator(allocator):
    """Make `allocator` serve the calling thread's allocations only (None: the process's again);
    returns this thread's previous one. A CUDA graph capture uses it (cuda/graph.py): other threads'
    arrays must not come from the capture's private pool. Until some thread has one, `alloc` reads
    no thread-local state (the per-thread look-up is installed only meanwhile)."""
    with _allocator_lock:
        prev = _thread_allocator.allocator
        _thread_allocator.allocator = allocator
        _threads_with_own[0] += (allocator is not None) - (prev is not None)
        _refresh_allocator()
    return prev


def _refresh_allocator() -> None:
    global _allocator
    base = _chosen
    if not _threads_with_own[0]:
        _allocator = _fast_form(base)
        return

    def per_thread(size: int, _base=base, _tls=_thread_allocator) -> MemoryPointer:
        own = _tls.allocator
        return (_base if own is None else own)(size)

    _allocator = per_thread


def _fast_form(allocator):
    """What `alloc` calls for `allocator`: for a MemoryPool's own `malloc` with the C core while no
    memory hooks are installed, that method's common case in C (`_poolcore.malloc_function`,
    cuda/_native/pool_malloc.c: the same blocks, ~3k instructions less an allocation); else
    `allocator` itself."""
    pool = getattr(allocator, "__self__", None)
    if (_hooks is None and type(pool) is MemoryPool and getattr(allocator, "__func__", None) is MemoryPool.malloc
            and pool._native is not None):
        made = _fast_made
        if made[0] != allocator:  # (one C form a pool's malloc: `_allocator` stays the same object)
            made = (allocator, pool._native.malloc_function(pool._tables, allocator))
            _fast_made[:] = made
        return made[1]
    _fast_made[:] = [None, None]  # (the last pool is not kept alive here once another allocator serves)
    return allocator


_fast_made = [None, None]  # the allocator `_allocator`'s C form was made for, and that form


_allocator = _fast_form(_chosen)


def alloc(size: int) -> MemoryPointer:
    """Allocate `size` bytes on the current device with the current allocator. See `cupy.cuda.alloc`."""
    try:
        return _allocator(size)
    except _backend.NoDeviceError as exc:
        # Usually a new user's first GPU call on a machine without one: the frames between here and
        # the driver (the pool's slow path, the device lookup) say nothing to them, so the report
        # shows their call, the allocation and the one line. The loader's error stays __context__.
        raise exc.with_traceback(None)


def set_allocator(allocator=None) -> None:
    """Make `allocator` (a callable ``size -> MemoryPointer``) serve `alloc`. See `cupy.cuda.set_allocator`.

    `None` means plain cuMemAlloc/cuMemFree with no pooling. Process-wide, not per thread.
    """
    global _chosen
    _chosen = malloc if allocator is None else allocator
    _refresh_allocator()


def _select(prev, new) -> None:
    """The backend seam (`backend.on_select`): `new.allocator` serves `alloc` while it is selected."""
    new.swap(prev, "allocator", _chosen, set_allocator)


_seam.on_select(_select)


def get_allocator():
    """The callable `alloc` uses now in this thread (this thread's own, else the one
    `set_allocator` chose)."""
    own = _thread_allocator.allocator
    return _chosen if own is None else own


def get_default_memory_pool():
    """The pool `alloc` uses by default. See `cupy.get_default_memory_pool`."""
    return _default_pool


def memory_info(device_id: int | None = None) -> dict:
    """Byte counts of the current pool on `device_id` (default: the current device), in one call.

    ``live``: in arrays; ``cached``: free but held by the pool for reuse (not a leak);
    ``reserved``: live + cached, what the driver sees as used; ``peak``: highest ``live`` since
    the last `reset_peak`; ``limit``: the pool's limit (0 = none). With `set_allocator(None)` or a
    foreign allocator, the default pool's numbers are reported.
    """
    pool = getattr(_chosen, "__self__", None)
    if not isinstance(pool, (MemoryPool, MallocAsyncMemoryPool)):
        pool = _default_pool
    return pool._info(_get_device_id() if device_id is None else device_id)


def pointer_device(ptr: int) -> int | None:
    """The device ordinal of the memory at `ptr` (any allocation the driver knows: ours, another
    library's, managed), or None when the driver cannot say (host memory, no driver)."""
    try:
        drv = _backend.driver()
        attr = drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        return int(_backend.check(drv.cuPointerGetAttribute(attr, ptr)))
    except Exception:
        return None


@contextlib.contextmanager
def using_allocator(allocator=None):
    """`allocator` serves the calling thread's allocations inside the ``with`` block (None: plain
    cuMemAlloc), as CuPy's `cupy.cuda.using_allocator`: other threads keep theirs. Through
    `use_thread_allocator`, so `alloc` reads thread-local state only while some thread has one."""
    previous = use_thread_allocator(malloc if allocator is None else allocator)
    try:
        yield
    finally:
        use_thread_allocator(previous)
