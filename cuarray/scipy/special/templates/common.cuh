// cuarray.scipy.special: what every special-function header shares.
//
// Every function is `CSF_FN` (`__host__ __device__` under NVRTC/nvcc, plain `inline` under a host
// C++ compiler), so the same source compiles with g++ and is tested against SciPy on a machine
// without a GPU (tests/scipy/test_special_host_cpu.py). Functions that exist only in CUDA's math
// library (erfcx, erfinv, normcdfinv, cyl_bessel_i0, ...) sit under `#ifdef CSF_DEVICE`.
//
// No function calls itself, directly or through others (a reflection calls a part that does not
// reflect: beta_no_negint, spherical_kn_pos, ...): a cycle leaves the stack size of every kernel
// reaching it unknown to ptxas, the driver then gives each thread CU_LIMIT_STACK_SIZE (1 KiB)
// whatever its frames need, and a deep path faults on the GPU only (complex hyp2f1 did).
// tests/scipy/test_special_codegen_cpu.py reads every kernel's stack size from its cubin.
#ifndef CUARRAY_SPECIAL_COMMON_CUH
#define CUARRAY_SPECIAL_COMMON_CUH

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CSF_DEVICE 1
#define CSF_FN __host__ __device__ __forceinline__
// Large functions called from several places (hyp2f1's nested transformations): one copy, not
// inlined at every call (forced inlining made one hyp2f1 kernel take over 10 minutes to compile).
#define CSF_NOINLINE __host__ __device__ __noinline__
#else
#include <cmath>
#include <limits>
#define CSF_FN inline
#define CSF_NOINLINE inline
// The float overloads of <cmath> at global scope, as CUDA's headers declare them: `log(x)` of a
// float is the float function in both compiles.
using std::isnan; using std::isinf; using std::isfinite; using std::signbit;
using std::log; using std::log1p; using std::exp; using std::expm1; using std::sqrt; using std::fabs;
using std::floor; using std::ceil; using std::trunc; using std::rint; using std::fmod; using std::pow;
using std::sin; using std::cos; using std::tan; using std::atanh; using std::tanh; using std::cbrt;
using std::exp2; using std::tgamma; using std::lgamma; using std::copysign; using std::hypot;
#endif

namespace cuarray_special {

template <typename T> struct lim;
#ifdef CSF_DEVICE
template <> struct lim<float> {
  CSF_FN static float inf() { return __int_as_float(0x7f800000); }
  CSF_FN static float nan() { return __int_as_float(0x7fc00000); }
  CSF_FN static float eps() { return 1.1920928955078125e-07f; }
  CSF_FN static float max() { return 3.4028234663852886e+38f; }
};
template <> struct lim<double> {
  CSF_FN static double inf() { return __longlong_as_double(0x7ff0000000000000LL); }
  CSF_FN static double nan() { return __longlong_as_double(0x7ff8000000000000LL); }
  CSF_FN static double eps() { return 2.220446049250313e-16; }
  CSF_FN static double max() { return 1.7976931348623157e+308; }
};
#else
template <> struct lim<float> {
  CSF_FN static float inf() { return std::numeric_limits<float>::infinity(); }
  CSF_FN static float nan() { return std::numeric_limits<float>::quiet_NaN(); }
  CSF_FN static float eps() { return 1.1920928955078125e-07f; }
  CSF_FN static float max() { return 3.4028234663852886e+38f; }
};
template <> struct lim<double> {
  CSF_FN static double inf() { return std::numeric_limits<double>::infinity(); }
  CSF_FN static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
  CSF_FN static double eps() { return 2.220446049250313e-16; }
  CSF_FN static double max() { return 1.7976931348623157e+308; }
};
#endif

// pi and friends at double precision; `T(k_pi)` rounds once for float.
constexpr double k_pi = 3.141592653589793238462643383279502884;
constexpr double k_sqrt2 = 1.414213562373095048801688724209698079;
// 1/sqrt 2 rounded once (M_SQRT1_2, SciPy's): 1.0 / k_sqrt2 rounds twice and is an ulp low, which
// the normal tail amplifies by ~x^2 (2e-13 relative in log_ndtr at x = 30).
constexpr double k_sqrt1_2 = 0.707106781186547524400844362104849039;
constexpr double k_sqrtpi = 1.772453850905516027298167483341145182;
constexpr double k_euler = 0.577215664901532860606512090082402431;
constexpr double k_ln2 = 0.693147180559945309417232121458176568;

// Evaluate sum c[k] x^k, c[0] first, by Horner's rule (coefficients as double literals).
template <typename T, int N>
CSF_FN T poly(const double (&c)[N], T x) {
  T r = T(c[N - 1]);
  for (int k = N - 2; k >= 0; --k) r = r * x + T(c[k]);
  return r;
}

// sin(pi x) and cos(pi x) with the argument reduced exactly (fmod and the reflections below are
// exact in binary floating point), so sinpi(n) is 0 and cospi(n + 1/2) is 0 for every integer n.
CSF_FN double sinpi(double x) {
  double s = 1.0;
  if (x < 0) { x = -x; s = -1.0; }
  double r = fmod(x, 2.0);
  if (r >= 1.0) { r -= 1.0; s = -s; }
  if (r > 0.5) r = 1.0 - r;
  return r == 0.0 ? s * 0.0 : s * sin(k_pi * r);
}
CSF_FN double cospi(double x) {
  double r = fmod(fabs(x), 2.0);
  if (r >= 1.0) r = 2.0 - r;         // cos(pi r) = cos(pi (2 - r))
  if (r == 0.5) return 0.0;
  return r < 0.5 ? sin(k_pi * (0.5 - r)) : -sin(k_pi * (r - 0.5));
}

// Legendre's continued fraction 1/(x+1-a- 1(1-a)/(x+3-a- 2(2-a)/(x+5-a- ...))) (A&S 6.5.31) by
// the modified Lentz method: Gamma(a, x) = x^a e^-x times it, and E1(x) = e^-x times it at a = 0
// (A&S 5.1.22). Converges fast for x > a + 1 (igamc_cf and exp1 use it only there).
CSF_FN double legendre_gamma_cf(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 20000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (fabs(del - 1.0) < 1e-16) break;
  }
  return h;
}

}  // namespace cuarray_special
#endif
