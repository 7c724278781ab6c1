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
