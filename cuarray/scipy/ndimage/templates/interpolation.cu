// scipy.ndimage's geometric transforms and spline prefilter, for
// cuarray/scipy/ndimage/_interp_kernels.py. Python prepends interp.cuh and zoom_shift.cuh with
// CUARRAY_DEVICE defined as a device function. One output point per thread; the prefilter a line per
// thread or per warp. Inputs are C-contiguous.

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

// zoom/shift tables (zoom_shift.cuh): one row per thread, rows = the sum of oshape. meta: ishape
// (ndim), oshape (ndim), then the float64 zoom (ndim) and shift (ndim).
template <typename I, int ORDER>
__global__ void zoom_shift_table(const long long* __restrict__ meta, int ndim, int flags, double npad, int mode,
                                 long long rows, double* __restrict__ W, I* __restrict__ F) {
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  zoom_shift_row<I, ORDER>(r, rows, meta, meta + ndim, ndim, reinterpret_cast<const double*>(meta + 2 * ndim),
                           flags, npad, mode, W, F);
}

// One output point of a zoom/shift per thread. I: int when the input, the output and the tables
// have fewer than 2^31 elements (32-bit offsets and index arithmetic), else long long. TABLE: the
// taps from the tables W, F (else computed per point; W, F unused). meta as zoom_shift_table's.
template <typename T, typename O, typename I, int ND, int ORDER, bool GC, bool TABLE>
__global__ void zoom_shift(const T* __restrict__ in, O* __restrict__ out, const double* __restrict__ W,
                           const I* __restrict__ F, long long rows, const long long* __restrict__ meta, int ndim,
                           int flags, double npad, int mode, long long total, double cval) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const zs_args<I> a = {W, F, (I)rows, meta, ndim, flags, mode, npad, cval};
  out[idx] = interp_store<O>::go(zoom_shift_point<T, I, ND, ORDER, GC, TABLE>::go(in, a, (I)idx));
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
