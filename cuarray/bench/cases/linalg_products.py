"""Matrix-product cases (docs/bench-targets.md "matmul" and "seed-logreg").

matmul: float32/float64 8192^3 GEMM and a batched 1024 x (64x64) float32 GEMM (FLOP/s, CUDA
events); the host time of a 64x64 float32 matmul: 1000 calls then one sync, per call (bounded below by
the device time of the small GEMM), and the enqueue time alone (200 calls, no device wait).
seed-logreg: the Theano tutorial's logistic regression (N=400, 784 features, float32, 1000
gradient steps, synced once at the end), written as a NumPy user would write it; rows eager,
lazy (each step under `with lazy()`: lazy mode's graph replay, on by default, replays the step),
lazy-no-replay (the same with the replay off) and graph (one step captured by hand, replayed); the
peers run once.
"""

from __future__ import annotations

from ..._core.fusion import replay as _replay
from . import NotAvailable, random_array, register

mm = register(
    "matmul", group="matmul",
    description="C = A @ B, square n x n x n (full precision: no TF32)",
    size=8192, quick=4096, params=("float32", "float64"),
    flops=lambda n, p: 2 * n**3,
    size_label=lambda n: "{0}^3".format(n),
)


@mm.setup("cuarray", "cupy", "torch")
def _(xp, n, dtype):
    a = random_array(xp, (n, n), dtype, seed=1)
    b = random_array(xp, (n, n), dtype, seed=2)
    if getattr(xp, "__name__", "") == "torch":
        xp.backends.cuda.matmul.allow_tf32 = False  # the same full-float32 answer for every library
    return lambda: a @ b


mm_batched = register(
    "matmul-batched", group="matmul",
    description="batched C = A @ B, 1024 x (64x64 @ 64x64) float32",
    size=1024, quick=1024,
    flops=lambda n, p: 2 * n * 64**3,
    size_label=lambda n: "{} x 64^3".format(n),
)


@mm_batched.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    a = random_array(xp, (n, 64, 64), "float32", seed=3)
    b = random_array(xp, (n, 64, 64), "float32", seed=4)
    return lambda: a @ b


mm_host = register(
    "matmul-host", group="matmul",
    description="64x64 float32 matmul, 1000 calls then one sync: host time per call",
    size=1000, quick=1000, timing="host", ops=1000, rounds=5,
    size_label=lambda n: "64x64 x {}".format(n),
)


@mm_host.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    a = random_array(xp, (64, 64), "float32", seed=5)
    b = random_array(xp, (64, 64), "float32", seed=6)

    def run():
        for _ in range(n):
            a @ b

    return run


def _sync(xp):
    name = getattr(xp, "__name__", "")
    if name == "torch":
        return xp.cuda.synchronize
    return xp.cuda.Device().synchronize


mm_enqueue = register(
    "matmul-host-enqueue", group="matmul",
    description="64x64 float32 matmul: host time per call to enqueue 200 calls (no device wait)",
    size=15, quick=5, timing="process",
    size_label=lambda n: "64x64 x 200",
)


@mm_enqueue.setup("cuarray", "cupy", "torch")
def _(xp, runs, param):
    import time

    a = random_array(xp, (64, 64), "float32", seed=5)
    b = random_array(xp, (64, 64), "float32", seed=6)
    sync = _sync(xp)
    for _ in range(50):
        a @ b
    sync()

    def run():
        sync()
        t = time.perf_counter()
        for _ in range(200):
            a @ b
        dt = time.perf_counter() - t
        sync()
        return {"time_s": dt / 200}

    return run


logreg = register(
    "seed-logreg", group="seed",
    description="Theano-tutorial logistic regression, N=400, 784 features, float32, gradient steps: "
                "eager, lazy (one `with lazy()` a step, its automatic graph replay on: the default), lazy-no-replay "
                "(the replay off), graph (one step captured by hand, lazily, replayed)",
    size=1000, quick=200, timing="host", params=("eager", "lazy", "lazy-no-replay", "graph"), peers_once=True,
    size_label=lambda n: "{} steps".format(n),
)


def _logreg_step(xp, dot, x, y, w, b, N):
    # As in the tutorial, written for NumPy (xp = numpy / cupy / cuarray; torch spells dot `@`).
    p_1 = 1 / (1 + xp.exp(-dot(x, w) - b))
    prediction = p_1 > 0.5  # noqa: F841 - the tutorial computes it every step
    xent = -y * xp.log(p_1) - (1 - y) * xp.log(1 - p_1)
    cost = xent.mean() + 0.01 * (w ** 2).sum()  # noqa: F841
    gw = dot(x.T, p_1 - y) / N + 0.02 * w
    gb = (p_1 - y).mean()
    return w - 0.1 * gw, b - 0.1 * gb


@logreg.setup("cuarray", "cupy", "numpy", "torch")
def _(xp, steps, param):
    torch = getattr(xp, "__name__", "") == "torch"
    N, feats = 400, 784
    x = random_array(xp, (N, feats), "float32", seed=7)
    y = random_array(xp, (N,), "float32", seed=8) > 0
    y = y.float() if torch else y.astype(xp.float32)
    w0 = random_array(xp, (feats,), "float32", seed=9)
    # `xp.dot` looked up at each call, as NumPy code does (lazy mode hooks the namespace's dot).
    dot = (lambda u, v: u @ v) if torch else (lambda u, v: xp.dot(u, v))

    if param == "eager":
        def run():
            w = w0.clone() if torch else w0.copy()
            b = 0.0
            for _ in range(steps):
                w, b = _logreg_step(xp, dot, x, y, w, b, N)
            return w

        return run
    if not hasattr(xp, "lazy"):
        raise NotAvailable("no lazy mode")
    if param in ("lazy", "lazy-no-replay"):
        def run_lazy():
            w = w0.copy()
            b = 0.0
            for _ in range(steps):
                with xp.lazy():
                    w, b = _logreg_step(xp, dot, x, y, w, b, N)
            return w

        if param == "lazy":
            return run_lazy

        def run_unreplayed():  # (lazy mode's own capture and replay off)
            prev = _replay.set_graph_replay(False)
            try:
                return run_lazy()
            finally:
                _replay.set_graph_replay(prev)

        return run_unreplayed
    # graph: the step is captured once (built lazily: fewer kernels in the graph), with w and b
    # updated in place so the captured addresses stay valid, and replayed `steps` times.
    w = w0.copy()
    b = xp.zeros((), xp.float32)

    def step():
        with xp.lazy():
            w_new, b_new = _logreg_step(xp, dot, x, y, w, b, N)
            w[...] = w_new
            b[...] = b_new

    step()  # warm-up: kernels compiled, plans cached, cuBLAS workspace set
    g = xp.cuda.CUDAGraph()
    with xp.cuda.graph(g):
        step()

    def run_graph():
        w[...] = w0
        b[...] = 0.0
        for _ in range(steps):
            g.replay()
        return w, g

    return run_graph
