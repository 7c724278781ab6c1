"""Issue 50 on a GPU: solve_triangular of the bench row (scipy-linalg-4096[solve_triangular] at
its quick size: 1024 x 1024 float64 upper-triangular t, b (1024, 64)) against cupyx, its checks
and its pieces, in ONE process, the variants interleaved over rounds (the order rotated each
round) so drift hits them alike. Four clocks per variant, median and min in us:

  events  CUDA events around each call, the pairs recorded back to back and read after one sync:
          the bench row's clock (cuarray/bench/harness.py `_event_samples`), where a call that
          does not wait for its solve lets the next call's host work overlap it;
  wall    perf_counter around the call plus a device synchronize (the harness's host clock);
  return  perf_counter around the call alone, the device idle before it: the host's time until
          the call returns (with the check: until the checks' bits are read);
  bench   the bench harness's own events clock and library objects (cuarray/bench/libs.py).

Variants: cuarray with the check (SciPy's default), without it; "old order", the previous
code's device work emulated with today's pieces (the solve without checks, then three
reductions and a read that waits for the solve); the pieces: b's column-major copy, the trsm
alone through the same binding, the fused checks alone (launch and wait); cupyx with its default
check_finite=False and with True.

    python scripts/perf/solve_triangular_parts.py [--n 1024] [--rounds 9] [--calls 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy

import cuarray
from cuarray.cuda.libs import cublas_trsm
from cuarray.scipy import linalg as cla
from cuarray.scipy.linalg import _triangular_checks
from cuarray.scipy.linalg._validate import _ALL_FINITE


def _cuarray_variants(ht, hb):
    t, b = cuarray.asarray(ht), cuarray.asarray(hb)
    n, k = hb.shape
    x = cuarray.asfortranarray(b)
    nonzero = cuarray.ReductionKernel("T x", "bool y", "x != T(0)", "a && b", "y = a", "true", "perf_all_nonzero")
    # t is C-ordered: trsm reads it in place as the column-major transpose, lower, op T
    args = ("d", cublas_trsm.SIDE_LEFT, cublas_trsm.FILL_LOWER, 1, cublas_trsm.DIAG_NON_UNIT, n, k)

    def old_order():
        out = cla.solve_triangular(t, b, check_finite=False, unit_diagonal=True)  # copy + trsm
        flags = cuarray.empty((3,), dtype=numpy.bool_)
        _ALL_FINITE(t, flags[0])
        _ALL_FINITE(b, flags[1])
        nonzero(cuarray.diagonal(t), flags[2])  # as the old code: three reductions, then one read
        if not flags.get().all():
            raise ValueError
        return out

    return {
        "cuarray check": lambda: cla.solve_triangular(t, b),
        "cuarray no check": lambda: cla.solve_triangular(t, b, check_finite=False),
        "cuarray old order": old_order,
        "piece: b copy (F)": lambda: cuarray.asfortranarray(b),
        # x solved in place again and again (it shrinks by ~sqrt(n) per call, far from underflow
        # within a round), reset to b each round by the third value returned
        "piece: trsm alone": lambda: cublas_trsm.trsm(*args, t.data.ptr, n, x.data.ptr, n),
        "piece: checks alone": lambda: _triangular_checks.queue(t, b, True, True, True).wait(),
    }, cuarray.cuda, lambda: cuarray.copyto(x, b)


def _cupy_variants(ht, hb):
    try:
        import cupy
        import cupyx.scipy.linalg as xla
    except ImportError:
        return {}, None
    t, b = cupy.asarray(ht), cupy.asarray(hb)
    return {"cupyx (check_finite=False)": lambda: xla.solve_triangular(t, b),
            "cupyx check_finite=True": lambda: xla.solve_triangular(t, b, check_finite=True)}, cupy.cuda


def _events(fn, cuda, calls):
    pairs = [(cuda.Event(), cuda.Event()) for _ in range(calls)]
    for start, end in pairs:
        start.record()
        fn()
        end.record()
    cuda.Device().synchronize()
    return [cuda.get_elapsed_time(s, e) * 1e3 for s, e in pairs]


def _host(fn, cuda, calls, wait):
    """perf_counter around each call from an idle device, to the device's end (`wait`) or the return."""
    sync = cuda.Device().synchronize
    out = []
    for _ in range(calls):
        sync()
        t0 = time.perf_counter()
        fn()
        if wait:
            sync()
        out.append((time.perf_counter() - t0) * 1e6)
    sync()
    return out


