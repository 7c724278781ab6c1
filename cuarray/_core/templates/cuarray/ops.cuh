// cuarray/ops.cuh: device functions behind the ufunc table (cuarray/_math, _logic, _bitwise, ...).
// Each ufunc row's C expression calls these by name; overloads give the per-dtype behaviour
// NumPy has (integer vs float division, NaN propagation, ...). Values are in the loop's compute
// type: float16 loops compute in float (a few helpers below take the float16 rounding into
// account explicitly), complex is cuarray::complex<T> (complex_math.cuh).
//
// Real math calls are written `::exp(x)` inside this namespace: the complex overloads of the same
// names in namespace cuarray would otherwise hide CUDA's float/double functions.
#pragma once

#include "cuarray/complex_math.cuh"
#include "cuarray/rounded.cuh"

namespace cuarray {

// -- integer traits (no <cuda/std/...>: it costs NVRTC time) -----------------------------------
template <typename T> struct int_traits;
#define CUARRAY_INT_TRAITS(T, U, SIGNED, MIN, MAX)                      \
  template <> struct int_traits<T> {                                    \
    typedef U unsigned_type;                                            \
    static constexpr bool is_signed = SIGNED;                           \
    static constexpr int bits = 8 * sizeof(T);                          \
    static __device__ __forceinline__ T min() { return MIN; }           \
    static __device__ __forceinline__ T max() { return MAX; }           \
  };
CUARRAY_INT_TRAITS(signed char, unsigned char, true, -128, 127)
CUARRAY_INT_TRAITS(short, unsigned short, true, -32768, 32767)
CUARRAY_INT_TRAITS(int, unsigned int, true, (-2147483647 - 1), 2147483647)
CUARRAY_INT_TRAITS(long long, unsigned long long, true, (-9223372036854775807LL - 1), 9223372036854775807LL)
CUARRAY_INT_TRAITS(unsigned char, unsigned char, false, 0, 255)
CUARRAY_INT_TRAITS(unsigned short, unsigned short, false, 0, 65535)
CUARRAY_INT_TRAITS(unsigned int, unsigned int, false, 0u, 4294967295u)
CUARRAY_INT_TRAITS(unsigned long long, unsigned long long, false, 0ull, 18446744073709551615ull)
#undef CUARRAY_INT_TRAITS

// enable_if for integer overloads: `int_only<T>` is T for the 8 integer types, else no type.
template <bool B, typename T = void> struct enable_if {};
template <typename T> struct enable_if<true, T> { typedef T type; };
template <typename T, typename R = T>
using int_only = typename enable_if<int_traits<T>::bits != 0, R>::type;

// |x| as the unsigned type, without the overflow of -MIN.
template <typename T>
__device__ __forceinline__ typename int_traits<T>::unsigned_type unsigned_abs(T x) {
  typedef typename int_traits<T>::unsigned_type U;
  return (int_traits<T>::is_signed && x < T(0)) ? U(U(0) - U(x)) : U(x);
}

// -- arithmetic -----------------------------------------------------------------------------------
// Integer division follows Python (floor), and division by zero gives 0, as NumPy does (NumPy
// also warns; a kernel cannot). MIN // -1 wraps to MIN, MIN % -1 is 0.
template <typename T>
__device__ __forceinline__ int_only<T> floor_divide(T a, T b) {
  if (b == T(0)) return T(0);
  if (int_traits<T>::is_signed) {
    if (b == T(-1)) return T(T(0) - a);  // no trap on MIN / -1; wraps like NumPy
    T q = a / b;
    if ((a % b != T(0)) && ((a < T(0)) != (b < T(0)))) q = q - T(1);
    return q;
  }
  return a / b;
}

template <typename T>
__device__ __forceinline__ int_only<T> remainder(T a, T b) {
  if (b == T(0)) return T(0);
  if (int_traits<T>::is_signed) {
    if (b == T(-1)) return T(0);
    T r = a % b;
    if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = r + b;
    return r;
  }
  return a % b;
}

// C's truncating remainder (fmod) for integers; x % 0 is 0 like NumPy.
template <typename T>
__device__ __forceinline__ int_only<T> fmod(T a, T b) {
  if (b == T(0)) return T(0);
  if (int_traits<T>::is_signed && b == T(-1)) return T(0);
  return a % b;
}

// Float floor division and remainder with NumPy's (Python's) rules: the remainder has the sign of
// the divisor, the quotient is exact-floor of the true quotient, signed zeros follow the operands.
template <typename T>
__device__ __forceinline__ T float_divmod(T a, T b, T& mod) {
  if (b == T(0)) {
    mod = ::fmod(a, b);  // nan
    return a / b;        // +-inf or nan
  }
  mod = ::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0)) {
    if ((b < T(0)) != (mod < T(0))) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = ::copysign(T(0), b);
  }
  T floordiv;
  if (div != T(0)) {
    floordiv = ::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = ::copysign(T(0), a / b);
  }
  return floordiv;
}
__device__ __forceinline__ float floor_divide(float a, float b) {
  float m;
  return float_divmod(a, b, m);
}
__device__ __forceinline__ double floor_divide(double a, double b) {
  double m;
  return float_divmod(a, b, m);
}
__device__ __forceinline__ float remainder(float a, float b) {
  float m;
  float_divmod(a, b, m);
  return m;
}
__device__ __forceinline__ double remainder(double a, double b) {
  double m;
  float_divmod(a, b, m);
  return m;
}
__device__ __forceinline__ float fmod(float a, float b) { return ::fmodf(a, b); }
__device__ __forceinline__ double fmod(double a, double b) { return ::fmod(a, b); }

