// cuarray histograms and bincount (cuarray/_statistics/histograms.py).
//
//   cuarray_minmax<T>: the smallest and largest value of x as order-preserving 64-bit keys
//     (atomicMin/atomicMax of each warp's result): the range of a histogram or bincount's length
//     in one pass. Floats: NaN maps above +inf, so a NaN makes the maximum NaN.
//   cuarray_bincount, cuarray_histogram_uniform, cuarray_histogram_edges: the bin of each element,
//     then a count (or a float64 weight sum) per bin. Shared: each block accumulates in its own
//     copy of the bins in shared memory (few bins: atomics there are cheap and private) and adds
//     it to the global bins at the end; else every update is a global atomic (many bins: little
//     contention, and no per-block flush of a large copy).
//   cuarray_minmax_partials, cuarray_histogram_auto_edges, cuarray_histogram_auto: an int `bins`
//     with the range from the float data, without a host round trip between the passes: each
//     block's (min, max) keys, then one block makes NumPy's edges (numpy.linspace step by step,
//     rounded as NumPy rounds) and the range's errors as flags, then the counts in per-warp
//     shared-memory copies of the bins from 16-byte loads. The host reads the flags once, at the end.
#include "cuarray/common.cuh"
#include "cuarray/block_minmax.cuh"
#include "cuarray/rounded.cuh"  // rn::add etc.: IEEE steps rounded once, never fused (NumPy rounds each)

namespace cuarray {
namespace histograms {

constexpr int kThreads = 256;

template <typename T> struct key64 {  // integers
  static __device__ __forceinline__ unsigned long long of(T x) {
    return T(-1) < T(0) ? (unsigned long long)(long long)x ^ 0x8000000000000000ull : (unsigned long long)x;
  }
};
__device__ __forceinline__ unsigned long long double_key(double x) {
  const unsigned long long u = (unsigned long long)__double_as_longlong(x);
  if (x != x) return ~0ull;
  return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
}
template <> struct key64<float> {
  static __device__ __forceinline__ unsigned long long of(float x) { return double_key(double(x)); }
};
template <> struct key64<double> {
  static __device__ __forceinline__ unsigned long long of(double x) { return double_key(x); }
};
template <> struct key64<bool> {
  static __device__ __forceinline__ unsigned long long of(bool x) { return x ? 1ull : 0ull; }
};

// out[0] = min key, out[1] = max key (initialised to ~0 and 0 by the caller).
template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_minmax(const T* __restrict__ x, long long n,
                                                           unsigned long long* __restrict__ out) {
  unsigned long long lo = ~0ull, hi = 0ull;
  const long long stride = (long long)gridDim.x * kThreads;
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < n; i += stride) {
    const unsigned long long k = key64<T>::of(x[i]);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  }
  cuarray::block_minmax<kThreads>(lo, hi);
  if (threadIdx.x == 0) {
    atomicMin(out, lo);
    atomicMax(out + 1, hi);
  }
}

template <bool Weighted> struct acc;
template <> struct acc<false> { typedef unsigned int shared_t; typedef unsigned long long global_t; };
template <> struct acc<true> { typedef double shared_t; typedef double global_t; };

// The loop of every histogram kernel: bin(i) is element i's bin, or -1 to drop it.
template <bool Weighted, bool Shared, typename Bin>
__device__ __forceinline__ void accumulate(Bin bin, const double* __restrict__ w, long long n, long long nbins,
                                           typename acc<Weighted>::global_t* __restrict__ out) {
  typedef typename acc<Weighted>::shared_t S;
  typedef typename acc<Weighted>::global_t G;
  extern __shared__ __align__(16) unsigned char smem[];
  S* bins = reinterpret_cast<S*>(smem);
  if (Shared) {
    for (long long j = threadIdx.x; j < nbins; j += kThreads) bins[j] = S(0);
    __syncthreads();
  }
  const long long stride = (long long)gridDim.x * kThreads;
#pragma unroll 4
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < n; i += stride) {
    const long long j = bin(i);
    if (j < 0) continue;
    if (Shared) atomicAdd(bins + j, Weighted ? S(w[i]) : S(1));
    else atomicAdd(out + j, Weighted ? G(w[i]) : G(1));
  }
  if (Shared) {
    __syncthreads();
    for (long long j = threadIdx.x; j < nbins; j += kThreads) {
      const S v = bins[j];
      if (v != S(0)) atomicAdd(out + j, G(v));
    }
  }
}

// bincount: 0 <= x < nbins is known.
template <typename T, bool Weighted, bool Shared>
__global__ void __launch_bounds__(kThreads) cuarray_bincount(const T* __restrict__ x, const double* __restrict__ w,
                                                             long long n, long long nbins,
                                                             typename acc<Weighted>::global_t* __restrict__ out) {
  accumulate<Weighted, Shared>([&](long long i) { return (long long)x[i]; }, w, n, nbins, out);
}

