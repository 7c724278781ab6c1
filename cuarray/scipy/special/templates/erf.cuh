// The error function family of cuarray.scipy.special (erf, erfc, erfcx, erfinv, erfcinv).
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
