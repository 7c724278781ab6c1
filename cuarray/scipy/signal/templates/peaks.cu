// find_peaks' kernels for cuarray/scipy/signal/_peaks.py (peaks.cuh prepended, CUARRAY_DEVICE a
// device function). The local maxima: a tile of MAXIMA_TILE samples per block, counted, the counts
// scanned (one block), then written in order (warp ballots rank a block's peaks): x is read twice
// and only the peaks are written. Two plans: "ends" (count_ends, scan_ends, write_ends: run ends
// from change ballots, plateaus of any length) and "tiles" (count_maxima, scan_counts,
// write_maxima: each left edge walks its plateau, up to a limit past which the host falls back). The per-peak searches are one thread per peak; the distance selection is sequential
// by nature (each kept peak removes its neighbours) and runs on one thread.

namespace cuarray_signal {

constexpr int MAXIMA_BLOCK = 256;
constexpr int MAXIMA_ITEMS = 16;
constexpr long long MAXIMA_TILE = (long long)MAXIMA_BLOCK * MAXIMA_ITEMS;

// counts[b]: the peaks whose left edge lies in tile b; flags[b]: 1 when a plateau of the tile is
// longer than `limit` (the host then takes the general path).
__global__ void __launch_bounds__(MAXIMA_BLOCK) count_maxima(const double* __restrict__ x, long long n,
                                                             long long limit, long long* __restrict__ counts,
                                                             long long* __restrict__ flags) {
  long long i0 = (long long)blockIdx.x * MAXIMA_TILE + threadIdx.x;
  int c = 0, over = 0;
#pragma unroll 4
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {
    long long i = i0 + (long long)k * MAXIMA_BLOCK, r;
    int p = i < n ? peak_at(x, n, i, limit, &r) : 0;
    c += p > 0;
    over |= p < 0;
  }
  __shared__ int warp_sum[MAXIMA_BLOCK / 32];
  for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = c;
  over = __syncthreads_or(over);  // (also the barrier after warp_sum's writes)
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < MAXIMA_BLOCK / 32; ++w) total += warp_sum[w];
    counts[blockIdx.x] = total;
    flags[blockIdx.x] = over;
  }
}

// One block: counts[0..nb) becomes their exclusive prefix sums; tail[0] = the total, tail[1] = 1
// when any flag is set.
__global__ void __launch_bounds__(1024) scan_counts(long long* __restrict__ counts, const long long* __restrict__ flags,
                                                    long long nb, long long* __restrict__ tail) {
  __shared__ long long part[1024];
  long long per = (nb + 1023) / 1024, b0 = threadIdx.x * per, b1 = b0 + per < nb ? b0 + per : nb;
  long long s = 0;
  int over = 0;
  for (long long b = b0; b < b1; ++b) {
    s += counts[b];
    over |= flags[b] != 0;
  }
  part[threadIdx.x] = s;
  over = __syncthreads_or(over);
  for (int d = 1; d < 1024; d <<= 1) {  // inclusive scan of the 1024 partial sums
    long long v = threadIdx.x >= d ? part[threadIdx.x - d] : 0;
    __syncthreads();
    part[threadIdx.x] += v;
    __syncthreads();
  }
  long long run = part[threadIdx.x] - s;
  for (long long b = b0; b < b1; ++b) {
    long long c = counts[b];
    counts[b] = run;
    run += c;
  }
  if (threadIdx.x == 1023) {
    tail[0] = part[1023];
    tail[1] = over;
  }
}

// The peaks of each tile at offsets[b] on, in order: midpoints, and the plateau edges when left
// is not null.
__global__ void __launch_bounds__(MAXIMA_BLOCK) write_maxima(const double* __restrict__ x, long long n,
                                                             long long limit, const long long* __restrict__ offsets,
                                                             long long* __restrict__ mid, long long* __restrict__ left,
                                                             long long* __restrict__ right) {
  __shared__ int warp_count[MAXIMA_BLOCK / 32];
  long long out = offsets[blockIdx.x];
  long long i0 = (long long)blockIdx.x * MAXIMA_TILE + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {
    long long i = i0 + (long long)k * MAXIMA_BLOCK, r = 0;
    bool p = i < n && peak_at(x, n, i, limit, &r) > 0;
    unsigned ballot = __ballot_sync(0xffffffffu, p);
    if (lane == 0) warp_count[warp] = __popc(ballot);
    __syncthreads();
    int before = 0, all = 0;
    for (int w = 0; w < MAXIMA_BLOCK / 32; ++w) {
      int c = warp_count[w];
      before += w < warp ? c : 0;
      all += c;
    }
    if (p) {
      long long at = out + before + __popc(ballot & ((1u << lane) - 1u));
      mid[at] = (i + r) / 2;
      if (left) {
        left[at] = i;
        right[at] = r;
      }
    }
    out += all;
    __syncthreads();  // warp_count is rewritten by the next item
  }
}

