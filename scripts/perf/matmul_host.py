"""Host cost of a small matmul and the GEMV-vs-GEMM choice for matrix @ vector, in one process.

1. Host time per call (1000 calls, one sync) of a 64x64 float32 `a @ b`: cuarray, the bare
   nvmath cublas.gemm_ex call on a warm handle (the floor under any wrapper), CuPy, PyTorch.
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
    X = cuarray.asarray(np.random.rand(400, 784).astype(np.float32))
    w = cuarray.asarray(np.random.rand(784).astype(np.float32))
    r = cuarray.asarray(np.random.rand(400).astype(np.float32))
    print("device us: X@w gemv {:.2f} gemm {:.2f}; X.T@r gemv {:.2f} gemm {:.2f}".format(
        event_us(lambda: X @ w, 200), event_us(lambda: X @ w[:, None], 200),
        event_us(lambda: X.T @ r, 200), event_us(lambda: X.T @ r[:, None], 200)))


if __name__ == "__main__":
    main()
