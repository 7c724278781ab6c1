"""Histograms (NumPy "Statistics / Histograms"): bincount, histogram, histogram_bin_edges
(histogram2d and histogramdd: histogramdd.py; the string bin rules: histogram_bins.py).

One pass over the data (templates/histograms.cu): each element's bin, then an atomic add. Up to
`_SHARED_BINS` bins each block counts in its own copy of the bins in shared memory and adds it to
the global bins once; more bins use global atomics directly. Equal bins (an int `bins`) follow
NumPy's arithmetic step by step, in NumPy's types, so every element lands in NumPy's bin; the
edges are made on the host with `numpy.linspace` (they are tiny) and uploaded.

An int `bins` with the range from float32/float64 data (no weights) takes the device route
(`histogram_auto`): the data's (min, max), NumPy's edges and the counts are made on the device
one kernel after another, and the one read (the range's error flags, at the end) is the only
synchronisation; other data reads its (min, max) first and makes the edges on the host.

Synchronisations, each because a size or a host value depends on the data: bincount reads the
input's minimum and maximum (the result's length; NumPy's ValueError for a negative value), an
int `bins` without `range` reads the data's minimum and maximum (one pass for both), explicit
`bins` are checked to increase (NumPy's ValueError). Weights are summed in float64 (NumPy's
bincount does the same), in an order that depends on scheduling.
"""

from __future__ import annotations

import functools
import operator
import pathlib
import warnings

import numpy

from .._core import device_check as _device_check
from .._core import dtypes as _dtypes
from .._core.copying import astype, copyto_unchecked, fill
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._core.transfer import from_host
from .._creation.basic import zeros
from .._logic.content import isfinite, isnan
from .._logic.ops import logical_not, logical_or
from .._logic.truth import any as any_
from .._manipulation.joining import concatenate
from .._math.arithmetic import divide
from .._math.complex import imag, real
from .._math.sums import sum as sum_
from .._math.sums_scan import cumsum, diff
from .._sorting.searchsorted import searchsorted
from .._sorting.sorting import argsort, sort
from ..cuda import device as _device
from ..cuda.kernel_family import KernelFamily

