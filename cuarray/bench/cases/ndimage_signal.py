"""ndimage/signal cases (group "ndimage-signal"), cuarray.scipy against cupyx.scipy in
the same run. ndimage: `gaussian_filter` sigma=4 (truncate 4: 33 taps per axis) of a 4096^2 float32
image and a 256^3 volume, `median_filter` 5x5 of a 4096^2 image and 35x35 of a 1024^2 one,
`map_coordinates` order 3 at 2048^2 points, `zoom` x2 of a 256^3 volume, `label` of a random 4096^2 mask, `distance_transform_edt` of a
2048^2 mask. signal: `lfilter` order 8 on 1000 signals of 1e5 samples, `fftconvolve` of 1e7 by 1e4
samples, `welch` of 1e8 samples, `find_peaks` of 1e7 samples; and `lfilter` of one signal of the same
total length (1e8 samples), where only the parallel scan fills the GPU. Bytes counted: one read and
one write per pass (per separable axis for gaussian), so the fraction of the copy rate says how
close a case is to memory-bound.

PyTorch runs where it has the same computation: the separable Gaussian as one conv1d per axis
(reflect padding, SciPy's 'mirror': the same work, other edge values), the 5x5 median as
unfold + median, fftconvolve as rfft/irfft, welch as stft + mean of |X|^2. It has no lfilter
(torchaudio's is not torch), spline interpolation, label, EDT or find_peaks."""

from __future__ import annotations

import math

from . import random_array, register, scipy_module


def _ndimage(xp):
    return scipy_module(xp, "ndimage")


def _signal(xp):
    return scipy_module(xp, "signal")


_GAUSS = {"4096^2": (4096, 4096), "256^3": (256, 256, 256)}
_GAUSS_QUICK = {"4096^2": (2048, 2048), "256^3": (128, 128, 128)}


