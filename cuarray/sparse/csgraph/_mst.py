"""Minimum spanning tree by Boruvka's algorithm. See `scipy.sparse.csgraph.minimum_spanning_tree`.

Each round every component picks its lightest edge to another component (`minimum.at` of the
edges' ranks: the edges sorted once by weight, ties by position, a strict order, so the picks
form no cycle but the mutual ones, broken by the smaller component id), the picked edges join the
tree, and the components merge (pointer jumping). A round halves the component count at least:
at most log2(N) rounds, one device read each (were any edges picked?). Explicitly stored zeros
are edges of weight 0 (they join components) but, as in SciPy, not entries of the result.
Where weights are distinct the tree is SciPy's; otherwise a tree of the same total weight."""

from __future__ import annotations

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import equal, less, not_equal
from ..._logic.ops import logical_and
from ..._math.extrema import minimum
from ..._sorting.searching import where
from ..._sorting.sorting import argsort
from .. import _canonical as canon
from ._bfs import csr_graph_keep_duplicates
from .._base import container, spmatrix

__all__ = ["minimum_spanning_tree"]

_I64 = numpy.dtype(numpy.int64)


def _merge(parent):
    """Each component's root after the hooks in `parent` (pointer jumping to a fixed point)."""
    n = parent.size
    for _ in range(max(1, int(n).bit_length()) + 1):
        parent = take(parent, parent)
    return parent


def minimum_spanning_tree(csgraph, overwrite=False):
    """See `scipy.sparse.csgraph.minimum_spanning_tree`. Boruvka's algorithm on the device (the
    module's docstring): SciPy's tree where the weights are distinct, a tree of the same total
    weight otherwise. The result is a CSR of the input's kind (matrix or array; a dense input
    gives a `csr_array`); `overwrite` is accepted and the input never overwritten."""
    del overwrite
    is_array = not isinstance(csgraph, spmatrix)
    g = csr_graph_keep_duplicates(csgraph)
    n = g.shape[0]
    row = canon.expand(g.indptr, g.nnz, _I64)
    col = g.indices.astype(_I64)
    w = g.data
    order = argsort(w)  # stable: ties ranked by position
    rank = full((g.nnz,), 0, _I64)
    rank[order] = arange(g.nnz, dtype=_I64)
    comp = arange(n, dtype=_I64)
    in_tree = full((g.nnz,), False, bool)
    none = numpy.int64(g.nnz)
    while g.nnz:
        a, b = take(comp, row), take(comp, col)
        cross = not_equal(a, b)
        r = where(cross, rank, none)
        best = full((n,), none, _I64)
        minimum.at(best, a, r)
        minimum.at(best, b, r)
        picked = less(best, none)
        if not bool(to_host(picked.any().reshape(1))[0]):  # the round's device read
            break
        edge = take(order, minimum(best, none - 1))
        in_tree[edge[picked]] = True
        ea, eb = take(a, edge), take(b, edge)
        ids = arange(n, dtype=_I64)
        other = where(equal(ea, ids), eb, ea)
        parent = where(picked, other, ids)
        mutual = logical_and(equal(take(parent, parent), ids), less(ids, parent))
        parent = where(mutual, ids, parent)
        comp = take(_merge(parent), comp)
    keep = logical_and(in_tree, not_equal(w, 0))
    cls = container("csr", is_array)
    return cls((w[keep], (row[keep], col[keep])), shape=(n, n))
