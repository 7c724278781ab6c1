"""Scattered-data interpolation without a device (NumPy namespace: conftest.py) against
scipy.interpolate: nearest (brute force), linear (host triangulation, barycentric weights in the
namespace), Clough-Tocher (host), griddata's dispatch, rescale, complex and batched values."""

import numpy as np
import pytest
import scipy.interpolate as si

RNG = np.random.default_rng(5314)


def close(got, ref, tol=1e-10):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("method", ["nearest", "linear", "cubic"])
@pytest.mark.parametrize("rescale", [False, True])
def test_griddata_2d(host_interpolate, method, rescale):
    pts = RNG.uniform(0, 1, (60, 2)) * [1.0, 50.0]
    vals = np.sin(3 * pts[:, 0]) + pts[:, 1] / 50 + 1j * (pts[:, 0] if method != "cubic" else 0)
    xi = RNG.uniform(-0.1, 1.1, (40, 2)) * [1.0, 50.0]
    ref = si.griddata(pts, vals, xi, method=method, rescale=rescale)
    close(host_interpolate.griddata(pts, vals, xi, method=method, rescale=rescale), ref)


def test_linear_3d_batched_and_tuple_queries(host_interpolate):
    pts = RNG.uniform(0, 1, (50, 3))
    vals = RNG.normal(size=(50, 2, 2))
    gx, gy, gz = np.meshgrid(*[np.linspace(0, 1, 4)] * 3, indexing="ij")
    ref = si.LinearNDInterpolator(pts, vals, fill_value=-1.0)((gx, gy, gz))
    close(host_interpolate.LinearNDInterpolator(pts, vals, fill_value=-1.0)((gx, gy, gz)), ref)
    ref = si.NearestNDInterpolator(pts, vals)(gx, gy, gz)
    close(host_interpolate.NearestNDInterpolator(pts, vals)(gx, gy, gz), ref)


def test_griddata_1d(host_interpolate):
    pts = RNG.uniform(0, 1, 20)
    vals = RNG.normal(size=20)
    xi = np.linspace(-0.1, 1.1, 15)
    for method in ("nearest", "linear", "cubic"):
        close(host_interpolate.griddata(pts, vals, xi, method=method), si.griddata(pts, vals, xi, method=method))
    with pytest.raises(ValueError):
        host_interpolate.griddata(RNG.uniform(size=(10, 3)), vals[:10], RNG.uniform(size=(2, 3)), method="cubic")


def test_nearest_refuses_non_finite_points_as_scipy(host_interpolate):
    pts, vals = RNG.uniform(0, 1, (30, 2)), RNG.normal(size=30)
    xi = RNG.uniform(0, 1, (5, 2))
    xi[2, 1] = np.inf
    for lib in (si, host_interpolate):
        with pytest.raises(ValueError, match="'x' must be finite"):
            lib.NearestNDInterpolator(pts, vals)(xi)
        with pytest.raises(ValueError, match="'x' must be finite"):
            lib.griddata(pts, vals, xi, method="nearest")
        bad = pts.copy()
        bad[3, 0] = np.nan
        with pytest.raises(ValueError, match="data must be finite"):
            lib.NearestNDInterpolator(bad, vals)
    close(host_interpolate.NearestNDInterpolator(pts, vals)(xi[:2]), si.NearestNDInterpolator(pts, vals)(xi[:2]))


def _module_of(host_interpolate):
    """The globals of the host copy of _ndgriddata (its KDTree and Delaunay: spatial's host copies)."""
    return host_interpolate.LinearNDInterpolator.__init__.__globals__


