// Variant 5 ("tile-rows-short", cuarray/scipy/ndimage/_filter_tile.py): the last-axis pass for
// short lines (n <= _filter_tile.SHORT_MAX). Python appends it after filter_tile.cu (tile_vec,
// tile_ld4, tile_ld2, tile_weights, tile_round16, tile_taps_left, tile_swizzle) and filters.cu
// (map_index, combine, to_out).
//
// Why: variant 3 stages 8 lines of 256 a block in pieces of 32 threads x 8 outputs; every block
// holds both ends of its lines, so every block waits on a second barrier for the halo fill, and
// 12% of the staged values are halo. Here a piece of TPL threads covers a WHOLE line (TPL R >= n),
// R = 16 outputs a thread (8 for 8-byte accumulators): 16 lines of 256 a block of 256 threads, a
// window of 20 values for 16 outputs (4 taps: one 16-byte window load and one broadcast weight
// load for 64 fused multiply-adds, half variant 3's shared-memory traffic a tap). The line's
// values come in with 16-byte loads (all of a thread's chunks in flight), the halo (tile slots of
// positions outside the line) through the mode straight from the line in global memory (L1: the
// same block has just loaded those sectors), written to slots the chunks do not touch: one barrier
// before the taps, one before the coalesced output stores, none for the halo.
//
// The sums are filter1d's and variant 3's: acc[r] over j ascending, the same fused multiply-adds
// on the same values (tile_window's order, copied in short_window), so the same bits.
//
// Tile row slot of position q (q = line position + offset): 16-byte unit u of the row at
// u xor ((u / 8) mod 4). A thread's window starts R values (64 bytes, 4 units) after its
// neighbour's, so a quarter warp's 16-byte window loads read units c + 4 t, t < 8: unswizzled two
// of the 8 16-byte bank groups (4 wavefronts), swizzled all 8 (one). A unit stays whole.

namespace cuarray_ndimage {

template <typename A>
__device__ __forceinline__ int short_slot(int q) {
  constexpr int P = sizeof(A) >= 16 ? 1 : 16 / (int)sizeof(A);
  return q ^ ((((q / P) >> 3) & 3) * P);
}

// the four values at slots of positions q .. q + 3 (q a multiple of four)
template <typename A>
__device__ __forceinline__ void short_ld4(const A* s, int q, A* v) {
  if (sizeof(A) == 4) {
    tile_ld4<A>(s + short_slot<A>(q), v);
  } else if (sizeof(A) == 8) {
    tile_ld2<A>(s + short_slot<A>(q), v);
    tile_ld2<A>(s + short_slot<A>(q + 2), v + 2);
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = s[short_slot<A>(q + i)];
  }
}

// tile_window (PAD, UNROLL (R + 4) / 4) with short_slot's layout: acc[r] = combine over j < size
// of the values at positions b + r + j.
template <typename A, int OP, int R, int UNROLL = (R + 4) / 4>
__device__ __forceinline__ void short_window(const A* __restrict__ s, int b, const A* __restrict__ ws, int size,
                                             A* acc) {
  A win[R + 4];
#pragma unroll
  for (int i = 0; i < R + 4; i += 4) short_ld4<A>(s, b + i, win + i);
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = (OP == OP_MIN || OP == OP_MAX) ? win[r] : combine<A, OP>::init();
  int j = 0;
#pragma unroll UNROLL
  for (; j + 4 <= size; j += 4) {
    A w4[4] = {A(0), A(0), A(0), A(0)};
    if (OP == OP_CORRELATE) tile_ld4<A>(ws + j, w4);
#pragma unroll
    for (int jj = 0; jj < 4; ++jj) {
#pragma unroll
      for (int r = 0; r < R; ++r) combine<A, OP>::add(acc[r], win[r + jj], w4[jj]);
    }
#pragma unroll
    for (int i = 0; i < R; ++i) win[i] = win[i + 4];
    short_ld4<A>(s, b + j + 4 + R, win + R);
  }
  tile_taps_left<A, OP, R>(ws, j, size, win, acc);
  if (OP == OP_UNIFORM) {
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = acc[r] / (A)size;
  }
}

// The chunk's elements at slots of positions q0 .. q0 + VW - 1 below lim (the line's), as A; one
// 16-byte store where T is A, q0 is a multiple of VW and the chunk is whole.
template <typename T, typename A>
__device__ __forceinline__ void short_put(A* row, int q0, int lim, const tile_vec<T>& c) {
  constexpr int VW = 16 / sizeof(T);
  if (tile_same<T, A>::value && (q0 & (VW - 1)) == 0 && q0 + VW <= lim) {
    const unsigned a = (unsigned)__cvta_generic_to_shared(row + short_slot<A>(q0));
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a),
                 "r"(c.u.x), "r"(c.u.y), "r"(c.u.z), "r"(c.u.w)
                 : "memory");
    return;
  }
#pragma unroll
  for (int e = 0; e < VW; ++e) {
    if (q0 + e < lim) row[short_slot<A>(q0 + e)] = (A)c.v[e];
  }
}

// Where a thread's 16-byte output chunk h (of CH = 1, 2 or 4) sits in the staging area: chunk
// t CH + (h xor ((t / (8 / CH)) mod CH)): a quarter warp's 8 stores of chunk h hit 8 bank groups,
// 8 consecutive chunks read back are a permutation of 8 consecutive slots.
template <int CH>
__device__ __forceinline__ int short_oslot(int t, int h) {
  return t * CH + (h ^ ((t / (8 / CH)) & (CH - 1)));
}

