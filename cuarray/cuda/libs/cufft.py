"""cuFFT plans: creation, a per-(device, thread) LRU cache, and execution on the current stream.

The only importer of `nvmath.bindings.cufft` (imported on the first plan, never at `import cuarray`).

A plan is keyed by cuFFT's advanced-layout arguments `(rank, n, inembed, istride, idist, onembed,
ostride, odist, type, batch)` (embeds are None for cuFFT's basic layout). Plans are made with
`set_auto_allocation(0)`: cuFFT allocates no work area of its own; `execute` takes one from our
memory pool on the current stream for each call, so a plan works on any stream (the pool hands a
freed block only to later allocations on the same stream: stream order keeps it safe) and cached
plans hold no idle workspace.

cuFFT plans must not be used by two threads at once (cuFFT docs: thread safety), so each thread has
its own cache per device, as CuPy does. A cache has a size limit (plans) and a memory limit (the
sum of the work-area sizes its plans ask for, CuPy's "memsize"; -1: none); the least recently used
plans are destroyed first.
"""

from __future__ import annotations

import collections
import threading

from .. import caches as _caches
from .. import device as _device
from .. import memory as _memory
from .. import stream as _stream
from ._handles import nvmath_bindings

__all__ = ["CuFFTError", "Plan", "PlanCache", "get_plan_cache", "get_plan", "execute",
           "C2C", "R2C", "C2R", "Z2Z", "D2Z", "Z2D", "FORWARD", "INVERSE"]

# cufftType values (cufft.h); kept here so planning needs no import of nvmath.
C2C, R2C, C2R, Z2Z, D2Z, Z2D = 0x29, 0x2A, 0x2C, 0x69, 0x6A, 0x6C
FORWARD, INVERSE = -1, 1
TYPE_NAMES = {C2C: "C2C", R2C: "R2C", C2R: "C2R", Z2Z: "Z2Z", D2Z: "D2Z", Z2D: "Z2D"}

DEFAULT_SIZE = 16
DEFAULT_MEMSIZE = -1

_lib = None


def _cufft():
    global _lib
    if _lib is None:
        _lib = nvmath_bindings("cufft")
    return _lib


class CuFFTError(RuntimeError):
    """A cuFFT call failed; the message names the call, the plan and the status."""

    def __init__(self, what: str, key, status):
        self.status = status
        super().__init__("cuFFT {} failed for plan {}: {}".format(what, describe(key), status))


def describe(key) -> str:
    """A readable plan key: type, sizes, batch and layout."""
    rank, n, inembed, istride, idist, onembed, ostride, odist, typ, batch = key
    return "{} n={} batch={} in(embed={}, stride={}, dist={}) out(embed={}, stride={}, dist={})".format(
        TYPE_NAMES.get(typ, typ), list(n), batch, inembed, istride, idist, onembed, ostride, odist)


class Plan:
    """One cuFFT plan (`handle`, an int) and the work-area bytes it needs."""

    __slots__ = ("key", "handle", "work_size", "stream_ptr", "exec_fn", "device_id", "transient")

    def __init__(self, key, device_id: int):
        lib = _cufft()
        rank, n, inembed, istride, idist, onembed, ostride, odist, typ, batch = key
        self.key = key
        self.device_id = device_id
        self.stream_ptr = None
        self.transient = False
        self.handle = lib.create()
        try:
            lib.set_auto_allocation(self.handle, 0)
            self.work_size = lib.make_plan_many64(
                self.handle, rank, list(n), 0 if inembed is None else list(inembed), istride, idist,
                0 if onembed is None else list(onembed), ostride, odist, typ, batch)
        except lib.cuFFTError as e:
            lib.destroy(self.handle)
            self.handle = None
            raise CuFFTError("plan creation", key, _status_name(e)) from e
        except BaseException:
            lib.destroy(self.handle)
            self.handle = None
            raise
        self.exec_fn = {C2C: lib.exec_c2c, Z2Z: lib.exec_z2z, R2C: lib.exec_r2c, D2Z: lib.exec_d2z,
                        C2R: lib.exec_c2r, Z2D: lib.exec_z2d}[typ]

    def destroy(self) -> None:
        h, self.handle = self.handle, None
        if h is not None:
            try:
                _cufft().destroy(h)
            except Exception:  # the driver may be shutting down at exit
                pass

    def __repr__(self) -> str:
        return "<cuFFT plan {} work={} B>".format(describe(self.key), self.work_size)


def _status_name(e) -> str:
    status = getattr(e, "status", None)
    try:
        return "{} ({})".format(_cufft().Result(status).name, status)
    except Exception:
        return str(e)


