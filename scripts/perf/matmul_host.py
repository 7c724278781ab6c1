"""Host cost of a small matmul and the GEMV-vs-GEMM choice for matrix @ vector, in one process.

1. Host time per call (1000 calls, one sync) of a 64x64 float32 `a @ b`: cuarray, the bare
   nvmath cublas.gemm_ex call on a warm handle (the floor under any wrapper), CuPy, PyTorch; then
   the enqueue time alone with cublasLt plans and with cublasGemmEx, and a profile.
2. Device time of the seed-logreg products (400x784 float32): X @ w and X.T @ r as GEMV (what
   matmul does) and as GEMM with n = 1 (w[:, None]).
"""

import time

import numpy as np

import cuarray
from cuarray.cuda.libs import cublas

from _timing import event_us


def host_us(fn, n=1000, sync=cuarray.cuda.Device().synchronize):
    for _ in range(50):
        fn()
    sync()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    sync()
    return (time.perf_counter() - t) / n * 1e6


def enqueue_us(fn, n=200):
    for _ in range(50):
        fn()
    cuarray.cuda.Device().synchronize()
    best = None
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        dt = (time.perf_counter() - t) / n * 1e6
        cuarray.cuda.Device().synchronize()
        best = dt if best is None else min(best, dt)
    return best


def main():
    a = cuarray.asarray(np.random.rand(64, 64).astype(np.float32))
    b = cuarray.asarray(np.random.rand(64, 64).astype(np.float32))
    c = cuarray.empty((64, 64), cuarray.float32)
    print("host us per 64x64 matmul: cuarray {:.2f}".format(host_us(lambda: a @ b)))
    h = cublas.handle()
    lib = cublas.bindings()
    one, zero = np.ones(1, np.float32), np.zeros(1, np.float32)
    pa, pb, pc, p1, p0 = a.data.ptr, b.data.ptr, c.data.ptr, one.ctypes.data, zero.ctypes.data
    print("  bare gemm_ex {:.2f}".format(host_us(
        lambda: lib.gemm_ex(h, 0, 0, 64, 64, 64, p1, pb, 0, 64, pa, 0, 64, p0, pc, 0, 64, 68, -1))))
    try:
        import cupy

        ca, cb = cupy.asarray(a.get()), cupy.asarray(b.get())
        print("  cupy {:.2f}".format(host_us(lambda: ca @ cb, sync=cupy.cuda.Device().synchronize)))
    except ImportError:
        pass
    try:
        import torch

        ta, tb = torch.rand(64, 64, device="cuda"), torch.rand(64, 64, device="cuda")
        print("  torch {:.2f}".format(host_us(lambda: ta @ tb, sync=torch.cuda.synchronize)))
    except ImportError:
        pass
    print("enqueue-only us per call (200 calls, no wait): Lt {:.2f}".format(enqueue_us(lambda: a @ b)))
    cublas.USE_LT = False
    print("  GemmEx {:.2f}".format(enqueue_us(lambda: a @ b)))
    cublas.USE_LT = True
    X = cuarray.asarray(np.random.rand(400, 784).astype(np.float32))
    w0 = cuarray.asarray(np.random.rand(784).astype(np.float32))
    print("  X@w {:.2f}, X.T@r {:.2f}, x*2 (elementwise, for scale) {:.2f}".format(
        enqueue_us(lambda: X @ w0), enqueue_us(lambda: X.T @ X[:, 0]), enqueue_us(lambda: w0 * 2)))
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    for _ in range(2000):
        a @ b
        X @ w0
    prof.disable()
    cuarray.cuda.Device().synchronize()
    pstats.Stats(prof).sort_stats("tottime").print_stats(14)
    w = cuarray.asarray(np.random.rand(784).astype(np.float32))
    r = cuarray.asarray(np.random.rand(400).astype(np.float32))
    print("device us: X@w gemv {:.2f} gemm {:.2f}; X.T@r gemv {:.2f} gemm {:.2f}".format(
        event_us(lambda: X @ w, 200), event_us(lambda: X @ w[:, None], 200),
        event_us(lambda: X.T @ r, 200), event_us(lambda: X.T @ r[:, None], 200)))


if __name__ == "__main__":
    main()
