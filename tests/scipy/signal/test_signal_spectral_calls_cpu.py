"""Issue 52's per-call costs of welch, stft, spectrogram and freqz on the fake device
(`cuarray.testing.fake_device`: launches recorded, not run): after a first call (which keeps the
window and the averaging factors on the device, one upload and one synchronisation each), a call
uploads nothing, downloads nothing and synchronises nothing, and launches only its kernels. The old
code uploaded the window, the factors, the frequencies and the times every call (4 pinned uploads
for welch, 3 for stft) and took a device window down (a download and a synchronisation): these
tests fail on it. cuFFT is recorded by stand-ins for its plan look-up and execution."""

import numpy as np
import pytest

import cuarray
from cuarray._core import transfer
from cuarray.cuda import _memory_base
from cuarray.cuda import device as _device
from cuarray.cuda import kernel_family
from cuarray.cuda import stream as _stream
from cuarray.cuda.libs import cufft
from cuarray.fft import _transform
from cuarray.scipy import signal
from cuarray.scipy.ndimage import _tables
from cuarray.testing.fake_device import python_calls


@pytest.fixture
def calls(recorded_launches, monkeypatch):
    """{'launch': kernel names, 'cufft': (n, type, batch), 'up'/'down': bytes, 'sync': count}."""
    rec = {"cufft": [], "up": [], "down": [], "sync": 0}
    monkeypatch.setattr(_device, "_sm_count", lambda device_id: 132)  # (an H100's; no device asked)
    # the engine's generated kernels (reductions) as placeholders named by their kernel, as recording() makes
    # the elementwise ones
    monkeypatch.setattr(kernel_family, "generated", lambda key, build, **kw: (build()[0],))
    monkeypatch.setattr(cufft, "get_plan", lambda key: key)
    monkeypatch.setattr(cufft, "execute", lambda plan, i, o, d: rec["cufft"].append((plan[1], plan[-2], plan[-1])))
    monkeypatch.setattr(_transform, "_recipes", {})
    monkeypatch.setattr(transfer, "_h2d", lambda dst, host, nbytes, stream: rec["up"].append(nbytes))
    monkeypatch.setattr(transfer, "_d2h", lambda host, src, nbytes, stream: rec["down"].append(nbytes))

    def sync(self):
        rec["sync"] += 1

    monkeypatch.setattr(_stream.Stream, "synchronize", sync)
    monkeypatch.setattr(_tables, "_tables", {})  # (fresh: no table of another test's fake memory)

    def reset():
        del recorded_launches[:]
        rec["cufft"][:], rec["up"][:], rec["down"][:], rec["sync"] = [], [], [], 0

    rec["reset"] = reset
    rec["launches"] = recorded_launches
    return rec


def _names(rec):
    return [c[2][0] if isinstance(c[2], tuple) else str(c[2]) for c in rec["launches"]]


def _no_transfers(rec):
    assert rec["up"] == [] and rec["down"] == [] and rec["sync"] == 0, rec


def test_welch_device_window(calls):
    x = cuarray.empty((10**7,), np.float32)
    win = cuarray.empty((256,), np.float32)
    signal.welch(x, window=win, nperseg=256)
    calls["reset"]()
    f, p = signal.welch(x, window=win, nperseg=256)
    _no_transfers(calls)
    assert f.shape == p.shape == (129,)
    assert calls["cufft"] == []  # (welch_pairs: the frames, the FFT and the power in one pass)
    names = _names(calls)
    # the window's sum and scaled copy, welch_pairs, the partial sums' mean, rfftfreq
    assert len(names) == 5, names
    assert any("window_sum" in n for n in names) and any("window_scale" in n for n in names)
    assert sum("welch_pairs" in n or "power_mean" in n for n in names) == 2, names


@pytest.mark.parametrize("window", ["hann_periodic", np.hanning(256)])
def test_welch_host_window(calls, window):
    x = cuarray.empty((10**6,), np.float64)
    signal.welch(x, window=window, nperseg=256)
    calls["reset"]()
    signal.welch(x, window=window, nperseg=256)
    _no_transfers(calls)
    assert len(_names(calls)) == 3, _names(calls)  # welch_pairs, the partial sums' mean, rfftfreq


@pytest.mark.parametrize("kw", [dict(), dict(boundary=None, padded=False)])
def test_stft(calls, kw):
    """stft's cached plan: after the first call one launch (the frames, the frequencies and the
    times together) and one R2C; the old call launched the frames, rfftfreq and the times apart."""
    x = cuarray.empty((2**22,), np.float32)
    signal.stft(x, nperseg=256, **kw)
    calls["reset"]()
    f, t, z = signal.stft(x, nperseg=256, **kw)
    _no_transfers(calls)
    assert z.shape == (129, t.shape[0]) and not z.flags.c_contiguous  # (SciPy's transposed view: no copy)
    assert f.shape == (129,) and f.dtype == t.dtype == np.float64
    assert _names(calls) == ["cuarray_signal::stft_regs<float, 128, 128, 4, 0>"]  # (frames, window and real FFT)
    assert calls["cufft"] == []


