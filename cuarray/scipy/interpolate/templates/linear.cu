// interp1d(kind='linear') evaluation in one kernel (cuarray/scipy/interpolate/_linear.py): each
// thread reads its query points once (streaming loads; with PIPE the next batch's loads issued
// before the current batch is evaluated), finds their segments in the knots, applies SciPy's
// formula (1.17's slope or 1.18's weights, as the installed SciPy; or numpy.interp's, which SciPy
// delegates to for 1-D float64 data), puts the fill values outside the range and writes each value
// once (streaming stores). No index array, no second pass, no host sync.
//
// The search (SEARCH): 0, a guess from the mean knot spacing, checked, galloping and bisecting
// where it misses (knots the caller may still write: nothing built from them); 1 and 2, a cell
// table built once per interpolator (interp1d_cells): ncells uniform cells over [x[0], x[n-1]],
// start[c] the first knot whose cell is >= c. The cell of a value is a monotone function of it
// (cell_of: a rounded subtraction and product, a floor, a clamp), computed by the same code for
// the knots and the points, so the knots before start[c] are below every point of cell c and the
// knots from start[c + 1] on above it: the table's bracket is exact for any sorted knots, however
// spaced (a crowded cell costs a bisection, never a wrong segment). 1 reads records a - 1 and a,
// then a + 1 where x[a] comes before the point; 2 reads the three at once. 3: the guess with
// four records around it read at once (no table; galloping where they miss). 4: the guess's two
// records read at once, and where they do not bracket the point the cell table's (as 2) in place
// of galloping: the guess's cost where the knots are near their mean spacing, the table's where
// they are not (crowded knots do not fall back to long gallops).
// 5 (the default): the guess's records j and j + 1 read at once, one neighbour (j - 1 or j + 2)
// where they miss, galloping only past that (near_before); numpy.interp's formula on a PAIRED table
// takes numpy_point, the same reads in fewer instructions (a bisection past the neighbour).
// interp1d_linear_staged runs 5 on a PAIRED table copied into shared memory (where it fits and the
// points are many).
//
// The knots and values are read through the read-only cache; with one real column of the
// knots' dtype they come interleaved, (x[k], y[k]) in one 8- or 16-byte load, so a point costs
// two or three gathers of records instead of four or six.
//
// Compiled for the host by the CPU tests (tests/scipy/interpolate/test_interpolate_linear_cpu.py:
// g++, no __CUDACC__), which check the per-point function bit for bit against SciPy/NumPy with
// every search.

#include <cuarray/rounded.cuh>
#ifdef __CUDACC__
#define CUARRAY_LIN_DEV __device__ __forceinline__
#include <cuarray/indexing.cuh>
#else
#define CUARRAY_LIN_DEV inline
namespace cuarray {  // the host build's record of cuarray::device_error (indexing.cuh): no atomics
inline void device_error(unsigned long long* err, unsigned long long flag, unsigned long long value, long long axis,
                         long long size) {
  if (err[0] == 0ull || err[0] == flag) {
    err[0] = flag;
    if (value > err[1]) err[1] = value;
    err[2] = (unsigned long long)axis;
    err[3] = (unsigned long long)size;
  }
}
}  // namespace cuarray
#endif

