"""The csgraph-cc bench case on the CPU: registered for cuarray, CuPy and SciPy (the numpy
column) with both connections, the host setup computes SciPy's components on a small size, and
CuPy's cell is n/a with its reason where pylibcugraph is missing."""

from __future__ import annotations

import types

import numpy as np
import pytest
from scipy.sparse import csgraph as scg

from cuarray.bench import cases
from cuarray.bench.cases import csgraph as C


def test_registered_with_both_connections():
    (case,) = cases.select(ids=["csgraph-cc"])
    assert case.group == "sparse" and case.params == ("weak", "strong")
    assert set(case.setups) == {"cuarray", "cupy", "numpy"}


@pytest.mark.parametrize("connection", ["weak", "strong"])
def test_host_setup_is_scipys_call(connection):
    got = C.cc.setups["numpy"](np, 10**5, connection)()
    g = C._graph(np, 10**5)
    assert got[0] == scg.connected_components(g, connection=connection)[0] and got[1].shape == (C.ROWS,)


def test_cupy_without_pylibcugraph_is_na():
    try:
        import pylibcugraph  # noqa: F401
    except ImportError:
        with pytest.raises(cases.NotAvailable, match="pylibcugraph"):
            C._csgraph(types.SimpleNamespace(__name__="cupy"))
    else:
        pytest.skip("pylibcugraph is installed here")


def test_dijkstra_host_setup_is_scipys_call():
    (case,) = cases.select(ids=["csgraph-dijkstra"])
    assert case.params == (1, 64) and set(case.setups) == {"cuarray", "numpy"}
    got = C.sp.setups["numpy"](np, 2 * 10**4, 1)()  # one source: 64 would take seconds here
    assert got.shape == (C.ROWS,) and got[0] == 0


def test_mst_host_setup_is_scipys_call():
    (case,) = cases.select(ids=["csgraph-mst"])
    assert set(case.setups) == {"cuarray", "numpy"}
    got = C.mst.setups["numpy"](np, 2 * 10**4, None)()  # (the harness passes the param, None here)
    assert got.shape == (C.ROWS, C.ROWS) and got.nnz > 0


def test_maxflow_and_structural_rank_host_setups_are_scipys_calls():
    for cid in ("csgraph-maxflow", "csgraph-structural-rank"):
        (case,) = cases.select(ids=[cid])
        assert set(case.setups) == {"cuarray", "numpy"} and case.size == 5 * 10**5
    g = C._flow_graph(np, 5000)
    assert g.shape == (1000, 1000) and g.dtype == np.int32
    got = C.flow.setups["numpy"](np, 5000, None)()
    assert got.flow_value == scg.maximum_flow(g, 0, 999).flow_value > 0
    assert C.srank.setups["numpy"](np, 5000, None)() == scg.structural_rank(g) > 0


@pytest.mark.parametrize("shape", ["grid", "random"])
def test_rcm_host_setup_is_scipys_call(shape):
    (case,) = cases.select(ids=["csgraph-rcm"])
    assert case.params == ("grid", "random") and set(case.setups) == {"cuarray", "numpy"}
    g = C._rcm_graph(np, 2500, shape)
    assert g.shape == (2500, 2500) and g.nnz > 2500
    got = C.rcm.setups["numpy"](np, 2500, shape)()
    np.testing.assert_array_equal(got, scg.reverse_cuthill_mckee(g))
