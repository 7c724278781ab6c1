"""The chirp z-transform, B-splines and symmetric IIR smoothing on the device against scipy.signal
on the host (SciPy 1.18 on the GPU machine): dtypes, batches, axes, views, short signals."""

import numpy as np
import pytest
import scipy.signal as ss

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import signal as cs  # noqa: E402

RNG = np.random.default_rng()


def data(shape, dtype):
    x = RNG.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=shape)
    return x.astype(dtype)


def close(got, ref, tol=None):
    assert isinstance(got, cuarray.ndarray), type(got)
    ref = np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    tol = tol or (2e-4 if ref.dtype.char in "fF" else 1e-9)
    np.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


CZT = [((16,), {}), ((1,), {}), ((100,), {"m": 37}), ((5, 64), {"m": 90, "w": 0.9995 * np.exp(-0.2j), "a": 1.05}),
       ((9,), {"w": 1.01, "a": 0.9}), ((4, 33, 3), {"axis": 1}), ((40, 6), {"axis": 0, "m": 2}),
       ((20011,), {}), ((3, 5001), {"m": 7000, "a": 1.0001})]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape, kw", CZT)
def test_czt(shape, kw, dtype):
    x = data(shape, dtype)
    close(cs.czt(cuarray.asarray(x), **kw), ss.czt(x, **kw))


def test_czt_views_zoom_points_and_errors():
    x = data((6, 80), np.float64)
    d = cuarray.asarray(x)
    close(cs.czt(d[::2, ::3]), ss.czt(x[::2, ::3]))
    close(cs.czt(d.T, axis=0), ss.czt(x.T, axis=0))
    for fn, kw in (([0.1, 0.4], {}), (0.5, {"m": 20}), ([1.0, 3.0], {"fs": 10, "endpoint": True, "m": 11})):
        close(cs.zoom_fft(d, fn, **kw), ss.zoom_fft(x, fn, **kw))
        f, g = cs.ZoomFFT(80, fn, **kw), ss.ZoomFFT(80, fn, **kw)
        close(f(d.T, axis=0), g(x.T, axis=0))
        close(f.points(), g.points())
    c, h = cs.CZT(80, 50, 0.999 * np.exp(-0.01j), 1.0), ss.CZT(80, 50, 0.999 * np.exp(-0.01j), 1.0)
    close(c(d), h(x))
    close(c.points(), h.points())
    for m, kw in ((5, {}), (6, {"w": 0.9j, "a": 2}), (1, {})):
        close(cs.czt_points(m, **kw), ss.czt_points(m, **kw))
    with pytest.raises(ValueError):
        cs.czt(cuarray.zeros((3, 0)))
    with pytest.raises(ValueError, match="CZT defined for length"):
        c(cuarray.ones(7))
    close(cs.czt(cuarray.asarray(x[0])), ss.czt(x[0]))  # usable after an error


def test_czt_long():
    x = data(3 * 10**5 + 7, np.float64)
    w = np.exp(-2j * np.pi / 5e5)
    close(cs.czt(cuarray.asarray(x), m=1000, w=w), ss.czt(x, m=1000, w=w), 1e-8)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 3, 50, 1000])
def test_cspline1d_qspline1d(n, dtype):
    x = data(n, dtype)
    d = cuarray.asarray(x)
    tol = 1e-6 if dtype == np.float32 else None  # (float64 results of float32 data)
    for lamb in (0.0, 0.5, 3.0):
        if not (lamb and n < 3):
            close(cs.cspline1d(d, lamb), ss.cspline1d(x, lamb), tol)
    close(cs.qspline1d(d), ss.qspline1d(x), tol)
    if n > 1:
        close(cs.cspline1d(d[::2]), ss.cspline1d(x[::2]), tol)


