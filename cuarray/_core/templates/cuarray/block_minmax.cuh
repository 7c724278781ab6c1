// cuarray/block_minmax.cuh: a block's smallest and largest 64-bit key (order-preserving keys of the
// values, see histograms.cu's key64), combined in thread 0: a warp shuffle tree, the warps' pairs
// through shared memory, the first warp's tree again. Every thread of the block calls it; THREADS
// is the block size (a multiple of 32, at most 1024). Shared by histogram's min/max partials and
// unique's dense-route range (one pair of atomics or stores per block, not per warp: every warp's
// atomics on the same two words serialise in L2).
#pragma once

namespace cuarray {

template <int THREADS>
__device__ __forceinline__ void block_minmax(unsigned long long& lo, unsigned long long& hi) {
  for (int d = 16; d > 0; d >>= 1) {
    const unsigned long long l2 = __shfl_down_sync(0xffffffffu, lo, d), h2 = __shfl_down_sync(0xffffffffu, hi, d);
    lo = l2 < lo ? l2 : lo;
    hi = h2 > hi ? h2 : hi;
  }
  __shared__ unsigned long long wlo[THREADS / 32], whi[THREADS / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    wlo[warp] = lo;
    whi[warp] = hi;
  }
  __syncthreads();
  if (warp == 0) {
    lo = lane < THREADS / 32 ? wlo[lane] : ~0ull;
    hi = lane < THREADS / 32 ? whi[lane] : 0ull;
    for (int d = 16; d > 0; d >>= 1) {
      const unsigned long long l2 = __shfl_down_sync(0xffffffffu, lo, d), h2 = __shfl_down_sync(0xffffffffu, hi, d);
      lo = l2 < lo ? l2 : lo;
      hi = h2 > hi ? h2 : hi;
    }
  }
}

}  // namespace cuarray
