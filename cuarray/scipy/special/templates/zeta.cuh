// The zeta functions of cuarray.scipy.special: Hurwitz's zeta(x, q) (SciPy's `zeta(x, q)`, x >= 1),
// Riemann's zeta(x) (`zeta(x)`) and zetac(x) = zeta(x) - 1, and polygamma(n, x).
// Hurwitz: the Euler-Maclaurin summation of Cephes' zeta.c (S. L. Moshier): at least nine terms
// of the sum up to a >= 10, then the tail a^(1-x)/(x-1) - a^-x/2 + the Bernoulli corrections
// sum_k (x)_(2k-1) a^(1-x-2k) B_2k / (2k)!, twelve of them. Riemann: Hurwitz at q = 1 (q = 2 for
// zetac, so zeta(x) - 1 keeps its relative accuracy as x grows); the same summation below 1 (it
// is the analytic continuation); for x < 0 the reflection
// zeta(x) = 2^x pi^(x-1) sin(pi x / 2) Gamma(1 - x) zeta(1 - x), in logs where Gamma overflows.
// Float loops compute in double, as SciPy's do.
#ifndef CUARRAY_SPECIAL_ZETA_CUH
#define CUARRAY_SPECIAL_ZETA_CUH
namespace cuarray_special {

// The summation for any x != 1 and q > 0 (callers check the domain).
CSF_FN double zeta_em(double x, double q) {
  // (2k)! / B_2k, k = 1..12 (exact rationals rounded once: scripts/special has none; they are
  // computed from the Bernoulli numbers, e.g. 12 = 2!/(1/6), -720 = 4!/(-1/30)).
  const double A[12] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1892437580.3183792,
                        74724249600.0, -2950130727918.164, 116467828143500.67, -4597978722407473.0,
                        1.8152105401943546e+17, -7.166165256175667e+18};
  double s = pow(q, -x), a = q, b = 0.0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1.0;
    b = pow(a, -x);
    s += b;
    if (fabs(b / s) < 1.1102230246251565e-16) return s;
  }
  const double w = a;
  s += b * w / (x - 1.0);
  s -= 0.5 * b;
  double fa = 1.0, k = 0.0;
  for (int j = 0; j < 12; ++j) {
    fa *= x + k;
    b /= w;
    const double t = fa * b / A[j];
    s += t;
    if (fabs(t / s) < 1.1102230246251565e-16) break;
    k += 1.0;
    fa *= x + k;
    b /= w;
    k += 1.0;
  }
  return s;
}

// Hurwitz zeta(x, q): SciPy's domain (x >= 1; NaN below), inf at x = 1 and at the poles q = 0,
// -1, ...; a negative non-integer q only for integer x; q > 1e8 by the tail alone.
CSF_FN double hurwitz_zeta(double x, double q) {
  // Cephes zeta.c's order of tests (so zeta(nan, 0) = inf and zeta(inf, 2) = NaN, as SciPy)
  if (x == 1.0) return lim<double>::inf();
  if (x < 1.0) return lim<double>::nan();
  if (q <= 0.0) {
    if (q == floor(q)) return lim<double>::inf();
    if (x != floor(x)) return lim<double>::nan();
  }
  if (q > 1e8) return (1.0 / (x - 1.0) + 1.0 / (2.0 * q)) * pow(q, 1.0 - x);
  return zeta_em(x, q);
}

// Riemann zeta(x) - 1 for x > 1 and zeta(x) itself, for every real x. No cycle in their calls
// (zeta_minus_one_gt1 is zetac past its special values; the reflection's zeta(1 - x) is at
// 1 - x > 1.5): a recursive call graph leaves a kernel's stack size unknown to ptxas (beta.cuh).
CSF_FN double zeta_minus_one_gt1(double x) { return x > 1100.0 ? 0.0 : zeta_em(x, 2.0); }  // finite x > 1
CSF_FN double riemann_zeta(double x) {
  if (isnan(x)) return x;
  if (x == 1.0) return lim<double>::inf();
  if (isinf(x)) return x > 0 ? 1.0 : lim<double>::nan();
  if (x > 1.0) return 1.0 + zeta_minus_one_gt1(x);
  // the summation down to -1/2 (near 0 the reflection would need zeta(1 - x) at 1 - x, whose
  // rounding is a relative error of 1e-4 in the pole's distance at x = -1e-12)
  if (x >= -0.5) return zeta_em(x, 1.0);
  // reflection; sin(pi x / 2) exactly 0 at the trivial zeros (even negative integers)
  const double s = sinpi(0.5 * x);
  if (s == 0.0) return 0.0;
  const double z1 = 1.0 + zeta_minus_one_gt1(1.0 - x);
  if (x > -170.0) return pow(2.0, x) * pow(k_pi, x - 1.0) * s * ::tgamma(1.0 - x) * z1;
  const double l = x * k_ln2 + (x - 1.0) * log(k_pi) + lgamma(1.0 - x) + log(fabs(s)) + log(z1);
  const double v = exp(l);
  return s < 0 ? -v : v;
}
CSF_FN double zetac(double x) {
  if (isnan(x)) return x;
  if (x == 1.0) return lim<double>::inf();
  if (isinf(x)) return x > 0 ? 0.0 : lim<double>::nan();
  if (x > 1.0) return zeta_minus_one_gt1(x);
  return riemann_zeta(x) - 1.0;
}

// polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x), psi for n = 0 (SciPy's formula, as one ufunc).
CSF_FN double polygamma(double n, double x) {
  if (n == 0) return psi(x);
  const double sgn = fmod(n + 1.0, 2.0) == 0.0 ? 1.0 : -1.0;
  return sgn * ::tgamma(n + 1.0) * hurwitz_zeta(n + 1.0, x);
}

}  // namespace cuarray_special
#endif
