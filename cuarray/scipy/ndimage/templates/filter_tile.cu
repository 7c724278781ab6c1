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

// acc[r] = combine over j < size of win(r + j), where win(k) = s[k * stride] (the thread's window
// in the tile) and, for OP_CORRELATE, ws the weights (shared, 16-byte aligned).
template <typename A, int OP, int R, bool VEC>
__device__ __forceinline__ void tile_window(const A* __restrict__ s, int stride, const A* __restrict__ ws, int size,
                                            A* acc) {
  A win[R + 4];
  if (VEC) {
#pragma unroll
    for (int i = 0; i < R + 4; i += 4) tile_ld4<A>(s + i, win + i);
  } else {
#pragma unroll
    for (int i = 0; i < R + 4; ++i) win[i] = s[i * stride];
  }
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = (OP == OP_MIN || OP == OP_MAX) ? win[r] : combine<A, OP>::init();
  int j = 0;
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
    if (VEC) {
      tile_ld4<A>(s + j + 4 + R, win + R);
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i) win[R + i] = s[(j + 4 + R + i) * stride];
    }
  }
  const int left = size - j;
#pragma unroll
  for (int jj = 0; jj < 3; ++jj) {
    if (jj < left) {
      const A wj = OP == OP_CORRELATE ? ws[j + jj] : A(0);
#pragma unroll
      for (int r = 0; r < R; ++r) combine<A, OP>::add(acc[r], win[r + jj], wj);
    }
  }
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

template <typename T, typename O, typename A, int OP, typename I, int R>
__global__ void __launch_bounds__(256)
filter1d_rows(const T* __restrict__ in, O* __restrict__ out, const A* __restrict__ w, int size, I n, I lines,
              int ltpl, I segs, int pitch, I offset, int mode, A cval) {
  extern __shared__ __align__(16) unsigned char tile_smem[];
  constexpr int LR = R == 8 ? 3 : 2;
  const int tid = threadIdx.x;
  const int tpl = 1 << ltpl, lpb = 256 >> ltpl, seg = R << ltpl, lseg = ltpl + LR;
  const int ly = tid >> ltpl, tx = tid & (tpl - 1);
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
    for (int q = tx; q < pitch; q += tpl) {
      const I m = map_index<I>(p0 + q, n, mode);
      row[q] = m < 0 ? cval : (A)src[m];
    }
  }
  __syncthreads();
  if (line < lines && seg0 + tx * R < n) {
    A acc[R];
    tile_window<A, OP, R, true>(row + tx * R, 1, ws, size, acc);
    O* o = os + ly * seg;
#pragma unroll
    for (int r = 0; r < R; ++r) o[tile_swizzle<R>(tx, r)] = to_out<O>::go(acc[r]);
  }
  __syncthreads();
  for (int i = tid; i < lpb * seg; i += 256) {
    const int y = i >> lseg, p = i & (seg - 1);
    const I ln = g * lpb + y, c = seg0 + p;
    if (ln < lines && c < n) out[ln * n + c] = os[y * seg + tile_swizzle<R>(p >> LR, p & (R - 1))];
  }
}

template <typename T, typename O, typename A, int OP, typename I, int R>
__global__ void __launch_bounds__(256)
filter1d_cols(const T* __restrict__ in, O* __restrict__ out, const A* __restrict__ w, int size, I n, I inner,
              I rblocks, I cblocks, I offset, int mode, A cval) {
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
  __syncthreads();
  const I r = r0 + ty * R, c = c0 + tx;
  if (r >= n || c >= inner) return;
  A acc[R];
  tile_window<A, OP, R, false>(tile + ty * R * BW + tx, BW, ws, size, acc);
  O* dst = out + o * n * inner + r * inner + c;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    if (r + k < n) dst[k * inner] = to_out<O>::go(acc[k]);
  }
}

}  // namespace cuarray_ndimage
