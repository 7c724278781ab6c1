"""N-D interpolation without a device (NumPy namespace, SciPy's NdBSpline as the kernel's model:
conftest.py): RegularGridInterpolator/interpn/NdBSpline against scipy.interpolate, signatures and
errors."""

import inspect

import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

RNG = np.random.default_rng(531)


def close(got, ref, tol=1e-10):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("name", ["RegularGridInterpolator", "interpn", "NdBSpline"])
def test_signatures(name):
    assert str(inspect.signature(getattr(ci, name))) == str(inspect.signature(getattr(si, name)))


def grid(shape, extra=(), dtype=float, descending=()):
    pts = []
    for d, n in enumerate(shape):
        p = np.cumsum(RNG.uniform(0.2, 1.0, n))
        pts.append(p[::-1].copy() if d in descending else p)
    v = RNG.normal(size=tuple(shape) + extra)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * RNG.normal(size=v.shape)
    return pts, v.astype(dtype)


def exact(method):
    """SciPy's RGI solves the cubic/quintic tensor system iteratively (gcrotmk, tolerance ~1e-5);
    the oracle of the exact spline is its direct sparse solve."""
    import scipy.sparse.linalg as ssl

    return {"solver": ssl.spsolve} if method in ("cubic", "quintic") else {}


def inside(pts, m, pad=0.0):
    return np.stack([RNG.uniform(p.min() - pad, p.max() + pad, m) for p in pts], axis=-1)


@pytest.mark.parametrize("method", ["linear", "nearest", "slinear", "cubic", "quintic", "pchip"])
@pytest.mark.parametrize("shape,extra", [((7,), ()), ((6, 7), ()), ((6, 7, 8), (2,))], ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_rgi(host_interpolate, method, shape, extra, dtype):
    pts, v = grid(shape, extra, dtype=dtype, descending=(0,))
    xi = inside(pts, 25)
    xi[0] = [p[0] for p in pts]
    ref = si.RegularGridInterpolator(pts, v, method=method, **exact(method))(xi)
    got = host_interpolate.RegularGridInterpolator(pts, v, method=method)(xi)
    close(got, ref, 1e-5 if dtype == "float32" and method in ("pchip",) else 1e-8)
    xi[1, 0] = np.nan  # NaN: out of bounds for bounds_error=True, a NaN result otherwise
    with pytest.raises(ValueError, match="out of bounds in dimension 0"):
        host_interpolate.RegularGridInterpolator(pts, v, method=method)(xi)
    ref = si.RegularGridInterpolator(pts, v, method=method, bounds_error=False, **exact(method))(xi)
    close(host_interpolate.RegularGridInterpolator(pts, v, method=method, bounds_error=False)(xi), ref,
          1e-5 if dtype == "float32" and method in ("pchip",) else 1e-8)


@pytest.mark.parametrize("method", ["linear", "nearest", "cubic"])
@pytest.mark.parametrize("fill", [np.nan, None, -3.0], ids=str)
def test_rgi_fill_and_extrapolation(host_interpolate, method, fill):
    pts, v = grid((5, 6))
    xi = inside(pts, 30, pad=1.0)
    ref = si.RegularGridInterpolator(pts, v, method=method, bounds_error=False, fill_value=fill,
                                     **exact(method))(xi)
    got = host_interpolate.RegularGridInterpolator(pts, v, method=method, bounds_error=False, fill_value=fill)(xi)
    close(got, ref, 1e-8)
    close(host_interpolate.interpn(pts, v, xi, method, False, fill), ref, 1e-8)


def test_rgi_errors(host_interpolate):
    pts, v = grid((4, 5))
    f = host_interpolate.RegularGridInterpolator(pts, v)
    with pytest.raises(ValueError, match="out of bounds in dimension 1"):
        f(np.array([[pts[0][1], pts[1][-1] + 1]]))
    with pytest.raises(ValueError, match="have dimension 3"):
        f(np.zeros((2, 3)))
    for bad, kw in [((pts[0][::-1].copy() * np.array([1, 1, -1, 1]), pts[1]), {}), (pts, {"method": "bogus"}),
                    ((pts[0], pts[1][:3]), {}), (pts, {"method": "quintic"})]:
        with pytest.raises(ValueError) as ref:
            si.RegularGridInterpolator(bad, v, **kw)
        with pytest.raises(ValueError) as got:
            host_interpolate.RegularGridInterpolator(bad, v, **kw)
        assert str(got.value) == str(ref.value)


def test_ndbspline(host_interpolate):
    pts, v = grid((6, 7), (2,))
    spl = si.RegularGridInterpolator(pts, v, method="cubic")._spline
    got = host_interpolate.NdBSpline(spl.t, spl.c, spl.k)
    xi = inside(pts, 20)
    close(got(xi), spl(xi))
    close(got(xi, nu=(1, 2)), spl(xi, nu=(1, 2)))
    with pytest.raises(ValueError):
        host_interpolate.NdBSpline(spl.t, spl.c[:-1], spl.k)


def test_ndppoly(host_interpolate):
    c = RNG.normal(size=(3, 2, 4, 5, 2))
    x = (np.cumsum(RNG.uniform(0.2, 1, 5)), np.cumsum(RNG.uniform(0.2, 1, 6)))
    ref, got = si.NdPPoly(c, x), host_interpolate.NdPPoly(c, x)
    xi = np.stack([RNG.uniform(v[0] - 0.3, v[-1] + 0.3, 17) for v in x], axis=-1)
    close(got(xi), ref(xi))
    close(got(xi, nu=(1, 1)), ref(xi, nu=(1, 1)))
    close(got(xi, extrapolate=False), ref(xi, extrapolate=False))
    close(got.derivative((1, 0))(xi), ref.derivative((1, 0))(xi))
    close(got.antiderivative((1, 2))(xi), ref.antiderivative((1, 2))(xi), 1e-9)
    close(got.integrate_1d(x[0][0], x[0][-1] - 0.1, 0)(xi[:, 1:]), ref.integrate_1d(x[0][0], x[0][-1] - 0.1, 0)(xi[:, 1:]),
          1e-9)
    close(got.integrate([(x[0][1], x[0][3]), (x[1][0], x[1][2])]), ref.integrate([(x[0][1], x[0][3]), (x[1][0], x[1][2])]),
          1e-9)
