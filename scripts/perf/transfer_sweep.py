"""Pageable host<->device 1 GiB through pinned staging: chunk size x host-copy threads (GPU).
Prediction: D2H is limited by first-touch page faults in the fresh destination; more host threads
should help D2H (faults in parallel), chunk size matters little above 8 MiB."""
import time

import numpy

import cuarray as cp
from cuarray._core import _staging

n = 2**28
host = numpy.random.default_rng(0).random(n, dtype=numpy.float32)
dev = cp.asarray(host)


def med(fn, reps=5):
    fn()
    ts = []
    for _ in range(reps):
        cp.cuda.Stream.null.synchronize()
        t = time.perf_counter()
        fn()
        cp.cuda.Stream.null.synchronize()
        ts.append(time.perf_counter() - t)
    return float(numpy.median(ts))


print("direct (no staging) H2D {:.1f} GB/s".format(2**30 / med(lambda: cp.cuda.memory.alloc(2**30).copy_from_host_async(host.ctypes.data, 2**30)) / 1e9))
for chunk in (8 << 20, 32 << 20):
    for threads in (1, 4, 8, 12):
        _staging.PINNED_CHUNK = chunk
        _staging.HOST_COPY_THREADS = threads
        _staging._per_device.clear()
        _staging._pool = None
        h2d = med(lambda: cp.asarray(host))
        d2h = med(lambda: dev.get())
        out = numpy.empty_like(host)
        d2h_out = med(lambda: dev.get(out=out))
        print("chunk {:>2} MiB threads {:>2}: H2D {:5.1f} GB/s  D2H new {:5.1f} GB/s  D2H into existing {:5.1f} GB/s".format(
            chunk >> 20, threads, 2**30 / h2d / 1e9, 2**30 / d2h / 1e9, 2**30 / d2h_out / 1e9))
