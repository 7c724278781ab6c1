"""Reductions and row-wise work on the shapes real programs make (issue 32): µs per call for cuarray,
CuPy and PyTorch in one process (CUDA events, median of 30 after warm-up), the fraction of the copy
rate for the bytes moved (read, plus written for softmax/centring), and cuarray's reduction plan.
Prints one table.

    python scripts/perf/shapes_sweep.py [--libs cuarray] [--only max,argmax] [--set NAME=v1,v2,...[;NAME2=...]]

`--set NAME=v1,v2`: rerun cuarray's cases with the reduction planner's constant `reduction_plan.NAME`
set to each value in turn (prepared launchers are dropped between values); several constants
separated by ';' are swept one after the other, each back at its default before the next, e.g.
`--set "_ROW_TILE=0,4,8,16;_OUT_VEC=0,1;_UNROLL_SUB=0,16,32"`. Issue 32's third pass:
`_ROW_TILE` (16-byte loads a lane of a row tile, over several rows; 0 = the one-pass plans),
`_OUT_VEC` (a few outputs along a contiguous kept axis, 16 bytes of outputs a thread; 0 = off),
`_UNROLL_SUB` (accumulators of the scalar sub-chunk walk; 0 = _UNROLL_COLS), `_FUSE_STEPS`;
`_OUT_FOLD=0,2,4,8` (kept rows of 2-8 bytes, 16 / row rows a load; scripts/perf/kept_fold.py). E.g.
`--set _LANE_VECS=0,1,2,4` (16-byte loads per lane of a short row's lane group; 0 = the old
thread-per-row / warp-per-row plans), `--set _WARP_ROW=16,32,64`, `--set _SUB_PARTS=32768,65536`.
`--set _SHORT_UNROLL=0,1` (walks of 2-7 elements unrolled by their length), `--set _VEC_ND=0,1`
(16-byte loads over reduced dims that do not collapse). `--warp-row` and `--sub-parts` are the
older spellings of `--set _WARP_ROW=` and `--set _SUB_PARTS=`.
Peers run once, in the first round (their numbers do not depend on cuarray's settings).
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
    ("sum ax1 (1.6e7,4) f32", (16_000_000, 4), "float32", "sum", 1),
    ("mean ax1 (4e6,4) f32", (4_000_000, 4), "float32", "mean", 1),
    ("nansum ax1 (4e6,4) f32", (4_000_000, 4), "float32", "nansum", 1),
    ("sum ax1 (2e6,8) f32", (2_000_000, 8), "float32", "sum", 1),
    ("max ax1 (1e6,16) f32", (1_000_000, 16), "float32", "max", 1),
    ("argmax ax1 (1e6,16) f32", (1_000_000, 16), "float32", "argmax", 1),
    ("sum ax1 (5e5,64) f32", (500_000, 64), "float32", "sum", 1),
    ("sum ax1 (1e6,16) f32", (1_000_000, 16), "float32", "sum", 1),
    ("sum ax1 (4e6,16) f32", (4_000_000, 16), "float32", "sum", 1),
    ("sum ax1 (1e6,64) f32", (1_000_000, 64), "float32", "sum", 1),
    ("sum ax1 (1e6,100) f32", (1_000_000, 100), "float32", "sum", 1),
    ("sum ax1 (2e6,8) f64", (2_000_000, 8), "float64", "sum", 1),
    ("var ax1 (1e6,16) f32", (1_000_000, 16), "float32", "var", 1),
    ("nanmax ax1 (1e6,16) f32", (1_000_000, 16), "float32", "nanmax", 1),
    ("argmax ax1 (4e6,8) f32", (4_000_000, 8), "float32", "argmax", 1),
    ("sum ax0 (1e6,4) f32", (1_000_000, 4), "float32", "sum", 0),
    ("sum ax0 (1.6e7,4) f32", (16_000_000, 4), "float32", "sum", 0),
    ("var ax0 (1e6,4) f32", (1_000_000, 4), "float32", "var", 0),
    ("var ax0 (1e6,2) f32", (1_000_000, 2), "float32", "var", 0),  # folded output vectors (_OUT_FOLD)
    ("sum ax0 (1e6,2) f32", (1_000_000, 2), "float32", "sum", 0),
    ("sum ax0 (4e5,2) f64", (400_000, 2), "float64", "sum", 0),
    ("argmax ax0 (1e6,4) f32", (1_000_000, 4), "float32", "argmax", 0),
    ("sum ax0 (4e6,3) f32", (4_000_000, 3), "float32", "sum", 0),  # scalar sub-chunks (_UNROLL_SUB)
    ("var ax0 (1e6,3) f32", (1_000_000, 3), "float32", "var", 0),
    ("sum ax0 (1e6,32) f32", (1_000_000, 32), "float32", "sum", 0),
    ("sum ax0 (2,4e6) f32", (2, 4_000_000), "float32", "sum", 0),
    ("mean ax(0,2) (64,1024,256) f32", (64, 1024, 256), "float32", "mean", (0, 2)),
    ("x - x.mean(0) (1e6,32) f32", (1_000_000, 32), "float32", "center", 0),
    ("softmax ax1 (1e6,10) f32", (1_000_000, 10), "float32", "softmax", 1),
    ("softmax lib (1e6,10) f32", (1_000_000, 10), "float32", "softmax_lib", 1),
    ("softmax lazy (1e6,10) f32", (1_000_000, 10), "float32", "softmax_lazy", 1),
    ("log_softmax lib (1e6,10) f32", (1_000_000, 10), "float32", "log_softmax_lib", 1),
    ("softmax lib (1e6,32) f32", (1_000_000, 32), "float32", "softmax_lib", 1),
    ("softmax lib (1e6,10) f64", (1_000_000, 10), "float64", "softmax_lib", 1),
    ("softmax lib ax0 (10,1e6) f32", (10, 1_000_000), "float32", "softmax_lib", 0),
    ("em step (4e5,2) K=2 f64", (400_000, 2), "float64", "em", None),
]


def _em_inputs(xp, host, lib):
    """The bench's EM step (cuarray/bench/cases/shapes.py): X = `host`, two components."""
    rng = np.random.default_rng(46)
    mu, var, w = rng.random((2, 2)), rng.random((2, 2)) + 0.5, rng.random(2)
    w = w / w.sum()
    return [make(lib, xp, a) for a in (host, w, mu, var)]


