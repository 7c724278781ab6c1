"""HOT PATH: launching a compiled kernel, and the one hook point every launch passes.

Measured on an H200 (cuda.core 1.2): cuda.core's `launch` with a cached Kernel and a cached
LaunchConfig costs 3.6 us with no arguments, 4.2 us with four; a fresh LaunchConfig adds 0.5 us;
cuLaunchKernel through cuda.bindings or ctypes costs 4.2-5.5 us, not less (docs/perf-notes.md),
hence the C path below. This module caches
LaunchConfigs, picks grids, and owns `enqueue`.

`enqueue(core_stream, config, kernel, *args)` is the call every kernel launch of cuarray makes
(prepared fast paths call it directly with `stream.current_core_stream()`; everything else goes
through `launch`). It *is* the raw launch function (no wrapper frame) until a hook is installed with
`set_launch_hook`; then it is a wrapper that hands each launch to the hook (the profiler and NVTX
ranges use it). Callers look it up as `launch.enqueue` at each call, or hold it as an attribute
kept equal to it (`hold_enqueue`: the engine's skeletons), so a hook sees every launch.
The raw launch function is `_launchcore.enqueue` (cuda/_native/launch.c: cuLaunchKernel from C,
cuda.core's signature and errors; it hands cluster, cooperative and unusual arguments to cuda.core)
when that optional extension is built, else (or with CUARRAY_PURE_PYTHON_LAUNCH=1) cuda.core's
`launch`; `implementation()` says which. The stream, config and kernel objects are
`_driver_objects`' (no cuda.core import before the first launch); cuda.core's `launch` gets their
cuda.core twins (`_driver_objects.core_launch`), and the C path hands it cuda.core's own objects
(a graph builder, a foreign stream) unchanged.

Kernel arguments must already be of their C type: numpy scalars (np.int32(n), np.float32(x), ...)
for values, Python ints for pointers (cuda.core passes a Python int as an 8-byte pointer).
"""

from __future__ import annotations

import ctypes
from os import environ as _environ

import numpy

from . import _backend, nvtx
from . import _driver_objects
from . import backend as _seam
from . import caches as _caches
from . import device as _device
from . import stream as _stream
from .limits import MAX_GRID_X
__all__ = ["launch", "enqueue", "set_launch_hook", "get_launch_hook", "launch_config", "grid_for",
           "grid_one_pass", "blocks_per_sm", "implementation", "MAX_GRID_X", "struct_arg", "StructBytes",
           "launch_struct", "hold_enqueue"]


_configs: dict = _seam.CUDA.table("launch configs")
# (read at each call: the selected backend's, `_select`)
_caches.register("launch configs", count=lambda: len(_configs), clear=lambda: _configs.clear())
_raw = None   # the raw launch function, picked on first use (`_pick`)
_native = None  # _launchcore.enqueue once `_pick` configured it
_hook = None


def _launch_error(status: int) -> None:
    """Raise what cuda.core's launch raises for a failed cuLaunchKernel (its CUDAError, its text);
    after a device fault (a sticky status, or one seen before), `_backend.check`'s CUDARuntimeError
    instead, which says that the context is unusable and names the last user kernel."""
    if _backend.fault_seen(status):
        _backend.check((status,))
    try:
        from cuda.core._utils.cuda_utils import _check_driver_error
    except ImportError:  # another cuda.core layout: our own error, same text as _backend.check's
        raise _backend.CUDARuntimeError(_backend._error_text(status), status) from None
    _check_driver_error(status)


def _driver_function_ptr(name: bytes, version: int) -> int:
    """The address of the driver's function `name` as of CUDA `version` (cuGetProcAddress), or 0."""
    try:
        _backend.ensure_initialized()
        drv = _backend.driver()
        flag = drv.CUdriverProcAddress_flags.CU_GET_PROC_ADDRESS_DEFAULT
        err, ptr, _status = drv.cuGetProcAddress(name, version, flag)
        return int(ptr) if err == 0 else 0
    except Exception:  # no driver: cuda.core's launch (cuda.bindings' call) will say so
        return 0


def _cu_launch_kernel_ptr() -> int:
    """cuLaunchKernel's address from the driver, or 0."""
    # 12000: the CUDA version from which cuLaunchKernel takes a CUkernel (cuda.core's handle)
    return _driver_function_ptr(b"cuLaunchKernel", 12000)


_graph_launch = None  # `graph_launcher()`'s answer once asked: the C function, or False


