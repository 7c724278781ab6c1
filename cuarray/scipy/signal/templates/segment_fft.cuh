// In-register DFTs for the one-pass spectral kernels (templates/spectral.cu's welch_pairs): R complex
// points (R = 2, 4, 8 or 16) held by one thread, natural order in and out, as an unrolled radix-2
// decimation in time (bit-reversed loads, log2 R stages of butterflies). Every index is a
// compile-time constant after unrolling, so the points stay in registers and the twiddles are
// literals: exp(-2 pi i m / 16) for m < 8 below (cos and -sin, rounded once to T).

namespace cuarray_signal {

__device__ __forceinline__ double tw16_re(const int m) {
  switch (m) {
    case 0: return 1.0;
    case 1: return 0.92387953251128675613;
    case 2: return 0.70710678118654752440;
    case 3: return 0.38268343236508977173;
    case 4: return 0.0;
    case 5: return -0.38268343236508977173;
    case 6: return -0.70710678118654752440;
    default: return -0.92387953251128675613;
  }
}

// -sin(2 pi m / 16) = -cos(2 pi |m - 4| / 16)
__device__ __forceinline__ double tw16_im(const int m) { return -tw16_re(m >= 4 ? m - 4 : 4 - m); }

// v exp(-2 pi i m / 16), m < 8: m = 0 is v, m = 4 is -i v (no rounding in either)
template <typename T, typename P>
__device__ __forceinline__ P twiddle16(const P v, const int m) {
  if (m == 0) return v;
  P r;
  if (m == 4) {
    r.x = v.y;
    r.y = -v.x;
    return r;
  }
  const T c = (T)tw16_re(m), s = (T)tw16_im(m);
  r.x = v.x * c - v.y * s;
  r.y = v.x * s + v.y * c;
  return r;
}

// (additive loops only: nvcc unrolls them, so the reversed index is a constant and v stays in registers)
template <int LOG2R>
__device__ __forceinline__ int bit_reverse(const int i) {
  int r = 0;
#pragma unroll
  for (int b = 0; b < LOG2R; ++b) r |= ((i >> b) & 1) << (LOG2R - 1 - b);
  return r;
}

// The butterflies of span 2 HALF, then the later stages (one instantiation a stage: each loop's trip
// count is a constant where nvcc unrolls it)
template <typename T, typename P, int R, int HALF>
__device__ __forceinline__ void dft_stages(P (&v)[R]) {
  if constexpr (HALF < R) {
#pragma unroll
    for (int i = 0; i < R; i += 2 * HALF) {
#pragma unroll
      for (int k = 0; k < HALF; ++k) {
        const P a = v[i + k];
        const P b = twiddle16<T, P>(v[i + k + HALF], k * (8 / HALF));  // exp(-2 pi i k / (2 HALF))
        v[i + k].x = a.x + b.x;
        v[i + k].y = a.y + b.y;
        v[i + k + HALF].x = a.x - b.x;
        v[i + k + HALF].y = a.y - b.y;
      }
    }
    dft_stages<T, P, R, 2 * HALF>(v);
  }
}

template <typename T, typename P, int R, int LOG2R>
__device__ __forceinline__ void dft_regs(P (&v)[R]) {
  static_assert(R == (1 << LOG2R) && R >= 2 && R <= 16, "dft_regs: R = 2, 4, 8 or 16");
#pragma unroll
  for (int i = 0; i < R; ++i) {
    const int j = bit_reverse<LOG2R>(i);
    if (i < j) {
      const P t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  }
  dft_stages<T, P, R, 1>(v);
}

}  // namespace cuarray_signal
