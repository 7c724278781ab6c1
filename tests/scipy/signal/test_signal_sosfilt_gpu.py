"""sosfilt's one-pass cascade (sos_rows over the overlap plan, cuarray/scipy/signal/_sosfilt.py) on
the device against scipy.signal.sosfilt on the host: float32/float64/integer signals, batches, other
axes, non-contiguous views, zi/zf, more sections than one pass chains (groups), long lines (chunks
with warm-ups), short lines (one sweep a line), and a cascade that does not decay (the per-section
path). Fresh random data."""

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
SOS = [ss.butter(4, 0.2, output="sos"), ss.ellip(7, 0.5, 60, [0.1, 0.3], "bandpass", output="sos"),
       ss.butter(8, 0.02, output="sos"), ss.cheby1(30, 1, 0.4, output="sos"),
       np.array([[1.0, 0.5, 0.0, 1.0, -0.5, 0.0]])]
# float64 agreement with SciPy's single sweep: to rounding for the fast-decaying cascades; for the
# narrow ones (poles within 0.013 of the unit circle) the per-section scan's chunk boundaries round
# differently, within ~1e-8 of the signal (docs/scipy-ndimage-signal.md, lfilter's differences)
TOL64 = [1e-9, 2e-8, 2e-8, 2e-8, 1e-9]


def close(got, ref, tol):
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


@pytest.mark.parametrize("si", range(len(SOS)))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((3, 50000), -1), ((200000,), 0), ((4000, 3), 0), ((2, 3, 700), 1),
                                        ((64, 100), -1), ((1,), 0)])
def test_sosfilt_one_pass(si, dtype, shape, axis):
    sos = SOS[si].astype(dtype)
    x = RNG.normal(size=shape).astype(dtype)
    got = cs.sosfilt(cuarray.asarray(sos), cuarray.asarray(x), axis=axis)
    ref = ss.sosfilt(sos, x, axis=axis)
    if dtype == np.float32:
        # the cascade runs in float64 and rounds once; SciPy's float32 sections round at every step
        # (9% of the output's size off for the order-30 Chebyshev): the values against SciPy's
        # float64 run of the same coefficients, to float32's rounding; the dtype against its float32 run
        assert got.dtype == ref.dtype == np.float32 and got.shape == ref.shape
        truth = ss.sosfilt(sos.astype(np.float64), x.astype(np.float64), axis=axis)
        close(got.astype(np.float64), truth, 1e-5)
    else:
        close(got, ref, TOL64[si])
    ax = axis % len(shape)
    zi = RNG.normal(size=(sos.shape[0],) + tuple(2 if k == ax else s for k, s in enumerate(shape)))
    y, zf = cs.sosfilt(sos, cuarray.asarray(x), axis=axis, zi=cuarray.asarray(zi))
    ry, rzf = ss.sosfilt(sos, x, axis=axis, zi=zi)  # (float64: zi is)
    close(y, ry, TOL64[si])
    close(zf, rzf, TOL64[si])


def test_sosfilt_views_ints_and_slow_cascades():
    sos = ss.butter(6, 0.1, output="sos")
    x = RNG.normal(size=(6, 30000))
    d = cuarray.asarray(x)
    close(cs.sosfilt(sos, d[::2, ::3]), ss.sosfilt(sos, x[::2, ::3]), 1e-9)
    close(cs.sosfilt(sos, d.T, axis=0), ss.sosfilt(sos, x.T, axis=0), 1e-9)
    xi = RNG.integers(-100, 100, size=(3, 5000)).astype(np.int32)
    close(cs.sosfilt(sos.tolist(), cuarray.asarray(xi)), ss.sosfilt(sos, xi), 1e-9)
    slow = np.array([[1.0, 0.0, 0.0, 1.0, -0.99999, 0.0]])  # decays past the one-pass bound
    close(cs.sosfilt(slow, d), ss.sosfilt(slow, x), 1e-8)
    close(cs.sosfiltfilt(sos, d), ss.sosfiltfilt(sos, x), 1e-9)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128, np.int16],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1])
