"""The one fake device of the CPU tests and the perf scripts (`cuarray.testing.fake_device`):
device memory from a fake backing allocator, no-op launches, placeholder kernels, an H100/H200's
SM count and shared memory. Importable without a GPU; `import cuarray` does not load it. cuarray
itself knows nothing of it: it chooses cuda.core's launch through the documented switch
`CUARRAY_PURE_PYTHON_LAUNCH=1` (the C launch path is never handed a fake kernel, even on a machine
with a driver) and stands in for the device by selecting a backend (`cuarray.cuda.backend`: the
allocator, cuda.core, the device's properties, the compile observer, the launch, kernel loading,
and the tables made for them). It assigns nothing of cuarray
(tests/testing/test_fake_device_seams_cpu.py); what it replaces for the tests is listed below.

- `FakeBacking`: the allocator under a `MemoryPool` (increasing fake addresses; records mallocs,
  frees and syncs; fails on demand). The pool tests use it directly; `FakePinned` is the pinned
  pool's.
- `install()`: the whole process runs on the fake device, for good (the host-path tests and the
  perf scripts run it in a subprocess: `SCRIPT_PRELUDE` is the first lines of such a script), so
  nothing it replaces can leak into another test.
- `recorded_launches` (a pytest fixture; `recording()` as a context manager): the fake device in
  this process for one test, every launch recorded and kernels as placeholders named by their
  layout (`recorder_backend`, selected for the block and deselected after it);
  `host_only_backing` (a fixture): `FakeBacking` at addresses past 2**40 plus an offset (a
  misaligned pool). The fixtures need pytest.
- `host_modules({module: standins, ...})` (`host_module(module, standins)` for one,
  `host_packages(packages, standins...)` for every module of packages): private copies of
  modules with NumPy stand-ins for the cuarray routines they import, the copies calling one another (the NumPy stand-ins' one style: nothing of cuarray is assigned).
- Host-backed arrays (`from_np`, `to_np`, `new_c`, `host_view`): cuarray arrays whose data pointer
  is a host address, so code that hands pointers to a library stand-in (tests/linalg/_host_fake.py)
  is checked on the values without a GPU.
- `COUNTING_PRELUDE` (after `SCRIPT_PRELUDE`): `launches` and `blas` lists counting each launch and
  library call of the script.
- `python_calls(f)`: the Python calls one call of `f` makes (the host-path tests' and perf
  scripts' measure of work, which timing noise hides).
"""

from __future__ import annotations

import contextlib
import os
import types

import numpy as np

try:
    import pytest  # the fixtures need it; `recording()`, `install()` and the fakes do not
except ImportError:  # pragma: no cover
    pytest = None

import cuarray

from .._core import dtypes as _dtypes
from .._core.ndarray import ndarray
from ..cuda import backend, caches, kernel_family, memory
from ..cuda import device as _device
from ..cuda.memory import _BackingOutOfMemory

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # holds cuarray/

# The first lines of a subprocess script that runs on the fake device (this tree's cuarray).
SCRIPT_PRELUDE = ("import sys\nsys.path.insert(0, {!r})\nfrom cuarray.testing.fake_device import install\n"
                  "install()\n".format(_ROOT))
# After SCRIPT_PRELUDE: `launches` and `blas` count every kernel launch and every library call
# (the call not made: cuBLAS counted, not called), for the host-path budget tests.
COUNTING_PRELUDE = (
    "from cuarray.cuda import _observe, launch\n"
    "from cuarray.testing.fake_device import FakeCompiles\n"
    "launches, blas = [], []\n"
    "launch.set_launch_hook(lambda raw, stream, config, kernel, args: launches.append(1))\n"
    "class NoBlas(FakeCompiles):  # the compile seam as the fake device's\n"
    "    def library(self, name, char, call, args, kwargs):\n"
    "        blas.append(name)\n"
    "_observe.set_observer(NoBlas())\n")

SM_COUNT = 132  # an H100 SXM's and an H200's
SHARED_PER_BLOCK = 48 * 1024  # cudaDevAttrMaxSharedMemoryPerBlock of every GPU cuarray supports


