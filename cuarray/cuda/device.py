"""Devices and the current device of each thread.

`Device(i)` is a light handle (an int and a few cached properties), like `cupy.cuda.Device`.
`_core_device()` makes the device's primary context current in the calling thread, through the
driver alone (`_Context`: cuDevicePrimaryCtxRetain once per process, cuCtxSetCurrent once per
thread): no cuda.core import on the way to a first upload or launch (its import is 155-200 ms of
Python holding the GIL, measured on the H100). `core_device()` is cuda.core's Device, made
current in the thread once, for the features that need cuda.core (stream options, device name).

Threads (docs/runtime.md, "Threads and processes"): the current device is per thread (a thread
starts on device 0), as in CUDA itself, and any thread may use any device whichever thread
initialised it. A driver context is current per thread too, and a thread that cuarray has not seen
has none: `_tls.active_context` records which device's context cuarray made current in this thread,
and every entry to the driver (`_core_device`; the launch path's inline check in stream.py's
`current_core_stream`) makes the current device's context current when it differs.

Processes: a child forked after the parent used the GPU cannot use CUDA; its thread state is reset
here and its first device use raises `ForkedProcessError` (cuda/_backend.py).
"""

from __future__ import annotations

import operator
import os
import threading

from . import _backend
from . import _kernel_cache
from . import backend as _seam
from . import _sync_hooks

__all__ = ["Device", "get_device_id", "get_device_count", "synchronize", "enable_peer_access",
           "can_access_peer", "peer_access_enabled", "pointer_device_id", "get_cublas_handle",
           "get_cusolver_handle", "get_cusparse_handle"]

class _ThreadState(threading.local):
    def __init__(self):
        # Run in each thread at its first use: every name is in the thread's own dict from the
        # start, where the C readers look first (cuda/_native/tls_dict.h; a class default there is
        # a full attribute look-up), and a missing name would cost a caught exception on every
        # read. These are read on every allocation and launch.
        self.device_id = 0
        self.made_current = None  # device id -> the _Context made current in this thread at its first use
        self.core_made = None  # device id -> cuda.core Device whose set_current() ran in this thread
        self.active_context = None  # the device whose context cuarray last made current in this thread


_tls = _ThreadState()


def _reset_after_fork() -> None:
    # The forking thread's state is copied into the child: forget its contexts, so that the child's
    # first device use goes through `_check_ordinal` and raises _backend's ForkedProcessError.
    _tls.made_current = None
    _tls.core_made = None
    _tls.active_context = None
    _primary.clear()


os.register_at_fork(after_in_child=_reset_after_fork)


def _select(prev, new) -> None:
    """The backend seam (`backend.on_select`): a backend's `properties` simulate the device while it
    is selected; under a backend whose contexts count as current (the fake device's recorder, which
    has none) the selecting thread's current device's context is current, so its launches make no
    driver call, and going back restores what this thread had."""
    new.swap(prev, "properties", _simulated, simulate)
    if new.returns_from(prev):
        if prev.contexts_current:
            _tls.active_context = prev.table("device").pop("active context")
    elif new.contexts_current:
        new.table("device")["active context"] = _tls.active_context
        _tls.active_context = _tls.device_id


_seam.on_select(_select)


def get_device_id() -> int:
    """The current thread's device ordinal (0 until `Device(i).use()`)."""
    return _tls.device_id


_primary: dict = {}  # device id -> its primary CUcontext, retained once (never released, as cuda.core's)
_primary_lock = threading.Lock()


class _Context:
    """A device's primary context, made current in a thread by `set_current()` (what cuda.core's
    Device.set_current does, through the driver alone). On a simulated device (`simulate`, the
    fake device of the CPU tests) it holds no context and calls no driver."""

    __slots__ = ("id", "ctx")

    def __init__(self, device_id: int):
        self.id = device_id
        ctx = _primary.get(device_id)
        if ctx is None and _simulated is not None:
            ctx = None  # a simulated device (`simulate`): no driver, nothing to make current
        elif ctx is None:
            with _primary_lock:
                ctx = _primary.get(device_id)
                if ctx is None:
                    drv = _backend.driver()
                    ctx = _primary[device_id] = _backend.check(
                        drv.cuDevicePrimaryCtxRetain(_backend.check(drv.cuDeviceGet(device_id))))
        self.ctx = ctx

    def set_current(self) -> None:
        if self.ctx is not None:
            _backend.check(_backend.driver().cuCtxSetCurrent(self.ctx))


