"""Pure-Python planning for the sort engine (`sort.py`): key and value C types, the onesweep
tiling (CUB's sm_90 tuning for onesweep, measured per key/value size), digit passes, the
scratch layout, and the tile of the per-block row sort. No device is touched: CPU tests check
every rule here.
"""

from __future__ import annotations

import math

import numpy

from ..cuda.limits import SHARED_PER_BLOCK

__all__ = [
    "RADIX_BITS", "MAX_PASSES", "PORTION_LIMIT", "key_ctype", "value_ctype", "sortable", "passes",
    "onesweep_tile", "plan_buffers", "portion_size", "Scratch", "scratch", "block_tile", "BLOCK_TILES", "offset_ctype",
]

RADIX_BITS = 8
MAX_PASSES = 8  # cuarray::RADIX_MAX_PASSES: 64-bit keys in 8-bit digits
# CUB's onesweep look-back packs a count and two flag bits in an int: a launch covers < 2^30
# keys, and CUB's dispatch uses portions of at most 2^28 - 1 keys (rounded to whole tiles).
PORTION_LIMIT = (1 << 28) - 1

# (kind, itemsize) -> the C type the radix kernels see. Floats move as their bits with
# cuarray::radix_float (digits from the canonical key: -0.0 == 0.0, NaNs equal and last).
_KEY_CTYPES = {
    ("b", 1): "unsigned char",
    ("i", 1): "signed char", ("u", 1): "unsigned char",
    ("i", 2): "short", ("u", 2): "unsigned short",
    ("i", 4): "int", ("u", 4): "unsigned int",
    ("i", 8): "long long", ("u", 8): "unsigned long long",
    ("f", 2): "cuarray::radix_float<unsigned short>",
    ("f", 4): "cuarray::radix_float<unsigned int>",
    ("f", 8): "cuarray::radix_float<unsigned long long>",
}
# Values are moved as raw bits of their size.
_VALUE_CTYPES = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long",
                 16: "ulonglong2"}


def sortable(dtype) -> bool:
    """Whether the radix kernels sort `dtype` directly (complex goes through key words)."""
    dtype = numpy.dtype(dtype)
    return (dtype.kind, dtype.itemsize) in _KEY_CTYPES


def key_ctype(dtype) -> str:
    dtype = numpy.dtype(dtype)
    try:
        return _KEY_CTYPES[(dtype.kind, dtype.itemsize)]
    except KeyError:
        raise TypeError("the radix sort has no key type for {}".format(dtype)) from None


def value_ctype(itemsize: int) -> str:
    try:
        return _VALUE_CTYPES[itemsize]
    except KeyError:
        raise TypeError("the radix sort moves values of 1, 2, 4, 8 or 16 bytes, not {}".format(itemsize)) from None


def offset_ctype(n: int) -> str:
    """The digit-count type: 32 bits while every count fits."""
    return "unsigned int" if n < 2**32 else "unsigned long long"


def passes(key_bytes: int, bits: int = RADIX_BITS) -> int:
    return -(-8 * key_bytes // bits)


def onesweep_tile(key_bytes: int, value_bytes: int, offset_bytes: int = 4, is_float: bool = False) -> tuple:
    """(threads, items per thread) of the onesweep kernel: CUB 3.5's sm_90 policy
    (tuning_radix_sort.cuh, make_onesweep_small_key_policy, register-bound scaling)."""
    if key_bytes < 4:
        threads, items = (512, 19) if value_bytes == 0 else (512, 17)
    elif key_bytes == 4:
        wide = offset_bytes == 8
        items = (20 - wide - is_float) if value_bytes == 0 else ((17 if wide else 23) if value_bytes < 8 else (29 if wide else 30))
        threads = 384
    else:
        threads, items = 384, (30 if value_bytes < 8 else 24)
    dominant = max(key_bytes, value_bytes, 4)
    items = max(1, items * 4 // dominant)
    threads = min(threads, -(-(SHARED_PER_BLOCK // (dominant * items)) // 32) * 32)
    return threads, items


def plan_buffers(active) -> list:
    """Model of cuarray_radix_plan's buffer choice: per pass (source, destination) names among
    "src", "out", "tmp", or None for a skipped pass. The last active pass writes "out"."""
    k = sum(1 for a in active if a)
    res, cur, j = [], "src", 0
    for a in active:
        if not a:
            res.append(None)
            continue
        j += 1
        dst = "out" if (k - j) % 2 == 0 else "tmp"
        res.append((cur, dst))
        cur = dst
    return res


def portion_size(tile_items: int) -> int:
    return PORTION_LIMIT // tile_items * tile_items


def _align(x: int, a: int = 256) -> int:
    return -(-x // a) * a


class Scratch:
    """Byte offsets in one zeroed scratch block: plan, digit counts (per portion and pass),
    block counters, and one look-back region per (portion, pass)."""

    __slots__ = ("plan", "bins", "counters", "lookback", "lookback_stride", "zeroed", "total",
                 "portions", "portion", "blocks", "npasses")

    def __init__(self, n: int, key_bytes: int, tile_items: int, offset_bytes: int):
        self.npasses = passes(key_bytes)
        self.portion = portion_size(tile_items)
        self.portions = max(1, -(-n // self.portion))
        self.blocks = -(-min(n, self.portion) // tile_items)
        digits = 1 << RADIX_BITS
        self.plan = 0
        self.bins = _align(512)  # sizeof(cuarray::radix_plan) is 304
        nbins = self.portions * self.npasses * digits * offset_bytes
        self.counters = _align(self.bins + nbins)
        self.lookback = _align(self.counters + self.portions * self.npasses * 4)
        self.lookback_stride = _align(self.blocks * digits * 4)
        self.total = self.lookback + self.portions * self.npasses * self.lookback_stride
        self.zeroed = self.total - self.bins  # everything after the plan starts at zero


def scratch(n: int, key_bytes: int, tile_items: int, offset_bytes: int) -> Scratch:
    return Scratch(n, key_bytes, tile_items, offset_bytes)


# Per-block row sort: (threads, items per thread, digit bits), smallest first. A row of L keys
# takes the first tile holding L; BlockRadixSort keeps keys and values of a tile in shared memory
# (48 KiB of static shared memory: tile * max(key, value) bytes <= 32 KiB). Measured on an H100,
# 16384 rows of 4096 float32 (scripts/perf/sort_sweep.py): 256 x 16 x 4 bits 0.90 ms, 128 x 32
# 0.95, 256 x 16 x 5 bits 0.99, 512 x 8 1.17, 1024 x 4 2.00: 16 keys a thread it is.
BLOCK_TILES = ((64, 4, 4), (64, 8, 4), (64, 16, 4), (128, 16, 4), (256, 16, 4), (512, 16, 4))


def block_tile(length: int, key_bytes: int, value_bytes: int):
    """The (threads, items, bits) tile for rows of `length`, or None when a row needs the
    device-wide path."""
    width = max(key_bytes, value_bytes, 1)
    for threads, items, bits in BLOCK_TILES:
        cap = threads * items
        if cap * width > 32 * 1024:
            break
        if length <= cap:
            return threads, items, bits
    return None


def bit_length(n: int) -> int:
    return max(1, int(n - 1).bit_length()) if n > 1 else 1


def rows_key_dtype(rows: int):
    """The unsigned dtype of a row id (segmented sorts through the device-wide path)."""
    return numpy.dtype(numpy.uint32) if rows <= 2**32 else numpy.dtype(numpy.uint64)


def prod(shape) -> int:
    return math.prod(shape)
