"""The tree of a predecessor array. See `scipy.sparse.csgraph.reconstruct_path`.

A composition: the vertices with a predecessor sorted by it (a stable sort, so each row of the
tree lists its vertices in increasing order) give the tree's CSR layout; each edge's weight is
looked up in the graph's canonical CSR by a binary search of its (row, column) key. One device
read (the count of vertices without a predecessor)."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_array, as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import equal, greater_equal, less
from ..._logic.ops import logical_or
from ..._manipulation.transpose import transpose
from ..._math.arithmetic import add, multiply
from ..._math.extrema import minimum
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import argsort
from .. import _canonical as canon
from .._sputils import issparse
from .._format_csr import csr_array
from ._tools import csgraph_from_dense, csgraph_to_dense, null_mask

__all__ = ["reconstruct_path", "construct_dist_matrix"]

_F64 = numpy.dtype(numpy.float64)
_I32 = numpy.dtype(numpy.int32)
_I64 = numpy.dtype(numpy.int64)


def csr_graph(csgraph):
    """SciPy's validation of a graph for a sparse result: a canonical float64 CSR (a dense graph's
    null values 0, inf and NaN are no edges)."""
    if issparse(csgraph):
        if csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        g = csgraph.tocsr().astype(_F64)
    else:
        g = csgraph_from_dense(csgraph)
    g = g.copy()
    g.sum_duplicates()
    return g


def weights(g, row, col):
    """The weights of the edges (row[k], col[k]) of the canonical CSR `g`: 0 where there is none
    (SciPy's fancy indexing of a sparse graph)."""
    n = g.shape[0]
    if g.nnz == 0 or row.size == 0:
        return multiply(row, 0).astype(_F64)
    keys = add(multiply(canon.expand(g.indptr, g.nnz, _I64), n), g.indices.astype(_I64))
    want = add(multiply(row.astype(_I64), n), col.astype(_I64))
    pos = minimum(searchsorted(keys, want), g.nnz - 1)
    return where(equal(take(keys, pos), want), take(g.data, pos), 0.0)


def reconstruct_path(csgraph, predecessors, directed=True):
    """See `scipy.sparse.csgraph.reconstruct_path`. A cuarray graph (sparse, or dense: its null
    values 0, inf and NaN are no edges) and a cuarray predecessor array; the tree is a float64
    `csr_array` whose rows list their vertices in increasing order (SciPy's order is that of an
    unstable sort: the same matrix). One device read."""
    g = csr_graph(csgraph)
    n = g.shape[0]
    pred = as_array(predecessors, "scipy.sparse.csgraph.reconstruct_path")
    nnull = int(to_host(sum_(less(pred, 0)).reshape(1))[0])  # the one device read
    indices = argsort(pred)[nnull:]
    pind = take(pred, indices)
    indptr = searchsorted(pind, arange(n + 1, dtype=pind.dtype)).astype(_I32)
    data = weights(g, pind, indices)
    if not directed:  # the lighter direction of each edge; a missing one counts as inf, as SciPy's
        back = weights(g, indices, pind)
        data = minimum(where(equal(data, 0), numpy.inf, data), where(equal(back, 0), numpy.inf, back))
    return csr_array((data, indices.astype(_I32), indptr), shape=(n, n))


def _dense_weights(graph, directed):
    """SciPy's dense graph of construct_dist_matrix: float64, no edge = inf; undirected, each
    pair's lighter direction, a zero weight counting as none."""
    if issparse(graph):
        g = csgraph_to_dense(graph, null_value=numpy.inf)
    else:
        a = as_literal_or_array(graph, "scipy.sparse.csgraph.construct_dist_matrix")
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError("graph should be a square array")
        g = where(null_mask(a), numpy.inf, a.astype(_F64))
    if not directed:
        g = where(equal(g, 0), numpy.inf, g)
        g = minimum(g, transpose(g))
    return g


def construct_dist_matrix(graph, predecessors, directed=True, null_value=numpy.inf):
    """See `scipy.sparse.csgraph.construct_dist_matrix`. Every path's weights summed at once by
    pointer doubling along the predecessors (log2 N gathers, no device read): exact on integer
    weights, to rounding otherwise (SciPy adds them one by one from the end of the path). As
    SciPy's, a chain is summed until it meets row i's vertex or a vertex without a predecessor,
    and `null_value` is where j has none; a cyclic chain (SciPy loops forever) gives an
    unspecified sum."""
    g = _dense_weights(graph, directed)
    pred = as_array(predecessors, "scipy.sparse.csgraph.construct_dist_matrix")
    if tuple(pred.shape) != tuple(g.shape):
        raise ValueError("graph and predecessors must have the same shape")
    if pred.dtype != numpy.int32:
        raise TypeError("Type of predecessors array should be np.int32")
    n = g.shape[0]
    if n == 0:
        return g.copy()
    rows = multiply(arange(n, dtype=_I64), n)[:, None]
    cols = arange(n, dtype=_I64)[None, :]
    p = pred.astype(_I64)
    has = greater_equal(p, 0)
    home = equal(cols, arange(n, dtype=_I64)[:, None])  # j == i: the path's end
    step = where(has, take(g.reshape(-1), add(multiply(where(has, p, 0), n), cols)), 0.0)
    dist = where(home, 0.0, step)
    up = where(home, cols, where(has, p, -1))  # the next vertex towards i; -1 a dead end
    for _ in range(max(1, int(n).bit_length()) + 1):
        alive = greater_equal(up, 0)
        at = add(rows, where(alive, up, 0))
        dist = where(alive, add(dist, take(dist.reshape(-1), at)), dist)
        up = where(alive, take(up.reshape(-1), at), -1)
    return where(logical_or(has, home), dist, _F64.type(null_value))
