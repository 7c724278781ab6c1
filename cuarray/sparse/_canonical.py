"""Canonical form on the device: sorting (major, minor) pairs, summing duplicates, compressing
sorted major indices into offsets and expanding offsets back.

Every format conversion goes through these. The sort is the engine's stable radix sort
(`_core/sort.py`, as `_sets/unique` uses it) on one key per entry, `major * n_minor + minor`
(int32 when the matrix has fewer than 2^31 cells: half the passes of int64), carrying 4- and
8-byte values along (other sizes: the entry's position, then one gather). Duplicates are found
by comparing neighbours of the sorted keys; the one synchronisation is the number of distinct
keys (the result's size). They are summed with `add.at` (complex as two real halves: a 16-byte
atomic does not exist).

The values may carry trailing dimensions (BSR's blocks, `(nnzb, R, C)`): entries are then the
rows of `data`, sorted and summed whole.
"""

from __future__ import annotations

import numpy

from .._core import sort
from .._core.ndarray import ndarray
from .._creation.basic import empty, zeros
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import not_equal
from .._logic.ops import logical_or
from .._math.arithmetic import add, multiply, remainder, subtract
from .._math.sums_scan import cumsum
from .._sorting.searching_nonzero import flatnonzero
from .._sorting.searchsorted import searchsorted

__all__ = ["key_dtype", "keys_of", "sort_keys", "expand", "compress", "canonical", "segment_sum",
           "segment_sum_rows", "offsets_from_counts"]

_I32, _I64 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)


def _engine():
    return sort


def key_dtype(n_major: int, n_minor: int) -> numpy.dtype:
    """int32 keys while every cell number fits, int64 beyond."""
    return _I32 if n_major * n_minor < 2**31 else _I64


def keys_of(major: ndarray, minor: ndarray, n_major: int, n_minor: int) -> ndarray:
    """One int key per entry: `major * n_minor + minor` (sorting by it is sorting by (major, minor))."""
    kdt = key_dtype(n_major, n_minor)
    return add(multiply(major.astype(kdt, copy=False), kdt.type(n_minor)), minor.astype(kdt, copy=False))


def sort_keys(keys: ndarray):
    """(sorted keys, int positions that sort them): a stable sort."""
    n = keys.size
    pos = arange(n, dtype=_I32 if n < 2**31 else _I64)
    if n < 2:
        return keys.copy(), pos
    return _engine().sort_pairs(keys, pos)


def expand(indptr: ndarray, nnz: int, dtype) -> ndarray:
    """The major index of each of the `nnz` entries of offsets `indptr` (as `dtype`)."""
    if nnz == 0:
        return empty((0,), dtype)
    pos = arange(nnz, dtype=indptr.dtype)
    return subtract(searchsorted(indptr, pos, side="right"), 1).astype(dtype, copy=False)


def compress(sorted_keys: ndarray, n_major: int, n_minor: int, dtype) -> ndarray:
    """Offsets (n_major + 1 of `dtype`) of entries whose keys `major * n_minor + minor` are sorted."""
    starts = multiply(arange(n_major + 1, dtype=sorted_keys.dtype), sorted_keys.dtype.type(n_minor))
    if n_minor == 0:
        return zeros((n_major + 1,), dtype)
    return searchsorted(sorted_keys, starts, side="left").astype(dtype, copy=False)


def offsets_from_counts(counts: ndarray, dtype) -> ndarray:
    """[0, c0, c0+c1, ...] as `dtype`."""
    out = zeros((counts.size + 1,), dtype)
    if counts.size:
        out[1:] = cumsum(counts, dtype=dtype)
    return out


def segment_sum(values: ndarray, seg: ndarray, nseg: int, out=None) -> ndarray:
    """out[s] += values[i] for each i with seg[i] == s (a new zero `out` of values' dtype when
    None; atomics, order unspecified)."""
    if out is None:
        out = zeros((nseg,), values.dtype)
    elif out.dtype != values.dtype:
        values = values.astype(out.dtype)
    if values.dtype.kind == "c":
        # complex128 has no 16-byte atomic: add the real and imaginary halves as two floats.
        rdt = numpy.dtype(values.dtype.char.lower())
        o2 = out.view(rdt)
        v2 = values.copy().view(rdt) if not values.flags.c_contiguous else values.view(rdt)
        s2 = multiply(seg.astype(_I64, copy=False), 2)
        add.at(o2, s2, v2[0::2])
        add.at(o2, add(s2, 1), v2[1::2])
        return out
    if values.dtype.kind == "b":
        logical_or.at(out, seg, values)
        return out
    add.at(out, seg, values)
    return out


def segment_sum_rows(values: ndarray, seg: ndarray, nseg: int) -> ndarray:
    """segment_sum of the rows of `values` (shape (n, ...)): out[s] += values[i] for seg[i] == s,
    as one flat segment_sum with R*C slots per segment."""
    if values.ndim == 1:
        return segment_sum(values, seg, nseg)
    tail = values.shape[1:]
    width = int(numpy.prod(tail))
    slots = add(multiply(seg.astype(_I64, copy=False).reshape(-1, 1), width),
                arange(width, dtype=_I64).reshape(1, -1))
    flat = segment_sum(values.reshape(-1), slots.reshape(-1), nseg * width)
    return flat.reshape((nseg,) + tail)


def canonical(major: ndarray, minor: ndarray, data: ndarray, n_major: int, n_minor: int, idx_dtype,
              sum_duplicates: bool = True):
    """(indptr, indices, data) of the entries sorted by (major, minor), duplicates summed when
    asked. `indices`/`indptr` have `idx_dtype`. One synchronisation (the distinct count) when
    summing; none otherwise. `data` may have trailing dimensions (one entry per row)."""
    nnz = data.shape[0]
    if nnz == 0:
        return (zeros((n_major + 1,), idx_dtype), empty((0,), idx_dtype), empty(data.shape, data.dtype))
    keys = keys_of(major, minor, n_major, n_minor)
    if data.ndim == 1 and data.dtype.itemsize in (4, 8) and nnz > 1 and data.flags.c_contiguous:
        # Values of 4 or 8 bytes ride along in the sort (moved as bits): no gather afterwards.
        skeys, sdata = _engine().sort_pairs(keys, data)
    else:
        skeys, perm = sort_keys(keys)
        sdata = take(data, perm, axis=0)
    if sum_duplicates and nnz > 1:
        head = not_equal(skeys[1:], skeys[:-1])
        starts = flatnonzero(head)  # positions (minus one) where a new key starts
        nuniq = starts.size + 1
        if nuniq < nnz:
            first = zeros((nuniq,), starts.dtype)
            first[1:] = add(starts, 1)
            seg = zeros((nnz,), _I64)
            seg[1:] = cumsum(head, dtype=_I64)
            sdata = segment_sum_rows(sdata, seg, nuniq)
            skeys = take(skeys, first)
    kdt = skeys.dtype
    indices = remainder(skeys, kdt.type(n_minor)).astype(idx_dtype, copy=False)
    indptr = compress(skeys, n_major, n_minor, idx_dtype)
    return indptr, indices, sdata
