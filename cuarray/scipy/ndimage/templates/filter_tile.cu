// One pass of a separable filter along one axis with the input staged in shared memory
// (cuarray/scipy/ndimage/_filter_tile.py). Python prepends boundary.cuh and filters.cu (to_out,
// combine, the OP_ codes), with CUARRAY_DEVICE defined as a device function.
//
// Why: filters.cu's filter1d makes one output a thread and reads `size` inputs for it through
// L1/L2: along the last axis two L1 wavefronts a tap, along a strided axis every input element is
// fetched from L2 `size` times (the blocks that share a column run on different SMs), which held
// gaussian_filter(sigma=4) of a 4096^2 float32 image to ~0.2 of the copy rate. Here a block loads
// its stretch of the input once, coalesced, with the boundary mode applied while loading (one
// map_index an element, not one a tap), and each thread makes R consecutive outputs along the
// axis from a window of R + 4 values held in registers: four taps cost one new group of four
// values and (correlate) one broadcast load of four weights for 4 R multiply-adds.
//
// The sums are filter1d's, in its order (j ascending, acc += w[j] * v as one fused multiply-add;
// min/max compare in the same order; the window's first value is compared with itself once,
// which changes nothing), on the same values (cval or the input converted to A), so the results
// are the same bits as filter1d's.
//
// filter1d_rows: the filtered axis is the last one (contiguous). The array is `lines` lines of n.
//   A block of 256 threads is LPB = 256 / TPL line pieces of TPL threads; a piece makes
//   SEG = TPL * R outputs of one line. Tile row: positions seg0 - offset + q, q < pitch
//   (pitch >= SEG + size + 4: the window reads up to 4 values past the last tap). Outputs are
//   staged in shared memory (swizzled, so that neither the staging nor the read-back has bank
//   conflicts) and stored with coalesced writes: a thread's R consecutive outputs stored directly
//   would touch a 32-byte sector a store each.
// filter1d_cols: the filtered axis is strided (inner > 1). The array is (outer, n, inner). A
//   block of 32 x 8 threads covers 32 columns (contiguous, coalesced loads and stores) and 8 R
//   rows; thread (x, y) makes rows y R .. y R + R - 1 of column x. Tile: TR = 8 R + size + 4
//   rows of 32 columns; a warp reads a tile row's 32 consecutive values (no bank conflicts).

