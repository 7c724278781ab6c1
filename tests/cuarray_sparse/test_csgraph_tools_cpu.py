"""csgraph_from_dense, csgraph_to_dense and laplacian without a GPU: their modules run on NumPy
and scipy.sparse stand-ins (`host_modules`) against scipy.sparse.csgraph on fresh random graphs
(null values 0, inf, -inf, NaN, a chosen null value; duplicate edges and explicit zeros; every
laplacian option, dense and sparse, int and float); SciPy's errors; the signatures equal the
installed SciPy's."""

from __future__ import annotations

import inspect
import types

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla
from scipy.sparse import csgraph as scg

import cuarray.scipy.sparse.csgraph as public
from cuarray.sparse.csgraph import _laplacian, _paths, _tools
from cuarray.testing.fake_device import host_modules

NAMES = ["construct_dist_matrix", "reconstruct_path", "laplacian", "csgraph_from_dense", "csgraph_to_dense", "NegativeCycleError", "connected_components"]


@pytest.fixture(scope="module")
def host():
    """The two modules on NumPy and scipy.sparse stand-ins."""
    np_names = {n: getattr(np, n) for n in ("full", "zeros", "take", "equal", "isinf", "isnan", "logical_not",
                                             "logical_or", "minimum", "cumsum", "concatenate", "where",
                                             "flatnonzero", "bincount", "array", "asarray", "arange", "fill_diagonal",
                                             "transpose", "subtract", "conjugate", "sqrt")}
    tools = {k: np_names[k] for k in ("full", "zeros", "take", "equal", "isinf", "isnan", "logical_not",
                                      "logical_or", "minimum", "cumsum", "concatenate", "where", "flatnonzero",
                                      "bincount")}
    tools.update(as_literal_or_array=lambda x, fn: np.asarray(x), issparse=ssp.issparse, csr_array=ssp.csr_array)
    lap = {k: np_names[k] for k in ("array", "asarray", "arange", "fill_diagonal", "take", "equal", "transpose", "subtract",
                                    "conjugate", "sqrt", "where")}
    lap.update(as_array=lambda x, fn: np.asarray(x), issparse=ssp.issparse, LinearOperator=sla.LinearOperator)
    paths = {k: getattr(np, k) for k in ("arange", "take", "equal", "less", "add", "multiply", "minimum", "where",
                                         "searchsorted", "greater_equal", "transpose", "logical_or")}
    paths.update(as_array=lambda x, fn: np.asarray(x), as_literal_or_array=lambda x, fn: np.asarray(x), to_host=np.asarray, sum_=np.sum, issparse=ssp.issparse,
                 csr_array=ssp.csr_array, argsort=lambda a: np.argsort(a, kind="stable"),
                 canon=types.SimpleNamespace(expand=lambda p, nnz, dt: np.repeat(np.arange(p.size - 1, dtype=dt),
                                                                                 np.diff(p))))
    copies = host_modules({_tools: tools, _laplacian: lap, _paths: paths})
    return copies[_tools], copies[_laplacian], copies[_paths]


def _dense_graph(rng, n, dtype=np.float64):
    a = np.where(rng.random((n, n)) < 0.3, rng.normal(size=(n, n)) * 4, 0)
    if np.dtype(dtype).kind == "f":
        a[rng.random((n, n)) < 0.05] = np.inf
        a[rng.random((n, n)) < 0.05] = -np.inf
        a[rng.random((n, n)) < 0.05] = np.nan
        a[rng.random((n, n)) < 0.05] = 2.5
    return a.astype(dtype)


