"""cuarray's Delaunay, ConvexHull (3-D and up, incremental) and HalfspaceIntersection on the host
shim (NumPy in place of the device) against SciPy: Qhull's arrays, the device transform,
find_simplex (with SciPy's rule for degenerate simplices), plane_distance, lift_points, errors.
The GPU tests run the same checks on the device (test_delaunay_gpu.py)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

ss = pytest.importorskip("scipy.spatial")

from . import _host_shim  # noqa: E402
from . import _qhull_checks as qc  # noqa: E402
from ._host_shim import H  # noqa: E402


@pytest.fixture(scope="module")
def host():
    """cuarray.scipy.spatial's private copies on the host shim: ``host("cuarray.scipy.spatial.x")``."""
    return _host_shim.HostSpatial()


def _np(x):
    return np.asarray(x)


@pytest.mark.parametrize("ndim", [2, 3])
@pytest.mark.parametrize("kind", ["random", "duplicates", "lattice", "float32", "clustered"])
def test_delaunay_against_scipy(host, ndim, kind):
    cs = host("cuarray.scipy.spatial")

    pts = qc.point_sets(ndim)[kind]
    qc.check_delaunay(cs, H, _np, pts, kind)


def test_delaunay_blocks_and_degenerate_rule(host, monkeypatch):
    cs = host("cuarray.scipy.spatial")
    _delaunay = host("cuarray.scipy.spatial._delaunay")

    monkeypatch.setattr(_delaunay, "BLOCK_ELEMENTS", 50)  # one query per block
    pts = qc.point_sets(2)["random"]
    qc.check_delaunay(cs, H, _np, pts, "blocks")
    monkeypatch.setattr(_delaunay, "WALK_QUERIES", 7)  # several walk chunks
    qc.check_delaunay(cs, H, _np, qc.point_sets(2)["clustered"], "walk chunks")
    monkeypatch.setattr(_delaunay, "WALK_STEPS", 1)  # most walks unfinished: the brute-force rest
    qc.check_delaunay(cs, H, _np, qc.point_sets(3)["random"], "short walks")
    # flat tetrahedra of a lattice: SciPy's NaN transforms and its neighbour rule (sqrt(eps) leeway)
    lattice = qc.point_sets(3)["lattice"]
    tri, want = cs.Delaunay(H(lattice)), ss.Delaunay(lattice)
    flat = np.flatnonzero(np.isnan(want.transform[:, 0, 0]))
    assert len(flat) > 0
    np.testing.assert_array_equal(np.isnan(_np(tri.transform)), np.isnan(want.transform))
    q = lattice[want.simplices[flat]].mean(axis=1)  # on the faces the flat simplices share
    q = np.concatenate([q, q + 1e-9, q - 1e-9])
    np.testing.assert_array_equal(_np(tri.find_simplex(H(q), bruteforce=True)), want.find_simplex(q, bruteforce=True))


def test_degenerate_events_order(host):
    # the order of tests: simplex 0 (valid), then degenerate 1's neighbours 2 and 0 by face, then 2
    _delaunay = host("cuarray.scipy.spatial._delaunay")

    t = np.zeros((3, 3, 2))
    t[1] = np.nan
    nb = np.array([[1, -1, -1], [2, 0, -1], [1, -1, -1]])
    valid, pairs, lower, order, answers = _delaunay._degenerate_events(H(t), nb, 2, 1e-14)
    assert list(valid) == [0, 2] and list(pairs) == [2, 0]
    assert list(answers) == [0, 2, 0, 2]
    np.testing.assert_array_equal(lower[0], [-1e-7, -1e-14, -1e-14])


@pytest.mark.parametrize("ndim", [3, 4])
def test_convex_hull_host_qhull(host, ndim):
    cs = host("cuarray.scipy.spatial")

    r = qc.rng("hull", ndim)
    pts = r.normal(size=(60, ndim))
    qc.check_hull(cs, H, _np, pts)
    qc.check_hull(cs, H, _np, np.concatenate([pts, pts[:4]]))              # duplicates
    qc.check_hull(cs, H, _np, r.random((30, 2)), qhull_options="QJ")        # 2-D with options: host Qhull


def test_convex_hull_incremental(host):
    cs = host("cuarray.scipy.spatial")

    r = qc.rng("incremental")
    a, b = r.random((20, 3)), r.random((15, 3)) * 2
    got, want = cs.ConvexHull(H(a), incremental=True), ss.ConvexHull(a, incremental=True)
    got.add_points(H(b))
    want.add_points(b)
    np.testing.assert_array_equal(_np(got.vertices), want.vertices)
    assert np.isclose(got.volume, want.volume)
    got.close()
    with pytest.raises(RuntimeError, match="incremental"):
        got.add_points(H(b))
    with pytest.raises(RuntimeError, match="incremental"):
        cs.ConvexHull(H(r.random((9, 2)))).add_points(H(b[:, :2]))
    d = cs.Delaunay(H(a), incremental=True)
    w = ss.Delaunay(a, incremental=True)
    d.add_points(H(b))
    w.add_points(b)
    assert qc.canonical_simplices(_np(d.simplices)) == qc.canonical_simplices(w.simplices)
    np.testing.assert_allclose(_np(d.transform), w.transform, rtol=1e-9, atol=1e-9)


def test_halfspace_intersection(host):
    cs = host("cuarray.scipy.spatial")

    hs = np.array([[-1.0, 0, 0], [0, -1, 0], [1, 0, -2], [0, 1, -2], [1, 1, -3]])
    qc.check_halfspaces(cs, H, _np, hs, np.array([0.5, 0.5]))
    r = qc.rng("halfspaces")
    normals = r.normal(size=(30, 3))
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    qc.check_halfspaces(cs, H, _np, np.c_[normals, -np.ones(30)], np.zeros(3))
    with pytest.raises(cs.QhullError):
        cs.HalfspaceIntersection(H(hs), H(np.array([5.0, 5.0])))  # the point is outside
    got = cs.HalfspaceIntersection(H(hs), np.array([0.5, 0.5]))  # a host NumPy interior point, as SciPy takes it
    np.testing.assert_allclose(_np(got.intersections), ss.HalfspaceIntersection(hs, np.array([0.5, 0.5])).intersections)


