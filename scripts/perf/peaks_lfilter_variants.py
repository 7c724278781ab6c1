"""find_peaks and lfilter (issue 31, bench rows `find_peaks` 1e7 and `lfilter` 1000 x 1e5): every plan
the library offers for each, timed in one process on the bench's data, CuPy beside them when it is
installed, and each plan's output checked against the first implementation's.

find_peaks (`_peaks._find_peaks(x, maxima=plan)`, plans `_peaks.MAXIMA`): "runs" (the first
implementation: run boundaries, n-sized int64 temporaries, two compactions), "tiles" (per-tile
counts, a one-block scan, ordered writes: x read twice; each left edge walks its plateau, and one
past 2048 samples sends the call to "runs" after the count) and "ends" (the same three launches, run
ends from change ballots and, for the one run a tile leaves open, the next tile's first change in
the scan: no limit). Rows: the bench's float64 data (uniform, float32-valued: almost no plateaus),
integer-valued noise (plateaus of a few samples), that noise with one 5000-sample plateau (past the
walk limit: "tiles" falls back) and with a 1e6-sample plateau (244 tiles with no change). Outputs
must equal the "runs" plan's exactly (checked on all rows, `props` included for plateau_size;
BAD marks a difference). x copy: the time of a device copy of x (8 n bytes read and written, the
bytes of the two reads the tile plans need) over the row's time.

lfilter (`_lfilter._lfilter(b, a, x, axis, None, plan)`, plans `_lfilter.SWEEPS`): "runtime" (the
first implementation: the scan, the order a runtime value, state in local memory), "fixed" (the
scan, exact-order kernels, each thread sweeping its chunk in place), "staged" (the scan, exact-order,
chunks along the last axis staged through shared memory; along another axis it is "fixed"),
"overlap" (one pass of the staged kernel, each chunk warmed up over the samples before it; along
another axis "fixed") in each of its layouts (`_lfilter.OVERLAP_LAYOUTS`: "aligned", the default,
chunks and warm-ups rounded up to the 32-sample window, the last chunk the shorter; "first", the
layout before it; "aligned64", 64-sample windows). Rows: the bench's order-8 filter on
1000 x 1e5 float64, one signal of 1e8 (the bench's other row), and 1e5 x 1000 along axis 0; then the
default plan with other chunk lengths than plan_chunks' (whose latency model predates the exact-order
kernels). Outputs must equal "runtime"'s to rounding (the largest difference relative to the
output's size is printed).

x copy is a device copy of x's time over the row's: 1.0 is one read and one write of x at the copy
rate (lfilter's floor; find_peaks' two reads of x).

Run on the GPU machine: `python scripts/perf/peaks_lfilter_variants.py` (add `quick` for 1/10 sizes)."""

import math
import pathlib
import sys

import numpy

import cuarray as cp
from cuarray.bench.cases import random_array
from cuarray.scipy.signal import _lfilter, _peaks

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _timing import event_us  # noqa: E402

QUICK = "quick" in sys.argv[1:]
SCALE = 10 if QUICK else 1


def _cupy():
    try:
        import cupy
        import cupyx.scipy.signal as csig
    except ImportError:
        return None, None
    return cupy, csig


def cupy_us(cupy, fn, reps=10):
    return event_us(fn, reps=reps, cuda=cupy.cuda)


def copy_us(x):
    """A device-to-device copy of x (its bytes read and written): the rows' floor."""
    y = cp.empty_like(x)
    return event_us(lambda: cp.copyto(y, x), reps=10)


