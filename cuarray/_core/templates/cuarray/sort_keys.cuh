// cuarray/sort_keys.cuh: order-preserving unsigned keys, shared by the sort engine
// (cuarray/_core/sort.py, templates/sort.cu) and the median bisection (cuarray/_statistics/median.py).
//
// order_keys<T>::key(x) maps a value to an unsigned key whose order is NumPy's sort order (NaNs
// last; -0.0 sorts just below +0.0); value() inverts key() (NaNs come back canonical).
// sort_keys<T>::key(x) is the key a stable sort needs: equal values (-0.0 and +0.0, every NaN of
// a NaN class) get equal keys, so their original order is kept as NumPy's stable sort keeps it.
// radix_canonical<U>(k) does the same on a key already in order_keys' bit order (the sort
// kernels move the original bits and compute digits from the canonical key).
//
// No include guard, and a namespace of its own (cuarray_keys): the reduction engine puts a
// preamble inside a per-kernel namespace, so a preamble that includes this file gets its own
// copy there without hiding ::cuarray. Include it once per namespace, after cuarray/common.cuh
// (or cuarray/complex.cuh).

namespace cuarray_keys {
using ::cuarray::complex;

template <typename T> struct order_keys;

// bool and integers: their bits, the sign bit flipped for signed types.
#define CUARRAY_INT_ORDER_KEYS(T, K, SIGN)                                                    \
  template <> struct order_keys<T> {                                                          \
    typedef K key_t;                                                                          \
    typedef T value_t;                                                                        \
    static __device__ __forceinline__ bool is_nan(T) { return false; }                        \
    static __device__ __forceinline__ K key(T x) { return key_t(key_t(x) ^ key_t(SIGN)); }    \
    static __device__ __forceinline__ T value(K k) { return value_t(key_t(k ^ key_t(SIGN))); } \
  };
CUARRAY_INT_ORDER_KEYS(bool, unsigned char, 0)
CUARRAY_INT_ORDER_KEYS(signed char, unsigned char, 0x80)
CUARRAY_INT_ORDER_KEYS(unsigned char, unsigned char, 0)
CUARRAY_INT_ORDER_KEYS(short, unsigned short, 0x8000)
CUARRAY_INT_ORDER_KEYS(unsigned short, unsigned short, 0)
CUARRAY_INT_ORDER_KEYS(int, unsigned int, 0x80000000u)
CUARRAY_INT_ORDER_KEYS(unsigned int, unsigned int, 0)
CUARRAY_INT_ORDER_KEYS(long long, unsigned long long, 0x8000000000000000ull)
CUARRAY_INT_ORDER_KEYS(unsigned long long, unsigned long long, 0)
#undef CUARRAY_INT_ORDER_KEYS

// IEEE floats by their bits U: a positive number gets its sign bit set, a negative one is
// complemented, so the unsigned order is the numeric order; every NaN gets the largest key.
template <typename U, U INF_BITS>
struct order_float_keys {
  typedef U key_t;
  static constexpr U SIGN = U(U(1) << (8 * sizeof(U) - 1));
  static constexpr U INF_KEY = U(INF_BITS | SIGN);  // the key of +inf
  static __device__ __forceinline__ bool nan_bits(U u) { return U(u & U(~SIGN)) > INF_BITS; }
  static __device__ __forceinline__ U key_bits(U u) {
    return nan_bits(u) ? U(~U(0)) : (u & SIGN) ? U(~u) : U(u | SIGN);
  }
  static __device__ __forceinline__ U bits(U k) { return (k & SIGN) ? U(k ^ SIGN) : U(~k); }
};
template <> struct order_keys<float> : order_float_keys<unsigned int, 0x7f800000u> {
  static __device__ __forceinline__ bool is_nan(float x) { return x != x; }
  static __device__ __forceinline__ key_t key(float x) { return key_bits(__float_as_uint(x)); }
  static __device__ __forceinline__ float value(key_t k) { return __uint_as_float(bits(k)); }
};
template <> struct order_keys<double> : order_float_keys<unsigned long long, 0x7ff0000000000000ull> {
  static __device__ __forceinline__ bool is_nan(double x) { return x != x; }
  static __device__ __forceinline__ key_t key(double x) { return key_bits(key_t(__double_as_longlong(x))); }
  static __device__ __forceinline__ double value(key_t k) { return __longlong_as_double((long long)bits(k)); }
};
// float16, read as its bits (a uint16 view of the data); values decode to float, exactly.
struct order_half {};
template <> struct order_keys<order_half> : order_float_keys<unsigned short, 0x7c00> {
  static __device__ __forceinline__ bool is_nan(unsigned short u) { return nan_bits(u); }
  static __device__ __forceinline__ key_t key(unsigned short u) { return key_bits(u); }
  static __device__ __forceinline__ float value(key_t k) {
    const unsigned int h = bits(k), sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1fu) return __uint_as_float(sign | 0x7f800000u | (m << 13));  // inf, NaN
    if (e == 0u) return __uint_as_float(sign | __float_as_uint(float(m) * 5.9604644775390625e-8f));  // m * 2^-24
    return __uint_as_float(sign | ((e + 112u) << 23) | (m << 13));  // rebias 15 -> 127
  }
};

