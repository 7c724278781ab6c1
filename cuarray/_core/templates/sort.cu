// cuarray sort engine kernels (cuarray/_core/sort.py): an LSD radix sort built on CUB's
// device-side agents (onesweep: one histogram pass for every digit, then one pass per digit
// with decoupled look-back), a per-block sort for short rows, and small helpers.
//
// Keys are sorted by order_keys' bit order (cuarray/sort_keys.cuh). Float keys travel as their
// original bits (radix_float<U>): CUB twiddles them into bit order in registers and the digit
// comes from radix_canonical(), so -0.0 ties +0.0 and NaNs tie each other (stable, as NumPy)
// while the sorted output keeps every bit of the input.
//
// Pass skipping without a host synchronisation: cuarray_radix_plan finds the passes whose
// digit is the same for every key and writes, per pass, which buffers it reads and writes (or
// that it does nothing). The onesweep kernels read their buffers from that plan.
// Our launches are plain stream-ordered ones (no programmatic dependent launch). The agent
// policies are named as CCCL 3.0 names them (3.5 keeps those names as deprecated aliases of its
// detail:: policies): the kernels build against the CCCL of a CUDA 13.0 toolkit and of the wheels.
#define CCCL_DISABLE_PDL 1
#define CCCL_IGNORE_DEPRECATED_API 1
#include <cub/agent/agent_radix_sort_histogram.cuh>
#include <cub/agent/agent_radix_sort_onesweep.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "cuarray/complex.cuh"
#include "cuarray/sort_keys.cuh"

namespace cuarray {
template <typename U>
struct radix_float {
  U bits;
};
// A tile of exactly THREADS x ITEMS (the agents' policies otherwise scale it by the key size).
template <int THREADS, int ITEMS>
struct fixed_tile {
  static constexpr int BLOCK_THREADS = THREADS;
  static constexpr int ITEMS_PER_THREAD = ITEMS;
};
// The most digit passes of one sort (64-bit keys, 8-bit digits).
constexpr int RADIX_MAX_PASSES = 8;
struct radix_plan {
  const void* keys_in[RADIX_MAX_PASSES];
  void* keys_out[RADIX_MAX_PASSES];
  const void* values_in[RADIX_MAX_PASSES];
  void* values_out[RADIX_MAX_PASSES];
  int active[RADIX_MAX_PASSES];
  const void* final_keys;    // where the sorted keys are after the last active pass
  const void* final_values;
};
}  // namespace cuarray

CUB_NAMESPACE_BEGIN
// Radix traits of a float key moved as its bits: order_float_keys' flip (injective), and the
// raw bits of the largest key (+NaN 0x7f..f) / smallest (-NaN 0xff..f) for padding.
template <typename U>
struct NumericTraits<cuarray::radix_float<U>> : BaseTraits<UNSIGNED_INTEGER, true, U, U> {
  using UnsignedBits = U;
  static constexpr U HIGH_BIT = U(U(1) << (8 * sizeof(U) - 1));
  static constexpr U LOWEST_KEY = U(~U(0));
  static constexpr U MAX_KEY = U(~U(0) ^ HIGH_BIT);
  static __host__ __device__ __forceinline__ U TwiddleIn(U key) { return key ^ ((key & HIGH_BIT) ? U(~U(0)) : HIGH_BIT); }
  static __host__ __device__ __forceinline__ U TwiddleOut(U key) { return key ^ ((key & HIGH_BIT) ? HIGH_BIT : U(~U(0))); }
};
// Digits of the canonical key (ascending sorts only: onesweep's descending form would hand
// these extractors complemented keys).
template <typename U>
struct ShiftDigitExtractor<cuarray::radix_float<U>> {
  using UnsignedBits = U;
  ::cuda::std::uint32_t bit_start, mask;
  explicit __device__ __forceinline__ ShiftDigitExtractor(::cuda::std::uint32_t bit_start = 0, ::cuda::std::uint32_t num_bits = 0)
      : bit_start(bit_start), mask((1u << num_bits) - 1) {}
  __device__ __forceinline__ ::cuda::std::uint32_t Digit(U key) const {
    return ::cuda::std::uint32_t(cuarray_keys::radix_canonical<U>(key) >> U(bit_start)) & mask;
  }
};
template <typename U>
struct BFEDigitExtractor<cuarray::radix_float<U>> : ShiftDigitExtractor<cuarray::radix_float<U>> {
  explicit __device__ __forceinline__ BFEDigitExtractor(::cuda::std::uint32_t bit_start = 0, ::cuda::std::uint32_t num_bits = 0)
      : ShiftDigitExtractor<cuarray::radix_float<U>>(bit_start, num_bits) {}
};
CUB_NAMESPACE_END

// ---- device-wide onesweep -----------------------------------------------------------------

