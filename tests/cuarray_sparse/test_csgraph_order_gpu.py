"""reverse_cuthill_mckee, maximum_bipartite_matching and structural_rank on device graphs against
scipy.sparse.csgraph on fresh random graphs: the permutation exactly SciPy's (symmetric_mode both
ways; sorted, unsorted and duplicate rows; explicit zeros and cancelling entries; disconnected
graphs; CSR and CSC; int32 and int64 indices; a shuffled mesh); the matching a valid one of SciPy's
size (SciPy's pairs may differ); SciPy's exceptions; cuarray results of SciPy's dtypes."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

import cuarray
import cuarray.sparse as sp
from cuarray.sparse import csgraph as cg
from cuarray.sparse.csgraph import _ordering

from ._flow_checks import check_matching
from ._order_checks import KINDS, bipartite, grid_graph, rcm_graph

pytestmark = pytest.mark.gpu


def _device(h):
    """`h` on the device with its raw arrays as they are (unsorted rows, duplicates, explicit
    zeros) and its index dtype (the constructor would pick int32 for a small graph)."""
    if h.format == "coo":
        return (sp.coo_matrix if isinstance(h, ssp.spmatrix) else sp.coo_array)(h)
    matrix = isinstance(h, ssp.spmatrix)
    cls = {"csr": sp.csr_matrix if matrix else sp.csr_array, "csc": sp.csc_matrix if matrix else sp.csc_array}[h.format]
    d = cls((cuarray.asarray(h.data), cuarray.asarray(h.indices), cuarray.asarray(h.indptr)), shape=h.shape)
    d.indices, d.indptr = cuarray.asarray(h.indices), cuarray.asarray(h.indptr)
    return d


def _same_rcm(g, symmetric_mode):
    want = scg.reverse_cuthill_mckee(g, symmetric_mode=symmetric_mode)
    got = cg.reverse_cuthill_mckee(_device(g), symmetric_mode=symmetric_mode)
    what = (g.format, g.shape, g.nnz, g.indices.dtype, symmetric_mode)
    assert isinstance(got, cuarray.ndarray) and got.dtype == want.dtype, (what, got.dtype, want.dtype)
    got = got.get()
    np.testing.assert_array_equal(got, want, err_msg="{}: first difference at {}".format(
        what, np.flatnonzero(got != want)[:1]))


@pytest.mark.parametrize("symmetric_mode", [False, True])
def test_rcm_is_scipys(symmetric_mode):
    rng = np.random.default_rng()
    for kind in KINDS:
        # k about n: many small components and isolated vertices; k = 4n: one large component
        for (n, k), (fmt, index) in zip(((60, 60), (700, 2800)), (("csr", np.int32), ("csc", np.int64))):
            _same_rcm(rcm_graph(rng, n, k, kind, fmt, index), symmetric_mode)
    _same_rcm(ssp.csr_matrix(rcm_graph(rng, 50, 80, "unsorted")), symmetric_mode)
    _same_rcm(grid_graph(rng, 24), symmetric_mode)


@pytest.mark.parametrize("host_edges", [-1, 40, 10**9], ids=["device", "switching", "host"])
def test_rcm_levels_on_device_and_host_give_scipys_order(host_edges):
    """Every level on the device, every narrow level on the host (after the graph's copy pays),
    and a switch both ways within one component (a mesh's levels widen past 40 entries and narrow)."""
    rng = np.random.default_rng()
    for g in (grid_graph(rng, 30), rcm_graph(rng, 500, 2000, "symmetric"), rcm_graph(rng, 300, 300, "symmetric")):
        g = (g + g.T).tocsr()
        d = _device(g)
        got = _ordering._cuthill_mckee(d.indptr.astype(np.int64), d.indices.astype(np.int64), g.shape[0],
                                       g.indices.dtype, host_edges)
        np.testing.assert_array_equal(got.get()[::-1], scg.reverse_cuthill_mckee(g, symmetric_mode=True))


def test_rcm_data_dtypes():
    """Entries of A + A^T sum in the data's type, as SciPy's: uint8's 254 + 2 wraps to 0 (no edge)."""
    rng = np.random.default_rng()
    for dtype in (np.bool_, np.uint8, np.int64, np.float32, np.complex128):
        for kind in ("canonical", "unsorted"):
            g = rcm_graph(rng, 120, 300, kind)
            g.data = (g.data * (1 + 1j) if dtype == np.complex128 else g.data).astype(dtype)
            _same_rcm(g, False)


def test_rcm_special_graphs_and_errors():
    for g in (ssp.csr_array((6, 6)), ssp.csr_array(np.eye(4)), ssp.csc_array(np.ones((5, 5)))):
        for symmetric_mode in (False, True):
            _same_rcm(g, symmetric_mode)
    got = cg.reverse_cuthill_mckee(sp.csr_array((0, 0)))
    assert isinstance(got, cuarray.ndarray) and got.shape == (0,)  # SciPy raises on the empty graph
    for host, dev in ((np.eye(3), cuarray.eye(3)), (ssp.coo_array(np.eye(3)), sp.coo_array(cuarray.eye(3)))):
        with pytest.raises(TypeError) as want:
            scg.reverse_cuthill_mckee(host)
        with pytest.raises(TypeError, match=str(want.value)):
            cg.reverse_cuthill_mckee(dev)


def test_matching_is_maximum():
    rng = np.random.default_rng()
    # the last: about 30 phases, the later ones flipping paths of 10 to 30 edges
    for (m, n), degree in (((1, 1), 1.0), ((3, 0), 1.0), ((40, 60), 1.5), ((500, 400), 2.0), ((2000, 2000), 3.0)):
        g = bipartite(rng, m, n, degree)
        size = scg.structural_rank(g) if m and n else 0  # SciPy's: a maximum matching's size
        got = cg.structural_rank(_device(g))
        assert type(got) is int and got == size, ((m, n), got, size)
        for h in (g, g.tocsc(), g.tocoo()) if m < 1000 else (g,):
            for perm_type in ("row", "column"):
                match = cg.maximum_bipartite_matching(_device(h), perm_type=perm_type)
                assert isinstance(match, cuarray.ndarray), type(match)
                check_matching(g, match.get(), perm_type, size)


def test_matching_errors_are_scipys():
    with pytest.raises(TypeError, match="graph must be sparse"):
        cg.maximum_bipartite_matching(cuarray.eye(3))
    with pytest.raises(TypeError, match="Input must be sparse"):
        cg.structural_rank(cuarray.eye(3))
