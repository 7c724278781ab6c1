"""`show_config()` / ``python -m cuarray info``: versions, CUDA libraries and devices. See
`cupy.show_config`.

Everything is looked up defensively: on a machine with no driver, no GPU or missing CUDA
libraries each line says what is missing instead of raising, so the report is most useful exactly
when something is wrong. cuda.bindings is reached through `cuarray.cuda._backend` (the runtime
layer is its only importer).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import re
import sys
import time

from .cuda import _backend, caches, compiler, device as _device, launch, memory, runtime
from .cuda.libs import _catalog
import cuarray

__all__ = ["show_config", "collect", "library_status"]

# Python distributions, with what the row is for. "cuda-cccl" is the Python package (cuda.compute),
# not the nvidia-cuda-cccl headers wheel, which the "Headers" rows report: a user with the
# headers read "cuda-cccl not installed" as a broken install.
_OPTIONAL = (("nvmath-python", "nvmath-python (math libraries' bindings)"),
             ("cuda-cccl", "cuda-cccl (cuda.compute, Python)"),
             ("nccl4py", "nccl4py (multi-GPU collectives)"),
             ("dask", "dask"), ("distributed", "distributed"))


def _dist(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _why(exc: BaseException, width: int = 160) -> str:
    lines = str(exc).strip().splitlines()
    text = "{}: {}".format(type(exc).__name__, lines[0] if lines else "")
    return text if len(text) <= width else text[: width - 3] + "..."


def _cuda_version(v: int) -> str:
    return "{}.{}".format(v // 1000, (v % 1000) // 10)


def _driver_version() -> str:
    try:
        return _cuda_version(runtime.driverGetVersion())
    except Exception as exc:  # DynamicLibNotFoundError (a RuntimeError) when libcuda.so is absent
        return "no CUDA driver ({})".format(_why(exc))


def _nvrtc_version() -> str:
    try:
        return _cuda_version(runtime.runtimeGetVersion())
    except Exception as exc:
        return "not available ({})".format(_why(exc))


def _library_version(path: str, wheel: str) -> str:
    """The version of the library at `path`: its wheel's, when the file is that wheel's; else the
    full version a system toolkit's file name carries (libcublas.so.13.1.0.3)."""
    real = os.path.realpath(path)
    try:
        dist = importlib.metadata.distribution(wheel)
        base = os.path.basename(path)
        for f in dist.files or ():
            if f.name == base and os.path.realpath(str(dist.locate_file(f))) == real:
                return "{} ({})".format(dist.version, wheel)
    except importlib.metadata.PackageNotFoundError:
        pass
    m = re.search(r"\.so\.(\d+(?:\.\d+)*)$", os.path.basename(real))
    return m.group(1) if m else "version unknown"


def library_status() -> list[tuple[object, bool, str]]:
    """(catalog row, loaded?, description) for every library of `cuda.libs._catalog`, in catalogue
    order, with the time its load took in this process (what a first library call pays for it). A library whose own file is present but a dependency is not says which one is missing
    (cuda.pathfinder loads dependencies first and reports theirs)."""
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib
    except Exception as exc:
        return [(lib, False, "cuda.pathfinder not importable ({})".format(_why(exc))) for lib in _catalog.LIBRARIES]
    out = []
    loaded: dict = {}
    for lib in _catalog.LIBRARIES:
        missing = [d for d in lib.needs if loaded.get(d) is False]
        if missing:
            by_name = {x.name: x for x in _catalog.LIBRARIES}
            need = ", ".join("{} ({})".format(by_name[d].soname, by_name[d].wheel) for d in missing)
            loaded[lib.name] = False
            out.append((lib, False, "not loaded: {} ({}) needs {}, not found".format(lib.soname, lib.wheel, need)))
            continue
        t0 = time.perf_counter()
        try:
            dl = load_nvidia_dynamic_lib(lib.name)
        except Exception as exc:  # loading may fail in many ways; the report must go on
            loaded[lib.name] = False
            out.append((lib, False, "not found: {} (pip install {}, or cuarray[cu13]) - {}".format(
                lib.soname, lib.wheel, _why(exc, 100))))
            continue
        loaded[lib.name] = True
        where = dl.abs_path or "(loaded by the system loader)"
        via = getattr(dl, "found_via", None)
        version = _library_version(where, lib.wheel) if dl.abs_path else "version unknown"
        ms = 1e3 * (time.perf_counter() - t0)  # this process's first load (its dependencies were loaded before)
        out.append((lib, True, "{}  loaded in {:.0f} ms  {}{}".format(version, ms, where,
                                                                   " [{}]".format(via) if via else "")))
    return out


def _libraries() -> list[tuple[str, str]]:
    return [(lib.name, text) for lib, _, text in library_status()]


