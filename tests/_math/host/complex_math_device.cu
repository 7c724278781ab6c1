// Every function of complex_math.cuh and complex.cuh's product for float and double, one kernel
// each: tests/_math/test_wrong_values_cpu.py compiles it for sm_90 (the device overloads of scalbn,
// ilogb, signbit and fma their special cases use must exist for both types), in one NVRTC call.
#include "cuarray/common.cuh"
#include "cuarray/ops.cuh"

template <typename T>
__device__ void every_function(const cuarray::complex<T>* in, cuarray::complex<T>* out) {
  using namespace cuarray;
  complex<T> z = in[threadIdx.x];
  complex<T> r = exp(z) + log(z) + log2(z) + log10(z) + exp2(z) + expm1(z) + log1p(z) + sqrt(z);
  r = r + sin(z) + cos(z) + tan(z) + sinh(z) + cosh(z) + tanh(z);
  r = r + asin(z) + acos(z) + atan(z) + asinh(z) + acosh(z) + atanh(z);
  out[threadIdx.x] = r + sign(z) + reciprocal(z) + square(z) + power(z, r) + z * r + complex<T>(abs(z), T(0));
}

extern "C" __global__ void every_complex_function_f(const cuarray::complex<float>* in, cuarray::complex<float>* out) {
  every_function(in, out);
}
extern "C" __global__ void every_complex_function_d(const cuarray::complex<double>* in, cuarray::complex<double>* out) {
  every_function(in, out);
}
