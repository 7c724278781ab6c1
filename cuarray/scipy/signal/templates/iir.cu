// lfilter's kernels (iir.cuh prepended by Python, CUARRAY_DEVICE a device function): passes 1 and 3
// of the blocked scan are one thread per chunk (lfilter_chunks over run_chunk), pass 2 one thread per
// line (lfilter_carry over carry_line). See iir.cuh for the formulation.

namespace cuarray_signal {

template <typename T, typename O, int KMAX>
__global__ void lfilter_chunks(const double* __restrict__ ba, int K, const T* __restrict__ x, O* __restrict__ y,
                               long long n, long long inner, long long L, long long C, long long total,
                               const double* __restrict__ start, double* __restrict__ end) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= total) return;
  run_chunk<KMAX, T, O>(ba, K, x, y, n, inner, L, C, t, start, end);
}

template <int KMAX>
__global__ void lfilter_carry(const double* __restrict__ M, int K, double* __restrict__ states, long long inner,
                              long long C, long long lines, const double* __restrict__ zi, double* __restrict__ zf) {
  long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  carry_line<KMAX>(M, K, states, inner, C, line, zi, zf);
}

}  // namespace cuarray_signal
