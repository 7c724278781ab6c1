"""NVRTC compilation, with a per-process and an on-disk kernel cache.

`compile_module(source, ...)` returns a loaded `Module`; `compile_cubin` only compiles (no device
needed: CI compiles every generated kernel for sm_90 through it). NVRTC runs once per key per
machine: cubins (not PTX, which a driver older than NVRTC cannot JIT) are kept under
`get_cache_dir()` with their symbol mapping (`_kernel_cache` has the file format).

The key covers everything that changes the cubin: source, options, name expressions, arch, NVRTC
and cuda.core versions, the content of every registered header directory (`add_include_dir`; the
engine registers `cuarray/_core/templates/`) and an identifier of the CCCL and cudart headers.

`Module`/`Function` (loaded kernels) and `convert_args` live in `module.py`.

Set ``CUARRAY_SHOW_SOURCE=1`` (or call `set_show_source(True)`) to print each source as it is
compiled; `CUARRAY_CACHE_DIR` moves the disk cache.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import sys
import threading
import time

from . import _backend
from . import _kernel_cache
from . import _observe
from . import caches as _caches
from . import device as _device
from ._kernel_cache import CacheWarning as CacheWarning
from ._kernel_cache import clear as clear_disk_cache
from ._kernel_cache import get_cache_dir as get_cache_dir
from .module import Module

__all__ = [
    "CompileError",
    "CacheWarning",
    "add_include_dir",
    "compile_module",
    "compile_cubin",
    "clear_disk_cache",
    "clear_memory_cache",
    "get_cache_dir",
    "set_show_source",
]

_INSTALL_HINT = "pip install cuarray[cu13] (or point CUDA_HOME at a CUDA toolkit)"
_HEADER_DIR_HELP = {
    "cccl": "CCCL headers (cuda/std/*, nv/target), wheel nvidia-cuda-cccl",
    "cudart": "CUDA runtime headers (cuda_fp16.h, cuda_bf16.h), wheel nvidia-cuda-runtime",
}


class CompileError(Exception):
    """NVRTC rejected a kernel. `log` is NVRTC's log, `source` the full source, `options` the flags."""

    def __init__(self, message: str, log: str = "", source: str = "", options=()):
        super().__init__(message)
        self.log = log
        self.source = source
        self.options = tuple(options)


# ---------------------------------------------------------------------------------------------
# Header directories and the cache key

# Directories of device headers registered by the layers above (the engine registers
# `cuarray/_core/templates` when it is imported): on NVRTC's include path, and hashed into every
# cache key, since a kernel may include any file in them.
_include_dirs: list = []


def add_include_dir(path: str) -> None:
    """Put `path` (a directory of device headers) on the include path of every compile."""
    path = os.path.abspath(path)
    if not os.path.isdir(path):
        raise ValueError("not a directory: {}".format(path))
    if path not in _include_dirs:
        _include_dirs.append(path)


# Where cuda.pathfinder's first search step (the NVIDIA wheels in site-packages) finds the headers
# NVRTC includes, with the file that marks each folder (pathfinder's header descriptor catalog).
_HEADER_WHEEL_DIRS = {"cccl": (("nvidia/cu13/include/cccl", "nvidia/cuda_cccl/include"), "cuda/std/version"),
                      "cudart": (("nvidia/cu13/include", "nvidia/cuda_runtime/include"), "cuda_runtime.h")}
# The folders of a toolkit's include/ that pathfinder's $CUDA_PATH / $CUDA_HOME step tries before
# include/ itself (its catalog's include_subdirs).
_HEADER_TOOLKIT_SUBDIRS = {"cccl": ("cccl",), "cudart": ()}


