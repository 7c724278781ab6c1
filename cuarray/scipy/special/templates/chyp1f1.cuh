// The complex loops of cuarray.scipy.special's hyp1f1: Kummer's M(a, b, z) for real a, b and complex
// z ('ddD->D', 'ffF->F'; complex64 computed in complex128, as SciPy's). The algorithm is SciPy's
// (xsf's specfun.h hyp1f1 over Zhang & Jin's CCHG, "Computation of Special Functions", 1996):
// the closed forms (a = 0, -1, b, b + 1; a = 1, b = 2), the terminating series for a negative
// integer a, else Kummer's transformation M(a, b, z) = e^z M(b - a, b, -z) to Re z >= 0, a reduced
// below 2 and the three-term recurrence in a back up, and for each a the defining series
// (|z| < 20 + |b| or a < 0) or the asymptotic expansion in 1/z (A&S 13.5.1, eight terms). SciPy's
// own accuracy is the limit (its test against mpmath is marked xfail): the expansion's eight terms
// and the series' cancellation for large |z| off the positive axis. NaN arguments give NaN, as
// SciPy 1.18 (1.17 returned 1 for z = 0 or a = 0 whatever the others were).
#ifndef CUARRAY_SPECIAL_CHYP1F1_CUH
#define CUARRAY_SPECIAL_CHYP1F1_CUH
namespace cuarray_special {

// Fortran's INT(x) as SciPy's build runs it (x86 cvttsd2si): truncation, INT_MIN when out of range
// or NaN. CUDA's conversion saturates instead; SciPy's case tests and loop counts depend on it.
CSF_FN int zj_int(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? int(x) : (-2147483647 - 1);
}

// log Gamma(x) of a real x as CCHG's CGAMA(x, 0) computes it (the asymptotic expansion's
// recurrence in a amplifies its rounding, so its arithmetic is kept): Stirling's series with ten
// terms from x + n >= 7 down by the recurrence, the reflection for x < 0; log|Gamma(x)| +- i pi
// where Gamma(x) < 0, 1e300 at the poles.
CSF_FN cdouble zj_lgamma(double x) {
  const double c[10] = {8.333333333333333e-02,  -2.777777777777778e-03, 7.936507936507937e-04,
                        -5.952380952380952e-04, 8.417508417508418e-04,  -1.917526917526918e-03,
                        6.410256410256410e-03,  -2.955065359477124e-02, 1.796443723688307e-01,
                        -1.392432216905900e+00};
  const double pi = 3.141592653589793;
  if (x <= 0.0 && x == double(zj_int(x))) return cd(1e300, 0.0);
  const double xx = fabs(x);
  double x0 = xx;
  int na = 0;
  if (xx <= 7.0) {
    na = zj_int(7 - xx);
    x0 = xx + na;
  }
  double gr = (x0 - 0.5) * log(x0) - x0 + 0.5 * log(2.0 * pi);
  for (int k = 1; k < 11; ++k) gr += c[k - 1] * pow(x0, 1 - 2 * k);
  if (xx <= 7.0) {
    double gr1 = 0.0;
    for (int j = 0; j < na; ++j) gr1 += 0.5 * log((xx + j) * (xx + j));
    gr -= gr1;
  }
  if (x >= 0.0) return cd(gr, 0.0);
  // the reflection; the phase -atan2(si, sr) with si = -cos(pi |x|) sinh(-0): SciPy 1.18's sign of
  // pi (1.17's atan(si/sr) + pi gave -pi throughout; e^z's phase at |Im z| ~ 1e10 sees it)
  const double sr = -sin(pi * xx), si = cos(pi * xx) > 0 ? 0.0 : -0.0;
  return cd(log(pi / (xx * fabs(sr))) - gr, sr < 0.0 ? -atan2(si, sr) : 0.0);
}

CSF_NOINLINE cdouble chyp1f1(double a, double b, cdouble z) {
  const double nan = lim<double>::nan();
  if (isnan(a) || isnan(b) || isnan(z.re) || isnan(z.im)) return cd(nan, nan);
  const int ib = zj_int(fabs(b));  // (-INT_MIN wraps to INT_MIN in SciPy's build)
  if (b == 0.0 || b == (ib == -2147483647 - 1 ? double(ib) : -double(ib))) return cd(lim<double>::inf(), 0.0);
  if (a == 0.0 || (z.re == 0.0 && z.im == 0.0)) return cd(1.0, 0.0);
  if (a == -1.0) return 1.0 - z / b;
  if (a == b) return cexp(z);
  if (a - b == 1.0) return (1.0 + z / b) * cexp(z);
  if (a == 1.0 && b == 2.0) return (cexp(z) - 1.0) / z;
  cdouble chg;
  if (a == double(zj_int(a)) && a < 0.0) {
    const int m = zj_int(-a);
    cdouble cr = cd(1.0, 0.0);
    chg = cd(1.0, 0.0);
    for (int k = 1; k < m + 1; ++k) {
      cr = (cr * (a + k - 1.0) / double(k) / (b + k - 1.0)) * z;
      chg = chg + cr;
    }
    return chg;
  }
  const double x0 = z.re;
  double a0 = a;
  if (x0 < 0.0) {
    a = b - a;
    a0 = a;
    z = -z;
  }
  int nl = 0, la = 0;
  if (a >= 2.0) {
    nl = 1;
    la = zj_int(a);
    a -= la + 1;
  }
  cdouble cy0 = cd(0.0, 0.0), cy1 = cd(0.0, 0.0);
  for (int n = 0; n < nl + 1; ++n) {
    if (a0 >= 2.0) a += 1.0;
    if (cabs(z) < 20.0 + fabs(b) || a < 0.0) {
      cdouble chw = cd(0.0, 0.0), crg = cd(1.0, 0.0);
      chg = cd(1.0, 0.0);
      for (int j = 1; j < 501; ++j) {
        crg = (crg * (a + j - 1.0) / (j * (b + j - 1.0))) * z;
        chg = chg + crg;
        if (cabs((chg - chw) / chg) < 1e-15) break;
        chw = chg;
      }
    } else {
      const cdouble cg1 = zj_lgamma(a), cg2 = zj_lgamma(b), cg3 = zj_lgamma(b - a);
      cdouble cs1 = cd(1.0, 0.0), cs2 = cd(1.0, 0.0), cr1 = cd(1.0, 0.0), cr2 = cd(1.0, 0.0);
      for (int i = 1; i <= 8; ++i) {
        cr1 = (-cr1 * (a + i - 1.0) * (a - b + i)) / (z * double(i));
        cr2 = (cr2 * (b - a + i - 1.0) * (i - a)) / (z * double(i));
        cs1 = cs1 + cr1;
        cs2 = cs2 + cr2;
      }
      // e^(i pi a ns), ns the side of the cut (Re z >= 0 here: the sign of Im z); real on the axis
      const double ns = atan2(z.im, z.re) > -0.5 * k_pi ? 1.0 : -1.0;
      const cdouble cfac = z.im == 0.0 ? cd(cos(k_pi * a), 0.0) : cexp(cd(0.0, ns * k_pi * a));
      const cdouble chg1 = cexp(cg2 - cg3) * cpow_real(z, -a) * cfac * cs1;
      const cdouble chg2 = cexp(cg2 - cg1 + z) * cpow_real(z, a - b) * cs2;
      chg = chg1 + chg2;
    }
    if (n == 0) cy0 = chg;
    if (n == 1) cy1 = chg;
  }
  if (a0 >= 2.0) {
    for (int i = 1; i < la; ++i) {
      chg = ((2.0 * a - b + z) * cy1 + (b - a) * cy0) / a;
      cy0 = cy1;
      cy1 = chg;
      a += 1.0;
    }
  }
  if (x0 < 0.0) chg = chg * cexp(-z);
  return chg;
}

template <typename C> CSF_FN C hyp1f1_c(double a, double b, const C& z) { return from_cd<C>(chyp1f1(a, b, to_cd(z))); }

}  // namespace cuarray_special
#endif