def peaks_rows(cupy, csig):
    n = 10**7 // SCALE
    bench = random_array(cp, n, "float64", seed=52)  # the bench case's data
    rng = numpy.random.default_rng(53)
    ints = numpy.round(rng.normal(size=n) * 2)
    long_plateau = ints.copy()
    long_plateau[n // 2:n // 2 + 5000] = 20.0  # past the tiles' walk limit (2048)
    huge_plateau = ints.copy()
    huge_plateau[n // 3:n // 3 + n // 10] = 20.0  # 1e6 samples: tiles with no change at all
    floor = copy_us(bench)
    rows, checks = [], []
    for label, host in (("bench data (float32-valued uniform)", None), ("integer noise (plateaus)", ints),
                        ("integer noise + one 5000-sample plateau", long_plateau),
                        ("integer noise + one n/10-sample plateau", huge_plateau)):
        x = bench if host is None else cp.asarray(host)
        outs = {}
        for plan in _peaks.MAXIMA:
            us = event_us(lambda: _peaks._find_peaks(x, maxima=plan), reps=20)
            rows.append(("find_peaks {:.0e} {} [{}]".format(n, label, plan), us, floor / us))
            outs[plan] = (_peaks._find_peaks(x, maxima=plan)[0].get(),
                          {k: v.get() for k, v in _peaks._find_peaks(x, plateau_size=1, maxima=plan)[1].items()})
        if cupy is not None:
            xc = cupy.asarray(x.get())
            us = cupy_us(cupy, lambda: csig.find_peaks(xc))
            rows.append(("find_peaks {:.0e} {} [CuPy]".format(n, label), us, floor / us))
        ref, rprops = outs["runs"]
        for plan, (got, props) in outs.items():
            same = numpy.array_equal(got, ref) and all(numpy.array_equal(props[k], rprops[k]) for k in rprops)
            checks.append("find_peaks {} [{}]: {} peaks, {} the runs plan's".format(
                label, plan, got.size, "equal to" if same else "BAD: DIFFERENT FROM"))
    return rows, checks


def lfilter_rows(cupy, csig):
    a = numpy.array([math.comb(8, k) * (-0.5) ** k for k in range(9)])  # the bench's filter
    b = numpy.full(9, a.sum() / 9)
    W = _lfilter.decay_length(numpy.concatenate([b, a]).tobytes(), 8)
    J = _lfilter.settling(a.tobytes(), 8)
    rows, checks = [], []
    for label, shape, axis in (("1000 x 1e5 (bench)", (1000, 10**5 // SCALE), -1),
                               ("1 x 1e8 (bench)", (1, 10**8 // SCALE), -1),
                               ("1e5 x 1000 along axis 0", (10**5 // SCALE, 1000), 0)):
        x = random_array(cp, shape, "float64", seed=47)
        floor = copy_us(x)
        n = shape[axis]
        lines = x.size // n
        inner = 1 if axis in (-1, len(shape) - 1) else int(numpy.prod(shape[axis + 1:]))
        ref = _lfilter._lfilter(b, a, x, axis, None, "runtime")
        scale = float(cp.abs(ref).max())

        def run(plan, chunk=None, what=None, layout=_lfilter.OVERLAP_LAYOUTS[0]):
            us = event_us(lambda: _lfilter._lfilter(b, a, x, axis, None, plan, chunk, layout), reps=10)
            rows.append(("lfilter order 8 {} [{}]".format(label, what), us, floor / us))
            y = _lfilter._lfilter(b, a, x, axis, None, plan, chunk, layout)
            err = float(cp.abs(y - ref).max()) / scale
            checks.append("lfilter {} [{}]: max |y - runtime's| / max |y| = {:.2e}{}".format(
                label, what, err, "" if err < 1e-11 else "  BAD"))

        for plan in _lfilter.SWEEPS:
            used = _lfilter.sweep_for(plan, 8, inner)
            if used == "overlap":
                Lo = _lfilter.plan_overlap(n, lines, W)
                if Lo >= n:
                    run(plan, None, "overlap -> staged")
                    continue
                # the layouts: "first" is the overlap plan before the alignment (old), the default new
                for layout in _lfilter.OVERLAP_LAYOUTS:
                    L, C, warm, win = _lfilter.overlap_layout(layout, n, Lo, W)
                    run(plan, None, "overlap {}: warm {} chunk {} x {}, window {}".format(layout, warm, L, C, win),
                        layout)
                continue
            run(plan, None, "{} -> {}".format(plan, used))
        if cupy is not None:
            xc = cupy.asarray(x.get())
            bc, ac = cupy.asarray(b), cupy.asarray(a)
            us = cupy_us(cupy, lambda: csig.lfilter(bc, ac, xc, axis))
            rows.append(("lfilter order 8 {} [CuPy]".format(label), us, floor / us))
            del xc
        # chunk lengths: plan_chunks' latency model (the scan) dates from the runtime-order kernels,
        # which the exact-order ones change (sweep step, carry chunk); plan_overlap's lengths are
        # a guess at parallelism against the warm-up's share. Other lengths say which way to move
        for plan, planned, shortest in (("staged", _lfilter.plan_chunks(n, lines, a, 8), J),
                                        ("overlap", _lfilter.plan_overlap(n, lines, W), 2 * W)):
            if inner != 1 and plan == "overlap":
                continue
            for chunk in sorted({planned // 2, 2 * planned, 4 * planned} - {planned}):
                if shortest <= chunk and 2 * chunk <= n:
                    run(plan, chunk, "{}, chunk {} (plan: {})".format(plan, chunk, planned))
    return rows, checks


def main():
    cupy, csig = _cupy()
    print("device: {}; CuPy: {}".format(cp.cuda.Device().name, "yes" if cupy is not None else "not installed"))
    rows, checks = [], []
    for part in (peaks_rows, lfilter_rows):
        r, c = part(cupy, csig)
        rows += r
        checks += c
    print("{:80s} {:>10s} {:>7s}".format("row [plan -> kernels]", "us", "x copy"))
    for name, us, frac in rows:
        print("{:80s} {:10.1f} {:7.2f}".format(name, us, frac))
    print()
    for c in checks:
        print(c)


if __name__ == "__main__":
    main()
