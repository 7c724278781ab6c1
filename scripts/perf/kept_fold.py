"""Folded output vectors (`reduction_plan._OUT_FOLD`; docs/perf-notes.md "Kept axes under 16 bytes:
folded output vectors"): reductions along axis 0 of arrays whose row of outputs is 2-8
bytes, with the planner's largest fold at 0 (off: the scalar sub-chunk plan) and at each fold a case
can take, beside PyTorch and CuPy when they import, in one process. One line per case, µs:
`gpu` the device's time alone (scripts/perf/_timing.py gpu_us: the calls queued behind a spin),
`ev` CUDA events around one call (event_us: the host's time when it is the slower side). `ok`: every
cuarray value against NumPy (float64 accumulation; argmax exactly), BAD otherwise.

    python scripts/perf/kept_fold.py [--only SUBSTR[|SUBSTR...]] [--folds 0,2,4,8] [--rounds 2,1]
                                     [--sets-from 0,8] [--blocks-per-sm 16,2] [--reps N]

The fold is switched the way scripts/perf/shapes_sweep.py's `--set` switches a planner constant:
`reduction_plan._OUT_FOLD` (and `_FOLD_ROUNDS`, the fewest load rounds a thread of a folded plan makes:
one column each; `_FOLD_WIDE_SETS_FROM`, 2 accumulator sets of var's moments and argmax's pairs past
that many load rounds an SM, 0 never; `_FOLD_WIDE_BLOCKS_PER_SM`, the blocks an SM a folded plan's split
aims for when its accumulator is over 8 bytes (var's, argmax's): with more than one value of a knob a column each, named `r<rounds> w<sets> b<blocks>` by
the knobs given more than one value) set between rounds, prepared launches dropped. A setting that plans a case as an
earlier one did is not timed again. About 30-60 s on an H100, most
of it NVRTC on a cold disk cache and the NumPy references.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import gpu_peers  # noqa: E402
from _timing import event_us, gpu_us  # noqa: E402

import cuarray  # noqa: E402
from cuarray._core import reduction, reduction_ops, reduction_plan  # noqa: E402
from cuarray.cuda import device as _device  # noqa: E402

CASES = [
    # (name, shape, dtype, op)
    ("var ax0 (1e6,2) f32", (1_000_000, 2), "float32", "var"),
    ("sum ax0 (1e6,2) f32", (1_000_000, 2), "float32", "sum"),
    ("max ax0 (1e6,2) f32", (1_000_000, 2), "float32", "max"),
    ("argmax ax0 (1e6,2) f32", (1_000_000, 2), "float32", "argmax"),
    ("var ax0 (4e6,2) f32", (4_000_000, 2), "float32", "var"),
    ("sum ax0 (4e6,2) f32", (4_000_000, 2), "float32", "sum"),
    ("argmax ax0 (4e6,2) f32", (4_000_000, 2), "float32", "argmax"),
    ("var ax0 (1.6e7,2) f32", (16_000_000, 2), "float32", "var"),
    ("sum ax0 (1.6e7,2) f32", (16_000_000, 2), "float32", "sum"),
    ("max ax0 (1.6e7,2) f32", (16_000_000, 2), "float32", "max"),
    ("argmax ax0 (1.6e7,2) f32", (16_000_000, 2), "float32", "argmax"),
    ("var ax0 (6.4e7,2) f32", (64_000_000, 2), "float32", "var"),
    ("sum ax0 (6.4e7,2) f32", (64_000_000, 2), "float32", "sum"),
    ("argmax ax0 (6.4e7,2) f32", (64_000_000, 2), "float32", "argmax"),
    ("var ax0 (1.6e7,4) f16", (16_000_000, 4), "float16", "var"),
    ("argmax ax0 (1.6e7,4) f16", (16_000_000, 4), "float16", "argmax"),
    ("sum ax0 (1.6e7,4) f16", (16_000_000, 4), "float16", "sum"),
    ("var ax0 (1e6,4) f16", (1_000_000, 4), "float16", "var"),
    ("sum ax0 (1e6,4) f16", (1_000_000, 4), "float16", "sum"),
    ("max ax0 (1e6,4) f16", (1_000_000, 4), "float16", "max"),
    ("argmax ax0 (1e6,4) f16", (1_000_000, 4), "float16", "argmax"),
    ("sum ax0 (4e6,8) i8", (4_000_000, 8), "int8", "sum"),
    # folds of 4 and 8
    ("sum ax0 (4e6,2) f16", (4_000_000, 2), "float16", "sum"),
    ("sum ax0 (8e6,4) i8", (8_000_000, 4), "int8", "sum"),
    ("max ax0 (1.6e7,2) u8", (16_000_000, 2), "uint8", "max"),
    ("sum ax0 (1.6e7,2) u8", (16_000_000, 2), "uint8", "sum"),
    # a kept row of 16 bytes (plain output vectors), for scale
    ("var ax0 (1e6,4) f32", (1_000_000, 4), "float32", "var"),
]


def _fn(lib, mod, op, x):
    if lib == "torch":
        if op == "var":
            return lambda: mod.var(x, dim=0, correction=0)
        return {"sum": lambda: mod.sum(x, dim=0), "max": lambda: mod.amax(x, dim=0),
                "argmax": lambda: mod.argmax(x, dim=0)}[op]
    f = getattr(mod, op)
    return lambda: f(x, axis=0)


def _reference(op, host):
    if op in ("max", "argmax"):
        return getattr(np, op)(host, axis=0)
    if host.dtype.kind in "iu":
        return getattr(np, op)(host, axis=0)
    return getattr(np, op)(host.astype(np.float64), axis=0)


def _ok(op, got, want, host) -> str:
    if op in ("max", "argmax") or host.dtype.kind in "iu" and op == "sum":
        return "ok" if np.array_equal(got, want) else "BAD"
    tol = {"e": 2e-3, "f": 2e-5}[host.dtype.char]
    big = float(np.abs(host).max())
    scale = big * np.sqrt(host.shape[0]) * 10 if op == "sum" else big * big * 5
    return "ok" if np.allclose(got.astype(np.float64), want, rtol=tol, atol=tol * scale) else "BAD"


def _clear_launchers():
    """Drop every prepared launch (planned under the old setting): shapes_sweep.py's `--set` does the same."""
    import gc

    for d in [o for o in gc.get_objects() if isinstance(o, reduction.ReductionDef)]:
        d._launchers.clear()
    reduction_ops.clear_fast_path()


