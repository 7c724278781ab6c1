"""histogram (int bins, range from the data) and unique (integers, values only): the old and new
routes of each in one process, against PyTorch and CuPy where they import. Run on the GPU machine:

    python scripts/perf/hist_unique_variants.py

Times are CUDA-event medians of 50 calls after a warm-up (scripts/perf/_timing.py); each route's
result is checked against the other's first. Routes: histogram "host" (the data's min/max read,
edges made on the host: the old route) and "device" (min/max, edges and counts on the device, one
read at the end); unique "sort" (the radix sort: the old route) and "dense" (a bitmap of the
values present, the sort where they span too many integers: the last rows show that case)."""

import pathlib
import sys

import numpy

import cuarray
from cuarray._sets import unique_dense
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

        _row("histogram {:.0e} float32, 100 bins".format(n), times, _peer_times(peers, make))


def unique_rows(peers):
    cases = [(2**22, 0, 2**20), (2**26, 0, 2**20), (2**22, -(2**31), 2**31)]
    for n, lo, hi in cases:
        host = numpy.random.default_rng(1).integers(lo, hi, n, dtype=numpy.int64).astype(numpy.int32)
        x = cuarray.asarray(host)
        times, results = [], []
        for how in ("sort", "dense"):
            prev = unique_dense.dense_by(how)
            try:
                results.append(cuarray.unique(x).get())
                times.append(event_us(lambda: cuarray.unique(x), reps=REPS))
            finally:
                unique_dense.dense_by(prev)
        numpy.testing.assert_array_equal(results[0], results[1], strict=True)

        def make(name, lib, host=host):
            y = _to(name, lib, host)
            return lambda: lib.unique(y)

        _row("unique {} Mi int32 in [{}, {})".format(n >> 20, lo, hi), times, _peer_times(peers, make))


def main():
    peers = gpu_peers()
    print("median of {} calls, us (CUDA events)".format(REPS))
    print("{:<44}{:>9}  {:>9}  {:>9}  {:>9}".format("case", "old", "new", "torch", "cupy"))
    histogram_rows(peers)
    unique_rows(peers)


if __name__ == "__main__":
    main()
