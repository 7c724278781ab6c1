"""csgraph_from_dense, csgraph_to_dense and laplacian on the device against scipy.sparse.csgraph:
random graphs with SciPy's null values, duplicate edges and explicit zeros, every laplacian
option on dense and sparse (CSR, COO, CSC, DIA; array and matrix) float, int and complex graphs;
the public module re-exports them."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray
import cuarray.scipy.sparse.csgraph as public
import cuarray.sparse as sp
from cuarray.sparse.csgraph import csgraph_from_dense, csgraph_to_dense, laplacian

pytestmark = pytest.mark.gpu


def _host(x):
    return x.get() if hasattr(x, "get") else x


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_from_dense(dtype):
    rng = np.random.default_rng()
    a = np.where(rng.random((40, 40)) < 0.2, rng.normal(size=(40, 40)) * 4, 0)
    if np.dtype(dtype).kind == "f":
        for v in (np.inf, -np.inf, np.nan, 2.5):
            a[rng.random((40, 40)) < 0.05] = v
    a = a.astype(dtype)
    for kw in ({}, {"null_value": 2.5}, {"null_value": np.inf}, {"nan_null": False, "infinity_null": False}):
        want = scg.csgraph_from_dense(a, **kw)
        got = csgraph_from_dense(cuarray.asarray(a), **kw)
        assert isinstance(got, sp.csr_array) and got.dtype == np.float64 and got.indices.dtype == np.int32, kw
        np.testing.assert_array_equal(got.indptr.get(), want.indptr, err_msg=str(kw))
        np.testing.assert_array_equal(got.indices.get(), want.indices, err_msg=str(kw))
        np.testing.assert_array_equal(got.data.get(), want.data, err_msg=str(kw))
    with pytest.raises(TypeError):
        csgraph_from_dense(a)  # a NumPy array: the host input policy


@pytest.mark.parametrize("null_value", [0, np.inf, -3.0])
def test_to_dense_duplicates_take_the_smallest(null_value):
    rng = np.random.default_rng()
    n, k = 30, 300
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    data = rng.normal(size=k)
    data[:20] = 0.0
    order = np.argsort(row, kind="stable")
    parts = (data[order], col[order].astype(np.int32), np.r_[0, np.cumsum(np.bincount(row, minlength=n))].astype(np.int32))
    h = ssp.csr_array(parts, shape=(n, n))
    want = scg.csgraph_to_dense(h, null_value=null_value)
    for cls in (sp.csr_array, sp.csr_matrix, sp.csc_array):
        d = cls(tuple(cuarray.asarray(p) for p in parts), shape=(n, n))
        h2 = h if cls is not sp.csc_array else ssp.csc_array(parts, shape=(n, n))
        got = csgraph_to_dense(d, null_value=null_value)
        assert isinstance(got, cuarray.ndarray) and got.dtype == np.float64
        np.testing.assert_array_equal(got.get(), scg.csgraph_to_dense(h2, null_value=null_value), err_msg=cls.__name__)
    assert want.shape == (n, n)


def _device_sparse(h):
    """The cuarray matrix or array of the SciPy one `h`, same format."""
    csr = (sp.csr_matrix if isinstance(h, ssp.spmatrix) else sp.csr_array)(ssp.csr_matrix(h))
    return csr.asformat(h.format)


def _graphs(rng):
    a = np.where(rng.random((50, 50)) < 0.1, rng.integers(1, 5, (50, 50)), 0)
    a[7, :] = 0
    a[:, 7] = 0  # an isolated vertex
    return [a.astype(np.float64), a.astype(np.float32), a.astype(np.int32), (a + 1j * a.T).astype(np.complex128)]


@pytest.mark.parametrize("normed", [False, True])
@pytest.mark.parametrize("use_out_degree,symmetrized", [(False, False), (True, False), (False, True)])
def test_laplacian(normed, use_out_degree, symmetrized):
    rng = np.random.default_rng()
    v = rng.normal(size=(50, 3))
    kw = dict(normed=normed, use_out_degree=use_out_degree, symmetrized=symmetrized, return_diag=True)
    for a in _graphs(rng):
        tol = 1e-5 if a.dtype == np.float32 else 1e-12
        for kind in ("dense", "csr_array", "coo_matrix", "csc_array", "dia_array"):
            h = a if kind == "dense" else getattr(ssp, kind)(a)
            d = cuarray.asarray(a) if kind == "dense" else _device_sparse(h)
            what = (a.dtype, kind, kw)
            want_l, want_d = scg.laplacian(h.copy(), **kw)
            got_l, got_d = laplacian(d, **kw)
            assert got_l.dtype == want_l.dtype and got_d.dtype == want_d.dtype, what
            assert (getattr(got_l, "format", None) == getattr(want_l, "format", None)), what
            dense = got_l.toarray() if sp.issparse(got_l) else got_l
            want = want_l.toarray() if ssp.issparse(want_l) else want_l
            np.testing.assert_allclose(dense.get(), want, rtol=tol, atol=tol, err_msg=str(what))
            np.testing.assert_allclose(got_d.get(), want_d, rtol=tol, err_msg=str(what))
            wf, _ = scg.laplacian(h.copy(), form="lo", **kw)
            gf, _ = laplacian(d, form="lo", **kw)
            np.testing.assert_allclose((gf @ cuarray.asarray(v)).get(), wf @ v, rtol=1e-5, atol=1e-5, err_msg=str(what))
            wf, _ = scg.laplacian(h.copy(), form="function", **kw)
            gf, _ = laplacian(d, form="function", **kw)
            np.testing.assert_allclose(gf(cuarray.asarray(v)).get(), wf(v), rtol=1e-5, atol=1e-5, err_msg=str(what))


def test_reexported():
    from cuarray.sparse import csgraph as g

    for name in ("laplacian", "csgraph_from_dense", "csgraph_to_dense", "NegativeCycleError", "reconstruct_path",
                 "construct_dist_matrix"):
        assert getattr(public, name) is getattr(g, name)


@pytest.mark.parametrize("directed", [True, False])
def test_reconstruct_path(directed):
    from cuarray.sparse.csgraph import reconstruct_path

    rng = np.random.default_rng()
    n, k = 300, 1200
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    h = ssp.coo_array((rng.integers(0, 4, k).astype(np.float64), (row, col)), shape=(n, n)).tocsr()
    pred = np.full(n, -9999, dtype=np.int32)
    perm = rng.permutation(n)
    for t, v in enumerate(perm[1:], 1):
        if rng.random() < 0.8:
            pred[v] = perm[rng.integers(0, t)]
    for graph, dev in ((h, sp.csr_array(h)), (h.tocsc(), sp.csc_matrix(h.tocsc())), (h.toarray(), cuarray.asarray(h.toarray()))):
        want = scg.reconstruct_path(graph, pred, directed=directed)
        want.sort_indices()
        got = reconstruct_path(dev, cuarray.asarray(pred), directed=directed)
        assert isinstance(got, sp.csr_array) and got.dtype == np.float64
        for attr in ("indptr", "indices", "data"):
            np.testing.assert_array_equal(getattr(got, attr).get(), getattr(want, attr), err_msg=str((type(graph), attr)))


@pytest.mark.parametrize("directed", [True, False])
def test_construct_dist_matrix(directed):
    from cuarray.sparse.csgraph import construct_dist_matrix

    rng = np.random.default_rng()
    n = 120
    a = np.where(rng.random((n, n)) < 0.05, rng.integers(1, 9, (n, n)), 0).astype(np.float64)
    _, pred = scg.shortest_path(a, directed=directed, return_predecessors=True)
    for graph, dev in ((a, cuarray.asarray(a)), (ssp.csr_array(a), sp.csr_array(ssp.csr_array(a)))):
        for null_value in (np.inf, -1.0):
            want = scg.construct_dist_matrix(graph, pred, directed=directed, null_value=null_value)
            got = construct_dist_matrix(dev, cuarray.asarray(pred), directed=directed, null_value=null_value)
            np.testing.assert_array_equal(got.get(), want, err_msg=str((type(graph).__name__, null_value)))
    real = a * rng.random((n, n))  # real weights: the pointer-doubling sums agree to rounding
    _, pred = scg.shortest_path(real, directed=directed, return_predecessors=True)
    np.testing.assert_allclose(construct_dist_matrix(cuarray.asarray(real), cuarray.asarray(pred), directed).get(),
                               scg.construct_dist_matrix(real, pred, directed), rtol=1e-13)
