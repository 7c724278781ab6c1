"""signal.stft's host time on the fake device (issue 52's stft row: stft(x, nperseg=256) of 2^22
float32 samples, ~60 us of kernels on the H100): what the call costs the host before its launches,
while the GPU waits. Rows: the bench call and its neighbours (a float64 signal, a batch along
axis 0, a device window, spectrogram's complex mode). Each row: the median of per-call
perf_counter times (REPS calls after a warm-up) in us, and the Python calls a call makes
(`_calls.count_calls`: steady where us move on a shared machine). `--profile NAME` prints
cProfile's top entries for row NAME; `--root DIR` imports cuarray from another tree (before/after).

    python scripts/perf/stft_host.py [--root DIR] [--profile bench]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

REPS = 3000


def cases():
    import numpy as np

    import cuarray as cp
    from cuarray.scipy import signal

    n = 2 ** 22
    x = cp.empty(n, np.float32)
    x64 = cp.empty(n, np.float64)
    xb = cp.empty((8, 2 ** 16), np.float32)
    w = cp.empty(256, np.float32)
    return {"bench": lambda: signal.stft(x, nperseg=256),
            "float64": lambda: signal.stft(x64, nperseg=256),
            "batch axis=0": lambda: signal.stft(xb.T, nperseg=256, axis=0),
            "device window": lambda: signal.stft(x, window=w, nperseg=256),
            "spectrogram": lambda: signal.spectrogram(x, nperseg=256, mode="complex")}


class _FakeCufft:
    """nvmath's cufft bindings as far as `cufft.Plan` and `cufft.execute` use them: no-ops."""

    cuFFTError = RuntimeError

    def create(self):
        return 1

    def make_plan_many64(self, *args):
        return 0  # no work area

    def __getattr__(self, name):  # set_auto_allocation, set_stream, exec_*, destroy
        return lambda *args: None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", help="import cuarray from this tree")
    p.add_argument("--profile", help="cProfile this row")
    p.add_argument("--reps", type=int, default=REPS)
    args = p.parse_args()
    if args.root:
        sys.path.insert(0, args.root)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _calls import count_calls, print_profile
    from cuarray.testing.fake_device import install as stub_device  # the one fake device

    stub_device()
    from cuarray.cuda import _observe
    from cuarray.testing.fake_device import FakeCompiles

    class NoCopies(FakeCompiles):
        def copy(self, kind, call, dst, other, size, stream):
            return None  # the constructions' copies and uploads: no driver on the fake device

    _observe.set_observer(NoCopies())
    from cuarray.cuda import pinned_memory
    from cuarray.testing.fake_device import FakePinned

    pinned_memory.set_pinned_memory_allocator(pinned_memory.PinnedMemoryPool(backing=FakePinned()).malloc)
    from cuarray.cuda.libs import cufft

    cufft._lib = _FakeCufft()  # the real plan cache and execute path, no library under them
    from cuarray.cuda import stream

    stream.Stream.synchronize = lambda self: None  # a first call's table upload waits: no driver here
    import cuarray

    print("# cuarray from", os.path.dirname(cuarray.__file__))
    for name, fn in cases().items():
        try:
            for _ in range(50):
                fn()  # warm: kernels, windows, plans
        except Exception as e:  # an older tree (--root) that needs the driver here
            if os.environ.get("TRACE"):  # (the traceback of a row that fails)
                import traceback
                traceback.print_exc()
            print("{:<16} n/a ({}: {})".format(name, type(e).__name__, e))
            continue
        ts = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
        print("{:<16} {:>7.1f} us  {:>5} calls".format(name, statistics.median(ts) * 1e6, count_calls(fn)))
        if args.profile == name:
            print_profile(fn, sort=os.environ.get("SORT", "tottime"), top=int(os.environ.get("TOP", "30")))


if __name__ == "__main__":
    main()
