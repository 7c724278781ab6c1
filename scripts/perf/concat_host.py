"""Is concatenate of 100 x 4 MiB host-bound? Host time per call (no sync) against device time per
call (CUDA events, many calls queued). Run on the GPU machine: python scripts/perf/concat_host.py"""

import time

import numpy

import cuarray


def main():
    parts = [cuarray.asarray(numpy.random.default_rng(i).standard_normal(1 << 20, dtype=numpy.float32))
             for i in range(100)]
    for _ in range(5):
        cuarray.concatenate(parts)
    cuarray.cuda.Device().synchronize()
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        cuarray.concatenate(parts)
    host = (time.perf_counter() - t0) / reps
    cuarray.cuda.Device().synchronize()
    t1 = time.perf_counter() - t0
    print("host time per call  {:.1f} us (enqueue only)".format(host * 1e6))
    print("wall per call       {:.1f} us (with the final sync)".format(t1 / reps * 1e6))
    small = [cuarray.asarray(numpy.arange(16, dtype=numpy.float32)) for _ in range(100)]
    for n in (2, 3, 10, 100):
        cuarray.concatenate(small[:n])
        cuarray.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(reps):
            cuarray.concatenate(small[:n])
        cuarray.cuda.Device().synchronize()
        print("{:3d} x 64 B inputs: {:.1f} us per call".format(n, (time.perf_counter() - t0) / reps * 1e6))


if __name__ == "__main__":
    main()