def test_linear_locates_with_spatial_delaunay_not_host_qhull(host_interpolate, monkeypatch):
    """The simplices come from cuarray.scipy.spatial's Delaunay.find_simplex (the device walk), never
    from SciPy's find_simplex on host copies (what the old _HostTriangulation did)."""
    import scipy.spatial as ss

    def refused(*a, **k):
        raise AssertionError("host find_simplex called")

    pts, xi = RNG.uniform(0, 1, (80, 2)), RNG.uniform(-0.2, 1.2, (64, 2))
    vals = RNG.normal(size=80)
    ref = si.griddata(pts, vals, xi)  # SciPy's own walk, before it is refused
    mod = _module_of(host_interpolate)
    calls = []
    real = mod["Delaunay"].find_simplex
    monkeypatch.setattr(mod["Delaunay"], "find_simplex", lambda self, *a, **k: calls.append(a) or real(self, *a, **k))
    monkeypatch.setattr(ss.Delaunay, "find_simplex", refused)
    close(host_interpolate.griddata(pts, vals, xi), ref)
    assert len(calls) == 1 and np.asarray(calls[0][0]).shape == (64, 2)


def test_nearest_queries_the_spatial_kdtree(host_interpolate, monkeypatch):
    """One KDTree query for all the points (no distances to every data point): the old brute force
    made an (m, n) distance product."""
    mod = _module_of(host_interpolate)
    seen = []
    real = mod["KDTree"].query
    monkeypatch.setattr(mod["KDTree"], "query", lambda self, x, **k: seen.append((np.shape(x), k)) or real(self, x, **k))
    pts, vals, xi = RNG.uniform(0, 1, (50, 3)), RNG.normal(size=50), RNG.uniform(0, 1, (4, 5, 3))
    close(host_interpolate.griddata(pts, vals, xi, method="nearest"), si.griddata(pts, vals, xi, method="nearest"))
    assert seen == [((20, 3), {})]


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int64"])
def test_nearest_query_options_and_upper_bound(host_interpolate, dtype):
    """query_options reach KDTree.query; a query with no point within distance_upper_bound is NaN
    (SciPy 1.12+), complex NaN for complex values; real values come back float64 as SciPy's."""
    pts = RNG.uniform(0, 1, (40, 2))
    vals = (RNG.normal(size=(40, 2)) * 10).astype(dtype)
    if dtype.startswith("complex"):
        vals = vals + 1j * RNG.normal(size=(40, 2))
    xi = RNG.uniform(-1, 2, (30, 2))
    for opts in ({}, {"distance_upper_bound": 0.2}, {"p": 1, "distance_upper_bound": 0.3}, {"p": np.inf, "eps": 0.0}):
        ref = si.NearestNDInterpolator(pts, vals)(xi, **opts)
        got = host_interpolate.NearestNDInterpolator(pts, vals)(xi, **opts)
        close(got, ref)
        if opts.get("distance_upper_bound"):
            assert np.isnan(ref).any() and np.isnan(got).any()


def test_nearest_tree_options_reach_the_tree(host_interpolate):
    pts, vals = RNG.uniform(0, 1, (20, 2)), RNG.normal(size=20)
    for lib in (si, host_interpolate):
        with pytest.raises(ValueError, match="leafsize"):
            lib.NearestNDInterpolator(pts, vals, tree_options={"leafsize": 0})
    ip = host_interpolate.NearestNDInterpolator(pts, vals, tree_options={"leafsize": 4, "balanced_tree": False})
    close(ip(pts[:5]), vals[:5])


