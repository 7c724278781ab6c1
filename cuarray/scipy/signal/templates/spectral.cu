// welch/csd's average='mean' of |X|^2 over the segments for cuarray/scipy/signal/_spectral_fused.py:
// X is (batch, nseg, nf) complex (re, im pairs of T), contiguous. A reduction over the segment axis
// with the frequencies fastest in memory; the generic reduction gave each frequency one thread walking
// its segments (129 threads a chunk, one load in flight each: latency-bound, ~7x the copy time).
//
// power_partials: block (32, 8), grid (ceil(nf / 32), nchunks, batch). Lane x takes frequency
// blockIdx.x * 32 + x (a warp reads 32 neighbouring bins of a segment: coalesced), row y segments
// y, y + 8, ... of chunk blockIdx.y (`rows` segments), four loads in flight before the adds. Sums
// in double; the 8 rows are added in row order, one double per (batch, chunk, frequency) in part.
// power_mean: one block per (batch, frequency): the chunks' partials in a fixed tree (strided
// sums, warp shuffles, then the warps in order), times c[f] (scale, doubled inside a one-sided
// spectrum) and inv (1 / nseg), cast to R. No atomics: the same bits every run.

// frames: the fused path's FFT input y (rows = batch * nseg rows of nfft) from a C-contiguous signal
// x (batch rows of len samples): y[r, j] = (x[b, s nstep + j - pre] - m[r]) w[j] for j < nper (the
// sample 0 outside the signal, no mean then), 0 up to nfft; r = b nseg + s. detrend: 0 none, 1 the
// means m[r], 2 each segment's mean summed here (its warp reads the segment twice, the second time
// from L1/L2: no separate pass over the segments). Block (32, 8): row
// threadIdx.y of the block's rows (a grid-stride loop), lanes over j, four samples a lane in flight.
// The row's batch and segment come from one division a row, not three 64-bit divisions an element
// (the elementwise form's cost: 54 us for 2^22 samples where a copy takes ~17 us). With aux (stft's
// cached plan) the same launch writes the frequencies and times: nfreq + ntime doubles, tp the 5
// constants; nfreq = ntime = 0 (aux, tp unused) otherwise.

