"""`x[mask]` for a boolean mask covering a C-contiguous `x`, and `nonzero`/`argwhere`: tile counts, a
scan of the counts, one compaction pass (kernels in templates/mask_compact.cu).

The general mask path (indexing._mask_getitem) writes a prefix sum per mask element and reads it
back: for 1 Gi elements that is 4 GiB written and read again on top of the data. Here only one count
per tile of 4096 mask bytes is written; the compaction re-reads the mask (1 byte per element) and
ranks the true elements of its tile with warp ballots. Traffic: mask twice, x once, result once.
The one host synchronisation is the read of the total (the result's size).
"""

from __future__ import annotations

import functools
import pathlib

import numpy

from ..cuda.kernel_family import KernelFamily
from . import device_errors as _errors
from . import scan as _scan
from .ndarray import ndarray

__all__ = ["compact", "coords", "supports", "TILE", "MAX_COORD_DIMS"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "mask_compact.cu"
_THREADS = 256
TILE = 4 * _THREADS * 4  # kTile: mask bytes per block
_WORDS = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long",
          16: "cuarray::mask_compact::word16"}
_OFFSETS = {4: "int", 8: "long long"}
# Masks shorter than this use 32-bit counts and offsets.
_INT32_OFFSETS_BELOW = 2**31 - 1



def kernel_names(itemsize: int, offset_bytes: int) -> tuple:
    """The two name expressions (tile counts, compaction) of one instantiation."""
    off = _OFFSETS[offset_bytes]
    return ("cuarray_mask_tile_counts<{}>".format(off),
            "cuarray_mask_compact<{}, {}>".format(_WORDS[itemsize], off))


def coords_kernel_names(ndim: int, offset_bytes: int) -> tuple:
    """Name expressions (tile counts, coordinates) for a mask of `ndim` dims."""
    off = _OFFSETS[offset_bytes]
    return ("cuarray_mask_tile_counts<{}>".format(off), "cuarray_mask_coords<{}, {}>".format(off, ndim))


# Masks of up to this many dims get their coordinates from the tile kernel (d1 .. d7 parameters).
MAX_COORD_DIMS = 8


MASK_COMPACT = KernelFamily("cuarray_mask_compact", _TEMPLATE.read_text, kernels=(
    "cuarray_mask_tile_counts<Offset>(const unsigned char* mask, const long long n, const int aligned, "
    "Offset* counts)",
    "cuarray_mask_compact<Word, Offset>(const Word* x, const unsigned char* mask, const long long n, "
    "const int aligned, const Offset* inclusive_counts, Word* out)",
    "cuarray_mask_coords<Offset, K>(const unsigned char* mask, const long long n, const int aligned, "
    "const Offset* inclusive_counts, long long* out, const long long stride_k, const long long stride_r, "
    "const long long d1, const long long d2, const long long d3, const long long d4, const long long d5, "
    "const long long d6, const long long d7)",
))


@functools.lru_cache(maxsize=None)
def _names(key) -> tuple:
    """The name expressions of `key` ("compact" or "coords", then the name function's arguments),
    formatted once."""
    return (kernel_names if key[0] == "compact" else coords_kernel_names)(*key[1:])


def _kernel_pair(key):
    """The two kernels (tile counts, compaction or coordinates) of `key`, compiled together."""
    return MASK_COMPACT.get(*_names(key))


def supports(x: ndarray) -> bool:
    """Whether `compact` can take `x`: C-contiguous, its elements aligned to their size."""
    size = x._dtype.itemsize
    return x._c and size in _WORDS and x.data.ptr % min(size, 8) == 0


_I32, _I64 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)


def _offset_dtype(n: int) -> numpy.dtype:
    return _I32 if n < _INT32_OFFSETS_BELOW else _I64


def _count(mask: ndarray, counts_kernel, off_dt):
    """(tiles, alignment flag, inclusive tile counts, total): the one host synchronisation."""
    n = mask._size
    tiles = (n + TILE - 1) // TILE
    aligned = numpy.int32(mask.data.ptr % 4 == 0)
    counts = ndarray((tiles,), off_dt)
    counts_kernel.launch(tiles, _THREADS, mask.data.ptr, n, aligned, counts.data.ptr)
    incl = _scan.inclusive_sum_1d(counts, off_dt)
    host = numpy.zeros(1, off_dt)
    incl.data.__add__((tiles - 1) * off_dt.itemsize).copy_to_host(host.ctypes.data, off_dt.itemsize)
    _errors.check_index_errors()  # a synchronisation point that happens anyway
    return tiles, aligned, incl, int(host[0])


def compact(x: ndarray, mask: ndarray) -> ndarray:
    """The elements of the C-contiguous `x` where the contiguous bool `mask` (same number of
    elements) is true, in memory order, as a new 1-D array. Synchronises once for the count."""
    n = mask._size
    if n == 0:
        return ndarray((0,), x._dtype)
    off_dt = _offset_dtype(n)
    counts_k, compact_k = _kernel_pair(("compact", x._dtype.itemsize, off_dt.itemsize))
    tiles, aligned, incl, total = _count(mask, counts_k, off_dt)
    out = ndarray((total,), x._dtype)
    if total:
        compact_k.launch(tiles, _THREADS, x.data.ptr, mask.data.ptr, n, aligned, incl.data.ptr, out.data.ptr)
    return out


def coords(mask: ndarray, shape: tuple, layout: str):
    """(int64 coordinates, count) of the true elements of the contiguous bool `mask` seen with
    `shape` (1 to MAX_COORD_DIMS dims), as (ndim, count) ("rows") or (count, ndim) ("cols")."""
    k = len(shape)
    n = mask._size
    off_dt = _offset_dtype(n)
    if n == 0:
        return ndarray((k, 0) if layout == "rows" else (0, k), _I64), 0
    counts_k, coords_k = _kernel_pair(("coords", k, off_dt.itemsize))
    tiles, aligned, incl, total = _count(mask, counts_k, off_dt)
    out = ndarray((k, total) if layout == "rows" else (total, k), _I64)
    if total:
        stride_k, stride_r = (total, 1) if layout == "rows" else (1, k)
        dims = list(shape[1:]) + [1] * (MAX_COORD_DIMS - k)
        coords_k.launch(tiles, _THREADS, mask.data.ptr, n, aligned, incl.data.ptr, out.data.ptr, stride_k, stride_r,
                        *dims)
    return out, total
