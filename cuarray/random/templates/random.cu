// cuarray/random/templates/random.cu: the sampling kernels of cuarray.random (the Python side is
// cuarray/random/_kernels.py, which prepends philox.cuh and distributions.cuh).
//
// cuarray_random_fill<D, T>: one thread per group of four outputs; D (a from_uniform / from_normal /
// sequential sampler) fills the group, and a full aligned group is written with one vector store
// (16 bytes for float32, 2 x 16 for 8-byte types). The grid has no influence on the values.
// cuarray_random_integers<T>: [low, low + rng] by Lemire's unbiased method, per element bounds
// optional (arrays broadcast to the output, contiguous).

namespace cuarray {
namespace random {

// ---- transforms of uniforms: f(u, a, b, c) ------------------------------------------------
#define CUARRAY_UNIFORM_OP(NAME, OPEN, NPARAMS, ...)                                  \
  struct NAME {                                                                        \
    static constexpr bool kOpen = OPEN;                                                \
    static constexpr int kParams = NPARAMS;                                            \
    template <typename C>                                                              \
    static __device__ __forceinline__ C f(C u, double a, double b, double c) { __VA_ARGS__; } \
  };

CUARRAY_UNIFORM_OP(op_random, false, 0, return u)
CUARRAY_UNIFORM_OP(op_uniform, false, 2, return a + (b - a) * (double)u)
CUARRAY_UNIFORM_OP(op_standard_exponential, false, 0, return -log1p(-u))
CUARRAY_UNIFORM_OP(op_exponential, false, 1, return a * -log1p(-(double)u))
CUARRAY_UNIFORM_OP(op_gumbel, true, 2, return a - b * log(-log((double)u)))
CUARRAY_UNIFORM_OP(op_laplace, true, 2,
                   const double x = u; return x < 0.5 ? a + b * log(2.0 * x) : a - b * log(2.0 - 2.0 * x))
CUARRAY_UNIFORM_OP(op_logistic, true, 2, const double x = u; return a + b * log(x / (1.0 - x)))
CUARRAY_UNIFORM_OP(op_rayleigh, false, 1, return a * sqrt(-2.0 * log1p(-(double)u)))
CUARRAY_UNIFORM_OP(op_weibull, false, 1, return a == 0.0 ? 0.0 : pow(-log1p(-(double)u), 1.0 / a))
CUARRAY_UNIFORM_OP(op_pareto, false, 1, return expm1(-log1p(-(double)u) / a))
CUARRAY_UNIFORM_OP(op_power, false, 1, return pow(-expm1(log1p(-(double)u)), 1.0 / a))
CUARRAY_UNIFORM_OP(op_geometric, true, 1,
                   if (a >= 1.0) return 1.0; const double k = ceil(log((double)u) / log1p(-a));
                   return k < 1.0 ? 1.0 : k)
CUARRAY_UNIFORM_OP(op_triangular, false, 3,
                   const double x = u; const double base = c - a, lb = b - a; const double ratio = lb / base;
                   if (x <= ratio) return a + sqrt(x * lb * base); return c - sqrt((1.0 - x) * (c - b) * base))
#undef CUARRAY_UNIFORM_OP

// ---- transforms of normals: f(z, a, b) -------------------------------------------------------
struct op_standard_normal {
  static constexpr int kParams = 0;
  template <typename C>
  static __device__ __forceinline__ C f(C z, double, double) { return z; }
};
struct op_normal {
  static constexpr int kParams = 2;
  template <typename C>
  static __device__ __forceinline__ double f(C z, double loc, double scale) { return loc + scale * (double)z; }
};
struct op_lognormal {
  static constexpr int kParams = 2;
  template <typename C>
  static __device__ __forceinline__ double f(C z, double mean, double sigma) { return exp(mean + sigma * (double)z); }
};

// ---- sequential samplers: sample(stream, a, b, c) ---------------------------------------------
#define CUARRAY_SEQ_OP(NAME, NPARAMS, ...)                                                     \
  struct NAME {                                                                                 \
    static constexpr int kParams = NPARAMS;                                                     \
    static __device__ __forceinline__ double sample(stream& s, double a, double b, double c) { \
      __VA_ARGS__;                                                                                   \
    }                                                                                           \
  };

CUARRAY_SEQ_OP(op_beta, 2, return beta_d(s, a, b))
CUARRAY_SEQ_OP(op_chisquare, 1, return chisquare_d(s, a))
CUARRAY_SEQ_OP(op_noncentral_chisquare, 2, return noncentral_chisquare_d(s, a, b))
CUARRAY_SEQ_OP(op_f, 2, return (chisquare_d(s, a) * b) / (chisquare_d(s, b) * a))
CUARRAY_SEQ_OP(op_noncentral_f, 3,
               const double t = noncentral_chisquare_d(s, a, c) * b; return t / (chisquare_d(s, b) * a))
CUARRAY_SEQ_OP(op_standard_t, 1, const double n = normal_d(s); const double g = gamma_d(s, a / 2.0);
               return sqrt(a / 2.0) * n / sqrt(g))
CUARRAY_SEQ_OP(op_standard_cauchy, 0, const double n = normal_d(s); return n / normal_d(s))
CUARRAY_SEQ_OP(op_negative_binomial, 2, return poisson_d(s, gamma_d(s, a) * (1.0 - b) / b))
CUARRAY_SEQ_OP(op_wald, 2,
               const double mu_2l = a / (2.0 * b); double y = normal_d(s); y = a * y * y;
               const double x = a + mu_2l * (y - sqrt(4.0 * b * y + y * y)); const double u = s.next_double();
               return u <= a / (a + x) ? x : a * a / x)
CUARRAY_SEQ_OP(op_vonmises, 2, return vonmises_d(s, a, b))
CUARRAY_SEQ_OP(op_zipf, 1, return zipf_d(s, a))
CUARRAY_SEQ_OP(op_logseries, 1, return logseries_d(s, a))
CUARRAY_SEQ_OP(op_hypergeometric, 3, return hypergeometric_d(s, a, b, c))
#undef CUARRAY_SEQ_OP

// ---- rejection samplers run by rejection<Op>: state, prepare(a, b), begin, attempt ------------------
#define CUARRAY_REJECTION_OP(NAME, NPARAMS, FAMILY, PREPARE)                                        \
  struct NAME {                                                                                     \
    static constexpr int kParams = NPARAMS;                                                         \
    using state = FAMILY##_state;                                                                   \
    static __device__ __forceinline__ state prepare(double a, double b) { return PREPARE; }         \
    static __device__ __forceinline__ void begin(stream& s, state& st) { FAMILY##_begin(s, st); }   \
    static __device__ __forceinline__ bool attempt(stream& s, const state& st, double& x) {         \
      return FAMILY##_attempt(s, st, x);                                                            \
    }                                                                                               \
  };
__device__ __forceinline__ void poisson_begin(stream&, poisson_state&) {}
__device__ __forceinline__ void binomial_begin(stream&, binomial_state&) {}
CUARRAY_REJECTION_OP(op_standard_gamma, 1, gamma, gamma_prepare(a, 1.0))
CUARRAY_REJECTION_OP(op_gamma, 2, gamma, gamma_prepare(a, b))
CUARRAY_REJECTION_OP(op_poisson, 1, poisson, poisson_prepare(a))
CUARRAY_REJECTION_OP(op_binomial, 2, binomial, binomial_prepare(a, b))
#undef CUARRAY_REJECTION_OP

template <typename T>
struct alignas(4 * sizeof(T)) group4 {
  T v[4];
};

}  // namespace random
}  // namespace cuarray

template <typename D, typename T>
__global__ void cuarray_random_fill(T* __restrict__ out, const long long n, const unsigned k0, const unsigned k1,
                                    const unsigned call, const double* p0, const double* p1, const double* p2,
                                    const double s0, const double s1, const double s2) {
  using namespace cuarray::random;
  const long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long i0 = 4 * g;
  if (i0 >= n) return;
  const int cnt = n - i0 < 4 ? (int)(n - i0) : 4;
  stream s(k0, k1, (unsigned long long)g, call);
  params3 p;
  p.p[0] = p0, p.p[1] = p1, p.p[2] = p2, p.s[0] = s0, p.s[1] = s1, p.s[2] = s2;
  group4<T> v;
  D::template group<T>(s, v.v, p, i0, cnt);
  T* dst = out + i0;
  if (cnt == 4 && ((unsigned long long)dst % sizeof(group4<T>)) == 0) {
    *reinterpret_cast<group4<T>*>(dst) = v;
  } else {
    for (int k = 0; k < cnt; ++k) dst[k] = v.v[k];
  }
}

// out[i] = low + interval(rng): scalars (low_s, rng_s) or per-element arrays (lows, highs: the
// inclusive bounds as int64 / uint64 bit patterns). U: unsigned 32 or 64 (the widest range).
template <typename T, typename U>
__global__ void cuarray_random_integers(T* __restrict__ out, const long long n, const unsigned k0, const unsigned k1,
                                        const unsigned call, const unsigned long long* lows,
                                        const unsigned long long* highs, const unsigned long long low_s,
                                        const unsigned long long rng_s) {
  using namespace cuarray::random;
  const long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long i0 = 4 * g;
  if (i0 >= n) return;
  const int cnt = n - i0 < 4 ? (int)(n - i0) : 4;
  stream s(k0, k1, (unsigned long long)g, call);
  group4<T> v;
  // The group's first block gives each output its first word; rejections (probability below
  // range / 2^32) and 64-bit ranges draw further blocks from the stream. Going through the
  // stream for every word measured 2.36 ms for 1 Gi int32 against 1.30 ms for random() (H100).
  const uint4 w = s.block();
  const unsigned first[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (k < cnt) {
      unsigned long long lo = low_s, rng = rng_s;
      if (lows) {
        lo = lows[i0 + k];
        rng = highs[i0 + k] - lo;
      }
      unsigned long long x;
      if (sizeof(U) == 4 || rng <= 0xFFFFFFFFull) {
        const unsigned r32 = (unsigned)rng;
        if (r32 == 0xFFFFFFFFu) {
          x = first[k];
        } else {
          const unsigned r = r32 + 1u;
          unsigned long long m = (unsigned long long)first[k] * r;
          if ((unsigned)m < r) {
            const unsigned t = (0u - r) % r;
            while ((unsigned)m < t) m = (unsigned long long)s.next32() * r;
          }
          x = m >> 32;
        }
      } else {
        x = interval64(s, rng);
      }
      v.v[k] = (T)(lo + x);
    }
  T* dst = out + i0;
  if (cnt == 4 && ((unsigned long long)dst % sizeof(group4<T>)) == 0) {
    *reinterpret_cast<group4<T>*>(dst) = v;
  } else {
    for (int k = 0; k < cnt; ++k) dst[k] = v.v[k];
  }
}

// choice with probabilities (replace=True): out[i] = the first j with cdf[j] > u * cdf[m - 1].
__global__ void cuarray_random_choice_cdf(long long* __restrict__ out, const long long n, const unsigned k0,
                                          const unsigned k1, const unsigned call, const double* __restrict__ cdf,
                                          const long long m) {
  using namespace cuarray::random;
  const long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long i0 = 4 * g;
  if (i0 >= n) return;
  stream s(k0, k1, (unsigned long long)g, call);
  const double total = cdf[m - 1];
  for (int k = 0; k < 4 && i0 + k < n; ++k) {
    const double u = s.next_double() * total;
    long long lo = 0, hi = m - 1;  // the answer is in [lo, hi]
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      if (cdf[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    out[i0 + k] = lo;
  }
}
