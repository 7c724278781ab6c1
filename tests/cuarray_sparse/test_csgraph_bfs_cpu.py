"""breadth_first_order and breadth_first_tree without a GPU: the level-synchronous composition
runs on NumPy and scipy.sparse stand-ins against scipy.sparse.csgraph on fresh random graphs
(directed and undirected, CSR/CSC/COO and dense, duplicates and explicit zeros, disconnected):
the order and the predecessors exactly SciPy's (its queue visits a vertex's row in CSR order,
then, undirected, its row of the transpose; the first vertex of the queue to reach a vertex is
its predecessor)."""

from __future__ import annotations

import inspect
import types

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray.scipy.sparse.csgraph as public
from cuarray.sparse.csgraph import _bfs, _paths, _tools
from cuarray.testing.fake_device import host_modules

_CANON = types.SimpleNamespace(expand=lambda p, nnz, dt: np.repeat(np.arange(p.size - 1, dtype=dt), np.diff(p)))


@pytest.fixture(scope="module")
def bfs():
    common = dict(as_array=lambda x, fn: np.asarray(x), as_literal_or_array=lambda x, fn: np.asarray(x),
                  to_host=np.asarray, issparse=ssp.issparse, csr_array=ssp.csr_array, canon=_CANON,
                  argsort=lambda a: np.argsort(a, kind="stable"))
    tools = {k: getattr(np, k) for k in ("full", "zeros", "take", "equal", "isinf", "isnan", "logical_not",
                                         "logical_or", "minimum", "cumsum", "concatenate", "where", "flatnonzero",
                                         "bincount")}
    tools.update({k: common[k] for k in ("as_literal_or_array", "issparse", "csr_array")})
    paths = {k: getattr(np, k) for k in ("arange", "take", "equal", "less", "add", "multiply", "minimum", "where",
                                         "searchsorted")}
    paths.update({k: common[k] for k in ("as_array", "to_host", "issparse", "csr_array", "argsort", "canon")},
                 sum_=np.sum)
    b = {k: getattr(np, k) for k in ("full", "zeros", "asarray", "arange", "take", "not_equal", "logical_not",
                                     "concatenate", "add", "multiply", "subtract", "cumsum", "sort")}
    b.update({k: common[k] for k in ("to_host", "argsort", "canon")})
    return host_modules({_tools: tools, _paths: paths, _bfs: b})[_bfs]


def _graph(rng, n, density):
    k = max(1, int(density * n * n))
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    data = rng.integers(0, 3, k).astype(np.float64)  # explicit zeros: edges of a sparse graph
    order = np.argsort(row, kind="stable")
    indptr = np.r_[0, np.cumsum(np.bincount(row, minlength=n))]
    return ssp.csr_array((data[order], col[order], indptr), shape=(n, n))  # duplicates kept, rows unsorted


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("n,density", [(1, 1.0), (12, 0.05), (60, 0.03), (200, 0.01)])
def test_order_and_predecessors_are_scipys(bfs, directed, n, density):
    rng = np.random.default_rng()
    g = _graph(rng, n, density)
    for graph in (g, g.tocsc(), g.tocoo(), ssp.csr_matrix(g), g.toarray()):
        for start in {0, n // 2, n - 1}:
            want = scg.breadth_first_order(graph, start, directed=directed)
            got = bfs.breadth_first_order(graph, start, directed=directed)
            what = (type(graph).__name__, start, directed)
            for w, x in zip(want, got):
                assert x.dtype == np.int32, what
                np.testing.assert_array_equal(x, w, err_msg=str(what))
            only = bfs.breadth_first_order(graph, start, directed, return_predecessors=False)
            np.testing.assert_array_equal(only, want[0])
        want = scg.breadth_first_tree(graph, n // 2, directed=directed)
        want.sort_indices()
        got = bfs.breadth_first_tree(graph, n // 2, directed=directed)
        for attr in ("indptr", "indices", "data"):
            np.testing.assert_array_equal(getattr(got, attr), getattr(want, attr), err_msg=str((what, attr)))


def test_start_outside_the_graph(bfs):
    g = ssp.csr_array(np.ones((3, 3)))
    for i in (-1, 3):
        with pytest.raises(ValueError, match="i_start"):
            bfs.breadth_first_order(g, i)
    with pytest.raises(ValueError, match=r"\(N, N\)"):
        bfs.breadth_first_order(ssp.csr_array(np.ones((2, 3))), 0)


@pytest.mark.parametrize("name", ["breadth_first_order", "breadth_first_tree", "depth_first_order",
                                  "depth_first_tree"])
def test_signatures_are_scipys(name):
    assert inspect.signature(getattr(public, name)) == inspect.signature(getattr(scg, name))


def test_depth_first_round_trip_on_stand_ins():
    from cuarray.sparse.csgraph import _dfs

    dfs = host_modules({_dfs: dict(as_literal_or_array=lambda x, fn: np.asarray(x), to_host=np.asarray,
                                   from_host=lambda x: x.copy(), issparse=lambda x: False,
                                   reconstruct_path=scg.reconstruct_path)})[_dfs]
    a = _graph(np.random.default_rng(), 30, 0.08).toarray()
    for directed in (True, False):
        want = scg.depth_first_order(a, 2, directed=directed)
        for w, x in zip(want, dfs.depth_first_order(a, 2, directed=directed)):
            np.testing.assert_array_equal(x, w)
        np.testing.assert_array_equal(dfs.depth_first_order(a, 2, directed, False), want[0])
        np.testing.assert_array_equal(dfs.depth_first_tree(a, 2, directed).toarray(),
                                      scg.depth_first_tree(a, 2, directed).toarray())