@pytest.mark.parametrize("nfft,one_pass", [(32, False), (64, "stft_regs<double, 32, 64, 1, 0>"),
                                            (512, "stft_regs<double, 256, 64, 1, 0>"), (1024, "stft_rfft<double, 512>"),
                                            (2048, False), (300, False)])
def test_stft_routes(calls, nfft, one_pass):
    """The one-pass kernels for a power-of-two nfft from 64 to 1024 (in-register DFTs to 512); else
    the frames with the frequencies and times, and one R2C."""
    x = cuarray.empty((2, 5000), np.float64)
    signal.stft(x, nperseg=min(nfft, 100), nfft=nfft)
    calls["reset"]()
    f, t, z = signal.stft(x, nperseg=min(nfft, 100), nfft=nfft)
    _no_transfers(calls)
    assert z.shape == (2, nfft // 2 + 1, t.shape[0]) and f.shape == (nfft // 2 + 1,)
    if one_pass:
        assert _names(calls) == ["cuarray_signal::" + one_pass] and calls["cufft"] == []
    else:
        assert _names(calls) == ["cuarray_signal::frames<double>"]
        assert calls["cufft"] == [((nfft,), cufft.D2Z, 2 * t.shape[0])]


def test_stft_host_calls(calls, monkeypatch):
    """The bench row's host path (issue 52: stft of 2^22 samples was host-bound, ~134 us a call
    around ~60 us of kernels, 308 Python calls on the fake device): the cached plan's call makes
    fewer than 100 (80 when written). Fails on the old path."""
    from cuarray.fft import _fft

    monkeypatch.setattr(_fft, "_recipes", _transform._recipes)  # (the fixture's fresh recipes: hits too)
    x = cuarray.empty((2**22,), np.float32)
    signal.stft(x, nperseg=256)
    n = python_calls(lambda: signal.stft(x, nperseg=256))
    assert n < 100, n


@pytest.mark.parametrize("call,most,launches", [
    (lambda x: signal.welch(x), 100, ["rfreq", "welch_pairs", "power_mean"]),
    (lambda x: signal.welch(x, fs=2.0, window=("tukey", 0.3), nperseg=128, noverlap=100, scaling="spectrum",
                            detrend=False), 100, ["rfreq", "welch_pairs", "power_mean"]),
    (lambda x: signal.spectrogram(x), 80, ["stft_regs"]),
    (lambda x: signal.spectrogram(x, nperseg=64, nfft=128, window="hamming"), 80, ["stft_regs"])])
def test_welch_spectrogram_cached_plans(calls, call, most, launches):
    """welch and spectrogram keep a plan per argument key (`_psd_plan`), as stft does: a repeated
    call makes at most `most` Python calls (the general path: 189 for welch, 273 for spectrogram;
    ~190 us of host time on the H100, as long as welch's GPU work at 1e8 samples), launches only
    its kernels (spectrogram one: its frequencies and times written by the same launch), and
    transfers nothing. Fails on the old path."""
    x = cuarray.empty((10**6,), np.float32)
    call(x)
    calls["reset"]()
    n = python_calls(lambda: call(x))
    assert n <= most, n
    _no_transfers(calls)
    names = _names(calls)
    assert len(names) == len(launches) and all(w in n for w, n in zip(launches, names)), names


_PLAN_CASES = [
    ((2**16,), np.float32, dict()),
    ((1000,), np.float64, dict(fs=3, window="hamming", nperseg=64, noverlap=40, nfft=100, boundary=None)),
    ((2, 999), np.float32, dict(fs=0.5, window=("tukey", 0.3), nperseg=50, padded=False, scaling="psd")),
    ((3, 777), np.float64, dict(window="boxcar", nperseg=77, noverlap=0, boundary=None, padded=False, axis=1)),
    ((5,), np.float32, dict(nperseg=5, noverlap=4, nfft=9)),
    ((3, 1200), np.float64, dict(fs=2, nperseg=100, nfft=128, window="hamming")),
    ((1000,), np.float32, dict(nperseg=64, boundary=None, scaling="psd")),
]


@pytest.mark.parametrize("shape,dtype,kw", _PLAN_CASES)
def test_stft_plan_launches_what_the_general_path_does(calls, shape, dtype, kw):
    """The plan's frames launch (its window table, lengths, segments, boundary offset) is the general
    path's, and its five times constants are the values the general path hands rfftfreq and the
    times kernel: the plan is built from the same helpers, so the same numbers reach the device."""
    from cuarray.scipy.signal import _spectral

    x = cuarray.empty(shape, dtype)
    args = dict(fs=1.0, window="hann_periodic", nperseg=256, noverlap=None, nfft=None, detrend=False,
                return_onesided=True, boundary="zeros", padded=True, axis=-1, scaling="spectrum")
    args.update(kw)
    scaling = "density" if args["scaling"] == "psd" else "spectrum"
    f0, t0, z0 = _spectral._spectral_helper(x, x, args["fs"], args["window"], args["nperseg"], args["noverlap"],
                                            args["nfft"], False, True, scaling, args["axis"], mode="stft",
                                            boundary=args["boundary"], padded=args["padded"])
    general = {c[2][0] if isinstance(c[2], tuple) else str(c[2]): c[3:] for c in calls["launches"]}
    calls["reset"]()
    plan = _spectral._stft_plan(x, **args)
    assert plan is not None
    f, t, z = plan(x)
    assert (f.shape, t.shape, z.shape, z.strides) == (f0.shape, t0.shape, z0.shape, z0.strides)
    assert len(calls["launches"]) == 1
    mine = calls["launches"][0][3:]
    name = "cuarray_signal::frames<{}>".format("float" if dtype == np.float32 else "double")
    frames = general[name]
    if plan.one_pass:  # stft_rfft(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp)
        mine = (mine[0], mine[1], mine[1], *mine[3:6], args["nfft"] or args["nperseg"], *mine[6:8], 0, mine[8],
                None, None, *mine[11:13])
    # x, the window (the same kept table: the same bytes), lengths, rows, detrend, pre
    assert mine[:11] == frames[:11] and mine[13:15] == (f.shape[0], t.shape[0])
    times = next(v for k, v in general.items() if "segment_times" in str(k))
    freq = next(v for k, v in general.items() if "fft_rfreq" in str(k))
    start, step, fs, off, shift = (float(v) for v in times[:5])
    assert plan.consts == (float(freq[2]), start, step, fs, off if shift else 0.0)


@pytest.mark.parametrize("kw", [dict(window=np.hanning(64)), dict(detrend="constant"), dict(return_onesided=False),
                                dict(boundary="even"), dict(axis=0), dict(fs=np.float32(2)), dict(nperseg=5000),
                                dict(nperseg=np.int64(64))])
def test_stft_without_a_plan(calls, kw):
    """Calls the plan does not cover take the general path (array windows, detrending, two-sided,
    other boundaries, another axis, a NumPy fs, nperseg past the signal (SciPy's warning))."""
    from cuarray.scipy.signal import _spectral

    x = cuarray.empty((3, 1000), np.float32)
    args = dict(fs=1.0, window="hann_periodic", nperseg=64, noverlap=None, nfft=None, detrend=False,
                return_onesided=True, boundary="zeros", padded=True, axis=-1, scaling="spectrum")
    args.update(kw)
    assert _spectral._stft_plan(x, **args) is None
    assert _spectral._stft_plan(x.T, **dict(args, axis=0)) is None  # (a strided signal)


def test_spectrogram(calls):
    x = cuarray.empty((3, 50_000), np.float64)
    signal.spectrogram(x, nperseg=200)
    calls["reset"]()
    signal.spectrogram(x, nperseg=200)
    _no_transfers(calls)
    assert len(_names(calls)) == 4, _names(calls)  # frames, power, rfftfreq, times


def test_freqz_iir_one_batched_transform(calls, monkeypatch):
    # an order-8 IIR filter on freqz's uniform grid: one upload of both polynomials, one batched
    # R2C transform of the two and their quotient. The old code evaluated each polynomial by
    # Horner's rule, two elementwise passes a coefficient (36 launches at order 8): it fails here.
    memsets = []  # (the transform zero-pads its input buffer with a memset the fake device has not)
    monkeypatch.setattr(_memory_base.MemoryPointer, "memset_async", lambda self, v, size, stream=None: memsets.append(size))
    b, a = np.full(9, 1 / 9), np.array([1.0, -4, 7, -7, 4.375, -1.75, 0.4375, -0.0625, 0.00390625])
    w, h = signal.freqz(b, a, worN=10**6)
    assert w.shape == h.shape == (10**6,) and h.dtype == np.complex128
    assert calls["cufft"] == [((2 * 10**6,), cufft.D2Z, 2)]
    assert calls["up"] == [2 * 9 * 8] and calls["down"] == [] and calls["sync"] == 0
    assert memsets == [2 * 2 * 10**6 * 8]
    names = _names(calls)
    assert len(names) <= 5, names  # the grid, the rows into the padded buffer, the quotient, the grid's scaling