namespace cuarray_signal {

template <typename T>
struct pair_of;
template <>
struct pair_of<float> {
  typedef float2 type;
};
template <>
struct pair_of<double> {
  typedef double2 type;
};

template <typename P>
__device__ inline double power_of(const P v) {
  return (double)v.x * (double)v.x + (double)v.y * (double)v.y;
}

template <typename T>
__global__ void __launch_bounds__(256) power_partials(const T* X, long long nseg, long long nf, long long rows,
                                                      long long nchunks, double* part) {
  typedef typename pair_of<T>::type P;
  const P* __restrict__ x = reinterpret_cast<const P*>(X) + (long long)blockIdx.z * nseg * nf;
  const long long f = (long long)blockIdx.x * 32 + threadIdx.x;
  const long long s0 = (long long)blockIdx.y * rows;
  const long long s1 = s0 + rows < nseg ? s0 + rows : nseg;
  double acc = 0.0;
  if (f < nf) {
    long long s = s0 + threadIdx.y;
    for (; s + 24 < s1; s += 32) {
      const P a = x[s * nf + f], b = x[(s + 8) * nf + f], c = x[(s + 16) * nf + f], d = x[(s + 24) * nf + f];
      acc += power_of(a);
      acc += power_of(b);
      acc += power_of(c);
      acc += power_of(d);
    }
    for (; s < s1; s += 8) acc += power_of(x[s * nf + f]);
  }
  __shared__ double sums[8][33];
  sums[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0 && f < nf) {
    double t = sums[0][threadIdx.x];
#pragma unroll
    for (int k = 1; k < 8; ++k) t += sums[k][threadIdx.x];
    part[((long long)blockIdx.z * nchunks + blockIdx.y) * nf + f] = t;
  }
}

template <typename T>
__global__ void __launch_bounds__(256) frames(const T* x, const T* m, const T* w, long long len, long long nstep,
                                              long long nper, long long nfft, long long nseg, long long rows,
                                              int detrend, long long pre, T* y, double* aux, long long nfreq,
                                              long long ntime, const double* tp) {
  const T* __restrict__ xs = x;
  const T* __restrict__ ws = w;
  // stft's frequencies and segment times, when asked for (aux): NumPy's rfftfreq i * tp[0] and
  // (tp[1] + i tp[2]) / tp[3] - tp[4] (arange's values divided by fs, less the boundary's offset).
  for (long long i = ((long long)blockIdx.x * 8 + threadIdx.y) * 32 + threadIdx.x; i < nfreq + ntime;
       i += (long long)gridDim.x * 256) {
    if (i < nfreq) {
      aux[i] = (double)i * tp[0];
    } else {
      const double t = (tp[1] + (double)(i - nfreq) * tp[2]) / tp[3];
      aux[i] = t - tp[4];
    }
  }
  for (long long r = (long long)blockIdx.x * 8 + threadIdx.y; r < rows; r += (long long)gridDim.x * 8) {
    const long long b = r / nseg, s = r - b * nseg;
    const T* __restrict__ xb = xs + b * len;
    const long long t0 = s * nstep - pre;
    T mean = T(0);
    if (detrend == 1) {
      mean = m[r];
    } else if (detrend == 2) {  // the warp's segment mean: lane sums in double, a tree to lane 0, broadcast
      double acc = 0.0;
      for (long long j = threadIdx.x; j < nper; j += 32) {
        const long long t = t0 + j;
        acc += t >= 0 && t < len ? (double)xb[t] : 0.0;
      }
      for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
      mean = (T)(__shfl_sync(0xffffffffu, acc, 0) / (double)nper);
    }
    T* __restrict__ yr = y + r * nfft;
#pragma unroll 4
    for (long long j = threadIdx.x; j < nfft; j += 32) {
      T v = T(0);
      if (j < nper) {
        const long long t = t0 + j;
        T u = t >= 0 && t < len ? xb[t] : T(0);
        if (detrend) u = u - mean;
        v = u * ws[j];
      }
      yr[j] = v;
    }
  }
}

// stft_rfft: stft's whole pass for a real signal and a power-of-two nfft = 2 M (M a template
// argument, 32 <= M <= 512): the frames, the window and the real FFT of each segment in one kernel,
// y[r, k] (rows of M + 1 bins, (re, im) pairs of T) written once; the frames never reach memory.
// Block of 256 threads: SEG = 256 / H segments, H = M / 2 threads a segment (one butterfly a
// stage each), a grid-stride loop over groups of SEG rows. Segment r's samples 2n, 2n + 1 (the
// window applied, zero outside the signal and past nper, as `frames`) make the complex point
// z[n], n < M; M-point radix-2 Stockham FFT in shared memory (log2 M stages, the twiddle
// exp(-2 pi i k / (2 Ns)) read from tw[k M / Ns], tw[m] = exp(-2 pi i m / nfft) made on the host in
// double); then the real spectrum X[k] = (Z[k] + conj Z[M-k]) / 2 - i tw[k] (Z[k] - conj Z[M-k]) / 2,
// X[M] = Re Z[0] - Im Z[0]. aux, nfreq, ntime, tp: stft's frequencies and times as in `frames`.
template <typename T, int M>
__global__ void __launch_bounds__(256) stft_rfft(const T* x, const T* w, const T* tw, long long len, long long nstep,
                                                 long long nper, long long nseg, long long rows, long long pre, T* y,
                                                 double* aux, long long nfreq, long long ntime, const double* tp) {
  typedef typename pair_of<T>::type P;
  constexpr int H = M / 2;
  constexpr int SEG = 256 / H;
  __shared__ P buf[2][SEG][M];
  const T* __restrict__ xs = x;
  const T* __restrict__ ws = w;
  const P* __restrict__ W = reinterpret_cast<const P*>(tw);
  P* __restrict__ out = reinterpret_cast<P*>(y);
  const int j = threadIdx.x % H, slot = threadIdx.x / H;
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < nfreq + ntime; i += (long long)gridDim.x * 256) {
    if (i < nfreq) {
      aux[i] = (double)i * tp[0];
    } else {
      const double t = (tp[1] + (double)(i - nfreq) * tp[2]) / tp[3];
      aux[i] = t - tp[4];
    }
  }
  for (long long r0 = (long long)blockIdx.x * SEG; r0 < rows; r0 += (long long)gridDim.x * SEG) {
    const long long r = r0 + slot;
    P* a = buf[0][slot];
    P* b = buf[1][slot];
    if (r < rows) {
      const long long bt = r / nseg, s = r - bt * nseg;
      const T* __restrict__ xb = xs + bt * len;
      const long long t0 = s * nstep - pre;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int n = j + h * H;
        T v[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const long long idx = 2 * n + e, t = t0 + idx;
          v[e] = idx < nper && t >= 0 && t < len ? xb[t] * ws[idx] : T(0);
        }
        a[n].x = v[0];
        a[n].y = v[1];
      }
    }
    __syncthreads();
#pragma unroll
    for (int Ns = 1; Ns < M; Ns *= 2) {
      const int k = j & (Ns - 1);
      const P u = a[j], v = a[j + H], t = W[k * (M / Ns)];
      P q;
      q.x = v.x * t.x - v.y * t.y;
      q.y = v.x * t.y + v.y * t.x;
      const int o = (j - k) * 2 + k;
      b[o].x = u.x + q.x;
      b[o].y = u.y + q.y;
      b[o + Ns].x = u.x - q.x;
      b[o + Ns].y = u.y - q.y;
      P* c = a;
      a = b;
      b = c;
      __syncthreads();
    }
    if (r < rows) {
      P* __restrict__ yr = out + r * (M + 1);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int k = j + h * H;
        const P zk = a[k], zm = a[(M - k) & (M - 1)];  // (conj taken below)
        const T sr = zk.x + zm.x, si = zk.y - zm.y, dr = zk.x - zm.x, di = zk.y + zm.y;
        const P t = W[k];
        const T p = t.x * dr - t.y * di, q = t.x * di + t.y * dr;
        P X;
        X.x = T(0.5) * (sr + q);
        X.y = T(0.5) * (si - p);
        yr[k] = X;
      }
      if (j == 0) {
        P X;
        X.x = a[0].x - a[0].y;
        X.y = T(0);
        yr[M] = X;
      }
    }
    __syncthreads();  // (the next group's loads overwrite buf[0])
  }
}

