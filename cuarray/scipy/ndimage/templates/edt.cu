// distance_transform_edt for cuarray/scipy/ndimage/_edt.py (edt.cuh prepended, CUARRAY_DEVICE a
// device function). Lines of the (outer, n, inner) view of the float64 squared distances: the
// first axis by a nearest-background scan (edt_zero_bits, edt_first_pass) or like the others
// (edt_init, then a pass); the others a warp per line staged in shared memory where it fits
// (edt_pass_band: the envelope built by bands of lanes; edt_pass_warp: by lane 0), else one thread
// per line with scratch and arg per line in global memory (line-major, n or n + 1 per line).
// The last pass takes `shape` and `samp` (the sampling; null in the other passes) and writes
// SciPy's result for an input without background where its line has no site (edt.cuh,
// edt_no_background_d2: no separate check, no synchronisation).

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
                         long long* __restrict__ idx_out, int nd, long long total,
                         const long long* __restrict__ shape, const double* __restrict__ samp) {
  long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  long long o = line / inner, k = line - o * inner;
  long long base = o * n * inner + k;
  long long* arg = abuf + line * n;
  edt_line(f + base, inner, n, w2, vbuf + line * n, zbuf + line * (n + 1), dbuf + line * n, arg);
  if (samp && arg[0] < 0) {  // the last pass, a line with no site: no background anywhere
    for (long long x = 0; x < n; ++x) {
      long long at = base + x * inner;
      f[at] = edt_no_background_d2(at, shape, samp, nd, total);
      if (idx_in) edt_no_background_idx(idx_out, at, nd, total);
    }
    return;
  }
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
                              long long* __restrict__ idx_out, int nd, long long total,
                              const long long* __restrict__ shape, const double* __restrict__ samp) {
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
  if (k < 0 && samp) {  // the last pass, a line with no site: no background anywhere
    for (long long x = lane; x < n; x += 32) {
      g[x * inner] = edt_no_background_d2(base + x * inner, shape, samp, nd, total);
      if (idx_in) edt_no_background_idx(idx_out, base + x * inner, nd, total);
    }
    return;
  }
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

// The first axis as a nearest-background scan (f is only 0 or INF there, so the squared distance
// is the squared distance to the nearest background element: no envelope). A thread per segment
// of 64 elements of a line of the (outer, n, inner) view, threads adjacent along `inner` (coalesced
// reads and writes): edt_zero_bits packs the segment's background elements into a word,
// bits[(o * nseg + seg) * inner + k], one thread's index; edt_first_pass writes f (and the
// indices, edt_init's work folded in) from its own word and, for the elements with no background
// on one side within the segment, the next word on that side that has any. `root`: the last pass
// (a 1-D input) writes the distances, edt_sqrt's work folded in; `samp` (the last pass only) as
// edt_pass'.
template <typename T>
__global__ void edt_zero_bits(const T* __restrict__ in, unsigned long long* __restrict__ bits, long long n,
                              long long inner, long long nseg, long long count) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  long long r = i / inner, k = i - r * inner, o = r / nseg, seg = r - o * nseg;
  const T* p = in + o * n * inner + k + seg * 64 * inner;
  int len = (int)(n - seg * 64 < 64 ? n - seg * 64 : 64);
  unsigned long long z = 0;
  for (int t = 0; t < len; ++t)
    if (p[t * inner] == T(0)) z |= 1ull << t;
  bits[i] = z;
}

__global__ void edt_first_pass(const unsigned long long* __restrict__ bits, double* __restrict__ f,
                               long long* __restrict__ idx, const long long* __restrict__ shape, int nd,
                               int axis, long long n, long long inner, long long nseg, long long count, double w2,
                               long long total, int root, const double* __restrict__ samp) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  long long r = i / inner, k = i - r * inner, o = r / nseg, seg = r - o * nseg;
  long long x0 = seg * 64;
  int len = (int)(n - x0 < 64 ? n - x0 : 64);
  unsigned long long z = bits[i];
  long long prev = -1, next = -1;
  // Before: needed unless element 0 is background; with any background in the segment only the
  // word before can be nearer (within 63), else search back until a word has one.
  if (!(z & 1ull))
    for (long long s = seg - 1; s >= 0; --s) {
      unsigned long long b = bits[i - (seg - s) * inner];
      if (b) {
        prev = s * 64 + 63 - __clzll((long long)b);
        break;
      }
      if (z) break;
    }
  if (!((z >> (len - 1)) & 1ull))
    for (long long s = seg + 1; s < nseg; ++s) {
      unsigned long long b = bits[i + (s - seg) * inner];
      if (b) {
        next = s * 64 + __ffsll((long long)b) - 1;
        break;
      }
      if (z) break;
    }
  long long base = o * n * inner + k;
  for (int t = 0; t < len; ++t) {
    long long x = x0 + t, q = edt_nearest_zero(z, t, x0, prev, next);
    long long at = base + x * inner;
    double dx = (double)(x - q), d2 = CUARRAY_EDT_INF;
    if (q >= 0) {
      d2 = w2 * dx * dx;
    } else if (samp) {  // a 1-D input without background: SciPy's result (edt_no_background_d2 of x; q = -1)
      double s = cuarray::rn::mul((double)x + 1.0, samp[0]);
      d2 = cuarray::rn::mul(s, s);
    }
    f[at] = root ? sqrt(d2) : d2;
    if (idx) {
      long long rem = at;
      for (int d = nd - 1; d >= 0; --d) {
        long long c = rem % shape[d];
        rem /= shape[d];
        idx[d * total + at] = d == axis && (q >= 0 || samp) ? q : c;
      }
    }
  }
}

