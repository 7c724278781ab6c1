// Device helpers of cuarray/scipy/interpolate (_kernels.py): the knot search and the piecewise
// evaluations, one output element a thread (query q, column j). Included as a kernel preamble.
namespace cuarray_interpolate {

// The interval of x in the breakpoints x[0..m] (increasing, or decreasing when DESC): the i with
// x[i] <= v < x[i+1], clamped to [0, m-1] (v == x[m] is in the last interval). -1 for NaN, -2 for
// a v outside [x[0], x[m]] when extrapolation is off.
template <typename T>
__device__ __forceinline__ long long find_interval(const T* x, long long m, double v, bool extrapolate,
                                                   bool desc) {
  if (isnan(v)) return -1;
  double lo_x = desc ? (double)x[m] : (double)x[0];
  double hi_x = desc ? (double)x[0] : (double)x[m];
  if (!extrapolate && (v < lo_x || v > hi_x)) return -2;
  long long lo = 0, hi = m;  // invariant: the answer is in [lo, hi)
  while (hi - lo > 1) {
    long long mid = lo + ((hi - lo) >> 1);
    bool right = desc ? (v <= (double)x[mid]) : (v >= (double)x[mid]);
    if (right) lo = mid; else hi = mid;
  }
  return lo;
}

// Value of the nu-th derivative of the local polynomial sum_p c[p] s^(k-1-p) (highest power first,
// coefficient p at c[p * stride]) at s, by Horner's rule on the differentiated coefficients.
__device__ __forceinline__ double poly_at(const double* c, long long stride, int k, int nu, double s) {
  double r = 0.0;
  for (int p = 0; p < k - nu; ++p) {
    int power = k - 1 - p;
    double f = 1.0;
    for (int t = 0; t < nu; ++t) f *= (double)(power - t);
    r = r * s + c[p * stride] * f;
  }
  return r;
}

// PPoly.__call__: c is (k, m, ncols) C-contiguous; output column j of query v.
template <typename T>
__device__ __forceinline__ double ppoly(const double* c, const T* x, long long m, int k, long long ncols,
                                        long long j, double v, int nu, bool extrapolate, bool desc) {
  long long i = find_interval(x, m, v, extrapolate, desc);
  if (i < 0) return nan("");
  return poly_at(c + i * ncols + j, m * ncols, k, nu, v - (double)x[i]);
}

// interp1d(kind='linear'): the segment of v clamped to the end segments (SciPy's clip(1, n-1)), its
// two-weight formula; below/above the range the fill values unless `extrapolate`.
template <typename T, typename Y>
__device__ __forceinline__ double linear(const T* x, const Y* y, long long n, long long ncols, long long j,
                                         double v, bool extrapolate, double below, double above) {
  if (isnan(v)) return v;
  if (!extrapolate) {
    if (v < (double)x[0]) return below;
    if (v > (double)x[n - 1]) return above;
  }
  long long lo = 0, hi = n - 1;  // the first index with x[idx] >= v (searchsorted 'left'), clamped
  if (v <= (double)x[0]) hi = 1;
  else {
    while (hi - lo > 1) {
      long long mid = lo + ((hi - lo) >> 1);
      if ((double)x[mid] < v) lo = mid; else hi = mid;
    }
  }
  double xl = (double)x[hi - 1], xh = (double)x[hi];
  double yl = (double)y[(hi - 1) * ncols + j], yh = (double)y[hi * ncols + j];
  return (v - xl) / (xh - xl) * yh + (xh - v) / (xh - xl) * yl;
}

}  // namespace cuarray_interpolate