class FakeBacking:
    """Increasing fake addresses; records mallocs, frees and syncs; fails on demand."""

    def __init__(self, capacity=None, gap=4096, total=16 << 30, start=1 << 32):
        self.next = start
        self.gap = gap  # gap=0 makes consecutive segments adjacent in address space
        self.capacity = capacity
        self.live = {}
        self.mallocs = []
        self.frees = []
        self.syncs = 0
        self.fail_next = 0
        self.total = total

    @property
    def reserved(self):
        return sum(self.live.values())

    def malloc(self, size, device_id):
        if self.fail_next:
            self.fail_next -= 1
            raise _BackingOutOfMemory(size)
        if self.capacity is not None and self.reserved + size > self.capacity:
            raise _BackingOutOfMemory(size)
        ptr = self.next
        self.next += size + self.gap
        self.live[ptr] = size
        self.mallocs.append(size)
        return ptr

    def free(self, ptr, size, device_id):
        assert self.live.pop(ptr) == size
        self.frees.append((ptr, size))

    def synchronize(self, device_id):
        self.syncs += 1

    def device_total(self, device_id):
        return self.total


class FakePinned:
    """The backing under a `PinnedMemoryPool`: host memory from NumPy, events that finish when
    told to (``ev["done"] = True``)."""

    def __init__(self):
        self.arrays = {}
        self.frees = []
        self.events = []

    def malloc(self, size):
        a = np.empty(size, np.uint8)
        self.arrays[a.ctypes.data] = a
        return a.ctypes.data

    def free(self, ptr, size):
        self.frees.append(ptr)
        del self.arrays[ptr]

    def record(self, stream):
        ev = {"stream": None if stream is None else stream.ptr, "done": False}
        self.events.append(ev)
        return ev

    def done(self, ev):
        return ev["done"]


class FakeDevice:
    """A device's primary context (device._Context) and cuda.core's Device: making it current does
    nothing."""

    def __init__(self, device_id):
        self.id = device_id

    def set_current(self):
        pass


class FakeCore:
    """cuda.core as the launcher sees it: a launch that does nothing, devices with no context."""

    launch = staticmethod(lambda *a: None)
    LaunchConfig = staticmethod(lambda **k: k)
    Device = FakeDevice
    LEGACY_DEFAULT_STREAM = PER_THREAD_DEFAULT_STREAM = object()  # the default streams' cuda.core objects

    class Stream:
        from_handle = staticmethod(lambda handle: object())


def fake_core(events=None, *, legacy_stream=None, per_thread_stream=None, launch=None):
    """A `FakeCore` for `_backend.use_core` that records ``("set_current", thread, device)`` into
    `events` at each context switch, with the default streams' objects and the launch given
    (tests of the per-thread context rules)."""
    import threading

    class Device(FakeDevice):
        def set_current(self):
            if events is not None:
                events.append(("set_current", threading.get_ident(), self.id))

    attrs = {"Device": Device}
    if legacy_stream is not None:
        attrs["LEGACY_DEFAULT_STREAM"] = legacy_stream
    if per_thread_stream is not None:
        attrs["PER_THREAD_DEFAULT_STREAM"] = per_thread_stream
    if launch is not None:
        attrs["launch"] = staticmethod(launch)
    return type("FakeCore", (FakeCore,), attrs)


def switching_device(entered: list):
    """A stand-in for `cuarray.cuda.Device` as a context manager: entering one records its id in
    `entered` and makes it the thread's device, with no context (tests of device switching)."""
    class SwitchingDevice:
        def __init__(self, i):
            self.i = i

        def __enter__(self):
            entered.append(self.i)
            _device._tls.device_id = self.i

        def __exit__(self, *exc):
            _device._tls.device_id = 0

    return SwitchingDevice


class FakeKernel:
    """What a compiled kernel is on the fake device: nothing to run."""


class FakeModule:
    """What a compiled module is on the fake device: every function's kernel a `FakeKernel`."""

    class _Function:
        def __init__(self):
            self.kernel = FakeKernel()

    def get_function(self, name):
        return self._Function()


