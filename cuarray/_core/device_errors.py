"""The device-side error channel: errors that kernels find (an out-of-bounds index in a gather,
scatter, `ufunc.at` or `unravel_index`) reach the host here.

A kernel that meets a bad index skips the access and records the first offender (value, axis,
size) in a small per-device buffer (`error_buffer()`, passed to the kernel as a raw argument;
`cuarray/indexing.cuh` writes it). Reading it back needs a device-to-host copy, so it is read at
the next synchronisation point that happens anyway (`get`, `item`, `bool`,
`Stream.synchronize`, ...: a sync hook) and raised there as IndexError, or at once after each
such launch with `set_sync_index_checks(True)` / ``CUARRAY_SYNC_INDEX_CHECKS=1``. See
docs/differences.md. Other kinds of error use the same buffer with their own flag (> 1,
`register_kind`; written by `cuarray::device_error`), e.g. scipy.linalg.solve_triangular's zero
diagonal with ``check_finite=False``, raised as SciPy's LinAlgError.

Thread safety: the buffer is per device and shared by the threads that use it; the first reader
after an error raises it. It is made once per device under a lock and zeroed before it is published
(a synchronous memset): readers copy it on their own stream, which is not ordered after the
creating thread's stream, so an asynchronous zeroing let another thread read the block's previous
contents as an error record (seen with 32 threads on their own streams: IndexError with garbage).
"""

from __future__ import annotations

import os
import threading

import numpy

from ..cuda import _sync_hooks
from ..cuda import backend as _seam
from ..cuda import device as _device
from .ndarray import ndarray

__all__ = ["set_sync_index_checks", "check_index_errors", "error_buffer", "after_launch", "raise_now",
           "NEGATIVE_POWER", "register_kind"]

# The `axis` a kernel records for an integer `power` with a negative exponent element
# (`cuarray::negative_power_error` in cuarray/indexing.cuh): raised as NumPy's ValueError.
NEGATIVE_POWER = -2
_POWER_MESSAGE = "Integers to negative integer powers are not allowed."

_U64 = numpy.dtype(numpy.uint64)
_sync_checks = os.environ.get("CUARRAY_SYNC_INDEX_CHECKS", "") not in ("", "0")
# The selected backend's (`_select`): a record in the fake device's memory is never read by a real
# synchronisation, nor a real one by the fake device.
# _buffers: device id -> uint64[4] device array {flag, value, axis, size}; _pending: devices with
# kernels launched since their buffer was last read; _sites: device id -> the operation of its first
# launch since then.
_buffers: dict = _seam.CUDA.table("error buffers")
_pending: set = _seam.CUDA.table("pending error records", set)
_sites: dict = _seam.CUDA.table("error sites")
_new_buffer_lock = threading.Lock()
# flag value -> make_error(value, axis, size) for the errors other than an index's (flag 1) that a
# routine records through `cuarray::device_error` (e.g. solve_triangular's zero diagonal, 2)
_kinds: dict = {}
_last_flag = [1]  # the flag of the record `_take_error` returned last


def register_kind(flag: int, make_error) -> None:
    """Errors recorded with `flag` (> 1) are raised as ``make_error(value, axis, size)``. A flag
    is one function's, known by where it is defined (file and name): registering it again (a
    reloaded module, or a test's private copy of the module) keeps the first registration."""
    def defined_at(f):
        code = getattr(f, "__code__", None)
        return (code.co_filename if code is not None else getattr(f, "__module__", None),
                getattr(f, "__qualname__", None))

    if flag <= 1 or (flag in _kinds and defined_at(_kinds[flag]) != defined_at(make_error)):
        raise ValueError("device error flag {} is taken".format(flag))
    _kinds.setdefault(flag, make_error)


def set_sync_index_checks(enabled: bool) -> bool:
    """Check index bounds right after each gather/scatter (synchronising) when `enabled`.
    Returns the previous setting. Default: off, or on with ``CUARRAY_SYNC_INDEX_CHECKS=1``.

    Examples
    --------
    >>> import cuarray
    >>> old = cuarray.set_sync_index_checks(True)   # errors at the faulty call (a sync per gather)
    >>> cuarray.set_sync_index_checks(old)
    True
    """
    global _sync_checks
    prev = _sync_checks
    _sync_checks = bool(enabled)
    return prev


