// distance_transform_edt for cuarray/scipy/ndimage/_edt.py (edt.cuh prepended, CUARRAY_DEVICE a
// device function). One thread per line of the (outer, n, inner) view of the float64 squared
// distances; scratch and arg per line come from global memory (line-major, n or n + 1 per line).

namespace cuarray_ndimage {

// f = 0 at background (input == 0), INF elsewhere; idx (optional, nd x total): own coordinates.
template <typename T>
__global__ void edt_init(const T* __restrict__ in, double* __restrict__ f, long long* __restrict__ idx,
                         const long long* __restrict__ shape, int nd, long long total) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  f[i] = in[i] != T(0) ? CUARRAY_EDT_INF : 0.0;
  if (idx) {
    long long rem = i;
    for (int d = nd - 1; d >= 0; --d) {
      idx[d * total + i] = rem % shape[d];
      rem /= shape[d];
    }
  }
}

// One axis. idx_in/idx_out (optional, nd x total): the nearest feature's coordinates, gathered
// through arg (the feature found along this axis sits where the parabola's apex is).
__global__ void edt_pass(double* __restrict__ f, long long n, long long inner, long long lines, double w2,
                         long long* __restrict__ vbuf, double* __restrict__ zbuf, double* __restrict__ dbuf,
                         long long* __restrict__ abuf, const long long* __restrict__ idx_in,
                         long long* __restrict__ idx_out, int nd, long long total) {
  long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  long long o = line / inner, k = line - o * inner;
  long long base = o * n * inner + k;
  long long* arg = abuf + line * n;
  edt_line(f + base, inner, n, w2, vbuf + line * n, zbuf + line * (n + 1), dbuf + line * n, arg);
  if (idx_in) {
    for (long long x = 0; x < n; ++x) {
      long long q = arg[x] < 0 ? x : arg[x];
      for (int d = 0; d < nd; ++d) idx_out[d * total + base + x * inner] = idx_in[d * total + base + q * inner];
    }
  }
}

template <typename O>
__global__ void edt_sqrt(const double* __restrict__ f, O* __restrict__ out, long long total) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  out[i] = (O)sqrt(f[i]);
}

}  // namespace cuarray_ndimage