// Pair p's samples n = t + r TPS (r < R) as points (x_{2p}[n], x_{2p+1}[n]): zero past nper, past
// the last segment and for p past the pairs. FULL (nper = N: every segment fills the FFT): a pair
// with both segments loads without a test an element.
template <typename T, typename P, int R, int TPS, int FULL>
__device__ __forceinline__ void load_pair(const T* __restrict__ xb, const long long p, const int t,
                                          const long long nstep, const long long nper, const long long nseg,
                                          const long long npairs, P (&v)[R]) {
  const bool live = p < npairs, two = 2 * p + 1 < nseg;
  const T* __restrict__ x0 = xb + 2 * p * nstep;
  if (FULL && live && two) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      v[r].x = x0[t + r * TPS];
      v[r].y = x0[nstep + t + r * TPS];
    }
  } else {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int n = t + r * TPS;
      v[r].x = live && n < nper ? x0[n] : T(0);
      v[r].y = live && two && n < nper ? x0[nstep + n] : T(0);
    }
  }
}

// welch_pairs: welch/csd's average='mean' of |X|^2 for one pass over a C-contiguous real signal
// (batch rows of len samples, grid.y the row), nfft = N a power of two from 16 to 256, no boundary
// or padding: the frames, the window, the FFT and the power summed in registers, nothing stored
// but the per-block partial sums part[(row, blockIdx.x, f)] that power_mean finishes (chunks =
// gridDim.x). Two real segments s = 2p, 2p + 1 make one complex signal z = x_s + i x_{s+1} (the
// second zero past nseg), and their powers summed need no separation:
// |X_s[k]|^2 + |X_{s+1}[k]|^2 = (|Z[k]|^2 + |Z[N - k]|^2) / 2, Z the N-point FFT of z.
// The FFT is N = R1 R2 in two passes (Stockham): TPS = R2 threads a pair, thread t loads
// z[t + r TPS] (r < R1: coalesced across t; FULL: no test an element), detrends (the segment means
// summed in T over the pair's lanes by shuffles) and windows them (its window values kept in
// registers), and runs an R1-point DFT in registers (segment_fft.cuh); through the warp's slice of
// shared memory ((re, im) pairs in a column layout, padded: no bank conflicts at N = 256) thread t
// then takes the R1 / R2 butterflies j2 = t + TPS b, multiplies point r by tw[r R1 + j2] =
// exp(-2 pi i r j2 / N) (made on the host in double; the lanes' twiddles side by side) and runs
// an R2-point DFT: Z[j2 + q R1], q < R2. Each thread keeps the running |Z|^2 of its own bins in
// T, at most PAIRS_MAX pairs a thread (the planner's grid); the block sums its slots in double in
// a fixed order.
template <typename T, int N, int BLOCK, int MINB, int FULL>
__global__ void __launch_bounds__(BLOCK, MINB) welch_pairs(const T* x, const T* w, const T* tw, long long len,
                                                    long long nstep, long long nper, long long nseg,
                                                    long long npairs, int detrend, double* part) {
  typedef typename pair_of<T>::type P;
  constexpr int R1 = N >= 128 ? 16 : (N >= 32 ? 8 : 4);
  constexpr int LOG2R1 = R1 == 16 ? 4 : (R1 == 8 ? 3 : 2);
  constexpr int R2 = N / R1;
  constexpr int LOG2R2 = R2 == 16 ? 4 : (R2 == 8 ? 3 : (R2 == 4 ? 2 : 1));
  constexpr int TPS = R2;
  constexpr int B2 = R1 / R2;
  constexpr int SLOTS = BLOCK / TPS;
  constexpr int COL = TPS + 1;
  constexpr int BASE = R1 * COL;
  constexpr int REGION = BASE + (TPS - BASE % (2 * TPS) + 2 * TPS) % (2 * TPS);  // slots of a warp apart in banks
  constexpr int WORDS = (SLOTS * REGION * (int)sizeof(P) + 7) / 8;
  static_assert(N == R1 * R2 && R2 <= R1 && 32 % TPS == 0, "welch_pairs: N = 16 .. 256");
  static_assert(SLOTS * N <= WORDS, "welch_pairs: the block's sums fit the exchange buffer");
  __shared__ double sraw[WORDS];
  const int t = threadIdx.x % TPS, slot = threadIdx.x / TPS;
  P* const buf = reinterpret_cast<P*>(sraw) + slot * REGION;
  const T* __restrict__ xb = x + (long long)blockIdx.y * len;
  const T* __restrict__ ws = w;
  const P* __restrict__ W = reinterpret_cast<const P*>(tw);
  T acc[B2 * R2];
#pragma unroll
  for (int i = 0; i < B2 * R2; ++i) acc[i] = T(0);
  T wr[R1];  // the thread's window values (zero past nper), loaded once
#pragma unroll
  for (int r = 0; r < R1; ++r) wr[r] = FULL || t + r * TPS < nper ? ws[t + r * TPS] : T(0);
  const T inv = T(1) / (T)nper;
  for (long long p0 = (long long)blockIdx.x * SLOTS; p0 < npairs; p0 += (long long)gridDim.x * SLOTS) {
    // (every thread takes every trip: the shuffles are the whole warp's)
    P v[R1];
    load_pair<T, P, R1, TPS, FULL>(xb, p0 + slot, t, nstep, nper, nseg, npairs, v);
    T m0 = T(0), m1 = T(0);
#pragma unroll
    for (int r = 0; r < R1; ++r) {
      m0 += v[r].x;
      m1 += v[r].y;
    }
    if (detrend) {
#pragma unroll
      for (int off = TPS / 2; off > 0; off /= 2) {
        m0 += __shfl_xor_sync(0xffffffffu, m0, off);
        m1 += __shfl_xor_sync(0xffffffffu, m1, off);
      }
      const T c0 = m0 * inv, c1 = m1 * inv;
#pragma unroll
      for (int r = 0; r < R1; ++r) {
        if (FULL || t + r * TPS < nper) {
          v[r].x = v[r].x - c0;
          v[r].y = v[r].y - c1;
        }
      }
    }
#pragma unroll
    for (int r = 0; r < R1; ++r) {
      v[r].x = v[r].x * wr[r];
      v[r].y = v[r].y * wr[r];
    }
    dft_regs<T, P, R1, LOG2R1>(v);
#pragma unroll
    for (int k = 0; k < R1; ++k) buf[k * COL + t] = v[k];
    __syncwarp();
#pragma unroll
    for (int b = 0; b < B2; ++b) {
      const int j2 = t + TPS * b;
      P u[R2];
#pragma unroll
      for (int r = 0; r < R2; ++r) {
        const P z = buf[j2 * COL + r];
        if (r == 0) {
          u[r] = z;
        } else {
          const P c = W[r * R1 + j2];  // (lanes read neighbours: one wavefront)
          u[r].x = z.x * c.x - z.y * c.y;
          u[r].y = z.x * c.y + z.y * c.x;
        }
      }
      dft_regs<T, P, R2, LOG2R2>(u);
#pragma unroll
      for (int q = 0; q < R2; ++q) acc[b * R2 + q] += u[q].x * u[q].x + u[q].y * u[q].y;
    }
    __syncwarp();  // (the next trip's stores wait for these loads)
  }
  __syncthreads();  // the exchange buffer becomes the block's sums: S[slot][k]
  double* const S = sraw;
#pragma unroll
  for (int b = 0; b < B2; ++b) {
#pragma unroll
    for (int q = 0; q < R2; ++q) S[slot * N + t + TPS * b + q * R1] = (double)acc[b * R2 + q];
  }
  __syncthreads();
  for (int k = threadIdx.x; k < N; k += BLOCK) {  // (column k: read and rewritten by one thread)
    double s = S[k];
    for (int sl = 1; sl < SLOTS; ++sl) s += S[sl * N + k];
    S[k] = s;
  }
  __syncthreads();
  constexpr int NF = N / 2 + 1;
  double* const out = part + ((long long)blockIdx.y * gridDim.x + blockIdx.x) * NF;
  for (int f = threadIdx.x; f < NF; f += BLOCK) out[f] = 0.5 * (S[f] + S[(N - f) & (N - 1)]);
}

