"""var/std in one pass, each method of `cuarray._statistics.averages._var(..., method=)` (issue 32;
docs/perf-notes.md, "var/std in one pass"), with PyTorch and CuPy beside when they
import, in one process. Prints one table, µs per call on three clocks:

- `bench`: CUDA events around each call, recorded back to back and read after one sync (the bench
  harness's clock: it reads the host's time per call when the host is slower than the device);
- `dev`: the device alone: N calls queued behind a spin kernel of the library's own stream, between
  two events (the host has enqueued them all before the spin ends), divided by N;
- `host`: perf_counter over N calls without a sync (host-bound when the host is the slower).

`err`: max relative error of the method's answer against NumPy's two-pass var/std of the same
(float32/float64) data computed in float64 on the host; `BAD` where it is over the GPU tests'
tolerance (float32 2e-4, float64 1e-10: tests/_statistics/test_reductions_gpu.py). `default` is the
public `cuarray.var`/`cuarray.std` (VAR_METHOD, through the reduction fast path). Data: normal,
mean 1000, std 3 (the tests' offset mean); `--data offset`: the hard data of the GPU tests, mean/std
1e4 in float32 (N(1e4, 1)) and 1e9 in float64 (N(1e6, 1e-3)), tolerance 2e-4 / 1e-8.

    python scripts/perf/var_variants.py [--only SUBSTR[|SUBSTR...]] [--methods welford,shift-wide] [--reps N]
                                        [--data normal|offset]

About 20-40 s on an H100, most of it NVRTC compiles of the methods' kernels on a cold disk cache.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

CASES = [
    # (name, shape, dtype, fn, axis)
    ("var ax0 (1e6,4) f32", (1_000_000, 4), "float32", "var", 0),
    ("std ax0 (1e6,4) f32", (1_000_000, 4), "float32", "std", 0),
    ("var ax0 (1.6e7,4) f32", (16_000_000, 4), "float32", "var", 0),
    ("std ax0 (1.6e7,4) f32", (16_000_000, 4), "float32", "std", 0),
    ("var ax0 (1e6,2) f32", (1_000_000, 2), "float32", "var", 0),
    ("std ax0 (1e6,2) f32", (1_000_000, 2), "float32", "std", 0),
    ("var ax0 (1e6,8) f32", (1_000_000, 8), "float32", "var", 0),
    ("std ax0 (1e6,8) f32", (1_000_000, 8), "float32", "std", 0),
    ("var ax0 (1e6,4) f64", (1_000_000, 4), "float64", "var", 0),
    ("std ax0 (1e6,4) f64", (1_000_000, 4), "float64", "std", 0),
    ("var ax1 (1e6,16) f32", (1_000_000, 16), "float32", "var", 1),
    ("var flat 1e8 f32", (100_000_000,), "float32", "var", None),
]
TOL = {"float32": 2e-4, "float64": 1e-10}
SPIN = r"""
extern "C" __global__ void spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}
"""


class Lib:
    """One library's clocks: events, a sync, and a spin kernel on its current stream."""

    def __init__(self, name):
        self.name = name
        if name == "torch":
            import torch

            self.m = torch
            self.event = lambda: torch.cuda.Event(enable_timing=True)
            self.sync = torch.cuda.synchronize
            self.spin = lambda cycles: torch.cuda._sleep(int(cycles))
            self.ms = lambda s, e: s.elapsed_time(e)
        else:
            mod = __import__(name)
            self.m = mod
            self.event = mod.cuda.Event
            self.sync = mod.cuda.Device().synchronize if name == "cupy" else mod.cuda.synchronize
            kern = mod.RawKernel(SPIN, "spin")
            self.spin = lambda cycles: kern((1,), (1,), (np.int64(cycles),))
            self.ms = mod.cuda.get_elapsed_time

    def bench(self, fn, reps):
        for _ in range(3):
            fn()
        pairs = [(self.event(), self.event()) for _ in range(reps)]
        for s, e in pairs:
            s.record()
            fn()
            e.record()
        self.sync()
        return statistics.median(self.ms(s, e) for s, e in pairs) * 1e3

    def dev(self, fn, reps, est_us):
        # A spin of ~3x the host's enqueue time for `reps` calls (est_us each; clock64 at ~1.7-2 GHz).
        s, e = self.event(), self.event()
        self.sync()
        self.spin(max(2e5, 3 * reps * max(est_us, 20.0) * 1.7e3))
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        self.sync()
        return self.ms(s, e) * 1e3 / reps

    def host(self, fn, reps):
        self.sync()
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        dt = (time.perf_counter() - t) / reps * 1e6
        self.sync()
        return dt


