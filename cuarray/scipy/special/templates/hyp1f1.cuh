// Kummer's confluent hypergeometric function M(a, b, x) = 1F1(a; b; x) for real arguments
// (scipy.special.hyp1f1's real loops). SciPy's own cases first (scipy/special/_hypergeometric.pxd):
// the closed forms (a = 0, -1, b, b + 1; a = 1, b = 2), the poles at integer b <= 0, the series
// where it converges geometrically (b > 0, (|a| + 1)|x| < 0.9 b) and the terminating series of
// integer a <= 0 with its cancellation check (NaN when it loses more than 1e-7). SciPy hands
// the rest to Boost's hypergeometric_1F1; here instead:
//   x < 0: Kummer's transformation M(a, b, x) = e^x M(b - a, b, -x) (A&S 13.1.27), so x > 0;
//   x large against the parameters: the asymptotic expansion (A&S 13.5.1)
//     M ~ Gamma(b)/Gamma(a) e^x x^(a-b) sum (b-a)_k (1-a)_k / k! x^-k, summed to below 1e-17;
//   otherwise the defining series in double-double arithmetic, factors (a + k), (b + k) exact,
//     so that its cancellation (alternating terms for a < 0 or b < 0) costs 1e-32 times the
//     largest term: NaN if that exceeds 1e-13 of the sum (and 1e-16), which happens from
//     parameters and |x| of about 50 up (hyp1f1(-80, 1, 80): Boost's recurrences get it).
// Float loops compute in double, as SciPy's.
#ifndef CUARRAY_SPECIAL_HYP1F1_CUH
#define CUARRAY_SPECIAL_HYP1F1_CUH
namespace cuarray_special {

constexpr double k_dbl_eps = 2.220446049250313e-16;

// SciPy's plain series (geometric convergence: b > 0, (|a| + 1)|x| < 0.9 b).
CSF_FN double hyp1f1_series(double a, double b, double x) {
  double term = 1, result = 1;
  for (int k = 0; k < 500; ++k) {
    term *= (a + k) * x / (b + k) / (k + 1);
    result += term;
    if (fabs(term) <= k_dbl_eps * fabs(result)) return result;
  }
  return lim<double>::nan();
}

// e^lscale times the defining series in double-double (factors (a + k), (b + k) exact), NaN if its
// cancellation costs more than 1e-13 (terms up to e^|x| stay finite below |x| = 700, where the
// asymptotic form takes over for moderate parameters).
CSF_NOINLINE double hyp1f1_dd(double a, double b, double x, double lscale) {
  dd_real term = dd(1.0), sum = dd(1.0);
  const dd_real xd = dd(x), ad = dd(a), bd = dd(b);
  double maxterm = 1.0;
  int k = 0;
  for (; k < 100000; ++k) {
    const dd_real num = dd_mul(dd_add(ad, dd((double)k)), xd);
    const dd_real den = dd_mul(dd_add(bd, dd((double)k)), dd((double)(k + 1)));
    if (num.hi == 0) break;  // a polynomial: (a)_k has reached 0
    if (den.hi == 0) return lim<double>::nan();
    term = dd_div(dd_mul(term, num), den);
    sum = dd_add(sum, term);
    const double at = fabs(term.hi);
    if (at > maxterm) maxterm = at;
    if (!isfinite(sum.hi)) break;
    // stop once the terms are small and falling for good (past k = -a, -b and |x|)
    if (at <= 1e-17 * fabs(sum.hi) && k > -a && k > -b && k + 1 > fabs(x)) break;
  }
  const double s = sum.hi + sum.lo;
  if (!isfinite(s)) return s * exp(lscale);
  // lost to cancellation: the error estimate 1e-31 k max|term| above 1e-13 of the sum and above
  // 1e-16 (the absolute error of any double evaluation near a zero of M)
  const double lost = 1e-31 * (k + 1) * maxterm;
  if (lost > 1e-13 * fabs(s) && lost > 1e-16) return lim<double>::nan();
  return lscale == 0 ? s : s * exp(lscale);
}

// e^lscale M(a, b, x) for x > 0 (lscale: Kummer's e^x, or 0).
CSF_NOINLINE double hyp1f1_positive(double a, double b, double x, double lscale) {
  if (isinf(x)) {
    // M ~ Gamma(b)/Gamma(a) e^x x^(a-b): +-inf by the sign of Gamma(b)/Gamma(a) (after Kummer's
    // e^-x: Gamma(b)/Gamma(b-a) x^-a -> 0 for a > 0)
    if (lscale != 0) return a > 0 ? 0.0 : (a == 0 ? 1.0 : lim<double>::nan());
    return gammasgn(b) * gammasgn(a) * lim<double>::inf();
  }
  if (x > 30 && x > 4 * (fabs(a) + fabs(b))) {
    // A&S 13.5.1's first series (the second is e^-x smaller)
    double t = 1, s = 1;
    bool ok = false;
    for (int k = 0; k < 200; ++k) {
      const double nt = t * (b - a + k) * (1 - a + k) / ((k + 1) * x);
      if (fabs(nt) > fabs(t)) break;  // diverging from here
      t = nt;
      s += t;
      if (fabs(t) < 1e-17 * fabs(s)) {
        ok = true;
        break;
      }
    }
    if (ok) {
      const double l = x + (a - b) * log(x) + gammaln(b) - gammaln(a) + lscale + log(fabs(s));
      return gammasgn(b) * gammasgn(a) * (s < 0 ? -1.0 : 1.0) * exp(l);
    }
  }
  return hyp1f1_dd(a, b, x, lscale);
}

CSF_FN double hyp1f1(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return lim<double>::nan();
  if (b <= 0 && b == floor(b)) {
    // a pole, unless (a)_k vanishes first
    if (b <= a && a < 0 && a == floor(a)) return hyp1f1_dd(a, b, x, 0.0);
    return lim<double>::inf();
  }
  if (a == 0 || x == 0) return 1.0;
  if (isinf(b) && !isinf(x)) return 1.0;  // the limit (SciPy's value, a = inf included)
  if (a == -1) return 1 - x / b;
  if (a == b) return exp(x);
  if (a - b == 1) return (1 + x / b) * exp(x);
  if (a == 1 && b == 2) return expm1(x) / x;
  if (a <= 0 && a == floor(a)) return isinf(x) ? lim<double>::nan() : hyp1f1_dd(a, b, x, 0.0);  // a polynomial
  if (b > 0 && (fabs(a) + 1) * fabs(x) < 0.9 * b) return hyp1f1_series(a, b, x);
  if (isinf(a) || isinf(b)) return lim<double>::nan();
  if (x < 0) {
    // Kummer; a nonpositive integer b - a makes M(b - a, b, -x) a polynomial
    const double ap = b - a;
    if (ap <= 0 && ap == floor(ap)) {
      if (isinf(x)) return lim<double>::nan();
      return hyp1f1_dd(ap, b, -x, x);
    }
    return hyp1f1_positive(ap, b, -x, x);
  }
  return hyp1f1_positive(a, b, x, 0.0);
}

}  // namespace cuarray_special
#endif
