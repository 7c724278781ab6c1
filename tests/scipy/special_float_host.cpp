// Host build of the float evaluations of the float32 special-function loops
// (cuarray/scipy/special/templates/bessel_float.cuh, gamma_float.cuh over float_math.cuh): only +, *, fmaf, IEEE division and sqrt
// and bit operations, so g++ gives the device's bits and tests/scipy/test_special_float_cpu.py
// measures the GPU's accuracy on the host.
#include "common.cuh"
#include "float_math.cuh"
#include "bessel_float.cuh"
#include "gamma.cuh"
#include "gamma_float.cuh"

namespace cs = cuarray_special;

#define FLOAT_UNARY(NAME, EXPR) \
  extern "C" void csf_##NAME(const float* x, float* out, long n) { \
    for (long i = 0; i < n; ++i) { const float in0 = x[i]; out[i] = (EXPR); } }

FLOAT_UNARY(i0e_float, cs::i0e_float(in0))
FLOAT_UNARY(i1e_float, cs::i1e_float(in0))
FLOAT_UNARY(gammaln_float, cs::gammaln_float(in0))
FLOAT_UNARY(log_f, cs::log_f(in0))
