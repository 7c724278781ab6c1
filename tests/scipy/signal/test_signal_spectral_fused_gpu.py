"""The fused spectral path (frames kernel, one batched rfft, the power / mean-power kernels:
cuarray/scipy/signal/_spectral_fused.py) on the device against scipy.signal on the host: welch,
periodogram, spectrogram (every mode it takes) and stft of float32/float64 signals, 1-D and batched,
along the last axis and another, non-contiguous views, odd and even nfft, offset data (the
constant detrend matters), one segment, one sample. Fresh random data."""

import warnings

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


def close(got, ref, dtype):
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    tol = 1e-3 if np.dtype(dtype) == np.float32 else 1e-9
    np.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


def signals(dtype):
    """(host array, device array, axis): 1-D, batched, another axis, non-contiguous device views."""
    base = (RNG.normal(size=(3, 2, 1500)) * 4 + 10).astype(dtype)
    dev = cuarray.asarray(base)
    return [(base[0, 0], dev[0, 0], -1), (base, dev, -1),
            (np.moveaxis(base, -1, 1), cuarray.moveaxis(dev, -1, 1), 1),
            (base[:, :, ::2], dev[:, :, ::2], -1),
            (np.moveaxis(base, -1, 0)[::2], cuarray.moveaxis(dev, -1, 0)[::2], 0)]


WELCH = [dict(), dict(nperseg=128), dict(nperseg=100, noverlap=30, nfft=201), dict(nperseg=64, nfft=128),
         dict(nperseg=33, detrend=False, scaling="spectrum"), dict(window="hamming", nperseg=90, noverlap=0),
         dict(window=np.hanning(50)), dict(nperseg=700)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kw", WELCH)
def test_welch_fused(dtype, kw):
    for h, d, axis in signals(dtype):
        f, p = cs.welch(d, 2.0, axis=axis, **kw)
        rf, rp = ss.welch(h, 2.0, axis=axis, **kw)
        close(f, rf, np.float64)
        close(p, rp, dtype)
        if kw.get("window") is None and "nfft" not in kw:
            close(cs.welch(d, axis=axis, average="median", **kw)[1], ss.welch(h, axis=axis, average="median", **kw)[1],
                  dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,kw", [((200_003,), dict(nperseg=64)), ((2, 3, 40_000), dict(nperseg=33, nfft=40)),
                                      ((5, 300_000), dict(nperseg=256, noverlap=0)), ((1, 7_777), dict(nperseg=2))])
