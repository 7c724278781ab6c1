// cuarray/common.cuh: what every generated kernel includes.
// The generated source defines CUARRAY_HAS_HALF and includes <cuda_fp16.h> first when a float16
// operand is involved (cuda_fp16.h adds ~5 ms of NVRTC time, so it is not included otherwise).
#pragma once

#include "cuarray/complex.cuh"

namespace cuarray {

// A block of N elements loaded or stored with one instruction (16 bytes for the widest operand).
template <typename T, int N>
struct alignas(sizeof(T) * N) vec {
  T v[N];
};

// `_ind.size()` in an ElementwiseKernel operation: the number of elements of the loop.
template <typename I>
struct loop_size {
  I n;
  __device__ __forceinline__ I size() const { return n; }
};

// cast<To>(x): NumPy's conversion rules between the 14 supported types.
// complex -> real takes the real part; anything -> bool is `!= 0`.
template <typename To, typename From>
struct caster {
  static __device__ __forceinline__ To run(From x) { return static_cast<To>(x); }
};
template <typename From>
struct caster<bool, From> {
  static __device__ __forceinline__ bool run(From x) { return x != From(0); }
};
template <>
struct caster<bool, bool> {
  static __device__ __forceinline__ bool run(bool x) { return x; }
};
// Floating -> integer as NumPy's C casts compile on x86-64 (the oracle's machine): int64 and
// uint32 through cvttsd2si to 64 bits, int32 and the narrower types through its 32-bit form, so
// out-of-range values wrap modulo 2^bits (-11.0 -> uint8 245) instead of saturating as a direct
// `cvt` would, and a value outside the conversion's range (NaN included) is x86's "integer
// indefinite", the most negative integer (linspace(0, 2**63 - 1, dtype=int64)'s last element,
// float 2**63, is INT64_MIN in NumPy: a GPU `cvt` saturates to INT64_MAX). NumPy warns "invalid
// value encountered in cast" for these.
template <typename F>
__device__ __forceinline__ long long x86_to_i64(F x) {
  return (x >= F(9223372036854775808.0) || x < F(-9223372036854775808.0) || x != x)
             ? (long long)(-9223372036854775807LL - 1) : static_cast<long long>(x);
}
template <typename F>
__device__ __forceinline__ int x86_to_i32(F x) {
  return (x >= F(2147483648.0) || x <= F(-2147483649.0) || x != x) ? (int)(-2147483647 - 1) : static_cast<int>(x);
}
template <typename To, typename F>
struct float_to_int {  // int8, int16, int32, uint8, uint16: the 32-bit conversion, then truncation
  static __device__ __forceinline__ To run(F x) { return static_cast<To>(x86_to_i32(x)); }
};
template <typename F>
struct float_to_int<long long, F> {
  static __device__ __forceinline__ long long run(F x) { return x86_to_i64(x); }
};
template <typename F>
struct float_to_int<unsigned int, F> {
  static __device__ __forceinline__ unsigned int run(F x) { return static_cast<unsigned int>(x86_to_i64(x)); }
};
template <typename F>
struct float_to_int<unsigned long long, F> {
  static __device__ __forceinline__ unsigned long long run(F x) {
    // (x86 converts x >= 2^63 as x - 2^63 with the top bit flipped: 2^64 and inf give 0)
    if (x >= F(9223372036854775808.0)) {
      return x >= F(18446744073709551616.0) ? 0ull : static_cast<unsigned long long>(x);
    }
    return static_cast<unsigned long long>(x86_to_i64(x));
  }
};
#define CUARRAY_FLOAT_TO_INT(F, I) \
  template <> struct caster<I, F> { \
    static __device__ __forceinline__ I run(F x) { return float_to_int<I, F>::run(x); } \
  };
#define CUARRAY_FLOAT_TO_INTS(F) \
  CUARRAY_FLOAT_TO_INT(F, signed char) CUARRAY_FLOAT_TO_INT(F, short) CUARRAY_FLOAT_TO_INT(F, int) \
  CUARRAY_FLOAT_TO_INT(F, long long) CUARRAY_FLOAT_TO_INT(F, unsigned char) CUARRAY_FLOAT_TO_INT(F, unsigned short) \
  CUARRAY_FLOAT_TO_INT(F, unsigned int) CUARRAY_FLOAT_TO_INT(F, unsigned long long)
CUARRAY_FLOAT_TO_INTS(float)
CUARRAY_FLOAT_TO_INTS(double)
#undef CUARRAY_FLOAT_TO_INTS
#undef CUARRAY_FLOAT_TO_INT

template <typename To, typename T>
struct caster<To, complex<T>> {
  static __device__ __forceinline__ To run(complex<T> x) { return caster<To, T>::run(x.real()); }
};
template <typename T>
struct caster<bool, complex<T>> {
  static __device__ __forceinline__ bool run(complex<T> x) { return x.real() != T(0) || x.imag() != T(0); }
};
template <typename T, typename From>
struct caster<complex<T>, From> {
  static __device__ __forceinline__ complex<T> run(From x) { return complex<T>(caster<T, From>::run(x), T(0)); }
};
template <typename T, typename U>
struct caster<complex<T>, complex<U>> {
  static __device__ __forceinline__ complex<T> run(complex<U> x) { return complex<T>(T(x.real()), T(x.imag())); }
};
template <typename T>
struct caster<complex<T>, complex<T>> {
  static __device__ __forceinline__ complex<T> run(complex<T> x) { return x; }
};

#ifdef CUARRAY_HAS_HALF
// __half converts through float; double -> half rounds once (NumPy rounds double -> half directly).
template <typename To>
struct caster<To, __half> {
  static __device__ __forceinline__ To run(__half x) { return caster<To, float>::run(__half2float(x)); }
};
template <>
struct caster<bool, __half> {
  static __device__ __forceinline__ bool run(__half x) { return __half2float(x) != 0.0f; }
};
template <typename T>
struct caster<complex<T>, __half> {
  static __device__ __forceinline__ complex<T> run(__half x) { return complex<T>(T(__half2float(x)), T(0)); }
};
template <typename From>
struct caster<__half, From> {
  static __device__ __forceinline__ __half run(From x) { return __float2half_rn(static_cast<float>(x)); }
};
template <>
struct caster<__half, double> {
  static __device__ __forceinline__ __half run(double x) { return __double2half(x); }
};
template <>
struct caster<__half, bool> {
  static __device__ __forceinline__ __half run(bool x) { return __float2half_rn(x ? 1.0f : 0.0f); }
};
template <typename T>
struct caster<__half, complex<T>> {
  static __device__ __forceinline__ __half run(complex<T> x) { return caster<__half, T>::run(x.real()); }
};
template <>
struct caster<__half, __half> {
  static __device__ __forceinline__ __half run(__half x) { return x; }
};
#endif

template <typename To, typename From>
__device__ __forceinline__ To cast(From x) {
  return caster<To, From>::run(x);
}

}  // namespace cuarray

using cuarray::complex;