namespace cuarray_ndimage {

template <typename A>
__device__ __forceinline__ void tile_ld4(const A* p, A* v) {
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = p[i];
}
template <>
__device__ __forceinline__ void tile_ld4<float>(const float* p, float* v) {
  const float4 u = *reinterpret_cast<const float4*>(p);
  v[0] = u.x; v[1] = u.y; v[2] = u.z; v[3] = u.w;
}
template <>
__device__ __forceinline__ void tile_ld4<double>(const double* p, double* v) {
  const double2 u = reinterpret_cast<const double2*>(p)[0], t = reinterpret_cast<const double2*>(p)[1];
  v[0] = u.x; v[1] = u.y; v[2] = t.x; v[3] = t.y;
}

__device__ __forceinline__ int tile_round16(int bytes) { return (bytes + 15) & ~15; }

// VAR >= 1 (plans "tile-vec", "tile-vec-u"): the staging loads go 16 bytes at a time where the
// input is 16-byte aligned (a chunk of 16 / sizeof(T) elements), a thread issues all of its K
// chunks' loads before it stores any of them to shared memory (K * 16 bytes in flight a thread,
// not one scalar load waiting on the next), and a chunk wholly inside the array skips the mode
// mapping. VAR 0 maps every element and stores it before the next load (the loop ptxas unrolled
// by 4 with at most 3 loads in flight in the rows kernel, one in the cols kernel).
template <typename T, typename U> struct tile_same { static constexpr bool value = false; };
template <typename T> struct tile_same<T, T> { static constexpr bool value = true; };

template <typename T>
union tile_vec {
  uint4 u;
  T v[16 / sizeof(T)];
};

// A chunk's 16 bytes and the mask of its elements that read cval (their bytes are 0).
struct tile_gathered {
  uint4 u;
  unsigned cv;
};

// The chunk at positions P .. P + VW - 1 of a line of n, each through the mode. Out of line: only
// the few chunks at a line's ends come here, and inlined (every mode, VW elements, K chunks a
// thread) it tripled the kernels' code and their NVRTC time.
template <typename T, typename I>
__device__ __noinline__ tile_gathered tile_gather(const T* __restrict__ src, I P, I n, int mode) {
  constexpr int VW = 16 / sizeof(T);
  tile_vec<T> c;
  unsigned cv = 0;
#pragma unroll
  for (int e = 0; e < VW; ++e) {
    const I m = map_index<I>(P + e, n, mode);
    c.v[e] = T(0);
    if (m < 0) cv |= 1u << e;
    else c.v[e] = src[m];
  }
  return tile_gathered{c.u, cv};
}

// Where tile slot q lies (VAR 3's rows, PAD): 16-byte unit u of a row at unit u xor ((u / 8) mod 2).
// A thread's window starts R values (32 bytes, two units) after its neighbour's, so the 8 threads
// of a quarter warp's 16-byte window loads read units c, c + 2, .. c + 14: 4 of the 8 16-byte bank
// groups, two wavefronts a load, and with the weights' broadcast 9 wavefronts (9 cycles of the
// SM's shared memory) for 32 fused multiply-adds (8 cycles of its FMA pipes). Units 8 apart now
// differ in parity: 8 bank groups, 5 wavefronts. Same footprint; a unit stays whole (16-byte
// chunks and, for 4-byte A, groups of four values at a multiple of four stay contiguous).
template <typename A, bool PAD>
__device__ __forceinline__ int tile_slot(int q) {
  constexpr int G = 128 / sizeof(A), P = 16 / sizeof(A);
  return PAD ? q ^ ((q & G) ? P : 0) : q;
}

// tile_ld4 of the four values at slots q .. q + 3 (q a multiple of four) of a PAD row: for 8-byte A
// two units, which the swizzle may swap.
template <typename A>
__device__ __forceinline__ void tile_ld2(const A* p, A* v) {
  v[0] = p[0];
  v[1] = p[1];
}
template <>
__device__ __forceinline__ void tile_ld2<double>(const double* p, double* v) {
  const double2 u = *reinterpret_cast<const double2*>(p);
  v[0] = u.x; v[1] = u.y;
}
template <typename A, bool PAD>
__device__ __forceinline__ void tile_ld4p(const A* s, int q, A* v) {
  if (PAD && sizeof(A) == 8) {
    tile_ld2<A>(s + tile_slot<A, PAD>(q), v);
    tile_ld2<A>(s + tile_slot<A, PAD>(q + 2), v + 2);
  } else {
    tile_ld4<A>(s + tile_slot<A, PAD>(q), v);
  }
}

// The chunk into dst[q0 .. q0 + VW) (those of them in [0, lim)), converted to A, cval where cv says.
// One 16-byte store where T is A, nothing reads cval, q0 is a multiple of VW and the chunk is whole.
// PAD: the slots as tile_slot lays them.
template <typename T, typename A, bool PAD = false>
__device__ __forceinline__ void tile_put(A* dst, int q0, int lim, const tile_vec<T>& c, unsigned cv, A cval) {
  constexpr int VW = 16 / sizeof(T);
  if (tile_same<T, A>::value && cv == 0 && (q0 & (VW - 1)) == 0 && q0 >= 0 && q0 + VW <= lim) {
    // (a plain uint4 store came out of ptxas as four 4-byte stores: 4-way bank conflicts)
    const unsigned a = (unsigned)__cvta_generic_to_shared(dst + tile_slot<A, PAD>(q0));
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a),
                 "r"(c.u.x), "r"(c.u.y), "r"(c.u.z), "r"(c.u.w)
                 : "memory");
    return;
  }
