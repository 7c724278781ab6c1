"""unique values from the sorted keys without a flag array (kernels in templates/unique_heads.cu):
an element starts a value when it differs from its predecessor, decided again in each of the two
passes (head counts per tile of 4096, then the compaction) instead of written as a bool array by
one kernel and read back by two (unique's flags and mask_compact). Saves a launch and a pass; the
one synchronisation is the read of the total (the result's size).
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
from ..cuda.kernel_family import KernelFamily

__all__ = ["values", "supports", "kernel_names", "HEADS", "TILE"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "unique_heads.cu"
_THREADS = 256
TILE = _THREADS * 16  # kTile
_I32, _I64 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)

HEADS = KernelFamily("cuarray_unique_heads", _TEMPLATE.read_text, namespace="cuarray::unique_heads", kernels=(
    "cuarray_head_counts<T, bool EQUAL_NAN, Offset>(const T* x, long long n, Offset* counts)",
    "cuarray_head_compact<T, bool EQUAL_NAN, Offset>(const T* x, long long n, const Offset* incl, T* out)",
))


@functools.lru_cache(maxsize=None)
def kernel_names(dt, equal_nan: bool, offset_bytes: int) -> tuple:
    dt = numpy.dtype(dt)
    args = "{}, {}, {}".format(_dtypes.ctype(dt), "true" if equal_nan and dt.kind == "f" else "false",
                               "int" if offset_bytes == 4 else "long long")
    return "cuarray_head_counts<{}>".format(args), "cuarray_head_compact<{}>".format(args)


def supports(aux: ndarray) -> bool:
    """Whether `values` takes the sorted `aux`: C-contiguous bool, integers, float32/float64 (the
    dtypes unique's one-kernel flags take)."""
    return aux._c and (aux._dtype.kind in "biu" or aux._dtype.char in "fd")


def read_total(incl: ndarray) -> int:
    """The last inclusive tile count: the number of unique values (the one synchronisation)."""
    host = numpy.zeros(1, incl._dtype)
    incl.data.__add__((incl._size - 1) * incl._dtype.itemsize).copy_to_host(host.ctypes.data, incl._dtype.itemsize)
    _errors.check_index_errors()  # a synchronisation point that happens anyway
    return int(host[0])


def values(aux: ndarray, equal_nan: bool) -> ndarray:
    """The unique values of the sorted, non-empty, C-contiguous 1-D `aux` (`supports`)."""
    if _device_check.active[0]:
        _device_check.check((aux,))
    n = aux._size
    off = _I32 if n < 2**31 - 1 else _I64
    counts_k, compact_k = HEADS.get(*kernel_names(aux._dtype, equal_nan, off.itemsize))
    tiles = -(-n // TILE)
    counts = ndarray((tiles,), off)
    counts_k.launch(tiles, _THREADS, aux.data.ptr, n, counts.data.ptr)
    incl = _scan.inclusive_sum_1d(counts, off)
    out = ndarray((read_total(incl),), aux._dtype)
    compact_k.launch(tiles, _THREADS, aux.data.ptr, n, incl.data.ptr, out.data.ptr)
    return out
