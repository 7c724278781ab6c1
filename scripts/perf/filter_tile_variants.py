"""Separable ndimage filters (issue 31): the one-output-a-thread pass (filters.cu `filter1d`,
plan "old") against the shared-memory tile passes (templates/filter_tile.cu, plan "tile"; "tile
r/2": half the outputs a thread) in one
process, on gaussian_filter sigma 1..4 (truncate 4: 9/17/25/33 taps) and uniform_filter size
3..9 of a 4096^2 and a 256^3 float32 array, and float64 rows. Each row: microseconds (CUDA-event
median of 20 after warm-up), GB/s counting one read and one write of the array per pass (as the
bench case `gaussian_filter` counts), that as a fraction of the copy rate measured here, the
prediction of docs/perf-notes.md ("Separable filters: a shared tile a pass"), and a check of the
result against the old plan's ("ok" when bit-equal, "BAD" otherwise), then the public call
(which picks by itself) and CuPy's cupyx.scipy.ndimage when installed.

Run on the GPU machine: `python scripts/perf/filter_tile_variants.py`."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import numpy  # noqa: E402
from _timing import event_us  # noqa: E402

import cuarray as cp  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402
from cuarray.scipy.ndimage import _boundary  # noqa: E402
from cuarray.scipy.ndimage import _filter_kernels as fk  # noqa: E402
from cuarray.scipy.ndimage import _filters  # noqa: E402

try:  # a peer, when installed
    import cupy
    import cupyx.scipy.ndimage as cupy_nd
except Exception:  # noqa: BLE001 -- any import failure means no peer
    cupy = None

# H100 SXM: FP32 issue 128 lanes a clock an SM at ~1.755 GHz (the prediction's compute side)
CLOCK, LANES = 1.755e9, 128
REFLECT = _boundary.filter_mode("reflect")


def passes(kind, param, ndim):
    """[(op, weights, size, offset)] per axis, as gaussian_filter / uniform_filter run them."""
    if kind == "gaussian":
        r = int(4.0 * param + 0.5)
        w = _filters._gaussian_kernel1d(param, 0, r)[::-1]
        return [("correlate", w, len(w), len(w) // 2)] * ndim
    return [("uniform", None, param, param // 2)] * ndim


def run(x, ps, plan):
    cur = x
    for axis, (op, w, size, offset) in enumerate(ps):
        cur = fk.filter1d(cur, x.dtype, op, w, size, axis, offset, REFLECT, 0.0, plan=plan)
    return cur


def public(xp_nd, x, kind, param):
    if kind == "gaussian":
        return lambda: xp_nd.gaussian_filter(x, param)
    return lambda: xp_nd.uniform_filter(x, param)


def predict_us(shape, itemsize, ps, copy_gbs, sms):
    """Per pass: the larger of one read + one write at 0.9 of the copy rate and the issue time
    (taps x ~1.3 instructions a tap for the FMA and the window's moves and loads, plus ~12 an
    output for staging and the store); the passes add."""
    n = int(numpy.prod(shape))
    t = 0.0
    for _, _, size, _ in ps:
        mem = 2 * n * itemsize / (0.9 * copy_gbs * 1e9)
        issue = n * (1.3 * size * (2 if itemsize == 8 else 1) + 12) / (LANES * sms * CLOCK)
        t += max(mem, issue)
    return t * 1e6


def cupy_us(fn, reps=20):
    """Median microseconds of fn() between CuPy's own events on its current stream."""
    return event_us(fn, reps=reps, cuda=cupy.cuda)


def main():
    sms = cp.cuda.Device().multiprocessor_count
    buf = cp.empty(2**28, dtype="float32")
    copy_us = event_us(buf.copy, reps=10)
    copy_gbs = 2 * buf.nbytes / (copy_us * 1e-6) / 1e9
    del buf
    print("copy rate {:.0f} GB/s ({} SMs)".format(copy_gbs, sms))
    print("{:>10} {:>14} {:>6} {:>8} {:>10} {:>9} {:>8} {:>9} {:>10}  {}".format(
        "shape", "filter", "dtype", "plan", "us", "GB/s", "xcopy", "pred us", "pred xcopy", "check"))
    rng = numpy.random.default_rng(0)
    cases = []
    for shape in ((4096, 4096), (256, 256, 256)):
        cases += [(shape, "float32", "gaussian", s) for s in (1, 2, 3, 4)]
        cases += [(shape, "float32", "uniform", s) for s in (3, 5, 7, 9)]
        cases += [(shape, "float64", "gaussian", 4), (shape, "float64", "uniform", 5)]
    for shape, dtype, kind, param in cases:
        x = cp.asarray(rng.standard_normal(shape).astype(dtype))
        ps = passes(kind, param, len(shape))
        nbytes = 2 * x.nbytes * len(ps)
        label = "{}^{}".format(shape[0], len(shape))
        name = "{} {}".format(kind, param)
        ref = run(x, ps, "old").get()
        pred = predict_us(shape, x.dtype.itemsize, ps, copy_gbs, sms)
        rows = [("old", lambda: run(x, ps, "old"), None), ("tile", lambda: run(x, ps, "tile"), pred),
                ("tile r/2", lambda: run(x, ps, "tile-half-r"), None), ("public", public(cnd, x, kind, param), None)]
        for plan, fn, p in rows:
            us = event_us(fn, reps=20)
            gbs = nbytes / (us * 1e-6) / 1e9
            check = "ok" if numpy.array_equal(fn().get(), ref, equal_nan=True) else "BAD"
            print("{:>10} {:>14} {:>6} {:>8} {:>10.1f} {:>9.0f} {:>8.2f} {:>9} {:>10}  {}".format(
                label, name, dtype, plan, us, gbs, gbs / copy_gbs, "" if p is None else "{:.0f}".format(p),
                "" if p is None else "{:.2f}".format(nbytes / (p * 1e-6) / 1e9 / copy_gbs), check))
        if cupy is not None:
            xc = cupy.asarray(x.get())
            us = cupy_us(public(cupy_nd, xc, kind, param))
            gbs = nbytes / (us * 1e-6) / 1e9
            print("{:>10} {:>14} {:>6} {:>8} {:>10.1f} {:>9.0f} {:>8.2f}".format(label, name, dtype, "cupy", us, gbs,
                                                                              gbs / copy_gbs))


if __name__ == "__main__":
    main()
