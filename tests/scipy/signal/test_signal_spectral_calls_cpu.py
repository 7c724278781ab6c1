"""Issue 52's per-call costs of welch, stft and spectrogram on the fake device
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
from cuarray.cuda import device as _device
from cuarray.cuda import kernel_family
from cuarray.cuda import stream as _stream
from cuarray.cuda.libs import cufft
from cuarray.fft import _transform
from cuarray.scipy import signal
from cuarray.scipy.ndimage import _tables


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
    assert calls["cufft"] == [((256,), cufft.R2C, 78124)]
    names = _names(calls)
    # the window's sum and scaled copy, the frames (means inside), the two mean-power passes, rfftfreq
    assert len(names) == 6, names
    assert any("window_sum" in n for n in names) and any("window_scale" in n for n in names)
    assert sum("frames" in n or "power_partials" in n or "power_mean" in n for n in names) == 3, names


@pytest.mark.parametrize("window", ["hann_periodic", np.hanning(256)])
def test_welch_host_window(calls, window):
    x = cuarray.empty((10**6,), np.float64)
    signal.welch(x, window=window, nperseg=256)
    calls["reset"]()
    signal.welch(x, window=window, nperseg=256)
    _no_transfers(calls)
    assert len(_names(calls)) == 4, _names(calls)  # frames, two mean-power passes, rfftfreq


@pytest.mark.parametrize("kw", [dict(), dict(boundary=None, padded=False)])
def test_stft(calls, kw):
    x = cuarray.empty((2**22,), np.float32)
    signal.stft(x, nperseg=256, **kw)
    calls["reset"]()
    f, t, z = signal.stft(x, nperseg=256, **kw)
    _no_transfers(calls)
    assert z.shape == (129, t.shape[0]) and not z.flags.c_contiguous  # (SciPy's transposed view: no copy)
    assert len(_names(calls)) == 3, _names(calls)  # frames, rfftfreq, the segment times
    assert len(calls["cufft"]) == 1


def test_spectrogram(calls):
    x = cuarray.empty((3, 50_000), np.float64)
    signal.spectrogram(x, nperseg=200)
    calls["reset"]()
    signal.spectrogram(x, nperseg=200)
    _no_transfers(calls)
    assert len(_names(calls)) == 4, _names(calls)  # frames, power, rfftfreq, times