def error_buffer(site: str = "") -> ndarray:
    """The current device's error buffer, for a kernel about to be launched (marks it pending).
    `site` names the operation (`x[idx]`, `take`, ...): the error's message names the first such
    operation since the last check (constant cost: no call stack is inspected)."""
    dev = _device.get_device_id()
    buf = _buffers.get(dev)
    if buf is None:
        buf = _new_buffer(dev)
    if dev not in _pending:
        _pending.add(dev)
        _sites[dev] = site
    return buf


def _new_buffer(dev: int) -> ndarray:
    """Device `dev`'s buffer, made by one thread (two would hand kernels two buffers, one of
    them dropped and reused while a kernel may still write it), zero before anyone sees it."""
    with _new_buffer_lock:
        buf = _buffers.get(dev)
        if buf is None:
            buf = ndarray((4,), _U64)
            buf.data.memset(0, 32)  # waits: every stream's later copy of it reads zeros
            _buffers[dev] = buf
    return buf


def after_launch() -> None:
    """Call after launching a kernel that was given `error_buffer()`."""
    if _sync_checks:
        check_index_errors()


def check_index_errors() -> None:
    """Raise IndexError if a gather/scatter kernel met an out-of-bounds index since the last check.

    Costs nothing when no such kernel ran since; otherwise one 32-byte copy to the host on the
    current stream (which waits for that stream's work). Resets the error.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(3)
    >>> a[cuarray.array([2, 0])]   # device indices: bounds are checked on the device, reported later
    array([2, 0])
    >>> cuarray.check_index_errors()   # would raise IndexError had one been out of bounds
    """
    _last_flag[0] = 1
    found = _take_error()
    if found is not None:
        value, axis, size = found
        if _last_flag[0] in _kinds:
            raise _kinds[_last_flag[0]](value, axis, size)
        if axis == NEGATIVE_POWER:
            _raise_power(value)
        raise IndexError("index {} is out of bounds for axis {} with size {}{}".format(value, axis, size, _where()))


def _where() -> str:
    """Where the error was found: the first device-checked operation since the last check."""
    site = _last_site[0]
    return " (found on the device in {}, called since the last synchronisation)".format(site) if site else ""


_last_site = [""]  # the site of the record `_take_error` returned last


def _raise_power(value):
    raise ValueError(_POWER_MESSAGE + " (the device found the exponent {} in the exponent array of an "
                     "integer `power` call since the last synchronisation)".format(value))


def _take_error():
    """The first recorded (value, axis, size) of the pending devices, reset; or None. Its flag
    (1 for an index error, a registered kind's otherwise) goes to `_last_flag`."""
    if not _pending:
        return None
    for dev in list(_pending):
        # Discard first: the copy below synchronises, which runs this check again (sync hook).
        _pending.discard(dev)
        _last_site[0] = _sites.pop(dev, "")
        buf = _buffers[dev]
        host = numpy.zeros(4, numpy.uint64)
        with _device.Device(dev):
            buf.data.copy_to_host(host.ctypes.data, 32)
            if host[0]:
                buf.data.memset(0, 32)
                _last_flag[0] = int(host[0])
                return tuple(int(numpy.int64(v)) for v in host[1:].view(numpy.int64))
    return None


def raise_now(make_error) -> None:
    """Check the channel at once (one synchronisation) and raise ``make_error(value, axis, size)``
    for an error found: for routines whose NumPy contract is an immediate exception (`choose`,
    `put`, `ravel_multi_index` with ``mode='raise'``; `unravel_index`), as CuPy's also synchronise
    for. Call `check_index_errors()` before the launch, so that errors of earlier launches are
    raised as what they are."""
    _last_flag[0] = 1
    found = _take_error()
    if found is not None:
        if _last_flag[0] in _kinds:
            raise _kinds[_last_flag[0]](*found)
        if found[1] == NEGATIVE_POWER:
            _raise_power(found[0])
        raise make_error(*found)


# Out-of-bounds indices found by device kernels surface at the next synchronisation.
_sync_hooks.register(check_index_errors)


def _select(prev, new) -> None:
    """The backend seam (`cuda.backend.on_select`): the error records are `new`'s."""
    global _buffers, _pending, _sites
    with _new_buffer_lock:
        _buffers, _pending, _sites = (new.table("error buffers"), new.table("pending error records", set),
                                      new.table("error sites"))


_seam.on_select(_select)
