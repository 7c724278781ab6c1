// cuarray cdist/pdist, the euclidean family: d = |a|^2 + |b|^2 - 2 a.b, clamped at 0, or its root,
// for a BM x BN tile of (rows of A) x (rows of B), with the products a.b on the FP64 tensor cores
// (mma.sync m16n8kKS .f64, sm_90) and the distances written from the accumulators: one pass over the
// result. cuBLAS's product followed by an elementwise epilogue writes the products, reads them back
// and writes the distances (3 passes of 8 bytes a distance), and cuBLASLt has no epilogue for this.
// cuarray/scipy/spatial/_sqdist_tiles.py launches it; _sqdist_plan.py sizes it.
//
// A and B are row-major with k (a multiple of KC, zero-padded by the caller) doubles a row and
// 16-byte aligned rows; na/nb are the rows' squared norms. Tiles are numbered along B first
// (tile / tiles_n: the tile row of A), so the blocks resident at once share their rows of A and
// sweep B, which stays in L2. Rows past m or n load the last row (their results are not stored).
//
// A block is (BM / WARP_M) x (BN / WARP_N) warps, each owning a WARP_M x WARP_N piece of the tile
// as m16n8 accumulators. k goes through shared memory KC at a time by cp.async, two stages deep.
//
// Where the expanded form cancels (s <= tau (|a|^2 + |b|^2), tau from _sqdist_plan.exact_threshold,
// which states the error bound), the distance is formed again from the ORIGINAL rows xa, xb (float64,
// byte strides) by SciPy's direct formula (sqdist_exact.cuh): duplicates are exactly 0, near pairs
// accurate to a few ulps. Such pairs are rare in most data, so the tiles only mark them and a lane
// rewrites its few after its stores.

#include "sqdist_exact.cuh"

namespace cuarray_sqdist {

constexpr int KC = 32;        // k a shared-memory chunk
constexpr int LDS = KC + 4;   // a row's stride in shared memory, in doubles: 36 = 4 (mod 16), so the
                              // 16 lanes of a half-warp (rows g = 0..3, columns t = 0..3) of a
                              // fragment load fall in 16 different 8-byte bank pairs

__device__ __forceinline__ void copy16(unsigned dst, const double* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}

// D = A B + D for one m16n8kKS piece (PTX ISA, mma .f64): with g = lane / 4, t = lane % 4, the lane
// holds a[2j + h] = A[g + 8h][t + 4j] and b[j] = B[t + 4j][g] (j < KS / 4), and d0, d1 = D[g][2t],
// D[g][2t + 1], d2, d3 the same of row g + 8.
template <int KS>
__device__ __forceinline__ void mma(double* d, const double* a, const double* b);

template <>
__device__ __forceinline__ void mma<4>(double* d, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(b[0]));
}