#pragma unroll
  for (int e = 0; e < VW; ++e) {
    const int q = q0 + e;
    if (q >= 0 && q < lim) dst[tile_slot<A, PAD>(q)] = (cv >> e) & 1u ? cval : (A)c.v[e];
  }
}

// The chunk at positions P .. P + VW - 1 of a line of n without the mode (variants 3-4's rows): the
// elements inside the line loaded (no call, all in flight), the others 0 with their bits set in cv
// (the halo, which tile_rows_halo fills after a barrier).
template <typename T, typename I>
__device__ __forceinline__ void tile_chunk_inside(const T* __restrict__ src, I P, I n, tile_vec<T>& c, unsigned& cv) {
  constexpr int VW = 16 / sizeof(T);
#pragma unroll
  for (int e = 0; e < VW; ++e) {
    c.v[e] = T(0);
    if (P + e >= 0 && P + e < n) c.v[e] = src[P + e];
    else cv |= 1u << e;
  }
}

// The chunk at columns cc .. cc + VW - 1 of row m (map_index's, -1: cval) of a strided pass's plane
// (rows of inner): cv all set where m < 0, one 16-byte load where the rows start 16-byte aligned
// (vin) and the chunk is whole, else element by element with zeros past inner.
template <typename T, typename I>
__device__ __forceinline__ void tile_chunk_cols(const T* __restrict__ plane, I m, I cc, I inner, bool vin,
                                                tile_vec<T>& c, unsigned& cv) {
  constexpr int VW = 16 / sizeof(T);
  if (m < 0) {
    cv = ~0u;
  } else if (vin && cc + VW <= inner) {
    c.u = __ldg(reinterpret_cast<const uint4*>(plane + m * inner + cc));
  } else {
#pragma unroll
    for (int e = 0; e < VW; ++e) c.v[e] = cc + e < inner ? plane[m * inner + cc + e] : T(0);
  }
}

// Taps j .. j + 3 of tile_window, then the window moves on by four values.
template <typename A, int OP, int R, bool VEC, bool PAD>
__device__ __forceinline__ void tile_step(const A* __restrict__ s, int stride, const A* __restrict__ ws, int j,
                                          A* win, A* acc, int b) {
  A w4[4] = {A(0), A(0), A(0), A(0)};
  if (OP == OP_CORRELATE) tile_ld4<A>(ws + j, w4);
#pragma unroll
  for (int jj = 0; jj < 4; ++jj) {
#pragma unroll
    for (int r = 0; r < R; ++r) combine<A, OP>::add(acc[r], win[r + jj], w4[jj]);
  }
#pragma unroll
  for (int i = 0; i < R; ++i) win[i] = win[i + 4];
  if (VEC) {
    if (PAD) tile_ld4p<A, PAD>(s, b + j + 4 + R, win + R);
    else tile_ld4<A>(s + j + 4 + R, win + R);
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) win[R + i] = s[(j + 4 + R + i) * stride];
  }
}

// tile_window's first R + 4 values win(0 .. R + 3) and the accumulators' start (min/max: the first
// value, compared with itself once more by the first tap).
template <typename A, int OP, int R, bool VEC, bool PAD>
__device__ __forceinline__ void tile_window_start(const A* __restrict__ s, int stride, int b, A* win, A* acc) {
  if (VEC) {
#pragma unroll
    for (int i = 0; i < R + 4; i += 4) {
      if (PAD) tile_ld4p<A, PAD>(s, b + i, win + i);
      else tile_ld4<A>(s + i, win + i);
    }
  } else {
#pragma unroll
    for (int i = 0; i < R + 4; ++i) win[i] = s[i * stride];
  }
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = (OP == OP_MIN || OP == OP_MAX) ? win[r] : combine<A, OP>::init();
}

