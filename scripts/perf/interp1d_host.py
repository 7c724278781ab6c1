"""interp1d.__call__'s host time on the fake device (issue 53): what the public call costs the
host before its launch, while the GPU waits. The bench row (interp1d(x, y, bounds_error=False) on
1e4 knots, 1e7 float64 points: numpy.interp's formula, the interleaved table) and its neighbours
(fill_value='extrapolate', two columns, complex values, float32, bounds_error=True with the
device read stubbed). Each row: the median of per-call perf_counter times (REPS calls after a
warm-up) in µs, and the Python calls a call makes (`_calls.count_calls`: steady across runs where
µs move by tens of percent on a shared machine). `--profile NAME` prints cProfile's top entries
for the row NAME.

    python scripts/perf/interp1d_host.py [--root DIR] [--profile bench]
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
    from cuarray.scipy import interpolate as ci

    n, m = 10**4, 10**7
    x, y, q = cp.empty(n), cp.empty(n), cp.empty(m)
    f = ci.interp1d(x, y, assume_sorted=True, bounds_error=False)
    g = ci.interp1d(x, y, assume_sorted=True, fill_value="extrapolate")
    h = ci.interp1d(x, cp.empty((n, 2)), axis=0, assume_sorted=True, bounds_error=False)
    c = ci.interp1d(x, cp.empty(n, np.complex128), assume_sorted=True, bounds_error=False)
    f4 = ci.interp1d(cp.empty(n, np.float32), cp.empty(n, np.float32), assume_sorted=True, bounds_error=False)
    q4 = cp.empty(m, np.float32)
    return {"bench": lambda: f(q), "extrapolate": lambda: g(q), "two columns": lambda: h(q),
            "complex": lambda: c(q), "float32": lambda: f4(q4), "strided points": lambda: f(q[::2])}


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
    import cuarray

    print("# cuarray from", os.path.dirname(cuarray.__file__))
    for name, fn in cases().items():
        try:
            for _ in range(50):
                fn()  # warm: kernels, fill values, caches
        except Exception as e:  # an older tree (--root) that needs the driver here
            print("{:<16} n/a ({})".format(name, type(e).__name__))
            continue
        ts = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
        print("{:<16} {:>7.1f} us  {:>5} calls".format(name, statistics.median(ts) * 1e6, count_calls(fn)))
        if args.profile == name:
            print_profile(fn, top=25)


if __name__ == "__main__":
    main()
