"""Which flat-scan shape reaches the copy rate? (run on the GPU machine; docs/perf-notes.md has the
prediction and the outcome)

Variants of the flat kernel (cuarray/_core/scan.py module knobs): elements per thread (_ITEMS),
warps per block (_FLAT_WARPS), tiles per lane in one look-back window (_LOOKBACK_SPAN) and polls
before sleeping (_LOOKBACK_SPINS). Each variant is checked first (int32 -> int64 cumsum exactly,
float32 cumsum against a float64 reference, rows-as-segments exactly, two runs bit-identical), then
timed: cumsum of 1 GiB float32 and cumsum(axis=1) of 16384^2 float32, median of 20 after warm-up,
as a fraction of a device-to-device copy of the same bytes (read + write).

    python3 scripts/perf/scan_variants.py [ITEMS,WARPS,SPAN,SPINS ...]
"""

import sys
import time

import numpy

import cuarray as cp
from _timing import event_times
from cuarray._core import scan

# Run 1 (H200): (16|24|32 items) x (8 warps, span 1|2), (16, 4, 1), (24, 4, 2), (32, 4, 2), spins 8|1000.
DEFAULT_VARIANTS = [
    (16, 8, 1, 8), (32, 4, 2, 8), (32, 4, 1, 8), (32, 2, 1, 8), (32, 2, 2, 8), (32, 1, 1, 8),
    (24, 2, 1, 8), (48, 2, 1, 8), (48, 4, 1, 8), (64, 2, 1, 8),
]


def timeit(fn, reps=20):
    """(median, min) seconds of fn."""
    ts = event_times(fn, reps)
    return float(numpy.median(ts)) * 1e-6, min(ts) * 1e-6


def configure(items, warps, span, spins):
    scan._ITEMS, scan._FLAT_WARPS, scan._LOOKBACK_SPAN, scan._LOOKBACK_SPINS = items, warps, span, spins
    # kernels are cached per knob set (key and name), nothing to clear
    # (CUARRAY_SCAN_KNOBS="items,warps,span,spins" sets the same knobs for a whole run: pytest, bench)


def check(rng):
    """Raises AssertionError on a wrong result."""
    n = 10**7 + 7
    xi = rng.integers(-50, 50, n).astype(numpy.int32)
    got = cp.cumsum(cp.asarray(xi)).get()
    assert numpy.array_equal(got, numpy.cumsum(xi)), "int32 cumsum differs"
    m = 2**24 + 5
    xf = (rng.random(m) - 0.25).astype(numpy.float32)
    poison = cp.asarray(numpy.full(m, numpy.nan, numpy.float32))
    out = cp.cumsum(cp.asarray(xf), out=poison).get()
    ref = numpy.cumsum(xf.astype(numpy.float64))
    scale = numpy.cumsum(numpy.abs(xf.astype(numpy.float64))) + 1
    err = numpy.max(numpy.abs(out - ref) / scale)
    assert numpy.isfinite(out).all() and err < 1e-5, "float32 cumsum error {}".format(err)
    xs = rng.integers(-9, 9, (37, 50003)).astype(numpy.int64)
    got = cp.cumsum(cp.asarray(xs), axis=1).get()
    assert numpy.array_equal(got, numpy.cumsum(xs, axis=1)), "segmented cumsum differs"
    return err


def main():
    variants = [tuple(int(v) for v in a.split(",")) for a in sys.argv[1:]] or DEFAULT_VARIANTS
    rng = numpy.random.default_rng(int(time.time()))
    n = 2**28
    x = cp.asarray(rng.random(n, dtype=numpy.float32) - 0.25)
    y = cp.empty_like(x)
    copy_t, _ = timeit(lambda: y.data.copy_from_device_async(x.data, 4 * n))
    m = cp.asarray(rng.random((16384, 16384), dtype=numpy.float32))
    xd = cp.asarray(rng.random(n // 2) - 0.25)
    print("copy 1 GiB: {:.3f} ms = {:.0f} GB/s (read + write)".format(copy_t * 1e3, 8 * n / copy_t / 1e9), flush=True)
    rows = []
    for v in variants:
        configure(*v)
        try:
            t0 = time.perf_counter()
            err = check(rng)
            a = cp.cumsum(x)
            b = cp.cumsum(x)
            same = bool(cp.array_equal(a, b))
            del a, b
            t1d, t1min = timeit(lambda: cp.cumsum(x))
            t2d, _ = timeit(lambda: cp.cumsum(m, axis=1))
            t3d, _ = timeit(lambda: cp.cumsum(xd))
            rows.append((v, "ok" if same else "NONDET", err, t1d, t1min, t2d, t3d))
            print("{} checked+timed in {:.1f} s".format(v, time.perf_counter() - t0), flush=True)
        except Exception as exc:  # noqa: BLE001 - report and go on
            rows.append((v, "FAIL " + str(exc)[:60], 0, 0, 0, 0, 0))
            print(v, "FAIL", exc, flush=True)
    print("\nitems warps span spins | check      f32 err | 1-D f32 1GiB ms  x copy (min) | axis=1 16k^2 ms  x copy"
          " | 1-D f64 1GiB x copy")
    for v, st, err, t1, t1min, t2, t3 in rows:
        if t1:
            print("{:>5} {:>5} {:>4} {:>5} | {:<6} {:9.2e} | {:8.3f}  {:6.3f} ({:5.3f}) | {:8.3f}  {:6.3f} | {:6.3f}".format(
                *v, st, err, t1 * 1e3, copy_t / t1, copy_t / t1min, t2 * 1e3, copy_t / t2, copy_t / t3))
        else:
            print("{:>5} {:>5} {:>4} {:>5} | {}".format(*v, st))
    good = [r for r in rows if r[1] == "ok" and r[3]]
    if good:
        best = min(good, key=lambda r: r[3])[0]
        print("BEST={}".format(",".join(map(str, best))))


if __name__ == "__main__":
    main()
