"""minimum_spanning_tree without a GPU: Boruvka's rounds on NumPy and scipy.sparse stand-ins
against scipy.sparse.csgraph on fresh random graphs: SciPy's tree exactly where weights are
distinct (each undirected edge stored once), the same total weight and a spanning forest (same
components) where weights tie or both directions are stored; explicit zeros join components but
are not entries of the result; matrix in, matrix out."""

from __future__ import annotations

import inspect
import types

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray.scipy.sparse.csgraph as public
from cuarray.sparse.csgraph import _bfs, _mst, _paths, _tools
from cuarray.testing.fake_device import host_modules

_CANON = types.SimpleNamespace(expand=lambda p, nnz, dt: np.repeat(np.arange(p.size - 1, dtype=dt), np.diff(p)))


@pytest.fixture(scope="module")
def mst():
    asis = dict(as_literal_or_array=lambda x, fn: np.asarray(x), as_array=lambda x, fn: np.asarray(x),
                to_host=np.asarray, issparse=ssp.issparse, csr_array=ssp.csr_array, canon=_CANON,
                argsort=lambda a: np.argsort(a, kind="stable"), sum_=np.sum, spmatrix=ssp.spmatrix,
                container=lambda fmt, is_array: ssp.csr_array if is_array else ssp.csr_matrix)

    def names(module):
        out = {}
        for k in dir(module):
            v = getattr(module, k)
            if k in asis:
                out[k] = asis[k]
            elif getattr(v, "__module__", "") and v.__module__.startswith("cuarray._") and hasattr(np, k):
                out[k] = getattr(np, k)
        return out

    return host_modules({m: names(m) for m in (_tools, _paths, _bfs, _mst)})[_mst]


def _upper(rng, n, k, distinct=True):
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    lo, hi = np.minimum(row, col), np.maximum(row, col)
    keep = lo != hi
    pairs = np.unique(np.stack([lo[keep], hi[keep]], 1), axis=0)
    w = rng.permutation(pairs.shape[0]) + 1.0 if distinct else rng.integers(1, 4, pairs.shape[0]) * 1.0
    return ssp.csr_array((w, (pairs[:, 0], pairs[:, 1])), shape=(n, n))


def _components(t, n):
    return scg.connected_components(t, directed=False)[1] if n else np.zeros(0)


@pytest.mark.parametrize("n,k", [(1, 1), (10, 12), (60, 100), (300, 900)])
def test_distinct_weights_give_scipys_tree(mst, n, k):
    rng = np.random.default_rng()
    g = _upper(rng, n, k)
    for graph in (g, ssp.csr_matrix(g), g.tocsc(), g.toarray()):
        want = scg.minimum_spanning_tree(graph)
        got = mst.minimum_spanning_tree(graph)
        assert type(got) is type(want), type(graph)
        np.testing.assert_array_equal(got.toarray(), want.toarray())
        assert got.nnz == want.nnz


@pytest.mark.parametrize("seed", range(3))
def test_ties_and_both_directions_give_a_minimum_forest(mst, seed):
    rng = np.random.default_rng()
    g = _upper(rng, 80, 200, distinct=False)
    g = (g + ssp.triu(g, k=5).T).tocsr()  # some edges stored both ways
    g.data[rng.random(g.nnz) < 0.1] = 0.0  # explicit zeros: weight-0 edges
    want = scg.minimum_spanning_tree(g)
    got = mst.minimum_spanning_tree(g)
    assert got.sum() == want.sum() and got.nnz == want.nnz  # every minimum tree has the same weights
    zeros = ssp.csr_array(((g.data == 0).astype(float), g.indices.copy(), g.indptr.copy()), shape=g.shape)
    zeros.eliminate_zeros()  # the weight-0 edges only: with the tree, the graph's components
    ones = g.copy()
    ones.data[ones.data == 0] = 1.0  # SciPy's connected_components drops stored zeros
    np.testing.assert_array_equal(_components(got + zeros, 80), _components(ones, 80))
    np.testing.assert_array_equal(_components(want + zeros, 80), _components(ones, 80))


def test_signature_is_scipys():
    assert inspect.signature(public.minimum_spanning_tree) == inspect.signature(scg.minimum_spanning_tree)
