"""RegularGridInterpolator, interpn and NdBSpline on the GPU against scipy.interpolate (the cubic
and quintic oracle: SciPy's direct sparse solve of the spline, as its default is iterative)."""

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
ssl = pytest.importorskip("scipy.sparse.linalg")

import cuarray  # noqa: E402
from cuarray.scipy import interpolate as ci  # noqa: E402

G = cuarray.asarray


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def close(got, ref, tol=1e-10):
    got = got.get()
    ref = np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


def grid(rng, shape, extra=(), dtype="float64"):
    pts = [np.cumsum(rng.uniform(0.2, 1.0, n)) for n in shape]
    v = rng.normal(size=tuple(shape) + extra)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.normal(size=v.shape)
    return pts, v.astype(dtype)


def exact(method):
    return {"solver": ssl.spsolve} if method in ("cubic", "quintic") else {}


@pytest.mark.parametrize("method", ["linear", "nearest", "slinear", "cubic", "quintic", "pchip"])
@pytest.mark.parametrize("shape,extra", [((9,), ()), ((7, 8), ()), ((6, 7, 8), (2,))], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_rgi(method, shape, extra, dtype):
    if method == "pchip" and dtype == "complex128":
        pytest.skip("pchip refuses complex values (tested in the CPU errors)")
    rng = _rng("rgi", method, shape, dtype)
    pts, v = grid(rng, shape, extra, dtype)
    xi = np.stack([rng.uniform(p[0] - 0.5, p[-1] + 0.5, 60) for p in pts], axis=-1)
    xi[0] = [p[0] for p in pts]
    xi[1, 0] = np.nan
    ref = si.RegularGridInterpolator(pts, v, method=method, bounds_error=False, **exact(method))(xi)
    got = ci.RegularGridInterpolator(tuple(G(p) for p in pts), G(v), method=method, bounds_error=False)
    close(got(G(xi)), ref, 1e-6 if dtype == "float32" else 1e-8)


def test_rgi_extrapolate_and_interpn():
    rng = _rng("rgi-extra")
    pts, v = grid(rng, (10, 11))
    xi = np.stack([rng.uniform(p[0] - 1, p[-1] + 1, (5, 7)) for p in pts], axis=-1)
    for method in ("linear", "cubic"):
        # interpn(...) is RegularGridInterpolator(...)(xi), whose cubic SciPy solves iteratively (gcrotmk,
        # ~1e-5, and far more off where it extrapolates): the oracle is the same call with the exact solve.
        ref = si.RegularGridInterpolator(pts, v, method, False, None, **exact(method))(xi)
        close(ci.interpn(tuple(G(p) for p in pts), G(v), G(xi), method, False, None), ref, 1e-8)
    f = ci.RegularGridInterpolator(tuple(G(p) for p in pts), G(v))
    with pytest.raises(ValueError, match="out of bounds"):
        f(G(xi))
    inner = np.clip(xi, [p[0] for p in pts], [p[-1] for p in pts])
    close(f(G(inner)), si.RegularGridInterpolator(pts, v)(inner), 1e-10)  # usable after the error


def test_ndbspline_derivatives():
    rng = _rng("ndbspl")
    pts, v = grid(rng, (8, 9), (3,))
    spl = si.RegularGridInterpolator(pts, v, method="cubic", solver=ssl.spsolve)._spline
    got = ci.NdBSpline(tuple(G(t) for t in spl.t), G(spl.c), spl.k)
    xi = np.stack([rng.uniform(p[0], p[-1], 40) for p in pts], axis=-1)
    close(got(G(xi)), spl(xi), 1e-10)
    close(got(G(xi), nu=(1, 2)), spl(xi, nu=(1, 2)), 1e-9)


def test_ndppoly():
    rng = _rng("ndppoly")
    c = rng.normal(size=(4, 3, 5, 6, 2))
    x = (np.cumsum(rng.uniform(0.2, 1, 6)), np.cumsum(rng.uniform(0.2, 1, 7)))
    ref, got = si.NdPPoly(c, x), ci.NdPPoly(G(c), tuple(G(v) for v in x))
    xi = np.stack([rng.uniform(v[0] - 0.3, v[-1] + 0.3, 40) for v in x], axis=-1)
    close(got(G(xi)), ref(xi), 1e-10)
    close(got(G(xi), nu=(2, 1)), ref(xi, nu=(2, 1)), 1e-9)
    close(got.antiderivative((1, 1))(G(xi)), ref.antiderivative((1, 1))(xi), 1e-9)