@pytest.mark.parametrize("n", [0, 1, 7])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_from_dense_matches_scipy(host, n, dtype):
    tools = host[0]
    a = _dense_graph(np.random.default_rng([n, np.dtype(dtype).num]), n, dtype)
    for kw in ({}, {"null_value": 2.5}, {"null_value": np.inf}, {"null_value": np.nan, "nan_null": False},
               {"nan_null": False, "infinity_null": False}, {"null_value": None, "nan_null": False}):
        got = tools.csgraph_from_dense(a, **kw)
        try:
            want = scg.csgraph_from_dense(a, **kw)
        except np.exceptions.AxisError:  # SciPy 1.17/1.18 fail where no entry is null: every entry an edge
            want = ssp.csr_array((a.astype(np.float64).ravel(), np.tile(np.arange(n, dtype=np.int32), n),
                                  np.arange(n + 1, dtype=np.int32) * n), shape=(n, n))
        assert got.dtype == want.dtype == np.float64 and got.indices.dtype == np.int32, kw
        np.testing.assert_array_equal(got.indptr, want.indptr, err_msg=str(kw))
        np.testing.assert_array_equal(got.indices, want.indices, err_msg=str(kw))
        np.testing.assert_array_equal(got.data, want.data, err_msg=str(kw))


@pytest.mark.parametrize("null_value", [0, np.inf, -3.0])
def test_to_dense_matches_scipy(host, null_value):
    tools = host[0]
    rng = np.random.default_rng()
    n, k = 9, 40
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)  # duplicates: the smallest weight wins
    data = rng.normal(size=k)
    data[:5] = 0.0  # explicit zeros are edges
    order = np.argsort(row, kind="stable")
    indptr = np.r_[0, np.cumsum(np.bincount(row, minlength=n))]
    m = ssp.csr_array((data[order], col[order], indptr), shape=(n, n))  # duplicates kept
    assert not m.has_canonical_format
    for g in (m, ssp.csr_matrix(m), ssp.csc_array((data[order], col[order], indptr), shape=(n, n))):
        want = scg.csgraph_to_dense(g, null_value=null_value)
        got = tools.csgraph_to_dense(g, null_value=null_value)
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got, want)


def test_errors_are_scipys(host):
    tools, lap, _ = host
    for f, arg in ((tools.csgraph_from_dense, np.zeros((2, 3))), (tools.csgraph_from_dense, np.zeros(3)),
                   (tools.csgraph_to_dense, ssp.csr_array(np.zeros((2, 3)))),
                   (tools.csgraph_to_dense, ssp.coo_array(np.ones((2, 2)))), (tools.csgraph_to_dense, np.ones((2, 2))),
                   (tools.csgraph_to_dense, ssp.coo_array(np.ones((2, 2)))), (tools.csgraph_to_dense, np.ones((2, 2))),
                   (lap.laplacian, np.zeros((2, 3))), (lap.laplacian, ssp.csr_array(np.zeros((2, 3))))):
        name = f.__name__
        with pytest.raises(ValueError) as want:
            getattr(scg, name)(arg)
        with pytest.raises(ValueError) as got:
            f(arg)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="Invalid form"):
        lap.laplacian(np.ones((2, 2)), form="nope")


def _graphs(rng):
    a = np.where(rng.random((8, 8)) < 0.4, rng.integers(1, 5, (8, 8)), 0)
    a[3, :] = 0
    a[:, 3] = 0  # an isolated vertex
    return [a.astype(np.float64), a.astype(np.int32), (a + 1j * a.T).astype(np.complex128)]


@pytest.mark.parametrize("normed", [False, True])
@pytest.mark.parametrize("use_out_degree", [False, True])
@pytest.mark.parametrize("symmetrized", [False, True])
def test_laplacian_matches_scipy(host, normed, use_out_degree, symmetrized):
    lap = host[1]
    rng = np.random.default_rng()
    v = rng.normal(size=(8, 3))
    for a in _graphs(rng):
        for g in (a, ssp.csr_array(a), ssp.coo_matrix(a), ssp.dia_array(a)):
            kw = dict(normed=normed, use_out_degree=use_out_degree, symmetrized=symmetrized, return_diag=True)
            what = (a.dtype, type(g).__name__, kw)
            want_l, want_d = scg.laplacian(g.copy(), **kw)
            got_l, got_d = lap.laplacian(g.copy(), **kw)
            assert type(got_l) is type(want_l) and got_l.dtype == want_l.dtype, what
            dense = got_l.toarray() if ssp.issparse(got_l) else got_l
            want = want_l.toarray() if ssp.issparse(want_l) else want_l
            np.testing.assert_allclose(dense, want, rtol=1e-13, atol=1e-13, err_msg=str(what))
            np.testing.assert_allclose(got_d, want_d, rtol=1e-13, err_msg=str(what))
            assert got_d.dtype == want_d.dtype, what
            for form in ("function", "lo"):
                wf, wd = scg.laplacian(g.copy(), form=form, **kw)
                gf, gd = lap.laplacian(g.copy(), form=form, **kw)
                np.testing.assert_allclose(gf @ v if form == "lo" else gf(v), wf @ v if form == "lo" else wf(v),
                                           rtol=1e-12, atol=1e-12, err_msg=str((form, what)))
                np.testing.assert_allclose(gd, wd, rtol=1e-13, err_msg=str((form, what)))
    d = np.ones((4, 4))
    assert lap.laplacian(d, dtype=np.float32).dtype == scg.laplacian(d, dtype=np.float32).dtype == np.float32
    lap.laplacian(d, copy=False)
    assert d[0, 0] == scg.laplacian(np.ones((4, 4)))[0, 0] == 3  # copy=False works in place, as SciPy's


