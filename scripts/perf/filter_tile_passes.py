"""The separable filters' tile kernels pass by pass (issue 31): each variant of
templates/filter_tile.cu (`filter1d(plan=...)`: "tile" the first tile, "tile-vec" 16-byte staging
loads all in flight and 16-byte output stores, "tile-vec-u" that and the tap loop unrolled by the
window's groups, "tile-vec-u-half-r" that with half the outputs a thread, "tile-rows3" tile-vec-u
with the rows' halo filled from the tile after a barrier, swizzled tile rows and 6 blocks an SM,
"tile-pipe" that with a software-pipelined next tile: a one-wave grid of blocks each walking a range
of tiles, the next tile's cp.async copies in flight while this one is computed, the strided pass
copying the rows the next tile of its strip shares, "tile-rows-short" (templates/filter_tile_short.cu)
the last-axis pass of lines of at most 1024 with a thread piece a whole line) on each pass alone
(the last axis: "rows"; a strided axis: "cols", for 3-D the middle and the first axis) and on the whole filter, in one
process, on gaussian_filter sigma 1/2/4 of a 4096^2 float32 image, sigma 4 of a 256^3 float32
volume and of a 4096^2 float64 image, and uniform_filter size 5 of a 4096^2 float32 image; the
public call (plan "auto",
_filter_tile.AUTO_VARIANT) and CuPy's cupyx.scipy.ndimage beside them when installed.

Each row: microseconds (CUDA-event median of 20 after warm-up), GB/s counting one read and one
write of the array a pass (the bench case `gaussian_filter` counts so), that over the copy rate
measured here ("x copy"; the issue's target for memory-bound filters: 0.7), the prediction
(docs/perf-notes.md, "Separable filters"), and "ok" when the result is the same bits as the first
tile's ("BAD" otherwise, and a BAD line at the end).

Run on the GPU machine: `python scripts/perf/filter_tile_passes.py` (about 30-60 s;
`--plans tile-rows3,tile-pipe` for variants 3 and 4 alone; `--plans tile-rows3,tile-rows-short`
for variants 3 and 5, which adds the rows pass alone of lines of 128, 512 and 1024 (gaussian sigma 4,
float32, 2^24 values);
`--reps N` to change the repeats, `--plans old,tile-half-r,...` to time other plans of
`filter1d`: "old" is the one-output-a-thread pass, "tile-half-r" the first tile with half the
outputs a thread)."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import numpy  # noqa: E402
from _timing import event_us, gpu_us  # noqa: E402

import cuarray as cp  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402
from cuarray.scipy.ndimage import _boundary  # noqa: E402
from cuarray.scipy.ndimage import _filter_kernels as fk  # noqa: E402
from cuarray.scipy.ndimage import _filter_tile as ft  # noqa: E402
from cuarray.scipy.ndimage import _filters  # noqa: E402

try:  # a peer, when installed
    import cupy
    import cupyx.scipy.ndimage as cupy_nd
except Exception:  # noqa: BLE001 -- any import failure means no peer
    cupy = None

REFLECT = _boundary.filter_mode("reflect")
PLANS = ["tile", "tile-vec", "tile-vec-u", "tile-vec-u-half-r", "tile-rows3", "tile-pipe"]
CASES = [((4096, 4096), "float32", "gaussian", 1), ((4096, 4096), "float32", "gaussian", 2),
         ((4096, 4096), "float32", "gaussian", 4), ((256, 256, 256), "float32", "gaussian", 4),
         ((4096, 4096), "float64", "gaussian", 4), ((4096, 4096), "float32", "uniform", 5)]
# Predicted x copy of the whole filter on an H100 (docs/perf-notes.md, "Separable filters"): the
# first tile measured 0.31-0.47; the variants' staging keeps ~2 (rows) / ~6 (cols) 16-byte loads
# a thread in flight where the first tile had 1-3 scalar ones.
PREDICTED = {("tile-vec", "gaussian", 1, "float32", 2): 0.80, ("tile-vec-u", "gaussian", 1, "float32", 2): 0.80,
             ("tile-vec", "gaussian", 2, "float32", 2): 0.75, ("tile-vec-u", "gaussian", 2, "float32", 2): 0.78,
             ("tile-vec", "gaussian", 4, "float32", 2): 0.65, ("tile-vec-u", "gaussian", 4, "float32", 2): 0.75,
             ("tile-vec", "gaussian", 4, "float32", 3): 0.60, ("tile-vec-u", "gaussian", 4, "float32", 3): 0.68,
             ("tile-vec", "gaussian", 4, "float64", 2): 0.70, ("tile-vec-u", "gaussian", 4, "float64", 2): 0.75,
             ("tile-vec", "uniform", 5, "float32", 2): 0.85, ("tile-vec-u", "uniform", 5, "float32", 2): 0.85,
             ("tile-rows3", "gaussian", 1, "float32", 2): 0.76, ("tile-rows3", "gaussian", 4, "float32", 2): 0.66,
             ("tile-rows3", "gaussian", 4, "float32", 3): 0.64, ("tile-rows3", "gaussian", 4, "float64", 2): 0.58,
             ("tile-rows3", "uniform", 5, "float32", 2): 0.76,
             # variant 4 (docs/perf-notes.md, "Separable filters: a shared tile a pass"): every block keeps its next tile's bytes in
             # flight (5 rows / 4 cols blocks an SM: 33-42 KB an SM where ~20 KB streams at the copy
             # rate), the strided pass reads 1.04x its input, not 1.29x; one wave, ranges of 8-13 tiles
             ("tile-pipe", "gaussian", 1, "float32", 2): 0.90, ("tile-pipe", "gaussian", 2, "float32", 2): 0.88,
             ("tile-pipe", "gaussian", 4, "float32", 2): 0.82, ("tile-pipe", "gaussian", 4, "float32", 3): 0.77,
             ("tile-pipe", "gaussian", 4, "float64", 2): 0.76, ("tile-pipe", "uniform", 5, "float32", 2): 0.88}
# Predicted microseconds of the rows pass alone under "tile-rows3" (H100; tile-vec-u measured 72.6,
# 86.9, 111.1, 170, 77.5): no tile_gather call waited on in the staging loop (one a block at 4096,
# two at 256), 6 blocks an SM not 5 (40 registers), no global reads of the halo where the line fits
# in a tile row (256^3: 15% of the reads), the tap loop's window loads without bank conflicts
PREDICTED_ROWS = {("tile-rows3", "gaussian", 1, "float32", 2): 66,
                  ("tile-rows3", "gaussian", 4, "float32", 2): 72,
                  ("tile-rows3", "gaussian", 4, "float32", 3): 82,
                  ("tile-rows3", "gaussian", 4, "float64", 2): 160,
                  ("tile-rows3", "uniform", 5, "float32", 2): 70}
# Variant 4 (H100 us; variant 3 measured: rows 67.4 at 4096^2 sigma 4, 94.5 at 256^3; cols 62.2):
# rows ~0.85 of the copy rate (45.4 us floor), 256^3 a little less (two barriers more a tile and
# the halo filled from the tile), cols from 1.04x reads; float64 memory-bound (DFMA ~35 us a pass)
PREDICTED_ROWS.update({("tile-pipe", "gaussian", 1, "float32", 2): 50, ("tile-pipe", "gaussian", 4, "float32", 2): 54,
                       ("tile-pipe", "gaussian", 4, "float32", 3): 60, ("tile-pipe", "gaussian", 4, "float64", 2): 112,
                       ("tile-pipe", "uniform", 5, "float32", 2): 51})
PREDICTED_COLS = {("tile-pipe", "gaussian", 1, "float32", 2): 50, ("tile-pipe", "gaussian", 4, "float32", 2): 55,
                  ("tile-pipe", "gaussian", 4, "float32", 3): 58, ("tile-pipe", "gaussian", 4, "float64", 2): 118,
                  ("tile-pipe", "uniform", 5, "float32", 2): 51}

# Variant 5 ("tile-rows-short"), the rows pass alone, H100 us (docs/perf-notes.md, "Separable filters: a shared tile a pass"):
# 16 lines of 256 a block, 16 outputs a thread (the 4-tap step 64 FFMA + 2 LDS.128 + ~8 others, no
# bank conflicts), one barrier before the taps; memory-bound near the copy rate where the halo is
# small, 128-long lines staging 27% halo through map_index. Other lines (4096) plan variant 3.
PREDICTED_ROWS.update({("tile-rows-short", "gaussian", 4, "float32", 3): 57})
SHORT_CASES = [((131072, 128), "float32", "gaussian", 4), ((32768, 512), "float32", "gaussian", 4),
               ((16384, 1024), "float32", "gaussian", 4)]
PREDICTED_SHORT = {("tile-rows-short", 128): 63, ("tile-rows-short", 512): 56, ("tile-rows-short", 1024): 57}


def passes(kind, param, ndim):
    """[(op, weights, size, offset)] per axis, as gaussian_filter / uniform_filter run them."""
    if kind == "gaussian":
        r = int(4.0 * param + 0.5)
        w = _filters._gaussian_kernel1d(param, 0, r)[::-1]
        return [("correlate", w, len(w), len(w) // 2)] * ndim
    return [("uniform", None, param, param // 2)] * ndim


def one_pass(x, axis, p, plan):
    op, w, size, offset = p
    return fk.filter1d(x, x.dtype, op, w, size, axis, offset, REFLECT, 0.0, plan=plan)


def whole(x, ps, plan):
    cur = x
    for axis, p in enumerate(ps):
        cur = one_pass(cur, axis, p, plan)
    return cur


def pass_name(axis, ndim):
    return "rows" if axis == ndim - 1 else "cols ax{}".format(axis)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--plans", default=",".join(PLANS), help="comma-separated plans of filter1d to time")
    ap.add_argument("--clock", choices=("events", "gpu"), default="gpu",
                    help="gpu: the GPU's work alone (a spin kernel ahead of the start event, so the host's "
                         "launch gaps are not counted); events: start/end events around each call, host gaps "
                         "included (what a caller sees when the host is the slower side)")
    args = ap.parse_args()
    reps = args.reps
    timer = gpu_us if args.clock == "gpu" else event_us
    plans = args.plans.split(",")
    sms = cp.cuda.Device().multiprocessor_count
    buf = cp.empty(2**28, dtype="float32")
    copy_us = event_us(buf.copy, reps=10)
    copy_gbs = 2 * buf.nbytes / (copy_us * 1e-6) / 1e9
    del buf
    print("copy rate {:.0f} GB/s ({} SMs); AUTO_VARIANT {}; clock {}".format(copy_gbs, sms, ft.AUTO_VARIANT, args.clock))
    head = "{:>9} {:>12} {:>7} {:>9} {:>11} {:>9} {:>7} {:>7} {:>6}  {}"
    print(head.format("shape", "filter", "dtype", "pass", "plan", "us", "GB/s", "x copy", "pred", "check"))
    row = "{:>9} {:>12} {:>7} {:>9} {:>11} {:>9.1f} {:>7.0f} {:>7.2f} {:>6}  {}"
    rng = numpy.random.default_rng(0)
    bad = []
    cases = CASES + (SHORT_CASES if "tile-rows-short" in plans else [])
    for shape, dtype, kind, param in cases:
        rows_only = (shape, dtype, kind, param) in SHORT_CASES
        x = cp.asarray(rng.standard_normal(shape).astype(dtype))
        ps = passes(kind, param, len(shape))
        label = "x".join(map(str, shape)) if rows_only else "{}^{}".format(shape[0], len(shape))
        name = "{} {}".format(kind, param)
        xc = cupy.asarray(x.get()) if cupy is not None else None

        def show(what, plan, us, nbytes, check, pred=None):
            gbs = nbytes / (us * 1e-6) / 1e9
            print(row.format(label, name, dtype, what, plan, us, gbs, gbs / copy_gbs,
                             "" if pred is None else "{:.2f}".format(pred), check))

        # each pass alone, on x (the same work as inside the filter); one 3-D cols pass per axis
        for axis in range(len(shape) - 1 if rows_only else 0, len(shape)):
            p = ps[axis]
            ref = one_pass(x, axis, p, "tile").get()
            for plan in plans:
                us = timer(lambda: one_pass(x, axis, p, plan), reps=reps)
                same = numpy.array_equal(one_pass(x, axis, p, plan).get(), ref, equal_nan=True)
                if not same:
                    bad.append("{} {} {} {} {}".format(label, name, dtype, pass_name(axis, len(shape)), plan))
                key = (plan, kind, param, dtype, len(shape))
                pred = PREDICTED_ROWS.get(key) if axis == len(shape) - 1 else PREDICTED_COLS.get(key)
                if rows_only:
                    pred = PREDICTED_SHORT.get((plan, shape[-1]))
                if pred is not None:  # (as x copy, the column's unit)
                    pred = 2 * x.nbytes / (pred * 1e-6) / 1e9 / copy_gbs
                show(pass_name(axis, len(shape)), plan, us, 2 * x.nbytes, "ok" if same else "BAD", pred)
            if xc is not None:
                if kind == "gaussian":
                    fn = lambda: cupy_nd.gaussian_filter1d(xc, param, axis)  # noqa: E731
                else:
                    fn = lambda: cupy_nd.uniform_filter1d(xc, param, axis)  # noqa: E731
                show(pass_name(axis, len(shape)), "cupy", timer(fn, reps=reps, cuda=cupy.cuda), 2 * x.nbytes, "")
        if rows_only:
            continue
        # the whole filter
        nbytes = 2 * x.nbytes * len(ps)
        ref = whole(x, ps, "tile").get()
        for plan in plans:
            us = timer(lambda: whole(x, ps, plan), reps=reps)
            same = numpy.array_equal(whole(x, ps, plan).get(), ref, equal_nan=True)
            if not same:
                bad.append("{} {} {} whole {}".format(label, name, dtype, plan))
            show("whole", plan, us, nbytes, "ok" if same else "BAD",
                 PREDICTED.get((plan, kind, param, dtype, len(shape))))
        pub = (lambda: cnd.gaussian_filter(x, param)) if kind == "gaussian" else (lambda: cnd.uniform_filter(x, param))
        same = numpy.array_equal(pub().get(), ref, equal_nan=True)
        show("whole", "public", timer(pub, reps=reps), nbytes, "ok" if same else "BAD")
        if not same:
            bad.append("{} {} {} whole public".format(label, name, dtype))
        if xc is not None:
            if kind == "gaussian":
                fn = lambda: cupy_nd.gaussian_filter(xc, param)  # noqa: E731
            else:
                fn = lambda: cupy_nd.uniform_filter(xc, param)  # noqa: E731
            show("whole", "cupy", timer(fn, reps=reps, cuda=cupy.cuda), nbytes, "")
    for b in bad:
        print("BAD: not the same bits as plan 'tile':", b)
    print("all variants bit-identical to plan 'tile'" if not bad else "{} BAD rows".format(len(bad)))


if __name__ == "__main__":
    main()
