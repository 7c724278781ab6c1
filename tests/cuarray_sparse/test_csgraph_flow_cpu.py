"""The masked-array conversions, maximum_flow, min_weight_full_bipartite_matching and yen without
a GPU: their modules run with NumPy and scipy.sparse stand-ins (a wrapper standing in for a device
sparse graph, so the host copy's path runs) against scipy.sparse.csgraph on fresh random graphs
(directed and undirected, disconnected, empty, self loops, duplicates): SciPy's masks and CSRs
exactly; flows valid with SciPy's value; SciPy's exceptions for bad input; signatures equal the
installed SciPy's (the device matching and reordering: test_csgraph_order_cpu.py)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray.scipy.sparse.csgraph as public
from cuarray.sparse.csgraph import _masked, _sequential
from cuarray.testing.fake_device import host_modules

from ._flow_checks import check_flow, check_yen, raises_like, random_capacities

NAMES = ["csgraph_masked_from_dense", "csgraph_from_masked", "csgraph_to_masked", "maximum_flow",
         "maximum_bipartite_matching", "structural_rank", "min_weight_full_bipartite_matching",
         "reverse_cuthill_mckee", "yen"]


class Dev:
    """Stands in for a device sparse graph: `.get()` gives the host one."""

    def __init__(self, host):
        self.host = host

    def get(self):
        return self.host


@pytest.fixture(scope="module")
def mods():
    masked = dict(as_literal_or_array=lambda x, fn: np.asarray(x), to_host=np.asarray, from_host=np.array,
                  csr_array=ssp.csr_array, csgraph_to_dense=scg.csgraph_to_dense)
    seq = dict(as_literal_or_array=lambda x, fn: np.asarray(x), to_host=np.asarray, from_host=np.array,
               issparse=lambda x: isinstance(x, Dev),
               container=lambda fmt, is_array: ssp.csr_array if is_array else ssp.csr_matrix)
    copies = host_modules({_masked: masked, _sequential: seq})
    return copies[_masked], copies[_sequential]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_masked_from_dense_matches_scipy(mods, dtype):
    rng = np.random.default_rng()
    a = np.where(rng.random((7, 7)) < 0.4, rng.normal(size=(7, 7)) * 4, 0)
    if np.dtype(dtype).kind == "f":
        a[rng.random((7, 7)) < 0.1] = np.inf
        a[rng.random((7, 7)) < 0.1] = np.nan
        a[0, 0], a[1, 1], a[2, 2] = 1e-9, 2.5 + 1e-7, -np.inf  # within masked_values' tolerance of 0 and 2.5
    a = a.astype(dtype)
    for kw in ({}, {"null_value": 2.5}, {"null_value": np.inf}, {"null_value": np.nan, "nan_null": False},
               {"nan_null": False, "infinity_null": False}, {"null_value": None}, {"copy": False}):
        want = scg.csgraph_masked_from_dense(a.copy(), **kw)
        got = mods[0].csgraph_masked_from_dense(a.copy(), **kw)
        assert isinstance(got, np.ma.MaskedArray) and got.dtype == want.dtype, kw
        np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want), err_msg=str(kw))
        np.testing.assert_array_equal(got.data, want.data, err_msg=str(kw))
        assert got.fill_value == want.fill_value or (np.isnan(got.fill_value) and np.isnan(want.fill_value)), kw


@pytest.mark.parametrize("n", [0, 1, 8])
def test_from_and_to_masked_match_scipy(mods, n):
    rng = np.random.default_rng()
    for dtype in (np.float64, np.int64, np.float32):
        g = np.ma.masked_array(rng.normal(size=(n, n)).astype(dtype) * 3, mask=rng.random((n, n)) < 0.5)
        got = mods[0].csgraph_from_masked(g)
        if n:
            want = scg.csgraph_from_masked(g)
            assert got.dtype == want.dtype == np.float64 and got.indices.dtype == np.int32
            for attr in ("indptr", "indices", "data"):
                np.testing.assert_array_equal(getattr(got, attr), getattr(want, attr))
        assert got.shape == (n, n)
        for csr in (got, ssp.csr_matrix(got), got.tocsc()):
            w, x = scg.csgraph_to_masked(csr), mods[0].csgraph_to_masked(csr)
            assert x.dtype == w.dtype and x.fill_value == w.fill_value
            np.testing.assert_array_equal(np.ma.getmaskarray(x), np.ma.getmaskarray(w))
            np.testing.assert_array_equal(x.filled(7), w.filled(7))
    full = mods[0].csgraph_from_masked(np.ma.masked_array(np.arange(4.0).reshape(2, 2)))  # nomask: all edges
    np.testing.assert_array_equal(full.toarray(), [[0, 1], [2, 3]])
    assert full.nnz == 4


def test_masked_errors_are_scipys(mods):
    for name, arg in (("csgraph_masked_from_dense", np.ones((2, 3))), ("csgraph_masked_from_dense", np.ones(3)),
                      ("csgraph_from_masked", np.ma.masked_array(np.ones((2, 3)), mask=np.zeros((2, 3)))),
                      ("csgraph_from_masked", np.ma.masked_array(np.ones(3), mask=np.zeros(3))),
                      ("csgraph_to_masked", np.ones((2, 2)))):
        with pytest.raises(ValueError) as want:
            getattr(scg, name)(arg)
        with pytest.raises(ValueError) as got:
            getattr(mods[0], name)(arg)
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("method", ["dinic", "edmonds_karp"])
def test_maximum_flow_value_and_validity(mods, method):
    rng = np.random.default_rng()
    for n, k in ((2, 0), (2, 3), (12, 40), (60, 150), (60, 600)):
        g = random_capacities(rng, n, k)
        for h in (g, ssp.csr_matrix(g)):
            s, t = rng.choice(n, 2, replace=False)
            want = scg.maximum_flow(h, s, t, method=method)
            got = mods[1].maximum_flow(Dev(h), s, t, method=method)
            assert type(got.flow_value) is int and got.flow_value == want.flow_value, (n, k)
            assert isinstance(got.flow, type(want.flow)) and got.flow.dtype == want.flow.dtype
            check_flow(h, s, t, got.flow_value, got.flow)
            assert repr(got) == repr(want)


def test_maximum_flow_errors_are_scipys(mods):
    g = random_capacities(np.random.default_rng(), 5, 12)
    for h, s, t, kw in ((g, 0, 0, {}), (g.astype(np.float64), 0, 1, {}), (g.tocsc(), 0, 1, {}),
                        (ssp.csr_array(np.ones((2, 3), np.int32)), 0, 1, {}), (g, 0, 7, {}), (g, -1, 2, {}),
                        (g, 0, 1, {"method": "push"})):
        raises_like(lambda: scg.maximum_flow(h, s, t, **kw), lambda: mods[1].maximum_flow(Dev(h), s, t, **kw))
    raises_like(lambda: scg.maximum_flow(g.toarray(), 0, 1), lambda: mods[1].maximum_flow(g.toarray(), 0, 1))


def test_min_weight_full_bipartite_matching(mods):
    rng = np.random.default_rng()
    for m, n in ((1, 1), (5, 5), (6, 11), (20, 30)):
        a = np.where(rng.random((m, n)) < 0.6, rng.integers(1, 50, (m, n)), 0).astype(np.float64)
        a[np.arange(m), rng.permutation(n)[:m]] = rng.integers(1, 50, m)  # a full matching exists
        for maximize in (False, True):
            g = ssp.csr_array(a)
            wr, wc = scg.min_weight_full_bipartite_matching(g, maximize=maximize)
            r, c = mods[1].min_weight_full_bipartite_matching(Dev(g), maximize=maximize)
            assert r.size == c.size == m and np.unique(c).size == m and (a[r, c] != 0).all()
            assert a[r, c].sum() == a[wr, wc].sum()
    bad = ssp.csr_array(np.array([[1.0, 0, 0], [2, 0, 0]]))  # both rows need column 0
    raises_like(lambda: scg.min_weight_full_bipartite_matching(bad),
                 lambda: mods[1].min_weight_full_bipartite_matching(Dev(bad)))


@pytest.mark.parametrize("directed", [True, False])
def test_yen(mods, directed):
    rng = np.random.default_rng()
    g = random_capacities(rng, 14, 60, np.float64, loops=False)
    for K in (1, 4, 30):
        wd, wp = scg.yen(g, 0, 5, K, directed=directed, return_predecessors=True)
        d, p = mods[1].yen(Dev(g), 0, 5, K, directed=directed, return_predecessors=True)
        check_yen(g, 0, 5, d, p, wd, directed)
        np.testing.assert_array_equal(mods[1].yen(g.toarray(), 0, 5, K, directed=directed), wd)
    raises_like(lambda: scg.yen(g, 0, 99, 2), lambda: mods[1].yen(Dev(g), 0, 99, 2))


@pytest.mark.parametrize("name", NAMES)
def test_signatures_are_scipys(name):
    want = getattr(scg, name, None)
    if want is None:
        pytest.skip("the installed SciPy lacks " + name)
    assert inspect.signature(getattr(public, name)) == inspect.signature(want)
