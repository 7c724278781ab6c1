// complex_math.cuh built for the host with g++ (tests/_math/test_complex_math_host_cpu.py): its
// device functions are plain C++ once __device__ is empty, so their special cases are checked
// against NumPy without a GPU. CUDA's own math functions differ in the last bits, not in these.
#include <math.h>
#include <cmath>
#include <cfloat>
#define __device__
#define __host__
#define __forceinline__ inline
// CUDA's hypot may round up past the largest finite value for a finite |z| (the H100 gave inf for
// |1e-3 + DBL_MAX j|); with CUARRAY_ROUGH_HYPOT the host's hypot does so for its top 4 ulps
static int rough = 0;
template <typename T> static T test_hypot(T x, T y) {
  T h = std::hypot(x, y);
  T top = std::numeric_limits<T>::max();
  for (int k = 0; k < 4; ++k) top = std::nextafter(top, T(0));
  return (rough && std::isfinite(h) && h >= top) ? T(INFINITY) : h;
}
#define hypot test_hypot
#include "cuarray/complex.cuh"
#include "cuarray/complex_math.cuh"
#undef hypot
using cuarray::complex;
extern "C" void set_rough(int r) { rough = r; }
#define UNARY(NAME, T, EXPR) extern "C" void NAME(const T* z, T* out, long n) { \
  for (long i = 0; i < n; ++i) { complex<T> a(z[2*i], z[2*i+1]); auto r = EXPR; store(out, i, r); } }
template <typename T> static void store(T* o, long i, T r) { o[i] = r; }
template <typename T> static void store(T* o, long i, complex<T> r) { o[2*i] = r.re; o[2*i+1] = r.im; }
// every complex unary ufunc's function, both precisions: NAME_d, NAME_f
#define BOTH(NAME) UNARY(NAME##_d, double, cuarray::NAME(a)) UNARY(NAME##_f, float, cuarray::NAME(a))
BOTH(abs) BOTH(log1p) BOTH(log) BOTH(log2) BOTH(log10) BOTH(exp) BOTH(exp2) BOTH(expm1) BOTH(sqrt)
BOTH(sin) BOTH(cos) BOTH(tan) BOTH(sinh) BOTH(cosh) BOTH(tanh) BOTH(asin) BOTH(acos) BOTH(atan)
BOTH(asinh) BOTH(acosh) BOTH(atanh) BOTH(sign) BOTH(reciprocal) BOTH(square)
#define BINARY(NAME, T) extern "C" void NAME(const T* a, const T* b, T* out, long n) { \
  for (long i = 0; i < n; ++i) { auto r = cuarray::power(complex<T>(a[2*i], a[2*i+1]), complex<T>(b[2*i], b[2*i+1])); \
    out[2*i] = r.re; out[2*i+1] = r.im; } }
BINARY(pow_d, double)
BINARY(pow_f, float)
// the multiply ufunc's product (complex.cuh's operator*)
#define PRODUCT(NAME, T) extern "C" void NAME(const T* a, const T* b, T* out, long n) { \
  for (long i = 0; i < n; ++i) { auto r = complex<T>(a[2*i], a[2*i+1]) * complex<T>(b[2*i], b[2*i+1]); \
    out[2*i] = r.re; out[2*i+1] = r.im; } }
PRODUCT(mul_d, double)
PRODUCT(mul_f, float)
// the hypot ufunc's real loops (float16 through the float one)
#define HYPOT(NAME, T) extern "C" void NAME(const T* a, const T* b, T* out, long n) { \
  for (long i = 0; i < n; ++i) out[i] = cuarray::finite_hypot(a[i], b[i]); }
HYPOT(hypot_d, double)
HYPOT(hypot_f, float)
