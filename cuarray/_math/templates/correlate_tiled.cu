// cuarray direct correlation, tiled: out[k] = sum_j a[k + j - off] * w[j * ws] over the j that keep
// k + j - off inside a, for 0 <= k < length (cuarray/_math/convolution.py, float32 and float64).
// ws: w's step in elements (convolve passes its kernel's last element and -1: read in place, once
// a chunk into shared memory, rather than reversed by a copy kernel first).
//
// Why: the one-output-per-thread kernel (signal.cuh's correlate_at) makes two loads from L1 per
// multiply-add, so it runs at ~4.4 us per kernel element on 2**24 outputs (H100), as slow as the
// FFT path at k ~ 255. Here a block stages its stretch of `a` and a chunk of `w` in shared memory
// once, and each thread makes R consecutive outputs from a window of R + 4 values of `a` held in
// registers: four steps of j cost one 16-byte shared load of `a` and one (broadcast) of `w` for
// 4 R multiply-adds, so shared memory no longer bounds the loop.
//
// Same sums as correlate_at, in the same order (j ascending, one fused multiply-add each), so the
// results are the same bits. Blocks whose stretch of `a` would run off either end, or whose
// outputs run past `length`, take correlate_at's loop instead (no zero padding: 0 * inf would be
// NaN where NumPy skips the product). convolution.py compiles this file after signal.cuh, which
// defines correlate_at.

namespace cuarray {
namespace correlate_tiled {

constexpr int kBlock = 256;
constexpr int kChunk = 256;  // values of w staged per round

template <typename T>
__device__ __forceinline__ void load4(const T* p, T* out) {
#pragma unroll
  for (int i = 0; i < 4; ++i) out[i] = p[i];
}
template <>
__device__ __forceinline__ void load4<float>(const float* p, float* out) {
  const float4 v = *reinterpret_cast<const float4*>(p);
  out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
}
template <>
__device__ __forceinline__ void load4<double>(const double* p, double* out) {
  const double2 u = reinterpret_cast<const double2*>(p)[0], v = reinterpret_cast<const double2*>(p)[1];
  out[0] = u.x; out[1] = u.y; out[2] = v.x; out[3] = v.y;
}

}  // namespace correlate_tiled
}  // namespace cuarray

template <typename T, int R>
__global__ void __launch_bounds__(cuarray::correlate_tiled::kBlock) cuarray_correlate_tiled(
    const T* __restrict__ a, const T* __restrict__ w, T* __restrict__ out, const long long na,
    const int nw, const long long ws, const long long length, const long long off) {
  using namespace cuarray::correlate_tiled;
  constexpr int kTile = kBlock * R;
  __shared__ __align__(16) T s_a[kTile + kChunk + 4];
  __shared__ __align__(16) T s_w[kChunk];
  const int t = threadIdx.x;
  const long long k0 = (long long)blockIdx.x * kTile;
  const bool interior = k0 - off >= 0 && k0 + kTile + nw - 2 - off <= na - 1 && k0 + kTile <= length;
  if (!interior) {  // block-uniform
#pragma unroll
    for (int i = 0; i < R; ++i) {
      const long long k = k0 + i * kBlock + t;
      if (k < length) out[k] = cuarray_signal::correlate_at(a, w, ws, na, (long long)nw, k, off);
    }
    return;
  }
  const T* ab = a + (k0 - off);
  T acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = T(0);
  for (int j0 = 0; j0 < nw; j0 += kChunk) {
    const int wc = min(kChunk, nw - j0);
    __syncthreads();  // the previous round's readers are done with s_a and s_w
    const long long avail = na - (k0 - off) - j0;  // values of a left from this round's start
    for (int i = t; i < kTile + wc + 4; i += kBlock) s_a[i] = i < avail ? ab[j0 + i] : T(0);
    for (int i = t; i < wc; i += kBlock) s_w[i] = w[(long long)(j0 + i) * ws];
    __syncthreads();
    // win[i] = s_a[t * R + j + i]: the R outputs' window at step j, and the next four values.
    T win[R + 4];
#pragma unroll
    for (int i = 0; i < R + 4; i += 4) load4(s_a + t * R + i, win + i);
    int j = 0;
    for (; j + 4 <= wc; j += 4) {
      T w4[4];
      load4(s_w + j, w4);
#pragma unroll
      for (int jj = 0; jj < 4; ++jj) {
#pragma unroll
        for (int r = 0; r < R; ++r) acc[r] += win[r + jj] * w4[jj];
      }
#pragma unroll
      for (int i = 0; i < R; ++i) win[i] = win[i + 4];
      load4(s_a + t * R + j + 4 + R, win + R);
    }
    const int left = wc - j;
#pragma unroll
    for (int jj = 0; jj < 3; ++jj) {
      if (jj < left) {
        const T wj = s_w[j + jj];
#pragma unroll
        for (int r = 0; r < R; ++r) acc[r] += win[r + jj] * wj;
      }
    }
  }
  T* o = out + k0 + t * R;
#pragma unroll
  for (int r = 0; r < R; ++r) o[r] = acc[r];
}
