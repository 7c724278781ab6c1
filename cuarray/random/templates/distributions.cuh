// cuarray/random/templates/distributions.cuh: samplers, one struct per distribution family.
//
// Three shapes of sampler (random.cu's cuarray_random_fill<D, T> runs any of them):
//   from_uniform<Op>: four uniforms per group of four outputs (float: one Philox block; double:
//                     two), then a closed-form transform (inversion): no loop.
//   from_normal<Op>:  four normals per group by Box-Muller (two pairs), then a transform.
//   sequential<Op>:   Op::sample draws what it needs from the group's stream, one output after
//                     the other (rejection samplers: Marsaglia-Tsang, PTRS, BTRS, ...). Every
//                     loop accepts with probability bounded away from 0, so it terminates.
// Parameters arrive as doubles (a, b, c); integer-valued outputs are computed in double.
#pragma once

namespace cuarray {
namespace random {

constexpr double kPi = 3.14159265358979323846;

// ---- helpers on a stream -------------------------------------------------------------------

// A uniform integer in [0, rng] (inclusive), unbiased: Lemire's multiply-shift with rejection.
__device__ __forceinline__ unsigned interval32(stream& s, unsigned rng) {
  if (rng == 0xFFFFFFFFu) return s.next32();
  const unsigned r = rng + 1u;
  unsigned long long m = (unsigned long long)s.next32() * r;
  unsigned l = (unsigned)m;
  if (l < r) {
    const unsigned t = (0u - r) % r;
    while (l < t) {
      m = (unsigned long long)s.next32() * r;
      l = (unsigned)m;
    }
  }
  return (unsigned)(m >> 32);
}

__device__ __forceinline__ unsigned long long interval64(stream& s, unsigned long long rng) {
  if (rng <= 0xFFFFFFFFull) return interval32(s, (unsigned)rng);
  if (rng == ~0ull) return s.next64();
  const unsigned long long r = rng + 1ull;
  unsigned long long x = s.next64();
  unsigned long long lo = x * r;
  if (lo < r) {
    const unsigned long long t = (0ull - r) % r;
    while (lo < t) {
      x = s.next64();
      lo = x * r;
    }
  }
  return __umul64hi(x, r);
}

// One standard normal (Box-Muller; the second value of each pair is kept for the next call).
__device__ __forceinline__ double normal_d(stream& s) {
  if (s.has_spare) {
    s.has_spare = false;
    return s.spare;
  }
  const double u = 1.0 - s.next_double();  // (0, 1]
  const double v = s.next_double();
  const double r = sqrt(-2.0 * log(u));
  double sn, cs;
  sincospi(2.0 * v, &sn, &cs);
  s.spare = r * sn;
  s.has_spare = true;
  return r * cs;
}

__device__ __forceinline__ double exponential_d(stream& s) { return -log1p(-s.next_double()); }

// log(k!) for an integer-valued k >= 0, the acceptance tests' cost: a table below 8, the Stirling
// series above (first omitted term 691 / (360360 x^11): below 1e-14 relative from k = 8 on).
// One log and one division, against the general lgamma(double) the tests called before.
__device__ __forceinline__ double log_factorial(double k) {
  if (k < 8.0) {
    const int i = (int)k;
    const double t[8] = {0.0, 0.0, 0.693147180559945, 1.7917594692280554, 3.178053830347945, 4.787491742782047, 6.579251212010102, 8.525161361065415};
    double r = t[0];
#pragma unroll
    for (int j = 1; j < 8; ++j) r = i == j ? t[j] : r;  // selects: no local-memory table
    return r;
  }
  const double x = k + 1.0, r = 1.0 / x, r2 = r * r;
  const double series = r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 * (1.0 / 1680 - r2 * (1.0 / 1188)))));
  return (x - 0.5) * log(x) - x + 0.91893853320467274178 + series;
}

// ---- rejection samplers as (prepare, begin, attempt) ------------------------------------------
// A rejection sampler is written as three steps so that the `rejection<Op>` group below can run
// one attempt per loop trip: the lanes of a warp then wait for the slowest lane's whole group of
// four, not for the slowest lane of each of the four outputs in turn. prepare() computes what
// depends on the parameters only (once per group when they are scalars), begin() draws what one
// output draws before its attempts, attempt() draws one candidate and says if it was accepted.
// The words drawn, and so the values, are the same as a plain loop's (the *_d functions below).