@functools.cache
def _header_dirs() -> dict:
    """{'cccl'|'cudart': path or None}, found once per process as cuda.pathfinder's search finds
    it, without importing pathfinder for its first steps (the import is 41 ms of a process's first
    kernel on the H100, 42-75 ms on the H200 machine, whose CCCL is a toolkit's: scripts/perf and
    docs/perf-notes.md): the NVIDIA wheels, then, where no conda environment is active (pathfinder
    looks there next), $CUDA_PATH or $CUDA_HOME; else pathfinder's whole search."""
    dirs = {}
    for lib, (rels, marker) in _HEADER_WHEEL_DIRS.items():
        dirs[lib] = _wheel_dir(rels, marker)
        if dirs[lib] is None and not os.environ.get("CONDA_PREFIX"):
            dirs[lib] = _toolkit_dir(_HEADER_TOOLKIT_SUBDIRS[lib], marker)
        if dirs[lib] is not None:
            continue
        try:
            from cuda.pathfinder import find_nvidia_header_directory  # import time: only off the wheels

            dirs[lib] = find_nvidia_header_directory(lib)
        except Exception:  # pathfinder raises for unknown names on old versions; treat as missing
            dirs[lib] = None
    return dirs


def _site_parents() -> list:
    """The site-packages folders in cuda.pathfinder's order (a venv's own, the user site, the system's)."""
    import site

    parents = list(site.getsitepackages())
    if site.ENABLE_USER_SITE and site.getusersitepackages():
        parents.insert(1 if sys.prefix != sys.base_prefix else 0, site.getusersitepackages())
    return parents


def _wheel_dir(rels, marker: str) -> str | None:
    """The first `parent/rel` (site-packages folders, then `rels` in order) holding `marker`."""
    if os.name != "posix":
        return None
    for parent in _site_parents():
        for rel in rels:
            d = os.path.join(parent, rel)
            if os.path.isfile(os.path.join(d, marker)):
                return os.path.abspath(d)
    return None


def _toolkit_dir(subdirs, marker: str) -> str | None:
    """Pathfinder's $CUDA_PATH / $CUDA_HOME step (CUDA_PATH first; empty values unset): the
    toolkit's include/<subdir> holding `marker`, else include/ itself, else None."""
    root = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME")
    if not root:
        return None
    inc = os.path.join(root, "include")
    for d in [os.path.join(inc, sub) for sub in subdirs] + [inc]:
        if os.path.isfile(os.path.join(d, marker)):
            return os.path.abspath(d)
    return None


def _include_path() -> list:
    return _include_dirs + [d for d in _header_dirs().values() if d]


def _file_digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@functools.cache
def _headers_digest(path: str) -> str:
    """Hash of every file under a registered header directory (names and contents).

    Hashing the contents (cuarray's own templates: 18 files, 176 KB) took ~0.9 ms of every
    process's first kernel, most of the first call of an ElementwiseKernel with a warm disk cache.
    The result is kept in the disk cache under a key made of the files' names, sizes
    and modification times (as `_toolchain_id` names libnvrtc), so a later process stats the files
    and reads one small entry; an edited, added or removed file changes the stamps and is hashed
    again, and the digest itself (hence every kernel's key) stays a hash of the contents."""
    files, stamps = [], []
    for root, subdirs, fnames in os.walk(path):
        subdirs.sort()
        sub = os.path.relpath(root, path)  # once a directory: relpath is ~7 us a call
        for fname in sorted(fnames):
            full = os.path.join(root, fname)
            rel = fname if sub == "." else os.path.join(sub, fname)
            st = os.stat(full)
            files.append((rel, full))
            stamps.append((rel, st.st_size, st.st_mtime_ns))
    memo = hashlib.sha256(repr(("headers digest", path, stamps)).encode("utf-8", "surrogatepass")).hexdigest()
    hit = _kernel_cache.load(memo, _kernel_cache.SMALL_SUFFIX)
    if hit is not None and len(hit[0]) == 64:
        return hit[0].decode("ascii")
    h = hashlib.sha256()
    for rel, full in files:
        h.update(rel.encode() + b"\0" + _file_digest(full).encode())
    digest = h.hexdigest()
    # Kept only when every file is older than 2 s (git's "racy" rule): a modification time is as
    # coarse as the kernel's clock tick, so a file rewritten at once with the same size could keep
    # its stamp; one changed after this point gets a later time than any of these.
    settled = time.time_ns() - 2_000_000_000
    if all(s[2] < settled for s in stamps):
        _kernel_cache.store(memo, digest.encode("ascii"), {}, _kernel_cache.SMALL_SUFFIX)
    return digest


