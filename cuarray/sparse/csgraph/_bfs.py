"""Breadth-first order and tree. See `scipy.sparse.csgraph.breadth_first_order`.

Level-synchronous frontier BFS composed of cuarray's routines, in SciPy's order exactly: SciPy's
queue visits a vertex's neighbours in CSR order (undirected: its row of the graph, then its row
of the transpose), and the first vertex of the queue to reach a new vertex is its predecessor. A
level does the same in bulk: the frontier's edges are listed in queue order (the frontier is
in queue order, each vertex's row in CSR order), the unvisited targets kept, and each new vertex
keeps its first occurrence (a stable sort by target, then the first positions in order): the
next frontier, in queue order. Device reads: three small ones a level (the candidate count, the
kept count, the new frontier's size)."""

from __future__ import annotations

import operator

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import full, zeros
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import not_equal
from ..._logic.ops import logical_not
from ..._manipulation.joining import concatenate
from ..._math.arithmetic import add, multiply, subtract
from ..._math.sums_scan import cumsum
from ..._sorting.sorting import argsort, sort
from .. import _canonical as canon
from ._paths import csr_graph, reconstruct_path

__all__ = ["breadth_first_order", "breadth_first_tree"]

NULL = -9999  # SciPy's predecessor of a root or an unreached vertex
_I32 = numpy.dtype(numpy.int32)
_I64 = numpy.dtype(numpy.int64)


def _layouts(csgraph, directed):
    """The CSR rows BFS walks, in SciPy's order: the graph's, and for an undirected graph its
    transpose's too (a CSC graph is transposed first, as SciPy's validation does)."""
    if not directed and getattr(csgraph, "format", None) == "csc":
        csgraph = csgraph.T
    g = csr_graph_keep_duplicates(csgraph)
    if directed:
        return g.shape[0], [g]
    return g.shape[0], [g, g.T.tocsr()]


def csr_graph_keep_duplicates(csgraph):
    """A float64 CSR of the graph; duplicate entries kept (each is an edge; order is what counts)."""
    if not hasattr(csgraph, "tocsr"):
        return csr_graph(csgraph)
    if csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("compressed-sparse graph must be shape (N, N)")
    return csgraph.tocsr().astype(numpy.float64)


def _candidates(g, frontier, part, parts):
    """(key, target, source) of the frontier's edges in `g`: key orders them as SciPy's queue
    meets them (frontier position, then part, then CSR order)."""
    indptr = g.indptr.astype(_I64)
    start = take(indptr, frontier)
    counts = subtract(take(indptr, add(frontier, 1)), start)
    seg_ptr = concatenate([zeros((1,), _I64), cumsum(counts)])
    total = int(to_host(seg_ptr[-1:])[0])  # device read: the candidate count
    seg = canon.expand(seg_ptr, total, _I64)
    edge = add(take(start, seg), subtract(arange(total, dtype=_I64), take(seg_ptr, seg)))
    target = take(g.indices, edge).astype(_I64)
    key = add(multiply(seg, parts), part)
    return key, target, take(frontier, seg)


def breadth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """See `scipy.sparse.csgraph.breadth_first_order`. A cuarray graph (sparse: every stored
    entry an edge, explicit zeros too; or dense: null values 0, inf and NaN); results are int32
    cuarray arrays equal to SciPy's (its queue order and predecessors). An `i_start` outside
    [0, N) raises ValueError (SciPy reads out of bounds)."""
    n, layouts = _layouts(csgraph, directed)
    i_start = operator.index(int(i_start))
    if not 0 <= i_start < n:
        raise ValueError("i_start {} is not a vertex of a graph of {} vertices".format(i_start, n))
    visited = zeros((n,), bool)
    pred = full((n,), NULL, dtype=_I32)
    frontier = asarray([i_start], dtype=_I64)
    visited[i_start] = True
    levels = [frontier]
    while frontier.size:
        found = [_candidates(g, frontier, p, len(layouts)) for p, g in enumerate(layouts)]
        key, target, source = (concatenate([f[i] for f in found]) for i in range(3))
        if len(layouts) > 1:  # the two parts interleaved in queue order (a stable sort by key)
            order = argsort(key)
            target, source = take(target, order), take(source, order)
        keep = logical_not(take(visited, target))
        target, source = target[keep], source[keep]  # device read: the kept count
        if target.size == 0:
            break
        by_target = argsort(target)
        t_sorted = take(target, by_target)
        first = concatenate([asarray([True]), not_equal(t_sorted[1:], t_sorted[:-1])])
        firsts = sort(by_target[first])  # device read: the new frontier's size
        frontier = take(target, firsts)
        visited[frontier] = True
        pred[frontier] = take(source, firsts).astype(_I32)
        levels.append(frontier)
    order = concatenate(levels).astype(_I32)
    return (order, pred) if return_predecessors else order


def breadth_first_tree(csgraph, i_start, directed=True):
    """See `scipy.sparse.csgraph.breadth_first_tree`: `reconstruct_path` of the breadth-first
    predecessors (a float64 `csr_array`, rows in increasing order)."""
    _, pred = breadth_first_order(csgraph, i_start, directed, True)
    return reconstruct_path(csgraph, pred, directed)
