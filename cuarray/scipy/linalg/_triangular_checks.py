"""solve_triangular's ``check_finite=True`` tests (templates/triangular_checks.cu): `a` and `b`
all finite, no zero on `a`'s diagonals, found by one kernel and read back by one copy queued
*before* the solve, waited for after the solve's launch.

Why that order: SciPy raises at the call, so the result has to be read before returning. Read
after the solve on the same stream, the read waits for the solve, and everything the host does
from then until the next call's first launch leaves the device idle (measured: 444-556 us with
the check against 341-400 without, H100, 1024 x 1024 float64, 64 right-hand sides). Queued before
the solve, into pinned memory with an event behind the copy, the wait ends when the checks are
done while the solve is still running, so calls back to back should keep the device as busy as
calls without the check (predicted; `scripts/perf/solve_triangular_parts.py` measures it). If a
check fails the solve's work is wasted: its result is dropped.

`operand` and `plan` are pure (shapes and strides in, kernel arguments and grid out), tested on
the CPU; `reference` is what the kernel computes, in NumPy, from the same arguments.
"""

from __future__ import annotations

import ctypes
import pathlib
import threading

import numpy

from ..._core import dtypes as _dtypes
from ..._core.copying import copy as _copy
from ..._core.ndarray import ndarray
from ..._core.shapes import collapse_dims
from ...cuda import _sync_hooks
from ...cuda import device as _device
from ...cuda import pinned_memory as _pinned
from ...cuda import stream as _stream
from ...cuda.kernel_family import KernelFamily
from ...cuda import caches as _caches

