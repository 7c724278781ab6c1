// Device helpers of cuarray/scipy/interpolate (_kernels.py): the knot search and the piecewise
// evaluations, one output element a thread (query q, column j). Included as a kernel preamble.
namespace cuarray_interpolate {

// Whether a sorted array's entry a comes before v: a < v (SIDE_LEFT, searchsorted 'left'), a <= v (SIDE_RIGHT,
// 'right'), or a >= v (SIDE_DESC: a decreasing array's entries down to v).
enum { SIDE_LEFT = 0, SIDE_RIGHT = 1, SIDE_DESC = 2 };
template <int MODE>
__device__ __forceinline__ bool before(double a, double v) {
  return MODE == SIDE_LEFT ? a < v : (MODE == SIDE_RIGHT ? a <= v : a >= v);
}

// How many entries of the sorted a[0..len) come before v. The knots of most interpolants are close
// to evenly spaced, so the guess from the mean spacing is checked first: two adjacent reads (one
// cache sector) instead of a chain of log2(len) dependent, divergent reads. A guess that misses
// gallops away from it (steps 1, 2, 4, ...: one more read for a near miss, as jittered knots give)
// to bracket the answer, then bisects the bracket; so the answer is the binary search's for any
// sorted a, at worst after about twice its reads (knots far from evenly spaced).
// a_lo/a_hi: the entries a[r - 1] and a[r] around the answer r as the search read them (left as
// they were where r - 1 < 0 or r == len: not read), so a caller needs no second read of them.
template <int MODE, typename T>
__device__ __forceinline__ long long rank_in(const T* a, long long len, double v, double& a_lo, double& a_hi) {
  long long lo = -1, hi = len;  // invariant: a[lo] comes before v, a[hi] does not (-1, len: virtual)
  if (len > 2) {
    double a0 = (double)a[0];
    double g = (v - a0) / ((double)a[len - 1] - a0) * (double)(len - 1);  // NaN/inf/out: no guess
    if (g >= 0.0 && g < (double)(len - 1)) {
      long long j = (long long)g;  // 0 <= j <= len - 2
      double aj = (double)a[j];
      if (!before<MODE>(aj, v)) {
        hi = j;
        a_hi = aj;
        for (long long step = 1; hi - step >= 0; step <<= 1) {
          double p = (double)a[hi - step];
          if (before<MODE>(p, v)) { lo = hi - step; a_lo = p; break; }
          hi -= step;
          a_hi = p;
        }
      } else {
        double aj1 = (double)a[j + 1];
        if (!before<MODE>(aj1, v)) {
          lo = j;
          hi = j + 1;
          a_lo = aj;
          a_hi = aj1;
        } else {
          lo = j + 1;
          a_lo = aj1;
          for (long long step = 1; lo + step < len; step <<= 1) {
            double p = (double)a[lo + step];
            if (!before<MODE>(p, v)) { hi = lo + step; a_hi = p; break; }
            lo += step;
            a_lo = p;
          }
        }
      }
    }
  }
  while (hi - lo > 1) {
    long long mid = lo + ((hi - lo) >> 1);
    double p = (double)a[mid];
    if (before<MODE>(p, v)) { lo = mid; a_lo = p; } else { hi = mid; a_hi = p; }
  }
  return hi;
}

template <int MODE, typename T>
__device__ __forceinline__ long long rank_in(const T* a, long long len, double v) {
  double a_lo, a_hi;
  return rank_in<MODE>(a, len, v, a_lo, a_hi);
}

// The interval of x in the breakpoints x[0..m] (increasing, or decreasing when SIDE_DESC): the i with
// x[i] <= v < x[i+1], clamped to [0, m-1] (v == x[m] is in the last interval). -1 for NaN, -2 for
// a v outside [x[0], x[m]] when extrapolation is off.
template <typename T>
__device__ __forceinline__ long long find_interval(const T* x, long long m, double v, bool extrapolate,
                                                   bool desc) {
  if (isnan(v)) return -1;
  double lo_x = desc ? (double)x[m] : (double)x[0];
  double hi_x = desc ? (double)x[0] : (double)x[m];
  if (!extrapolate && (v < lo_x || v > hi_x)) return -2;
  // the last breakpoint at or before v (at or after it when desc), clamped to [0, m - 1]
  long long i = (desc ? rank_in<SIDE_DESC>(x, m + 1, v) : rank_in<SIDE_RIGHT>(x, m + 1, v)) - 1;
  return i < 0 ? 0 : (i > m - 1 ? m - 1 : i);
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
  double xl, xh;  // x[hi - 1], x[hi]: as the search read them (no second divergent read)
  long long r = rank_in<SIDE_LEFT>(x, n, v, xl, xh);  // the first index with x[idx] >= v ('left')
  long long hi = r < 1 ? 1 : (r > n - 1 ? n - 1 : r);  // clamped to the end segments
  if (hi != r) {
    xl = (double)x[hi - 1];
    xh = (double)x[hi];
  }
  double yl = (double)y[(hi - 1) * ncols + j], yh = (double)y[hi * ncols + j];
  return (v - xl) / (xh - xl) * yh + (xh - v) / (xh - xl) * yl;
}

}  // namespace cuarray_interpolate

