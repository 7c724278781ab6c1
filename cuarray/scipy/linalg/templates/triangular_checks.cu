// scipy.linalg.solve_triangular's check_finite=True tests in one launch, for
// cuarray/scipy/linalg/_triangular_checks.py: every element of `a` and of `b` finite (SciPy's
// ValueError) and every element on `a`'s diagonals nonzero (trtrs's LinAlgError). Three separate
// reductions took three launches and left three results to combine; here each block ORs what it
// found into one byte of `partial` (bit 1: `a` not finite, 2: `b` not finite, 4: a zero on a
// diagonal), written unconditionally, so nothing has to be zeroed first and no block waits for
// another; the host reads the grid's bytes once.
//
// Each operand is described by the host as count x rows x cols elements at the byte offsets
// m * s0 + r * s1 + c * s2 (its dimensions collapsed, the smallest stride innermost; `a`'s
// diagonals are the array of shape (batch..., n) whose last stride is a row plus a column
// stride). The work is split into items of up to CHUNK consecutive elements of one row, and
// blocks take items in a grid-stride loop, so a long contiguous row is spread over many blocks
// and many short rows over few.

#include "cuarray/complex.cuh"

namespace cuarray_linalg_checks {

constexpr int BLOCK = 256;
constexpr int PER_THREAD = 4;
constexpr int CHUNK = BLOCK * PER_THREAD;

template <typename T> __device__ __forceinline__ bool finite(T) { return true; }  // integers, bool
__device__ __forceinline__ bool finite(float x) { return ::isfinite(x); }
__device__ __forceinline__ bool finite(double x) { return ::isfinite(x); }
template <typename T> __device__ __forceinline__ bool finite(cuarray::complex<T> z) {
  return finite(z.re) && finite(z.im);
}

// True where an element of the operand fails its test: not finite (ZERO false) or zero (ZERO true).
template <bool ZERO, typename T>
__device__ bool any_fails(const char* base, long long count, long long rows, long long cols, long long s0,
                          long long s1, long long s2) {
  const long long chunks = (cols + CHUNK - 1) / CHUNK;
  const long long items = count * rows * chunks;
  bool bad = false;
  for (long long item = blockIdx.x; item < items; item += gridDim.x) {
    const long long line = item / chunks, chunk = item - line * chunks;
    const long long m = line / rows, r = line - m * rows;
    const char* row = base + m * s0 + r * s1;
    const long long c0 = chunk * CHUNK + threadIdx.x;
#pragma unroll
    for (int j = 0; j < PER_THREAD; ++j) {
      const long long c = c0 + j * BLOCK;
      if (c < cols) {
        const T v = *reinterpret_cast<const T*>(row + c * s2);
        bad |= ZERO ? (v == T(0)) : !finite(v);
      }
    }
  }
  return bad;
}

template <typename TA, typename TB>
__global__ void __launch_bounds__(BLOCK)
checks(const TA* a, long long a_count, long long a_rows, long long a_cols, long long a_s0, long long a_s1,
       long long a_s2, const TB* b, long long b_count, long long b_rows, long long b_cols, long long b_s0,
       long long b_s1, long long b_s2, long long d_count, long long d_rows, long long d_cols, long long d_s0,
       long long d_s1, long long d_s2, unsigned char* partial) {
  __shared__ int bits;
  if (threadIdx.x == 0) bits = 0;
  __syncthreads();
  const char* pa = reinterpret_cast<const char*>(a);
  int mine = 0;
  if (any_fails<false, TA>(pa, a_count, a_rows, a_cols, a_s0, a_s1, a_s2)) mine |= 1;
  if (any_fails<false, TB>(reinterpret_cast<const char*>(b), b_count, b_rows, b_cols, b_s0, b_s1, b_s2)) mine |= 2;
  if (any_fails<true, TA>(pa, d_count, d_rows, d_cols, d_s0, d_s1, d_s2)) mine |= 4;
  if (mine) atomicOr(&bits, mine);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = (unsigned char)bits;
}

}  // namespace cuarray_linalg_checks
