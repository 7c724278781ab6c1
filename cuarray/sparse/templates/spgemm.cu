// cuarray row-wise (Gustavson) SpGEMM, C = A @ B for CSR A (m x k) and B (k x p); launched by
// cuarray/sparse/_spgemm_rowwise.py. spgemm_bins.cuh (row_bin) is prepended to this source.
//
//   1. cuarray_spgemm_bin_rows: a warp per row of A sums the lengths of the B rows its entries
//      name (ub, the row's product count), picks its bin (row_bin) and counts bins and products.
//   2. cuarray_spgemm_scatter_rows: the row ids grouped by bin (order within a bin unspecified).
//   3. cuarray_spgemm_symbolic<I, TABLE, WG>: per bin, a group of WG warps per row inserts the
//      row's product columns into a shared-memory hash table of TABLE slots and counts the
//      distinct ones (the host scans the counts into C's indptr).
//   4. cuarray_spgemm_numeric<T, I, O, TABLE, WG>: the same insertion, now adding each product
//      into the slot's accumulator; then the row's columns are compacted and each is written at
//      its rank among them (the number of smaller columns), so C's rows come out sorted without
//      a sort pass. Explicit zeros (cancellation) are counted: the host drops them as SciPy does.
//   5. cuarray_spgemm_copy_rows<T, O>: rows too long for shared memory were multiplied by the
//      expand-sort path; a block per such row copies its entries into place.
//
// Products of one row are spread over a warp's lanes flat: the warp loads 32 A entries, scans
// their B row lengths, and lane l takes product q = l, l + 32, ... of that chunk, finding its A
// entry by a 5-step binary search over the scan (shuffles). A warp per A entry would leave most
// lanes idle when B rows are short (10 entries in the bench's matrices).
//
// Integer products and sums wrap like NumPy's (the accumulator is the unsigned type of 32 or 64
// bits, truncated back to T: truncation commutes with + and *). bool: the AND of the factors,
// counted, then "count != 0" (the OR of NumPy's bool matmul). Complex: atomics on the two parts.

#include "cuarray/complex.cuh"

