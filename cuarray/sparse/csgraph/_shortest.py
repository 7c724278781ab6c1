"""Shortest paths: Bellman-Ford relaxation on the device. See `scipy.sparse.csgraph.shortest_path`.

One algorithm serves every method (SciPy's Dijkstra, Bellman-Ford, Johnson and Floyd-Warshall
give the same distances): rounds of relaxation over the edge list for all the sources at once,
each round `d[s, j] = min(d[s, j], d[s, i] + w_ij)` by `minimum.at` and one device read (did any
distance change?). At most N rounds: a change in round N is a negative cycle (NegativeCycleError).
Each distance is a path's weights summed from the source outwards, as SciPy's Dijkstra and
Bellman-Ford sum them; Johnson's reweighting and Floyd-Warshall's path splicing round their
sums differently, so there the distances agree with SciPy's to rounding (exactly on integer
weights). Predecessors: for each reached vertex, the edge into it that gave its final distance's
last improvement (a tight edge from a vertex settled in an earlier round, so the tree is acyclic);
where several shortest paths exist SciPy may name another, equally short, predecessor."""

from __future__ import annotations

import operator
import warnings

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import from_host, to_host
from ..._creation.basic import full, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import equal, less, not_equal
from ..._logic.content import isfinite
from ..._logic.ops import logical_and
from ..._manipulation.joining import concatenate
from ..._math.arithmetic import add, multiply
from ..._math.extrema import maximum, minimum
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmin
from ..._statistics.order import amin
from .. import _canonical as canon
from ._bfs import csr_graph_keep_duplicates
from ._tools import NegativeCycleError

__all__ = ["shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall"]

NULL = -9999
_F64 = numpy.dtype(numpy.float64)
_I32 = numpy.dtype(numpy.int32)
_I64 = numpy.dtype(numpy.int64)


def _edges(csgraph, directed, unweighted):
    """(n, row, col, weight): the graph's edges (both directions when undirected; duplicates kept:
    the lightest wins in the relaxation, as in SciPy's)."""
    g = csr_graph_keep_duplicates(csgraph)
    n = g.shape[0]
    row = canon.expand(g.indptr, g.nnz, _I64)
    col = g.indices.astype(_I64)
    w = g.data if not unweighted else full((g.nnz,), 1.0, _F64)
    if not directed:
        row, col, w = concatenate([row, col]), concatenate([col, row]), concatenate([w, w])
    return n, row, col, w


def _sources(indices, n):
    """(sources as an int64 host array, whether the result is one row)."""
    if indices is None:
        return numpy.arange(n, dtype=numpy.int64), False
    if isinstance(indices, (int, numpy.integer, list, tuple, range, numpy.ndarray)):
        host = numpy.asarray(indices, dtype=numpy.int64)  # small, parameter-like: checked on the host
    else:  # a device array of sources: read once
        host = to_host(as_parameter(indices, "scipy.sparse.csgraph.shortest_path")).astype(numpy.int64)
    if host.size and (host.min() < -n or host.max() >= n):
        raise ValueError("indices out of range 0...N")
    host = numpy.where(host < 0, host + n, host)
    return host, host.ndim == 0


def _relax(n, row, col, w, sources, single_front=False):
    """(dist (k, n), settled round (k, n)) after Bellman-Ford from `sources` (host int64, k of
    them; `single_front`: one row started at every source, SciPy's min_only)."""
    k = 1 if single_front else sources.size
    r = numpy.zeros(sources.size, numpy.int64) if single_front else numpy.arange(k)
    flat = full((k * n,), numpy.inf, _F64)  # the distances, row-major (k, n), updated in place
    when = zeros((k * n,), _I64)
    if sources.size:
        flat[from_host(r * n + sources)] = 0.0
    if n == 0:
        return flat.reshape(k, n), when.reshape(k, n)
    base = multiply(arange(k, dtype=_I64), n)[:, None]
    target = add(base, col[None, :]).reshape(-1)
    for round_ in range(1, n + 1):
        cand = add(take(flat.reshape(k, n), row, axis=1), w[None, :]).reshape(-1)
        before = flat.copy()
        minimum.at(flat, target, cand)
        changed = not_equal(flat, before)
        when[changed] = round_
        if not bool(to_host(changed.any().reshape(1))[0]):  # the round's device read
            return flat.reshape(k, n), when.reshape(k, n)
    node = int(to_host(argmin(flat.reshape(k, n).min(axis=0)).reshape(1))[0])
    raise NegativeCycleError("Negative cycle detected on node {}".format(node))


