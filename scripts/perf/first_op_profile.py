"""Where the first `x + y` of a fresh process spends its time, by function (run on the GPU machine,
twice with the same CUARRAY_CACHE_DIR: the second run is the warm-cache case). Prints the stages
(import, context, first op) and cProfile's top entries of the first op by cumulative time; `--root`
imports cuarray from another tree (a baseline) for before/after in the same machine."""

import argparse
import cProfile
import os
import pstats
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--root")
ap.add_argument("--top", type=int, default=30)
args = ap.parse_args()
if args.root:
    sys.path.insert(0, os.path.abspath(args.root))
t0 = time.perf_counter()
import numpy  # noqa: E402

t1 = time.perf_counter()
import cuarray as cp  # noqa: E402

t2 = time.perf_counter()
hx = numpy.arange(16, dtype=numpy.float32)


def first():
    z = cp.asarray(hx) + cp.asarray(hx)
    cp.cuda.Device().synchronize()
    return z


prof = cProfile.Profile()
t3 = time.perf_counter()
prof.enable()
z = first()
prof.disable()
t4 = time.perf_counter()
first()
t5 = time.perf_counter()
print("cuarray from {}: import numpy {:.1f} ms, import cuarray {:.1f} ms, first op (profiled) {:.1f} ms, "
      "second {:.2f} ms".format(os.path.dirname(cp.__file__), (t1 - t0) * 1e3, (t2 - t1) * 1e3,
                                (t4 - t3) * 1e3, (t5 - t4) * 1e3))
assert (z.get() == 2 * hx).all()
pstats.Stats(prof).sort_stats("cumulative").print_stats(args.top)