def test_sosfilt_cupyx_cases(dtype, axis):
    # cupyx's TestSosFilt: random sections (a0 = 1, the rest in [0, 0.2): poles within 0.5) over a
    # 4-D signal along every axis, without zi, with zero zi and with random zi (SciPy's shapes)
    sections, size = 3, 51
    real = np.dtype(dtype).kind != "c"
    sos = RNG.random((sections, 6)) * 0.2 + (0 if real else 0.2j * RNG.random((sections, 6)))
    sos[:, 3] = 1
    sos = sos.astype(dtype if np.dtype(dtype).kind != "i" else np.float64)
    x = RNG.normal(size=(4, 5, 3, size)) * (1 if real else (1 + 1j))
    x = (x * 50).astype(dtype) if np.dtype(dtype).kind == "i" else x.astype(dtype)
    d = cuarray.asarray(x)[:, ::-1]  # a strided view
    x = x[:, ::-1]
    tol = 1e-5 if np.result_type(sos, x, np.float32) in (np.float32, np.complex64) else 1e-12
    close(cs.sosfilt(cuarray.asarray(sos), d, axis=axis), ss.sosfilt(sos, x, axis=axis), tol)
    zshape = [sections] + list(x.shape)
    zshape[axis % 4 + 1] = 2
    for zi in (np.zeros(zshape, sos.dtype), RNG.normal(size=zshape).astype(sos.dtype)):
        y, zf = cs.sosfilt(cuarray.asarray(sos), d, axis=axis, zi=cuarray.asarray(zi))
        ry, rzf = ss.sosfilt(sos, x, axis=axis, zi=zi)
        close(y, ry, tol)
        close(zf, rzf, tol)


@pytest.mark.parametrize("axis", [0, 1, 2, 3])
def test_filtfilt_gust_cupyx_unstable_case(axis):
    # cupyx's TestFiltFilt (float64 x, int8 filter b = [0, -1], a = [1, 0, -1, -1]: a pole at 1.3247):
    # the passes reach |y_fb| ~ 1e11 over 51 samples and the answer (~0.1) is their cancellation,
    # known to rounding of |y_fb| (SciPy's lstsq; an explicit pseudo-inverse lost it: errors ~1e6)
    b, a = np.array([0, -1], np.int8), np.array([1, 0, -1, -1], np.int8)
    full = RNG.uniform(-0.1, 0.1, size=(4, 5, 3, 102))
    x, d = full[..., ::2], cuarray.asarray(full)[..., ::2]  # strided
    x, d = np.moveaxis(x, 3, axis), cuarray.moveaxis(d, 3, axis)
    ref = ss.filtfilt(b, a, x, axis=axis, method="gust")
    y_fb = np.flip(ss.lfilter(b, a, np.flip(ss.lfilter(b, a, x, axis=axis), axis), axis=axis), axis)
    got = cs.filtfilt(cuarray.asarray(b), cuarray.asarray(a), d, axis=axis, method="gust")
    assert got.dtype == ref.dtype and got.shape == ref.shape
    assert np.abs(ref).max() < 10, "SciPy's answer is of x's size: the cancellation happened"
    # 1e-13 of |y_fb|: the device's passes and products round in another order than SciPy's
    np.testing.assert_allclose(got.get(), ref, rtol=0, atol=1e-13 * np.abs(y_fb).max())


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("padtype,irlen", [("odd", None), ("even", 20), ("constant", None), (None, 200)])
def test_filtfilt_pad_and_gust(dtype, padtype, irlen):
    b, a = ss.butter(3, 0.3)  # (complex coefficients: SciPy's gust drops their imaginary parts)
    full = (RNG.normal(size=(3, 2, 130)) + (1j * RNG.normal(size=(3, 2, 130)) if dtype == np.complex128 else 0))
    full = full.astype(dtype)
    x, d = full[:, :, 1::2], cuarray.asarray(full)[:, :, 1::2]
    tol = 1e-10  # a stable filter (poles within 0.66): float64 throughout, as SciPy (float32 x too)
    for axis in (0, 2):
        for method in ("pad", "gust"):
            kw = dict(axis=axis, method=method, padtype=padtype, irlen=irlen)
            if axis == 0 and method == "pad" and padtype is not None:
                kw["padlen"] = 2  # SciPy's default 12 does not fit 3 samples
            close(cs.filtfilt(b, a, d, **kw), ss.filtfilt(b, a, x, **kw), tol)
