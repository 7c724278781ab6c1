// Device helpers for cuarray/_math/convolution.py (direct correlation) and
// cuarray/_math/interpolation.py (interp). Included as a kernel preamble.
namespace cuarray_signal {

// out[k] = sum_j a[k + j - off] * v[j * vs] over the j that stay inside a: one output per thread,
// the short operand v read through the L1 cache by every thread of a block. vs: v's step in
// elements (-1 for convolve's reversed kernel, read in place: no reversed copy, no extra launch).
template <typename T>
__device__ __forceinline__ T correlate_at(const T* a, const T* v, long long vs, long long na, long long nv,
                                          long long k, long long off) {
  long long lo = off - k;
  if (lo < 0) lo = 0;
  long long hi = na + off - k;
  if (hi > nv) hi = nv;
  T acc = T(0);
  const T* vj = v + lo * vs;
  for (long long j = lo; j < hi; ++j, vj += vs) acc += a[k + j - off] * *vj;
  return acc;
}

// NumPy's binary search for interp: -1 below xp[0], n above xp[n-1], else the largest j with
// xp[j] <= x.
__device__ __forceinline__ long long search(const double* xp, long long n, double x) {
  if (x > xp[n - 1]) return n;
  if (x < xp[0]) return -1;
  long long lo = 0, hi = n;
  while (lo < hi) {
    long long mid = lo + ((hi - lo) >> 1);
    if (x >= xp[mid]) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}

// One real component of numpy.interp (its compiled loop, NaN fallbacks included). MUL: the
// complex variant's slope, dy * (1/dx), instead of dy / dx.
template <bool MUL>
__device__ __forceinline__ double interp(double x, const double* xp, const double* fp, long long n,
                                         double left, double right) {
  if (n == 1) return x < xp[0] ? left : (x > xp[0] ? right : fp[0]);
  if (isnan(x)) return x;
  long long j = search(xp, n, x);
  if (j == -1) return left;
  if (j == n) return right;
  if (j == n - 1) return fp[j];
  if (xp[j] == x) return fp[j];
  double slope = MUL ? (fp[j + 1] - fp[j]) * (1.0 / (xp[j + 1] - xp[j]))
                     : (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
  double r = slope * (x - xp[j]) + fp[j];
  if (isnan(r)) {
    r = slope * (x - xp[j + 1]) + fp[j + 1];
    if (isnan(r) && fp[j] == fp[j + 1]) r = fp[j];
  }
  return r;
}

}  // namespace cuarray_signal