def _n(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _gshape(size, param):
    return (_GAUSS if size == "full" else _GAUSS_QUICK)[param]


gauss = register(
    "gaussian_filter", group="ndimage-signal",
    description="ndimage.gaussian_filter(x, 4) of float32 x (one pass per axis)",
    size="full", quick="quick", params=tuple(_GAUSS),
    nbytes=lambda size, p: 8.0 * _n(_gshape(size, p)) * len(_gshape(size, p)),
    size_label=lambda s: s,
)


@gauss.setup("cuarray", "cupy")
def _(xp, size, param):
    nd = _ndimage(xp)
    x = random_array(xp, _gshape(size, param), "float32", seed=41)
    return lambda: nd.gaussian_filter(x, 4.0)


def _torch_gauss_weights(torch, sigma=4.0, truncate=4.0):
    r = int(truncate * sigma + 0.5)
    t = torch.arange(-r, r + 1, dtype=torch.float32, device="cuda")
    w = torch.exp(-0.5 * (t / sigma) ** 2)
    return (w / w.sum()).view(1, 1, -1), r


@gauss.setup("torch")
def _(torch, size, param):
    import torch.nn.functional as F

    x = random_array(torch, _gshape(size, param), "float32", seed=41)
    w, r = _torch_gauss_weights(torch)

    def run():
        y = x
        for axis in range(x.ndim):
            moved = y.movedim(axis, -1)
            flat = moved.reshape(-1, 1, moved.shape[-1])
            out = F.conv1d(F.pad(flat, (r, r), mode="reflect"), w)
            y = out.reshape(moved.shape).movedim(-1, axis)
        return y

    return run


median = register(
    "median_filter", group="ndimage-signal",
    description="ndimage.median_filter(x, size=5) of a float32 image",
    size=4096, quick=2048,
    nbytes=lambda n, p: 8.0 * n * n,
)


@median.setup("cuarray", "cupy")
def _(xp, n, param):
    nd = _ndimage(xp)
    x = random_array(xp, (n, n), "float32", seed=42)
    return lambda: nd.median_filter(x, size=5)


@median.setup("torch")
def _(torch, n, param):
    import torch.nn.functional as F

    x = random_array(torch, (n, n), "float32", seed=42)

    def run():
        p = F.pad(x[None, None], (2, 2, 2, 2), mode="reflect")[0, 0]
        return p.unfold(0, 5, 1).unfold(1, 5, 1).reshape(n, n, 25).median(dim=-1).values

    return run


median_large = register(
    "median_filter_large", group="ndimage-signal",
    description="ndimage.median_filter(x, size=35) of a float32 image (1225 taps: past the in-register window)",
    size=1024, quick=512,
    nbytes=lambda n, p: 8.0 * n * n,
)


@median_large.setup("cuarray", "cupy")
def _(xp, n, param):
    nd = _ndimage(xp)
    x = random_array(xp, (n, n), "float32", seed=43)
    return lambda: nd.median_filter(x, size=35)


mapc = register(
    "map_coordinates", group="ndimage-signal",
    description="ndimage.map_coordinates(x, coords, order=3) of a float32 image at its own shape of random points",
    size=2048, quick=1024,
    nbytes=lambda n, p: 12.0 * n * n,  # float32 coordinates (2 per point) read, float32 output written
)


@mapc.setup("cuarray", "cupy")
def _(xp, n, param):
    nd = _ndimage(xp)
    x = random_array(xp, (n, n), "float32", seed=43)
    c = (random_array(xp, (2, n, n), "float32", seed=44) - 0.5) * (n - 1)  # inside the image
    return lambda: nd.map_coordinates(x, c, order=3)


zoom = register(
    "zoom", group="ndimage-signal",
    description="ndimage.zoom(x, 2) (order 3) of a float32 volume",
    size=256, quick=128,
    nbytes=lambda n, p: 4.0 * n ** 3 * 9,  # read n^3, write (2n)^3
)


@zoom.setup("cuarray", "cupy")
def _(xp, n, param):
    nd = _ndimage(xp)
    x = random_array(xp, (n, n, n), "float32", seed=45)
    return lambda: nd.zoom(x, 2.0)


lab = register(
    "label", group="ndimage-signal",
    description="ndimage.label of a random bool mask (density 0.5, 4-connectivity), count included",
    size=4096, quick=2048,
    nbytes=lambda n, p: 5.0 * n * n,  # mask read, int32 labels written
)


@lab.setup("cuarray", "cupy")
def _(xp, n, param):
    nd = _ndimage(xp)
    mask = random_array(xp, (n, n), "float32", seed=46) > 1.0
    return lambda: nd.label(mask)


lfilt = register(
    "lfilter", group="ndimage-signal",
    description="signal.lfilter(b, a, x) of an order-8 low-pass IIR filter along float64 signals: 1000 of n "
                "samples, or one of 1000 n",
    size=100000, quick=20000, params=(1000, 1),
    nbytes=lambda n, lines: 16.0 * 1000 * n,
    param_label=lambda lines: "{} signal{}".format(lines, "s" if lines > 1 else ""),
)


@lfilt.setup("cuarray", "cupy")
def _(xp, n, lines):
    sig = _signal(xp)
    import numpy

    # a stable order-8 low-pass: eight poles at z = 0.5, (1 - 0.5/z)^8 (exact binary coefficients,
    # no SciPy needed to set the case up), unit gain at DC
    a = numpy.array([math.comb(8, k) * (-0.5) ** k for k in range(9)])
    b = numpy.full(9, a.sum() / 9)
    x = random_array(xp, (lines, 1000 * n // lines), "float64", seed=47)
    bb, aa = xp.asarray(b), xp.asarray(a)
    return lambda: sig.lfilter(bb, aa, x)


fftc = register(
    "fftconvolve", group="ndimage-signal",
    description="signal.fftconvolve(x, k) of float32 x (n samples) with a 1e4-sample kernel",
    size=10**7, quick=10**6,
    nbytes=lambda n, p: 8.0 * n,
)


@fftc.setup("cuarray", "cupy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float32", seed=48)
    k = random_array(xp, 10**4, "float32", seed=49)
    return lambda: sig.fftconvolve(x, k)


@fftc.setup("torch")
def _(torch, n, param):
    x = random_array(torch, n, "float32", seed=48)
    k = random_array(torch, 10**4, "float32", seed=49)
    full = n + 10**4 - 1
    m = 1 << (full - 1).bit_length()  # a power of two, as a torch user would pick
    return lambda: torch.fft.irfft(torch.fft.rfft(x, m) * torch.fft.rfft(k, m), m)[:full]


edt = register(
    "distance_transform_edt", group="ndimage-signal",
    description="ndimage.distance_transform_edt of a random 2048^2 mask (background 1%)",
    size=2048, quick=1024,
    nbytes=lambda n, p: 9.0 * n * n * 3,  # mask read; float64 squared distances read and written per axis
)


@edt.setup("cuarray", "cupy")
def _(xp, n, param):
    nd = _ndimage(xp)
    mask = random_array(xp, (n, n), "float32", seed=50) > 0.51
    return lambda: nd.distance_transform_edt(mask)


welch = register(
    "welch", group="ndimage-signal",
    description="signal.welch(x, window=hanning(256)) of float32 x (n samples)",
    size=10**8, quick=10**7,
    nbytes=lambda n, p: 4.0 * n,
)


@welch.setup("cuarray", "cupy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float32", seed=51)
    win = xp.asarray(__import__("numpy").hanning(256).astype("float32"))  # an array window: no SciPy needed
    return lambda: sig.welch(x, window=win, nperseg=256)


@welch.setup("torch")
def _(torch, n, param):
    x = random_array(torch, n, "float32", seed=51)
    win = torch.hann_window(256, periodic=False, device="cuda")
    scale = 1.0 / float((win * win).sum())

    def run():  # welch's defaults: half overlap, constant detrend, one-sided density
        frames = x.unfold(0, 256, 128)
        frames = frames - frames.mean(dim=-1, keepdim=True)
        p = torch.fft.rfft(frames * win).abs().square().mean(dim=0) * scale
        p[1:-1] *= 2
        return p

    return run


peaks = register(
    "find_peaks", group="ndimage-signal",
    description="signal.find_peaks(x) of float64 x (n samples; every local maximum)",
    size=10**7, quick=10**6,
    nbytes=lambda n, p: 8.0 * n,
)


@peaks.setup("cuarray", "cupy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float64", seed=52)
    return lambda: sig.find_peaks(x)
