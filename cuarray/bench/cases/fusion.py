"""Fusion cases (docs/bench-targets.md, group `fusion`): fuse-chain, seed-grad and graph-replay.

fuse-chain: `1/(1+exp(-(2*x-1)))*x+0.5` on 256 MiB float32, eagerly (eight kernels and seven
temporaries), with `fuse` and lazily; CuPy's `fuse` is the peer of the fused row. Bytes counted
are one read of x and one write of the result, so the copy-rate fraction is against the one-pass
floor (the target: fused and lazy at most 1.15 x that time).

seed-grad: the seed question's gradient, `delta_o = -(x - z)`,
`delta_h = dot(delta_o, W) * h * (1.0 - h)`, `grad_W = dot(X.T, delta_h)`, eagerly and lazily
(two GEMMs; the elementwise parts fused into one kernel each).

graph-replay: 1000 small additions captured into one CUDA graph (`cuarray.cuda.graph`), the time
of a replay per captured op (target: <= 1.5 us); PyTorch's `torch.cuda.graph` is the peer.
"""

from __future__ import annotations

from . import NotAvailable, random_array, register

MIB = 2**20


def _chain(xp, x):
    return 1 / (1 + xp.exp(-(2 * x - 1))) * x + 0.5


fuse_chain = register(
    "fuse-chain", group="fusion",
    description="1/(1+exp(-(2x-1)))*x+0.5 on 256 MiB float32: eager, fuse, lazy (bytes: one read + one write)",
    size=256 * MIB, quick=64 * MIB, params=("eager", "fuse", "lazy"),
    nbytes=lambda n, p: 2 * n,
    size_label=lambda n: "{} MiB f32".format(n // MIB),
)


@fuse_chain.setup("cuarray", "cupy")
def _(xp, nbytes, param):
    x = random_array(xp, nbytes // 4, "float32", seed=11)
    if param == "eager":
        return lambda: _chain(xp, x)
    if param == "fuse":
        def chain(x):  # a named function: CuPy names its kernel after it
            return _chain(xp, x)

        f = xp.fuse()(chain)
        return lambda: f(x)
    if not hasattr(xp, "lazy"):
        raise NotAvailable("no lazy mode")

    def lazy():
        with xp.lazy():
            y = _chain(xp, x)
        return y

    return lazy


seed_grad = register(
    "seed-grad", group="fusion",
    description="the seed question's gradient (N=4096, 784 -> 512 -> 10, float32): eager vs lazy",
    size=4096, quick=1024, params=("eager", "lazy"),
    size_label=lambda n: "N={} f32".format(n),
)


@seed_grad.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    d_in, d_hid, d_out = 784, 512, 10
    X = random_array(xp, (n, d_in), "float32", seed=21)
    h = random_array(xp, (n, d_hid), "float32", seed=22)
    x = random_array(xp, (n, d_out), "float32", seed=23)
    z = random_array(xp, (n, d_out), "float32", seed=24)
    W = random_array(xp, (d_out, d_hid), "float32", seed=25)
    torch = getattr(xp, "__name__", "") == "torch"

    def dot(a, b):  # looked up at each call, as NumPy code does (lazy mode hooks the namespace's dot)
        return xp.matmul(a, b) if torch else xp.dot(a, b)

    def grad():
        delta_o = -(x - z)
        delta_h = dot(delta_o, W) * h * (1.0 - h)
        return dot(X.T, delta_h)

    if param == "eager":
        return grad
    if not hasattr(xp, "lazy"):
        raise NotAvailable("no lazy mode")

    def lazy():
        with xp.lazy():
            g = grad()
        return g

    return lazy


graph_replay = register(
    "graph-replay", group="fusion",
    description="1000 16-element a + b captured in a CUDA graph, replayed then one sync: time per captured op",
    size=1000, quick=1000, timing="host", ops=1000,
    size_label=lambda n: "16 el x {}".format(n),
)


@graph_replay.setup("cuarray", "torch")
def _(xp, n, param):
    a = random_array(xp, 16, "float32", seed=31)
    b = random_array(xp, 16, "float32", seed=32)
    if getattr(xp, "__name__", "") == "torch":
        c = a + b
        g = xp.cuda.CUDAGraph()
        s = xp.cuda.Stream()
        s.wait_stream(xp.cuda.current_stream())
        with xp.cuda.stream(s):
            c = a + b
        xp.cuda.current_stream().wait_stream(s)
        with xp.cuda.graph(g):
            for _ in range(n):
                c = a + b
        return lambda: (g.replay(), a, b, c)  # the graph reads a and b: keep them alive
    c = a + b
    g = xp.cuda.CUDAGraph()
    with xp.cuda.graph(g):
        for _ in range(n):
            c = a + b
    return lambda: (g.replay(), a, b, c)
