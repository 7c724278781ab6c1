"""percentile's bench rows on a GPU, old routes against new and against CuPy and PyTorch, in ONE
process, the variants interleaved over rounds (the order rotated each round) so drift hits them
alike. Two clocks per variant, median us:

  events  CUDA events around each call, the pairs recorded back to back and read after one sync
          (the bench harness's clock, cuarray/bench/harness.py `_event_samples`): GPU time unless
          the host cannot keep the queue fed;
  return  perf_counter around the call alone, the device idle before it: the host's time.

Cases (the quick bench's sizes, cuarray/bench/cases/sets_hist.py):
  flat  percentile (10, 50, 90) of 1e7 float32: new sort route (sort + one take launch + one
        interpolation), "old sort" (the previous route from today's pieces: sort, take_along_axis
        of uploaded ranks, an uploaded gamma, the fused interpolation; the host's index arithmetic
        left out, so old is flattered), new select, the sort alone; cupy.percentile (q a device
        array, as the bench row), cupy.sort alone; PyTorch's sort recipe (the bench row's), torch.sort.
  rows  percentile 50 along axis 1 of 131072 x 128 float32 (and 4096 x 4096 with --all): new
        select (one block a row, one fused interpolation), "old select" (the histogram passes and
        the seven small elementwise launches of a Python-float q), new sort route; cupy.percentile;
        torch.quantile(dim=1).

Predictions (H100, ~3 TB/s, ~3-5 us a launch): flat: new sort ~= the sort alone + ~8 us (two tiny
launches), old sort ~ +5 us more on events and ~35% more host time (fake device: 830 -> 483
Python calls); the events clock of the sort route is at or under cupy.percentile, which copies the
input (80 MB moved, ~27 us) before its sort. rows 131072 x 128: new select 50-150 us (64 MiB read
once, 22 us, plus four shared-memory passes a row), old select 2-3 ms (an 805 MB memset and
four passes writing and reading 805 MB of histograms), new sort 0.2-0.5 ms; both new routes under
cupy.percentile.

    python3 scripts/perf/percentile_parts.py [--rounds 7] [--calls 20] [--all]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy

import cuarray
from cuarray._core import sort as _sort
from cuarray._core.transfer import from_host
from cuarray._indexing.inserting import take_along_axis
from cuarray._statistics import quantile_select as qs
from cuarray._statistics import quantiles

Q = (10.0, 50.0, 90.0)


def _by(how, fn):
    def run():
        saved = quantiles.order_statistics_by(how)
        try:
            return fn()
        finally:
            quantiles.order_statistics_by(saved)
    return run


def _old_lerp_weak(lo, hi, t, big):
    """The previous route's interpolation of a Python-float t: seven elementwise launches."""
    d = cuarray.subtract(hi, lo)
    r = cuarray.add(lo, cuarray.multiply(d, t))
    if t >= 0.5:
        r = cuarray.subtract(hi, cuarray.multiply(d, 1 - t)).astype(r.dtype, copy=False)
    return cuarray.where(cuarray.isnan(big), big.astype(r.dtype, copy=False), r)


def _flat_cuarray(x):
    n = x.size
    ranks, gamma = quantiles._same_ranks(n, "<f8", (3,), (numpy.array(Q) / 100).tobytes(), "linear", "<f4")
    x2 = x.reshape(1, n)

    def old_sort():
        s = _sort.sort(x2, axis=-1)
        vals = take_along_axis(s, from_host(ranks), axis=1).T
        t = from_host(numpy.ascontiguousarray(gamma.reshape(3, -1)))
        return quantiles._lerp(vals[:3], vals[3:6], t, vals[-1:])

    return {
        "cuarray sort route (new)": _by("sort", lambda: cuarray.percentile(x, Q)),
        "cuarray sort route (old, pieces)": old_sort,
        "cuarray select route": _by("select", lambda: cuarray.percentile(x, Q)),
        "piece: cuarray sort alone": lambda: _sort.sort(x2, axis=-1),
    }


def _rows_cuarray(x):
    rows, n = x.shape
    ranks, gamma = quantiles._same_ranks(n, "<f8", (), numpy.float64(0.5).tobytes(), "linear", "<f4")
    t = float(gamma.reshape(-1)[0])

    def old_select():
        vals = qs.select(x, ranks, block_rows=False).T
        return _old_lerp_weak(vals[:1], vals[1:2], t, vals[-1:])

    return {
        "cuarray select route (new)": _by("select", lambda: cuarray.percentile(x, 50.0, axis=1)),
        "cuarray select route (old, pieces)": old_select,
        "cuarray sort route (new)": _by("sort", lambda: cuarray.percentile(x, 50.0, axis=1)),
    }


