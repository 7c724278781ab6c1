// cuarray integer and bool matrix products (cuBLAS has no exact int64 GEMM): C = A B for a batch of
// matrices with arbitrary element strides (negative and zero included), so no operand is copied.
// cuarray/linalg/_int_matmul.py launches it.
//
// Exact like NumPy: integer products and sums wrap modulo 2^bits of T. They are accumulated in
// unsigned 64-bit arithmetic (well defined on overflow) and truncated to T once at the end, which
// is the same residue as NumPy's T-typed loop. bool: C = OR over k of (A AND B).
//
// A block computes a kTile x kTile tile of C; A and B tiles go through shared memory, kTile values
// of k at a time. blockIdx.z walks the batch (grid-stride over batches past the grid's z limit).

namespace cuarray {
namespace int_matmul {

constexpr int kTile = 16;

template <typename T>
struct Mac {
  typedef unsigned long long acc;
  static __device__ __forceinline__ acc zero() { return 0ULL; }
  static __device__ __forceinline__ acc step(acc s, T a, T b) {
    return s + (unsigned long long)a * (unsigned long long)b;
  }
  static __device__ __forceinline__ T out(acc s) { return (T)s; }
};

template <>
struct Mac<bool> {
  typedef bool acc;
  static __device__ __forceinline__ bool zero() { return false; }
  static __device__ __forceinline__ bool step(bool s, bool a, bool b) { return s || (a && b); }
  static __device__ __forceinline__ bool out(bool s) { return s; }
};

}  // namespace int_matmul
}  // namespace cuarray

template <typename T>
__global__ void __launch_bounds__(256) cuarray_int_matmul(
    const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
    long long m, long long n, long long k, long long batch,
    long long a_batch, long long a_row, long long a_col,
    long long b_batch, long long b_row, long long b_col,
    long long c_batch, long long c_row, long long c_col) {
  using namespace cuarray::int_matmul;
  typedef Mac<T> M;
  __shared__ T sa[kTile][kTile];
  __shared__ T sb[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long row = (long long)blockIdx.y * kTile + ty;
  const long long col = (long long)blockIdx.x * kTile + tx;
  for (long long z = blockIdx.z; z < batch; z += gridDim.z) {
    const T* pa = a + z * a_batch;
    const T* pb = b + z * b_batch;
    typename M::acc s = M::zero();
    for (long long k0 = 0; k0 < k; k0 += kTile) {
      const long long ka = k0 + tx, kb = k0 + ty;
      sa[ty][tx] = (row < m && ka < k) ? pa[row * a_row + ka * a_col] : T(0);
      sb[ty][tx] = (kb < k && col < n) ? pb[kb * b_row + col * b_col] : T(0);
      __syncthreads();
#pragma unroll
      for (int j = 0; j < kTile; ++j) s = M::step(s, sa[ty][j], sb[j][tx]);
      __syncthreads();
    }
    if (row < m && col < n) c[z * c_batch + row * c_row + col * c_col] = M::out(s);
  }
}