def make(lib, xp, host):
    if lib == "torch":
        import torch

        return torch.as_tensor(host, device="cuda")
    return xp.asarray(host)


def op_fn(lib, xp, op, x, axis):
    if op == "em":
        from cuarray.bench.cases.shapes import _em_step

        X, w, mu, var = x
        return lambda: _em_step(xp, X, w, mu, var, lib == "torch")
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
        if op in ("softmax", "softmax_lib"):
            return lambda: torch.softmax(x, dim=dim)
        if op == "log_softmax_lib":
            return lambda: torch.log_softmax(x, dim=dim)
        if op == "var":
            return lambda: torch.var(x, dim=dim, correction=0)
        if op == "nansum":
            return lambda: torch.nansum(x, dim=dim)
        raise ValueError(op)
    if op in ("softmax_lib", "log_softmax_lib"):
        if xp.__name__ == "cuarray":
            from cuarray.scipy import special
        else:
            from cupyx.scipy import special
        f = getattr(special, op[:-4])
        return lambda: f(x, axis=axis)
    if op == "softmax_lazy":
        if not hasattr(xp, "lazy"):
            raise ValueError("no lazy mode")

        def lazy():
            with xp.lazy():
                e = xp.exp(x - x.max(axis=1, keepdims=True))
                y = e / e.sum(axis=1, keepdims=True)
            return y
        return lazy
    if op in ("var", "nanmax", "nansum"):
        f = getattr(xp, op)
        return lambda: f(x, axis=axis)
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


