"""The runtime half of `cuarray.profile`: what happened, with CUDA-event GPU times.

`Recorder.start()` registers at the runtime's seams (nothing is swapped), `stop()` unregisters,
synchronises and returns the records. Nothing here runs while no recorder is started:
  kernel launches   `launch.set_launch_hook` (two events per launch, on the launch's stream)
  transfers         the observer (`_observe`) of `MemoryPointer.copy_{from_host,to_host,
                    from_device}_async` (events, bytes, pinned or pageable)
  synchronisations  `_sync_hooks` (with the cuarray function that asked for it: get, item, ...)
  pool misses       the observer of memory.py's `_segment_malloc` (a segment from the driver)
  compiles          the observer of `compiler.compile_module` (process cache, disk cache, or NVRTC)
  cuBLAS             the observer of `libs.cublas.gemm`/`gemv` (events around the library call)
cuFFT and cuSOLVER calls pass none of these seams: their kernels are not recorded.
"""

from __future__ import annotations

import functools
import sys
import time

from . import _backend, nvtx
from . import _observe
from . import _sync_hooks
from . import compiler as _compiler
from . import device as _device
from . import launch as _launch
from . import pinned_memory as _pinned
from . import stream as _stream
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


class _Observer:
    """The recorder's observer (`_observe`): copies, cuBLAS calls, pool misses and compiles timed
    and recorded, each made through the observer it nests over (`prev`), if any."""

    __slots__ = ("recorder", "gpu_time", "rec", "get", "event_record", "prev")

    def __init__(self, recorder, gpu_time, rec, get, event_record):
        self.recorder = recorder
        self.gpu_time = gpu_time
        self.rec = rec
        self.get = get
        self.event_record = event_record
        self.prev = None

    def _timed(self, kind, label, stream_ptr, extra, call, *args):
        """`call(*args)` with two events around it on `stream_ptr` (host time only without
        gpu_time, or when stream_ptr is None); the record's result is dropped when the call
        returns False (gemv declining: nothing ran)."""
        if not self.gpu_time:
            t0 = _now()
            out = call(*args)
            if out is not False:
                self.rec((kind, label, None, None, None, t0, _now(), extra))
            return out
        e0 = self.get()
        e1 = self.get()
        t0 = _now()
        self.event_record(e0, stream_ptr)
        out = call(*args)
        self.event_record(e1, stream_ptr)
        if out is False:
            _events.put((e0, e1))
        else:
            self.rec((kind, label, stream_ptr, e0, e1, t0, _now(), extra))
        return out

    def copy(self, kind, call, dst, other, size, stream):
        prev = self.prev
        if prev is not None:
            call = functools.partial(prev.copy, kind, call)
        if size <= 0:
            return call(dst, other, size, stream)
        s = _stream.get_current_stream() if stream is None else stream
        if kind == "DtoD":
            label = "memcpy DtoD"
        else:
            pinned = isinstance(other, _pinned.PinnedMemoryPointer) or (
                type(other) is int and _pinned.is_pinned(other))
            label = "memcpy {} ({})".format(kind, "pinned" if pinned else "pageable")
        self._timed(TRANSFER, label, s.ptr, size, call, dst, other, size, s)

    def library(self, name, char, call, args, kwargs):
        prev = self.prev
        if prev is not None:
            inner = call
            call = lambda *a, **kw: prev.library(name, char, inner, a, kw)  # noqa: E731
        label = "cublas {} ({})".format(name, _CHAR_NAMES.get(char, char))
        s = _stream.get_current_stream()
        return self._timed(LIBRARY, label, s.ptr, None, functools.partial(call, **kwargs), *args)

    def segment(self, call, backing, size, device_id):
        prev = self.prev
        t0 = _now()
        ptr = call(backing, size, device_id) if prev is None else prev.segment(call, backing, size, device_id)
        self.rec((ALLOC, "cuMemAlloc (pool miss)", None, None, None, t0, _now(), size))
        return ptr

    def nvrtc(self):
        self.recorder._nvrtc += 1
        if self.prev is not None:
            self.prev.nvrtc()

    def compile(self, call, source, kwargs):
        recorder, prev = self.recorder, self.prev
        n, nv = len(_compiler._modules), recorder._nvrtc
        t0 = _now()
        mod = call(source, **kwargs) if prev is None else prev.compile(call, source, kwargs)
        t1 = _now()
        where = "cached" if len(_compiler._modules) == n else ("nvrtc" if recorder._nvrtc > nv else "disk cache")
        self.rec((COMPILE, "compile {} [{}]".format(kwargs.get("name") or "kernel", where), None, None, None, t0, t1,
                  None))
        return mod


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
            prev = nvtx.launch_hook(prev)
        launch_hook, launch_hook_host = _launch_hooks(prev, rec, get, event_record)

        # -- synchronisations
        def on_sync():
            rec((SYNC, "synchronize ({})".format(_sync_cause()), None, None, None, _now(), _now(), None))

        obs = _Observer(self, gpu_time, rec, get, event_record)
        self._ref = get()
        cs = _stream.get_current_stream()
        self._ref_stream = cs.ptr
        self.t_start = _now()
        _backend.check(event_record(self._ref, cs.ptr))
        self._saved = (prev, obs, on_sync)
        obs.prev = _observe.set_observer(obs)
        _sync_hooks.register(on_sync)
        self._prev_hook = _launch.set_launch_hook(launch_hook if gpu_time else launch_hook_host)
        return self

    def stop(self) -> list:
        """Unregister the hooks and the observer, wait for the device, and return the records as dicts."""
        if self._saved is None:
            raise RuntimeError("this profiler is not recording")
        _, obs, on_sync = self._saved
        self.t_stop = _now()
        _launch.set_launch_hook(self._prev_hook)
        _sync_hooks.unregister(on_sync)
        _observe.set_observer(obs.prev)
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
