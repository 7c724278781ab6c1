"""The masked-array conversions, maximum_flow, min_weight_full_bipartite_matching and yen on
device graphs against scipy.sparse.csgraph: masks and CSRs exactly SciPy's; flows valid with
SciPy's value (both methods); SciPy's exceptions for bad input; results are cuarray objects of
SciPy's dtypes and kinds (the device matching and reordering: test_csgraph_order_gpu.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray
import cuarray.sparse as sp
from cuarray.sparse import csgraph as cg

from ._flow_checks import check_flow, check_yen, random_capacities

pytestmark = pytest.mark.gpu


def _device(h):
    if not ssp.issparse(h):
        return cuarray.asarray(h)
    csr = (sp.csr_matrix if isinstance(h, ssp.spmatrix) else sp.csr_array)(ssp.csr_matrix(h))
    return csr.asformat(h.format)


def test_masked_round_trips():
    rng = np.random.default_rng()
    a = np.where(rng.random((9, 9)) < 0.4, rng.normal(size=(9, 9)), 0)
    a[rng.random((9, 9)) < 0.1] = np.inf
    a[rng.random((9, 9)) < 0.1] = np.nan
    for dtype in (np.float64, np.float32):
        h = a.astype(dtype)
        for kw in ({}, {"null_value": np.inf}, {"nan_null": False, "infinity_null": False, "null_value": None}):
            want = scg.csgraph_masked_from_dense(h, **kw)
            got = cg.csgraph_masked_from_dense(cuarray.asarray(h), **kw)
            assert isinstance(got, np.ma.MaskedArray) and got.dtype == want.dtype, (dtype, kw)
            np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want), err_msg=str(kw))
            np.testing.assert_array_equal(got.data, want.data, err_msg=str(kw))
    m = np.ma.masked_array(rng.normal(size=(9, 9)), mask=rng.random((9, 9)) < 0.5)
    want = scg.csgraph_from_masked(m)
    got = cg.csgraph_from_masked(m)
    assert isinstance(got, sp.csr_array) and got.dtype == np.float64 and got.indices.dtype == np.int32
    for attr in ("indptr", "indices", "data"):
        np.testing.assert_array_equal(getattr(got, attr).get(), getattr(want, attr))
    back = cg.csgraph_to_masked(got)
    np.testing.assert_array_equal(np.ma.getmaskarray(back), np.ma.getmaskarray(m))
    np.testing.assert_array_equal(back.compressed(), m.compressed())
    with pytest.raises(ValueError, match="square"):
        cg.csgraph_masked_from_dense(cuarray.ones((2, 3)))
    with pytest.raises(ValueError, match="sparse"):
        cg.csgraph_to_masked(cuarray.ones((2, 2)))


@pytest.mark.parametrize("method", ["dinic", "edmonds_karp"])
def test_maximum_flow(method):
    rng = np.random.default_rng()
    for n, k in ((2, 0), (40, 120), (2000, 12000)):
        g = random_capacities(rng, n, k)
        for h in (g, ssp.csr_matrix(g)):
            s, t = (int(x) for x in rng.choice(n, 2, replace=False))
            want = scg.maximum_flow(h, s, t, method=method)
            got = cg.maximum_flow(_device(h), s, t, method=method)
            assert got.flow_value == want.flow_value, (n, k, got.flow_value, want.flow_value)
            kind = sp.csr_matrix if isinstance(h, ssp.spmatrix) else sp.csr_array
            assert isinstance(got.flow, kind) and got.flow.dtype == want.flow.dtype
            check_flow(h, s, t, got.flow_value, got.flow.get())
    g = random_capacities(rng, 6, 15)
    for h, s, t in ((g, 0, 0), (g.astype(np.float64), 0, 1), (g.tocsc(), 0, 1)):
        with pytest.raises(Exception) as want:
            scg.maximum_flow(h, s, t)
        with pytest.raises(type(want.value), match=re.escape(str(want.value))):
            cg.maximum_flow(_device(h), s, t)


def test_min_weight_full_bipartite_matching():
    rng = np.random.default_rng()
    a = np.where(rng.random((20, 30)) < 0.5, rng.integers(1, 50, (20, 30)), 0).astype(np.float64)
    a[np.arange(20), rng.permutation(30)[:20]] = rng.integers(1, 50, 20)
    wr, wc = scg.min_weight_full_bipartite_matching(ssp.csr_array(a))
    r, c = (x.get() for x in cg.min_weight_full_bipartite_matching(_device(ssp.csr_array(a))))
    assert np.unique(c).size == 20 and (a[r, c] != 0).all() and a[r, c].sum() == a[wr, wc].sum()
    with pytest.raises(ValueError):
        cg.min_weight_full_bipartite_matching(_device(ssp.csr_array(np.array([[1.0, 0], [2, 0]]))))


def test_yen():
    rng = np.random.default_rng()
    y = random_capacities(rng, 30, 150, np.float64, loops=False)
    for directed in (True, False):
        wd = scg.yen(y, 0, 7, 6, directed=directed)
        d, p = cg.yen(_device(y), 0, 7, 6, directed=directed, return_predecessors=True)
        check_yen(y, 0, 7, d.get(), p.get(), wd, directed)
