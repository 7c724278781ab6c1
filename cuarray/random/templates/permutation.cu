// cuarray/random/templates/permutation.cu: random permutations of [0, n) without a sort.
//
// A keyed Feistel network on k-bit integers (k = the bits of n, plus one when n is a power of two)
// is a bijection of [0, 2^k); "cycle walking" (apply it again until the value falls below n)
// restricts it to a bijection of [0, n). Each output is independent of the others: out[i] =
// walk(i), one pass, no sort, no atomics. Unbalanced halves (k/2 and k - k/2 bits) alternate
// widths from round to round; an even number of rounds ends at the starting split. The domain is
// kept strictly larger than n so that odd permutations of [0, n) are reachable (a Feistel network
// on halves of 2+ bits only makes even permutations of its own domain). Expected walk length < 2.
// The 24 round keys are Philox words of the draw (key, call), made once per block in shared memory.
// Rounds: 8 were measured non-uniform on small domains (orders of 4 items, chi-square p ~ 0); 24
// as in Mitchell et al., "Bandwidth-optimal random shuffling for GPUs" (2022). Domains up to
// 2^32 run in 32-bit arithmetic.

namespace cuarray {
namespace random {

constexpr int kFeistelRounds = 24;  // even: the halves end at their starting widths

// A keyed 32-bit mixer (lowbias32 of r ^ key): nonlinear in the key, good avalanche.
__device__ __forceinline__ unsigned feistel_round(unsigned r, unsigned key) {
  unsigned h = r ^ key;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

// One pass of the network over x = (left: a bits, right: b bits).
template <typename W>
__device__ __forceinline__ W feistel(W x, const unsigned* keys, unsigned tweak, int bbits, W mask_a, W mask_b) {
  W left = x >> bbits, right = x & mask_b;
#pragma unroll
  for (int r = 0; r < kFeistelRounds; r += 2) {
    W nr = (left ^ (W)feistel_round((unsigned)right, keys[r] ^ tweak)) & mask_a;
    left = right;  // b bits
    right = nr;    // a bits
    nr = (left ^ (W)feistel_round((unsigned)right, keys[r + 1] ^ tweak)) & mask_b;
    left = right;
    right = nr;
  }
  return (left << bbits) | right;
}

}  // namespace random
}  // namespace cuarray

// out[r * m + i] = the image of i (i < m) under row r's permutation of [0, n): rows * m outputs.
// Row r's network is tweaked by a hash of r (permuted: one independent permutation per row).
template <typename W>
__global__ void cuarray_random_permutation(long long* __restrict__ out, const long long total, const long long m,
                                           const int rows_gt1, const unsigned long long n, const int bbits,
                                           const unsigned long long mask_a, const unsigned long long mask_b,
                                           const unsigned k0, const unsigned k1, const unsigned call) {
  using namespace cuarray::random;
  __shared__ unsigned keys[kFeistelRounds];
  if (threadIdx.x < kFeistelRounds / 4) {  // words of group 2^64 - 1, never a sampling group
    const uint4 w = philox4x32_10(make_uint4(threadIdx.x, 0xFFFFFFFFu, 0xFFFFFFFFu, call), k0, k1);
    keys[4 * threadIdx.x] = w.x;
    keys[4 * threadIdx.x + 1] = w.y;
    keys[4 * threadIdx.x + 2] = w.z;
    keys[4 * threadIdx.x + 3] = w.w;
  }
  __syncthreads();
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= total) return;
  const long long r = rows_gt1 ? t / m : 0, i = t - r * m;
  const unsigned tweak = r ? feistel_round((unsigned)r ^ ((unsigned)(r >> 32) * 0x9E3779B9u), 0x85ebca6bu) : 0u;
  unsigned ks[kFeistelRounds];
#pragma unroll
  for (int j = 0; j < kFeistelRounds; ++j) ks[j] = keys[j];
  // A key bit composes the network with the transposition (0 1): the network alone is an even
  // permutation of its domain (halves of 2+ bits), and the permutation that cycle walking
  // induces on [0, n) from an even one has biased parity (measured: 0.37 odd for n = 16).
  const bool swap = feistel_round(tweak, ks[0] ^ 0x5bd1e995u) & 1u;
  W x = (W)i;
  do {
    x = feistel<W>(x, ks, tweak, bbits, (W)mask_a, (W)mask_b);
    if (swap && x < 2) x ^= 1;
  } while ((unsigned long long)x >= n);
  out[t] = (long long)x;
}
