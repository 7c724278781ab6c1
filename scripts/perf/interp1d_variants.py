"""interp1d(kind='linear') knot searches, old against new, interleaved in one process (issue 53:
bench row interpolate/interp1d-linear at 0.58 of the copy rate on an H100, target 0.70).

Variants (the bench row's route: numpy.interp's formula, interleaved (x, y) records, PIPE on,
prepared as interp1d(copy=True) prepares it):
- old: SEARCH 0, the guess from the mean spacing; record j + 1 is loaded only after x[j]'s
  compare (two dependent L1 round trips a point) and a miss runs two divergent gallop loops.
- new: SEARCH 5 (SEARCH_NEAR, the default since this change): records j and j + 1 loaded
  together, one load of j - 1 or j + 2 for the miss lanes, galloping only past that.
- table (2), hybrid (4): the cell-table searches, for reference (docs/perf-notes.md).

Bytes: 16 a point (one 8-byte read of the point, one 8-byte write of the value; the 160 KB record
table stays in L1): 160 MB at 1e7 points, 54 us at the bench's ~2960 GB/s copy rate. Each row:
the median over ROUNDS rounds, each round timing every variant once (REPS CUDA-event timings of
the GPU's work, `_timing.gpu_us`), so clocks and thermals hit all variants alike; the fraction is
t_copy / t with t_copy a float64 copy of the points timed the same way (1.0 = the copy rate).
Every variant's values are checked bit for bit against SciPy (first 2e5 points).

Predictions (H100, us; the old numbers are docs/perf-notes.md's):
  1e4 jittered (bench)  old 93 (0.58)   new ~80 (~0.68)   [misses: one load, no divergent loops]
  1e4 uniform           old 77 (0.70)   new ~72 (~0.75)   [no misses: only the dependent load goes]
  1e6 jittered (L2)     old 159         new ~135          [L2 latency: the dependent load costs more]
  1e4 clustered         old 353         new ~350          [misses gallop far: unchanged]
  public f(q) (events)  new ~ the kernel + ~5 us of host
If the new row is not below the old on jittered 1e4, set `_linear.SEARCH = SEARCH_GUESS` back.

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
VARIANTS = (("old: guess (0)", _linear.SEARCH_GUESS), ("new: near (5)", _linear.SEARCH_NEAR),
            ("table (2)", _linear.SEARCH_CELLS3), ("hybrid (4)", _linear.SEARCH_HYBRID))
PREDICT = {"1e4 jittered (bench)": {0: 93, 5: 80}, "1e4 uniform": {0: 77, 5: 72}, "1e6 jittered": {0: 159, 5: 135},
           "1e4 clustered": {0: 353, 5: 350}}


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


def _prepared(f, search):
    below, above = f._linear_fills(F8)
    route = _linear.plan(F8, F8, F8, F8, f.x.shape[0], 1, True, True, _linear.installed_weights_formula())
    prep = _linear.Prepared(route, f.x, f._y, below, above, False, f._pairs, fixed=True, search=search)
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
        for name, search in VARIANTS:
            prep, out = _prepared(f, search), cuarray.empty((M, 1), F8)
            prep(qk, out.data.ptr)
            ok = "exact" if numpy.array_equal(out[:200000, 0].get(), ref, equal_nan=True) else "DIFFERS"
            runs.append((name, search, (lambda p=prep, o=out: p(qk, o.data.ptr)), ok))
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
