// Kolmogorov-Smirnov distributions of cuarray.scipy.special: kolmogorov(y), the limiting
// complementary distribution of sqrt(n) D_n, and smirnov(n, d), the exact one-sided P(D_n^+ >= d).
// kolmogorov: 2 sum_k (-1)^(k-1) e^(-2 k^2 y^2) for y >= 0.82, else 1 minus Jacobi's theta form
// sqrt(2 pi)/y sum_k e^(-(2k-1)^2 pi^2 / (8 y^2)) (both converge in a few terms there).
// smirnov: the Birnbaum-Tingey sum d sum_{j <= n(1-d)} C(n, j) (d + j/n)^(j-1) (1 - d - j/n)^(n-j)
// (Z. W. Birnbaum, F. H. Tingey, Ann. Math. Statist. 22 (1951) 592), each term by its logarithm
// (n + 1 terms). Float loops compute in double, as SciPy's do.
#ifndef CUARRAY_SPECIAL_KOLMOGOROV_CUH
#define CUARRAY_SPECIAL_KOLMOGOROV_CUH
namespace cuarray_special {

CSF_FN double kolmogorov(double y) {
  if (isnan(y)) return y;
  if (y <= 0) return 1.0;
  if (isinf(y)) return 0.0;
  if (y < 0.82) {
    const double w = k_pi * k_pi / (8.0 * y * y);
    double s = 0.0;
    for (int k = 1; k < 20; ++k) {
      const double m = 2.0 * k - 1.0;
      const double t = exp(-m * m * w);
      s += t;
      if (t < 1e-17 * s) break;
    }
    return 1.0 - sqrt(2.0 * k_pi) / y * s;
  }
  double s = 0.0, sgn = 1.0;
  for (int k = 1; k < 100; ++k) {
    const double t = exp(-2.0 * k * k * y * y);
    s += sgn * t;
    sgn = -sgn;
    if (t < 1e-17 * s) break;
  }
  return 2.0 * s;
}

CSF_FN double smirnov(double n, double d) {
  if (isnan(n) || isnan(d)) return lim<double>::nan();
  if (!(fabs(n) < 2147483648.0)) return lim<double>::nan();
  n = trunc(n);  // SciPy's loops cast n to an int
  if (n <= 0 || d < 0 || d > 1) return lim<double>::nan();
  if (d == 0) return 1.0;
  if (d == 1) return 0.0;
  if (n == 1) return 1.0 - d;
  const double jmax = floor(n * (1.0 - d));
  const double lgn = lgamma(n + 1.0);
  double s = 0.0;
  for (double j = 0; j <= jmax; j += 1.0) {
    const double u = d + j / n;  // in (0, 1)
    if (u >= 1.0) break;
    const double l = lgn - lgamma(j + 1.0) - lgamma(n - j + 1.0) + (j - 1.0) * log(u) + (n - j) * log1p(-u);
    s += exp(l);
  }
  return d * s;
}

// The inverses kolmogi(p) and smirnovi(n, p): bisection of the decreasing function to adjacent
// doubles (both bracket [0, 1] or [0, hi]; the forward functions take a few terms each, so 60-1100
// halvings stay cheap; SciPy uses Newton's method on the same functions).
CSF_FN double kolmogi(double p) {
  if (isnan(p) || p < 0 || p > 1) return lim<double>::nan();
  if (p == 1) return 0.0;
  if (p == 0) return lim<double>::inf();
  double lo = 0.0, hi = 1.0;
  while (kolmogorov(hi) > p) { lo = hi; hi *= 2.0; }
  for (int i = 0; i < 1100; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (kolmogorov(mid) > p) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}
CSF_FN double smirnovi(double n, double p) {
  if (isnan(n) || isnan(p)) return lim<double>::nan();
  if (!(fabs(n) < 2147483648.0)) return lim<double>::nan();
  n = trunc(n);
  if (n <= 0 || p < 0 || p > 1) return lim<double>::nan();
  if (p == 1) return 0.0;
  if (p == 0) return 1.0;
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 1100; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (smirnov(n, mid) > p) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace cuarray_special
#endif