// -- the "ends" plan: run ends from change bits, no walks, no plateau limit ----------------------------
// A peak is a left edge i (x[i - 1] < x[i], 1 <= i <= n - 2) whose run's first different sample e
// (the first change k > i, a change being x[k] != x[k - 1]) is lower: x[e] < x[i]; its right edge is
// e - 1. Every sample's change bit goes into a warp ballot, so e is the next set bit of its
// warp's 32 samples or the first change of a later warp segment of the tile (RUN_FIRST per
// segment, in shared memory). Only the tile's last left edge can see no change before the tile
// ends (any earlier one has that left edge, a change, after it): it is the tile's pending run,
// which scan_ends resolves from the next tile that has a change. Equality chains are SciPy's
// comparisons with x[i]: x[i] is not NaN (x[i - 1] < x[i]), and == is transitive on the rest.
constexpr int SEGMENTS = (int)(MAXIMA_TILE / 32);  // a tile's warp segments of 32 samples, in sample order
constexpr int RUN_NONE = -1;                       // the sample starts no plateau
constexpr int RUN_PAST = 1 << 30;                  // the run goes on past the tile

// end[k] for this thread's sample k (tile0 + k * MAXIMA_BLOCK + threadIdx.x): RUN_NONE, RUN_PAST,
// or the tile-relative index of its run's first different sample; v[k] its value. first[s]
// (shared) is segment s's first change (tile-relative) or RUN_PAST. Ends with a barrier passed.
__device__ inline void tile_run_ends(const double* __restrict__ x, long long n, long long tile0,
                                     double (&v)[MAXIMA_ITEMS], int (&end)[MAXIMA_ITEMS], int* first) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned change[MAXIMA_ITEMS];
  unsigned left = 0;
#pragma unroll
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {
    long long i = tile0 + (long long)k * MAXIMA_BLOCK + threadIdx.x;
    bool inside = i < n, has_prev = inside && i >= 1;
    double c = inside ? x[i] : 0.0;
    double p = has_prev ? x[i - 1] : 0.0;
    v[k] = c;
    if (has_prev && i < n - 1 && p < c) left |= 1u << k;
    change[k] = __ballot_sync(0xffffffffu, has_prev && c != p);  // NaN: a change on both sides
    if (lane == 0) {
      int s = k * (MAXIMA_BLOCK / 32) + warp;
      first[s] = change[k] ? s * 32 + __ffs((int)change[k]) - 1 : RUN_PAST;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {
    end[k] = RUN_NONE;
    if (!((left >> k) & 1u)) continue;
    const int s = k * (MAXIMA_BLOCK / 32) + warp;
    const unsigned later = change[k] & ~((2u << lane) - 1u);  // lane 31: 2u << 31 is 0, so none
    if (later) {
      end[k] = s * 32 + __ffs((int)later) - 1;
    } else {  // a run over segment boundaries: at most one left edge a segment looks on
      int e = RUN_PAST;
      for (int t = s + 1; t < SEGMENTS && e == RUN_PAST; ++t) e = first[t];
      end[k] = e;
    }
  }
}

// counts[b]: the peaks that tile b resolves alone; pend[b]: its pending left edge (or -1), pval[b]
// that sample's value; fc[b]: the tile's first change (n when none), fcval[b] its value.
__global__ void __launch_bounds__(MAXIMA_BLOCK) count_ends(const double* __restrict__ x, long long n,
                                                           long long* __restrict__ counts, long long* __restrict__ fc,
                                                           double* __restrict__ fcval, long long* __restrict__ pend,
                                                           double* __restrict__ pval) {
  __shared__ int first[SEGMENTS];
  __shared__ int warp_sum[MAXIMA_BLOCK / 32];
  __shared__ long long pending;
  const long long tile0 = (long long)blockIdx.x * MAXIMA_TILE;
  if (threadIdx.x == 0) pending = -1;  // (tile_run_ends' barrier orders it before the writes below)
  double v[MAXIMA_ITEMS];
  int end[MAXIMA_ITEMS];
  tile_run_ends(x, n, tile0, v, end, first);
  int c = 0;
#pragma unroll
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {
    if (end[k] == RUN_NONE) continue;
    if (end[k] == RUN_PAST) {
      pending = tile0 + (long long)k * MAXIMA_BLOCK + threadIdx.x;
      pval[blockIdx.x] = v[k];
    } else {
      c += x[tile0 + end[k]] < v[k];
    }
  }
  for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < MAXIMA_BLOCK / 32; ++w) total += warp_sum[w];
    counts[blockIdx.x] = total;
    pend[blockIdx.x] = pending;
    int f = RUN_PAST;
    for (int s = 0; s < SEGMENTS && f == RUN_PAST; ++s) f = first[s];
    fc[blockIdx.x] = f == RUN_PAST ? n : tile0 + f;
    if (f != RUN_PAST) fcval[blockIdx.x] = x[tile0 + f];
  }
}

