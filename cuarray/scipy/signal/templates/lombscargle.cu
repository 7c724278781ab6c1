// scipy.signal.lombscargle for cuarray/scipy/signal/_lombscargle.py (lombscargle.cuh prepended,
// CUARRAY_DEVICE a device function). One block per frequency (a grid-stride loop past the grid):
// its threads stride over the samples twice, the first pass's sums giving the phase offset tau
// that the second pass needs, each pass ending in a block-wide sum. SciPy's composed form holds
// frequencies x samples matrices (80 GB at 1e5 x 1e5); this holds nothing but the result.

namespace cuarray_signal {

// Sum of K values over the block: warp shuffles, then one warp over the warps' partial sums.
// Every thread gets the totals in v.
template <int K, int BLOCK>
__device__ inline void block_sum(double* v, double (*shared)[K]) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int k = 0; k < K; ++k)
    for (int off = 16; off > 0; off /= 2) v[k] += __shfl_down_sync(0xffffffffu, v[k], off);
  if (lane == 0)
#pragma unroll
    for (int k = 0; k < K; ++k) shared[warp][k] = v[k];
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      v[k] = lane < BLOCK / 32 ? shared[lane][k] : 0.0;
      for (int off = 16; off > 0; off /= 2) v[k] += __shfl_down_sync(0xffffffffu, v[k], off);
    }
    if (lane == 0)
#pragma unroll
      for (int k = 0; k < K; ++k) shared[0][k] = v[k];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = shared[0][k];
  __syncthreads();  // shared is reused by the next sum
}

// out: nf doubles, or nf complex values (2 nf doubles) when normalize is LS_AMPLITUDE. w: the
// weights already divided by their sum (SciPy's order: w * (1 / sum w)).
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) lombscargle(const double* __restrict__ x, const double* __restrict__ y,
                                                     const double* __restrict__ w, long long n,
                                                     const double* __restrict__ freqs, long long nf, int normalize,
                                                     int floating_mean, double* __restrict__ out) {
  __shared__ double shared1[BLOCK / 32][LS_SUMS1];
  __shared__ double shared2[BLOCK / 32][LS_SUMS2];
  const int width = normalize == LS_AMPLITUDE ? 2 : 1;
  for (long long k = blockIdx.x; k < nf; k += gridDim.x) {
    const double f = freqs[k];
    double s1[LS_SUMS1] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (long long i = threadIdx.x; i < n; i += BLOCK) ls_add1(f, x[i], w[i], y[i], s1);
    block_sum<LS_SUMS1, BLOCK>(s1, shared1);
    const double tau = ls_tau(s1, floating_mean != 0);
    double s2[LS_SUMS2] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (long long i = threadIdx.x; i < n; i += BLOCK) ls_add2(f, x[i], w[i], y[i], tau, s2);
    block_sum<LS_SUMS2, BLOCK>(s2, shared2);
    if (threadIdx.x == 0) ls_finish(s1, s2, tau, n, normalize, floating_mean != 0, out + width * k);
  }
}

}  // namespace cuarray_signal
