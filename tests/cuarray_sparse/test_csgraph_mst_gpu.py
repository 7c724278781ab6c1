"""minimum_spanning_tree on the device against scipy.sparse.csgraph: SciPy's tree where the
weights are distinct (dense, CSR array and matrix, CSC), the same total weight and components
where they tie or edges are stored both ways, explicit zeros; a large random graph."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray
import cuarray.sparse as sp
from cuarray.sparse.csgraph import minimum_spanning_tree

pytestmark = pytest.mark.gpu


def _upper(rng, n, k, distinct=True):
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    lo, hi = np.minimum(row, col), np.maximum(row, col)
    keep = lo != hi
    pairs = np.unique(np.stack([lo[keep], hi[keep]], 1), axis=0)
    w = rng.permutation(pairs.shape[0]) + 1.0 if distinct else rng.integers(1, 4, pairs.shape[0]) * 1.0
    return ssp.csr_array((w, (pairs[:, 0], pairs[:, 1])), shape=(n, n))


@pytest.mark.parametrize("n,k", [(1, 1), (200, 300), (20000, 60000)])
def test_distinct_weights(n, k):
    g = _upper(np.random.default_rng(), n, k)
    cases = [(g, sp.csr_array(g)), (ssp.csr_matrix(g), sp.csr_matrix(g)), (g.tocsc(), sp.csc_array(g.tocsc()))]
    if n <= 200:
        cases.append((g.toarray(), cuarray.asarray(g.toarray())))
    for h, d in cases:
        want = scg.minimum_spanning_tree(h)
        got = minimum_spanning_tree(d)
        assert isinstance(got, sp.csr_matrix if isinstance(h, ssp.spmatrix) else sp.csr_array), type(h)
        assert got.nnz == want.nnz, (type(h), got.nnz, want.nnz)
        w = want.tocoo()
        c = got.tocoo()
        np.testing.assert_array_equal(np.lexsort((c.col.get(), c.row.get())).size, w.nnz)
        key = lambda r, cc: np.sort(r.astype(np.int64) * n + cc)  # noqa: E731
        np.testing.assert_array_equal(key(c.row.get(), c.col.get()), key(w.row, w.col))
        assert float(got.sum()) == want.sum()


def test_ties_zeros_both_directions():
    rng = np.random.default_rng()
    g = _upper(rng, 3000, 9000, distinct=False)
    g = (g + ssp.triu(g, k=5).T).tocsr()
    g.data[rng.random(g.nnz) < 0.1] = 0.0
    want = scg.minimum_spanning_tree(g)
    got = minimum_spanning_tree(sp.csr_array(g))
    assert float(got.sum()) == want.sum() and got.nnz == want.nnz