# A file whose content or stamp changes when the header package is upgraded.
_VERSION_FILES = {"cccl": "cuda/std/__cccl/version.h", "cudart": "cuda_runtime_api.h"}


# Where cuda.pathfinder's first search step (the NVIDIA wheels in site-packages) finds libnvrtc.
_NVRTC_WHEEL_DIRS = ("nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib")
_NVRTC_SONAMES = ("libnvrtc.so.13", "libnvrtc.so.12")


def _nvrtc_wheel_file() -> str | None:
    """The libnvrtc of an NVIDIA wheel, found the way cuda.pathfinder looks first (site-packages,
    the user site after a venv's own, before the system's), without loading it; None if none."""
    if os.name != "posix":
        return None
    for parent in _site_parents():
        for rel in _NVRTC_WHEEL_DIRS:
            for soname in _NVRTC_SONAMES:
                path = os.path.join(parent, rel, soname)
                if os.path.isfile(path):
                    return path
    return None


def _core_version() -> str:
    """cuda.core's version (it builds NVRTC's options) without importing it: a process whose kernels
    are all in the disk cache never needs cuda.core (its import is 155-200 ms). Read from
    its `_version.py` (found by the import system, not run), else the installed distribution's
    metadata; "?" when neither says."""
    try:
        spec = importlib.util.find_spec("cuda.core")
        for d in (spec.submodule_search_locations or ()) if spec is not None else ():
            try:
                with open(os.path.join(d, "_version.py"), encoding="utf-8") as f:
                    m = re.search(r"^__version__\s*=\s*(?:version\s*=\s*)?['\"]([^'\"]+)['\"]", f.read(), re.M)
            except OSError:
                continue
            if m:
                return m.group(1)
        from importlib import metadata  # import time: only where _version.py is not there

        return metadata.version("cuda-core")
    except Exception:
        return "?"


@functools.cache
def _toolchain_id() -> str:
    """NVRTC, cuda.core and header-directory identity, computed once per process.

    NVRTC is named by its library file (path, size, stamp: 13.0.48 and 13.0.88 differ there),
    located without importing cuda.bindings.nvrtc and, when it comes from a wheel, without loading
    it: a process whose kernels are all in the disk cache never needs NVRTC, and the import with
    nvrtcVersion cost ~30-45 ms of its first operation, loading the 140 MB library 25-40 ms
    (docs/perf-notes.md). Elsewhere (conda, a toolkit) cuda.pathfinder loads it to say which file
    it is; only when no file can be located is nvrtcVersion asked.
    """
    parts = []
    try:
        path = _nvrtc_wheel_file()
        if path is None:
            from cuda.pathfinder import load_nvidia_dynamic_lib

            path = load_nvidia_dynamic_lib("nvrtc").abs_path
        st = os.stat(path)
        parts.append("libnvrtc {} {} {}".format(path, st.st_size, st.st_mtime_ns))
    except Exception:
        try:
            err, major, minor = _backend.nvrtc().nvrtcVersion()
        except Exception as exc:
            raise _nvrtc_unavailable(exc) from exc
        parts.append("nvrtc {}.{}".format(major, minor))
    parts.append("cuda.core " + _core_version())
    for lib, rel in _VERSION_FILES.items():
        d = _header_dirs()[lib]
        stamp = "missing"
        if d:
            vf = os.path.join(d, rel)
            try:
                st = os.stat(vf)
                stamp = "{} {} {}".format(d, st.st_size, st.st_mtime_ns)
                if st.st_size < 65536:
                    stamp += " " + _file_digest(vf)
            except OSError:
                stamp = d
        parts.append("{}: {}".format(lib, stamp))
    return "\n".join(parts)


