"""`Delaunay` built from a triangulation that is not Qhull's (the GPU triangulation's simplices and
neighbours, `_delaunay.Delaunay._set_triangulation`), on the host shim, against SciPy: Qhull's
triangles given in another order (rows shuffled, each simplex's vertices rotated), and every
array SciPy's object has derived from them (`_triangulation`) compared with SciPy's as sets, the
lift and planes to Qhull's own numbers, and the device queries (transform, find_simplex,
plane_distance) with SciPy's answers mapped through the shuffle."""

from __future__ import annotations

import numpy as np
import pytest

ss = pytest.importorskip("scipy.spatial")

from . import _host_shim  # noqa: E402
from . import _qhull_checks as qc  # noqa: E402
from ._host_shim import H  # noqa: E402


@pytest.fixture(scope="module")
def host():
    return _host_shim.HostSpatial()


def _point_sets():
    r = qc.rng("triangulation")
    return {
        "uniform": r.random((200, 2)),
        "gaussian": r.normal(size=(300, 2)) * 50.0 + 7.0,
        "clustered": np.concatenate([r.normal(size=(60, 2)) * 1e-3, r.normal(size=(20, 2)) * 10]),
        "float32": r.normal(size=(80, 2)).astype(np.float32).astype(np.float64),
        "negative": r.random((40, 2)) * -1e6,
        "triangle": r.random((3, 2)),
    }


def _shuffled(tri, seed):
    """Qhull's simplices and neighbours with the rows permuted and each row's vertices rotated
    (orientation kept), neighbours remapped: another valid encoding of the same triangulation."""
    r = np.random.default_rng(seed)
    s, nb = tri.simplices, tri.neighbors
    perm = r.permutation(len(s))  # new row i is old row perm[i]
    inv = np.empty_like(perm)
    inv[perm] = np.arange(len(perm))
    rot = r.integers(0, 3, len(s))
    cols = (np.arange(3)[None, :] + rot[:, None]) % 3
    new_s = np.take_along_axis(s[perm], cols, axis=1)
    old_nb = np.take_along_axis(nb[perm], cols, axis=1)
    new_nb = np.where(old_nb < 0, -1, inv[np.maximum(old_nb, 0)])
    return new_s.astype(np.intc), new_nb.astype(np.intc), perm


def _made(cs, pts, s, nb):
    d = cs.Delaunay.__new__(cs.Delaunay)
    d.furthest_site = False
    d._set_triangulation(H(pts), H(s), H(nb))
    return d


def _case(host, kind, seed):
    """(the host shim's spatial package, the points, SciPy's Delaunay, our Delaunay of its
    triangles shuffled, the shuffle's row map)."""
    cs = host("cuarray.scipy.spatial")
    pts = _point_sets()[kind]
    want = ss.Delaunay(pts)
    s, nb, perm = _shuffled(want, seed)
    return cs, pts, want, _made(cs, pts, s, nb), perm


@pytest.mark.parametrize("kind", list(_point_sets()))
def test_arrays_against_scipy(host, kind):
    cs, pts, want, got, perm = _case(host, kind, 5)
    assert (got.ndim, got.npoints, got.nsimplex, got.furthest_site) == (2, len(pts), want.nsimplex, False)
    assert (got.paraboloid_scale, got.paraboloid_shift) == (want.paraboloid_scale, want.paraboloid_shift)
    np.testing.assert_array_equal(np.asarray(got.min_bound), want.min_bound)
    np.testing.assert_array_equal(np.asarray(got.max_bound), want.max_bound)
    np.testing.assert_array_equal(qc.check_same_triangulation(got, want, np.asarray), perm)
    s = np.asarray(got.simplices)
    v2s = np.asarray(got.vertex_to_simplex)
    for p in range(len(pts)):  # the lowest-numbered simplex holding the point
        holding = np.flatnonzero((s == p).any(axis=1))
        assert v2s[p] == (holding.min() if holding.size else -1)
    indptr, indices = (np.asarray(a) for a in got.vertex_neighbor_vertices)
    assert all(list(indices[indptr[p]:indptr[p + 1]]) == sorted(indices[indptr[p]:indptr[p + 1]])
               for p in range(len(pts)))


@pytest.mark.parametrize("kind", ["uniform", "gaussian", "clustered"])
def test_queries_against_scipy(host, kind):
    cs, pts, want, got, perm = _case(host, kind, 6)
    s = np.asarray(got.simplices)
    lo, hi = pts.min(0), pts.max(0)
    q = lo - 0.2 * (hi - lo) + 1.4 * (hi - lo) * qc.rng("tq", kind).random((300, 2))
    w = want.find_simplex(q)
    for g in (np.asarray(got.find_simplex(H(q))), np.asarray(got.find_simplex(H(q), bruteforce=True))):
        np.testing.assert_array_equal(qc.in_their_numbers(s, want, g), w)
    # the transform of each simplex: its own vertices' barycentric map (rows in the new order)
    t = np.asarray(got.transform)
    c = np.einsum("sij,sj->si", t[:, :2, :], pts[s[:, 0]] - t[:, 2, :])
    np.testing.assert_allclose(c, np.eye(3)[0][None, :2].repeat(len(s), 0), atol=1e-8)
    np.testing.assert_allclose(np.asarray(got.plane_distance(H(q))), want.plane_distance(q)[:, perm],
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(np.asarray(got.lift_points(H(q))), want.lift_points(q), rtol=1e-15, atol=0)


def test_host_object_and_errors(host):
    sd = host("cuarray.scipy.spatial._delaunay")
    _, pts, want, got, _ = _case(host, "uniform", 7)
    s = np.asarray(got.simplices)
    h = sd.host_qhull(got)  # Qhull's of the same points, made once, for host work (Clough-Tocher)
    assert isinstance(h, ss.Delaunay) and sd.host_qhull(got) is h
    assert qc.canonical_simplices(h.simplices) == qc.canonical_simplices(s)
    with pytest.raises(RuntimeError) as theirs:  # (SciPy's type and message)
        want.add_points(pts[:3])
    with pytest.raises(RuntimeError, match="incremental") as ours:
        got.add_points(H(pts[:3]))
    assert str(ours.value) == str(theirs.value)
    got.close()  # (nothing to release: SciPy's close of a non-incremental object is fine too)
