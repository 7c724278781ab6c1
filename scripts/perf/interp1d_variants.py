"""interp1d(kind='linear') kernels, interleaved in one process (issue 53: bench row
interpolate/interp1d-linear at 0.66 of the copy rate on an H100 and 0.50 on an H200, target 0.70).

Variants (the bench row's route: numpy.interp's formula, interleaved (x, y) records, PIPE on,
prepared as interp1d(copy=True) prepares it):
- near L1: SEARCH 5 (SEARCH_NEAR) gathering the records through L1, 256-thread blocks.
- near staged: the same search on the records copied into shared memory by each block
  (interp1d_linear_staged, 1024-thread blocks, one an SM), where the table fits.
- table (2): the cell-table search through L1, for reference (docs/perf-notes.md).

Bytes: 16 a point (one 8-byte read of the point, one 8-byte write of the value). The model of the
L1 kernel's time: a warp's gather of 32 random 16-byte records costs one L1 wavefront a distinct
line, ~32; two gathers a point: ~64 cycles a warp of points, 1e7 / 132 SMs / 32 x 64 = 151k cycles
= 86 us at 1.755 GHz (measured 83). From shared memory a 16-byte gather costs the bank conflicts of
each quarter warp (8 lanes over 8 groups of 4 banks: ~2.5 a quarter, ~10 a gather): ~20 cycles a
warp of points, ~27 us, under the streaming time; the block's copy of 160 KB from L2 ~2-4 us.
Each row: the median over ROUNDS rounds, each round timing every variant once (REPS CUDA-event
timings of the GPU's work, `_timing.gpu_us`); the fraction is t_copy / t with t_copy a float64
copy of the points timed the same way (1.0 = the copy rate). Every variant's values are checked
bit for bit against SciPy (first 2e5 points).

Measured (H200, us, jittered / uniform / clustered 1e4): L1 76.8 / 63.2 / 428, staged 62.3 / 50.3 /
374 (1024 threads, SEARCH 5, four points a thread); the knobs tried on the staged kernel (the same
run): two points a thread 61.2 / 51.2, the miss lanes' third record read by every lane 60.7 /
60.4, that behind a warp vote 61.0 / 48.3, no PIPE with eight points 69.2 / 58.7; a separate loop
for unit-stride points (kept) 60.0 / 48.0.
Predictions (us; copy ~54 on an H100, ~39 on an H200):
  1e4 jittered (bench)  L1 83 (0.66)   staged ~62 (~0.87) H100, ~45 (~0.87) H200
  1e4 uniform           L1 74          staged ~60
  1e4 clustered         L1 ~400        staged ~150 (galloping from shared memory)
  1e6 jittered          L1 146         (no staged: past the shared memory)

Run on the GPU machine (about 40 s):
  PYTHONPATH=$PWD python scripts/perf/interp1d_variants.py
"""

import pathlib
import statistics
import sys

import numpy

import cuarray
from cuarray.bench.cases.interpolate import _knots, _points
from cuarray.scipy import interpolate as ci
from cuarray.scipy.interpolate import _linear

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _timing import event_us, gpu_us  # noqa: E402

M = 10**7
REPS, ROUNDS = 20, 5
F8 = numpy.dtype(numpy.float64)
VARIANTS = (("near L1", _linear.SEARCH_NEAR, False), ("near staged", _linear.SEARCH_NEAR, True),
            ("table (2)", _linear.SEARCH_CELLS3, False))
PREDICT = {"1e4 jittered (bench)": {"near L1": 83, "near staged": 62}, "1e4 uniform": {"near L1": 74, "near staged": 60},
           "1e6 jittered": {"near L1": 146}, "1e4 clustered": {"near L1": 400, "near staged": 150}}


def _clustered(n, seed):
    """n sorted knots over [0, 1e4): half within ~1e-3 of 5000 (the guess misses far)."""
    rng = numpy.random.default_rng(seed)
    x = numpy.sort(numpy.concatenate((5000.0 + rng.normal(0.0, 1e-3, n // 2), rng.uniform(0.0, 1e4, n - n // 2))))
    return cuarray.asarray(x), cuarray.asarray(numpy.sin(x / 17.0))


def _knot_sets():
    """(label, knots, values, scale of the points' range [0, 1e4))."""
    x, y = _knots(cuarray, 10**4, 53)
    yield "1e4 jittered (bench)", x, y, 1.0
    xu = cuarray.linspace(0.0, 10**4, 10**4)
    yield "1e4 uniform", xu, cuarray.sin(xu / 17.0), 1.0
    xb, yb = _knots(cuarray, 10**6, 57)
    yield "1e6 jittered", xb, yb, 100.0
    yield ("1e4 clustered",) + _clustered(10**4, 58) + (1.0,)


def _prepared(f, search, stage):
    below, above = f._linear_fills(F8)
    route = _linear.plan(F8, F8, F8, F8, f.x.shape[0], 1, True, True, _linear.installed_weights_formula())
    prep = _linear.Prepared(route, f.x, f._y, below, above, False, f._pairs, fixed=True, search=search, stage=stage)
    assert prep.route.search == search, (search, prep.route)
    return prep


def main():
    import scipy.interpolate as si  # host oracle

    q = _points(cuarray, M, 0.0, 10**4, 54)
    t_copy = statistics.median(gpu_us(lambda: q.copy(), REPS) for _ in range(ROUNDS))
    print("copy of 1e7 float64: {:.1f} us = {:.0f} GB/s (read + write); 16 bytes a point -> {:.1f} us at that rate"
          .format(t_copy, 16 * M / t_copy / 1e3, t_copy))
    fmt = "{:<22} {:<26} {:>8.1f} us  {:>5.2f} x copy   predicted {}"
    for label, x, y, scale in _knot_sets():
        f = ci.interp1d(x, y, assume_sorted=True, bounds_error=False)
        qk = q if scale == 1.0 else q * scale
        ref = si.interp1d(x.get(), y.get(), assume_sorted=True, bounds_error=False)(qk[:200000].get())
        runs = []
        for name, search, stage in VARIANTS:
            if stage and not _linear.stage_bytes(_linear.Route(2, F8, F8, F8, F8, True, search), x.shape[0],
                                                 _linear._limits.shared_per_block_optin()):
                continue
            prep, out = _prepared(f, search, stage), cuarray.empty((M, 1), F8)
            prep(qk, out.data.ptr)
            ok = "exact" if numpy.array_equal(out[:200000, 0].get(), ref, equal_nan=True) else "DIFFERS"
            runs.append((name, name, (lambda p=prep, o=out: p(qk, o.data.ptr)), ok))
        times = {name: [] for name, *_ in runs}
        for _ in range(ROUNDS):  # interleaved: each round times every variant once
            for name, _s, fn, _ok in runs:
                times[name].append(gpu_us(fn, REPS))
        for name, search, _fn, ok in runs:
            t = statistics.median(times[name])
            p = PREDICT.get(label, {}).get(search)
            print(fmt.format(label, name + " " + ok, t, t_copy / t, "-" if p is None else
                             "{} us ({:.2f})".format(p, t_copy / p)))
        t = event_us(lambda: f(qk), REPS)
        print(fmt.format(label, "public f(q) (events)", t, t_copy / t, "kernel + ~5 us"))
        print()


if __name__ == "__main__":
    main()