// Output x of a band pass' line (site q; k < 0: the line has none, f stays, or its root): to
// g[x * inner], or to out[x] when out is not null.
__device__ inline void edt_band_put(const double* fs, double* g, double* out, long long inner, double w2, int root,
                                    int k, long long x, long long q) {
  double r;
  if (k >= 0) {
    double dx = (double)(x - q), d2 = w2 * dx * dx + fs[q];
    r = root ? sqrt(d2) : d2;
  } else if (root) {
    r = sqrt(fs[x]);
  } else if (out) {
    r = fs[x];
  } else {
    return;
  }
  if (out)
    out[x] = r;
  else
    g[x * inner] = r;
}

// The block's lines between f and the warps' areas (stage + w * words; the line's offset in f at
// word words - 1, -1 for none): `back` 0 f into the staged copies (the first n doubles), 1 the
// outputs (the n doubles before the offset) into f. Thread t takes line t % per_block, x = t /
// per_block + 32 s (blockDim.x is 32 per_block): adjacent threads, adjacent lines.
__device__ inline void edt_block_copy(double* __restrict__ f, double* stage, long long n, long long inner,
                                      long long words, int per_block, int back) {
  const int w = threadIdx.x % per_block;
  double* area = stage + w * words;
  const long long at = ((const long long*)area)[words - 1];
  if (at < 0) return;
  for (long long x = threadIdx.x / per_block; x < n; x += 32) {
    if (back)
      f[at + x * inner] = area[words - 1 - n + x];
    else
      area[x] = f[at + x * inner];
  }
}

__device__ inline void edt_band_line(double* fs, int* v, double* g, double* out, long long n, long long inner,
                                     double w2, int bands, int walk, int root, const long long* __restrict__ idx_in,
                                     long long* __restrict__ idx_out, int nd, long long total, long long base,
                                     const long long* __restrict__ shape, const double* __restrict__ samp);

// edt_pass_warp with the envelope built by `bands` lanes (1..32) at once: lane b builds the
// envelope of its band's sites [b L, (b + 1) L) into v[b L ...] (L = edt_band_length), then the
// bands are merged left to right into v[0 ...] in place (the envelope of bands < b holds at most
// b L sites, so it never reaches band b's stack): the lanes test band b's sites 32 at a time
// (edt_band_keeps), the first kept one (a ballot) is the bridge, the stack is cut after the site
// it meets and the band's sites from it on are moved down. Same staging as edt_pass_warp; the fill
// as there (`walk` 0: x = lane + 32 t, a binary search each) or by runs (`walk` 1: lane l the x of
// [l c, (l + 1) c), one search, then the breakpoints walked: n / 32 + its run's sites steps a lane
// against n / 32 searches, the stores 32 runs apart, merged in L2). `root`: the last axis' pass
// writes the distances (edt_sqrt's work folded in).
//
// `coop` 1 (strided lines, inner > 1): the block stages its lines together and writes them back
// together (edt_block_copy), so adjacent threads touch adjacent lines' elements, which lie next to
// each other: a warp's access is whole 32-byte sectors instead of one 8-byte word in each of 32
// (a warp per line reads one element a line apart per lane). A warp's area then also holds its
// outputs (n doubles) and its line's offset in f (a word, -1 when the block has no such line).
// `coop` 2: the block stages its lines together, the warps store their outputs themselves (the
// area one word longer only: the shared memory, so the occupancy, of coop 0).
__global__ void edt_pass_band(double* __restrict__ f, long long n, long long inner, long long lines, double w2,
                              long long words, int bands, int walk, int root, int coop,
                              const long long* __restrict__ idx_in, long long* __restrict__ idx_out, int nd,
                              long long total, const long long* __restrict__ shape, const double* __restrict__ samp) {
  extern __shared__ double edt_stage[];
  const int per_block = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  long long line = (long long)blockIdx.x * per_block + warp;
  const bool active = line < lines;
  if (!active && !coop) return;  // the whole warp (coop: it still takes part in the block's copies)
  double* fs = edt_stage + warp * words;
  int* v = (int*)(fs + n);
  double* out = coop == 1 ? fs + words - 1 - n : (double*)0;
  long long o = line / inner, kk = line - o * inner;
  long long base = o * n * inner + kk;
  double* g = f + base;
  if (coop) {
    if (lane == 0) ((long long*)fs)[words - 1] = active ? base : -1;
    __syncthreads();
    edt_block_copy(f, edt_stage, n, inner, words, per_block, 0);
    __syncthreads();
  } else {
    for (long long x = lane; x < n; x += 32) fs[x] = g[x * inner];
    __syncwarp();
  }
  if (active)
    edt_band_line(fs, v, g, out, n, inner, w2, bands, walk, root, idx_in, idx_out, nd, total, base, shape, samp);
  if (coop == 1) {
    __syncthreads();
    edt_block_copy(f, edt_stage, n, inner, words, per_block, 1);
  }
}