def core_device(device_id: int | None = None):
    """cuda.core's Device for `device_id` (default: the current device), made current in this
    thread: for what needs cuda.core (creating streams with options, the device's name). Imports
    cuda.core."""
    if device_id is None:
        device_id = get_device_id()
    _core_device(device_id)
    made = _tls.core_made
    if made is None:
        made = _tls.core_made = {}
    dev = made.get(device_id)
    if dev is None:
        dev = _backend.core().Device(device_id)
        dev.set_current()  # the context is already current: cuda.core records its thread state
        made[device_id] = dev
    return dev


def _core_device(device_id: int | None = None):
    """Make `device_id`'s primary context current in this thread (its first time: the ordinal
    checked, the driver initialised); returns its `_Context`. No cuda.core."""
    if device_id is None:
        device_id = get_device_id()
    made = _tls.made_current
    if made is None:
        made = _tls.made_current = {}
    dev = made.get(device_id)
    if dev is None:
        if _first_use[0]:
            _init_overlapped(device_id)
        _check_ordinal(device_id)
        dev = _Context(device_id)
        dev.set_current()
        made[device_id] = dev
        note_device(device_id)
    elif _tls.active_context != device_id:
        dev.set_current()
    _tls.active_context = device_id
    return dev


_first_use = [True]
_first_lock = threading.Lock()

# Set, for good, once this process has used a second device (made current in any thread, or
# memory of another device wrapped by interop). Until then no operand can live on a device other
# than the current one, so the engines skip the device check (`_core/device_check.py`): a
# one-GPU process pays one list subscript an operation. A list so that modules bind it once.
multi_device = [False]
_seen_devices: set = set()


def note_device(device_id: int) -> None:
    """Record that `device_id` is in use; a second one turns on the engines' device checks."""
    if device_id not in _seen_devices:
        _seen_devices.add(device_id)
        if len(_seen_devices) > 1:
            multi_device[0] = True


def _cache_is_empty() -> bool:
    """Whether the kernel disk cache holds nothing yet (a fresh machine or cache directory): the
    process's first kernel will then be compiled, with NVRTC through cuda.core's Program."""
    try:
        with os.scandir(_kernel_cache.get_cache_dir()) as it:
            return next(it, None) is None
    except OSError:  # no directory yet
        return True


def _init_overlapped(device_id: int) -> None:
    """The process's first use of the driver: cuInit and the device's primary context.

    Both run inside the driver, which cuda.bindings calls without the GIL (~100-200 ms on an H100
    box, docs/perf-notes.md), so a Python import in another thread overlaps them. The first use
    itself needs no cuda.core (contexts, streams, copies, kernel loads and launches go through
    cuda.bindings' driver module; importing cuda.core here cost every process 155-200 ms
    of Python its first upload waited for). Only where the kernel disk cache is empty, so that the
    first kernel will be compiled with NVRTC through cuda.core's Program, does a thread import
    cuda.core here, overlapping the driver's work as before. With CUARRAY_PREFETCH_LIBS=1 the
    math libraries' bindings start importing here too. Errors surface in the caller.
    """
    with _first_lock:
        if not _first_use[0]:
            return
        _first_use[0] = False
    want_core = _cache_is_empty()
    prefetch = os.environ.get("CUARRAY_PREFETCH_LIBS", "0")  # "1": cuBLAS bindings; names: dlopen only
    prefetch = "" if prefetch in ("", "0") else prefetch
    thread = None
    if want_core or prefetch:
        try:
            # Every import the driver calls below need happens first: the threads then never wait
            # on each other's module locks (a cycle there is a deadlock error).
            drv = _backend.driver()
            drv.cuDriverGetVersion()  # loads libcuda without initialising it
        except Exception:
            return  # no driver: the caller's ensure_initialized() says why
        if want_core:
            thread = threading.Thread(target=_import_core_quietly, name="cuarray-import-cuda.core", daemon=True)
            thread.start()
        if prefetch and _libraries is not None:
            # Opt-in (docs/perf-notes.md, "First call into a math library"): the cuBLAS bindings'
            # import in the background ("1"), or the named libraries' dlopen without the GIL
            # (cuda/libs/_preload.py; not joined: it overlaps the context and what follows).
            _libraries.prefetch(None if prefetch == "1" else prefetch.split(","))
    try:
        _backend.ensure_initialized()
        if thread is not None and 0 <= device_id < _backend.check(_backend.driver().cuDeviceGetCount()):
            _Context(device_id)  # the primary context, while the import runs (kept for the caller)
    except Exception:
        pass  # the caller's own checks raise the right error
    finally:
        if thread is not None:
            thread.join()