// Digit counts of every pass: bins[pass * 2^BITS + digit] (bins zeroed by the caller).
template <typename KeyT, typename OffsetT, int BITS, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
cuarray_radix_histogram(OffsetT* bins, const KeyT* keys, OffsetT n, int begin_bit, int end_bit) {
  using Policy = cub::AgentRadixSortHistogramPolicy<THREADS, ITEMS, 1, KeyT, BITS>;
  using Agent = cub::detail::radix_sort::AgentRadixSortHistogram<Policy, false, KeyT, OffsetT>;
  __shared__ typename Agent::TempStorage storage;
  Agent(storage, bins, keys, n, begin_bit, end_bit).Process();
}

// One block: each pass's counts -> exclusive offsets, and the plan. A pass is skipped when one
// digit holds all n keys. Active passes alternate between `out` and `tmp` so that the last one
// writes `out`; the first reads `src` (never written).
template <typename OffsetT, int BITS>
__global__ void __launch_bounds__(256)
cuarray_radix_plan(OffsetT* bins, int passes, OffsetT n, cuarray::radix_plan* plan,
                   const void* keys_src, void* keys_out, void* keys_tmp,
                   const void* values_src, void* values_out, void* values_tmp) {
  constexpr int DIGITS = 1 << BITS, PER = (DIGITS + 255) / 256;
  using Scan = cub::BlockScan<OffsetT, 256>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ int active[cuarray::RADIX_MAX_PASSES];
  for (int p = 0; p < passes; ++p) {
    OffsetT c[PER];
    int whole = 0;
#pragma unroll
    for (int u = 0; u < PER; ++u) {
      const int d = threadIdx.x * PER + u;
      c[u] = d < DIGITS ? bins[p * DIGITS + d] : OffsetT(0);
      whole |= c[u] == n;
    }
    whole = __syncthreads_or(whole);
    Scan(scan_storage).ExclusiveSum(c, c);
#pragma unroll
    for (int u = 0; u < PER; ++u) {
      const int d = threadIdx.x * PER + u;
      if (d < DIGITS) bins[p * DIGITS + d] = c[u];
    }
    if (threadIdx.x == 0) active[p] = !whole;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    int k = 0;
    for (int p = 0; p < passes; ++p) k += active[p];
    const void* kin = keys_src;
    const void* vin = values_src;
    int j = 0;
    for (int p = 0; p < cuarray::RADIX_MAX_PASSES; ++p) {
      const bool on = p < passes && active[p];
      plan->active[p] = on;
      if (!on) continue;
      ++j;
      const bool to_out = ((k - j) & 1) == 0;
      plan->keys_in[p] = kin;
      plan->values_in[p] = vin;
      plan->keys_out[p] = to_out ? keys_out : keys_tmp;
      plan->values_out[p] = to_out ? values_out : values_tmp;
      kin = plan->keys_out[p];
      vin = plan->values_out[p];
    }
    plan->final_keys = kin;
    plan->final_values = vin;
  }
}

// One digit pass over one portion (< 2^28 keys) of the keys; returns at once when the plan
// skips the pass. ValueT cub::NullType: keys only.
template <typename KeyT, typename ValueT, typename OffsetT, int BITS, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
cuarray_radix_onesweep(const cuarray::radix_plan* plan, int pass, int* lookback, int* counter, OffsetT* bins_out,
                       const OffsetT* bins_in, OffsetT portion_offset, int portion_items, int current_bit, int num_bits) {
  if (!plan->active[pass]) return;
  using Policy = cub::AgentRadixSortOnesweepPolicy<
      THREADS, ITEMS, KeyT, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY, cub::BLOCK_SCAN_RAKING_MEMOIZE,
      cub::RADIX_SORT_STORE_DIRECT, BITS, cuarray::fixed_tile<THREADS, ITEMS>>;
  using Agent = cub::detail::radix_sort::AgentRadixSortOnesweep<Policy, false, KeyT, ValueT, OffsetT, int>;
  __shared__ typename Agent::TempStorage storage;
  const KeyT* kin = static_cast<const KeyT*>(plan->keys_in[pass]) + portion_offset;
  const ValueT* vin = static_cast<const ValueT*>(plan->values_in[pass]);
  if (vin) vin += portion_offset;
  Agent(storage, lookback, counter, bins_out, bins_in, static_cast<KeyT*>(plan->keys_out[pass]), kin,
        static_cast<ValueT*>(plan->values_out[pass]), vin, portion_items, current_bit, num_bits)
      .Process();
}

