"""The objects a launch takes, made through cuda.bindings' driver module alone: a loaded
`Library` (cuLibraryLoadData) and its `Kernel`s (CUkernel handles), `Stream` (a stream handle)
and `LaunchConfig`. They are what `launch.enqueue` and the C launcher (`_native/launch.c`, which
reads `.handle`, `.grid`, `.block`, `.shmem_size`, `.cluster`, `.is_cooperative` and
`.programmatic_stream_serialization`) see.

Why not cuda.core's: its import is 155-200 ms of Python that holds the GIL (measured on the H100),
which every process paid before its first upload, while a first upload, kernel load
and launch need only cuInit, the primary context, cuMemAlloc/cuMemcpy, cuLibraryLoadData and
cuLaunchKernel. cuda.core is imported lazily where a feature needs it (NVRTC's Program, graphs,
user-created streams' options, kernel attributes), and each object here turns into its cuda.core
twin on demand (`to_core`); user-created streams are made here too (`new_stream`). cuda.core's
`launch` is the fallback for what the C launcher does not
handle (cluster or cooperative launches, unusual arguments, `CUARRAY_PURE_PYTHON_LAUNCH=1`).
"""

from __future__ import annotations

from . import _backend
from . import device as _device

__all__ = ["Library", "Kernel", "Stream", "LaunchConfig", "new_stream", "to_core", "core_launch",
           "max_active_blocks", "param_sizes"]

# cuStreams with a meaning of their own (CU_STREAM_LEGACY, CU_STREAM_PER_THREAD).
LEGACY = 1
PER_THREAD = 2


def _dim3(v) -> tuple:
    t = tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else (int(v),)
    if not 1 <= len(t) <= 3:
        raise ValueError("a grid or block must have 1 to 3 dimensions, got {!r}".format(v))
    return t + (1,) * (3 - len(t))


class LaunchConfig:
    """Grid, block and dynamic shared memory of a launch (cuda.core's LaunchConfig fields, stored
    as it stores them: grid and block as 3-tuples)."""

    __slots__ = ("grid", "block", "shmem_size", "cluster", "is_cooperative",
                 "programmatic_stream_serialization", "_core")

    def __init__(self, grid, block, shmem_size: int = 0, is_cooperative: bool = False):
        self.grid = _dim3(grid)
        self.block = _dim3(block)
        self.shmem_size = int(shmem_size or 0)
        self.cluster = None
        self.is_cooperative = bool(is_cooperative)
        self.programmatic_stream_serialization = False
        self._core = None

    def __repr__(self) -> str:
        return "LaunchConfig(grid={}, block={}, shmem_size={}{})".format(
            self.grid, self.block, self.shmem_size, ", is_cooperative=True" if self.is_cooperative else "")


class Stream:
    """A stream handle as a launch takes it; `owner` keeps a stream created elsewhere (a cuda.core
    Stream) alive. Implements the CUDA stream protocol."""

    __slots__ = ("handle", "owner", "_core")

    def __init__(self, handle: int, owner=None):
        self.handle = int(handle)
        self.owner = owner
        self._core = owner

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.handle if self.handle else LEGACY)

    def __repr__(self) -> str:
        return "<cuarray stream handle {:#x}>".format(self.handle)


class _OwnedStream:
    """A stream this process created (cuStreamCreateWithPriority), destroyed with cuStreamDestroy
    when the last `Stream` holding it goes (as cuda.core's own Stream closes its stream)."""

    __slots__ = ("handle",)

    def __init__(self, flags: int, priority: int):
        self.handle = None
        self.handle = int(_backend.check(_backend.driver().cuStreamCreateWithPriority(flags, priority)))

    def __del__(self):
        h = self.handle
        if h is not None:
            try:
                _backend.driver().cuStreamDestroy(h)
            except Exception:  # interpreter shutdown: the driver may be gone already
                pass


_priority_ranges: dict = {}  # device id -> (least, greatest) stream priority (cuCtxGetStreamPriorityRange)


def new_stream(device_id: int, non_blocking: bool, priority: int | None) -> Stream:
    """A new stream on `device_id`, whose context is current in this thread, through the driver
    alone (a user-created stream: `cuda.Stream()`), as cuda.core's create_stream makes one: flags
    CU_STREAM_NON_BLOCKING or CU_STREAM_DEFAULT, the lowest priority unless one is given, ValueError
    for a priority outside the device's range. No cuda.core: its import (100-200 ms of Python on
    the H100 host) was the first user stream's cost (the streams-workspace bench row, 6x)."""
    rng = _priority_ranges.get(device_id)
    if rng is None:
        least, greatest = _backend.check(_backend.driver().cuCtxGetStreamPriorityRange())
        rng = _priority_ranges[device_id] = (int(least), int(greatest))
    least, greatest = rng
    if priority is None:
        priority = least
    elif not greatest <= int(priority) <= least:
        raise ValueError("stream priority {} is out of the device's range [{}, {}] (lower is higher priority)"
                         .format(priority, greatest, least))
    owner = _OwnedStream(1 if non_blocking else 0, int(priority))  # CU_STREAM_NON_BLOCKING / CU_STREAM_DEFAULT
    s = Stream(owner.handle)
    s.owner = owner  # (not a cuda.core twin: `to_core` makes one from the handle on demand)
    return s


