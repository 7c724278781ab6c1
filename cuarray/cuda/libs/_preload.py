"""Load math libraries' shared objects in a background thread, without holding the GIL (opt-in,
for measurement: ``CUARRAY_PREFETCH_LIBS=cufft,cublasLt`` or ``=all``).

Why: a first library call pays the library's ``dlopen`` (relocating 100-450 MB objects), which
CuPy and PyTorch pay inside ``import`` where the cold-start rows do not time it. Started at the
process's first device use, the loads overlap cuInit and the primary context (driver calls made
without the GIL). cuda.pathfinder loads through ``ctypes.CDLL``, which keeps the GIL for the whole
``dlopen`` (measured on the CPU box: a Python loop in the main thread ran at 2-6% of its rate while
another thread loaded cublasLt), so here libc's ``dlopen`` is called as a ctypes foreign function,
which releases it. The file is the one cuda.pathfinder's first search step finds (the NVIDIA
wheels in site-packages) with its mode (RTLD_NOW | RTLD_GLOBAL); nvmath's later load of the same
file returns the loaded object. A library not found there is skipped: the first call loads it as
before. Nothing is unloaded.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

from . import _catalog
from ..compiler import _site_parents

__all__ = ["start", "wheel_file", "loaded"]

_WHEEL_DIRS = ("nvidia/cu13/lib",)
_BY_NAME = {lib.name: lib for lib in _catalog.LIBRARIES}
loaded: dict = {}  # library name -> (path, seconds its dlopen took), for the probe scripts
_started: set = set()
_lock = threading.Lock()


def wheel_file(name: str) -> str | None:
    """The library file of `name` (a `_catalog` name) in an NVIDIA wheel, found without loading it."""
    soname = _BY_NAME[name].soname
    for parent in _site_parents():
        for rel in _WHEEL_DIRS:
            path = os.path.join(parent, rel, soname)
            if os.path.isfile(path):
                return path
    return None


def _order(names) -> list:
    """`names` with each one's dependencies first (the catalog's `needs`), no repeats."""
    out: list = []

    def add(n):
        if n in out or n not in _BY_NAME:
            return
        for dep in _BY_NAME[n].needs:
            add(dep)
        out.append(n)

    for n in names:
        add(n)
    return out


def _load_all(names) -> None:
    try:
        dlopen = ctypes.CDLL(None).dlopen
        dlopen.restype = ctypes.c_void_p
        dlopen.argtypes = (ctypes.c_char_p, ctypes.c_int)
        for n in names:
            path = wheel_file(n)
            if path is None:
                continue
            t = time.perf_counter()
            if dlopen(os.fsencode(path), os.RTLD_NOW | os.RTLD_GLOBAL):  # a foreign call: no GIL held
                loaded[n] = (path, time.perf_counter() - t)
    except Exception:  # noqa: BLE001 - best effort: the first call loads what is missing itself
        pass


def start(names) -> threading.Thread | None:
    """Start loading `names` ("all": every library of the catalog nvmath binds) in a daemon thread,
    once per library and process; returns the thread (None when nothing is left to load)."""
    if os.name != "posix":
        return None
    if names == "all" or "all" in names:
        names = ["cublasLt", "cublas", "cufft", "cusparse", "cusolver"]
    with _lock:
        todo = [n for n in _order(names) if n not in _started]
        _started.update(todo)
    if not todo:
        return None
    t = threading.Thread(target=_load_all, args=(todo,), name="cuarray-preload-libs", daemon=True)
    t.start()
    return t