template <>
__device__ __forceinline__ void mma<8>(double* d, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

template <>
__device__ __forceinline__ void mma<16>(double* d, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
               "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                 "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}

// The square root without the library's branch to its slow path, so that the roots of a lane
// interleave (with that branch each root waited on its own ~10 dependent steps): h = x y from the
// estimate y of rsqrt.approx (relative error about 2^-22), then two corrections h += y (x - h^2) / 2,
// each multiplying the error by about 2^-22, which leaves h within an ulp. For x >= 2^-900 (NORMAL:
// smaller x leave residuals x - h^2 past the normal range, and the estimate flushes subnormals) and
// inf or NaN: inf gives inf * 0 = NaN there, as NaN does, and where h is NaN, x is the root.
__device__ __forceinline__ double root_of_normal(double x) {
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;\n" : "=d"(y) : "d"(x));
  const double hy = 0.5 * y;
  double h = x * y;
  h = fma(hy, fma(-h, h, x), h);
  h = fma(hy, fma(-h, h, x), h);
  return (h != h) ? x : h;
}

constexpr double NORMAL = 0x1p-900;  // root_of_normal's smallest x: its residuals x - h^2 stay normal

// The distance from a square s in the lanes that hold one below NORMAL (0, negative from rounding,
// tiny; few lanes): clamped at 0, and the library's square root, which branches for such x.
__device__ __forceinline__ double distance(double s, int root) {
  s = (s < 0.0) ? 0.0 : s;  // rounding makes close points slightly negative; NaN passes
  return root ? sqrt(s) : s;
}

// Copy rows r0 .. r0 + R - 1 of X (rows clamped to X's last: their results are not stored), columns k0 ..
// k0 + KC - 1, into a stage's R x LDS block at `dst` (a shared address). Each thread copies the same
// 16-byte column piece of every STEP-th row from its own, so a whole block of rows is a base pointer
// and R / STEP equal steps (one 64-bit add a copy); only a block past X's end clamps row by row.
template <int R, int THREADS>
__device__ __forceinline__ void load_rows(unsigned dst, const double* __restrict__ x, long long rows, long long k,
                                          long long r0, long long k0) {
  constexpr int PIECES = KC / 2;          // 16-byte pieces a row of a chunk
  constexpr int STEP = THREADS / PIECES;  // rows a pass of the block's threads
  static_assert(THREADS % PIECES == 0 && R % STEP == 0, "every thread copies R / STEP pieces");
  const unsigned r = threadIdx.x / PIECES, c = (threadIdx.x % PIECES) * 2;
  dst += (r * LDS + c) * 8u;
  if (r0 + R <= rows) {
    const double* src = x + (r0 + r) * k + k0 + c;
    const long long step = STEP * k;
#pragma unroll
    for (int i = 0; i < R / STEP; ++i) copy16(dst + i * STEP * LDS * 8, src + i * step);
  } else {
#pragma unroll
    for (int i = 0; i < R / STEP; ++i) {
      const long long gr = r0 + r + i * STEP;
      copy16(dst + i * STEP * LDS * 8, x + (gr < rows ? gr : rows - 1) * k + k0 + c);
    }
  }
}

// Fill a stage (its shared address) with chunk k0 / KC of tile (m0, n0)'s rows of A and B.
template <int BM, int BN, int THREADS>
__device__ __forceinline__ void load_chunk(unsigned stage, const double* __restrict__ a, const double* __restrict__ b,
                                           long long m, long long n, long long k, long long m0, long long n0,
                                           long long k0) {
  load_rows<BM, THREADS>(stage, a, m, k, m0, k0);
  load_rows<BN, THREADS>(stage + BM * LDS * 8, b, n, k, n0, k0);
}

}  // namespace cuarray_sqdist

