// cuarray/scan.cuh: the device side of cumulative operations (cuarray/_core/scan.py).
//
// Three scan kernels and two segmented reductions, all templated on the operator `op(a, b)` (a
// comes first in the sequence), the stored input/output types and the accumulator type:
//
//   flat_scan     one contiguous sequence (optionally cut into segments of `seg` elements: the rows
//                 of a C matrix scanned along its last axis). Single pass, decoupled look-back
//                 (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
//                 NVIDIA TR 2016): block p scans tile p in registers, publishes the tile's
//                 aggregate, looks back over predecessors for its exclusive prefix, publishes its
//                 inclusive prefix and stores. Tile p is block p, as in CUB: a block waits only on
//                 lower-numbered blocks, which the hardware dispatches no later than it (the order
//                 CUB's scans, and so torch.cumsum, rely on too). CUARRAY_SCAN_TILE_ORDER 0 takes
//                 the tile id from an atomic ticket instead (order guaranteed by construction; one
//                 atomic round trip and a barrier before the loads, measured 2-4% slower).
//   column_scan   a C array seen as (outer, n, inner) scanned along n with inner > 1: a thread per
//                 column (coalesced across a warp), 8 warps stacked down the rows of a chunk, and the
//                 same look-back between chunks, done by each column's thread.
//   serial_scan   a thread per column walking every row: short scanned axes with many columns,
//                 and operators that are not associative (subtract.accumulate, ...).
//   segment_reduce  ufunc.reduceat (cuarray/_core/reduceat.py): a thread per output element folds
//                 its slice of the axis in NumPy's order; segment_reduce_blocks a block per output
//                 (associative operators, long slices).
//
// Determinism: every output is a fixed expression tree of the inputs. The look-back folds the
// predecessors' partials forward, starting from the nearest inclusive prefix (I(q) + a(q+1) + ...
// + a(p-1)), and I(q) itself is I(q-1) + a(q); so whichever predecessor the look-back stops at,
// the exclusive prefix is bit-identical: the left fold of the tile aggregates in tile order.
#pragma once

namespace cuarray {
namespace scan {

enum : unsigned { EMPTY = 0u, AGGREGATE = 1u, INCLUSIVE = 2u };

// Windows a look-back may park before it waits (flat: 16 x 32 x V tiles deep; columns: D chunks).
#ifndef CUARRAY_SCAN_LOOKBACK_WINDOWS
#define CUARRAY_SCAN_LOOKBACK_WINDOWS 16
#endif
constexpr int LOOKBACK_WINDOWS = CUARRAY_SCAN_LOOKBACK_WINDOWS;
// flat_scan: warps per block, tiles per lane in one look-back window (window = 32 V tiles), polls
// of a window before the look-back sleeps between polls. scan.py defines them when not default.
#ifndef CUARRAY_SCAN_WARPS
#define CUARRAY_SCAN_WARPS 4
#endif
#ifndef CUARRAY_SCAN_SPAN
#define CUARRAY_SCAN_SPAN 1
#endif
#ifndef CUARRAY_SCAN_SPINS
#define CUARRAY_SCAN_SPINS 8
#endif
// flat_scan: tile order (1 blockIdx.x, 0 atomic ticket); evict-first (.cs) tile loads and stores.
#ifndef CUARRAY_SCAN_TILE_ORDER
#define CUARRAY_SCAN_TILE_ORDER 1
#endif
#ifndef CUARRAY_SCAN_STREAMING
#define CUARRAY_SCAN_STREAMING 0
#endif

// -- status words: acquire/release at GPU scope (no <cuda/atomic>: it costs NVRTC time) -------------
__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Values beside a status word: volatile word accesses (not cached in L1). The release store of
// the status word orders them before it; the acquire load orders the reads after it.
template <typename T>
__device__ __forceinline__ void store_value(T* p, const T& v) {
  if (sizeof(T) % 8 == 0) {
    const unsigned long long* s = reinterpret_cast<const unsigned long long*>(&v);
    volatile unsigned long long* d = reinterpret_cast<volatile unsigned long long*>(p);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) / 8); ++k) d[k] = s[k];
  } else if (sizeof(T) % 4 == 0) {
    const unsigned* s = reinterpret_cast<const unsigned*>(&v);
    volatile unsigned* d = reinterpret_cast<volatile unsigned*>(p);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) / 4); ++k) d[k] = s[k];
  } else {
    const unsigned char* s = reinterpret_cast<const unsigned char*>(&v);
    volatile unsigned char* d = reinterpret_cast<volatile unsigned char*>(p);
#pragma unroll
    for (int k = 0; k < (int)sizeof(T); ++k) d[k] = s[k];
  }
}
template <typename T>
__device__ __forceinline__ T load_value(const T* p) {
  T v;
  if (sizeof(T) % 8 == 0) {
    unsigned long long* d = reinterpret_cast<unsigned long long*>(&v);
    const volatile unsigned long long* s = reinterpret_cast<const volatile unsigned long long*>(p);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) / 8); ++k) d[k] = s[k];
  } else if (sizeof(T) % 4 == 0) {
    unsigned* d = reinterpret_cast<unsigned*>(&v);
    const volatile unsigned* s = reinterpret_cast<const volatile unsigned*>(p);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) / 4); ++k) d[k] = s[k];
  } else {
    unsigned char* d = reinterpret_cast<unsigned char*>(&v);
    const volatile unsigned char* s = reinterpret_cast<const volatile unsigned char*>(p);
#pragma unroll
    for (int k = 0; k < (int)sizeof(T); ++k) d[k] = s[k];
  }
  return v;
}

