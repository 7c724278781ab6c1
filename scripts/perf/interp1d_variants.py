"""interp1d(kind='linear') knot searches, old against new, interleaved in one process (issue 53:
bench row interpolate/interp1d-linear at 0.58 of the copy rate on an H100, target 0.70).

Variants (the bench row's route: numpy.interp's formula, interleaved (x, y) records, PIPE on,
prepared as interp1d(copy=True) prepares it), (SEARCH, LOOP):
- guess (0, 0): the old default, record j + 1 loaded only after x[j]'s compare.
- near (5, 0): the default, records j and j + 1 together, one neighbour load on a miss.
- near + batch (5, 1): two points' first records read before either is searched (one L1 round
  trip a pair where 0 waits two in a row).
- near + pairs (5, 2): two consecutive points a 16-byte load, 32-bit point and output indices
  (LOOP 0 spends ~18 of a hit's ~125 SASS instructions on 64-bit p * qstride, p * ncols addresses).
- table (2, 0), hybrid (4, 0): the cell-table searches, for reference (docs/perf-notes.md).

Bytes: 16 a point (one 8-byte read of the point, one 8-byte write of the value; the 160 KB record
table stays in L1): 160 MB at 1e7 points, 54 us at the bench's ~2940 GB/s copy rate. Each row:
the median over ROUNDS rounds, each round timing every variant once (REPS CUDA-event timings of
the GPU's work, `_timing.gpu_us`), so clocks and thermals hit all variants alike; the fraction is
t_copy / t with t_copy a float64 copy of the points timed the same way (1.0 = the copy rate).
Every variant's values are checked bit for bit against SciPy (first 2e5 points).

Why instructions (sm_90 SASS of the bench kernel, NVRTC 13): a hit costs ~125 warp instructions
a point (guess, two 16-byte gathers, compares, the float64 division, the store, ~18 of 64-bit
address arithmetic); 4 schedulers an SM issue at most 4 x 32 / 125 = 1.02 points a cycle where
the copy rate needs 0.80 (1e7 points, 132 SMs, 54 us, 1.755 GHz): at a realistic ~65% issue
efficiency the kernel is issue-bound near the measured 73 us (uniform knots, no misses).

Predictions (H100, us; measured 2026 device run: guess/near 77.2/73.1 uniform, 168.7/146.1 1e6):
  1e4 jittered (bench)  near ~80 (0.68)  batch ~79  pairs ~74 (0.73)  [pairs: ~12 fewer instr. a point]
  1e4 uniform           near 73          batch ~73  pairs ~67
  1e6 jittered (L2)     near 146         batch ~135 pairs ~140  [L2 latency: batch's overlap pays]
  1e4 clustered         near 427         batch ~420 pairs ~420  [gallops dominate]
  public f(q) (events)  the kernel + ~10 us: events on an idle GPU include the call's host time
                        (6.5 us on the fake device, one launch: interp1d_host.py); the bench
                        records its events back to back, so its row is the kernel's time.
If pairs is below near on jittered 1e4, set `_linear.LOOP = LOOP_PAIRS` (the bench row then needs
<= ~78 us); if batch is, LOOP_BATCH.

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
L0, L1, L2 = _linear.LOOPS
VARIANTS = (("guess (0)", _linear.SEARCH_GUESS, L0), ("near (5) default", _linear.SEARCH_NEAR, L0),
            ("near + batch (5, 1)", _linear.SEARCH_NEAR, L1), ("near + pairs (5, 2)", _linear.SEARCH_NEAR, L2),
            ("table (2)", _linear.SEARCH_CELLS3, L0), ("hybrid (4)", _linear.SEARCH_HYBRID, L0))
PREDICT = {"1e4 jittered (bench)": {(5, L0): 80, (5, L1): 79, (5, L2): 74},
           "1e4 uniform": {(0, L0): 77, (5, L0): 73, (5, L1): 73, (5, L2): 67},
           "1e6 jittered": {(0, L0): 169, (5, L0): 146, (5, L1): 135, (5, L2): 140},
           "1e4 clustered": {(0, L0): 403, (5, L0): 427, (5, L1): 420, (5, L2): 420}}


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


def _prepared(f, search, loop):
    below, above = f._linear_fills(F8)
    route = _linear.plan(F8, F8, F8, F8, f.x.shape[0], 1, True, True, _linear.installed_weights_formula())
    prep = _linear.Prepared(route, f.x, f._y, below, above, False, f._pairs, fixed=True, search=search, loop=loop)
    assert prep.route.search == search and prep.route.loop == loop, (search, loop, prep.route)
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
        for name, search, loop in VARIANTS:
            prep, out = _prepared(f, search, loop), cuarray.empty((M, 1), F8)
            prep(qk, out.data.ptr)
            ok = "exact" if numpy.array_equal(out[:200000, 0].get(), ref, equal_nan=True) else "DIFFERS"
            runs.append((name, (search, loop), (lambda p=prep, o=out: p(qk, o.data.ptr)), ok))
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
        print(fmt.format(label, "public f(q) (events)", t, t_copy / t, "kernel + ~10 us of host"))
        print()


if __name__ == "__main__":
    main()
