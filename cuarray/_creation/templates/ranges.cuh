// Correctly rounded float operations for arange/linspace (cuarray/_creation/ranges.py).
namespace cuarray_ranges {
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float div(float a, float b) { return __fdiv_rn(a, b); }
__device__ __forceinline__ double div(double a, double b) { return __ddiv_rn(a, b); }
template <bool HALF> __device__ __forceinline__ float r(float x) {
#ifdef CUARRAY_HAS_HALF
  if (HALF) return __half2float(__float2half_rn(x));
#endif
  return x;
}
template <bool HALF> __device__ __forceinline__ double r(double x) { return x; }
}  // namespace cuarray_ranges