// -- warp shuffles of any trivially copyable type, word by word ------------------------------------
template <typename T>
struct words {
  static constexpr int N = (sizeof(T) + 3) / 4;
  unsigned w[N];
};
template <typename T>
__device__ __forceinline__ words<T> to_words(const T& v) {
  words<T> r;
#pragma unroll
  for (int k = 0; k < words<T>::N; ++k) r.w[k] = 0u;
  memcpy(r.w, &v, sizeof(T));
  return r;
}
template <typename T>
__device__ __forceinline__ T from_words(const words<T>& r) {
  T v;
  memcpy(&v, r.w, sizeof(T));
  return v;
}
template <typename T>
__device__ __forceinline__ T shfl(const T& v, int src) {
  words<T> r = to_words(v);
#pragma unroll
  for (int k = 0; k < words<T>::N; ++k) r.w[k] = __shfl_sync(0xffffffffu, r.w[k], src);
  return from_words<T>(r);
}
template <typename T>
__device__ __forceinline__ T shfl_up(const T& v, int delta) {
  words<T> r = to_words(v);
#pragma unroll
  for (int k = 0; k < words<T>::N; ++k) r.w[k] = __shfl_up_sync(0xffffffffu, r.w[k], delta);
  return from_words<T>(r);
}

// NaN test for the nan-ignoring scans (nancumsum/nancumprod replace NaN on load).
template <typename T>
__device__ __forceinline__ bool is_nan(T x) { return x != x; }
template <typename T>
__device__ __forceinline__ bool is_nan(complex<T> x) { return x.re != x.re || x.im != x.im; }

// Uninitialised shared storage for a value type that may have a constructor (complex).
template <typename T, int N>
struct alignas(16) shared_array {
  unsigned char raw[sizeof(T) * N];
  __device__ __forceinline__ T& operator[](int i) { return reinterpret_cast<T*>(raw)[i]; }
};

