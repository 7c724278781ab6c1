"""Streams, events, and the current stream of each thread.

Every operation launches on `get_current_stream()`. A thread starts on `Stream.null`, the legacy
default stream (the stream NumPy-style code expects: it orders with every other blocking stream,
like CuPy's and PyTorch's defaults), or on `Stream.ptds`, the per-thread default stream, when the
process starts with CUARRAY_PER_THREAD_DEFAULT_STREAM=1 (CuPy's CUPY_CUDA_PER_THREAD_DEFAULT_STREAM):
then each thread's default work runs concurrently with other threads' instead of serialising on
one stream. `with stream:` or `stream.use()` changes the current stream of the calling thread for
the current device.

Our Stream holds the stream object a launch takes (`_cs`: `_driver_objects.Stream`, a handle, no
cuda.core), and its cuda.core Stream only where one was wrapped or asked for (`_core()`); it also
implements `__cuda_stream__` so cuda.core, cuda.compute and nccl4py accept it directly. The default
streams need no driver and no cuda.core, and a user-created stream is made through the driver: no
launch, and no stream, imports cuda.core.
"""

from __future__ import annotations

import itertools
import os
import threading

from . import _backend
from . import _driver_objects
from . import _sync_hooks
from . import device as _device

try:  # the C core (cuda/_native/current_stream.c, built by setup.py where a compiler exists)
    from . import _poolcore
except ImportError:
    _poolcore = None

__all__ = ["Stream", "ExternalStream", "Event", "get_current_stream", "get_elapsed_time", "current_core_stream",
           "core_stream", "stream_handle", "get_current_stream_ptr", "get_default_stream_ptr"]

class _ThreadState(threading.local):
    def __init__(self):
        # (each thread's own dict holds both from its first use: see device._ThreadState)
        self.streams = None  # device id -> current Stream, once this thread changed one (see device.py)
        self.ptds_key = None  # the memory pool's key for this thread's per-thread default stream


_ptds_serial = itertools.count(1)


_tls = _ThreadState()


