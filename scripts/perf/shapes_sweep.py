"""Reductions and row-wise work on the shapes real programs make (issue 32): µs per call for cuarray,
CuPy and PyTorch in one process (CUDA events, median of 30 after warm-up), the fraction of the copy
rate for the bytes read, and cuarray's reduction plan. Prints one table.

    python scripts/perf/shapes_sweep.py [--libs cuarray] [--warp-row 16,32,64] [--only max,argmax]

`--warp-row`: rerun cuarray's cases with `reduction._WARP_ROW` (rows shorter than it get a thread
per output, longer ones a warp) set to each value in turn: the sweep behind that constant.
"""

from __future__ import annotations

import statistics
import sys

import numpy as np


def timeit(fn, sync_events, n=30):
    start, stop = sync_events
    for _ in range(3):
        fn()
    out = []
    for _ in range(n):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        out.append(start.elapsed(stop))
    return statistics.median(out) * 1e3  # µs


CASES = [
    # (name, shape, dtype, op, axis)
    ("sum ax1 (4e5,2) f64", (400_000, 2), "float64", "sum", 1),
    ("sum(exp) ax1 (4e5,2) f64", (400_000, 2), "float64", "sumexp", 1),
    ("sum ax1 (4e6,3) f32", (4_000_000, 3), "float32", "sum", 1),
    ("sum ax1 (4e6,4) f32", (4_000_000, 4), "float32", "sum", 1),
    ("sum ax1 (2e6,8) f32", (2_000_000, 8), "float32", "sum", 1),
    ("max ax1 (1e6,16) f32", (1_000_000, 16), "float32", "max", 1),
    ("argmax ax1 (1e6,16) f32", (1_000_000, 16), "float32", "argmax", 1),
    ("sum ax1 (5e5,64) f32", (500_000, 64), "float32", "sum", 1),
    ("sum ax0 (1e6,4) f32", (1_000_000, 4), "float32", "sum", 0),
    ("sum ax0 (1e6,32) f32", (1_000_000, 32), "float32", "sum", 0),
    ("sum ax0 (2,4e6) f32", (2, 4_000_000), "float32", "sum", 0),
    ("mean ax(0,2) (64,1024,256) f32", (64, 1024, 256), "float32", "mean", (0, 2)),
    ("x - x.mean(0) (1e6,32) f32", (1_000_000, 32), "float32", "center", 0),
    ("softmax ax1 (1e6,10) f32", (1_000_000, 10), "float32", "softmax", 1),
]


def make(lib, xp, host):
    if lib == "torch":
        import torch

        return torch.as_tensor(host, device="cuda")
    return xp.asarray(host)


def op_fn(lib, xp, op, x, axis):
    if lib == "torch":
        import torch

        dim = axis
        if op == "sum":
            return lambda: torch.sum(x, dim=dim)
        if op == "sumexp":
            return lambda: torch.sum(torch.exp(x), dim=dim)
        if op == "max":
            return lambda: torch.amax(x, dim=dim)
        if op == "argmax":
            return lambda: torch.argmax(x, dim=dim)
        if op == "mean":
            return lambda: torch.mean(x, dim=dim)
        if op == "center":
            return lambda: x - x.mean(dim=0)
        if op == "softmax":
            return lambda: torch.softmax(x, dim=1)
    if op == "sum":
        return lambda: x.sum(axis=axis)
    if op == "sumexp":
        return lambda: xp.exp(x).sum(axis=axis)
    if op == "max":
        return lambda: x.max(axis=axis)
    if op == "argmax":
        return lambda: x.argmax(axis=axis)
    if op == "mean":
        return lambda: x.mean(axis=axis)
    if op == "center":
        return lambda: x - x.mean(axis=0)
    if op == "softmax":
        def sm():
            e = xp.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return sm
    raise ValueError(op)


def events(lib, xp):
    if lib == "torch":
        import torch

        class E:
            def __init__(self):
                self.e = torch.cuda.Event(enable_timing=True)

            def record(self):
                self.e.record()

            def synchronize(self):
                self.e.synchronize()

            def elapsed(self, other):
                return self.e.elapsed_time(other.e)

        return E(), E()

    class E:
        def __init__(self):
            self.e = xp.cuda.Event()

        def record(self):
            self.e.record()

        def synchronize(self):
            self.e.synchronize()

        def elapsed(self, other):
            return xp.cuda.get_elapsed_time(self.e, other.e)

    return E(), E()


