"""FITPACK's interface without a device (NumPy namespace, SciPy's NdBSpline as the kernel's model:
conftest.py) against scipy.interpolate: splrep/splev (every ext)/splint/sproot, the univariate
spline classes and RectBivariateSpline (grids, points, derivatives, clamping outside)."""

import inspect

import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

RNG = np.random.default_rng(5313)
NAMES = ["splrep", "splev", "splint", "sproot", "UnivariateSpline", "InterpolatedUnivariateSpline",
         "LSQUnivariateSpline", "RectBivariateSpline"]


def close(got, ref, tol=1e-10):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("name", NAMES)
def test_signatures(name):
    assert str(inspect.signature(getattr(ci, name))) == str(inspect.signature(getattr(si, name)))


@pytest.mark.parametrize("ext", [0, 1, 3])
@pytest.mark.parametrize("der", [0, 1, 2])
def test_splrep_splev(host_interpolate, ext, der):
    x = np.linspace(0, 6, 40)
    y = np.sin(x) + 0.05 * RNG.normal(size=40)
    tck = si.splrep(x, y, s=0.1)
    got = host_interpolate.splrep(x, y, s=0.1)
    close(got[0], tck[0])
    q = np.linspace(-1, 7, 50).reshape(5, 10)
    close(host_interpolate.splev(q, got, der, ext), si.splev(q, tck, der, ext), 1e-9)
    close(host_interpolate.splint(0.5, 7.0, got), si.splint(0.5, 7.0, tck), 1e-9)
    close(host_interpolate.sproot(got), si.sproot(tck))


def test_splev_raise(host_interpolate):
    tck = si.splrep(np.arange(10.0), np.arange(10.0) ** 2)
    with pytest.raises(ValueError):
        host_interpolate.splev(np.array([11.0]), tck, ext=2)
    with pytest.raises(ValueError):
        host_interpolate.splev(np.array([1.0]), tck, der=4)


def test_univariate_classes(host_interpolate):
    x = np.sort(RNG.uniform(0, 5, 30))
    y = np.cos(x) + 0.1 * RNG.normal(size=30)
    q = np.linspace(-1, 6, 25)
    for name, args in [("UnivariateSpline", (x, y)), ("InterpolatedUnivariateSpline", (x, y)),
                       ("LSQUnivariateSpline", (x, y, [1.0, 2.0, 3.5]))]:
        ref, got = getattr(si, name)(*args), getattr(host_interpolate, name)(*args)
        for ext in (0, 1, 3, "const"):
            close(got(q, ext=ext), ref(q, ext=ext), 1e-9)
        close(got(q, 1), ref(q, 1), 1e-9)
        close(got.derivative()(q), ref.derivative()(q), 1e-9)
        close(got.antiderivative()(q), ref.antiderivative()(q), 1e-9)
        close(got.get_knots(), ref.get_knots())
        assert got.integral(0.5, 3) == pytest.approx(ref.integral(0.5, 3))


@pytest.mark.parametrize("grid", [True, False])
def test_rect_bivariate(host_interpolate, grid):
    x, y = np.linspace(0, 3, 9), np.linspace(-1, 1, 7)
    z = RNG.normal(size=(9, 7))
    ref, got = si.RectBivariateSpline(x, y, z, s=0.5), host_interpolate.RectBivariateSpline(x, y, z, s=0.5)
    xq, yq = np.linspace(-0.5, 3.5, 6), np.linspace(-1.2, 1.2, 6)
    for dx, dy in [(0, 0), (1, 0), (1, 2)]:
        close(got(xq, yq, dx=dx, dy=dy, grid=grid), ref(xq, yq, dx=dx, dy=dy, grid=grid), 1e-9)
    close(got.ev(xq, yq), ref.ev(xq, yq), 1e-9)


@pytest.mark.parametrize("name", ["splprep", "spalde", "insert", "bisplrep", "bisplev", "make_splrep", "make_splprep",
                                  "generate_knots"])
def test_more_signatures(name):
    assert str(inspect.signature(getattr(ci, name))) == str(inspect.signature(getattr(si, name)))


def test_more_fitpack(host_interpolate):
    x = np.linspace(0, 2 * np.pi, 30)
    pts = [np.cos(x), np.sin(x)]
    (tck, u), (tck2, u2) = host_interpolate.splprep(pts, s=0.01), si.splprep(pts, s=0.01)
    close(u, u2)
    for a, b in zip(host_interpolate.splev(np.linspace(0, 1, 9), tck), si.splev(np.linspace(0, 1, 9), tck2)):
        close(a, b)
    y = np.sin(x) + 0.01 * RNG.normal(size=30)
    spl, ref = host_interpolate.make_splrep(x, y, s=0.05), si.make_splrep(x, y, s=0.05)
    close(spl(x), ref(x))
    tk = si.splrep(x, y)
    close(host_interpolate.spalde(np.array([1.0, 2.0]), tk), np.asarray(si.spalde(np.array([1.0, 2.0]), tk)))
    got_t, got_c, _ = host_interpolate.insert(3.0, tk)
    ref_t, ref_c, _ = si.insert(3.0, tk)
    n = len(ref_t) - 4  # (FITPACK's c is as long as t; its tail is padding of any value)
    close(got_t, ref_t)
    close(np.asarray(got_c)[:n], ref_c[:n])
    gx, gy = np.meshgrid(np.linspace(0, 1, 12), np.linspace(0, 2, 10), indexing="ij")
    z = np.sin(3 * gx) * gy
    btck, bref = host_interpolate.bisplrep(gx.ravel(), gy.ravel(), z.ravel(), s=0.1), si.bisplrep(
        gx.ravel(), gy.ravel(), z.ravel(), s=0.1)
    xq, yq = np.linspace(-0.1, 1.1, 7), np.linspace(0, 2, 5)
    close(host_interpolate.bisplev(xq, yq, btck), si.bisplev(xq, yq, bref), 1e-9)
    close(host_interpolate.bisplev(xq, yq, btck, dx=1, dy=1), si.bisplev(xq, yq, bref, dx=1, dy=1), 1e-9)
    knots = list(host_interpolate.generate_knots(x, y, s=0.05))
    close(knots[-1], list(si.generate_knots(x, y, s=0.05))[-1])
