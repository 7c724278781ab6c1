"""`show_config()` / ``python -m cuarray info``: versions, CUDA libraries and devices. See
`cupy.show_config`.

Everything is looked up defensively: on a machine with no driver, no GPU or missing CUDA
libraries each line says what is missing instead of raising, so the report is most useful exactly
when something is wrong. cuda.bindings is reached through `cuarray.cuda._backend` (the runtime
layer is its only importer).
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys

from .cuda import _backend, device as _device, runtime

__all__ = ["show_config", "collect"]

# Libraries `load_nvidia_dynamic_lib` knows under these names (cuda.pathfinder's catalogue).
_LIBS = ("nvrtc", "cudart", "cublas", "cublasLt", "cufft", "curand", "cusolver", "cusparse", "nvJitLink")
_HEADERS = ("cccl", "cudart")
_OPTIONAL = ("nvmath-python", "cuda-cccl", "nccl4py", "dask", "distributed")


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


def _libraries() -> list[tuple[str, str]]:
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib
    except Exception as exc:
        return [("cuda.pathfinder", "not importable ({})".format(_why(exc)))]
    out = []
    for name in _LIBS:
        try:
            lib = load_nvidia_dynamic_lib(name)
            where = lib.abs_path or "(loaded by the system loader)"
            via = getattr(lib, "found_via", None)
            out.append((name, "{}{}".format(where, " [{}]".format(via) if via else "")))
        except Exception as exc:  # loading may fail in many ways; the report must go on
            out.append((name, "not found ({})".format(_why(exc))))
    return out


def _headers() -> list[tuple[str, str]]:
    try:
        from cuda.pathfinder import find_nvidia_header_directory
    except Exception as exc:
        return [("headers", "cuda.pathfinder not importable ({})".format(_why(exc)))]
    out = []
    for name in _HEADERS:
        try:
            out.append((name, find_nvidia_header_directory(name) or "not found"))
        except Exception as exc:
            out.append((name, "not found ({})".format(_why(exc))))
    return out


def _cache_dir() -> str:
    try:
        from .cuda import compiler  # inside try: a failing import is reported, not raised

        return compiler.get_cache_dir()
    except Exception as exc:
        env = os.environ.get("CUARRAY_CACHE_DIR")
        return "unknown ({}){}".format(_why(exc), "; CUARRAY_CACHE_DIR=" + env if env else "")


def _devices() -> list[tuple[str, str]]:
    reason = _backend.unavailable_reason()
    if reason is not None:
        return [("no usable device", reason)]

    out = []
    for i in range(_device.get_device_count()):
        try:
            dev = _device.Device(i)
            free, total = dev.mem_info
            out.append(("device {}".format(i), "{}, compute capability {}, {} SMs, memory {:.1f} GiB total, "
                        "{:.1f} GiB free".format(dev.name, dev.compute_capability, dev.multiprocessor_count,
                                                total / 2**30, free / 2**30)))
        except Exception as exc:
            out.append(("device {}".format(i), "unusable ({})".format(_why(exc))))
    return out


def collect() -> list[tuple[str, list[tuple[str, str]]]]:
    """The report as (section, [(key, value), ...]) pairs."""
    try:
        import cuarray  # inside try: a failing import is reported, not raised

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
        ("CUDA headers", _headers()),
        ("Optional packages", [(name, _dist(name)) for name in _OPTIONAL]),
        ("Kernel cache", [("directory", _cache_dir())]),
        ("Devices", _devices()),
    ]


def show_config(file=None) -> None:
    """Print versions, CUDA libraries, headers, the kernel cache and devices. See `cupy.show_config`."""
    file = sys.stdout if file is None else file
    for section, items in collect():
        print("{}:".format(section), file=file)
        width = max((len(k) for k, _ in items), default=0)
        for key, value in items:
            print("  {:<{}}  {}".format(key, width, value), file=file)