// Persistent blocks: block i takes tiles i, i + gridDim.x, ... Shared memory holds two stages; the
// copy of the next (tile, chunk) is in flight while the block multiplies the current one, and the
// next tile's first chunk while it writes the current tile's distances.
template <int BM, int BN, int WARP_M, int WARP_N, int KS, int MIN_BLOCKS>
__global__ void __launch_bounds__((BM / WARP_M) * (BN / WARP_N) * 32, MIN_BLOCKS) cuarray_sqdist_tiles(
    const double* __restrict__ a, const double* __restrict__ b, const double* __restrict__ na,
    const double* __restrict__ nb, double* __restrict__ out, long long m, long long n, long long k,
    long long ldo, long long tiles_n, long long tiles, int root, const double* __restrict__ xa, long long xa_rs,
    long long xa_cs, const double* __restrict__ xb, long long xb_rs, long long xb_cs, long long kx, int mode,
    const double* __restrict__ param, double tau) {
  using namespace cuarray_sqdist;
  constexpr int MT = WARP_M / 16, NT = WARP_N / 8;  // m16n8 pieces of a warp's part
  static_assert(MT * NT * 4 <= 64, "a lane's distances fit the mask of those to form again");
  constexpr int WN = BN / WARP_N;
  constexpr int THREADS = (BM / WARP_M) * WN * 32;
  constexpr int STAGE = (BM + BN) * LDS;  // doubles a stage
  extern __shared__ __align__(16) double smem[];

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int wm = (warp / WN) * WARP_M, wn = (warp % WN) * WARP_N;
  const long long chunks = k / KC;
  // rows of 16-byte aligned pairs: the distances of a lane go out two at a time
  const bool pairs = ((ldo & 1) == 0) && ((reinterpret_cast<unsigned long long>(out) & 15) == 0);

  // tiles < 2^31 (the planner's limit): 32-bit divisions, not the 64-bit library routine
  const unsigned tn_count = (unsigned)tiles_n;
  unsigned tile = blockIdx.x;
  if (tile >= tiles) return;
  const unsigned smem0 = (unsigned)__cvta_generic_to_shared(smem);
  load_chunk<BM, BN, THREADS>(smem0, a, b, m, n, k, (long long)(tile / tn_count) * BM,
                              (long long)(tile % tn_count) * BN, 0);
  asm volatile("cp.async.commit_group;\n" ::);
  int stage = 0;
  for (; tile < tiles; tile += gridDim.x) {
    const long long m0 = (long long)(tile / tn_count) * BM, n0 = (long long)(tile % tn_count) * BN;
    double acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0;

    for (long long c = 0; c < chunks; ++c) {
      // the next (tile, chunk) into the other stage, which the previous chunk's readers have left
      unsigned nt = tile;
      long long nc = c + 1;
      if (nc == chunks) {
        nt = tile + gridDim.x;
        nc = 0;
      }
      if (nt < tiles) {
        load_chunk<BM, BN, THREADS>(smem0 + (stage ^ 1) * STAGE * 8, a, b, m, n, k, (long long)(nt / tn_count) * BM,
                                    (long long)(nt % tn_count) * BN, nc * KC);
      }
      asm volatile("cp.async.commit_group;\n" ::);
      asm volatile("cp.async.wait_group 1;\n" ::);  // this chunk's copies (all but the newest group)
      __syncthreads();
      // the lane's first element of A and of B in this stage; every fragment element is a constant
      // offset from them (one address each, not one a fragment element)
      const double* sa = smem + stage * STAGE + (wm + g) * LDS + t;
      const double* sb = smem + stage * STAGE + BM * LDS + (wn + g) * LDS + t;
#pragma unroll
      for (int kk = 0; kk < KC; kk += KS) {
        double fa[MT][KS / 2], fb[NT][KS / 4];
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
          for (int j = 0; j < KS / 4; ++j) {
            fa[i][2 * j] = sa[i * 16 * LDS + kk + 4 * j];
            fa[i][2 * j + 1] = sa[(i * 16 + 8) * LDS + kk + 4 * j];
          }
#pragma unroll
        for (int i = 0; i < NT; ++i)
#pragma unroll
          for (int j = 0; j < KS / 4; ++j) fb[i][j] = sb[i * 8 * LDS + kk + 4 * j];
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
          for (int j = 0; j < NT; ++j) mma<KS>(acc[i][j], fa[i], fb[j]);
      }
      __syncthreads();  // every warp is done with this stage before it is filled again
      stage ^= 1;
    }

    // the distances, straight from the accumulators and in their place (all of them first: their
    // roots interleave), then stored: each lane holds columns 2t, 2t + 1 of rows g and g + 8 of
    // every m16n8 piece
    // the rows' squared norms: a whole tile's from the lane's first at constant offsets, an edge
    // tile's checked one by one (0 past the end: those distances are not stored)
    const bool whole = m0 + BM <= m && n0 + BN <= n;
    const double* __restrict__ pa = na + m0 + wm + g;
    const double* __restrict__ pb = nb + n0 + wn + 2 * t;
    double nav[MT][2], nbv[NT][2];
    if (whole) {
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) nav[i][h] = pa[i * 16 + 8 * h];
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) nbv[j][e] = pb[j * 8 + e];
    } else {
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) nav[i][h] = (m0 + wm + i * 16 + g + 8 * h < m) ? pa[i * 16 + 8 * h] : 0.0;
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) nbv[j][e] = (n0 + wn + j * 8 + 2 * t + e < n) ? pb[j * 8 + e] : 0.0;
    }
    // bit (i NT + j) 4 + e: acc[i][j][e] cancelled past tau (formed again below, after the stores)
    unsigned long long redo = 0;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const double norms = nav[i][e >> 1] + nbv[j][e & 1];
          acc[i][j][e] = fma(-2.0, acc[i][j][e], norms);
          redo |= (unsigned long long)(acc[i][j][e] <= tau * norms) << ((i * NT + j) * 4 + e);
        }
    // roots: where none of the lane's squares is below NORMAL (0, negative from rounding, tiny),
    // root_of_normal alone (no clamp: ~10 instructions a root); else each clamped, the library's root
    bool small = false;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) small |= acc[i][j][e] < NORMAL;
    if (root && !small) {
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][j][e] = root_of_normal(acc[i][j][e]);
    } else {
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][j][e] = distance(acc[i][j][e], root);
    }
    if (pairs && whole) {  // a whole tile: 16-byte streaming stores, no checks
      double* base = out + (m0 + wm + g) * ldo + n0 + wn + 2 * t;
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          double* orow = base + (i * 16 + 8 * h) * ldo;
#pragma unroll
          for (int j = 0; j < NT; ++j)
            __stcs(reinterpret_cast<double2*>(orow + j * 8), make_double2(acc[i][j][2 * h], acc[i][j][2 * h + 1]));
        }
    } else {
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const long long row = m0 + wm + i * 16 + g + 8 * h;
          if (row >= m) continue;
          double* orow = out + row * ldo;
#pragma unroll
          for (int j = 0; j < NT; ++j) {
            const long long col = n0 + wn + j * 8 + 2 * t;
            if (pairs && col + 1 < n) {
              __stcs(reinterpret_cast<double2*>(orow + col), make_double2(acc[i][j][2 * h], acc[i][j][2 * h + 1]));
            } else {
              if (col < n) __stcs(orow + col, acc[i][j][2 * h]);
              if (col + 1 < n) __stcs(orow + col + 1, acc[i][j][2 * h + 1]);
            }
          }
        }
    }
    // the marked distances again by the direct formula, over the values this lane just stored (its
    // own stores: program order keeps the later one); a plain loop over the mask's bits, one copy
    // of the formula, no indexing into the accumulators
    while (redo) {
      const int bit = __ffsll((long long)redo) - 1;
      redo &= redo - 1;
      const int i = bit / (NT * 4), j = (bit / 4) % NT, e = bit & 3;
      const long long row = m0 + wm + i * 16 + g + 8 * (e >> 1), col = n0 + wn + j * 8 + 2 * t + (e & 1);
      if (row < m && col < n) {
        const double s = exact_square(reinterpret_cast<const char*>(xa) + row * xa_rs, xa_cs,
                                      reinterpret_cast<const char*>(xb) + col * xb_rs, xb_cs, kx, mode, param);
        out[row * ldo + col] = distance(s, root);
      }
    }
  }
  asm volatile("cp.async.wait_all;\n" ::);
}