def test_welch_mean_power_many_segments(dtype, shape, kw):
    """templates/spectral.cu's mean over the segments: thousands of segments (many chunks, the
    4-load loop and its tail, frequencies past a multiple of 32), batches, 2 bins."""
    h = (RNG.normal(size=shape) * 3 + 1).astype(dtype)
    d = cuarray.asarray(h)
    close(cs.welch(d, 5.0, **kw)[1], ss.welch(h, 5.0, **kw)[1], dtype)
    close(cs.welch(d, scaling="spectrum", detrend=False, **kw)[1],
          ss.welch(h, scaling="spectrum", detrend=False, **kw)[1], dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("nfft", [16, 32, 64, 128, 256])
def test_welch_pairs(dtype, nfft):
    """templates/spectral.cu's welch_pairs (two segments a complex FFT in registers, the power summed
    there): every nfft it takes, nperseg = nfft and shorter (zero padding), odd and even segment
    counts (the last pair's second segment zero), overlap 0 to nfft - 1, constant detrend or none
    on offset data, batch rows, a host and a device window; SciPy's float32 result within its
    tolerance, and the exact (float64) result closer: float32 data against SciPy on its float64 copy,
    relative 1e-4 and 1e-6 of the largest bin."""
    for n, nper, nov, kw in ((nfft, nfft, None, {}), (3 * nfft, nfft, 0, {}), (5 * nfft + 3, nfft, nfft // 2, {}),
                             (4000, nfft - 3, nfft - 4, dict(detrend=False, nfft=nfft)),
                             (7001, nfft // 2 + 1, None, dict(nfft=nfft, scaling="spectrum")),
                             (60_000, nfft, nfft - 1, dict(window="hamming"))):
        h = (RNG.normal(size=(3, n)) * 3 + 20).astype(dtype)
        d = cuarray.asarray(h)
        for hx, dx in ((h[1], d[1]), (h, d)):
            ref = ss.welch(hx, 2.0, nperseg=nper, noverlap=nov, **kw)[1]
            got = cs.welch(dx, 2.0, nperseg=nper, noverlap=nov, **kw)[1]
            close(got, ref, dtype)
            exact = ss.welch(hx.astype(np.float64), 2.0, nperseg=nper, noverlap=nov, **kw)[1]
            tol = 1e-4 if dtype == np.float32 else 1e-12
            np.testing.assert_allclose(got.get(), exact, rtol=tol, atol=tol / 100 * float(exact.max()))
    win = np.hanning(nfft).astype(dtype)  # (the bench's form: a device window, its scale folded on the device)
    h = RNG.normal(size=200_001).astype(dtype)
    close(cs.welch(cuarray.asarray(h), window=cuarray.asarray(win), nperseg=nfft)[1],
          ss.welch(h, window=win, nperseg=nfft)[1], dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_periodogram_fused(dtype):
    for h, d, axis in signals(dtype):
        close(cs.periodogram(d, axis=axis)[1], ss.periodogram(h, axis=axis)[1], dtype)
        close(cs.periodogram(d, window="hann", nfft=999, axis=axis)[1],
              ss.periodogram(h, window="hann", nfft=999, axis=axis)[1], dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude", "angle"])
def test_spectrogram_fused(dtype, mode):
    for h, d, axis in signals(dtype):
        for kw in (dict(), dict(nperseg=100, noverlap=50, nfft=151), dict(nperseg=64, detrend=False)):
            f, t, s = cs.spectrogram(d, 3.0, axis=axis, mode=mode, **kw)
            rf, rt, rs = ss.spectrogram(h, 3.0, axis=axis, mode=mode, **kw)
            close(t, rt, np.float64)
            if mode == "angle":  # the phase of near-zero bins is noise: compare where |S| is not tiny
                mag = np.abs(ss.spectrogram(h, 3.0, axis=axis, mode="complex", **kw)[2])
                keep = mag > 1e-2 * mag.max()
                got = s.get()
                assert got.shape == rs.shape and got.dtype == rs.dtype
                diff = np.angle(np.exp(1j * (got[keep] - rs[keep])))
                assert np.abs(diff).max() < (1e-2 if dtype == np.float32 else 1e-7)
            else:
                close(s, rs, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_stft_fused(dtype):
    for h, d, axis in signals(dtype):
        for kw in (dict(), dict(nperseg=100, noverlap=25, nfft=129), dict(boundary=None, padded=False, nperseg=64),
                   dict(boundary="even", nperseg=50), dict(scaling="psd", detrend="constant", nperseg=80),
                   dict(boundary=None, padded=True, nperseg=77, noverlap=20), dict(nperseg=1, noverlap=0),
                   dict(nperseg=64, padded=False)):
            f, t, z = cs.stft(d, 4.0, axis=axis, **kw)
            rf, rt, rz = ss.stft(h, 4.0, axis=axis, **kw)
            close(f, rf, np.float64)
            close(t, rt, np.float64)
            close(z, rz, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_edges(dtype):
    one = np.array([3.5], dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # nperseg > input length (both libraries warn)
        close(cs.welch(cuarray.asarray(one))[1], ss.welch(one)[1], dtype)
        close(cs.welch(cuarray.asarray(one), detrend=False)[1], ss.welch(one, detrend=False)[1], dtype)
        short = RNG.normal(size=(4, 40)).astype(dtype)
        close(cs.welch(cuarray.asarray(short))[1], ss.welch(short)[1], dtype)  # one segment
        close(cs.spectrogram(cuarray.asarray(short), nperseg=40)[2], ss.spectrogram(short, nperseg=40)[2], dtype)
    empty = np.zeros((0, 100), dtype)
    got = cs.welch(cuarray.asarray(empty), nperseg=50)[1]
    ref = ss.welch(empty, nperseg=50)[1]
    assert got.shape == ref.shape and got.dtype == ref.dtype


@pytest.mark.parametrize("axis", [-1, 0])
def test_spectrogram_phase(axis):
    """mode='phase' (NotImplementedError before issue 52), float64 (an unwrap decision is a
    comparison with pi: float64 keeps the two libraries' on the same side)."""
    x = RNG.normal(size=(3, 2000)) if axis == -1 else RNG.normal(size=(2000, 3))
    close(cs.spectrogram(cuarray.asarray(x), nperseg=128, mode="phase", axis=axis)[2],
          ss.spectrogram(x, nperseg=128, mode="phase", axis=axis)[2], np.float64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_stft_returns_scipys_transposed_view(dtype):
    """stft's (freq, time) result is, as SciPy's, a view of the (time, freq) spectrum (strides of
    one bin and one segment's bins): no transposing copy (60 us for 2^22 samples)."""
    h = RNG.normal(size=(2, 5000)).astype(dtype)
    z = cs.stft(cuarray.asarray(h), nperseg=256)[2]
    rz = ss.stft(h, nperseg=256)[2]
    assert z.strides == rz.strides and not z.flags.c_contiguous
    close(z, rz, dtype)
    for kw in (dict(), dict(boundary=None, padded=False), dict(nperseg=101, noverlap=7, boundary="even")):
        f, t, _ = cs.stft(cuarray.asarray(h), 3.7, **kw)  # (frequencies and times written on the device)
        rf, rt, _ = ss.stft(h, 3.7, **kw)
        np.testing.assert_array_equal(f.get(), rf)
        np.testing.assert_array_equal(t.get(), rt)
    f, t, _ = cs.spectrogram(cuarray.asarray(h), 0.3, nperseg=77)
    rf, rt, _ = ss.spectrogram(h, 0.3, nperseg=77)
    np.testing.assert_array_equal(f.get(), rf)
    np.testing.assert_array_equal(t.get(), rt)


@pytest.mark.parametrize("wdt", [np.float32, np.float64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_device_window_scaled_on_the_device(dtype, wdt):
    """A device window (contiguous, and a strided view) is scaled on the device for welch,
    spectrogram and stft: SciPy's results with the same window on the host. A float32 window
    makes SciPy's own result float32-accurate whatever the signal (its scale's sum of a float32
    window: 8.7e-8 relative between SciPy's results with the window in float32 and in float64,
    SciPy 1.18.1), so the comparison takes the least precise input's tolerance, as the CPU test
    of the same path does."""
    base = RNG.uniform(0.1, 1.0, size=2 * 96).astype(wdt)
    least = np.float32 if np.float32 in (dtype, wdt) else np.float64
    for hw, dw in ((base[:96], cuarray.asarray(base[:96])), (base[::2], cuarray.asarray(base)[::2])):
        for h, d, axis in signals(dtype)[:3]:
            for kw in (dict(), dict(scaling="spectrum", detrend=False), dict(nfft=101, average="median")):
                close(cs.welch(d, 2.0, window=dw, axis=axis, **kw)[1], ss.welch(h, 2.0, window=hw, axis=axis, **kw)[1],
                      least)
            close(cs.spectrogram(d, window=dw, axis=axis)[2], ss.spectrogram(h, window=hw, axis=axis)[2], least)
            close(cs.stft(d, 3.0, window=dw, nperseg=96, axis=axis)[2],
                  ss.stft(h, 3.0, window=hw, nperseg=96, axis=axis)[2], least)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_stft_cached_plan_calls(dtype):
    """stft's cached plan (one launch: templates/spectral.cu's stft_rfft for a power-of-two nfft from
    64 to 1024, else the frames and one R2C): repeated calls with the same arguments on new data give
    SciPy's results each time, fresh f, t and Zxx (writing to one call's arrays changes no later
    call's), the times and frequencies bit for bit; a batch, an int fs, a tuple window, nfft >
    nperseg, 'psd' scaling, no boundary, nfft 64 (16 segments a block, fewer rows) to 1024."""
    cases = [((4000,), dict(nperseg=256)), ((3, 1001), dict(fs=8, window=("tukey", 0.4), nperseg=90, nfft=128)),
             ((2, 500), dict(window="hamming", nperseg=64, noverlap=60, boundary=None, scaling="psd")),
             ((333,), dict(fs=2.5, nperseg=333, padded=False)), ((1,), dict(nperseg=1)),
             ((3, 50), dict(nperseg=16, nfft=64, window="blackman")),  # (fewer rows than a block's 16)
             ((2, 5000), dict(nperseg=1024, noverlap=1000)), ((5000,), dict(nperseg=300, nfft=512, fs=3)),
             ((2, 700), dict(nperseg=32))]  # (nfft 32: the frames and cuFFT)
    for shape, kw in cases:
        for rep in range(3):
            h = (RNG.normal(size=shape) * 3 + rep).astype(dtype)
            f, t, z = cs.stft(cuarray.asarray(h), **kw)
            rf, rt, rz = ss.stft(h, **kw)
            np.testing.assert_array_equal(f.get(), rf)
            np.testing.assert_array_equal(t.get(), rt)
            close(z, rz, dtype)
            assert z.strides == rz.strides or min(rz.shape) == 1  # (the transposed view, as SciPy's)
            f[...] = -1.0  # (the next call's frequencies and times are its own)
            t[...] = -1.0