def _extension():
    """`_launchcore` (cuda/_native/launch.c, built by setup.py where a compiler exists), or None."""
    try:
        from . import _launchcore  # import time: at the first launch, not at `import cuarray`
    except ImportError:
        return None
    return _launchcore


def graph_launcher():
    """`_launchcore.graph_launch` (cuGraphLaunch from C: `status = f(exec handle, stream handle)`,
    both integers), or None where the extension or the driver's address is missing, or
    CUARRAY_PURE_PYTHON_LAUNCH=1 asks for cuda.bindings' calls (`graph.CUDAGraph.replay` then
    makes cuda.bindings' call)."""
    global _graph_launch
    if _graph_launch is None:
        _graph_launch = False
        if _environ.get("CUARRAY_PURE_PYTHON_LAUNCH", "0") in ("", "0"):
            _launchcore = _extension()
            ptr = _driver_function_ptr(b"cuGraphLaunch", 10000) if _launchcore is not None else 0
            if ptr:
                _launchcore.configure_graph_launch(ptr)
                _graph_launch = _launchcore.graph_launch
    return _graph_launch or None


def _pick():
    """The C launch path when the extension and the driver's cuLaunchKernel are there, else
    cuda.core's launch (CUARRAY_PURE_PYTHON_LAUNCH=1 forces it)."""
    global _native
    fallback = _with_structs(_driver_objects.core_launch)
    if _environ.get("CUARRAY_PURE_PYTHON_LAUNCH", "0") not in ("", "0"):
        return fallback
    _launchcore = _extension()
    if _launchcore is None:  # built without a compiler: cuda.core's launch does everything
        return fallback
    ptr = _cu_launch_kernel_ptr()
    if not ptr:
        return fallback
    _launchcore.set_scalar_types((numpy.generic, ctypes._SimpleCData))
    # (the C path hands the fallback what it does not pack: a StructBytes among them, its TypeError)
    _launchcore.configure(ptr, fallback, _launch_error, _driver_objects.Stream, _driver_objects.LaunchConfig,
                          _driver_objects.Kernel)
    _native = _launchcore.enqueue
    return _native


def implementation() -> str:
    """Which raw launch function runs: "native" (cuLaunchKernel from C) or "cuda.core". Without a
    driver nothing is decided yet (the choice is made at the first launch, and is not cached from
    a machine where none can happen): the answer is then what the first launch will choose where
    a driver exists, as `python -m cuarray info` prints it."""
    if _raw is None and _backend.unavailable_reason() is not None:
        if _environ.get("CUARRAY_PURE_PYTHON_LAUNCH", "0") not in ("", "0"):
            return "cuda.core"
        return "cuda.core" if _extension() is None else "native"
    if _raw is None:
        _install()
    return "native" if _raw is _native and _raw is not None else "cuda.core"


def _install() -> None:
    """Point `enqueue` at the raw launch function, or at a wrapper calling the hook."""
    global _raw
    if _raw is None:
        _raw = _pick()
    hook, raw = _hook, _raw
    if hook is None:
        _set_enqueue(raw)
        return

    def hooked(stream, config, kernel, *args):
        hook(raw, stream, config, kernel, args)

    _set_enqueue(hooked)


def _first_enqueue(stream, config, kernel, *args) -> None:
    _install()
    if _environ.get("CUARRAY_NVTX"):
        if nvtx.wanted_from_env() and _hook is None:  # a missing `nvtx` package raises ImportError here
            set_launch_hook(nvtx.launch_hook())
    enqueue(stream, config, kernel, *args)


enqueue = _first_enqueue
# Objects holding `enqueue` as their attribute of that name (the engine's kernel skeletons,
# `kernel_family.Skeleton`, whose launch sites are the ufuncs' prepared ones): `_set_enqueue` keeps
# it equal to this module's, so such a site reads it as cheaply as `launch.enqueue` (a property
# would add ~70 ns a launch) and a hook sees its launches. (A tuple: the declarations made at
# import, never a memo.)
_holders: tuple = ()


def _set_enqueue(f) -> None:
    """`enqueue = f`, here and in every holder: the one way it changes."""
    global enqueue
    enqueue = f
    for h in _holders:
        h.enqueue = f


def hold_enqueue(holder) -> None:
    """Keep `holder.enqueue` equal to `enqueue` from now on."""
    global _holders
    _holders += (holder,)
    holder.enqueue = enqueue


def reset() -> None:
    """Make the next launch pick its path and hook again (`_first_enqueue`)."""
    _set_enqueue(_first_enqueue)