def _cache_key(source: str, options: tuple, name_expressions: tuple, arch: str) -> str:
    text = repr((
        _kernel_cache.FORMAT_VERSION,
        source,
        tuple(options),
        tuple(name_expressions),
        arch,
        _toolchain_id(),
        tuple(_headers_digest(d) for d in _include_dirs),
    ))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------------------------------------
# Options: NVRTC flag strings -> ProgramOptions fields (cuda.core builds the flags from fields)

_BOOL_FLAGS = {
    "-use_fast_math": ("use_fast_math", True), "--use_fast_math": ("use_fast_math", True),
    "-lineinfo": ("lineinfo", True), "--generate-line-info": ("lineinfo", True),
    "-G": ("debug", True), "--device-debug": ("debug", True),
    "-rdc=true": ("relocatable_device_code", True), "--relocatable-device-code=true": ("relocatable_device_code", True),
    "-restrict": ("restrict", True), "--restrict": ("restrict", True),
    "-w": ("disable_warnings", True), "--disable-warnings": ("disable_warnings", True),
}
_VALUE_FLAGS = {  # prefix (with "=") -> (field, converter)
    "-std=": ("std", str), "--std=": ("std", str),
    "-ftz=": ("ftz", "bool"), "--ftz=": ("ftz", "bool"),
    "-prec-div=": ("prec_div", "bool"), "--prec-div=": ("prec_div", "bool"),
    "-prec-sqrt=": ("prec_sqrt", "bool"), "--prec-sqrt=": ("prec_sqrt", "bool"),
    "-fmad=": ("fma", "bool"), "--fmad=": ("fma", "bool"),
    "-maxrregcount=": ("max_register_count", int), "--maxrregcount=": ("max_register_count", int),
}
_LIST_FLAGS = {  # flag -> field; accepts "-DX", "-D X" (two items) and "--define-macro=X"
    "-D": "define_macro", "--define-macro": "define_macro",
    "-U": "undefine_macro", "--undefine-macro": "undefine_macro",
    "-I": "include_path", "--include-path": "include_path",
}


def _parse_options(options) -> tuple[dict, list]:
    """Split flag strings into ProgramOptions fields and flags cuda.core has no field for."""
    fields = {"std": "c++17", "define_macro": [], "undefine_macro": [], "include_path": []}
    extra = []
    items = list(options)
    i = 0
    while i < len(items):
        opt = items[i]
        if not isinstance(opt, str):
            raise TypeError("compiler options must be strings, got {!r}".format(opt))
        i += 1
        if opt.startswith(("-arch", "--gpu-architecture")):
            raise ValueError("pass the architecture as arch=..., not as the option {!r}".format(opt))
        if opt in _BOOL_FLAGS:
            field, value = _BOOL_FLAGS[opt]
            fields[field] = value
            continue
        if opt in ("-std", "--std") and i < len(items):
            fields["std"] = items[i]
            i += 1
            continue
        prefix = next((p for p in _VALUE_FLAGS if opt.startswith(p)), None)
        if prefix is not None:
            field, conv = _VALUE_FLAGS[prefix]
            value = opt[len(prefix):]
            fields[field] = value.lower() == "true" if conv == "bool" else conv(value)
            continue
        value = None
        for flag, field in _LIST_FLAGS.items():
            if opt == flag and i < len(items):
                value, i = items[i], i + 1
            elif flag.startswith("--") and opt.startswith(flag + "="):
                value = opt[len(flag) + 1:]
            elif not flag.startswith("--") and opt.startswith(flag) and len(opt) > len(flag):
                value = opt[len(flag):]
            else:
                continue
            if field == "define_macro" and "=" in value:
                value = tuple(value.split("=", 1))
            fields[field].append(value)
            break
        if value is None:
            extra.append(opt)  # passed to NVRTC verbatim, see _options_class
    return fields, extra