namespace cuarray {
namespace spgemm {

constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned kEmpty = 0xffffffffu;  // a column is at most 2^32 - 2 (the planner's check)

// ---- value types: accumulator, product, final value, zero test ---------------------------------
template <typename T> struct Acc {  // 1-, 2-, 4-byte integers
  typedef unsigned type;
  static __device__ __forceinline__ type product(T a, T b) { return (unsigned)a * (unsigned)b; }
  static __device__ __forceinline__ void add(type* p, type v) { atomicAdd(p, v); }
  static __device__ __forceinline__ T finish(type v) { return (T)v; }
  static __device__ __forceinline__ bool is_zero(T v) { return v == T(0); }
  static __device__ __forceinline__ type load_l2(const type* p) { return __ldcg(p); }
};
template <> struct Acc<long long> {
  typedef unsigned long long type;
  static __device__ __forceinline__ type product(long long a, long long b) {
    return (unsigned long long)a * (unsigned long long)b;
  }
  static __device__ __forceinline__ void add(type* p, type v) { atomicAdd(p, v); }
  static __device__ __forceinline__ long long finish(type v) { return (long long)v; }
  static __device__ __forceinline__ bool is_zero(long long v) { return v == 0; }
  static __device__ __forceinline__ type load_l2(const type* p) { return __ldcg(p); }
};
template <> struct Acc<unsigned long long> {
  typedef unsigned long long type;
  static __device__ __forceinline__ type product(type a, type b) { return a * b; }
  static __device__ __forceinline__ void add(type* p, type v) { atomicAdd(p, v); }
  static __device__ __forceinline__ type finish(type v) { return v; }
  static __device__ __forceinline__ bool is_zero(type v) { return v == 0; }
  static __device__ __forceinline__ type load_l2(const type* p) { return __ldcg(p); }
};
template <> struct Acc<bool> {
  typedef unsigned type;
  static __device__ __forceinline__ type product(bool a, bool b) { return (a && b) ? 1u : 0u; }
  static __device__ __forceinline__ void add(type* p, type v) { if (v) atomicAdd(p, v); }
  static __device__ __forceinline__ bool finish(type v) { return v != 0u; }
  static __device__ __forceinline__ bool is_zero(bool v) { return !v; }
  static __device__ __forceinline__ type load_l2(const type* p) { return __ldcg(p); }
};
template <> struct Acc<float> {
  typedef float type;
  static __device__ __forceinline__ type product(float a, float b) { return a * b; }
  static __device__ __forceinline__ void add(type* p, type v) { atomicAdd(p, v); }
  static __device__ __forceinline__ float finish(type v) { return v; }
  static __device__ __forceinline__ bool is_zero(float v) { return v == 0.0f; }
  static __device__ __forceinline__ type load_l2(const type* p) { return __ldcg(p); }
};
template <> struct Acc<double> {
  typedef double type;
  static __device__ __forceinline__ type product(double a, double b) { return a * b; }
  static __device__ __forceinline__ void add(type* p, type v) { atomicAdd(p, v); }
  static __device__ __forceinline__ double finish(type v) { return v; }
  static __device__ __forceinline__ bool is_zero(double v) { return v == 0.0; }
  static __device__ __forceinline__ type load_l2(const type* p) { return __ldcg(p); }
};
template <typename R> struct Acc<complex<R>> {
  typedef complex<R> type;
  static __device__ __forceinline__ type product(type a, type b) { return a * b; }
  static __device__ __forceinline__ void add(type* p, type v) {
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
  }
  static __device__ __forceinline__ type finish(type v) { return v; }
  static __device__ __forceinline__ bool is_zero(type v) { return v.re == R(0) && v.im == R(0); }
  static __device__ __forceinline__ type load_l2(const type* p) { return type(__ldcg(&p->re), __ldcg(&p->im)); }
};

// ---- groups of WG warps per row ------------------------------------------------------------------
template <int WG>
__device__ __forceinline__ void group_sync() {
  if (WG == 1) __syncwarp(); else __syncthreads();  // WG > 1: a block's groups keep in step
}

__host__ __device__ constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n >> 1); }

template <int TABLE>
__device__ __forceinline__ unsigned hash_slot(unsigned col) {
  // Fibonacci hashing: the top bits of col * 2^32/phi, so runs of columns spread over the table.
  constexpr int kBits = log2_of(TABLE);
  return (col * 2654435769u) >> (32 - kBits);
}

// Insert `col`; returns its slot, `fresh` true when this call put it there.
template <int TABLE>
__device__ __forceinline__ unsigned insert(unsigned* keys, unsigned col, bool& fresh) {
  unsigned h = hash_slot<TABLE>(col);
  while (true) {
    // A slot goes from empty to a column once: a non-empty read is final, an empty one is
    // settled by the CAS.
    const unsigned k = ((volatile unsigned*)keys)[h];
    if (k == col) { fresh = false; return h; }
    if (k == kEmpty) {
      const unsigned old = atomicCAS(keys + h, kEmpty, col);
      if (old == kEmpty) { fresh = true; return h; }
      if (old == col) { fresh = false; return h; }
    }
    h = (h + 1) & (TABLE - 1);
  }
}

