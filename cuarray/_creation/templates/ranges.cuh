// Correctly rounded float operations for arange/linspace (cuarray/_creation/ranges.py).
namespace cuarray_ranges {
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float div(float a, float b) { return __fdiv_rn(a, b); }
__device__ __forceinline__ double div(double a, double b) { return __ddiv_rn(a, b); }
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
