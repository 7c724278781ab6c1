"""Host time of lazy mode on the seed gradient: building the graph, planning (a cached plan:
structure key + look-up) and launching, against eager calls (µs per iteration, device synced
every iteration so the queue stays short). On a GPU machine: `python scripts/perf/lazy_host.py`;
`--stub` runs with the device stubbed (cuBLAS's GEMM call a no-op: the routines above it run). `--logreg` adds the
seed-logreg step (eager, lazy): host time per step with no sync (enqueue only) against the time
per step with the queue drained (host-bound when the two agree), and the CUDA-graph replay.
On a GPU the gradient is also timed back to back (no sync per call, as the bench does): host
time per call against the time with the queue drained. `--rows`: the same for the bench rows
fuse-chain (fuse, lazy) and fuse-shared (lazy) at 64 MiB; `--chain`: one evaluation of a
cached 10-node plan split into its parts."""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--stub", action="store_true")
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--profile", action="store_true", help="cProfile of the lazy loop (tottime)")
    ap.add_argument("--logreg", action="store_true", help="also the seed-logreg step (GPU only)")
    ap.add_argument("--ops", action="store_true", help="also host time per operation: eager launch vs lazy node")
    ap.add_argument("--epilogue", action="store_true",
                    help="also matmul + bias + ReLU at N=1024 (the cuBLASLt epilogue step): eager against lazy")
    ap.add_argument("--chain", action="store_true",
                    help="also a cached 10-node elementwise plan: one evaluation split into its parts (min, median)")
    ap.add_argument("--rows", action="store_true",
                    help="also the bench rows fuse-chain and fuse-shared at 64 MiB: host time per call "
                         "back to back against the time per call with the queue drained (host-bound when they agree)")
    ap.add_argument("--root", help="import cuarray from this tree (default: the tree this script is in)")
    args = ap.parse_args()
    # (the tree measured is this script's, not whatever checkout the environment installed: a
    # worktree run with the main checkout's virtual environment measured the main checkout)
    sys.path.insert(0, os.path.abspath(args.root) if args.root else os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    import cuarray as cp
    from cuarray._core.fusion import lazy_mode, planner

    if args.stub:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from cuarray.testing.fake_device import install as stub_device  # the one fake device

        stub_device()
        from cuarray.cuda.libs import cublas

        cublas.gemm = lambda *a, **k: None  # the GEMM's call; everything above it runs
        cublas.gemm_epilogue = lambda *a, **k: True  # the cuBLASLt epilogue call, likewise
        sync = lambda: None  # noqa: E731
        mk = lambda shape: cp.ndarray(shape, np.float32)  # noqa: E731
    else:
        sync = cp.cuda.synchronize
        rng = np.random.default_rng(0)
        mk = lambda shape: cp.asarray(rng.standard_normal(shape).astype(np.float32))  # noqa: E731
    dot = cp.dot
    n = 4096
    X, h, x, z, W = mk((n, 784)), mk((n, 512)), mk((n, 10)), mk((n, 10)), mk((10, 512))

    def body(dot):
        delta_o = -(x - z)
        delta_h = dot(delta_o, W) * h * (1.0 - h)
        return dot(X.T, delta_h)

    def timed(name, fn):
        for _ in range(100):
            fn()
        sync()
        t = time.perf_counter()
        for _ in range(args.n):
            fn()
            sync()
        print("{:34s} {:8.1f} us".format(name, (time.perf_counter() - t) / args.n * 1e6))

    timed("eager", lambda: body(dot))

    def lazy():
        with cp.lazy():
            g = body(cp.dot)
        return g

    timed("lazy (build + plan + launch)", lazy)
    if not args.stub:  # back to back, as the bench: the host's time per call with no sync
        for name, fn in (("eager", lambda: body(dot)), ("lazy", lazy)):
            for _ in range(2):
                sync()
                t0 = time.perf_counter()
                for _ in range(args.n):
                    fn()
                t1 = time.perf_counter()
                sync()
                t2 = time.perf_counter()
            print("{:6s} back to back: host {:7.1f} us/call, drained {:7.1f} us/call".format(
                name, (t1 - t0) / args.n * 1e6, (t2 - t0) / args.n * 1e6))
    from cuarray._core.fusion.trace import Trace

    ctx = lazy_mode.lazy()
    ctx.__enter__()

    def build():
        lazy_mode._threads.st.live, lazy_mode._threads.st.trace = [], Trace()
        return body(cp.dot)

    timed("  build only (nodes + trace entries)", build)
    g = build()
    tr = lazy_mode._threads.st.trace
    timed("  trace key + Program look-up", lambda: planner.plan_traced(tr, [g._node]))
    prog, vals = planner.plan_traced(tr, [g._node])
    timed("  launch the planned Program", lambda: prog.run(vals))
    lazy_mode._threads.st.live = []
    ctx.__exit__(None, None, None)
    if args.profile:
        import cProfile
        import pstats

        pr = cProfile.Profile()
        pr.enable()
        for _ in range(args.n):
            lazy()
        pr.disable()
        pstats.Stats(pr, stream=sys.stdout).sort_stats("tottime").print_stats(25)
    if args.logreg and not args.stub:
        logreg(cp, sync)
    if args.ops:
        ops(cp, sync, mk)
    if args.chain:
        chain(cp, sync, mk)
    if args.rows:  # (stubbed: only that it runs; the numbers mean something on a GPU)
        rows(cp, sync, mk)
    if args.epilogue:
        epilogue(cp, sync, mk)


def ops(cp, sync, mk, n=20000):
    """Host time of one operation, 400 float32 elements (the logreg vectors): an eager launch
    (no sync per call: what the host spends enqueuing) against building the same operation as a
    lazy node (nothing launched), best of 5."""
    from cuarray._core.fusion import lazy_mode
    from cuarray._core.fusion.trace import Trace

    a, b = mk((400,)), mk((400,))

    def best(fn, reset=None):
        ts = []
        for _ in range(5):
            if reset:
                reset()
            sync()
            t = time.perf_counter()
            for _ in range(n):
                fn()
            ts.append((time.perf_counter() - t) / n * 1e6)
        sync()
        return min(ts)

    rows = [("a - b", lambda: a - b), ("a * 2.0", lambda: a * 2.0), ("exp(a)", lambda: cp.exp(a)),
            ("a.sum()", lambda: a.sum())]
    eager = [best(fn) for _, fn in rows]
    ctx = lazy_mode.lazy()
    ctx.__enter__()
    la = a * 1.0

    def reset():
        lazy_mode._threads.st.live, lazy_mode._threads.st.trace = [], Trace()

    lazy_rows = [("a - b", lambda: a - b), ("a * 2.0", lambda: a * 2.0), ("exp(a)", lambda: cp.exp(a)),
                 ("l.sum()", lambda: la.sum()), ("l * 2.0", lambda: la * 2.0), ("l - l", lambda: la - la)]
    lazy = [best(fn, reset) for _, fn in lazy_rows]
    lazy_mode._threads.st.live = []
    ctx.__exit__(None, None, None)
    for (name, _), t in zip(rows, eager):
        print("op eager {:10s} {:6.2f} us".format(name, t))
    for (name, _), t in zip(lazy_rows, lazy):
        print("op lazy node {:6s} {:6.2f} us".format(name, t))


def chain(cp, sync, mk, n=1000, rep=9):
    """One evaluation of a cached 10-node elementwise plan (two 2**20 float32 inputs, four scalars,
    one fused kernel), split into its parts, interleaved and repeated (min and median of `rep`
    rounds of `n`, µs): the whole `with cuarray.lazy():` evaluation (from its fourth, the Program
    replayed as a CUDA graph: `replay.pays`); the build (the operators: nodes and trace entries,
    with the context's enter and exit but nothing computed); the trace key and Program look-up;
    the Program's run (its kernel launched, no graph: more than the whole's replay); and eager
    mode's ten launches."""
    from cuarray._core import tracing
    from cuarray._core.fusion import lazy_mode, planner

    a, b = mk((1 << 20,)), mk((1 << 20,))

    def body():
        y = a * 2.0 + b
        y = y * y - 1.0
        y = cp.exp(y) * b + a
        y = y * 0.5 - b
        return cp.sqrt(y)

    def whole():
        with cp.lazy():
            y = body()
        return y

    ctx = lazy_mode.lazy()
    st = lazy_mode._threads.st

    def build(then=None):
        ctx.__enter__()
        y = body()
        if then is not None:
            then(y)
        st.depth -= 1  # leave without computing (what `__exit__` does, less its flush)
        st.live = st.trace = None
        tracing.uninstall(ctx._prev)
        return y

    def key(y):
        planner.plan_traced(st.trace, [y._node])

    def launch(y):
        prog, vals = planner.plan_traced(st.trace, [y._node])
        prog.run(vals)

    fns = {"eager (10 launches)": body, "lazy evaluation (all)": whole, "  build (enter, nodes, exit)": build,
           "  build + key + look-up": lambda: build(key), "  build + key + launch": lambda: build(launch)}
    res = {k: [] for k in fns}
    for _ in range(rep):
        for k, fn in fns.items():
            sync()
            t = time.perf_counter()
            for _ in range(n):
                fn()
            sync()
            res[k].append((time.perf_counter() - t) / n * 1e6)
    for k, v in res.items():
        v.sort()
        print("chain10 {:30s} min {:7.1f} us  median {:7.1f} us".format(k, v[0], v[len(v) // 2]))


def rows(cp, sync, mk, n=200):
    """fuse-chain (fuse and lazy) and fuse-shared (lazy) at the bench's quick size, called back to
    back as the bench's event pairs see them: the host's time per call (no sync) against the time
    per call once the queue is drained. When the host's time per call exceeds the kernel's, the
    GPU idles between calls and each event pair measures host gap + kernel (the lazy rows' loss at
    64 MiB: the same kernel as fuse's, 0.93 against 0.5 of the copy rate)."""
    from cuarray.bench.cases.fusion import _chain

    x = mk((16 << 20,))
    f = cp.fuse()(lambda x: _chain(cp, x))

    def lazy_chain():
        with cp.lazy():
            y = _chain(cp, x)
        return y

    def lazy_shared():
        with cp.lazy():
            t = cp.log(cp.exp(cp.sin(x)) + 1)
            r = t * 2 + x, t * t - 1
        return r

    for name, fn in (("fuse-chain fuse", lambda: f(x)), ("fuse-chain lazy", lazy_chain),
                     ("fuse-shared lazy", lazy_shared)):
        for _ in range(2):
            sync()
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            t1 = time.perf_counter()
            sync()
            t2 = time.perf_counter()
        print("{:18s} host {:7.1f} us/call, drained {:7.1f} us/call".format(
            name, (t1 - t0) / n * 1e6, (t2 - t0) / n * 1e6))


def epilogue(cp, sync, mk, n=1000, rep=9):
    """`maximum(x @ W + b, 0)` at N=1024 float32: three eager calls against one lazy evaluation
    (one cuBLASLt call with the bias and ReLU epilogue; stubbed: the call itself costs nothing),
    synchronised per call (min and median of `rep` rounds of `n`, µs)."""
    from cuarray._core.fusion import replay

    N = 1024
    x, W, b = mk((N, N)), mk((N, N)), mk((N,))

    def eager():
        return cp.maximum(cp.matmul(x, W) + b, 0.0)

    def lazy():
        with cp.lazy():
            y = cp.maximum(cp.matmul(x, W) + b, 0.0)
        return y

    lazy()
    print("epilogue plan:", replay.evaluations()[-1]["steps"])
    res = {"eager": [], "lazy": []}
    for _ in range(rep):
        for k, fn in (("eager", eager), ("lazy", lazy)):
            sync()
            t = time.perf_counter()
            for _ in range(n):
                fn()
                sync()
            res[k].append((time.perf_counter() - t) / n * 1e6)
    for k, v in res.items():
        v.sort()
        print("epilogue N=1024 {:6s} min {:7.1f} us  median {:7.1f} us".format(k, v[0], v[len(v) // 2]))


def logreg(cp, sync, steps=300):
    from cuarray.bench.cases.linalg_products import _logreg_step

    rng = np.random.default_rng(7)
    N, feats = 400, 784
    x = cp.asarray(rng.random((N, feats), dtype=np.float32))
    y = cp.asarray((rng.random(N) > 0.5).astype(np.float32))
    w0 = cp.asarray(rng.random(feats, dtype=np.float32))

    def dot(u, v):
        return cp.dot(u, v)

    def eager(w, b):
        return _logreg_step(cp, dot, x, y, w, b, N)

    def lazy(w, b):
        with cp.lazy():
            return _logreg_step(cp, dot, x, y, w, b, N)

    for name, step in (("eager", eager), ("lazy", lazy)):
        for _ in range(2):
            w, b = w0, 0.0
            sync()
            t0 = time.perf_counter()
            for _ in range(steps):
                w, b = step(w, b)
            t1 = time.perf_counter()
            sync()
            t2 = time.perf_counter()
        print("logreg {:6s} host {:7.1f} us/step, drained {:7.1f} us/step".format(
            name, (t1 - t0) / steps * 1e6, (t2 - t0) / steps * 1e6))


if __name__ == "__main__":
    main()