def _import_core_quietly() -> None:
    try:
        _backend.core()
    except BaseException:  # noqa: BLE001 - reported again by the caller's own _backend.core()
        pass


# A simulated device's properties while one stands in for the GPU (`simulate`: the fake device of
# the CPU tests and perf scripts), else None.
_simulated = None


def simulate(properties: dict | None) -> None:
    """Run on a simulated device (`cuarray.testing.fake_device`): no ordinal check and no driver
    start-up at the first use, and the device properties the planners ask for come from
    `properties` ("multiprocessor_count", "max_shared_memory_per_block", optionally
    "max_shared_memory_per_block_optin": else the plain limit); None ends it."""
    global _simulated
    _simulated = None if properties is None else dict(properties)
    if properties is not None:
        _first_use[0] = False
    _SM_COUNT.clear()
    _CC.clear()
    _tls.made_current = None
    _SHARED_PER_BLOCK.clear()
    _SHARED_PER_BLOCK_OPTIN.clear()


def _check_ordinal(device_id: int) -> None:
    """Raise CUDARuntimeError (CUDA's invalidDevice) unless `device_id` names a device here."""
    if _simulated is not None:
        return
    _backend.ensure_initialized()
    count = get_device_count()
    if not 0 <= device_id < count:
        raise _backend.CUDARuntimeError(
            "invalid device ordinal {} (this machine has {} CUDA device(s))".format(device_id, count)
        )


def get_device_count() -> int:
    """How many CUDA devices the driver sees (0 when there is no driver)."""
    if not _backend.is_available():
        return 0
    return _backend.check(_backend.driver().cuDeviceGetCount())


def synchronize() -> None:
    """Wait for all work on the current device."""
    _sync_hooks.check_not_capturing()
    if _simulated is None:  # (a simulated device has no driver and no work to wait for)
        _context_synchronize()
    _sync_hooks.run()


def _context_synchronize(device_id: int | None = None) -> None:
    """Wait for all work on `device_id` (default: the current device), with no sync hooks: through
    the driver and `_backend.check`, so that a device fault seen here is explained as everywhere
    else (cuda.core's Device.sync raises its own CUDAError, without that explanation)."""
    _core_device(device_id)
    _sync_hooks.enter_device_wait()  # (not during another thread's capture: the driver refuses it)
    try:
        _backend.check(_backend.driver().cuCtxSynchronize())
    finally:
        _sync_hooks.leave_device_wait()


