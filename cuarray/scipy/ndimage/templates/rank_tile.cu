// Rank filters over small footprints (cuarray/scipy/ndimage/_rank_tile.py): a block stages its
// tile of the input, boundary mode applied, in shared memory (each input element read from
// global memory about once per block instead of once per tap), then each thread gathers its
// window into registers and runs a selection network. Python prepends boundary.cuh,
// rank_select.cuh and the macros that fix the footprint and the network:
//   CUARRAY_RANK_BW, _BH, _RPT   block of BW x BH threads, each making RPT outputs down a column;
//                                the block covers BH * RPT rows and BW columns of outputs, one depth
//   CUARRAY_RANK_OZ, _OY, _OX    the smallest depth / row / column offset of a tap (<= 0 for a
//                                centred footprint): the tile starts there, relative to the block
//   CUARRAY_RANK_SD, _SH, _SW    tile depth, rows and columns (block extent + footprint extent - 1)
//   CUARRAY_RANK_TAPS(TAP)       TAP(t, o) for each tap t in footprint (C) order: the tap reads the
//                                tile at o = ((dz - OZ) * SH + dy - OY) * SW + dx - OX from its
//                                output's spot
//   CUARRAY_RANK_PAIR 0:         each output on its own:
//   CUARRAY_RANK_NET(CE, LO, HI) the network of _rank_network.select_ops: CE(i, j) orders wires
//                                i < j, LO(i, j) keeps only the min on i, HI(i, j) only the max on j
//   CUARRAY_RANK_PAIR 1:         outputs in vertical pairs (_rank_tile.pairing, pair_ops): NS
//                                shared taps (STAPS) through SNET, whose wires LO.. LO + M - 1 go
//                                with each window's own taps (UTAPS upper, LTAPS lower, on wires
//                                M..NF - 1) through FNET; the result on wire KF
//
// The array is seen as (pre, depth, mid0, rows, mid, cols, post): the footprint lies in the
// (depth, rows, cols) space (depth 1 for footprints over one or two axes); the output's depth and
// every other axis are a batch index (blockIdx.z, striding). Whatever the method, a window
// has one value of rank K unless it holds a NaN or both signed zeros (rank_select.cuh): a block
// whose tile holds such values runs SciPy's own selection for all its outputs, so the result is
// SciPy's for every input. The network's min/max are fminf/fmaxf on floats (one instruction; no
// NaN reaches them).

namespace cuarray_ndimage {

template <typename T> struct net_minmax {
  __device__ static __forceinline__ T lo(T a, T b) { return b < a ? b : a; }
  __device__ static __forceinline__ T hi(T a, T b) { return a < b ? b : a; }
};
template <> struct net_minmax<float> {
  __device__ static __forceinline__ float lo(float a, float b) { return fminf(a, b); }
  __device__ static __forceinline__ float hi(float a, float b) { return fmaxf(a, b); }
};
template <> struct net_minmax<double> {
  __device__ static __forceinline__ double lo(double a, double b) { return fmin(a, b); }
  __device__ static __forceinline__ double hi(double a, double b) { return fmax(a, b); }
};

// One comparator of a network over the wires named by CUARRAY_NET_WIRES (defined where used).
#define CUARRAY_CE(i_, j_) { const T a_ = CUARRAY_NET_WIRES[i_]; \
  CUARRAY_NET_WIRES[i_] = net_minmax<T>::lo(a_, CUARRAY_NET_WIRES[j_]); \
  CUARRAY_NET_WIRES[j_] = net_minmax<T>::hi(a_, CUARRAY_NET_WIRES[j_]); }
#define CUARRAY_LO(i_, j_) CUARRAY_NET_WIRES[i_] = net_minmax<T>::lo(CUARRAY_NET_WIRES[i_], CUARRAY_NET_WIRES[j_]);
#define CUARRAY_HI(i_, j_) CUARRAY_NET_WIRES[j_] = net_minmax<T>::hi(CUARRAY_NET_WIRES[i_], CUARRAY_NET_WIRES[j_]);

