// Variant 4 of the separable filters' tile passes ("tile-pipe", cuarray/scipy/ndimage/_filter_tile.py):
// filter_tile.cu's kernels with a software-pipelined next tile. Python appends this file after
// filter_tile.cu (its helpers: tile_window_start, tile_taps_left, tile_step, tile_slot, tile_put,
// tile_chunk_inside, tile_chunk_cols, tile_rows_halo, the swizzles).
//
// Why: variant 3's blocks stage a tile, wait for it, compute, store, and end; an SM's memory
// traffic in flight is whatever its blocks that happen to be staging have asked for (~1.4 of 6
// rows blocks at a time at 4096^2 sigma 4: ~12 KB an SM, where ~20 KB is needed to stream at the
// copy rate), so the 33-tap passes ran 0.6-0.7 of it. Here a block walks a contiguous range of
// tiles (a grid of at most the blocks that fit on the device at once: one wave) and, before it
// computes tile i, issues the copies of tile i + 1 into a second shared buffer with cp.async
// (sm_80+: global to shared without registers, so the kernels keep variant 3's register count):
// every block has a tile's bytes in flight while it does its multiply-adds. The strided pass also
// keeps the rows the next tile of its column strip shares with this one (size + 4 of them: 29%
// of a 33-tap float32 tile) and copies them in shared memory instead of reading them again.
//
// Same values staged at the same slots as variant 3 and the same tile_window: the same sums in the
// same order, so the same bits. cp.async moves bytes, so it is used where the input type is the
// accumulator's (no conversion) and 4 or 8 bytes wide; other types stage through registers as
// variant 3 does (no overlap within the block, the rest of the scheme unchanged).

namespace cuarray_ndimage {

__device__ __forceinline__ void pipe_cp16(const void* smem, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(smem)), "l"(g)
               : "memory");
}
template <int B>
__device__ __forceinline__ void pipe_cp(const void* smem, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"((unsigned)__cvta_generic_to_shared(smem)), "l"(g),
               "n"(B)
               : "memory");
}
// A thread's copies issued since the last commit form a group; wait_group 1 returns once every
// group but the newest is complete (this thread's copies only: a barrier then publishes them).
__device__ __forceinline__ void pipe_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void pipe_wait_prev() { asm volatile("cp.async.wait_group 1;" ::: "memory"); }

template <typename T, typename A>
struct pipe_async {
  static constexpr bool value = tile_same<T, A>::value && (sizeof(T) == 4 || sizeof(T) == 8);
};

// tile_window<A, OP, R, VEC, (R + 4) / 4, PAD> with its remainder (the last 0 .. (R + 4) / 4 - 1
// groups of four taps and the 0-3 taps after them) unrolled, each exit from it with its own copy of
// the last taps, so the window's registers never merge: ptxas's own remainder loop needed 16 bytes
// of local memory in the rows kernel at 40 registers. The same taps in the same order.
template <typename A, int OP, int R, bool VEC, bool PAD>
__device__ __forceinline__ void pipe_window(const A* __restrict__ s, int stride, const A* __restrict__ ws, int size,
                                            A* acc, int b = 0) {
  constexpr int U = (R + 4) / 4;
  A win[R + 4];
  tile_window_start<A, OP, R, VEC, PAD>(s, stride, b, win, acc);
  int j = 0;
#pragma unroll 1
  for (; j + 4 * U <= size; j += 4 * U) {
#pragma unroll
    for (int u = 0; u < U; ++u) tile_step<A, OP, R, VEC, PAD>(s, stride, ws, j + 4 * u, win, acc, b);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    if (u == U - 1 || j + 4 > size) {
      tile_taps_left<A, OP, R>(ws, j, size, win, acc);
      break;
    }
    tile_step<A, OP, R, VEC, PAD>(s, stride, ws, j, win, acc, b);
    j += 4;
  }
  if (OP == OP_UNIFORM) {
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = acc[r] / (A)size;
  }
}

