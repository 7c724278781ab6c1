// The Lambert W function W_k(z) of cuarray.scipy.special (lambertw), complex z and integer branch
// k: SciPy's method (scipy/special/_lambertw.pxd, after R. M. Corless, G. H. Gonnet, D. E. G. Hare,
// D. J. Jeffrey, D. E. Knuth, "On the Lambert W function", Adv. Comput. Math. 5 (1996) 329):
// an initial guess (the series about the branch point -1/e, Corless et al. 4.22, near it on
// branches 0 and -1; a Pade approximant about 0 on branch 0; else the asymptotic
// log z + 2 pi i k - log(log z + 2 pi i k), their 4.20), then Halley's iteration (their 5.9)
// until a step is below tol |w|, written with e^-w when Re w >= 0 (no overflow of e^w). The
// Pade approximant is the [2/2] one of W(z)/z = 1 - z + 3z^2/2 - 8z^3/3 + 125z^4/24 (derived
// here; SciPy's differs, but only the starting point of the same iteration depends on it).
// SciPy's values at infinities, zero, NaN and z = 1. Float loops compute in double.
#ifndef CUARRAY_SPECIAL_LAMBERTW_CUH
#define CUARRAY_SPECIAL_LAMBERTW_CUH
namespace cuarray_special {

CSF_NOINLINE cdouble lambertw_c(cdouble z, long long k, double tol) {
  const double two_pi = 2 * k_pi, expn1 = 0.36787944117144232159553;  // e^-1
  if (isnan(z.re) || isnan(z.im)) return z;
  if (z.re == lim<double>::inf()) return cd(z.re, z.im + two_pi * k);
  if (z.re == -lim<double>::inf()) return cd(-z.re, -z.im + (two_pi * k + k_pi));
  if (z.re == 0 && z.im == 0) return k == 0 ? z : cd(-lim<double>::inf(), 0.0);
  if (z.re == 1 && z.im == 0 && k == 0) return cd(0.567143290409783873, 0.0);  // the omega constant
  cdouble w;
  const cdouble zb = cd(z.re + expn1, z.im);  // z + 1/e
  if (k == 0 && cabs(zb) < 0.3) {
    const cdouble p = csqrt(cd(2 * (2.718281828459045 * z.re + 1), 2 * 2.718281828459045 * z.im));
    w = cd(-1.0, 0.0) + p + (-1.0 / 3.0) * (p * p);
  } else if (k == 0 && -1.0 < z.re && z.re < 1.5 && fabs(z.im) < 1.0 && -2.5 * fabs(z.im) - 0.2 < z.re) {
    const cdouble num = cd(1.0, 0.0) + z * (cd(1.9, 0.0) + (17.0 / 60.0) * z);
    const cdouble den = cd(1.0, 0.0) + z * (cd(2.9, 0.0) + (101.0 / 60.0) * z);
    w = z * num / den;
  } else if (k == -1 && cabs(zb) < 0.3 && z.re < 0 && fabs(z.im) < 0.1 && !signbit(z.im)) {
    const cdouble p = csqrt(cd(2 * (2.718281828459045 * z.re + 1), 2 * 2.718281828459045 * z.im));
    w = cd(-1.0, 0.0) - p + (-1.0 / 3.0) * (p * p);
  } else if (k == -1 && z.im == 0 && z.re < 0 && z.re > -expn1) {
    // the real segment (-1/e, 0), either zero: W_-1 is real there (SciPy's value); the real
    // asymptotic guess log(-z) - log(-log(-z)) keeps the iteration real
    const double l1 = log(-z.re);
    w = cd(l1 - log(-l1), 0.0);
  } else {
    w = clog(z);
    w.im += two_pi * k;
    w = w - clog(w);
  }
  for (int i = 0; i < 100; ++i) {
    cdouble wn;
    if (w.re >= 0) {
      const cdouble ew = cexp(-w);
      const cdouble wewz = w - z * ew;
      wn = w - wewz / (w + 1.0 - (w + 2.0) * wewz / (2.0 * w + 2.0));
    } else {
      const cdouble ew = cexp(w);
      const cdouble wew = w * ew;
      const cdouble wewz = wew - z;
      wn = w - wewz / (wew + ew - (w + 2.0) * wewz / (2.0 * w + 2.0));
    }
    if (cabs(wn - w) <= tol * cabs(wn)) return wn;
    w = wn;
  }
  return cd(lim<double>::nan(), lim<double>::nan());
}

template <typename C> CSF_FN C lambertw(const C& z, long long k, double tol) {
  return from_cd<C>(lambertw_c(to_cd(z), k, tol));
}

}  // namespace cuarray_special
#endif
