"""Signal cases (group "signal"): `czt` (the default spiral, the unit circle: one m-point
FFT of the input; other spirals: Bluestein's three FFTs of a 7-smooth length >= 2n - 1),
`cspline1d` (two first-order recursions as the parallel lfilter scan, and one weighted sum) of
float64 signals of n samples, cuarray against cupyx.scipy.signal and SciPy on the host ("numpy"
column) in the same run; `stft` of a float32 signal against CuPy and torch.stft (the same
frames, window and zero boundary); `spectrogram` (SciPy's defaults: tukey(256, 0.25), noverlap 32,
constant detrend, density) against CuPy and PyTorch's unfold + rfft. Bytes counted: the input read
and the output written once (czt: 8 + 16 bytes a sample, its output complex; cspline1d: 8 + 8;
stft: 4 bytes a sample, 8 a complex64 bin; spectrogram: 4 a sample, 4 a float32 bin), so the
fraction of the copy rate says how far each is from one pass over memory. PyTorch has no czt or
cspline1d."""

from __future__ import annotations

from . import random_array, register, scipy_module


def _signal(xp):
    return scipy_module(xp, "signal")


czt = register(
    "czt", group="signal",
    description="signal.czt(x) of float64 x (n samples, m = n points on the unit circle)",
    size=10**7, quick=10**6,
    nbytes=lambda n, p: 24.0 * n,
)


@czt.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float64", seed=52)
    return lambda: sig.czt(x)


cspline = register(
    "cspline1d", group="signal",
    description="signal.cspline1d(x) of float64 x (n samples): the interpolating cubic spline's coefficients",
    size=10**7, quick=10**6,
    nbytes=lambda n, p: 16.0 * n,
)


@cspline.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float64", seed=53)
    return lambda: sig.cspline1d(x)


stft = register(
    "stft", group="signal",
    description="signal.stft(x, nperseg=256) of float32 x (n samples): hann window, half overlap, zero boundary",
    size=2**24, quick=2**22,
    nbytes=lambda n, p: 4.0 * n + 8.0 * 129 * (n // 128 + 1),  # the signal read, the complex64 spectrogram written
)


@stft.setup("cuarray", "cupy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float32", seed=54)
    return lambda: sig.stft(x, nperseg=256)


@stft.setup("torch")
def _(torch, n, param):
    # SciPy's stft is torch.stft with center=True and zero padding, the window scaled by 1 / sum(w)
    # (SciPy's 'spectrum' scaling: free in the window), the frequencies first as SciPy returns them
    x = random_array(torch, n, "float32", seed=54)
    win = torch.hann_window(256, periodic=True, device="cuda")
    win = win / win.sum()
    return lambda: torch.stft(x, 256, hop_length=128, window=win, center=True, pad_mode="constant",
                              return_complex=True)


spectrogram = register(
    "spectrogram", group="signal",
    description="signal.spectrogram(x) of float32 x (n samples): SciPy's defaults (tukey(256, 0.25) window, "
                "noverlap 32, constant detrend, density, one-sided psd)",
    size=2**24, quick=2**22,
    nbytes=lambda n, p: 4.0 * n + 4.0 * 129 * ((n - 256) // 224 + 1),  # the signal read, the float32 psd written
)


@spectrogram.setup("cuarray", "cupy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float32", seed=55)
    return lambda: sig.spectrogram(x)


@spectrogram.setup("torch")
def _(torch, n, param):
    # SciPy's spectrogram by hand: frames of 256 every 224, each less its mean, times the window,
    # |rfft|^2 times 1 / (fs sum w^2), doubled inside (the window from SciPy's formula: torch has no tukey)
    import numpy

    from scipy.signal import get_window

    x = random_array(torch, n, "float32", seed=55)
    win = torch.as_tensor(numpy.asarray(get_window(("tukey", 0.25), 256), numpy.float32), device="cuda")
    scale = 1.0 / float((win * win).sum())

    def run():
        frames = x.unfold(0, 256, 224)
        frames = frames - frames.mean(dim=-1, keepdim=True)
        p = torch.fft.rfft(frames * win).abs().square() * scale
        p[:, 1:-1] *= 2
        return p

    return run
