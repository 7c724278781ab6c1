// The beta function and its relatives of cuarray.scipy.special: beta, betaln, poch, binom, and the
// pieces the incomplete gamma and beta functions share (log1pmx, Stirling's correction).
// Float loops compute in double, as SciPy's (Cephes beta.c, S. L. Moshier) do.
#ifndef CUARRAY_SPECIAL_BETA_CUH
#define CUARRAY_SPECIAL_BETA_CUH
namespace cuarray_special {

// log(1 + t) - t without cancellation: its series -t^2/2 + t^3/3 - ... for |t| < 1/2.
CSF_FN double log1pmx(double t) {
  if (fabs(t) >= 0.5) return log1p(t) - t;
  double tk = t, s = 0.0;
  for (int k = 2; k < 120; ++k) {
    tk *= -t;
    const double term = tk / k;
    s += term;
    if (fabs(term) < 1e-17 * fabs(s)) break;
  }
  return s;
}

// mu(a) = log Gamma(a) - ((a - 1/2) log a - a + log(2 pi) / 2): the Stirling series
// 1/(12a) - 1/(360a^3) + 1/(1260a^5) - ... (A&S 6.1.41), for a >= 8 (seven terms: < 1e-17).
CSF_FN double stirling_corr(double a) {
  const double z = 1.0 / (a * a);
  return (1.0 / 12 - z * (1.0 / 360 - z * (1.0 / 1260 - z * (1.0 / 1680 - z * (1.0 / 1188
      - z * (691.0 / 360360 - z * (1.0 / 156))))))) / a;
}

// The sign of Gamma(x) for finite non-pole x (gammasgn without its edge cases).
CSF_FN double gamma_sign(double x) {
  if (x > 0) return 1.0;
  return fmod(floor(x), 2.0) != 0.0 ? -1.0 : 1.0;
}

// log|B(a, b)| for a, b > 0 without cancellation: for b >= 8 (b <= a), Stirling's formula as
// (a - 1/2) log(a/(a+b)) + (b - 1/2) log(b/(a+b)) - log(a+b)/2 + log(2 pi)/2 + mu(a) + mu(b) - mu(a+b);
// for b < 8 <= a, lgamma(b) + [log Gamma(a) - log Gamma(a + b)] with the bracket by Stirling as
// -a log1pmx(b/a) + log1p(b/a)/2 - b log(a + b) + mu(a) - mu(a + b) (the plain lgamma difference
// loses ~log(a) eps absolute per term); lgamma's sum below.
CSF_FN double betaln_pos(double a, double b) {
  if (a < b) { const double t = a; a = b; b = t; }  // a >= b
  if (b >= 8.0) {
    const double s = a + b;
    return (a - 0.5) * -log1p(b / a) + (b - 0.5) * log(b / s) - 0.5 * log(s) + 0.9189385332046728
           + stirling_corr(a) + stirling_corr(b) - stirling_corr(s);
  }
  if (a >= 8.0) {
    const double r = b / a;
    return lgamma(b) - a * log1pmx(r) + 0.5 * log1p(r) - b * log(a + b) + stirling_corr(a) - stirling_corr(a + b);
  }
  return lgamma(a) + lgamma(b) - lgamma(a + b);
}


// log|B(a, b)| with the asymptotic form of Cephes' lbeta_asymp for a >> b
// (log Gamma(b) - b log a + b(1-b)/(2a) + b(1-b)(1-2b)/(12a^2) - b^2(1-b)^2/(12a^3)).
CSF_FN double lbeta_asymp(double a, double b) {
  double r = lgamma(b) - b * log(a);
  r += b * (1.0 - b) / (2.0 * a);
  r += b * (1.0 - b) * (1.0 - 2.0 * b) / (12.0 * a * a);
  r += -b * b * (1.0 - b) * (1.0 - b) / (12.0 * a * a * a);
  return r;
}

// B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b), signed, with the case structure (and so the edge
// values) of Cephes' beta.c (S. L. Moshier): non-positive integers through beta_negint (a
// non-positive "integer" beyond int range, or -inf, is an overflow: inf), the asymptotic form
// for |a| > 1e6 |b|, logs of Gamma beyond 171.6, otherwise Gamma's ratio in the order that
// avoids overflow.
//
// Cephes' beta_negint calls beta back; here the call graph has no cycle: a recursive one leaves a
// kernel's stack size unknown to ptxas, and the driver then gives each thread CU_LIMIT_STACK_SIZE
// (1 KiB by default) whatever its frame needs (hyp2f1's complex kernel, 1192 bytes, overran it:
// CUDA_ERROR_ILLEGAL_ADDRESS). beta_no_negint is beta past its non-positive integer cases.
CSF_NOINLINE double beta_no_negint(double a, double b);
// B(a, b) for integer a <= 0 (Cephes beta_negint): finite only for integer b with 1 - a - b > 0,
// where B(a, b) = (-1)^b B(1 - a - b, b), 1 - a - b >= 1 (for b <= 0 that is beta's inf); inf otherwise.
CSF_FN double beta_negint(double a, double b) {
  if (b == floor(b) && fabs(b) < 2147483647.0 && 1.0 - a - b > 0) {
    const double sgn = fmod(b, 2.0) == 0.0 ? 1.0 : -1.0;
    return sgn * (b <= 0 ? lim<double>::inf() : beta_no_negint(1.0 - a - b, b));
  }
  return lim<double>::inf();
}
CSF_NOINLINE double beta(double a, double b) {
  if (a <= 0 && a == floor(a)) return fabs(a) < 2147483647.0 ? beta_negint(a, b) : lim<double>::inf();
  if (b <= 0 && b == floor(b)) return fabs(b) < 2147483647.0 ? beta_negint(b, a) : lim<double>::inf();
  return beta_no_negint(a, b);
}
CSF_NOINLINE double beta_no_negint(double a, double b) {
  if (fabs(a) < fabs(b)) { const double t = a; a = b; b = t; }
  if (fabs(a) > 1e6 * fabs(b) && a > 1e6) {
    const double sgn = gamma_sign(b);
    return sgn * exp(lbeta_asymp(a, b));
  }
  const double s = a + b;
  // Gamma(a + b) has a pole (Cephes' Gamma overflows to inf there): B = 0.
  if (s <= 0 && s == floor(s)) return 0.0 * gamma_sign(a) * gamma_sign(b);
  if (fabs(s) > 171.6 || fabs(a) > 171.6 || fabs(b) > 171.6) {
    if (a > 0 && b > 0) return exp(betaln_pos(a, b));
    const double sgn = gamma_sign(s) * gamma_sign(a) * gamma_sign(b);
    const double y = lgamma(a) + lgamma(b) - lgamma(s);
    if (y > 709.782712893384) return sgn * lim<double>::inf();
    return sgn * exp(y);
  }
  const double gs = ::tgamma(s), ga = ::tgamma(a), gb = ::tgamma(b);
  if (gs == 0.0) return lim<double>::inf();
  if (fabs(fabs(ga) - fabs(gs)) > fabs(fabs(gb) - fabs(gs))) return gb / gs * ga;
  return ga / gs * gb;
}

// log|B(a, b)| (Cephes lbeta's case structure, as beta above; no cycle in the calls either).
CSF_NOINLINE double betaln_no_negint(double a, double b);
CSF_FN double lbeta_negint(double a, double b) {
  if (b == floor(b) && fabs(b) < 2147483647.0 && 1.0 - a - b > 0)
    return b <= 0 ? lim<double>::inf() : betaln_no_negint(1.0 - a - b, b);
  return lim<double>::inf();
}
CSF_NOINLINE double betaln(double a, double b) {
  if (a <= 0 && a == floor(a)) return fabs(a) < 2147483647.0 ? lbeta_negint(a, b) : lim<double>::inf();
  if (b <= 0 && b == floor(b)) return fabs(b) < 2147483647.0 ? lbeta_negint(b, a) : lim<double>::inf();
  return betaln_no_negint(a, b);
}
CSF_NOINLINE double betaln_no_negint(double a, double b) {
  if (fabs(a) < fabs(b)) { const double t = a; a = b; b = t; }
  if (fabs(a) > 1e6 * fabs(b) && a > 1e6) return lbeta_asymp(a, b);
  if (a > 0 && b > 0) return betaln_pos(a, b);
  const double s = a + b;
  if (s <= 0 && s == floor(s)) return -lim<double>::inf();
  if (fabs(s) > 171.6 || fabs(a) > 171.6 || fabs(b) > 171.6) return lgamma(a) + lgamma(b) - lgamma(s);
  const double gs = ::tgamma(s), ga = ::tgamma(a), gb = ::tgamma(b);
  if (gs == 0.0) return lim<double>::inf();
  if (fabs(fabs(ga) - fabs(gs)) > fabs(fabs(gb) - fabs(gs))) return log(fabs(gb / gs * ga));
  return log(fabs(ga / gs * gb));
}

CSF_FN bool is_nonpos_int(double x) { return x <= 0 && x == ceil(x) && fabs(x) < 1e13; }

// Pochhammer's (a)_m = Gamma(a + m) / Gamma(a), as Cephes' poch.c (SciPy's): the recurrences
// (a)_m = (a + m - 1)(a)_{m-1} bring |m| below 1 (stopping once the product over- or underflows,
// so huge m ends at once), then a's asymptotic series for a > 1e4, the poles, and Gamma's ratio
// by logs with its sign.
CSF_FN double poch(double a, double m) {
  double r = 1.0;
  while (m >= 1.0) {
    if (a + m == 1.0) break;
    m -= 1.0;
    r *= a + m;
    if (!isfinite(r) || r == 0) break;
  }
  while (m <= -1.0) {
    if (a + m == 0.0) break;
    r /= a + m;
    m += 1.0;
    if (!isfinite(r) || r == 0) break;
  }
  if (m == 0) return r;
  if (a > 1e4 && fabs(m) <= 1.0) {
    return r * pow(a, m) * (1.0 + m * (m - 1.0) / (2.0 * a)
                            + m * (m - 1.0) * (m - 2.0) * (3.0 * m - 1.0) / (24.0 * a * a)
                            + m * m * (m - 1.0) * (m - 1.0) * (m - 2.0) * (m - 3.0) / (48.0 * a * a * a));
  }
  if (is_nonpos_int(a + m) && !is_nonpos_int(a) && a + m != m) return lim<double>::inf();
  if (!is_nonpos_int(a + m) && is_nonpos_int(a)) return 0.0;
  const double sa = a == floor(a) && a <= 0 ? 0.0 : gamma_sign(a);
  const double sam = (a + m) == floor(a + m) && a + m <= 0 ? 0.0 : gamma_sign(a + m);
  return r * exp(lgamma(a + m) - lgamma(a)) * sam * sa;
}

// Binomial coefficient n choose k for real n, k (SciPy's binom, orthogonal_eval.pxd): a product
// for integer k below 20 (or where k is near n), otherwise 1 / ((n + 1) B(n - k + 1, k + 1)).
CSF_FN double binom(double n, double k) {
  if (isnan(n) || isnan(k)) return lim<double>::nan();
  if (n < 0 && floor(n) == n) return lim<double>::nan();
  double kx = floor(k);
  if (k == kx && (fabs(n) > 1e-8 || n == 0)) {
    // integer k: the product formula (fewer roundings), over the smaller of k and n - k
    const double nx = floor(n);
    if (nx == n && kx > nx / 2 && nx > 0) kx = nx - kx;
    if (kx >= 0 && kx < 20) {
      double num = 1.0, den = 1.0;
      for (int i = 1; i <= int(kx); ++i) {
        num *= i + n - kx;
        den *= i;
        if (fabs(num) > 1e50) { num /= den; den = 1.0; }
      }
      return num / den;
    }
  }
  if (n >= 1e10 * k && k > 0) {
    // n >> k: exp(-betaln(1 + n - k, 1 + k) - log(n + 1)), as SciPy.
    return exp(-betaln(1.0 + n - k, 1.0 + k) - log(n + 1.0));
  }
  if (k > 1e8 * fabs(n)) {
    // |k| >> |n|: SciPy's asymptotic form (the sign by the parity of floor(k)).
    double num = ::tgamma(1.0 + n) / fabs(k) + ::tgamma(1.0 + n) * n / (2.0 * k * k);
    num /= k_pi * pow(fabs(k), n);
    const double kf = floor(k);
    const bool kf_int = fabs(kf) < 2147483647.0;
    if (k > 0) {
      double dk = k, sgn = 1.0;
      if (kf_int) { dk = k - kf; sgn = fmod(kf, 2.0) == 0.0 ? 1.0 : -1.0; }
      return num * sin((dk - n) * k_pi) * sgn;
    }
    if (kf_int) return 0.0;
    return num * sin(k * k_pi);
  }
  return 1.0 / (n + 1.0) / beta(1.0 + n - k, 1.0 + k);
}

}  // namespace cuarray_special
#endif
