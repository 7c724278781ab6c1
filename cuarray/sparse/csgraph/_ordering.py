"""reverse_cuthill_mckee on the GPU, SciPy's permutation exactly. See
`scipy.sparse.csgraph.reverse_cuthill_mckee`.

SciPy's ordering (Cuthill and McKee, "Reducing the bandwidth of sparse symmetric matrices", 1969):
the graph is A + A^T (or A itself when `symmetric_mode`), taken as the CSR arrays of the result;
a vertex's degree is its row's length, plus one when the row holds the diagonal. Components are
searched one after another, each from the unvisited vertex that comes first in NumPy's argsort of
the degrees; a queue breadth-first search appends each vertex's unvisited neighbours, met in CSR
order, stably sorted by degree; the whole order is reversed.

Here each search is level-synchronous with array operations: the frontier's CSR entries are listed
in queue order, each unvisited target keeps its first occurrence (a stable sort by target), and the
new vertices are ordered by (position of the vertex that found them first, degree, position of that
entry): the queue's next level exactly. One small device read a level (the next level's size and
edge count), one a component (its start). Narrow levels, a mesh's thousands, run the same steps on
the host once the graph's copy has paid for itself (_host_levels). Vertices whose rows hold nothing but themselves are
components of their own: the run of them that comes before the next start is placed at once.

The rows of A + A^T are in SciPy's order too (its sum keeps a row's columns sorted when every row of
A is sorted without duplicates, else lists them in the reverse of their first appearance in A's row
followed by A^T's), and a pair whose entries sum to 0 is no edge, as in SciPy's sum. The start
order is NumPy's argsort of the degrees (the one unstable sort, whose ties are SciPy's only through
the same call): the degrees are read to the host once for it and the order copied back."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host, to_host
from ..._creation.basic import empty, ones, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import equal, greater, less_equal, not_equal
from ..._logic.ops import logical_and, logical_not, logical_or
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.rearranging import flip
from ..._math.arithmetic import add, multiply, subtract
from ..._math.extrema import minimum
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum
from ..._sorting.searching import where
from ..._sorting.searching_nonzero import flatnonzero
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import argsort
from ..._statistics.order import min as min_
from .. import _canonical as canon
from .._sputils import issparse
from . import _host_levels
from ._frontier import I64, first_of_each, row_edges

__all__ = ["reverse_cuthill_mckee"]


def reverse_cuthill_mckee(graph, symmetric_mode=False):
    """See `scipy.sparse.csgraph.reverse_cuthill_mckee`. A cuarray CSR or CSC graph; the
    permutation is SciPy's exactly (the module's docstring), a cuarray array of the graph's index
    dtype, found on the device (a mesh's narrow breadth-first levels on the host). A 0 x 0 graph gives the empty permutation (SciPy raises there). A
    stored pair of float entries that cancel to 0 in A + A^T is no edge, as in SciPy; with three or
    more entries at one pair the rounding of that sum may differ from SciPy's."""
    if not issparse(graph):
        raise TypeError("Input graph must be sparse")
    if graph.format not in ("csc", "csr"):
        raise TypeError("Input must be in CSC or CSR sparse format.")
    n = graph.shape[0]
    dtype = graph.indices.dtype
    if graph.shape[0] != graph.shape[1]:
        raise ValueError("inconsistent shapes")
    if n == 0:
        return empty((0,), dtype)
    indptr, indices = graph.indptr.astype(I64), graph.indices.astype(I64)
    if not symmetric_mode:
        indptr, indices = _plus_transpose(indptr, indices, graph.data, n)
    return flip(_cuthill_mckee(indptr, indices, n, dtype)).astype(dtype)


def _plus_transpose(indptr, indices, data, n):
    """(indptr, indices) of SciPy's A + A^T on the raw CSR arrays of A (a CSC graph's arrays are
    the CSR of its transpose; the sum is symmetric either way)."""
    nnz = int(indices.size)
    if nnz == 0:
        return indptr, indices
    row = canon.expand(indptr, nnz, I64)
    same_row = equal(row[1:], row[:-1])
    unsorted = any_(logical_and(same_row, less_equal(indices[1:], indices[:-1])))
    merged = not bool(to_host(unsorted))  # device read: which of SciPy's two sums it takes
    r, c = concatenate([row, indices]), concatenate([indices, row])
    own = data.dtype
    if own.kind in "iu" or own == numpy.float16:
        # summed wider, then wrapped (or rounded) back: the sum in the data's own type, as SciPy's
        data = data.astype(I64 if own.kind in "iu" else numpy.float32)
    by_pair = argsort(add(multiply(r, n), c))  # stable: within a pair, A's entries, then A^T's
    key = take(add(multiply(r, n), c), by_pair)
    head = concatenate([ones((1,), bool), not_equal(key[1:], key[:-1])])
    firsts = flatnonzero(head)  # device read: the count of distinct pairs
    pair = subtract(cumsum(head, dtype=I64), 1)
    total = canon.segment_sum(take(concatenate([data, data]), by_pair), pair, int(firsts.size))
    keep = not_equal(total.astype(own, copy=False), 0)
    first = take(by_pair, firsts)  # A's entries, then A^T's, in CSR order: SciPy's order of meeting them
    first = first[keep]  # device read: the edge count of the sum
    pr, pc = take(r, first), take(c, first)
    if not merged:  # SciPy's general sum lists a row's columns in the reverse of their first appearance
        back = argsort(add(multiply(pr, 2 * nnz), subtract(2 * nnz - 1, first)))
        pr, pc = take(pr, back), take(pc, back)
    return searchsorted(pr, arange(n + 1, dtype=I64)), pc  # pr ascending: each row's first entry


def _cuthill_mckee(indptr, indices, n, dtype, host_edges=_host_levels.HOST_LEVEL_EDGES):
    """The Cuthill-McKee order (not yet reversed) of the CSR structure (indptr, indices); levels
    listing at most `host_edges` entries run on the host (_host_levels)."""
    nnz = int(indices.size)
    rowlen = subtract(indptr[1:], indptr[:-1])
    row = canon.expand(indptr, nnz, I64)
    # each row's entries on the diagonal
    loops = canon.segment_sum(equal(row, indices).astype(I64), row, n) if nnz else zeros((n,), I64)
    degree = add(rowlen, greater(loops, 0).astype(I64))
    lonely = equal(rowlen, loops)  # nothing in its row but itself
    # NumPy's argsort of the degrees in SciPy's dtype: its ties are SciPy's (the one host step)
    inds_host = numpy.argsort(to_host(degree).astype(dtype))
    inds = from_host(inds_host.astype(numpy.int64))
    rank = empty((n,), I64)
    rank[inds] = arange(n, dtype=I64)
    radix = nnz + 2  # above every degree: (finder, degree) packed in one sort key
    visited = zeros((n + 1,), bool)  # slot n: the void of the scatters
    parts = []
    placed = done = 0
    search = _Search(indptr, indices, degree, rowlen, host_edges)
    while placed < n:
        waiting = where(logical_or(visited[:n], lonely), n, rank)
        nxt = min_(waiting)
        seed = take(inds, minimum(nxt, n - 1).reshape(1))
        start, total = (int(v) for v in to_host(stack([nxt, take(rowlen, seed)[0]])))  # device read
        if start > done:  # unvisited vertices alone in their rows before the next start: each its own component
            run = inds[done:start]
            alone = run[logical_not(take(visited, run))]  # device read: their count
            visited[alone] = True
            parts.append(alone)
            placed += int(alone.size)
        if start == n:
            break
        visited[seed] = True
        parts.append(seed)
        placed += 1
        done = start + 1
        frontier = seed
        while total:
            if search.host_turn(total):
                frontier = search.to_host(visited, frontier)
                frontier, total = _host_levels.level(search.graph, search.visited, frontier, total, radix, n)
                search.found.append(frontier)
                placed += frontier.size
                continue
            visited, frontier = search.to_device(visited, frontier, parts)
            seg, edge = row_edges(indptr, frontier, total)
            target = take(indices, edge)
            new = first_of_each(where(take(visited, target), n, target), n)
            key = where(new, add(multiply(seg, radix), take(degree, target)), n * radix)
            order = argsort(key)  # stable: equal degrees of one finder keep CSR order
            count, total = (int(v) for v in to_host(stack([sum_(new, dtype=I64),
                                                          sum_(where(new, take(rowlen, target), 0), dtype=I64)])))
            if count == 0:
                break
            frontier = take(target, order[:count])
            visited[frontier] = True
            parts.append(frontier)
            placed += count
        visited, _ = search.to_device(visited, frontier, parts)
    return concatenate(parts)


class _Search:
    """Where one component's search runs, level by level: the device, or the host for narrow
    levels (_host_levels), with the visited flags and the order found moved across at a switch."""

    def __init__(self, indptr, indices, degree, rowlen, host_edges):
        self.device_arrays, self.host_edges = (indptr, indices, degree, rowlen), host_edges
        self.graph = self.visited = None
        self.found = []  # the host levels found since the last switch, in order
        self.narrow = 0  # narrow levels run on the device before the graph's copy

    def host_turn(self, total):
        if not _host_levels.on_host(total, self.host_edges):
            return False
        if self.graph is None:
            self.narrow += 1
            return _host_levels.worth_copying(self.narrow, sum(a.nbytes for a in self.device_arrays))
        return True

    def to_host(self, visited, frontier):
        """The frontier on the host (the visited flags copied down at a switch)."""
        if self.visited is None:
            if self.graph is None:  # device reads: the graph, once a call
                self.graph = _host_levels.HostGraph(*(to_host(a) for a in self.device_arrays))
            self.visited, frontier = to_host(visited), to_host(frontier)
        return frontier

    def to_device(self, visited, frontier, parts):
        """(visited, frontier) on the device, the host levels found appended to `parts`."""
        if self.visited is None:
            return visited, frontier
        if self.found:
            parts.append(from_host(numpy.concatenate(self.found)))
        visited, frontier = from_host(self.visited), from_host(frontier)
        self.visited, self.found = None, []
        return visited, frontier