// Calls f(a entry, B position) for every product of row `row`, spread over the group's warps.
// Every lane of the warp must call it (shuffles). P: positions within a chunk of 32 A entries,
// int where the row has fewer than 2^31 products (row_bin), long long for the longest rows.
template <int WG, typename I, typename P = int, typename F>
__device__ __forceinline__ void for_each_product(const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
                                                 const I* __restrict__ b_ptr, int row, bool active, int wig,
                                                 int lane, F f) {
  const I a0 = active ? a_ptr[row] : I(0), a1 = active ? a_ptr[row + 1] : I(0);
  for (I base = a0 + (I)wig * 32; base < a1; base += (I)32 * WG) {
    const I e = base + lane;
    I bs = 0;
    P len = 0;
    if (e < a1) {
      const I k = a_idx[e];
      bs = b_ptr[k];
      len = (P)(b_ptr[k + 1] - bs);
    }
    P incl = len;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const P t = __shfl_up_sync(kFull, incl, d);
      if (lane >= d) incl += t;
    }
    const P excl = incl - len;
    const P total = __shfl_sync(kFull, incl, 31);
    for (P qb = 0; qb < total; qb += 32) {
      const P q = qb + lane;
      int s = 0;  // the number of lanes whose inclusive count is <= q: q's A entry
#pragma unroll
      for (int step = 16; step > 0; step >>= 1) {
        const P v = __shfl_sync(kFull, incl, s + step - 1);
        if (v <= q) s += step;
      }
      const P ex = __shfl_sync(kFull, excl, s);
      const I bss = __shfl_sync(kFull, bs, s);
      if (q < total) f(base + s, bss + (I)(q - ex));
    }
  }
}

// Exclusive scan of one int per thread over a block of kDenseThreads; `total` gets the sum.
constexpr int kDenseThreads = 256;
__device__ __forceinline__ int block_exclusive_scan(int v, int& total) {
  __shared__ int warp_total[kDenseThreads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int incl = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(kFull, incl, d);
    if (lane >= d) incl += t;
  }
  if (lane == 31) warp_total[warp] = incl;
  __syncthreads();
  int before = 0, all = 0;
#pragma unroll
  for (int w = 0; w < kDenseThreads / 32; ++w) {
    const int t = warp_total[w];
    before += w < warp ? t : 0;
    all += t;
  }
  __syncthreads();  // warp_total is read by all before the next call writes it
  total = all;
  return before + incl - v;
}

}  // namespace spgemm
}  // namespace cuarray

// ---- 1, 2: binning -------------------------------------------------------------------------------
// counts[0 .. kBins-1]: rows per bin; counts[kBins]: all products (the result's size bound).
template <typename I>
__global__ void __launch_bounds__(256)
    cuarray_spgemm_bin_rows(const I* __restrict__ a_ptr, const I* __restrict__ a_idx, const I* __restrict__ b_ptr,
                            const long long m, const long long p, const int max_bin,
                            unsigned char* __restrict__ bins, unsigned long long* __restrict__ counts) {
  using namespace cuarray::spgemm;
  __shared__ unsigned long long block_counts[kBins + 1];
  if (threadIdx.x <= kBins) block_counts[threadIdx.x] = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row < m) {
    long long ub = 0;
    for (I e = a_ptr[row] + lane; e < a_ptr[row + 1]; e += 32) {
      const I k = a_idx[e];
      ub += (long long)(b_ptr[k + 1] - b_ptr[k]);
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) ub += __shfl_down_sync(kFull, ub, d);
    if (lane == 0) {
      const int b = row_bin(ub, p, max_bin);
      bins[row] = (unsigned char)b;
      atomicAdd(block_counts + b, 1ull);
      atomicAdd(block_counts + kBins, (unsigned long long)ub);
    }
  }
  __syncthreads();
  if (threadIdx.x <= kBins && block_counts[threadIdx.x]) atomicAdd(counts + threadIdx.x, block_counts[threadIdx.x]);
}