// divmod: out0 = a // b, out1 = a % b, from one computation.
template <typename T>
__device__ __forceinline__ int_only<T> divmod(T a, T b, T& mod) {
  mod = remainder(a, b);
  return floor_divide(a, b);
}
__device__ __forceinline__ float divmod(float a, float b, float& mod) { return float_divmod(a, b, mod); }
__device__ __forceinline__ double divmod(double a, double b, double& mod) { return float_divmod(a, b, mod); }

// Integer power by squaring (wraps on overflow like NumPy). A negative exponent cannot raise on
// the device: NumPy raises ValueError; we give the truncated value of 1/a**|b| (1, -1 or 0).
template <typename T>
__device__ __forceinline__ int_only<T> power(T a, T b) {
  if (int_traits<T>::is_signed && b < T(0)) {
    if (a == T(1)) return T(1);
    if (a == T(-1)) return (b & T(1)) ? T(-1) : T(1);
    return T(0);
  }
  typedef typename int_traits<T>::unsigned_type U;
  U base = U(a), e = U(b), r = U(1);
  while (e) {
    if (e & U(1)) r = U(r * base);
    base = U(base * base);
    e >>= 1;
  }
  return T(r);
}
__device__ __forceinline__ float power(float a, float b) { return ::powf(a, b); }
__device__ __forceinline__ double power(double a, double b) { return ::pow(a, b); }

// 1/x in integer arithmetic: 1, -1 or 0. NumPy's result for x == 0 is what x86-64 gives for
// its (undefined) division by zero: 0 for 8/16-bit and unsigned types, MIN for int32/int64.
template <typename T>
__device__ __forceinline__ int_only<T> reciprocal(T x) {
  if (x == T(0)) {
    return (int_traits<T>::is_signed && sizeof(T) >= 4) ? int_traits<T>::min() : T(0);
  }
  if (x == T(1)) return T(1);
  if (int_traits<T>::is_signed && x == T(-1)) return T(-1);
  return T(0);
}
__device__ __forceinline__ float reciprocal(float x) { return 1.0f / x; }
__device__ __forceinline__ double reciprocal(double x) { return 1.0 / x; }

