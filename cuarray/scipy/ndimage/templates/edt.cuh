// Exact Euclidean distance transform (Felzenszwalb & Huttenlocher's lower envelope of parabolas),
// one line per call, as plain C++: CUARRAY_DEVICE is __device__ in edt.cu and empty in the host
// test (tests/scipy/ndimage/test_ndimage_edt_cpu.py builds it with g++ against scipy.ndimage).
// One pass per axis turns squared distances along the earlier axes into squared distances over
// all of them: d(x) = min_q (w2 (x - q)^2 + f(q)), w2 the squared sampling of this axis.
#ifndef CUARRAY_NDIMAGE_EDT_CUH
#define CUARRAY_NDIMAGE_EDT_CUH

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

#include "cuarray/rounded.cuh"  // cuarray::rn::mul, add: each step rounded once (never an fma)

namespace cuarray_ndimage {

#define CUARRAY_EDT_INF 1e300

// f: n values `s` apart (CUARRAY_EDT_INF where no feature is known), rewritten in place. arg: for
// each x the q that minimises (-1 when the whole line is INF). v, z, d: scratch of n, n + 1, n.
CUARRAY_DEVICE inline void edt_line(double* f, long long s, long long n, double w2, long long* v, double* z,
                                    double* d, long long* arg) {
  long long k = -1;
  for (long long q = 0; q < n; ++q) {
    double fq = f[q * s];
    if (fq >= CUARRAY_EDT_INF) continue;
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = -CUARRAY_EDT_INF;
      z[1] = CUARRAY_EDT_INF;
      continue;
    }
    for (;;) {
      long long p = v[k];
      double sp = ((fq + w2 * (double)q * q) - (f[p * s] + w2 * (double)p * p)) / (2.0 * w2 * (double)(q - p));
      if (sp <= z[k] && k > 0) {
        --k;
        continue;
      }
      if (sp <= z[k]) {  // k == 0 and the new parabola is lower everywhere: it replaces v[0]
        v[0] = q;
        z[1] = CUARRAY_EDT_INF;
        break;
      }
      ++k;
      v[k] = q;
      z[k] = sp;
      z[k + 1] = CUARRAY_EDT_INF;
      break;
    }
  }
  if (k < 0) {
    for (long long x = 0; x < n; ++x) arg[x] = -1;
    return;
  }
  long long j = 0;
  for (long long x = 0; x < n; ++x) {
    while (z[j + 1] < (double)x) ++j;
    double dx = (double)(x - v[j]);
    d[x] = w2 * dx * dx + f[v[j] * s];
    arg[x] = v[j];
  }
  for (long long x = 0; x < n; ++x) f[x * s] = d[x];
}

// The same lower envelope for a line staged contiguously (the one-warp-per-line kernel): sites
// v[0..k] only, each breakpoint recomputed from its two sites when needed and compared as the
// fraction (F(b) - F(a)) / (2 w2 (b - a)), F(q) = f[q] + w2 q^2, so there is no division (and no
// rounding at all for integer f and w2, the unit-sampled case). The top site, its F and its left
// breakpoint stay in registers; sites are added in increasing q.
struct EdtEnvelope {
  int k;              // index of the top site (-1: empty)
  long long p;        // the top site
  double Fp, zn, zd;  // F(p); the top's left breakpoint zn / zd (k > 0)
};

CUARRAY_DEVICE inline double edt_F(const double* f, double w2, long long q) { return f[q] + w2 * (double)q * (double)q; }

CUARRAY_DEVICE inline void edt_envelope_add(EdtEnvelope& e, const double* f, int* v, double w2, int q) {
  double Fq = edt_F(f, w2, q);
  while (e.k >= 0) {
    double num = Fq - e.Fp, den = 2.0 * w2 * (double)(q - e.p);
    if (e.k > 0 && num * e.zd <= e.zn * den) {  // q's breakpoint with the top is left of the top's own: pop
      --e.k;
      e.p = v[e.k];
      e.Fp = edt_F(f, w2, e.p);
      if (e.k > 0) {
        long long r = v[e.k - 1];
        e.zn = e.Fp - edt_F(f, w2, r);
        e.zd = 2.0 * w2 * (double)(e.p - r);
      }
      continue;
    }
    ++e.k;
    v[e.k] = q;
    e.p = q;
    e.Fp = Fq;
    e.zn = num;
    e.zd = den;
    return;
  }
  e.k = 0;
  v[0] = q;
  e.p = q;
  e.Fp = Fq;
}

// Is v[j]'s left breakpoint (where it meets v[j - 1]) left of x?
CUARRAY_DEVICE inline bool edt_left_of(const double* f, const int* v, int j, double w2, double x) {
  long long a = v[j - 1], b = v[j];
  return edt_F(f, w2, b) - edt_F(f, w2, a) < x * (2.0 * w2 * (double)(b - a));
}