def _select(prev, new) -> None:
    """The backend seam (`backend.on_select`): the raw launch, the hook, the launch configs and the
    config maker become `new`'s (`prev`'s kept in its table for its return); `enqueue` is installed
    again, so the hot path reads the same globals under any backend."""
    global _raw, _hook, _configs, launch_config
    kept = prev.table("launch")
    kept["raw"], kept["hook"] = _raw, _hook
    mine = new.table("launch")
    _raw = new.launch if new.launch is not None else mine.get("raw")
    _hook = mine.get("hook")
    _configs = new.table("launch configs")
    launch_config = _launch_config if new.launch_config is None else new.launch_config
    if new.launch is not None:
        _install()
    else:
        reset()  # a real launch picks its path and hook at its first call, as at start-up


def set_launch_hook(hook):
    """Route every kernel launch of cuarray through ``hook(launch, stream, config, kernel, args)``,
    which must call ``launch(stream, config, kernel, *args)`` itself (the raw launch: record
    events around it, push an NVTX range, count...). None removes the hook. Returns the previous
    one. Not thread-local: a hook sees the launches of every thread."""
    global _hook
    if hook is not None and not callable(hook):
        raise TypeError("a launch hook must be callable (or None), got {}".format(type(hook).__name__))
    prev = _hook
    _hook = hook
    _install()
    return prev


def get_launch_hook():
    """The installed launch hook, or None."""
    return _hook


def _launch_config(grid, block, shared_mem: int = 0, cooperative: bool = False):
    """A cached LaunchConfig (`_driver_objects`: cuda.core's fields, no cuda.core) for (grid,
    block, shared_mem[, cooperative launch])."""
    key = (grid, block, shared_mem) if not cooperative else (grid, block, shared_mem, True)
    cfg = _configs.get(key)
    if cfg is None:
        cfg = _configs[key] = _driver_objects.LaunchConfig(grid, block, shared_mem, cooperative)
    return cfg


launch_config = _launch_config  # (the selected backend's: `_select`)


def launch(kernel, grid, block, args, shared_mem: int = 0, stream=None, cooperative: bool = False) -> None:
    """Launch a cuda.core Kernel on `stream` (default: the current stream).

    `grid` and `block` are ints or tuples. A zero-sized grid is never launched (CUDA rejects it);
    callers skip empty work before getting here, this is the last guard.
    """
    cs = _stream.current_core_stream() if stream is None else _stream.core_stream(stream)
    cfg = _configs.get((grid, block, shared_mem) if not cooperative else (grid, block, shared_mem, True))
    if cfg is None:
        if grid == 0 or (isinstance(grid, tuple) and 0 in grid):
            return
        cfg = launch_config(grid, block, shared_mem) if not cooperative else launch_config(grid, block, shared_mem, True)
    enqueue(cs, cfg, kernel, *args)


# -- structs as kernel arguments ------------------------------------------------------------------
# Both launch paths (ours in C and cuda.core's) hand cuLaunchKernel one pointer per parameter, and the
# driver copies as many bytes from it as the kernel's image says the parameter has, at the offset the
# image gives: so a struct of n <= 16 bytes travels as the bytes of a numeric scalar at least n bytes
# wide (the driver reads the first n), with no change to either path. Larger structs have no numeric
# carrier: `_launch_param_pointers` builds the pointer array itself, reached from any launch through
# the raw launch's cuda.core fallback (`_with_structs`: cuda.core refuses a StructBytes with a
# TypeError before launching anything), so the numeric paths do no extra work for it.
_CARRIERS = ((1, "u1"), (2, "u2"), (4, "u4"), (8, "u8"), (16, "c16"))