// |x|: wraps for MIN like NumPy (abs(int8(-128)) == -128); complex |z| is in complex_math.cuh.
template <typename T>
__device__ __forceinline__ int_only<T> absolute(T x) { return T(unsigned_abs(x)); }
__device__ __forceinline__ bool absolute(bool x) { return x; }
__device__ __forceinline__ float absolute(float x) { return ::fabsf(x); }
__device__ __forceinline__ double absolute(double x) { return ::fabs(x); }

// sign: -1, 0, 1 (NaN for NaN; sign(-0.0) is +0.0 like NumPy); complex z/|z| is in complex_math.cuh.
template <typename T>
__device__ __forceinline__ int_only<T> sign(T x) {
  return x > T(0) ? T(1) : (x < T(0) ? T(-1) : T(0));
}
template <typename T>
__device__ __forceinline__ T float_sign(T x) {
  return x > T(0) ? T(1) : (x < T(0) ? T(-1) : (x == T(0) ? T(0) : x));
}
__device__ __forceinline__ float sign(float x) { return float_sign(x); }
__device__ __forceinline__ double sign(double x) { return float_sign(x); }

// -- exponents and logarithms ----------------------------------------------------------------------
// log(exp(a) + exp(b)) without overflow: the larger operand plus log1p of the smaller's share.
template <typename T>
__device__ __forceinline__ T logaddexp(T a, T b) {
  if (a == b) return a + T(0.693147180559945309417232121458176568);  // also handles +-inf
  T d = a - b;
  if (d > T(0)) return a + ::log1p(::exp(-d));
  if (d <= T(0)) return b + ::log1p(::exp(d));
  return d;  // nan
}
template <typename T>
__device__ __forceinline__ T logaddexp2(T a, T b) {
  const T log2e = T(1.442695040888963407359924681001892137);
  if (a == b) return a + T(1);
  T d = a - b;
  if (d > T(0)) return a + ::log1p(::exp2(-d)) * log2e;
  if (d <= T(0)) return b + ::log1p(::exp2(d)) * log2e;
  return d;
}

// -- trigonometric ---------------------------------------------------------------------------------
template <typename T>
__device__ __forceinline__ T deg2rad(T x) { return x * T(0.017453292519943295769236907684886127); }
template <typename T>
__device__ __forceinline__ T rad2deg(T x) { return x * T(57.29577951308232087679815481410517033); }

// -- floating point routines -----------------------------------------------------------------------
// spacing(x): distance to the next float away from zero; spacing(+-0) is the smallest subnormal
// (positive, like NumPy), spacing(+-max) is +-inf, NaN and inf give NaN.
template <typename T>
__device__ __forceinline__ T float_spacing(T x) {
  if (::isnan(x) || ::isinf(x)) return T(0) / T(0);
  if (x == T(0)) return ::nextafter(T(0), T(1));
  return ::nextafter(x, x > T(0) ? T(1) / T(0) : -T(1) / T(0)) - x;
}
__device__ __forceinline__ float spacing(float x) { return float_spacing(x); }
__device__ __forceinline__ double spacing(double x) { return float_spacing(x); }

__device__ __forceinline__ float nextafter(float a, float b) { return ::nextafterf(a, b); }
__device__ __forceinline__ double nextafter(double a, double b) { return ::nextafter(a, b); }

#ifdef CUARRAY_HAS_HALF
// float16 versions, computed on the half's bits (the float16 loops hand us floats that hold
// float16 values exactly).
__device__ __forceinline__ float half_bits_to_float(unsigned short h) { return __half2float(__ushort_as_half(h)); }
__device__ __forceinline__ unsigned short float_to_half_bits(float x) { return __half_as_ushort(__float2half_rn(x)); }