// The taps j .. size - 1 (fewer than four) left after a window's groups of four, win holding the
// values from tap j on.
template <typename A, int OP, int R>
__device__ __forceinline__ void tile_taps_left(const A* __restrict__ ws, int j, int size, const A* win, A* acc) {
  const int left = size - j;
#pragma unroll
  for (int jj = 0; jj < 3; ++jj) {
    if (jj < left) {
      const A wj = OP == OP_CORRELATE ? ws[j + jj] : A(0);
#pragma unroll
      for (int r = 0; r < R; ++r) combine<A, OP>::add(acc[r], win[r + jj], wj);
    }
  }
}

// acc[r] = combine over j < size of win(r + j), where win(k) = s[k * stride] (the thread's window
// in the tile) and, for OP_CORRELATE, ws the weights (shared, 16-byte aligned). PAD (VEC only):
// win(k) = s[tile_slot(b + k)], s the padded tile row.
template <typename A, int OP, int R, bool VEC, int UNROLL = 1, bool PAD = false>
__device__ __forceinline__ void tile_window(const A* __restrict__ s, int stride, const A* __restrict__ ws, int size,
                                            A* acc, int b = 0) {
  A win[R + 4];
  tile_window_start<A, OP, R, VEC, PAD>(s, stride, b, win, acc);
  int j = 0;
  // Four taps: one group of four new values a step. UNROLL > 1 unrolls the loop by the window's
  // groups, (R + 4) / 4, after which the window is back in the registers it started in, so ptxas
  // can drop the moves win[i] = win[i + 4]; UNROLL 1 leaves the unrolling to ptxas.
  if (UNROLL > 1) {
#pragma unroll UNROLL
    for (; j + 4 <= size; j += 4) tile_step<A, OP, R, VEC, PAD>(s, stride, ws, j, win, acc, b);
  } else {
    for (; j + 4 <= size; j += 4) tile_step<A, OP, R, VEC, PAD>(s, stride, ws, j, win, acc, b);
  }
  tile_taps_left<A, OP, R>(ws, j, size, win, acc);
  if (OP == OP_UNIFORM) {
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = acc[r] / (A)size;
  }
}

// The weights into shared memory (OP_CORRELATE only); returns the bytes they take there.
template <typename A, int OP>
__device__ __forceinline__ int tile_weights(const A* __restrict__ w, A* ws, int size) {
  if (OP != OP_CORRELATE) return 0;
  for (int i = threadIdx.x + threadIdx.y * blockDim.x; i < size; i += blockDim.x * blockDim.y) ws[i] = w[i];
  return tile_round16(((size + 3) & ~3) * (int)sizeof(A));
}

// Where a thread's output r sits in the staging area: t R + ((r + t / 4) mod R). Four threads'
// outputs fill 32 4-byte banks (R = 8) or 16 8-byte pairs (R = 4); the skew puts the next four
// threads' output r in other banks, so a warp's 32 stores of output r hit 32 banks, and a warp
// reading 32 consecutive outputs (8 threads' worth, a permutation of 32 consecutive slots) too.
template <int R>
__device__ __forceinline__ int tile_swizzle(int t, int r) { return t * R + ((r + (t >> 2)) & (R - 1)); }

// Where a thread's 16-byte output chunk h (of CH = R sizeof(O) / 16, 1 or 2) sits in the staging
// area (VAR >= 1): chunk t CH + (h xor ((t / 4) mod CH)). A quarter warp's 8 stores of chunk h hit
// 8 different 16-byte bank groups, and 8 consecutive chunks read back are a permutation of 8
// consecutive slots: no bank conflicts either way.
template <int CH>
__device__ __forceinline__ int tile_oswizzle(int t, int h) { return t * CH + (h ^ ((t >> 2) & (CH - 1))); }