// Block: blockDim.x = lpb << ltpl threads, lines blockIdx.x lpb .. + lpb - 1 (contiguous in memory),
// a line a piece of tpl = 2**ltpl threads making R outputs each. Tile rows of `pitch` >= tpl R +
// size + 4 slots; slot q holds position q - offset through the mode. vflags: as filter1d_rows'.
template <typename T, typename O, typename A, int OP, typename I, int R, int VAR>
__global__ void __launch_bounds__(256, 4)
filter1d_rows_short(const T* __restrict__ in, O* __restrict__ out, const A* __restrict__ w, int size, I n, I lines,
                    int ltpl, int pitch, I offset, int mode, A cval, int vflags) {
  extern __shared__ __align__(16) unsigned char tile_smem[];
  const int tid = threadIdx.x;
  const int tpl = 1 << ltpl, lpb = (int)blockDim.x >> ltpl, seg = R << ltpl;
  const int ly = tid >> ltpl, tx = tid & (tpl - 1);
  const int nn = (int)n, off = (int)offset;
  A* ws = reinterpret_cast<A*>(tile_smem);
  const int wbytes = tile_weights<A, OP>(w, ws, size);
  A* tile = reinterpret_cast<A*>(tile_smem + wbytes);
  O* os = reinterpret_cast<O*>(tile_smem + wbytes + tile_round16(lpb * pitch * (int)sizeof(A)));
  const I line0 = (I)blockIdx.x * lpb, line = line0 + ly;
  A* row = tile + ly * pitch;
  if (line < lines) {
    const T* src = in + line * n;
    if (vflags & 1) {
      // chunk k: positions k VW .. k VW + VW - 1 (the line starts 16-byte aligned), slots + offset
      constexpr int VW = 16 / sizeof(T), K = 4;
      const int nch = (nn + VW - 1) / VW;
      for (int k0 = tx; k0 < nch; k0 += K * tpl) {
        tile_vec<T> c[K];
#pragma unroll
        for (int u = 0; u < K; ++u) {
          const int k = k0 + u * tpl;
          if (k < nch) {
            if ((k + 1) * VW <= nn) {
              c[u].u = __ldg(reinterpret_cast<const uint4*>(src + k * VW));
            } else {
#pragma unroll
              for (int e = 0; e < VW; ++e) c[u].v[e] = k * VW + e < nn ? src[k * VW + e] : T(0);
            }
          }
        }
#pragma unroll
        for (int u = 0; u < K; ++u) {
          const int k = k0 + u * tpl;
          if (k < nch) short_put<T, A>(row, k * VW + off, nn + off, c[u]);
        }
      }
    } else {
#pragma unroll 4
      for (int p = tx; p < nn; p += tpl) row[short_slot<A>(p + off)] = (A)src[p];
    }
    // the halo: slots [0, offset) and [n + offset, pitch), through the mode, from the line
    for (int h = tx; h < pitch - nn; h += tpl) {
      const int q = h < off ? h : nn + h;
      const I m = map_index<I>((I)(q - off), n, mode);
      row[short_slot<A>(q)] = m < 0 ? cval : (A)src[m];
    }
  }
  __syncthreads();
  constexpr int CH = R * (int)sizeof(O) / 16;
  constexpr int CHS = CH < 1 ? 1 : CH > 4 ? 4 : CH, VO = 16 / sizeof(O);
  const bool ovec = CH >= 1 && CH <= 4 && R * (int)sizeof(O) % 16 == 0 && (vflags & 2);
  if (line < lines && tx * R < nn) {
    A acc[R];
    short_window<A, OP, R>(row, tx * R, ws, size, acc);
    // (the output staging of filter1d_rows and filter1d_rows_pipe with short_oslot's chunk slots:
    // the three as one shared device function changed their SASS, scripts/filter_tile_sass.py)
    if (ovec) {
      uint4* o = reinterpret_cast<uint4*>(os + ly * seg);
#pragma unroll
      for (int h = 0; h < CHS; ++h) {
        tile_vec<O> v;
#pragma unroll
        for (int e = 0; e < VO; ++e) v.v[e] = to_out<O>::go(acc[h * VO + e < R ? h * VO + e : 0]);
        o[short_oslot<CHS>(tx, h)] = v.u;
      }
    } else {
      O* o = os + ly * seg;
#pragma unroll
      for (int r = 0; r < R; ++r) o[tile_swizzle<R>(tx, r)] = to_out<O>::go(acc[r]);
    }
  }
  __syncthreads();
  // the block's lines are one contiguous stretch of the output
  const I nl = lines - line0 < (I)lpb ? lines - line0 : (I)lpb;
  O* dst = out + line0 * n;
  if (ovec) {
    // 16-byte chunks of VO outputs: cpl = n / VO of them a line (n sizeof(O) a multiple of 16)
    constexpr int LCH = CHS == 4 ? 2 : CHS == 2 ? 1 : 0;
    const int cpl = nn / VO, total = (int)nl * cpl;
    const uint4* o = reinterpret_cast<const uint4*>(os);
    for (int i = tid; i < total; i += (int)blockDim.x) {
      const int y = i / cpl, ci = i - y * cpl;
      reinterpret_cast<uint4*>(dst)[i] = o[y * (seg / VO) + short_oslot<CHS>(ci >> LCH, ci & (CHS - 1))];
    }
    return;
  }
  constexpr int LR = R == 16 ? 4 : R == 8 ? 3 : 2;
  const int total = (int)nl * nn;
  for (int i = tid; i < total; i += (int)blockDim.x) {
    const int y = i / nn, p = i - y * nn;
    dst[i] = os[y * seg + tile_swizzle<R>(p >> LR, p & (R - 1))];
  }
}

}  // namespace cuarray_ndimage
