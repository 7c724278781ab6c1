// Modified Bessel functions of real order of cuarray.scipy.special: iv, ive, kv, kve, kn and
// k0, k1, k0e, k1e. Temme's method (N. M. Temme, J. Comput. Phys. 19 (1975) 324-337), in the
// arrangement of Press et al. (Numerical Recipes, 6.7 "bessik"): the continued fraction
// I'_nu / I_nu (CF1), downward recurrence to mu = nu - round(nu) (|mu| <= 1/2), K_mu and K_mu+1 by
// Temme's series for x < 2 or Steed's form of the second continued fraction (CF2) for x >= 2,
// I_mu from the Wronskian I K' - I' K = -1/x, then upward recurrence for K. Everything is
// computed with K scaled by e^x and I by e^-x (so kve, ive never overflow; kv, iv are them times
// e^-+x). SciPy uses AMOS; the values agree within 1e-12 relative, the test's tolerance, away from
// the corners tests/scipy/test_special_host_cpu.py lists.
// Float loops compute in double, as SciPy's do.
#ifndef CUARRAY_SPECIAL_BESSEL_IK_CUH
#define CUARRAY_SPECIAL_BESSEL_IK_CUH
namespace cuarray_special {

// gam1 = (1/Gamma(1-mu) - 1/Gamma(1+mu)) / (2 mu), gam2 = (1/Gamma(1-mu) + 1/Gamma(1+mu)) / 2, from
// the Taylor series 1/Gamma(z) = sum c_k z^k (A&S 6.1.34): gam1 = -(c2 + c4 mu^2 + ...),
// gam2 = c1 + c3 mu^2 + ... (no cancellation at small mu).
CSF_FN void temme_gammas(double mu, double& gam1, double& gam2, double& gampl, double& gammi) {
  const double c[26] = {1.0, 0.5772156649015329, -0.6558780715202538, -0.0420026350340952, 0.1665386113822915,
                        -0.0421977345555443, -0.0096219715278770, 0.0072189432466630, -0.0011651675918591,
                        -0.0002152416741149, 0.0001280502823882, -0.0000201348547807, -0.0000012504934821,
                        0.0000011330272320, -0.0000002056338417, 0.0000000061160950, 0.0000000050020075,
                        -0.0000000011812746, 0.0000000001043427, 0.0000000000077823, -0.0000000000036968,
                        0.0000000000005100, -0.0000000000000206, -0.0000000000000054, 0.0000000000000014,
                        0.0000000000000001};
  const double m2 = mu * mu;
  double g1 = 0.0, g2 = 0.0;
  for (int k = 24; k >= 0; k -= 2) {  // c[k] is c_{k+1}: odd k+1 -> gam2, even -> gam1
    g2 = g2 * m2 + c[k];
    g1 = g1 * m2 + c[k + 1];
  }
  gam1 = -g1;
  gam2 = g2;
  gampl = gam2 - mu * gam1;  // 1/Gamma(1 + mu)
  gammi = gam2 + mu * gam1;  // 1/Gamma(1 - mu)
}

// I_nu(x) e^-x and K_nu(x) e^x for nu >= 0, x > 0 (finite).
CSF_FN void bessel_ik_scaled(double nu, double x, double& ie, double& ke) {
  const double eps = 1e-16, fpmin = 1e-300;
  const int nl = int(nu + 0.5);
  const double mu = nu - nl, mu2 = mu * mu;
  const double xi = 1.0 / x, xi2 = 2.0 * xi;
  // CF1 as the ratio r = I_nu+1 / I_nu = 1/(2(nu+1)/x + 1/(2(nu+2)/x + ...)) (modified Lentz);
  // Press et al. iterate I'/I instead, whose use in the Wronskian below cancels for mu < 0 at
  // small x (4e-10 relative at nu = 27.6, x = 2e-6)
  double r = fpmin, cc1 = r, dd1 = 0.0;
  for (int i = 1; i < 200000; ++i) {
    const double bi = (nu + i) * xi2;
    dd1 = bi + dd1;
    if (fabs(dd1) < fpmin) dd1 = fpmin;
    cc1 = bi + 1.0 / cc1;
    if (fabs(cc1) < fpmin) cc1 = fpmin;
    dd1 = 1.0 / dd1;
    const double del = cc1 * dd1;
    r *= del;
    if (fabs(del - 1.0) < eps) break;
  }
  // downward recurrence I_k-1 = (2k/x) I_k + I_k+1 from nu to mu (positive terms: stable),
  // unnormalised, rescaled (counted) before it overflows
  double inu = fpmin, inu1 = r * fpmin;  // I_k, I_k+1
  const double start = inu;
  int rescaled = 0;
  for (int l = nl; l >= 1; --l) {
    const double k = mu + l;
    const double prev = k * xi2 * inu + inu1;
    inu1 = inu;
    inu = prev;
    if (inu > 1e250) { inu *= 1e-250; inu1 *= 1e-250; ++rescaled; }
  }
  const double rho = inu1 / inu;  // I_mu+1 / I_mu
  double rkmu, rk1;  // K_mu e^x, K_mu+1 e^x
  if (x < 2.0) {
    const double x2 = 0.5 * x, pimu = k_pi * mu;
    const double fct = fabs(pimu) < eps ? 1.0 : pimu / sin(pimu);
    const double dd = -log(x2), e = mu * dd;
    const double fct2 = fabs(e) < eps ? 1.0 : sinh(e) / e;
    double gam1, gam2, gampl, gammi;
    temme_gammas(mu, gam1, gam2, gampl, gammi);
    double ff = fct * (gam1 * cosh(e) + gam2 * fct2 * dd);
    double sum = ff;
    const double ee = exp(e);
    double p = 0.5 * ee / gampl, q = 0.5 / (ee * gammi), cc = 1.0;
    const double d2 = x2 * x2;
    double sum1 = p;
    for (int i = 1; i < 500; ++i) {
      ff = (i * ff + p + q) / (i * i - mu2);
      cc *= d2 / i;
      p /= i - mu;
      q /= i + mu;
      const double del = cc * ff;
      sum += del;
      sum1 += cc * (p - i * ff);
      if (fabs(del) < fabs(sum) * eps) break;
    }
    const double ex = exp(x);
    rkmu = sum * ex;
    rk1 = sum1 * xi2 * ex;
  } else {
    double bb = 2.0 * (1.0 + x), dd = 1.0 / bb, hh = dd, delh = dd, q1 = 0.0, q2 = 1.0;
    const double a1 = 0.25 - mu2;
    double q = a1, cc = a1, a = -a1, s = 1.0 + q * delh;
    for (int i = 1; i < 200000; ++i) {
      a -= 2 * i;
      cc = -a * cc / (i + 1.0);
      const double qnew = (q1 - bb * q2) / a;
      q1 = q2;
      q2 = qnew;
      q += cc * qnew;
      bb += 2.0;
      dd = 1.0 / (bb + a * dd);
      delh = (bb * dd - 1.0) * delh;
      hh += delh;
      const double dels = q * delh;
      s += dels;
      if (fabs(dels / s) < eps) break;
    }
    hh = a1 * hh;
    rkmu = sqrt(k_pi / (2.0 * x)) / s;
    rk1 = rkmu * (mu + x + 0.5 - hh) * xi;
  }
  // Wronskian: I_mu K_mu+1 + I_mu+1 K_mu = 1/x
  const double rimu = xi / (rho * rkmu + rk1);  // I_mu e^-x
  ie = rimu * start / inu;
  for (int i = 0; i < rescaled; ++i) ie *= 1e-250;
  for (int i = 1; i <= nl; ++i) {
    const double t = (mu + i) * xi2 * rk1 + rkmu;
    rkmu = rk1;
    rk1 = t;
  }
  ke = rkmu;
}

// K_v(x) (scaled: times e^x), SciPy's edges: NaN for x < 0 or NaN; inf at 0; 0 at inf; even in v.
CSF_FN double kv_impl(double v, double x, bool scaled) {
  if (x == 0) return lim<double>::inf();  // before v's NaN check, as SciPy: kv(nan, 0) = inf
  if (isnan(v) || isnan(x) || x < 0) return lim<double>::nan();
  if (isinf(v)) return lim<double>::inf();
  v = fabs(v);
  if (isinf(x)) return 0.0;
  if (v > 1e5) return x <= 0.5 * v ? lim<double>::inf() : lim<double>::nan();  // see iv_impl
  double ie, ke;
  bessel_ik_scaled(v, x, ie, ke);
  // e^-x in two halves: K e^x can be huge where e^-x underflows (K_750(750) ~ 1e-175)
  return scaled ? ke : ke * exp(-0.5 * x) * exp(-0.5 * x);
}
CSF_FN double kv(double v, double x) { return kv_impl(v, x, false); }
CSF_FN double kve(double v, double x) { return kv_impl(v, x, true); }

// I_v(x) (scaled: times e^-|x|). x < 0 only for integer v (I_v(-x) = (-1)^v I_v(x)); v < 0 by
// I_-v = I_v + (2/pi) sin(v pi) K_v.
CSF_FN double iv_impl(double v, double x, bool scaled) {
  if (isnan(v) || isnan(x)) return lim<double>::nan();
  double sgn = 1.0;
  if (x < 0) {
    if (v != floor(v)) return lim<double>::nan();
    if (fmod(v, 2.0) != 0.0) sgn = -1.0;
    x = -x;
  }
  if (x == 0) {
    if (v == 0) return 1.0;
    if (v > 0 || v == floor(v)) return 0.0;
    return lim<double>::inf();
  }
  if (isinf(x)) return scaled ? 0.0 : sgn * lim<double>::inf();
  if (isinf(v)) return 0.0;
  const double av = fabs(v);
  // orders beyond the recurrences' range: I underflows for x <= v/2 (I_v(v/2) ~ e^(-0.13 v));
  // the region x ~ v is not computed (NaN)
  if (av > 1e5 && !(x < 1e-8)) return v > 0 && x <= 0.5 * av ? 0.0 : lim<double>::nan();
  if (x < 1e-8 && (v >= 0 || v == floor(v))) {
    // the series' leading term (x/2)^v / Gamma(v + 1): the next is x^2 / (4 (v + 1)) < 3e-17
    // relative (the recurrences underflow at x ~ 1e-300)
    const double r = exp(av * log(0.5 * x) - lgamma(av + 1.0));
    return sgn * (scaled ? r * exp(-x) : r);
  }
  double ie, ke;
  bessel_ik_scaled(av, x, ie, ke);
  double r = ie;
  if (v < 0 && v != floor(v)) {
    // (2/pi) sin(v pi) K_v, scaled by e^-x like ie: K e^x e^-2x
    r += 2.0 / k_pi * sinpi(av) * ke * exp(-2.0 * x);
  }
  return sgn * (scaled ? r : r * exp(0.5 * x) * exp(0.5 * x));  // e^x in halves, as kv
}
CSF_FN double iv(double v, double x) { return iv_impl(v, x, false); }
CSF_FN double ive(double v, double x) { return iv_impl(v, x, true); }

// K_n for integer n (SciPy's kn: n truncated as its loops cast it to an int).
CSF_FN double kn(double n, double x) {
  if (!(fabs(n) < 2147483648.0)) return lim<double>::nan();
  return kv(trunc(n), x);
}

// Modified spherical Bessel functions of integer order n >= 0 (SciPy's spherical_in/kn):
// i_n(x) = sqrt(pi/2x) I_n+1/2(x), odd or even in x with n (i_n(-x) = (-1)^n i_n(x));
// k_n(x) = sqrt(pi/2x) K_n+1/2(x), by its closed form's recurrence: k_0 = (pi/2) e^-x / x,
// k_1 = k_0 (1 + 1/x), k_m+1 = k_m-1 + (2m+1)/x k_m (upward: K's dominant direction; for x > 0 all
// terms are positive, so no cancellation). n steps. For x < 0, the analytic continuation (SciPy's
// value there) from k_n(|x|) and i_n(|x|) (spherical_kn_pos: so that spherical_kn does not call
// itself, which would leave the stack of every kernel reaching it unsized by ptxas: see beta.cuh).
CSF_FN double spherical_in(double n, double x) {
  if (isnan(n) || isnan(x) || n < 0) return lim<double>::nan();
  if (x == 0) return n == 0 ? 1.0 : 0.0;
  const double s = x < 0 && fmod(n, 2.0) != 0.0 ? -1.0 : 1.0;
  if (isinf(x)) return s * lim<double>::inf();
  const double ax = fabs(x);
  return s * sqrt(0.5 * k_pi / ax) * iv(n + 0.5, ax);
}
CSF_FN double spherical_kn_pos(double n, double x) {  // k_n(x) for finite x > 0, n >= 0
  // (beyond x = 700, scaled by e^x and e^-x applied in halves at the end: e^-x alone underflows
  // before k_n does at large n)
  const bool scaled = x > 700.0;
  double k0 = 0.5 * k_pi * (scaled ? 1.0 : exp(-x)) / x;
  double k1 = k0 * (1.0 + 1.0 / x);
  if (n == 0) k1 = k0;
  for (int m = 1; m < (int)n && !isinf(k1); ++m) {
    const double k2 = k0 + (2 * m + 1) / x * k1;
    k0 = k1;
    k1 = k2;
  }
  if (!scaled) return k1;
  const double h = exp(-0.5 * x);
  return k1 * h * h;
}
CSF_FN double spherical_kn(double n, double x) {
  if (isnan(n) || isnan(x) || n < 0) return lim<double>::nan();
  if (x == 0) return lim<double>::inf();
  if (isinf(x)) return x > 0 ? 0.0 : -lim<double>::inf();
  if (x < 0) {
    // k_n(-x) = -(-1)^n k_n(x) - pi i_n(x) (K_v(x e^(i pi)) = e^(-i pi v) K_v(x) - i pi I_v(x) and
    // sqrt(pi/2z)'s -i: AMOS's value through SciPy's formula)
    const double k = spherical_kn_pos(n, -x), i = spherical_in(n, -x);
    return (fmod(n, 2.0) != 0.0 ? k : -k) - k_pi * i;
  }
  return spherical_kn_pos(n, x);
}
// Their derivatives as SciPy forms them: i_n' = i_n-1 - (n+1)/x i_n (i_0' = i_1, i_1'(0) = 1/3),
// k_n' = -k_n-1 - (n+1)/x k_n (k_0' = -k_1).
CSF_FN double spherical_in_d(double n, double x) {
  if (n == 0) return spherical_in(1.0, x);
  if (x == 0) return n == 1 ? 1.0 / 3.0 : 0.0;
  return spherical_in(n - 1.0, x) - (n + 1.0) / x * spherical_in(n, x);
}
CSF_FN double spherical_kn_d(double n, double x) {
  if (n == 0) return -spherical_kn(1.0, x);
  return -spherical_kn(n - 1.0, x) - (n + 1.0) / x * spherical_kn(n, x);
}

}  // namespace cuarray_special
#endif