class Stream:
    """A CUDA stream. See `cupy.cuda.Stream`.

    ``Stream()`` creates a blocking stream on the current device (it orders with the legacy default
    stream); ``Stream(non_blocking=True)`` one that does not; `priority` as CUDA's (lower is
    higher priority). ``Stream.null`` is the legacy default stream, ``Stream.ptds`` (or
    ``Stream(null=True, ptds=True)``) the per-thread default stream. ``ptr`` is the
    ``cudaStream_t`` as an int (0 for the legacy default stream, 2 for the per-thread one).
    """

    __slots__ = ("_cs", "_core_stream", "ptr", "device_id", "_prev", "__weakref__")

    null: "Stream"  # set below
    ptds: "Stream"

    def __init__(self, null: bool = False, non_blocking: bool = False, priority: int | None = None,
                 ptds: bool = False):
        self._prev = []
        self._core_stream = None
        if null or ptds:
            self.ptr = 2 if ptds else 0
            # a handle, no driver call: import needs no driver
            self._cs = _driver_objects.Stream(_driver_objects.PER_THREAD if ptds else _driver_objects.LEGACY)
            self.device_id = -1  # the default streams exist on every device
            return
        # Through the driver, not cuda.core: a program's first user stream would import cuda.core
        # (100-200 ms) where nothing else needs it (the streams-workspace bench row).
        dev = _device.get_device_id()
        _device._core_device(dev)
        self._cs = _driver_objects.new_stream(dev, bool(non_blocking), priority)
        self.ptr = self._cs.handle
        self.device_id = dev

    @classmethod
    def _wrap(cls, core_stream, device_id: int) -> "Stream":
        self = cls.__new__(cls)
        self._prev = []
        self._core_stream = core_stream
        self.ptr = int(core_stream.handle)
        self._cs = _driver_objects.Stream(self.ptr, core_stream)
        self.device_id = device_id
        return self

    @classmethod
    def from_external(cls, ptr: int, device_id: int = -1) -> "ExternalStream":
        """A stream created elsewhere, by its ``cudaStream_t`` value or any object with
        ``__cuda_stream__`` (`stream_handle`). See `cupy.cuda.Stream.from_external`."""
        return ExternalStream(ptr, None if device_id < 0 else device_id)

    def _core(self):
        """The cuda.core Stream (imports cuda.core; the default streams' on first use)."""
        cs = self._core_stream
        if cs is None:
            _device._core_device(self.device_id if self.device_id >= 0 else None)
            cs = self._core_stream = _driver_objects.to_core(self._cs)
        return cs

    @property
    def priority(self) -> int:
        """The stream's priority (0 for the default streams)."""
        h = self._cs.handle
        if h in (_driver_objects.LEGACY, _driver_objects.PER_THREAD):
            return 0
        _context_for(self)
        return int(_backend.check(_backend.driver().cuStreamGetPriority(h)))

    @property
    def is_non_blocking(self) -> bool:
        """Whether the stream does not order with the legacy default stream (the default streams do)."""
        h = self._cs.handle
        if h in (_driver_objects.LEGACY, _driver_objects.PER_THREAD):
            return False
        _context_for(self)
        return bool(int(_backend.check(_backend.driver().cuStreamGetFlags(h))) & 1)  # CU_STREAM_NON_BLOCKING

    def launch_host_func(self, callback, arg) -> None:
        """Run ``callback(arg)`` on a driver thread once the work queued before it is done; later
        work waits for it. The callback must not call CUDA. See `cupy.cuda.Stream.launch_host_func`."""
        _device._core_device()
        _host_funcs.enqueue(self.ptr, lambda: callback(arg))

    def add_callback(self, callback, arg) -> None:
        """Run ``callback(stream, status, arg)`` after the queued work (status 0: it succeeded).
        See `cupy.cuda.Stream.add_callback`."""
        _device._core_device()
        _host_funcs.enqueue(self.ptr, lambda: callback(self, 0, arg))

    def __cuda_stream__(self) -> tuple[int, int]:
        # The stream protocol has no way to say "legacy default"; its handle value is 0x1.
        return (0, self.ptr if self.ptr else 1)

    def __repr__(self) -> str:
        if self.ptr == 0:
            return "<cuarray.cuda.Stream null>"
        return "<cuarray.cuda.Stream {:#x} (device {})>".format(self.ptr, self.device_id)

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self) -> int:
        return hash(("cuarray.Stream", self.ptr))

    # -- current stream -------------------------------------------------------------------
    def use(self) -> "Stream":
        """Make this the current stream of the calling thread (for the current device)."""
        streams = _current_streams()
        streams[_device.get_device_id()] = self
        return self

    def __enter__(self) -> "Stream":
        self._prev.append(get_current_stream())
        return self.use()

    def __exit__(self, *exc) -> None:
        self._prev.pop().use()

    # -- synchronisation ------------------------------------------------------------------
    def synchronize(self) -> None:
        """Wait until all work queued on this stream has finished."""
        _sync_hooks.check_not_capturing()
        _context_for(self)
        # The driver through check(), as every copy's synchronisation: a device fault first seen
        # here gets cuarray's explanation (the context is unusable, the last user kernel), which
        # cuda.core's Stream.sync would raise as its own CUDAError without.
        _backend.check(_backend.driver().cuStreamSynchronize(self.ptr))
        _sync_hooks.run()

    @property
    def done(self) -> bool:
        """True when all work queued on this stream has finished (does not block)."""
        _context_for(self)
        return _is_done(_backend.driver().cuStreamQuery(self.ptr)[0])

    def record(self, event: "Event | None" = None) -> "Event":
        """Record `event` (a new timing event when None) on this stream and return it."""
        if event is None:
            event = Event()
        _context_for(self)
        _backend.check(_backend.driver().cuEventRecord(event._ev, self.ptr))
        return event

    def wait_event(self, event: "Event") -> None:
        """Make later work on this stream wait for `event`, without blocking the host."""
        _context_for(self)
        _backend.check(_backend.driver().cuStreamWaitEvent(self.ptr, event._ev, 0))


Stream.null = Stream(null=True)
Stream.ptds = Stream(ptds=True)

# The stream a thread starts on (read once, at import, as CuPy reads its variable).
_default = Stream.ptds if os.environ.get("CUARRAY_PER_THREAD_DEFAULT_STREAM", "0") not in ("", "0") else Stream.null