def test_spline_eval():
    x = data(40, np.float64)
    cj, qj = ss.cspline1d(x), ss.qspline1d(x)
    dc, dq = cuarray.asarray(cj), cuarray.asarray(qj)
    points = (np.linspace(-90, 130, 501), np.arange(-30, 70), np.linspace(0, 39, 9).astype(np.float32), np.array([]))
    for newx in points:
        for dx, x0 in ((1.0, 0), (0.5, 2)):
            dn = cuarray.asarray(newx)
            close(cs.cspline1d_eval(dc, dn, dx, x0), ss.cspline1d_eval(cj, newx, dx, x0))
            close(cs.qspline1d_eval(dq, dn, dx, x0), ss.qspline1d_eval(qj, newx, dx, x0))
    with pytest.raises(ValueError, match="must not be empty"):
        cs.cspline1d_eval(cuarray.zeros(0), cuarray.ones(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(50,), (4, 300)])
def test_symiirorder1(shape, dtype):
    x = data(shape, dtype)
    d = cuarray.asarray(x)
    for z1, precision in ((0.3, -1), (-0.5, 1e-3), (0.9, -1)):
        try:
            ref = ss.symiirorder1(x, 0.7, z1, precision)
        except ValueError:
            with pytest.raises(ValueError, match="did not converge"):
                cs.symiirorder1(d, 0.7, z1, precision)
            continue
        close(cs.symiirorder1(d, 0.7, z1, precision), ref)
    if len(shape) == 2:
        # SciPy's C start state (symiirorder1_ic: PyArray_FromObject, then PyArray_DATA read as
        # C-contiguous) ignores a view's strides, so its answer for x[:, ::2] is wrong; the oracle
        # is SciPy on the same values laid out densely
        for view in ((slice(None), slice(None, None, 2)), (slice(None, None, -2), slice(3, None, 3))):
            close(cs.symiirorder1(d[view], 0.7, 0.3), ss.symiirorder1(np.ascontiguousarray(x[view]), 0.7, 0.3))
        close(cs.symiirorder1(d[1, ::3], 0.7, 0.3), ss.symiirorder1(np.ascontiguousarray(x[1, ::3]), 0.7, 0.3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(80,), (4, 300)])
def test_symiirorder2(shape, dtype):
    x = data(shape, dtype)
    d = cuarray.asarray(x)
    for r, omega in ((0.5, 0.3), (0.8, 0.0), (0.3, np.pi), (0.9, 1.2)):
        for precision in (-1, 1e-3):
            try:
                ref = ss.symiirorder2(x, r, omega, precision)
            except ValueError:
                with pytest.raises(ValueError, match="did not converge"):
                    cs.symiirorder2(d, r, omega, precision)
                continue
            close(cs.symiirorder2(d, r, omega, precision), ref)
    if len(shape) == 2:  # strided batches (dense copies for SciPy, as in test_symiirorder1)
        for view in ((slice(None), slice(None, None, 2)), (slice(None, None, -2), slice(3, None, 3))):
            close(cs.symiirorder2(d[view], 0.5, 0.3), ss.symiirorder2(np.ascontiguousarray(x[view]), 0.5, 0.3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_2d_splines(dtype):
    img = data((60, 47), dtype)
    d = cuarray.asarray(img)
    for lamb in (0.0, 0.1, 2.0):
        close(cs.cspline2d(d, lamb), ss.cspline2d(img, lamb))
    close(cs.qspline2d(d), ss.qspline2d(img))
    close(cs.spline_filter(d), ss.spline_filter(img))
    close(cs.cspline2d(d.T), ss.cspline2d(img.T))
    big = data((120, 94), dtype)  # strided views (SciPy on dense copies)
    for view in ((slice(None, None, 2), slice(None, None, 2)), (slice(None, None, -1), slice(1, None, 2))):
        dv = cuarray.asarray(big)[view]
        for lamb in (0.0, 2.0):
            close(cs.cspline2d(dv, lamb), ss.cspline2d(np.ascontiguousarray(big[view]), lamb))
        close(cs.qspline2d(dv), ss.qspline2d(np.ascontiguousarray(big[view])))
    # SciPy computes a complex128 image in complex64 (its spline_filter casts, scipy#9209) and
    # returns complex128: its result has complex64's precision, so complex64's tolerance
    imgc = data((60, 47), np.complex128)
    close(cs.spline_filter(cuarray.asarray(imgc), 0.0), ss.spline_filter(imgc, 0.0), 2e-4)
    with pytest.raises(TypeError):
        cs.spline_filter(cuarray.ones((40, 40), dtype=np.int32))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.int64, np.complex128])
