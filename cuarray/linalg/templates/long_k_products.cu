// cuarray small products over a long inner dimension: C = A @ B for an M x N C (M, N <= 8) and a
// long k, such as a mixture's M step (`r.T @ X` of two (4e5, 2) arrays). Launched by
// cuarray/linalg/_long_k.py.
//
// Why not cuBLAS: it parallelises over tiles of C, so a C of one tile walks all of k on one SM
// ((2, 4e5) @ (4e5, 2) float64: 47 us on an H100, for 12.8 MB read; cut into pieces of k by a
// strided-batched GEMM and summed, 42 us in two GEMMs and a sum). Here it is a reduction over k:
// every thread takes rows kk of k (column kk of A, row kk of B), U of them in flight, and keeps
// the M x N sums of their products in registers; the block adds its threads' sums (warp shuffles,
// then the warps in order) into one partial, and the last block to finish adds the blocks'
// partials in block order. One launch, and for a given k and device the same sums in the same
// order on every run.
//
// A (M x k): element (i, kk) at a[i * a_i + kk * a_k]; B (k x N): (kk, j) at b[kk * b_k + j * b_j];
// C: M x N, row-major, dense. part: gridDim.x * M * N partials; counter: zero before the launch,
// left zero after it (the last block resets it), shared by the one-launch reductions of a stream.

#include "cuarray/complex.cuh"
#include "cuarray/reduction.cuh"

namespace cuarray {
namespace long_k {

// Loads of other blocks' partials: from L2 (ld.global.cg), never from this SM's L1.
__device__ __forceinline__ float load_cg(const float* p) { return __ldcg(p); }
__device__ __forceinline__ double load_cg(const double* p) { return __ldcg(p); }
__device__ __forceinline__ complex<float> load_cg(const complex<float>* p) {
  float2 v = __ldcg(reinterpret_cast<const float2*>(p));
  return complex<float>(v.x, v.y);
}
__device__ __forceinline__ complex<double> load_cg(const complex<double>* p) {
  double2 v = __ldcg(reinterpret_cast<const double2*>(p));
  return complex<double>(v.x, v.y);
}

// Lanes per output in the last block's sum: the largest power of two L with L * MN <= BLOCK.
__device__ constexpr int lanes(int mn, int block) { return 2 * mn > block ? 1 : 2 * lanes(2 * mn, block); }

struct plus {
  template <typename T>
  __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a + b; }
};

}  // namespace long_k
}  // namespace cuarray

// __launch_bounds__(BLOCK, 1): with the block size alone, ptxas's sm_90 code for float 4 x 8 and
// complex64 1 x 5 stopped at 64 and 32 registers and spilled 8-20 bytes; with one block an SM
// asked for, none spills (at most 212 registers, float64 8 x 8).
template <typename T, int M, int N, int BLOCK, int U>
__global__ void __launch_bounds__(BLOCK, 1) cuarray_long_k_products(
    const T* __restrict__ a, long long a_i, long long a_k, const T* __restrict__ b, long long b_k,
    long long b_j, T* __restrict__ c, long long k, T* __restrict__ part, unsigned int* __restrict__ counter) {
  using namespace cuarray::long_k;
  constexpr int MN = M * N;
  constexpr int WARPS = BLOCK / 32;
  T acc[MN];
#pragma unroll
  for (int o = 0; o < MN; ++o) acc[o] = T(0);
  const long long stride = (long long)gridDim.x * BLOCK;
  long long kk = (long long)blockIdx.x * BLOCK + threadIdx.x;
  for (; kk + (U - 1) * stride < k; kk += U * stride) {
    T av[U][M], bv[U][N];  // every load of the U rows issued before the first product
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const T* ar = a + (kk + u * stride) * a_k;
      const T* br = b + (kk + u * stride) * b_k;
#pragma unroll
      for (int i = 0; i < M; ++i) av[u][i] = ar[i * a_i];
#pragma unroll
      for (int j = 0; j < N; ++j) bv[u][j] = br[j * b_j];
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
#pragma unroll
      for (int i = 0; i < M; ++i) {
#pragma unroll
        for (int j = 0; j < N; ++j) acc[i * N + j] += av[u][i] * bv[u][j];
      }
    }
  }
  for (; kk < k; kk += stride) {
    T av[M], bv[N];
#pragma unroll
    for (int i = 0; i < M; ++i) av[i] = a[i * a_i + kk * a_k];
#pragma unroll
    for (int j = 0; j < N; ++j) bv[j] = b[kk * b_k + j * b_j];
#pragma unroll
    for (int i = 0; i < M; ++i) {
#pragma unroll
      for (int j = 0; j < N; ++j) acc[i * N + j] += av[i] * bv[j];
    }
  }

  // The block's partial: each warp's sums by shuffles, then the warps' in warp order (the
  // output-vector passes' block combination, reduction.cuh, with one vector of MN outputs a warp).
  // Raw storage: a __shared__ array of complex<T> would need its (non-trivial) constructor run.
  __shared__ __align__(16) unsigned char smem[(WARPS * MN > BLOCK ? WARPS * MN : BLOCK) * sizeof(T)];
  T* sh = reinterpret_cast<T*>(smem);
  const plus add;
#pragma unroll
  for (int o = 0; o < MN; ++o) cuarray::out_vec_warp_combine<1>(acc[o], add);
  cuarray::out_vec_warp_to_shared<1, MN>(acc, sh, 0);
  if (threadIdx.x < MN) {
    part[(long long)blockIdx.x * MN + threadIdx.x] = cuarray::out_vec_block_partial<WARPS, MN>(sh, threadIdx.x, add);
  }

  // The last block to finish adds the partials (reduction.cu's @@finish@@, the fused plans' one).
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  // L lanes an output: lane l sums the partials of blocks l, l + L, ..., then a tree in shared
  // memory halves the lanes (the same pairs every run).
  constexpr int L = lanes(MN, BLOCK);
  const int o = threadIdx.x % MN, l = threadIdx.x / MN;
  if (l < L) {
    T s = T(0);
    for (int blk = l; blk < (int)gridDim.x; blk += L) s += load_cg(part + (long long)blk * MN + o);
    sh[threadIdx.x] = s;
  }
  __syncthreads();
#pragma unroll
  for (int h = L / 2; h > 0; h >>= 1) {
    if (l < h) sh[threadIdx.x] += sh[threadIdx.x + h * MN];
    __syncthreads();
  }
  if (threadIdx.x < MN) c[threadIdx.x] = sh[threadIdx.x];
  if (threadIdx.x == 0) *counter = 0u;
}