// complex: NumPy sorts numbers lexicographically (real, imag), then R + nan j by R, then
// nan + R j by R, then nan + nan j. Two key words (hi, lo): a number has (key(re), key(im)); the
// NaN classes put hi just above key(+inf) (both parts NaN: at the top) and rank by lo. A real
// part -0.0 is keyed as +0.0: the tie must fall through to the imaginary parts.
template <typename T>
struct order_complex_keys {
  typedef order_keys<T> R;
  typedef typename R::key_t W;
  static __device__ __forceinline__ bool is_nan(complex<T> x) { return R::is_nan(x.real()) || R::is_nan(x.imag()); }
  static __device__ __forceinline__ W hi(complex<T> x) {
    const bool nr = R::is_nan(x.real()), ni = R::is_nan(x.imag());
    if (!nr) return ni ? W(R::INF_KEY + 1) : R::key(x.real() + T(0));  // -0.0 + 0.0 == +0.0
    return ni ? W(~W(0)) : W(R::INF_KEY + 2);
  }
  static __device__ __forceinline__ W lo(complex<T> x) {
    return !R::is_nan(x.real()) && R::is_nan(x.imag()) ? R::key(x.real()) : R::key(x.imag());
  }
  static __device__ __forceinline__ complex<T> value2(W h, W l) {
    const T nan = R::value(W(~W(0)));
    if (h <= R::INF_KEY) return complex<T>(R::value(h), R::value(l));
    if (h == W(R::INF_KEY + 1)) return complex<T>(R::value(l), nan);
    if (h == W(R::INF_KEY + 2)) return complex<T>(nan, R::value(l));
    return complex<T>(nan, nan);
  }
};
template <> struct order_keys<complex<float>> : order_complex_keys<float> {
  typedef unsigned long long key_t;  // (hi << 32) | lo
  static __device__ __forceinline__ key_t key(complex<float> x) { return (key_t(hi(x)) << 32) | lo(x); }
  static __device__ __forceinline__ complex<float> value(key_t k) { return value2((unsigned)(k >> 32), (unsigned)k); }
};
// complex128's key as two 64-bit words, compared lexicographically.
struct order_key2 {
  unsigned long long hi, lo;
  friend __device__ __forceinline__ bool operator<(order_key2 a, order_key2 b) {
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
  }
  friend __device__ __forceinline__ bool operator<=(order_key2 a, order_key2 b) { return !(b < a); }
};
template <> struct order_keys<complex<double>> : order_complex_keys<double> {
  typedef order_key2 key_t;
  static __device__ __forceinline__ key_t key(complex<double> x) { return key_t{hi(x), lo(x)}; }
  static __device__ __forceinline__ complex<double> value(key_t k) { return value2(k.hi, k.lo); }
  static __device__ __forceinline__ key_t join(unsigned long long h, unsigned long long l) { return key_t{h, l}; }
  // The low word as the bisection of low words sees it in a row whose high word is h: below
  // every candidate when x's high word is smaller, above every one when it is larger.
  static __device__ __forceinline__ unsigned long long lo_within(complex<double> x, unsigned long long h) {
    const unsigned long long xh = hi(x);
    return xh < h ? 0ull : xh > h ? ~0ull : lo(x);
  }
};

// ---- stable-sort keys: equal values get equal keys ------------------------------------------

// A key in order_float_keys' bit order with -0.0 keyed as +0.0 and every NaN as the largest key.
template <typename U>
__device__ __forceinline__ U radix_canonical(U k) {
  constexpr int B = 8 * sizeof(U);
  constexpr U SIGN = U(U(1) << (B - 1));
  // +inf's key: the exponent field (B == 16: 5 bits, 32: 8, 64: 11) all ones, the sign bit set.
  constexpr int EXP = B == 16 ? 5 : B == 32 ? 8 : 11;
  constexpr U INF_KEY = U(SIGN | (U(U(U(1) << EXP) - 1) << (B - 1 - EXP)));
  if (k == U(~SIGN)) return SIGN;                            // -0.0 -> +0.0
  if (k > INF_KEY || k < U(~INF_KEY)) return U(~U(0));       // NaNs of either sign
  return k;
}

template <typename T> struct sort_keys {  // bool, integers: order_keys' key is injective
  typedef typename order_keys<T>::key_t key_t;
  static __device__ __forceinline__ key_t key(T x) { return order_keys<T>::key(x); }
};
template <> struct sort_keys<float> {
  typedef unsigned int key_t;
  static __device__ __forceinline__ key_t key(float x) { return order_keys<float>::key(x + 0.0f); }
};
template <> struct sort_keys<double> {
  typedef unsigned long long key_t;
  static __device__ __forceinline__ key_t key(double x) { return order_keys<double>::key(x + 0.0); }
};
template <> struct sort_keys<order_half> {
  typedef unsigned short key_t;
  static __device__ __forceinline__ key_t key(unsigned short u) {
    return radix_canonical<unsigned short>(order_keys<order_half>::key(u));
  }
};
// complex: order_keys' two words with both parts' zeros canonical (NaN parts already are).
template <typename T>
struct sort_complex_words {
  typedef order_complex_keys<T> C;
  typedef typename C::W W;
  static __device__ __forceinline__ complex<T> canon(complex<T> x) { return complex<T>(x.real() + T(0), x.imag() + T(0)); }
  static __device__ __forceinline__ W hi(complex<T> x) { return C::hi(canon(x)); }
  static __device__ __forceinline__ W lo(complex<T> x) { return C::lo(canon(x)); }
};
template <> struct sort_keys<complex<float>> : sort_complex_words<float> {
  typedef unsigned long long key_t;
  static __device__ __forceinline__ key_t key(complex<float> x) { return (key_t(hi(x)) << 32) | lo(x); }
};
template <> struct sort_keys<complex<double>> : sort_complex_words<double> {};  // hi(x), lo(x) words

}  // namespace cuarray_keys
