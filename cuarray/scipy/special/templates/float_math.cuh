// Float arithmetic for the float evaluations of float32 special-function loops (bessel_float.cuh,
// gamma_float.cuh). They use only +, -, *, fmaf, IEEE division and square root (correctly
// rounded under NVRTC's default -prec-div=true -prec-sqrt=true, and by the host's C library)
// and exact bit operations, never CUDA's expf/logf (whose bits differ from glibc's): the g++
// build then computes the device's bits, and the host tests measure the GPU's accuracy.
// Every multiply-add that should be one is an explicit fmaf: the ufunc kernels compile with
// -fmad=false (EXACT_ROUNDING in _core/elementwise.py) and x86-64 g++ contracts nothing either.
#ifndef CUARRAY_SPECIAL_FLOAT_MATH_CUH
#define CUARRAY_SPECIAL_FLOAT_MATH_CUH
#ifndef CSF_DEVICE
#include <cstring>
#endif
namespace cuarray_special {

CSF_FN int float_as_int(float x) {
#ifdef CSF_DEVICE
  return __float_as_int(x);
#else
  int i;
  std::memcpy(&i, &x, sizeof i);
  return i;
#endif
}
CSF_FN float int_as_float(int i) {
#ifdef CSF_DEVICE
  return __int_as_float(i);
#else
  float x;
  std::memcpy(&x, &i, sizeof x);
  return x;
#endif
}

// 2^k as a float, for -126 <= k <= 127 (exact: the exponent field).
CSF_FN float pow2f(int k) { return int_as_float((k + 127) << 23); }

// Horner's rule with fmaf, c[0] the constant term.
template <int N>
CSF_FN float hornerf(const float (&c)[N], float x) {
  float r = c[N - 1];
#pragma unroll
  for (int k = N - 2; k >= 0; --k) r = fmaf(r, x, c[k]);
  return r;
}

// log(x) = hi + lo for finite x > 0 (subnormals included), hi = log x rounded (within 0.6 ulp),
// |lo| <= ulp(hi) / 2 about, hi + lo within ~2^-34 relative of log x: x = 2^e m, m in [sqrt(1/2), sqrt 2), f = m - 1 (exact), log(1 + f) =
// f + f^2 T(f) (T fitted by scripts/special/lgamma_float_fits.py), e ln2 with ln 2 in two parts
// (ln2_hi has 8 trailing zero bits: e ln2_hi is exact), e ln2_hi + f as an exact two-sum, and
// the rest added to it as another.
CSF_FN float log_parts_f(float x, float& lo) {
  int e = 0;
  if (x < 1.17549435e-38f) {  // subnormal: scale into the normals first
    x *= 16777216.0f;
    e = -24;
  }
  const int bits = float_as_int(x);
  const int k = (bits - 0x3f3504f3) >> 23;  // 0x3f3504f3: sqrt(1/2)
  const float f = int_as_float(bits - k * 8388608) - 1.0f;  // m - 1, m = x / 2^k
  e += k;
  const float T[] = {-0.5f, 0.33333322405815125f, -0.25000011920928955f, 0.20001447200775146f,
                     -0.1666753739118576f, 0.14232318103313446f, -0.12420814484357834f,
                     0.11812136322259903f, -0.11557287722826004f, 0.06769024580717087f};
  const float fe = float(e);
  const float a = fe * 0.693145752f;  // exact
  const float hi = a + f;
  const float err = e == 0 ? 0.0f : f - (hi - a);  // Fast2Sum (|a| >= ln 2/2 > |f| when e != 0)
  const float tail = err + fmaf(f, f * hornerf(T, f), fe * 1.42860677e-06f);
  const float h = hi + tail;  // normalised (Fast2Sum: |tail| < |hi| for x != 1)
  lo = tail - (h - hi);
  return h;
}
CSF_FN float log_f(float x) {
  float lo;
  return log_parts_f(x, lo);
}

}  // namespace cuarray_special
#endif
