"""Matmul epilogues against eager: per dtype and shape, whether the lazy `maximum(x @ W + b, 0)`
(one cublasLt call with the RELU_BIAS epilogue) took the epilogue or its fallback, and how its
bits compare with the eager result (GEMM, then a fused add + maximum kernel): elements that
differ and the largest difference in float32 ulps; then NaN and -0.0 through the ReLU, and the
device time of both. On a GPU machine: `python scripts/perf/epilogue_check.py`."""

from __future__ import annotations

import os
import sys

import numpy as np


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _timing import event_us

    import cuarray as cp
    from cuarray._core.fusion import epilogue

    rng = np.random.default_rng(0)

    def layer(x, W, b):
        return cp.maximum(cp.dot(x, W) + b, 0)

    def lazy(x, W, b):
        with cp.lazy():
            y = layer(x, W, b)
        return y

    print("{:<8} {:<22} {:>9} {:>10} {:>9} {:>9} {:>9}".format(
        "dtype", "m x k x n", "path", "differ", "max ulp", "eager us", "lazy us"))
    for dt in ("float32", "float64", "float16"):
        for m, k, n in ((4096, 784, 512), (256, 128, 64), (1000, 1000, 1000), (33, 129, 65)):
            x = cp.asarray(rng.standard_normal((m, k)).astype(dt))
            W = cp.asarray((rng.standard_normal((k, n)) / np.sqrt(k)).astype(dt))
            b = cp.asarray(rng.standard_normal(n).astype(dt))
            before = epilogue.FALLBACKS[0]
            got = lazy(x, W, b).get()
            path = "fallback" if epilogue.FALLBACKS[0] > before else "epilogue"
            want = layer(x, W, b).get()
            differ = int((got != want).sum())
            ints = {"float32": np.int32, "float64": np.int64, "float16": np.int16}[dt]
            ulp = int(np.abs(got.view(ints).astype(np.int64) - want.view(ints).astype(np.int64)).max())
            te = event_us(lambda: layer(x, W, b), 20)
            tl = event_us(lambda: lazy(x, W, b), 20)
            print("{:<8} {:<22} {:>9} {:>10} {:>9} {:>9.1f} {:>9.1f}".format(
                dt, "{} x {} x {}".format(m, k, n), path, "{}/{}".format(differ, got.size), ulp, te, tl))
    # NaN, inf and signed zero through the ReLU.
    x = rng.standard_normal((64, 32)).astype(np.float32)
    x[0, 0] = np.nan
    x[1, 0] = np.inf
    W = rng.standard_normal((32, 48)).astype(np.float32)
    b = rng.standard_normal(48).astype(np.float32)
    dx, dW, db = cp.asarray(x), cp.asarray(W), cp.asarray(b)
    got, want = lazy(dx, dW, db).get(), layer(dx, dW, db).get()
    print("NaN row: eager NaNs {} / lazy NaNs {}; inf row: eager {} / lazy {} (of 48)".format(
        int(np.isnan(want[0]).sum()), int(np.isnan(got[0]).sum()),
        int(np.isnan(want[1]).sum() + np.isinf(want[1]).sum()), int(np.isnan(got[1]).sum() + np.isinf(got[1]).sum())))
    z = cp.asarray(np.zeros((8, 8), np.float32))
    nb = cp.asarray(np.full(8, -0.0, np.float32))
    got = lazy(z, z, nb).get()
    want = layer(z, z, nb).get()
    print("relu(0 + -0.0): eager signbit {} / lazy signbit {}".format(
        int(np.signbit(want).sum()), int(np.signbit(got).sum())))


if __name__ == "__main__":
    main()