// stft_regs: stft_rfft's pass (same arguments and results) for nfft = 2 M, M = R1 R2 from 32 to
// 256, with welch_pairs' in-register DFTs: TPS = R2 threads a segment, thread t makes the complex
// points z[n] = w x[2n] + i w x[2n + 1] for n = t + r TPS (r < R1; a segment inside the signal and
// nper = nfft loads without a test an element), an R1-point DFT, the warp's shared slice, the
// R1 / R2 butterflies j2 = t + TPS b (tw[M + r R1 + j2] = exp(-2 pi i r j2 / M)), an R2-point DFT:
// Z[j2 + q R1]; Z through the same slice (natural order) gives each thread Z[M - k] for its k, and
// the real spectrum X[k] = (Z[k] + conj Z[M-k]) / 2 - i tw[k] (Z[k] - conj Z[M-k]) / 2
// (tw[k] = exp(-2 pi i k / nfft), k < M), X[M] = Re Z[0] - Im Z[0], goes back to the slice and the
// warp writes its rows (adjacent in y) together. A segment inside the signal with nper = nfft and
// an aligned start loads its samples in pairs. Each segment is its own FFT (no two segments share
// one): a quiet segment beside a loud one keeps its accuracy. POWER (spectrogram's psd; no
// boundary, aux unused): with `detrend` the segment's mean is taken off first (summed over the
// segment's lanes by shuffles), and the rows are |X[k]|^2 c[k] in T.
template <typename T, int M, int BLOCK, int MINB, int POWER>
__global__ void __launch_bounds__(BLOCK, MINB) stft_regs(const T* x, const T* w, const T* tw, long long len,
                                                        long long nstep, long long nper, long long nseg,
                                                        long long rows, long long pre, T* y, double* aux,
                                                        long long nfreq, long long ntime, const double* tp,
                                                        const double* c, int detrend) {
  typedef typename pair_of<T>::type P;
  constexpr int R1 = M >= 128 ? 16 : 8;
  constexpr int LOG2R1 = R1 == 16 ? 4 : 3;
  constexpr int R2 = M / R1;
  constexpr int LOG2R2 = R2 == 16 ? 4 : (R2 == 8 ? 3 : 2);
  constexpr int TPS = R2;
  constexpr int B2 = R1 / R2;
  constexpr int SLOTS = BLOCK / TPS;
  constexpr int COL = TPS + 1;
  constexpr int BASE = R1 * COL;
  constexpr int REGION = BASE + (TPS - BASE % (2 * TPS) + 2 * TPS) % (2 * TPS);
  static_assert(M == R1 * R2 && R2 <= R1 && R2 >= 4 && 32 % TPS == 0 && REGION > M, "stft_regs: M = 32 .. 256");
  __shared__ P sbuf[SLOTS * REGION];
  const int t = threadIdx.x % TPS, slot = threadIdx.x / TPS;
  P* const buf = sbuf + slot * REGION;
  const T* __restrict__ xs = x;
  const T* __restrict__ ws = w;
  const P* __restrict__ post = reinterpret_cast<const P*>(tw);
  const P* __restrict__ W = post + M;
  P* __restrict__ out = reinterpret_cast<P*>(y);
  for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < nfreq + ntime; i += (long long)gridDim.x * BLOCK) {
    if (i < nfreq) {
      aux[i] = (double)i * tp[0];
    } else {
      const double tt = (tp[1] + (double)(i - nfreq) * tp[2]) / tp[3];
      aux[i] = tt - tp[4];
    }
  }
  for (long long r0 = (long long)blockIdx.x * SLOTS; r0 < rows; r0 += (long long)gridDim.x * SLOTS) {
    // (every thread takes every trip: __syncwarp is the whole warp's)
    const long long row = r0 + slot;
    const bool live = row < rows;
    const long long bt = live ? row / nseg : 0, s = live ? row - bt * nseg : 0;
    const T* __restrict__ xb = xs + bt * len;
    const long long t0 = s * nstep - pre;
    P v[R1], wv[R1];  // the samples, then the window's values at them (zero outside the segment)
    if (live && nper == 2 * M && t0 >= 0 && t0 + 2 * M <= len &&
        reinterpret_cast<unsigned long long>(xb + t0) % sizeof(P) == 0) {  // (pairs of samples as one load)
      const P* __restrict__ xp = reinterpret_cast<const P*>(xb + t0);
      const P* __restrict__ wp = reinterpret_cast<const P*>(ws);
#pragma unroll
      for (int r = 0; r < R1; ++r) {
        v[r] = xp[t + r * TPS];
        wv[r] = wp[t + r * TPS];
      }
    } else {
#pragma unroll
      for (int r = 0; r < R1; ++r) {
        const int n = t + r * TPS;
        const long long i0 = 2 * n, i1 = 2 * n + 1, u0 = t0 + i0, u1 = t0 + i1;
        const bool in0 = live && i0 < nper && u0 >= 0 && u0 < len, in1 = live && i1 < nper && u1 >= 0 && u1 < len;
        v[r].x = in0 ? xb[u0] : T(0);
        v[r].y = in1 ? xb[u1] : T(0);
        wv[r].x = in0 ? ws[i0] : T(0);
        wv[r].y = in1 ? ws[i1] : T(0);
      }
    }
    if (POWER && detrend) {  // the segment's mean (no boundary here: its nper samples), summed in T
      T m = T(0);
#pragma unroll
      for (int r = 0; r < R1; ++r) m += v[r].x + v[r].y;
#pragma unroll
      for (int off = TPS / 2; off > 0; off /= 2) m += __shfl_xor_sync(0xffffffffu, m, off);
      m = m / (T)nper;
#pragma unroll
      for (int r = 0; r < R1; ++r) {
        v[r].x = v[r].x - m;  // (past nper the window is zero: no test needed)
        v[r].y = v[r].y - m;
      }
    }
#pragma unroll
    for (int r = 0; r < R1; ++r) {
      v[r].x = v[r].x * wv[r].x;
      v[r].y = v[r].y * wv[r].y;
    }
    dft_regs<T, P, R1, LOG2R1>(v);
#pragma unroll
    for (int k = 0; k < R1; ++k) buf[k * COL + t] = v[k];
    __syncwarp();
    P u[B2][R2];
#pragma unroll
    for (int b = 0; b < B2; ++b) {
      const int j2 = t + TPS * b;
#pragma unroll
      for (int r = 0; r < R2; ++r) {
        const P z = buf[j2 * COL + r];
        if (r == 0) {
          u[b][r] = z;
        } else {
          const P c = W[r * R1 + j2];
          u[b][r].x = z.x * c.x - z.y * c.y;
          u[b][r].y = z.x * c.y + z.y * c.x;
        }
      }
      dft_regs<T, P, R2, LOG2R2>(u[b]);
    }
    __syncwarp();  // (every lane's reads of the exchange are done: Z goes to the same slice)
#pragma unroll
    for (int b = 0; b < B2; ++b) {
#pragma unroll
      for (int q = 0; q < R2; ++q) buf[t + TPS * b + q * R1] = u[b][q];
    }
    __syncwarp();
#pragma unroll
    for (int b = 0; b < B2; ++b) {
#pragma unroll
      for (int q = 0; q < R2; ++q) {  // X[k] over Z[k] in registers
        const int k = t + TPS * b + q * R1;
        const P zk = u[b][q], zm = buf[(M - k) & (M - 1)];
        const T sr = zk.x + zm.x, si = zk.y - zm.y, dr = zk.x - zm.x, di = zk.y + zm.y;
        const P c = post[k];
        const T pp = c.x * dr - c.y * di, qq = c.x * di + c.y * dr;
        u[b][q].x = T(0.5) * (sr + qq);
        u[b][q].y = T(0.5) * (si - pp);
      }
    }
    const T nyq = buf[0].x - buf[0].y;  // X[M] = Re Z[0] - Im Z[0]
    __syncwarp();
    // The rows of the warp's segments are adjacent in y: each slot's X goes to its slice, then the
    // warp writes the rows together, 32 neighbouring bins a store (a slot's own 8 or 16 lanes wrote
    // pieces of a row: partial sectors, 0.45 of the copy rate at 2^24 float32 samples).
    constexpr int SPW = 32 / TPS;  // (slots a warp)
    const int first = (slot / SPW) * SPW, lane = threadIdx.x % 32;
    const long long r1 = r0 + first;
    const long long nrows = rows - r1 < SPW ? (rows - r1 > 0 ? rows - r1 : 0) : SPW;
    if (POWER) {  // |X[k]|^2 c[k] (spectrogram's psd: SciPy's scale, doubled inside), rows of M + 1 T
      T* const pbuf = reinterpret_cast<T*>(buf);
#pragma unroll
      for (int b = 0; b < B2; ++b) {
#pragma unroll
        for (int q = 0; q < R2; ++q) {
          const int k = t + TPS * b + q * R1;
          pbuf[k] = (u[b][q].x * u[b][q].x + u[b][q].y * u[b][q].y) * (T)c[k];
        }
      }
      if (t == 0) pbuf[M] = nyq * nyq * (T)c[M];
      __syncwarp();
      T* __restrict__ yw = y + r1 * (M + 1);
      for (int g = lane; g < nrows * (M + 1); g += 32) {
        const int j = g / (M + 1);
        yw[g] = reinterpret_cast<const T*>(sbuf + (first + j) * REGION)[g - j * (M + 1)];
      }
    } else {
#pragma unroll
      for (int b = 0; b < B2; ++b) {
#pragma unroll
        for (int q = 0; q < R2; ++q) buf[t + TPS * b + q * R1] = u[b][q];
      }
      if (t == 0) {
        P X;
        X.x = nyq;
        X.y = T(0);
        buf[M] = X;
      }
      __syncwarp();
      P* __restrict__ yw = out + r1 * (M + 1);
      for (int g = lane; g < nrows * (M + 1); g += 32) {
        const int j = g / (M + 1);
        yw[g] = sbuf[(first + j) * REGION + g - j * (M + 1)];
      }
    }
    __syncwarp();  // (the next trip's stores wait for these loads)
  }
}

template <typename R, int BLOCK>
__global__ void __launch_bounds__(BLOCK) power_mean(const double* part, long long nchunks, long long nf,
                                                    const double* c, double inv, R* out) {
  const long long o = blockIdx.x;  // batch row * nf + frequency
  const long long b = o / nf, f = o - b * nf;
  const double* __restrict__ p = part + b * nchunks * nf + f;
  double acc = 0.0;
  for (long long k = threadIdx.x; k < nchunks; k += BLOCK) acc += p[k * nf];
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
  __shared__ double warps[BLOCK / 32];
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    double t = warps[0];
#pragma unroll
    for (int w = 1; w < BLOCK / 32; ++w) t += warps[w];
    out[o] = (R)(t * c[f] * inv);
  }
}

}  // namespace cuarray_signal