// Marsaglia-Tsang for shape >= 1; shape < 1 through Gamma(shape + 1) * U^(1/shape).
struct gamma_state {
  double d, c, inv_shape, boost, scale;
  int kind;  // 0: Marsaglia-Tsang, 1: exponential (shape 1), 2: zero (shape 0)
};
__device__ __forceinline__ gamma_state gamma_prepare(double shape, double scale) {
  gamma_state st;
  st.scale = scale;
  st.kind = shape == 1.0 ? 1 : (shape == 0.0 ? 2 : 0);
  st.inv_shape = shape < 1.0 ? 1.0 / shape : 0.0;
  st.boost = 1.0;
  const double sh = shape < 1.0 ? shape + 1.0 : shape;
  st.d = sh - 1.0 / 3.0;
  st.c = 1.0 / sqrt(9.0 * st.d);
  return st;
}
__device__ __forceinline__ void gamma_begin(stream& s, gamma_state& st) {
  if (st.kind == 0 && st.inv_shape != 0.0) st.boost = pow(1.0 - s.next_double(), st.inv_shape);
}
__device__ __forceinline__ bool gamma_attempt(stream& s, const gamma_state& st, double& out) {
  if (st.kind == 1) {
    out = st.scale * exponential_d(s);
    return true;
  }
  if (st.kind == 2) {
    out = 0.0;
    return true;
  }
  double x, v;
  do {
    x = normal_d(s);
    v = 1.0 + st.c * x;
  } while (v <= 0.0);
  v = v * v * v;
  const double u = 1.0 - s.next_double();
  out = st.scale * (st.boost * st.d * v);
  if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return true;
  return log(u) < 0.5 * x * x + st.d * (1.0 - v + log(v));
}
__device__ double gamma_d(stream& s, double shape) {
  gamma_state st = gamma_prepare(shape, 1.0);
  gamma_begin(s, st);
  double x;
  while (!gamma_attempt(s, st, x)) {
  }
  return x;
}

__device__ __forceinline__ double chisquare_d(stream& s, double df) { return 2.0 * gamma_d(s, 0.5 * df); }

// Poisson: inversion (sequential search from 0) below lam = 15, PTRS (Hormann 1993) above; both
// exact. NumPy switches at 10; on the GPU inversion stays cheaper up to between 10 and 20 (a
// warp waits for its slowest lane either way: docs/perf-notes.md, "poisson(10) of 1e8").
// CUARRAY_POISSON_INV_MAX (random/_kernels.py) moves the switch, to measure.
#ifndef CUARRAY_POISSON_INV_MAX
#define CUARRAY_POISSON_INV_MAX 15.0
#endif
struct poisson_state {
  double lam, expm, slam, loglam, a, b, linvalpha, vr;
  int kind;  // 0: PTRS, 1: inversion, 2: zero
};
__device__ __forceinline__ poisson_state poisson_prepare(double lam) {
  poisson_state st;
  st.lam = lam;
  st.kind = lam == 0.0 ? 2 : (lam < CUARRAY_POISSON_INV_MAX ? 1 : 0);
  st.expm = st.kind == 1 ? exp(-lam) : 0.0;
  st.slam = sqrt(lam);
  st.loglam = log(lam);
  st.b = 0.931 + 2.53 * st.slam;
  st.a = -0.059 + 0.02483 * st.b;
  st.linvalpha = log(1.1239 + 1.1328 / (st.b - 3.4));
  st.vr = 0.9277 - 3.6224 / (st.b - 2.0);
  return st;
}
__device__ __forceinline__ bool poisson_attempt(stream& s, const poisson_state& st, double& out) {
  if (st.kind == 2) {
    out = 0.0;
    return true;
  }
  if (st.kind == 1) {  // one uniform, at most ~lam + a few steps on average
    double u = s.next_double(), p = st.expm, k = 0.0;
    while (u > p && k < 1000.0) {  // the cap only guards against rounding at the far tail
      u -= p;
      k += 1.0;
      p *= st.lam / k;
    }
    out = k;
    return true;
  }
  const double u = s.next_double() - 0.5, v = s.next_double();
  const double us = 0.5 - fabs(u);
  const double k = floor((2.0 * st.a / us + st.b) * u + st.lam + 0.43);
  out = k;
  if (us >= 0.07 && v <= st.vr) return true;
  if (k < 0.0 || (us < 0.013 && v > us)) return false;
  return log(v) + st.linvalpha - log(st.a / (us * us) + st.b) <= -st.lam + k * st.loglam - log_factorial(k);
}
__device__ double poisson_d(stream& s, double lam) {
  const poisson_state st = poisson_prepare(lam);
  double x;
  while (!poisson_attempt(s, st, x)) {
  }
  return x;
}