__all__ = ["bincount", "histogram", "histogram_bin_edges", "minmax", "count_bins", "histogram_auto", "auto_plan",
           "auto_range_by"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "histograms.cu"
_THREADS = 256
# Shared-memory bins up to this many (4-byte counts: 32 KiB; float64 sums: half as many).
_SHARED_BINS = 8192
_I8, _U8, _F8 = numpy.dtype(numpy.int64), numpy.dtype(numpy.uint64), numpy.dtype(numpy.float64)


def _ct(dt) -> str:
    return _dtypes.ctype(dt)


def minmax_name(dt) -> str:
    return "cuarray::histograms::cuarray_minmax<{}>".format(_ct(dt))


def bincount_name(dt, weighted, shared) -> str:
    return "cuarray::histograms::cuarray_bincount<{}, {}, {}>".format(_ct(dt), _b(weighted), _b(shared))


def uniform_name(types, weighted, shared) -> str:
    """types: the dtypes (T, K, B, S, C) of the data and NumPy's steps (see the template)."""
    return "cuarray::histograms::cuarray_histogram_uniform<{}, {}, {}>".format(
        ", ".join(_ct(t) for t in types), _b(weighted), _b(shared))


def edges_name(dt, cdt, weighted, shared) -> str:
    return "cuarray::histograms::cuarray_histogram_edges<{}, {}, {}, {}>".format(
        _ct(dt), _ct(cdt), _b(weighted), _b(shared))


def _b(flag) -> str:
    return "true" if flag else "false"


HISTOGRAMS = KernelFamily("cuarray_histograms", _TEMPLATE.read_text, namespace="cuarray::histograms", kernels=(
    "cuarray_minmax<T>(const T* x, long long n, unsigned long long* out)",
    "cuarray_bincount<T, Weighted, Shared>(const T* x, const double* w, long long n, long long nbins, "
    "typename acc<Weighted>::global_t* out)",
    "cuarray_histogram_uniform<T, K, B, S, C, Weighted, Shared>(const T* x, const double* w, long long n, "
    "long long nbins, K first_k, K last_k, S first_s, C denom, const B* edges, "
    "typename acc<Weighted>::global_t* out)",
    "cuarray_histogram_edges<T, C, Weighted, Shared>(const T* x, const double* w, long long n, "
    "long long nbins, const C* edges, typename acc<Weighted>::global_t* out)",
    "cuarray_minmax_partials<T>(const T* x, long long n, int aligned, unsigned long long* part)",
    "cuarray_histogram_auto_edges<T>(const unsigned long long* part, int nparts, long long nbins, T* edges, "
    "T* params, unsigned long long* state, unsigned long long* counts)",
    "cuarray_histogram_auto<T, int COPIES>(const T* x, long long n, int aligned, long long nbins, const T* params, "
    "const T* edges, const unsigned long long* state, unsigned long long* out)",
))


@functools.lru_cache(maxsize=None)
def auto_names(dt, copies) -> tuple:
    """The three kernels of the device route for float data of `dt`, `copies` copies of the bins."""
    ct = _ct(dt)
    return ("cuarray_minmax_partials<{}>".format(ct), "cuarray_histogram_auto_edges<{}>".format(ct),
            "cuarray_histogram_auto<{}, {}>".format(ct, copies))


def _kernel(name):
    return HISTOGRAMS.kernel(name)


def _grid(n: int) -> int:
    blocks = -(-n // (_THREADS * 4))
    return max(1, min(blocks, 8 * _device._sm_count(_device.get_device_id())))


def _dense(x: ndarray) -> ndarray:
    """`x` C-contiguous, float16 widened to float32 (the kernels have no half arithmetic)."""
    if x._dtype.char == "e":
        return astype(x, numpy.float32, order="C")
    return astype(x, x._dtype, order="C", copy=False)


def minmax(x: ndarray) -> tuple:
    """(min, max) of the non-empty `x` as NumPy scalars of its dtype, in one pass and one read;
    for floats a NaN makes the maximum NaN."""
    dt = x._dtype
    x = _dense(x)
    if _device_check.active[0]:  # raw pointers: the launch cannot tell another device's memory
        _device_check.check((x,))
    keys = ndarray((2,), _U8)
    fill(keys[:1], numpy.uint64(2**64 - 1))
    fill(keys[1:], 0)
    _kernel(minmax_name(x._dtype)).launch(_grid(x._size), _THREADS, x.data.ptr, x._size, keys.data.ptr)
    return minmax_values(keys.get(), dt)


def minmax_values(k: numpy.ndarray, dt: numpy.dtype) -> tuple:
    """The minmax kernel's two order-preserving uint64 keys as NumPy scalars of `dt`, the data's
    own dtype: float16 data is scanned as float32 (exactly), its edges are float16 as NumPy's."""
    if dt.kind == "f":
        top = numpy.uint64(1) << numpy.uint64(63)
        bits = numpy.where(k & top, k ^ top, ~k)
        vals = bits.view(numpy.float64).astype(dt)
        if k[1] == numpy.uint64(2**64 - 1):
            vals[1] = numpy.nan
    elif dt.kind == "i":
        vals = (k ^ (numpy.uint64(1) << numpy.uint64(63))).view(numpy.int64).astype(dt)
    else:
        vals = k.astype(dt)
    return vals[0], vals[1]


def count_bins(x: ndarray, weights, nbins: int, name: str, args: tuple) -> ndarray:
    """Run one histogram kernel (`name` made for (weighted, shared) by the caller: `name(w, s)`)
    over the contiguous `x`: int64 counts, or float64 sums of `weights` (contiguous float64)."""
    weighted = weights is not None
    if _device_check.active[0]:
        _device_check.check((x, weights))
    out = ndarray((nbins,), _F8 if weighted else _U8)
    fill(out, 0)
    n = x._size
    if n == 0 or nbins == 0:
        return out if weighted else out.view(_I8)
    shared = nbins <= (_SHARED_BINS // 2 if weighted else _SHARED_BINS)
    smem = nbins * (8 if weighted else 4) if shared else 0
    _kernel(name(weighted, shared)).launch(_grid(n), _THREADS, x.data.ptr, weights.data.ptr if weighted else 0, n,
                                           nbins, *args, out.data.ptr, shared_mem=smem)
    return out if weighted else out.view(_I8)


def bincount(x, weights=None, minlength=0):
    """See `numpy.bincount`. Reads the minimum and maximum of `x` (one sync): the result's length,
    and NumPy's ValueError for a negative value.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.bincount(cuarray.array([0, 1, 1, 3]))
    array([1, 2, 0, 1])
    """
    x = as_array(x, "bincount")
    minlength = operator.index(minlength)
    # NumPy's order: x's depth and dtype, minlength, then an empty x answers before any weights check,
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else
                         "object of too small depth for desired array")
    if not numpy.can_cast(x._dtype, numpy.intp, "safe"):
        raise TypeError("Cannot cast array data from {!r} to dtype('int64') according to the rule 'safe'"
                        .format(x._dtype))
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if not x._size:
        # NumPy's result for an empty list is intp zeros, whatever the weights.
        out = ndarray((minlength,), numpy.intp)
        fill(out, 0)
        return out
    # then x's values (a negative one raises before the weights are looked at), then the weights
    lo, hi = minmax(x)
    if lo < 0:
        raise ValueError("'list' argument must have no negative elements")
    length = max(int(hi) + 1, minlength)
    w = None
    if weights is not None:
        w = as_array(weights, "bincount")
        if not numpy.can_cast(w._dtype, numpy.float64, "safe"):  # (NumPy converts, then compares lengths)
            raise TypeError("Cannot cast array data from {!r} to dtype('float64') according to the rule 'safe'"
                            .format(w._dtype))
        if w._shape != x._shape:
            raise ValueError("The weights and list don't have the same length.")
        w = astype(w, _F8, order="C", copy=False)
    return bincount_known(x, w, length)


def bincount_known(x: ndarray, w, length: int) -> ndarray:
    """bincount of the non-negative 1-D `x` (every value < `length`) into `length` bins; `w`: a
    float64 array or None. No synchronisation (histogramdd uses it)."""
    x = _dense(x)
    return count_bins(x, w, length, lambda wt, sh: bincount_name(x._dtype, wt, sh), ())


# -- histogram -----------------------------------------------------------------------------------
# The device route (an int `bins`, the range from float data): per-warp copies of the bins while
# 8 of them fit 32 KiB of shared memory, one copy per block up to _SHARED_BINS bins. Blocks: 16
# elements a thread (four 16-byte loads of float32 in flight), at most 4 per SM, so that the
# blocks' final atomics on the same few bins stay few (1e7 elements: 528 blocks x 100 bins).
AUTO_COPIES = 8
_AUTO_ITEMS = 16
_by = "device"


def auto_plan(n: int, nbins: int, sms: int):
    """(blocks, copies of the bins, shared bytes) of the device route for `n` elements in `nbins`
    bins, or None where it does not apply (no elements, more than _SHARED_BINS bins)."""
    if n < 1 or not 1 <= nbins <= _SHARED_BINS:
        return None
    copies = AUTO_COPIES if AUTO_COPIES * nbins * 4 <= 32 * 1024 else 1
    blocks = max(1, min(-(-n // (_THREADS * _AUTO_ITEMS)), 4 * sms))
    return blocks, copies, copies * nbins * 4


def auto_range_by(how: str) -> str:
    """Make an int `bins` without `range` on float32/float64 data take the device route
    (``"device"``, the default) or read the data's (min, max) first and make the edges on the host
    (``"host"``); returns the previous setting. For benchmarks and tests: process-wide."""
    global _by
    if how not in ("device", "host"):
        raise ValueError("the range by 'device' or 'host', not {!r}".format(how))
    prev = _by
    _by = how
    return prev


def _auto_bins(a: ndarray, bins, range, weights):  # noqa: A002
    """The number of bins when `histogram` can take the device route, else None."""
    if _by != "device" or range is not None or weights is not None or a._dtype.char not in "fd" or not a._size:
        return None
    if isinstance(bins, (str, ndarray, list, tuple, numpy.ndarray)) or numpy.ndim(bins) != 0:
        return None
    try:
        nb = operator.index(bins)
    except TypeError:
        return None
    return nb if 1 <= nb <= _SHARED_BINS else None


def read_state(scratch: ndarray) -> numpy.ndarray:
    """The device route's state words (min key, max key, error flags): the one synchronisation."""
    state = numpy.empty(3, _U8)
    scratch.data.copy_to_host(state.ctypes.data, 24)
    return state


def histogram_auto(a: ndarray, nbins: int) -> tuple:
    """(int64 counts, edges) of the non-empty float32/float64 `a` in `nbins` equal bins over its
    (min, max), as NumPy's: three kernels in a row (block min/max partials; the edges, the counts
    zeroed, the error flags; the counts), then the one read: the flags, raised as NumPy's
    ValueErrors."""
    x = _dense(a)
    if _device_check.active[0]:
        _device_check.check((x,))
    n, dt = x._size, x._dtype
    blocks, copies, smem = auto_plan(n, nbins, _device._sm_count(_device.get_device_id()))
    part_k, edges_k, count_k = HISTOGRAMS.get(*auto_names(dt, copies))
    aligned = numpy.int32(x.data.ptr % 16 == 0)
    # scratch: state (min key, max key, flags, -), params (first, last, delta: 3 x T), partials
    scratch = ndarray((8 + 2 * blocks,), _U8)
    sp = scratch.data.ptr
    edges = ndarray((nbins + 1,), dt)
    out = ndarray((nbins,), _U8)
    part_k.launch(blocks, _THREADS, x.data.ptr, n, aligned, sp + 64)
    edges_k.launch(1, _THREADS, sp + 64, blocks, nbins, edges.data.ptr, sp + 32, sp, out.data.ptr)
    count_k.launch(blocks, _THREADS, x.data.ptr, n, aligned, nbins, sp + 32, edges.data.ptr, sp, out.data.ptr,
                   shared_mem=smem)
    state = read_state(scratch)
    if state[2] == 1:
        lo, hi = minmax_values(state[:2], dt)
        raise ValueError("autodetected range of [{}, {}] is not finite".format(lo, hi))
    if state[2] == 2:
        raise ValueError("Too many bins for data range. Cannot create {} finite-sized bins.".format(nbins))
    return out.view(_I8), edges


def _ravel_weights(a: ndarray, weights):
    if weights is None:
        return None
    w = as_array(weights, "histogram")
    if w._shape != a._shape:
        raise ValueError("weights should have the same shape as a.")
    return w.reshape(-1)


def _histogram_data(a, name) -> ndarray:
    """NumPy's `_ravel_and_check_weights` conversion: bool data becomes uint8 (with NumPy's
    RuntimeWarning). Complex data is not implemented, with or without `range`: NumPy bins it by
    comparing complex values and casting them to bin indices (imaginary parts dropped)."""
    a = as_array(a, name)
    if a._dtype.kind in "Mm":
        raise TypeError("histogram of {} is not supported on the GPU".format(a._dtype))
    if a._dtype.kind == "c":
        raise NotImplementedError("{} of complex data is not supported (bin the real part, or abs)".format(name))
    if a._dtype.kind == "b":
        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for compatibility.", RuntimeWarning,
                      stacklevel=3)
        a = astype(a, numpy.uint8)
    return a


def _bin_edges():
    """`histogram_bins.bin_edges`."""
    from .histogram_bins import bin_edges  # cycle: histogram_bins imports minmax, upload, histogram from here

    return bin_edges


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """See `numpy.histogram_bin_edges`. Complex data raises NotImplementedError.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.histogram_bin_edges(cuarray.array([0., 1., 4.]), bins=4)
    array([0., 1., 2., 3., 4.])
    """
    bin_edges = _bin_edges()
    a = _histogram_data(a, "histogram_bin_edges")
    w = _ravel_weights(a, weights)
    return bin_edges(a.reshape(-1), bins, range, w)[0]


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """See `numpy.histogram`. float16 data is binned in float32 (NumPy computes the bin in
    float16); weighted sums are float64 sums cast to the weights' dtype. Complex data raises
    NotImplementedError.

    Examples
    --------
    >>> import cuarray
    >>> hist, edges = cuarray.histogram(cuarray.array([1, 2, 2, 3, 5]), bins=4)
    >>> hist
    array([1, 2, 1, 1])
    >>> edges
    array([1., 2., 3., 4., 5.])
    """
    bin_edges = _bin_edges()
    a = _histogram_data(a, "histogram")
    w = _ravel_weights(a, weights)
    a = a.reshape(-1)
    nb = _auto_bins(a, bins, range, w)
    if nb is not None:
        n, edges = histogram_auto(a, nb)
        if density:
            db = astype(diff(edges), _F8, copy=False)
            return divide(divide(n, db), sum_(n)), edges
        return n, edges
    edges, uniform = bin_edges(a, bins, range, w, counting=True)
    if w is None:
        ntype = _I8
    else:
        ntype = w._dtype
        if not (numpy.can_cast(ntype, numpy.double) or numpy.can_cast(ntype, complex)):
            raise TypeError("histogram weights of dtype {} are not supported".format(ntype))
    x = _dense(a)
    if uniform is None and w is not None and ntype.kind == "b" and x._size:
        # NumPy's explicit edges take its cumulative sums: a bool weight's cumsum is int64, which its
        # bool counts cannot take (NumPy's own UFuncTypeError; no error where NumPy has none)
        counts = numpy.zeros(1, ntype)
        numpy.add(counts, numpy.zeros(1, numpy.intp), out=counts)
    if uniform is None and edges._size > 1 and _cumulative(edges, w):
        n = _sorted_counts(x, w, edges, _I8 if w is None else ntype)
        if density:
            return divide(divide(n, astype(diff(edges), _F8, copy=False)), sum_(n)), edges
        return n, edges
    nb = max(edges._size - 1, 0)  # no edges at all (`bins=[]`): no bins, as NumPy's diff of its counts
    if uniform is not None:
        types, args, kedges = uniform
        types = (x._dtype,) + types
        name = lambda wt, sh: uniform_name(types, wt, sh)  # noqa: E731
        args = args + (kedges.data.ptr,)
    else:
        cdt = numpy.promote_types(x._dtype, edges._dtype)
        cdt = numpy.dtype(numpy.float32) if cdt.char == "e" else cdt
        e = astype(edges, cdt, order="C", copy=False)
        name = lambda wt, sh: edges_name(x._dtype, cdt, wt, sh)  # noqa: E731
        args = (e.data.ptr,)
    if w is None:
        n = count_bins(x, None, nb, name, args)
    elif ntype.kind == "c":
        n = ndarray((nb,), ntype)
        parts = n.view(numpy.dtype(ntype.char.lower()))
        for k, part in enumerate((real(w), imag(w))):
            copyto_unchecked(parts[k::2], count_bins(x, astype(part, _F8, order="C"), nb, name, args))
    else:
        n = astype(count_bins(x, astype(w, _F8, order="C", copy=False), nb, name, args), ntype, copy=False)
    if density:
        db = astype(diff(edges), _F8, copy=False)
        return divide(divide(n, db), sum_(n)), edges
    return n, edges


def _cumulative(edges: ndarray, w) -> bool:
    """Whether explicit edges take NumPy's cumulative steps (`_sorted_counts`), one read: an edge
    holding NaN, or a weight that is not finite (NumPy's cumulative sum of the weights carries it
    into every later bin, out-of-range values' too: NaN, and inf - inf; the kernel sums a bin's own)."""
    nan_edge = edges._dtype.kind == "f"
    bad_weight = w is not None and w._dtype.kind in "fc"
    if not (nan_edge or bad_weight):
        return False
    flag = any_(isnan(edges)) if nan_edge else None
    if bad_weight:
        flag = any_(logical_not(isfinite(w))) if flag is None else logical_or(flag, any_(logical_not(isfinite(w))))
    return bool(flag)


def _sorted_counts(x: ndarray, w, edges: ndarray, ntype) -> ndarray:
    """NumPy's counts for explicit edges, by its own steps: the (weight of the) sorted data before
    each edge (searchsorted left; right for the last edge), then their differences. A NaN edge
    passes its monotonic check and sorts last, so only these steps give its answers (negative
    counts included); the bin kernel serves every other explicit edge array."""
    if edges._size == 0:
        return ndarray((0,), ntype)
    if w is None:
        sa = sort(x)
    else:
        order = argsort(x)
        sa = x[order]
    at = concatenate((searchsorted(sa, edges[:-1], "left"), searchsorted(sa, edges[-1:], "right")))
    if w is None:
        return diff(astype(at, ntype, copy=False))
    cw = concatenate((zeros((1,), ntype), cumsum(astype(w, ntype, copy=False)[order])))
    # NumPy adds the cumulative weights (int64 for small integer weights) into counts of the
    # weights' dtype, then differences those: int8 weights give int8 counts, wrapped as its += wraps
    return diff(astype(cw[at], ntype, copy=False))


def upload(host: numpy.ndarray) -> ndarray:
    """A small host array on the device (bin edges)."""
    return from_host(host)
