"""Scattered-data interpolation on the GPU against scipy.interpolate: nearest through
cuarray.scipy.spatial.KDTree, linear through its Delaunay (device find_simplex, device weights),
Clough-Tocher on that triangulation with SciPy's host patches."""

from __future__ import annotations

import inspect
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.interpolate")

import cuarray  # noqa: E402
from cuarray.scipy import interpolate as ci  # noqa: E402

G = cuarray.asarray


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


@pytest.mark.parametrize("method", ["nearest", "linear", "cubic"])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_griddata(method, dtype):
    rng = _rng("griddata", method, dtype)
    pts = rng.uniform(0, 1, (200, 2))
    vals = (np.sin(3 * pts[:, 0]) + pts[:, 1]).astype(dtype)
    if dtype == "complex128":
        vals = vals + 1j * pts[:, 0]
    xi = rng.uniform(-0.1, 1.1, (300, 2))
    xi[0] = np.nan
    if method == "nearest":  # SciPy's KDTree query refuses a NaN point: so must we, then go on without it
        with pytest.raises(ValueError, match="must be finite"):
            si.griddata(pts, vals, xi, method=method)
        with pytest.raises(ValueError, match="must be finite"):
            ci.griddata(G(pts), G(vals), G(xi), method=method)
        xi = xi[1:]
    ref = si.griddata(pts, vals, xi, method=method)
    got = ci.griddata(G(pts), G(vals), G(xi), method=method).get()
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-10)


def test_linear_nd_batched_values():
    rng = _rng("linearnd")
    pts = rng.uniform(0, 1, (80, 3))
    vals = rng.normal(size=(80, 2))
    xi = rng.uniform(0, 1, (50, 3))
    ref = si.LinearNDInterpolator(pts, vals, fill_value=-2.0, rescale=True)(xi)
    got = ci.LinearNDInterpolator(G(pts), G(vals), fill_value=-2.0, rescale=True)(G(xi)).get()
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-10)


