// Sobol' points for cuarray/scipy/stats/qmc/_sobol.py (sobol.cuh prepended): n points from index
// `start` in `d` dimensions, one thread a coordinate (consecutive threads write consecutive
// dimensions of a point: coalesced stores of the (n, d) row-major sample). `sv` holds each
// dimension's `bits` direction numbers in a row; the value is the integer times 2^-bits.

namespace cuarray_qmc {

template <typename U>
__global__ void sobol_draw(const U* __restrict__ sv, const U* __restrict__ shift, double* __restrict__ out,
                           unsigned long long start, long long n, int d, int bits, double scale) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * d) return;
  const long long p = i / d;
  const int j = (int)(i - p * d);
  const U q = sobol_point<U>(sv + (long long)j * bits, shift[j], start + (unsigned long long)p, bits);
  out[i] = (double)q * scale;
}

}  // namespace cuarray_qmc
