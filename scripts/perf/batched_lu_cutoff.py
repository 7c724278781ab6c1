"""solve() of a stack: cuBLAS's batched LU (getrfBatched/getrsBatched, one launch a stack) against
cuSOLVER's getrf/getrs a matrix, by n and batch (linalg/_solve.py's BATCHED_LU_MAX_N, 32 until
RBFInterpolator(neighbors=50) solved 53 x 53 systems one call each: 1.2 s for 1e4 points).

Prediction: the per-matrix loop costs ~100 us a matrix (two library calls and their host work);
batched getrf at n = 53 is a few us a matrix on the device, so batched wins from a few matrices
up to n in the hundreds; past that, a handful of large matrices favours cuSOLVER's blocked getrf.

Measured (H200, ms, loop / batched): n 33: 0.33 / 0.26 (2 matrices), 22.0 / 0.26 (256), 355 / 0.60
(4096); n 53: 0.39 / 0.26, 30.2 / 0.29, 495 / 1.07; n 64: 0.41 / 0.29, 34.1 / 0.32, 557 / 1.28; n 128
did not finish in four minutes (the run was cut there): the cap is 64.

Run on the GPU machine: PYTHONPATH=$PWD python scripts/perf/batched_lu_cutoff.py
"""

import time

import numpy

import cuarray
from cuarray.linalg import _solve


def _time(fn, reps=3):
    fn()
    cuarray.cuda.Device().synchronize()
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        cuarray.cuda.Device().synchronize()
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def main():
    rng = numpy.random.default_rng(0)
    print("{:>5} {:>6} {:>12} {:>12} {:>8} {:>10}".format("n", "batch", "loop ms", "batched ms", "ratio", "max diff"))
    for n in (33, 53, 64):
        for batch in (2, 16, 256, 4096):
            if batch * n * n * 8 > 2**31 or (batch > 256 and n > 128):
                continue
            a = cuarray.asarray(rng.standard_normal((batch, n, n)) + n * numpy.eye(n))
            b = cuarray.asarray(rng.standard_normal((batch, n, 1)))
            out = {}
            for cap in (32, 10**9):
                _solve.BATCHED_LU_MAX_N = cap  # (a perf script's knob: the module reads it each call)
                out[cap] = (_time(lambda: cuarray.linalg.solve(a, b), 2 if batch > 256 and cap == 32 else 3),
                            cuarray.linalg.solve(a, b).get())
            _solve.BATCHED_LU_MAX_N = 32
            diff = float(numpy.abs(out[32][1] - out[10**9][1]).max())
            print("{:>5} {:>6} {:>12.2f} {:>12.2f} {:>8.2f} {:>10.1e}".format(n, batch, out[32][0], out[10**9][0],
                                                                           out[10**9][0] / out[32][0], diff),
                  flush=True)


if __name__ == "__main__":
    main()
