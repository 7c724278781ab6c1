"""reverse_cuthill_mckee, maximum_bipartite_matching and structural_rank without a GPU: their
device algorithms (level-synchronous searches of array operations) run with NumPy standing in for
the cuarray routines, on SciPy sparse arrays standing in for device graphs, against
scipy.sparse.csgraph on fresh random graphs: the permutation exactly SciPy's (symmetric_mode both
ways; sorted, unsorted and duplicate rows; explicit zeros; entries of A + A^T that cancel;
disconnected graphs and isolated vertices; CSR and CSC; int32 and int64 indices); the matching
valid with SciPy's size (a maximum matching: SciPy's pairs may differ); SciPy's exceptions."""

from __future__ import annotations

import types

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

from cuarray.sparse.csgraph import _frontier, _matching, _ordering
from cuarray.testing.fake_device import host_modules, numpy_standins

from ._flow_checks import check_matching, raises_like
from ._order_checks import KINDS, bipartite, grid_graph, rcm_graph


def _segment_sum(values, seg, nseg):
    out = np.zeros(nseg, values.dtype)
    (np.logical_or if values.dtype.kind == "b" else np.add).at(out, seg, values)
    return out


_CANON = types.SimpleNamespace(expand=lambda p, nnz, dt: np.repeat(np.arange(p.size - 1, dtype=dt), np.diff(p)),
                               segment_sum=_segment_sum)


@pytest.fixture(scope="module")
def host():
    """{"rcm": copy of _ordering, "match": copy of _matching} on NumPy (the stable sort for argsort,
    as cuarray's is; NumPy's scatter keeps the last write, one of the writes a device keeps)."""
    special = {"argsort": lambda a: np.argsort(a, kind="stable"), "issparse": ssp.issparse, "any": np.any,
               "min": np.min, "sum": np.sum, "SparseEfficiencyWarning": ssp.SparseEfficiencyWarning}
    group = {m: numpy_standins(m, "cuarray.sparse.csgraph", special) for m in (_frontier, _ordering, _matching)}
    for m in (_frontier, _ordering):
        group[m]["canon"] = _CANON
    copies = host_modules(group)
    return {"rcm": copies[_ordering], "match": copies[_matching]}


def _same_rcm(host, g, symmetric_mode):
    want = scg.reverse_cuthill_mckee(g, symmetric_mode=symmetric_mode)
    got = host["rcm"].reverse_cuthill_mckee(g, symmetric_mode=symmetric_mode)
    what = (g.format, g.shape, g.nnz, g.indices.dtype, symmetric_mode)
    assert got.dtype == want.dtype, what
    np.testing.assert_array_equal(got, want, err_msg=str(what))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("symmetric_mode", [False, True])
def test_rcm_is_scipys(host, kind, symmetric_mode):
    rng = np.random.default_rng()
    # k about n: many components (isolated vertices, small trees); k = 4n: one large component
    for n, k in ((1, 1), (2, 3), (17, 12), (60, 60), (150, 600), (400, 450)):
        for fmt in ("csr", "csc"):
            for index in (np.int32, np.int64):
                _same_rcm(host, rcm_graph(rng, n, k, kind, fmt, index), symmetric_mode)
    _same_rcm(host, ssp.csr_matrix(rcm_graph(rng, 50, 80, kind)), symmetric_mode)


def test_rcm_special_graphs(host):
    rng = np.random.default_rng()
    for g in (ssp.csr_array((7, 7)), ssp.csr_array(np.eye(5)), ssp.csc_array(np.ones((6, 6))),
              ssp.csr_array(np.diag(np.ones(8), 1)), grid_graph(rng, 12),
              ssp.csr_array((np.ones(3), ([0, 0, 0], [0, 0, 0])), shape=(4, 4))):
        g = ssp.csr_array(g) if g.format == "coo" else g
        for symmetric_mode in (False, True):
            _same_rcm(host, g, symmetric_mode)
    assert host["rcm"].reverse_cuthill_mckee(ssp.csr_array((0, 0))).shape == (0,)  # SciPy raises there