namespace cuarray_interpolate {

// B-splines: the knot interval of x, l in [k, n - 1] with t[l] <= x < t[l + 1] (clamped at the
// ends: extrapolation uses the end polynomials); -1 for NaN, or outside [t[k], t[n]] when not
// extrapolating.
__device__ __forceinline__ long long bspline_interval(const double* t, long long n, int k, double x,
                                                      bool extrapolate) {
  if (isnan(x)) return -1;
  if (!extrapolate && (x < t[k] || x > t[n])) return -1;
  long long l = k + rank_in<SIDE_RIGHT>(t + k, n - k + 1, x) - 1;  // the last of t[k..n] at or before x
  return l < k ? k : (l > n - 1 ? n - 1 : l);
}

// The k + 1 B-splines of degree k nonzero on [t[l], t[l + 1]] (or their nu-th derivatives) at x,
// into h[0..k]: the Cox-de Boor recurrence raising the degree to k - nu, then nu differentiation
// steps (de Boor, "A Practical Guide to Splines", BSPLVB/BSPLVD). Knot differences of zero (repeated
// knots) contribute nothing.
template <int K1>
__device__ __forceinline__ void bspline_basis(const double* t, int k, long long l, double x, int nu, double* h) {
  double hh[K1];
  h[0] = 1.0;
  for (int j = 1; j <= k; ++j) {
    bool deriv = j > k - nu;
    for (int s = 0; s < j; ++s) hh[s] = h[s];
    h[0] = 0.0;
    for (int s = 1; s <= j; ++s) {
      double xb = t[l + s], xa = t[l + s - j];
      if (xb == xa) { h[s] = 0.0; continue; }
      if (deriv) {
        double w = j * hh[s - 1] / (xb - xa);
        h[s - 1] -= w;
        h[s] = w;
      } else {
        double w = hh[s - 1] / (xb - xa);
        h[s - 1] += w * (xb - x);
        h[s] = w * (x - xa);
      }
    }
  }
}

// One value of a tensor-product spline of D dimensions (NdBSpline; D = 1: BSpline) at point q of xi
// (points, D): per dimension its interval and basis, then the sum over the (k + 1)^D coefficients.
// t: all knot vectors concatenated (toff[d] where dimension d's start, nt[d] its length); k, nu per
// dimension; c: the coefficients, dimension d's index times cstride[d] plus `col` over ncols.
template <int D, int K1, typename T>
__device__ __forceinline__ double ndbspline(const double* t, const long long* toff, const long long* nt,
                                            const long long* kk, const long long* nu, const double* c,
                                            const long long* cstride, long long ncols, long long col,
                                            const T* xi, long long q, bool extrapolate) {
  double h[D][K1];
  long long base = col;
  int k[D];
  for (int d = 0; d < D; ++d) {
    k[d] = (int)kk[d];
    const double* td = t + toff[d];
    long long n = nt[d] - k[d] - 1;
    double x = (double)xi[q * D + d];
    long long l = bspline_interval(td, n, k[d], x, extrapolate);
    if (l < 0) return nan("");
    if (nu[d] > k[d]) return 0.0;
    bspline_basis<K1>(td, k[d], l, x, (int)nu[d], h[d]);
    base += (l - k[d]) * cstride[d] * ncols;
  }
  int idx[D];
  for (int d = 0; d < D; ++d) idx[d] = 0;
  double acc = 0.0;
  while (true) {
    double w = 1.0;
    long long off = base;
    for (int d = 0; d < D; ++d) {
      w *= h[d][idx[d]];
      off += idx[d] * cstride[d] * ncols;
    }
    acc += w * c[off];
    int d = D - 1;
    while (d >= 0 && idx[d] == k[d]) { idx[d] = 0; --d; }
    if (d < 0) break;
    ++idx[d];
  }
  return acc;
}

// BSpline.design_matrix's entries: for query q the value of B-spline (l - k + j) at x, j = i % (k + 1).
template <int K1, typename T>
__device__ __forceinline__ double bspline_entry(const double* t, long long n, int k, const T* xq, long long q,
                                                int j, bool extrapolate, long long* column) {
  double x = (double)xq[q];
  long long l = bspline_interval(t, n, k, x, extrapolate);
  if (l < 0) { *column = j; return nan(""); }
  double h[K1];
  bspline_basis<K1>(t, k, l, x, 0, h);
  *column = l - k + j;
  return h[j];
}

}  // namespace cuarray_interpolate
