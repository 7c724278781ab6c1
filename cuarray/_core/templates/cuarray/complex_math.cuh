// cuarray/complex_math.cuh: elementary functions of cuarray::complex<T> (T = float or double).
// Found by argument-dependent lookup, so a ufunc row writes `exp(in0)` for every kind.
//
// Branch cuts and signed zeros follow C99 Annex G (NumPy's reference). The inverse functions use
// Kahan's formulas ("Branch cuts for complex elementary functions", 1987), which are exact on
// the cuts and avoid cancellation near them. Known limits (docs/ufuncs.md): cosh/sinh/exp whose
// real part is just past the overflow threshold of the type (exp(x) overflows, exp(x)*cos(y)
// would not) return inf; atanh far from the origin (|z| > 1/sqrt(eps)) loses relative accuracy
// in the tiny real part.
#pragma once

namespace cuarray {

template <typename T> struct complex_consts;
template <> struct complex_consts<float> {
  static __device__ __forceinline__ float big() { return 1.0e18f; }        // sqrt scales beyond this
  static __device__ __forceinline__ float exp_max() { return 88.0f; }      // exp overflows past it
  static __device__ __forceinline__ float tanh_big() { return 9.0f; }      // tanh(x) == +-1 past it
};
template <> struct complex_consts<double> {
  static __device__ __forceinline__ double big() { return 1.0e150; }
  static __device__ __forceinline__ double exp_max() { return 709.0; }
  static __device__ __forceinline__ double tanh_big() { return 22.0; }
};

template <typename T> __device__ __forceinline__ T c_pi() { return T(3.141592653589793238462643383279502884); }
template <typename T> __device__ __forceinline__ T c_nan() { return T(0) / T(0); }  // quiet NaN
template <typename T> __device__ __forceinline__ T c_inf() { return T(1) / T(0); }

template <typename T> __device__ __forceinline__ complex<T> conj(complex<T> z) { return complex<T>(z.re, -z.im); }
// |z| as NumPy's (C's hypot): finite whenever it is (CUDA's hypot overflows to inf a few ulp
// below the largest finite value).
template <typename T> __device__ __forceinline__ T modulus(complex<T> z) {
  T h = ::hypot(z.re, z.im);
  if (::isinf(h) && ::isfinite(z.re) && ::isfinite(z.im)) {
    // CUDA's hypot may round up past the largest finite value where |z| is finite (|1e-3 +
    // DBL_MAX j| gave inf on the H100, and so did twice the hypot of the halved parts, one ulp
    // above DBL_MAX/2): the larger part times sqrt(1 + r^2), r = smaller/larger <= 1, overflows
    // only where |z| itself does (r^2 underflows to 0 for a negligible smaller part).
    T a = ::fmax(::fabs(z.re), ::fabs(z.im)), b = ::fmin(::fabs(z.re), ::fabs(z.im));
    T r = b / a;
    h = a * ::sqrt(T(1) + r * r);
  }
  return h;
}
template <typename T> __device__ __forceinline__ T abs(complex<T> z) { return modulus(z); }
template <typename T> __device__ __forceinline__ T absolute(complex<T> z) { return modulus(z); }
template <typename T> __device__ __forceinline__ T arg(complex<T> z) { return ::atan2(z.im, z.re); }
template <typename T> __device__ __forceinline__ complex<T> rint(complex<T> z) { return complex<T>(::rint(z.re), ::rint(z.im)); }
// 1/z as NumPy's complex reciprocal loop computes it (Smith's, its own order of operations: the
// signs of zero parts follow it, e.g. 1/(x+0j) is 1/x - 0j).
template <typename T> __device__ __forceinline__ complex<T> reciprocal(complex<T> z) {
  if (::fabs(z.im) <= ::fabs(z.re)) {
    T r = z.im / z.re, d = z.re + z.im * r;
    return complex<T>(T(1) / d, -r / d);
  }
  T r = z.re / z.im, d = z.re * r + z.im;
  return complex<T>(r / d, T(-1) / d);
}
template <typename T> __device__ __forceinline__ complex<T> square(complex<T> z) { return z * z; }
// i*z and -i*z without rounding.
template <typename T> __device__ __forceinline__ complex<T> times_i(complex<T> z) { return complex<T>(-z.im, z.re); }
template <typename T> __device__ __forceinline__ complex<T> times_minus_i(complex<T> z) { return complex<T>(z.im, -z.re); }

// NumPy 2's sign of a complex number: z/|z| (0 for 0). An infinite part decides the direction even
// when the other part is NaN; both parts infinite, or a NaN with no infinity, give NaN.
template <typename T>
__device__ __forceinline__ complex<T> sign(complex<T> z) {
  if (::isinf(z.re)) {
    if (::isinf(z.im)) return complex<T>(c_nan<T>(), c_nan<T>());
    return complex<T>(z.re > T(0) ? T(1) : T(-1), T(0));
  }
  if (::isinf(z.im)) return complex<T>(T(0), z.im > T(0) ? T(1) : T(-1));
  if (z.re != z.re || z.im != z.im) return complex<T>(c_nan<T>(), c_nan<T>());
  T a = ::hypot(z.re, z.im);
  if (a == T(0)) return complex<T>(T(0), T(0));
  return complex<T>(z.re / a, z.im / a);
}

// -- exponential and logarithm ---------------------------------------------------------------------
template <typename T>
__device__ __forceinline__ complex<T> exp(complex<T> z) {
  T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(::exp(x), y);  // exact for real input, keeps the zero's sign
  if (!::isfinite(y)) {
    if (::isinf(x)) return x < T(0) ? complex<T>(T(0), T(0)) : complex<T>(x, y - y);
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  T c = ::cos(y), s = ::sin(y);
  if (x > complex_consts<T>::exp_max()) {
    // exp(x) alone overflows; exp(x/2)^2 * cos(y) may not.
    T h = ::exp(x * T(0.5));
    return complex<T>((h * c) * h, (h * s) * h);
  }
  T e = ::exp(x);
  return complex<T>(e * c, e * s);
}

// log|z| accurately near |z| == 1, where log(hypot) would cancel.
template <typename T>
__device__ __forceinline__ T log_abs(complex<T> z) {
  T ax = ::fabs(z.re), ay = ::fabs(z.im);
  if (ax < ay) { T t = ax; ax = ay; ay = t; }
  if (ax > T(0.5) && ax < T(1.5) && ay < T(0.75)) {
    return T(0.5) * ::log1p((ax - T(1)) * (ax + T(1)) + ay * ay);
  }
  T h = ::hypot(ax, ay);
  if (::isinf(h) && ::isfinite(ax)) {
    // |z| is past the type's range while log|z| is not (1e308 + 1e308j): halve both parts (exact,
    // a power of 2) as hypot scales, and add log 2 back.
    const T ln2 = T(0.693147180559945309417232121458176568);
    return ::log(::hypot(ax * T(0.5), ay * T(0.5))) + ln2;
  }
  return ::log(h);
}

template <typename T>
__device__ __forceinline__ complex<T> log(complex<T> z) {
  return complex<T>(log_abs(z), ::atan2(z.im, z.re));
}
template <typename T>
__device__ __forceinline__ complex<T> log2(complex<T> z) {
  const T inv_ln2 = T(1.442695040888963407359924681001892137);
  complex<T> l = log(z);
  return complex<T>(l.re * inv_ln2, l.im * inv_ln2);
}
template <typename T>
__device__ __forceinline__ complex<T> log10(complex<T> z) {
  const T inv_ln10 = T(0.434294481903251827651128918916605082);
  complex<T> l = log(z);
  return complex<T>(l.re * inv_ln10, l.im * inv_ln10);
}
template <typename T>
__device__ __forceinline__ complex<T> exp2(complex<T> z) {
  const T ln2 = T(0.693147180559945309417232121458176568);
  return exp(complex<T>(z.re * ln2, z.im * ln2));
}
// exp(z) - 1 with the real part as expm1(x)cos(y) - 2 sin^2(y/2): no cancellation near 0. NumPy's
// formula (nc_expm1) for every input, infinities included: expm1(inf + 0j) = inf + nanj there.
template <typename T>
__device__ __forceinline__ complex<T> expm1(complex<T> z) {
  T x = z.re, y = z.im;
  T s = ::sin(y * T(0.5));
  return complex<T>(::expm1(x) * ::cos(y) - T(2) * s * s, ::exp(x) * ::sin(y));
}
// log(1 + z) with log|1+z| = log1p(2x + x^2 + y^2)/2 for small z.
template <typename T>
__device__ __forceinline__ complex<T> log1p(complex<T> z) {
  T x = z.re, y = z.im;
  if (::fabs(x) + ::fabs(y) < T(0.5)) {
    return complex<T>(T(0.5) * ::log1p(x * (T(2) + x) + y * y), ::atan2(y, T(1) + x));
  }
  T x1 = T(1) + x;
  if (::isinf(modulus(complex<T>(x1, y)))) {
    // NumPy's log1p is log(hypot(1 + x, y)) unscaled: inf once that modulus overflows, where
    // log (scaled as hypot) stays finite (log1p(1e308 + 1e308j) is inf + 0.785j in NumPy)
    return complex<T>(c_inf<T>(), ::atan2(y, x1));
  }
  return log(complex<T>(x1, y));
}

// Principal square root (C99 Annex G special cases; no overflow for huge operands).
template <typename T>
__device__ __forceinline__ complex<T> sqrt(complex<T> z) {
  T x = z.re, y = z.im;
  if (x == T(0) && y == T(0)) return complex<T>(T(0), y);
  if (::isinf(y)) return complex<T>(c_inf<T>(), y);
  if (x != x) return complex<T>(x, x);  // C99: sqrt(nan + iy) is nan + i nan for finite y
  if (::isinf(x)) {
    if (x > T(0)) return complex<T>(x, y != y ? y : ::copysign(T(0), y));
    return complex<T>(y != y ? y : T(0), ::copysign(c_inf<T>(), y));
  }
  if (y != y) return complex<T>(y, y);
  // Scale huge operands down (by 4, an exact power of 2) so |x| + hypot(x, y) cannot overflow.
  T scale = T(1);
  if (::fabs(x) > complex_consts<T>::big() || ::fabs(y) > complex_consts<T>::big()) {
    x *= T(0.25);
    y *= T(0.25);
    scale = T(2);
  }
  T t = ::sqrt((::fabs(x) + ::hypot(x, y)) * T(0.5));
  if (x >= T(0)) return complex<T>(t * scale, (y / (T(2) * t)) * scale);
  return complex<T>((::fabs(y) / (T(2) * t)) * scale, ::copysign(t, y) * scale);
}

// a**b: small integer exponents by repeated multiplication (exact where NumPy is exact, e.g.
// 1j**3 == -1j), otherwise exp(b log a). The integer steps are NumPy's npy_cpow's, non-finite parts
// included: n = 1, 2, 3 as a, a*a, a*(a*a); any other |n| < 100 by squaring onto 1 (so 1 * (inf+0j)
// has NumPy's NaN imaginary part: (inf+0j)**4 and, in complex64, (-1e30+0j)**-2 are nan+nanj there);
// 1/r for n < 0.
template <typename T>
__device__ __forceinline__ complex<T> pow(complex<T> a, complex<T> b) {
  if (b.re == T(0) && b.im == T(0)) return complex<T>(T(1), T(0));
  if (a.re == T(0) && a.im == T(0)) {
    if (b.re > T(0)) return complex<T>(T(0), T(0));
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  if (b.im == T(0) && b.re == ::trunc(b.re) && ::fabs(b.re) < T(100)) {
    int n = int(b.re);
    if (n == 1) return a;
    if (n == 2) return a * a;
    if (n == 3) return a * (a * a);
    int m = n < 0 ? -n : n;
    complex<T> r(T(1), T(0)), p = a;
    while (true) {
      if (m & 1) r = r * p;
      m >>= 1;
      if (!m) break;
      p = p * p;
    }
    return n < 0 ? complex<T>(T(1), T(0)) / r : r;
  }
  return exp(b * log(a));
}
template <typename T>
__device__ __forceinline__ complex<T> power(complex<T> a, complex<T> b) { return pow(a, b); }

// -- hyperbolic ------------------------------------------------------------------------------------
template <typename T>
__device__ __forceinline__ complex<T> sinh(complex<T> z) {
  T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(::sinh(x), y);
  if (!::isfinite(y)) {
    if (x == T(0)) return complex<T>(x, y - y);
    if (::isinf(x)) return complex<T>(x, y - y);
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  return complex<T>(::sinh(x) * ::cos(y), ::cosh(x) * ::sin(y));
}
template <typename T>
__device__ __forceinline__ complex<T> cosh(complex<T> z) {
  T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(::cosh(x), x != x ? y : y * ::copysign(T(1), x));
  if (!::isfinite(y)) {
    if (x == T(0)) return complex<T>(y - y, T(0));
    if (::isinf(x)) return complex<T>(::fabs(x), y - y);
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  if (x == T(0)) return complex<T>(::cos(y), T(0) * ::sin(y) * ::copysign(T(1), x));
  return complex<T>(::cosh(x) * ::cos(y), ::sinh(x) * ::sin(y));
}
// tanh by Kahan's formulation: no overflow, no cancellation for small z.
template <typename T>
__device__ __forceinline__ complex<T> tanh(complex<T> z) {
  T x = z.re, y = z.im;
  if (x != x) return complex<T>(x, y == T(0) ? y : x);
  if (::isinf(x)) {
    return complex<T>(::copysign(T(1), x),
                      ::isfinite(y) ? ::copysign(T(0), ::sin(y) * ::cos(y)) : ::copysign(T(0), y));
  }
  // C11 G.6.2.6: tanh(+-0 + i inf) and tanh(+-0 + i nan) are +-0 + i nan (so tan(-inf + 0j) is nan + 0j).
  if (!::isfinite(y)) return complex<T>(x == T(0) ? x : y - y, y - y);
  if (y == T(0)) return complex<T>(::tanh(x), y);
  if (::fabs(x) > complex_consts<T>::tanh_big()) {
    T e = ::exp(T(-2) * ::fabs(x));
    return complex<T>(::copysign(T(1), x), T(4) * ::sin(y) * ::cos(y) * e);
  }
  T t = ::tan(y);
  T beta = T(1) + t * t;
  T s = ::sinh(x);
  T rho = ::sqrt(T(1) + s * s);
  T den = T(1) + beta * s * s;
  return complex<T>((beta * rho * s) / den, t / den);
}

// -- trigonometric (through the hyperbolic functions of i*z) ---------------------------------------
template <typename T>
__device__ __forceinline__ complex<T> sin(complex<T> z) { return times_minus_i(sinh(times_i(z))); }
template <typename T>
__device__ __forceinline__ complex<T> cos(complex<T> z) { return cosh(times_i(z)); }
template <typename T>
__device__ __forceinline__ complex<T> tan(complex<T> z) { return times_minus_i(tanh(times_i(z))); }

// -- inverse functions (Kahan) -----------------------------------------------------------------------
// For finite z: asin, acos and acosh from the square roots of 1-z, 1+z (z-1, z+1), exact on the
// cuts because sqrt keeps the sign of a zero imaginary part. Infinite and NaN operands go through
// asinh's table of C99 special values.
template <typename T>
__device__ __forceinline__ complex<T> asin_finite(complex<T> z) {
  complex<T> s1m = sqrt(complex<T>(T(1) - z.re, -z.im));
  complex<T> s1p = sqrt(complex<T>(T(1) + z.re, z.im));
  T re = ::atan2(z.re, s1m.re * s1p.re - s1m.im * s1p.im);
  T im = ::asinh(s1m.re * s1p.im - s1m.im * s1p.re);
  return complex<T>(re, im);
}
template <typename T>
__device__ __forceinline__ bool is_finite_c(complex<T> z) { return ::isfinite(z.re) && ::isfinite(z.im); }

template <typename T>
__device__ __forceinline__ complex<T> asinh(complex<T> z) {
  if (is_finite_c(z)) return times_minus_i(asin_finite(times_i(z)));
  T x = z.re, y = z.im;
  if (::isinf(x) || ::isinf(y)) {
    if (x != x || y != y) return complex<T>(c_inf<T>(), c_nan<T>());
    T im = (::isinf(x) && ::isinf(y)) ? c_pi<T>() / T(4) : (::isinf(y) ? c_pi<T>() / T(2) : T(0));
    return complex<T>(::copysign(c_inf<T>(), x), ::copysign(im, y));
  }
  if (x != x && y == T(0)) return complex<T>(x, y);
  return complex<T>(c_nan<T>(), c_nan<T>());
}
template <typename T>
__device__ __forceinline__ complex<T> asin(complex<T> z) {
  if (is_finite_c(z)) return asin_finite(z);
  return times_minus_i(asinh(times_i(z)));
}
template <typename T>
__device__ __forceinline__ complex<T> acos(complex<T> z) {
  if (!is_finite_c(z)) {
    complex<T> a = asin(z);
    return complex<T>(c_pi<T>() / T(2) - a.re, -a.im);
  }
  complex<T> s1m = sqrt(complex<T>(T(1) - z.re, -z.im));
  complex<T> s1p = sqrt(complex<T>(T(1) + z.re, z.im));
  T re = T(2) * ::atan2(s1m.re, s1p.re);
  T im = ::asinh(s1p.re * s1m.im - s1p.im * s1m.re);
  return complex<T>(re, im);
}
template <typename T>
__device__ __forceinline__ complex<T> acosh(complex<T> z) {
  if (!is_finite_c(z)) {
    complex<T> a = acos(z);
    return complex<T>(::fabs(a.im), ::copysign(a.re, z.im));
  }
  complex<T> sm = sqrt(complex<T>(z.re - T(1), z.im));
  complex<T> sp = sqrt(complex<T>(z.re + T(1), z.im));
  T re = ::asinh(sm.re * sp.re + sm.im * sp.im);
  T im = T(2) * ::atan2(sm.im, sp.re);
  return complex<T>(re, im);
}
template <typename T>
__device__ __forceinline__ complex<T> atanh(complex<T> z) {
  T x = z.re, y = z.im;
  if (::isinf(x) || ::isinf(y)) {
    if (y != y) return complex<T>(::copysign(T(0), x), y);
    return complex<T>(::copysign(T(0), x), ::copysign(c_pi<T>() / T(2), y));
  }
  if (x != x || y != y) {
    if (x == T(0)) return complex<T>(x, c_nan<T>());
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  T ax = ::fabs(x);
  if (ax == T(1) && y == T(0)) return complex<T>(::copysign(c_inf<T>(), x), y);
  // Re = log(|1+z|^2 / |1-z|^2) / 4 = log1p(4x / ((1-x)^2 + y^2)) / 4; Im = atan2(2y, (1-x)(1+x) - y^2) / 2.
  T d = (T(1) - ax) * (T(1) - ax) + y * y;
  T re = ::copysign(T(0.25) * ::log1p(T(4) * ax / d), x);
  T im = T(0.5) * ::atan2(T(2) * y, (T(1) - x) * (T(1) + x) - y * y);
  return complex<T>(re, im);
}
template <typename T>
__device__ __forceinline__ complex<T> atan(complex<T> z) { return times_minus_i(atanh(times_i(z))); }

}  // namespace cuarray
