// find_peaks' kernels for cuarray/scipy/signal/_peaks.py (peaks.cuh prepended, CUARRAY_DEVICE a
// device function). The local maxima: a tile of MAXIMA_TILE samples per block, counted
// (count_maxima), the counts scanned (scan_counts, one block), then written in order
// (write_maxima: warp ballots rank a block's peaks): x is read twice and only the peaks are
// written. The per-peak searches are one thread per peak; the distance selection is sequential
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
