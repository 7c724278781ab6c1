"""The runtime half of `cuarray.profile`: what happened, with CUDA-event GPU times.

`Recorder.start()` swaps in timed versions of the runtime's seams, `stop()` swaps the plain ones
back, synchronises and returns the records. Nothing here runs while no recorder is started:
  kernel launches   `launch.set_launch_hook` (two events per launch, on the launch's stream)
  transfers         `MemoryPointer.copy_{from_host,to_host,from_device}_async` (events, bytes,
                    pinned or pageable)
  synchronisations  `_sync_hooks` (with the cuarray function that asked for it: get, item, ...)
  pool misses       memory.py's `_segment_malloc` (a segment from the driver)
  compiles          `compiler.compile_module` (process cache, disk cache, or NVRTC)
  cuBLAS             `libs.cublas.gemm`/`gemv` (matmul, dot, ...: events around the library call)
cuFFT and cuSOLVER calls pass none of these seams: their kernels are not recorded.
"""

from __future__ import annotations

import sys
import time

from . import _backend
from . import _sync_hooks
from . import compiler as _compiler
from . import device as _device
from . import launch as _launch
from . import memory as _memory
from . import pinned_memory as _pinned
from . import stream as _stream
from ._memory_base import MemoryPointer
from .module import kernel_names

__all__ = ["Recorder"]

KERNEL, TRANSFER, SYNC, ALLOC, COMPILE, LIBRARY = "kernel", "transfer", "sync", "alloc", "compile", "library"
_CHAR_NAMES = {"e": "float16", "f": "float32", "d": "float64", "F": "complex64", "D": "complex128"}

_PACKAGE_DIR = _backend.PACKAGE_DIR
_now = time.perf_counter_ns


class _Events:
    """Reusable timing events (cuEventCreate is ~2 us; a profile of 10 000 launches needs 20 000)."""

    def __init__(self):
        self.free: list = []

    def get(self):
        free = self.free
        while True:  # list.pop is atomic: threads launching under one profile never share an event
            try:
                return free.pop()
            except IndexError:  # a batch at a time: one driver and context look-up for 64 events
                drv = _backend.driver()
                _device._core_device()
                free.extend(_backend.check(drv.cuEventCreate(0)) for _ in range(64))

    def put(self, events) -> None:
        self.free.extend(events)


_events = _Events()


def _sync_cause() -> str:
    """The outermost cuarray function on the stack: the call that made the host wait."""
    f = sys._getframe(2)
    name = None
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE_DIR):
        name = f.f_code.co_name
        f = f.f_back
    if not name:
        return "synchronize"
    # a method bound from a private function (`ndarray.get = _get`) reads as its public name
    return name if name.startswith("__") else name.lstrip("_")


def _launch_hooks(prev, rec, get, event_record) -> tuple:
    """(launch hook with two events around each launch on its stream, the host-time one)."""
    # cuda.core's Stream.handle costs 1.4 us a call (measured on an H100, scripts/perf/
    # profiler_overhead.py): keep each stream's handle, with the stream so its id stays its own.
    handles: dict = {}

    def launch_hook(raw, stream, config, kernel, args):
        e0 = get()
        e1 = get()
        ent = handles.get(id(stream))
        if ent is None or ent[0] is not stream:
            ent = handles[id(stream)] = (stream, stream.handle)
        h = ent[1]
        t0 = _now()
        event_record(e0, h)
        if prev is None:
            raw(stream, config, kernel, *args)
        else:
            prev(raw, stream, config, kernel, args)
        event_record(e1, h)
        rec((KERNEL, kernel, h, e0, e1, t0, _now(), config))

    def launch_hook_host(raw, stream, config, kernel, args):
        t0 = _now()
        if prev is None:
            raw(stream, config, kernel, *args)
        else:
            prev(raw, stream, config, kernel, args)
        rec((KERNEL, kernel, None, None, None, t0, _now(), config))

    return launch_hook, launch_hook_host


