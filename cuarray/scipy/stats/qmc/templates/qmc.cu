// The QMC engines' kernels for cuarray/scipy/stats/qmc (sobol.cuh and halton.cuh prepended): n
// points from index `start` in `d` dimensions, one thread a coordinate (consecutive threads write
// consecutive dimensions of a point: coalesced stores of the (n, d) row-major sample).

namespace cuarray_qmc {

// `sv` holds each dimension's `bits` direction numbers in a row; the value is the integer times 2^-bits.
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

// Dimension j has base bases[j]; scrambled, its `counts[j]` digit permutations start at perms + offsets[j].
__global__ void halton_draw(const long long* __restrict__ bases, const int* __restrict__ perms,
                            const long long* __restrict__ offsets, const int* __restrict__ counts,
                            double* __restrict__ out, long long start, long long n, int d, int scrambled) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * d) return;
  const long long p = i / d;
  const int j = (int)(i - p * d);
  out[i] = halton_point(start + p, bases[j], scrambled ? perms + offsets[j] : nullptr, scrambled ? counts[j] : 0);
}

}  // namespace cuarray_qmc
