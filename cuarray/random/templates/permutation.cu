// cuarray/random/templates/permutation.cu: random permutations of [0, n) without a sort.
//
// A keyed Feistel network on k-bit integers (k = the bits of n, plus one when n is a power of two)
// is a bijection of [0, 2^k); "cycle walking" (apply it again until the value falls below n)
// restricts it to a bijection of [0, n). Each output is independent of the others: out[i] =
// walk(i), one pass, no sort, no atomics. Unbalanced halves (k/2 and k - k/2 bits) alternate
// widths from round to round; an even number of rounds ends at the starting split. The domain is
// kept strictly larger than n so that odd permutations of [0, n) are reachable (a Feistel network
// on halves of 2+ bits only makes even permutations of its own domain). Expected walk length < 2.
// The round keys come from Philox on the host (cuarray/random/_permutation.py).

namespace cuarray {
namespace random {

constexpr int kFeistelRounds = 8;

struct feistel_keys {
  unsigned k[kFeistelRounds];
};

// A keyed 32-bit mixer (bijective in r for a fixed key; good avalanche: lowbias32).
__device__ __forceinline__ unsigned feistel_round(unsigned r, unsigned key) {
  unsigned h = r ^ key;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

__device__ __forceinline__ unsigned long long low_bits(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1ull; }

__device__ __forceinline__ unsigned long long feistel(unsigned long long x, const feistel_keys& keys, int abits,
                                                      int bbits, unsigned tweak) {
  unsigned long long left = x >> bbits, right = x & low_bits(bbits);
  int wl = abits, wr = bbits;
#pragma unroll
  for (int r = 0; r < kFeistelRounds; ++r) {
    const unsigned long long f = feistel_round((unsigned)right, keys.k[r] ^ tweak);
    const unsigned long long new_right = (left ^ f) & low_bits(wl);
    left = right;
    right = new_right;
    const int t = wl;
    wl = wr;
    wr = t;
  }
  return (left << wr) | right;
}

__device__ __forceinline__ unsigned long long walk(unsigned long long i, unsigned long long n, const feistel_keys& keys,
                                                   int abits, int bbits, unsigned tweak) {
  unsigned long long x = i;
  do {
    x = feistel(x, keys, abits, bbits, tweak);
  } while (x >= n);
  return x;
}

}  // namespace random
}  // namespace cuarray

// out[r * m + i] = the image of i (i < m) under row r's permutation of [0, n): rows * m outputs.
// Row r's network is tweaked by a hash of r (permuted: one independent permutation per row).
template <typename T>
__global__ void cuarray_random_permutation(T* __restrict__ out, const long long total, const long long m,
                                           const int rows_gt1, const unsigned long long n, const int abits,
                                           const int bbits, const unsigned k0, const unsigned k1, const unsigned k2,
                                           const unsigned k3, const unsigned k4, const unsigned k5,
                                           const unsigned k6, const unsigned k7) {
  using namespace cuarray::random;
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= total) return;
  const feistel_keys keys = {{k0, k1, k2, k3, k4, k5, k6, k7}};
  const long long r = rows_gt1 ? t / m : 0, i = t - r * m;
  const unsigned tweak = r ? feistel_round((unsigned)r ^ ((unsigned)(r >> 32) * 0x9E3779B9u), 0x85ebca6bu) : 0u;
  out[t] = (T)walk((unsigned long long)i, n, keys, abits, bbits, tweak);
}
