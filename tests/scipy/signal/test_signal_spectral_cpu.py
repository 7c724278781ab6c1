"""scipy.signal spectral analysis without a device: the public functions with NumPy arrays for
cuarray arrays and numpy.fft for cuarray.fft, against scipy.signal."""


import numpy as np
import pytest
import scipy.signal as ss

@pytest.fixture
def host_spectral(host_signal, monkeypatch):
    from cuarray.scipy.signal import _spectral

    monkeypatch.setattr(_spectral, "_fft", np.fft)
    monkeypatch.setattr(_spectral, "_from_host", np.asarray)
    monkeypatch.setattr(_spectral, "_concatenate", np.concatenate)
    monkeypatch.setattr(_spectral, "_moveaxis", np.moveaxis)
    from cuarray.scipy.signal import _lfilter

    monkeypatch.setattr(_lfilter, "_concatenate", np.concatenate)
    monkeypatch.setattr(_lfilter, "_from_host", np.asarray)
    monkeypatch.setattr(_spectral, "_median", np.median)
    monkeypatch.setattr(_spectral, "_angle", np.angle)
    return host_signal


RNG = np.random.default_rng(21)


def close(got, ref, tol=1e-9):
    for g, r in zip(got, ref):
        g, r = np.asarray(g), np.asarray(r)
        assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
        np.testing.assert_allclose(g, r, rtol=tol, atol=tol * max(1.0, float(np.abs(r).max(initial=0))))


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("kw", [dict(), dict(nperseg=64), dict(nperseg=50, noverlap=10, nfft=80),
                                dict(window="hamming", nperseg=32, detrend="linear", scaling="spectrum"),
                                dict(nperseg=40, average="median"), dict(nperseg=33, return_onesided=False),
                                dict(window=np.hanning(20), axis=0)])
def test_welch_csd(host_spectral, dtype, kw):
    x = RNG.normal(size=(3, 400)) if kw.get("axis") != 0 else RNG.normal(size=(400, 3))
    y = RNG.normal(size=x.shape)
    if dtype == "complex128":
        x = x + 1j * RNG.normal(size=x.shape)
    x = x.astype(dtype)
    tol = 1e-4 if dtype == "float32" else 1e-9
    got = host_spectral.welch(x, fs=3.0, **kw)
    ref = ss.welch(x, fs=3.0, **kw)
    close(got, ref, tol)
    if dtype != "complex128":
        close(host_spectral.csd(x, y, **kw), ss.csd(x, y, **kw), tol)
        close(host_spectral.coherence(x, y, **{k: v for k, v in kw.items() if k not in ("average", "scaling",
                                                                                      "return_onesided")}),
              ss.coherence(x, y, **{k: v for k, v in kw.items() if k not in ("average", "scaling", "return_onesided")}),
              1e-3 if dtype == "float32" else 1e-8)


def test_periodogram_spectrogram_stft(host_spectral):
    x = RNG.normal(size=(2, 300))
    for kw in [dict(), dict(nfft=512), dict(nfft=100), dict(window="hann", scaling="spectrum")]:
        close(host_spectral.periodogram(x, 10.0, **kw), ss.periodogram(x, 10.0, **kw))
    for mode in ("psd", "complex", "magnitude", "angle"):
        close(host_spectral.spectrogram(x, 2.0, nperseg=64, mode=mode), ss.spectrogram(x, 2.0, nperseg=64, mode=mode))
    close(host_spectral.spectrogram(x.T, axis=0, nperseg=50), ss.spectrogram(x.T, axis=0, nperseg=50))
    for kw in [dict(), dict(nperseg=64, noverlap=48), dict(boundary="even", padded=False, nperseg=30),
               dict(boundary=None, scaling="psd", nperseg=40), dict(nperseg=32, detrend="constant")]:
        close(host_spectral.stft(x, **kw), ss.stft(x, **kw))