def _wall(fn, cuda, calls):
    return _host(fn, cuda, calls, True)


def _return(fn, cuda, calls):
    return _host(fn, cuda, calls, False)


def _bench(fn, cuda, calls):
    """The bench harness's own clock (`harness._event_samples` with the bench's library object):
    the bench row read 461 us where this script's `events` read 331 (stop 65), unexplained."""
    from cuarray.bench import harness, libs

    lib = libs.CuArray() if cuda is cuarray.cuda else libs.CuPy()
    return [s * 1e6 for s in harness._event_samples(lib, fn, calls)]


CLOCKS = {"events": _events, "wall": _wall, "return": _return, "bench": _bench}


def _sanity(ht, hb):
    """The results agree with NumPy and SciPy's errors are raised at the call."""
    t, b = cuarray.asarray(ht), cuarray.asarray(hb)
    want = numpy.linalg.solve(numpy.triu(ht), hb)
    got = cla.solve_triangular(t, b).get()
    print("# max |cuarray - numpy| / max |numpy|: {:.2e}".format(abs(got - want).max() / abs(want).max()))
    bad, zero = hb.copy(), ht.copy()
    bad[7, 3] = numpy.nan
    zero[5, 5] = 0
    for name, a, rhs, err in [("nan in b", ht, bad, ValueError), ("zero diagonal", zero, hb, numpy.linalg.LinAlgError)]:
        try:
            cla.solve_triangular(cuarray.asarray(a), cuarray.asarray(rhs))
            print("# {}: NOT RAISED".format(name))
        except err as e:
            print("# {}: {}: {}".format(name, type(e).__name__, e))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--calls", type=int, default=20, help="calls per variant, clock and round")
    args = p.parse_args()
    rng = numpy.random.default_rng(30)  # the bench row's data (cuarray/bench/cases/scipy_special.py)
    n = args.n
    ht = numpy.triu(rng.standard_normal((n, n)) + n ** 0.5 * numpy.eye(n))
    hb = rng.standard_normal((n, 64))
    print("# {} x {} float64 upper-triangular t, b ({}, 64); {}".format(n, n, n, cuarray.cuda.Device().name))
    _sanity(ht, hb)
    ours, ca, reset = _cuarray_variants(ht, hb)
    theirs, cc = _cupy_variants(ht, hb)
    variants = [(name, fn, ca) for name, fn in ours.items()] + [(name, fn, cc) for name, fn in theirs.items()]
    for _name, fn, cuda in variants:  # warm: compiles, plans, handles, pools
        for _ in range(5):
            fn()
        cuda.Device().synchronize()
    samples = {(name, clock): [] for name, _, _ in variants for clock in CLOCKS}
    for r in range(args.rounds):
        reset()
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for name, fn, cuda in order:
            for clock, timer in CLOCKS.items():
                samples[name, clock] += timer(fn, cuda, args.calls)
    print("{:<28}".format("variant (us: median / min)") + "".join(" {:>19}".format(c) for c in CLOCKS))
    for name, _, _ in variants:
        cells = ["{:>9.1f} / {:>7.1f}".format(statistics.median(samples[name, c]), min(samples[name, c]))
                 for c in CLOCKS]
        print("{:<28} {}".format(name, " ".join(cells)))


if __name__ == "__main__":
    main()
