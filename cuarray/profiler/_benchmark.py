"""`benchmark`: CPU and GPU time of each call of a function, as `cupyx.profiler.benchmark`.

Each repeat records a CUDA event on every device's current stream before and after the call and
waits for the second, so the GPU time is the device time of that call's work (plus the launch
gaps inside it) and the CPU time is the host time of the call itself. Warm-up calls first
(kernel compilation, pool growth). Times are in seconds, as CuPy's.
"""

from __future__ import annotations

import math
import time

import numpy

from ..cuda import device as _device
from ..cuda import stream as _stream

__all__ = ["benchmark", "PerfCaseResult"]


class PerfCaseResult:
    """The times of one `benchmark` run: `cpu_times` (one per repeat), `gpu_times` (one row per
    device); `print(result)` shows mean +/- std (min / max) in microseconds, as CuPy's."""

    def __init__(self, name: str, ts, devices):
        self.name = name
        self._ts = numpy.array(ts, dtype=numpy.float64).reshape(len(ts), -1)
        self._devices = tuple(devices)

    @property
    def cpu_times(self) -> numpy.ndarray:
        return self._ts[0]

    @property
    def gpu_times(self) -> numpy.ndarray:
        return self._ts[1:]

    @staticmethod
    def _to_str_per_item(device_name: str, t) -> str:
        t_us = t * 1e6
        s = "    {}: {:9.03f} us".format(device_name, t_us.mean() if t.size else math.nan)
        if t.size > 1:
            s += "   +/- {:6.03f} (min: {:9.03f} / max: {:9.03f}) us".format(t_us.std(), t_us.min(), t_us.max())
        return s

    def to_str(self, show_gpu: bool = False) -> str:
        parts = [self._to_str_per_item("CPU", self._ts[0])]
        if show_gpu:
            parts += [self._to_str_per_item("GPU-{}".format(d), self._ts[1 + i])
                      for i, d in enumerate(self._devices)]
        return "{:<20s}:{}".format(self.name, " ".join(parts))

    def __str__(self) -> str:
        return self.to_str(show_gpu=True)

    __repr__ = __str__


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10,  # noqa: B006 (CuPy's)
              max_duration=math.inf, devices=None) -> PerfCaseResult:
    """Time `n_repeat` calls of ``func(*args, **kwargs)`` after `n_warmup` untimed ones, stopping
    early once `max_duration` seconds have passed. See `cupyx.profiler.benchmark` (same arguments,
    errors and result)."""
    if name is None:
        name = getattr(func, "__name__", type(func).__name__)
    if devices is None:
        devices = (_device.get_device_id(),)
    if not callable(func):
        raise ValueError("`func` should be a callable object.")
    if not isinstance(args, tuple):
        raise ValueError("`args` should be of tuple type.")
    if not isinstance(kwargs, dict):
        raise ValueError("`kwargs` should be of dict type.")
    if not isinstance(n_repeat, int):
        raise ValueError("`n_repeat` should be an integer.")
    if not isinstance(name, str):
        raise ValueError("`name` should be a string.")
    if not isinstance(n_warmup, int):
        raise ValueError("`n_warmup` should be an integer.")
    if not isinstance(max_duration, (int, float)):
        raise ValueError("`max_duration` should be given in seconds")
    if not isinstance(devices, tuple):
        raise ValueError("`devices` should be of tuple type")
    return _repeat(func, args, kwargs, n_repeat, name, n_warmup, max_duration, devices)


def _record_all(events, devices, sync=False):
    for ev, dev in zip(events, devices):
        with _device.Device(dev):
            ev.record(_stream.get_current_stream())
    if sync:
        for ev in events:
            ev.synchronize()


def _repeat(func, args, kwargs, n_repeat, name, n_warmup, max_duration, devices):
    starts, ends = [], []
    for dev in devices:
        with _device.Device(dev):
            starts.append(_stream.Event())
            ends.append(_stream.Event())
    for _ in range(n_warmup):
        func(*args, **kwargs)
    _record_all(starts, devices, sync=True)  # the warm-up's work is done before timing starts
    cpu_times, gpu_times = [], [[] for _ in devices]
    duration = 0.0
    for _ in range(n_repeat):
        _record_all(starts, devices)
        t1 = time.perf_counter()
        func(*args, **kwargs)
        t2 = time.perf_counter()
        cpu_times.append(t2 - t1)
        _record_all(ends, devices, sync=True)
        for row, ev1, ev2 in zip(gpu_times, starts, ends):
            row.append(_stream.get_elapsed_time(ev1, ev2) * 1e-3)
        duration += time.perf_counter() - t1
        if duration > max_duration:
            break
    return PerfCaseResult(name, [cpu_times] + gpu_times, devices)
