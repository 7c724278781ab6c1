// cuarray unique of integers by a bitmap (cuarray/_sets/unique_dense.py): when the values span
// few integers, one bit per integer of [min, max] replaces the sort. The host decides the route
// from (min, max) before any bitmap work, so data that does not fit pays one pass and one read.
//
//   cuarray_dense_minmax<T>: each block's smallest and largest order key (part[2b], part[2b + 1])
//     of x[0], x[step], ..., x[(n - 1) * step] (step 1: all; larger: a sample); the host reduces
//     the partials and compares max - min with the bitmap's cap.
//   cuarray_dense_mark<T>: each element sets bit key - base of the (zeroed) bitmap.
//   cuarray_dense_tile_counts: set bits per tile of kTileWords words.
//   cuarray_dense_expand<T>: each tile's set bits, in order, as values (base + bit), at the tile's
//     offset from the inclusive scan of the tile counts: the unique values, sorted.
#include "cuarray/common.cuh"
#include "cuarray/block_minmax.cuh"

namespace cuarray {
namespace unique_dense {

constexpr int kThreads = 256;
constexpr int kWords = 4;  // bitmap words a thread (one 16-byte load)
constexpr int kTileWords = kThreads * kWords;

// An order-preserving unsigned 64-bit key of an integer, and back.
template <typename T>
__device__ __forceinline__ unsigned long long key_of(T x) {
  return T(-1) < T(0) ? (unsigned long long)(long long)x ^ 0x8000000000000000ull : (unsigned long long)x;
}
template <typename T>
__device__ __forceinline__ T value_of(unsigned long long k) {
  return T(-1) < T(0) ? T((long long)(k ^ 0x8000000000000000ull)) : T(k);
}

template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_dense_minmax(const T* __restrict__ x, long long n,
                                                                 long long step,
                                                                 unsigned long long* __restrict__ part) {
  unsigned long long lo = ~0ull, hi = 0ull;
  const long long stride = (long long)gridDim.x * kThreads;
#pragma unroll 4
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < n; i += stride) {
    const unsigned long long k = key_of<T>(x[i * step]);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  }
  cuarray::block_minmax<kThreads>(lo, hi);
  if (threadIdx.x == 0) {
    part[2 * blockIdx.x] = lo;
    part[2 * blockIdx.x + 1] = hi;
  }
}

// Every key of x lies in [base, base + 32 * words of bits): the host made sure.
template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_dense_mark(const T* __restrict__ x, long long n,
                                                               unsigned long long base,
                                                               unsigned int* __restrict__ bits) {
  const long long stride = (long long)gridDim.x * kThreads;
#pragma unroll 4
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < n; i += stride) {
    const unsigned long long off = key_of<T>(x[i]) - base;
    const unsigned int bit = 1u << (unsigned)(off & 31ull);
    // A set bit stays set: a read that already sees it skips the atomic (a stale read only costs
    // the atomic). With repeated values most elements then need no atomic at all.
    if (!(bits[off >> 5] & bit)) atomicOr(bits + (off >> 5), bit);
  }
}

// Exclusive prefix sum of v over the block, and the block's total (every thread calls it).
__device__ __forceinline__ int block_exclusive(int v, int& total) {
  __shared__ int warp_sums[kThreads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int s = v;
  for (int d = 1; d < 32; d <<= 1) {
    const int o = __shfl_up_sync(0xffffffffu, s, d);
    if (lane >= d) s += o;
  }
  if (lane == 31) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kThreads / 32 ? warp_sums[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int o = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += o;
    }
    if (lane < kThreads / 32) warp_sums[lane] = w;  // inclusive sums of the warps
  }
  __syncthreads();
  total = warp_sums[kThreads / 32 - 1];
  return s - v + (warp ? warp_sums[warp - 1] : 0);
}

__global__ void __launch_bounds__(kThreads) cuarray_dense_tile_counts(const unsigned int* __restrict__ bits,
                                                                      int* __restrict__ counts) {
  const uint4 w = reinterpret_cast<const uint4*>(bits + (long long)blockIdx.x * kTileWords)[threadIdx.x];
  int total;
  block_exclusive(__popc(w.x) + __popc(w.y) + __popc(w.z) + __popc(w.w), total);
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_dense_expand(const unsigned int* __restrict__ bits,
                                                                 const int* __restrict__ incl,
                                                                 unsigned long long base, T* __restrict__ out) {
  const uint4 w4 = reinterpret_cast<const uint4*>(bits + (long long)blockIdx.x * kTileWords)[threadIdx.x];
  unsigned int w[kWords] = {w4.x, w4.y, w4.z, w4.w};
  int total;
  long long pos = block_exclusive(__popc(w[0]) + __popc(w[1]) + __popc(w[2]) + __popc(w[3]), total);
  pos += blockIdx.x ? incl[blockIdx.x - 1] : 0;
  const unsigned long long first =
      base + ((unsigned long long)blockIdx.x * kTileWords + (unsigned long long)threadIdx.x * kWords) * 32ull;
#pragma unroll
  for (int u = 0; u < kWords; ++u) {
    unsigned int v = w[u];
    while (v) {
      const int b = __ffs(v) - 1;
      out[pos++] = value_of<T>(first + 32ull * u + (unsigned long long)b);
      v &= v - 1u;
    }
  }
}

}  // namespace unique_dense
}  // namespace cuarray
