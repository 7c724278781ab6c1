// cuarray/reduction.cuh: device helpers of the reduction kernels (cuarray/_core/reduction.py).
// Generic warp shuffles (any trivially copyable accumulator: complex, index/value pairs), the
// output-vector passes' block combination, the neutral elements of max/min, and the (value, index)
// pairs of argmax/argmin.
#pragma once

#include "cuarray/ops.cuh"

namespace cuarray {

// __shfl_down_sync for any trivially copyable T, moved as 32-bit words.
template <typename T>
__device__ __forceinline__ T shfl_down(const T& v, unsigned delta) {
  constexpr int W = (sizeof(T) + 3) / 4;
  int w[W];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int k = 0; k < W; ++k) w[k] = __shfl_down_sync(0xffffffffu, w[k], delta);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}
__device__ __forceinline__ float shfl_down(const float& v, unsigned d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ double shfl_down(const double& v, unsigned d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ int shfl_down(const int& v, unsigned d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ long long shfl_down(const long long& v, unsigned d) { return __shfl_down_sync(0xffffffffu, v, d); }

// The block combination of the output-vector passes (reduction.cu @@cols@@ and @@fold@@), in a
// fixed order: one partial per block and output. The block holds GPB vectors of C outputs (GPB a
// power of 2, 1 to 32; the folded pass: 1), lane l of each warp taking vector l % GPB. First, output
// by output, the shuffles combine the values `v` of the lanes of a warp that share a vector, in
// place, called from the pass's own loop over its outputs: the kernels' sm_90 SASS is that of the
// code the passes held before these helpers (a loop here, the accumulators passed in, or `v` by
// value gave other register numbers and instruction orders).
template <int GPB, typename T, typename R>
__device__ __forceinline__ void out_vec_warp_combine(T& v, const R& reduce) {
#pragma unroll
  for (int d = 16; d >= GPB; d >>= 1) v = reduce(v, shfl_down(v, d));
}
// Then lanes 0 to GPB - 1 write their warp's values `t` of the C outputs of vector `ov` to `sm`
// ([warp][vector][output]), and the block waits.
template <int GPB, int C, typename T, typename I>
__device__ __forceinline__ void out_vec_warp_to_shared(const T (&t)[C], T* sm, I ov) {
  if ((threadIdx.x & 31) < GPB) {
#pragma unroll
    for (int c = 0; c < C; ++c) sm[((threadIdx.x / 32) * GPB + ov) * C + c] = t[c];
  }
  __syncthreads();
}
// Last, the block's partial of output `o` (< GPB * C): its WARPS warps' values in `sm`, in warp order.
template <int WARPS, int GPB_C, typename T, typename I, typename R>
__device__ __forceinline__ T out_vec_block_partial(const T* sm, I o, const R& reduce) {
  T t = sm[o];
#pragma unroll
  for (int w = 1; w < WARPS; ++w) t = reduce(t, sm[w * GPB_C + o]);
  return t;
}

// lowest<T>() / highest<T>(): the neutral element of maximum / minimum (-inf / +inf for floats,
// so a NaN still wins; (-inf, -inf) for complex, below every value in lexicographic order).
template <typename T> struct limits {
  static __device__ __forceinline__ T lowest() { return int_traits<T>::min(); }
  static __device__ __forceinline__ T highest() { return int_traits<T>::max(); }
};
template <> struct limits<bool> {
  static __device__ __forceinline__ bool lowest() { return false; }
  static __device__ __forceinline__ bool highest() { return true; }
};
template <> struct limits<float> {
  static __device__ __forceinline__ float lowest() { return -__int_as_float(0x7f800000); }
  static __device__ __forceinline__ float highest() { return __int_as_float(0x7f800000); }
};
template <> struct limits<double> {
  static __device__ __forceinline__ double lowest() { return -__longlong_as_double(0x7ff0000000000000LL); }
  static __device__ __forceinline__ double highest() { return __longlong_as_double(0x7ff0000000000000LL); }
};
template <typename T> struct limits<complex<T>> {
  static __device__ __forceinline__ complex<T> lowest() { return complex<T>(limits<T>::lowest(), limits<T>::lowest()); }
  static __device__ __forceinline__ complex<T> highest() { return complex<T>(limits<T>::highest(), limits<T>::highest()); }
};
template <typename T> __device__ __forceinline__ T lowest() { return limits<T>::lowest(); }
template <typename T> __device__ __forceinline__ T highest() { return limits<T>::highest(); }
// A quiet NaN of T (the neutral element of fmax/fmin: fmax(NaN, x) == x).
template <typename T> __device__ __forceinline__ T quiet_nan() { return T(__int_as_float(0x7fc00000)); }
template <typename T> __device__ __forceinline__ complex<T> quiet_nan_c() {
  return complex<T>(T(__int_as_float(0x7fc00000)), T(__int_as_float(0x7fc00000)));
}

// var/std in one pass: the count, the mean and the sum of squared deviations from it. A thread
// folds in its own elements by Welford's update; partial results combine by Chan, Golub and
// LeVeque's formula ("Updating formulae and a pairwise algorithm for computing sample variances",
// 1979), as PyTorch's var does. The count is an integer: a float32 one stops counting at 2**24.
template <typename T>
struct moments {
  T mean;
  T m2;
  long long n;
};
template <typename T>
__device__ __forceinline__ moments<T> moments_none() {
  moments<T> m;
  m.mean = T(0);
  m.m2 = T(0);
  m.n = 0;
  return m;
}
template <typename T>
__device__ __forceinline__ moments<T> moments_of(T x) {
  moments<T> m;
  m.mean = x;
  m.m2 = T(0);
  m.n = 1;
  return m;
}
template <typename T>
__device__ __forceinline__ void moments_step(moments<T>& a, T x) {
  a.n += 1;
  const T d = x - a.mean;
  a.mean += d / T(a.n);
  a.m2 += d * (x - a.mean);
}
// float32: the count's division by __fdividef (a reciprocal and a multiply, 2 ulp) instead of IEEE
// division's longer sequence, on the step every element takes; the error is that of the mean's
// small correction, not of the mean.
__device__ __forceinline__ void moments_step(moments<float>& a, float x) {
  a.n += 1;
  const float d = x - a.mean;
  a.mean += __fdividef(d, float(a.n));
  a.m2 += d * (x - a.mean);
}
template <typename T>
__device__ __forceinline__ moments<T> moments_combine(const moments<T>& a, const moments<T>& b) {
  if (a.n == 0) return b;
  if (b.n == 0) return a;
  moments<T> r;
  r.n = a.n + b.n;
  const T d = b.mean - a.mean;
  const T f = T(b.n) / T(r.n);  // b's share of the combined count
  r.mean = a.mean + d * f;
  r.m2 = a.m2 + b.m2 + d * d * T(a.n) * f;
  return r;
}

// var/std in one pass, shifted sums (reduction_ops' `moments_shift` row): a thread keeps the
// shift c (its first element), S1 = sum(x - c) and S2 = sum((x - c)^2): an add and an FMA an element,
// no division, where Welford's update divides by the count each element. (mean, m2) = (c + S1/n,
// S2 - S1^2/n) are formed only when two accumulators combine (Chan's formula, as `moments`); the
// result is again shifted sums, shifted by its mean (S1 = 0, S2 = m2). The cancellation in S2 -
// S1^2/n costs ~eps x (c - mean)^2 x n; c being one of the thread's elements, its own deviation is
// in m2, so the relative error stays ~eps x the thread's element count (a sum's bound). x - c is
// exact for x within a factor 2 of c (large offsets). m2 < 0 from rounding is clamped (NaN kept).
template <typename T>
struct shifted {
  T c;
  T s1;
  T s2;
  long long n;
};
template <typename T>
__device__ __forceinline__ shifted<T> shifted_none() {
  shifted<T> m;
  m.c = T(0);
  m.s1 = T(0);
  m.s2 = T(0);
  m.n = 0;
  return m;
}
template <typename T>
__device__ __forceinline__ shifted<T> shifted_of(T x) {
  shifted<T> m;
  m.c = x;
  m.s1 = T(0);
  m.s2 = T(0);
  m.n = 1;
  return m;
}
template <typename T>
__device__ __forceinline__ void shifted_step(shifted<T>& a, T x) {
  a.c = a.n ? a.c : x;  // the first element is the shift (a select, off the sums' chain)
  const T d = x - a.c;
  a.s1 += d;
  a.s2 = fma(d, d, a.s2);
  a.n += 1;
}
// x / n for the mean's correction: float32 by __fdividef (2 ulp on a small correction), as
// moments_step; float64 IEEE.
template <typename T> __device__ __forceinline__ T shifted_div(T x, T n) { return x / n; }
__device__ __forceinline__ float shifted_div(float x, float n) { return __fdividef(x, n); }
// m2 of shifted sums: S2 - S1 * (S1 / n), at least 0 (NaN stays NaN).
template <typename T>
__device__ __forceinline__ T shifted_m2(const shifted<T>& a) {
  if (a.n == 0) return T(0);
  const T m2 = a.s2 - a.s1 * shifted_div(a.s1, T(a.n));
  return m2 < T(0) ? T(0) : m2;
}
template <typename T>
__device__ __forceinline__ shifted<T> shifted_combine(const shifted<T>& a, const shifted<T>& b) {
  if (a.n == 0) return b;
  if (b.n == 0) return a;
  const T na = T(a.n), nb = T(b.n);
  const T qa = shifted_div(a.s1, na), qb = shifted_div(b.s1, nb);
  T ma2 = a.s2 - a.s1 * qa, mb2 = b.s2 - b.s1 * qb;
  ma2 = ma2 < T(0) ? T(0) : ma2;
  mb2 = mb2 < T(0) ? T(0) : mb2;
  const T ma = a.c + qa, mb = b.c + qb;
  shifted<T> r;
  r.n = a.n + b.n;
  const T d = mb - ma;
  const T f = shifted_div(nb, T(r.n));  // b's share of the combined count
  r.c = ma + d * f;
  r.s1 = T(0);
  r.s2 = ma2 + mb2 + d * d * na * f;
  return r;
}

// argmax/argmin: the accumulator is (value, flat index); index -1 marks "no element yet", so the
// neutral element needs no sentinel value. Ties go to the smaller index (NumPy's first
// occurrence); a NaN beats every number (the first NaN wins), as in NumPy.
template <typename T>
struct arg_pair {
  T v;
  long long i;
};
template <typename T>
__device__ __forceinline__ arg_pair<T> make_arg(T v, long long i) {
  arg_pair<T> p;
  p.v = v;
  p.i = i;
  return p;
}
template <typename T>
__device__ __forceinline__ arg_pair<T> arg_none() {
  arg_pair<T> p;
  p.v = T();
  p.i = -1;
  return p;
}
// `better(a, b)`: a strictly beats b in the comparison order (greater for argmax, less for argmin).
template <bool MAX, typename T>
__device__ __forceinline__ arg_pair<T> arg_combine(const arg_pair<T>& a, const arg_pair<T>& b) {
  if (a.i < 0) return b;
  if (b.i < 0) return a;
  const bool an = isnan(a.v), bn = isnan(b.v);
  if (an || bn) {
    if (an && bn) return a.i <= b.i ? a : b;
    return an ? a : b;
  }
  const bool ab = MAX ? greater(a.v, b.v) : less(a.v, b.v);
  const bool ba = MAX ? greater(b.v, a.v) : less(b.v, a.v);
  if (ab) return a;
  if (ba) return b;
  return a.i <= b.i ? a : b;
}
template <typename T>
__device__ __forceinline__ arg_pair<T> argmax_combine(const arg_pair<T>& a, const arg_pair<T>& b) {
  return arg_combine<true>(a, b);
}
template <typename T>
__device__ __forceinline__ arg_pair<T> argmin_combine(const arg_pair<T>& a, const arg_pair<T>& b) {
  return arg_combine<false>(a, b);
}

// nanargmax/nanargmin as NumPy defines them: argmax/argmin with NaN read as -inf/+inf (complex:
// -inf+0j/+inf+0j, NumPy's replacement value), ties to the smaller index. A NaN that wins beside a
// number takes its replacement value (the same key), so the accumulator's value is NaN only when
// every element of the slice is NaN. (A complex NaN can win outright: -inf+0j is above -inf-2j.)
template <bool MAX, typename T> struct nan_worst {
  static __device__ __forceinline__ T get() { return MAX ? limits<T>::lowest() : limits<T>::highest(); }
};
template <bool MAX, typename T> struct nan_worst<MAX, complex<T> > {
  static __device__ __forceinline__ complex<T> get() {
    return complex<T>(MAX ? limits<T>::lowest() : limits<T>::highest(), T(0));
  }
};
template <bool MAX, typename T>
__device__ __forceinline__ T nan_key(const T& v) { return isnan(v) ? nan_worst<MAX, T>::get() : v; }
template <bool MAX, typename T>
__device__ __forceinline__ arg_pair<T> nanarg_combine(const arg_pair<T>& a, const arg_pair<T>& b) {
  if (a.i < 0) return b;
  if (b.i < 0) return a;
  const T ka = nan_key<MAX>(a.v), kb = nan_key<MAX>(b.v);
  arg_pair<T> r;
  if (MAX ? greater(ka, kb) : less(ka, kb)) r = a;
  else if (MAX ? greater(kb, ka) : less(kb, ka)) r = b;
  else r = a.i <= b.i ? a : b;
  if (isnan(r.v) && !(isnan(a.v) && isnan(b.v))) r.v = nan_worst<MAX, T>::get();
  return r;
}
template <typename T>
__device__ __forceinline__ arg_pair<T> nanargmax_combine(const arg_pair<T>& a, const arg_pair<T>& b) {
  return nanarg_combine<true>(a, b);
}
template <typename T>
__device__ __forceinline__ arg_pair<T> nanargmin_combine(const arg_pair<T>& a, const arg_pair<T>& b) {
  return nanarg_combine<false>(a, b);
}

// One element into a thread's own accumulator: a thread meets its elements in increasing index
// order, so a tie keeps the accumulator's index and no index comparison is needed (cheaper than
// arg_combine; argmax stays memory-bound). NANARG: nanargmax/nanargmin (nanarg_combine's rule).
template <bool MAX, bool NANARG, typename T>
__device__ __forceinline__ void arg_step(arg_pair<T>& a, const T& x, long long j) {
  bool take;
  T v = x;
  if (NANARG) {
    const T kx = nan_key<MAX>(x), ka = nan_key<MAX>(a.v);
    take = a.i < 0 || (MAX ? greater(kx, ka) : less(kx, ka));
    // a NaN taking over from a number keeps its replacement value (nanarg_combine's rule); a NaN
    // accumulator that wins or ties beside a number takes its key (the same key, not NaN)
    if (take && a.i >= 0 && isnan(x) && !isnan(a.v)) v = kx;
    if (!take && isnan(a.v) && !isnan(x)) a.v = ka;
  } else {
    take = a.i < 0 || (!isnan(a.v) && (isnan(x) || (MAX ? greater(x, a.v) : less(x, a.v))));
  }
  if (take) {
    a.v = v;
    a.i = j;
  }
}

// A value written by another block of the running kernel (fused second pass): loaded through L2
// (ld.global.cg), never from this SM's L1, as words of the accumulator's alignment.
template <int A> struct cg_word { typedef unsigned long long t; };
template <> struct cg_word<1> { typedef unsigned char t; };
template <> struct cg_word<2> { typedef unsigned short t; };
template <> struct cg_word<4> { typedef unsigned int t; };
template <typename T>
__device__ __forceinline__ T load_cg(const T* p) {
  typedef typename cg_word<(alignof(T) < 8 ? alignof(T) : 8)>::t W;
  constexpr int N = sizeof(T) / sizeof(W);
  W w[N];
#pragma unroll
  for (int k = 0; k < N; ++k) w[k] = __ldcg(reinterpret_cast<const W*>(p) + k);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

// |x - m|^2 for var/std (complex: the squared modulus, a real number).
template <typename T> __device__ __forceinline__ T abs2(T x) { return x * x; }
template <typename T> __device__ __forceinline__ T abs2(complex<T> z) { return z.re * z.re + z.im * z.im; }

}  // namespace cuarray