def _cores() -> list[tuple[str, str]]:
    """Whether the memory pool's, the launcher's and lazy mode's node C cores are built and in use."""
    rows = []
    try:
        built = memory._core_module is not None
        rows.append(("memory pool", "{}{}".format(
            memory.implementation(), "" if built else " (C core not built: no compiler at install)")))
    except Exception as exc:
        rows.append(("memory pool", "unknown ({})".format(_why(exc))))
    try:
        built = importlib.util.find_spec("cuarray.cuda._launchcore") is not None
        if os.environ.get("CUARRAY_PURE_PYTHON_LAUNCH", "0") not in ("", "0"):
            text = "cuda.core (CUARRAY_PURE_PYTHON_LAUNCH is set)"
        elif not built:
            text = "cuda.core (C core not built: no compiler at install)"
        elif _backend.unavailable_reason() is not None:
            text = "native (C core built; cuLaunchKernel is taken from the driver at the first launch)"
        else:
            text = launch.implementation()
        rows.append(("kernel launch", text))
    except Exception as exc:
        rows.append(("kernel launch", "unknown ({})".format(_why(exc))))
    # (found, not imported: `fusion.graph` loads lazy mode, which `import cuarray` does not)
    if os.environ.get("CUARRAY_PURE_PYTHON_NODES", "0") not in ("", "0"):
        rows.append(("lazy-mode nodes", "python (CUARRAY_PURE_PYTHON_NODES is set)"))
    elif importlib.util.find_spec("cuarray._core._nodecore") is None:
        rows.append(("lazy-mode nodes", "python (C core not built: no compiler at install)"))
    else:
        rows.append(("lazy-mode nodes", "native"))
    return rows


def _headers() -> list[tuple[str, str]]:
    try:
        from cuda.pathfinder import find_nvidia_header_directory
    except Exception as exc:
        return [("headers", "cuda.pathfinder not importable ({})".format(_why(exc)))]
    out = []
    for name, wheel in _catalog.HEADERS:
        try:
            out.append((name, find_nvidia_header_directory(name) or "not found (pip install {})".format(wheel)))
        except Exception as exc:
            out.append((name, "not found ({})".format(_why(exc))))
    return out


def _cache_dir() -> str:
    try:
        return compiler.get_cache_dir()
    except Exception as exc:
        env = os.environ.get("CUARRAY_CACHE_DIR")
        return "unknown ({}){}".format(_why(exc), "; CUARRAY_CACHE_DIR=" + env if env else "")


def _caches() -> list[tuple[str, str]]:
    """This process's caches of kernels, launch configs and plans (`cuarray.cuda.cache_info`)."""
    try:
        return [(name, "{} entries{}".format(n, "" if b is None else ", {} bytes".format(b)))
                for name, (n, b) in caches.info().items()]
    except Exception as exc:
        return [("unknown", _why(exc))]


# The oldest GPU cuarray runs on: CUDA 13 and its NVRTC start at compute capability 7.5 (Turing,
# sm_75); Volta (7.0, 7.2: V100, Jetson Xavier) left with CUDA 13. The README says the same.
MIN_COMPUTE_CAPABILITY = (7, 5)


def too_old(compute_capability: str) -> str:
    """"" for a device cuarray runs on, else the reason it does not ('70' is CuPy's form of 7.0)."""
    cc = (int(compute_capability[:-1]), int(compute_capability[-1]))
    if cc >= MIN_COMPUTE_CAPABILITY:
        return ""
    return ("TOO OLD: compute capability {}.{} is below the 7.5 (sm_75) that CUDA 13 and its NVRTC "
            "start at; cuarray cannot compile kernels for this device".format(*cc))


def _devices() -> list[tuple[str, str]]:
    reason = _backend.unavailable_reason()
    if reason is not None:
        return [("no usable device", reason)]

    out = []
    for i in range(_device.get_device_count()):
        try:
            dev = _device.Device(i)
            free, total = dev.mem_info
            old = too_old(dev.compute_capability)
            out.append(("device {}".format(i), "{}, compute capability {}, {} SMs, memory {:.1f} GiB total, "
                        "{:.1f} GiB free{}".format(dev.name, dev.compute_capability, dev.multiprocessor_count,
                                                  total / 2**30, free / 2**30, "; " + old if old else "")))
        except Exception as exc:
            out.append(("device {}".format(i), "unusable ({})".format(_why(exc))))
    return out


def collect() -> list[tuple[str, list[tuple[str, str]]]]:
    """The report as (section, [(key, value), ...]) pairs."""
    try:
        version = getattr(cuarray, "__version__", None) or _dist("cuarray")
        where = os.path.dirname(os.path.abspath(list(cuarray.__path__)[0]))
    except Exception as exc:
        version, where = "import failed ({})".format(_why(exc)), ""
    return [
        ("cuarray", [("version", version), ("location", where)]),
        ("Python packages", [
            ("Python", "{} ({})".format(platform.python_version(), sys.executable)),
            ("NumPy", _dist("numpy")),
            ("cuda-core", _dist("cuda-core")),
            ("cuda-bindings", _dist("cuda-bindings")),
            ("cuda-pathfinder", _dist("cuda-pathfinder")),
        ]),
        ("CUDA", [("driver", _driver_version()), ("NVRTC", _nvrtc_version())]),
        ("CUDA libraries (cuda.pathfinder)", _libraries()),
        ("cuarray cores", _cores()),
        ("CUDA headers", _headers()),
        ("Optional packages", [(label, _dist(name)) for name, label in _OPTIONAL]),
        ("Kernel cache", [("directory", _cache_dir())]),
        ("In-process caches", _caches()),
        ("Devices", _devices()),
    ]


def show_config(file=None) -> None:
    """Print versions, CUDA libraries, headers, the kernel caches and devices. See `cupy.show_config`."""
    file = sys.stdout if file is None else file
    for section, items in collect():
        print("{}:".format(section), file=file)
        width = max((len(k) for k, _ in items), default=0)
        for key, value in items:
            print("  {:<{}}  {}".format(key, width, value), file=file)
