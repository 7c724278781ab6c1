// scipy.ndimage's geometric transforms and spline prefilter, for
// cuarray/scipy/ndimage/_interp_kernels.py. Python prepends interp.cuh and zoom_shift.cuh with
// CUARRAY_DEVICE defined as a device function (zoom_shift.cu, the zoom/shift kernels, follows). One
// output point per thread; the prefilter a line per thread, a line per warp (a run per lane), or a
// (column, run) per thread. Inputs are C-contiguous.

namespace cuarray_ndimage {

// ND: the input's ndim when 1..3 (unrolled), else 0 (any ndim). ORDER: the spline order. P: the
// coordinates' type (KIND_COORDS; double for KIND_AFFINE). TAPS (ND of 1..3): interpolate_taps with
// offsets of type I (int below 2^31 elements), else interpolate's generic tap loop.
template <typename T, typename O, typename P, typename I, int KIND, int ND, int ORDER, bool TAPS>
__global__ void geometric(const T* __restrict__ in, O* __restrict__ out, const long long* __restrict__ ishape,
                          int indim, const long long* __restrict__ oshape, int ondim,
                          const P* __restrict__ params, long long total, int mode, double cval,
                          double npad) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  double c[CUARRAY_NDIMAGE_INTERP_MAX_NDIM];
  // ND (when known) as the loop bound: the coordinates stay in registers, not a local-memory array
  input_coordinate<P>(KIND, idx, total, oshape, ondim, ND > 0 ? ND : indim, params, npad, c);
  double t;
  if constexpr (TAPS && ND > 0) t = interpolate_taps<T, I, ND, ORDER>(in, ishape, c, mode, cval);
  else t = interpolate<T, ND, ORDER>(in, ishape, indim, c, mode, cval);
  out[idx] = interp_store<O>::go(t);
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
// GPU idle or read uncoalesced (the last axis; few lines): the lanes stage the line from `src` (S:
// double, or float when the pass reads a float32 input directly), filter it there in double and
// write it to `dst` (src itself, or an array of its shape; D: double, or float for float32
// coefficients, an option of the perf script's, not SciPy's float64). chunked (lines of CHUNK_MIN samples or more):
// each lane filters its own run (interp.cuh's chunk phases); else lane 0 runs the whole line
// (shared-memory latency on each of ~3n dependent steps a pole: 0.32 ms a pass of a 2048^2 image on
// the H100, docs/perf-notes.md).
template <typename S, typename D>
__global__ void spline_filter_warp(const S* src, D* dst, long long n, long long inner, long long lines,
                                   int order, int mode, int chunked) {
  extern __shared__ double spline_stage[];
  const int per_block = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  long long line = (long long)blockIdx.x * per_block + warp;
  if (line >= lines) return;  // the whole warp
  double* c = spline_stage + warp * n;
  long long o = line / inner, k = line - o * inner;
  const S* gs = src + o * n * inner + k;
  D* g = dst + o * n * inner + k;
  const spline_poles_t sp = spline_poles(order);
  const bool chunk = chunked && n >= CUARRAY_NDIMAGE_SPLINE_CHUNK_MIN;
  const double scale = chunk ? sp.gain : 1.0;  // spline_filter_line applies the gain itself
  for (long long i = lane; i < n; i += 32) c[i] = (double)gs[i * inner] * scale;
  __syncwarp();
  if (!chunk) {
    if (lane == 0) spline_filter_line(c, n, 1, order, mode);
  } else {
    const long long m = spline_chunk(n);
    const long long a = lane * m < n ? lane * m : n, b = a + m < n ? a + m : n;
    const int kind = spline_kind(mode);
    for (int q = 0; q < sp.np; ++q) {
      const double z = sp.z[q];
      const int K = sp.k[q];
      double prev = chunk_causal_start(c, n, z, K, kind, a, b);
      __syncwarp();
      chunk_causal_run(c, z, a, b, prev);
      __syncwarp();
      prev = chunk_anticausal_start(c, n, z, K, kind, a, b);
      __syncwarp();
      chunk_anticausal_run(c, n, z, a, b, prev);
      __syncwarp();
    }
  }
  __syncwarp();
  for (long long i = lane; i < n; i += 32) g[i * inner] = (D)c[i];
}

// The lines of a strided axis (inner of 16 or more), a thread per (column, run): blockDim.x adjacent
// columns (16 doubles: a 128-byte row segment, so every load and store is coalesced; a warp covers
// two runs), blockDim.y runs of each column, filtered in place in global memory by interp.cuh's chunk
// phases (stride inner) with a __syncthreads between phases (the runs of a column are one block's).
// The first phase copies the run from `src` (S: float or double; dst itself in place) with the gain
// applied. Lines of at least CUARRAY_NDIMAGE_SPLINE_CHUNK_MIN samples (the cut boundary sums); the
// (outer, n, inner) view's outer index strides over gridDim.y.
// (launch bounds: blocks of up to 16 x 64 threads need at most 64 registers a thread)
template <typename S>
__global__ void __launch_bounds__(1024) spline_filter_columns(const S* src, double* dst, long long n, long long inner,
                                                              long long outer, int order, int mode) {
  const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = k < inner;
  const long long m = (n + blockDim.y - 1) / blockDim.y;
  const long long a0 = (long long)threadIdx.y * m;
  const long long a = a0 < n ? a0 : n, b = a + m < n ? a + m : n;
  const spline_poles_t sp = spline_poles(order);
  const int kind = spline_kind(mode);
  for (long long o = blockIdx.y; o < outer; o += gridDim.y) {
    double* c = dst + o * n * inner + k;
    const S* cs = src + o * n * inner + k;
    if (active)
      for (long long j = a; j < b; ++j) c[j * inner] = (double)cs[j * inner] * sp.gain;
    __syncthreads();
    for (int q = 0; q < sp.np; ++q) {
      const double z = sp.z[q];
      const int K = sp.k[q];
      double prev = active ? chunk_causal_start(c, n, z, K, kind, a, b, inner) : 0.0;
      __syncthreads();
      if (active) chunk_causal_run(c, z, a, b, prev, inner);
      __syncthreads();
      prev = active ? chunk_anticausal_start(c, n, z, K, kind, a, b, inner) : 0.0;
      __syncthreads();
      if (active) chunk_anticausal_run(c, n, z, a, b, prev, inner);
      __syncthreads();
    }
  }
}

// One pole of the prefilter along a strided axis, streamed (interp.cuh's stream_run): a thread per
// (column, run of M samples), each run read from `src` alone (its K samples before and after
// included) and written to `dst`, so no thread waits on another: no barrier, loads only before
// stores only, and every warp's load or store one row segment of blockDim.x adjacent columns
// (coalesced). A block is blockDim.x columns by blockDim.y consecutive runs (their warm-ups overlap
// in L1); blockIdx.x counts column groups, then the (outer, n, inner) view's outer index (no loop
// over it: a loop made the compiler keep every tap's address offset in registers across it, 128
// registers a thread); blockIdx.y run groups. U: the warm-ups' loads in flight a thread (16, or 64:
// all K; stream_run). Registers (ptxas sm_90, order 3, int indices), by the launch bound: M 16, U 16:
// 80 (3 blocks an SM); M 16, U 64 and M 32, U 16: up to 128 (2 blocks; M 32's double pole-1 pass
// spills 44 bytes); M 32, U 64: ~165-210 (1 block). POLE 0 applies the gain as it reads; orders 4 and 5
// take two passes (src -> a buffer -> dst). I: int below 2^31 elements. src and dst are different
// arrays. Lines of at least CUARRAY_NDIMAGE_SPLINE_CHUNK_MIN samples (the cut boundary sums).
template <typename S, typename I, int ORDER, int POLE, int M, int U>
__global__ void __launch_bounds__(256, M <= 16 && U <= 16 && sizeof(I) == 4 ? 3 : M <= 16 || U <= 16 ? 2 : 1)
    spline_filter_stream(const S* __restrict__ src, double* __restrict__ dst, long long n, long long inner,
                         long long groups, int mode) {
  const unsigned o = blockIdx.x / (unsigned)groups, g = blockIdx.x - o * (unsigned)groups;  // groups < 2^31
  const long long k = (long long)g * blockDim.x + threadIdx.x;
  const long long a = ((long long)blockIdx.y * blockDim.y + threadIdx.y) * M;
  if (k >= inner || a >= n) return;
  const long long b = a + M < n ? a + M : n;
  const spline_poles_t sp = spline_poles(ORDER);
  const long long base = (long long)o * n * inner + k;
  const line_in<S, I> x = {src + base, (I)inner, POLE == 0 ? sp.gain : 1.0};
  stream_run_store<M, CUARRAY_NDIMAGE_SPLINE_K(ORDER, POLE), U>(x, dst + base, (I)inner, (I)n, sp.z[POLE],
                                                                 spline_kind(mode), (I)a, (I)b);
}

}  // namespace cuarray_ndimage