def test_delaunay_as_points(host_interpolate):
    """A Delaunay as `points`: cuarray's (here its host copy) or SciPy's, used as it is (no second
    triangulation); rescale is refused with SciPy's message; griddata refuses it (SciPy: TypeError)."""
    import scipy.spatial as ss

    pts = RNG.uniform(0, 1, (60, 2))
    vals = RNG.normal(size=(60, 3)) + 1j * RNG.normal(size=(60, 3))
    xi = RNG.uniform(-0.1, 1.1, (50, 2))
    host_tri = ss.Delaunay(pts)
    ours = _module_of(host_interpolate)["Delaunay"](pts)
    for name in ("LinearNDInterpolator", "CloughTocher2DInterpolator", "NearestNDInterpolator"):
        ref = getattr(si, name)(host_tri, vals)(xi)
        for tri in (ours, host_tri):
            ip = getattr(host_interpolate, name)(tri, vals)
            close(ip(xi), ref)
        with pytest.raises(ValueError, match="Rescaling is not supported"):
            getattr(host_interpolate, name)(ours, vals, rescale=True)
    assert host_interpolate.LinearNDInterpolator(host_tri, vals).tri._h is host_tri
    for lib in (si, host_interpolate):
        with pytest.raises(TypeError):
            lib.griddata(host_tri, vals, xi)


def test_points_on_vertices_edges_and_outside(host_interpolate):
    """Queries at the data points, on edges shared by two triangles, on the hull and outside it:
    any simplex that holds a point gives its value (linear interpolation is continuous)."""
    import scipy.spatial as ss

    g = np.linspace(0, 1, 5)
    pts = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)  # a lattice: many cocircular quadruples
    pts = np.concatenate([pts, RNG.uniform(0.05, 0.95, (10, 2))])
    vals = np.sin(4 * pts[:, 0]) * pts[:, 1]
    tri = ss.Delaunay(pts)
    edges = pts[tri.simplices[:, [0, 1, 2]]] + pts[tri.simplices[:, [1, 2, 0]]]
    xi = np.concatenate([pts, edges.reshape(-1, 2) / 2, [[1.5, 0.5], [-1e-3, 0.5], [0.5, 1 + 1e-12]]])
    for fill in (np.nan, -7.0):
        ref = si.LinearNDInterpolator(pts, vals, fill_value=fill)(xi)
        close(host_interpolate.LinearNDInterpolator(pts, vals, fill_value=fill)(xi), ref)


def test_linear_nan_queries_and_values(host_interpolate):
    pts = RNG.uniform(0, 1, (40, 2))
    vals = RNG.normal(size=40)
    vals[3] = np.nan
    xi = RNG.uniform(0, 1, (30, 2))
    xi[0, 0], xi[1] = np.nan, np.inf
    close(host_interpolate.LinearNDInterpolator(pts, vals, fill_value=2.0)(xi),
          si.LinearNDInterpolator(pts, vals, fill_value=2.0)(xi))


@pytest.mark.parametrize("cls", ["LinearNDInterpolator", "NearestNDInterpolator", "CloughTocher2DInterpolator"])
def test_errors_as_scipy(host_interpolate, cls):
    pts, vals = RNG.uniform(0, 1, (20, 2)), RNG.normal(size=20)
    cases = [(RNG.uniform(size=20), vals), (RNG.uniform(size=(20, 1)), vals), (pts, vals[:5]),
             (RNG.uniform(size=(20, 2, 1)), vals)]
    if cls == "CloughTocher2DInterpolator":
        cases.append((RNG.uniform(size=(20, 3)), vals))
    for args in cases:
        with pytest.raises(ValueError) as want:
            getattr(si, cls)(*args)
        with pytest.raises(ValueError) as got:
            getattr(host_interpolate, cls)(*args)
        if cls != "NearestNDInterpolator":  # the Nearest tree's messages are the spatial module's
            assert str(got.value) == str(want.value)
    ip, ref = getattr(host_interpolate, cls)(pts, vals), getattr(si, cls)(pts, vals)
    for xi in (RNG.uniform(size=(3, 3)), RNG.uniform(size=3)):
        with pytest.raises(ValueError):
            ref(xi)
        with pytest.raises(ValueError):
            ip(xi)
    close(ip(pts[:2].ravel()), ref(pts[:2].ravel()))  # 1-D xi: rows of ndim
    if cls != "NearestNDInterpolator":
        with pytest.raises(ValueError, match="simplex_tolerance must be positive"):
            ip(pts, simplex_tolerance=0)