def _predecessors(n, row, col, w, dist, when, sources, single_front=False):
    """A shortest-path tree: each reached vertex's tight edge from a vertex settled earlier."""
    k = dist.shape[0]
    d_from = take(dist, row, axis=1)
    tight = logical_and(equal(add(d_from, w[None, :]), take(dist, col, axis=1)), isfinite(d_from))
    tight = logical_and(tight, less(take(when, row, axis=1), take(when, col, axis=1)))
    flat = full((k * n,), -1, _I64)
    base = multiply(arange(k, dtype=_I64), n)[:, None]
    target = add(base, col[None, :])[tight]
    maximum.at(flat, target, multiply(row[None, :], tight.astype(_I64))[tight])
    pred = where(less(flat, 0), NULL, flat).astype(_I32).reshape(k, n)
    r = numpy.zeros(sources.size, numpy.int64) if single_front else numpy.arange(k)
    if sources.size:
        pred[from_host(r), from_host(sources)] = NULL
    return pred


def _solve(csgraph, directed, indices, return_predecessors, unweighted, limit=numpy.inf, min_only=False):
    n, row, col, w = _edges(csgraph, directed, unweighted)
    sources, single = _sources(indices, n)
    shape = sources.shape
    flat_sources = sources.reshape(-1)
    dist, when = _relax(n, row, col, w, flat_sources, min_only)
    if limit != numpy.inf:  # SciPy stops at `limit`: the vertices beyond it unreached
        far = ~(dist <= limit)
        dist[far] = numpy.inf
        when[far] = n + 1
    pred = _predecessors(n, row, col, w, dist, when, flat_sources, min_only) if return_predecessors or min_only else None
    if min_only:
        # each vertex's source: follow the tree to its root (at most n hops, pointer doubling)
        p = pred[0].astype(_I64)
        root = where(equal(p, NULL), arange(n, dtype=_I64), p)
        for _ in range(max(1, int(n).bit_length())):
            root = take(root, root)
        reached = isfinite(dist[0])
        src = where(reached, root, NULL).astype(_I32)
        return (dist[0], pred[0], src) if return_predecessors else dist[0]
    out = dist.reshape(shape + (n,)) if not single else dist[0]
    if return_predecessors:
        return out, (pred.reshape(shape + (n,)) if not single else pred[0])
    return out


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False):
    """See `scipy.sparse.csgraph.bellman_ford`. Bellman-Ford rounds on the device (the module's
    docstring): distances equal SciPy's; where shortest paths tie, the predecessors name a valid
    shortest-path tree that may differ from SciPy's. One device read a round."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False):
    """See `scipy.sparse.csgraph.johnson`. The Bellman-Ford rounds of `bellman_ford` (no
    reweighting): distances equal SciPy's to rounding; predecessors as `bellman_ford`'s."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, limit=numpy.inf,
             min_only=False):
    """See `scipy.sparse.csgraph.dijkstra`. Bellman-Ford rounds on the device (no priority
    queue): distances equal SciPy's on non-negative weights (SciPy warns on negative ones, as
    this does; a negative cycle raises NegativeCycleError); predecessors as `bellman_ford`'s; `min_only`'s sources name the root of each
    vertex's tree. One device read a round."""
    limit = float(limit)
    if limit < 0:
        raise ValueError("limit must be >= 0")
    n, _, _, w = _edges(csgraph, directed, unweighted)
    if w.size and bool(to_host((amin(w) < 0).reshape(1))[0]):
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
                      "negative cycles. Consider johnson or bellman_ford.", stacklevel=2)
    return _solve(csgraph, directed, indices, return_predecessors, unweighted, limit, min_only)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False, overwrite=False):
    """See `scipy.sparse.csgraph.floyd_warshall`. All pairs by the Bellman-Ford rounds of
    `bellman_ford` (not Floyd-Warshall's N pivots): distances equal SciPy's to rounding;
    `overwrite` is accepted and the input never overwritten."""
    del overwrite
    return _solve(csgraph, directed, None, return_predecessors, unweighted)


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None):
    """See `scipy.sparse.csgraph.shortest_path`. Every method runs the Bellman-Ford rounds of
    `bellman_ford` (the module's docstring); the method is validated as SciPy's."""
    del overwrite
    if method not in ("auto", "FW", "D", "BF", "J"):
        raise ValueError("unrecognized method '{}'".format(method))
    if method == "FW" and indices is not None:
        raise ValueError("Cannot specify indices with method == 'FW'.")
    return _solve(csgraph, directed, indices, return_predecessors, unweighted)
