// cuarray quantiles: order statistics by radix selection, no sort (cuarray/_statistics/quantiles.py).
//
// Rows of n elements (row r at x + r * n); per (row, target) a rank to find. A value maps to an
// unsigned key whose order is NumPy's sort order (NaN largest); the key of rank k is found eight
// bits at a time, most significant first: per pass one histogram of the next digit over the
// elements whose higher bits equal the target's prefix (cuarray_qselect_hist), then the digit
// that holds rank k is appended to the prefix and k becomes the rank within it (cuarray_qselect_pick).
// Targets whose prefixes are equal share one histogram (`src`). After bits / 8 passes the prefix
// is the key itself and the pick kernel writes its value. Everything stays on the device.
#include "cuarray/common.cuh"

namespace cuarray {
namespace qselect {

constexpr int kThreads = 256;
constexpr int kMaxTargets = 16;

template <typename T> struct keys;
#define QSELECT_INT_KEYS(T, K, FLIP)                                                     \
  template <> struct keys<T> {                                                           \
    typedef K key_t;                                                                     \
    typedef T value_t;                                                                   \
    static __device__ __forceinline__ key_t key(T x) { return key_t(x) ^ key_t(FLIP); }  \
    static __device__ __forceinline__ T value(key_t k) { return value_t(k ^ key_t(FLIP)); } \
  };
QSELECT_INT_KEYS(bool, unsigned int, 0)
QSELECT_INT_KEYS(unsigned char, unsigned int, 0)
QSELECT_INT_KEYS(unsigned short, unsigned int, 0)
QSELECT_INT_KEYS(unsigned int, unsigned int, 0)
QSELECT_INT_KEYS(unsigned long long, unsigned long long, 0)
QSELECT_INT_KEYS(long long, unsigned long long, 0x8000000000000000ull)
QSELECT_INT_KEYS(int, unsigned int, 0x80000000u)
#undef QSELECT_INT_KEYS
// 8- and 16-bit signed: keep the key within the type's own bits (the first pass starts there).
template <> struct keys<signed char> {
  typedef unsigned int key_t;
  static __device__ __forceinline__ key_t key(signed char x) { return (unsigned char)x ^ 0x80u; }
  static __device__ __forceinline__ signed char value(key_t k) { return (signed char)(unsigned char)(k ^ 0x80u); }
};
template <> struct keys<short> {
  typedef unsigned int key_t;
  static __device__ __forceinline__ key_t key(short x) { return (unsigned short)x ^ 0x8000u; }
  static __device__ __forceinline__ short value(key_t k) { return (short)(unsigned short)(k ^ 0x8000u); }
};

// IEEE bits U (float16 is read as unsigned short bits: `half_bits`): negative numbers
// complemented, positive ones get the sign bit, every NaN the largest key.
template <typename U, typename K, U INF>
struct float_keys {
  static constexpr U SIGN = U(U(1) << (8 * sizeof(U) - 1));
  static __device__ __forceinline__ K of(U u) {
    if (U(u & U(~SIGN)) > INF) return K(U(~U(0)));
    return K((u & SIGN) ? U(~u) : U(u | SIGN));
  }
  static __device__ __forceinline__ U bits(K k) { return (U(k) & SIGN) ? U(U(k) ^ SIGN) : U(~U(k)); }
};
struct half_bits { unsigned short u; };
template <> struct keys<half_bits> {
  typedef unsigned int key_t;
  typedef float_keys<unsigned short, unsigned int, 0x7c00> F;
  static __device__ __forceinline__ key_t key(half_bits x) { return F::of(x.u); }
  static __device__ __forceinline__ half_bits value(key_t k) { return half_bits{F::bits(k)}; }
};
template <> struct keys<float> {
  typedef unsigned int key_t;
  typedef float_keys<unsigned int, unsigned int, 0x7f800000u> F;
  static __device__ __forceinline__ key_t key(float x) { return F::of(__float_as_uint(x)); }
  static __device__ __forceinline__ float value(key_t k) { return __uint_as_float(F::bits(k)); }
};
template <> struct keys<double> {
  typedef unsigned long long key_t;
  typedef float_keys<unsigned long long, unsigned long long, 0x7ff0000000000000ull> F;
  static __device__ __forceinline__ key_t key(double x) { return F::of((unsigned long long)__double_as_longlong(x)); }
  static __device__ __forceinline__ double value(key_t k) { return __longlong_as_double((long long)F::bits(k)); }
};

template <typename K>
struct state {
  K prefix;        // the key bits fixed so far (lower bits zero)
  long long rank;  // the rank within the elements that share the prefix
  int src;         // the target whose histogram this one reads (the first with the same prefix)
};

// One histogram pass. Grid (blocks per row, rows); hist: [row][target][256] counts.
template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_qselect_hist(const T* __restrict__ x, long long n, int targets,
                                                                 const state<typename keys<T>::key_t>* __restrict__ st,
                                                                 int shift, typename keys<T>::key_t hi_mask,
                                                                 unsigned long long* __restrict__ hist) {
  typedef typename keys<T>::key_t K;
  __shared__ unsigned int bins[kMaxTargets * 256];
  __shared__ K prefix[kMaxTargets];
  __shared__ int own[kMaxTargets];  // targets with a histogram of their own
  __shared__ int owners;
  const long long row = blockIdx.y;
  x += row * n;
  st += row * targets;
  hist += row * targets * 256;
  if (threadIdx.x == 0) {
    int c = 0;
    for (int t = 0; t < targets; ++t)
      if (st[t].src == t) { own[c] = t; prefix[c] = st[t].prefix; ++c; }
    owners = c;
  }
  for (int j = threadIdx.x; j < kMaxTargets * 256; j += kThreads) bins[j] = 0u;
  __syncthreads();
  const int m = owners;
  const long long stride = (long long)gridDim.x * kThreads;
  const int lane = threadIdx.x & 31;
  // The warp steps together (b is the warp's first index), so its lanes can meet in
  // __match_any_sync: the lanes that count into the same bin add their number once, from the
  // first of them. Keys of real data crowd few digits (uniform floats in [0, 1) share the top
  // byte), and a warp of equal shared-memory atomics serialises 32 ways.
  for (long long b = (long long)blockIdx.x * kThreads + (threadIdx.x & ~31); b < n; b += stride) {
    const long long i = b + lane;
    const bool valid = i < n;
    const K k = valid ? keys<T>::key(x[i]) : K(0);
    const unsigned d = unsigned(k >> shift) & 255u;
    for (int c = 0; c < m; ++c) {
      const bool hit = valid && ((k ^ prefix[c]) & hi_mask) == K(0);
      const unsigned peers = __match_any_sync(0xffffffffu, hit ? d : 256u);
      if (hit && __ffs(peers) - 1 == lane) atomicAdd(bins + c * 256 + d, unsigned(__popc(peers)));
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j < m * 256; j += kThreads) {
    const unsigned v = bins[j];
    if (v) atomicAdd(hist + own[j >> 8] * 256 + (j & 255), (unsigned long long)v);
  }
}

// One block per row: each target appends the digit holding its rank; equal prefixes share the
// next histogram; the histograms are zeroed for the next pass. `last`: write the values.
template <typename T>
__global__ void __launch_bounds__(kThreads) cuarray_qselect_pick(int targets, state<typename keys<T>::key_t>* __restrict__ st,
                                                                 int shift, unsigned long long* __restrict__ hist,
                                                                 int last, T* __restrict__ out) {
  typedef typename keys<T>::key_t K;
  const long long row = blockIdx.x;
  st += row * targets;
  hist += row * targets * 256;
  const int t = threadIdx.x;
  if (t < targets) {
    state<K> s = st[t];
    const unsigned long long* h = hist + s.src * 256;
    long long before = 0;
    int d = 0;
    for (; d < 255; ++d) {
      const long long c = (long long)h[d];
      if (before + c > s.rank) break;
      before += c;
    }
    s.prefix = K(s.prefix | (K(d) << shift));
    s.rank -= before;
    st[t] = s;
    if (last) out[row * targets + t] = keys<T>::value(s.prefix);
  }
  __syncthreads();
  int src = t;
  if (t < targets)
    for (int u = 0; u < t; ++u)
      if (st[u].prefix == st[t].prefix) { src = u; break; }
  __syncthreads();
  if (t < targets) st[t].src = src;
  for (int j = t; j < targets * 256; j += kThreads) hist[j] = 0ull;
}


// ---- short rows: one block a row, the row's keys in shared memory ------------------------------
//
// Rows of n <= (the planner's cap) elements: the block reads its row once into shared memory as
// keys, then runs every pass of the selection there (per pass one shared histogram per target
// prefix, a warp's scan picking each target's digit), and writes the targets' values. One launch
// for any number of rows, against two launches a pass with a 256-bin global histogram per (row,
// target) flushed, read and zeroed each pass (131072 rows of 3 targets: 805 MB of histograms).
// Dynamic shared memory: n keys, then targets x 256 counts. `ranks`: row r's at r * rank_stride
// (0: the same ranks in every row).
template <typename T, int THREADS>
__global__ void __launch_bounds__(THREADS) cuarray_qselect_rows(const T* __restrict__ x, long long n, int targets,
                                                                const long long* __restrict__ ranks,
                                                                long long rank_stride, int bits, T* __restrict__ out) {
  typedef typename keys<T>::key_t K;
  constexpr int KBITS = 8 * sizeof(K);
  constexpr int WARPS = THREADS / 32;
  extern __shared__ __align__(16) unsigned char qselect_smem[];
  K* row_keys = reinterpret_cast<K*>(qselect_smem);
  unsigned int* bins = reinterpret_cast<unsigned int*>(qselect_smem + ((n * sizeof(K) + 15) & ~15ll));
  __shared__ K prefix[kMaxTargets];
  __shared__ long long rank[kMaxTargets];
  __shared__ int src[kMaxTargets];
  const long long row = blockIdx.x;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  x += row * n;
  for (long long i = tid; i < n; i += THREADS) row_keys[i] = keys<T>::key(x[i]);
  for (int j = tid; j < targets * 256; j += THREADS) bins[j] = 0u;
  if (tid < targets) {
    prefix[tid] = K(0);
    rank[tid] = ranks[row * rank_stride + tid];
    src[tid] = 0;  // every prefix is empty: one histogram for the first pass
  }
  __syncthreads();
  for (int shift = bits - 8; shift >= 0; shift -= 8) {
    const K hi_mask = shift + 8 >= KBITS ? K(0) : K(~K(0)) << (shift + 8);
    // Counting: the warp steps together so equal digits meet in __match_any_sync (uniform data
    // shares its top digits: 32 equal shared atomics serialise).
    for (long long b = tid & ~31; b < n; b += THREADS) {
      const long long i = b + lane;
      const bool valid = i < n;
      const K k = valid ? row_keys[i] : K(0);
      const unsigned d = unsigned(k >> shift) & 255u;
      for (int c = 0; c < targets; ++c) {
        if (src[c] != c) continue;
        const bool hit = valid && ((k ^ prefix[c]) & hi_mask) == K(0);
        const unsigned peers = __match_any_sync(0xffffffffu, hit ? d : 256u);
        if (hit && __ffs(peers) - 1 == lane) atomicAdd(bins + c * 256 + d, unsigned(__popc(peers)));
      }
    }
    __syncthreads();
    // Picking: a warp a target; lane l holds digits 8l..8l+7.
    for (int t = warp; t < targets; t += WARPS) {
      const unsigned int* h = bins + src[t] * 256 + lane * 8;
      unsigned c8[8];
      unsigned mine = 0;
      for (int j = 0; j < 8; ++j) { c8[j] = h[j]; mine += c8[j]; }
      unsigned incl = mine;
      for (int o = 1; o < 32; o <<= 1) {
        const unsigned v = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += v;
      }
      const long long r = rank[t];
      const unsigned holder = __ballot_sync(0xffffffffu, (long long)incl > r);
      const int l = holder ? __ffs(holder) - 1 : 31;
      if (lane == l) {
        long long before = (long long)(incl - mine);
        int d = 0;
        for (; d < 7; ++d) {
          if (before + (long long)c8[d] > r) break;
          before += c8[d];
        }
        prefix[t] = K(prefix[t] | (K(lane * 8 + d) << shift));
        rank[t] = r - before;
      }
    }
    __syncthreads();
    // The next pass: equal prefixes share a histogram; the counts start from zero.
    if (tid < targets) {
      int s = tid;
      for (int u = 0; u < tid; ++u)
        if (prefix[u] == prefix[tid]) { s = u; break; }
      src[tid] = s;
    }
    for (int j = tid; j < targets * 256; j += THREADS) bins[j] = 0u;
    __syncthreads();
  }
  if (tid < targets) out[row * targets + tid] = keys<T>::value(prefix[tid]);
}

// out[r, t] = s[r * n + ranks[r * rank_stride + t]]: the order statistics of rows already sorted
// (quantiles by a sort), one thread an output.
template <typename T>
__global__ void cuarray_qselect_take(const T* __restrict__ s, long long n, long long rows, int targets,
                                     const long long* __restrict__ ranks, long long rank_stride, T* __restrict__ out) {
  const long long total = rows * targets;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
    const long long r = i / targets, t = i - r * targets;
    out[i] = s[r * n + ranks[r * rank_stride + t]];
  }
}

}  // namespace qselect
}  // namespace cuarray