// -- flat_scan's tile status: value and flag in one 64-bit word ------------------------------------
// A tile's status is NW = ceil(sizeof(Acc) / 4) 64-bit words, word k = (flag << 32) | (32-bit chunk k
// of the value). Each word is written with one relaxed store and read with one relaxed load, so a
// reader sees a flag and the chunk beside it together: no fence, no second read. A tile's status goes
// EMPTY -> AGGREGATE -> INCLUSIVE (or EMPTY -> INCLUSIVE), so a reader that sees the same flag in
// all NW words has the value published with that flag; words with different flags mean "caught
// between two publications" and read as EMPTY (poll again).
__device__ __forceinline__ unsigned long long load_relaxed64(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed64(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

template <typename Acc>
struct tile_status {
  static constexpr int NW = words<Acc>::N;
  static __device__ __forceinline__ void publish(unsigned long long* s, long long p, const Acc& v, unsigned flag) {
    const words<Acc> r = to_words(v);
#pragma unroll
    for (int k = 0; k < NW; ++k) store_relaxed64(s + p * NW + k, ((unsigned long long)flag << 32) | r.w[k]);
  }
  static __device__ __forceinline__ unsigned read(const unsigned long long* s, long long p, Acc& v) {
    unsigned long long t[NW];
#pragma unroll
    for (int k = 0; k < NW; ++k) t[k] = load_relaxed64(s + p * NW + k);
    words<Acc> r;
    const unsigned f = (unsigned)(t[0] >> 32);
    bool same = true;
#pragma unroll
    for (int k = 0; k < NW; ++k) {
      r.w[k] = (unsigned)t[k];
      same = same && (unsigned)(t[k] >> 32) == f;
    }
    v = from_words<Acc>(r);
    return same ? f : (unsigned)EMPTY;
  }
};

// Exclusive prefix of tile `p` (p >= 1), computed by one warp; the result is valid in every lane.
// Windows of 32 * V tiles backwards: in window i, lane l reads the status of the tiles at distance
// d = 32 V i + 32 v + l + 1 (v < V), all in one round trip. A window whose tiles nearer than its
// nearest INCLUSIVE tile are all non-EMPTY ends the walk; a window of AGGREGATEs only is parked in
// shared memory (`park`, MAXW x V x 32 values, each lane its own) and the walk goes on, so a tile
// never waits for its neighbours' look-backs (Merrill & Garland). The warp then folds forward, from
// the inclusive prefix found through every aggregate in tile order, broadcasting each value with a
// shuffle (see Determinism above). With MAXW windows parked, the walk waits on the last window.
template <int V, int MAXW, typename Acc, class Op>
__device__ __forceinline__ Acc look_back(const Op& op, long long p, int lane, const unsigned long long* status,
                                         Acc* park) {
  int wi = 0;
  unsigned spins = 0;
  while (true) {
    Acc val[V];
    unsigned incl[V], empty[V];
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const long long q = p - 1 - 32LL * (V * wi + v) - lane;
      unsigned f = EMPTY;
      val[v] = Acc();
      if (q >= 0) f = tile_status<Acc>::read(status, q, val[v]);
      incl[v] = __ballot_sync(0xffffffffu, f == INCLUSIVE);
      empty[v] = __ballot_sync(0xffffffffu, f == EMPTY);
    }
    // Nearest INCLUSIVE (vs, L) and whether an EMPTY tile is nearer than it.
    int vs = V, L = 32;
    bool blocked = false;
#pragma unroll
    for (int v = 0; v < V; ++v) {
      if (vs == V) {
        if (incl[v] != 0u) {
          vs = v;
          L = __ffs(incl[v]) - 1;
          blocked = blocked || (empty[v] & ((1u << L) - 1u)) != 0u;
        } else {
          blocked = blocked || empty[v] != 0u;
        }
      }
    }
    if (!blocked) {
      if (vs < V) {
        Acc acc = Acc();
#pragma unroll
        for (int v = V - 1; v >= 0; --v) {
#pragma unroll
          for (int l = 31; l >= 0; --l) {
            const Acc t = shfl(val[v], l);
            if (v == vs && l == L) acc = t;
            else if (v < vs || (v == vs && l < L)) acc = op(acc, t);
          }
        }
        for (int wj = wi - 1; wj >= 0; --wj) {
#pragma unroll
          for (int v = V - 1; v >= 0; --v) {
            const Acc mine = park[(wj * V + v) * 32 + lane];
#pragma unroll
            for (int l = 31; l >= 0; --l) acc = op(acc, shfl(mine, l));
          }
        }
        return acc;
      }
      if (wi + 1 < MAXW) {
#pragma unroll
        for (int v = 0; v < V; ++v) park[(wi * V + v) * 32 + lane] = val[v];
        ++wi;
        spins = 0;
        continue;
      }
    }
    if (++spins > CUARRAY_SCAN_SPINS) __nanosleep(32);
  }
}

// Segmented combine: (a, fa) followed by (b, fb). A set flag means "a segment starts in here",
// so what came before does not reach past it.
template <class Op, typename Acc>
__device__ __forceinline__ void seg_combine(const Op& op, Acc& a, bool& fa, const Acc& b, bool fb) {
  a = fb ? b : op(a, b);
  fa = fa || fb;
}

// Tile vector loads and stores, evict-first (.cs: the data is touched once) when
// CUARRAY_SCAN_STREAMING is set and the vector is 4, 8 or 16 bytes.
template <typename T, int K>
__device__ __forceinline__ vec<T, K> load_tile_vec(const T* p) {
  typedef vec<T, K> V;
  V v;
  if (CUARRAY_SCAN_STREAMING && sizeof(V) == 16) {
    const uint4 w = __ldcs(reinterpret_cast<const uint4*>(p));
    memcpy(&v, &w, 16);
  } else if (CUARRAY_SCAN_STREAMING && sizeof(V) == 8) {
    const uint2 w = __ldcs(reinterpret_cast<const uint2*>(p));
    memcpy(&v, &w, 8);
  } else if (CUARRAY_SCAN_STREAMING && sizeof(V) == 4) {
    const unsigned w = __ldcs(reinterpret_cast<const unsigned*>(p));
    memcpy(&v, &w, 4);
  } else {
    v = *reinterpret_cast<const V*>(p);
  }
  return v;
}
template <typename T, int K>
__device__ __forceinline__ void store_tile_vec(T* p, const vec<T, K>& v) {
  typedef vec<T, K> V;
  if (CUARRAY_SCAN_STREAMING && sizeof(V) == 16) {
    uint4 w;
    memcpy(&w, &v, 16);
    __stcs(reinterpret_cast<uint4*>(p), w);
  } else if (CUARRAY_SCAN_STREAMING && sizeof(V) == 8) {
    uint2 w;
    memcpy(&w, &v, 8);
    __stcs(reinterpret_cast<uint2*>(p), w);
  } else if (CUARRAY_SCAN_STREAMING && sizeof(V) == 4) {
    unsigned w;
    memcpy(&w, &v, 4);
    __stcs(reinterpret_cast<unsigned*>(p), w);
  } else {
    *reinterpret_cast<V*>(p) = v;
  }
}

// ---------------------------------------------------------------------------------------------------
// flat_scan: block of 32 * WARPS threads, tile of 32 * WARPS * K * J elements. Warp w owns the contiguous run
// [w * J * 32K, (w + 1) * J * 32K) of the tile, walked in J rows of 32K elements; in each row lane
// l owns K consecutive elements, loaded and stored with one K-wide vector access (coalesced: the
// warp's accesses in a row are one contiguous 32K-element run). In-register scan of the K
// elements, a shuffle scan across the warp per row, a carry across rows, then the warps' totals
// through shared memory, then the tile prefix from the look-back.
template <int K, int J, bool SEG, bool EXCL, typename In, typename Out, typename Acc, class Op, class Load>
__device__ __forceinline__ void flat_scan(const Op& op, const Load& load, const Acc identity,
                                          const In* __restrict__ in, Out* __restrict__ out,
                                          const long long n, const long long seg, unsigned* ticket,
                                          unsigned long long* status) {
  constexpr int WARPS = CUARRAY_SCAN_WARPS, V = CUARRAY_SCAN_SPAN, ROW = 32 * K, TILE = 32 * WARPS * K * J;
  __shared__ unsigned s_pid;
  __shared__ shared_array<Acc, WARPS> s_wtot;
  __shared__ bool s_wflag[WARPS];
  __shared__ shared_array<Acc, 1> s_prefix;
  __shared__ shared_array<Acc, LOOKBACK_WINDOWS * V * 32> s_park;
  const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  long long p = blockIdx.x;
  if (!CUARRAY_SCAN_TILE_ORDER) {
    if (tid == 0) s_pid = ticket != nullptr ? atomicAdd(ticket, 1u) : blockIdx.x;
    __syncthreads();
    p = s_pid;
  }
  const long long tile0 = p * TILE;
  const bool full = tile0 + TILE <= n;

  Acc x[J][K];
  bool h[J][K];  // SEG: a segment starts at or before this element (within what was combined so far)
#pragma unroll
  for (int j = 0; j < J; ++j) {
    const long long i0 = tile0 + (long long)(w * J + j) * ROW + lane * K;
    if (full) {
      const vec<In, K> v = load_tile_vec<In, K>(in + i0);
#pragma unroll
      for (int k = 0; k < K; ++k) x[j][k] = load(v.v[k]);
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) x[j][k] = i0 + k < n ? load(in[i0 + k]) : Acc();
    }
    if (SEG) {
      const long long r = i0 % seg;  // position of element i0 in its segment
      const long long first = r == 0 ? 0 : seg - r;
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const long long d = k - first;
        h[j][k] = d >= 0 && (d == 0 || (seg <= K && d % seg == 0));
      }
    }
    // In-register inclusive scan of the lane's K elements.
#pragma unroll
    for (int k = 1; k < K; ++k) {
      if (SEG) {
        if (!h[j][k]) x[j][k] = op(x[j][k - 1], x[j][k]);
        h[j][k] = h[j][k] || h[j][k - 1];
      } else {
        x[j][k] = op(x[j][k - 1], x[j][k]);
      }
    }
  }

  // Across the warp, row by row, with a carry from the warp's earlier rows.
  Acc carry = Acc();
  bool cflag = false;
