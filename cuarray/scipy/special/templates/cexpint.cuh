// The complex loops of cuarray.scipy.special's exponential integrals: exp1 (E1), expi (Ei), and the
// two-output sici (Si, Ci) and shichi (Shi, Chi) ('D->D', 'D->DD'; complex64 computed in
// complex128, as SciPy's). The algorithms are SciPy's:
// - E1 (xsf's expint.h, Zhang & Jin's E1Z): its power series for |z| < 5 and in the wedge
//   Re z < -2 |Im z| up to |z| = 40 (the continued fraction converges slowly near the negative
//   axis), else the continued fraction E1 = e^-z (1/(z + 1/(1 + 1/(z + 2/(1 + 2/(z + ...)))))
//   (DLMF 6.9.1); on the negative real axis the side of the cut is the sign of Im z's zero.
// - Ei(z) = -E1(-z) +- i pi (DLMF 6.2.5 continued off the axis).
// - Si, Ci and Shi, Chi (xsf's sici.h, J. Wilson's after mpmath): their power series for |z| < 0.8
//   (DLMF 6.6.5-6), else from Ei(+-iz) and Ei(+-z) (DLMF 6.5.5-6, 6.4.4-7).
// Non-finite z are SciPy's: NaN but for sici and shichi at +-inf on the real axis (their limits).
// Where e^-z overflows (Re z < -709.78) it is applied in two halves, finite while E1 is.
#ifndef CUARRAY_SPECIAL_CEXPINT_CUH
#define CUARRAY_SPECIAL_CEXPINT_CUH
namespace cuarray_special {

CSF_NOINLINE cdouble cexp1(cdouble z) {
  const double x = z.re, a0 = cabs(z);
  if (!isfinite(z.re) || !isfinite(z.im)) return cd(lim<double>::nan(), lim<double>::nan());
  if (a0 == 0.0) return cd(lim<double>::inf(), 0.0);
  const bool cut = x <= 0.0 && z.im == 0.0;  // on the negative real axis: the side is Im z's sign
  if (a0 < 5.0 || (x < -2.0 * fabs(z.im) && a0 < 40.0)) {
    cdouble ce1 = cd(1.0, 0.0), cr = cd(1.0, 0.0);
    for (int k = 1; k < 501; ++k) {
      cr = -(cr * z) * (k / ((k + 1.0) * (k + 1.0)));
      ce1 = ce1 + cr;
      if (cabs(cr) < cabs(ce1) * 1e-15) break;
    }
    if (cut) return (-k_euler - clog(-z) + z * ce1) - cd(0.0, copysign(k_pi, z.im));
    return -k_euler - clog(z) + z * ce1;
  }
  // the continued fraction, summed as its convergents' differences (Zhang & Jin)
  cdouble zd = cd(1.0, 0.0) / z, zdc = zd, zc = zd;
  for (int k = 1; k < 501; ++k) {
    zd = cd(1.0, 0.0) / (zd * double(k) + 1.0);
    zdc = zdc * (zd - 1.0);
    zc = zc + zdc;
    zd = cd(1.0, 0.0) / (zd * double(k) + z);
    zdc = zdc * (z * zd - 1.0);
    zc = zc + zdc;
    if (cabs(zdc) <= cabs(zc) * 1e-15 && k > 20) break;
  }
  cdouble ce1;
  if (isinf(exp(-x))) {
    // e^-z overflows before the product does: e^(-z/2) zc e^(-x/2), finite while E1 is (SciPy's
    // std::exp scales the same way inside glibc's cexp)
    const double h = exp(-0.5 * x);
    ce1 = (cexp(cd(-0.5 * x, -z.im)) * zc) * h;
  } else {
    ce1 = cexp(-z) * zc;
  }
  return cut ? ce1 - cd(0.0, k_pi) : ce1;
}

CSF_FN cdouble cexpi(cdouble z) {
  const cdouble e = -cexp1(-z);
  if (z.im > 0.0) return e + cd(0.0, k_pi);
  if (z.im < 0.0) return e - cd(0.0, k_pi);
  if (z.re > 0.0) return e + cd(0.0, copysign(k_pi, z.im));
  return e;
}

// The power series of Si and Ci - gamma - log z (sgn = -1) or of Shi and Chi - gamma - log z (+1).
CSF_FN void csici_series(double sgn, cdouble z, cdouble& s, cdouble& c) {
  cdouble fac = z;
  s = fac;
  c = cd(0.0, 0.0);
  for (int n = 1; n < 100; ++n) {
    fac = fac * (sgn * z / (2.0 * n));
    const cdouble t2 = fac / (2.0 * n);
    c = c + t2;
    fac = fac * (z / (2.0 * n + 1.0));
    const cdouble t1 = fac / (2.0 * n + 1.0);
    s = s + t1;
    if (cabs(t1) < 2.220446049250313e-16 * cabs(s) && cabs(t2) < 2.220446049250313e-16 * cabs(c)) break;
  }
}

CSF_NOINLINE void csici(cdouble z, cdouble& si, cdouble& ci) {
  if (z.im == 0.0 && isinf(z.re)) {
    si = cd(copysign(0.5 * k_pi, z.re), 0.0);
    ci = cd(0.0, z.re > 0 ? 0.0 : k_pi);
    return;
  }
  if (!isfinite(z.re) || !isfinite(z.im)) {
    si = ci = cd(lim<double>::nan(), lim<double>::nan());
    return;
  }
  if (cabs(z) < 0.8) {
    csici_series(-1.0, z, si, ci);
    if (z.re == 0.0 && z.im == 0.0) {
      ci = cd(-lim<double>::inf(), lim<double>::nan());
    } else {
      ci = ci + (k_euler + clog(z));
    }
    return;
  }
  // i z and -i/2 (t1 - t2) as full complex products, as SciPy's: the zeros' signs pick the side of
  // Ei's cut (i (-0 + 50i) is -50 + 0i, not -50 - 0i)
  const cdouble jz = cd(0.0, 1.0) * z;
  const cdouble t1 = cexpi(jz), t2 = cexpi(-jz);
  si = cd(0.0, -0.5) * (t1 - t2);
  ci = 0.5 * (t1 + t2);
  if (z.re == 0.0) {
    if (z.im > 0) ci = ci + cd(0.0, 0.5 * k_pi);
    else if (z.im < 0) ci = ci - cd(0.0, 0.5 * k_pi);
  } else if (z.re > 0) {
    si = si - 0.5 * k_pi;
  } else {
    si = si + 0.5 * k_pi;
    ci = z.im >= 0 ? ci + cd(0.0, k_pi) : ci - cd(0.0, k_pi);
  }
}

CSF_NOINLINE void cshichi(cdouble z, cdouble& shi, cdouble& chi) {
  if (z.im == 0.0 && isinf(z.re)) {
    shi = cd(z.re, 0.0);
    chi = cd(lim<double>::inf(), 0.0);
    return;
  }
  if (!isfinite(z.re) || !isfinite(z.im)) {
    shi = chi = cd(lim<double>::nan(), lim<double>::nan());
    return;
  }
  if (cabs(z) < 0.8) {
    csici_series(1.0, z, shi, chi);
    if (z.re == 0.0 && z.im == 0.0) {
      chi = cd(-lim<double>::inf(), lim<double>::nan());
    } else {
      chi = chi + (k_euler + clog(z));
    }
    return;
  }
  const cdouble t1 = cexpi(z), t2 = cexpi(-z);
  shi = 0.5 * (t1 - t2);
  chi = 0.5 * (t1 + t2);
  if (z.im > 0) {
    shi = shi - cd(0.0, 0.5 * k_pi);
    chi = chi + cd(0.0, 0.5 * k_pi);
  } else if (z.im < 0) {
    shi = shi + cd(0.0, 0.5 * k_pi);
    chi = chi - cd(0.0, 0.5 * k_pi);
  } else if (z.re < 0) {
    chi = chi + cd(0.0, k_pi);
  }
}

template <typename C> CSF_FN C exp1_c(const C& z) { return from_cd<C>(cexp1(to_cd(z))); }
template <typename C> CSF_FN C expi_c(const C& z) { return from_cd<C>(cexpi(to_cd(z))); }
// The ufunc forms (first output returned, second through a reference of the loop's type).
template <typename C> CSF_FN C sici_c(const C& z, C& ci) {
  cdouble s, c;
  csici(to_cd(z), s, c);
  ci = from_cd<C>(c);
  return from_cd<C>(s);
}
template <typename C> CSF_FN C shichi_c(const C& z, C& chi) {
  cdouble s, c;
  cshichi(to_cd(z), s, c);
  chi = from_cd<C>(c);
  return from_cd<C>(s);
}

}  // namespace cuarray_special
#endif