@pytest.mark.parametrize("name", NAMES)
def test_signatures_are_scipys(name):
    want = getattr(scg, name, None)
    if want is None:
        pytest.skip("the installed SciPy lacks " + name)
    assert inspect.signature(getattr(public, name)) == inspect.signature(want)
    assert getattr(public, name) is getattr(public, name)


def test_negative_cycle_error():
    e = public.NegativeCycleError("cycle")
    assert isinstance(e, Exception) and str(e) == "cycle" and str(public.NegativeCycleError()) == ""


def _tree_case(rng, n):
    """A random graph (duplicates, explicit zeros, both directions) and a random forest's
    predecessors (-9999 at the roots, as SciPy writes them)."""
    k = 4 * n
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    data = rng.integers(0, 4, k).astype(np.float64)
    g = ssp.coo_array((data, (row, col)), shape=(n, n)).tocsr()
    pred = np.full(n, -9999)
    perm = rng.permutation(n)
    for t, v in enumerate(perm[1:], 1):
        if rng.random() < 0.8:
            pred[v] = perm[rng.integers(0, t)]
    return g, pred


@pytest.mark.parametrize("directed", [True, False])
def test_reconstruct_path_matches_scipy(host, directed):
    paths = host[2]
    rng = np.random.default_rng()
    for n in (1, 5, 40):
        g, pred = _tree_case(rng, n)
        for graph in (g, g.tocsc(), ssp.csr_matrix(g), g.toarray()):
            want = scg.reconstruct_path(graph, pred, directed=directed)
            got = paths.reconstruct_path(graph, pred, directed=directed)
            want.sort_indices()
            assert got.has_sorted_indices and got.dtype == np.float64
            for attr in ("indptr", "indices", "data"):
                np.testing.assert_array_equal(getattr(got, attr), getattr(want, attr), err_msg=str((n, attr)))


@pytest.mark.parametrize("directed", [True, False])
def test_construct_dist_matrix_matches_scipy(host, directed):
    paths = host[2]
    rng = np.random.default_rng()
    for n in (1, 6, 40):
        g, _ = _tree_case(rng, n)
        g.data[rng.random(g.nnz) < 0.1] = np.inf  # no edge, in a dense graph
        pred = np.full((n, n), -9999, np.int32)
        for i in range(n):  # each row a random forest whose roots include i (chains may end elsewhere)
            _, p = _tree_case(rng, n)
            p[i] = -9999
            pred[i] = p
        for graph in (g, g.toarray()):
            for null_value in (np.inf, -1.0):
                want = scg.construct_dist_matrix(graph, pred, directed=directed, null_value=null_value)
                got = paths.construct_dist_matrix(graph, pred, directed=directed, null_value=null_value)
                np.testing.assert_array_equal(got, want, err_msg=str((n, type(graph).__name__, null_value)))
    with pytest.raises(ValueError, match="same shape"):
        paths.construct_dist_matrix(np.ones((3, 3)), np.zeros((2, 3), np.int32))
    with pytest.raises(TypeError, match="np.int32"):
        paths.construct_dist_matrix(np.ones((3, 3)), np.zeros((3, 3), np.int64))