class Device:
    """A CUDA device. `with Device(1):` or `Device(1).use()` makes it current for this thread.

    See `cupy.cuda.Device`. Creating one touches no driver; properties do.
    """

    __slots__ = ("id", "_prev")

    def __init__(self, device: int | "Device" | None = None):
        if device is None:
            device = get_device_id()
        elif isinstance(device, Device):
            device = device.id
        device = int(device)
        if device < 0:
            raise ValueError("device ordinal must be >= 0, got {}".format(device))
        self.id = device
        self._prev = []

    def __int__(self) -> int:
        return self.id

    __index__ = __int__

    def __eq__(self, other) -> bool:
        return isinstance(other, Device) and other.id == self.id

    # Ordered by ordinal, as CuPy's Devices are (sorting a list of devices works).
    def __lt__(self, other):
        return self.id < other.id if isinstance(other, Device) else NotImplemented

    def __le__(self, other):
        return self.id <= other.id if isinstance(other, Device) else NotImplemented

    def __gt__(self, other):
        return self.id > other.id if isinstance(other, Device) else NotImplemented

    def __ge__(self, other):
        return self.id >= other.id if isinstance(other, Device) else NotImplemented

    @classmethod
    def from_pci_bus_id(cls, pci_bus_id: str, unique_id: bool = False) -> "Device":
        """The device at a PCI bus id ("0000:3b:00.0"). See `cupy.cuda.Device.from_pci_bus_id`."""
        _backend.ensure_initialized()
        dev = _backend.check(_backend.driver().cuDeviceGetByPCIBusId(pci_bus_id.encode()))
        return cls(int(dev))

    @classmethod
    def from_pointer(cls, ptr) -> "Device":
        """The device that owns the memory at `ptr` (an int, or anything with ``.ptr``: a
        `MemoryPointer`), by cuPointerGetAttribute. See `cupy.cuda.Device.from_pointer`."""
        return cls(pointer_device_id(getattr(ptr, "ptr", ptr)))

    @property
    def cublas_handle(self) -> int:
        """This thread's cuBLAS handle for this device, as an int (CuPy's `Device.cublas_handle`)."""
        with self:
            return get_cublas_handle()

    @property
    def cusolver_handle(self) -> int:
        """This thread's cuSOLVER (dense) handle for this device, as an int."""
        with self:
            return get_cusolver_handle()

    @property
    def cusparse_handle(self) -> int:
        """This thread's cuSPARSE handle for this device, as an int."""
        with self:
            return get_cusparse_handle()

    def __hash__(self) -> int:
        return hash(("cuarray.Device", self.id))

    def __repr__(self) -> str:
        return "<CUDA Device {}>".format(self.id)

    def use(self) -> None:
        """Make this the current device of the calling thread."""
        _core_device(self.id)
        _tls.device_id = self.id

    def __enter__(self) -> "Device":
        self._prev.append(get_device_id())
        self.use()
        return self

    def __exit__(self, *exc) -> None:
        Device(self._prev.pop()).use()

    def synchronize(self) -> None:
        """Wait for all work on this device."""
        _sync_hooks.check_not_capturing()
        _context_synchronize(self.id)
        _sync_hooks.run()

    @property
    def _core(self):
        """cuda.core's Device (imports cuda.core: not for the first-use path)."""
        return core_device(self.id)

    @property
    def name(self) -> str:
        return self._core.name

    @property
    def compute_capability(self) -> str:
        """Major and minor version as a string, e.g. ``'90'`` (CuPy's convention)."""
        return "{}{}".format(*_compute_capability(self.id))

    @property
    def arch(self) -> str:
        """The NVRTC architecture for this device, e.g. ``'sm_90'``."""
        return "sm_" + self.compute_capability

    @property
    def multiprocessor_count(self) -> int:
        return _sm_count(self.id)

    @property
    def mem_info(self) -> tuple[int, int]:
        """``(free, total)`` device memory in bytes, as the driver reports them."""
        _core_device(self.id)
        free, total = _backend.check(_backend.driver().cuMemGetInfo())
        return int(free), int(total)

    @property
    def attributes(self) -> dict:
        """Every device attribute by CUDA's name without its prefix (``cudaDevAttrMaxThreadsPerBlock``
        -> ``'MaxThreadsPerBlock'``), as `cupy.cuda.Device.attributes` names them."""
        _core_device(self.id)
        return _backend.device_attributes(self.id)

    @property
    def pci_bus_id(self) -> str:
        return self._core.pci_bus_id