// Variant 3-4's rows halo: the slots (tile_slot) of a tile row's positions outside the line (p0 ..
// p0 + pitch - 1 of the line at src) through the mode: from the tile where the mapped position is
// staged in it (every mode but wrap at a line's ends when the line is longer than a tile row; a line
// that fits in one row always), else from global memory. Reads only slots of positions inside the
// line, writes only the others: no race.
template <typename T, typename A, typename I, bool PAD>
__device__ __forceinline__ void tile_rows_halo(const T* __restrict__ src, I p0, I n, A* row, int pitch, int tx,
                                               int tpl, int mode, A cval) {
  const int left = p0 < 0 ? (int)(-p0 < (I)pitch ? -p0 : (I)pitch) : 0;
  const int right = p0 + pitch > n ? (int)(n - p0 > (I)left ? n - p0 : (I)left) : pitch;
  for (int h = tx; h < left + pitch - right; h += tpl) {
    const int q = h < left ? h : right + (h - left);
    const I m = map_index<I>(p0 + q, n, mode);
    row[tile_slot<A, PAD>(q)] =
        m < 0 ? cval : m >= p0 && m < p0 + pitch ? row[tile_slot<A, PAD>((int)(m - p0))] : (A)src[m];
  }
}

// VAR: 0 the first tile ("tile"), 1 vector staging and stores ("tile-vec"), 2 that and the tap
// loop unrolled by (R + 4) / 4 so the window needs no register moves ("tile-vec-u"), 3 that with
// the rows' halo filled from the tile after a barrier ("tile-rows3"): VAR 1-2 map a chunk that
// crosses a line's end in tile_gather, a call whose loads the warp waits on before the chunks after
// it load, once at each end of a line (two waits more a block for 256-long lines, one for longer);
// VAR 3 also swizzles the tile rows (tile_slot) and asks for 6 blocks an SM where A is 4 bytes
// (40 registers, not 48: 6 blocks of 256, not 5).
// vflags (VAR >= 1): bit 0 the input's lines start 16-byte aligned (the pointer and n sizeof(T)),
// bit 1 the output's (16-byte output stores).
template <typename T, typename O, typename A, int OP, typename I, int R, int VAR>
__global__ void __launch_bounds__(256, VAR >= 3 && sizeof(A) <= 4 ? 6 : 0)
filter1d_rows(const T* __restrict__ in, O* __restrict__ out, const A* __restrict__ w, int size, I n, I lines,
              int ltpl, I segs, int pitch, I offset, int mode, A cval, int vflags) {
  extern __shared__ __align__(16) unsigned char tile_smem[];
  constexpr int LR = R == 8 ? 3 : 2;
  const int tid = threadIdx.x;
  const int tpl = 1 << ltpl, lpb = 256 >> ltpl, seg = R << ltpl, lseg = ltpl + LR;
  const int ly = tid >> ltpl, tx = tid & (tpl - 1);
  // VAR 3: tile rows swizzled (tile_slot) where A is 4 or 8 bytes (16-byte window loads)
  constexpr bool PAD = VAR >= 3 && sizeof(A) >= 4;
  A* ws = reinterpret_cast<A*>(tile_smem);
  const int wbytes = tile_weights<A, OP>(w, ws, size);
  A* tile = reinterpret_cast<A*>(tile_smem + wbytes);
  O* os = reinterpret_cast<O*>(tile_smem + wbytes + tile_round16(lpb * pitch * (int)sizeof(A)));
  const I g = (I)blockIdx.x / segs, sidx = (I)blockIdx.x - g * segs;
  const I line = g * lpb + ly, seg0 = sidx * seg;
  A* row = tile + ly * pitch;
  if (line < lines) {
    const T* src = in + line * n;
    const I p0 = seg0 - offset;
    if (VAR == 0) {
      for (int q = tx; q < pitch; q += tpl) {
        const I m = map_index<I>(p0 + q, n, mode);
        row[q] = m < 0 ? cval : (A)src[m];
      }
    } else {
      // chunk k: positions a0 + k VW .., tile slots k VW - s ..; the row's 16-byte-aligned chunks
      // K: enough chunks for a 4096-long line's share (~2 a thread) in one round; fewer where T is narrow
      constexpr int VW = 16 / sizeof(T), K = sizeof(T) >= 4 ? 4 : 2;
      const int s = (int)(p0 & (I)(VW - 1));
      const I a0 = p0 - s;
      const int nch = (s + pitch + VW - 1) / VW;
      const bool vin = vflags & 1;
      for (int k0 = tx; k0 < nch; k0 += K * tpl) {
        tile_vec<T> c[K];
        unsigned cv[K];
#pragma unroll
        for (int u = 0; u < K; ++u) {
          const int k = k0 + u * tpl;
          cv[u] = 0;
          if (k < nch) {
            const I P = a0 + (I)k * VW;
            if (vin && P >= 0 && P + VW <= n) c[u].u = __ldg(reinterpret_cast<const uint4*>(src + P));
            else if (VAR >= 3) {
              tile_chunk_inside<T, I>(src, P, n, c[u], cv[u]);  // the halo after the barrier below
            } else {
              const tile_gathered t = tile_gather<T, I>(src, P, n, mode);
              c[u].u = t.u;
              cv[u] = t.cv;
            }
          }
        }
#pragma unroll
        for (int u = 0; u < K; ++u) {
          const int k = k0 + u * tpl;
          if (k < nch) tile_put<T, A, PAD>(row, k * VW - s, pitch, c[u], cv[u], cval);
        }
      }
    }
  }
  __syncthreads();
  if (VAR >= 3 && (seg0 - offset < 0 || seg0 - offset + pitch > n)) {  // the same for the whole block
    if (line < lines) tile_rows_halo<T, A, I, PAD>(in + line * n, seg0 - offset, n, row, pitch, tx, tpl, mode, cval);
    __syncthreads();
  }
  constexpr int CH = R * (int)sizeof(O) / 16, CHS = CH < 1 ? 1 : CH;
  const bool ovec = VAR >= 1 && CH >= 1 && CH <= 2 && R * (int)sizeof(O) % 16 == 0 && (vflags & 2);
  if (line < lines && seg0 + tx * R < n) {
    A acc[R];
    if (PAD) tile_window<A, OP, R, true, (R + 4) / 4, PAD>(row, 1, ws, size, acc, tx * R);
    else tile_window<A, OP, R, true, VAR >= 2 ? (R + 4) / 4 : 1>(row + tx * R, 1, ws, size, acc);
    if (ovec) {
      constexpr int VO = 16 / sizeof(O);
      uint4* o = reinterpret_cast<uint4*>(os + ly * seg);
#pragma unroll
      for (int h = 0; h < CHS; ++h) {
        tile_vec<O> v;
#pragma unroll
        for (int e = 0; e < VO; ++e) v.v[e] = to_out<O>::go(acc[h * VO + e < R ? h * VO + e : 0]);
        o[tile_oswizzle<CHS>(tx, h)] = v.u;
      }
    } else {
      O* o = os + ly * seg;
#pragma unroll
      for (int r = 0; r < R; ++r) o[tile_swizzle<R>(tx, r)] = to_out<O>::go(acc[r]);
    }
  }
  __syncthreads();
  if (ovec) {
    // 16-byte chunks of VO outputs: cpl = seg / VO = tpl CH of them a line piece
    constexpr int LCH = CHS == 2 ? 1 : 0, VO = 16 / sizeof(O);
    const int lcpl = ltpl + LCH;
    const uint4* o = reinterpret_cast<const uint4*>(os);
    for (int i = tid; i < lpb << lcpl; i += 256) {
      const int y = i >> lcpl, ci = i & ((1 << lcpl) - 1);
      const I ln = g * lpb + y, c = seg0 + (I)ci * VO;
      if (ln < lines && c < n)
        *reinterpret_cast<uint4*>(out + ln * n + c) = o[(y << lcpl) + tile_oswizzle<CHS>(ci >> LCH, ci & (CHS - 1))];
    }
    return;
  }
  for (int i = tid; i < lpb * seg; i += 256) {
    const int y = i >> lseg, p = i & (seg - 1);
    const I ln = g * lpb + y, c = seg0 + p;
    if (ln < lines && c < n) out[ln * n + c] = os[y * seg + tile_swizzle<R>(p >> LR, p & (R - 1))];
  }
}

