"""FITPACK's interface on the GPU (host fits, device evaluation) against scipy.interpolate."""

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


def close(got, ref, tol=1e-10):
    got = got.get()
    ref = np.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("ext", [0, 1, 3])
def test_splrep_splev_splint(ext):
    rng = _rng("splev", ext)
    x = np.linspace(0, 6, 50)
    y = np.sin(x) + 0.05 * rng.normal(size=50)
    tck = si.splrep(x, y, s=0.1)
    got = ci.splrep(G(x), G(y), s=0.1)
    q = rng.uniform(-1, 7, (4, 30))
    for der in (0, 1, 3):
        close(ci.splev(G(q), got, der, ext), si.splev(q, tck, der, ext), 1e-9)
    close(ci.splint(0.3, 6.5, got), si.splint(0.3, 6.5, tck), 1e-9)
    with pytest.raises(ValueError):
        ci.splev(G(q), got, 0, 2)


def test_univariate_and_bivariate():
    rng = _rng("fitpack-classes")
    x = np.sort(rng.uniform(0, 5, 40))
    y = np.cos(x) + 0.1 * rng.normal(size=40)
    q = rng.uniform(-1, 6, 64)
    ref, got = si.UnivariateSpline(x, y), ci.UnivariateSpline(G(x), G(y))
    close(got(G(q)), ref(q), 1e-9)
    close(got.derivative(2)(G(q)), ref.derivative(2)(q), 1e-9)
    gx, gy = np.linspace(0, 3, 12), np.linspace(-1, 1, 9)
    z = rng.normal(size=(12, 9))
    rb, rg = si.RectBivariateSpline(gx, gy, z), ci.RectBivariateSpline(G(gx), G(gy), G(z))
    xq, yq = np.sort(rng.uniform(-0.2, 3.2, 7)), np.sort(rng.uniform(-1.1, 1.1, 5))
    close(rg(G(xq), G(yq)), rb(xq, yq), 1e-9)
    close(rg(G(xq), G(yq), dx=1, dy=1), rb(xq, yq, dx=1, dy=1), 1e-8)
    close(rg.ev(G(xq[:5]), G(yq)), rb.ev(xq[:5], yq), 1e-9)


def test_bisplrep_bisplev_and_splprep():
    rng = _rng("bisplev")
    gx, gy = np.meshgrid(np.linspace(0, 1, 12), np.linspace(0, 2, 10), indexing="ij")
    z = np.sin(3 * gx) * gy + 0.01 * rng.normal(size=gx.shape)
    ref = si.bisplrep(gx.ravel(), gy.ravel(), z.ravel(), s=0.1)
    got = ci.bisplrep(G(gx.ravel()), G(gy.ravel()), G(z.ravel()), s=0.1)
    xq, yq = np.linspace(-0.1, 1.1, 9), np.linspace(0, 2, 6)
    close(ci.bisplev(G(xq), G(yq), got), si.bisplev(xq, yq, ref), 1e-9)
    close(ci.bisplev(G(xq), G(yq), got, dx=1), si.bisplev(xq, yq, ref, dx=1), 1e-9)
    x = np.linspace(0, 2 * np.pi, 40)
    tck, u = ci.splprep([G(np.cos(x)), G(np.sin(x))], s=0.01)
    tck2, u2 = si.splprep([np.cos(x), np.sin(x)], s=0.01)
    for a, b in zip(ci.splev(G(u2), tck), si.splev(u2, tck2)):
        close(a, b, 1e-9)
