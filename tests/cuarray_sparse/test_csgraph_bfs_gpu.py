"""breadth_first_order and breadth_first_tree on the device against scipy.sparse.csgraph: random
graphs (directed and undirected, CSR/CSC/COO and dense, duplicates and explicit zeros,
disconnected, a long path): the order and the predecessors exactly SciPy's."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray
import cuarray.sparse as sp
from cuarray.sparse.csgraph import breadth_first_order, breadth_first_tree

pytestmark = pytest.mark.gpu


def _graph(rng, n, k):
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    data = rng.integers(0, 3, k).astype(np.float64)
    order = np.argsort(row, kind="stable")
    indptr = np.r_[0, np.cumsum(np.bincount(row, minlength=n))].astype(np.int32)
    return ssp.csr_array((data[order], col[order].astype(np.int32), indptr), shape=(n, n))


def _device(h):
    if not ssp.issparse(h):
        return cuarray.asarray(h)
    csr = (sp.csr_matrix if isinstance(h, ssp.spmatrix) else sp.csr_array)(ssp.csr_matrix(h))
    return csr.asformat(h.format)


@pytest.mark.parametrize("directed", [True, False])
def test_order_and_predecessors(directed):
    rng = np.random.default_rng()
    g = _graph(rng, 3000, 4000)
    chain = ssp.csr_array(np.eye(300, k=1))  # 300 levels
    for h in (g, g.tocsc(), g.tocoo(), ssp.csr_matrix(g), _graph(rng, 80, 200).toarray(), chain):
        d = _device(h)
        n = h.shape[0]
        for start in (0, n // 3):
            want = scg.breadth_first_order(h, start, directed=directed)
            got = breadth_first_order(d, start, directed=directed)
            what = (type(h).__name__, n, start, directed)
            for w, x in zip(want, got):
                assert isinstance(x, cuarray.ndarray) and x.dtype == np.int32, what
                np.testing.assert_array_equal(x.get(), w, err_msg=str(what))
        want = scg.breadth_first_tree(h, 0, directed=directed)
        want.sort_indices()
        got = breadth_first_tree(d, 0, directed=directed)
        for attr in ("indptr", "indices", "data"):
            np.testing.assert_array_equal(getattr(got, attr).get(), getattr(want, attr), err_msg=str((what, attr)))


@pytest.mark.parametrize("directed", [True, False])
def test_depth_first_on_the_host_is_scipys(directed):
    from cuarray.sparse.csgraph import depth_first_order, depth_first_tree

    rng = np.random.default_rng()
    g = _graph(rng, 500, 900)
    for h in (g, g.tocsc(), g.toarray()):
        d = _device(h)
        want = scg.depth_first_order(h, 3, directed=directed)
        got = depth_first_order(d, 3, directed=directed)
        for w, x in zip(want, got):
            assert isinstance(x, cuarray.ndarray) and x.dtype == np.int32
            np.testing.assert_array_equal(x.get(), w)
        want = scg.depth_first_tree(h, 3, directed=directed)
        want.sort_indices()
        got = depth_first_tree(d, 3, directed=directed)
        for attr in ("indptr", "indices", "data"):
            np.testing.assert_array_equal(getattr(got, attr).get(), getattr(want, attr), err_msg=attr)
