"""scipy.signal spectral analysis without a device: the public functions with NumPy arrays for
cuarray arrays and numpy.fft for cuarray.fft, against scipy.signal."""


import re
import warnings

import numpy as np
import pytest
import scipy.signal as ss

def _segment_times_model(start, stop, step, fs, off):
    """`_spectral_fused.segment_times`' kernel in NumPy: (start + i step) / fs, less off."""
    i = np.arange(max(0, int(np.ceil((stop - start) / step))))
    t = (start + i.astype(np.float64) * step) / fs
    return t if off is None else t - off


@pytest.fixture
def spectral_copies(signal_standins, host_copies):
    from cuarray.scipy.signal import _lfilter, _spectral, _spectral_fused

    return host_copies(signal_standins, {
        _spectral_fused: dict(segment_times=_segment_times_model),
        _spectral: dict(_fft=np.fft, _from_host=np.asarray, _concatenate=np.concatenate, _moveaxis=np.moveaxis,
                        _broadcast_to=np.broadcast_to, _sliding_window_view=np.lib.stride_tricks.sliding_window_view,
                        _median=np.median, _angle=np.angle, _unwrap=np.unwrap),
        _lfilter: dict(_concatenate=np.concatenate, _from_host=np.asarray)})


@pytest.fixture
def host_spectral(spectral_copies):
    from cuarray.scipy import signal

    return spectral_copies[signal]


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


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("kw", [dict(), dict(nperseg=64, noverlap=48), dict(nperseg=33, noverlap=10, nfft=40),
                                dict(nperseg=30, window="hamming", scaling="psd", boundary=None),
                                dict(nperseg=16, noverlap=3, window=("tukey", 0.5))])
def test_istft_roundtrip(host_spectral, dtype, kw):
    x = RNG.normal(size=(2, 3, 300))
    if dtype == "complex128":
        x = x + 1j * RNG.normal(size=x.shape)
    x = x.astype(dtype)
    stft_kw = {k: v for k, v in kw.items() if k != "boundary"}
    if "scaling" in kw:
        stft_kw["scaling"] = "psd"
    ikw = dict(kw, input_onesided=dtype != "complex128")
    if "boundary" in kw:
        stft_kw["boundary"], ikw["boundary"] = None, False
    _, _, z = ss.stft(x, **stft_kw)
    tol = 1e-4 if dtype == "float32" else 1e-9
    with warnings.catch_warnings(record=True) as w_ref:
        warnings.simplefilter("always")
        ref = ss.istft(z, **ikw)
    with warnings.catch_warnings(record=True) as w_got:
        warnings.simplefilter("always")
        got = host_spectral.istft(z, **ikw)
    assert [str(w.message) for w in w_got] == [str(w.message) for w in w_ref]
    close(got, ref, tol)


def test_istft_axes_and_arrays(host_spectral):
    x = RNG.normal(size=(2, 3, 257))
    _, _, z = ss.stft(x, nperseg=40, noverlap=30)
    for perm, ta, fa in [((0, 2, 3, 1), 2, 1), ((2, 3, 0, 1), 1, 0), ((3, 0, 1, 2), 0, -1), ((0, 1, 2, 3), 3, 2),
                         ((0, 1, 3, 2), 2, 3)]:
        zt = z.transpose(perm)
        close(host_spectral.istft(zt, nperseg=40, noverlap=30, time_axis=ta, freq_axis=fa),
              ss.istft(zt, nperseg=40, noverlap=30, time_axis=ta, freq_axis=fa))
    win = RNG.uniform(0.5, 1.0, size=40)
    close(host_spectral.istft(z, window=win, noverlap=25), ss.istft(z, window=win, noverlap=25))
    zi = (z[0, 0] * 3).astype(np.complex64)
    close(host_spectral.istft(zi, nperseg=40, input_onesided=True, nfft=40),
          ss.istft(zi, nperseg=40, input_onesided=True, nfft=40), 1e-5)
    z2 = RNG.normal(size=(21, 9)).astype(np.float32)  # real input: SciPy makes it complex with + 0j
    close(host_spectral.istft(z2), ss.istft(z2), 1e-5)


@pytest.mark.parametrize("args,kw", [((np.ones(5),), {}), ((np.ones((3, 4)),), dict(time_axis=0, freq_axis=0)),
                                     ((np.ones((9, 4)),), dict(nperseg=0)), ((np.ones((9, 4)),), dict(nfft=8)),
                                     ((np.ones((9, 4)),), dict(noverlap=16)),
                                     ((np.ones((9, 4)),), dict(window=np.ones((4, 4)))),
                                     ((np.ones((9, 4)),), dict(window=np.ones(15))),
                                     ((np.ones((9, 4)),), dict(scaling="density")),
                                     ((np.ones((9, 4)),), dict(time_axis=4))])
def test_istft_errors(host_spectral, args, kw):
    with pytest.raises(Exception) as ref:
        ss.istft(*args, **kw)
    with pytest.raises(ref.type, match=re.escape(str(ref.value))):
        host_spectral.istft(*args, **kw)


def test_istft_nola_warning(host_spectral):
    z = ss.stft(RNG.normal(size=200), window="hann", nperseg=16, noverlap=0)[2]
    for boundary in (True, False):
        with pytest.warns(UserWarning, match="NOLA condition failed") as got:
            host_spectral.istft(z, window="hann", nperseg=16, noverlap=0, boundary=boundary)
        assert ("missing boundary" in str(got[0].message)) == (not boundary)


@pytest.mark.parametrize("m,nstep", [(16, 8), (16, 5), (33, 33), (7, 1), (1, 1), (40, 3), (12, 11)])
@pytest.mark.parametrize("nseg", [1, 3, 9, 60])
@pytest.mark.parametrize("boundary", [True, False])
def test_istft_norm_rows(spectral_copies, m, nstep, nseg, boundary):
    # the divisor of a long signal put together from a short one's rows, against SciPy's loop
    from cuarray.scipy.signal import _spectral

    _spectral = spectral_copies[_spectral]  # (the test's private copy)

    w2 = RNG.uniform(0.0, 1.0, m) ** 2
    w2[RNG.uniform(size=m) < 0.2] = 0.0  # zeros: some layouts fail the NOLA condition
    length = (nseg - 1) * nstep + m
    full = np.zeros(length)
    for i in range(nseg):
        full[i * nstep:i * nstep + m] += w2
    n2 = m // 2
    lo, cut = (n2, n2) if not boundary or n2 else (0, length)
    if not boundary:
        lo = cut = 0
    ref = full[lo:length - cut] if boundary else full
    ok, got = _spectral._istft_norm(w2, nseg, nstep, lo, cut, np.empty(1))
    assert ok == (np.sum(ref > 1e-10) == len(ref))
    np.testing.assert_allclose(got, np.where(ref > 1e-10, ref, 1.0), rtol=1e-14)


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_spectrogram_phase(host_spectral, axis):
    """mode='phase' (NotImplementedError before issue 52): the angle unwrapped along the frequencies."""
    x = np.moveaxis(RNG.normal(size=(2, 3, 500)), -1, axis if axis != -1 else 2)
    got = host_spectral.spectrogram(x, nperseg=64, mode="phase", axis=axis)
    ref = ss.spectrogram(x, nperseg=64, mode="phase", axis=axis)
    close(got, ref, 1e-9)
