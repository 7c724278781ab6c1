// Correctly rounded float operations for arange/linspace (cuarray/_creation/ranges.py): cuarray/rounded.cuh's.
#include "cuarray/rounded.cuh"
namespace cuarray_ranges {
using cuarray::rn::add;
using cuarray::rn::div;
using cuarray::rn::mul;
using cuarray::rn::sub;
template <bool HALF> __device__ __forceinline__ float r(float x) {
#ifdef CUARRAY_HAS_HALF
  if (HALF) return __half2float(__float2half_rn(x));
#endif
  return x;
}
template <bool HALF> __device__ __forceinline__ double r(double x) { return x; }
// NumPy's complex linspace multiplies its complex arange, k + 0i, by the complex step (or delta)
// with the plain product (k vr - 0 vi) + (k vi + 0 vr) i: the zero products make a part NaN
// wherever the step has an infinite one (linspace(-2 + 0.5j, inf, 1) is nan + nanj).
template <typename T> __device__ __forceinline__ T cmul_re(T k, T vr, T vi) { return sub(mul(k, vr), mul(T(0), vi)); }
template <typename T> __device__ __forceinline__ T cmul_im(T k, T vr, T vi) { return add(mul(k, vi), mul(T(0), vr)); }
}  // namespace cuarray_ranges
