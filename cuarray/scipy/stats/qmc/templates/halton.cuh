// A coordinate of the Halton sequence by its index, for cuarray/scipy/stats/qmc/_halton.py. Plain
// C++ (CUARRAY_DEVICE is __device__ on the GPU, empty on the host), so
// tests/scipy/test_stats_qmc_halton_cpu.py runs it with g++ against SciPy.
//
// The radical inverse of k in `base` (van der Corput), SciPy's `_qmc_cy` loops step for step: the
// digits from the lowest, each times base^-(j+1) kept as a running quotient b2r /= base, summed in
// that order, every product and sum rounded on its own (cuarray::rn: never an fma), so the value
// is SciPy's bit for bit. Scrambled (Owen 2017, "A randomized Halton algorithm in R"): `count`
// digits whatever k's length, digit j replaced by perm[j * base + digit].
#ifndef CUARRAY_QMC_HALTON_CUH
#define CUARRAY_QMC_HALTON_CUH
#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif
#include "cuarray/rounded.cuh"

namespace cuarray_qmc {

CUARRAY_DEVICE inline double halton_point(long long k, long long base, const int* perm, int count) {
  double s = 0.0, b2r = cuarray::rn::div(1.0, (double)base);
  long long q = k;
  if (perm == nullptr) {
    while (q > 0) {
      s = cuarray::rn::add(s, cuarray::rn::mul((double)(q % base), b2r));
      b2r = cuarray::rn::div(b2r, (double)base);
      q /= base;
    }
    return s;
  }
  for (int j = 0; j < count; ++j) {
    const long long r = perm[(long long)j * base + q % base];
    s = cuarray::rn::add(s, cuarray::rn::mul((double)r, b2r));
    b2r = cuarray::rn::div(b2r, (double)base);
    q /= base;
  }
  return s;
}

}  // namespace cuarray_qmc

#endif