// One block: resolves each tile's pending run from the next tile with a change (its first change
// is the run's end: the tiles between have none), adds it to the tile's count and writes its right
// edge to pright[b] (-1 when it is no peak or the tile has none pending); then counts[0..nb) becomes their exclusive prefix sums
// and tail[0] the total.
__global__ void __launch_bounds__(1024) scan_ends(long long* __restrict__ counts, const long long* __restrict__ fc,
                                                  const double* __restrict__ fcval, const long long* __restrict__ pend,
                                                  const double* __restrict__ pval, long long* __restrict__ pright,
                                                  long long nb, long long n, long long* __restrict__ tail) {
  __shared__ long long part[1024];
  long long per = (nb + 1023) / 1024, b0 = threadIdx.x * per, b1 = b0 + per < nb ? b0 + per : nb;
  long long next = nb;  // the first tile of this thread's stretch with a change
  for (long long b = b1 - 1; b >= b0; --b)
    if (fc[b] < n) next = b;
  part[threadIdx.x] = next;
  __syncthreads();
  for (int d = 1; d < 1024; d <<= 1) {  // suffix minimum: the first tile with a change from stretch t on
    long long w = threadIdx.x + d < 1024 ? part[threadIdx.x + d] : nb;
    __syncthreads();
    part[threadIdx.x] = w < part[threadIdx.x] ? w : part[threadIdx.x];
    __syncthreads();
  }
  next = threadIdx.x + 1 < 1024 ? part[threadIdx.x + 1] : nb;
  long long s = 0;
  for (long long b = b1 - 1; b >= b0; --b) {
    long long c = counts[b], p = pend[b], r = -1;
    if (p >= 0 && next < nb && fcval[next] < pval[b]) {
      r = fc[next] - 1;
      counts[b] = ++c;
    }
    pright[b] = r;
    s += c;
    if (fc[b] < n) next = b;
  }
  __syncthreads();  // every thread has read part
  part[threadIdx.x] = s;
  __syncthreads();
  for (int d = 1; d < 1024; d <<= 1) {  // inclusive scan of the 1024 partial sums
    long long w = threadIdx.x >= d ? part[threadIdx.x - d] : 0;
    __syncthreads();
    part[threadIdx.x] += w;
    __syncthreads();
  }
  long long run = part[threadIdx.x] - s;
  for (long long b = b0; b < b1; ++b) {
    long long c = counts[b];
    counts[b] = run;
    run += c;
  }
  if (threadIdx.x == 1023) tail[0] = part[1023];
}

// The peaks of each tile at offsets[b] on, in order (ranked by one ballot a warp segment):
// midpoints, and the plateau edges when left is not null.
__global__ void __launch_bounds__(MAXIMA_BLOCK) write_ends(const double* __restrict__ x, long long n,
                                                           const long long* __restrict__ offsets,
                                                           const long long* __restrict__ pright,
                                                           long long* __restrict__ mid, long long* __restrict__ left,
                                                           long long* __restrict__ right) {
  __shared__ int first[SEGMENTS];
  __shared__ int seg_count[SEGMENTS];
  const long long tile0 = (long long)blockIdx.x * MAXIMA_TILE;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  double v[MAXIMA_ITEMS];
  int end[MAXIMA_ITEMS];
  tile_run_ends(x, n, tile0, v, end, first);
  const long long pending_right = pright[blockIdx.x];  // (read only when a run is pending)
  unsigned peak = 0;
#pragma unroll
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {  // every test's load in flight before the ranking
    bool p = end[k] == RUN_PAST ? pending_right >= 0 : end[k] != RUN_NONE && x[tile0 + end[k]] < v[k];
    peak |= (unsigned)p << k;
  }
  unsigned ballot[MAXIMA_ITEMS];
#pragma unroll
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {
    ballot[k] = __ballot_sync(0xffffffffu, (peak >> k) & 1u);
    if (lane == 0) seg_count[k * (MAXIMA_BLOCK / 32) + warp] = __popc(ballot[k]);
  }
  __syncthreads();
  long long out = offsets[blockIdx.x];
#pragma unroll
  for (int k = 0; k < MAXIMA_ITEMS; ++k) {
    int before = 0, all = 0;
    for (int w = 0; w < MAXIMA_BLOCK / 32; ++w) {
      int c = seg_count[k * (MAXIMA_BLOCK / 32) + w];
      before += w < warp ? c : 0;
      all += c;
    }
    if ((peak >> k) & 1u) {
      long long i = tile0 + (long long)k * MAXIMA_BLOCK + threadIdx.x;
      long long at = out + before + __popc(ballot[k] & ((1u << lane) - 1u));
      long long r = end[k] == RUN_PAST ? pending_right : tile0 + end[k] - 1;
      mid[at] = (i + r) / 2;
      if (left) {
        left[at] = i;
        right[at] = r;
      }
    }
    out += all;
  }
}

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
