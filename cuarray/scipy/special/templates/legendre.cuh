// The associated Legendre function of cuarray.scipy.special: lpmv(m, v, x) = P_v^m(x), the Ferrers
// function of integer order m and real degree v on [-1, 1], with the Condon-Shortley phase (-1)^m
// (SciPy's convention). The case structure is that of Zhang & Jin's LPMV ("Computation of Special
// Functions", 1996, section 4.5; SciPy's lpmv is its port):
//  - v < 0 is reflected to -v - 1 (P_v = P_-v-1); a negative order comes from the positive one,
//    P_v^-m = (-1)^m Gamma(v-m+1)/Gamma(v+m+1) P_v^m (NaN for an integer degree below |m|, as SciPy);
//  - degrees above m + 2 by the upward recurrence (v-m+1) P_v+1 = (2v+1) x P_v - (v+m) P_v-1 from
//    the degrees m + f and m + f + 1 (f the fractional part), whose series below do not cancel;
//    for x < 0 not near -1 and m >= 2, P_v^0 and P_v^1 that way and then upward in the order
//    (our change: the degree recurrence there loses up to 1e-2, SciPy's LPMV as well);
//  - x >= 0 (or an integer degree, by the parity P_n^m(-x) = (-1)^(n+m) P_n^m(x)): the series
//    (-1)^m Gamma(v+m+1)/(Gamma(v-m+1) 2^m m!) (1-x^2)^(m/2) F(m-v, m+v+1; m+1; (1-x)/2), its
//    argument at most 1/2 (DLMF 14.3.1 with Euler's transformation);
//  - x < 0, non-integer degree: the same F continued to w = (1+x)/2 by A&S 15.3.12 (c = a + b - m,
//    the logarithmic case; 15.3.10 for m = 0), simplified with Gamma(z) Gamma(1-z) = pi / sin(pi z):
//    P = -(sin pi v / pi) ((1-w)/w)^(m/2) sum_{n<m} (-1)^n (m-1-n)! (-v)_n (v+1)_n w^n / n!
//        + (sin pi v / pi) (Gamma(v+m+1)/(Gamma(v-m+1) m!)) (w(1-w))^(m/2)
//          sum_n (m-v)_n (m+v+1)_n m! w^n / (n! (n+m)!) [ln w - psi(n+1) - psi(n+m+1) + psi(m-v+n) + psi(m+v+1+n)],
//    again with w at most 1/2. At x = -1 a non-integer degree gives +-inf (SciPy's sign rule, below).
// Sums with v are ordered (integer part first) so that each rounds once: (v - m) + j loses v's
// digits when v is tiny.
// Outside [-1, 1] only m = 0 with an integer degree (the Legendre polynomial) is defined here;
// the rest is NaN. Float loops compute in double, as SciPy's do.
// The two series and the degree path are out of line (CSF_NOINLINE): inlined, the degree path's
// three calls with two of each series apiece (psi twice in the log series) made NVRTC take 11 s
// and a 650 KB cubin for one loop; out of line 0.8 s. None calls itself: the stack stays sized.
#ifndef CUARRAY_SPECIAL_LEGENDRE_CUH
#define CUARRAY_SPECIAL_LEGENDRE_CUH
namespace cuarray_special {

// P_v^m(x), m >= 0, 0 <= x <= 1 (or any degree with the series terminating): the series in (1-x)/2.
CSF_NOINLINE double lpmv_series(int m, double v, double x) {
  const double s = sqrt((1.0 - x) * (1.0 + x));
  double c = 1.0;
  for (int j = 1; j <= m; ++j) c *= (v + j) * (v - (m - j)) * s / (2.0 * j);
  if (m & 1) c = -c;
  const double z = 0.5 * (1.0 - x);
  double f = 1.0, t = 1.0;
  for (int k = 0; k < 1000; ++k) {
    t *= ((m + k) - v) * (v + (m + 1 + k)) / ((m + 1.0 + k) * (k + 1.0)) * z;
    f += t;
    if (fabs(t) <= 1e-17 * fabs(f)) break;
  }
  return c * f;
}

// P_v^m(x), m >= 0, -1 < x < 0, v not an integer: A&S 15.3.12 in w = (1+x)/2 (header comment).
CSF_NOINLINE double lpmv_log_series(int m, double v, double x) {
  const double w = 0.5 * (1.0 + x), sp = sin(k_pi * (v - 2.0 * floor(0.5 * v))) / k_pi;
  double first = 0.0;
  if (m > 0) {
    double u = 1.0;  // (m-1)!
    for (int j = 2; j < m; ++j) u *= j;
    double s = u;
    for (int n = 0; n + 1 < m; ++n) {
      u *= -(n - v) * (v + (1 + n)) * w / ((n + 1.0) * (m - 1.0 - n));
      s += u;
    }
    first = -sp * pow((1.0 - w) / w, 0.5 * m) * s;
  }
  double c = 1.0;  // Gamma(v+m+1)/(Gamma(v-m+1) m!) (w(1-w))^(m/2)
  const double r = sqrt(w * (1.0 - w));
  for (int j = 1; j <= m; ++j) c *= (v + j) * (v - (m - j)) * r / j;
  const double lw = log(w);
  double p1 = -k_euler, pm = -k_euler;  // psi(n+1), psi(n+m+1)
  for (int j = 1; j <= m; ++j) pm += 1.0 / j;
  double pa = psi(m - v), pb = psi(m + v + 1.0);  // psi(m-v+n), psi(m+v+1+n)
  double t = 1.0, s = 0.0;
  for (int n = 0; n < 1000; ++n) {
    const double term = t * (lw - p1 - pm + pa + pb);
    s += term;
    if (n > 0 && fabs(term) <= 1e-17 * fabs(s)) break;
    t *= ((m + n) - v) * (v + (m + 1 + n)) / ((n + 1.0) * (n + m + 1.0)) * w;
    p1 += 1.0 / (n + 1);
    pm += 1.0 / (n + m + 1);
    pa += 1.0 / ((m + n) - v);
    pb += 1.0 / (v + (m + 1 + n));
  }
  return first + sp * c * s;
}

// P_v^m(x) for m >= 0, v >= 0, |x| <= 1 (x > -1 unless v is an integer) where lpmv_pos below
// has neither reflected x nor recurred in the order: by the degree recurrence or a series. Apart
// so that no function here calls itself (a recursive call graph leaves a kernel's stack size
// unknown to ptxas: see beta.cuh).
CSF_NOINLINE double lpmv_pos_degree(int m, double v, double x) {
  const double nv = floor(v), f = v - nv;
  const bool direct = x < 0 && (v + 1.0) * (v + 1.0) * 0.5 * (1.0 + x) <= 25.0;  // (as below)
  if (nv > m + 2 && !direct) {
    // upward in the degree from m + f and m + f + 1
    double p0 = x >= 0 ? lpmv_series(m, m + f, x) : lpmv_log_series(m, m + f, x);
    double p1 = x >= 0 ? lpmv_series(m, m + f + 1, x) : lpmv_log_series(m, m + f + 1, x);
    for (double d = m + f + 1; d < v - 0.5; d += 1.0) {
      const double p2 = ((2.0 * d + 1.0) * x * p1 - (d + m) * p0) / (d - m + 1.0);
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  return x >= 0 ? lpmv_series(m, v, x) : lpmv_log_series(m, v, x);
}

// P_v^m(x) for m >= 0, v >= 0, |x| <= 1 (x > -1 unless v is an integer).
CSF_FN double lpmv_pos(int m, double v, double x) {
  const bool integer = v == floor(v);
  if (integer && x < 0) {
    const double p = lpmv_pos_degree(m, v, -x);  // (-x > 0: neither reflection nor order recurrence)
    return (fmod(v + m, 2.0) == 0.0) ? p : -p;
  }
  // Near x = -1 the recurrence is unstable (the part of P_v^m like Y_m((v+1/2) acos(-x)) decays
  // with the degree while Q's grows: 1e-2 lost at v = 54, x = -0.99, m = 10), but there the
  // log series converges without cancellation: its terms grow like (v^2 w)^n / (n! (n+m)!).
  const bool direct = x < 0 && (v + 1.0) * (v + 1.0) * 0.5 * (1.0 + x) <= 25.0;
  if (x < 0 && !direct && m >= 2) {
    // Further from -1: P_v^0 and P_v^1 by the degree recurrence (stable for m <= 1), then upward
    // in the order (DLMF 14.10.1), stable where P_v^m is the growing solution (m > (v+1/2) acos(-x)).
    double p0 = lpmv_pos_degree(0, v, x), p1 = lpmv_pos_degree(1, v, x);  // (v is not an integer here)
    const double g = 2.0 * x / sqrt((1.0 - x) * (1.0 + x));
    for (int mu = 0; mu + 2 <= m; ++mu) {
      const double p2 = -(mu + 1.0) * g * p1 - (v - mu) * (v + (mu + 1.0)) * p0;
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  return lpmv_pos_degree(m, v, x);
}

CSF_FN double lpmv(double m, double v, double x) {
  if (m == 0 && (v == 0 || v == -1)) return 1.0;  // P_0 = 1 (SciPy's, even at x = NaN)
  if (isnan(m) || isnan(v) || isnan(x)) return m + v + x;
  if (m != floor(m) || isinf(m) || isinf(v) || fabs(m) > 1e4) return lim<double>::nan();
  // At x = -1 a non-integer degree diverges: SciPy 1.18 (xsf's LPMV) gives -inf for m = 0 where
  // sin(pi v) / (pi v) > 0 of the degree as given, else +inf (so P_-3.5(-1) = +inf though it
  // equals P_2.5(-1) = -inf: SciPy is the oracle).
  const double v_given = v;
  if (v < 0) v = -v - 1.0;
  const bool integer = v == floor(v);
  const int mi = (int)fabs(m);
  if (fabs(x) > 1.0) {
    if (mi != 0 || !integer) return lim<double>::nan();
    // the Legendre polynomial P_n(x) by its three-term recurrence
    if (v == 0) return 1.0;
    double p0 = 1.0, p1 = x;
    for (double d = 1; d < v - 0.5; d += 1.0) {
      const double p2 = ((2.0 * d + 1.0) * x * p1 - d * p0) / (d + 1.0);
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  if (x == -1.0 && !integer)
    return mi == 0 && sin(k_pi * v_given) / (k_pi * v_given) > 0 ? -lim<double>::inf() : lim<double>::inf();
  double p = lpmv_pos(mi, v, x);
  if (m < 0) {
    if (integer && v < mi) return lim<double>::nan();
    double r = 1.0;  // Gamma(v+m+1)/Gamma(v-m+1)
    for (int j = 1 - mi; j <= mi; ++j) r *= v + j;
    p = (mi & 1) ? -p / r : p / r;
  }
  return p;
}

}  // namespace cuarray_special
#endif
