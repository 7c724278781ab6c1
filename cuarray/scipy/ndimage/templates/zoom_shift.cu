// The kernels of zoom, shift and a diagonal affine_transform (zoom_shift.cuh), for
// cuarray/scipy/ndimage/_interp_kernels.py, after interp.cuh and zoom_shift.cuh. Kernels only: the
// host test (tests/scipy/ndimage/test_ndimage_interp_cpu.py) builds this file with g++, a loop over
// blockIdx and threadIdx standing for the launch, and drives it through the Python host code.

namespace cuarray_ndimage {

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

// The separable path's tables: as zoom_shift_table, offsets as tap indices (stride 1); an outside
// row (first offset ZS_OUTSIDE, modes but grid-constant) sets *outside (zeroed by the host; every
// writer stores the same 1), which spares the last pass its per-point lookup when no row is
// outside (the bench case).
template <typename I, int ORDER>
__global__ void zoom_shift_axis_table(const long long* __restrict__ meta, int ndim, int flags, double npad, int mode,
                                      long long rows, double* __restrict__ W, I* __restrict__ F, int* outside) {
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  zoom_shift_row<I, ORDER>(r, rows, meta, meta + ndim, ndim, reinterpret_cast<const double*>(meta + 2 * ndim),
                           flags, npad, mode, W, F, true);
  if (mode != I_GRID_CONSTANT && F[r] < 0) *outside = 1;
}

// One pass of the separable evaluation (zoom_shift.cuh's zoom_shift_pass_value): dst point idx of
// the (total / (n_out * inner), n_out, inner) C-contiguous dst per thread, adjacent threads along
// inner (coalesced for every axis). LAST: the pass writing the output (O), where a point outside
// along any axis of oshape (ndim axes, modes other than grid-constant) is cval (looked up only when
// the table kernel set *outside); otherwise O is double and an outside row of this axis is 0 (see
// zoom_shift.cuh).
template <typename T, typename O, typename I, int ORDER, bool GC, bool LAST>
__global__ void zoom_shift_pass(const T* __restrict__ src, O* __restrict__ dst, const double* __restrict__ W,
                                const I* __restrict__ F, long long rows, long long base, long long n_in,
                                long long n_out, long long inner, long long total,
                                const long long* __restrict__ oshape, int ndim, double cval,
                                const int* __restrict__ outside) {
  long long i0 = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i0 >= total) return;
  const I idx = (I)i0, in = (I)inner, no = (I)n_out;
  I q = idx / in;
  I i = idx - q * in;
  I o = q / no;
  I j = q - o * no;
  if (LAST && !GC && *outside && zs_point_outside<I>(F, oshape, ndim, idx)) {
    dst[idx] = interp_store<O>::go(cval);
    return;
  }
  dst[idx] = interp_store<O>::go(
      zoom_shift_pass_value<T, I, ORDER, GC>(src, W, F, (I)rows, (I)base + j, (I)n_in, in, o, i, cval));
}

}  // namespace cuarray_ndimage