__device__ __forceinline__ float nextafter_half(float a, float b) {
  if (::isnan(a) || ::isnan(b)) return a + b;
  if (a == b) return b;
  unsigned short h = float_to_half_bits(a);
  if (a == 0.0f) {
    h = 1;  // smallest subnormal, with the sign of the direction
    return b > 0.0f ? half_bits_to_float(h) : -half_bits_to_float(h);
  }
  // Away from zero when moving in the sign's direction, else towards zero.
  if ((a < b) == (a > 0.0f)) h = h + 1; else h = h - 1;
  return half_bits_to_float(h);
}
// NumPy's float16 spacing always steps towards +inf (spacing(-1) is 2**-11, not -2**-10),
// unlike its float32/float64 spacing, which steps away from zero.
__device__ __forceinline__ float spacing_half(float x) {
  if (::isnan(x) || ::isinf(x)) return __int_as_float(0x7fc00000);
  return nextafter_half(x, __int_as_float(0x7f800000)) - x;
}
// NumPy's float16 sinc, each step rounded to float16 as its loops do: pi is float16's 3.140625
// (NumPy converts the Python float to the array's type), so sinc(1) is 3.08e-4, and pi x overflows
// past 20850 (sin(inf): NaN); eps (2^-10) where pi x is 0.
__device__ __forceinline__ float round_to_half(float x) { return __half2float(__float2half_rn(x)); }
__device__ __forceinline__ float sinc_half(float x) {
  float y = round_to_half(3.140625f * x);  // (the product is exact in float)
  if (y == 0.0f) y = 0.0009765625f;
  return round_to_half(round_to_half(::sinf(y)) / y);
}
#endif

// modf and frexp take the second output by reference. frexp of 0, inf and nan gives exponent 0.
__device__ __forceinline__ float modf(float x, float& integral) { return ::modff(x, &integral); }
__device__ __forceinline__ double modf(double x, double& integral) { return ::modf(x, &integral); }
__device__ __forceinline__ float frexp(float x, int& e) {
  if (x == 0.0f || ::isinf(x) || ::isnan(x)) { e = 0; return x; }
  return ::frexpf(x, &e);
}
__device__ __forceinline__ double frexp(double x, int& e) {
  if (x == 0.0 || ::isinf(x) || ::isnan(x)) { e = 0; return x; }
  return ::frexp(x, &e);
}
// ldexp with a 64-bit exponent: any |n| beyond 2^16 already over/underflows every type.
__device__ __forceinline__ int clamp_exponent(long long n) {
  return n > 65536 ? 65536 : (n < -65536 ? -65536 : int(n));
}
__device__ __forceinline__ float ldexp(float x, int n) { return ::ldexpf(x, n); }
__device__ __forceinline__ double ldexp(double x, int n) { return ::ldexp(x, n); }
__device__ __forceinline__ float ldexp(float x, long long n) { return ::ldexpf(x, clamp_exponent(n)); }
__device__ __forceinline__ double ldexp(double x, long long n) { return ::ldexp(x, clamp_exponent(n)); }

// -- rational routines --------------------------------------------------------------------------------
// gcd of |a| and |b| in the unsigned type; the result wraps back (gcd(int8 -128, 0) == -128, as NumPy).
template <typename T>
__device__ __forceinline__ int_only<T> gcd(T a, T b) {
  typedef typename int_traits<T>::unsigned_type U;
  U x = unsigned_abs(a), y = unsigned_abs(b);
  while (y != U(0)) {
    U t = U(x % y);
    x = y;
    y = t;
  }
  return T(x);
}
// lcm = |a| / gcd * |b|, wrapping on overflow like NumPy.
template <typename T>
__device__ __forceinline__ int_only<T> lcm(T a, T b) {
  typedef typename int_traits<T>::unsigned_type U;
  U g = U(gcd(a, b));
  if (g == U(0)) return T(0);
  return T(U(unsigned_abs(a) / g) * unsigned_abs(b));
}

