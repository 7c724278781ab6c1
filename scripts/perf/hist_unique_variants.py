"""histogram (int bins, range from the data) and unique (integers, values only): the old and new
routes of each in one process, against PyTorch and CuPy where they import. Run on the GPU machine:

    python scripts/perf/hist_unique_variants.py

Times are CUDA-event medians of 50 calls after a warm-up (scripts/perf/_timing.py); each route's
result is checked against the other's first. Routes: histogram "host" (the data's min/max read,
edges made on the host: the old route) and "device" (min/max, edges and counts on the device, one
read at the end); unique "flags" (the sort, a flag array, a mask compaction: the old route), "heads" (the sort,
then the values found in the sorted keys) and "dense" (a bitmap of the values present where they
span few integers, decided by a min/max read first, else "heads": the full-range int32 rows,
64 Mi of them sampled before the min/max pass, and the float32 row show that case)."""

import pathlib
import sys

import numpy

import cuarray
from cuarray._sets import unique as unique_mod
from cuarray._statistics import histograms

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _peers import gpu_peers  # noqa: E402
from _timing import event_us  # noqa: E402

REPS = 50


def _row(label, us, peers):
    cells = "  ".join("{:>9.1f}".format(v) if v is not None else "{:>9}".format("-") for v in us + peers)
    print("{:<44}{}".format(label, cells))


def _peer_times(peers, make):
    """Median us of each peer's call (make(lib) -> callable, or None where it has no such call)."""
    out = []
    for name in ("torch", "cupy"):
        if name not in peers:
            out.append(None)
            continue
        lib, cuda = peers[name]
        fn = make(name, lib)
        out.append(None if fn is None else event_us(fn, reps=REPS, cuda=cuda))
    return out


def _to(name, lib, host):
    return lib.from_numpy(host).cuda() if name == "torch" else lib.asarray(host)


def histogram_rows(peers):
    for n in (10**7, 10**8):
        host = numpy.random.default_rng(5).normal(size=n).astype(numpy.float32)
        x = cuarray.asarray(host)
        times, results = [], []
        for how in ("host", "device"):
            prev = histograms.auto_range_by(how)
            try:
                results.append([r.get() for r in cuarray.histogram(x, 100)])
                times.append(event_us(lambda: cuarray.histogram(x, 100), reps=REPS))
            finally:
                histograms.auto_range_by(prev)
        for a, b in zip(*results):
            numpy.testing.assert_array_equal(a, b, strict=True)
        numpy.testing.assert_array_equal(results[1][0], numpy.histogram(host, 100)[0])

        def make(name, lib, host=host):
            y = _to(name, lib, host)
            return (lambda: lib.histc(y, bins=100)) if name == "torch" else (lambda: lib.histogram(y, 100))

        _row("histogram {:.0e} float32, 100 bins".format(n), times + [None], _peer_times(peers, make))


def unique_rows(peers):
    cases = [(2**22, 0, 2**20, numpy.int32), (2**26, 0, 2**20, numpy.int32), (2**22, -(2**31), 2**31, numpy.int32),
             (2**26, -(2**31), 2**31, numpy.int32), (2**22, 0, 1, numpy.float32)]
    for n, lo, hi, dt in cases:
        rng = numpy.random.default_rng(1)
        if dt == numpy.float32:
            host = numpy.round(rng.normal(size=n) * 2**18).astype(dt)
            label = "unique {} Mi float32, round(normal * 2^18)".format(n >> 20)
        else:
            host = rng.integers(lo, hi, n, dtype=numpy.int64).astype(dt)
            label = "unique {} Mi int32 in [{}, {})".format(n >> 20, lo, hi)
        x = cuarray.asarray(host)
        times, results = [], []
        for how in ("flags", "heads", "dense"):
            prev = unique_mod.values_by(how)
            try:
                results.append(cuarray.unique(x).get())
                times.append(event_us(lambda: cuarray.unique(x), reps=REPS))
            finally:
                unique_mod.values_by(prev)
        for r in results[1:]:
            numpy.testing.assert_array_equal(results[0], r, strict=True)

        def make(name, lib, host=host):
            y = _to(name, lib, host)
            return lambda: lib.unique(y)

        _row(label, [times[0], times[2], times[1]], _peer_times(peers, make))


def main():
    peers = gpu_peers()
    print("median of {} calls, us (CUDA events)".format(REPS))
    print("unique: old = sort + flags + mask compaction, new = bitmap where the values fit, else sort + heads;"
          " 'mid' = sort + heads")
    print("{:<44}{:>9}  {:>9}  {:>9}  {:>9}  {:>9}".format("case", "old", "new", "mid", "torch", "cupy"))
    histogram_rows(peers)
    unique_rows(peers)


if __name__ == "__main__":
    main()