class FakeCompiles:
    """The compile seam's observer on the fake device (`cuda/_observe.py`): a module compiled by
    `compiler.compile_module` (the engine's kernels, the kernel families') is a `FakeModule`, with
    no NVRTC; every other seam makes its plain call."""

    def compile(self, call, source, kwargs):
        return FakeModule()

    def copy(self, kind, call, dst, other, size, stream):
        return call(dst, other, size, stream)

    def library(self, name, char, call, args, kwargs):
        return call(*args, **kwargs)

    def segment(self, call, backing, size, device_id):
        return call(backing, size, device_id)

    def nvrtc(self):
        pass


class _FakeSlab:
    ptr = 1 << 39  # below the fake pool's addresses (2**40 up)


# The device properties the planners read (an H100 SXM's and an H200's).
PROPERTIES = {"multiprocessor_count": SM_COUNT, "max_shared_memory_per_block": SHARED_PER_BLOCK}


# No graph is captured on the fake device (no driver): graph replay keeps the launch-count model, a
# graph launch as dear as a kernel launch and 2 launches saved, so a body of one or two kernels runs
# its Program (the path the host-path tests and the stubbed perf scripts measure), as before the
# device's cheaper graph launch was measured (`fusion/replay.py`, GRAPH_LAUNCH).
FAKE_REPLAY_COSTS = (1.0, 2)  # (GRAPH_LAUNCH, MIN_SAVED)


def installed_backend() -> backend.Backend:
    """The backend `install` selects for good: memory from a `FakeBacking` at addresses above 2**39,
    far from any integer argument a test compares (sizes, strides); a simulated device
    (`PROPERTIES`), whose every thread's first launch makes a (fake) context current with no
    driver call; cuda.core's launch (`FakeCore`'s, a no-op); `FakeCompiles` as the compile
    observer; graph replay's launch-count costs; and for the fused reductions' counter words a
    slab that never fills (a real one is zeroed by a memset, which the fake device cannot make),
    its words counted up from far below the pool."""
    pool = memory.MemoryPool(backing=FakeBacking(start=1 << 40))
    return backend.Backend("fake device (installed)", core=FakeCore, properties=PROPERTIES,
                           observer=FakeCompiles(), allocator=pool.malloc, replay_costs=FAKE_REPLAY_COSTS,
                           counter_slab=(_FakeSlab(), -(1 << 30)))


def install():
    """Run this whole process on the fake device (before its first launch; not undone)."""
    os.environ["CUARRAY_PURE_PYTHON_LAUNCH"] = "1"  # read when the first launch picks its path
    # No real device either: on a machine with a driver, a library handle (cuBLAS, cuFFT) made by
    # an eager routine would make a real context current, and a copy or memset from a fake
    # address would then reach the driver, which reads an unmapped address as pageable host
    # memory (a segfault on the GPU machine). With no visible device every driver call fails
    # cleanly, as on a machine without one. (Read by cuInit: only before the process's first.)
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    caches.clear()  # what was made before (a launch config, a kernel) is not the fake device's
    backend.select(installed_backend())


def _host_only(offset=0):
    return FakeBacking(start=(1 << 40) + offset, total=1 << 34)


def _fixture(fn):
    return fn if pytest is None else pytest.fixture(fn)


@_fixture
def host_only_backing():
    """`FakeBacking` past 2**40, `offset` bytes further (a foreign allocator's alignment)."""
    return _host_only


def forget_prepared_launches():
    """Empty every registered cache (`cuarray/cuda/caches.py`) but the compiled modules: every
    kernel, launch config, plan and prepared call made under `recording()` (the engine's
    definitions' own tables, the kernel families', the reductions' fast path...). Under the recorder
    those are placeholders, ("cfg", ...) tuples and FakeKernels (the fake compile observer's); one
    left behind is launched by the next test on the real device (cuda.core: "expected LaunchConfig,
    got tuple" / "expected Kernel, got FakeKernel"), and a real one left from an earlier GPU test
    would reach the recorder instead of a placeholder. The compiled modules are kept: they are
    filled below the compile seam the fake device replaces, so no placeholder is ever among them,
    and the next GPU test finds its kernels there rather than on disk."""
    caches.clear(code=False)