_SM_COUNT: dict[int, int] = {}
_SHARED_PER_BLOCK: dict[int, int] = {}
_SHARED_PER_BLOCK_OPTIN: dict[int, int] = {}


def _sm_count(device_id: int) -> int:
    """Multiprocessor count, cached: the launch path reads it for every grid choice."""
    n = _SM_COUNT.get(device_id)
    return n if n is not None else _cached_attribute(_SM_COUNT, device_id, "multiprocessor_count",
                                                     "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT")


def _shared_per_block(device_id: int) -> int:
    """cudaDevAttrMaxSharedMemoryPerBlock (the dynamic shared memory a block may use without
    opting in to more), queried once per device (`limits.shared_per_block` is the public way)."""
    n = _SHARED_PER_BLOCK.get(device_id)
    return n if n is not None else _cached_attribute(_SHARED_PER_BLOCK, device_id, "max_shared_memory_per_block",
                                                     "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK")


def _shared_per_block_optin(device_id: int) -> int:
    """cudaDevAttrMaxSharedMemoryPerBlockOptin (the most dynamic shared memory a block may use once
    its kernel opts in), queried once per device (`limits.shared_per_block_optin`); a simulated
    device's "max_shared_memory_per_block_optin", else its plain limit."""
    n = _SHARED_PER_BLOCK_OPTIN.get(device_id)
    if n is not None:
        return n
    if _simulated is not None:
        n = _SHARED_PER_BLOCK_OPTIN[device_id] = _simulated.get("max_shared_memory_per_block_optin",
                                                                _simulated["max_shared_memory_per_block"])
        return n
    return _cached_attribute(_SHARED_PER_BLOCK_OPTIN, device_id, "max_shared_memory_per_block_optin",
                             "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN")


def _cached_attribute(cache: dict, device_id: int, simulated_key: str, name: str) -> int:
    """A device attribute into `cache`: a simulated device's from its properties (`simulate`),
    else the driver's CU_DEVICE_ATTRIBUTE_* `name`."""
    n = cache[device_id] = _simulated[simulated_key] if _simulated is not None else _attribute(device_id, name)
    return n


def _attribute(device_id: int, name: str) -> int:
    """One CU_DEVICE_ATTRIBUTE_* of a device, from the driver (the driver initialised first)."""
    _check_ordinal(device_id)
    drv = _backend.driver()
    return int(_backend.check(drv.cuDeviceGetAttribute(getattr(drv.CUdevice_attribute, name), device_id)))


_CC: dict[int, tuple[int, int]] = {}


def _compute_capability(device_id: int) -> tuple[int, int]:
    """(major, minor), cached (the compiler asks it for every device's first kernel)."""
    cc = _CC.get(device_id)
    if cc is None and _simulated is not None:
        cc = tuple(_simulated.get("compute_capability", (9, 0)))
    elif cc is None:
        cc = _CC[device_id] = (_attribute(device_id, "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR"),
                               _attribute(device_id, "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"))
    return cc


_peer_access: dict = {}  # (device, peer) -> whether device's kernels and copies reach peer's memory
_peer_allowed: set = set()  # (device, peer) pairs a user enabled: operations may mix them


def can_access_peer(device: int, peer: int) -> bool:
    """Whether `device` can reach `peer`'s memory directly (cuDeviceCanAccessPeer). Ordinals or
    `Device`s; TypeError for other types, CUDARuntimeError for a device this machine lacks."""
    device, peer = operator.index(device), operator.index(peer)
    _check_ordinal(device)
    _check_ordinal(peer)
    if device == peer:
        return False
    drv = _backend.driver()
    return bool(_backend.check(drv.cuDeviceCanAccessPeer(
        _backend.check(drv.cuDeviceGet(device)), _backend.check(drv.cuDeviceGet(peer)))))