// -- extrema -----------------------------------------------------------------------------------------
// maximum/minimum propagate NaN (the first NaN operand wins); fmax/fmin ignore NaN. Signed zeros
// follow NumPy: maximum(-0., 0.) is the second operand, fmax(-0., 0.) the first.
template <typename T>
__device__ __forceinline__ T maximum(T a, T b) { return (a > b || a != a) ? a : b; }
template <typename T>
__device__ __forceinline__ T minimum(T a, T b) { return (a < b || a != a) ? a : b; }
template <typename T>
__device__ __forceinline__ T fmax(T a, T b) { return (a >= b || b != b) ? a : b; }
template <typename T>
__device__ __forceinline__ T fmin(T a, T b) { return (a <= b || b != b) ? a : b; }
__device__ __forceinline__ bool maximum(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool minimum(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool fmax(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool fmin(bool a, bool b) { return a && b; }

// clip(x, lo, hi) = minimum(maximum(x, lo), hi): NaN anywhere propagates, as in NumPy (real
// types; complex clip below).
template <typename T>
__device__ __forceinline__ T clip(T x, T lo, T hi) { return minimum(maximum(x, lo), hi); }

// heaviside(x, h0): 0 for x < 0, h0 for x == 0, 1 for x > 0, NaN for NaN.
template <typename T>
__device__ __forceinline__ T heaviside(T x, T h0) {
  if (x < T(0)) return T(0);
  if (x > T(0)) return T(1);
  if (x == T(0)) return h0;
  return x;
}

// i0 and sinc (NumPy functions, not ufuncs; their kernels are Definitions in _math/misc.py).
template <typename T>
__device__ __forceinline__ T sinc(T x) {
  if (x == T(0)) return T(1);
  T y = T(3.141592653589793238462643383279502884) * x;
  return ::sin(y) / y;
}

// NumPy's complex division loop: Smith's ratio, then the reciprocal of the denominator times each
// part, every operation rounded once (1/d overflows for a subnormal d: (-pi 5e-324 + 0j) over
// itself is inf + nanj there, the quotient's rounding differs from a direct division's).
template <typename T>
__device__ __forceinline__ complex<T> numpy_divide(complex<T> a, complex<T> b) {
  T abr = ::fabs(b.re), abi = ::fabs(b.im);
  if (abr >= abi) {
    if (abr == T(0) && abi == T(0)) return complex<T>(a.re / abr, a.im / abr);
    T rat = b.im / b.re, scl = T(1) / rn::add(b.re, rn::mul(b.im, rat));
    return complex<T>(rn::mul(rn::add(a.re, rn::mul(a.im, rat)), scl), rn::mul(rn::sub(a.im, rn::mul(a.re, rat)), scl));
  }
  T rat = b.re / b.im, scl = T(1) / rn::add(b.im, rn::mul(b.re, rat));
  return complex<T>(rn::mul(rn::add(rn::mul(a.re, rat), a.im), scl), rn::mul(rn::sub(rn::mul(a.im, rat), a.re), scl));
}
// NumPy's steps: y = (pi + 0j) x by its multiply (inf + 0j gives inf + nanj), 1e-20 where y is 0,
// sin(y) / y by its division.
template <typename T>
__device__ __forceinline__ complex<T> sinc(complex<T> x) {
  complex<T> y = complex<T>(T(3.141592653589793238462643383279502884), T(0)) * x;
  if (y.re == T(0) && y.im == T(0)) return complex<T>(T(1), T(0));
  return numpy_divide(sin(y), y);
}

// nan_to_num for one real value.
template <typename T>
__device__ __forceinline__ T nan_to_num(T x, T nan, T posinf, T neginf) {
  if (x != x) return nan;
  if (::isinf(x)) return x > T(0) ? posinf : neginf;
  return x;
}

// -- comparisons ------------------------------------------------------------------------------------
// Same-type operands compare with C's operators. int64 against uint64 (NumPy's 'qQ->?' loops)
// compares the mathematical values. Complex order is lexicographic with NumPy's NaN rule: a real
// part decides only when neither imaginary part is NaN.
template <typename A, typename B> __device__ __forceinline__ bool less(A a, B b) { return a < b; }
template <typename A, typename B> __device__ __forceinline__ bool less_equal(A a, B b) { return a <= b; }
template <typename A, typename B> __device__ __forceinline__ bool greater(A a, B b) { return a > b; }
template <typename A, typename B> __device__ __forceinline__ bool greater_equal(A a, B b) { return a >= b; }
template <typename A, typename B> __device__ __forceinline__ bool equal(A a, B b) { return a == b; }
template <typename A, typename B> __device__ __forceinline__ bool not_equal(A a, B b) { return a != b; }

typedef long long i64;
typedef unsigned long long u64;
__device__ __forceinline__ bool less(i64 a, u64 b) { return a < 0 || u64(a) < b; }
__device__ __forceinline__ bool less(u64 a, i64 b) { return b >= 0 && a < u64(b); }
__device__ __forceinline__ bool less_equal(i64 a, u64 b) { return a < 0 || u64(a) <= b; }
__device__ __forceinline__ bool less_equal(u64 a, i64 b) { return b >= 0 && a <= u64(b); }
__device__ __forceinline__ bool greater(i64 a, u64 b) { return less(b, a); }
__device__ __forceinline__ bool greater(u64 a, i64 b) { return less(b, a); }
__device__ __forceinline__ bool greater_equal(i64 a, u64 b) { return less_equal(b, a); }
__device__ __forceinline__ bool greater_equal(u64 a, i64 b) { return less_equal(b, a); }
__device__ __forceinline__ bool equal(i64 a, u64 b) { return a >= 0 && u64(a) == b; }
__device__ __forceinline__ bool equal(u64 a, i64 b) { return equal(b, a); }
__device__ __forceinline__ bool not_equal(i64 a, u64 b) { return !equal(a, b); }
__device__ __forceinline__ bool not_equal(u64 a, i64 b) { return !equal(b, a); }

template <typename T>
__device__ __forceinline__ bool less(complex<T> a, complex<T> b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <typename T>
__device__ __forceinline__ bool less_equal(complex<T> a, complex<T> b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}
template <typename T>
__device__ __forceinline__ bool greater(complex<T> a, complex<T> b) { return less(b, a); }
template <typename T>
__device__ __forceinline__ bool greater_equal(complex<T> a, complex<T> b) { return less_equal(b, a); }

// Complex maximum/minimum (lexicographic, NaN-propagating) and fmax/fmin (NaN-ignoring).
template <typename T>
__device__ __forceinline__ bool isnan_c(complex<T> z) { return z.re != z.re || z.im != z.im; }
template <typename T>
__device__ __forceinline__ complex<T> maximum(complex<T> a, complex<T> b) {
  if (isnan_c(a)) return a;
  if (isnan_c(b)) return b;
  return greater_equal(a, b) ? a : b;
}
template <typename T>
__device__ __forceinline__ complex<T> minimum(complex<T> a, complex<T> b) {
  if (isnan_c(a)) return a;
  if (isnan_c(b)) return b;
  return less_equal(a, b) ? a : b;
}
// clip of complex is not minimum(maximum(...)): NumPy's clip loop steps with the plain
// lexicographic comparisons and keeps the operand being clipped where it is NaN, so a NaN part of
// a bound counts only where it is compared (clip(1+0j, nanj, 5) is 1+0j; maximum(1+0j, nanj) is nanj).
template <typename T>
__device__ __forceinline__ complex<T> clip(complex<T> x, complex<T> lo, complex<T> hi) {
  const complex<T> y = (x > lo || isnan_c(x)) ? x : lo;
  return (y < hi || isnan_c(y)) ? y : hi;
}
template <typename T>
__device__ __forceinline__ complex<T> fmax(complex<T> a, complex<T> b) {
  if (isnan_c(b)) return a;
  if (isnan_c(a)) return b;
  return greater_equal(a, b) ? a : b;
}
template <typename T>
__device__ __forceinline__ complex<T> fmin(complex<T> a, complex<T> b) {
  if (isnan_c(b)) return a;
  if (isnan_c(a)) return b;
  return less_equal(a, b) ? a : b;
}
// nanmax/nanmin's combine. Real types: fmax/fmin. Complex: as fmax/fmin, except that the
// reduction's NaN identity (nan+nanj) gives way to a NaN element, so an all-NaN slice answers a
// NaN of the data (NumPy's fmax.reduce answers its first element: nanmax of nan+0j is nan+0j).
template <typename T>
__device__ __forceinline__ T fmax_reduce(T a, T b) { return fmax(a, b); }
template <typename T>
__device__ __forceinline__ T fmin_reduce(T a, T b) { return fmin(a, b); }
template <typename T>
__device__ __forceinline__ bool nan_both_parts(complex<T> z) { return z.re != z.re && z.im != z.im; }
template <typename T>
__device__ __forceinline__ complex<T> fmax_reduce(complex<T> a, complex<T> b) {
  return (isnan_c(b) && isnan_c(a) && nan_both_parts(a)) ? b : fmax(a, b);
}
template <typename T>
__device__ __forceinline__ complex<T> fmin_reduce(complex<T> a, complex<T> b) {
  return (isnan_c(b) && isnan_c(a) && nan_both_parts(a)) ? b : fmin(a, b);
}

// -- array contents: isnan/isinf/isfinite for every kind ------------------------------------------
template <typename T> __device__ __forceinline__ bool isnan(T) { return false; }
template <typename T> __device__ __forceinline__ bool isinf(T) { return false; }
template <typename T> __device__ __forceinline__ bool isfinite(T) { return true; }
__device__ __forceinline__ bool isnan(float x) { return ::isnan(x); }
__device__ __forceinline__ bool isnan(double x) { return ::isnan(x); }
__device__ __forceinline__ bool isinf(float x) { return ::isinf(x); }
__device__ __forceinline__ bool isinf(double x) { return ::isinf(x); }
__device__ __forceinline__ bool isfinite(float x) { return ::isfinite(x); }
__device__ __forceinline__ bool isfinite(double x) { return ::isfinite(x); }
template <typename T> __device__ __forceinline__ bool isnan(complex<T> z) { return isnan(z.re) || isnan(z.im); }
template <typename T> __device__ __forceinline__ bool isinf(complex<T> z) { return isinf(z.re) || isinf(z.im); }
template <typename T> __device__ __forceinline__ bool isfinite(complex<T> z) { return isfinite(z.re) && isfinite(z.im); }
#ifdef CUARRAY_HAS_HALF
// A __half reaches these from user kernels and ReductionKernels whose T is float16 (the ufunc
// loops hand over floats): without these the integer template above would call inf finite.
__device__ __forceinline__ bool isnan(__half x) { return ::isnan(__half2float(x)); }
__device__ __forceinline__ bool isinf(__half x) { return ::isinf(__half2float(x)); }
__device__ __forceinline__ bool isfinite(__half x) { return ::isfinite(__half2float(x)); }
#endif

// -- bit operations -------------------------------------------------------------------------------
// Shifts by a count outside [0, bits) give 0 (left, and right of non-negatives) or -1 (right of a
// negative), NumPy's rule; C leaves them undefined.
template <typename T>
__device__ __forceinline__ int_only<T> left_shift(T a, T b) {
  typedef typename int_traits<T>::unsigned_type U;
  if (u64(b) < u64(int_traits<T>::bits)) return T(U(U(a) << b));
  return T(0);
}
template <typename T>
__device__ __forceinline__ int_only<T> right_shift(T a, T b) {
  if (u64(b) < u64(int_traits<T>::bits)) return T(a >> b);
  return (int_traits<T>::is_signed && a < T(0)) ? T(-1) : T(0);
}
// popcount of |x|, NumPy's bitwise_count.
template <typename T>
__device__ __forceinline__ int_only<T, unsigned char> bitwise_count(T x) {
  return (unsigned char)__popcll((u64)unsigned_abs(x));
}

}  // namespace cuarray
