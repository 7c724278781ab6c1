// cuarray batched copy: one launch copies many dense pieces into one destination array
// (concatenate, stack, hstack, ...). Python (cuarray/_core/batched_copy.py) builds the tables and
// picks the instantiation `cuarray_batched_copy<Word, Index>`.
//
// Everything is counted in words of sizeof(Word) bytes (16, 8, 4, 2 or 1: the widest that divides
// every address, row length and pitch). Piece p is a block of `rows` rows of `width` words each,
// stored densely at `src` and written to
//
//     dst[row * dst_pitch + offset + col]       (0 <= row < rows, 0 <= col < width)
//
// `pieces` holds four 64-bit numbers per piece: src address, words (= rows * width), width, offset.
// The work is cut into chunks of kBlock * kItems words, piece by piece: piece p owns chunks
// first_chunk[p] .. first_chunk[p+1] - 1, and block b copies chunk b.
//
// Measured on an H200, 100 x 4 MiB float32 (kernel alone, CUDA events; a device copy of
// the same 400 MiB: 205 us): one block per chunk, 211-213 us for 2, 4 or 8 words per thread; a
// resident grid of 4-16 blocks per SM splitting the chunks evenly, 223-235 us (worse).

namespace cuarray {
namespace batched_copy {

constexpr int kBlock = 256;
constexpr int kItems = 4;
constexpr int kChunk = kBlock * kItems;

// The piece that owns chunk `b`: the largest p < n with first_chunk[p] <= b. One warp narrows the
// range [lo, hi) 32-fold per step, each lane testing one candidate: two dependent loads for up to
// 1024 pieces, three for 32768 (a binary search by one thread would need 7 and 15).
__device__ __forceinline__ int find_piece(const unsigned long long* __restrict__ first_chunk, int n,
                                          unsigned long long b) {
  const int lane = threadIdx.x & 31;
  int lo = 0, hi = n;  // invariant: first_chunk[lo] <= b < first_chunk[hi]
  while (hi - lo > 1) {
    const int step = (hi - lo + 31) / 32;
    const int j = lo + lane * step;
    const bool owns = j < hi && first_chunk[j] <= b;
    const unsigned ballot = __ballot_sync(0xffffffffu, owns);  // lane 0 always owns
    lo += (31 - __clz(ballot)) * step;
    hi = min(hi, lo + step);
  }
  return lo;
}

}  // namespace batched_copy
}  // namespace cuarray

template <typename Word, typename Index>
__global__ void __launch_bounds__(cuarray::batched_copy::kBlock)
    cuarray_batched_copy(const unsigned long long* __restrict__ pieces,
                         const unsigned long long* __restrict__ first_chunk, const int n_pieces,
                         Word* __restrict__ dst, const Index dst_pitch) {
  using namespace cuarray::batched_copy;
  __shared__ int s_piece;
  if (threadIdx.x < 32) {
    const int p = find_piece(first_chunk, n_pieces, blockIdx.x);
    if (threadIdx.x == 0) s_piece = p;
  }
  __syncthreads();
  const int p = s_piece;
  const Word* __restrict__ src = reinterpret_cast<const Word*>(pieces[4 * p]);
  const Index words = static_cast<Index>(pieces[4 * p + 1]);
  const Index width = static_cast<Index>(pieces[4 * p + 2]);
  const Index offset = static_cast<Index>(pieces[4 * p + 3]);
  const bool one_row = width == words;  // concatenation along axis 0: no division
  const Index first = static_cast<Index>(blockIdx.x - first_chunk[p]) * kChunk + threadIdx.x;
  Word v[kItems];  // all loads first, then all stores: kItems requests in flight per thread
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const Index w = first + k * kBlock;
    if (w < words) v[k] = src[w];
  }
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const Index w = first + k * kBlock;
    if (w < words) {
      const Index row = one_row ? Index(0) : w / width;
      dst[row * dst_pitch + offset + (w - row * width)] = v[k];
    }
  }
}