def test_sepfir2d_gauss_spline(dtype):
    img = (data((30, 21), dtype) * 5).astype(dtype)
    d = cuarray.asarray(img)
    for hrow, hcol in (([1.0, 2.0, 1.0], [1.0, 0.0, -1.0]), ([0.2, 0.5, 1.0, 0.5, 0.2], [1.0])):
        close(cs.sepfir2d(d, hrow, hcol), ss.sepfir2d(img, hrow, hcol))
    close(cs.sepfir2d(d[::2, ::-1], [1.0, 2.0, 1.0], [1.0]), ss.sepfir2d(img[::2, ::-1], [1.0, 2.0, 1.0], [1.0]))
    if dtype in (np.float32, np.float64):
        x = np.linspace(-5, 5, 101).astype(dtype)
        close(cs.gauss_spline(cuarray.asarray(x), 3), ss.gauss_spline(x, 3))


# SciPy's documented examples for these names, with `np` for cuarray and `signal` for cuarray's
def test_scipy_documented_examples():
    np_, signal = cuarray, cs
    t = np.linspace(0, 1, 1000, endpoint=False)
    x = np.cos(2 * np.pi * 15 * t) + np.sin(2 * np.pi * 20 * t)
    close(signal.czt(np_.asarray(x)), ss.czt(x))
    close(signal.zoom_fft(np_.asarray(x), [10, 30], fs=1000), ss.zoom_fft(x, [10, 30], fs=1000))
    close(signal.zoom_fft(np_.asarray(x), [10, 30], m=256, fs=1000, endpoint=True),
          ss.zoom_fft(x, [10, 30], m=256, fs=1000, endpoint=True))
    w = np.exp(-1j * np.pi / 3)
    close(signal.czt_points(7, w, 1.1 + 0.3j), ss.czt_points(7, w, 1.1 + 0.3j))
    f1, f2, fs = 8, 10, 200
    transform = signal.ZoomFFT(len(t), [f1, f2], len(t), fs=fs)
    close(transform(np_.asarray(x)), ss.ZoomFFT(len(t), [f1, f2], len(t), fs=fs)(x))
    xs = np.arange(20.0) ** 1.5 % 7
    close(signal.cspline1d(np_.asarray(xs)), ss.cspline1d(xs))
    newx = np.linspace(-2, 22, 200)
    cj = signal.cspline1d(np_.asarray(xs))
    close(signal.cspline1d_eval(cj, np_.asarray(newx), dx=1.0, x0=0), ss.cspline1d_eval(ss.cspline1d(xs), newx))
    qj = signal.qspline1d(np_.asarray(xs))
    close(signal.qspline1d_eval(qj, np_.asarray(newx), dx=1.0, x0=0), ss.qspline1d_eval(ss.qspline1d(xs), newx))
    img = (np.arange(64 * 64.0).reshape(64, 64) % 17) / 17
    close(signal.spline_filter(np_.asarray(img), lmbda=0.1), ss.spline_filter(img, lmbda=0.1))
    close(signal.gauss_spline(np_.asarray([-1.0, 0.0, 1.0]), 3), ss.gauss_spline(np.array([-1.0, 0.0, 1.0]), 3))
    sig = np.sin(np.linspace(0, 20, 500)) + np.linspace(0, 1, 500)
    close(signal.symiirorder1(np_.asarray(sig), 0.5, 0.1), ss.symiirorder1(sig, 0.5, 0.1))
    close(signal.symiirorder2(np_.asarray(sig), 0.5, 0.1), ss.symiirorder2(sig, 0.5, 0.1))