// The cuBLAS product's epilogue (devices without the tiles, mahalanobis): out[r][c] from g = A B^T
// (m x n, rows ldg apart) and the rows' norms na, nb, with the tiles' test and direct formula for
// the pairs that cancelled. A thread a distance.
__global__ void __launch_bounds__(256) cuarray_sqdist_epilogue(
    const double* __restrict__ g, long long ldg, const double* __restrict__ na, const double* __restrict__ nb,
    double* __restrict__ out, long long m, long long n, long long ldo, int root, const double* __restrict__ xa,
    long long xa_rs, long long xa_cs, const double* __restrict__ xb, long long xb_rs, long long xb_cs, long long kx,
    int mode, const double* __restrict__ param, double tau) {
  using namespace cuarray_sqdist;
  const long long total = m * n;
  for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
       idx += (long long)gridDim.x * blockDim.x) {
    const long long r = idx / n, c = idx - r * n;
    const double norms = na[r] + nb[c];
    double s = fma(-2.0, g[r * ldg + c], norms);
    if (s <= tau * norms) {
      s = exact_square(reinterpret_cast<const char*>(xa) + r * xa_rs, xa_cs,
                       reinterpret_cast<const char*>(xb) + c * xb_rs, xb_cs, kx, mode, param);
    }
    out[r * ldo + c] = distance(s, root);
  }
}

// The operands of the tiles, in one pass a row: Y = (X - shift) * scale (per column; scale null: 1),
// rows of stride ldy >= k with the columns past k zeroed, and each row's squared norm. X is any
// float64 view (byte strides, negative included). A warp a row, 8 rows a block of 256.
__global__ void __launch_bounds__(256) cuarray_sqdist_rows(
    const double* __restrict__ x, long long rows, long long k, long long row_stride, long long col_stride,
    const double* __restrict__ shift, const double* __restrict__ scale, double* __restrict__ y, long long ldy,
    double* __restrict__ norms) {
  const long long row = (long long)blockIdx.x * 8 + (threadIdx.x >> 5);
  if (row >= rows) return;
  const int lane = threadIdx.x & 31;
  const char* xr = reinterpret_cast<const char*>(x) + row * row_stride;
  double* yr = y + row * ldy;
  double s = 0.0;
  for (long long j = lane; j < ldy; j += 32) {
    double v = 0.0;
    if (j < k) {
      v = *reinterpret_cast<const double*>(xr + j * col_stride) - shift[j];
      if (scale != nullptr) v *= scale[j];
    }
    yr[j] = v;
    s = fma(v, v, s);
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) norms[row] = s;
}
