"""Krogh, barycentric and Floater-Hormann evaluation on the GPU against scipy.interpolate."""

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


def close(got, ref, tol=1e-9):
    got = got.get()
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_krogh_and_barycentric(dtype):
    rng = _rng("polyint", dtype)
    xi = np.array([0.0, 0.0, 1.0, 2.0, 2.5, 3.5, 4.0])
    yi = rng.normal(size=(7, 2)).astype(dtype)
    x = np.concatenate((rng.uniform(-0.5, 4.5, 40), xi[2:4]))
    k_ref, k_got = si.KroghInterpolator(xi, yi), ci.KroghInterpolator(G(xi), G(yi))
    close(k_got(G(x)), k_ref(x), 1e-6)
    close(k_got.derivatives(G(x), 3), k_ref.derivatives(x, 3), 1e-6)
    xb = np.cos(np.linspace(0, np.pi, 15))
    yb = rng.normal(size=(15, 3)).astype(dtype)
    b_ref = si.BarycentricInterpolator(xb, yb, rng=np.random.default_rng(3))
    b_got = ci.BarycentricInterpolator(G(xb), G(yb), rng=np.random.default_rng(3))
    xq = np.concatenate((rng.uniform(-1, 1, 50), xb[:2]))
    close(b_got(G(xq)), b_ref(xq), 1e-8)
    close(b_got.derivative(G(xq), 2), b_ref.derivative(xq, 2), 1e-6)
    close(ci.barycentric_interpolate(G(xb), G(yb), G(xq[:0])), si.barycentric_interpolate(xb, yb, xq[:0]))


def test_floater_hormann():
    rng = _rng("fh")
    x = np.sort(rng.uniform(0, 5, 30))
    y = np.sin(x)
    z = np.concatenate((rng.uniform(-1, 6, 50), x[:3]))
    ref, got = si.FloaterHormannInterpolator(x, y), ci.FloaterHormannInterpolator(G(x), G(y))
    close(got(G(z)), ref(z))
