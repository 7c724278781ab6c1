"""Array-operation steps of the level-synchronous searches of reverse_cuthill_mckee and
maximum_bipartite_matching: a frontier's CSR entries listed in order, a first (or any) winner
among equal keys, and a compaction whose size is already known on the host. None of them reads
the device: each search reads one small vector a level (the next frontier's size and edge count)."""

from __future__ import annotations

import numpy

from ..._creation.basic import empty, ones, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import equal, not_equal
from ..._logic.ops import logical_and
from ..._manipulation.joining import concatenate
from ..._math.arithmetic import add, subtract
from ..._math.sums_scan import cumsum
from ..._sorting.searching import where
from ..._sorting.sorting import argsort
from .. import _canonical as canon

__all__ = ["I64", "row_edges", "first_of_each", "any_of_each", "compact"]

I64 = numpy.dtype(numpy.int64)


def row_edges(indptr, frontier, total):
    """(seg, edge) of the `total` CSR entries of the rows `frontier`, listed in frontier order and
    each row in CSR order: the frontier position each comes from, and its entry index."""
    start = take(indptr, frontier)
    counts = subtract(take(indptr, add(frontier, 1)), start)
    seg_ptr = concatenate([zeros((1,), I64), cumsum(counts, dtype=I64)])
    seg = canon.expand(seg_ptr, total, I64)
    edge = add(take(start, seg), subtract(arange(total, dtype=I64), take(seg_ptr, seg)))
    return seg, edge


def first_of_each(key, void):
    """True at the first position of each value of `key` other than `void` (a stable sort by key:
    the first of equal keys keeps its place)."""
    if key.size == 0:
        return zeros((0,), bool)
    order = argsort(key)
    ks = take(key, order)
    head = concatenate([ones((1,), bool), not_equal(ks[1:], ks[:-1])])
    out = empty((key.size,), bool)
    out[order] = logical_and(head, not_equal(ks, void))
    return out


def any_of_each(key, void, slots):
    """True at one position of each value of `key` other than `void` (which one is unspecified:
    the write that lands last). `slots`: int64 scratch of length > max(key), `void` included."""
    stamp = arange(key.size, dtype=I64)
    slots[key] = stamp
    return logical_and(not_equal(key, void), equal(take(slots, key), stamp))


def compact(mask, values, count):
    """`values[mask]` in order, `count` (its size) already known: a scatter, no device read."""
    pos = subtract(cumsum(mask, dtype=I64), 1)
    out = empty((count + 1,), values.dtype)
    out[where(mask, pos, count)] = values  # the unkept all land in the spare last slot
    return out[:count]
