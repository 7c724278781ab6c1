"""Which launch shape moves x*2 (float32, contiguous) at the copy rate? (run on the GPU machine)

Variants of the vector kernel: UNROLL vectors of 16 bytes per thread per loop iteration, and the
grid cap (blocks per SM for the grid-stride loop; 0 = one pass, no loop). Prints GB/s (read +
write) against a device-to-device copy of the same buffer, median of 20 after warm-up.
Prediction (written before running): the capped grid with one vector per iteration keeps too
few loads in flight; UNROLL=4 or an uncapped one-pass grid should reach >= 0.95 of the copy.
"""

import numpy

import cuarray as cp
from _timing import event_us
from cuarray.cuda import launch as L

SRC = r'''
template <int U>
__device__ void body(const float4* __restrict__ x, float4* __restrict__ y, long long nvec, long long stride) {
  for (long long v0 = (long long)blockIdx.x * blockDim.x + threadIdx.x; v0 < nvec; v0 += stride * U) {
    float4 r[U];
#pragma unroll
    for (int u = 0; u < U; ++u) { long long v = v0 + u * stride; if (v < nvec) r[u] = x[v]; }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      long long v = v0 + u * stride;
      if (v < nvec) { float4 a = r[u]; a.x *= 2.f; a.y *= 2.f; a.z *= 2.f; a.w *= 2.f; y[v] = a; }
    }
  }
}
extern "C" __global__ void k1(const float4* x, float4* y, long long n, long long s) { body<1>(x, y, n, s); }
extern "C" __global__ void k2(const float4* x, float4* y, long long n, long long s) { body<2>(x, y, n, s); }
extern "C" __global__ void k4(const float4* x, float4* y, long long n, long long s) { body<4>(x, y, n, s); }
extern "C" __global__ void k8(const float4* x, float4* y, long long n, long long s) { body<8>(x, y, n, s); }
'''


def timeit(fn, reps=20):
    """Median seconds of fn (only ratios are printed)."""
    return event_us(fn, reps) * 1e-6


def main():
    mod = cp.RawModule(code=SRC)
    sms = cp.cuda.Device().multiprocessor_count
    for nbytes in (2**28, 2**30):
        n = nbytes // 4
        x = cp.asarray(numpy.random.default_rng(0).random(n, dtype=numpy.float32))
        y = cp.empty_like(x)
        copy_t = timeit(lambda: y.data.copy_from_device_async(x.data, nbytes))
        print("size {} MiB: copy {:.0f} GB/s".format(nbytes >> 20, 2 * nbytes / copy_t / 1e9))
        nvec = n // 4
        for U in (1, 2, 4, 8):
            k = mod.get_function("k%d" % U).kernel
            for cap in (4, 8, 16, 32, 0):
                block = 256
                need = (nvec + block * U - 1) // (block * U)
                grid = need if cap == 0 else min(need, sms * cap)
                stride = grid * block
                t = timeit(lambda: L.launch(k, grid, block, (x.data.ptr, y.data.ptr, numpy.int64(nvec), numpy.int64(stride))))
                print("  U={} cap={:>2} grid={:>7}: {:6.0f} GB/s = {:.3f} x copy".format(
                    U, cap, grid, 2 * nbytes / t / 1e9, copy_t / t))
        t = timeit(lambda: x * 2)
        print("  cuarray x*2: {:.3f} x copy".format(copy_t / t))


main()
