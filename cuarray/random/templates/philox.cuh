// cuarray/random/templates/philox.cuh: the Philox4x32-10 counter-based generator (Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11) and the per-group word stream that every
// sampling kernel draws from.
//
// Counter layout of one draw (one kernel launch): {sub, group lo, group hi, call}.
//   group: outputs 4*group .. 4*group+3 belong to one group (one thread);
//   sub:   the group's 0th, 1st, 2nd ... block of four 32-bit words;
//   call:  the generator's draw index (the host advances it once per call).
// The value at position i therefore depends on (key, call, i) only (and, for rejection samplers,
// on the earlier positions of its group of four): never on the grid, the block size or the GPU.
#pragma once

namespace cuarray {
namespace random {

__device__ __forceinline__ uint4 philox4x32_10(uint4 c, unsigned k0, unsigned k1) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
    const unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
    c = make_uint4(hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0);
  }
  return c;
}

// 32-bit words of one group, four per Philox block, in order. The buffer is shifted rather than
// indexed so that it stays in registers.
struct stream {
  unsigned k0, k1;
  uint4 ctr;
  uint4 buf;
  int left;
  bool has_spare;
  double spare;

  __device__ __forceinline__ stream(unsigned key0, unsigned key1, unsigned long long group, unsigned call)
      : k0(key0), k1(key1), left(0), has_spare(false), spare(0.0) {
    ctr = make_uint4(0u, (unsigned)group, (unsigned)(group >> 32), call);
  }
  __device__ __forceinline__ uint4 block() {
    const uint4 r = philox4x32_10(ctr, k0, k1);
    ++ctr.x;
    return r;
  }
  __device__ __forceinline__ unsigned next32() {
    if (left == 0) {
      buf = block();
      left = 4;
    }
    const unsigned r = buf.x;
    buf.x = buf.y;
    buf.y = buf.z;
    buf.z = buf.w;
    --left;
    return r;
  }
  __device__ __forceinline__ unsigned long long next64() {
    const unsigned long long lo = next32();
    return lo | ((unsigned long long)next32() << 32);
  }
  // NumPy's conversions: 53 random bits for a double in [0, 1), 24 for a float.
  __device__ __forceinline__ double next_double() { return (next64() >> 11) * 0x1.0p-53; }
  __device__ __forceinline__ float next_float() { return (next32() >> 8) * 0x1.0p-24f; }
};

// Words -> uniforms. `open`: (0, 1) (midpoints, never 0 or 1: safe under log); `half`: (0, 1].
__device__ __forceinline__ double u53(unsigned long long w) { return (w >> 11) * 0x1.0p-53; }
__device__ __forceinline__ double u53_open(unsigned long long w) { return ((w >> 11) + 0.5) * 0x1.0p-53; }
__device__ __forceinline__ float u24(unsigned w) { return (w >> 8) * 0x1.0p-24f; }
__device__ __forceinline__ float u24_open(unsigned w) { return ((w >> 8) + 0.5f) * 0x1.0p-24f; }

}  // namespace random
}  // namespace cuarray