template <typename T, typename O, int N, int K, typename I>
__global__ void __launch_bounds__(CUARRAY_RANK_BW * CUARRAY_RANK_BH)
rank_tile(const T* __restrict__ in, O* __restrict__ out, I depth, I mid0, I rows, I mid, I cols, I post, I nbatch,
          int mode, T cval) {
  constexpr int BW = CUARRAY_RANK_BW, BH = CUARRAY_RANK_BH, RPT = CUARRAY_RANK_RPT;
  constexpr int SD = CUARRAY_RANK_SD, SH = CUARRAY_RANK_SH, SW = CUARRAY_RANK_SW;
  __shared__ T tile[SD * SH * SW];
  const int tid = threadIdx.y * BW + threadIdx.x;
  const I cs = post, rs = mid * cols * post, ms = rows * rs, ds = mid0 * ms;
  const I r0 = (I)blockIdx.y * (BH * RPT), c0 = (I)blockIdx.x * BW;
  for (I b = blockIdx.z; b < nbatch; b += gridDim.z) {
    // b = (((i_pre * depth + d) * mid0 + i_mid0) * mid + i_mid) * post + i_post
    const I q1 = b / post, i_post = b - q1 * post;
    const I q2 = q1 / mid, i_mid = q1 - q2 * mid;
    const I q3 = q2 / mid0, i_mid0 = q2 - q3 * mid0;
    const I i_pre = q3 / depth, d = q3 - i_pre * depth;
    const I plane = i_pre * depth * ds + i_mid0 * ms + i_mid * cols * cs + i_post;  // at depth 0
    const I base = plane + d * ds;
    unsigned seen = 0;
    for (int e = tid; e < SD * SH * SW; e += BW * BH) {
      const int ez = e / (SH * SW), er = (e - ez * SH * SW) / SW, ec = e - (ez * SH + er) * SW;
      const I z = SD == 1 ? d : map_index<I>(d + CUARRAY_RANK_OZ + ez, depth, mode);
      const I r = map_index<I>(r0 + CUARRAY_RANK_OY + er, rows, mode);
      const I c = map_index<I>(c0 + CUARRAY_RANK_OX + ec, cols, mode);
      const T v = (z < 0 || r < 0 || c < 0) ? cval : in[plane + z * ds + r * rs + c * cs];
      seen |= odd_values<T>::flags(v);
      tile[e] = v;
    }
    // the barrier after the tile, and whether any window of the block may need SciPy's selection
    unsigned any = 0;
    if (odd_values<T>::need_scipy(7u)) {
      any = (__syncthreads_or(seen & 1u) ? 1u : 0u) | (__syncthreads_or(seen & 2u) ? 2u : 0u) |
            (__syncthreads_or(seen & 4u) ? 4u : 0u);
    } else {
      __syncthreads();
    }
    const bool scipy_way = odd_values<T>::need_scipy(any);
#if CUARRAY_RANK_PAIR
    // RPT / 2 pairs of outputs a thread, rows (lr, lr + 1): the shared taps' network once, then
    // each window's own taps with the shared values that can still be its rank
#pragma unroll 1  // one pair's registers at a time
    for (int j = 0; j < RPT / 2; ++j) {
      const int lr = 2 * threadIdx.y + 2 * BH * j;
      const I r = r0 + lr, c = c0 + threadIdx.x;
      if (r >= rows || c >= cols) continue;
      const T* s = tile + lr * SW + threadIdx.x;
      const bool lower = r + 1 < rows;
      if (!scipy_way) {
        T v[CUARRAY_RANK_NS];
        T w[CUARRAY_RANK_NF];
#define CUARRAY_TAP(t, o) v[t] = s[o];
        CUARRAY_RANK_STAPS(CUARRAY_TAP)
#undef CUARRAY_TAP
#define CUARRAY_NET_WIRES v
        CUARRAY_RANK_SNET(CUARRAY_CE, CUARRAY_LO, CUARRAY_HI)
#undef CUARRAY_NET_WIRES
#define CUARRAY_NET_WIRES w
#define CUARRAY_TAP(t, o) w[t] = s[o];
#pragma unroll
        for (int m = 0; m < CUARRAY_RANK_M; ++m) w[m] = v[CUARRAY_RANK_LO + m];
        CUARRAY_RANK_UTAPS(CUARRAY_TAP)
        CUARRAY_RANK_FNET(CUARRAY_CE, CUARRAY_LO, CUARRAY_HI)
        out[base + r * rs + c * cs] = to_out<O>::go(w[CUARRAY_RANK_KF]);
        if (lower) {
#pragma unroll
          for (int m = 0; m < CUARRAY_RANK_M; ++m) w[m] = v[CUARRAY_RANK_LO + m];
          CUARRAY_RANK_LTAPS(CUARRAY_TAP)
          CUARRAY_RANK_FNET(CUARRAY_CE, CUARRAY_LO, CUARRAY_HI)
          out[base + (r + 1) * rs + c * cs] = to_out<O>::go(w[CUARRAY_RANK_KF]);
        }
#undef CUARRAY_TAP
#undef CUARRAY_NET_WIRES
      } else {
        T buf[N];
#define CUARRAY_TAP(t, o) buf[t] = s[o];
        CUARRAY_RANK_TAPS(CUARRAY_TAP)
        out[base + r * rs + c * cs] = to_out<O>::go(scipy_select<T>(buf, N, K));
        if (lower) {
          s += SW;
          CUARRAY_RANK_TAPS(CUARRAY_TAP)
          out[base + (r + 1) * rs + c * cs] = to_out<O>::go(scipy_select<T>(buf, N, K));
        }
#undef CUARRAY_TAP
      }
    }
#else
#pragma unroll 1  // one window's registers at a time
    for (int i = 0; i < RPT; ++i) {
      const I r = r0 + threadIdx.y + i * BH, c = c0 + threadIdx.x;
      if (r >= rows || c >= cols) continue;
      const T* s = tile + (threadIdx.y + i * BH) * SW + threadIdx.x;
      T res;
      if (!scipy_way) {
        T v[N];
#define CUARRAY_TAP(t, o) v[t] = s[o];
        CUARRAY_RANK_TAPS(CUARRAY_TAP)
#undef CUARRAY_TAP
#define CUARRAY_NET_WIRES v
        CUARRAY_RANK_NET(CUARRAY_CE, CUARRAY_LO, CUARRAY_HI)
#undef CUARRAY_NET_WIRES
        res = v[K];
      } else {
        T buf[N];
#define CUARRAY_TAP(t, o) buf[t] = s[o];
        CUARRAY_RANK_TAPS(CUARRAY_TAP)
#undef CUARRAY_TAP
        res = scipy_select<T>(buf, N, K);
      }
      out[base + r * rs + c * cs] = to_out<O>::go(res);
    }
#endif
    __syncthreads();  // the next batch item's tile overwrites this one
  }
}

}  // namespace cuarray_ndimage
