// The complex loops of cuarray.scipy.special's gamma family: loggamma (the principal branch of
// log Gamma), gamma and rgamma ('D->D'; complex64 computed in complex128, as SciPy's). The algorithm
// is SciPy's (xsf's loggamma.h and gamma.h, after J. Wilson's Cython; D. E. G. Hare, "Computing the
// principal branch of log-Gamma", J. Algorithms 25, 1997): Stirling's series for Re z > 7 or
// |Im z| > 7, Taylor series about 1 and 2, the reflection formula for Re z < 0.1, else the upward
// recurrence to Re z > 7 counting the branch crossings of the shifted product.
#ifndef CUARRAY_SPECIAL_CGAMMA_CUH
#define CUARRAY_SPECIAL_CGAMMA_CUH
namespace cuarray_special {

// A real polynomial (coefficients from the highest power) at complex z: Knuth's 4.6.4 (3).
CSF_FN cdouble cevalpoly(const double* c, int degree, cdouble z) {
  double a = c[0], b = c[1];
  const double r = 2.0 * z.re, s = z.re * z.re + z.im * z.im;
  for (int j = 2; j <= degree; ++j) {
    const double t = b;
    b = fma(-s, a, c[j]);
    a = fma(r, a, t);
  }
  return z * a + b;
}

// log z, by its series about 1 within 0.1 of it.
CSF_FN cdouble clog_near1(cdouble z) {
  if (cabs(z - 1.0) > 0.1) return clog(z);
  const cdouble w = z - 1.0;
  cdouble coeff = cd(-1.0, 0.0), res = cd(0.0, 0.0);
  for (int n = 1; n < 17; ++n) {
    coeff = coeff * (-w);
    res = res + coeff * (1.0 / n);
    if (cabs(res / coeff) < 2.220446049250313e-16) break;
  }
  return res;
}

// sin(pi z), scaled so that cosh and sinh of |pi Im z| >= 700 do not overflow early.
CSF_FN cdouble csinpi(cdouble z) {
  const double piy = k_pi * z.im, apy = fabs(piy);
  const double sx = sinpi(z.re), cx = cospi(z.re);
  if (apy < 700.0) return cd(sx * cosh(piy), cx * sinh(piy));
  const double e = exp(apy / 2.0);
  if (isinf(e)) {
    return cd(sx == 0.0 ? copysign(0.0, sx) : copysign(lim<double>::inf(), sx),
              cx == 0.0 ? copysign(0.0, cx) : copysign(lim<double>::inf(), cx));
  }
  return cd(0.5 * sx * e * e, 0.5 * cx * e * e);
}

CSF_FN cdouble cloggamma_stirling(cdouble z) {
  // B_2n / (2n (2n - 1)), highest first
  const double c[8] = {-2.955065359477124183E-2, 6.4102564102564102564E-3, -1.9175269175269175269E-3,
                       8.4175084175084175084E-4, -5.952380952380952381E-4, 7.9365079365079365079E-4,
                       -2.7777777777777777778E-3, 8.3333333333333333333E-2};
  const cdouble rz = cd(1.0, 0.0) / z, rzz = rz / z;
  return (z - 0.5) * clog(z) - z + 0.918938533204672742 + rz * cevalpoly(c, 7, rzz);
}

CSF_FN cdouble cloggamma_recurrence(cdouble z) {
  int flips = 0, sb = 0;
  cdouble prod = z;
  z = z + 1.0;
  while (z.re <= 7.0) {
    prod = prod * z;
    const int nsb = signbit(prod.im) ? 1 : 0;
    flips += (nsb != 0 && sb == 0) ? 1 : 0;
    sb = nsb;
    z = z + 1.0;
  }
  const cdouble r = cloggamma_stirling(z) - clog(prod);
  return cd(r.re, r.im - flips * 2.0 * k_pi);
}

CSF_FN cdouble cloggamma_taylor(cdouble z) {  // about z = 1: -gamma w + zeta(2) w^2 / 2 - ...
  const double c[23] = {-4.3478266053040259361E-2, 4.5454556293204669442E-2, -4.7619070330142227991E-2,
                        5.000004769810169364E-2,   -5.2631679379616660734E-2, 5.5555767627403611102E-2,
                        -5.8823978658684582339E-2, 6.2500955141213040742E-2, -6.6668705882420468033E-2,
                        7.1432946295361336059E-2,  -7.6932516411352191473E-2, 8.3353840546109004025E-2,
                        -9.0954017145829042233E-2, 1.0009945751278180853E-1, -1.1133426586956469049E-1,
                        1.2550966952474304242E-1,  -1.4404989676884611812E-1, 1.6955717699740818995E-1,
                        -2.0738555102867398527E-1, 2.7058080842778454788E-1, -4.0068563438653142847E-1,
                        8.2246703342411321824E-1,  -5.7721566490153286061E-1};
  const cdouble w = z - 1.0;
  return w * cevalpoly(c, 22, w);
}

// log Gamma(z) for Re z >= 0.1 (or outside the region where the reflection is taken).
CSF_FN cdouble cloggamma_right(cdouble z) {
  if (z.re > 7.0 || fabs(z.im) > 7.0) return cloggamma_stirling(z);
  if (cabs(z - 1.0) < 0.2) return cloggamma_taylor(z);
  if (cabs(z - 2.0) < 0.2) return clog_near1(z - 1.0) + cloggamma_taylor(z - 1.0);
  if (!signbit(z.im)) return cloggamma_recurrence(z);
  const cdouble r = cloggamma_recurrence(cd(z.re, -z.im));
  return cd(r.re, -r.im);
}

CSF_NOINLINE cdouble cloggamma(cdouble z) {
  if (isnan(z.re) || isnan(z.im)) return cd(lim<double>::nan(), lim<double>::nan());
  if (z.re <= 0 && z.im == 0 && z.re == floor(z.re)) return cd(lim<double>::nan(), lim<double>::nan());
  if (z.re < 0.1 && !(z.re > 7.0 || fabs(z.im) > 7.0)) {
    // the reflection formula (Hare's Proposition 3.1)
    const double t = copysign(2.0 * k_pi, z.im) * floor(0.5 * z.re + 0.25);
    return cd(1.1447298858494001741434262, t) - clog(csinpi(z)) - cloggamma_right(cd(1.0 - z.re, -z.im));
  }
  return cloggamma_right(z);
}

// 1/Gamma(z) = exp(-log Gamma(z)); zeros at the non-positive integers.
CSF_FN cdouble crgamma(cdouble z) {
  if (!isfinite(z.re) || !isfinite(z.im)) return cd(lim<double>::nan(), lim<double>::nan());
  if (z.re <= 0 && z.im == 0 && z.re == floor(z.re)) return cd(0.0, 0.0);
  const cdouble lg = cloggamma(z);
  if (lg.re == lim<double>::inf()) return cd(0.0, copysign(0.0, z.im));
  return cexp(-lg);
}

// Gamma(z) = exp(log Gamma(z)), SciPy's edges: NaN at the poles and for non-finite z, signed zero
// below -2^53, +inf on the real axis where exp overflows.
CSF_FN cdouble cgamma(cdouble z) {
  if (!isfinite(z.re) || !isfinite(z.im)) return cd(lim<double>::nan(), lim<double>::nan());
  if (z.re <= 0 && z.im == 0 && z.re == floor(z.re)) return cd(lim<double>::nan(), lim<double>::nan());
  if (z.re <= -9007199254740992.0) return cd(0.0, copysign(0.0, z.im));
  const cdouble lg = cloggamma(z);
  if (lg.re == -lim<double>::inf()) return cd(0.0, copysign(0.0, z.im));
  const double big = 709.782712893384;  // log(DBL_MAX)
  if (lg.re > big && z.im == 0.0) return cd(lim<double>::inf(), copysign(0.0, z.im));
  if (lg.re > big && z.re > 1.3407807929942596e154 && fabs(z.im) > 1.3407807929942596e154)
    return cd(-lim<double>::inf(), copysign(lim<double>::inf(), z.im));
  return cexp(lg);
}

template <typename C> CSF_FN C loggamma_c(const C& z) { return from_cd<C>(cloggamma(to_cd(z))); }
template <typename C> CSF_FN C gamma_c(const C& z) { return from_cd<C>(cgamma(to_cd(z))); }
template <typename C> CSF_FN C rgamma_c(const C& z) { return from_cd<C>(crgamma(to_cd(z))); }

}  // namespace cuarray_special
#endif
