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
CSF_FN cdouble operator/(cdouble a, double s) { return cd(a.re / s, a.im / s); }
// Smith's division (no overflow of |b|^2 for large b). Its b.re + b.im r overflows for |b| above
// DBL_MAX / 2 (hyp1f1's series then took inf for a converged ratio): both scaled by 1/4 there.
CSF_FN cdouble operator/(cdouble a, cdouble b) {
  const double big = fmax(fabs(b.re), fabs(b.im));
  if (big > 8.98846567431158e307 && big <= 1.7976931348623157e308) {
    a = cd(0.25 * a.re, 0.25 * a.im);
    b = cd(0.25 * b.re, 0.25 * b.im);
  }
  if (fabs(b.re) >= fabs(b.im)) {
    const double r = b.im / b.re, d = b.re + b.im * r;
    return cd((a.re + a.im * r) / d, (a.im - a.re * r) / d);
  }
  const double r = b.re / b.im, d = b.im + b.re * r;
  return cd((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}
CSF_FN cdouble operator/(double s, cdouble b) { return cd(s, 0.0) / b; }
CSF_FN double cabs(cdouble z) { return hypot(z.re, z.im); }
// e^(a + ib) as e^a (cos b + i sin b), with no 0 * inf for b == 0.
CSF_FN cdouble cexp(cdouble z) {
  const double e = exp(z.re);
  if (z.im == 0.0) return cd(e, z.im);
  return cd(e * cos(z.im), e * sin(z.im));
}
// log|z| near |z| = 1 as log1p((b - 1)(b + 1) + s^2)/2 (b, s the larger and smaller of |x|, |y|):
// log(hypot) there keeps only the digits of |z| - 1 that survive the rounding of |z|.
CSF_FN cdouble clog(cdouble z) {
  const double h = cabs(z);
  if (h > 0.5 && h < 2.0) {
    const double b = fmax(fabs(z.re), fabs(z.im)), s = fmin(fabs(z.re), fabs(z.im));
    return cd(0.5 * log1p((b - 1.0) * (b + 1.0) + s * s), atan2(z.im, z.re));
  }
  return cd(log(h), atan2(z.im, z.re));
}
// log(1 + z). The real part, 0.5 log((x+1)^2 + y^2), as 0.5 log1p(|z| (|z| + 2x/|z|)) for |z| < 0.707,
// where it cancels only for x < 0 near the circle x = -y^2/2: there |z|^2 + 2x in double-double.
// Otherwise log(1 + z); non-finite z by log|1 + z| and atan2 (C99's infinities).
CSF_FN cdouble clog1p(cdouble z) {
  const double x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    const double xr = x + 1.0;
    if (isnan(xr) && isnan(y)) return cd(lim<double>::nan(), lim<double>::nan());
    return cd(log(hypot(xr, y)), atan2(y, xr));
  }
  if (y == 0.0 && x >= -1.0) return cd(log1p(x), 0.0);
  const double az = cabs(z);
  if (az < 0.707) {
    if (x < 0 && fabs(-x - y * y / 2) / (-x) < 0.5) {
      const dd_real r = dd(x), i = dd(y);
      const dd_real s = dd_add(dd_add(dd_mul(r, r), dd_mul(i, i)), dd_mul(dd(2.0), r));
      return cd(0.5 * log1p(s.hi), atan2(y, x + 1.0));
    }
    return cd(0.5 * log1p(az * (az + 2 * x / az)), atan2(y, x + 1.0));
  }
  return clog(cd(x + 1.0, y));
}

// z^p (libstdc++'s pow(complex, real): the real power on the positive axis, else e^(p log z)).
CSF_FN cdouble cpow_real(cdouble z, double p) {
  if (z.im == 0.0 && z.re > 0.0) return cd(pow(z.re, p), 0.0);
  const cdouble t = clog(z);
  const double r = exp(p * t.re), th = p * t.im;
  return cd(r * cos(th), r * sin(th));
}

// Principal square root (Kahan's: no cancellation; the cut's sign from z.im's zero).
CSF_FN cdouble csqrt(cdouble z) {
  if (z.re == 0 && z.im == 0) return cd(0.0, z.im);
  const double t = sqrt(0.5 * (fabs(z.re) + cabs(z)));
  if (z.re >= 0) return cd(t, z.im / (2 * t));
  return cd(fabs(z.im) / (2 * t), copysign(t, z.im));
}

}  // namespace cuarray_special
#endif
