"""solve_triangular's host time on the fake device (issue 50's row: a 1024 x 1024 float64
upper-triangular `t`, `b` (1024, 64), SciPy's default check_finite=True). With the check the call
reads its flags before returning, so its host time before the solve's launch and around the read
is on the device's critical path. Rows: the bench call with and without the check, a small
system and a batch. Each row: the median of per-call perf_counter times (REPS calls after a
warm-up) in us, the Python calls a call makes (`_calls.count_calls`: steady where us move on a
shared machine), and its kernel launches (cuBLAS's trsm is a stand-in, not counted). `--root DIR`
imports cuarray from another tree (before/after); `--profile NAME` prints cProfile's top entries.

    python scripts/perf/solve_triangular_host.py [--root DIR] [--profile bench]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time

REPS = 3000


def _stub():
    """The fake device, plus what this call needs beyond it: downloads that read as all-ones
    bytes (every flag true, no partial set... see `_Copies`), no memsets, synchronisations and
    events that return at once, a no-op trsm, fake pinned memory."""
    from cuarray.testing.fake_device import FakeCompiles, FakePinned, install

    install()
    from cuarray.cuda import _memory_base, _observe, pinned_memory, stream

    class _Copies(FakeCompiles):
        fill = 1  # the old code's flags are "all true"; the fused check's partials "nothing bad" (0)

        def copy(self, kind, call, dst, other, size, stream):
            if kind == "DtoH":  # `other` is the host address or pinned block
                ctypes.memset(int(other) if not hasattr(other, "ctypes") else other.ctypes.data, self.fill, size)

    obs = _Copies()
    _observe.set_observer(obs)
    class _Pinned(FakePinned):  # every copy done at once (the fake's events wait to be told)
        def done(self, ev):
            return True

    pinned_memory.set_pinned_memory_allocator(pinned_memory.PinnedMemoryPool(backing=_Pinned()).malloc)
    _memory_base.MemoryPointer.memset_async = lambda self, *a, **k: None
    _memory_base.MemoryPointer.memset = lambda self, *a, **k: None
    stream.Stream.synchronize = lambda self: None

    class _Event:  # cuEventCreate/Record/Query/Synchronize need a driver
        done = True

        def __init__(self, *a, **k):
            self.ptr = 0

        def synchronize(self):
            pass

    stream.Event = _Event
    stream.Stream.record = lambda self, event=None: event or _Event()
    from cuarray.cuda.libs import cublas_trsm

    cublas_trsm.trsm = lambda *a: None
    return obs


def cases():
    import numpy as np

    import cuarray as cp
    from cuarray.scipy import linalg as cla

    t, b = cp.empty((1024, 1024), np.float64), cp.empty((1024, 64), np.float64)
    s, v = cp.empty((8, 8), np.float64), cp.empty((8,), np.float64)
    st, sb = cp.empty((16, 8, 8), np.float64), cp.empty((16, 8, 2), np.float64)
    return {"bench": lambda: cla.solve_triangular(t, b),
            "bench no check": lambda: cla.solve_triangular(t, b, check_finite=False),
            "8x8, vector": lambda: cla.solve_triangular(s, v),
            "16 x 8x8 stack": lambda: cla.solve_triangular(st, sb)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", help="import cuarray from this tree")
    p.add_argument("--profile", help="cProfile this row")
    p.add_argument("--reps", type=int, default=REPS)
    args = p.parse_args()
    sys.path.insert(0, os.path.abspath(args.root) if args.root else os.path.join(os.path.dirname(__file__), "..", ".."))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _calls import count_calls, print_profile

    obs = _stub()
    import cuarray
    from cuarray.cuda import launch

    launches = [0]

    def hook(raw, *a):
        launches[0] += 1
        return raw(*a)

    launch.set_launch_hook(hook)
    old = not hasattr(__import__("cuarray.scipy.linalg._triangular", fromlist=["x"]), "_checks")
    obs.fill = 1 if old else 0
    print("# cuarray from", os.path.dirname(cuarray.__file__))
    for name, fn in cases().items():
        for _ in range(50):
            fn()  # warm: kernels, plans
        launches[0] = 0
        fn()
        n_launch = launches[0]
        ts = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
        print("{:<16} {:>7.1f} us  {:>5} calls  {} launches".format(name, statistics.median(ts) * 1e6, count_calls(fn),
                                                                    n_launch))
        if args.profile == name:
            print_profile(fn, sort=os.environ.get("SORT", "tottime"), top=int(os.environ.get("TOP", "30")))


if __name__ == "__main__":
    main()
