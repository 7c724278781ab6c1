"""Two elementwise cases where a peer is faster (docs/benchmarks.md): `x[::2] * 2` on 1 GiB float32
(torch 430 us, cuarray 502 us) and `exp(x)` on 1 GiB float64 (torch 530 us, cuarray 581 us).
Hypothesis: too few loads in flight per thread (one strided element; one 16-byte vector of two
doubles). Variants as raw kernels, CUDA-event medians; the library's own call for reference.
Run on the GPU machine: python scripts/perf/ew_ilp_sweep.py"""

import numpy

import cuarray
from _timing import event_us as timed

SRC = r"""
extern "C" __global__ void s2_one(const float* x, float* y, long long n) {   // what the nd kernel does
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[2 * i] * 2.0f;
}
template <int K>
__device__ void s2_k(const float* x, float* y, long long n) {    // K elements per thread, block-strided
  long long base = (long long)blockIdx.x * blockDim.x * K + threadIdx.x;
  float v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) { long long i = base + k * blockDim.x; v[k] = i < n ? x[2 * i] : 0.f; }
#pragma unroll
  for (int k = 0; k < K; ++k) { long long i = base + k * blockDim.x; if (i < n) y[i] = v[k] * 2.0f; }
}
extern "C" __global__ void s2_k2(const float* x, float* y, long long n) { s2_k<2>(x, y, n); }
extern "C" __global__ void s2_k4(const float* x, float* y, long long n) { s2_k<4>(x, y, n); }
extern "C" __global__ void s2_k8(const float* x, float* y, long long n) { s2_k<8>(x, y, n); }
extern "C" __global__ void s2_int(const float* x, float* y, int n) {   // 32-bit index, 1 per thread
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[2 * i] * 2.0f;
}
extern "C" __global__ void s2_pair(const float2* x, float* y, long long n) {  // read the pair, keep .x
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i].x * 2.0f;
}
template <int V>  // V double2 per thread
__device__ void exp_v(const double2* x, double2* y, long long n2) {
  long long base = (long long)blockIdx.x * blockDim.x * V + threadIdx.x;
  double2 v[V];
#pragma unroll
  for (int k = 0; k < V; ++k) { long long i = base + k * blockDim.x; if (i < n2) v[k] = x[i]; }
#pragma unroll
  for (int k = 0; k < V; ++k) { long long i = base + k * blockDim.x; if (i < n2) y[i] = make_double2(exp(v[k].x), exp(v[k].y)); }
}
extern "C" __global__ void exp_v1(const double2* x, double2* y, long long n2) { exp_v<1>(x, y, n2); }
extern "C" __global__ void exp_v2(const double2* x, double2* y, long long n2) { exp_v<2>(x, y, n2); }
extern "C" __global__ void exp_v4(const double2* x, double2* y, long long n2) { exp_v<4>(x, y, n2); }
"""


def main():
    mod = cuarray.RawModule(code=SRC)
    n_all = 1 << 28  # 1 GiB of float32
    x = cuarray.asarray(numpy.random.default_rng(0).random(n_all, dtype=numpy.float32))
    n = n_all // 2
    y = cuarray.empty(n, numpy.float32)
    ref = (x[::2] * 2).get()
    print("library x[::2]*2: {:.1f} us".format(timed(lambda: x[::2] * 2)))
    xs = x[::2]
    print("library multiply(xs, 2, out=y): {:.1f} us".format(timed(lambda: cuarray.multiply(xs, 2, out=y))))
    for name, per in (("s2_one", 1), ("s2_k2", 2), ("s2_k4", 4), ("s2_k8", 8), ("s2_int", 1), ("s2_pair", 1)):
        f = mod.get_function(name)
        arg_n = numpy.int32(n) if name == "s2_int" else numpy.int64(n)
        grid = (n + 256 * per - 1) // (256 * per)
        t = timed(lambda: f((grid,), (256,), (x, y, arg_n)))
        ok = numpy.array_equal(y.get(), ref)
        print("{:8s} {:7.1f} us {}".format(name, t, "ok" if ok else "WRONG"))
    del x, y
    xd = cuarray.asarray(numpy.random.default_rng(1).random(1 << 27))  # 1 GiB float64
    yd = cuarray.empty_like(xd)
    print("library exp f64: {:.1f} us".format(timed(lambda: cuarray.exp(xd))))
    ref = cuarray.exp(xd).get()
    n2 = (1 << 27) // 2
    for name, per in (("exp_v1", 1), ("exp_v2", 2), ("exp_v4", 4)):
        f = mod.get_function(name)
        grid = (n2 + 256 * per - 1) // (256 * per)
        t = timed(lambda: f((grid,), (256,), (xd, yd, numpy.int64(n2))))
        ok = numpy.array_equal(yd.get(), ref)
        print("{:8s} {:7.1f} us {}".format(name, t, "ok" if ok else "WRONG"))
    print("library exp f64, out=: {:.1f} us".format(timed(lambda: cuarray.exp(xd, out=yd))))
    # The library's own generated kernel, compiled and launched raw: isolates the call path.
    from cuarray._core.ufunc import _Loop

    f64 = numpy.dtype("f8")
    d = cuarray.exp._definition(_Loop((f64,), (f64,)), (f64,), (f64,), False)
    kname, ksrc = d.source("vec", 1, numpy.int64)
    lib = cuarray.RawKernel(ksrc, kname)
    grid = (n2 + 255) // 256
    print("library kernel, raw launch: {:.1f} us".format(
        timed(lambda: lib((grid,), (256,), (xd, yd, numpy.int64(1 << 27))))))
    src = cuarray.empty_like(xd)
    print("copy 1 GiB: {:.1f} us".format(timed(lambda: src.data.copy_from_device_async(xd.data, xd.nbytes))))


if __name__ == "__main__":
    main()
