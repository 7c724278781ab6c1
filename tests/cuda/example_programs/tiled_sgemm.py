"""A program in the style of CuPy's examples/gemm (written for cuarray, not copied): a shared-memory
tiled single-precision matrix product with its tile size set by #defines, launched with Python int
sizes for `int` parameters and compared with `dot`; timed with events. Run as a program:
`python tiled_sgemm.py [--m M --n N --k K]`."""

import argparse
import math
import sys

import numpy

import cuarray as cp

SOURCE = r"""
// C = A B for column-major (Fortran-order) A (m x k), B (k x n), C (m x n).
extern "C" __global__ void sgemm_tiled(int M, int N, int K, const float* A, const float* B, float* C) {
    __shared__ float As[TILE][TILE + 1];
    __shared__ float Bs[TILE][TILE + 1];
    int row = blockIdx.x * TILE + threadIdx.x;
    int col = blockIdx.y * TILE + threadIdx.y;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        int ak = t + threadIdx.y, bk = t + threadIdx.x;
        As[threadIdx.x][threadIdx.y] = (row < M && ak < K) ? A[(long long)ak * M + row] : 0.0f;
        Bs[threadIdx.x][threadIdx.y] = (bk < K && col < N) ? B[(long long)col * K + bk] : 0.0f;
        __syncthreads();
        for (int j = 0; j < TILE; ++j) acc += As[threadIdx.x][j] * Bs[j][threadIdx.y];
        __syncthreads();
    }
    if (row < M && col < N) C[(long long)col * M + row] = acc;
}
"""


def sgemm(a, b, tile=16):
    m, k = a.shape
    k2, n = b.shape
    assert k == k2 and a.dtype == numpy.float32 and b.dtype == numpy.float32
    a, b = cp.asfortranarray(a), cp.asfortranarray(b)
    c = cp.empty((m, n), dtype=numpy.float32, order="F")
    kernel = cp.RawKernel("#define TILE {}\n".format(tile) + SOURCE, "sgemm_tiled")
    kernel((math.ceil(m / tile), math.ceil(n / tile), 1), (tile, tile, 1), (m, n, k, a, b, c))
    return c


def elapsed_ms(fn, *args):
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    fn(*args)
    end.record()
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end)


def main(argv=None):
    p = argparse.ArgumentParser(description="tiled SGEMM through RawKernel")
    p.add_argument("--m", type=int, default=300)
    p.add_argument("--n", type=int, default=257)
    p.add_argument("--k", type=int, default=129)
    args = p.parse_args(argv)
    a = cp.random.uniform(-1.0, 1.0, size=(args.m, args.k)).astype(numpy.float32)
    b = cp.random.uniform(-1.0, 1.0, size=(args.k, args.n)).astype(numpy.float32)
    cp.testing.assert_array_almost_equal(sgemm(a, b), cp.dot(a, b), decimal=3)
    print("m={} n={} k={}: matches dot; kernel {:.3f} ms, dot {:.3f} ms".format(
        args.m, args.n, args.k, elapsed_ms(sgemm, a, b), elapsed_ms(cp.dot, a, b)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
