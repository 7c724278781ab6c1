"""RBFInterpolator(neighbors=50) with 1e6 thin-plate-spline centres in 2-D (issue 53's row), cuarray
against CuPy in one process: build (the tree) and evaluation, seconds, and the largest difference
between the two. CuPy is timed at 1e4 points only (31-38 s there on an H200: minutes past it).

Before (H200): cuarray 1.24 s at 1e4 points, 12.4 s at 1e5 (a cuSOLVER call a 53 x 53 system:
BATCHED_LU_MAX_N was 32); brute-force neighbours before that, 3.2 s at 1e4 on an H100.
Prediction with the KD-tree and the batched LU: ~0.1 s at 1e5, ~1 s at 1e6. Measured (H200):
0.008 s at 1e4 (CuPy 31.0 s, largest difference 3.9e-14), 0.068 s at 1e5, 0.585 s at 1e6.

Run on the GPU machine: PYTHONPATH=$PWD python scripts/perf/rbf_neighbors_probe.py
"""

import time

import numpy

import cuarray
from cuarray.scipy import interpolate as ci


def _run(name, xp, ip, sync, y, d, q):
    t = time.perf_counter()
    f = ip.RBFInterpolator(xp.asarray(y), xp.asarray(d), neighbors=50, smoothing=1e-6)
    sync()
    build = time.perf_counter() - t
    qq = xp.asarray(q)
    for _ in range(2):
        t = time.perf_counter()
        out = f(qq)
        sync()
        ev = time.perf_counter() - t
    print("{:<8} {:>8} points: build {:.3f} s, evaluation {:.3f} s".format(name, q.shape[0], build, ev), flush=True)
    return out.get()


def main():
    rng = numpy.random.default_rng(67)
    y = rng.uniform(0, 1, (10**6, 2))
    d = numpy.sin(6 * y[:, 0]) * y[:, 1]
    sync = cuarray.cuda.Device().synchronize
    for m in (10**4, 10**5, 10**6):
        q = rng.uniform(0, 1, (m, 2))
        ours = _run("cuarray", cuarray, ci, sync, y, d, q)
        if m == 10**4:
            try:
                import cupy
                from cupyx.scipy import interpolate as cpi
            except ImportError:
                continue
            theirs = _run("cupy", cupy, cpi, cupy.cuda.Device().synchronize, y, d, q)
            print("  largest difference: {:.2e}".format(float(numpy.abs(theirs - ours).max())))


if __name__ == "__main__":
    main()
