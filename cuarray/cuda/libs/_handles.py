"""One library handle per (device, thread), created lazily, destroyed when its thread ends (or at
exit); the import of nvmath's bindings, and starting it early.

`PerThreadHandle(create, destroy)` gives `get()`: the calling thread's handle for its current
device, created on first use with that device current. Callers bind the handle to the current
stream on every call (`set_stream(h, stream.ptr)`), so a handle works on any stream.

Thread end: the handles of a thread live in an object stored in a `threading.local`; CPython drops
a thread's local values when the thread finishes, and that object's `__del__` destroys them, in the
finishing thread. It makes each handle's context current with one driver call (the context was
recorded when the handle was made) and touches no other thread-local state: the thread's other
locals may already be gone. Handles of threads still alive at exit are destroyed by an atexit
hook. `cublasDestroy` and friends wait for the device, as the libraries document, so a
short-lived thread pays one synchronisation when it ends.
"""

from __future__ import annotations

import atexit
import threading
import weakref

from .. import _backend
from .. import _sync_hooks
from .. import caches as _caches
from .. import device as _device
from . import _nvmath_loader

__all__ = ["PerThreadHandle", "LibraryNotFoundError", "nvmath_bindings", "prefetch"]

_PREFETCH_THREAD = "cuarray-import-nvmath"
_prefetch: list = []  # the prefetch thread, once started
_prefetch_lock = threading.Lock()
# nvmath's package __init__ imports its binding modules crosswise (bindings -> cublasLt -> bindings):
# two threads importing it for the first time at once took Python's per-module import locks in
# opposite orders (_DeadlockError on a 2-GPU run). One thread imports at a time; once a module is
# in sys.modules the lock is never contended again, since `import_module` returns at once.
_import_lock = threading.RLock()
# The modules whose import returned. Not sys.modules: a module is there from the start of its import,
# so while one thread ran nvmath's package __init__ (which imports cublasLt), another found cublasLt
# in sys.modules half made (AttributeError: partially initialized module, 32 threads on a 2-GPU run).
_imported: dict = {}


def prefetch() -> None:
    """Start importing `nvmath.bindings` (what every math library call needs first) in a
    background thread, once per process; the first library call waits for it.

    The bindings load without nvmath's package `__init__` (`_nvmath_loader`), 25-30 ms; started
    where the main thread waits in the driver (context creation), that overlaps the wait."""
    with _prefetch_lock:
        if _prefetch:
            return
        t = threading.Thread(target=_import_quietly, name=_PREFETCH_THREAD, daemon=True)
        _prefetch.append(t)
    t.start()


def _import_quietly() -> None:
    try:
        with _import_lock:
            for name in ("cublasLt", "cublas"):
                nvmath_bindings(name)
    except BaseException:  # noqa: BLE001 - the caller's own import reports it, with what to install
        pass


def nvmath_bindings(name: str):
    """`nvmath.bindings.<name>`, imported on first use, with an ImportError that says what to install.
    Imports only `nvmath.bindings.<name>`: not nvmath's package `__init__` (`_nvmath_loader`)."""
    mod = _imported.get(name)
    if mod is not None:
        return mod
    if _prefetch and _prefetch[0] is not threading.current_thread() and _prefetch[0].is_alive():
        _prefetch[0].join()  # the first library call waits for the prefetch (it may be importing this one)
    try:
        with _import_lock:
            mod = _imported[name] = _nvmath_loader.load(name)
        return mod
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(
            "this operation needs nvmath-python and the CUDA math libraries (pip install 'cuarray[cu13]'; "
            "python -m cuarray info lists what is found): {}".format(e)) from e


class LibraryNotFoundError(RuntimeError):
    """A CUDA math library (or one it needs) is not installed where cuda.pathfinder looks."""


def _library_missing(exc: BaseException) -> bool:
    # nvmath raises cuda.pathfinder's DynamicLibNotFoundError, or its own NotSupportedError /
    # RuntimeError naming the library, depending on where the lookup failed.
    return (type(exc).__name__ in ("DynamicLibNotFoundError", "NotSupportedError", "FunctionNotFoundError")
            or "Failure finding" in str(exc) or "not found" in str(exc).lower())


class _Owned:
    """One thread's handles of one kind: device id -> (handle, its CUcontext or None). Destroys
    them when dropped (its thread ended) unless the atexit hook already did."""

    __slots__ = ("handles", "owner", "__weakref__")

    def __init__(self, owner: "PerThreadHandle"):
        self.handles: dict = {}
        self.owner = owner

    def __del__(self):
        try:
            self.owner._destroy_owned(self)
        except Exception:  # interpreter shutdown: modules may be half torn down
            pass


class PerThreadHandle:
    """A handle per (device, thread): `get()` creates it with `create()` on first use.

    `activate(device_id)` makes the device's context current in the calling thread before a handle
    is made or destroyed (default: `device._core_device`; tests give a no-op). With `name`, the
    handles are listed in the cache registry (`cuarray.cuda.cache_info`) as a kept entry: counted,
    never destroyed by `clear_caches()`."""

    def __init__(self, create, destroy, activate=None, name=None):
        self._create = create
        self._destroy = destroy
        self._real_context = activate is None  # record and restore driver contexts (not in tests)
        self._activate = _device._core_device if activate is None else activate
        self._tls = threading.local()
        self._owners: weakref.WeakSet = weakref.WeakSet()  # every thread's _Owned, for atexit
        self._lock = threading.Lock()
        atexit.register(self.destroy_all)
        if name is not None:
            _caches.register(name, count=self.live, kept=True)

    def get(self):
        owned = self._tls.__dict__.get("owned")
        dev = _device.get_device_id()
        if owned is not None:
            ent = owned.handles.get(dev)
            if ent is not None:
                return ent[0]
        else:
            owned = self._tls.owned = _Owned(self)
            with self._lock:
                self._owners.add(owned)
        self._activate(dev)  # the device's context is current in this thread
        ctx = _backend.check(_backend.driver().cuCtxGetCurrent()) if self._real_context else None
        # (a library's handle creation may synchronise the context: not during another thread's
        # capture, which it would invalidate; `_sync_hooks`)
        _sync_hooks.enter_device_wait()
        try:
            h = self._create()
        except ImportError:  # create() already said what to install (an optional library's extra)
            raise
        except Exception as exc:  # nvmath loads the library at its first call: say what to install
            if _library_missing(exc):
                raise LibraryNotFoundError(
                    "a CUDA math library could not be loaded ({}: {}); pip install 'cuarray[cu13]' installs "
                    "them, and python -m cuarray info shows which one is missing".format(
                        type(exc).__name__, exc)) from exc
            raise
        finally:
            _sync_hooks.leave_device_wait()
        owned.handles[dev] = (h, ctx)
        return h

    def live(self) -> int:
        """How many handles exist now (all threads)."""
        with self._lock:
            return sum(len(o.handles) for o in self._owners)

    def _destroy_owned(self, owned: _Owned) -> None:
        with self._lock:
            handles, owned.handles = owned.handles, {}
        for h, ctx in handles.values():
            try:
                if ctx is not None:
                    _backend.check(_backend.driver().cuCtxSetCurrent(ctx))
                self._destroy(h)
            except Exception:  # the driver may already be shutting down at exit
                pass

    def destroy_all(self) -> None:
        """Destroy every thread's handles (atexit; tests)."""
        with self._lock:
            owners = list(self._owners)
        for owned in owners:
            self._destroy_owned(owned)