def _timed_copy(name, kind, gpu_time, rec, get, event_record) -> tuple:
    """(MemoryPointer's copy method `name`, a TRANSFER-recording replacement)."""
    orig = getattr(MemoryPointer, name)

    def copy(self, other, size, stream=None):
        if size <= 0:
            return orig(self, other, size, stream)
        s = _stream.get_current_stream() if stream is None else stream
        if kind == "DtoD":
            label = "memcpy DtoD"
        else:
            pinned = isinstance(other, _pinned.PinnedMemoryPointer) or (
                type(other) is int and _pinned.is_pinned(other))
            label = "memcpy {} ({})".format(kind, "pinned" if pinned else "pageable")
        if not gpu_time:
            t0 = _now()
            orig(self, other, size, s)
            rec((TRANSFER, label, None, None, None, t0, _now(), size))
            return
        e0 = get()
        e1 = get()
        t0 = _now()
        event_record(e0, s.ptr)
        orig(self, other, size, s)
        event_record(e1, s.ptr)
        rec((TRANSFER, label, s.ptr, e0, e1, t0, _now(), size))

    return orig, copy


def _timed_blas(cublas, fname, gpu_time, rec, get, event_record) -> tuple:
    """(cuBLAS wrapper `fname`, a LIBRARY-recording replacement)."""
    orig = getattr(cublas, fname)

    def call(char, *a, **kw):
        s = _stream.get_current_stream()
        label = "cublas {} ({})".format(fname, _CHAR_NAMES.get(char, char))
        if not gpu_time:
            t0 = _now()
            out = orig(char, *a, **kw)
            if out is not False:  # gemv returns False when it declines (nothing ran)
                rec((LIBRARY, label, None, None, None, t0, _now(), None))
            return out
        e0 = get()
        e1 = get()
        t0 = _now()
        event_record(e0, s.ptr)
        out = orig(char, *a, **kw)
        event_record(e1, s.ptr)
        if out is False:
            _events.put((e0, e1))
        else:
            rec((LIBRARY, label, s.ptr, e0, e1, t0, _now(), None))
        return out

    return orig, call


def _segment_seam(rec) -> tuple:
    """(memory's plain segment allocation, one that records each pool miss)."""
    plain_segment = _memory._segment_malloc

    def segment_malloc(backing, size, device_id):
        t0 = _now()
        ptr = plain_segment(backing, size, device_id)
        rec((ALLOC, "cuMemAlloc (pool miss)", None, None, None, t0, _now(), size))
        return ptr

    return plain_segment, segment_malloc


