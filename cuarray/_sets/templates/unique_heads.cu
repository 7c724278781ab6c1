// cuarray unique values straight from the sorted keys (cuarray/_sets/unique_heads.py): an element
// starts a new value ("head") when it differs from its predecessor, so the values are the heads,
// found again in each pass instead of written to a flag array and read back.
//
//   cuarray_head_counts<T, EQUAL_NAN, Offset>: heads per tile of kTile elements.
//   cuarray_head_compact<T, EQUAL_NAN, Offset>: each tile's heads, in order, at the tile's offset
//     (the inclusive scan of the counts), ranked with warp ballots.
// EQUAL_NAN (floats): two NaNs are one value (NaN != NaN, so a pair of NaNs is the one case where
// != holds and neither equals itself), as unique's flag kernels.
#include "cuarray/common.cuh"

namespace cuarray {
namespace unique_heads {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;

template <typename T, bool EQUAL_NAN>
__device__ __forceinline__ bool head(const T* __restrict__ x, long long i) {
  if (i == 0) return true;
  const T a = x[i], b = x[i - 1];
  if (EQUAL_NAN) return a != b && (a == a || b == b);
  return a != b;
}

template <typename T, bool EQUAL_NAN, typename Offset>
__global__ void __launch_bounds__(kThreads) cuarray_head_counts(const T* __restrict__ x, long long n,
                                                                Offset* __restrict__ counts) {
  const long long base = (long long)blockIdx.x * kTile;
  int c = 0;
#pragma unroll
  for (int u = 0; u < kItems; ++u) {
    const long long i = base + u * kThreads + threadIdx.x;
    c += i < n && head<T, EQUAL_NAN>(x, i);
  }
  for (int d = 16; d > 0; d >>= 1) c += __shfl_down_sync(0xffffffffu, c, d);
  __shared__ int warp_counts[kThreads / 32];
  if ((threadIdx.x & 31) == 0) warp_counts[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
#pragma unroll
    for (int w = 0; w < kThreads / 32; ++w) t += warp_counts[w];
    counts[blockIdx.x] = Offset(t);
  }
}

template <typename T, bool EQUAL_NAN, typename Offset>
__global__ void __launch_bounds__(kThreads) cuarray_head_compact(const T* __restrict__ x, long long n,
                                                                 const Offset* __restrict__ incl, T* __restrict__ out) {
  __shared__ int warp_counts[2][kThreads / 32];
  const long long base = (long long)blockIdx.x * kTile;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  long long pos = blockIdx.x ? (long long)incl[blockIdx.x - 1] : 0;
#pragma unroll 1
  for (int u = 0; u < kItems; ++u) {
    const long long i = base + u * kThreads + threadIdx.x;
    const bool h = i < n && head<T, EQUAL_NAN>(x, i);
    const unsigned int ballot = __ballot_sync(0xffffffffu, h);
    int* wc = warp_counts[u & 1];  // two buffers: one __syncthreads an iteration
    if (lane == 0) wc[warp] = __popc(ballot);
    __syncthreads();
    int before = 0, total = 0;
#pragma unroll
    for (int w = 0; w < kThreads / 32; ++w) {
      const int v = wc[w];
      before += w < warp ? v : 0;
      total += v;
    }
    if (h) out[pos + before + __popc(ballot & ((1u << lane) - 1u))] = x[i];
    pos += total;
  }
}

}  // namespace unique_heads
}  // namespace cuarray
