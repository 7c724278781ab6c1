// distance_transform_edt for cuarray/scipy/ndimage/_edt.py (edt.cuh prepended, CUARRAY_DEVICE a
// device function). Lines of the (outer, n, inner) view of the float64 squared distances: a warp
// per line staged in shared memory (edt_pass_warp) where it fits, else one thread per line with
// scratch and arg per line in global memory (line-major, n or n + 1 per line).

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

// One warp per line, for lines whose staged copy (n doubles and n ints) fits in shared memory:
// the lanes stage the line, lane 0 builds the envelope over its finite entries (found 32 at a
// time by a ballot), then the lanes fill the line, each x by a binary search of the envelope.
// f is read once and written once; the sequential part is lane 0's pushes and pops in shared
// memory. `words`: the 8-byte words of each warp's staging area.
__global__ void edt_pass_warp(double* __restrict__ f, long long n, long long inner, long long lines, double w2,
                              long long words, const long long* __restrict__ idx_in,
                              long long* __restrict__ idx_out, int nd, long long total) {
  extern __shared__ double edt_stage[];
  const int per_block = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  long long line = (long long)blockIdx.x * per_block + warp;
  if (line >= lines) return;  // the whole warp
  double* fs = edt_stage + warp * words;
  int* v = (int*)(fs + n);
  long long o = line / inner, kk = line - o * inner;
  long long base = o * n * inner + kk;
  double* g = f + base;
  for (long long x = lane; x < n; x += 32) fs[x] = g[x * inner];
  __syncwarp();
  EdtEnvelope e;
  e.k = -1;
  e.p = 0;
  e.Fp = e.zn = e.zd = 0.0;
  for (long long q0 = 0; q0 < n; q0 += 32) {
    long long q = q0 + lane;
    unsigned m = __ballot_sync(0xffffffffu, q < n && fs[q] < CUARRAY_EDT_INF);
    if (lane == 0) {
      while (m) {
        int b = __ffs(m) - 1;
        m &= m - 1;
        edt_envelope_add(e, fs, v, w2, (int)(q0 + b));
      }
    }
  }
  int k = __shfl_sync(0xffffffffu, e.k, 0);
  __syncwarp();
  for (long long x = lane; x < n; x += 32) {
    long long q = x;
    if (k >= 0) {
      q = edt_envelope_site(fs, v, k, w2, (double)x);
      double dx = (double)(x - q);
      g[x * inner] = w2 * dx * dx + fs[q];
    }
    if (idx_in)
      for (int d = 0; d < nd; ++d) idx_out[d * total + base + x * inner] = idx_in[d * total + base + q * inner];
  }
}

template <typename O>
__global__ void edt_sqrt(const double* __restrict__ f, O* __restrict__ out, long long total) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  out[i] = (O)sqrt(f[i]);
}

}  // namespace cuarray_ndimage
