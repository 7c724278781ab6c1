// A point of the Sobol' sequence by its index, for cuarray/scipy/stats/qmc/_sobol.py. Plain C++
// (CUARRAY_DEVICE is __device__ on the GPU, empty on the host), so
// tests/scipy/test_stats_qmc_sobol_cpu.py runs it with g++ against SciPy (qmc.cu holds the kernels).
//
// Point k of a dimension is the XOR of the direction numbers v[b] for the set bits b of k's Gray
// code k ^ (k >> 1), XORed with the dimension's shift (Antonov & Saleev 1979): the points SciPy's
// recurrence reaches one at a time (each step flips one Gray-code bit), here each on its own.
#ifndef CUARRAY_QMC_SOBOL_CUH
#define CUARRAY_QMC_SOBOL_CUH
#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

namespace cuarray_qmc {

template <typename U>
CUARRAY_DEVICE inline U sobol_point(const U* v, U shift, unsigned long long k, int bits) {
  unsigned long long g = k ^ (k >> 1);
  U q = shift;
  for (int b = 0; b < bits && g != 0; ++b, g >>= 1) {
    if (g & 1ull) q ^= v[b];
  }
  return q;
}

}  // namespace cuarray_qmc

#endif
