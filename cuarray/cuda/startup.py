"""`cuarray.cuda.initialize`: pay the start-up of GPU work now, not at the first request.

`import cuarray` touches no CUDA (a process may fork before its first GPU use), so the first
operation pays the driver's initialisation and the primary context, the memory pool's first block,
and, at its first call into a math library, that library's load (a 100-450 MB `dlopen`), its
Python bindings and its handle. A long-lived process (a server, a notebook) that would rather pay
these before its first request calls `initialize` once; the work it does is the work the first
calls would have done, so nothing changes after it but where the time went.
"""

from __future__ import annotations

import time

from . import device as _device
from . import handles as _handles
from . import memory as _memory

__all__ = ["initialize", "LIBRARIES"]

# The math libraries `initialize` can start: each loads its shared objects and Python bindings;
# those with a per-thread handle (cuBLAS, cuSOLVER, cuSPARSE) make the calling thread's too.
LIBRARIES = ("cublas", "cusolver", "cusparse", "cufft")
_WITH_HANDLE = ("cublas", "cusolver", "cusparse")


def initialize(device=None, libraries=()) -> dict:
    """Initialise the driver and `device`'s primary context (default: the current device, which
    becomes current in the calling thread), take the memory pool's first block, and load each of
    `libraries` (names from `LIBRARIES`, or ``"all"``) with its handle for the calling thread.

    Returns the seconds each step took, ``{"context": ..., "memory pool": ..., "shared objects":
    ..., "cublas": ...}`` (a library's own entry: its bindings' import and its handle).
    Other threads make their own library handles on first use (handles are per thread), cheaply
    once the library is loaded. Raises `NoDeviceError` where there is no usable GPU, ValueError for
    an unknown library name."""
    if isinstance(libraries, str):
        libraries = LIBRARIES if libraries == "all" else (libraries,)
    libraries = tuple(libraries)
    unknown = [n for n in libraries if n not in LIBRARIES]
    if unknown:
        raise ValueError("initialize: unknown librar{} {}: choose from {} or 'all'".format(
            "y" if len(unknown) == 1 else "ies", ", ".join(map(repr, unknown)), ", ".join(LIBRARIES)))
    times = {}
    t = time.perf_counter()
    _device.Device(device).use()
    times["context"] = time.perf_counter() - t
    t = time.perf_counter()
    _memory.alloc(1)  # returned to the pool at once: the pool keeps its block
    times["memory pool"] = time.perf_counter() - t
    if libraries:
        # The shared objects load in one thread without the GIL (libs/_preload), dependencies
        # first; the bindings and handles then find them loaded.
        t = time.perf_counter()
        loading = _handles.prefetch(list(libraries))
        if loading is not None:
            loading.join()
        times["shared objects"] = time.perf_counter() - t
        for name in libraries:
            t = time.perf_counter()
            if name in _WITH_HANDLE:
                _handles.handle(name)
            else:
                _handles.bindings(name)
            times[name] = time.perf_counter() - t
    return times