def plan_of(shape, dtype, axis):
    from cuarray._core import reduction as R

    isz = np.dtype(dtype).itemsize
    axes = [axis] if isinstance(axis, int) else list(axis)
    st, acc = [], isz
    for d in reversed(shape):
        st.insert(0, acc)
        acc *= d
    kept = [i for i in range(len(shape)) if i not in axes]
    ys, acc = [], isz
    for i in reversed(kept):
        ys.insert(0, acc)
        acc *= shape[i]
    p = R.plan(tuple(shape), [tuple(st)], (isz,), tuple(ys), axes, aligned=(True,))
    return "{} g{} v{} s{} grid{}{}".format(p.strategy, p.group, p.vec, p.split, p.grid_x, " F" if p.fused else "")


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--libs", default="cuarray,cupy,torch")
    ap.add_argument("--warp-row", default="")
    ap.add_argument("--sub-parts", default="", help="values of reduction._SUB_PARTS to sweep")
    ap.add_argument("--only", default="", help="comma-separated substrings of case names")
    args = ap.parse_args()
    libs = {}
    import cuarray

    for name in args.libs.split(","):
        try:
            libs[name] = cuarray if name == "cuarray" else __import__(name)
        except Exception:
            pass
    global CASES
    if args.only:
        CASES = [c for c in CASES if any(k in c[0] for k in args.only.split(","))]
    if args.warp_row or args.sub_parts:
        from cuarray._core import reduction

        name = "_WARP_ROW" if args.warp_row else "_SUB_PARTS"
        for wr in [int(v) for v in (args.warp_row or args.sub_parts).split(",")]:
            setattr(reduction, name, wr)
            for d in _defs():
                d._launchers.clear()
            from cuarray._core import reduction_ops

            reduction_ops.clear_fast_path()  # it holds launchers planned with the old value
            print("== {} = {}".format(name, wr))
            run(libs, args)
        return
    run(libs, args)


def _defs():
    import gc

    from cuarray._core import reduction

    return [o for o in gc.get_objects() if isinstance(o, reduction.ReductionDef)]


def run(libs, args):
    import cuarray
    rate = None
    x = cuarray.empty(2**28, dtype="float32")
    e0, e1 = events("cuarray", cuarray)
    t = timeit(lambda: x.copy(), (e0, e1), n=10)
    rate = 2 * x.nbytes / (t * 1e-6) / 1e9
    del x
    rng = np.random.default_rng(0)
    print("copy rate {:.0f} GB/s".format(rate))
    print("{:34s} {:>10s} {:>10s} {:>10s} {:>7s} {:>7s} {:>6s}  {}".format(
        "case", "cuarray", "cupy", "torch", "cu/cp", "cu/pt", "xcopy", "plan"))
    for name, shape, dtype, op, axis in CASES:
        host = rng.standard_normal(shape).astype(dtype)
        res = {}
        for lib, xp in libs.items():
            try:
                a = make(lib, xp, host)
                res[lib] = timeit(op_fn(lib, xp, op, a, axis), events(lib, xp))
            except Exception as exc:  # noqa: BLE001
                res[lib] = None
                print("  {} {}: {}".format(lib, name, exc), file=sys.stderr)
        cu = res.get("cuarray")
        f = lambda v: "{:10.1f}".format(v) if v else "{:>10s}".format("-")  # noqa: E731
        r = lambda p: "{:7.2f}".format(cu / res[p]) if cu and res.get(p) else "{:>7s}".format("-")  # noqa: E731
        xc = host.nbytes / (cu * 1e-6) / 1e9 / rate if cu else 0
        pl = plan_of(shape, dtype, axis) if op in ("sum", "max", "argmax", "mean", "sumexp") else ""
        print("{:34s} {} {} {} {} {} {:6.2f}  {}".format(name, f(cu), f(res.get("cupy")), f(res.get("torch")),
                                                        r("cupy"), r("torch"), xc, pl))


if __name__ == "__main__":
    main()
