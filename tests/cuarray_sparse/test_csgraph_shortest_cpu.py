"""Shortest paths without a GPU: the Bellman-Ford rounds run on NumPy and scipy.sparse stand-ins
against scipy.sparse.csgraph on fresh random graphs (directed and undirected, weighted and
unweighted, integer weights so every method's sums are exact, zero and negative edges,
disconnected, duplicates, dense and sparse): distances equal SciPy's; predecessors form a valid
shortest-path tree (each step an edge whose weight closes the distance, every chain reaching its
source); negative cycles raise NegativeCycleError; limit, min_only, indices shapes; signatures."""

from __future__ import annotations

import inspect
import types
import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray.scipy.sparse.csgraph as public
from cuarray.sparse.csgraph import _bfs, _paths, _shortest, _tools
from cuarray.testing.fake_device import host_modules

NAMES = ["shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall"]
_CANON = types.SimpleNamespace(expand=lambda p, nnz, dt: np.repeat(np.arange(p.size - 1, dtype=dt), np.diff(p)))


@pytest.fixture(scope="module")
def sh():
    asis = dict(as_literal_or_array=lambda x, fn: np.asarray(x), as_parameter=lambda x, fn: np.asarray(x),
                as_array=lambda x, fn: np.asarray(x), to_host=np.asarray, from_host=np.asarray,
                issparse=ssp.issparse, csr_array=ssp.csr_array, canon=_CANON,
                argsort=lambda a: np.argsort(a, kind="stable"), sum_=np.sum, amin=np.min)

    def names(module):
        out = {}
        for k in dir(module):
            v = getattr(module, k)
            if k in asis:
                out[k] = asis[k]
            elif getattr(v, "__module__", "") and v.__module__.startswith("cuarray._") and hasattr(np, k):
                out[k] = getattr(np, k)
        return out

    copies = host_modules({m: names(m) for m in (_tools, _paths, _bfs, _shortest)})
    return copies[_shortest]


def _graph(rng, n, k, low=0):
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    data = rng.integers(low, 6, k).astype(np.float64)
    return ssp.coo_array((data, (row, col)), shape=(n, n))


def _check_tree(dist, pred, src, g, directed, unweighted=False):
    """pred names, for every reached vertex other than src, an edge closing its distance; every
    chain ends at src."""
    d = g.toarray() if ssp.issparse(g) else g
    n = d.shape[0]
    h = ssp.coo_array(g)
    w = np.full((n, n), np.inf)
    for i, j, x in zip(h.row, h.col, h.data):
        if not ssp.issparse(g) and (x == 0 or not np.isfinite(x)):
            continue
        x = 1.0 if unweighted else x
        w[i, j] = min(w[i, j], x)
        if not directed:
            w[j, i] = min(w[j, i], x)
    for j in range(n):
        if j == src or not np.isfinite(dist[j]):
            assert pred[j] == -9999, (j, pred[j])
            continue
        i = pred[j]
        assert dist[i] + w[i, j] == dist[j], (i, j)
        seen, v = 0, j
        while v != src:
            v = pred[v]
            seen += 1
            assert v >= 0 and seen <= n


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("unweighted", [False, True])
def test_distances_equal_scipys(sh, directed, unweighted):
    rng = np.random.default_rng()
    h = _graph(rng, 30, 60)
    for g in (h.tocsr(), h.tocsc(), ssp.csr_matrix(h.tocsr()), h.toarray()):
        for name in NAMES:
            kw = dict(directed=directed, unweighted=unweighted, return_predecessors=True)
            want, _ = getattr(scg, name)(g, **kw)
            got, pred = getattr(sh, name)(g, **kw)
            assert got.dtype == np.float64 and pred.dtype == np.int32 and got.shape == want.shape == (30, 30)
            np.testing.assert_array_equal(got, want, err_msg=str((name, type(g).__name__)))
            for s in (0, 7):
                _check_tree(got[s], pred[s], s, g, directed, unweighted)


