"""The runtime's backend: what launches kernels and loads them, and the tables of driver objects
made for it, chosen at one point (`use`, `select`). The real one (`CUDA`) is the default; the fake
device of the CPU tests (`cuarray.testing.fake_device.recording`) is another `Backend`, selected
for a test and deselected after it, so that nothing outside the runtime swaps a module's or a
class's attributes.

A `Backend` names what it replaces; a field left None is the real runtime's:
  core             a stand-in for cuda.core (`_backend.core()`)
  properties       a simulated device's properties (`device.simulate`): no driver, no ordinal check
  observer         the observer of copies, library calls, pool misses and compiles (`_observe`)
  allocator        what `alloc` uses (`memory.set_allocator`)
  launch           the raw launch ``f(stream, config, kernel, *args)`` (None: picked at the first
                   launch, cuLaunchKernel from C or cuda.core's `launch`; `launch.implementation`)
  launch_config    ``f(grid, block, shared_mem)`` -> the config a launch takes (None: cached
                   LaunchConfigs)
  family_kernels   ``f(family, names, options, variant, pick)`` -> the kernels of a kernel family's
                   name expressions (None: compiled, `kernel_family.load_kernels`)
  engine_kernel    ``f(definition, layout, ndim, index_t)`` -> the kernel of an engine
                   `Definition`'s specialisation (None: its generated source compiled)
  contexts_current the selecting thread's current device's context counts as current, so a launch
                   makes no driver call (True: the fake device, which has no context)
  replay_costs     (graph launch, launches a replay must save) for lazy mode's graph replay
                   (`fusion/replay.py`; None: as they are)
  counter_slab     the fused reductions' counter words on device 0, (slab, first word): `slab.ptr`
                   the address of words that no memset zeroes, handed out from the first word on
                   (None: zeroed slabs from the pool)

The first four, `contexts_current` and `replay_costs` are set when the backend is selected and
put back as they were when the one it was selected from is selected again (`use`'s exit); None
keeps them as they are (a recorder selected inside an installed fake device keeps its simulated
device). A backend also owns the tables of what was made for it (`table`): the launch configs, the
kernel families' kernels, the device error records, the launch hook. Selecting another backend
makes its tables current, and selecting the first one again brings its own back, so a fake launch
config or placeholder kernel is never seen by a real launch, nor a real one by the fake device.

How a module takes part: it registers one function with `on_select` at import, which is called with
(the backend selected until now, the one selected now) and rebinds the module's own globals from
the new one. That is the only time a backend is read: the launch path reads its module's globals as
it did before backends existed (one global read per launch, no attribute chain), so the seam costs
the hot path nothing. Not thread-local: like a launch hook, a selected backend is the process's.

The single-purpose setters under those four (`_backend.use_core`, `device.simulate`,
`_observe.set_observer`, `memory.set_allocator`) and `launch.set_launch_hook` stay public for
tools and tests that want one thing only; a backend is how a whole stand-in runtime is put in.
"""

from __future__ import annotations

import contextlib
import threading

__all__ = ["Backend", "CUDA", "use", "select", "selected", "on_select"]


class Backend:
    """What the runtime runs on; see the module's docstring for each field."""

    def __init__(self, name: str, *, core=None, properties=None, observer=None, allocator=None,
                 launch=None, launch_config=None, family_kernels=None, engine_kernel=None,
                 contexts_current: bool = False, replay_costs=None, counter_slab=None):
        self.name = name
        self.core = core
        self.properties = properties
        self.observer = observer
        self.allocator = allocator
        self.launch = launch
        self.launch_config = launch_config
        self.family_kernels = family_kernels
        self.engine_kernel = engine_kernel
        self.contexts_current = contexts_current
        self.replay_costs = replay_costs
        self.counter_slab = counter_slab
        self._tables: dict = {}
        self._parent = None  # the backend this one was last selected from

    def table(self, name: str, make=dict):
        """This backend's table `name` (made by `make()` on first use): what a module made for it
        and keeps while another backend is selected."""
        t = self._tables.get(name)
        if t is None:
            t = self._tables[name] = make()
        return t

    def returns_from(self, prev: "Backend") -> bool:
        """Whether selecting this backend after `prev` goes back to the one `prev` was selected from
        (`use`'s exit), rather than in to a new one."""
        return prev._parent is self

    def swap(self, prev: "Backend", field: str, current, put) -> None:
        """Select this backend's setting `field` (`core`, `properties`, `observer`, `allocator`),
        `current` being the setting now and ``put(value)`` its setter: going back from `prev` to the
        backend it was selected from, what was there before `prev` put its own is put back; else
        this backend's own is put (`current` kept for its way back), where it has one."""
        if self.returns_from(prev):
            if getattr(prev, field) is not None:
                put(prev._tables.pop("before " + field))
        elif getattr(self, field) is not None:
            self._tables["before " + field] = current
            put(getattr(self, field))

    def __repr__(self) -> str:
        return "<cuarray.cuda.backend.Backend {}>".format(self.name)


CUDA = Backend("cuda")  # the real runtime: every module's globals start as this backend's
_selected = CUDA
_selectors: list = []
_lock = threading.RLock()


def on_select(fn) -> None:
    """Register ``fn(previous, new)``, called at every selection to rebind the calling module's
    globals from `new` (saving what belongs to `previous` in ``previous.table(...)``). A module
    imported while another backend is selected takes it at once."""
    with _lock:
        _selectors.append(fn)
        if _selected is not CUDA:
            fn(CUDA, _selected)


def selected() -> Backend:
    """The selected backend."""
    return _selected


def select(backend: Backend) -> Backend:
    """Make `backend` the process's backend; returns the previous one (select it again to go back:
    the settings `backend` put are then put back)."""
    global _selected
    if not isinstance(backend, Backend):
        raise TypeError("select() takes a Backend, got {}".format(type(backend).__name__))
    with _lock:
        prev = _selected
        if backend is not prev:
            for fn in _selectors:
                fn(prev, backend)
            if prev._parent is not backend:
                backend._parent = prev
            _selected = backend
    return prev


@contextlib.contextmanager
def use(backend: Backend):
    """`backend` selected inside the block, the previous one again after it."""
    prev = select(backend)
    try:
        yield backend
    finally:
        select(prev)