template <typename T, typename O, typename A, int OP, typename I, int R, int VAR>
__global__ void __launch_bounds__(256)
filter1d_cols(const T* __restrict__ in, O* __restrict__ out, const A* __restrict__ w, int size, I n, I inner,
              I rblocks, I cblocks, I offset, int mode, A cval, int vflags) {
  extern __shared__ __align__(16) unsigned char tile_smem[];
  constexpr int BW = 32, BH = 8;
  const int tr = BH * R + size + 4;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BW + tx;
  A* ws = reinterpret_cast<A*>(tile_smem);
  const int wbytes = tile_weights<A, OP>(w, ws, size);
  A* tile = reinterpret_cast<A*>(tile_smem + wbytes);
  const I q = (I)blockIdx.x / cblocks, cb = (I)blockIdx.x - q * cblocks;
  const I o = q / rblocks, rb = q - o * rblocks;
  const I r0 = rb * (BH * R), c0 = cb * BW;
  const T* plane = in + o * n * inner;
  if (VAR == 0) {
    for (int i = tid; i < tr * BW; i += BW * BH) {
      const int y = i >> 5, x = i & (BW - 1);
      const I c = c0 + x;
      A v = A(0);
      if (c < inner) {
        const I m = map_index<I>(r0 - offset + y, n, mode);
        v = m < 0 ? cval : (A)plane[m * inner + c];
      }
      tile[i] = v;
    }
  } else {
    // chunk k: tile row k / CPR, columns (k mod CPR) VW ..; a row's mode mapping once a chunk
    // K: a 33-tap tile's chunks (5-7 a thread for 4- and 8-byte T) in one round; fewer where T is narrow
    constexpr int VW = 16 / sizeof(T), CPR = BW / VW, K = sizeof(T) >= 4 ? 8 : sizeof(T) == 2 ? 4 : 2;
    const int nch = tr * CPR;
    const bool vin = vflags & 1;
    for (int k0 = tid; k0 < nch; k0 += K * BW * BH) {
      tile_vec<T> c[K];
      unsigned cv[K];
#pragma unroll
      for (int u = 0; u < K; ++u) {
        const int k = k0 + u * BW * BH;
        cv[u] = 0;
        if (k < nch) {
          const I m = map_index<I>(r0 - offset + k / CPR, n, mode);
          tile_chunk_cols<T, I>(plane, m, c0 + (k % CPR) * VW, inner, vin, c[u], cv[u]);
        }
      }
#pragma unroll
      for (int u = 0; u < K; ++u) {
        const int k = k0 + u * BW * BH;
        if (k < nch) tile_put<T, A>(tile, k * VW, tr * BW, c[u], cv[u], cval);
      }
    }
  }
  __syncthreads();
  const I r = r0 + ty * R, c = c0 + tx;
  if (r >= n || c >= inner) return;
  A acc[R];
  tile_window<A, OP, R, false, VAR >= 2 ? (R + 4) / 4 : 1>(tile + ty * R * BW + tx, BW, ws, size, acc);
  O* dst = out + o * n * inner + r * inner + c;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    if (r + k < n) dst[k * inner] = to_out<O>::go(acc[k]);
  }
}

}  // namespace cuarray_ndimage