def test_negative_edges_and_cycles(sh):
    rng = np.random.default_rng()
    # a DAG with negative weights: no cycle
    h = ssp.triu(_graph(rng, 25, 80, low=-4), k=1).tocsr()
    for name in ("bellman_ford", "johnson", "shortest_path"):
        want = getattr(scg, name)(h, indices=[0, 3])
        np.testing.assert_array_equal(getattr(sh, name)(h, indices=[0, 3]), want, err_msg=name)
    d, p = sh.bellman_ford(h, indices=2, return_predecessors=True)
    _check_tree(d, p, 2, h, True)
    cyc = h.tolil()
    cyc[1, 2], cyc[2, 20], cyc[20, 1] = 1.0, 1.0, -50.0  # the cycle 1 -> 2 -> 20 -> 1 weighs -48
    for name in ("bellman_ford", "johnson", "floyd_warshall", "shortest_path"):
        with pytest.raises(scg.NegativeCycleError):
            getattr(scg, name)(cyc.tocsr())
        with pytest.raises(sh.NegativeCycleError, match="Negative cycle"):
            getattr(sh, name)(cyc.tocsr())
    with pytest.raises(sh.NegativeCycleError):
        sh.bellman_ford(h, directed=False)  # an undirected negative edge is a cycle


def test_dijkstra_limit_min_only_indices(sh):
    rng = np.random.default_rng()
    h = _graph(rng, 40, 90).tocsr()
    for indices in (3, [1, 5], np.array([[0], [2]]), -1):
        want = scg.dijkstra(h, indices=indices)
        got = sh.dijkstra(h, indices=indices)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    for limit in (0.0, 3.0, 7.5):
        want = scg.dijkstra(h, indices=[0, 4], limit=limit)
        got, pred = sh.dijkstra(h, indices=[0, 4], limit=limit, return_predecessors=True)
        np.testing.assert_array_equal(got, want, err_msg=str(limit))
        _check_tree(got[1], pred[1], 4, h, True)
    wd, wp, ws = scg.dijkstra(h, indices=[0, 9, 17], min_only=True, return_predecessors=True)
    gd, gp, gs = sh.dijkstra(h, indices=[0, 9, 17], min_only=True, return_predecessors=True)
    np.testing.assert_array_equal(gd, wd)
    np.testing.assert_array_equal(gs >= 0, ws >= 0)
    for j in np.flatnonzero(gs >= 0):  # its source is one at the distance
        assert scg.dijkstra(h, indices=gs[j])[j] == gd[j]
    np.testing.assert_array_equal(sh.dijkstra(h, indices=[0, 9], min_only=True), scg.dijkstra(h, indices=[0, 9],
                                                                                               min_only=True))
    with pytest.raises(ValueError, match="limit must be >= 0"):
        sh.dijkstra(h, limit=-1)
    with pytest.raises(ValueError, match="indices out of range"):
        sh.dijkstra(h, indices=40)
    neg = ssp.triu(h, k=1).tocsr()  # acyclic: a negative edge but no negative cycle
    neg.data[0] = -1
    with pytest.warns(UserWarning, match="negative weights"):
        sh.dijkstra(neg, indices=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sh.dijkstra(h, indices=0)


def test_methods_and_empty(sh):
    g = ssp.csr_array((0, 0))
    assert sh.shortest_path(g).shape == scg.shortest_path(g).shape == (0, 0)
    h = ssp.csr_array(np.ones((3, 3)))
    with pytest.raises(ValueError, match="unrecognized method"):
        sh.shortest_path(h, method="X")
    with pytest.raises(ValueError, match="Cannot specify indices"):
        sh.shortest_path(h, method="FW", indices=0)


@pytest.mark.parametrize("name", NAMES)
def test_signatures_are_scipys(name):
    assert inspect.signature(getattr(public, name)) == inspect.signature(getattr(scg, name))
