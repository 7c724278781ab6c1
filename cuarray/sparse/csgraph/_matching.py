"""maximum_bipartite_matching and structural_rank on the GPU. See
`scipy.sparse.csgraph.maximum_bipartite_matching` and `structural_rank`.

A parallel Hopcroft-Karp (Hopcroft and Karp, "An n^(5/2) algorithm for maximum matchings in
bipartite graphs", SIAM J. Comput. 2(4), 1973), with array operations. A phase grows alternating
trees from every free row at once, level by level: a row's CSR entries reach columns; each column
not reached before is claimed by one reaching row (any one: a scatter); a claimed free column ends
an augmenting path, and a claimed matched column brings its mate, a row, into the next level, in
the same tree. The phase stops at the first level that reaches free columns, keeps one of them per
tree and flips the matching along those paths: the trees share no vertex, so the paths are disjoint
and every path has the same length, so they are flipped together, one array step per row on them.
One small device read a level (the reached free columns, the next level's size and edge count).

Maximum: the phases go on until one finds no free column. That phase reached every column that an
alternating path from a free row reaches (a column is claimed the first time any path meets it, and
then its mate carries every path through it on), so no augmenting path is left, and by Berge's
theorem the matching is maximum. SciPy's matching is one maximum matching of many: the size is
SciPy's, the matched pairs may differ."""

from __future__ import annotations

import warnings

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import full, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import equal, greater, not_equal
from ..._logic.ops import logical_and
from ..._manipulation.joining import stack
from ..._math.arithmetic import subtract
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from .._sputils import issparse
from ..linalg._direct import SparseEfficiencyWarning
from ._frontier import I64, any_of_each, compact, row_edges

__all__ = ["maximum_bipartite_matching", "structural_rank"]


def maximum_bipartite_matching(graph, perm_type="row"):
    """See `scipy.sparse.csgraph.maximum_bipartite_matching`. A cuarray CSR, CSC or COO graph
    (stored entries are edges, explicit zeros too); found on the device (the module's docstring),
    an int32 cuarray array. The matching has SciPy's size, a maximum one, but its pairs may differ
    from SciPy's (a maximum matching is not unique)."""
    if not issparse(graph):
        raise TypeError("graph must be sparse")
    if graph.format not in ("csr", "csc", "coo"):
        raise TypeError("graph must be in CSC, CSR, or COO format.")
    x, y, _ = _matching(graph.tocsr())
    return (x if perm_type == "column" else y).astype(numpy.int32)


def structural_rank(graph):
    """See `scipy.sparse.csgraph.structural_rank`: the size of a maximum matching found on the
    device (maximum_bipartite_matching's), a Python int."""
    if not issparse(graph):
        raise TypeError("Input must be sparse")
    if graph.format not in ("csr", "csc", "coo"):
        warnings.warn("Input matrix should be in CSC, CSR, or COO matrix format", SparseEfficiencyWarning,
                      stacklevel=2)
    return _matching(graph.tocsr())[2]


def _matching(csr):
    """(x, y, size): each row's column and each column's row (-1: unmatched) of a maximum
    matching of the CSR graph `csr`, and its size (a Python int)."""
    m, n = csr.shape
    indptr, indices = csr.indptr.astype(I64), csr.indices.astype(I64)
    rowlen = subtract(indptr[1:], indptr[:-1])
    x = full((m,), -1, dtype=I64)
    y = full((n + 1,), -1, dtype=I64)  # slot n: the void of the scatters (never a column's)
    size = 0
    while True:
        ends, level, pred = _phase(indptr, indices, rowlen, x, y, m, n)
        if ends is None:
            return x, y[:n], size
        # flip each path, from its free column back to its root, one row a step (all of length level + 1)
        col = ends
        for _ in range(level + 1):
            row = take(pred, col)
            back = take(x, row)  # the row's column before the flip: the next column on its path (-1 at a root)
            x[row] = col
            y[col] = row
            col = back
        size += int(ends.size)


def _phase(indptr, indices, rowlen, x, y, m, n):
    """One phase: (the free columns ending the paths to flip, one per tree, the level they were
    reached at, each column's claiming row), or (None, 0, None) when no augmenting path is left."""
    free = logical_and(equal(x, -1), greater(rowlen, 0))
    count, total = (int(v) for v in to_host(stack([sum_(free, dtype=I64),
                                                  sum_(where(free, rowlen, 0), dtype=I64)])))  # device read
    if count == 0:
        return None, 0, None
    frontier = compact(free, arange(m, dtype=I64), count)
    root = frontier
    pred = full((n + 1,), -1, dtype=I64)  # each column's claiming row this phase; slot n: the void
    seen = zeros((n + 1,), bool)
    slots = zeros((max(m, n) + 1,), I64)
    level = 0
    while total:
        seg, edge = row_edges(indptr, frontier, total)
        col = take(indices, edge)
        claim = any_of_each(where(take(seen, col), n, col), n, slots)
        won = where(claim, col, n)
        seen[won] = True
        pred[won] = take(frontier, seg)
        mate = take(y, col)
        tree = take(root, seg)
        end = any_of_each(where(logical_and(claim, equal(mate, -1)), tree, m), m, slots)  # one free column a tree
        on = logical_and(claim, not_equal(mate, -1))
        mate = where(on, mate, 0)
        found, count, total = (int(v) for v in to_host(stack([
            sum_(end, dtype=I64), sum_(on, dtype=I64), sum_(where(on, take(rowlen, mate), 0), dtype=I64)])))  # device read
        if found:
            return compact(end, col, found), level, pred
        frontier, root = compact(on, mate, count), compact(on, tree, count)
        level += 1
    return None, 0, None