// Binomial: inversion when n * min(p, 1 - p) < 10, BTRS (Hormann 1993) otherwise.
struct binomial_state {
  double n, pp, qn, r, g, a, b, c, vr, alpha, lpq, m, h;
  bool flip;
  int kind;  // 0: BTRS, 1: inversion, 2: zero, 3: n
};
__device__ __forceinline__ binomial_state binomial_prepare(double n, double p) {
  binomial_state st;
  st.n = n;
  st.kind = (n == 0.0 || p == 0.0) ? 2 : (p == 1.0 ? 3 : 0);
  st.flip = p > 0.5;
  st.pp = st.flip ? 1.0 - p : p;
  const double q = 1.0 - st.pp;
  if (st.kind == 0 && n * st.pp < 10.0) {
    st.kind = 1;
    st.qn = exp(n * log1p(-st.pp));
    st.r = st.pp / q;
    st.g = st.r * (n + 1.0);
  } else if (st.kind == 0) {
    const double spq = sqrt(n * st.pp * q);
    st.b = 1.15 + 2.53 * spq;
    st.a = -0.0873 + 0.0248 * st.b + 0.01 * st.pp;
    st.c = n * st.pp + 0.5;
    st.vr = 0.92 - 4.2 / st.b;
    st.alpha = (2.83 + 5.1 / st.b) * spq;
    st.lpq = log(st.pp / q);
    st.m = floor((n + 1.0) * st.pp);
    st.h = log_factorial(st.m) + log_factorial(n - st.m);
  }
  return st;
}
__device__ __forceinline__ bool binomial_attempt(stream& s, const binomial_state& st, double& out) {
  if (st.kind >= 2) {
    out = st.kind == 2 ? 0.0 : st.n;
    return true;
  }
  double k;
  if (st.kind == 1) {
    double u = s.next_double(), f = st.qn;
    k = 0.0;
    while (u > f && k < st.n) {  // walk the pmf; rounding can only end the walk at n
      u -= f;
      k += 1.0;
      f *= st.g / k - st.r;
    }
  } else {
    const double u = s.next_double() - 0.5, v0 = s.next_double();
    const double us = 0.5 - fabs(u);
    k = floor((2.0 * st.a / us + st.b) * u + st.c);
    if (k < 0.0 || k > st.n) return false;
    if (!(us >= 0.07 && v0 <= st.vr)) {
      const double v = log(v0 * st.alpha / (st.a / (us * us) + st.b));
      if (!(v <= st.h - log_factorial(k) - log_factorial(st.n - k) + (k - st.m) * st.lpq)) return false;
    }
  }
  out = st.flip ? st.n - k : k;
  return true;
}
__device__ double binomial_d(stream& s, double n, double p) {
  const binomial_state st = binomial_prepare(n, p);
  double x;
  while (!binomial_attempt(s, st, x)) {
  }
  return x;
}

__device__ double beta_d(stream& s, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {  // Johnk, in logs when both powers underflow (as NumPy)
    for (;;) {
      const double u = s.next_double(), v = s.next_double();
      const double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b), xy = x + y;
      if (xy <= 1.0 && u + v > 0.0) {
        if (xy > 0.0) return x / xy;
        double lx = log(u) / a, ly = log(v) / b;
        const double lm = lx > ly ? lx : ly;
        lx -= lm;
        ly -= lm;
        return exp(lx - log(exp(lx) + exp(ly)));
      }
    }
  }
  const double x = gamma_d(s, a), y = gamma_d(s, b);
  return x / (x + y);
}

__device__ double noncentral_chisquare_d(stream& s, double df, double nonc) {
  if (nonc == 0.0) return chisquare_d(s, df);
  if (df > 1.0) {
    const double chi2 = chisquare_d(s, df - 1.0), n = normal_d(s) + sqrt(nonc);
    return chi2 + n * n;
  }
  const double i = poisson_d(s, nonc / 2.0);
  return chisquare_d(s, df + 2.0 * i);
}