def _placeholder_config(grid, block, shared_mem=0):
    return ("cfg", grid, block, shared_mem)


def _placeholder_family_kernels(family, names, options, variant=(), pick=None):
    return names if pick is None else pick  # (a family's kernel is its name expression)


def _placeholder_engine_kernel(definition, layout, ndim, index_t):
    return (definition.name, layout, ndim, index_t)


def recorder_backend(calls: list, **fields) -> backend.Backend:
    """The recorder's backend (`cuarray.cuda.backend`): every launch appended to `calls` as
    (stream, config, kernel, args), configs ``("cfg", grid, block, shared_mem)``, placeholder kernels,
    memory from a `FakeBacking` past 2**40, the calling thread's context current with no driver,
    graph replay's costs as `install` has them, and tables of its own (launch configs, kernel
    families' kernels, device error records: a gather's record in fake memory is never read by a
    later test's synchronisation); `fields` are further `Backend` fields (`properties`, `observer`)."""
    return backend.Backend("fake device (recording)", launch=lambda *a: calls.append(a),
                           launch_config=_placeholder_config, family_kernels=_placeholder_family_kernels,
                           engine_kernel=_placeholder_engine_kernel, contexts_current=True,
                           replay_costs=FAKE_REPLAY_COSTS,
                           allocator=memory.MemoryPool(backing=_host_only()).malloc, **fields)


@contextlib.contextmanager
def recording(forget=None, **fields):
    """The host path with no device: every launch is recorded (stream, config, kernel, args), a
    kernel is a placeholder `(name, layout, ndim, index type)`, memory comes from a FakeBacking.
    The recorder is a backend (`recorder_backend`) selected for the block, with its own tables of
    launch configs and kernels (a family's kernel is its name expression). With `forget` (by default
    where a device is, the only place a real kernel can be prepared) the registered caches are
    emptied on entry and exit (`forget_prepared_launches`), so no placeholder reaches a later GPU
    test and no real kernel reaches this one. `fields`: further `Backend` fields of the recorder."""
    if forget is None:
        forget = cuarray.is_available()
    calls = []
    if forget:
        forget_prepared_launches()
    with backend.use(recorder_backend(calls, **fields)):
        try:
            yield calls
        finally:
            if forget:
                forget_prepared_launches()


@_fixture
def recorded_launches():
    """`recording()` for one test."""
    with recording() as calls:
        yield calls


@contextlib.contextmanager
def recording_fake_compiles(observer=None):
    """`recording(forget=True)` on a simulated device (`PROPERTIES`) with `observer` (a
    `FakeCompiles`, by default a new one) as the compile observer, as the distributed tests' fake
    runtime runs: generated kernels (reductions, scans) are compiled to FakeKernels, which no cache
    may keep past the block."""
    with recording(forget=True, properties=PROPERTIES,
                   observer=FakeCompiles() if observer is None else observer) as calls:
        yield calls


# -- host copies of modules -------------------------------------------------------------------------
def _copy_of(module, builtins, by_id):
    """`module`'s source run again as a new module in the same package (``<name>_host``; a
    package's ``__init__`` as ``<package>._host``), so its relative imports resolve as the real
    module's; `builtins` are its builtins (its `__import__`); it is in `by_id` while it runs (an
    import cycle finds it half made, as Python's own import does). The kernel families it declares
    are its own: not in `kernel_family.families()`, which lists the real modules' (one per name)."""
    import importlib.util
    import sys

    package = hasattr(module, "__path__")
    name = module.__name__ + ("._host" if package else "_host")
    spec = importlib.util.spec_from_file_location(name, module.__file__, submodule_search_locations=None)
    copy = importlib.util.module_from_spec(spec)
    copy.__builtins__ = builtins
    by_id[id(module)] = copy
    known = len(kernel_family.families())
    sys.modules[name] = copy  # while it runs (dataclasses and pickling look a class's module up)
    try:
        with caches.copying():
            spec.loader.exec_module(copy)
    finally:
        del sys.modules[name]
        held = list(vars(copy).values())
        mine = {id(v) for v in held + [w for d in held if type(d) is dict for w in d.values()]}
        kernel_family.forget_families([f for f in kernel_family.families()[known:] if id(f) in mine])
    return copy


