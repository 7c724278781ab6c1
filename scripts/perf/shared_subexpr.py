"""Calibration of the shared-subexpression cost model (`cuarray/_core/fusion/cost.py`): for a
few shared subtrees `t = f(x)` on 256 MiB float32 read by k kernels (`t * c_i`, i < k, all
requested), the lazy Program's time with `t` recomputed in each kernel against `t` computed
once into memory, both forced, and the model's prediction. Prints, per case, the measured
difference against the model's, the model's choice against the faster one, and a recomputing
kernel's time per element in bytes at the copy rate against the model's max(L + S, W). Cases
below "held out" were not used to fit the weights. One process, CUDA events,
median of 15. On a GPU machine: `python scripts/perf/shared_subexpr.py [--mib 256]`."""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--reps", type=int, default=15)
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _timing import event_us

    import cuarray as cp
    from cuarray._core.fusion import cost, planner

    n = args.mib * 2**20 // 4
    x = cp.asarray(np.random.default_rng(0).uniform(0.5, 1.5, n).astype(np.float32))
    copy_us = event_us(lambda: x.copy(), args.reps)
    bw = 2 * n * 4 / (copy_us * 1e-6)

    def rep(op, times):
        def f(t):
            for _ in range(times):
                t = op(t)
            return t
        return f

    cases = [
        ("2 cheap (x*1.5+0.5)", lambda t: t * 1.5 + 0.5),
        ("8 cheap (*1.01+0.5)", rep(lambda t: t * 1.01 + 0.5, 4)),
        ("4 divide", rep(lambda t: 1.5 / (t + 1.0), 4)),
        ("1 exp", cp.exp),
        ("4 sin", rep(cp.sin, 4)),
        ("8 sin", rep(cp.sin, 8)),
        ("4 power", rep(lambda t: cp.power(t, 1.01), 4)),
        ("8 exp+log", rep(lambda t: cp.log(cp.exp(t) + 1.0), 4)),
        ("held out: 2 power", rep(lambda t: cp.power(t, 1.01), 2)),
        ("held out: 6 cos", rep(cp.cos, 6)),
        ("held out: tanh/(1+t*t)", rep(lambda t: cp.tanh(t) / (1.0 + t * t), 2)),
        ("held out: 3 exp", rep(lambda t: cp.exp(t * -0.5), 3)),
    ]
    orig = cost.materialise
    target = []

    def build(f, k):
        t = f(x)
        target.append(t._node)
        return [t * float(i + 2) for i in range(k)]

    def run(f, k):
        with cp.lazy():
            outs = build(f, k)
        return outs

    print("device copy rate {:.0f} GB/s; {} MiB float32; launch counted as {:.1f} us".format(
        bw / 1e9, args.mib, cost.LAUNCH_BYTES / bw * 1e6))
    print("{:<24} {:>2} {:>10} {:>10} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8}".format(
        "shared subtree", "k", "recomp us", "mater. us", "diff us", "model us", "model", "best",
        "B/el", "model"))
    for label, f in cases:
        for k in (2, 4, 8):
            times = {}
            for forced in (False, True):
                planner.clear()
                target.clear()
                cost.materialise = (lambda t, kk, stop, fr=False, forced=forced: forced and t is target[-1])
                try:
                    times[forced] = event_us(lambda: run(f, k), args.reps)
                finally:
                    cost.materialise = orig
            target.clear()
            with cp.lazy(_track=False):
                outs = build(f, k)
            t = target[-1]
            units, L = cost.subtree(t, lambda nd: False)
            model = cost.materialise(t, k, lambda nd: False)
            diff = times[False] - times[True]  # > 0: materialising was faster
            S = 4
            own = max(L + S, units * cost.BYTES_PER_UNIT)
            pred = ((k - 1) * own - 2 * S * k) * n / bw * 1e6 - cost.LAUNCH_BYTES / bw * 1e6
            per_el = times[False] / k * 1e-6 * bw / n  # a recomputing kernel, bytes per element
            print("{:<24} {:>2} {:>10.1f} {:>10.1f} {:>9.1f} {:>9.1f} {:>7} {:>7} {:>8.1f} {:>8.1f}".format(
                label, k, times[False], times[True], diff, pred, "mat" if model else "recomp",
                "mat" if diff > 0 else "recomp", per_el, own))
            del outs


if __name__ == "__main__":
    main()