def _peer_fn(lib, fn_name, x, axis):
    if lib.name == "torch":
        f = lib.m.var if fn_name == "var" else lib.m.std
        if axis is None:
            return lambda: f(x, correction=0)
        return lambda: f(x, dim=axis, correction=0)
    return lambda: getattr(lib.m, fn_name)(x, axis=axis)


def _err(got, want):
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    scale = np.maximum(np.abs(want), np.finfo(np.float64).tiny)
    return float(np.max(np.abs(got - want) / scale))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="run the cases whose name contains one of these ('|'-separated)")
    ap.add_argument("--methods", default="", help="comma-separated subset of VAR_METHODS")
    ap.add_argument("--reps", type=int, default=40)
    ap.add_argument("--data", choices=("normal", "offset"), default="normal")
    args = ap.parse_args()
    tol = dict(TOL) if args.data == "normal" else {"float32": 2e-4, "float64": 1e-8}
    import cuarray
    from cuarray._statistics import averages

    methods = [m for m in args.methods.split(",") if m] or list(averages.VAR_METHODS)
    libs = {"cuarray": Lib("cuarray")}
    for peer in ("cupy", "torch"):
        try:
            libs[peer] = Lib(peer)
        except Exception as exc:  # noqa: BLE001 - an absent or broken peer: a column of dashes
            print("# {} not timed: {}".format(peer, exc), file=sys.stderr)
    print("# device: {}; default method: {}; reps {}; data {}".format(cuarray.cuda.Device().name,
                                                                     averages.VAR_METHOD, args.reps, args.data))
    print("{:24s} {:14s} {:>8s} {:>8s} {:>8s} {:>9s}  {}".format("case", "variant", "bench", "dev", "host", "err", ""))
    only = [s for s in args.only.split("|") if s]
    rng = np.random.default_rng(0)
    bad = 0
    for name, shape, dt, fn_name, axis in CASES:
        if only and not any(s in name for s in only):
            continue
        if args.data == "normal":
            host = (rng.standard_normal(shape, dtype=np.float32) * 3 + 1000).astype(dt)
        elif dt == "float32":
            host = (rng.standard_normal(shape, dtype=np.float32) + 1e4).astype(dt)
        else:
            host = rng.standard_normal(shape) * 1e-3 + 1e6
        want = getattr(np, fn_name)(host.astype(np.float64), axis=axis)
        xd = cuarray.asarray(host)
        cu = libs["cuarray"]
        public = getattr(cuarray, fn_name)
        rows = [("default", lambda: public(xd, axis=axis))]
        for m in methods:
            rows.append((m, (lambda m=m: averages._var(xd, axis, None, None, 0, False, True, None, fn_name == "std",
                                                          getattr(np, fn_name), method=m))))
        for label, f in rows:
            f()  # compile outside the clocks
            err = _err(f().get(), want)
            b = cu.bench(f, args.reps)
            h = cu.host(f, args.reps)
            d = cu.dev(f, args.reps, h)
            flag = "BAD" if err > tol[dt] else ""
            bad += bool(flag)
            print("{:24s} {:14s} {:8.1f} {:8.1f} {:8.1f} {:9.2e}  {}".format(name, label, b, d, h, err, flag),
                  flush=True)
        xd = rows = None  # free the input before the peers allocate theirs
        for peer in ("cupy", "torch"):
            lib = libs.get(peer)
            if lib is None:
                continue
            try:
                x = lib.m.asarray(host) if peer == "cupy" else lib.m.as_tensor(host, device="cuda")
                f = _peer_fn(lib, fn_name, x, axis)
                f()
                got = f()
                err = _err(got.get() if peer == "cupy" else got.cpu().numpy(), want)
                b = lib.bench(f, args.reps)
                h = lib.host(f, args.reps)
                d = lib.dev(f, args.reps, h)
                print("{:24s} {:14s} {:8.1f} {:8.1f} {:8.1f} {:9.2e}".format(name, peer, b, d, h, err), flush=True)
                del x
            except Exception as exc:  # noqa: BLE001 - a peer's failure is a row, not the end of the run
                print("{:24s} {:14s} failed: {}".format(name, peer, exc))
        cuarray.get_default_memory_pool().free_all_blocks()
    print("# {} BAD".format(bad) if bad else "# every answer within the tests' tolerance")


if __name__ == "__main__":
    main()
