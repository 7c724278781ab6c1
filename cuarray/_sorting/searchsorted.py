"""Searching in sorted arrays (NumPy "Sorting, searching, and counting / Searching"):
searchsorted (also `ndarray.searchsorted`) and digitize.

One thread per query runs a binary search (templates/searchsorted.cu); the first eleven halving
steps of every search probe the same 2047 positions, which each block keeps in shared memory, so a
query touches global memory only for its last log2(n) - 11 steps. `a` and the queries are cast to
their common dtype first, as NumPy does (float16 is searched as float32: the order is the same).
No synchronisation, except `digitize`, which reads whether `bins` increase or decrease (NumPy
raises ValueError for bins that do neither; the direction also picks the search).
"""

from __future__ import annotations

import pathlib

import numpy

from .._core import device_check as _device_check
from .._core import dtypes as _dtypes
from .._core.copying import astype
from .._core.host_input import as_array, is_scalar
from .._core.ndarray import ndarray
from .._core.sort import order_keys
from .._logic.comparison import greater, less, not_equal
from .._logic.truth import any as any_
from .._manipulation.joining import stack
from .._math.arithmetic import subtract
from .searching_reduce import argmax
from ..cuda import device as _device
from ..cuda.kernel_family import KernelFamily

__all__ = ["searchsorted", "digitize", "search", "kernel_name"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "searchsorted.cu"
_THREADS = 256
_I8 = numpy.dtype(numpy.int64)
_F4 = numpy.dtype(numpy.float32)
_U8 = numpy.dtype(numpy.uint64)
SEARCHSORTED = KernelFamily("cuarray_searchsorted", _TEMPLATE.read_text, namespace="cuarray::searchsorted", kernels=(
    "cuarray_searchsorted<T, Right, Sorted>(const T* a, const long long* sorter, long long n, const T* v, "
    "long long m, long long* out)",
))


def kernel_name(dtype, right: bool, sorted_: bool) -> str:
    """The name expression of one instantiation (dtype: the compute dtype, never float16)."""
    return "cuarray::searchsorted::cuarray_searchsorted<{}, {}, {}>".format(
        _dtypes.ctype(dtype), "true" if right else "false", "true" if sorted_ else "false")


def _kernel(dtype, right, sorted_):
    return SEARCHSORTED.kernel(kernel_name(dtype, right, sorted_))


def _side(side) -> bool:
    if side not in ("left", "right"):
        raise ValueError("search side must be one of 'left' or 'right' (got {!r})".format(side))
    return side == "right"


def search(a: ndarray, v: ndarray, right: bool, sorter: ndarray | None = None) -> ndarray:
    """int64 positions of `v`'s elements in the sorted 1-D `a` (both already of one dtype, not
    float16; `sorter`: int64 or None). The engine of searchsorted, digitize, isin and histograms."""
    out = ndarray(v._shape, _I8)
    m = v._size
    if m == 0:
        return out
    dt = a._dtype
    if dt.kind in "Mm":  # NaT sorts last: search the sort's order keys (uint64) instead
        a, v, dt = order_keys(a), order_keys(v), _U8
    a = astype(a, dt, order="C", copy=False)
    v = astype(v, dt, order="C", copy=False)
    if sorter is not None:
        sorter = astype(sorter, _I8, order="C", copy=False)
    if _device_check.active[0]:  # raw pointers: the launch cannot tell another device's memory
        _device_check.check((a, v, sorter))
    grid = min(-(-m // _THREADS), 16 * _device._sm_count(_device.get_device_id()))
    _kernel(dt, right, sorter is None).launch(grid, _THREADS, a.data.ptr, 0 if sorter is None else sorter.data.ptr,
                                              a._size, v.data.ptr, m, out.data.ptr)
    return out


def _compute_dtype(a_dtype, v) -> numpy.dtype:
    """NumPy's common dtype of `a` and the queries (a Python scalar counts by its default dtype)."""
    vdt = numpy.asarray(v).dtype if is_scalar(v) else v._dtype
    dt = numpy.promote_types(a_dtype, vdt)
    return _F4 if dt.char == "e" else dt


def searchsorted(a, v, side="left", sorter=None):
    """See `numpy.searchsorted`. A scalar `v` gives a 0-d int64 array. `sorter` values are not
    range-checked (NumPy raises ValueError for one out of range; that would need a sync).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1, 3, 5, 7])
    >>> cuarray.searchsorted(a, cuarray.array([0, 3, 6]))
    array([0, 1, 3])
    >>> cuarray.searchsorted(a, cuarray.array([0, 3, 6]), side='right')
    array([0, 2, 3])
    """
    right = _side(side)
    a = as_array(a, "searchsorted")
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1 else
                         "object of too small depth for desired array")
    dt = _compute_dtype(a._dtype, v)
    v = as_array(v, "searchsorted")
    if sorter is not None:
        sorter = as_array(sorter, "searchsorted")
        if sorter._dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if sorter.ndim != 1:
            raise ValueError("object too deep for desired array" if sorter.ndim > 1 else
                             "object of too small depth for desired array")
        if sorter._size != a._size:
            raise ValueError("sorter.size must equal a.size")
    return search(astype(a, dt, copy=False), astype(v, dt, copy=False), right, sorter)


def digitize(x, bins, right=False):
    """See `numpy.digitize`. Reads the direction of `bins` from the device (one sync), as NumPy
    checks that they are monotonic.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.digitize(cuarray.array([0.5, 1.5, 3.5]), cuarray.array([1., 2., 3.]))
    array([0, 1, 3])
    """
    x = as_array(x, "digitize")
    bins = as_array(bins, "digitize")
    if x._dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else
                         "object of too small depth for desired array")
    if not numpy.can_cast(bins._dtype, numpy.float64, "safe"):
        # NumPy's monotonicity scan reads the bins as float64 (safe cast): complex bins fail
        raise TypeError("Cannot cast array data from {!r} to dtype('float64') according to the rule 'safe'".format(
            bins._dtype))
    mono = monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    dt = _compute_dtype(bins._dtype, x)
    b = astype(bins, dt, copy=False)
    xs = astype(x, dt, copy=False)
    if mono == -1:
        # Decreasing bins: search the reversed view, then count from the other end.

        return subtract(numpy.int64(b._size), search(b[::-1], xs, not right))
    return search(b, xs, not right)


def monotonicity(bins: ndarray) -> int:
    """1 (increasing), -1 (decreasing) or 0 (neither), exactly as NumPy's `_monotonicity`, NaN
    included (NaN bins are accepted where NumPy's scan accepts them). One device read."""
    n = bins._size
    if n < 2:
        return 1
    lo, hi = bins[:-1], bins[1:]
    changed = not_equal(hi, bins[0])  # NaN differs from everything, itself included
    first = hi[argmax(changed)]  # the first element that differs from bins[0] (if any)
    flags = stack([any_(changed), less(bins[0], first), any_(greater(lo, hi)), any_(less(lo, hi))]).get()
    return direction_from_flags(*(bool(f) for f in flags))


def direction_from_flags(changed: bool, rises: bool, any_fall: bool, any_rise: bool) -> int:
    """NumPy's `check_array_monotonic` from four facts about the bins: whether any differs from the
    first, whether the first that differs is greater than it (else "decreasing" is tried, NaN
    included), and whether any neighbouring pair falls or rises. Repeated leading values are
    equal pairs, which neither rise nor fall, so the pair tests may cover the whole array."""
    if not changed:
        return 1
    if rises:
        return 0 if any_fall else 1
    return 0 if any_rise else -1
