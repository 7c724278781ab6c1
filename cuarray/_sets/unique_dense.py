"""unique values of integers by a bitmap instead of a sort (kernels in templates/unique_dense.cu).

When the values of `x` span fewer than `cap` integers (cap about 4 bits an element), one bit per
integer of [min, min + cap) marks the values present, and the set bits, read in order, are the
sorted unique values. Passes: the data twice (block min/max, then the bits), the bitmap twice
(tile counts, then the values), a scan of the tile counts; the one synchronisation is the read of
the total, which is 0 when the values do not fit: the caller then sorts (that read and the two
data passes are what such data pays extra).

An element whose bit a plain read already sees set skips its atomicOr (bits are only ever set),
so repeated values cost loads, not atomics. Predicted for 4 Mi int32 in [0, 2^20) (the bench; not
measured yet): min/max ~8 us, bits ~12 us (~1 Mi atomics for the first occurrences), bitmap
(2 MiB) ~2 us twice, scan ~4 us, against the sort's histogram and three digit passes (~100 us).
"""

from __future__ import annotations

import functools
import pathlib

import numpy

from .._core import device_check as _device_check
from .._core import device_errors as _errors
from .._core import dtypes as _dtypes
from .._core import scan as _scan
from .._core.ndarray import ndarray
from ..cuda import device as _device
from ..cuda.kernel_family import KernelFamily

__all__ = ["plan", "values", "kernel_names", "DENSE", "MIN_SIZE"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "unique_dense.cu"
_THREADS = 256
TILE_BITS = _THREADS * 4 * 32  # kTileWords words of 32 bits
# Below this many elements the sort engine sorts in one block (sort_plan.block_tile): no bitmap.
MIN_SIZE = 8193
_CAP_PER_ELEMENT = 4
_CAP_MAX = 1 << 30
_I32, _U4, _U8 = numpy.dtype(numpy.int32), numpy.dtype(numpy.uint32), numpy.dtype(numpy.uint64)

DENSE = KernelFamily("cuarray_unique_dense", _TEMPLATE.read_text, namespace="cuarray::unique_dense", kernels=(
    "cuarray_dense_minmax<T>(const T* x, long long n, unsigned long long* part, unsigned int* bits, int tiles)",
    "cuarray_dense_mark<T>(const T* x, long long n, const unsigned long long* part, int nparts, "
    "unsigned long long cap, unsigned int* bits, unsigned long long* state)",
    "cuarray_dense_tile_counts(const unsigned int* bits, const unsigned long long* state, int* counts)",
    "cuarray_dense_expand<T>(const unsigned int* bits, const int* incl, const unsigned long long* state, T* out)",
))


@functools.lru_cache(maxsize=None)
def kernel_names(dt) -> tuple:
    ct = _dtypes.ctype(numpy.dtype(dt))
    return ("cuarray_dense_minmax<{}>".format(ct), "cuarray_dense_mark<{}>".format(ct), "cuarray_dense_tile_counts",
            "cuarray_dense_expand<{}>".format(ct))


def plan(n: int, dtype, sms: int):
    """(blocks of the data passes, bitmap tiles) for `n` elements of `dtype`, or None where the
    sort is the way: not an integer dtype, or fewer than MIN_SIZE elements. The bitmap covers
    cap = _CAP_PER_ELEMENT * n integers (at least one tile, at most 2^30, whole tiles), or the
    dtype's whole range when that is smaller."""
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "iu" or n < MIN_SIZE:
        return None
    cap = min(max(_CAP_PER_ELEMENT * n, TILE_BITS), _CAP_MAX, 1 << (8 * dtype.itemsize))
    tiles = -(-cap // TILE_BITS)
    blocks = max(1, min(-(-n // (_THREADS * 8)), 4 * sms))
    return blocks, tiles


def read_total(incl: ndarray) -> int:
    """The last inclusive tile count: the number of unique values (0: they did not fit)."""
    host = numpy.zeros(1, _I32)
    incl.data.__add__((incl._size - 1) * 4).copy_to_host(host.ctypes.data, 4)
    _errors.check_index_errors()  # a synchronisation point that happens anyway
    return int(host[0])


def values(x: ndarray):
    """The sorted unique values of the C-contiguous 1-D integer `x`, or None when the bitmap does
    not apply (dtype, size) or the values span too many integers."""
    n = x._size
    p = plan(n, x._dtype, _device._sm_count(_device.get_device_id()))
    if p is None:
        return None
    if _device_check.active[0]:
        _device_check.check((x,))
    blocks, tiles = p
    minmax_k, mark_k, counts_k, expand_k = DENSE.get(*kernel_names(x._dtype))
    part = ndarray((2 + 2 * blocks,), _U8)  # state (min key, fits), then the partials
    sp = part.data.ptr
    bits = ndarray((tiles * TILE_BITS // 32,), _U4)
    counts = ndarray((tiles,), _I32)
    minmax_k.launch(blocks, _THREADS, x.data.ptr, n, sp + 16, bits.data.ptr, tiles)
    mark_k.launch(blocks, _THREADS, x.data.ptr, n, sp + 16, blocks, tiles * TILE_BITS, bits.data.ptr, sp)
    counts_k.launch(tiles, _THREADS, bits.data.ptr, sp, counts.data.ptr)
    incl = _scan.inclusive_sum_1d(counts, _I32)
    total = read_total(incl)
    if total == 0:
        return None
    out = ndarray((total,), x._dtype)
    expand_k.launch(tiles, _THREADS, bits.data.ptr, incl.data.ptr, sp, out.data.ptr)
    return out
