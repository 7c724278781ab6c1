"""Order statistics of rows by radix selection (templates/quantile_select.cu): for each row of a
C-contiguous (rows, n) array and each of T ranks per row, the element of that rank in NumPy's sort
order (NaN last), with no sort and no synchronisation.

A pass per 8 bits of the key (float32: 4, float64/int64: 8, int8: 1): one histogram kernel reads
the data once and counts the next digit of the keys that share each target's prefix (targets with
equal prefixes share a histogram, so the first pass builds one), then a one-block-per-row kernel
moves each target into the digit that holds its rank. Traffic: passes x the data, against a sort's
passes x (read + write) of keys and the sorted copy.

Rows whose keys fit a block's shared memory (`rows_plan`) take one launch instead: a block a row
reads it once and runs every pass in shared memory (no global histograms, no memset, no per-row
state upload). `take` reads given ranks out of rows already sorted (the sort route's gather).
"""

from __future__ import annotations

import pathlib

import numpy

from .._core import device_check as _device_check
from .._core import dtypes as _dtypes
from .._core.copying import astype
from .._core.copying import copyto_unchecked
from .._core.ndarray import ndarray
from .._core.transfer import from_host
from ..cuda import device as _device
from ..cuda.kernel_family import KernelFamily

__all__ = ["select", "take", "kernel_names", "rows_kernel_name", "rows_plan", "MAX_TARGETS", "state_dtype"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "quantile_select.cu"
_THREADS = 256
MAX_TARGETS = 16
_MAX_ROWS = 65535  # grid.y
_U2 = numpy.dtype(numpy.uint16)
_I8 = numpy.dtype(numpy.int64)
# A row's keys in shared memory take at most this many bytes (with 16 targets' histograms, 16 KiB,
# and the block's own state the block stays under the 48 KiB a launch gets without opting in).
ROW_KEYS_MAX = 30 * 1024


def _ctype(dt) -> str:
    return "cuarray::qselect::half_bits" if dt.char == "e" else _dtypes.ctype(dt)


def kernel_names(dt) -> tuple:
    c = _ctype(dt)
    return ("cuarray::qselect::cuarray_qselect_hist<{}>".format(c), "cuarray::qselect::cuarray_qselect_pick<{}>".format(c))


QSELECT = KernelFamily("cuarray_qselect", _TEMPLATE.read_text, namespace="cuarray::qselect", kernels=(
    "cuarray_qselect_hist<T>(const T* x, long long n, int targets, const state<typename keys<T>::key_t>* st, "
    "int shift, typename keys<T>::key_t hi_mask, unsigned long long* hist)",
    "cuarray_qselect_pick<T>(int targets, state<typename keys<T>::key_t>* st, int shift, "
    "unsigned long long* hist, int last, T* out)",
    "cuarray_qselect_rows<T, int THREADS>(const T* x, long long n, int targets, const long long* ranks, "
    "long long rank_stride, int bits, T* out)",
    "cuarray_qselect_take<T>(const T* s, long long n, long long rows, int targets, const long long* ranks, "
    "long long rank_stride, T* out)",
))


def rows_kernel_name(dt, threads: int) -> str:
    return "cuarray::qselect::cuarray_qselect_rows<{}, {}>".format(_ctype(dt), threads)


def take_kernel_name(dt) -> str:
    return "cuarray::qselect::cuarray_qselect_take<{}>".format(_ctype(dt))


def rows_plan(n: int, dt, targets: int):
    """(threads, dynamic shared bytes) of the block-a-row kernel for rows of `n` elements of `dt`
    and `targets` (<= MAX_TARGETS) ranks, or None where the row's keys do not fit. Pure."""
    kb = 8 if dt.itemsize == 8 else 4  # the key type: 64-bit keys for 8-byte types, else 32-bit
    if n < 1 or n * kb > ROW_KEYS_MAX or not 1 <= targets <= MAX_TARGETS:
        return None
    return (128 if n <= 2048 else 256), -(-n * kb // 16) * 16 + targets * 256 * 4


def _pair(dt):
    """(hist, pick) kernels for dtype dt, compiled together."""
    return QSELECT.get(*kernel_names(dt))


def key_bits(dt) -> int:
    return 8 if dt.kind == "b" else 8 * dt.itemsize


def state_dtype(dt) -> numpy.dtype:
    """The C `state<K>` of the template: K prefix, long long rank, int src (24 bytes)."""
    k = numpy.uint64 if dt.itemsize == 8 else numpy.uint32
    return numpy.dtype([("prefix", k), ("rank", numpy.int64), ("src", numpy.int32)], align=True)


def passes(bits: int) -> list:
    """(shift, hi_mask) of each pass, most significant digit first; hi_mask keeps the bits above
    the digit (the prefix already fixed)."""
    kbits = 64 if bits == 64 else 32
    full = (1 << kbits) - 1
    return [(s, (full << (s + 8)) & full) for s in range(bits - 8, -1, -8)]


def select(x: ndarray, ranks: numpy.ndarray, block_rows: bool = True) -> ndarray:
    """x: (rows, n) with n >= 1 (any layout: made C-contiguous); ranks: host ints (rows, T) or (1, T)
    (the same in every row), each in [0, n). Returns (rows, T) values of x's dtype. `block_rows`
    False keeps the histogram passes where rows would fit a block (scripts/perf/percentile_parts.py
    times both)."""
    rows, n = x._shape
    t_all = ranks.shape[1]
    dt = x._dtype
    x = astype(x, dt, order="C", copy=False)
    if _device_check.active[0]:  # raw pointers: the launch cannot tell another device's memory
        _device_check.check((x,))
    out = ndarray((rows, t_all), dt)
    if rows == 0 or t_all == 0:
        return out
    xv = x.view(_U2) if dt.char == "e" else x
    ov = out.view(_U2) if dt.char == "e" else out
    if block_rows and rows_plan(n, dt, min(t_all, MAX_TARGETS)) is not None:
        _select_rows(xv, ov, dt, ranks)
        return out
    hist_k, pick_k = _pair(dt)
    kt = numpy.uint64 if dt.itemsize == 8 else numpy.uint32
    sm = _device._sm_count(_device.get_device_id())
    steps = passes(key_bits(dt))
    for t0 in range(0, t_all, MAX_TARGETS):
        t = min(MAX_TARGETS, t_all - t0)
        st_host = numpy.zeros((rows, t), state_dtype(dt))
        st_host["rank"] = ranks[:, t0:t0 + t]
        st = from_host(st_host.view(numpy.uint8))
        single = t == t_all  # one chunk of targets: the picks write the result itself
        vals = ov if single else ndarray((rows, t), ov._dtype)
        hist = ndarray((rows * t * 256,), numpy.dtype(numpy.uint64))
        hist.data.memset_async(0, hist.nbytes)
        for r0 in range(0, rows, _MAX_ROWS):
            r = min(_MAX_ROWS, rows - r0)
            xp = xv.data.ptr + r0 * n * xv._dtype.itemsize
            sp = st.data.ptr + r0 * t * st_host.dtype.itemsize
            hp = hist.data.ptr + r0 * t * 256 * 8
            vp = vals.data.ptr + r0 * t * vals._dtype.itemsize
            bx = max(1, min(-(-n // (_THREADS * 8)), -(-8 * sm // r)))
            for i, (shift, mask) in enumerate(steps):
                hist_k.launch((bx, r), _THREADS, xp, n, t, sp, shift, kt(mask), hp)  # (hi_mask as given)
                pick_k.launch(r, _THREADS, t, sp, shift, hp, i == len(steps) - 1, vp)

        if not single:
            copyto_unchecked(ov[:, t0:t0 + t], vals)
    return out


def _select_rows(xv: ndarray, ov: ndarray, dt, ranks: numpy.ndarray) -> None:
    """`select` by the block-a-row kernel (`rows_plan` holds): ranks uploaded once per chunk of
    MAX_TARGETS (one row of them when every row has the same)."""
    rows, n = xv._shape
    t_all = ranks.shape[1]
    stride_rows = ranks.shape[0] > 1
    for t0 in range(0, t_all, MAX_TARGETS):
        t = min(MAX_TARGETS, t_all - t0)
        threads, smem = rows_plan(n, dt, t)
        rk = from_host(numpy.ascontiguousarray(ranks[:, t0:t0 + t], _I8))
        single = t == t_all
        vals = ov if single else ndarray((rows, t), ov._dtype)
        QSELECT.kernel(rows_kernel_name(dt, threads)).launch(
            rows, threads, xv.data.ptr, n, t, rk.data.ptr, t if stride_rows else 0, key_bits(dt), vals.data.ptr,
            shared_mem=smem)
        if not single:
            copyto_unchecked(ov[:, t0:t0 + t], vals)


def take(s: ndarray, ranks: numpy.ndarray) -> ndarray:
    """(rows, T): s[r, ranks[r, t]] of the C-contiguous sorted rows `s` (rows, n); `ranks` host ints
    (rows, T) or (1, T), each in [0, n). One upload, one launch."""
    rows, n = s._shape
    t = ranks.shape[1]
    dt = s._dtype
    out = ndarray((rows, t), dt)
    if rows == 0 or t == 0:
        return out
    rk = from_host(numpy.ascontiguousarray(ranks, _I8))
    sv = s.view(_U2) if dt.char == "e" else s
    ovw = out.view(_U2) if dt.char == "e" else out
    total = rows * t
    grid = max(1, min(-(-total // 256), 32 * _device._sm_count(_device.get_device_id())))
    QSELECT.kernel(take_kernel_name(dt)).launch(grid, 256, sv.data.ptr, n, rows, t, rk.data.ptr,
                                                t if ranks.shape[0] > 1 else 0, ovw.data.ptr)
    return out