// rows[start(b) + ...] = the rows of bin b, start(b) the rows of the bins before b; `fill` (kBins
// zeros) hands each block its places. A block's rows take one global atomic per bin.
__global__ void __launch_bounds__(256)
    cuarray_spgemm_scatter_rows(const unsigned char* __restrict__ bins, const long long m,
                                const unsigned long long* __restrict__ counts, unsigned long long* __restrict__ fill,
                                int* __restrict__ rows) {
  using namespace cuarray::spgemm;
  __shared__ unsigned local[kBins];
  __shared__ unsigned long long base[kBins];
  if (threadIdx.x < kBins) local[threadIdx.x] = 0;
  __syncthreads();
  const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int b = 0;
  unsigned pos = 0;
  if (row < m) {
    b = bins[row];
    pos = atomicAdd(local + b, 1u);
  }
  __syncthreads();
  if (threadIdx.x < kBins) {
    unsigned long long start = 0;
    for (int j = 0; j < (int)threadIdx.x; ++j) start += counts[j];
    base[threadIdx.x] = start + (local[threadIdx.x] ? atomicAdd(fill + threadIdx.x, (unsigned long long)local[threadIdx.x]) : 0ull);
  }
  __syncthreads();
  if (row < m) rows[base[b] + pos] = (int)row;
}

// ---- 3: symbolic ----------------------------------------------------------------------------------
// Dynamic shared memory: TABLE keys per group. row_nnz[row] = the row's distinct columns.
template <typename I, int TABLE, int WG>
__global__ void __launch_bounds__(256)
    cuarray_spgemm_symbolic(const I* __restrict__ a_ptr, const I* __restrict__ a_idx, const I* __restrict__ b_ptr,
                            const I* __restrict__ b_idx, const int* __restrict__ rows, const int nrows,
                            long long* __restrict__ row_nnz) {
  using namespace cuarray::spgemm;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ unsigned distinct[32];
  constexpr int G = 32 * WG;
  const int group = threadIdx.x / G, t = threadIdx.x % G, lane = t & 31, wig = t >> 5;
  unsigned* keys = reinterpret_cast<unsigned*>(smem) + (size_t)group * TABLE;
  const int slot = blockIdx.x * (blockDim.x / G) + group;
  const bool active = slot < nrows;
  const int row = active ? rows[slot] : 0;
  for (int i = t; i < TABLE; i += G) keys[i] = kEmpty;
  if (t == 0) distinct[group] = 0;
  group_sync<WG>();
  unsigned mine = 0;
  for_each_product<WG>(a_ptr, a_idx, b_ptr, row, active, wig, lane, [&](I, I bp) {
    bool fresh;
    insert<TABLE>(keys, (unsigned)b_idx[bp], fresh);
    mine += fresh;
  });
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) mine += __shfl_down_sync(kFull, mine, d);
  if (lane == 0 && mine) atomicAdd(distinct + group, mine);
  group_sync<WG>();
  if (active && t == 0) row_nnz[row] = distinct[group];
}

