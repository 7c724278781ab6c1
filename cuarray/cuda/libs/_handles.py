"""One library handle per (device, thread), created lazily, destroyed at exit.

`PerThreadHandle(create, destroy)` gives `get()`: the calling thread's handle for its current
device, created on first use with that device current. Callers bind the handle to the current
stream on every call (`set_stream(h, stream.ptr)`), so a handle works on any stream.
"""

from __future__ import annotations

import atexit
import threading

from .. import device as _device

__all__ = ["PerThreadHandle", "nvmath_bindings"]


def nvmath_bindings(name: str):
    """`nvmath.bindings.<name>`, imported on first use, with an ImportError that says what to install."""
    import importlib

    try:
        return importlib.import_module("nvmath.bindings." + name)
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(
            "this operation needs nvmath-python (pip install 'cuarray[cu13]' or pip install nvmath-python): "
            "{}".format(e)) from e


class PerThreadHandle:
    """A handle per (device, thread): `get()` creates it with `create()` on first use."""

    def __init__(self, create, destroy):
        self._create = create
        self._destroy = destroy
        self._tls = threading.local()
        self._all: list = []          # every handle made, for teardown at exit
        self._lock = threading.Lock()
        atexit.register(self.destroy_all)

    def get(self):
        d = self._tls.__dict__
        dev = _device.get_device_id()
        h = d.get(dev)
        if h is None:
            _device._core_device(dev)  # the device's context is current in this thread
            h = d[dev] = self._create()
            with self._lock:
                self._all.append(h)
        return h

    def destroy_all(self) -> None:
        with self._lock:
            handles, self._all = self._all, []
        for h in handles:
            try:
                self._destroy(h)
            except Exception:  # the driver may already be shutting down at exit
                pass