namespace cuarray_interp1d {

// MODE_SLOPE: SciPy 1.17's _call_linear, slope = dy / dx, value = slope * (v - x_lo) + y_lo, each
// operation rounded in NumPy's promoted type. MODE_RECIP: the same for complex values (column
// pairs re, im), NumPy's complex division by (dx + 0j) and complex multiply by (v - x_lo + 0j).
// MODE_NUMPY: numpy.interp (float64; knots hit exactly return their value; NaN fallbacks).
// MODE_WEIGHTS: SciPy 1.18's _call_linear, value = ((v - x_lo) / dx) * y_hi + ((x_hi - v) / dx) *
// y_lo, the weights in the points' and knots' promoted type, each product in its promotion with the
// values' type. MODE_WEIGHTS_COMPLEX: the same for complex values (column pairs re, im), each
// product NumPy's complex multiply of (w + 0j) by the value.
enum { MODE_SLOPE = 0, MODE_RECIP = 1, MODE_NUMPY = 2, MODE_WEIGHTS = 3, MODE_WEIGHTS_COMPLEX = 4 };

// bounds_error=True: a point below x[0] (above x[n-1]) is recorded in the device error channel
// (cuarray/_core/device_errors.py) under these flags (registered by _linear.py), with the
// point's and the bound's float64 bits; the host raises SciPy's ValueError at its next sync.
enum : unsigned long long { FLAG_BELOW = 531ull, FLAG_ABOVE = 532ull };

CUARRAY_LIN_DEV unsigned long long bits_of(double v) {
  union {
    double d;
    unsigned long long u;
  } b;
  b.d = v;
  return b.u;
}

CUARRAY_LIN_DEV float mul_rn(float a, float b) { return cuarray::rn::mul(a, b); }  // never contracted into an fma
CUARRAY_LIN_DEV double mul_rn(double a, double b) { return cuarray::rn::mul(a, b); }
CUARRAY_LIN_DEV double sub_rn(double a, double b) { return cuarray::rn::sub(a, b); }
#ifdef __CUDACC__
CUARRAY_LIN_DEV int to_int_sat(double g) { return __double2int_rz(g); }  // past INT_MAX: INT_MAX
CUARRAY_LIN_DEV int load_index(const int* p) { return __ldg(p); }
template <typename T> CUARRAY_LIN_DEV T load(const T* p) { return __ldg(p); }
template <typename T> CUARRAY_LIN_DEV T load_stream(const T* p) { return __ldcs(p); }
template <typename T> CUARRAY_LIN_DEV void store(T* p, T v) { __stcs(p, v); }
template <typename T>
struct Pair;  // the 2-vector type of one (x, y) record
template <>
struct Pair<double> {
  typedef double2 type;
};
template <>
struct Pair<float> {
  typedef float2 type;
};
// record k of an interleaved table: through the read-only cache, or (shared) a plain load of a table
// staged in shared memory (fewer than 2**31 records: a 32-bit index)
template <typename T> CUARRAY_LIN_DEV void load_pair(const T* p, long long k, T& a, T& b) {
  typename Pair<T>::type r = __ldg(reinterpret_cast<const typename Pair<T>::type*>(p) + k);
  a = r.x;
  b = r.y;
}
template <typename T> CUARRAY_LIN_DEV void load_pair_shared(const T* p, long long k, T& a, T& b) {
  typename Pair<T>::type r = reinterpret_cast<const typename Pair<T>::type*>(p)[(int)k];
  a = r.x;
  b = r.y;
}
#else
inline int to_int_sat(double g) { return g < 2147483647.0 ? (int)g : 2147483647; }  // (g > 0)
inline int load_index(const int* p) { return *p; }
template <typename T> inline T load(const T* p) { return *p; }
template <typename T> inline T load_stream(const T* p) { return *p; }
template <typename T> inline void store(T* p, T v) { *p = v; }
template <typename T> inline void load_pair(const T* p, long long k, T& a, T& b) {
  a = p[2 * k];
  b = p[2 * k + 1];
}
template <typename T> inline void load_pair_shared(const T* p, long long k, T& a, T& b) { load_pair(p, k, a, b); }
#endif

// a * b rounded once in the type C++ (and NumPy) promote them to
template <typename A, typename B>
CUARRAY_LIN_DEV auto mul(A a, B b) -> decltype(a * b) {
  typedef decltype(a * b) C;
  return mul_rn((C)a, (C)b);
}

// The knots and values: x[k] and y[k * ncols + c] from two arrays (PAIRED false), or one array
// of (x[k], y[k]) pairs (PAIRED true: one column, values of the knots' type), in global memory or
// (SHARED, interp1d_linear_staged) staged in shared memory.
template <typename T, typename Y, bool PAIRED, bool SHARED = false>
struct Table {
  static constexpr bool kPaired = false;
  struct Rec {
    T x;
  };
  const T* x;
  const Y* y;
  long long ncols;
  CUARRAY_LIN_DEV Rec at(long long k) const {
    Rec r;
    r.x = load(x + k);
    return r;
  }
  CUARRAY_LIN_DEV Y value(const Rec&, long long k, long long c) const { return load(y + k * ncols + c); }
};

template <typename T, typename Y, bool SHARED>
struct Table<T, Y, true, SHARED> {
  static constexpr bool kPaired = true;
  struct Rec {
    T x;
    T y;
  };
  const T* x;  // 2n entries: x[0], y[0], x[1], y[1], ...
  const Y* y;  // unused
  long long ncols;
  CUARRAY_LIN_DEV Rec at(long long k) const {
    Rec r;
    if (SHARED)
      load_pair_shared(x, k, r.x, r.y);
    else
      load_pair(x, k, r.x, r.y);
    return r;
  }
  CUARRAY_LIN_DEV T value(const Rec& r, long long, long long) const { return r.y; }
};

// Whether knot a comes before v: a <= v (RIGHT: numpy.interp's x[j] <= v < x[j + 1]) or a < v
// (SciPy's searchsorted 'left'). Compared in float64 (exact for float32/float64 knots and points).
template <bool RIGHT>
CUARRAY_LIN_DEV bool before(double a, double v) { return RIGHT ? a <= v : a < v; }

// The last knot index in [0, n) that comes before v (-1 for none), from the guess j in
// [0, n - 2]: records j and j + 1 first (the answer for evenly spaced knots and most jittered
// ones), then galloping away from the miss (steps 1, 2, 4, ...) and bisecting the bracket, so
// any sorted knots give the binary search's answer. rl: record lo (when lo >= 0); rh: record
// lo + 1 (when lo + 1 < n): the records the search read, no second gather of them.
template <bool RIGHT, typename Tab>
CUARRAY_LIN_DEV long long last_before(const Tab& tab, long long n, double v, long long j, typename Tab::Rec& rl,
                                      typename Tab::Rec& rh) {
  long long lo = -1, hi = n;  // invariant: x[lo] comes before v, x[hi] does not (-1, n: virtual)
  typename Tab::Rec a = tab.at(j);
  if (before<RIGHT>((double)a.x, v)) {
    lo = j;
    rl = a;
    typename Tab::Rec b = tab.at(j + 1);
    if (!before<RIGHT>((double)b.x, v)) {
      rh = b;
      return j;
    }
    lo = j + 1;
    rl = b;
    for (long long step = 1; lo + step < n; step <<= 1) {
      typename Tab::Rec p = tab.at(lo + step);
      if (!before<RIGHT>((double)p.x, v)) {
        hi = lo + step;
        rh = p;
        break;
      }
      lo += step;
      rl = p;
    }
  } else {
    hi = j;
    rh = a;
    for (long long step = 1; hi - step >= 0; step <<= 1) {
      typename Tab::Rec p = tab.at(hi - step);
      if (before<RIGHT>((double)p.x, v)) {
        lo = hi - step;
        rl = p;
        break;
      }
      hi -= step;
      rh = p;
    }
  }
  while (hi - lo > 1) {
    long long mid = lo + ((hi - lo) >> 1);
    typename Tab::Rec p = tab.at(mid);
    if (before<RIGHT>((double)p.x, v)) {
      lo = mid;
      rl = p;
    } else {
      hi = mid;
      rh = p;
    }
  }
  return lo;
}

// The guess for v: the index its distance from x[0] in mean spacings gives, in [0, n - 2]
// (scale = (n - 1) / (x[n-1] - x[0]); NaN or infinite products land at an end).
CUARRAY_LIN_DEV long long guess(double v, double x0, double scale, long long n) {
  double g = (v - x0) * scale;
  if (!(g > 0.0)) return 0;
  if (g >= (double)(n - 2)) return n - 2;
  return (long long)g;
}

// The cell of v in [0, ncells): floor((v - x0) * inv) clamped (NaN, below x0: 0), each
// operation rounded once, so the knots' cells (interp1d_cells) and the points' agree bit for bit
// and the cell is a monotone function of v (a wrong rounding moves a value to a neighbouring cell
// together with any knot equal to it, never past one).
CUARRAY_LIN_DEV long long cell_of(double v, double x0, double inv, long long ncells) {
  double g = mul_rn(sub_rn(v, x0), inv);
  if (!(g > 0.0)) return 0;
  if (g >= (double)(ncells - 1)) return ncells - 1;
  return (long long)g;
}

// Cells per unit of x: ncells / (x[n-1] - x[0]) (infinite, zero or NaN for degenerate knots:
// every value then lands in one cell or at an end, still monotone; the bracket is all knots).
CUARRAY_LIN_DEV double cell_scale(double x0, double xn, long long ncells) { return (double)ncells / sub_rn(xn, x0); }

// start[c]: the first knot index whose cell is >= c (n for none), c in [0, ncells]; a binary
// search over the knots' cells (monotone in k for sorted knots; in [0, n] for any).
template <typename Tab>
CUARRAY_LIN_DEV int cell_start(const Tab& tab, long long n, double x0, double inv, long long ncells, long long c) {
  long long lo = 0, hi = n;
  while (lo < hi) {
    long long mid = lo + ((hi - lo) >> 1);
    if (cell_of((double)tab.at(mid).x, x0, inv, ncells) < c)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (int)lo;
}

// last_before's answer from the cell table (SEARCH 1 or 2; 4 where the guess misses): a = start[c] for v's cell c, so
// x[a - 1] < v (its cell is below c) and x[start[c + 1]] > v; the answer is a - 1 unless x[a]
// comes before v, then a unless x[a + 1] does too, then a bisection of (a + 1, start[c + 1]).
// rl, rh as last_before's. Indices are clamped to [0, n - 1] before any load (start[] of unsorted
// knots is still in [0, n]).
template <bool RIGHT, int SEARCH, typename Tab>
CUARRAY_LIN_DEV long long cell_before(const Tab& tab, const int* start, long long n, long long c, double v,
                                      typename Tab::Rec& rl, typename Tab::Rec& rh) {
  long long a = (long long)load_index(start + c);
  long long b = a + 1 < n ? a + 1 : n - 1;
  typename Tab::Rec p = tab.at(a > 0 ? a - 1 : 0), q = tab.at(a < n ? a : n - 1), r;
  if (SEARCH == 2) r = tab.at(b);
  rl = p;
  rh = q;
  if (a >= n || !before<RIGHT>((double)q.x, v)) return a - 1;
  rl = q;
  if (SEARCH != 2) r = tab.at(b);
  rh = r;
  if (a + 1 >= n || !before<RIGHT>((double)r.x, v)) return a;
  long long lo = a + 1, hi = (long long)load_index(start + c + 1);  // a crowded cell
  rl = r;
  if (hi > n) hi = n;
  while (hi - lo > 1) {
    long long mid = lo + ((hi - lo) >> 1);
    typename Tab::Rec m = tab.at(mid);
    if (before<RIGHT>((double)m.x, v)) {
      lo = mid;
      rl = m;
    } else {
      hi = mid;
    }
  }
  rh = tab.at(lo + 1 < n ? lo + 1 : n - 1);
  return lo;
}

// last_before's answer from a window of four records around the guess j (SEARCH 3, no table):
// records j - 1 .. j + 2 read at once (clamped to the knots), the answer is the window's last knot
// before v when the window brackets it (for sorted knots the knots before v come first), else
// last_before's galloping from j. rl, rh as last_before's.
template <bool RIGHT, typename Tab>
CUARRAY_LIN_DEV long long window_before(const Tab& tab, long long n, double v, long long j, typename Tab::Rec& rl,
                                        typename Tab::Rec& rh) {
  long long i0 = j > 0 ? j - 1 : 0, e = n - 1;
  typename Tab::Rec r0 = tab.at(i0), r1 = tab.at(i0 + 1 < e ? i0 + 1 : e), r2 = tab.at(i0 + 2 < e ? i0 + 2 : e),
                    r3 = tab.at(i0 + 3 < e ? i0 + 3 : e);
  int k = (int)before<RIGHT>((double)r0.x, v) + (int)(i0 + 1 < n && before<RIGHT>((double)r1.x, v)) +
          (int)(i0 + 2 < n && before<RIGHT>((double)r2.x, v)) + (int)(i0 + 3 < n && before<RIGHT>((double)r3.x, v));
  if ((k == 0 && i0 > 0) || (k == 4 && i0 + 4 < n)) return last_before<RIGHT>(tab, n, v, j, rl, rh);
  rl = k <= 1 ? r0 : k == 2 ? r1 : k == 3 ? r2 : r3;
  rh = k == 0 ? r0 : k == 1 ? r1 : k == 2 ? r2 : r3;
  return i0 + k - 1;
}

// last_before's answer from the guess j in [0, n - 2] (SEARCH 5, no table): records j and j + 1
// loaded together (SEARCH 0 loads j + 1 only after comparing x[j]: two dependent round trips a
// point), then where they miss, one load for both sides, j - 1 where x[j] does not come before v
// and j + 2 where x[j + 1] does (the answer on jittered knots, which miss by one), and only where
// that misses too (the ends, uneven knots) last_before's galloping from j. The miss lanes of a warp
// take one load together, where SEARCH 0 runs two divergent gallop loops. Knot indices in 32 bits
// (search_for keeps SEARCH 0 past 2**31 - 3 knots). rl, rh as last_before's.
template <bool RIGHT, typename Tab>
CUARRAY_LIN_DEV long long near_before(const Tab& tab, long long n, double v, long long j, typename Tab::Rec& rl,
                                      typename Tab::Rec& rh) {
  int i = (int)j, e = (int)n;
  typename Tab::Rec a = tab.at(i), b = tab.at(i + 1);
  bool left = !before<RIGHT>((double)a.x, v), right = before<RIGHT>((double)b.x, v);
  if (!left && !right) {
    rl = a;
    rh = b;
    return i;
  }
  int k = left ? i - 1 : i + 2;
  if (k >= 0 && k < e) {
    typename Tab::Rec c = tab.at(k);
    bool cb = before<RIGHT>((double)c.x, v);
    if (left && cb) {
      rl = c;
      rh = a;
      return k;
    }
    if (right && !cb) {
      rl = b;
      rh = c;
      return i + 1;
    }
  }
  return last_before<RIGHT>(tab, n, v, j, rl, rh);
}

// What a point's search needs: the ends x0, xn, the mean-spacing scale (SEARCH 0, 3, 4, 5) and the
// cell table start[0..ncells] with its scale (SEARCH 1, 2, 4).
struct Search {
  double x0, xn, scale, inv;
  const int* cells;
  long long ncells;
};

// last_before's answer from the guess j in [0, n - 2] and the cell table (SEARCH 4): records j and
// j + 1 read at once; where x[j] comes before v and x[j + 1] does not, j is the answer (for sorted
// knots, exact); else cell_before's bracket from v's cell (SEARCH 2's reads). rl, rh as
// cell_before's (both set: on a hit the records j and j + 1).
template <bool RIGHT, typename Tab>
CUARRAY_LIN_DEV long long hybrid_before(const Tab& tab, const Search& s, long long n, double v, long long j,
                                        typename Tab::Rec& rl, typename Tab::Rec& rh) {
  typename Tab::Rec a = tab.at(j), b = tab.at(j + 1);
  if (before<RIGHT>((double)a.x, v) && !before<RIGHT>((double)b.x, v)) {
    rl = a;
    rh = b;
    return j;
  }
  return cell_before<RIGHT, 2>(tab, s.cells, n, cell_of(v, s.x0, s.inv, s.ncells), v, rl, rh);
}

template <typename Tab>
CUARRAY_LIN_DEV Search make_search(const Tab& tab, long long n, const int* cells, long long ncells) {
  Search s;
  s.x0 = (double)tab.at(0).x;
  s.xn = (double)tab.at(n - 1).x;
  s.scale = (double)(n - 1) / (s.xn - s.x0);
  s.inv = cell_scale(s.x0, s.xn, ncells);
  s.cells = cells;
  s.ncells = ncells;
  return s;
}

// SciPy 1.17's value on the segment (xl, xh] of one real column (MODE_SLOPE).
template <typename Q, typename T, typename Y>
CUARRAY_LIN_DEV auto scipy_value(Q v, T xl, T xh, Y yl, Y yh) {
  typedef decltype(T() * Y()) C;  // the slope's type: NumPy's promotion of dy and dx
  Y dy = yh - yl;
  T dx = xh - xl;
  C slope = (C)dy / (C)dx;
  return mul(slope, v - xl) + yl;
}

// MODE_RECIP: SciPy 1.17's value of one complex column (re, im pairs): the slope is NumPy's complex
// division of dy by (dx + 0j) (Smith's method, |dx| >= 0: rat = 0 / dx, scale = 1 / dx; a zero dx
// divides by |dx|), times (v - xl + 0j) by NumPy's complex multiply, plus yl.
template <typename Q, typename T, typename Y>
CUARRAY_LIN_DEV void scipy_value_complex(Q v, T xl, T xh, Y lre, Y lim, Y hre, Y him, decltype(T() * Y() * Q())& re,
                                         decltype(T() * Y() * Q())& im) {
  typedef decltype(T() * Y()) S;  // the slope's component type
  typedef decltype(S() * Q() * T()) C;  // the product's: with the offset's
  S dr = (S)(hre - lre), di = (S)(him - lim);
  S d = (S)(xh - xl), sr, si;
  if (d == S(0)) {  // by |dx| = +0
    sr = dr / S(0);
    si = di / S(0);
  } else {
    S rat = S(0) / d, scl = S(1) / (d + mul_rn(S(0), rat));
    sr = mul_rn(dr + mul_rn(di, rat), scl);
    si = mul_rn(di - mul_rn(dr, rat), scl);
  }
  C t = (C)(v - xl), z = C(0);
  re = (mul_rn((C)sr, t) - mul_rn((C)si, z)) + (C)lre;
  im = (mul_rn((C)sr, z) + mul_rn((C)si, t)) + (C)lim;
}

// SciPy 1.18's weights of y_hi and y_lo at v on (xl, xh]: (v - xl) / dx and (xh - v) / dx, dx = xh - xl
// in the knots' type, the rest in the promotion P of the points' and knots' types.
template <typename Q, typename T>
CUARRAY_LIN_DEV void weights(Q v, T xl, T xh, decltype(Q() - T())& wh, decltype(Q() - T())& wl) {
  typedef decltype(Q() - T()) P;
  T dx = xh - xl;
  wh = (P)(v - xl) / (P)dx;
  wl = (P)(xh - v) / (P)dx;
}

// MODE_WEIGHTS: wh * yh + wl * yl, each product rounded in NumPy's promotion of the weight and the
// value, then the sum (no fma: mul_rn).
template <typename P, typename Y>
CUARRAY_LIN_DEV auto weighted(P wh, P wl, Y yl, Y yh) -> decltype(P() * Y()) {
  return mul(wh, yh) + mul(wl, yl);
}

// MODE_WEIGHTS_COMPLEX: (wh + 0j) * (yh_re + i yh_im) + (wl + 0j) * (yl_re + i yl_im), NumPy's complex
// multiply (re = a c - b d, im = a d + b c) in the promoted complex type: the zero terms keep
// NumPy's NaN (an infinite or NaN component) and signed zeros.
template <typename P, typename Y>
CUARRAY_LIN_DEV void weighted_complex(P wh, P wl, Y lre, Y lim, Y hre, Y him, decltype(P() * Y())& re,
                                      decltype(P() * Y())& im) {
  typedef decltype(P() * Y()) C;
  C ah = (C)wh, al = (C)wl, z = C(0);
  re = (mul_rn(ah, (C)hre) - mul_rn(z, (C)him)) + (mul_rn(al, (C)lre) - mul_rn(z, (C)lim));
  im = (mul_rn(ah, (C)him) + mul_rn(z, (C)hre)) + (mul_rn(al, (C)lim) + mul_rn(z, (C)lre));
}

// numpy.interp's retry where slope * (v - x_lo) + y_lo is NaN: from x_hi, then y_lo where y_lo == y_hi
// (a call, not inlined: the hot paths keep it out of their issue slots).
#ifdef __CUDACC__
__device__ __noinline__
#else
inline
#endif
double numpy_nan_retry(double slope, double v, double xh, double yl, double yh) {
  double r = mul_rn(slope, v - xh) + yh;
  return r != r && yl == yh ? yl : r;
}

// numpy.interp's value at v in [x[0], x[n-1]] (float64), lo the last knot at or before v.
template <typename Tab>
CUARRAY_LIN_DEV double numpy_value(const Tab& tab, const typename Tab::Rec& rl, const typename Tab::Rec& rh,
                                   long long lo, long long n, double v) {
  double yl = (double)tab.value(rl, lo, 0);
  if (lo == n - 1 || (double)rl.x == v) return yl;
  double yh = (double)tab.value(rh, lo + 1, 0);
  double xl = (double)rl.x, xh = (double)rh.x;
  double slope = (yh - yl) / (xh - xl);
  double r = mul_rn(slope, v - xl) + yl;
  return r != r ? numpy_nan_retry(slope, v, xh, yl, yh) : r;
}

// numpy.interp's value at v in [x0, xn) on a paired table (MODE_NUMPY with SEARCH 5): what
// eval_point computes there (near_before's segment, numpy_value's formula), in fewer issue slots a
// point (ncu on an H100 counted 143 a point, issue slots 79% busy; this path 102, with the
// shared-memory loads then the limit: L1/shared pipe 83% busy at ~7.4 wavefronts a random 16-byte
// gather). The segment is the one j with x[j] before v and x[j + 1] not (unique on sorted knots);
// the guess's 32-bit index; a miss reads the one record beyond the pair (j - 1 or j + 2: the answer on
// jittered knots) and shifts the pair by selects (reading both records of the neighbouring segment
// again cost 18% more shared wavefronts); only past that, a bisection of all the knots (on sorted
// knots the same segment as last_before's galloping). No end tests: j is in [0, n - 2], and v < xn.
// The caller sends every other point (NaN, outside, v >= xn) to eval_point.
template <typename Tab>
CUARRAY_LIN_DEV double numpy_point(const Tab& tab, int n, const Search& s, double v) {
  double g = (v - s.x0) * s.scale;
  int j = g > 0.0 ? to_int_sat(g) : 0;  // (NaN: 0)
  j = j < n - 2 ? j : n - 2;
  typename Tab::Rec a = tab.at(j), b = tab.at(j + 1);
  bool left = !before<true>((double)a.x, v), right = before<true>((double)b.x, v);
  if (left || right) {
    int k = left ? j - 1 : j + 2;
    typename Tab::Rec c = tab.at(k < 0 ? 0 : k > n - 1 ? n - 1 : k);  // (clamped: unsorted knots only)
    if (left) {
      b = a;
      a = c;
    } else {
      a = b;
      b = c;
    }
    if (!before<true>((double)a.x, v) || before<true>((double)b.x, v)) {  // a bisection of all the knots
      int lo = 0, hi = n - 1;  // x[lo] before v (v >= x0), x[hi] not (v < xn)
      while (hi - lo > 1) {
        int mid = (lo + hi) >> 1;
        if (before<true>((double)tab.at(mid).x, v))
          lo = mid;
        else
          hi = mid;
      }
      a = tab.at(lo);
      b = tab.at(lo + 1);
    }
  }
  double xl = (double)a.x, yl = (double)a.y, yh = (double)b.y;
  double slope = (yh - yl) / ((double)b.x - xl);
  double r = mul_rn(slope, v - xl) + yl;
  if (__builtin_expect(r != r, 0)) r = numpy_nan_retry(slope, v, (double)b.x, yl, yh);
  return xl == v ? yl : r;  // a knot hit exactly: its value (a select, not a branch around the formula)
}

// One query point: its ncols values into out[0..ncols). below/above: the fill values a column
// (float64) used outside [x0, xn] unless ext; err (not null: bounds_error) records such a point.
template <int MODE, int SEARCH, typename R, typename Q, typename Tab>
CUARRAY_LIN_DEV void eval_point(const Tab& tab, long long n, const Search& s, Q v, const double* below,
                                const double* above, bool ext, unsigned long long* err, R* out) {
  long long ncols = tab.ncols;
  double x0 = s.x0, xn = s.xn;
  double vd = (double)v;
  if constexpr (MODE == MODE_NUMPY && SEARCH == 5 && Tab::kPaired) {
    if (vd >= x0 && vd < xn) {
      store(out, (R)numpy_point(tab, (int)n, s, vd));
      return;
    }
  }
  if (vd != vd) {
    for (long long c = 0; c < ncols; ++c) store(out + c, (R)v);
    return;
  }
  if (!ext && (vd < x0 || vd > xn)) {
    const double* f = vd < x0 ? below : above;
    if (err != nullptr) {
      bool low = vd < x0;
      cuarray::device_error(err, low ? FLAG_BELOW : FLAG_ABOVE, bits_of(vd), 0, (long long)bits_of(low ? x0 : xn));
    }
    for (long long c = 0; c < ncols; ++c) store(out + c, (R)f[c]);
    return;
  }
  typename Tab::Rec rl, rh;
  long long lo = SEARCH == 0   ? last_before<MODE == MODE_NUMPY>(tab, n, vd, guess(vd, x0, s.scale, n), rl, rh)
                 : SEARCH == 3 ? window_before<MODE == MODE_NUMPY>(tab, n, vd, guess(vd, x0, s.scale, n), rl, rh)
                 : SEARCH == 4 ? hybrid_before<MODE == MODE_NUMPY>(tab, s, n, vd, guess(vd, x0, s.scale, n), rl, rh)
                 : SEARCH == 5 ? near_before<MODE == MODE_NUMPY>(tab, n, vd, guess(vd, x0, s.scale, n), rl, rh)
                               : cell_before<MODE == MODE_NUMPY, SEARCH>(tab, s.cells, n,
                                                                         cell_of(vd, x0, s.inv, s.ncells), vd, rl, rh);
  if (MODE == MODE_NUMPY) {  // one column; in range, so lo >= 0
    store(out, (R)numpy_value(tab, rl, rh, lo, n, vd));
    return;
  }
  long long hi = lo + 1;  // SciPy clips searchsorted's index to [1, n - 1]: the end segments extend
  if (hi < 1 || hi > n - 1) {
    hi = hi < 1 ? 1 : n - 1;
    rl = tab.at(hi - 1);
    rh = tab.at(hi);
  }
  if (MODE == MODE_RECIP) {
    for (long long c = 0; c + 1 < ncols; c += 2) {
      decltype(rl.x * tab.value(rl, 0, 0) * v) re, im;
      scipy_value_complex(v, rl.x, rh.x, tab.value(rl, hi - 1, c), tab.value(rl, hi - 1, c + 1), tab.value(rh, hi, c),
                          tab.value(rh, hi, c + 1), re, im);
      store(out + c, (R)re);
      store(out + c + 1, (R)im);
    }
    return;
  }
  if (MODE == MODE_WEIGHTS || MODE == MODE_WEIGHTS_COMPLEX) {
    decltype(Q() - rl.x) wh, wl;
    weights(v, rl.x, rh.x, wh, wl);
    if (MODE == MODE_WEIGHTS) {
      for (long long c = 0; c < ncols; ++c)
        store(out + c, (R)weighted(wh, wl, tab.value(rl, hi - 1, c), tab.value(rh, hi, c)));
    } else {
      for (long long c = 0; c + 1 < ncols; c += 2) {
        decltype(wh * tab.value(rl, 0, 0)) re, im;
        weighted_complex(wh, wl, tab.value(rl, hi - 1, c), tab.value(rl, hi - 1, c + 1), tab.value(rh, hi, c),
                         tab.value(rh, hi, c + 1), re, im);
        store(out + c, (R)re);
        store(out + c + 1, (R)im);
      }
    }
    return;
  }
  for (long long c = 0; c < ncols; ++c)
    store(out + c, (R)scipy_value(v, rl.x, rh.x, tab.value(rl, hi - 1, c), tab.value(rh, hi, c)));
}

#ifdef __CUDACC__
constexpr int kThreads = 256;
// Blocks an SM the query kernel is compiled for: 4 x 256 threads caps it at 64 registers, which
// every NVRTC then holds to (13.5 needs 64 on its own, the GPU machine's NVRTC chose 72: 3 blocks).
constexpr int kMinBlocks = 4;
constexpr int kUnroll = 4;  // points a thread loads before evaluating any: 4 loads in flight

// The UNROLL points of the thread's batch at `base` (p = base + u * THREADS; 0 past m).
template <int THREADS = kThreads, int UNROLL = kUnroll, typename Q>
CUARRAY_LIN_DEV void load_points(const Q* __restrict__ xq, long long qstride, long long m, long long base, Q* v) {
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    long long p = base + (long long)u * THREADS;
    v[u] = p < m ? load_stream(xq + p * qstride) : Q(0);
  }
}

// Both kernels' grid-stride loop over batches of THREADS * UNROLL consecutive points from `base`
// (the first batch already in v with PIPE): each load instruction coalesced; with PIPE the next
// batch's points are loaded before this one is evaluated, so a thread's streaming loads are in
// flight while it searches. CONTIG: unit-stride points (the caller's qstride is 1), the stride a
// constant: ~8 integer instructions a point fewer than the strided products (2 us of 62 at the
// bench row on an H200, staged kernel).
template <int THREADS, int UNROLL, int MODE, int SEARCH, bool PIPE, bool CONTIG, typename Tab, typename Q, typename R>
CUARRAY_LIN_DEV void grid_loop(const Tab& tab, const Search& s, const Q* __restrict__ xq, long long qstride,
                               long long m, long long n, const double* __restrict__ below,
                               const double* __restrict__ above, int ext, unsigned long long* err,
                               R* __restrict__ out, long long base, Q* v, Q* w) {
  const long long qs = CONTIG ? 1 : qstride, ncols = tab.ncols;
  const long long stride = (long long)gridDim.x * THREADS * UNROLL;
  for (; base < m; base += stride) {
    if (PIPE)
      load_points<THREADS, UNROLL>(xq, qs, m, base + stride, w);
    else
      load_points<THREADS, UNROLL>(xq, qs, m, base, v);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      long long p = base + (long long)u * THREADS;
      if (p < m) eval_point<MODE, SEARCH, R>(tab, n, s, v[u], below, above, ext != 0, err, out + p * ncols);
    }
    if (PIPE) {
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = w[u];
    }
  }
}

