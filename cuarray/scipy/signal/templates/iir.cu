// One thread per line of the (outer, n, inner) view of C-contiguous x, y, zi, zf (zi and zf have K
// in place of n): adjacent threads take adjacent inner indices, so their loads coalesce. Python
// prepends iir.cuh with CUARRAY_DEVICE defined as a device function.
//
// A line's recursion is sequential; lines run in parallel (a batch of signals fills the GPU, one
// long signal does not: see docs/scipy-ndimage-signal.md).

namespace cuarray_signal {

template <typename T, typename O, int KMAX>
__global__ void lfilter(const double* __restrict__ ba, int K, const T* __restrict__ x, O* __restrict__ y, long long n,
                        long long inner, long long lines, const double* __restrict__ zi, double* __restrict__ zf) {
  long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  long long o = line / inner, k = line - o * inner;
  long long base = o * n * inner + k, zbase = o * (long long)K * inner + k;
  lfilter_line<KMAX, T, O>(ba, K, x + base, y + base, n, inner, zi ? zi + zbase : nullptr, zf ? zf + zbase : nullptr);
}

}  // namespace cuarray_signal