class PlanCache:
    """An LRU cache of plans for one (device, thread). See `cupy.fft._cache.PlanCache`."""

    def __init__(self, device_id: int, size: int = DEFAULT_SIZE, memsize: int = DEFAULT_MEMSIZE):
        self.device_id = device_id
        self._plans: collections.OrderedDict = collections.OrderedDict()
        self._size = size
        self._memsize = memsize
        self._curr_memsize = 0
        self.hits = 0
        self.misses = 0

    # -- limits (CuPy's names) -----------------------------------------------------------
    def get_size(self) -> int:
        return self._size

    def set_size(self, size: int) -> None:
        size = int(size)
        if size < -1:
            raise ValueError("the plan cache size must be >= -1 (-1: no limit), got {}".format(size))
        self._size = size
        self._evict()

    def get_memsize(self) -> int:
        return self._memsize

    def set_memsize(self, memsize: int) -> None:
        memsize = int(memsize)
        if memsize < -1:
            raise ValueError("the plan cache memory limit must be >= -1 (-1: no limit), got {}".format(memsize))
        self._memsize = memsize
        self._evict()

    def get_curr_size(self) -> int:
        return len(self._plans)

    def get_curr_memsize(self) -> int:
        return self._curr_memsize

    def clear(self) -> None:
        plans, self._plans = self._plans, collections.OrderedDict()
        self._curr_memsize = 0
        for p in plans.values():
            p.destroy()

    def __del__(self):
        # The owning thread ended (caches live in a threading.local) or the process exits.
        try:
            self.clear()
        except Exception:
            pass

    def show_info(self) -> None:
        print("------------------- cuFFT plan cache (device {}, thread {}) -------------------".format(
            self.device_id, threading.current_thread().name))
        print("cache enabled? {}".format(self._size != 0))
        print("current / max size   : {} / {} (counts)".format(len(self._plans), _limit(self._size)))
        print("current / max memsize: {} / {} (bytes of work area)".format(self._curr_memsize, _limit(self._memsize)))
        print("hits / misses: {} / {}".format(self.hits, self.misses))
        print("cached plans (most recently used last):")
        for p in self._plans.values():
            print("  ", p)

    def __len__(self) -> int:
        return len(self._plans)

    def __contains__(self, key) -> bool:
        return key in self._plans

    # -- look-up ------------------------------------------------------------------------
    def get(self, key) -> Plan:
        """HOT PATH: the plan for `key`, made on a miss."""
        plans = self._plans
        p = plans.get(key)
        if p is not None:
            plans.move_to_end(key)
            self.hits += 1
            return p
        self.misses += 1
        p = Plan(key, self.device_id)
        if self._size == 0 or (self._memsize != -1 and p.work_size > self._memsize):
            p.transient = True  # not cacheable: execute() destroys it after its one use
            return p
        plans[key] = p
        self._curr_memsize += p.work_size
        self._evict()
        return p

    def _evict(self) -> None:
        plans = self._plans
        while plans and ((self._size != -1 and len(plans) > self._size) or
                         (self._memsize != -1 and self._curr_memsize > self._memsize)):
            _, p = plans.popitem(last=False)
            self._curr_memsize -= p.work_size
            p.destroy()


def _limit(v: int) -> str:
    return "unlimited" if v == -1 else str(v)


class _ThreadCaches(threading.local):
    caches = None


_tls = _ThreadCaches()


def _thread_caches() -> list:
    return list((_tls.caches or {}).values())


def _clear_thread_caches() -> None:
    for c in _thread_caches():
        c.clear()


# (plans belong to a thread, as its handle does: the registry sees the calling thread's)
_caches.register("cuFFT plans (calling thread)", count=lambda: sum(len(c) for c in _thread_caches()),
                 clear=_clear_thread_caches, nbytes=lambda: sum(c.get_curr_memsize() for c in _thread_caches()))


def get_plan_cache(device_id: int | None = None) -> PlanCache:
    """The calling thread's plan cache for `device_id` (default: the current device)."""
    caches = _tls.caches
    if caches is None:
        caches = _tls.caches = {}
    if device_id is None:
        device_id = _device.get_device_id()
    c = caches.get(device_id)
    if c is None:
        c = caches[device_id] = PlanCache(device_id)
    return c


def get_plan(key) -> Plan:
    """HOT PATH: the current thread's cached plan for `key` on the current device."""
    caches = _tls.caches
    if caches is not None:
        c = caches.get(_device._tls.device_id)
        if c is not None:
            return c.get(key)
    _device._core_device()  # the device's context is current before cuFFT's first call
    return get_plan_cache().get(key)


def execute(plan: Plan, in_ptr: int, out_ptr: int, direction: int) -> None:
    """HOT PATH: run `plan` on the current stream from `in_ptr` to `out_ptr` (device pointers);
    `direction` is FORWARD/INVERSE for complex-to-complex plans, 0 for the others."""
    lib = _lib
    handle = plan.handle
    s = _stream.get_current_stream().ptr
    try:
        if plan.stream_ptr != s:
            lib.set_stream(handle, s)
            plan.stream_ptr = s
        ws = plan.work_size
        if ws:
            # Held until this function returns: the pool reuses it only on the same stream.
            work = _memory.alloc(ws)
            lib.set_work_area(handle, work.ptr)
        if direction:
            plan.exec_fn(handle, in_ptr, out_ptr, direction)
        else:
            plan.exec_fn(handle, in_ptr, out_ptr)
    except lib.cuFFTError as e:
        raise CuFFTError("execution", plan.key, _status_name(e)) from e
    if plan.transient:
        # Made while caching is off (size 0 or over the memory limit): used once. cufftDestroy
        # frees device memory, which waits for the device, as CuPy's uncached plans rely on.
        plan.destroy()