def _copying_import(group: dict, make):
    """Builtins whose `__import__` answers an import of a module of `group` (``from .x import f``,
    ``from . import x``, at module level or in a function) with its copy, made by `make` on first
    use: a copy's base classes and names are the copies' from the start."""
    import builtins
    import sys
    import types

    real_import = builtins.__import__

    def copy_import(name, globals=None, locals=None, fromlist=(), level=0):
        found = real_import(name, globals, locals, fromlist, level)
        if not fromlist:
            return found
        if id(found) in group and not hasattr(found, "__path__"):
            return make(found)
        names = {}
        for n in fromlist:
            value = getattr(found, n, None)
            if n == "*":
                return found
            if value is None or isinstance(value, types.ModuleType):
                sub = sys.modules.get("{}.{}".format(found.__name__, n), value)
                names[n] = make(sub) if id(sub) in group else sub
            else:
                names[n] = vars(make(found)).get(n, value) if id(found) in group else value
        return types.SimpleNamespace(__name__=found.__name__, **names)

    return dict(vars(builtins), __import__=copy_import)


def _rebound(value, to_copy: dict, depth=2):
    """`value` with the group's real modules and functions in it replaced by their copies: itself,
    or the entries of a module-level table (a dict, tuple or list, two levels deep)."""
    if id(value) in to_copy:
        return to_copy[id(value)]
    if depth and type(value) in (dict, tuple, list):
        items = value.items() if type(value) is dict else enumerate(value)
        new = {k: _rebound(v, to_copy, depth - 1) for k, v in items}
        if any(new[k] is not v for k, v in (value.items() if type(value) is dict else enumerate(value))):
            return new if type(value) is dict else type(value)(new.values())
    return value


def host_modules(standins: dict) -> dict:
    """Private copies of several modules, ``{module: {name: stand-in}}`` -> ``{module: copy}``:
    each copy's names in its dict are bound to the stand-ins (NumPy's routines for the cuarray
    routines it imports), and the copies' names for one another (``from . import x``, ``from .x
    import f``, at module level and, through the copies' own `__import__`, in functions) are
    the copies (each made on its first import, so a copy's base classes are the copies' too), so a copy that calls into another module of the group runs that
    module's copy, with its stand-ins. The one style of the NumPy stand-ins: cuarray's own
    modules are left as they are (nothing of them is assigned, nothing to undo). A name a module
    does not have is an error (a stand-in for nothing). A module-level table (dict, tuple, list, two
    levels deep) of the group's functions is rebuilt with the copies'; a function's default
    argument or an object's attribute keeps the real one."""
    group = {id(m): m for m in standins}
    by_id = {}  # id(real module) -> its copy (made, or being made)
    copies = {}

    def make(module):
        if id(module) not in by_id:
            copies[module] = _copy_of(module, table, by_id)
        return by_id[id(module)]

    table = _copying_import(group, make)
    for module in standins:
        make(module)
    to_copy = {}  # id(real module or real attribute) -> its copy's
    for module, copy in copies.items():
        to_copy[id(module)] = copy
        for name, value in vars(module).items():
            if getattr(value, "__module__", None) == module.__name__ and name in vars(copy):
                to_copy[id(value)] = vars(copy)[name]
    for module, copy in copies.items():
        names = vars(copy)
        for name, value in list(names.items()):
            if not name.startswith("__"):
                names[name] = _rebound(value, to_copy)
        missing = sorted(set(standins[module]) - set(names))
        if missing:
            raise AttributeError("{} has no {}: nothing to stand in for".format(module.__name__, missing))
        names.update(standins[module])
    return {module: copies[module] for module in standins}


