// The regularized incomplete gamma functions of cuarray.scipy.special and what is built on them:
// gammainc P(a, x), gammaincc Q(a, x), their inverses in x, and the distributions gdtr, gdtrc
// (gamma), chdtr, chdtrc, chdtri (chi-square), pdtr, pdtrc, pdtri (Poisson).
// The split of Cephes' igam.c (S. L. Moshier; SciPy's): P by its power series where x <= max(a, 1),
// Q by Legendre's continued fraction elsewhere, the other as 1 minus it. The prefactor
// x^a e^-x / Gamma(a) is evaluated for a >= 8 through Stirling's formula as
// sqrt(a / 2 pi) exp(a log1pmx((x - a)/a) - mu(a)) (the idea of Cephes' igam_fac), so it keeps
// full relative accuracy when a and x are large and close (the naive exponent cancels ~a eps).
// For a > 1e5 and |x - a| < 0.3 a (where those need O(sqrt a) terms), Temme's uniform asymptotic
// expansion with its first two coefficients (DLMF 8.12.9-10); SciPy's igam.c uses more terms of
// it from a > 20 (ours: the series and the fraction up to 1e5, capped at 20000 terms).
// Float loops compute in double, as SciPy's do.
#ifndef CUARRAY_SPECIAL_IGAM_CUH
#define CUARRAY_SPECIAL_IGAM_CUH
namespace cuarray_special {

// x^a e^-x / Gamma(a), without overflow where the result is representable. Away from x = a
// (|x - a| > 0.4 a) a prefactor below e^-709.78 (log DBL_MAX) is 0, as in SciPy's igam_fac: the
// subnormals below it would give P and Q of a few bits, and logcdf/logsf finite where SciPy's
// are -inf.
CSF_FN double igam_fac(double a, double x) {
  const double underflow = -709.782712893384;
  if (a >= 8.0) {
    // a (log(x/a) - (x - a)/a), by log1pmx only near x = a: (x - a)/a itself is exact there,
    // while 1 + t would lose x/a's low bits when x << a.
    const double t = (x - a) / a;
    const double e = fabs(t) < 0.5 ? a * log1pmx(t) : a * log(x / a) - (x - a);
    const double l = e - stirling_corr(a) + 0.5 * log(a / (2.0 * k_pi));
    if (fabs(t) > 0.4 && l < underflow) return 0.0;
    return sqrt(a / (2.0 * k_pi)) * exp(e - stirling_corr(a));
  }
  const double l = a * log(x) - x - lgamma(a);
  if (fabs(x - a) > 0.4 * a && l < underflow) return 0.0;
  return exp(l);
}

// P(a, x) by sum_{n>=0} x^n / ((a+1)...(a+n)) times x^a e^-x / Gamma(a + 1).
CSF_FN double igam_series(double a, double x) {
  const double fac = igam_fac(a, x);
  if (fac == 0.0) return 0.0;
  double r = a, c = 1.0, s = 1.0;
  for (int n = 0; n < 20000; ++n) {
    r += 1.0;
    c *= x / r;
    s += c;
    if (c <= 1e-17 * s) break;
  }
  return s * fac / a;
}

// Q(a, x) by Legendre's continued fraction (common.cuh's legendre_gamma_cf).
CSF_FN double igamc_cf(double a, double x) {
  const double fac = igam_fac(a, x);
  if (fac == 0.0) return 0.0;
  return fac * legendre_gamma_cf(a, x);
}

// Temme: Q = erfc(eta sqrt(a/2)) / 2 + e^(-a eta^2 / 2) / sqrt(2 pi a) (c0(eta) + c1(eta) / a),
// eta^2 / 2 = mu - log(1 + mu), mu = (x - a)/a; c0 = 1/mu - 1/eta, c1 = 1/eta^3 - 1/mu^3 - 1/mu^2
// - 1/(12 mu), by their Taylor series in eta near 0 (where those forms cancel). The next term is
// below a^-2 / sqrt(a) ~ 3e-13 relative of the correction at a = 1e5, 1e-18 of the result.
CSF_FN double igam_temme(double a, double x, bool upper) {
  const double mu = (x - a) / a;
  const double eta = copysign(sqrt(-2.0 * log1pmx(mu)), mu);
  double c0, c1;
  if (fabs(mu) < 0.01) {
    c0 = -1.0 / 3 + eta * (1.0 / 12 + eta * (-2.0 / 135 + eta * (1.0 / 864 + eta * (1.0 / 2835))));
    c1 = -1.0 / 540 + eta * (-1.0 / 288 + eta * (1.0 / 378));
  } else {
    c0 = 1.0 / mu - 1.0 / eta;
    c1 = 1.0 / (eta * eta * eta) - 1.0 / (mu * mu * mu) - 1.0 / (mu * mu) - 1.0 / (12.0 * mu);
  }
  const double r = exp(-0.5 * a * eta * eta) / sqrt(2.0 * k_pi * a) * (c0 + c1 / a);
  const double s = eta * sqrt(0.5 * a);
  return upper ? 0.5 * erfc(s) + r : 0.5 * erfc(-s) - r;
}

// Q(a, x) for a < 1, x <= 1 without forming 1 - P (P ~ 1 when a is tiny): Cephes' igamc_series,
// Q = -expm1(a log x - log Gamma(1 + a)) - x^a / Gamma(a) sum_{n>=1} (-x)^n / (n! (a + n)).
CSF_FN double igamc_series(double a, double x) {
  double fac = 1.0, s = 0.0;
  for (int n = 1; n < 2000; ++n) {
    fac *= -x / n;
    const double term = fac / (a + n);
    s += term;
    if (fabs(term) <= 1e-17 * fabs(s)) break;
  }
  const double lg1p = a < 0.25 ? lgamma1p_series(a) : lgamma(1.0 + a);
  const double logx = log(x);
  return -expm1(a * logx - lg1p) - a * s * exp(a * logx - lg1p);
}

// SciPy's edge values: NaN for a < 0, x < 0 or both zero; P(0, x > 0) = 1; P(inf, x) = 0 for
// finite x, NaN for x = inf; P(a, inf) = 1.
CSF_FN double gammainc(double a, double x) {
  if (isnan(a) || isnan(x)) return a + x;
  if (a < 0 || x < 0) return lim<double>::nan();
  if (a == 0) return x > 0 ? 1.0 : lim<double>::nan();
  if (x == 0) return 0.0;
  if (isinf(a)) return isinf(x) ? lim<double>::nan() : 0.0;
  if (isinf(x)) return 1.0;
  if (a > 1e5 && fabs(x - a) < 0.3 * a) return igam_temme(a, x, false);
  if (x > 1.0 && x > a) return 1.0 - igamc_cf(a, x);
  return igam_series(a, x);
}
CSF_FN double gammaincc(double a, double x) {
  if (isnan(a) || isnan(x)) return a + x;
  if (a < 0 || x < 0) return lim<double>::nan();
  if (a == 0) return x > 0 ? 0.0 : lim<double>::nan();
  if (x == 0) return 1.0;
  if (isinf(a)) return isinf(x) ? lim<double>::nan() : 1.0;
  if (isinf(x)) return 0.0;
  if (a > 1e5 && fabs(x - a) < 0.3 * a) return igam_temme(a, x, true);
  if (x > 1.0 && x > a) return igamc_cf(a, x);
  if (a < 1.0) return igamc_series(a, x);
  return 1.0 - igam_series(a, x);
}

// The z > 0 with upper normal tail q <= 1/2, roughly (A&S 26.2.23, |error| < 4.5e-4): a start.
CSF_FN double ndtri_tail_rough(double q) {
  const double t = sqrt(-2.0 * log(q));
  return t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
}

// The x with P(a, x) = p (upper = false) or Q(a, x) = p (upper = true): Newton's method on
// log F(x) - log(target), F the one of P and Q below 1/2 (relative accuracy in the tails; in logs
// the tails are nearly linear, where F itself is x^a-steep), inside a bracket kept by bisection
// (doubling while it is unbounded). Starts: P's leading term x^a / Gamma(a + 1) for small P,
// Q ~ x^(a-1) e^-x / Gamma(a) for small Q, Wilson-Hilferty's cube (A&S 26.4.17) otherwise; the
// approach of Cephes' igami.c with a safer iteration.
CSF_NOINLINE double igam_inverse(double a, double p, bool upper) {
  if (isnan(a) || isnan(p)) return a + p;
  if (a < 0 || p < 0 || p > 1) return lim<double>::nan();
  const double plo = upper ? 1.0 - p : p;  // P's target
  if (upper ? p == 1.0 : p == 0.0) return 0.0;
  if (upper ? p == 0.0 : p == 1.0) return lim<double>::inf();
  if (a == 0 || isinf(a)) return a == 0 ? 0.0 : lim<double>::nan();
  const bool use_q = upper ? p < 0.5 : p > 0.5;
  const double target = use_q ? (upper ? p : 1.0 - p) : plo;
  const double ltarget = log(target);
  double x;
  const double lg = lgamma(a + 1.0);
  const double lx = (log(plo) + lg) / a;
  if (!use_q) {
    if (lx < -745.0) return 0.0;
    // below e^-40 the next term of P's series, a x / (a + 1), is under 1e-17: the start is the root
    if (lx < -40.0) return exp(lx);
  }
  if (!use_q && exp(lx) < 0.2 * a + 0.2) {
    x = exp(lx);
  } else if (use_q && target < 1e-8) {
    x = a + 1.0;
    for (int i = 0; i < 8; ++i) x = -ltarget - lgamma(a) + (a - 1.0) * log(x);
    if (!(x > 0)) x = a + 1.0;
  } else {
    const double z = use_q ? ndtri_tail_rough(target) : -ndtri_tail_rough(target);
    const double c = 1.0 - 1.0 / (9.0 * a) + z / (3.0 * sqrt(a));
    x = c > 0 ? a * c * c * c : 1e-3 * a;
    if (!(x > 0)) x = 1e-3;
  }
  double lo = 0.0, hi = lim<double>::inf();
  for (int it = 0; it < 200; ++it) {
    const double F = use_q ? gammaincc(a, x) : gammainc(a, x);
    if (F == target) return x;
    const double f = (F > 0 ? log(F) : -lim<double>::inf()) - ltarget;
    const bool x_too_small = use_q ? f > 0 : f < 0;
    if (x_too_small) lo = x; else hi = x;
    // d log F / dx = +-(x^(a-1) e^-x / Gamma(a)) / F
    const double d = (use_q ? -1.0 : 1.0) * igam_fac(a, x) / (x * F);
    double xn = (isfinite(f) && d != 0.0 && isfinite(d)) ? x - f / d : lim<double>::nan();
    if (!(xn > lo && xn < hi)) xn = isinf(hi) ? 2.0 * x + 1.0 : (lo == 0.0 ? 0.5 * x : 0.5 * (lo + hi));
    if (fabs(xn - x) <= 4e-16 * x) return xn;
    if (isfinite(hi) && hi - lo <= 4e-16 * hi) return xn;
    x = xn;
  }
  return x;
}
CSF_FN double gammaincinv(double a, double p) { return igam_inverse(a, p, false); }
CSF_FN double gammainccinv(double a, double p) { return igam_inverse(a, p, true); }

// Gamma distribution (rate a, shape b): gdtr(a, b, x) = P(b, a x), gdtrc = Q(b, a x); NaN for x < 0.
CSF_FN double gdtr(double a, double b, double x) {
  if (x < 0) return lim<double>::nan();
  return gammainc(b, a * x);
}
CSF_FN double gdtrc(double a, double b, double x) {
  if (x < 0) return lim<double>::nan();
  return gammaincc(b, a * x);
}
// Chi-square with v degrees of freedom: P(v/2, x/2), Q(v/2, x/2), and 2 Q^-1(v/2, p).
CSF_FN double chdtr(double v, double x) {
  if (x < 0) return lim<double>::nan();
  return gammainc(v * 0.5, x * 0.5);
}
CSF_FN double chdtrc(double v, double x) {
  if (x < 0) return lim<double>::nan();
  return gammaincc(v * 0.5, x * 0.5);
}
CSF_FN double chdtri(double v, double p) { return 2.0 * gammainccinv(v * 0.5, p); }
// An argument SciPy's loop casts to a C int (pdtri's k, bdtr's k and n, ...): truncated; NaN
// (the failed cast) when it is NaN, infinite or beyond int's range.
CSF_FN double as_c_int(double v) {
  if (!(fabs(v) < 2147483648.0)) return lim<double>::nan();
  return trunc(v);
}

// Poisson: sum_{j<=k} e^-m m^j / j! = Q(floor(k) + 1, m); pdtrc = P(floor(k) + 1, m); pdtri the
// m with pdtr(k, m) = p. The order of the checks is Cephes pdtr.c's (pdtr(nan, 0) = 1).
CSF_FN double pdtr(double k, double m) {
  if (k < 0 || m < 0) return lim<double>::nan();
  if (m == 0) return 1.0;
  return gammaincc(floor(k) + 1.0, m);
}
CSF_FN double pdtrc(double k, double m) {
  if (k < 0 || m < 0) return lim<double>::nan();
  if (m == 0) return 0.0;
  return gammainc(floor(k) + 1.0, m);
}
// k is a C int in every loop of SciPy's pdtri.
CSF_FN double pdtri(double k, double p) {
  k = as_c_int(k);
  if (isnan(k) || isnan(p)) return lim<double>::nan();
  if (k < 0 || p < 0 || p >= 1) return lim<double>::nan();
  return gammainccinv(k + 1.0, p);
}

}  // namespace cuarray_special
#endif
