// cuarray.median helpers (cuarray/_statistics/median.py). median_keys<T>::key(x) maps a value
// to an unsigned key whose order is NumPy's sort order; value() inverts key(). The mapping is the
// sort engine's (cuarray/sort_keys.cuh: order_keys).
#include "cuarray/sort_keys.cuh"
template <typename T> using median_keys = cuarray_keys::order_keys<T>;
typedef cuarray_keys::order_half median_half;
typedef cuarray_keys::order_key2 median_key2;

template <typename K> __device__ __forceinline__ K median_max_key() { return K(~K(0)); }
template <> __device__ __forceinline__ median_key2 median_max_key<median_key2>() { return median_key2{~0ull, ~0ull}; }

// The rank word of a row of n elements with `nans` NaNs: 2k + (1 when the median averages the
// keys of ranks k and k + 1). median: a row with a NaN takes its largest element, a NaN (as
// NumPy does); nanmedian: the ranks of the non-NaN elements (none: rank 0, a NaN).
template <typename C>
__device__ __forceinline__ C median_rank(C n, C nans, bool skipnan) {
  if (nans > 0 && !skipnan) return C(2 * (n - 1));
  if (skipnan) n -= nans;
  return n > 0 ? C(2 * ((n - 1) / 2) + (n % 2 == 0)) : C(0);
}

// One bisection pass. n_i counts the row's keys below the candidate p + min(i, top) * step; the
// row's prefix p and rank word r ride along (every element of a row holds the same, so max
// combines them and the identity is all zeros).
template <typename K, typename C>
struct median_counts {
  C n1, n2, n3;
  K p;
  C r;
};
template <typename K, typename C>
__device__ __forceinline__ median_counts<K, C> median_count(K key, K p, C r, K step, K top) {
  const K t1 = K(p + step), t2 = K(p + (top < K(2) ? top : K(2)) * step), t3 = K(p + top * step);
  return median_counts<K, C>{C(key < t1), C(key < t2), C(key < t3), p, r};
}
template <typename K, typename C>
__device__ __forceinline__ median_counts<K, C> median_count_add(const median_counts<K, C>& a,
                                                                const median_counts<K, C>& b) {
  return median_counts<K, C>{C(a.n1 + b.n1), C(a.n2 + b.n2), C(a.n3 + b.n3), a.p < b.p ? b.p : a.p,
                             a.r < b.r ? b.r : a.r};
}
// The next prefix: the largest candidate with at most k keys below it (n_i grows with i).
template <typename K, typename C>
__device__ __forceinline__ K median_next(const median_counts<K, C>& a, K step, K top) {
  const C k = C(a.r >> 1);
  const K d = K((a.n1 <= k) + (a.n2 <= k) + (a.n3 <= k));
  return K(a.p + (d < top ? d : top) * step);
}

// The finishing pass: n counts the row's keys <= p (the key of rank k), m is the smallest key
// above p; p and r ride along as in median_counts.
template <typename K, typename C>
struct median_upper {
  C n;
  K m;
  K p;
  C r;
};
template <typename K, typename C>
__device__ __forceinline__ median_upper<K, C> median_upper_of(K key, K p, C r) {
  const bool le = key <= p;
  return median_upper<K, C>{C(le), le ? median_max_key<K>() : key, p, r};
}
template <typename K, typename C>
__device__ __forceinline__ median_upper<K, C> median_upper_add(const median_upper<K, C>& a,
                                                               const median_upper<K, C>& b) {
  return median_upper<K, C>{C(a.n + b.n), b.m < a.m ? b.m : a.m, a.p < b.p ? b.p : a.p, a.r < b.r ? b.r : a.r};
}
// The key of rank k + 1: p again when more than k + 1 keys are <= p, else the next larger key.
template <typename K, typename C>
__device__ __forceinline__ K median_upper_key(const median_upper<K, C>& a) {
  return a.n > C((a.r >> 1) + 1) ? a.p : a.m;
}

template <typename V> __device__ __forceinline__ bool median_isnan(V) { return false; }
__device__ __forceinline__ bool median_isnan(float v) { return v != v; }
__device__ __forceinline__ bool median_isnan(double v) { return v != v; }
template <typename T> __device__ __forceinline__ bool median_isnan(complex<T> v) {
  return v.real() != v.real() || v.imag() != v.imag();
}
// numpy.mean of the selected value(s) in M, as NumPy computes a median: (lo + hi) / 2 or lo / 1
// (complex division included); a NaN comes back as it is (NumPy copies a NaN row's largest element).
template <typename M, typename V>
__device__ __forceinline__ M median_mean(V lo, V hi, bool pair) {
  if (median_isnan(lo)) return M(lo);
  return pair ? (M(lo) + M(hi)) / M(2) : M(lo) / M(1);
}
