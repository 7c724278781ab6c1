// cuarray/rounded.cuh: IEEE add, sub, mul and div of float and double, each rounded once to nearest
// even and never fused with a neighbour: NVRTC contracts a * b + c into one fma by default (one
// rounding), NumPy and SciPy round the product and the sum separately, and the results that must
// match theirs bit for bit (linspace's steps, histogram edges, an interpolation coordinate on an
// edge, the EDT's distances) call these instead of the operators. On the device they are CUDA's
// __fadd_rn family, which the compiler never contracts (the only place in the templates where those
// intrinsics appear: tests/test_rules.py). Shared by ranges.cuh, histograms.cu, ndimage's interp.cuh
// and edt.cuh, interpolate's linear.cu.
//
// Host builds (the CPU tests compile some templates with g++): the plain operators, correctly
// rounded as long as g++ does not contract across them: the builds pass -ffp-contract=off (g++'s
// default is fast, a no-op on x86-64 without FMA instructions, but not on aarch64 or with -march=native).
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
#define CUARRAY_RN_FN __device__ __forceinline__
#else
#define CUARRAY_RN_FN inline
#endif

namespace cuarray {
namespace rn {

#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
CUARRAY_RN_FN float add(float a, float b) { return __fadd_rn(a, b); }
CUARRAY_RN_FN float sub(float a, float b) { return __fsub_rn(a, b); }
CUARRAY_RN_FN float mul(float a, float b) { return __fmul_rn(a, b); }
CUARRAY_RN_FN float div(float a, float b) { return __fdiv_rn(a, b); }
CUARRAY_RN_FN double add(double a, double b) { return __dadd_rn(a, b); }
CUARRAY_RN_FN double sub(double a, double b) { return __dsub_rn(a, b); }
CUARRAY_RN_FN double mul(double a, double b) { return __dmul_rn(a, b); }
CUARRAY_RN_FN double div(double a, double b) { return __ddiv_rn(a, b); }
#else
CUARRAY_RN_FN float add(float a, float b) { return a + b; }
CUARRAY_RN_FN float sub(float a, float b) { return a - b; }
CUARRAY_RN_FN float mul(float a, float b) { return a * b; }
CUARRAY_RN_FN float div(float a, float b) { return a / b; }
CUARRAY_RN_FN double add(double a, double b) { return a + b; }
CUARRAY_RN_FN double sub(double a, double b) { return a - b; }
CUARRAY_RN_FN double mul(double a, double b) { return a * b; }
CUARRAY_RN_FN double div(double a, double b) { return a / b; }
#endif

}  // namespace rn
}  // namespace cuarray

#undef CUARRAY_RN_FN