// von Mises (Best & Fisher 1979, as NumPy's Generator): uniform below kappa 1e-8, wrapped normal
// above 1e6.
__device__ double vonmises_d(stream& s, double mu, double kappa) {
  if (kappa < 1e-8) return kPi * (2.0 * s.next_double() - 1.0);
  double res;
  if (kappa > 1e6) {
    res = mu + sqrt(1.0 / kappa) * normal_d(s);
  } else {
    double sv;
    if (kappa < 1e-5) {
      sv = 1.0 / kappa + kappa;
    } else {
      const double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa), rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
      sv = (1.0 + rho * rho) / (2.0 * rho);
    }
    double w;
    for (;;) {
      const double u = s.next_double(), z = cospi(u);
      w = (1.0 + sv * z) / (sv + z);
      const double y = kappa * (sv - w), v = s.next_double();
      if (y * (2.0 - y) - v >= 0.0 || log(y / v) + 1.0 - y >= 0.0) break;
    }
    res = acos(w);
    if (s.next_double() < 0.5) res = -res;
    res += mu;
  }
  const bool neg = res < 0.0;
  double m = fmod(fabs(res) + kPi, 2.0 * kPi) - kPi;
  return neg ? -m : m;
}

// Zipf by rejection (Devroye, as NumPy).
__device__ double zipf_d(stream& s, double a) {
  const double am1 = a - 1.0, b = pow(2.0, am1);
  for (;;) {
    const double u = 1.0 - s.next_double(), v = s.next_double();
    const double x = floor(pow(u, -1.0 / am1));
    if (x > 9.2233720368547758e18 || x < 1.0) continue;
    const double t = pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return x;
  }
}

// Logarithmic series (Kemp's second method, as NumPy).
__device__ double logseries_d(stream& s, double p) {
  const double r = log1p(-p);
  for (;;) {
    const double v = s.next_double();
    if (v >= p) return 1.0;
    const double u = s.next_double(), q = -expm1(r * u);
    if (v <= q * q) {
      const double res = floor(1.0 + log(v) / log(q));
      if (res < 1.0 || v == 0.0) continue;
      return res;
    }
    return v >= q ? 1.0 : 2.0;
  }
}

// Hypergeometric by drawing from the urn (O(min(nsample, total - nsample)) words per output).
__device__ double hypergeometric_d(stream& s, double good_d, double bad_d, double sample_d) {
  const long long good = (long long)good_d, bad = (long long)bad_d, sample = (long long)sample_d;
  const long long total = good + bad;
  long long computed = sample > total / 2 ? total - sample : sample;
  long long rem_total = total, rem_good = good;
  while (computed > 0 && rem_good > 0 && rem_total > rem_good) {
    --rem_total;
    if ((long long)interval64(s, (unsigned long long)rem_total) < rem_good) --rem_good;
    --computed;
  }
  if (rem_total == rem_good) rem_good -= computed;
  return (double)(sample > total / 2 ? rem_good : good - rem_good);
}

// ---- the three sampler shapes --------------------------------------------------------------

// Parameters of element i: a device array (broadcast to the output, contiguous) or a scalar.
struct params3 {
  const double* p[3];
  double s[3];
  __device__ __forceinline__ double get(int j, long long i) const { return p[j] ? p[j][i] : s[j]; }
};

template <typename T>
struct uniform4;
template <>
struct uniform4<float> {
  static __device__ __forceinline__ void run(stream& s, float* u, bool open) {
    const uint4 w = s.block();
    u[0] = open ? u24_open(w.x) : u24(w.x);
    u[1] = open ? u24_open(w.y) : u24(w.y);
    u[2] = open ? u24_open(w.z) : u24(w.z);
    u[3] = open ? u24_open(w.w) : u24(w.w);
  }
};
template <>
struct uniform4<double> {
  static __device__ __forceinline__ void run(stream& s, double* u, bool open) {
    const uint4 w0 = s.block(), w1 = s.block();
    const unsigned long long a = w0.x | ((unsigned long long)w0.y << 32), b = w0.z | ((unsigned long long)w0.w << 32);
    const unsigned long long c = w1.x | ((unsigned long long)w1.y << 32), d = w1.z | ((unsigned long long)w1.w << 32);
    u[0] = open ? u53_open(a) : u53(a);
    u[1] = open ? u53_open(b) : u53(b);
    u[2] = open ? u53_open(c) : u53(c);
    u[3] = open ? u53_open(d) : u53(d);
  }
};