@pytest.mark.parametrize("host_edges", [-1, 6, 40, 10**9], ids=["device", "host-6", "host-40", "host"])
def test_rcm_host_levels_give_scipys_order(host, host_edges):
    """Narrow levels run on the host (_host_levels), wide ones on the device, switching both ways
    within one component (a grid's levels widen, then narrow) and between components."""
    rng = np.random.default_rng()
    graphs = [grid_graph(rng, 9), grid_graph(rng, 14)] + [rcm_graph(rng, n, k, "canonical") for n, k in ((60, 70), (200, 800))]
    for g in graphs:
        g = (g + g.T).tocsr()
        indptr, indices = g.indptr.astype(np.int64), g.indices.astype(np.int64)
        got = host["rcm"]._cuthill_mckee(indptr, indices, g.shape[0], g.indices.dtype, host_edges)[::-1]
        np.testing.assert_array_equal(got, scg.reverse_cuthill_mckee(g, symmetric_mode=True), err_msg=str(host_edges))


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int64, np.float16, np.float32, np.complex128])
def test_rcm_data_dtypes(host, dtype):
    """Entries of A + A^T sum in the data's type, as SciPy's: uint8's 254 + 2 wraps to 0 (no edge)."""
    rng = np.random.default_rng()
    for kind in ("canonical", "unsorted", "zeros"):
        for n, k in ((30, 40), (120, 300)):
            g = rcm_graph(rng, n, k, kind)
            g.data = (g.data * (1 + 1j) if dtype == np.complex128 else g.data).astype(dtype)
            _same_rcm(host, g, False)


def test_rcm_errors_are_scipys(host):
    rcm = host["rcm"].reverse_cuthill_mckee
    for bad in (np.eye(3), ssp.coo_array(np.eye(3)), ssp.csr_array(np.ones((2, 3)))):
        raises_like(lambda: scg.reverse_cuthill_mckee(bad), lambda: rcm(bad))


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 4), (1, 1), (9, 6), (6, 9), (40, 40), (120, 90)])
def test_matching_is_maximum(host, shape):
    rng = np.random.default_rng()
    for degree in (0.7, 1.5, 3.0):
        g = bipartite(rng, *shape, degree)
        size = scg.structural_rank(g) if min(shape) else 0  # SciPy's: a maximum matching's size
        got = host["match"].structural_rank(g)
        assert type(got) is int and got == size, (shape, degree)
        for h in (g, g.tocsc(), g.tocoo(), ssp.csr_matrix(g)):
            for perm_type in ("row", "column"):
                check_matching(g, host["match"].maximum_bipartite_matching(h, perm_type), perm_type, size)


def test_matching_needs_long_augmenting_paths(host):
    """Staircases with one perfect matching: where the scatter keeps the last write (NumPy's),
    the first level matches row i + 1 with column i, and the one augmenting path left runs
    through every row."""
    k = 60
    a = np.zeros((k, k))
    a[np.arange(k), np.arange(k)] = 1
    a[np.arange(1, k), np.arange(k - 1)] = 1
    for g in (ssp.csr_array(a), ssp.csr_array(a[::-1]), ssp.csr_array(a[:, ::-1])):
        for perm_type in ("row", "column"):
            check_matching(g, host["match"].maximum_bipartite_matching(g, perm_type), perm_type, k)


def test_matching_errors_are_scipys(host):
    match = host["match"]
    raises_like(lambda: scg.maximum_bipartite_matching(np.eye(3)), lambda: match.maximum_bipartite_matching(np.eye(3)))
    dia = ssp.dia_array(np.eye(3))
    raises_like(lambda: scg.maximum_bipartite_matching(dia), lambda: match.maximum_bipartite_matching(dia))
    raises_like(lambda: scg.structural_rank(np.eye(3)), lambda: match.structural_rank(np.eye(3)))
    with pytest.warns(ssp.SparseEfficiencyWarning):
        assert match.structural_rank(dia) == 3
