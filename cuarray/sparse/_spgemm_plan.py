"""The row-wise SpGEMM's plan, no GPU needed: which bin a row of C = A @ B falls in, the shared
memory each bin's kernels take, the launch shape, and the kernels' names.

A row's bin follows d = min(ub, p), ub its product count and p the columns of B: bin b (1..7)
holds 16 << (b - 1) < d <= 16 << b and hashes in a table of 32 << b slots (load at most 1/2).
Tables up to 512 slots get a warp per row; larger ones 512 slots per warp (a block of up to 8
warps per row). Bins past what a dtype's accumulators fit in 48 KiB of shared memory (the limit
without an opt-in attribute) and rows of 2^31 products or more go to BIG, the expand-sort path.
`row_bin` here and in templates/spgemm_bins.cuh must agree (a CPU test compiles the header).

BIG rows under the "rowwise-dense" method: a bitmap of p bits per row (the symbolic pass) and a
dense accumulator of p values per block (`dense_plan`), within DENSE_BYTES each; past that, or
under "rowwise", the expand-sort path.
"""

from __future__ import annotations

import numpy

from ..cuda.limits import SHARED_PER_BLOCK

__all__ = ["BIG", "NBINS", "table_size", "warps_per_row", "acc_bytes", "symbolic_row_bytes", "numeric_row_bytes",
           "max_bin", "table_bin_limit", "row_bin", "launch_shape", "supports", "dense_plan", "ctype", "index_ctype",
           "kernel_names"]

BIG = 8              # kBig in spgemm_bins.cuh
NBINS = BIG + 1      # bins 0 .. BIG
MAX_THREADS = 256    # the kernels' __launch_bounds__
# Dynamic shared memory a block may take without cudaFuncAttributeMaxDynamicSharedMemorySize,
# less the kernels' static 128 bytes (one counter per group).
SHARED_LIMIT = SHARED_PER_BLOCK - 128
DENSE_BYTES = 256 << 20  # bitmaps of the long rows; dense accumulators (each)
DENSE_BLOCKS = 1024      # at most this many dense accumulators (blocks) at once
# The largest table bin a row may take (None: what shared memory allows); rows past it go to BIG.
# 5: tables of at most 1024 slots. H100, scripts/perf/spgemm_variants.py --table-caps 4,5,6, ms
# (uncapped / cap 4 / 5 / 6): bench float32 6.78 / 9.11 / 6.81 / 6.74, float64 7.38 / 11.1 / 7.38 /
# 7.37, a power-law matrix squared 10.9 / 8.52 / 7.61 / 8.46 (expand-sort alone 8.24): the 2048-
# and 4096-slot tables ran their rows slower than expand-sort does.
TABLE_BIN_CAP = 5

_CTYPES = {"?": "bool", "b": "signed char", "B": "unsigned char", "h": "short", "H": "unsigned short",
           "i": "int", "I": "unsigned int", "l": "long long", "L": "unsigned long long", "q": "long long",
           "Q": "unsigned long long", "f": "float", "d": "double", "F": "cuarray::complex<float>",
           "D": "cuarray::complex<double>"}


def table_size(b: int) -> int:
    return 32 << b