// m query points xq[p * qstride] into out (m, ncols). x, y: the knots (n >= 2) and values
// (n, ncols), or with PAIRED the (n, 2) table in x (y unused). err: the device error buffer
// (bounds_error) or null. cells: start[0..ncells] of interp1d_cells (SEARCH 1, 2, 4; unread with
// SEARCH 0, 3). A grid-stride loop over blocks of kThreads * kUnroll consecutive points (each load
// instruction coalesced); PIPE: the next batch's points are loaded before this one is evaluated,
// so a thread's streaming loads are in flight while it searches.
template <typename Q, typename T, typename Y, typename R, int MODE, bool PAIRED, int SEARCH, bool PIPE>
__global__ void __launch_bounds__(kThreads, kMinBlocks) interp1d_linear(const Q* __restrict__ xq, long long qstride, long long m,
                                                            const T* __restrict__ x, const Y* __restrict__ y,
                                                            long long n, long long ncols,
                                                            const double* __restrict__ below,
                                                            const double* __restrict__ above, int ext,
                                                            unsigned long long* err, R* __restrict__ out,
                                                            const int* __restrict__ cells, long long ncells) {
  Table<T, Y, PAIRED> tab;
  tab.x = x;
  tab.y = y;
  tab.ncols = ncols;
  Search s = make_search(tab, n, cells, ncells);
  long long base = (long long)blockIdx.x * kThreads * kUnroll + threadIdx.x;
  Q v[kUnroll], w[kUnroll];
  if (PIPE) load_points(xq, qstride, m, base, v);
  grid_loop<kThreads, kUnroll, MODE, SEARCH, PIPE, false>(tab, s, xq, qstride, m, n, below, above, ext, err, out, base, v,
                                                          w);
}

