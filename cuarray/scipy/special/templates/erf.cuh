// The error function family of cuarray.scipy.special (erf, erfc, erfcx, erfinv, erfcinv, dawsn).
// All of them are CUDA math library functions (float loops call the single-precision ones);
// the wrappers only give them one overloaded name per function. erfcx/erfinv/erfcinv have no host
// counterpart, so they exist only in device compiles.
#ifndef CUARRAY_SPECIAL_ERF_CUH
#define CUARRAY_SPECIAL_ERF_CUH
namespace cuarray_special {

CSF_FN float erf(float x) { return ::erff(x); }
CSF_FN double erf(double x) { return ::erf(x); }
CSF_FN float erfc(float x) { return ::erfcf(x); }
CSF_FN double erfc(double x) { return ::erfc(x); }

// Dawson's integral D(x) = e^-x^2 int_0^x e^t^2 dt (real x). |x| <= 10: e^-x^2 times erfi's
// series sum x^(2k+1) / (k! (2k+1)) (all terms positive: no cancellation; ~200 terms at 10);
// beyond, the asymptotic series (1/2x) sum (2k-1)!! / (2x^2)^k, summed to its smallest term
// (below 1e-40 relative at x = 10). Float loops compute in double, as SciPy's do.
CSF_FN double dawsn(double x) {
  if (isnan(x)) return x;
  const double ax = fabs(x);
  if (isinf(x)) return x > 0 ? 0.0 : -0.0;
  double r;
  if (ax <= 10.0) {
    const double x2 = ax * ax;
    double t = ax, s = ax;  // t = x^(2k+1) / k!
    for (int k = 1; k < 400; ++k) {
      t *= x2 / k;
      const double term = t / (2 * k + 1);
      s += term;
      if (term < 1e-17 * s) break;
    }
    r = exp(-x2) * s;
  } else {
    const double z = 1.0 / (2.0 * ax * ax);
    double t = 1.0, s = 1.0;
    for (int k = 1; k < 200; ++k) {
      const double nt = t * (2 * k - 1) * z;
      if (nt > t) break;
      t = nt;
      s += t;
      if (t < 1e-17 * s) break;
    }
    r = s / (2.0 * ax);
  }
  return x < 0 ? -r : r;
}

#ifdef CSF_DEVICE
CSF_FN float erfcx(float x) { return ::erfcxf(x); }
CSF_FN double erfcx(double x) { return ::erfcx(x); }
// SciPy: erfinv(+-1) = +-inf and NaN outside [-1, 1]; erfcinv(0) = inf, erfcinv(2) = -inf and
// NaN outside [0, 2]. CUDA's functions return exactly these.
CSF_FN float erfinv(float x) { return ::erfinvf(x); }
CSF_FN double erfinv(double x) { return ::erfinv(x); }
CSF_FN float erfcinv(float x) { return ::erfcinvf(x); }
CSF_FN double erfcinv(double x) { return ::erfcinv(x); }
#endif

}  // namespace cuarray_special
#endif
