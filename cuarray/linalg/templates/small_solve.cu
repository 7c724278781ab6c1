// cuarray stacked small solves: X = A^-1 B for a stack of n x n systems with n <= W <= 32, one
// group of W lanes of a warp per system (W a power of two; 32 / W systems per warp). Launched by
// cuarray/linalg/_small_solve.py for `solve` and `inv` of stacks of small matrices.
//
// Why not cuBLAS's getrfBatched + getrsBatched: those are two launches plus a pointer table for
// each operand (two more kernels), and the LU factors make a round trip through memory between
// them. Here lane i keeps row i of A in registers (column indices are compile-time after
// unrolling, so nothing spills to local memory); the pivot row is broadcast by warp shuffles.
//
// LAPACK's getrf/getrs (what numpy.linalg.solve calls): partial pivoting by the largest |a_ik|
// (|re| + |im| for complex, as i?amax) with the lowest row index among equals, rows swapped
// whole, multipliers a_ik / a_kk. A pivot that is exactly zero marks the matrix singular (LAPACK's
// info > 0, NumPy's LinAlgError): the kernel stores 1 into *singular and finishes with inf/nan.
//
// Rows n..W-1 of a group are padding: identity rows, never chosen as a pivot before step n (their
// entries in columns < n are zero), and the loops stop at n.

#include "cuarray/complex.cuh"

namespace cuarray {
namespace small_solve {

template <typename T> struct Real { typedef T type; };
template <typename T> struct Real<complex<T>> { typedef T type; };

template <typename T>
__device__ __forceinline__ T abs1(T v) { return fabs(v); }
template <typename T>
__device__ __forceinline__ T abs1(complex<T> v) { return fabs(v.re) + fabs(v.im); }

template <int W, typename T>
__device__ __forceinline__ T shfl(T v, int src) { return __shfl_sync(0xffffffffu, v, src, W); }
template <int W, typename T>
__device__ __forceinline__ complex<T> shfl(complex<T> v, int src) {
  return complex<T>(__shfl_sync(0xffffffffu, v.re, src, W), __shfl_sync(0xffffffffu, v.im, src, W));
}

template <typename T> __device__ __forceinline__ T zero() { return T(0); }
template <typename T> __device__ __forceinline__ T one() { return T(1); }

}  // namespace small_solve
}  // namespace cuarray

// a: matrices of n x n, row-major, `a_step` elements apart (0: one matrix for the whole stack).
// b: right-hand sides of n x k, row-major, `b_step` elements apart (0: one for the whole stack).
// x: the solutions, n x k row-major each, dense. batch >= 1, 1 <= n <= W, k >= 1.
// singular: set to 1 when some matrix has a zero pivot; null when the caller does not ask.
template <typename T, int W>
__global__ void __launch_bounds__(128) cuarray_small_solve(
    const T* __restrict__ a, long long a_step, const T* __restrict__ b, long long b_step,
    T* __restrict__ x, int n, int k, long long batch, int* __restrict__ singular) {
  using namespace cuarray::small_solve;
  typedef typename Real<T>::type R;
  const int lane = threadIdx.x & (W - 1);
  const long long m = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / W;
  // Groups past the stack still run (every lane must take part in the shuffles) on matrix 0.
  const bool live = m < batch;
  const long long mm = live ? m : 0;
  const T* am = a + mm * a_step;

  T row[W];
#pragma unroll
  for (int j = 0; j < W; ++j) {
    row[j] = (lane < n && j < n) ? am[(long long)lane * n + j] : (j == lane ? one<T>() : zero<T>());
  }
  int perm = lane;  // the row of the original system this lane holds
  bool zero_pivot = false;

#pragma unroll
  for (int kk = 0; kk < W; ++kk) {
    if (kk >= n) break;
    // Pivot: the largest |a_ik| for i >= kk, the lowest i among equals.
    // NaN as LAPACK's i?amax sees it (the running maximum starts at row kk and grows only on
    // '>'): a NaN on row kk is the pivot, a NaN below it never is. So all lanes agree on one pivot,
    // and a NaN pivot is not a zero one (no LinAlgError; the solution is NaN, as NumPy's).
    R v = lane >= kk && lane < n ? abs1(row[kk]) : R(-1);
    if (v != v) v = lane == kk ? R(1) / R(0) : R(-0.5);
    int p = lane;
#pragma unroll
    for (int off = W / 2; off > 0; off /= 2) {
      R ov = __shfl_xor_sync(0xffffffffu, v, off, W);
      int op = __shfl_xor_sync(0xffffffffu, p, off, W);
      if (ov > v || (ov == v && op < p)) { v = ov; p = op; }
    }
    zero_pivot |= v == R(0);
    // Swap rows kk and p whole (the multipliers too: they belong to the permuted rows).
    const int src = lane == kk ? p : (lane == p ? kk : lane);
#pragma unroll
    for (int j = 0; j < W; ++j) row[j] = shfl<W>(row[j], src);
    perm = __shfl_sync(0xffffffffu, perm, src, W);
    // Eliminate below the pivot; lane i > kk keeps its multiplier in row[kk].
    const T piv = shfl<W>(row[kk], kk);
    const T l = row[kk] / piv;
    if (lane > kk) row[kk] = l;
#pragma unroll
    for (int j = kk + 1; j < W; ++j) {
      const T u = shfl<W>(row[j], kk);
      if (lane > kk && j < n) row[j] -= l * u;
    }
  }
  if (live && lane == 0) {
    // Any lane's flag would do; lane 0 gathers the group's (they agree: v is shuffled to all).
    if (zero_pivot && singular != nullptr) *singular = 1;
  }

  const T* bm = b + mm * b_step;
  T* xm = x + mm * (long long)n * k;
  for (int c = 0; c < k; ++c) {
    T y = lane < n ? bm[(long long)perm * k + c] : zero<T>();
    // L y = P b (unit lower triangle).
#pragma unroll
    for (int kk = 0; kk < W; ++kk) {
      if (kk >= n) break;
      const T yk = shfl<W>(y, kk);
      if (lane > kk) y -= row[kk] * yk;
    }
    // U x = y.
#pragma unroll
    for (int kk = W - 1; kk >= 0; --kk) {
      if (kk < n) {
        if (lane == kk) y = y / row[kk];
        const T xk = shfl<W>(y, kk);
        if (lane < kk) y -= row[kk] * xk;
      }
    }
    if (live && lane < n) xm[(long long)lane * k + c] = y;
  }
}