// interp1d_linear_staged reads the (n, 2) records from shared memory (Table's SHARED). A warp's
// gather of 32 random 16-byte records costs L1 one wavefront a distinct line (~32 a load, two
// loads a point: the L1 path's limit, docs/perf-notes.md); from shared memory it costs the bank
// conflicts of each quarter warp (~10).
constexpr int kStagedThreads = 1024;  // one block an SM (the table takes most of its shared memory)
// Points a thread of the staged kernel loads at once: 2 (4 took 2% more time at 1e7 points on an H100
// and 3% at 2e6 points from L2, the SM's own cost; docs/perf-notes.md). A grid-stride loop: each
// block a contiguous m / gridDim.x points took 16% more time at 1e7 (132 DRAM streams, not one).
constexpr int kStagedUnroll = 2;

// interp1d_linear with PAIRED and SEARCH 5 on the (n, 2) table x staged in dynamic shared memory
// (2 n sizeof(T) bytes, the launch's; x 16-byte aligned): each block copies the table once (its
// first batch of points already in flight with PIPE), then runs the same grid-stride loop.
template <typename Q, typename T, typename R, int MODE, bool PIPE, bool CONTIG>
__global__ void __launch_bounds__(kStagedThreads, 1) interp1d_linear_staged(
    const Q* __restrict__ xq, long long qstride, long long m, const T* __restrict__ x, long long n,
    const double* __restrict__ below, const double* __restrict__ above, int ext, unsigned long long* err,
    R* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char staged[];
  long long base = (long long)blockIdx.x * kStagedThreads * kStagedUnroll + threadIdx.x;
  Q v[kStagedUnroll], w[kStagedUnroll];
  if (PIPE) load_points<kStagedThreads, kStagedUnroll>(xq, qstride, m, base, v);
  int bytes = (int)(2 * n * (long long)sizeof(T)), words = bytes >> 4;
  for (int i = threadIdx.x; i < words; i += kStagedThreads)
    reinterpret_cast<uint4*>(staged)[i] = __ldg(reinterpret_cast<const uint4*>(x) + i);
  if (threadIdx.x == 0 && (bytes & 15))  // float knots, n odd: the last record
    reinterpret_cast<uint2*>(staged)[2 * words] = __ldg(reinterpret_cast<const uint2*>(x) + 2 * words);
  __syncthreads();
  Table<T, T, true, true> tab;
  tab.x = reinterpret_cast<const T*>(staged);
  tab.y = tab.x;
  tab.ncols = 1;
  Search s = make_search(tab, n, nullptr, 0);
  grid_loop<kStagedThreads, kStagedUnroll, MODE, 5, PIPE, CONTIG>(tab, s, xq, qstride, m, n, below, above, ext, err,
                                                                   out, base, v, w);
}

// The cell table of the knots (x, or with PAIRED the (n, 2) table): start[c] for c in
// [0, ncells] (ncells + 1 entries), built once per interpolator (its knots are fixed).
template <typename T, bool PAIRED>
__global__ void __launch_bounds__(kThreads) interp1d_cells(const T* __restrict__ x, long long n, long long ncells,
                                                           int* __restrict__ start) {
  Table<T, T, PAIRED> tab;
  tab.x = x;
  tab.y = x;
  tab.ncols = 1;
  double x0 = (double)tab.at(0).x, xn = (double)tab.at(n - 1).x;
  double inv = cell_scale(x0, xn, ncells);
  for (long long c = (long long)blockIdx.x * kThreads + threadIdx.x; c <= ncells; c += (long long)gridDim.x * kThreads)
    start[c] = cell_start(tab, n, x0, inv, ncells, c);
}
#endif

}  // namespace cuarray_interp1d
