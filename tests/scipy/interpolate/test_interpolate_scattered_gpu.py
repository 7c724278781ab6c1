"""Scattered-data interpolation on the GPU against scipy.interpolate (nearest by brute force,
linear with host triangulation and device weights, Clough-Tocher host)."""

from __future__ import annotations

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