// The site whose parabola is lowest at x: the last j in [0, k] whose left breakpoint is < x
// (a binary search; breakpoints increase along the envelope). Its index, and the site.
CUARRAY_DEVICE inline int edt_envelope_index(const double* f, const int* v, int k, double w2, double x) {
  int lo = 0, hi = k;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (edt_left_of(f, v, mid, w2, x))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

CUARRAY_DEVICE inline long long edt_envelope_site(const double* f, const int* v, int k, double w2, double x) {
  return v[edt_envelope_index(f, v, k, w2, x)];
}

// Is X(a, b) <= X(c, d)? X(a, b) = (F(b) - F(a)) / (2 w2 (b - a)) is where the parabolas of sites
// a < b meet; compared as fractions (positive denominators), the same products as
// edt_envelope_add's, so no division and no rounding for integer f and w2.
CUARRAY_DEVICE inline bool edt_meet_le(const double* f, double w2, long long a, long long b, long long c,
                                       long long d) {
  double n1 = edt_F(f, w2, b) - edt_F(f, w2, a), d1 = 2.0 * w2 * (double)(b - a);
  double n2 = edt_F(f, w2, d) - edt_F(f, w2, c), d2 = 2.0 * w2 * (double)(d - c);
  return n1 * d2 <= n2 * d1;
}

// Where site q, right of every site of the envelope g[0..len-1] (len >= 1), meets it: the last
// g[i] that edt_envelope_add(q) would not pop. g[i] is popped iff i > 0 and X(g[i], q) <=
// X(g[i-1], g[i]); the envelope being convex, that holds on a suffix, so the pops are a search:
// galloping down from the top (a band's sites usually pop few of the stack's), then binary.
CUARRAY_DEVICE inline bool edt_popped(const double* f, const int* g, double w2, int i, int q) {
  return i > 0 && edt_meet_le(f, w2, g[i], q, g[i - 1], g[i]);
}

CUARRAY_DEVICE inline int edt_envelope_meet(const double* f, const int* g, int len, double w2, int q) {
  int top = len - 1;
  if (!edt_popped(f, g, w2, top, q)) return top;
  int lo = 0, hi = top - 1;  // the answer lies in [lo, hi]
  for (int d = 2;; d <<= 1) {
    int i = top - d;
    if (i <= 0) break;
    if (!edt_popped(f, g, w2, i, q)) {
      lo = i;
      break;
    }
    hi = i - 1;
  }
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (edt_meet_le(f, w2, g[mid], q, g[mid - 1], g[mid]))
      hi = mid - 1;
    else
      lo = mid;
  }
  return lo;
}

// Merging a band's envelope h[0..m-1] (its sites right of all of g's) into g[0..len-1]: site h[j]
// stays in the envelope of both iff its interval there is not empty, i.e. j == m - 1 or
// X(g[i], h[j]) < X(h[j], h[j+1]) with i = edt_envelope_meet(h[j]) (its left neighbour is the
// last g it meets, its right one h[j+1]: the kept h are a suffix, the kept g the prefix up to i).
CUARRAY_DEVICE inline bool edt_band_keeps(const double* f, const int* g, int len, const int* h, int m, double w2,
                                          int j, int* meet) {
  int i = edt_envelope_meet(f, g, len, w2, h[j]);
  *meet = i;
  return j == m - 1 || !edt_meet_le(f, w2, h[j], h[j + 1], g[i], h[j]);
}

// Bands of a line of n sites split among `bands` lanes: an odd length, so that the lanes' first
// loads (one band apart) fall in different shared-memory banks.
CUARRAY_DEVICE inline int edt_band_length(long long n, int bands) {
  int len = (int)((n + bands - 1) / bands);
  return len | 1;
}

// The first axis (f 0 at background, INF elsewhere): element t of a 64-element segment starting at
// x0, `z` the segment's background bits (bit t: element x0 + t), `prev`/`next` the nearest
// background before/after the segment (-1: none): the nearest background element (-1: none; ties
// to the lower one).
CUARRAY_DEVICE inline long long edt_nearest_zero(unsigned long long z, int t, long long x0, long long prev,
                                                 long long next) {
  unsigned long long lo = z & (t == 63 ? ~0ull : ((2ull << t) - 1));  // bits <= t
  unsigned long long hi = z >> t;                                     // bits >= t, from bit 0
  long long p = lo ? x0 + 63 - __clzll((long long)lo) : prev;
  long long q = hi ? x0 + t + __ffsll((long long)hi) - 1 : next;
  long long x = x0 + t;
  if (p < 0) return q;
  if (q < 0) return p;
  return x - p <= q - x ? p : q;
}

// SciPy's result for an input with no background at all: every feature at (-1, 0, ..., 0), just
// before the first element, and the distances to it. The last pass finds such an input on the
// device, with no extra pass: after the passes over the other axes, a line of the last axis has a
// site iff the input has any background (the first axis' scan is the last pass of a 1-D input).
// edt_no_background_d2: element `at`'s squared distance to that point as SciPy sums it, ((c_0 + 1)
// s_0)^2 + (c_1 s_1)^2 + ... in axis order (samp: the sampling), each product and sum rounded on
// its own (never fused into an fma: equal bit for bit to that formula computed on the host; cuarray/rounded.cuh).
CUARRAY_DEVICE inline double edt_no_background_d2(long long at, const long long* shape, const double* samp, int nd,
                                                  long long total) {
  long long stride = total;
  double sq = 0.0;
  for (int d = 0; d < nd; ++d) {
    stride /= shape[d];
    long long c = (at / stride) % shape[d];
    double t = cuarray::rn::mul((double)c + (d == 0 ? 1.0 : 0.0), samp[d]);
    sq = d == 0 ? cuarray::rn::mul(t, t) : cuarray::rn::add(sq, cuarray::rn::mul(t, t));
  }
  return sq;
}

// ... and its feature's coordinates (nd x total): -1, then zeros.
CUARRAY_DEVICE inline void edt_no_background_idx(long long* idx, long long at, int nd, long long total) {
  for (int d = 0; d < nd; ++d) idx[d * total + at] = d == 0 ? -1 : 0;
}

}  // namespace cuarray_ndimage
#endif
