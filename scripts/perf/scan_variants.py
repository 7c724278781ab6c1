"""Which flat-scan shape reaches the copy rate? (run on the GPU machine; docs/perf-notes.md has the
prediction and the outcome)

Variants of the flat kernel (cuarray/_core/scan.py module knobs): elements per thread (_ITEMS),
then the knob tuple (_NARROW_KNOBS / _WIDE_KNOBS): warps per block, tiles per lane in one look-back
window (span), polls before sleeping (spins), tile order (0 ticket, 1 blockIdx), evict-first
tile accesses (streaming) and __launch_bounds__' minimum blocks per SM (0 = none);
the last two reach only kernels whose types are 4 bytes or narrower (so not the float64 column).
Session 4 also ran a pipelined kernel (persistent blocks prefetching their next tile with cp.async;
commit 4591ad0 has it); it lost and was removed. Each variant is checked first (int32 -> int64 cumsum exactly,
float32 cumsum against a float64 reference, an unaligned float32 view, rows-as-segments exactly,
an exclusive int32 sum exactly, two runs bit-identical), then timed: cumsum of 1 GiB float32,
cumsum(axis=1) of 16384^2 float32 and cumsum of 1 GiB float64, median of 20 after warm-up, as a
fraction of a device-to-device copy of the same bytes (read + write). torch.cumsum and
cupy.cumsum of the same 1 GiB float32 are timed in the same process, when importable.

    python3 scripts/perf/scan_variants.py [ITEMS,WARPS,SPAN,SPINS[,ORDER[,STREAMING[,MIN_BLOCKS]]] ...]
"""

import sys
import time

import numpy

import cuarray as cp
from _timing import event_times
from cuarray._core import scan

# Run 1 (H200): (16|24|32 items) x (8 warps, span 1|2), (16, 4, 1), (24, 4, 2), (32, 4, 2), spins 8|1000.
# Run 2 (H200): (16..64 items) x (1, 2, 4 warps). Session 4 (H100, docs/perf-notes.md): run 1 the
# pipelined kernel against the old one; run 2 (these, with a 0 blocks-per-SM slot after SPINS
# then) the tile order, evict-first accesses, forced residency.
DEFAULT_VARIANTS = [
    (48, 4, 1, 8, 0, 0, 0), (48, 4, 1, 8, 1, 0, 0), (48, 4, 1, 8, 0, 0, 7), (48, 4, 1, 8, 1, 0, 8),
    (48, 4, 1, 8, 1, 1, 0), (48, 4, 1, 8, 1, 1, 8), (64, 4, 1, 8, 1, 0, 0), (32, 4, 1, 8, 1, 0, 0),
    (64, 2, 1, 8, 1, 0, 0),
]


def timeit(fn, reps=20):
    """(median, min) seconds of fn."""
    ts = event_times(fn, reps)
    return float(numpy.median(ts)) * 1e-6, min(ts) * 1e-6


def configure(items, warps, span, spins, order=1, streaming=0, min_blocks=0):
    # One variant's knobs for both width classes (the float64 column: no streaming, no min_blocks).
    scan._ITEMS = items
    scan._NARROW_KNOBS = (warps, span, spins, order, streaming, min_blocks)
    scan._WIDE_KNOBS = (warps, span, spins, order, 0, 0)
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
    out = cp.cumsum(cp.asarray(xf)[1:]).get()  # 4-byte aligned only: scalar accesses
    err1 = numpy.max(numpy.abs(out - numpy.cumsum(xf[1:].astype(numpy.float64))) / scale[1:])
    assert err1 < 1e-4, "unaligned float32 cumsum error {}".format(err1)
    xs = rng.integers(-9, 9, (37, 50003)).astype(numpy.int64)
    got = cp.cumsum(cp.asarray(xs), axis=1).get()
    assert numpy.array_equal(got, numpy.cumsum(xs, axis=1)), "segmented cumsum differs"
    xs = rng.integers(-9, 9, (301, 50021)).astype(numpy.int32)
    got = cp.cumsum(cp.asarray(xs), axis=1).get()
    assert numpy.array_equal(got, numpy.cumsum(xs, axis=1)), "segmented int32 cumsum differs"
    got = scan.exclusive_sum_1d(cp.asarray(xi), dtype=numpy.int32).get()
    ref = numpy.concatenate([[0], numpy.cumsum(xi, dtype=numpy.int32)[:-1]]).astype(numpy.int32)
    assert numpy.array_equal(got, ref), "exclusive int32 sum differs"
    return err


