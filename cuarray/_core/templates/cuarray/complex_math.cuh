// cuarray/complex_math.cuh: elementary functions of cuarray::complex<T> (T = float or double).
// Found by argument-dependent lookup, so a ufunc row writes `exp(in0)` for every kind.
//
// Branch cuts and signed zeros follow C99 Annex G; where Annex G leaves a sign open (sinh(-inf +
// i inf), sin(inf + i inf), asin(inf + i nan)...) the choice is glibc's, whose complex functions
// NumPy calls on Linux. The inverse functions use Kahan's formulas ("Branch cuts for complex
// elementary functions", 1987), which are exact on the cuts and avoid cancellation near them, and
// past |z| = 1/eps log(2z) (asinh, acosh, asin, acos) or 1/z (atanh, atan), as glibc and FreeBSD's
// msun do, so that no intermediate overflows below the top of the range; exp, sinh and cosh past
// exp's overflow threshold multiply exp(|x|) in steps, as glibc, so a part that is finite
// (cosh(1000 + 1e-300j)'s imaginary part) stays finite.
#pragma once

namespace cuarray {

template <typename T> struct complex_consts;
template <> struct complex_consts<float> {
  static __device__ __forceinline__ float big() { return 1.0e18f; }        // sqrt scales beyond this
  static __device__ __forceinline__ float small() { return 0x1p-100f; }   // and scales up below this
  static __device__ __forceinline__ float recip_eps() { return 0x1p23f; }  // 1/eps: the inverses' far field
  static __device__ __forceinline__ float max_val() { return 3.40282346638528859811704183484516925e+38f; }
  static __device__ __forceinline__ float exp_max() { return 88.0f; }      // exp overflows past it
  static __device__ __forceinline__ float tanh_big() { return 9.0f; }      // tanh(x) == +-1 past it
  static __device__ __forceinline__ float tiny() { return 0x1p-126f; }    // the smallest normal value
  static __device__ __forceinline__ int digits() { return 24; }           // of the significand
};
template <> struct complex_consts<double> {
  static __device__ __forceinline__ double big() { return 1.0e150; }
  static __device__ __forceinline__ double small() { return 0x1p-900; }
  static __device__ __forceinline__ double recip_eps() { return 0x1p52; }
  static __device__ __forceinline__ double max_val() { return 1.79769313486231570814527423731704357e+308; }
  static __device__ __forceinline__ double exp_max() { return 709.0; }
  static __device__ __forceinline__ double tanh_big() { return 22.0; }
  static __device__ __forceinline__ double tiny() { return 0x1p-1022; }
  static __device__ __forceinline__ int digits() { return 53; }
};

template <typename T> __device__ __forceinline__ T c_pi() { return T(3.141592653589793238462643383279502884); }
template <typename T> __device__ __forceinline__ T c_nan() { return T(0) / T(0); }  // quiet NaN
template <typename T> __device__ __forceinline__ T c_inf() { return T(1) / T(0); }

template <typename T> __device__ __forceinline__ complex<T> conj(complex<T> z) { return complex<T>(z.re, -z.im); }
// hypot as C's (NumPy's hypot and |z|): finite whenever the result is (CUDA's hypot overflows to
// inf a few ulp below the largest finite value: hypot(1, DBL_MAX) and |1e-3 + DBL_MAX j| gave inf
// on the H100 and H200). The float16 loops call the float one (its result rounds to float16).
template <typename T> __device__ __forceinline__ T finite_hypot(T x, T y) {
  T h = ::hypot(x, y);
  if (::isinf(h) && ::isfinite(x) && ::isfinite(y)) {
    // Twice the hypot of the halved parts was one ulp above DBL_MAX/2 there too: the larger part
    // times sqrt(1 + r^2), r = smaller/larger <= 1, overflows only where the hypot itself does
    // (r^2 underflows to 0 for a negligible smaller part).
    T a = ::fmax(::fabs(x), ::fabs(y)), b = ::fmin(::fabs(x), ::fabs(y));
    T r = b / a;
    h = a * ::sqrt(T(1) + r * r);
  }
  return h;
}
__device__ __forceinline__ float hypot(float x, float y) { return finite_hypot(x, y); }
__device__ __forceinline__ double hypot(double x, double y) { return finite_hypot(x, y); }
template <typename T> __device__ __forceinline__ T modulus(complex<T> z) { return finite_hypot(z.re, z.im); }
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
// when the other part is NaN; both parts infinite, or a NaN with no infinity, give NaN. Finite parts
// whose |z| overflows take NumPy's infinite-|z| branch: +-1j by Im's sign (sign(DBL_MAX + DBL_MAX j)
// is 1j there, and sign(DBL_MAX - DBL_MAX j) -1j).
template <typename T>
__device__ __forceinline__ complex<T> sign(complex<T> z) {
  if (::isinf(z.re)) {
    if (::isinf(z.im)) return complex<T>(c_nan<T>(), c_nan<T>());
    return complex<T>(z.re > T(0) ? T(1) : T(-1), T(0));
  }
  if (::isinf(z.im)) return complex<T>(T(0), z.im > T(0) ? T(1) : T(-1));
  if (z.re != z.re || z.im != z.im) return complex<T>(c_nan<T>(), c_nan<T>());
  T m = ::fmax(::fabs(z.re), ::fabs(z.im));
  if (m == T(0)) return complex<T>(T(0), T(0));
  if (::isinf(finite_hypot(z.re, z.im))) return complex<T>(T(0), z.im > T(0) ? T(1) : T(-1));
  // Over the larger part first (exact: a power of 2): NumPy's division by hypot rounds subnormal
  // parts (docs/differences.md).
  int e = ::ilogb(m);
  T a = ::hypot(::scalbn(z.re, -e), ::scalbn(z.im, -e));
  // scaling up is exact, scaling down rounds: after the quotient then, one rounding into subnormals
  if (e < 0) return complex<T>(::scalbn(z.re, -e) / a, ::scalbn(z.im, -e) / a);
  return complex<T>(::scalbn(z.re / a, -e), ::scalbn(z.im / a, -e));
}

// -- exponential and logarithm ---------------------------------------------------------------------
// exp(ax) * (c, s) (half: exp(ax)/2, sinh and cosh there) for ax past exp's overflow threshold t:
// exp(t) one factor at a time (glibc's steps), so that a tiny c or s keeps a finite product; past 3t
// the largest finite value stands for the rest.
template <typename T>
__device__ __forceinline__ complex<T> exp_times(T ax, T c, T s, bool half) {
  const T t = complex_consts<T>::exp_max();
  const T et = ::exp(t);
  c *= half ? et * T(0.5) : et;
  s *= half ? et * T(0.5) : et;
  ax -= t;
  if (ax > t) {
    ax -= t;
    c *= et;
    s *= et;
  }
  if (ax > t) return complex<T>(complex_consts<T>::max_val() * c, complex_consts<T>::max_val() * s);
  T e = ::exp(ax);
  return complex<T>(e * c, e * s);
}
template <typename T>
__device__ __forceinline__ complex<T> exp(complex<T> z) {
  T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(::exp(x), y);  // exact for real input, keeps the zero's sign
  if (!::isfinite(y)) {
    if (::isinf(x)) return x < T(0) ? complex<T>(T(0), ::copysign(T(0), y)) : complex<T>(x, y - y);  // (glibc's zero)
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  T c = ::cos(y), s = ::sin(y);
  if (x > complex_consts<T>::exp_max()) return exp_times(x, c, s, false);  // exp(x) alone overflows
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
  const T ln2 = T(0.693147180559945309417232121458176568);
  if (ax < complex_consts<T>::tiny() && ax > T(0)) {
    // Both parts subnormal: so is |z|, rounded to few bits (|2^-149 (1 + 1j)| rounds to 2^-149 in
    // float); scaled up by 2^digits (exact) it keeps them all, as NumPy's (glibc's) clog does.
    const int d = complex_consts<T>::digits();
    return ::log(::hypot(::scalbn(ax, d), ::scalbn(ay, d))) - T(d) * ln2;
  }
  T h = ::hypot(ax, ay);
  if (::isinf(h) && ::isfinite(ax)) {
    // |z| is past the type's range while log|z| is not (1e308 + 1e308j): halve both parts (exact,
    // a power of 2) as hypot scales, and add log 2 back.
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
  // Scale huge operands down (by 4, an exact power of 2) so |x| + hypot(x, y) cannot overflow,
  // and tiny ones up (by 2^(2k)) so that it is not a subnormal with fewer digits (sqrt(1e-310j)
  // kept 12 of them).
  T scale = T(1);
  if (::fabs(x) > complex_consts<T>::big() || ::fabs(y) > complex_consts<T>::big()) {
    x *= T(0.25);
    y *= T(0.25);
    scale = T(2);
  } else if (::fabs(x) < complex_consts<T>::small() && ::fabs(y) < complex_consts<T>::small()) {
    const int k = sizeof(T) == 4 ? 60 : 500;  // small() * 2^(2k) stays far below 1
    x = ::scalbn(x, 2 * k);
    y = ::scalbn(y, 2 * k);
    scale = ::scalbn(T(1), -k);
  }
  T t = ::sqrt((::fabs(x) + ::hypot(x, y)) * T(0.5));
  if (x >= T(0)) return complex<T>(t * scale, (y / (T(2) * t)) * scale);
  return complex<T>((::fabs(y) / (T(2) * t)) * scale, ::copysign(t, y) * scale);
}

// The textbook product, two roundings a part: NumPy's npy_cpow multiplies so (its baseline build has
// no FMA), where its multiply loop fuses (complex.cuh's operator*).
template <typename T>
__device__ __forceinline__ complex<T> mul_unfused(complex<T> a, complex<T> b) {
  return complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

// The products and sums of mul_c99 with x86's NaN rules (SSE, on which NumPy's hosts run glibc's
// cpow): a NaN operand passes through, the first one if both are; an invalid operation (inf * 0,
// inf - inf) gives the default NaN, whose sign bit is set. The device's float arithmetic returns a
// positive NaN either way, and exp(-inf + i NaN) takes the sign of its zero from that NaN
// ((1+1j)**(-inf+infj) is 0-0j in NumPy's complex64).
template <typename T>
__device__ __forceinline__ T nan_as_x86(T p, T q, T r) {
  if (::isnan(p)) return p;
  if (::isnan(q)) return q;
  return ::isnan(r) ? ::copysign(r, T(-1)) : r;
}
template <typename T>
__device__ __forceinline__ T mul_x86(T p, T q) { return nan_as_x86(p, q, p * q); }
template <typename T>
__device__ __forceinline__ T add_x86(T p, T q) { return nan_as_x86(p, q, p + q); }
template <typename T>
__device__ __forceinline__ T sub_x86(T p, T q) { return nan_as_x86(p, q, p - q); }

// b log a in the fallback of a**b as C's complex product (glibc's cpow is cexp(b * clog(a)), the
// product with C99 Annex G's recovery, libgcc's __muldc3): where both textbook parts are NaN an
// infinite factor is recovered as its direction, so 17**(-inf + infj) is cexp(-inf + infj) = 0
// (NumPy's), not NaN.
template <typename T>
__device__ __forceinline__ complex<T> mul_c99(complex<T> x, complex<T> y) {
  T a = x.re, b = x.im, c = y.re, d = y.im;
  T ac = mul_x86(a, c), bd = mul_x86(b, d), ad = mul_x86(a, d), bc = mul_x86(b, c);
  complex<T> r(sub_x86(ac, bd), add_x86(ad, bc));
  if (!(::isnan(r.re) && ::isnan(r.im))) return r;
  bool recalc = false;
  if (::isinf(a) || ::isinf(b)) {
    a = ::copysign(::isinf(a) ? T(1) : T(0), a);
    b = ::copysign(::isinf(b) ? T(1) : T(0), b);
    if (::isnan(c)) c = ::copysign(T(0), c);
    if (::isnan(d)) d = ::copysign(T(0), d);
    recalc = true;
  }
  if (::isinf(c) || ::isinf(d)) {
    c = ::copysign(::isinf(c) ? T(1) : T(0), c);
    d = ::copysign(::isinf(d) ? T(1) : T(0), d);
    if (::isnan(a)) a = ::copysign(T(0), a);
    if (::isnan(b)) b = ::copysign(T(0), b);
    recalc = true;
  }
  if (!recalc && (::isinf(ac) || ::isinf(bd) || ::isinf(ad) || ::isinf(bc))) {
    if (::isnan(a)) a = ::copysign(T(0), a);
    if (::isnan(b)) b = ::copysign(T(0), b);
    if (::isnan(c)) c = ::copysign(T(0), c);
    if (::isnan(d)) d = ::copysign(T(0), d);
    recalc = true;
  }
  if (recalc) {
    r = complex<T>(mul_x86(c_inf<T>(), sub_x86(mul_x86(a, c), mul_x86(b, d))),
                   mul_x86(c_inf<T>(), add_x86(mul_x86(a, d), mul_x86(b, c))));
  }
  return r;
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
    if (n == 2) return mul_unfused(a, a);
    if (n == 3) return mul_unfused(a, mul_unfused(a, a));
    int m = n < 0 ? -n : n;
    complex<T> r(T(1), T(0)), p = a;
    while (true) {
      if (m & 1) r = mul_unfused(r, p);
      m >>= 1;
      if (!m) break;
      p = mul_unfused(p, p);
    }
    if (n >= 0) return r;
    // 1/r as npy_cpow's cdiv(1, r): Smith's with a reciprocal scale, multiplied
    if (::fabs(r.re) >= ::fabs(r.im)) {
      if (r.re == T(0) && r.im == T(0)) return complex<T>(T(1) / ::fabs(r.re), T(0) / ::fabs(r.im));
      T rat = r.im / r.re, scl = T(1) / (r.re + r.im * rat);
      return complex<T>(scl, (T(0) - rat) * scl);
    }
    T rat = r.re / r.im, scl = T(1) / (r.im + r.re * rat);
    return complex<T>(rat * scl, T(-1) * scl);
  }
  return exp(mul_c99(b, log(a)));
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
    if (::isinf(x)) return complex<T>(c_inf<T>(), y - y);  // (glibc's +inf: the sign is open)
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  if (::isfinite(x) && ::fabs(x) > complex_consts<T>::exp_max()) {
    T c = ::cos(y);
    return exp_times(::fabs(x), ::signbit(x) ? -c : c, ::sin(y), true);
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
  if (::isfinite(x) && ::fabs(x) > complex_consts<T>::exp_max()) {
    T sn = ::sin(y);
    return exp_times(::fabs(x), ::cos(y), ::signbit(x) ? -sn : sn, true);
  }
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
__device__ __forceinline__ complex<T> sin(complex<T> z) {
  // sin(+-inf or nan + i inf) is nan + i inf whatever the signs (glibc's csin; -i sinh(iz) gives -i inf)
  if (::isinf(z.im) && !::isfinite(z.re)) return complex<T>(z.re - z.re, c_inf<T>());
  return times_minus_i(sinh(times_i(z)));
}
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

// Far from the origin (a part past 1/eps): log(2z) = log 2 + log|z| + i arg z for acosh, asinh
// on the mirror image in the right half-plane; log|z| scales where |z| itself would overflow.
template <typename T>
__device__ __forceinline__ bool is_far(complex<T> z) {
  return ::fabs(z.re) > complex_consts<T>::recip_eps() || ::fabs(z.im) > complex_consts<T>::recip_eps();
}
template <typename T>
__device__ __forceinline__ complex<T> log_2z(complex<T> z) {
  const T ln2 = T(0.693147180559945309417232121458176568);
  return complex<T>(log_abs(z) + ln2, ::atan2(z.im, z.re));
}
template <typename T>
__device__ __forceinline__ complex<T> asinh(complex<T> z) {
  T x = z.re, y = z.im;
  if (is_finite_c(z)) {
    if (is_far(z)) {
      complex<T> w = log_2z(::signbit(x) ? -z : z);
      return complex<T>(::copysign(w.re, x), ::copysign(w.im, y));
    }
    return times_minus_i(asin_finite(times_i(z)));
  }
  if (::isinf(x) || ::isinf(y)) {
    if (x != x || y != y) return complex<T>(::isinf(y) ? ::copysign(c_inf<T>(), x) : x, c_nan<T>());
    T im = (::isinf(x) && ::isinf(y)) ? c_pi<T>() / T(4) : (::isinf(y) ? c_pi<T>() / T(2) : T(0));
    return complex<T>(::copysign(c_inf<T>(), x), ::copysign(im, y));
  }
  if (x != x && y == T(0)) return complex<T>(x, y);
  return complex<T>(c_nan<T>(), c_nan<T>());
}
template <typename T>
__device__ __forceinline__ complex<T> asin(complex<T> z) {
  if (is_finite_c(z) && !is_far(z)) return asin_finite(z);
  if (z.re != z.re || z.im != z.im) {  // glibc's casin: the infinity takes the sign of Im z
    if (z.re == T(0)) return z;
    if (::isinf(z.re) || ::isinf(z.im)) return complex<T>(c_nan<T>(), ::copysign(c_inf<T>(), z.im));
    return complex<T>(c_nan<T>(), c_nan<T>());
  }
  return times_minus_i(asinh(times_i(z)));
}
template <typename T>
__device__ __forceinline__ complex<T> acos(complex<T> z) {
  if (!is_finite_c(z)) {
    complex<T> a = asin(z);
    return complex<T>(c_pi<T>() / T(2) - a.re, -a.im);
  }
  if (is_far(z)) {  // |arg z| - i sign(Im z) log(2|z|): no pi/2 - asin cancellation near the real axis
    complex<T> w = log_2z(z);
    return complex<T>(::fabs(w.im), ::copysign(w.re, -z.im));
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
  if (is_far(z)) return log_2z(z);
  complex<T> sm = sqrt(complex<T>(z.re - T(1), z.im));
  complex<T> sp = sqrt(complex<T>(z.re + T(1), z.im));
  T re = ::asinh(sm.re * sp.re + sm.im * sp.im);
  T im = T(2) * ::atan2(sm.im, sp.re);
  return complex<T>(re, im);
}
// Re(1/z) = x/|z|^2 over the larger part's power of 2, so neither |z|^2 overflows nor the quotient
// underflows early (atanh(1e308 + 0j) is 1e-308 + i pi/2).
template <typename T>
__device__ __forceinline__ T real_of_reciprocal(T x, T y) {
  int e = ::ilogb(::fmax(::fabs(x), ::fabs(y)));  // (>= 0: past 1/eps)
  T xs = ::scalbn(x, -e), ys = ::scalbn(y, -e);
  return ::scalbn(x / (xs * xs + ys * ys), -2 * e);  // one rounding into subnormals, at the end
}
// FreeBSD msun's catanh (Kahan's formulas with its guards), the algorithm of the C libraries NumPy
// calls: 1/z + i pi/2 past 1/eps, log(2/|y|) at the singularities +-1 + i y for a tiny y.
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
  T ax = ::fabs(x), ay = ::fabs(y);
  if (y == T(0) && ax <= T(1)) return complex<T>(::atanh(x), y);
  if (x == T(0)) return complex<T>(x, ::atan(y));
  if (is_far(z)) return complex<T>(real_of_reciprocal(x, y), ::copysign(c_pi<T>() / T(2), y));
  const T eps = T(1) / complex_consts<T>::recip_eps();
  const T ln2 = T(0.693147180559945309417232121458176568);
  T rx, ry;
  if (ax == T(1) && ay < eps) {
    rx = (ln2 - ::log(ay)) * T(0.5);
  } else {
    T d = (ax - T(1)) * (ax - T(1)) + ay * ay;  // (its value, not its rounding, past eps: no cancellation)
    rx = T(0.25) * ::log1p(T(4) * ax / d);
  }
  if (ax == T(1)) {
    ry = T(0.5) * ::atan2(T(2), -ay);
  } else if (ay < eps) {
    ry = T(0.5) * ::atan2(T(2) * ay, (T(1) - ax) * (T(1) + ax));
  } else {
    ry = T(0.5) * ::atan2(T(2) * ay, (T(1) - ax) * (T(1) + ax) - ay * ay);
  }
  return complex<T>(::copysign(rx, x), ::copysign(ry, y));
}
// glibc's catan on an infinite part: Im is a zero of Im z's sign. Through atanh(iz) that sign would
// pass through -Im z, and the GPU's negation of a NaN may give a NaN of either sign.
template <typename T>
__device__ __forceinline__ complex<T> atan(complex<T> z) {
  if (::isinf(z.re) || ::isinf(z.im)) {
    T re = z.re != z.re ? z.re : ::copysign(c_pi<T>() / T(2), z.re);
    return complex<T>(re, ::copysign(T(0), z.im));
  }
  return times_minus_i(atanh(times_i(z)));
}

}  // namespace cuarray