// NumPy's equal bins, step by step in NumPy's types: keep first <= x <= last (compared in K),
// j = (long long)(C(S(B(x)) - first_s) / denom * nbins), j == nbins -> nbins - 1, then the
// correction against the edges (type B): one down when x < edges[j], one up when x >= edges[j + 1].
template <typename T, typename K, typename B, typename S, typename C, bool Weighted, bool Shared>
__global__ void __launch_bounds__(kThreads) cuarray_histogram_uniform(
    const T* __restrict__ x, const double* __restrict__ w, long long n, long long nbins, K first_k, K last_k,
    S first_s, C denom, const B* __restrict__ edges, typename acc<Weighted>::global_t* __restrict__ out) {
  accumulate<Weighted, Shared>(
      [&](long long i) {
        const T v = x[i];
        if (!(K(v) >= first_k && K(v) <= last_k)) return -1LL;
        const B b = B(v);
        long long j = (long long)(C(S(b) - first_s) / denom * C(nbins));
        if (j == nbins) --j;
        if (b < edges[j]) --j;
        else if (j != nbins - 1 && b >= edges[j + 1]) ++j;
        return j;
      },
      w, n, nbins, out);
}

// Explicit sorted edges (type C, nbins + 1 of them): edges[j] <= x < edges[j + 1], the last bin
// closed; x outside [edges[0], edges[nbins]] or NaN is dropped.
template <typename T, typename C, bool Weighted, bool Shared>
__global__ void __launch_bounds__(kThreads) cuarray_histogram_edges(const T* __restrict__ x, const double* __restrict__ w,
                                                                    long long n, long long nbins,
                                                                    const C* __restrict__ edges,
                                                                    typename acc<Weighted>::global_t* __restrict__ out) {
  accumulate<Weighted, Shared>(
      [&](long long i) {
        const C v = C(x[i]);
        if (!(v >= edges[0] && v <= edges[nbins])) return -1LL;
        long long base = 0, len = nbins + 1;  // upper bound of v, minus one
        while (len > 0) {
          const long long half = len >> 1;
          if (!(v < edges[base + half])) { base += half + 1; len -= half + 1; } else { len = half; }
        }
        return base - 1 < nbins ? base - 1 : nbins - 1;
      },
      w, n, nbins, out);
}

// ---- an int `bins`, the range from the float data, no host round trip ----------------------

// 16 bytes of T (float4, double2): the data's loads when x is 16-byte aligned.
template <typename T> struct vec16;
template <> struct vec16<float> { typedef float4 type; };
template <> struct vec16<double> { typedef double2 type; };

// f(x[i]) for every i, this thread's share of a grid-stride loop: 16-byte loads (unrolled four
// times) when `aligned`, the tail (and unaligned data) one element at a time.
template <typename T, typename F>
__device__ __forceinline__ void each_value(const T* __restrict__ x, long long n, int aligned, F f) {
  typedef typename vec16<T>::type V;
  constexpr int N = sizeof(V) / sizeof(T);
  const long long tid = (long long)blockIdx.x * kThreads + threadIdx.x, stride = (long long)gridDim.x * kThreads;
  long long done = 0;
  if (aligned) {
    const long long nv = n / N;
    const V* __restrict__ xv = reinterpret_cast<const V*>(x);
#pragma unroll 4
    for (long long k = tid; k < nv; k += stride) {
      const V v = xv[k];
      const T* e = reinterpret_cast<const T*>(&v);
#pragma unroll
      for (int u = 0; u < N; ++u) f(e[u]);
    }
    done = nv * N;
  }
  for (long long i = done + tid; i < n; i += stride) f(x[i]);
}

// part[2b], part[2b + 1]: block b's smallest and largest key (key64: NaN above +inf).
template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_minmax_partials(const T* __restrict__ x, long long n, int aligned,
                                                                    unsigned long long* __restrict__ part) {
  unsigned long long lo = ~0ull, hi = 0ull;
  each_value(x, n, aligned, [&](T v) {
    const unsigned long long k = key64<T>::of(v);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  });
  cuarray::block_minmax<kThreads>(lo, hi);
  if (threadIdx.x == 0) {
    part[2 * blockIdx.x] = lo;
    part[2 * blockIdx.x + 1] = hi;
  }
}

// The value of a key64 (histograms.minmax_values does the same on the host).
template <typename T>
__device__ __forceinline__ T key_value(unsigned long long k) {
  const unsigned long long top = 0x8000000000000000ull;
  return T(__longlong_as_double((long long)((k & top) ? (k ^ top) : ~k)));
}