def peers(host):
    """(name, median seconds) of torch.cumsum and cupy.cumsum of `host` on the device, each timed
    with its own library's events on its own current stream."""
    out = []
    try:
        import torch
        t = torch.from_numpy(host).cuda()
        out.append(("torch", _peer_time(lambda: torch.cumsum(t, 0), lambda: torch.cuda.Event(enable_timing=True),
                                        lambda a, b: a.elapsed_time(b), torch.cuda.synchronize)))
    except Exception as exc:  # noqa: BLE001 - a missing peer is reported, not fatal
        print("torch: not timed ({})".format(exc))
    try:
        import cupy
        c = cupy.asarray(host)
        out.append(("cupy", _peer_time(lambda: cupy.cumsum(c), cupy.cuda.Event, cupy.cuda.get_elapsed_time,
                                       cupy.cuda.Device().synchronize)))
    except Exception as exc:  # noqa: BLE001
        print("cupy: not timed ({})".format(exc))
    return out


def _peer_time(fn, event, elapsed_ms, sync, reps=20):
    for _ in range(3):
        fn()
    sync()
    ts = []
    for _ in range(reps):
        a, b = event(), event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(elapsed_ms(a, b))
    return float(numpy.median(ts)) * 1e-3


def main():
    variants = [(tuple(int(v) for v in a.split(",")) + (1, 0, 0)[max(0, len(a.split(",")) - 4):])[:7]
                for a in sys.argv[1:]] or DEFAULT_VARIANTS
    rng = numpy.random.default_rng(int(time.time()))
    n = 2**28
    x = cp.asarray(rng.random(n, dtype=numpy.float32) - 0.25)
    y = cp.empty_like(x)
    copy_t, _ = timeit(lambda: y.data.copy_from_device_async(x.data, 4 * n))
    m = cp.asarray(rng.random((16384, 16384), dtype=numpy.float32))
    xd = cp.asarray(rng.random(n // 2) - 0.25)
    print("copy 1 GiB: {:.3f} ms = {:.0f} GB/s (read + write)".format(copy_t * 1e3, 8 * n / copy_t / 1e9), flush=True)
    for name, t in peers(x.get()):
        print("peer {}: cumsum 1 GiB f32 {:.3f} ms = {:.3f} x copy".format(name, t * 1e3, copy_t / t), flush=True)
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
            print("{} checked+timed in {:.1f} s: 1-D f32 {:.3f} x copy, axis=1 {:.3f}, f64 {:.3f}".format(
                v, time.perf_counter() - t0, copy_t / t1d, copy_t / t2d, copy_t / t3d), flush=True)
        except Exception as exc:  # noqa: BLE001 - report and go on
            rows.append((v, "FAIL " + str(exc)[:60], 0, 0, 0, 0, 0))
            print(v, "FAIL", exc, flush=True)
    print("\nitems warps span spins ord cs minb | check      f32 err | 1-D f32 1GiB ms  x copy (min) | axis=1 16k^2 ms  x copy"
          " | 1-D f64 1GiB x copy")
    for v, st, err, t1, t1min, t2, t3 in rows:
        if t1:
            print("{:>5} {:>5} {:>4} {:>5} {:>3} {:>2} {:>4} | {:<6} {:9.2e} | {:8.3f}  {:6.3f} ({:5.3f}) | {:8.3f}  {:6.3f} | {:6.3f}".format(
                *v, st, err, t1 * 1e3, copy_t / t1, copy_t / t1min, t2 * 1e3, copy_t / t2, copy_t / t3))
        else:
            print("{:>5} {:>5} {:>4} {:>5} {:>3} {:>2} {:>4} | {}".format(*v, st))
    good = [r for r in rows if r[1] == "ok" and r[3]]
    if good:
        best = min(good, key=lambda r: r[3])[0]
        print("BEST={}".format(",".join(map(str, best))))


if __name__ == "__main__":
    main()
