"""Several GPUs in one process with Dask's threaded scheduler: `DeviceScheduler`.

Dask's threaded scheduler (`dask.threaded.get`) runs tasks in a pool of threads, any task in any
thread. cuarray's current device is per thread and an operation refuses an operand of another
device (no silent copies). The scheduler here is Dask's threaded one over a pool whose threads each
have a home device, `threads_per_device` per device, plus one step before each task, in the thread
that runs it (get_async's worker-side `loads`):

- the task runs on the device that holds most of its cuarray inputs' bytes, its thread's home
  device when it has none (creation tasks: chunks are made spread over the devices as the pool's
  threads take them), so a chunk stays on the device where it was made and its elementwise
  successors run there; arrays written into the task itself (the chunks of `da.from_array` of a
  cuarray array) cannot move, so a task holding one runs on its device;
- an input on another device is copied to that device first, peer to peer (cuarray's copy between
  devices: one cuMemcpyAsync ordered by events on both devices' streams, no host wait; the driver
  goes through the host only where the hardware has no peer path).

Each thread works on its device's current stream (the legacy default stream unless the process
chose per-thread default streams): the threads of one device share it, which orders a task after
the tasks that made its inputs on that device, whichever threads ran them; no task synchronises
the host.

``dask.compute(x, scheduler=DeviceScheduler([0, 1]))``, or ``dask.config.set(scheduler=...)``.
"""

from __future__ import annotations

import itertools
import threading

from .._core.copying import from_other_device
from .._core.ndarray import ndarray
from ..cuda import device as _device

__all__ = ["DeviceScheduler", "choose_device", "place_task"]


class _Worker(threading.local):
    home = None  # the device of this pool thread (None: not a pool thread)


_worker = _Worker()


def _device_bytes(value, out: dict) -> None:
    """Add the bytes of every cuarray array in `value` (nested in lists, tuples and dicts: the
    partial results of Dask's reductions) to `out[device]`."""
    t = type(value)
    if isinstance(value, ndarray):
        dev = value.data.device_id
        out[dev] = out.get(dev, 0) + value.nbytes
    elif t is list or t is tuple:
        for v in value:
            _device_bytes(v, out)
    elif t is dict:
        for v in value.values():
            _device_bytes(v, out)


def _moved(value, target: int):
    """`value` with its cuarray arrays of devices other than `target` copied to `target` (the
    current device)."""
    t = type(value)
    if isinstance(value, ndarray):
        if value.data.device_id == target:
            return value
        if value._size == 0:  # nothing to copy: a zero-size array touches no device
            return ndarray(value._shape, value._dtype)
        return from_other_device(value)
    if t is list or t is tuple:
        return t(_moved(v, target) for v in value)
    if t is dict:
        return {k: _moved(v, target) for k, v in value.items()}
    return value


def _embedded_bytes(task, out: dict) -> None:
    """Add the bytes of the cuarray arrays written into the task itself (not inputs: literals such
    as the chunks of `da.from_array` of a cuarray array, which Dask's fusion puts inside the task
    that reads them) to `out[device]`. Dask's task objects (dask._task_spec) are read through
    their fields: a DataNode's `value`, a Task's `args` and `kwargs` (a fused task's inner graph
    is its first argument)."""
    stack = [task]
    while stack:
        v = stack.pop()
        t = type(v)
        if isinstance(v, ndarray):
            dev = v.data.device_id
            out[dev] = out.get(dev, 0) + v.nbytes
        elif t is list or t is tuple:
            stack.extend(v)
        elif t is dict:
            stack.extend(v.values())
        elif t.__module__ == "dask._task_spec":
            if hasattr(v, "value"):
                stack.append(v.value)
            stack.extend(getattr(v, "args", ()))
            stack.extend(getattr(v, "kwargs", {}).values())


def choose_device(held: dict, home: int, embedded=None) -> int:
    """The device a task runs on, from `held` (device -> bytes of its cuarray inputs there) and
    `embedded` (the same for arrays written into the task, which cannot be moved): the device of
    the most embedded bytes if any, else the one holding most input bytes (ties: `home` if among
    them, else the lowest ordinal); `home` for none."""
    counts = embedded or held
    if not counts:
        return home
    return max(counts, key=lambda d: (counts[d], d == home, -d))


def place_task(task_info):
    """Get_async's worker-side `loads`: in a pool thread, (task, inputs) with the thread's current
    device set to `choose_device` and the inputs of other devices copied there; anything else (a
    result or an exception read back by the scheduling thread) unchanged."""
    home = _worker.home
    if home is None or type(task_info) is not tuple or len(task_info) != 2 or type(task_info[1]) is not dict:
        return task_info
    task, data = task_info
    held: dict = {}
    embedded: dict = {}
    _device_bytes(data, held)
    _embedded_bytes(task, embedded)
    target = choose_device(held, home, embedded)
    if _device.get_device_id() != target:
        _device.Device(target).use()
    if any(d != target for d in held):
        data = {k: _moved(v, target) for k, v in data.items()}
    return task, data


def _identity(x):
    return x


class DeviceScheduler:
    """A Dask scheduler for several GPUs of one process (see the module's docstring). `devices`:
    ordinals (default: every visible device); `threads_per_device`: pool threads per device.
    Call `close()` (or use it as a context manager) to stop its threads."""

    def __init__(self, devices=None, threads_per_device: int = 1):
        from dask.threaded import ContextAwareThreadPoolExecutor  # optional dependency: Dask

        if devices is None:
            devices = range(_device.get_device_count())
        self.devices = tuple(int(d) for d in devices)
        if not self.devices:
            raise ValueError("DeviceScheduler needs at least one device")
        if threads_per_device < 1:
            raise ValueError("threads_per_device must be >= 1, got {}".format(threads_per_device))
        homes = itertools.cycle(self.devices)
        lock = threading.Lock()

        def start():
            with lock:
                home = next(homes)
            _worker.home = home
            _device.Device(home).use()

        self._pool = ContextAwareThreadPoolExecutor(len(self.devices) * threads_per_device, initializer=start,
                                                    thread_name_prefix="cuarray-device")

    def __call__(self, dsk, keys, **kwargs):
        from dask.threaded import get  # optional dependency: Dask

        kwargs.pop("pool", None)
        return get(dsk, keys, pool=self._pool, loads=place_task, dumps=_identity, **kwargs)

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    def __enter__(self) -> "DeviceScheduler":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