// C: the type the transform computes in (float for float outputs, double otherwise).
template <typename T> struct compute_type { using type = double; };
template <> struct compute_type<float> { using type = float; };

template <typename Op>
struct from_uniform {
  template <typename T>
  static __device__ __forceinline__ void group(stream& s, T* v, const params3& p, long long i0, int cnt) {
    using C = typename compute_type<T>::type;
    C u[4];
    uniform4<C>::run(s, u, Op::kOpen);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (k < cnt) {
        const long long i = i0 + k;
        v[k] = (T)Op::f(u[k], Op::kParams > 0 ? p.get(0, i) : 0.0, Op::kParams > 1 ? p.get(1, i) : 0.0,
                        Op::kParams > 2 ? p.get(2, i) : 0.0);
      }
  }
};

// float32 Box-Muller with the hardware approximations (lg2.approx, sin/cos.approx; absolute
// errors ~1e-6 on r and on sin/cos, far below float32 sampling noise): the precise logf and
// sincospif made standard_normal(float32) of 1 Gi compute-bound (2.41 ms against 1.30 ms for
// random(), H100). The angle is taken in [-pi, pi), where __sincosf is accurate.
__device__ __forceinline__ void box_muller(float u, float v, float& z0, float& z1) {
  const float r = sqrtf(-1.3862943611198906f * __log2f(1.0f - u));  // -2 ln(1 - u), 1 - u in (0, 1]
  float sn, cs;
  __sincosf(6.2831853071795865f * (v - 0.5f), &sn, &cs);
  z0 = r * cs;
  z1 = r * sn;
}
__device__ __forceinline__ void box_muller(double u, double v, double& z0, double& z1) {
  const double r = sqrt(-2.0 * log(1.0 - u));
  double sn, cs;
  sincospi(2.0 * v, &sn, &cs);
  z0 = r * cs;
  z1 = r * sn;
}

template <typename Op>
struct from_normal {
  template <typename T>
  static __device__ __forceinline__ void group(stream& s, T* v, const params3& p, long long i0, int cnt) {
    using C = typename compute_type<T>::type;
    C u[4], z[4];
    uniform4<C>::run(s, u, false);
    box_muller(u[0], u[1], z[0], z[1]);
    box_muller(u[2], u[3], z[2], z[3]);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (k < cnt) {
        const long long i = i0 + k;
        v[k] = (T)Op::f(z[k], Op::kParams > 0 ? p.get(0, i) : 0.0, Op::kParams > 1 ? p.get(1, i) : 0.0);
      }
  }
};

template <typename Op>
struct sequential {
  template <typename T>
  static __device__ __forceinline__ void group(stream& s, T* v, const params3& p, long long i0, int cnt) {
    for (int k = 0; k < cnt; ++k) {
      const long long i = i0 + k;
      v[k] = (T)Op::sample(s, Op::kParams > 0 ? p.get(0, i) : 0.0, Op::kParams > 1 ? p.get(1, i) : 0.0,
                           Op::kParams > 2 ? p.get(2, i) : 0.0);
    }
  }
};

// One attempt per loop trip (see "rejection samplers" above); Op gives state/prepare/begin/attempt.
template <typename Op>
struct rejection {
  template <typename T>
  static __device__ __forceinline__ void group(stream& s, T* v, const params3& p, long long i0, int cnt) {
    const bool arrays = p.p[0] || p.p[1] || p.p[2];
    typename Op::state st = Op::prepare(p.get(0, i0), Op::kParams > 1 ? p.get(1, i0) : 0.0);
    Op::begin(s, st);
    int k = 0;
    while (k < cnt) {
      double x;
      if (Op::attempt(s, st, x)) {
        v[k] = (T)x;
        if (++k < cnt) {
          if (arrays) st = Op::prepare(p.get(0, i0 + k), Op::kParams > 1 ? p.get(1, i0 + k) : 0.0);
          Op::begin(s, st);
        }
      }
    }
  }
};

}  // namespace random
}  // namespace cuarray