def _plan(shape, dtype, op) -> str:
    isz = np.dtype(dtype).itemsize
    # the accumulator's bytes, as reduction_ops sizes them (float16 accumulates in float32)
    acc = {"var": 24 if isz == 8 else 16, "argmax": 32, "max": max(isz, 4 if dtype == "float16" else 1),
           "sum": 8 if np.dtype(dtype).kind in "iu" else max(isz, 4)}[op]
    p = reduction.plan(shape, [(shape[1] * isz, isz)], [isz], (isz,), (0,), aligned=(True,),
                       sm_count=_device._sm_count(_device.get_device_id()), acc_size=acc, wide=op == "var")
    if p.fold:
        return "fold{} acc{} s{}".format(p.fold, p.accs or p.unroll, p.split)
    if p.ovec:
        return "ovec{} s{}".format(p.ovec, p.split)
    return "sub{} s{}".format(p.sub, p.split)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="substrings of case names, separated by '|'")
    ap.add_argument("--folds", default="0,2,4,8", help="values of reduction_plan._OUT_FOLD to time")
    ap.add_argument("--rounds", default="2,1", help="values of reduction_plan._FOLD_ROUNDS to time folded plans at")
    ap.add_argument("--sets-from", default="0",
                    help="values of reduction_plan._FOLD_WIDE_SETS_FROM to time folded plans at (e.g. 0,8)")
    ap.add_argument("--blocks-per-sm", default="",
                    help="values of reduction_plan._FOLD_WIDE_BLOCKS_PER_SM to time folded plans at (e.g. 16,4,2)")
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    cases = [c for c in CASES if not args.only or any(k in c[0] for k in args.only.split("|"))]
    folds = [int(v) for v in args.folds.split(",")]
    rounds = [int(v) for v in args.rounds.split(",")]
    sets_from = [int(v) for v in args.sets_from.split(",")]
    bps = [int(v) for v in args.blocks_per_sm.split(",")] if args.blocks_per_sm else [reduction_plan._FOLD_WIDE_BLOCKS_PER_SM]
    settings = [(r, w, b) for r in rounds for w in sets_from for b in bps]

    def fold_key(r, w, b):
        named = [k + str(v) for k, v, vs in (("w", w, sets_from), ("b", b, bps)) if len(vs) > 1]
        return " ".join(["fold r{}".format(r) if not named else "r{}".format(r)] + named)
    peers = gpu_peers()
    knobs = ("_OUT_FOLD", "_FOLD_ROUNDS", "_FOLD_WIDE_SETS_FROM", "_FOLD_WIDE_BLOCKS_PER_SM")
    defaults = tuple(getattr(reduction_plan, k) for k in knobs)

    def set_knobs(values):
        for k, v in zip(knobs, values):
            setattr(reduction_plan, k, v)
    rng = np.random.default_rng(0)
    print("_OUT_FOLD default {}, _FOLD_ROUNDS default {}, _FOLD_WIDE_SETS_FROM default {}, _FOLD_WIDE_BLOCKS_PER_SM "
          "default {}; µs gpu/ev (gpu: the "
          "device alone; ev: events around one call); F: the fold the case takes; f/off, f/pt: gpu ratios of the "
          "first fold column".format(*defaults))
    head = ["off"] + [fold_key(*st) for st in settings] + ["torch", "cupy"]
    print("{:26s} {:>2s} ".format("case", "F") + " ".join("{:>13s}".format(h) for h in head)
          + " {:>6s} {:>6s} {:>4s}  {}".format("f/off", "f/pt", "ok", "plan (defaults)"))
    for name, shape, dtype, op in cases:
        if np.dtype(dtype).kind in "iu":
            info = np.iinfo(dtype)
            host = rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
        else:
            host = (rng.standard_normal(shape) * 3 + (0 if dtype == "float16" else 100)).astype(dtype)
        want = _reference(op, host)
        x = cuarray.asarray(host)
        times, ok, by_plan, row_fold, plans = {}, "ok", {}, 0, {}
        for f in folds:
            for r, w, b in settings if f else settings[:1]:
                set_knobs((f, r, w, b))
                _clear_launchers()
                plan = _plan(shape, dtype, op)
                key = "off" if not plan.startswith("fold") else fold_key(r, w, b)
                if key != "off" and (len(sets_from) > 1 or len(bps) > 1):
                    plans.setdefault(key, plan)
                row_fold = row_fold or (int(plan[4]) if key != "off" else 0)
                if plan in by_plan:  # planned as an earlier setting did: its time
                    times.setdefault(key, by_plan[plan])
                    continue
                fn = _fn("cuarray", cuarray, op, x)
                if _ok(op, fn().get(), want, host) != "ok":
                    ok = "BAD"
                times.setdefault(key, (gpu_us(fn, args.reps), event_us(fn, args.reps)))
                by_plan[plan] = times[key]
        set_knobs(defaults)
        _clear_launchers()
        plan_on = _plan(shape, dtype, op)
        if len(set(plans.values())) > 1:  # the sets each column took
            plan_on += "; " + " ".join("{}: {}".format(k, " ".join(v.split()[1:])) for k, v in plans.items())
        del x
        for lib, (mod, cuda) in peers.items():
            try:
                t = mod.as_tensor(host, device="cuda") if lib == "torch" else mod.asarray(host)
                fn = _fn(lib, mod, op, t)
                times[lib] = (gpu_us(fn, args.reps, cuda=cuda), event_us(fn, args.reps, cuda=cuda))
            except Exception as exc:  # noqa: BLE001
                print("  {} {}: {}".format(lib, name, exc), file=sys.stderr)

        def cell(k):
            v = times.get(k)
            return "{:>13s}".format("-") if v is None else "{:6.1f}/{:<6.1f}".format(*v)

        def ratio(a, b):
            va, vb = times.get(a), times.get(b)
            return "{:6.2f}".format(va[0] / vb[0]) if va and vb else "{:>6s}".format("-")

        first = fold_key(*settings[0]) if row_fold else "off"
        print("{:26s} {:>2} ".format(name, row_fold or "-") + " ".join(cell(h) for h in head)
              + " {} {} {:>4s}  {}".format(ratio(first, "off") if row_fold else "{:>6s}".format("-"),
                                           ratio(first, "torch"), ok, plan_on), flush=True)


if __name__ == "__main__":
    main()
