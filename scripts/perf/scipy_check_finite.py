"""What SciPy's default `check_finite=True` costs in cuarray.scipy.linalg: one fused all-finite
reduction per operand and one host read (a synchronisation) per call. Wall-clock time per call
(the device synchronised after each call, so both columns include the computation), with the
check and without, for small and large single matrices and a stack of small ones, and the
check alone (`require_finite`). Prints one row per case.
Run: python scripts/perf/scipy_check_finite.py"""

from __future__ import annotations

import statistics
import time

import numpy

import cuarray
from cuarray.scipy import linalg as cla
from cuarray.scipy.linalg._validate import require_finite


def _wall_us(fn, reps=20, warmup=3):
    for _ in range(warmup):
        fn()
    cuarray.cuda.Device().synchronize()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        cuarray.cuda.Device().synchronize()
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def main():
    rng = numpy.random.default_rng(7)
    cases = []
    for shape in [(16, 16), (256, 256), (2048, 2048), (8192, 8192), (1000, 8, 8)]:
        n = shape[-1]
        a = cuarray.asarray(rng.normal(size=shape) + n * numpy.eye(n))
        b = cuarray.asarray(rng.normal(size=shape[:-1] + (4,)))
        spd = cuarray.asarray(numpy.matmul(cuarray.asnumpy(a), numpy.swapaxes(cuarray.asnumpy(a), -1, -2)))
        cases += [
            ("solve", shape, lambda c, a=a, b=b: cla.solve(a, b, check_finite=c)),
            ("lu_factor", shape, lambda c, a=a: cla.lu_factor(a, check_finite=c)),
            ("cho_factor", shape, lambda c, s=spd: cla.cho_factor(s, check_finite=c)),
            ("check alone", shape, lambda c, a=a, b=b: require_finite(c, a, b)),
        ]
    print("{:<12} {:<16} {:>12} {:>12} {:>8}".format("function", "shape", "checked_us", "unchecked_us", "ratio"))
    for name, shape, fn in cases:
        yes = _wall_us(lambda: fn(True))
        no = _wall_us(lambda: fn(False))
        print("{:<12} {:<16} {:>12.1f} {:>12.1f} {:>8.2f}".format(name, str(shape), yes, no, yes / max(no, 1e-9)))


if __name__ == "__main__":
    main()