// The positions inside the line of one rows tile row (p0 .. p0 + pitch - 1 of the line at src) into
// their slots (tile_slot); the halo (slots of positions outside the line) is tile_rows_halo's.
// ASYNC: where the line and the tile row start 16-byte aligned alike (vin, s = 0), 16-byte copies
// (one copy an element for the chunks crossing a line's end); otherwise one copy an element, a
// warp's 32 consecutive (uniform_filter(5)'s offset 2 is such a pass). Otherwise variant 3's
// staging with K = 2 chunks a thread loaded into registers, then stored (variant 3's 4 spilled in
// the narrow types' kernels).
template <typename T, typename A, typename I, bool ASYNC, bool PAD>
__device__ __forceinline__ void pipe_stage_row(const T* __restrict__ src, I p0, I n, A* row, int pitch, int tx,
                                               int tpl, bool vin, A cval) {
  constexpr int VW = 16 / sizeof(T), K = 2;
  const int s = (int)(p0 & (I)(VW - 1));
  const I a0 = p0 - s;
  const int nch = (s + pitch + VW - 1) / VW;
  if (ASYNC && vin && s == 0) {
    for (int k = tx; k < nch; k += tpl) {
      const I P = a0 + (I)k * VW;
      const int q0 = k * VW;
      if (P >= 0 && P + VW <= n && q0 + VW <= pitch) {
        pipe_cp16(row + tile_slot<A, PAD>(q0), src + P);
      } else {
#pragma unroll
        for (int e = 0; e < VW; ++e) {
          if (q0 + e < pitch && P + e >= 0 && P + e < n)
            pipe_cp<sizeof(T)>(row + tile_slot<A, PAD>(q0 + e), src + P + e);
        }
      }
    }
  } else if (ASYNC) {
    for (int q = tx; q < pitch; q += tpl) {
      const I P = p0 + q;
      if (P >= 0 && P < n) pipe_cp<sizeof(T)>(row + tile_slot<A, PAD>(q), src + P);
    }
  } else {
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
          else tile_chunk_inside<T, I>(src, P, n, c[u], cv[u]);
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

// filter1d_rows with VAR 3's tile, staging, halo and output scheme, over tiles[b tiles / G, (b + 1)
// tiles / G) for block b of G (tile t: line group t / segs, piece t mod segs; tiles = line groups x
// segs), two tile buffers. 5 blocks an SM where A is 4 bytes (48 registers; at variant 3's 40 and 6
// blocks ptxas spilled 4-16 bytes a tile in the tap loop's remainder), 4 where it is 8 bytes (64),
// 3 for the 1- and 2-byte min/max (85: bool spilled at 64). _filter_tile's per_sm says the same.
template <typename T, typename O, typename A, int OP, typename I, int R, int VAR>
__global__ void __launch_bounds__(256, sizeof(A) == 4 ? 5 : sizeof(A) == 8 ? 4 : 3)
filter1d_rows_pipe(const T* __restrict__ in, O* __restrict__ out, const A* __restrict__ w, int size, I n, I lines,
                   int ltpl, I segs, int pitch, I offset, int mode, A cval, int vflags, I tiles) {
  extern __shared__ __align__(16) unsigned char tile_smem[];
  constexpr int LR = R == 8 ? 3 : 2;
  constexpr bool PAD = sizeof(A) >= 4, ASYNC = pipe_async<T, A>::value;
  const int tid = threadIdx.x;
  const int tpl = 1 << ltpl, lpb = 256 >> ltpl, seg = R << ltpl, lseg = ltpl + LR;
  const int ly = tid >> ltpl, tx = tid & (tpl - 1);
  const long long G = gridDim.x, b = blockIdx.x;
  const I t0 = (I)(b * (long long)tiles / G), t1 = (I)((b + 1) * (long long)tiles / G);
  if (t0 >= t1) return;  // the whole block
  A* ws = reinterpret_cast<A*>(tile_smem);
  const int wbytes = tile_weights<A, OP>(w, ws, size);
  const int tbytes = tile_round16(lpb * pitch * (int)sizeof(A));
  A* bufs = reinterpret_cast<A*>(tile_smem + wbytes);
  O* os = reinterpret_cast<O*>(tile_smem + wbytes + 2 * tbytes);
  const bool vin = vflags & 1;
  constexpr int CH = R * (int)sizeof(O) / 16, CHS = CH < 1 ? 1 : CH;
  const bool ovec = CH >= 1 && CH <= 2 && R * (int)sizeof(O) % 16 == 0 && (vflags & 2);
  {
    const I g = t0 / segs, line = g * lpb + ly, p0 = (t0 - g * segs) * seg - offset;
    if (line < lines)
      pipe_stage_row<T, A, I, ASYNC, PAD>(in + line * n, p0, n, bufs + ly * pitch, pitch, tx, tpl, vin, cval);
  }
  pipe_commit();
  int odd = 0;  // which buffer holds tile t
  for (I t = t0; t < t1; ++t, odd ^= 1) {
    A* tile = reinterpret_cast<A*>(reinterpret_cast<unsigned char*>(bufs) + odd * tbytes);
    if (t + 1 < t1) {
      A* next = reinterpret_cast<A*>(reinterpret_cast<unsigned char*>(bufs) + (odd ^ 1) * tbytes);
      const I g = (t + 1) / segs, line = g * lpb + ly, p0 = (t + 1 - g * segs) * seg - offset;
      if (line < lines)
        pipe_stage_row<T, A, I, ASYNC, PAD>(in + line * n, p0, n, next + ly * pitch, pitch, tx, tpl, vin, cval);
    }
    pipe_commit();
    pipe_wait_prev();
    __syncthreads();
    const I g = t / segs, seg0 = (t - g * segs) * seg, line = g * lpb + ly;
    A* row = tile + ly * pitch;
    if (seg0 - offset < 0 || seg0 - offset + pitch > n) {  // the same for the whole block
      if (line < lines) tile_rows_halo<T, A, I, PAD>(in + line * n, seg0 - offset, n, row, pitch, tx, tpl, mode, cval);
      __syncthreads();
    }
    if (line < lines && seg0 + tx * R < n) {
      A acc[R];
      if (PAD) pipe_window<A, OP, R, true, PAD>(row, 1, ws, size, acc, tx * R);
      else pipe_window<A, OP, R, true, false>(row + tx * R, 1, ws, size, acc);
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
    // (past this barrier no thread reads this tile buffer: the next iteration stages tile t + 2 into
    // it before its own barrier; it writes os only after that barrier, which every thread reaches
    // after these stores)
    if (ovec) {
      constexpr int LCH = CHS == 2 ? 1 : 0, VO = 16 / sizeof(O);
      const int lcpl = ltpl + LCH;
      const uint4* o = reinterpret_cast<const uint4*>(os);
      for (int i = tid; i < lpb << lcpl; i += 256) {
        const int y = i >> lcpl, ci = i & ((1 << lcpl) - 1);
        const I ln = g * lpb + y, c = seg0 + (I)ci * VO;
        if (ln < lines && c < n)
          *reinterpret_cast<uint4*>(out + ln * n + c) = o[(y << lcpl) + tile_oswizzle<CHS>(ci >> LCH, ci & (CHS - 1))];
      }
    } else {
      for (int i = tid; i < lpb * seg; i += 256) {
        const int y = i >> lseg, p = i & (seg - 1);
        const I ln = g * lpb + y, c = seg0 + p;
        if (ln < lines && c < n) out[ln * n + c] = os[y * seg + tile_swizzle<R>(p >> LR, p & (R - 1))];
      }
    }
  }
}

// Tile rows [y0, y1) of a strided tile (tile row y: row map(rs + y) of the plane, columns c0 ..
// c0 + 31) as variant 1-3 stage them: a row's mapping once a 16-byte chunk, cval rows, zeros past
// the inner extent. ASYNC: the chunks as cp.async copies where the rows start 16-byte aligned
// (vin), else one copy an element (a warp a tile row: 32 consecutive); otherwise K = 2 chunks a
// thread in registers (variant 1-3's 8 spilled in the converting kernels).
template <typename T, typename A, typename I, bool ASYNC>
__device__ __forceinline__ void pipe_stage_cols(const T* __restrict__ plane, I rs, I n, I inner, I c0, int mode,
                                                A cval, A* tile, int y0, int y1, int tid, bool vin) {
  constexpr int BW = 32, VW = 16 / sizeof(T), CPR = BW / VW, K = 2;
  const int k1 = y1 * CPR;
  if (ASYNC && !vin) {
    for (int k = y0 * BW + tid; k < y1 * BW; k += 256) {
      const I m = map_index<I>(rs + k / BW, n, mode);
      const I cc = c0 + k % BW;
      if (m < 0) tile[k] = cval;
      else if (cc < inner) pipe_cp<sizeof(T)>(tile + k, plane + m * inner + cc);
      else tile[k] = A(0);
    }
  } else if (ASYNC) {
    for (int k = y0 * CPR + tid; k < k1; k += 256) {
      const int y = k / CPR, x = (k % CPR) * VW;
      const I m = map_index<I>(rs + y, n, mode);
      const I cc = c0 + x;
      A* d = tile + y * BW + x;
      if (m < 0) {
#pragma unroll
        for (int e = 0; e < VW; ++e) d[e] = cval;
      } else if (cc + VW <= inner) {
        pipe_cp16(d, plane + m * inner + cc);
      } else {
#pragma unroll
        for (int e = 0; e < VW; ++e) {
          if (cc + e < inner) pipe_cp<sizeof(T)>(d + e, plane + m * inner + cc + e);
          else d[e] = A(0);
        }
      }
    }
  } else {
    for (int k0 = y0 * CPR + tid; k0 < k1; k0 += K * 256) {
      tile_vec<T> c[K];
      unsigned cv[K];
#pragma unroll
      for (int u = 0; u < K; ++u) {
        const int k = k0 + u * 256;
        cv[u] = 0;
        if (k < k1) {
          const I m = map_index<I>(rs + k / CPR, n, mode);
          tile_chunk_cols<T, I>(plane, m, c0 + (k % CPR) * VW, inner, vin, c[u], cv[u]);
        }
      }
#pragma unroll
      for (int u = 0; u < K; ++u) {
        const int k = k0 + u * 256;
        if (k < k1) tile_put<T, A>(tile, k * VW, k1 * VW, c[u], cv[u], cval);
      }
    }
  }
}

// filter1d_cols with variant 2-3's tile and tap loop over tiles [b tiles / G, (b + 1) tiles / G) for
// block b of G, tile t: column strip t / rblocks (plane o = strip / cblocks, columns (strip mod
// cblocks) 32 ..), rows (t mod rblocks) 8 R ..: a block walks down its strips. The next tile of the
// same strip shares size + 4 tile rows with this one (rows 8 R .. of this tile are its rows 0 ..):
// those are copied in shared memory, the other 8 R rows come from global memory, in flight while
// this tile is computed. A tile starting a strip (or a block's range) stages all of its rows.
// 4 blocks an SM (64 registers) where A is 4 bytes or R is 4, else 3 (85: 8-byte accumulators at
// R = 8 and the narrow types' register staging spilled at 64). _filter_tile's per_sm says the same.
template <typename T, typename O, typename A, int OP, typename I, int R, int VAR>
__global__ void __launch_bounds__(256, sizeof(A) == 4 || R == 4 ? 4 : 3)
filter1d_cols_pipe(const T* __restrict__ in, O* __restrict__ out, const A* __restrict__ w, int size, I n, I inner,
                   I rblocks, I cblocks, I offset, int mode, A cval, int vflags, I tiles) {
  extern __shared__ __align__(16) unsigned char tile_smem[];
  constexpr int BW = 32, BH = 8, RB = BH * R;
  constexpr bool ASYNC = pipe_async<T, A>::value;
  const int tr = RB + size + 4, ov = size + 4;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BW + tx;
  const long long G = gridDim.x, b = blockIdx.x;
  const I t0 = (I)(b * (long long)tiles / G), t1 = (I)((b + 1) * (long long)tiles / G);
  if (t0 >= t1) return;  // the whole block
  A* ws = reinterpret_cast<A*>(tile_smem);
  const int wbytes = tile_weights<A, OP>(w, ws, size);
  A* bufs = reinterpret_cast<A*>(tile_smem + wbytes);  // two tiles of tr x 32 (16-byte multiples)
  const bool vin = vflags & 1;
  {
    const I strip = t0 / rblocks, rb = t0 - strip * rblocks, o = strip / cblocks, cb = strip - o * cblocks;
    pipe_stage_cols<T, A, I, ASYNC>(in + o * n * inner, rb * RB - offset, n, inner, cb * BW, mode, cval, bufs, 0, tr,
                                    tid, vin);
  }
  pipe_commit();
  int it = 0;
  for (I t = t0; t < t1; ++t, ++it) {
    A* tile = bufs + (it & 1) * tr * BW;
    A* next = bufs + ((it + 1) & 1) * tr * BW;
    const I strip = t / rblocks, rb = t - strip * rblocks;
    // the next tile: in this strip (its first ov rows are this tile's last) or starting one
    const bool more = t + 1 < t1, same = more && rb + 1 < rblocks;
    if (more) {
      const I s1 = same ? strip : strip + 1, rb1 = same ? rb + 1 : 0, o1 = s1 / cblocks, cb1 = s1 - o1 * cblocks;
      pipe_stage_cols<T, A, I, ASYNC>(in + o1 * n * inner, rb1 * RB - offset, n, inner, cb1 * BW, mode, cval, next,
                                      same ? ov : 0, tr, tid, vin);
    }
    pipe_commit();
    pipe_wait_prev();
    __syncthreads();
    if (same) {  // rows RB .. tr - 1 to the next buffer's rows 0 .. ov - 1 (not among its copies in flight)
      const uint4* s = reinterpret_cast<const uint4*>(tile + RB * BW);
      uint4* d = reinterpret_cast<uint4*>(next);
      for (int i = tid; i < ov * BW * (int)sizeof(A) / 16; i += BW * BH) d[i] = s[i];
    }
    const I o = strip / cblocks, cb = strip - o * cblocks;
    const I r = rb * RB + ty * R, c = cb * BW + tx;
    if (r < n && c < inner) {
      A acc[R];
      tile_window<A, OP, R, false, (R + 4) / 4>(tile + ty * R * BW + tx, BW, ws, size, acc);
      O* dst = out + o * n * inner + r * inner + c;
#pragma unroll
      for (int k = 0; k < R; ++k) {
        if (r + k < n) dst[k * inner] = to_out<O>::go(acc[k]);
      }
    }
    __syncthreads();
  }
}

}  // namespace cuarray_ndimage