#pragma unroll
  for (int j = 0; j < J; ++j) {
    Acc t = x[j][K - 1];
    bool tf = SEG ? h[j][K - 1] : false;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const Acc u = shfl_up(t, d);
      const bool uf = SEG ? (bool)__shfl_up_sync(0xffffffffu, (int)tf, d) : false;
      if (lane >= d) {
        if (SEG) { t = tf ? t : op(u, t); tf = tf || uf; }
        else t = op(u, t);
      }
    }
    const Acc e = shfl_up(t, 1);  // lane's exclusive prefix within the row
    const bool ef = SEG ? (bool)__shfl_up_sync(0xffffffffu, (int)tf, 1) : false;
    Acc pre = e;
    bool pf = ef;
    bool has_pre = lane > 0;
    if (j > 0) {
      if (lane > 0) { pre = carry; pf = cflag; if (SEG) seg_combine(op, pre, pf, e, ef); else pre = op(carry, e); }
      else { pre = carry; pf = cflag; }
      has_pre = true;
    }
    if (has_pre) {
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (SEG) { if (!h[j][k]) x[j][k] = op(pre, x[j][k]); h[j][k] = h[j][k] || pf; }
        else x[j][k] = op(pre, x[j][k]);
      }
    }
    const Acc rt = shfl(t, 31);
    const bool rf = SEG ? (bool)__shfl_sync(0xffffffffu, (int)tf, 31) : false;
    if (j == 0) { carry = rt; cflag = rf; }
    else if (SEG) seg_combine(op, carry, cflag, rt, rf);
    else carry = op(carry, rt);
  }
  if (lane == 0) { s_wtot[w] = carry; s_wflag[w] = cflag; }
  __syncthreads();

  // Exclusive prefix of the warp within the tile.
  Acc W = Acc();
  bool Wf = false;
  if (w > 0) {
    W = s_wtot[0];
    Wf = s_wflag[0];
    for (int q = 1; q < w; ++q) {
      if (SEG) seg_combine(op, W, Wf, s_wtot[q], s_wflag[q]);
      else W = op(W, s_wtot[q]);
    }
  }
  // Warp 0: the tile's aggregate, its publication, the look-back.
  if (w == 0 && status != nullptr) {
    Acc A = s_wtot[0];
    bool Af = s_wflag[0];
    for (int q = 1; q < WARPS; ++q) {
      if (SEG) seg_combine(op, A, Af, s_wtot[q], s_wflag[q]);
      else A = op(A, s_wtot[q]);
    }
    // A tile containing a segment start knows its inclusive value already.
    const bool known = p == 0 || (SEG && Af);
    if (lane == 0) tile_status<Acc>::publish(status, p, A, known ? INCLUSIVE : AGGREGATE);
    if (p > 0) {
      const Acc E = look_back<V, LOOKBACK_WINDOWS>(op, p, lane, status, &s_park[0]);
      if (lane == 0) {
        if (!known) tile_status<Acc>::publish(status, p, op(E, A), INCLUSIVE);
        s_prefix[0] = E;
      }
    }
  }
  __syncthreads();

  // Prefix of everything before this warp's run: G = E (+) W.
  const bool hasE = p > 0;
  Acc G = W;
  bool has_g = w > 0;
  if (hasE) {
    const Acc E = s_prefix[0];
    if (w == 0) G = E;
    else if (!(SEG && Wf)) G = op(E, W);
    has_g = true;
  }
  if (has_g) {
#pragma unroll
    for (int j = 0; j < J; ++j) {
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (!SEG || !h[j][k]) x[j][k] = op(G, x[j][k]);
      }
    }
  }

  if (EXCL) {
    // Shift by one element: each element takes its predecessor's inclusive value; the first
    // element of the sequence (of each segment) takes the identity. Rows from last to first so
    // that row j-1 is still inclusive when row j reads it.
#pragma unroll
    for (int j = J - 1; j >= 0; --j) {
      Acc prev = shfl_up(x[j][K - 1], 1);
      if (j > 0) {
        const Acc last = shfl(x[j - 1][K - 1], 31);
        if (lane == 0) prev = last;
      } else if (lane == 0) {
        prev = has_g ? G : identity;
      }
#pragma unroll
      for (int k = K - 1; k > 0; --k) x[j][k] = x[j][k - 1];
      x[j][0] = prev;
      if (SEG) {
        const long long i0 = tile0 + (long long)(w * J + j) * ROW + lane * K;
#pragma unroll
        for (int k = 0; k < K; ++k) {
          if ((i0 + k) % seg == 0) x[j][k] = identity;
        }
      }
    }
  }

