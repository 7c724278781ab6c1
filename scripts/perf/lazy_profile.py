"""Where lazy mode's host time goes against eager's, per bench row (issue 57): seed-grad and
fuse-epilogue at the bench's quick size (N = 1024), and the seed-logreg step. For each, eager and
lazy back to back (host time per call with no sync, and per call with the queue drained: a row
is host-bound where the two agree), then a cProfile of each (tottime, the first `--top` lines),
so that the functions lazy mode adds, or pays more for than eager, can be read side by side.

    python scripts/perf/lazy_profile.py            # on a GPU machine
    python scripts/perf/lazy_profile.py --stub     # the fake device (cuBLAS's calls no-ops)

On the H100 the fake device's gap (lazy over eager, seed-grad: +19 µs) grew to +41 µs: the
functions whose tottime grows most from the fake device to the GPU are the ones to look at.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

import numpy as np


def rows(cp, mk):
    """name -> (eager, lazy) callables, on the bench rows' shapes."""
    from cuarray.bench.cases.linalg_products import _logreg_step

    n = 1024
    X, h, x, z, W = mk((n, 784)), mk((n, 512)), mk((n, 10)), mk((n, 10)), mk((10, 512))

    def grad():
        delta_o = -(x - z)
        delta_h = cp.dot(delta_o, W) * h * (1.0 - h)
        return cp.dot(X.T, delta_h)

    xe, We, be = mk((n, 784)), mk((784, 512)), mk((512,))

    def layer():
        return cp.maximum(cp.dot(xe, We) + be, 0)

    xl, yl, wl = mk((400, 784)), mk((400,)), mk((784,))

    def step():
        return _logreg_step(cp, cp.dot, xl, yl, wl, 0.5, 400)

    def lazily(fn):
        def run():
            with cp.lazy():
                r = fn()
            return r
        return run

    return {"seed-grad": (grad, lazily(grad)), "fuse-epilogue": (layer, lazily(layer)),
            "logreg-step": (step, lazily(step))}


def back_to_back(fn, sync, n):
    for _ in range(100):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    sync()
    t2 = time.perf_counter()
    return (t1 - t0) / n * 1e6, (t2 - t0) / n * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--stub", action="store_true")
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--top", type=int, default=18)
    args = ap.parse_args()
    import cuarray as cp

    if args.stub:
        from cuarray.testing.fake_device import install

        install()
        from cuarray.cuda.libs import cublas

        cublas.gemm = lambda *a, **k: None  # the library calls; everything above them runs
        cublas.gemv = lambda *a, **k: True
        cublas.gemm_epilogue = lambda *a, **k: True
        sync = lambda: None  # noqa: E731
        mk = lambda shape: cp.ndarray(shape, np.float32)  # noqa: E731
    else:
        sync = cp.cuda.synchronize
        rng = np.random.default_rng(0)
        mk = lambda shape: cp.asarray(rng.random(shape, dtype=np.float32))  # noqa: E731
    cases = rows(cp, mk)
    for rnd in range(2):  # (the first round warms the caches; both printed, to show the spread)
        for name, (eager, lazy) in cases.items():
            for kind, fn in (("eager", eager), ("lazy", lazy)):
                host, drained = back_to_back(fn, sync, args.n)
                print("round {} {:14s} {:6s} host {:7.1f} us/call, drained {:7.1f} us/call".format(
                    rnd, name, kind, host, drained))
    from cuarray._core.fusion import replay

    for name, (_, lazy) in cases.items():
        lazy()
        ev = replay.evaluations()[-1]
        print("{}: steps {}; build {:.1f} us, plan + launch {:.1f} us".format(
            name, ev["steps"], ev["build_us"], ev["host_us"]))
    for name, (eager, lazy) in cases.items():
        for kind, fn in (("eager", eager), ("lazy", lazy)):
            pr = cProfile.Profile()
            pr.enable()
            for _ in range(args.n):
                fn()
            pr.disable()
            sync()
            print("=== {} {} (cProfile, {} calls)".format(name, kind, args.n))
            pstats.Stats(pr, stream=sys.stdout).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
