"""Rank filters: the small-footprint tile kernel (rank_tile.cu) against the general kernel
(filters.cu `rank`, forced) on the same data, per footprint size and dtype, with the prediction
of docs/perf-notes.md ("Rank filters over small footprints") beside it. Both results are
compared (they must be equal). CUDA events, median of 20 after warm-up (_timing.event_us).
Run on the GPU machine: `python scripts/perf/rank_filter_sweep.py [n]` (n: image side, 4096)."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import numpy  # noqa: E402
from _timing import event_us  # noqa: E402

import cuarray as cp  # noqa: E402
from cuarray.scipy.ndimage import _boundary  # noqa: E402
from cuarray.scipy.ndimage import _filter_kernels as fk  # noqa: E402
from cuarray.scipy.ndimage import _rank_network as rn  # noqa: E402
from cuarray.scipy.ndimage import _rank_tile as rt  # noqa: E402

# H100 SXM: 132 SMs at ~1.755 GHz; min/max assumed at 64 results a clock an SM (the ALU pipe),
# instruction issue at 128 a clock an SM (docs/perf-notes.md)
# and the ~2.8 TB/s copy rate measured there
SMS, CLOCK, MINMAX_RATE, ISSUE_RATE, COPY_RATE = 132, 1.755e9, 64, 128, 2.8e12


def timed(fn):
    return event_us(fn, reps=20) / 1e3


def predict_ms(outputs, pl, k, itemsize):
    """(predicted ms, min/max an output, shared loads an output) for the kernel rank_tile runs."""
    n = len(pl.taps)
    pr = rt.pairing(pl, k)
    if pr is None:
        ops, loads = rn.op_count(rn.select_ops(n, k)), n
    else:
        ops = (rn.op_count(pr.shared_ops) + 2 * rn.op_count(pr.final_ops)) / 2
        loads = (len(pr.shared) + 2 * len(pr.upper)) / 2
    minmax = ops * outputs / (MINMAX_RATE * SMS * CLOCK)
    issue = (ops + loads + 13) * outputs / (ISSUE_RATE * SMS * CLOCK)  # + moves, tile staging, loop
    memory = 2 * outputs * itemsize / COPY_RATE  # one read, one write
    return max(minmax, issue, memory) * 1e3, ops, loads


def main(side):
    rng = numpy.random.default_rng(0)
    print("{:>8} {:>7} {:>5} {:>6} {:>11} {:>11} {:>9} {:>11} {}".format(
        "dtype", "size", "taps", "mnmx/o", "general ms", "tile ms", "speed-up", "predict ms", "equal"))
    for dtype in ("float32", "uint8", "float64"):
        host = rng.normal(size=(side, side)) * 50
        x = cp.asarray(host.astype(dtype) if dtype != "uint8" else numpy.abs(host).astype(dtype))
        for size in (3, 5, 7, 8):
            fp = numpy.ones((size, size), bool)
            n = size * size
            k = n // 2
            pl = rt.plan(x.shape, fp, (0, 0), x.dtype.itemsize)
            general = timed(lambda: fk.rank(x, x.dtype, fp, k, (0, 0), _boundary.filter_mode("reflect"), 0.0))
            if pl is None:
                print("{:>8} {:>7} {:>5} {:>6} {:>11.3f} {:>11} (general kernel only)".format(
                    dtype, size, n, "", general, "-"))
                continue
            tile = timed(lambda: rt.rank_tile(x, x.dtype, pl, k, _boundary.filter_mode("reflect"), 0.0))
            pred, ops, _ = predict_ms(side * side, pl, k, x.dtype.itemsize)
            a = fk.rank(x, x.dtype, fp, k, (0, 0), _boundary.filter_mode("reflect"), 0.0).get()
            b = rt.rank_tile(x, x.dtype, pl, k, _boundary.filter_mode("reflect"), 0.0).get()
            print("{:>8} {:>7} {:>5} {:>6g} {:>11.3f} {:>11.3f} {:>9.1f} {:>11.3f} {}".format(
                dtype, size, n, ops, general, tile, general / tile, pred, numpy.array_equal(a, b)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4096)