// One block. The (min, max) of the `nparts` partials -> state[0], state[1]; NumPy's outer edges
// (min == max: min - 0.5, max + 0.5, in T); edges = numpy.linspace(first, last, nbins + 1) in
// NumPy's steps (delta = last - first, step = delta / nbins; y = i * step, or i / nbins * delta
// when step is 0, then y + first; the last edge is `last`); params = (first, last, delta); counts
// zeroed. state[2]: 0, 1 (the range is not finite) or 2 (edges not increasing, or NaN where the
// width overflows: no finite-sized bins).
template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_histogram_auto_edges(
    const unsigned long long* __restrict__ part, int nparts, long long nbins, T* __restrict__ edges,
    T* __restrict__ params, unsigned long long* __restrict__ state, unsigned long long* __restrict__ counts) {
  unsigned long long lo = ~0ull, hi = 0ull;
  for (int b = threadIdx.x; b < nparts; b += kThreads) {
    const unsigned long long l2 = part[2 * b], h2 = part[2 * b + 1];
    lo = l2 < lo ? l2 : lo;
    hi = h2 > hi ? h2 : hi;
  }
  cuarray::block_minmax<kThreads>(lo, hi);
  for (long long j = threadIdx.x; j < nbins; j += kThreads) counts[j] = 0ull;
  __shared__ T s_first, s_last;
  __shared__ int s_bad;
  if (threadIdx.x == 0) {
    T first = key_value<T>(lo), last = key_value<T>(hi);
    const int bad = !(::isfinite(first) && ::isfinite(last));
    if (!bad && first == last) {
      first = rn::sub(first, T(0.5));
      last = rn::add(last, T(0.5));
    }
    s_first = first;
    s_last = last;
    s_bad = bad;
    state[0] = lo;
    state[1] = hi;
  }
  __syncthreads();
  const T first = s_first, last = s_last;
  if (s_bad) {
    if (threadIdx.x == 0) state[2] = 1ull;
    return;
  }
  const T div = T(nbins), delta = rn::sub(last, first), step = rn::div(delta, div);
  for (long long i = threadIdx.x; i <= nbins; i += kThreads) {
    T y = last;
    if (i < nbins) {
      const T fi = T(i);
      y = rn::add(step == T(0) ? rn::mul(rn::div(fi, div), delta) : rn::mul(fi, step), first);
    }
    edges[i] = y;
  }
  __syncthreads();
  int flat = 0;
  // not increasing, or NaN (a width past the dtype's range: 0 * inf): no finite-sized bins
  for (long long i = threadIdx.x; i < nbins; i += kThreads) flat |= !(edges[i] < edges[i + 1]);
  flat = __syncthreads_or(flat);
  if (threadIdx.x == 0) {
    params[0] = first;
    params[1] = last;
    params[2] = delta;
    state[2] = flat ? 2ull : 0ull;
  }
}

// The counts of NumPy's equal bins (cuarray_histogram_uniform's arithmetic with K = B = S = C = T)
// from the edges kernel's params; nothing when state[2] flags an error. COPIES copies of the
// bins in shared memory (warp w counts in copy w % COPIES): fewer threads per copy, fewer
// same-address atomics; summed into `out` (zeroed by the edges kernel) once per block.
template <typename T, int COPIES>
__global__ void __launch_bounds__(kThreads) cuarray_histogram_auto(
    const T* __restrict__ x, long long n, int aligned, long long nbins, const T* __restrict__ params,
    const T* __restrict__ edges, const unsigned long long* __restrict__ state, unsigned long long* __restrict__ out) {
  if (state[2]) return;
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned int* bins = reinterpret_cast<unsigned int*>(smem);
  const int nb = (int)nbins;
  for (int j = threadIdx.x; j < COPIES * nb; j += kThreads) bins[j] = 0u;
  __syncthreads();
  unsigned int* mine = bins + ((threadIdx.x >> 5) % COPIES) * nb;
  const T first = params[0], last = params[1], denom = params[2], tn = T(nbins);
  each_value(x, n, aligned, [&](T v) {
    if (!(v >= first && v <= last)) return;
    int j = (int)((v - first) / denom * tn);
    if (j == nb) --j;
    if (v < edges[j]) --j;
    else if (j != nb - 1 && v >= edges[j + 1]) ++j;
    if (j >= 0) atomicAdd(mine + j, 1u);
  });
  __syncthreads();
  for (int j = threadIdx.x; j < nb; j += kThreads) {
    unsigned int c = 0u;
#pragma unroll
    for (int k = 0; k < COPIES; ++k) c += bins[k * nb + j];
    if (c) atomicAdd(out + j, (unsigned long long)c);
  }
}

}  // namespace histograms
}  // namespace cuarray
