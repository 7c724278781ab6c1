// Bessel functions of real order of cuarray.scipy.special: jv, yv (and jve, yve, which equal them
// for real arguments, and jn). Temme's method (N. M. Temme, J. Comput. Phys. 21 (1976) 343-350),
// in the arrangement of Press et al. (Numerical Recipes, 6.7 "bessjy"): CF1 for J'_nu / J_nu,
// downward recurrence to mu = nu - nl (|mu| <= 1/2), Y_mu and Y_mu+1 by Temme's series for x < 2
// or Steed's complex continued fraction CF2 = p + iq for x >= 2, J_mu from the Wronskian
// J Y' - J' Y = 2 / (pi x), upward recurrence for Y. Negative orders by
// J_-v = cos(v pi) J_v - sin(v pi) Y_v, Y_-v = sin(v pi) J_v + cos(v pi) Y_v; negative x only for
// integer order (J_n(-x) = (-1)^n J_n(x)). SciPy uses AMOS (and Cephes for integer orders).
// Float loops compute in double, as SciPy's do. Needs bessel_ik.cuh's temme_gammas.
#ifndef CUARRAY_SPECIAL_BESSEL_JY_CUH
#define CUARRAY_SPECIAL_BESSEL_JY_CUH
namespace cuarray_special {

// J_nu(x), Y_nu(x) for nu >= 0, 0 < x < inf.
CSF_FN void bessel_jy_pos(double nu, double x, double& rj, double& ry) {
  const double eps = 1e-16, fpmin = 1e-300;
  const int nl = x < 2.0 ? int(nu + 0.5) : (nu - x + 1.5 > 0 ? int(nu - x + 1.5) : 0);
  const double mu = nu - nl, mu2 = mu * mu;
  const double xi = 1.0 / x, xi2 = 2.0 * xi, w = xi2 / k_pi;
  // CF1: h = J'_nu / J_nu; isign the sign of J_nu relative to the start
  double h = nu * xi;
  if (h < fpmin) h = fpmin;
  double b = xi2 * nu, d = 0.0, c = h;
  int isign = 1;
  for (int i = 1; i < 1000000; ++i) {
    b += xi2;
    d = b - d;
    if (fabs(d) < fpmin) d = fpmin;
    c = b - 1.0 / c;
    if (fabs(c) < fpmin) c = fpmin;
    d = 1.0 / d;
    const double del = c * d;
    h *= del;
    if (d < 0) isign = -isign;
    if (fabs(del - 1.0) < eps) break;
  }
  // downward recurrence of (J, J') from nu to mu, unnormalised, rescaled (counted) when large
  double rjl = isign * fpmin, rjpl = h * rjl;
  const double rjl1 = rjl;
  int rescaled = 0;
  double fact = nu * xi;
  for (int l = nl; l >= 1; --l) {
    const double t = fact * rjl + rjpl;
    fact -= xi;
    rjpl = fact * t - rjl;
    rjl = t;
    if (fabs(rjl) > 1e250) { rjl *= 1e-250; rjpl *= 1e-250; ++rescaled; }
  }
  if (rjl == 0.0) rjl = eps;
  const double f = rjpl / rjl;
  double rjmu, rymu, ry1;
  if (x < 2.0) {
    const double x2 = 0.5 * x, pimu = k_pi * mu;
    const double fct = fabs(pimu) < eps ? 1.0 : pimu / sin(pimu);
    const double dd = -log(x2), e = mu * dd;
    const double fct2 = fabs(e) < eps ? 1.0 : sinh(e) / e;
    double gam1, gam2, gampl, gammi;
    temme_gammas(mu, gam1, gam2, gampl, gammi);
    double ff = 2.0 / k_pi * fct * (gam1 * cosh(e) + gam2 * fct2 * dd);
    const double ee = exp(e);
    double p = ee / (gampl * k_pi), q = 1.0 / (ee * k_pi * gammi);
    const double pimu2 = 0.5 * pimu;
    const double fct3 = fabs(pimu2) < eps ? 1.0 : sin(pimu2) / pimu2;
    const double r = k_pi * pimu2 * fct3 * fct3;
    double cc = 1.0;
    const double d2 = -x2 * x2;
    double sum = ff + r * q, sum1 = p;
    for (int i = 1; i < 500; ++i) {
      ff = (i * ff + p + q) / (i * i - mu2);
      cc *= d2 / i;
      p /= i - mu;
      q /= i + mu;
      const double del = cc * (ff + r * q);
      sum += del;
      sum1 += cc * p - i * del;
      if (fabs(del) < (1.0 + fabs(sum)) * eps) break;
    }
    rymu = -sum;
    ry1 = -sum1 * xi2;
    const double rymup = mu * xi * rymu - ry1;
    rjmu = w / (rymup - f * rymu);
  } else {
    double a = 0.25 - mu2, p = -0.5 * xi, q = 1.0;
    const double br = 2.0 * x;
    double bi = 2.0;
    double fc = a * xi / (p * p + q * q);
    double cr = br + q * fc, ci = bi + p * fc;
    double den = br * br + bi * bi;
    double dr = br / den, di = -bi / den;
    double dlr = cr * dr - ci * di, dli = cr * di + ci * dr;
    double t = p * dlr - q * dli;
    q = p * dli + q * dlr;
    p = t;
    for (int i = 2; i < 1000000; ++i) {
      a += 2 * (i - 1);
      bi += 2.0;
      dr = a * dr + br;
      di = a * di + bi;
      if (fabs(dr) + fabs(di) < fpmin) dr = fpmin;
      fc = a / (cr * cr + ci * ci);
      cr = br + cr * fc;
      ci = bi - ci * fc;
      if (fabs(cr) + fabs(ci) < fpmin) cr = fpmin;
      den = dr * dr + di * di;
      dr /= den;
      di /= -den;
      dlr = cr * dr - ci * di;
      dli = cr * di + ci * dr;
      t = p * dlr - q * dli;
      q = p * dli + q * dlr;
      p = t;
      if (fabs(dlr - 1.0) + fabs(dli) < eps) break;
    }
    const double gam = (p - f) / q;
    rjmu = sqrt(w / ((p - f) * gam + q));
    rjmu = copysign(rjmu, rjl);
    rymu = rjmu * gam;
    const double rymup = rymu * (p + q / gam);
    ry1 = mu * xi * rymu - rymup;
  }
  double scale = rjmu / rjl;
  for (int i = 0; i < rescaled; ++i) scale *= 1e-250;
  rj = rjl1 * scale;
  for (int i = 1; i <= nl; ++i) {
    const double t = (mu + i) * xi2 * ry1 - rymu;
    rymu = ry1;
    ry1 = t;
    if (fabs(rymu) > 1e300) break;  // Y_nu overflows: -inf (below)
  }
  ry = fabs(rymu) > 1e300 || isnan(rymu) ? -lim<double>::inf() : rymu;
}

// Hankel's asymptotic expansion (A&S 9.2.5-10) for x > max(1e4, 2 nu^2), where the fractions
// above would take O(x) steps: J, Y = sqrt(2/(pi x)) (P cos chi -+ Q sin chi, P sin chi + Q cos chi),
// chi = x - (nu/2 + 1/4) pi, cos/sin chi by the angle sum with cospi/sinpi of the exact part.
CSF_FN void bessel_jy_hankel(double nu, double x, double& rj, double& ry) {
  const double mu = 4.0 * nu * nu, z = 8.0 * x;
  double p = 1.0, q = 0.0, t = 1.0;
  for (int k = 1; k < 60; ++k) {
    const double m = 2.0 * k - 1.0;
    const double nt = t * (mu - m * m) / (k * z);
    if (fabs(nt) > fabs(t) && k > 2) break;  // the asymptotic series starts to grow
    t = nt;
    if (k % 4 == 1) q += t;
    else if (k % 4 == 2) p -= t;
    else if (k % 4 == 3) q -= t;
    else p += t;
    if (fabs(t) < 1e-17) break;
  }
  const double a = 0.5 * nu + 0.25;  // chi = x - a pi
  const double ca = cospi(a), sa = sinpi(a), cx = cos(x), sx = sin(x);
  const double cchi = cx * ca + sx * sa, schi = sx * ca - cx * sa;
  const double f = sqrt(2.0 / (k_pi * x));
  rj = f * (p * cchi - q * schi);
  ry = f * (p * schi + q * cchi);
}

// J_v(x) (want_y false) or Y_v(x), every real v, SciPy's edges.
CSF_FN double bessel_jy(double v, double x, bool want_y) {
  if (isnan(v) || isnan(x)) return lim<double>::nan();
  double sgn = 1.0;
  const bool vint = v == floor(v);
  if (x < 0) {
    if (!vint) return lim<double>::nan();
    if (want_y) return lim<double>::nan();
    if (fmod(v, 2.0) != 0.0) sgn = -1.0;
    x = -x;
  }
  if (x == 0) {
    if (want_y) return -lim<double>::inf();
    if (v == 0) return 1.0;
    if (v > 0 || vint) return 0.0;
    return lim<double>::inf();
  }
  if (isinf(x)) return 0.0;
  const double av = fabs(v);
  double j, y;
  if (x > 1e4 && x > 2.0 * av * av) {
    bessel_jy_hankel(av, x, j, y);
  } else if (av > 1e5) {
    // orders beyond the recurrences' range: J underflows and Y overflows for x <= v/2 (J_v(v/2)
    // ~ e^(-0.13 v)); the transition region x ~ v is not computed (NaN)
    if (x > 0.5 * av) return lim<double>::nan();
    j = 0.0;
    y = -lim<double>::inf();
  } else {
    bessel_jy_pos(av, x, j, y);
  }
  if (v < 0) {
    // reflection, with cos/sin of v pi exact at integers and half-integers
    const double c = cospi(av), s = sinpi(av);
    const double jn = c * j - s * y, yn = s * j + c * y;
    j = jn;
    y = yn;
  }
  return sgn * (want_y ? y : j);
}
CSF_FN double jv(double v, double x) { return bessel_jy(v, x, false); }
CSF_FN double yv(double v, double x) { return bessel_jy(v, x, true); }

// Spherical Bessel functions j_n = sqrt(pi / (2x)) J_n+1/2, y_n likewise, integer n >= 0, and
// their derivatives j_n' = j_n-1 - (n+1)/x j_n (j_0' = -j_1), the same for y (SciPy's edges:
// j_n(0) = [n == 0], y_n(0) = -inf, j_n(-x) = (-1)^n j_n(x), y_n(-x) = (-1)^(n+1) y_n(x)).
CSF_FN double spherical_jn(double n, double x) {
  if (isnan(n) || isnan(x) || n < 0) return lim<double>::nan();
  if (x == 0) return n == 0 ? 1.0 : 0.0;
  if (isinf(x)) return 0.0;
  const double s = x < 0 && fmod(n, 2.0) != 0.0 ? -1.0 : 1.0;
  const double ax = fabs(x);
  return s * sqrt(0.5 * k_pi / ax) * jv(n + 0.5, ax);
}
CSF_FN double spherical_yn(double n, double x) {
  if (isnan(n) || isnan(x) || n < 0) return lim<double>::nan();
  if (x == 0) return -lim<double>::inf();
  if (isinf(x)) return 0.0;
  const double s = x < 0 && fmod(n, 2.0) == 0.0 ? -1.0 : 1.0;
  const double ax = fabs(x);
  return s * sqrt(0.5 * k_pi / ax) * yv(n + 0.5, ax);
}
CSF_FN double spherical_jn_d(double n, double x) {
  if (n == 0) return -spherical_jn(1.0, x);
  if (x == 0) return n == 1 ? 1.0 / 3.0 : 0.0;
  return spherical_jn(n - 1.0, x) - (n + 1.0) / x * spherical_jn(n, x);
}
CSF_FN double spherical_yn_d(double n, double x) {
  if (n == 0) return -spherical_yn(1.0, x);
  return spherical_yn(n - 1.0, x) - (n + 1.0) / x * spherical_yn(n, x);
}

}  // namespace cuarray_special
#endif