// ---- 4: numeric -----------------------------------------------------------------------------------
// Dynamic shared memory per group: TABLE accumulators, TABLE keys, TABLE/2 + 4 compacted keys.
template <typename T, typename I, typename O, int TABLE, int WG>
__global__ void __launch_bounds__(256)
    cuarray_spgemm_numeric(const I* __restrict__ a_ptr, const I* __restrict__ a_idx, const T* __restrict__ a_val,
                           const I* __restrict__ b_ptr, const I* __restrict__ b_idx, const T* __restrict__ b_val,
                           const int* __restrict__ rows, const int nrows, const O* __restrict__ c_ptr,
                           O* __restrict__ c_idx, T* __restrict__ c_val, unsigned long long* __restrict__ zeros) {
  using namespace cuarray::spgemm;
  typedef Acc<T> A;
  typedef typename A::type V;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ unsigned filled[32];
  constexpr int G = 32 * WG;
  constexpr size_t kGroupBytes = (size_t)TABLE * (sizeof(V) + 4) + ((size_t)TABLE / 2 + 4) * 4;
  const int group = threadIdx.x / G, t = threadIdx.x % G, lane = t & 31, wig = t >> 5;
  V* vals = reinterpret_cast<V*>(smem + (size_t)group * kGroupBytes);
  unsigned* keys = reinterpret_cast<unsigned*>(vals + TABLE);
  unsigned* cols = keys + TABLE;  // the row's columns, compacted (at most TABLE / 2), then padding
  const int slot = blockIdx.x * (blockDim.x / G) + group;
  const bool active = slot < nrows;
  const int row = active ? rows[slot] : 0;
  for (int i = t; i < TABLE; i += G) {
    keys[i] = kEmpty;
    vals[i] = V(0);
  }
  if (t == 0) filled[group] = 0;
  group_sync<WG>();
  for_each_product<WG>(a_ptr, a_idx, b_ptr, row, active, wig, lane, [&](I ea, I bp) {
    bool fresh;
    const unsigned h = insert<TABLE>(keys, (unsigned)b_idx[bp], fresh);
    A::add(vals + h, A::product(a_val[ea], b_val[bp]));
  });
  group_sync<WG>();
  for (int i = t; i < TABLE; i += G) {
    const unsigned k = keys[i];
    if (k != kEmpty) cols[atomicAdd(filled + group, 1u)] = k;
  }
  group_sync<WG>();
  const int n = (int)filled[group];
  if (t < 4) cols[n + t] = kEmpty;  // padding for the 4-wide reads: never below a column
  group_sync<WG>();
  unsigned long long zc = 0;
  if (active) {
    const O start = c_ptr[row];
    // A lane ranks 4 of the row's columns at once against 4 columns per 16-byte read (broadcast
    // reads, no bank conflicts): ~2 instructions a comparison.
    for (int e0 = t; e0 < n; e0 += 4 * G) {
      unsigned k[4];
      int rank[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        k[u] = e0 + u * G < n ? cols[e0 + u * G] : 0u;
        rank[u] = 0;
      }
      for (int j = 0; j < n; j += 4) {
        const uint4 c = *reinterpret_cast<const uint4*>(cols + j);
#pragma unroll
        for (int u = 0; u < 4; ++u) rank[u] += (c.x < k[u]) + (c.y < k[u]) + (c.z < k[u]) + (c.w < k[u]);
      }
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        if (e0 + u * G < n) {
          bool fresh;
          const T v = A::finish(vals[insert<TABLE>(keys, k[u], fresh)]);  // finds k's slot (present)
          c_idx[start + rank[u]] = (O)k[u];
          c_val[start + rank[u]] = v;
          zc += A::is_zero(v);
        }
      }
    }
  }
  if (zc) atomicAdd(zeros, zc);
}

// ---- 5: rows from the sort path -------------------------------------------------------------------
// Row j of the part (offsets p_ptr, already in O) goes to C's row rows[j]; zeros counted.
template <typename T, typename O>
__global__ void __launch_bounds__(256)
    cuarray_spgemm_copy_rows(const O* __restrict__ p_ptr, const O* __restrict__ p_idx, const T* __restrict__ p_val,
                             const int* __restrict__ rows, const O* __restrict__ c_ptr, O* __restrict__ c_idx,
                             T* __restrict__ c_val, unsigned long long* __restrict__ zeros) {
  using namespace cuarray::spgemm;
  const int j = blockIdx.x;
  const O s0 = p_ptr[j], s1 = p_ptr[j + 1];
  const O d0 = c_ptr[rows[j]];
  unsigned long long zc = 0;
  for (O e = s0 + threadIdx.x; e < s1; e += blockDim.x) {
    const T v = p_val[e];
    c_idx[d0 + (e - s0)] = p_idx[e];
    c_val[d0 + (e - s0)] = v;
    zc += Acc<T>::is_zero(v);
  }
  if (zc) atomicAdd(zeros, zc);
}