class Recorder:
    """Records launches, transfers, syncs, pool misses and compiles between `start` and `stop`.

    `nvtx=True` also puts each launch in an NVTX range (needs the `nvtx` package).
    `gpu_time=False` records no events: calls, host times and bytes only. Two events per launch
    cost the host a few microseconds (measured: docs/profiling.md), which matters for tiny ops.
    """

    def __init__(self, nvtx: bool = False, gpu_time: bool = True):
        self.nvtx = nvtx
        self.gpu_time = gpu_time
        self.records: list = []
        self._saved = None
        self._ref = None
        self.t_start = self.t_stop = 0
        self._nvrtc = 0

    # -- start / stop ------------------------------------------------------------------------
    def start(self) -> "Recorder":
        if self._saved is not None:
            raise RuntimeError("this profiler is already recording")
        drv = _backend.driver()
        gpu_time = self.gpu_time
        rec = self.records.append
        get = _events.get
        event_record = drv.cuEventRecord
        prev = _launch.get_launch_hook()
        if self.nvtx:
            from . import nvtx

            prev = nvtx.launch_hook(prev)
        launch_hook, launch_hook_host = _launch_hooks(prev, rec, get, event_record)

        # -- synchronisations
        def on_sync():
            rec((SYNC, "synchronize ({})".format(_sync_cause()), None, None, None, _now(), _now(), None))

        plain_segment, segment_malloc = _segment_seam(rec)
        plain_compile, plain_cubin, compile_module, compile_cubin = self._compile_seams(rec)
        self._ref = get()
        cs = _stream.get_current_stream()
        self._ref_stream = cs.ptr
        self.t_start = _now()
        _backend.check(event_record(self._ref, cs.ptr))
        saved_copies = {}
        self._saved = (prev, plain_segment, plain_compile, plain_cubin, saved_copies, on_sync)
        for name, kind in (("copy_from_host_async", "HtoD"), ("copy_to_host_async", "DtoH"),
                           ("copy_from_device_async", "DtoD")):
            saved_copies[name], copy = _timed_copy(name, kind, gpu_time, rec, get, event_record)
            setattr(MemoryPointer, name, copy)
        # cuBLAS: gemm and gemv are module functions the routines look up at each call
        from .libs import cublas as _cublas

        saved_blas = {}
        for fname in ("gemm", "gemv"):
            saved_blas[fname], call = _timed_blas(_cublas, fname, gpu_time, rec, get, event_record)
            setattr(_cublas, fname, call)
        self._saved_blas = (_cublas, saved_blas)
        _sync_hooks.register(on_sync)
        _memory._segment_malloc = segment_malloc
        _compiler.compile_module = compile_module
        _compiler.compile_cubin = compile_cubin
        self._prev_hook = _launch.set_launch_hook(launch_hook if gpu_time else launch_hook_host)
        return self

    def _compile_seams(self, rec) -> tuple:
        """(plain compile_module, plain compile_cubin, and the two timed ones): a COMPILE record a
        module, saying whether it came from memory, the disk cache or NVRTC."""
        plain_compile = _compiler.compile_module
        plain_cubin = _compiler.compile_cubin

        def compile_cubin(*a, **kw):
            self._nvrtc += 1
            return plain_cubin(*a, **kw)

        def compile_module(source, **kw):
            n, nv = len(_compiler._modules), self._nvrtc
            t0 = _now()
            mod = plain_compile(source, **kw)
            t1 = _now()
            where = "cached" if len(_compiler._modules) == n else ("nvrtc" if self._nvrtc > nv else "disk cache")
            rec((COMPILE, "compile {} [{}]".format(kw.get("name") or "kernel", where), None, None, None, t0, t1, None))
            return mod

        return plain_compile, plain_cubin, compile_module, compile_cubin

    def stop(self) -> list:
        """Swap the plain seams back, wait for the device, and return the records as dicts."""
        if self._saved is None:
            raise RuntimeError("this profiler is not recording")
        _, plain_segment, plain_compile, plain_cubin, saved_copies, on_sync = self._saved
        self.t_stop = _now()
        _launch.set_launch_hook(self._prev_hook)
        _sync_hooks.unregister(on_sync)
        _memory._segment_malloc = plain_segment
        _compiler.compile_module = plain_compile
        _compiler.compile_cubin = plain_cubin
        for name, orig in saved_copies.items():
            setattr(MemoryPointer, name, orig)
        mod, saved_blas = self._saved_blas
        for name, orig in saved_blas.items():
            setattr(mod, name, orig)
        self._saved = None
        _device.synchronize()
        return self._resolve()

    # -- event times -------------------------------------------------------------------------
    def _resolve(self) -> list:
        drv = _backend.driver()
        elapsed = drv.cuEventElapsedTime
        ref = self._ref
        out = []
        used = [ref]
        t_start = self.t_start
        for kind, what, stream, e0, e1, t0, t1, extra in self.records:
            r = {"kind": kind, "host_start_us": (t0 - t_start) / 1e3, "host_end_us": (t1 - t_start) / 1e3}
            if kind == KERNEL:
                r["name"] = kernel_names.get(what, "kernel")
                r["grid"], r["block"] = _dims(extra)
            else:
                r["name"] = what
            if e0 is not None:
                used += (e0, e1)
                r["stream"] = int(stream)
                r["gpu_start_us"] = _backend.check(elapsed(ref, e0)) * 1e3
                r["gpu_us"] = _backend.check(elapsed(e0, e1)) * 1e3
            if kind in (TRANSFER, ALLOC):
                r["bytes"] = extra
            out.append(r)
        _events.put(used)
        self.records = []
        self.ref_stream = self._ref_stream
        return out


def _dims(config):
    try:
        return tuple(config.grid), tuple(config.block)
    except Exception:  # a config object of another cuda.core version: the row only loses its shape
        return None, None