// A warp's line once staged (edt_pass_band's envelope, merge and fill; lane = threadIdx.x & 31):
// the outputs go to g[x * inner], or to out[x] when out is not null (f's unchanged entries too).
__device__ inline void edt_band_line(double* fs, int* v, double* g, double* out, long long n, long long inner,
                                     double w2, int bands, int walk, int root, const long long* __restrict__ idx_in,
                                     long long* __restrict__ idx_out, int nd, long long total, long long base,
                                     const long long* __restrict__ shape, const double* __restrict__ samp) {
  const int lane = threadIdx.x & 31;
  const int L = edt_band_length(n, bands);
  int m = 0;  // this lane's band: its envelope's size
  if (lane < bands) {
    EdtEnvelope e;
    e.k = -1;
    e.p = 0;
    e.Fp = e.zn = e.zd = 0.0;
    long long q0 = (long long)lane * L, q1 = q0 + L < n ? q0 + L : n;
    for (long long q = q0; q < q1; ++q)
      if (fs[q] < CUARRAY_EDT_INF) edt_envelope_add(e, fs, v + q0, w2, (int)q);
    m = e.k + 1;
  }
  __syncwarp();
  int len = __shfl_sync(0xffffffffu, m, 0);
  for (int b = 1; b < bands; ++b) {
    int mb = __shfl_sync(0xffffffffu, m, b);
    if (mb == 0) continue;
    const int* h = v + b * L;
    int keep_from = 0, cut = -1;  // the stack keeps v[0..cut], the band h[keep_from..]
    if (len > 0) {
      for (int j0 = 0;; j0 += 32) {  // ends: h[mb - 1] is always kept
        int j = j0 + lane, meet = 0;
        bool keep = j < mb && edt_band_keeps(fs, v, len, h, mb, w2, j, &meet);
        unsigned ball = __ballot_sync(0xffffffffu, keep);
        if (ball) {
          int first = __ffs(ball) - 1;
          keep_from = j0 + first;
          cut = __shfl_sync(0xffffffffu, meet, first);
          break;
        }
      }
    }
    int moved = mb - keep_from;
    for (int t0 = 0; t0 < moved; t0 += 32) {  // the destination is left of the source: read, then write
      int t = t0 + lane;
      int site = t < moved ? h[keep_from + t] : 0;
      __syncwarp();
      if (t < moved) v[cut + 1 + t] = site;
      __syncwarp();
    }
    len = cut + 1 + moved;
  }
  int k = len - 1;
  __syncwarp();
  if (k < 0 && samp) {  // the last pass, a line with no site: no background anywhere
    for (long long x = lane; x < n; x += 32) {
      double d2 = edt_no_background_d2(base + x * inner, shape, samp, nd, total), r = root ? sqrt(d2) : d2;
      if (out)
        out[x] = r;
      else
        g[x * inner] = r;
      if (idx_in) edt_no_background_idx(idx_out, base + x * inner, nd, total);
    }
    return;
  }
  if (walk) {  // lane: a run of ceil(n / 32) x, its site found once, then walked forward
    long long c = (n + 31) >> 5, x0 = lane * c, x1 = x0 + c < n ? x0 + c : n;
    int j = k >= 0 && x0 < x1 ? edt_envelope_index(fs, v, k, w2, (double)x0) : 0;
    for (long long x = x0; x < x1; ++x) {
      long long q = x;
      if (k >= 0) {
        while (j < k && edt_left_of(fs, v, j + 1, w2, (double)x)) ++j;
        q = v[j];
      }
      edt_band_put(fs, g, out, inner, w2, root, k, x, q);
      if (idx_in)
        for (int d = 0; d < nd; ++d) idx_out[d * total + base + x * inner] = idx_in[d * total + base + q * inner];
    }
    return;
  }
  for (long long x = lane; x < n; x += 32) {
    long long q = x;
    if (k >= 0) q = edt_envelope_site(fs, v, k, w2, (double)x);
    edt_band_put(fs, g, out, inner, w2, root, k, x, q);
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
