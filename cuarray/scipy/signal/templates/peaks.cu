// find_peaks' per-peak kernels for cuarray/scipy/signal/_peaks.py (peaks.cuh prepended,
// CUARRAY_DEVICE a device function): one thread per peak; the distance selection is sequential by
// nature (each kept peak removes its neighbours) and runs on one thread.

namespace cuarray_signal {

__global__ void prominences(const double* __restrict__ x, long long n, const long long* __restrict__ peaks, long long m,
                            long long wlen, double* __restrict__ prom, long long* __restrict__ lb,
                            long long* __restrict__ rb) {
  long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= m) return;
  peak_prominence(x, n, peaks[p], wlen, prom + p, lb + p, rb + p);
}

__global__ void widths(const double* __restrict__ x, const long long* __restrict__ peaks, long long m,
                       const double* __restrict__ prom, const long long* __restrict__ lb,
                       const long long* __restrict__ rb, double rel_height, double* __restrict__ w,
                       double* __restrict__ h, double* __restrict__ l, double* __restrict__ r) {
  long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= m) return;
  peak_width(x, peaks[p], prom[p], lb[p], rb[p], rel_height, w + p, h + p, l + p, r + p);
}

__global__ void by_distance(const long long* __restrict__ peaks, const long long* __restrict__ order, long long m,
                            long long distance, unsigned char* __restrict__ keep) {
  if (blockIdx.x == 0 && threadIdx.x == 0) select_by_distance(peaks, order, m, distance, keep);
}

}  // namespace cuarray_signal
