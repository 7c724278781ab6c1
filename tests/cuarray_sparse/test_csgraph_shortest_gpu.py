"""Shortest paths on the device against scipy.sparse.csgraph: random graphs (directed and
undirected, weighted and unweighted, integer and real weights, zero and negative edges, dense and
sparse, int and float dtypes): distances equal SciPy's (real weights: Dijkstra and Bellman-Ford
exactly); predecessors a valid shortest-path tree; negative cycles; limit, min_only."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray
import cuarray.sparse as sp
from cuarray.sparse import csgraph as cg

pytestmark = pytest.mark.gpu

NAMES = ["shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall"]


def _graph(rng, n, k, low=0, real=False, dtype=np.float64):
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    data = rng.random(k) * 5 if real else rng.integers(low, 6, k)
    return ssp.coo_array((data.astype(dtype), (row, col)), shape=(n, n)).tocsr()


def _valid_tree(dist, pred, src, h, directed, unweighted=False):
    h = ssp.coo_array(h)
    w = {}
    for i, j, x in zip(h.row, h.col, h.data):
        x = 1.0 if unweighted else float(x)
        w[i, j] = min(w.get((i, j), np.inf), x)
        if not directed:
            w[j, i] = min(w.get((j, i), np.inf), x)
    for j in np.flatnonzero(np.isfinite(dist)):
        if j == src:
            assert pred[j] == -9999
            continue
        i = pred[j]
        assert i >= 0 and dist[i] + w[i, j] == dist[j], ("predecessor", src, j, i)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("unweighted", [False, True])
def test_every_method(directed, unweighted):
    rng = np.random.default_rng()
    for h in (_graph(rng, 200, 600), _graph(rng, 200, 600, dtype=np.int32)):
        for g, d in ((h, sp.csr_array(h)), (h.tocsc(), sp.csc_matrix(h.tocsc())),
                     (h.toarray(), cuarray.asarray(h.toarray()))):
            for name in NAMES:
                kw = dict(directed=directed, unweighted=unweighted, return_predecessors=True)
                want, _ = getattr(scg, name)(g, **kw)
                got, pred = getattr(cg, name)(d, **kw)
                assert got.dtype == np.float64 and pred.dtype == np.int32
                np.testing.assert_array_equal(got.get(), want, err_msg=str((name, type(g).__name__, h.dtype)))
            p = pred.get()
            for s in (0, 11):
                _valid_tree(want[s], p[s], s, h if ssp.issparse(g) else ssp.csr_array(h.toarray()), directed,
                            unweighted)


def test_real_weights_dijkstra_and_bellman_ford_exact():
    rng = np.random.default_rng()
    h = _graph(rng, 3000, 20000, real=True)
    d = sp.csr_array(h)
    for name in ("dijkstra", "bellman_ford"):
        for indices in (5, list(range(64))):
            want = getattr(scg, name)(h, indices=indices)
            np.testing.assert_array_equal(getattr(cg, name)(d, indices=indices).get(), want, err_msg=name)
    # Johnson's reweighting and Floyd-Warshall's splicing round their sums another way
    np.testing.assert_allclose(cg.johnson(d, indices=list(range(16))).get(), scg.johnson(h, indices=range(16)),
                               rtol=1e-13)
    small = _graph(rng, 150, 900, real=True)
    np.testing.assert_allclose(cg.floyd_warshall(sp.csr_array(small)).get(), scg.floyd_warshall(small), rtol=1e-13)


def test_negative_edges_cycles_limit_min_only():
    rng = np.random.default_rng()
    h = ssp.triu(_graph(rng, 100, 400, low=-4), k=1).tocsr()
    d = sp.csr_array(h)
    np.testing.assert_array_equal(cg.bellman_ford(d, indices=[0, 3]).get(), scg.bellman_ford(h, indices=[0, 3]))
    np.testing.assert_array_equal(cg.johnson(d, indices=0).get(), scg.johnson(h, indices=0))
    c = h.tolil()
    c[1, 2], c[2, 20], c[20, 1] = 1.0, 1.0, -50.0
    for name in ("bellman_ford", "johnson", "shortest_path"):
        with pytest.raises(cg.NegativeCycleError, match="Negative cycle"):
            getattr(cg, name)(sp.csr_array(c.tocsr()))
    g = _graph(rng, 500, 2000)
    dg = sp.csr_array(g)
    for limit in (0.0, 4.0):
        np.testing.assert_array_equal(cg.dijkstra(dg, indices=[0, 9], limit=limit).get(),
                                      scg.dijkstra(g, indices=[0, 9], limit=limit))
    wd, _, ws = scg.dijkstra(g, indices=[0, 9, 17], min_only=True, return_predecessors=True)
    gd, gp, gs = cg.dijkstra(dg, indices=[0, 9, 17], min_only=True, return_predecessors=True)
    np.testing.assert_array_equal(gd.get(), wd)
    np.testing.assert_array_equal(gs.get() >= 0, ws >= 0)