__all__ = ["NOT_FINITE_A", "NOT_FINITE_B", "ZERO_DIAGONAL", "operand", "plan", "queue", "reference", "kernel_name"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "triangular_checks.cu"
BLOCK = 256  # the template's BLOCK, and CHUNK its BLOCK * PER_THREAD (a CPU test compares them)
CHUNK = 4 * BLOCK
BLOCKS_PER_SM = 4  # 1024 threads an SM reading a large `a` (not tuned: no GPU where this was written)
NOT_FINITE_A, NOT_FINITE_B, ZERO_DIAGONAL = 1, 2, 4  # the bits of each block's byte
NONE = (0, 1, 0, 0, 0, 0)  # an operand not checked: no items

CHECKS = KernelFamily("cuarray_scipy_triangular_checks", _TEMPLATE.read_text, namespace="cuarray_linalg_checks",
                      kernels=(
    "checks<TA, TB>(const TA* a, long long a_count, long long a_rows, long long a_cols, long long a_s0, "
    "long long a_s1, long long a_s2, const TB* b, long long b_count, long long b_rows, long long b_cols, "
    "long long b_s0, long long b_s1, long long b_s2, long long d_count, long long d_rows, long long d_cols, "
    "long long d_s0, long long d_s1, long long d_s2, unsigned char* partial)",
))


_names: dict = {}


def kernel_name(ta: numpy.dtype, tb: numpy.dtype) -> str:
    name = _names.get((ta, tb))
    if name is None:
        c = [_dtypes.ctype(dt) for dt in (ta, tb)]
        name = _names[ta, tb] = "checks<{}, {}>".format(*("cuarray::" + t if t.startswith("complex") else t for t in c))
    return name


def operand(shape, strides):
    """(count, rows, cols, s0, s1, s2), strides in bytes, of the elements of an array of this
    shape and strides (`a`'s diagonals: shape (batch..., n), the last stride a row plus a column
    stride): extent-1 and broadcast (stride 0) dimensions dropped, the rest collapsed with the
    smallest stride innermost (`collapse_dims`) and padded to three. None when more than three
    remain (the caller checks a copy). An empty array has no items (`NONE`)."""
    if 0 in shape:
        return NONE
    keep = [(d, s) for d, s in zip(shape, strides) if d != 1 and s != 0]
    dims, (st,) = collapse_dims(tuple(d for d, _ in keep), (tuple(s for _, s in keep),))
    if len(dims) > 3:
        return None
    pad = 3 - len(dims)
    return (1,) * pad + tuple(dims) + (0,) * pad + tuple(st)


def items(desc) -> int:
    """The kernel's work items of one operand: CHUNK elements of one row at most."""
    count, rows, cols = desc[:3]
    return count * rows * (-(-cols // CHUNK))


_plans: dict = {}
_caches.register("triangular check plans", _plans)


def plan(a_shape, a_strides, b_shape, b_strides, check_a: bool, check_b: bool, check_diag: bool, sm_count: int):
    """(grid, a's, b's and the diagonals' descriptions) of one check launch; grid 0: nothing to
    check. A description None: that array does not collapse to three dimensions (check a copy).
    Memoised (a few shapes per program)."""
    key = (a_shape, a_strides, b_shape, b_strides, check_a, check_b, check_diag, sm_count)
    p = _plans.get(key)
    if p is not None:
        return p
    da = operand(a_shape, a_strides) if check_a else NONE
    db = operand(b_shape, b_strides) if check_b else NONE
    dd = NONE
    if check_diag:
        n = a_shape[-1]
        dd = operand(a_shape[:-2] + (n,), a_strides[:-2] + (a_strides[-2] + a_strides[-1],))
    if da is None or db is None or dd is None:
        return (0, da, db, dd)  # not cached: the caller plans a copy
    work = max(items(da), items(db), items(dd))
    p = (min(work, BLOCKS_PER_SM * sm_count), da, db, dd)
    if len(_plans) > 256:
        _plans.clear()
    _plans[key] = p
    return p


class Pending:
    """The checks' bits on their way to the host: `wait()` blocks until they are there."""

    __slots__ = ("host", "event", "n")

    def __init__(self, host, event, n):
        self.host, self.event, self.n = host, event, n

    def wait(self) -> int:
        self.event.synchronize()
        bits = 0
        for v in set(ctypes.string_at(self.host.ptr, self.n)):  # a few distinct bytes at most
            bits |= v
        return bits


class _Reader(threading.local):
    """This thread's pinned block and event per device, reused call after call: the pinned pool's
    bookkeeping (an event created, recorded, queried and destroyed per released block) cost more
    host time before the solve's launch than the read itself. Each call waits for its own event
    before returning; one that left early (an exception between queue and wait) may still have a
    copy into the block in flight, so a reuse first waits for the event if it is not done."""
    blocks: dict = None

    def get(self, device_id: int, n: int):
        if self.blocks is None:
            self.blocks = {}
        got = self.blocks.get(device_id)
        if got is None or got[0].size < n:
            got = self.blocks[device_id] = (_pinned.alloc_pinned_memory(max(n, CHUNK)),
                                            _stream.Event(disable_timing=True))
        elif not got[1].done:
            got[1].synchronize()
        return got


_reader = _Reader()


def queue(a: ndarray, b: ndarray, check_a: bool, check_b: bool, check_diag: bool):
    """Launch the checks of `a` (finite where `check_a`, a nonzero diagonal where `check_diag`)
    and `b` (finite where `check_b`) on the current stream and queue the read of their bits:
    a `Pending`, or None when there is nothing to check."""
    if _sync_hooks.is_capturing():
        _sync_hooks.check_not_capturing()  # SciPy raises at the call: a read, not capturable
    grid, da, db, dd = plan(a.shape, a.strides, b.shape, b.strides, check_a, check_b, check_diag,
                            _device._sm_count(_device.get_device_id()))
    if da is None or dd is None:
        return queue(_copy(a), b, check_a, check_b, check_diag)
    if db is None:
        return queue(a, _copy(b), check_a, check_b, check_diag)
    return _launch(a, b, grid, da, db, dd) if grid else None


def _launch(a: ndarray, b: ndarray, grid: int, da, db, dd) -> Pending:
    partial = ndarray((grid,), numpy.uint8)
    CHECKS.kernel(kernel_name(a.dtype, b.dtype)).launch(grid, BLOCK, a.data.ptr, *da, b.data.ptr, *db, *dd,
                                                        partial.data.ptr)
    return _read_later(partial)


def _read_later(partial: ndarray) -> Pending:
    """The copy of `partial` into pinned memory and an event behind it, on the current stream."""
    n = partial.size
    stream = _stream.get_current_stream()
    host, ev = _reader.get(_device.get_device_id(), n)
    partial.data.copy_to_host_async(host, n, stream)
    stream.record(ev)
    return Pending(host, ev, n)


def reference(a: numpy.ndarray, b: numpy.ndarray, grid: int, da, db, dd) -> int:
    """The bits the kernel's blocks OR together, computed in NumPy from the same descriptions
    over host arrays (`a`, `b` whose first element is at the descriptions' offset 0)."""
    def elements(x, desc):
        count, rows, cols, s0, s1, s2 = desc
        if not count * rows * cols:
            return numpy.empty(0, x.dtype)
        return numpy.lib.stride_tricks.as_strided(x, (count, rows, cols), (s0, s1, s2)).ravel()
    assert grid >= 1 or not (items(da) or items(db) or items(dd))
    bits = 0
    ea = elements(a, da)
    if ea.size and not numpy.isfinite(ea).all():
        bits |= NOT_FINITE_A
    eb = elements(b, db)
    if eb.size and not numpy.isfinite(eb).all():
        bits |= NOT_FINITE_B
    ed = elements(a, dd)
    if ed.size and (ed == 0).any():
        bits |= ZERO_DIAGONAL
    return bits