#pragma unroll
  for (int j = 0; j < J; ++j) {
    const long long i0 = tile0 + (long long)(w * J + j) * ROW + lane * K;
    if (full) {
      vec<Out, K> v;
#pragma unroll
      for (int k = 0; k < K; ++k) v.v[k] = cast<Out>(x[j][k]);
      store_tile_vec<Out, K>(out + i0, v);
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (i0 + k < n) out[i0 + k] = cast<Out>(x[j][k]);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// column_scan: (outer, n, inner) C-contiguous, scanned along n; column c = (c / inner, c % inner).
// Block = 32 columns (the lanes) x 8 warps; warp w scans rows [chunk*8R + w*R, +R) of its lane's
// column in registers (R independent loads in flight per thread). Status entries are per
// (chunk, column); warp 0's lanes publish and look back, each for its own column, over a window of
// D chunks, folding forward like look_back above.
template <int R, typename In, typename Out, typename Acc, class Op, class Load>
__device__ __forceinline__ void column_scan(const Op& op, const Load& load, const In* __restrict__ in,
                                            Out* __restrict__ out, const long long n, const long long inner,
                                            const long long ncols, const long long ncolblocks, unsigned* ticket,
                                            unsigned* flags, Acc* aggs, Acc* incls) {
  constexpr int WARPS = 8, CHUNK = WARPS * R, D = 8;
  __shared__ unsigned s_pid;
  __shared__ shared_array<Acc, WARPS * 32> s_tot;
  __shared__ int s_cnt[WARPS];
  __shared__ shared_array<Acc, 32> s_prefix;
  const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  if (tid == 0) s_pid = ticket != nullptr ? atomicAdd(ticket, 1u) : blockIdx.x;
  __syncthreads();
  const long long pid = s_pid;
  const long long chunk = pid / ncolblocks, cb = pid - chunk * ncolblocks;
  const long long c = cb * 32 + lane;
  const bool valid = c < ncols;
  long long base = 0;
  if (valid) {
    const long long o = c / inner;
    base = o * n * inner + (c - o * inner);
  }
  const long long r0 = chunk * CHUNK + (long long)w * R;
  long long left = n - r0;
  const int cnt = left <= 0 ? 0 : (left >= R ? R : (int)left);
  Acc x[R];
#pragma unroll
  for (int r = 0; r < R; ++r) x[r] = (valid && r < cnt) ? load(in[base + (r0 + r) * inner]) : Acc();
#pragma unroll
  for (int r = 1; r < R; ++r) {
    if (r < cnt) x[r] = op(x[r - 1], x[r]);
  }
  if (cnt > 0) s_tot[w * 32 + lane] = x[cnt - 1];
  if (lane == 0) s_cnt[w] = cnt;
  __syncthreads();

  // Exclusive prefix of this warp's rows within the chunk (warps with rows are a prefix 0..m-1).
  Acc W = Acc();
  const bool hasW = w > 0 && cnt > 0;
  if (hasW) {
    W = s_tot[lane];
    for (int q = 1; q < w; ++q) W = op(W, s_tot[q * 32 + lane]);
  }
  const bool multi = flags != nullptr;
  if (w == 0 && valid && multi) {
    Acc A = s_tot[lane];
    for (int q = 1; q < WARPS; ++q) {
      if (s_cnt[q] > 0) A = op(A, s_tot[q * 32 + lane]);
    }
    const long long s = chunk * ncols + c;
    if (chunk == 0) { store_value(incls + s, A); store_release(flags + s, INCLUSIVE); }
    else {
      store_value(aggs + s, A);
      store_release(flags + s, AGGREGATE);
      Acc E = Acc();
      unsigned spins = 0;
      while (true) {
        unsigned f[D];
#pragma unroll
        for (int d = 0; d < D; ++d) {
          const long long q = chunk - 1 - d;
          f[d] = q >= 0 ? load_acquire(flags + q * ncols + c) : (unsigned)EMPTY;
        }
        int L = -1;
        bool stop = false;
#pragma unroll
        for (int d = 0; d < D; ++d) {
          if (!stop) {
            if (f[d] == INCLUSIVE) { L = d; stop = true; }
            else if (f[d] == EMPTY) stop = true;
          }
        }
        if (L >= 0) {
#pragma unroll
          for (int d = D - 1; d >= 0; --d) {
            const long long q = (chunk - 1 - d) * ncols + c;
            if (d == L) E = load_value(incls + q);
            else if (d < L) E = op(E, load_value(aggs + q));
          }
          break;
        }
        if (++spins > 4) __nanosleep(64);
      }
      store_value(incls + s, op(E, A));
      store_release(flags + s, INCLUSIVE);
      s_prefix[lane] = E;
    }
  }
  __syncthreads();
  if (!valid || cnt == 0) return;
  Acc G = W;
  bool has_g = hasW;
  if (multi && chunk > 0) {
    const Acc E = s_prefix[lane];
    G = hasW ? op(E, W) : E;
    has_g = true;
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (r < cnt) out[base + (r0 + r) * inner] = cast<Out>(has_g ? op(G, x[r]) : x[r]);
  }
}

// ---------------------------------------------------------------------------------------------------
// serial_scan: thread per column, every row in order: NumPy's own evaluation order.
template <typename In, typename Out, typename Acc, class Op, class Load>
__device__ __forceinline__ void serial_scan(const Op& op, const Load& load, const In* __restrict__ in,
                                            Out* __restrict__ out, const long long n, const long long inner,
                                            const long long ncols) {
  const long long stride = (long long)blockDim.x * gridDim.x;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < ncols; c += stride) {
    const long long o = c / inner;
    const In* src = in + o * n * inner + (c - o * inner);
    Out* dst = out + o * n * inner + (c - o * inner);
    Acc acc = load(src[0]);
    dst[0] = cast<Out>(acc);
#pragma unroll 4
    for (long long r = 1; r < n; ++r) {
      acc = op(acc, load(src[r * inner]));
      dst[r * inner] = cast<Out>(acc);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// segment_reduce: ufunc.reduceat, a thread per output element (outer x nidx x inner) folding its
// slice of the axis in order (NumPy's order): [idx[i], idx[i + 1]) where idx[i + 1] is larger,
// the one element idx[i] where it is not, and [idx[i], n) for the last index. The indices are
// checked on the host (0 <= idx < n).
template <typename In, typename Out, typename Acc, class Op, class Load>
__device__ __forceinline__ void segment_reduce(const Op& op, const Load& load, const In* __restrict__ in,
                                               Out* __restrict__ out, const long long* __restrict__ idx,
                                               const long long nidx, const long long n, const long long inner,
                                               const long long total) {
  const long long stride = (long long)blockDim.x * gridDim.x;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < total; c += stride) {
    const long long t = c / inner, j = c - t * inner;
    const long long o = t / nidx, i = t - o * nidx;
    const long long s = idx[i];
    const long long e = i + 1 == nidx ? n : (idx[i + 1] > s ? idx[i + 1] : s + 1);
    const In* src = in + (o * n + s) * inner + j;
    Acc acc = load(src[0]);
#pragma unroll 4
    for (long long r = 1; r < e - s; ++r) acc = op(acc, load(src[r * inner]));
    out[c] = cast<Out>(acc);
  }
}

// segment_reduce_blocks: the same outputs, a block of BLOCK threads per output, for an associative
// and commutative operator (scan.py's ASSOCIATIVE) and long slices: thread t folds elements t,
// t + BLOCK, ... of its slice in order (coalesced where inner == 1), then the block folds the
// partials pairwise (partial t with t + w, w = 1, 2, 4, ...). A fixed order: the same bits on every
// run, the last bits of a float result may differ from NumPy's in-order fold.
template <int BLOCK, typename In, typename Out, typename Acc, class Op, class Load>
__device__ __forceinline__ void segment_reduce_blocks(const Op& op, const Load& load, const In* __restrict__ in,
                                                      Out* __restrict__ out, const long long* __restrict__ idx,
                                                      const long long nidx, const long long n,
                                                      const long long inner, const long long total) {
  __shared__ __align__(16) unsigned char raw[BLOCK * sizeof(Acc)];  // (raw: Acc may have constructors)
  Acc* part = reinterpret_cast<Acc*>(raw);
  const int t = threadIdx.x;
  for (long long c = blockIdx.x; c < total; c += gridDim.x) {
    const long long q = c / inner, j = c - q * inner;
    const long long o = q / nidx, i = q - o * nidx;
    const long long s = idx[i];
    const long long e = i + 1 == nidx ? n : (idx[i + 1] > s ? idx[i + 1] : s + 1);
    const long long len = e - s;
    const In* src = in + (o * n + s) * inner + j;
    if (t < len) {
      Acc acc = load(src[t * inner]);
      for (long long r = t + BLOCK; r < len; r += BLOCK) acc = op(acc, load(src[r * inner]));
      part[t] = acc;
    }
    __syncthreads();
    const long long m = len < BLOCK ? len : BLOCK;
    for (int w = 1; w < m; w *= 2) {
      if ((t & (2 * w - 1)) == 0 && t + w < m) part[t] = op(part[t], part[t + w]);
      __syncthreads();
    }
    if (t == 0) out[c] = cast<Out>(part[0]);
    __syncthreads();
  }
}

}  // namespace scan
}  // namespace cuarray
