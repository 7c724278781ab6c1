"""Where signal's FFT rows spend their time on the GPU (issue 52's misses): for stft (2^22 float32,
nperseg 256), welch (1e7, hanning(256)) and fftconvolve (1e6 by 1e4), the whole call against its
parts timed alone with CUDA events (the framing kernel, the batched rfft, the output layout), the
wall time of one call with a sync (host-bound work shows as wall >> events), and cuarray.profile's
kernel/sync table of one call. PyTorch's equivalent pieces in the same process where importable.

    python scripts/perf/spectral_breakdown.py
"""

import time

import numpy

import cuarray
from cuarray.scipy import signal
from cuarray.scipy.signal import _spectral_fused as fz

from _timing import event_us


def _wall_us(fn, reps=30):
    fn()
    cuarray.cuda.Device().synchronize()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        cuarray.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t0) * 1e6)
    return float(numpy.median(ts))


def _row(name, fn):
    print("  {:<44s} events {:8.1f} us   wall {:8.1f} us".format(name, event_us(fn), _wall_us(fn)))


def _profile(fn):
    fn()
    with cuarray.profile() as prof:
        fn()
    print(prof.table(sort="name", limit=30))


def main():
    rng = numpy.random.default_rng(0)
    n = 2 ** 22
    x = cuarray.asarray(rng.standard_normal(n).astype(numpy.float32))
    frames = cuarray.asarray(rng.standard_normal((n // 128 + 1, 256)).astype(numpy.float32))
    print("stft 2^22, nperseg 256")
    _row("signal.stft", lambda: signal.stft(x, nperseg=256))
    _row("fft.rfft of the frames (32769 x 256)", lambda: cuarray.fft.rfft(frames, axis=-1))
    spec = cuarray.fft.rfft(frames, axis=-1)
    _row("copy of the spectrum's transpose (stft returns a view)", lambda: cuarray.ascontiguousarray(spec.T))
    hann = numpy.hanning(256)
    _row("frames alone (row kernel, no detrend)", lambda: fz.frames(x, hann, 256, 128, 256, False))
    _profile(lambda: signal.stft(x, nperseg=256))
    m = 10 ** 7
    y = cuarray.asarray(rng.standard_normal(m).astype(numpy.float32))
    win = cuarray.asarray(numpy.hanning(256).astype(numpy.float32))
    print("welch 1e7, hanning(256)")
    _row("signal.welch", lambda: signal.welch(y, window=win, nperseg=256))
    fr = cuarray.asarray(rng.standard_normal((m // 128 - 1, 256)).astype(numpy.float32))
    _row("fft.rfft of the frames ({} x 256)".format(m // 128 - 1), lambda: cuarray.fft.rfft(fr, axis=-1))
    _row("frames alone (row kernel, means inside)", lambda: fz.frames(y, hann, 256, 128, 256, True))
    spec_w = cuarray.fft.rfft(fr, axis=-1)
    c = cuarray.asarray(numpy.ones(129))
    _row("mean of |X|^2 over the segments alone", lambda: fz.mean_power(spec_w, c, numpy.dtype(numpy.float32)))
    _profile(lambda: signal.welch(y, window=win, nperseg=256))
    a = cuarray.asarray(rng.standard_normal(10 ** 6).astype(numpy.float32))
    k = cuarray.asarray(rng.standard_normal(10 ** 4).astype(numpy.float32))
    print("fftconvolve 1e6 by 1e4")
    _row("signal.fftconvolve", lambda: signal.fftconvolve(a, k))
    full = 10 ** 6 + 10 ** 4 - 1
    p2 = 1 << (full - 1).bit_length()
    _row("rfft(a, 2^21) alone", lambda: cuarray.fft.rfft(a, p2))
    _row("rfft/irfft pair at 2^21 (torch's way)", lambda: cuarray.fft.irfft(cuarray.fft.rfft(a, p2) *
                                                                           cuarray.fft.rfft(k, p2), p2)[:full])
    _profile(lambda: signal.fftconvolve(a, k))
    try:
        import torch
    except ImportError:
        return
    tx = torch.as_tensor(x.get(), device="cuda")
    tf = torch.as_tensor(frames.get(), device="cuda")
    tw = torch.hann_window(256, periodic=True, device="cuda")
    tc = _TorchTiming(torch)
    print("torch: stft {:.1f} us, rfft of the frames {:.1f} us".format(
        event_us(lambda: torch.stft(tx, 256, hop_length=128, window=tw, center=True, pad_mode="constant",
                                    return_complex=True), cuda=tc),
        event_us(lambda: torch.fft.rfft(tf, dim=-1), cuda=tc)))


class _TorchTiming:
    """event_us's `cuda` argument for PyTorch: Event() and get_elapsed_time(start, end) in ms."""

    def __init__(self, torch):
        self._torch = torch

    def Event(self):  # noqa: N802 (cuarray.cuda's name)
        return self._torch.cuda.Event(enable_timing=True)

    @staticmethod
    def get_elapsed_time(start, end):
        return start.elapsed_time(end)


if __name__ == "__main__":
    main()