def test_errors_as_scipy(host):
    cs = host("cuarray.scipy.spatial")

    cases = [np.c_[np.arange(5.0), 2 * np.arange(5.0)],           # collinear
             np.random.default_rng(0).random((3, 2))[:2],          # too few points
             np.c_[np.random.default_rng(1).random((9, 2)), np.zeros(9)]]  # coplanar in 3-D
    for pts in cases:
        with pytest.raises(ss.QhullError):
            ss.Delaunay(pts)
        with pytest.raises(cs.QhullError) as info:
            cs.Delaunay(H(pts))
        assert isinstance(info.value, ValueError) and "QH" in str(info.value)
    with pytest.raises(cs.QhullError):
        cs.ConvexHull(H(cases[2]))
    with pytest.raises(ValueError, match="2-D"):
        cs.Delaunay(H(np.zeros((5, 1))))
    with pytest.raises(ValueError, match="NaN"):
        cs.Delaunay(H(np.array([[0.0, 0.0], [1, 0], [0, 1], [np.nan, 1]])))
    tri = cs.Delaunay(H(np.random.default_rng(2).random((10, 2))))
    with pytest.raises(ValueError, match="wrong dimensionality in xi"):
        tri.find_simplex(H(np.zeros((4, 3))))
    with pytest.raises(ValueError, match="different dimensionality"):
        tri.plane_distance(H(np.zeros((4, 3))))
    with pytest.raises(ValueError, match="nonnegative"):
        tri.find_simplex(H(np.zeros((4, 2))), tol=-1.0)
    # a Python list is a literal of the program: copied, as cupyx does (docs/scipy.md, "Host inputs")
    assert cs.Delaunay([[0.0, 0.0], [1, 0], [0, 1]]).simplices.shape == (1, 3)


@pytest.mark.parametrize("ndim", [2, 3])
def test_voronoi_and_tsearch(host, ndim):
    cs = host("cuarray.scipy.spatial")

    sets = qc.point_sets(ndim)
    for kind in ("random", "duplicates", "lattice"):
        qc.check_voronoi(cs, H, _np, sets[kind])
    qc.check_voronoi(cs, H, _np, sets["random"], furthest_site=True)
    with pytest.raises(cs.QhullError):
        cs.Voronoi(H(np.c_[np.arange(5.0), 2 * np.arange(5.0)] if ndim == 2 else np.zeros((6, 3))))
    tri, want = cs.Delaunay(H(sets["random"])), ss.Delaunay(sets["random"])
    q = qc.rng("tsearch", ndim).random((50, ndim))
    np.testing.assert_array_equal(qc.in_their_numbers(_np(tri.simplices), want, _np(cs.tsearch(tri, H(q)))),
                                  ss.tsearch(want, q))
    v = cs.Voronoi(H(sets["random"][:20]), incremental=True)
    w = ss.Voronoi(sets["random"][:20], incremental=True)
    v.add_points(H(sets["random"][20:]))
    w.add_points(sets["random"][20:])
    assert v.regions == w.regions
    np.testing.assert_array_equal(_np(v.point_region), w.point_region)


def test_signatures_are_scipys():
    import cuarray.scipy.spatial as cs

    for name, meths in (("Delaunay", ("__init__", "find_simplex", "plane_distance", "lift_points", "add_points",
                                      "close")),
                        ("ConvexHull", ("__init__", "add_points", "close")),
                        ("HalfspaceIntersection", ("__init__", "add_halfspaces", "close")),
                        ("Voronoi", ("__init__", "add_points", "close"))):
        for m in meths:
            assert inspect.signature(getattr(getattr(cs, name), m)) == inspect.signature(getattr(getattr(ss, name), m))
    assert inspect.signature(cs.tsearch) == inspect.signature(ss.tsearch)


@pytest.mark.parametrize("case", ["random", "two", "small", "near-pi", "uneven"])
def test_rotation_spline(host, case):
    ct = host("cuarray.scipy.spatial.transform")

    from . import _spline_checks as sc

    name, times, quats = next(c for c in sc.cases() if c[0] == case)
    sc.check(ct, H, _np, name, times, quats)


def test_rotation_spline_errors_and_signature(host):
    ct = host("cuarray.scipy.spatial.transform")
    import scipy.spatial.transform as st

    for m in ("__init__", "__call__"):
        assert inspect.signature(getattr(ct.RotationSpline, m)) == inspect.signature(getattr(st.RotationSpline, m))
    r = ct.Rotation.from_quat(H(np.random.default_rng(0).normal(size=(4, 4))))
    bad = [((H(np.arange(3.0)), r), "number of rotations"), ((H(np.array([0.0, 1, 1, 2])), r), "increasing"),
           ((H(np.arange(4.0).reshape(2, 2)), r), "1-dimensional"), ((H(np.arange(1.0)), r[:1]), "at least 2"),
           ((H(np.arange(1.0)), r[0]), "sequence")]
    for args, msg in bad:
        with pytest.raises(ValueError, match=msg):
            ct.RotationSpline(*args)
    s = ct.RotationSpline(H(np.arange(4.0)), r)
    with pytest.raises(ValueError, match="order"):
        s(1.0, 3)
    with pytest.raises(ValueError, match="at most 1-dimensional"):
        s(H(np.zeros((2, 2))))