class Library:
    """A cubin, fatbin or PTX loaded with cuLibraryLoadData (a CUlibrary: valid in every context),
    unloaded when the last of it and its kernels goes."""

    __slots__ = ("handle", "__weakref__")

    def __init__(self, code: bytes, code_type: str = "cubin"):
        if code_type == "ptx" and not bytes(code).endswith(b"\0"):
            code = bytes(code) + b"\0"  # the driver reads PTX up to its NUL
        self.handle = None
        drv = _backend.driver()
        self.handle = _backend.check(drv.cuLibraryLoadData(bytes(code), [], [], 0, [], [], 0))

    def get_kernel(self, name) -> "Kernel":
        """The kernel named `name` (its mangled name, str or bytes)."""
        if isinstance(name, str):
            name = name.encode()
        drv = _backend.driver()
        return Kernel(_backend.check(drv.cuLibraryGetKernel(self.handle, name)), self)

    def __del__(self):
        h = self.handle
        if h is not None:
            try:
                _backend.driver().cuLibraryUnload(h)
            except Exception:  # interpreter shutdown: the driver may be gone already
                pass


class Kernel:
    """A CUkernel of a `Library` (`handle` its address as an int). What cuda.core's Kernel offers
    beyond the launch (attributes, occupancy, argument info) comes from its cuda.core twin."""

    __slots__ = ("handle", "library", "_core", "__weakref__")

    def __init__(self, cu_kernel, library: Library | None = None):
        self.handle = int(cu_kernel)
        self.library = library
        self._core = None

    @property
    def attributes(self):
        return to_core(self).attributes

    @property
    def occupancy(self):
        return to_core(self).occupancy

    @property
    def arguments_info(self):
        return to_core(self).arguments_info

    @property
    def num_arguments(self):
        return to_core(self).num_arguments

    def __repr__(self) -> str:
        return "<cuarray kernel {:#x}>".format(self.handle)


def param_sizes(kernel: Kernel) -> tuple:
    """Each parameter's size in bytes (cuKernelGetParamInfo, index by index until the driver says
    there is no such parameter, as cuda.core's `arguments_info` asks). Raises where the driver
    lacks the call (< 12.4)."""
    drv = _backend.driver()
    k = drv.CUkernel(kernel.handle)
    out = []
    while True:
        err, _offset, size = drv.cuKernelGetParamInfo(k, len(out))
        if err == drv.CUresult.CUDA_ERROR_INVALID_VALUE:
            return tuple(out)
        _backend.check((err,))
        out.append(int(size))


def max_active_blocks(kernel, threads: int, shared_mem: int) -> int:
    """Blocks of `threads` threads and `shared_mem` dynamic shared bytes one SM holds at once for
    `kernel` in the current context (the driver's occupancy calculator; no cuda.core for ours)."""
    if type(kernel) is not Kernel:
        return int(kernel.occupancy.max_active_blocks_per_multiprocessor(threads, shared_mem))
    drv = _backend.driver()
    fn = _backend.check(drv.cuKernelGetFunction(drv.CUkernel(kernel.handle)))
    return int(_backend.check(drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(fn, threads, shared_mem)))


def to_core(obj):
    """The cuda.core twin of one of these objects (built once, then cached on it); anything else is
    returned as it is. Imports cuda.core: for the features that need it, never a first launch."""
    t = type(obj)
    if t is not Kernel and t is not Stream and t is not LaunchConfig:
        return obj
    c = obj._core
    if c is None:
        core = _backend.core()
        _device.core_device()  # cuda.core's own per-thread device state, set once
        if t is Kernel:
            c = core.Kernel.from_handle(obj.handle)
        elif t is Stream:
            h = obj.handle
            c = (core.LEGACY_DEFAULT_STREAM if h in (0, LEGACY) else
                 core.PER_THREAD_DEFAULT_STREAM if h == PER_THREAD else core.Stream.from_handle(h))
        else:
            kw = {"is_cooperative": True} if obj.is_cooperative else {}
            c = core.LaunchConfig(grid=obj.grid, block=obj.block, shmem_size=obj.shmem_size, **kw)
        obj._core = c
    return c


def core_launch(stream, config, kernel, *args) -> None:
    """cuda.core's `launch` with these objects turned into cuda.core's: the C launcher's fallback,
    and the raw launch when it is not built (or CUARRAY_PURE_PYTHON_LAUNCH=1)."""
    if type(config) is LaunchConfig:  # one of our launches: cuda.core's thread state set, once a thread
        _device.core_device()
    _backend.core().launch(to_core(stream), to_core(config), to_core(kernel), *args)
