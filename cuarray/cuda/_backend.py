"""Lazy access to cuda.core and cuda.bindings, and CUDA error checking.

`import cuarray` must work on a machine with no GPU, no driver and no CUDA libraries, and must be
fast. So nothing here imports cuda.core or cuda.bindings at module level: `core()` and `driver()`
import on first use and cache the module. Loader failures (cuda.pathfinder raises
`DynamicLibNotFoundError`, a RuntimeError, not an ImportError) become one `CUDARuntimeError` whose
message names the cause (no driver, no device, package missing) instead of a stack of loader internals.
"""

from __future__ import annotations

import functools
import os
import threading

from . import backend as _seam

__all__ = [
    "CUDARuntimeError",
    "NoDeviceError",
    "ForkedProcessError",
    "core",
    "driver",
    "nvrtc",
    "check",
    "is_available",
    "unavailable_reason",
    "ensure_initialized",
]

# cuarray's package folder (with a trailing separator): frames and files under it are the library's
# (memory hooks' and the profiler's stack walks skip them).
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class CUDARuntimeError(RuntimeError):
    """A CUDA driver or runtime call failed. `status` holds the CUresult (or None)."""

    def __init__(self, message: str, status=None):
        super().__init__(message)
        self.status = status


class NoDeviceError(CUDARuntimeError):
    """No usable CUDA device: no driver, no GPU, or the CUDA Python packages are missing."""


class ForkedProcessError(CUDARuntimeError):
    """This process was forked from one that had initialised CUDA: CUDA cannot be used here."""


# Their public home, so that a traceback names `cuarray.cuda.NoDeviceError`, the class users catch.
CUDARuntimeError.__module__ = NoDeviceError.__module__ = ForkedProcessError.__module__ = "cuarray.cuda"


# One thread imports the CUDA modules at a time. cuda.core's __init__ copies its versioned
# subpackage's namespace into its own (`globals().update(cu13.__dict__)`, __name__ and __spec__
# included), so a second thread's `import cuda.core` during the first one's can be handed the
# half-initialised cuda.core.cu13: "module 'cuda.core.cu13' has no attribute 'Device'" (the H100,
# 16 threads compiling their first kernels while the first-use thread imported cuda.core). The
# lock makes the others wait for the whole import; functools.cache alone lets each caller run it.
_import_lock = threading.RLock()


def _once(fn):
    """`fn()` cached, its first run under the import lock (later calls: one cache hit, no lock)."""
    cached = functools.cache(fn)

    @functools.wraps(fn)
    def locked():
        with _import_lock:
            return cached()

    return functools.cache(locked)


_core_override = None  # a stand-in for cuda.core (`use_core`: the fake device of the CPU tests)


def use_core(module) -> None:
    """Make `core()` return `module` (None: cuda.core again): the fake device
    (`cuarray.testing.fake_device`) hands its no-op launch and context-less devices here."""
    global _core_override
    _core_override = module


def _select(prev, new) -> None:
    """The backend seam (`backend.on_select`): `new.core` stands in for cuda.core while selected."""
    new.swap(prev, "core", _core_override, use_core)


_seam.on_select(_select)


def core():
    """The `cuda.core` module (imported on first use), or the stand-in given to `use_core`."""
    if _core_override is not None:
        return _core_override
    return _import_core()


@_once
def _import_core():
    try:
        import cuda.core as _core
    except Exception as exc:  # ImportError, or cuda-bindings missing underneath
        raise NoDeviceError(
            "cuda.core could not be imported ({}: {}); install cuarray with its dependencies "
            "(pip install cuarray[cu13])".format(type(exc).__name__, exc)
        ) from exc
    return _core


@_once
def driver():
    """The `cuda.bindings.driver` module (imported on first use)."""
    try:
        from cuda.bindings import driver as _driver
    except Exception as exc:
        raise NoDeviceError(
            "cuda.bindings could not be imported ({}: {})".format(type(exc).__name__, exc)
        ) from exc
    return _driver


@_once
def nvrtc():
    """The `cuda.bindings.nvrtc` module (imported on first use)."""
    from cuda.bindings import nvrtc as _nvrtc

    return _nvrtc


def _error_text(status) -> str:
    drv = driver()
    try:
        err, name = drv.cuGetErrorName(status)
        err2, text = drv.cuGetErrorString(status)
        return "{}: {}".format(name.decode(), text.decode())
    except Exception:
        return repr(status)


# CUresults after which the CUDA context is unusable (a kernel faulted): every later call fails.
_STICKY = {700: "illegal address", 710: "device-side assert", 714: "hardware stack error",
           715: "illegal instruction", 716: "misaligned address", 717: "invalid address space",
           718: "invalid program counter", 719: "launch failed"}
_fault: str | None = None      # the first sticky error's explanation, repeated by every later error
_last_user_kernel: str = ""   # the last RawKernel/RawModule function launched (note_user_kernel)


def note_user_kernel(name: str) -> None:
    """Remember the user kernel being launched: a later device fault names it (its launch returned
    long before the fault is seen)."""
    global _last_user_kernel
    _last_user_kernel = name


