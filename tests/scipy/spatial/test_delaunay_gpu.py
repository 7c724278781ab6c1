"""cuarray's Delaunay, ConvexHull (3-D and up) and HalfspaceIntersection on the GPU against
SciPy's: a 2-D triangulation of points in general position is the GPU's (the same triangles in
its own order: `_qhull_checks.check_same_triangulation`), the others Qhull's on the host (their
arrays compared exactly); the
device's transform (batched inverses) to 1e-9, find_simplex exactly for random queries (no point
on a shared face), plane_distance and lift_points to 1e-9 (GEMM against SciPy's loops)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

ss = pytest.importorskip("scipy.spatial")

import cuarray  # noqa: E402
from cuarray.scipy import spatial as cs  # noqa: E402
from cuarray.scipy.spatial import _delaunay  # noqa: E402

from . import _qhull_checks as qc  # noqa: E402

G = cuarray.asarray


def _h(x):
    return x.get()


@pytest.mark.parametrize("ndim", [2, 3])
@pytest.mark.parametrize("kind", ["random", "duplicates", "lattice", "float32", "clustered"])
def test_delaunay_against_scipy(ndim, kind):
    tri = qc.check_delaunay(cs, G, _h, qc.point_sets(ndim)[kind], kind)
    assert isinstance(tri.transform, cuarray.ndarray) and isinstance(tri.simplices, cuarray.ndarray)


@pytest.mark.parametrize("ndim, n", [(2, 3000), (3, 400)])
def test_find_simplex_many_blocks(ndim, n, monkeypatch):
    monkeypatch.setattr(_delaunay, "BLOCK_ELEMENTS", 1 << 16)
    r = qc.rng("many", ndim)
    pts = r.random((n, ndim))
    tri, want = cs.Delaunay(G(pts)), ss.Delaunay(pts)
    q = r.random((2000, ndim)) * 1.2 - 0.1

    def theirs(found):  # (2-D: the GPU triangulation numbers the same triangles in its own order)
        return qc.in_their_numbers(tri.simplices.get(), want, found.get())

    np.testing.assert_array_equal(theirs(tri.find_simplex(G(q))), want.find_simplex(q))
    np.testing.assert_array_equal(theirs(tri.find_simplex(G(q), bruteforce=True)), want.find_simplex(q))
    monkeypatch.setattr(_delaunay, "WALK_QUERIES", 300)  # several walk chunks
    np.testing.assert_array_equal(theirs(tri.find_simplex(G(q))), want.find_simplex(q))
    monkeypatch.setattr(_delaunay, "WALK_STEPS", 2)  # unfinished walks end in the brute force
    np.testing.assert_array_equal(theirs(tri.find_simplex(G(q))), want.find_simplex(q))
    np.testing.assert_array_equal(theirs(tri.find_simplex(G(q[:0]))), want.find_simplex(q[:0]))


@pytest.mark.parametrize("ndim", [3, 4])
def test_convex_hull_host_qhull(ndim):
    r = qc.rng("hull", ndim)
    pts = r.normal(size=(60, ndim))
    got, _ = qc.check_hull(cs, G, _h, pts)
    assert isinstance(got.vertices, cuarray.ndarray)
    qc.check_hull(cs, G, _h, np.concatenate([pts, pts[:4]]))
    qc.check_hull(cs, G, _h, pts.astype(np.float32).astype(np.float64))


@pytest.mark.parametrize("ndim", [2, 3])
def test_voronoi_and_tsearch(ndim):
    pts = qc.point_sets(ndim)["random"]
    v = qc.check_voronoi(cs, G, _h, pts)
    assert isinstance(v.vertices, cuarray.ndarray)
    qc.check_voronoi(cs, G, _h, qc.point_sets(ndim)["duplicates"])
    q = qc.rng("tsearch", ndim).random((50, ndim))
    tri, want = cs.Delaunay(G(pts)), ss.Delaunay(pts)
    np.testing.assert_array_equal(qc.in_their_numbers(tri.simplices.get(), want, cs.tsearch(tri, G(q)).get()),
                                  ss.tsearch(want, q))


def test_halfspace_intersection():
    hs = np.array([[-1.0, 0, 0], [0, -1, 0], [1, 0, -2], [0, 1, -2], [1, 1, -3]])
    qc.check_halfspaces(cs, G, _h, hs, np.array([0.5, 0.5]))
    with pytest.raises(cs.QhullError):
        cs.HalfspaceIntersection(G(hs), G(np.array([5.0, 5.0])))


def test_errors_and_library_usable():
    for pts in (np.c_[np.arange(5.0), 2 * np.arange(5.0)], np.c_[np.random.default_rng(1).random((9, 2)),
                                                                    np.zeros(9)]):
        with pytest.raises(cs.QhullError):
            cs.Delaunay(G(pts))
    with pytest.raises(cs.QhullError):
        cs.ConvexHull(G(np.c_[np.random.default_rng(1).random((9, 2)), np.zeros(9)]))
    tri = cs.Delaunay(G(np.random.default_rng(2).random((10, 2))))
    with pytest.raises(ValueError, match="wrong dimensionality in xi"):
        tri.find_simplex(G(np.zeros((4, 3))))
    assert int(cuarray.ones(3).sum()) == 3


def test_gpu_path_views_dtypes_and_threads():
    """The GPU triangulation of reversed, float32 and Fortran-ordered points, and from another
    thread: SciPy's triangles of the same (float64) values each time."""
    import threading

    pts = qc.rng("views", 2).random((2000, 2))
    for x in (G(pts)[::-1], G(pts.astype(np.float32)), G(np.asfortranarray(pts))):
        tri, want = cs.Delaunay(x), ss.Delaunay(x.get().astype(np.float64))
        assert tri._h is None and tri.points.dtype == np.float64 and tri.points.flags.c_contiguous
        assert qc.canonical_simplices(tri.simplices.get()) == qc.canonical_simplices(want.simplices)
        np.testing.assert_array_equal(tri.points.get(), want.points)
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("s", cs.Delaunay(G(pts)).simplices.get()))
    worker.start()
    worker.join()
    assert qc.canonical_simplices(out["s"]) == qc.canonical_simplices(ss.Delaunay(pts).simplices)