@functools.cache
def _options_class():
    """ProgramOptions that also passes flags it has no field for.

    cuda.core builds NVRTC's argument list in `ProgramOptions.as_bytes`; appending there is the one
    documented seam that lets CuPy-style option tuples carry any NVRTC flag.
    """
    base = _backend.core().ProgramOptions

    class _Options(base):
        _extra = ()

        def as_bytes(self, *args, **kwargs):
            return list(super().as_bytes(*args, **kwargs)) + [f.encode() for f in self._extra]

    return _Options


def _program_options(options, arch: str, name: str):
    fields, extra = _parse_options(options)
    fields["include_path"] = fields["include_path"] + _include_path()  # the user's dirs win
    for f in ("define_macro", "undefine_macro", "include_path"):
        if not fields[f]:
            del fields[f]
    opts = _options_class()(arch=arch, name=name, **fields)
    opts._extra = tuple(extra)
    return opts


# ---------------------------------------------------------------------------------------------
# Compiling

_show_source = None


def set_show_source(enabled: bool | None) -> None:
    """Print every kernel source to stderr as it is compiled (None: follow CUARRAY_SHOW_SOURCE)."""
    global _show_source
    _show_source = enabled


def _showing() -> bool:
    if _show_source is not None:
        return _show_source
    return os.environ.get("CUARRAY_SHOW_SOURCE", "") not in ("", "0")


def _program_name(name) -> str:
    # cuda.core treats a name with a directory part specially; keep it a plain label.
    return re.sub(r"[^\w.-]", "_", name) if name else "cuarray_kernel"


def _nvrtc_compile(source: str, opts, name_expressions: tuple):
    """One NVRTC run (tests count calls to this). Returns cuda.core's ObjectCode."""
    core = _backend.core()
    return core.Program(source, "c++", opts).compile("cubin", name_expressions=name_expressions)


def compile_cubin(source: str, *, arch: str, options=(), name_expressions=(), user_source=None, name=None):
    """Compile `source` to a cubin for `arch` (e.g. ``"sm_90"``); no device needed, no cache.

    Returns ``(cubin bytes, {name_expression: mangled name bytes})``. Raises CompileError.
    """
    obs = _observe.observer
    if obs is not None:
        obs.nvrtc()
    options, name_expressions = tuple(options), tuple(name_expressions)
    pname = _program_name(name)
    opts = _program_options(options, arch, pname)
    if _showing():
        print("// cuarray: compiling {} for {} {}\n{}".format(pname, arch, list(options), source), file=sys.stderr)
    try:
        obj = _nvrtc_compile(source, opts, name_expressions)
    except Exception as exc:
        if any("DynamicLibNotFound" in t.__name__ for t in type(exc).__mro__):
            raise _nvrtc_unavailable(exc) from exc
        text = str(exc)
        if "NVRTC_ERROR" not in text and type(exc).__name__ != "NVRTCError":
            raise
        log = text.split("compilation log:", 1)[-1].strip("\x00\n ")
        raise CompileError(_error_message(log, source, user_source, pname, arch, options),
                           log, source, options) from None
    return bytes(obj.code), dict(obj.symbol_mapping)


def _nvrtc_unavailable(exc) -> Exception:
    return _backend.CUDARuntimeError("NVRTC (libnvrtc) could not be loaded ({}: {}); {}".format(
        type(exc).__name__, exc, _INSTALL_HINT))


def _numbered(text: str, start: int = 1) -> str:
    lines = text.splitlines()
    width = len(str(start + len(lines)))
    return "\n".join("{:>{w}} | {}".format(start + k, line, w=width) for k, line in enumerate(lines))


def _error_message(log, source, user_source, pname, arch, options) -> str:
    first_user_line = None
    if user_source:
        at = source.find(user_source)
        if at >= 0:
            first_user_line = source.count("\n", 0, at) + 1
            last_user_line = first_user_line + user_source.count("\n")

            def annotate(m):
                n = int(m.group(2))
                if first_user_line <= n <= last_user_line:
                    return "{}({}) [your line {}]".format(m.group(1), n, n - first_user_line + 1)
                return m.group(0)

            log = re.sub(r"^({})\((\d+)\)".format(re.escape(pname)), annotate, log, flags=re.M)
    parts = ["NVRTC could not compile '{}' for {} (options {}):".format(pname, arch, list(options)), log]
    no_header = "could not open source file" in log
    for lib in ("cccl", "cudart"):
        if no_header and not _header_dirs()[lib]:
            parts.append("Header directory '{}' ({}) was not found: {}.".format(
                lib, _HEADER_DIR_HELP[lib], _INSTALL_HINT))
    if user_source:
        parts += ["", "Generated source:", _numbered(source), "", "Your source:", _numbered(user_source)]
    else:
        parts += ["", "Source:", _numbered(source)]
    return "\n".join(parts)