def _fault_text(status) -> str:
    """What a sticky error means, said once for the first and repeated for every later error."""
    global _fault
    if _fault is None:
        who = (" The last user kernel launched was {!r} (RawKernel/RawModule); cuarray's own kernels "
               "check their indices, so it is the likely cause.".format(_last_user_kernel)
               if _last_user_kernel else "")
        _fault = ("A kernel faulted on the device ({}); CUDA has made this process's context unusable: "
                  "every later GPU call fails. Restart the process.{} (docs/differences.md, "
                  "'Device faults')".format(_STICKY.get(int(status), "fault"), who))
    return _fault


def fault_seen(status) -> bool:
    """Whether `status` (a failed call's) is, or comes after, a device fault."""
    return _fault is not None or int(status) in _STICKY


def check(result):
    """Check a cuda.bindings call's `(CUresult, *outputs)` tuple; return the outputs.

    cuda.bindings never raises on CUDA errors, so every call goes through this.
    Returns None for no outputs, the single output for one, else a tuple.
    """
    status = result[0]
    if status != 0:  # CUDA_SUCCESS / cudaSuccess / NVRTC_SUCCESS are all 0
        text = _error_text(status)
        if fault_seen(status):
            text += ". " + _fault_text(status)
        raise CUDARuntimeError(text, status)
    n = len(result)
    if n == 1:
        return None
    if n == 2:
        return result[1]
    return result[1:]


_init_error: BaseException | None = None
_initialized = False
_fork_error: ForkedProcessError | None = None


def _after_fork_in_child() -> None:
    """os.fork() in a process that had initialised CUDA: the child inherits the parent's driver state,
    which CUDA does not support (its first driver call may fail obscurely or hang). Every later
    `ensure_initialized` raises ForkedProcessError instead, as PyTorch refuses CUDA in such a child."""
    global _initialized, _fork_error
    if _initialized:
        _initialized = False
        _fork_error = ForkedProcessError(
            "this process was forked (os.fork / multiprocessing's 'fork' start method) from a process "
            "that had already used the GPU, and CUDA cannot be used in such a child. Start worker "
            "processes with the 'spawn' or 'forkserver' start method instead "
            "(multiprocessing.get_context('spawn'), or multiprocessing.set_start_method('spawn') "
            "under `if __name__ == '__main__':`).")


os.register_at_fork(after_in_child=_after_fork_in_child)


def ensure_initialized() -> None:
    """Initialise the driver once; raise NoDeviceError naming the cause when there is no device
    (ForkedProcessError in a child forked after the parent used the GPU)."""
    global _initialized, _init_error
    if _initialized:
        return
    if _fork_error is not None:
        raise _fork_error
    if _init_error is not None:
        raise NoDeviceError(str(_init_error)) from None  # the first failure's message says why
    try:
        drv = driver()
        try:
            (err,) = drv.cuInit(0)
        except Exception as exc:  # DynamicLibNotFoundError: libcuda.so is not there
            # One line a user can act on; the loader's own error (cuda.pathfinder's wording) stays
            # on the exception as its __context__, for debugging, without its frames in the report.
            raise NoDeviceError(
                "no CUDA driver found: this machine has no NVIDIA driver (libcuda.so). cuarray needs an "
                "NVIDIA GPU of compute capability 7.5 or newer with its driver (CUDA 13: 580 or newer); "
                "`python -m cuarray info` shows what was found, docs/install.md ('Without a GPU') what "
                "works without one."
            ) from None
        if err != 0:
            name = getattr(err, "name", str(err))
            if name == "CUDA_ERROR_NO_DEVICE":
                raise NoDeviceError("the CUDA driver is installed but reports no CUDA device")
            raise NoDeviceError("the CUDA driver failed to initialise ({})".format(name))
        err, count = drv.cuDeviceGetCount()
        if err != 0 or count == 0:
            raise NoDeviceError("the CUDA driver is installed but reports no CUDA device")
    except NoDeviceError as exc:
        _init_error = exc
        raise
    _initialized = True


def is_available() -> bool:
    """True when a CUDA device can be used. Never raises."""
    try:
        ensure_initialized()
    except Exception:
        return False
    return True


def unavailable_reason() -> str | None:
    """Why no device can be used, or None when one can."""
    try:
        ensure_initialized()
    except Exception as exc:
        return str(exc)
    return None


def device_attributes(device_id: int) -> dict:
    """{CUDA runtime attribute name without 'cudaDevAttr': value} of one device. The runtime enum
    gives CuPy's names; its values are the driver's CU_DEVICE_ATTRIBUTE_* numbers, so the driver
    answers (cuarray needs no cudart). Attributes this driver does not know are left out."""
    from cuda.bindings import runtime as rt

    drv = driver()
    out = {}
    for attr in rt.cudaDeviceAttr:
        name = attr.name
        if not name.startswith("cudaDevAttr") or name.endswith("Max"):
            continue
        try:
            err, value = drv.cuDeviceGetAttribute(drv.CUdevice_attribute(int(attr)), device_id)
        except ValueError:  # not a driver attribute number
            continue
        if err == drv.CUresult.CUDA_SUCCESS:
            out[name[len("cudaDevAttr"):]] = int(value)
    return out