def reference(op, host, axis):
    """NumPy's answer for a case (float64 accumulation)."""
    h = host.astype(np.float64)
    if op in ("softmax", "softmax_lib", "softmax_lazy"):
        e = np.exp(h - h.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    if op == "log_softmax_lib":
        t = h - h.max(axis=axis, keepdims=True)
        return t - np.log(np.exp(t).sum(axis=axis, keepdims=True))
    if op == "center":
        return h - h.mean(axis=0)
    if op == "sumexp":
        return np.exp(h).sum(axis=axis)
    if op == "argmax":
        return host.argmax(axis=axis)
    if op == "em":
        from cuarray.bench.cases.shapes import _em_step

        return _em_step(np, *_em_inputs(np, host, "numpy"), False)
    return getattr(np, op)(h, axis=axis)


def check(op, out, host, axis) -> str:
    """'ok' when cuarray's result matches NumPy (argmax exactly), else 'BAD': a variant that gives
    a wrong answer is rejected from the same run that times it."""
    want = reference(op, host, axis)
    if op == "em":  # (weights, means, variances)
        ok = all(np.allclose(g.get(), w, rtol=1e-9, atol=1e-12) for g, w in zip(out, want))
        return "ok" if ok else "BAD"
    got = out.get()
    if got.shape != want.shape:
        return "BAD"
    if op == "argmax":
        return "ok" if np.array_equal(got, want) else "BAD"
    tol = 1e-4 if host.dtype == np.float32 else 1e-10
    scale = np.abs(host).max() * max(1, host.size // max(1, want.size)) if op in ("sum", "mean", "var") else 1.0
    return "ok" if np.allclose(got, want, rtol=tol, atol=tol * scale) else "BAD"


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


def plan_of(shape, dtype, axis, op="sum"):
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
    acc = {"var": 8 + 2 * isz, "argmax": 32}.get(op, isz)
    p = R.plan(tuple(shape), [tuple(st)], (isz,), tuple(ys), axes, aligned=(True,), acc_size=acc)
    extra = ""
    if p.rows:
        extra = " tile{}x{}".format(p.rows, p.mvec)
    elif p.ovec:
        extra = " ovec{} u{}".format(p.ovec, p.unroll) + (" fold{}".format(p.fold) if p.fold else "")
    elif p.sub > 1:
        extra = " u{}".format(p.unroll)
    return "{} g{} v{} s{}x{} grid{}{}{}".format(p.strategy, p.group, p.vec, p.split, p.sub, p.grid_x,
                                               " F" if p.fused else "", extra)


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--libs", default="cuarray,cupy,torch")
    ap.add_argument("--warp-row", default="", help="same as --set _WARP_ROW=...")
    ap.add_argument("--sub-parts", default="", help="values of reduction_plan._SUB_PARTS to sweep")
    ap.add_argument("--only", default="", help="substrings of case names, separated by ',' (or '|': names hold commas)")
    ap.add_argument("--set", default="", help="NAME=v1,v2,...: sweep reduction.NAME over the values")
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
        CASES = [c for c in CASES if any(k in c[0] for k in args.only.split("|" if "|" in args.only else ","))]
    sweep = args.set
    if args.warp_row:
        sweep = "_WARP_ROW=" + args.warp_row
    elif args.sub_parts:
        sweep = "_SUB_PARTS=" + args.sub_parts
    if sweep:
        from cuarray._core import reduction_ops
        from cuarray._core import reduction_plan as reduction  # the planner's constants

        specs = [spec.split("=", 1) for spec in sweep.split(";") if spec.strip()]
        for name, _ in specs:
            if not hasattr(reduction, name.strip()):
                raise SystemExit("reduction has no constant {}".format(name))
        peer_cache = {}
        for name, values in specs:
            name = name.strip()
            default = getattr(reduction, name)
            for wr in (int(v) for v in values.split(",")):
                setattr(reduction, name, wr)
                for d in _defs():
                    d._launchers.clear()
                reduction_ops.clear_fast_path()  # it holds launchers planned with the old value
                print("== {} = {}{}".format(name, wr, " (default)" if wr == default else ""))
                run(libs, args, peer_cache)
            setattr(reduction, name, default)
        return
    run(libs, args)

def _defs():
    import gc

    from cuarray._core import reduction

    return [o for o in gc.get_objects() if isinstance(o, reduction.ReductionDef)]


def run(libs, args, peer_cache=None):
    """One table. `peer_cache` (a dict kept across rounds of a sweep): peers' times are measured in
    the first round and reused after."""
    import cuarray
    rate = None
    x = cuarray.empty(2**28, dtype="float32")
    e0, e1 = events("cuarray", cuarray)
    t = timeit(lambda: x.copy(), (e0, e1), n=10)
    rate = 2 * x.nbytes / (t * 1e-6) / 1e9
    del x
    rng = np.random.default_rng(0)
    print("copy rate {:.0f} GB/s".format(rate))
    print("{:34s} {:>10s} {:>10s} {:>10s} {:>7s} {:>7s} {:>6s} {:>4s}  {}".format(
        "case", "cuarray", "cupy", "torch", "cu/cp", "cu/pt", "xcopy", "ok", "plan"))
    for name, shape, dtype, op, axis in CASES:
        host = rng.standard_normal(shape).astype(dtype)
        res = {}
        for lib, xp in libs.items():
            if peer_cache is not None and lib != "cuarray" and (name, lib) in peer_cache:
                res[lib] = peer_cache[name, lib]
                continue
            try:
                a = _em_inputs(xp, host, lib) if op == "em" else make(lib, xp, host)
                fn = op_fn(lib, xp, op, a, axis)
                res[lib] = timeit(fn, events(lib, xp))
                if lib == "cuarray":
                    ok = check(op, fn(), host, axis)
            except Exception as exc:  # noqa: BLE001
                res[lib] = None
                print("  {} {}: {}".format(lib, name, exc), file=sys.stderr)
            if peer_cache is not None and lib != "cuarray":
                peer_cache[name, lib] = res[lib]
        cu = res.get("cuarray")
        if not cu:
            ok = "-"
        f = lambda v: "{:10.1f}".format(v) if v else "{:>10s}".format("-")  # noqa: E731
        r = lambda p: "{:7.2f}".format(cu / res[p]) if cu and res.get(p) else "{:>7s}".format("-")  # noqa: E731
        moved = host.nbytes * (2 if op in ("softmax", "softmax_lib", "softmax_lazy", "log_softmax_lib", "center") else 1)
        xc = moved / (cu * 1e-6) / 1e9 / rate if cu else 0
        pl = plan_of(shape, dtype, axis, op) if op in ("sum", "max", "argmax", "mean", "sumexp", "var", "nanmax",
                                                      "nansum") else ""
        print("{:34s} {} {} {} {} {} {:6.2f} {:>4s}  {}".format(name, f(cu), f(res.get("cupy")), f(res.get("torch")),
                                                               r("cupy"), r("torch"), xc, ok, pl))


if __name__ == "__main__":
    main()
