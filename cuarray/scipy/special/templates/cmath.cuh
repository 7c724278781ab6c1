// Complex arithmetic for cuarray.scipy.special's complex loops, host and device alike.
//
// The kernels' complex types (cuarray::complex<T>, cuarray/complex.cuh) define their operators for
// the device only, and the host build of these headers (tests/scipy/special_host.cpp) passes
// std::complex; so the special functions compute in `cdouble` below and convert at the edges:
// `from_cd<C>(f(to_cd(z)))` works for any C with real()/imag() and a (re, im) constructor.
// Complex64 loops compute in double, as SciPy's (whose 'F->F' loops cast to complex128).
#ifndef CUARRAY_SPECIAL_CMATH_CUH
#define CUARRAY_SPECIAL_CMATH_CUH
namespace cuarray_special {

struct cdouble {
  double re, im;
};
CSF_FN cdouble cd(double re, double im) { cdouble z; z.re = re; z.im = im; return z; }
template <typename C> CSF_FN cdouble to_cd(const C& z) { return cd((double)z.real(), (double)z.imag()); }
template <typename C> CSF_FN C from_cd(cdouble z) { return C(z.re, z.im); }

CSF_FN cdouble operator+(cdouble a, cdouble b) { return cd(a.re + b.re, a.im + b.im); }
CSF_FN cdouble operator-(cdouble a, cdouble b) { return cd(a.re - b.re, a.im - b.im); }
CSF_FN cdouble operator-(cdouble a) { return cd(-a.re, -a.im); }
CSF_FN cdouble operator*(cdouble a, cdouble b) { return cd(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
CSF_FN cdouble operator*(double s, cdouble a) { return cd(s * a.re, s * a.im); }
CSF_FN cdouble operator+(double s, cdouble a) { return cd(s + a.re, a.im); }
CSF_FN cdouble operator-(double s, cdouble a) { return cd(s - a.re, -a.im); }
CSF_FN cdouble operator+(cdouble a, double s) { return cd(a.re + s, a.im); }
CSF_FN cdouble operator-(cdouble a, double s) { return cd(a.re - s, a.im); }
CSF_FN cdouble operator*(cdouble a, double s) { return cd(a.re * s, a.im * s); }
// Smith's division (no overflow of |b|^2 for large b).
CSF_FN cdouble operator/(cdouble a, cdouble b) {
  if (fabs(b.re) >= fabs(b.im)) {
    const double r = b.im / b.re, d = b.re + b.im * r;
    return cd((a.re + a.im * r) / d, (a.im - a.re * r) / d);
  }
  const double r = b.re / b.im, d = b.im + b.re * r;
  return cd((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}
CSF_FN double cabs(cdouble z) { return hypot(z.re, z.im); }
// e^(a + ib) as e^a (cos b + i sin b), with no 0 * inf for b == 0.
CSF_FN cdouble cexp(cdouble z) {
  const double e = exp(z.re);
  if (z.im == 0.0) return cd(e, z.im);
  return cd(e * cos(z.im), e * sin(z.im));
}
CSF_FN cdouble clog(cdouble z) { return cd(log(cabs(z)), atan2(z.im, z.re)); }
// Principal square root (Kahan's: no cancellation; the cut's sign from z.im's zero).
CSF_FN cdouble csqrt(cdouble z) {
  if (z.re == 0 && z.im == 0) return cd(0.0, z.im);
  const double t = sqrt(0.5 * (fabs(z.re) + cabs(z)));
  if (z.re >= 0) return cd(t, z.im / (2 * t));
  return cd(fabs(z.im) / (2 * t), copysign(t, z.im));
}

}  // namespace cuarray_special
#endif