// ---- 6, 7: dense accumulators for the longest rows (the "rowwise-dense" method) -------------------
// A block of kDenseThreads per row. Symbolic: row j's columns set bits in its own bitmap of `words`
// 32-bit words (zeroed by the host), then the set bits are counted. Numeric: each block owns one
// dense accumulator of p values (zero on entry, left zero), takes rows j = blockIdx.x,
// + gridDim.x, ..., adds the row's products into it with global atomics, then walks the row's
// bitmap in column order and writes every set column with its value (clearing it): sorted rows
// without a sort. Positions are 64-bit (such rows may have 2^31 products or more).
template <typename I>
__global__ void __launch_bounds__(cuarray::spgemm::kDenseThreads)
    cuarray_spgemm_dense_symbolic(const I* __restrict__ a_ptr, const I* __restrict__ a_idx,
                                  const I* __restrict__ b_ptr, const I* __restrict__ b_idx,
                                  const int* __restrict__ rows, const long long words, unsigned* __restrict__ bitmap,
                                  long long* __restrict__ row_nnz) {
  using namespace cuarray::spgemm;
  const int row = rows[blockIdx.x];
  unsigned* bits = bitmap + (size_t)blockIdx.x * words;
  // Fire-and-forget atomics (no returned value to wait for), then the set bits counted.
  for_each_product<kDenseThreads / 32, I, long long>(
      a_ptr, a_idx, b_ptr, row, true, threadIdx.x >> 5, threadIdx.x & 31, [&](I, I bp) {
        const unsigned c = (unsigned)b_idx[bp];
        atomicOr(bits + (c >> 5), 1u << (c & 31));
      });
  __syncthreads();
  long long mine = 0;
  // __ldcg: from L2, where the atomics landed (a line this SM's L1 holds could be stale: another
  // row's block may have read it, the bitmaps of neighbouring rows share lines).
  for (long long w = threadIdx.x; w < words; w += kDenseThreads) mine += __popc(__ldcg(bits + w));
  int all;  // a row's distinct columns: at most p, below 2^31 within dense_plan's bitmap budget
  block_exclusive_scan((int)mine, all);
  if (threadIdx.x == 0) row_nnz[row] = (long long)all;
}

template <typename T, typename I, typename O>
__global__ void __launch_bounds__(cuarray::spgemm::kDenseThreads)
    cuarray_spgemm_dense_numeric(const I* __restrict__ a_ptr, const I* __restrict__ a_idx, const T* __restrict__ a_val,
                                 const I* __restrict__ b_ptr, const I* __restrict__ b_idx, const T* __restrict__ b_val,
                                 const int* __restrict__ rows, const int nrows, const long long words,
                                 const unsigned* __restrict__ bitmap, const long long p,
                                 typename cuarray::spgemm::Acc<T>::type* __restrict__ dense,
                                 const O* __restrict__ c_ptr, O* __restrict__ c_idx, T* __restrict__ c_val,
                                 unsigned long long* __restrict__ zeros) {
  using namespace cuarray::spgemm;
  typedef Acc<T> A;
  typedef typename A::type V;
  V* acc = dense + (size_t)blockIdx.x * p;
  unsigned long long zc = 0;
  for (int j = blockIdx.x; j < nrows; j += gridDim.x) {
    const int row = rows[j];
    for_each_product<kDenseThreads / 32, I, long long>(
        a_ptr, a_idx, b_ptr, row, true, threadIdx.x >> 5, threadIdx.x & 31,
        [&](I ea, I bp) { A::add(acc + b_idx[bp], A::product(a_val[ea], b_val[bp])); });
    __syncthreads();
    const unsigned* bits = bitmap + (size_t)j * words;
    O out = c_ptr[row];
    for (long long w0 = 0; w0 < words; w0 += kDenseThreads) {
      const long long w = w0 + threadIdx.x;
      unsigned bw = w < words ? bits[w] : 0u;
      int chunk;
      O pos = out + (O)block_exclusive_scan(__popc(bw), chunk);
      while (bw) {
        const long long col = w * 32 + (__ffs(bw) - 1);
        bw &= bw - 1;
        const T v = A::finish(A::load_l2(acc + col));  // L2: the atomics' results, not a stale L1 line
        acc[col] = V(0);
        c_idx[pos] = (O)col;
        c_val[pos] = v;
        ++pos;
        zc += A::is_zero(v);
      }
      out += (O)chunk;
    }
    __syncthreads();  // the accumulator is clear before the next row's additions
  }
  if (zc) atomicAdd(zeros, zc);
}