def _cmp(got, ref, tol=1e-10):
    got = got.get()
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("ndim", [2, 3])
@pytest.mark.parametrize("rescale", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_linear_and_nearest_random(ndim, rescale, dtype):
    rng = _rng("random", ndim, rescale, dtype)
    pts = rng.uniform(0, 1, (500, ndim)) * ([1.0, 100.0, 0.01][:ndim] if rescale else 1.0)
    vals = rng.normal(size=(500, 2, 2)).astype(dtype)
    if dtype == "complex128":
        vals = vals + 1j * rng.normal(size=vals.shape)
    xi = rng.uniform(-0.1, 1.1, (2000, ndim)) * ([1.0, 100.0, 0.01][:ndim] if rescale else 1.0)
    for name, kw in (("LinearNDInterpolator", {"fill_value": -3.0}), ("NearestNDInterpolator", {})):
        ref = getattr(si, name)(pts, vals, rescale=rescale, **kw)(xi)
        _cmp(getattr(ci, name)(G(pts), G(vals), rescale=rescale, **kw)(G(xi)), ref)


def test_delaunay_as_points():
    """cuarray's Delaunay (and SciPy's, used as it is) as `points`; rescale refused; griddata refuses it."""
    from cuarray.scipy import spatial as cs
    from scipy import spatial as ss

    rng = _rng("delaunay points")
    pts = rng.uniform(0, 1, (300, 2))
    vals = rng.normal(size=300) + 1j * rng.normal(size=300)
    xi = rng.uniform(-0.1, 1.1, (400, 2))
    host_tri, tri = ss.Delaunay(pts), cs.Delaunay(G(pts))
    for name in ("LinearNDInterpolator", "NearestNDInterpolator", "CloughTocher2DInterpolator"):
        ref = getattr(si, name)(host_tri, vals)(xi)
        for t in (tri, host_tri):
            _cmp(getattr(ci, name)(t, G(vals))(G(xi)), ref)
        with pytest.raises(ValueError, match="Rescaling is not supported"):
            getattr(ci, name)(tri, G(vals), rescale=True)
    assert ci.LinearNDInterpolator(tri, G(vals)).tri is tri
    with pytest.raises(TypeError):
        ci.griddata(tri, G(vals), G(xi))


@pytest.mark.parametrize("ndim", [2, 3])
def test_linear_on_vertices_edges_and_outside(ndim):
    """Queries at the vertices, edge midpoints, on the hull and just outside it: the values SciPy
    gives, whichever simplex holds the point. 2-D data on a lattice (cocircular cells); 3-D data
    random: a 3-D lattice has flat tetrahedra whose crossing edges give one point two values
    (seen with SciPy 1.17.1: its walk and ours pick different ones; docs/scipy-interpolate.md)."""
    from scipy import spatial as ss

    rng = _rng("edges", ndim)
    if ndim == 2:
        g = np.linspace(0, 1, 5)
        pts = np.concatenate([np.stack(np.meshgrid(g, g), -1).reshape(-1, 2), rng.uniform(0.05, 0.95, (10, 2))])
    else:
        pts = rng.uniform(0, 1, (60, 3))
    vals = np.sin(4 * pts[:, 0]) * pts[:, 1]
    s = ss.Delaunay(pts).simplices
    mids = (pts[s] + pts[np.roll(s, 1, axis=1)]).reshape(-1, ndim) / 2
    out = np.full((3, ndim), 0.5)
    out[0, 0], out[1, 0], out[2, -1] = 1.5, -1e-3, 1 + 1e-12
    xi = np.concatenate([pts, mids, out])
    for fill in (np.nan, -7.0):
        ref = si.LinearNDInterpolator(pts, vals, fill_value=fill)(xi)
        _cmp(ci.LinearNDInterpolator(G(pts), G(vals), fill_value=fill)(G(xi)), ref)
        _cmp(ci.griddata(G(pts), G(vals), G(xi), fill_value=fill), ref)


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_nearest_query_options(dtype):
    rng = _rng("nearest options", dtype)
    pts = rng.uniform(0, 1, (400, 2))
    vals = rng.normal(size=400).astype(dtype)
    xi = rng.uniform(-1, 2, (500, 2))
    ip, ref = ci.NearestNDInterpolator(G(pts), G(vals), tree_options={"leafsize": 8}), si.NearestNDInterpolator(pts, vals)
    for opts in ({}, {"distance_upper_bound": 0.05}, {"p": 1, "distance_upper_bound": 0.1}, {"p": np.inf}):
        _cmp(ip(G(xi), **opts), ref(xi, **opts))
    with pytest.raises(ValueError, match="leafsize"):
        ci.NearestNDInterpolator(G(pts), G(vals), tree_options={"leafsize": 0})


@pytest.mark.parametrize("rescale", [False, True])
def test_clough_tocher(rescale):
    rng = _rng("ct", rescale)
    pts = rng.uniform(0, 1, (300, 2)) * [1.0, 50.0]
    vals = np.stack([np.sin(3 * pts[:, 0]), pts[:, 1] / 50], -1) + 1j * pts[:, :1]
    xi = rng.uniform(-0.1, 1.1, (400, 2)) * [1.0, 50.0]
    ref = si.CloughTocher2DInterpolator(pts, vals, fill_value=-1.0, rescale=rescale)(xi)
    _cmp(ci.CloughTocher2DInterpolator(G(pts), G(vals), fill_value=-1.0, rescale=rescale)(G(xi)), ref)


def test_simplex_tolerance_and_errors():
    rng = _rng("tolerance")
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    vals = rng.normal(size=4)
    xi = np.array([[0.5, -1e-13], [-3e-14, 0.5], [0.5, 0.5]])  # just outside the hull
    ip = ci.LinearNDInterpolator(G(pts), G(vals))
    ref = si.LinearNDInterpolator(pts, vals)
    if "simplex_tolerance" in str(inspect.signature(ref.__call__)):  # SciPy 1.18
        for tol in (1.0, 10.0, 1e4):
            _cmp(ip(G(xi), simplex_tolerance=tol), ref(xi, simplex_tolerance=tol))
    else:
        _cmp(ip(G(xi)), ref(xi))
    with pytest.raises(ValueError, match="simplex_tolerance"):
        ip(G(xi), simplex_tolerance=0)
    with pytest.raises(ValueError, match="different number of values and points"):
        ci.LinearNDInterpolator(G(pts), G(vals[:3]))
    with pytest.raises(ValueError, match="number of dimensions in xi"):
        ip(G(rng.uniform(size=(3, 3))))


def test_griddata_large_uses_the_walk():
    """1e5 scattered points at 1e5 queries (the bench row's shape, smaller): SciPy's values."""
    rng = _rng("large")
    pts, xi = rng.uniform(0, 1, (100_000, 2)), rng.uniform(0, 1, (100_000, 2))
    vals = np.cos(5 * pts[:, 0]) * pts[:, 1]
    for method in ("linear", "nearest"):
        _cmp(ci.griddata(G(pts), G(vals), G(xi), method=method), si.griddata(pts, vals, xi, method=method), 1e-9)