// After the passes: copy the plan's final keys/values to `keys_out`/`values_out` when no pass
// ran (all keys equal); values are converted to V (argsort's int32 positions -> int64).
template <typename K, typename VIn, typename V>
__global__ void cuarray_radix_finish(const cuarray::radix_plan* plan, long long n, K* keys_out, V* values_out) {
  const K* kf = static_cast<const K*>(plan->final_keys);
  const VIn* vf = static_cast<const VIn*>(plan->final_values);
  const bool copy_keys = keys_out && kf != keys_out;
  const bool copy_values = values_out && (static_cast<const void*>(vf) != static_cast<const void*>(values_out));
  if (!copy_keys && !copy_values) return;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    if (copy_keys) keys_out[i] = kf[i];
    if (copy_values) values_out[i] = V(vf[i]);
  }
}

// 0, 1, ..., n - 1 (argsort's starting positions), or i % m (positions within rows of m).
template <typename V>
__global__ void cuarray_radix_iota(V* out, long long n, long long m) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = V(m ? i % m : i);
}

// ---- rows sorted by one block each ---------------------------------------------------------

// Row r of `keys_in` (rows of `len` <= THREADS * ITEMS elements, `stride` apart) sorted into
// row r of `keys_out`; with ValueT != cub::NullType also each key's position in its row
// (argsort), as V. Padding keys are the largest key: they sort after the row (stable).
template <typename KeyT, typename ValueT, typename V, int THREADS, int ITEMS, int BITS>
__global__ void __launch_bounds__(THREADS)
cuarray_block_sort(const KeyT* keys_in, KeyT* keys_out, V* pos_out, int len, long long stride) {
  constexpr bool PAIRS = !::cuda::std::is_same_v<ValueT, cub::NullType>;
  using Traits = cub::detail::radix::traits_t<KeyT>;
  using Bits = typename Traits::bit_ordered_type;
  using Sort = cub::BlockRadixSort<KeyT, THREADS, ITEMS, ValueT, BITS>;
  __shared__ typename Sort::TempStorage storage;
  const long long row = blockIdx.x;
  const Bits* in = reinterpret_cast<const Bits*>(keys_in) + row * stride;
  const Bits pad = Traits::max_raw_binary_key(cub::detail::identity_decomposer_t{});
  KeyT keys[ITEMS];
  ValueT vals[ITEMS];
#pragma unroll
  for (int u = 0; u < ITEMS; ++u) {
    const int i = threadIdx.x * ITEMS + u;
    const Bits b = i < len ? in[i] : pad;
    keys[u] = reinterpret_cast<const KeyT&>(b);
    if constexpr (PAIRS) vals[u] = ValueT(i);
  }
  if constexpr (PAIRS) {
    Sort(storage).SortBlockedToStriped(keys, vals);
  } else {
    Sort(storage).SortBlockedToStriped(keys);
  }
  Bits* out = reinterpret_cast<Bits*>(keys_out) + row * stride;
#pragma unroll
  for (int u = 0; u < ITEMS; ++u) {
    const int i = u * THREADS + threadIdx.x;
    if (i < len) {
      if (keys_out) out[i] = reinterpret_cast<const Bits&>(keys[u]);
      if constexpr (PAIRS) pos_out[row * stride + i] = V(vals[u]);
    }
  }
}

// ---- helpers: gathers, row ids, key words --------------------------------------------------

#define CUARRAY_SORT_LOOP(i, n) \
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

// out[i] = src[perm[i]]
template <typename T, typename I>
__global__ void cuarray_gather(const T* src, const I* perm, T* out, long long n) {
  CUARRAY_SORT_LOOP(i, n) out[i] = src[perm[i]];
}

// out[i] = x[row(i) * len + pos[i]]: positions within rows (argsort's) applied to rows.
template <typename T>
__global__ void cuarray_take_rows(const T* x, const long long* pos, T* out, long long n, long long len) {
  CUARRAY_SORT_LOOP(i, n) out[i] = x[(i / len) * len + pos[i]];
}

// The row of each flat position (segmented sorts through the device-wide path).
template <typename I, typename R>
__global__ void cuarray_row_ids(const I* perm, R* rows, long long n, long long len) {
  CUARRAY_SORT_LOOP(i, n) rows[i] = R((long long)perm[i] / len);
}

// Flat positions sorted by row -> positions within their row (element i is in row i / len).
template <typename I>
__global__ void cuarray_row_positions(const I* perm, long long* pos, long long n, long long len) {
  CUARRAY_SORT_LOOP(i, n) pos[i] = (long long)perm[i] - (i / len) * len;
}

// Complex keys as unsigned words: WORD 0 the whole key (complex64: one 64-bit word), 1 the
// high word, 2 the low word (complex128).
template <typename T, int WORD>
__global__ void cuarray_sort_key_words(const T* x, unsigned long long* out, long long n) {
  typedef cuarray_keys::sort_keys<T> S;
  CUARRAY_SORT_LOOP(i, n) {
    if constexpr (WORD == 0) out[i] = S::key(x[i]);
    else if constexpr (WORD == 1) out[i] = S::hi(x[i]);
    else out[i] = S::lo(x[i]);
  }
}
#undef CUARRAY_SORT_LOOP
