// The complex loops of cuarray.scipy.special's elementary functions: log1p (its clog1p in
// cmath.cuh), expm1, xlogy and xlog1py ('D->D', 'DD->D'; complex64 computed in complex128, as SciPy's), with SciPy's algorithms
// (xsf's log.h and exp.h, SciPy 1.18) and values at the edges. These are SciPy's, not NumPy's:
// `numpy.expm1(inf + 0j)` is inf+nanj, `scipy.special.expm1(inf + 0j)` inf+0j.
#ifndef CUARRAY_SPECIAL_COMPLEX_ELEMENTARY_CUH
#define CUARRAY_SPECIAL_COMPLEX_ELEMENTARY_CUH
namespace cuarray_special {

// e^z - 1: the real part as expm1(x) cos(y) + cosm1(y) (-1 from x <= -40), the imaginary part as
// e^x sin(y); non-finite z by C99's cexp less 1.
CSF_FN cdouble cexpm1(cdouble z) {
  const double x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    if (isnan(x)) return cd(lim<double>::nan(), lim<double>::nan());
    if (isinf(x)) {
      if (x < 0) return cd(-1.0, 0.0);
      if (y == 0.0) return cd(x, y);
      if (isfinite(y)) return cd(x * cos(y), x * sin(y));
      return cd(x, lim<double>::nan());
    }
    return cd(lim<double>::nan(), lim<double>::nan());
  }
  double re, ex = 0.0;
  if (x <= -40.0) {
    re = -1.0;
  } else {
    ex = expm1(x);
    re = ex * cos(y) + cosm1(y);
  }
  const double im = x > -1.0 ? (ex + 1.0) * sin(y) : exp(x) * sin(y);
  return cd(re, im);
}

// x log(y) and x log1p(y): 0 when x == 0 unless a part of y is NaN.
CSF_FN cdouble cxlogy(cdouble x, cdouble y) {
  if (x.re == 0.0 && x.im == 0.0 && !isnan(y.re) && !isnan(y.im)) return cd(0.0, 0.0);
  return x * clog(y);
}
CSF_FN cdouble cxlog1py(cdouble x, cdouble y) {
  if (x.re == 0.0 && x.im == 0.0 && !isnan(y.re) && !isnan(y.im)) return cd(0.0, 0.0);
  return x * clog1p(y);
}

template <typename C> CSF_FN C log1p_c(const C& z) { return from_cd<C>(clog1p(to_cd(z))); }
template <typename C> CSF_FN C expm1_c(const C& z) { return from_cd<C>(cexpm1(to_cd(z))); }
template <typename C> CSF_FN C xlogy_c(const C& x, const C& y) { return from_cd<C>(cxlogy(to_cd(x), to_cd(y))); }
template <typename C> CSF_FN C xlog1py_c(const C& x, const C& y) { return from_cd<C>(cxlog1py(to_cd(x), to_cd(y))); }

}  // namespace cuarray_special
#endif
