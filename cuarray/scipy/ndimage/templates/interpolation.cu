// scipy.ndimage's geometric transforms and spline prefilter, for
// cuarray/scipy/ndimage/_interp_kernels.py. Python prepends interp.cuh and zoom_shift.cuh with
// CUARRAY_DEVICE defined as a device function (zoom_shift.cu, the zoom/shift kernels, follows). One
// output point per thread; the prefilter a line per thread or per warp. Inputs are C-contiguous.

namespace cuarray_ndimage {

// ND: the input's ndim when 1..3 (unrolled), else 0 (any ndim). ORDER: the spline order.
template <typename T, typename O, int KIND, int ND, int ORDER>
__global__ void geometric(const T* __restrict__ in, O* __restrict__ out, const long long* __restrict__ ishape,
                          int indim, const long long* __restrict__ oshape, int ondim,
                          const double* __restrict__ params, long long total, int mode, double cval,
                          double npad) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  double c[CUARRAY_NDIMAGE_INTERP_MAX_NDIM];
  input_coordinate(KIND, idx, total, oshape, ondim, indim, params, npad, c);
  out[idx] = interp_store<O>::go(interpolate<T, ND, ORDER>(in, ishape, indim, c, mode, cval));
}

// The lines of the (outer, n, inner) view of a C-contiguous float64 array, one per thread, in place
// (adjacent threads take adjacent k, so their loads coalesce unless the axis is the last).
__global__ void spline_filter(double* __restrict__ data, long long n, long long inner, long long lines, int order,
                              int mode) {
  long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  long long o = line / inner, k = line - o * inner;
  spline_filter_line(data + o * n * inner + k, n, inner, order, mode);
}

// One warp per line, for lines that fit in shared memory when a thread per line would leave the
// GPU idle or read uncoalesced (the last axis; few lines): the lanes stage the line, lane 0 filters
// it there (shared-memory latency instead of global memory's on each step of the recursions), the
// lanes write it back.
__global__ void spline_filter_warp(double* __restrict__ data, long long n, long long inner, long long lines,
                                   int order, int mode) {
  extern __shared__ double spline_stage[];
  const int per_block = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  long long line = (long long)blockIdx.x * per_block + warp;
  if (line >= lines) return;  // the whole warp
  double* c = spline_stage + warp * n;
  long long o = line / inner, k = line - o * inner;
  double* g = data + o * n * inner + k;
  for (long long i = lane; i < n; i += 32) c[i] = g[i * inner];
  __syncwarp();
  if (lane == 0) spline_filter_line(c, n, 1, order, mode);
  __syncwarp();
  for (long long i = lane; i < n; i += 32) g[i * inner] = c[i];
}

}  // namespace cuarray_ndimage