def default_stream() -> Stream:
    """The stream every thread starts on: `Stream.null`, or `Stream.ptds` when the process started
    with CUARRAY_PER_THREAD_DEFAULT_STREAM=1."""
    return _default


class _HostFuncs:
    """Python callables queued with cuLaunchHostFunc: one C trampoline (ctypes), each callable kept
    alive in `pending` until the driver has run it (the driver holds only an integer key)."""

    def __init__(self):
        self.pending: dict = {}
        self.lock = threading.Lock()
        self.next_key = 1
        self.trampoline = None

    def _run(self, key) -> None:
        with self.lock:
            fn = self.pending.pop(key, None)
        if fn is not None:
            try:
                fn()
            except Exception:  # an exception cannot cross the driver's thread; report it as Python does
                import sys
                import traceback

                traceback.print_exc(file=sys.stderr)

    def enqueue(self, stream_ptr: int, fn) -> None:
        import ctypes

        if self.trampoline is None:
            self.trampoline = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self._run)
        with self.lock:
            key = self.next_key
            self.next_key += 1
            self.pending[key] = fn
        drv = _backend.driver()
        addr = ctypes.cast(self.trampoline, ctypes.c_void_p).value
        try:
            _backend.check(drv.cuLaunchHostFunc(stream_ptr, drv.CUhostFn(addr), key))
        except Exception:
            with self.lock:
                self.pending.pop(key, None)
            raise


_host_funcs = _HostFuncs()


class ExternalStream(Stream):
    """A stream created elsewhere (another library), given by its ``cudaStream_t`` value or an
    object with ``__cuda_stream__`` (PyTorch's, cuda.core's, ...; see `stream_handle`)."""

    __slots__ = ()

    def __init__(self, ptr, device_id: int | None = None):
        self._prev = []
        self.ptr = stream_handle(ptr)
        self.device_id = _device.get_device_id() if device_id is None else int(device_id)
        self._core_stream = None
        # the launch object holds the handle alone (0: the legacy default stream), no cuda.core
        self._cs = _driver_objects.Stream(self.ptr if self.ptr else _driver_objects.LEGACY)


def _current_streams() -> dict:
    streams = _tls.streams
    if streams is None:
        streams = _tls.streams = {}
    return streams


def get_current_stream(device_id: int | None = None) -> Stream:
    """The calling thread's current stream on `device_id` (default: the current device)."""
    streams = _tls.streams
    if streams is None:
        return _default
    if device_id is None:
        device_id = _device._tls.device_id
    return streams.get(device_id, _default)


def _current_core_stream():
    """HOT PATH: the cuda.core Stream of the calling thread's current stream (what `launch.enqueue`
    takes), with the current device's context current in this thread. Every launch passes here
    (the prepared fast paths call it once per launch), so this is where a thread's first launch,
    or its first after another device's context was made current, makes the right one current:
    one thread-local read and a compare otherwise (`get_current_stream` inlined too)."""
    dtls = _device._tls
    dev = dtls.device_id
    if dtls.active_context != dev:
        _device._core_device(dev)
    streams = _tls.streams
    s = _default if streams is None else streams.get(dev, _default)
    return s._cs


def _load_current_core_stream():
    """`current_core_stream`: `_poolcore.current_core_stream` (its common case in C,
    cuda/_native/current_stream.c, which the pool's allocation reads too; the Python function above
    for the rest) where the C core is built, else the Python function (CUARRAY_PURE_PYTHON_STREAM=1
    forces it)."""
    if _poolcore is None:
        return _current_core_stream
    _poolcore.configure_current_stream(_device._tls, _tls, _default, Stream, _current_core_stream)
    if os.environ.get("CUARRAY_PURE_PYTHON_STREAM", "") not in ("", "0"):
        return _current_core_stream
    return _poolcore.current_core_stream


current_core_stream = _load_current_core_stream()


def core_stream(stream: Stream):
    """The cuda.core Stream of one of our streams for a launch on it, with the context of its device
    (the current device for the default streams) current in this thread."""
    dev = stream.device_id
    if dev < 0:
        dev = _device._tls.device_id
    if _device._tls.active_context != dev:
        _device._core_device(dev)
    return stream._cs


