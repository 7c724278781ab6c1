"""welch's one-pass route (templates/spectral.cu's welch_pairs) against the frames + cuFFT + mean-power
route it replaces, in one process, interleaved over rounds: the bench's call (float32, a device
hanning(256) window, nperseg 256) at 1e7 and 1e8 samples, with the planner's blocks an SM varied
(`per_sm`), float64 at 1e7, and CuPy's welch and PyTorch's equivalent (the bench's formula) where
importable. GPU time (a spinning kernel ahead of each call, _timing.gpu_times) and the fraction of
the copy rate (a 1 GiB device copy's read + write bytes a second; the row counts the signal read).

    python scripts/perf/welch_pairs.py [--sizes 10000000,100000000] [--rounds 3]
"""

import argparse
import statistics

import numpy

import cuarray
from cuarray.scipy import signal
from cuarray.scipy.signal import _spectral_fused as fz

from _timing import gpu_times

_SMS = 132  # (the H100's; the plans' grids only)


def _copy_rate():
    a = cuarray.empty((1 << 28,), numpy.float32)
    b = cuarray.empty_like(a)
    t = statistics.median(gpu_times(lambda: cuarray.copyto(b, a), reps=10))
    return 2 * a.nbytes / (t * 1e-6)


def _variants(n, dtype):
    x = cuarray.asarray(numpy.random.default_rng(51).normal(size=n).astype(dtype))
    host_win = numpy.hanning(256).astype(dtype)
    win = cuarray.asarray(host_win)
    w = fz.device_window(win, x.dtype, 1.0, True)  # (welch's scaled window: scale folded, factors 1 and 2)
    c = fz._constant_table(fz._factors(256, 1.0))
    out = {
        "welch (as called)": lambda: signal.welch(x, window=win, nperseg=256),
        "frames+cuFFT+mean": lambda: fz.mean_power(
            cuarray.fft.rfft(fz.frames(x, w, 256, 128, 256, True, on_device=True), axis=-1), c, x.dtype),
    }
    n_seg = (n - 256) // 128 + 1
    forms = ((128, 4), (128, 1), (256, 2), (64, 1)) if numpy.dtype(dtype).itemsize == 4 else ((64, 1), (128, 1))
    for block, minb in forms:
        for per_sm in (4, 8):
            plan = fz.pairs_plan(n_seg, 1, 256, x.dtype, _SMS, per_sm=per_sm, block=block, minb=minb)
            out["pairs b{} m{} s{}".format(block, minb, per_sm)] = (
                lambda pl=plan: fz.mean_power_pairs(x, w, 256, 128, 256, True, c, plan=pl))
    ref = signal.welch(x, window=win, nperseg=256)[1].get()
    for name in [k for k in out if k != "welch (as called)"]:
        got = out[name]().get()
        err = float(numpy.abs(got - ref).max() / numpy.abs(ref).max())
        if err > 1e-5:
            print("  CHECK FAILED {:<22s} max |diff| / max = {:.2e}".format(name, err))
    try:
        import cupy
        import cupyx.scipy.signal as csig

        cx, cw = cupy.asarray(x.get()), cupy.asarray(host_win)
        out["cupy welch"] = (lambda: csig.welch(cx, window=cw, nperseg=256), cupy.cuda)
    except ImportError:
        pass
    try:
        import torch

        tx = torch.as_tensor(x.get(), device="cuda")
        tw = torch.as_tensor(host_win, device="cuda")
        scale = 1.0 / float((tw * tw).sum())

        def run():
            frames = tx.unfold(0, 256, 128)
            frames = frames - frames.mean(dim=-1, keepdim=True)
            p = torch.fft.rfft(frames * tw).abs().square().mean(dim=0) * scale
            p[1:-1] *= 2
            return p

        class _TorchCuda:  # (_timing's adapter: torch's events)
            Event = staticmethod(lambda: torch.cuda.Event(enable_timing=True))
            get_elapsed_time = staticmethod(lambda a, b: a.elapsed_time(b))
            spin = staticmethod(lambda cycles: torch.cuda._sleep(cycles))

        out["torch (bench formula)"] = (run, _TorchCuda)
    except ImportError:
        pass
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000000,100000000")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rate = _copy_rate()
    print("device copy rate {:.0f} GB/s (read + write)".format(rate / 1e9))
    cases = [(int(n), numpy.float32) for n in args.sizes.split(",")] + [(10**7, numpy.float64)]
    for n, dtype in cases:
        print("welch of {} {} samples, nperseg 256 (us, GPU time; x copy: the signal read)".format(
            n, numpy.dtype(dtype).name))
        variants = _variants(n, dtype)
        got = {k: [] for k in variants}
        for _ in range(args.rounds):
            for name, v in variants.items():
                fn, cuda = v if isinstance(v, tuple) else (v, None)
                got[name] += gpu_times(fn, reps=10, cuda=cuda)
        nbytes = n * numpy.dtype(dtype).itemsize
        for name, ts in got.items():
            med = statistics.median(ts)
            print("  {:<26s} median {:9.1f}  min {:9.1f}  x copy {:.2f}".format(
                name, med, min(ts), nbytes / (med * 1e-6) / rate))


if __name__ == "__main__":
    main()