def ensure_peer_access(peer: int) -> bool:
    """Turn on direct access from the current device to `peer`'s memory where the hardware
    allows (cuCtxEnablePeerAccess), once per pair and process; False where it cannot (copies
    then go through the host, which the driver does by itself). For cuarray's own copies: it
    does not let operations mix the two devices (`enable_peer_access` does). Without it a 1 GiB
    copy between two H200s ran at 37 GB/s, through the host, against ~380 GB/s for CuPy and
    PyTorch, which enable it."""
    dev, peer = get_device_id(), operator.index(peer)
    key = (dev, peer)
    ok = _peer_access.get(key)
    if ok is None:
        ok = dev != peer and can_access_peer(dev, peer)
        if ok:
            drv = _backend.driver()
            _core_device(peer)
            peer_ctx = _backend.check(drv.cuCtxGetCurrent())
            _core_device(dev)
            (err,) = drv.cuCtxEnablePeerAccess(peer_ctx, 0)
            if err != drv.CUresult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
                _backend.check((err,))
        _peer_access[key] = ok
    return ok


def enable_peer_access(peer: int) -> bool:
    """Let the current device reach `peer`'s memory directly, and let operations on the
    current device take arrays of `peer` as operands (CuPy's rule: without peer access such an
    operation raises ValueError). Returns False, allowing nothing, where the hardware cannot.
    Ordering is the caller's: a kernel here does not wait for work queued on `peer`'s streams."""
    peer = operator.index(peer)
    ok = ensure_peer_access(peer)
    if ok:
        _peer_allowed.add((get_device_id(), peer))
    return ok


def peer_access_enabled(device: int, peer: int) -> bool:
    """Whether `enable_peer_access(peer)` succeeded under `device` in this process."""
    return (device, peer) in _peer_allowed


def check_operand_device(device_id: int) -> None:
    """Raise ValueError unless memory of `device_id` may be an operand of an operation on the
    current device: it is the current device, or peer access to it was enabled
    (`_core/device_check.py` says where the engines ask)."""
    cur = _tls.device_id
    if device_id != cur and (cur, device_id) not in _peer_allowed:
        raise ValueError(
            "an operand is on device {0} but the current device is {1}: operations do not mix devices "
            "(no silent copies). Run it under `with cuarray.cuda.Device({0}):`, copy the operand here "
            "with `cuarray.asarray(x)` or `x.to_device({1})`, or call "
            "`cuarray.cuda.enable_peer_access({0})` under device {1} to let kernels here read "
            "device {0}'s memory.".format(device_id, cur))


# -- CuPy's pointer and library-handle helpers ---------------------------------------------------

def pointer_device_id(ptr: int) -> int:
    """The ordinal of the device whose memory (device, managed, or registered/pinned host memory
    mapped for it) `ptr` points into; CUDARuntimeError for an address CUDA does not know."""
    ptr = operator.index(ptr)
    _backend.ensure_initialized()
    drv = _backend.driver()
    attr = drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    return int(_backend.check(drv.cuPointerGetAttribute(attr, ptr)))


# The handles are the math libraries' own (cuda/libs/, per device and thread); these getters hand
# them out as ints for users who call the libraries themselves. They are looked up through the
# handle registry (cuda/handles.py), which this module does not import (the libraries import this
# module): the package's __init__ registers it here. The libraries load on first call.
_libraries = None


def set_library_registry(registry) -> None:
    """Make `registry` (cuda/handles.py: ``handle(library) -> int``, ``prefetch()``) the way to the
    math libraries' handles (cuarray.cuda's __init__ calls it)."""
    global _libraries
    _libraries = registry


def _library_handle(library: str) -> int:
    if _libraries is None:
        raise RuntimeError("the math libraries' handle registry is not registered (import cuarray.cuda)")
    return _libraries.handle(library)


def get_cublas_handle() -> int:
    """The calling thread's cuBLAS handle for the current device, bound to the current stream
    (CuPy's `cupy.cuda.device.get_cublas_handle`)."""
    return _library_handle("cublas")


def get_cusolver_handle() -> int:
    """The calling thread's cuSOLVER (dense) handle for the current device, bound to the current stream."""
    return _library_handle("cusolver")


def get_cusparse_handle() -> int:
    """The calling thread's cuSPARSE handle for the current device, bound to the current stream."""
    return _library_handle("cusparse")