def host_packages(packages, *standins) -> dict:
    """`host_modules` of the modules in `standins` (dicts as `host_modules` takes, merged) and of
    every module of `packages` loaded now, the packages' ``__init__`` included, so each public
    name of a package's copy reaches the copies: ``{module: copy}``."""
    import sys

    group = {}
    for names in standins:
        for module, values in names.items():
            group.setdefault(module, {}).update(values)
    for package in packages:
        prefix = package.__name__ + "."
        for name, module in list(sys.modules.items()):
            if (module is package or name.startswith(prefix)) and getattr(module, "__file__", None):
                group.setdefault(module, {})
    return host_modules(group)


# the host-input conversions and transfers, as NumPy sees them (the second argument, when given, is
# the caller's name for error messages)
_HOST_INPUTS = {
    "as_array": lambda x, fn=None: np.asarray(x), "as_parameter": lambda x, fn=None: np.asarray(x),
    "as_literal_or_array": lambda x, fn=None: np.asarray(x), "to_host": np.asarray, "from_host": np.asarray,
}


def numpy_standins(module, own: str, special: dict = ()) -> dict:
    """{name: NumPy's routine} for each cuarray routine `module` imports from outside the package
    `own` (its own modules are copied with it) and outside `cuarray.scipy`'s pure-Python helpers;
    a trailing `_` marks a name that would hide a builtin (`sum_` is NumPy's `sum`). `special`
    maps names (without the `_`) to their stand-ins, over the host-input defaults."""
    table = {**_HOST_INPUTS, **dict(special)}
    out = {}
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", None) or ""
        if name.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                or origin.startswith(own) or origin == "cuarray.scipy._rich_result":
            continue
        key = name[:-1] if name.endswith("_") else name
        out[name] = table[key] if key in table else getattr(np, key)
    return out


def host_module(module, standins: dict):
    """`host_modules` of one module: its private copy."""
    return host_modules({module: standins})[module]


# -- host-backed arrays ----------------------------------------------------------------------------
_buffers: list = []  # (base address, nbytes, uint8 buffer) of every host allocation


class HostPtr:
    """Stands in for a MemoryPointer: `.ptr` is a host address inside one of `_buffers`."""

    __slots__ = ("ptr", "device_id")

    def __init__(self, ptr):
        self.ptr = ptr
        self.device_id = 0

    def __add__(self, off):
        return HostPtr(self.ptr + off)

    def __int__(self):
        return self.ptr


def _alloc(nbytes):
    buf = np.zeros(max(nbytes, 1) + 64, np.uint8)
    base = buf.ctypes.data
    _buffers.append((base, buf.size, buf))
    return base


def _owner(ptr):
    for base, size, buf in reversed(_buffers):
        if base <= ptr < base + size:
            return base, buf
    raise AssertionError("address {:#x} is in no host buffer".format(ptr))


def host_view(shape, strides, dtype, ptr):
    """The NumPy view of `shape`/`strides` (bytes) at host address `ptr`."""
    base, buf = _owner(ptr)
    return np.ndarray(shape, dtype, buffer=buf, offset=ptr - base, strides=strides)


def to_np(x: ndarray) -> np.ndarray:
    return host_view(x._shape, x._strides, x._dtype, x.data.ptr)


def from_np(a: np.ndarray) -> ndarray:
    """A cuarray array over a host copy of `a` with `a`'s exact strides (negative included)."""
    a = np.asarray(a)
    dt = _dtypes.storage_dtype(a.dtype)
    lo = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s < 0) if a.size else 0
    hi = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s > 0) if a.size else 0
    base = _alloc(hi - lo + a.itemsize)
    ptr = base - lo
    if a.size:
        host_view(a.shape, a.strides, dt, ptr)[...] = a
    return ndarray._view(a.shape, a.strides, dt, HostPtr(ptr), None)


def new_c(shape, dtype) -> ndarray:
    return from_np(np.empty(shape, dtype))


def python_calls(f) -> int:
    """The function and C-function calls that one call of `f` makes, as sys.setprofile sees them."""
    import sys

    n = [0]

    def prof(frame, event, arg):
        if event in ("call", "c_call"):
            n[0] += 1

    sys.setprofile(prof)
    try:
        f()
    finally:
        sys.setprofile(None)
    return n[0]