def ptds_pool_key() -> int:
    """The memory pool's stream key for the calling thread's per-thread default stream. Its handle
    value (2) is the same in every thread but names a different stream in each, so it cannot key
    stream-ordered reuse: a block freed by one thread's work could be handed to another thread's
    while still in use. Each thread gets a key of its own, never reused by a later thread
    (`(serial << 8) | 2`: no real stream handle, an aligned pointer, has that form)."""
    k = _tls.ptds_key
    if k is None:
        k = _tls.ptds_key = (next(_ptds_serial) << 8) | 2
    return k


def _context_for(stream: Stream) -> None:
    """Make current, in this thread, the context a driver call on `stream` needs: its device's
    (the current device's for the default streams, whose handles name no context)."""
    _device._core_device(stream.device_id if stream.device_id >= 0 else None)


class Event:
    """A CUDA event. See `cupy.cuda.Event`; timing is on unless ``disable_timing=True``."""

    __slots__ = ("_ev", "ptr", "device_id")

    def __init__(self, block: bool = False, disable_timing: bool = False, interprocess: bool = False):
        drv = _backend.driver()
        _device._core_device()
        flags = 0
        if block:
            flags |= int(drv.CUevent_flags.CU_EVENT_BLOCKING_SYNC)
        if disable_timing or interprocess:
            flags |= int(drv.CUevent_flags.CU_EVENT_DISABLE_TIMING)
        if interprocess:
            flags |= int(drv.CUevent_flags.CU_EVENT_INTERPROCESS)
        self._ev = _backend.check(drv.cuEventCreate(flags))
        self.ptr = int(self._ev)
        self.device_id = _device.get_device_id()

    def __del__(self):
        ev = getattr(self, "_ev", None)
        if ev is not None:
            try:
                _backend.driver().cuEventDestroy(ev)
            except Exception:
                pass

    def record(self, stream: Stream | None = None) -> None:
        """Record this event on `stream` (default: the current stream)."""
        if stream is None:
            stream = get_current_stream()
        stream.record(self)

    def synchronize(self) -> None:
        """Block the host until the work before this event has finished."""
        _sync_hooks.check_not_capturing()
        _backend.check(_backend.driver().cuEventSynchronize(self._ev))
        _sync_hooks.run()

    @property
    def done(self) -> bool:
        return _is_done(_backend.driver().cuEventQuery(self._ev)[0])


def _is_done(err) -> bool:
    """A stream/event query's CUresult: SUCCESS is done, NOT_READY pending, anything else raises."""
    if err == 0:
        return True
    if getattr(err, "name", "") == "CUDA_ERROR_NOT_READY":
        return False
    _backend.check((err,))
    return False


def get_elapsed_time(start: Event, end: Event) -> float:
    """Milliseconds between two recorded, completed events."""
    return float(_backend.check(_backend.driver().cuEventElapsedTime(start._ev, end._ev)))


# -- CuPy's stream helpers and the CUDA stream protocol ------------------------------------------

def stream_handle(obj) -> int:
    """The ``cudaStream_t`` of `obj`: an int, or any object with ``__cuda_stream__`` (the CUDA
    stream protocol: a method returning ``(version, handle)``, version 0), as
    `ExternalStream` and `Stream.from_external` take. TypeError for anything else or a bad return."""
    proto = getattr(obj, "__cuda_stream__", None)
    if proto is None:
        if isinstance(obj, bool) or not hasattr(obj, "__index__"):
            raise TypeError("a stream must be given as an int handle or an object with __cuda_stream__, "
                            "not {}".format(type(obj).__name__))
        return obj.__index__()
    got = proto() if callable(proto) else proto
    if (not isinstance(got, tuple) or len(got) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in got)):
        raise TypeError("__cuda_stream__ must return a (version, handle) tuple of two ints, got {!r}".format(got))
    version, handle = got
    if version != 0:
        raise TypeError("unsupported __cuda_stream__ protocol version {} (expected 0)".format(version))
    return handle


def get_current_stream_ptr() -> int:
    """The calling thread's current stream as its ``cudaStream_t`` (CuPy's `get_current_stream_ptr`)."""
    return get_current_stream().ptr


def get_default_stream_ptr() -> int:
    """The ``cudaStream_t`` of the default stream threads start on: 0, the legacy default stream
    (CuPy's `get_default_stream_ptr`; cuarray has no per-thread-default mode, `Stream.ptds` is 2)."""
    return Stream.null.ptr