def warps_per_row(b: int) -> int:
    return max(1, table_size(b) // 512)


def acc_bytes(dtype) -> int:
    """Bytes of the kernel's accumulator for `dtype`: integers below 8 bytes and bool add in 32-bit
    unsigned, everything else in its own type."""
    dt = numpy.dtype(dtype)
    return 4 if dt.kind in "biu?" and dt.itemsize < 8 else dt.itemsize


def symbolic_row_bytes(b: int) -> int:
    return table_size(b) * 4


def numeric_row_bytes(b: int, dtype) -> int:
    """Accumulators and keys for the table, and half a table of compacted columns plus 4 (the
    rank loop reads them 4 at a time). A multiple of 16: each group's accumulators stay aligned."""
    t = table_size(b)
    return t * (acc_bytes(dtype) + 4) + (t // 2 + 4) * 4


def max_bin(dtype) -> int:
    """The largest shared-memory bin for `dtype` (one row of its table must fit)."""
    b = 1
    while b + 1 < BIG and numeric_row_bytes(b + 1, dtype) <= SHARED_LIMIT:
        b += 1
    return b


def table_bin_limit(dtype) -> int:
    """The largest bin whose rows take a table: `max_bin` capped by TABLE_BIN_CAP (rows past it go to
    BIG)."""
    b = max_bin(dtype)
    return b if TABLE_BIN_CAP is None else max(1, min(b, TABLE_BIN_CAP))


def row_bin(ub, p: int, mb: int):
    """Vectorised row_bin of spgemm_bins.cuh: bins (int8) of product counts `ub`."""
    ub = numpy.asarray(ub, dtype=numpy.int64)
    d = numpy.minimum(ub, p)
    # the smallest b >= 1 with d <= 16 << b: ceil(log2 d) - 4, ceil(log2 d) the bit length of d - 1
    # (frexp's exponent; exact, d < 2^31 wherever the bin is not BIG anyway)
    bits = numpy.frexp(numpy.maximum(d - 1, 0).astype(numpy.float64))[1]
    b = numpy.maximum(1, bits - 4)
    b = numpy.where((b > mb) | (ub >= 2**31), BIG, b)
    return numpy.where(d <= 0, 0, b).astype(numpy.int8)


def launch_shape(b: int, row_bytes: int) -> tuple:
    """(threads per block, rows per block, dynamic shared bytes) for bin `b`'s kernels."""
    g = 32 * warps_per_row(b)
    rb = max(1, min(MAX_THREADS // g, SHARED_LIMIT // row_bytes))
    return rb * g, rb, rb * row_bytes


def supports(m: int, p: int) -> bool:
    """Row ids are int32 and columns 32-bit unsigned keys (all ones marks an empty slot)."""
    return m < 2**31 - 1 and p < 2**32 - 1


def dense_plan(nbig: int, p: int, dtype):
    """(bitmap words per row, accumulator blocks) for `nbig` long rows of p columns, or None when
    the bitmaps or a single accumulator would pass DENSE_BYTES."""
    words = -(-p // 32)
    blocks = min(nbig, DENSE_BLOCKS, DENSE_BYTES // max(1, p * acc_bytes(dtype)))
    if nbig * words * 4 > DENSE_BYTES or blocks < 1:
        return None
    return words, blocks


def ctype(dtype) -> str:
    return _CTYPES[numpy.dtype(dtype).char]


def index_ctype(dtype) -> str:
    return "int" if numpy.dtype(dtype).itemsize == 4 else "long long"


def kernel_names(dtype, in_index, out_index) -> dict:
    """Name expressions of one instantiation: 'bin', 'scatter', 'copy', 'dense_symbolic',
    'dense_numeric', and ('symbolic', b),
    ('numeric', b) for every shared-memory bin of `dtype`."""
    t, i, o = ctype(dtype), index_ctype(in_index), index_ctype(out_index)
    names = {"bin": "cuarray_spgemm_bin_rows<{}>".format(i), "scatter": "cuarray_spgemm_scatter_rows",
             "copy": "cuarray_spgemm_copy_rows<{}, {}>".format(t, o),
             "dense_symbolic": "cuarray_spgemm_dense_symbolic<{}>".format(i),
             "dense_numeric": "cuarray_spgemm_dense_numeric<{}, {}, {}>".format(t, i, o)}
    for b in range(1, max_bin(dtype) + 1):
        names[("symbolic", b)] = "cuarray_spgemm_symbolic<{}, {}, {}>".format(i, table_size(b), warps_per_row(b))
        names[("numeric", b)] = "cuarray_spgemm_numeric<{}, {}, {}, {}, {}>".format(
            t, i, o, table_size(b), warps_per_row(b))
    return names
