"""Fusion cases of the matmul epilogue and the shared-subexpression cost model (group `fusion`).

fuse-epilogue: one seed-like MLP layer, `maximum(dot(x, W) + b, 0)` with x 4096 x 784, W
784 x 512, b (512,), float32: eagerly (a GEMM, then the add + maximum kernel) and lazily (one
cublasLt call with the RELU_BIAS epilogue); CuPy and PyTorch eager (`relu(x @ W + b)`) are the
peers.

fuse-shared: `t = log(exp(sin(x)) + 1)`, read by two results (`t * 2 + x`, `t * t - 1`) on
256 MiB float32: eagerly, and lazily, where the two results are one kernel with two outputs
(x read once, t computed once: the 3 n bytes counted); CuPy eager is the peer.
"""

from __future__ import annotations

from . import NotAvailable, random_array, register

MIB = 2**20
D_IN, D_HID = 784, 512

fuse_epilogue = register(
    "fuse-epilogue", group="fusion",
    description="MLP layer maximum(dot(x, W) + b, 0), x N x 784, W 784 x 512, float32: eager vs lazy (cublasLt epilogue)",
    size=4096, quick=1024, params=("eager", "lazy"), peers_once=True,
    flops=lambda n, p: 2.0 * n * D_IN * D_HID,
    size_label=lambda n: "N={} f32".format(n),
)


@fuse_epilogue.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    x = random_array(xp, (n, D_IN), "float32", seed=41) - 1.0
    W = random_array(xp, (D_IN, D_HID), "float32", seed=42) - 1.0
    b = random_array(xp, (D_HID,), "float32", seed=43) - 1.0
    if getattr(xp, "__name__", "") == "torch":
        return lambda: xp.relu(x @ W + b)

    def layer():
        return xp.maximum(xp.dot(x, W) + b, 0)

    if param == "eager":
        return layer
    if not hasattr(xp, "lazy"):
        raise NotAvailable("no lazy mode")

    def lazy():
        with xp.lazy():
            y = layer()
        return y

    return lazy


fuse_shared = register(
    "fuse-shared", group="fusion",
    description="t = log(exp(sin(x)) + 1) read by t*2+x and t*t-1, 256 MiB float32: eager vs lazy (bytes: x once, two results)",
    size=256 * MIB, quick=64 * MIB, params=("eager", "lazy"), peers_once=True,
    nbytes=lambda n, p: 3 * n,
    size_label=lambda n: "{} MiB f32".format(n // MIB),
)


@fuse_shared.setup("cuarray", "cupy")
def _(xp, nbytes, param):
    x = random_array(xp, nbytes // 4, "float32", seed=51)

    def body():
        t = xp.log(xp.exp(xp.sin(x)) + 1)
        return t * 2 + x, t * t - 1

    if param == "eager":
        return body
    if not hasattr(xp, "lazy"):
        raise NotAvailable("no lazy mode")

    def lazy():
        with xp.lazy():
            r = body()
        return r

    return lazy