def _load_or_compile_cubin(source, arch, options=(), name_expressions=(), *, user_source=None, name=None, key=None):
    """(cubin, mapping) from the disk cache, compiling with NVRTC and storing on a miss."""
    options, name_expressions = tuple(options), tuple(name_expressions)
    if key is None:
        key = _cache_key(source, options, name_expressions, arch)
    hit = _kernel_cache.load(key)
    if hit is not None:
        return hit
    cubin, mapping = compile_cubin(source, arch=arch, options=options, name_expressions=name_expressions,
                                   user_source=user_source, name=name)
    _kernel_cache.store(key, cubin, mapping)
    return cubin, mapping


# ---------------------------------------------------------------------------------------------
# Loaded modules and functions

_modules: dict = {}  # cache key -> Module (Modules hold CUlibrary handles: valid on every device)
_archs: dict = {}  # device id -> "sm_XY"
# Threads asking for the same uncached module at once: one compiles (or reads the disk cache), the
# others wait for it, so NVRTC runs once per key per process (compiles of different keys overlap).
_compiling: dict = {}  # cache key -> Lock held while that key is being built
_compiling_guard = threading.Lock()


def clear_memory_cache() -> None:
    """Forget this process's compiled modules (the next compile reads the disk cache)."""
    _modules.clear()


def _module_bytes() -> int:
    """The loaded modules' code (cubin, PTX or fatbin) in bytes."""
    return sum(getattr(m, "nbytes", 0) for m in list(_modules.values()))


_caches.register("compiled modules", count=lambda: len(_modules), clear=clear_memory_cache, code=True,
                 nbytes=_module_bytes)


def compile_module(source: str, *, name_expressions=(), options=(), arch=None, user_source=None, name=None):
    """Compile (or fetch from cache) `source` and load it: returns a `Module`.

    `arch` defaults to the current device's. `user_source`, the part of `source` a user wrote,
    is shown apart in a CompileError. Callers on a hot path keep the Module (or its Functions):
    this function hashes the source on every call. The observer (`_observe`: the profiler) sees
    each call.
    """
    obs = _observe.observer
    if obs is not None:
        return obs.compile(_compile_module, source, dict(name_expressions=name_expressions, options=options,
                                                         arch=arch, user_source=user_source, name=name))
    return _compile_module(source, name_expressions=name_expressions, options=options, arch=arch,
                           user_source=user_source, name=name)


def _compile_module(source: str, *, name_expressions=(), options=(), arch=None, user_source=None, name=None):
    """`compile_module` itself."""
    options, name_expressions = tuple(options), tuple(name_expressions)
    if arch is None:
        dev_id = _device.get_device_id()
        arch = _archs.get(dev_id)
        if arch is None:
            arch = _archs[dev_id] = _device.Device(dev_id).arch
    key = _cache_key(source, options, name_expressions, arch)
    mod = _modules.get(key)
    if mod is None:
        with _compiling_guard:
            lock = _compiling.setdefault(key, threading.Lock())
        with lock:
            mod = _modules.get(key)  # built by the thread this one waited for
            if mod is None:
                try:
                    cubin, mapping = _load_or_compile_cubin(source, arch, options, name_expressions,
                                                            user_source=user_source, name=name, key=key)
                    mod = _modules[key] = Module(cubin, mapping, name=name or "")
                finally:
                    with _compiling_guard:
                        _compiling.pop(key, None)
    return mod