class StructBytes:
    """The bytes of a struct argument wider than 16 bytes (`launch_struct` passes them)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data


def struct_arg(value):
    """A structured NumPy scalar (`numpy.void`) as a kernel argument: the C struct whose layout is
    its dtype's (field offsets, padding and itemsize as NumPy lays them out; build the dtype with
    `align=True` or explicit `offsets`/`itemsize` to match the C declaration)."""
    data = value.tobytes()
    for width, code in _CARRIERS:
        if len(data) <= width:
            return numpy.frombuffer(data.ljust(width, b"\0"), dtype=code)[0]
    return StructBytes(data)


def _dim3(v) -> tuple:
    t = tuple(v) if isinstance(v, (tuple, list)) else (int(v),)
    return t + (1,) * (3 - len(t))


def _launch_param_pointers(stream, config, kernel, *args) -> None:
    """The raw launch of `launch_struct`: cuLaunchKernel with a pointer per parameter."""
    bufs = []
    for a in args:
        if type(a) is int:
            b = a.to_bytes(8, "little", signed=a < 0)
        elif type(a) is StructBytes:
            b = a.data
        else:
            b = a.tobytes()
        bufs.append(ctypes.create_string_buffer(b, max(len(b), 1)))
    ptrs = (ctypes.c_void_p * max(len(bufs), 1))(*[ctypes.addressof(b) for b in bufs])
    drv = _backend.driver()
    _device._core_device()  # (the stream's context current in this thread)
    g, b = _dim3(config.grid), _dim3(config.block)
    fn = drv.CUfunction(int(kernel.handle))  # a CUkernel is accepted as a CUfunction (CUDA >= 12.0)
    call = drv.cuLaunchCooperativeKernel if config.is_cooperative else drv.cuLaunchKernel
    extra = () if config.is_cooperative else (0,)
    err = call(fn, *g, *b, int(config.shmem_size or 0), drv.CUstream(int(stream.handle)),
               ctypes.addressof(ptrs), *extra)[0]
    if int(err) != 0:
        _launch_error(int(err))


def _with_structs(core_launch):
    """cuda.core's `launch`, or `_launch_param_pointers` where it refused the arguments and one is a
    StructBytes (a struct past 16 bytes, passed by value at any size)."""

    def launch_or_struct(stream, config, kernel, *args):
        try:
            return core_launch(stream, config, kernel, *args)
        except TypeError:
            for a in args:
                if type(a) is StructBytes:
                    break
            else:
                raise
        _launch_param_pointers(stream, config, kernel, *args)

    launch_or_struct.__wrapped__ = core_launch
    return launch_or_struct


def launch_struct(kernel, grid, block, args, shared_mem: int = 0, stream=None, cooperative: bool = False) -> None:
    """`launch` for arguments that include a struct wider than 16 bytes (a `StructBytes`); the
    launch hook sees it as every other launch."""
    if grid == 0 or (isinstance(grid, tuple) and 0 in grid):
        return
    cs = _stream.current_core_stream() if stream is None else _stream.core_stream(stream)
    cfg = launch_config(grid, block, shared_mem, cooperative)
    if _hook is None:
        _launch_param_pointers(cs, cfg, kernel, *args)
    else:
        _hook(_launch_param_pointers, cs, cfg, kernel, tuple(args))


def grid_one_pass(n: int, block: int = 256) -> int:
    """Blocks for `n` items, one item per thread: one pass over the data (elementwise kernels).

    Measured on an H200 (scripts/perf/ew_variants.py, x*2 float32, 1 GiB): a one-pass grid moved
    1.00x the device copy rate; a grid-stride loop capped at 4-32 blocks per SM only 0.90-0.97x,
    whatever the unrolling. The elementwise kernels have no loop at all, so a grid past the limit
    (2^31 - 1 blocks: over 5e11 elements, more than any GPU holds) is an error, not a cap.
    """
    blocks = (n + block - 1) // block
    if blocks > MAX_GRID_X:
        raise ValueError("{} items need {} blocks of {}, past the grid limit".format(n, blocks, block))
    return max(blocks, 1)


_resident: dict = {}  # (kernel, threads a block, dynamic shared bytes) -> blocks an SM
_caches.register("launch occupancy", _resident)


def blocks_per_sm(kernel, threads: int, shared_mem: int = 0) -> int:
    """How many blocks of `threads` threads and `shared_mem` bytes of dynamic shared memory one SM
    holds at once (the driver's occupancy calculator: registers, shared memory, threads), cached:
    a grid of this times the SM count runs in one wave (kernels that walk their own range of the
    work, where a second wave would double the time)."""
    key = (kernel, threads, shared_mem)
    n = _resident.get(key)
    if n is None:
        n = _resident[key] = _driver_objects.max_active_blocks(kernel, threads, shared_mem)
    return n


# Blocks resident per SM that a persistent grid-stride loop aims for (reductions and other
# kernels that want few, long-lived blocks): 2048 threads/SM = 8 blocks of 256 on Hopper.
_BLOCKS_PER_SM = 8


def grid_for(n: int, block: int = 256, per_thread: int = 1) -> int:
    """Blocks for a grid-stride loop over `n` items, `per_thread` items per thread per step:
    at most `_BLOCKS_PER_SM` blocks on every SM, fewer when the work fits in one wave."""
    per_block = block * per_thread
    blocks = (n + per_block - 1) // per_block
    cap = _device._sm_count(_device.get_device_id()) * _BLOCKS_PER_SM
    if blocks > cap:
        blocks = cap
    return max(blocks, 1)


_seam.on_select(_select)
