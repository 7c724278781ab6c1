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
