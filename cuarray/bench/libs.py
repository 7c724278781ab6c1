"""The libraries a benchmark compares: how to import each, time on it, sync it and free its cache.

CuPy, PyTorch and JAX are peers, never dependencies: they are looked up with `importlib.util.find_spec`
and imported only when a case runs on them. cuarray is imported the same way, so that a cuarray
whose runtime is half written shows "n/a" instead of stopping the benchmark.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os

from cuarray.cuda import _backend

__all__ = ["Library", "get_library", "versions", "device_info"]


class Library:
    """One library: `module` (imported on first use), `gpu`, events, sync and cache release."""

    name = ""
    gpu = True

    def __init__(self):
        self._module = None
        self._error: str | None = None

    def present(self) -> bool:
        return importlib.util.find_spec(self.name) is not None

    @property
    def module(self):
        """The imported module; raises RuntimeError with the reason when it cannot be used."""
        if self._module is None and self._error is None:
            try:
                self._module = self._load()
            except Exception as exc:  # loader errors are RuntimeErrors, not ImportErrors
                self._error = "{}: {}".format(type(exc).__name__, _first_line(exc))
        if self._error is not None:
            raise RuntimeError(self._error)
        return self._module

    def unavailable(self) -> str | None:
        """Why this library cannot run here, or None."""
        if not self.present():
            return "not installed"
        try:
            self.module
        except RuntimeError as exc:
            return str(exc)
        return None

    def _load(self):
        return importlib.import_module(self.name)

    # Timing: `event()` makes a timing event; `record(e)` records it on the current stream.
    def event(self):
        raise NotImplementedError

    def record(self, ev) -> None:
        ev.record()

    def elapsed_ms(self, start, end) -> float:
        raise NotImplementedError

    def sync(self) -> None:
        pass

    def release(self) -> None:
        """Return cached device memory, so the next library starts with the device to itself."""
        gc.collect()

    def device_info(self) -> dict:
        """Name, compute capability, memory and SM count of device 0, as this library reports them."""
        raise NotImplementedError

    def version(self) -> str | None:
        try:
            return str(getattr(self.module, "__version__", None) or _dist_version(self.name))
        except RuntimeError:
            return _dist_version(self.name)


class NumPy(Library):
    name = "numpy"
    gpu = False


class CuArray(Library):
    name = "cuarray"

    def _load(self):
        mod = importlib.import_module("cuarray")
        cuda = getattr(mod, "cuda", None)
        if cuda is None:  # the lead's cuarray/__init__.py may not import cuda yet
            cuda = importlib.import_module("cuarray.cuda")
        if not cuda.is_available():
            # the class every cuarray entry point raises for this (a RuntimeError, as the bench expects)
            raise cuda.NoDeviceError(_backend.unavailable_reason() or "no usable CUDA device")
        return mod

    def _cuda(self):
        mod = self.module
        return getattr(mod, "cuda", None) or importlib.import_module("cuarray.cuda")

    def event(self):
        return self._cuda().Event()

    def record(self, ev) -> None:
        ev.record(self._cuda().get_current_stream())

    def elapsed_ms(self, start, end) -> float:
        end.synchronize()
        return self._cuda().get_elapsed_time(start, end)

    def sync(self) -> None:
        cuda = self._cuda()
        try:
            cuda.Device().synchronize()
        except AttributeError:
            cuda.get_current_stream().synchronize()

    def release(self) -> None:
        gc.collect()
        try:
            self._cuda().memory.get_default_memory_pool().free_all_blocks()
        except Exception:
            pass  # the pool may not exist yet; nothing to free then

    def device_info(self) -> dict:
        dev = self._cuda().Device(0)
        free, total = dev.mem_info
        return {"name": dev.name, "compute_capability": str(dev.compute_capability),
                "memory_bytes": int(total), "multiprocessors": int(dev.multiprocessor_count)}

    def version(self) -> str | None:
        return _dist_version("cuarray") or getattr(self._try_module(), "__version__", None)

    def _try_module(self):
        try:
            return importlib.import_module("cuarray")
        except Exception:
            return None


class CuPy(Library):
    name = "cupy"

    def _load(self):
        mod = importlib.import_module("cupy")
        if mod.cuda.runtime.getDeviceCount() == 0:
            raise RuntimeError("CuPy sees no CUDA device")
        return mod

    def event(self):
        return self.module.cuda.Event()

    def elapsed_ms(self, start, end) -> float:
        end.synchronize()
        return self.module.cuda.get_elapsed_time(start, end)

    def sync(self) -> None:
        self.module.cuda.Device().synchronize()

    def release(self) -> None:
        gc.collect()
        self.module.get_default_memory_pool().free_all_blocks()

    def device_info(self) -> dict:
        p = self.module.cuda.runtime.getDeviceProperties(0)
        name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
        return {"name": name, "compute_capability": "{}{}".format(p["major"], p["minor"]),
                "memory_bytes": int(p["totalGlobalMem"]), "multiprocessors": int(p["multiProcessorCount"])}


class Torch(Library):
    name = "torch"

    def _load(self):
        mod = importlib.import_module("torch")
        if not mod.cuda.is_available():
            raise RuntimeError("torch.cuda.is_available() is False")
        return mod

    def event(self):
        return self.module.cuda.Event(enable_timing=True)

    def elapsed_ms(self, start, end) -> float:
        end.synchronize()
        return start.elapsed_time(end)

    def sync(self) -> None:
        self.module.cuda.synchronize()

    def release(self) -> None:
        gc.collect()
        self.module.cuda.empty_cache()

    def device_info(self) -> dict:
        p = self.module.cuda.get_device_properties(0)
        return {"name": p.name, "compute_capability": "{}{}".format(p.major, p.minor),
                "memory_bytes": int(p.total_memory), "multiprocessors": int(p.multi_processor_count)}


class TorchAutotune(Torch):
    """PyTorch again, as the `compilers` group's second torch.compile column
    (mode="max-autotune-no-cudagraphs"): the same module, events and sync."""

    name = "torch-autotune"

    def present(self) -> bool:
        return importlib.util.find_spec("torch") is not None

    def version(self) -> str | None:
        return None  # the torch column's


class Jax(Library):
    """JAX, the `compilers` group's jax.jit column. It has no CUDA events: its cases are timed on
    the host, and its callables wait for their own results (`block_until_ready`), so `sync` has
    nothing left to wait for."""

    name = "jax"

    def _load(self):
        # JAX takes 75% of the device's memory at its first use unless told otherwise; the other
        # columns of the same process need it.
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        mod = importlib.import_module("jax")
        if mod.default_backend() != "gpu":
            raise RuntimeError("JAX's backend is {}, not gpu (jax[cuda12] or jax[cuda13] is not installed)".format(
                mod.default_backend()))
        return mod

    def release(self) -> None:
        gc.collect()
        self.module.clear_caches()

    def device_info(self) -> dict:
        raise NotImplementedError("the device is described by a CUDA library")


_LIBS: dict[str, Library] = {}
_CLASSES = {"numpy": NumPy, "cuarray": CuArray, "cupy": CuPy, "torch": Torch, "torch-autotune": TorchAutotune,
            "jax": Jax}


def get_library(name: str) -> Library:
    """The (shared) Library object for `name`."""
    lib = _LIBS.get(name)
    if lib is None:
        lib = _LIBS[name] = _CLASSES[name]()
    return lib


def device_info(names) -> dict | None:
    """Device 0 as described by the first GPU library in `names` that can describe it."""
    for name in names:
        lib = get_library(name)
        if not lib.gpu or lib.unavailable() is not None:
            continue
        try:
            return dict(lib.device_info(), reported_by=name)
        except Exception:
            continue
    return None


def versions(names) -> dict:
    """Version strings of Python, the CUDA Python packages and each named library that is present."""
    import platform

    out = {"python": platform.python_version()}
    for dist in ("cuda-core", "cuda-bindings", "cuda-pathfinder"):
        out[dist] = _dist_version(dist)
    for name in names:
        lib = get_library(name)
        if lib.present():
            out[name] = lib.version()
    return out


def _dist_version(dist: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
