// cuarray searchsorted (cuarray/_sorting/searchsorted.py): one thread per query, a lower/upper
// bound binary search in a sorted 1-D array `a` of n elements (through `sorter` when given).
//
// The first levels (11; complex128: 10) of every search probe the same 2^levels - 1 positions (the implicit
// search tree of the halving steps); each block loads those values into shared memory once and
// walks them there, so a query reads global memory (L2) only for its last log2(n) - kLevels steps.
// Order: NumPy's sort order, NaN last (complex: lexicographic, NaN parts as NumPy sorts them).
#include "cuarray/common.cuh"

namespace cuarray {
namespace searchsorted {

constexpr int kThreads = 256;
// Levels kept in shared memory: 2047 nodes (8 KiB of float, 16 KiB of double); 1023 for the
// 16-byte complex128.
template <typename T> struct tree_size {
  static constexpr int levels = sizeof(T) > 8 ? 10 : 11;
  static constexpr int nodes = (1 << levels) - 1;
};

template <typename T> __device__ __forceinline__ bool isnan_(T) { return false; }
__device__ __forceinline__ bool isnan_(float x) { return x != x; }
__device__ __forceinline__ bool isnan_(double x) { return x != x; }

// a < b in NumPy's sort order.
template <typename T>
__device__ __forceinline__ bool less(T a, T b) { return a < b; }
template <>
__device__ __forceinline__ bool less<float>(float a, float b) { return a < b || (b != b && a == a); }
template <>
__device__ __forceinline__ bool less<double>(double a, double b) { return a < b || (b != b && a == a); }
template <typename R>
__device__ __forceinline__ bool less_complex(complex<R> a, complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (ar < br) return ai == ai || bi != bi;
  if (ar > br) return bi != bi && ai == ai;
  if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
  return br != br;
}
template <>
__device__ __forceinline__ bool less<complex<float>>(complex<float> a, complex<float> b) { return less_complex(a, b); }
template <>
__device__ __forceinline__ bool less<complex<double>>(complex<double> a, complex<double> b) { return less_complex(a, b); }

// Whether a search for v goes right of the probe value p: p < v (left) or !(v < p) (right).
template <bool Right, typename T>
__device__ __forceinline__ bool go_right(T p, T v) { return Right ? !less(v, p) : less(p, v); }

template <bool Sorted, typename T, typename S>
__device__ __forceinline__ T load(const T* __restrict__ a, const S* __restrict__ sorter, long long i) {
  return Sorted ? a[i] : a[sorter[i]];
}

// Queries are v[i], i < m; results out[i] in 0..n (int64). Sorted: `a` is read directly; else
// through `sorter` (int64 positions into a). The grid is a few blocks per SM and each block loops
// over queries, so the tree is loaded once per block, not once per 256 queries (measured on an
// H100, 1e7 float32 queries into 1e6: one block per 256 queries spent ~4 loads a query on the tree
// and ran 1.28x CuPy's plain binary search).
template <typename T, bool Right, bool Sorted>
__global__ void __launch_bounds__(kThreads) cuarray_searchsorted(const T* __restrict__ a, const long long* __restrict__ sorter,
                                                                 long long n, const T* __restrict__ v,
                                                                 long long m, long long* __restrict__ out) {
  constexpr int kLevels = tree_size<T>::levels, kNodes = tree_size<T>::nodes;
  __shared__ T tree[kNodes];
  // Node j of the tree (heap order: children 2j+1, 2j+2) is the probe of the halving step that
  // starts from the range its path from the root leads to.
  for (int j = threadIdx.x; j < kNodes; j += kThreads) {
    long long base = 0, len = n;
    const int depth = 31 - __clz(j + 1);
    for (int d = depth - 1; d >= 0; --d) {
      const long long half = len >> 1;
      if (((j + 1) >> d) & 1) { base += half + 1; len -= half + 1; } else { len = half; }
    }
    if (len > 0) tree[j] = load<Sorted>(a, sorter, base + (len >> 1));
  }
  __syncthreads();
  const long long stride = (long long)gridDim.x * kThreads;
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < m; i += stride) {
    const T x = v[i];
    long long base = 0, len = n;
    int node = 0;
    for (int d = 0; d < kLevels && len > 0; ++d) {
      const long long half = len >> 1;
      if (go_right<Right>(tree[node], x)) { base += half + 1; len -= half + 1; node = 2 * node + 2; }
      else { len = half; node = 2 * node + 1; }
    }
    while (len > 0) {
      const long long half = len >> 1;
      if (go_right<Right>(load<Sorted>(a, sorter, base + half), x)) { base += half + 1; len -= half + 1; }
      else { len = half; }
    }
    out[i] = base;
  }
}

}  // namespace searchsorted
}  // namespace cuarray

