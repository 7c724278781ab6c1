"""Small read-only tables the ndimage kernels take (filter weights, shapes, tap offsets), uploaded
once and kept.

A repeated call (a filter in a loop, the bench) makes the same tables each time; uploading them each
time cost a pinned staging block and an event a table, host time on the order of a small kernel's
device time, and a 4096^2 gaussian_filter makes two such uploads for about 150 us of GPU work. A table
here is keyed by its bytes, dtype, shape and device. The kernels only read it (their parameters are
`const`); call sites whose table a kernel writes (zoom's `meta`, label's bounding boxes) upload their
own. The first upload of a table is waited for before the table is shared, so a launch on any
stream or thread may read it at once (one synchronisation a new table, none after)."""

from __future__ import annotations

import threading

import numpy

from ..._core.ndarray import ndarray
from ..._core.transfer import from_host
from ...cuda import caches as _caches
from ...cuda import device as _device
from ...cuda import stream as _stream

__all__ = ["constant_table"]

# Tables up to this size are kept (weights of ~500 float64 taps; a 3-D footprint's offsets); larger
# ones are uploaded per call, as before. At most _KEEP tables (2 MiB a device), then new ones are
# uploaded per call: a kept table is never freed, since a kernel on another stream may still be
# reading it and the pool orders a freed block only on the stream that allocated it.
_BYTES_MAX = 4096
_KEEP = 512

_tables: dict = {}
_lock = threading.Lock()


def constant_table(values) -> ndarray:
    """A device copy of the host array `values` that no kernel may write, shared between calls."""
    arr = numpy.ascontiguousarray(values)
    if arr.nbytes > _BYTES_MAX:
        return from_host(arr)
    key = (arr.tobytes(), arr.dtype.str, arr.shape, _device.get_device_id())
    t = _tables.get(key)
    if t is not None:
        return t
    if len(_tables) >= _KEEP:
        return from_host(arr)  # stream-ordered on this call's stream, as an uncached upload
    t = from_host(arr)
    _stream.get_current_stream().synchronize()
    with _lock:  # two threads making the same table: one is kept, the other's copy (complete) dropped
        return _tables.setdefault(key, t)


def clear() -> None:
    """Forget the kept tables (tests: only when no kernel may still be reading one)."""
    with _lock:
        _tables.clear()


def _forget() -> None:
    # (a kernel of another stream may still read a table: the device's work is waited for first)
    if _tables:
        _device.synchronize()
    clear()


_caches.register("ndimage constant tables", count=lambda: len(_tables), clear=_forget,
                 nbytes=lambda: sum(t.nbytes for t in list(_tables.values())))
