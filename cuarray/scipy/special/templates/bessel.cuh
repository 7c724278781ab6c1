// Bessel functions of cuarray.scipy.special: j0, j1, y0, y1, yn (CUDA's and, on the host, the
// C library's functions of the same names), i0, i1 (CUDA's cyl_bessel_i0/i1), and the
// exponentially scaled i0e, i1e.
#ifndef CUARRAY_SPECIAL_BESSEL_CUH
#define CUARRAY_SPECIAL_BESSEL_CUH
namespace cuarray_special {

// SciPy (Cephes) returns NaN at +-inf, where the C functions return the limit 0. Float loops
// call these in double, as SciPy's do.
CSF_FN double j0(double x) { return isinf(x) ? lim<double>::nan() : ::j0(x); }
CSF_FN double j1(double x) { return isinf(x) ? lim<double>::nan() : ::j1(x); }
CSF_FN double y0(double x) { return isinf(x) ? lim<double>::nan() : ::y0(x); }
CSF_FN double y1(double x) { return isinf(x) ? lim<double>::nan() : ::y1(x); }

// Y_n for integer n of either sign: Y_{-n} = (-1)^n Y_n (CUDA's yn is NaN for n < 0). A
// floating-point order is truncated to an integer, as SciPy's 'dd->d' loop does.
CSF_FN double yn(long long n, double x) {
  double s = 1.0;
  if (n < 0) { n = -n; s = (n & 1) ? -1.0 : 1.0; }
  if (n > 2147483647LL || isinf(x)) return lim<double>::nan();
  return s * ::yn(int(n), x);
}
CSF_FN double yn_real(double n, double x) {
  if (isnan(n)) return n;
  if (isinf(n)) return lim<double>::nan();
  return yn((long long)n, x);
}

// The large-argument expansion of I_nu(x) e^-x (Abramowitz & Stegun 9.7.1), for x >= 700 where
// cyl_bessel_i0(x) overflows: 1/sqrt(2 pi x) sum_k t_k, t_k = -t_{k-1} (mu - (2k-1)^2) / (8 k x),
// mu = 4 nu^2. Twenty terms leave a remainder below 1e-30 at x = 700.
CSF_FN double scaled_i_asymptotic(double mu, double x) {
  double t = 1.0, s = 1.0;
  for (int k = 1; k <= 20; ++k) {
    const double m = 2.0 * k - 1.0;
    t *= -(mu - m * m) / (8.0 * k * x);
    s += t;
  }
  return s / sqrt(2.0 * k_pi * x);
}

#ifdef CSF_DEVICE
// SciPy (Cephes: exp(x) * chbevl(..) / sqrt(x) is inf / inf there) returns NaN at +-inf, where
// CUDA's cyl_bessel_i0/i1 return the limits +inf and +-inf.
CSF_FN float i0(float x) { return isinf(x) ? lim<float>::nan() : ::cyl_bessel_i0f(x); }
CSF_FN double i0(double x) { return isinf(x) ? lim<double>::nan() : ::cyl_bessel_i0(x); }
CSF_FN float i1(float x) { return isinf(x) ? lim<float>::nan() : ::cyl_bessel_i1f(x); }
CSF_FN double i1(double x) { return isinf(x) ? lim<double>::nan() : ::cyl_bessel_i1(x); }

// I0(x) e^-|x| and I1(x) e^-|x| (I1 is odd). Float loops compute in double, as SciPy's do.
CSF_FN double i0e(double x) {
  const double a = fabs(x);
  if (isnan(x)) return x;
  if (a < 700.0) return ::cyl_bessel_i0(a) * exp(-a);
  return scaled_i_asymptotic(0.0, a);
}
CSF_FN double i1e(double x) {
  const double a = fabs(x);
  if (isnan(x)) return x;
  const double r = a < 700.0 ? ::cyl_bessel_i1(a) * exp(-a) : scaled_i_asymptotic(4.0, a);
  return x < 0 ? -r : r;
}
#endif

}  // namespace cuarray_special
#endif
