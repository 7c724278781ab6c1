// Struve functions H_v(z) and L_v(z) of cuarray.scipy.special (struve, modstruve), real v and z.
// SciPy's method (P. Virtanen's struve.c in SciPy/xsf): up to three evaluations, each with an error
// estimate, the first good one (1e-12 relative) taken, else the best acceptable (1e-7):
//   the asymptotic expansion for large z, H_v - Y_v (L_v - I_v) = -+(1/sqrt pi) sum ... (A&S 12.1.29,
//     12.2.6), summed up to its smallest term (z >= 0.7 v + 12);
//   the power series (z/2)^(v+1) sum (-+1)^k (z/2)^2k / (Gamma(k+3/2) Gamma(k+v+3/2)) (A&S 12.1.3,
//     12.2.1), in double-double arithmetic (its terms cancel for H at large z);
//   the Bessel series sqrt(z/2pi) sum (z/2)^k / (k! (k+1/2)) J_k+v+1/2(z) (A&S 12.1.19; for L with
//     I and alternating signs), for |z| < |v| + 20.
// H_-n-1/2 = (-1)^n J_n+1/2 and L_-n-1/2 = I_n+1/2 exactly; z < 0 by the parity of integer v (NaN
// otherwise). Float loops compute in double, as SciPy's.
#ifndef CUARRAY_SPECIAL_STRUVE_CUH
#define CUARRAY_SPECIAL_STRUVE_CUH
namespace cuarray_special {

constexpr int k_struve_maxiter = 10000;
constexpr double k_struve_sum_eps = 1e-16, k_struve_sum_tiny = 1e-100;

CSF_FN double struve_asymp_large_z(double v, double z, bool is_h, double& err) {
  const double sgn = is_h ? -1.0 : 1.0;
  const double m = z / 2;
  int maxiter = m <= 0 ? 0 : (m > k_struve_maxiter ? k_struve_maxiter : (int)m);
  if (maxiter == 0 || z < v) {  // (below v the error estimate fails)
    err = lim<double>::inf();
    return lim<double>::nan();
  }
  double term = -sgn / k_sqrtpi * exp(-gammaln(v + 0.5) + (v - 1) * log(z / 2)) * gammasgn(v + 0.5);
  double sum = term, maxterm = 0.0;
  for (int n = 0; n < maxiter; ++n) {
    term *= sgn * (1 + 2 * n) * (1 + 2 * n - 2 * v) / (z * z);
    sum += term;
    if (fabs(term) > maxterm) maxterm = fabs(term);
    if (fabs(term) < k_struve_sum_eps * fabs(sum) || term == 0 || !isfinite(sum)) break;
  }
  sum += is_h ? yv(v, z) : iv(v, z);
  err = fabs(term) + fabs(maxterm) * 1e-16;
  return sum;
}

CSF_FN double struve_power_series(double v, double z, bool is_h, double& err) {
  const double sgn = is_h ? -1.0 : 1.0;
  double tmp = -gammaln(v + 1.5) + (v + 1) * log(z / 2);
  double scaleexp = 0.0;
  if (tmp < -600 || tmp > 600) {  // postpone under- or overflow
    scaleexp = tmp / 2;
    tmp -= scaleexp;
  }
  double term = 2 / k_sqrtpi * exp(tmp) * gammasgn(v + 1.5);
  double sum = term, maxterm = 0.0;
  dd_real cterm = dd(term), csum = dd(sum);
  const dd_real z2 = dd(sgn * z * z), c2v = dd(2 * v);
  for (int n = 0; n < k_struve_maxiter; ++n) {
    const dd_real cdiv = dd_mul(dd(3 + 2 * n), dd_add(dd(3 + 2 * n), c2v));
    cterm = dd_div(dd_mul(cterm, z2), cdiv);
    csum = dd_add(csum, cterm);
    term = cterm.hi + cterm.lo;
    sum = csum.hi + csum.lo;
    if (fabs(term) > maxterm) maxterm = fabs(term);
    if (fabs(term) < k_struve_sum_tiny * fabs(sum) || term == 0 || !isfinite(sum)) break;
  }
  err = fabs(term) + fabs(maxterm) * 1e-22;
  if (scaleexp != 0) {
    sum *= exp(scaleexp);
    err *= exp(scaleexp);
  }
  if (sum == 0 && term == 0 && v < 0 && !is_h) {  // spurious underflow
    err = lim<double>::inf();
    return lim<double>::nan();
  }
  return sum;
}

CSF_FN double struve_bessel_series(double v, double z, bool is_h, double& err) {
  if (is_h && v < 0) {  // less reliable there
    err = lim<double>::inf();
    return lim<double>::nan();
  }
  double sum = 0.0, maxterm = 0.0, term = 0.0;
  double cterm = sqrt(z / (2 * k_pi));
  for (int n = 0; n < k_struve_maxiter; ++n) {
    if (is_h) {
      term = cterm * jv(n + v + 0.5, z) / (n + 0.5);
      cterm *= z / 2 / (n + 1);
    } else {
      term = cterm * iv(n + v + 0.5, z) / (n + 0.5);
      cterm *= -z / 2 / (n + 1);
    }
    sum += term;
    if (fabs(term) > maxterm) maxterm = fabs(term);
    if (fabs(term) < k_struve_sum_eps * fabs(sum) || term == 0 || !isfinite(sum)) break;
  }
  err = fabs(term) + fabs(maxterm) * 1e-16 + 1e-300 * fabs(cterm);  // (and the Bessel functions' underflow)
  return sum;
}

// H_v(z) or L_v(z) for z >= 0 (not NaN); struve_hl reflects z < 0 onto it, so that no function
// calls itself (a recursive call graph leaves a kernel's stack size unknown to ptxas: beta.cuh).
CSF_FN double struve_hl_nonneg(double v, double z, bool is_h) {
  if (z == 0) {
    if (v < -1) return gammasgn(v + 1.5) * lim<double>::inf();
    if (v == -1) return 2 / k_sqrtpi / k_sqrtpi;  // 2 / (sqrt pi Gamma(1/2))
    return 0.0;
  }
  if (isinf(v)) return v > 0 && z < 2 ? 0.0 : lim<double>::nan();
  if (isinf(z)) return v >= 1 ? lim<double>::inf() : lim<double>::nan();  // (SciPy's values)
  // L_v ~ I_-v(z) overflows from about z = 713 (here beyond the range of I's own evaluation)
  if (!is_h && z > 1000 && z > 2 * fabs(v)) return lim<double>::inf();
  const double nh = -v - 0.5;
  if (nh == floor(nh) && nh > 0) {
    // (below z = 1e-20 the series' first term (z/2)^(n+1/2) / Gamma(n+3/2) is J and I exactly)
    const double b = z < 1e-20 ? exp((nh + 0.5) * log(0.5 * z) - gammaln(nh + 1.5))
                               : (is_h ? jv(nh + 0.5, z) : iv(nh + 0.5, z));
    return is_h && fmod(nh, 2.0) != 0 ? -b : b;
  }
  const double good = 1e-12, acceptable = 1e-7, acceptable_atol = 1e-300;
  double value[3], err[3];
  if (z >= 0.7 * v + 12) {
    value[0] = struve_asymp_large_z(v, z, is_h, err[0]);
    if (err[0] < good * fabs(value[0])) return value[0];
  } else {
    value[0] = lim<double>::nan();
    err[0] = lim<double>::inf();
  }
  value[1] = struve_power_series(v, z, is_h, err[1]);
  if (err[1] < good * fabs(value[1])) return value[1];
  if (fabs(z) < fabs(v) + 20) {
    value[2] = struve_bessel_series(v, z, is_h, err[2]);
    if (err[2] < good * fabs(value[2])) return value[2];
  } else {
    value[2] = lim<double>::nan();
    err[2] = lim<double>::inf();
  }
  int n = 0;
  if (err[1] < err[n]) n = 1;
  if (err[2] < err[n]) n = 2;
  if (err[n] < acceptable * fabs(value[n]) || err[n] < acceptable_atol) return value[n];
  // an overflow?
  double tmp = -gammaln(v + 1.5) + (v + 1) * log(z / 2);
  if (!is_h) tmp = fabs(tmp);
  if (tmp > 700) return lim<double>::inf() * gammasgn(v + 1.5);
  return lim<double>::nan();
}
CSF_FN double struve_hl(double v, double z, bool is_h) {
  if (isnan(v) || isnan(z)) return z == 0 ? 0.0 : lim<double>::nan();
  if (z < 0) {
    const double n = trunc(v);
    if (v != n || isinf(v)) return lim<double>::nan();
    return (fmod(n, 2.0) == 0 ? -1.0 : 1.0) * struve_hl_nonneg(v, -z, is_h);
  }
  return struve_hl_nonneg(v, z, is_h);
}

CSF_FN double struve_h(double v, double z) { return struve_hl(v, z, true); }
CSF_FN double struve_l(double v, double z) { return struve_hl(v, z, false); }

}  // namespace cuarray_special
#endif
