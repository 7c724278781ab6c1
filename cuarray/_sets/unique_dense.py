"""unique values of integers by a bitmap instead of a sort (kernels in templates/unique_dense.cu).

When the values of `x` span at most `cap` integers (cap about 4 bits an element), one bit per
integer of [min, max] marks the values present, and the set bits, read in order, are the sorted
unique values. The route is decided before any bitmap work: one pass of block min/max and one
read of the partials (the host reduces them); data whose span exceeds the cap then goes to the
sort having paid that pass and read only (data of 128 MiB or more: a strided sample's min/max
and read first, so wide data skips the full pass). 8- and 16-bit integers skip both: the bitmap
covers the dtype's whole range (at most two tiles). Then: a driver memset of the bitmap (sized to the
span), the data once more (the bits), the bitmap twice (tile counts, then the values), a scan of
the tile counts and the read of the total (the result's size).

An element whose bit a plain read already sees set skips its atomicOr (bits are only ever set),
so repeated values cost loads, not atomics.
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

__all__ = ["plan", "values", "kernel_names", "key", "DENSE", "MIN_SIZE"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "unique_dense.cu"
_THREADS = 256
TILE_BITS = _THREADS * 4 * 32  # kTileWords words of 32 bits
# Below this many elements the sort engine sorts in one block (sort_plan.block_tile): no bitmap.
MIN_SIZE = 8193
_CAP_PER_ELEMENT = 4
_CAP_MAX = 1 << 30
# Data this large is sampled before the full min/max pass (_measure); read-only settings (tests
# of the sampled decision patch them with pytest's monkeypatch).
SAMPLE_BYTES = 1 << 27
SAMPLES = 1 << 16
_SAMPLE_BLOCKS = 32
_I32, _U4, _U8 = numpy.dtype(numpy.int32), numpy.dtype(numpy.uint32), numpy.dtype(numpy.uint64)

DENSE = KernelFamily("cuarray_unique_dense", _TEMPLATE.read_text, namespace="cuarray::unique_dense", kernels=(
    "cuarray_dense_minmax<T>(const T* x, long long n, long long step, unsigned long long* part)",
    "cuarray_dense_mark<T>(const T* x, long long n, unsigned long long base, unsigned int* bits)",
    "cuarray_dense_tile_counts(const unsigned int* bits, int* counts)",
    "cuarray_dense_expand<T>(const unsigned int* bits, const int* incl, unsigned long long base, T* out)",
))


@functools.lru_cache(maxsize=None)
def kernel_names(dt) -> tuple:
    ct = _dtypes.ctype(numpy.dtype(dt))
    return ("cuarray_dense_minmax<{}>".format(ct), "cuarray_dense_mark<{}>".format(ct), "cuarray_dense_tile_counts",
            "cuarray_dense_expand<{}>".format(ct))


def plan(n: int, dtype, sms: int):
    """(blocks of the data passes, cap), or None where the sort is the way: not an integer dtype,
    or fewer than MIN_SIZE elements. The bitmap may span cap = _CAP_PER_ELEMENT * n integers (at
    least one tile, at most 2^30); 8- and 16-bit dtypes: their whole range (no min/max needed)."""
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "iu" or n < MIN_SIZE:
        return None
    whole = 1 << (8 * dtype.itemsize)
    cap = whole if dtype.itemsize <= 2 else min(max(_CAP_PER_ELEMENT * n, TILE_BITS), _CAP_MAX)
    blocks = max(1, min(-(-n // (_THREADS * 8)), 4 * sms))
    return blocks, cap


def key(value: int, dtype) -> int:
    """The kernels' order key of an integer of `dtype` (key_of: signed values offset by 2^63)."""
    return int(value) + (1 << 63) if numpy.dtype(dtype).kind == "i" else int(value)


def read_range(part: ndarray) -> tuple:
    """(smallest, largest) key from the blocks' partials: the read that decides the route."""
    host = numpy.zeros(part._size, _U8)
    part.data.copy_to_host(host.ctypes.data, part._size * 8)
    _errors.check_index_errors()  # a synchronisation point that happens anyway
    return int(host[0::2].min()), int(host[1::2].max())


def read_total(incl: ndarray) -> int:
    """The last inclusive tile count: the number of unique values."""
    host = numpy.zeros(1, _I32)
    incl.data.__add__((incl._size - 1) * 4).copy_to_host(host.ctypes.data, 4)
    _errors.check_index_errors()  # a synchronisation point that happens anyway
    return int(host[0])


def _measure(x: ndarray, blocks: int, cap: int, minmax_k):
    """(smallest, largest) key of `x`, or None when they are more than `cap` apart. Data of
    SAMPLE_BYTES or more is first sampled (SAMPLES elements, evenly strided; one read): a sample
    already too wide spares the full pass (~45 us at 128 MiB) for ~12 us."""
    n = x._size
    if n * x._dtype.itemsize >= SAMPLE_BYTES:
        m = min(SAMPLES, n)
        part = ndarray((2 * _SAMPLE_BLOCKS,), _U8)
        minmax_k.launch(_SAMPLE_BLOCKS, _THREADS, x.data.ptr, m, n // m, part.data.ptr)
        base, top = read_range(part)
        if top - base >= cap:
            return None
    part = ndarray((2 * blocks,), _U8)
    minmax_k.launch(blocks, _THREADS, x.data.ptr, n, 1, part.data.ptr)
    base, top = read_range(part)
    return None if top - base >= cap else (base, top)


def values(x: ndarray):
    """The sorted unique values of the C-contiguous 1-D integer `x`, or None when the bitmap does
    not apply (dtype, size) or the values span more than the cap (decided before the bitmap)."""
    n = x._size
    p = plan(n, x._dtype, _device._sm_count(_device.get_device_id()))
    if p is None:
        return None
    if _device_check.active[0]:
        _device_check.check((x,))
    blocks, cap = p
    minmax_k, mark_k, counts_k, expand_k = DENSE.get(*kernel_names(x._dtype))
    if cap < 1 << (8 * x._dtype.itemsize):
        ends = _measure(x, blocks, cap, minmax_k)
        if ends is None:
            return None  # too wide: the sort, nothing else spent
        base, top = ends
    else:
        base, top = key(numpy.iinfo(x._dtype).min, x._dtype), key(numpy.iinfo(x._dtype).max, x._dtype)
    tiles = -(-(top - base + 1) // TILE_BITS)
    bits = ndarray((tiles * TILE_BITS // 32,), _U4)
    bits.data.memset_async(0, tiles * TILE_BITS // 8)
    mark_k.launch(blocks, _THREADS, x.data.ptr, n, base, bits.data.ptr)
    counts = ndarray((tiles,), _I32)
    counts_k.launch(tiles, _THREADS, bits.data.ptr, counts.data.ptr)
    incl = _scan.inclusive_sum_1d(counts, _I32)
    out = ndarray((read_total(incl),), x._dtype)
    expand_k.launch(tiles, _THREADS, bits.data.ptr, incl.data.ptr, base, out.data.ptr)
    return out