def _peers(hx, case):
    out = {}
    try:
        import cupy

        cx = cupy.asarray(hx)  # (its own name: the lambdas read it when called, after torch's x is made)
        if case == "flat":
            q = cupy.asarray(Q)
            out["cupy.percentile"] = (lambda: cupy.percentile(cx, q), cupy)
            out["piece: cupy.sort alone"] = (lambda: cupy.sort(cx), cupy)
        else:
            out["cupy.percentile"] = (lambda: cupy.percentile(cx, 50.0, axis=1), cupy)
    except Exception as exc:  # noqa: BLE001
        print("# cupy: not timed ({})".format(exc))
    try:
        import torch

        if torch.cuda.is_available():
            x = torch.from_numpy(hx).cuda()
            if case == "flat":
                n = x.numel()
                pos = torch.tensor([q / 100 * (n - 1) for q in Q], device="cuda", dtype=torch.float64)
                lo = pos.floor().long()
                hi = torch.clamp(lo + 1, max=n - 1)
                g = (pos - lo).float()

                def recipe():
                    s = torch.sort(x).values
                    return s[lo] + (s[hi] - s[lo]) * g

                out["torch sort recipe (bench row)"] = (recipe, torch)
                out["piece: torch.sort alone"] = (lambda: torch.sort(x), torch)
            else:
                out["torch.quantile(dim=1)"] = (lambda: torch.quantile(x, 0.5, dim=1), torch)
    except Exception as exc:  # noqa: BLE001
        print("# torch: not timed ({})".format(exc))
    return out


class _Clock:
    """Events, record and sync of one library (cuarray, cupy or torch)."""

    def __init__(self, lib):
        self.lib = lib

    def event(self):
        if self.lib is cuarray:
            return cuarray.cuda.Event()
        if self.lib.__name__ == "cupy":
            return self.lib.cuda.Event()
        return self.lib.cuda.Event(enable_timing=True)

    def elapsed_us(self, s, e):
        if self.lib is cuarray or self.lib.__name__ == "cupy":
            return self.lib.cuda.get_elapsed_time(s, e) * 1e3
        return s.elapsed_time(e) * 1e3

    def sync(self):
        if self.lib is cuarray or self.lib.__name__ == "cupy":
            self.lib.cuda.Device().synchronize()
        else:
            self.lib.cuda.synchronize()


def _events(fn, clock, calls):
    pairs = [(clock.event(), clock.event()) for _ in range(calls)]
    for s, e in pairs:
        s.record()
        fn()
        e.record()
    clock.sync()
    return [clock.elapsed_us(s, e) for s, e in pairs]


def _return(fn, clock, calls):
    out = []
    for _ in range(calls):
        clock.sync()
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e6)
    clock.sync()
    return out


def _check(case, hx, variants):
    """Each cuarray variant's answer against NumPy's (the old pieces give the same values)."""
    want = numpy.percentile(hx, Q) if case == "flat" else numpy.percentile(hx, 50.0, axis=1)
    for name, (fn, _) in variants.items():
        if not name.startswith("cuarray") or "piece" in name:
            continue
        got = fn().get().reshape(want.shape)
        print("# {:<36} {}".format(name, "matches NumPy" if numpy.array_equal(got, want.astype(got.dtype))
                                    else "DIFFERS from NumPy"))


def run_case(case, hx, rounds, calls):
    x = cuarray.asarray(hx)
    variants = {k: (v, cuarray) for k, v in (_flat_cuarray(x) if case == "flat" else _rows_cuarray(x)).items()}
    variants.update(_peers(hx, case))
    _check(case, hx, variants)
    clocks = {name: _Clock(lib) for name, (_, lib) in variants.items()}
    for name, (fn, _) in list(variants.items()):  # warm-up: compiles, plans, pools
        try:
            for _ in range(3):
                fn()
            clocks[name].sync()
        except Exception as exc:  # noqa: BLE001 - a peer's limit (torch.quantile's input size): drop it
            print("# {}: not timed ({})".format(name, exc))
            del variants[name]
    samples = {name: {"events": [], "return": []} for name in variants}
    names = list(variants)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn, clock = variants[name][0], clocks[name]
            samples[name]["events"] += _events(fn, clock, calls)
            samples[name]["return"] += _return(fn, clock, calls)
    print("{:<40} {:>10} {:>10}".format(case + " (median us)", "events", "return"))
    for name in names:
        ev, rt = samples[name]["events"], samples[name]["return"]
        print("{:<40} {:>10.1f} {:>10.1f}".format(name, statistics.median(ev), statistics.median(rt)))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--calls", type=int, default=20, help="calls per variant, clock and round")
    p.add_argument("--all", action="store_true", help="also 4096 x 4096 rows")
    args = p.parse_args()
    rng = numpy.random.default_rng(6)  # the bench rows' data
    run_case("flat", rng.random(10**7, dtype=numpy.float32), args.rounds, args.calls)
    rng = numpy.random.default_rng(7)
    run_case("rows", rng.random(2**24, dtype=numpy.float32).reshape(131072, -1), args.rounds, args.calls)
    if args.all:
        run_case("rows", rng.random(2**24, dtype=numpy.float32).reshape(4096, -1), args.rounds, args.calls)


if __name__ == "__main__":
    main()
