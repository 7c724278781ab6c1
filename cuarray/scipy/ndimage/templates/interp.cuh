// B-spline interpolation of scipy.ndimage (map_coordinates, affine_transform, zoom, shift) and its
// prefilter, as plain C++: CUARRAY_DEVICE is __device__ in the kernels (interpolation.cu) and empty
// in the host test (tests/scipy/ndimage/test_ndimage_interp_cpu.py builds this file with g++ and
// checks it against scipy.ndimage). Modes are SciPy's interpolation codes
// (_ni_support._extend_mode_to_code without is_filter).
#ifndef CUARRAY_NDIMAGE_INTERP_CUH
#define CUARRAY_NDIMAGE_INTERP_CUH

#ifndef __CUDACC_RTC__  // NVRTC has floor and pow built in, and no math.h
#include <math.h>
#endif

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

// cuarray::rn::mul: a product rounded before it is added to. NVRTC contracts a * b + c into one fma by
// default, SciPy's C rounds both steps, and an output point whose input coordinate is exactly on an
// edge (0 or len - 1, in affine_transform and zoom) would then fall on the other side of it (cval or
// the wrapped value where SciPy interpolates, or the reverse).
#include "cuarray/rounded.cuh"

namespace cuarray_ndimage {

enum { I_NEAREST = 0, I_WRAP = 1, I_REFLECT = 2, I_MIRROR = 3, I_CONSTANT = 4, I_GRID_WRAP = 5,
       I_GRID_CONSTANT = 6 };

#define CUARRAY_NDIMAGE_INTERP_MAX_NDIM 16

// A coordinate outside [0, len - 1] mapped inside, or -1 (constant modes).
CUARRAY_DEVICE inline double map_coordinate(double in, long long len, int mode) {
  if (in < 0) {
    switch (mode) {
      case I_MIRROR: {
        if (len <= 1) return 0;
        long long s2 = 2 * len - 2;
        in = s2 * (long long)(-in / s2) + in;
        return in <= 1 - len ? in + s2 : -in;
      }
      case I_REFLECT: {
        if (len <= 1) return 0;
        long long s2 = 2 * len;
        if (in < -s2) in = s2 * (long long)(-in / s2) + in;
        return in < -len ? in + s2 : -in - 1;
      }
      case I_WRAP: {
        if (len <= 1) return 0;
        long long sz = len - 1;
        return in + sz * ((long long)(-in / sz) + 1);
      }
      case I_GRID_WRAP:
        if (len <= 1) return 0;
        return in + len * ((long long)((-1 - in) / len) + 1);
      case I_NEAREST:
        return 0;
      default:
        return -1;
    }
  }
  if (in > len - 1) {
    switch (mode) {
      case I_MIRROR: {
        if (len <= 1) return 0;
        long long s2 = 2 * len - 2;
        in -= s2 * (long long)(in / s2);
        return in >= len ? s2 - in : in;
      }
      case I_REFLECT: {
        if (len <= 1) return 0;
        long long s2 = 2 * len;
        in -= s2 * (long long)(in / s2);
        return in >= len ? s2 - in - 1 : in;
      }
      case I_WRAP: {
        if (len <= 1) return 0;
        long long sz = len - 1;
        return in - sz * (long long)(in / sz);
      }
      case I_GRID_WRAP:
        if (len <= 1) return 0;
        return in - len * (long long)(in / len);
      case I_NEAREST:
        return (double)(len - 1);
      default:
        return -1;
    }
  }
  return in;
}

// How a spline tap past the edge is read (matched to scipy.ndimage tap by tap in the host test):
// mirror for mirror, wrap and constant; reflect for reflect (and grid-mirror); the mode itself for
// grid-wrap and nearest. grid-constant taps outside read cval instead.
CUARRAY_DEVICE inline int tap_mode(int mode) {
  return (mode == I_WRAP || mode == I_CONSTANT) ? I_MIRROR : mode;
}

// The order + 1 B-spline weights of the taps around x (SciPy's get_spline_interpolation_weights).
CUARRAY_DEVICE inline void spline_weights(double x, int order, double* w) {
  x -= floor((order & 1) ? x : x + 0.5);
  double y = x, z = 1.0 - x, t;
  switch (order) {
    case 1:
      w[0] = 1.0 - x;
      break;
    case 2:
      w[1] = 0.75 - x * x;
      y = 0.5 - x;
      w[0] = 0.5 * y * y;
      break;
    case 3:
      w[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
      w[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0;
      w[0] = z * z * z / 6.0;
      break;
    case 4:
      t = x * x;
      w[2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0;
      y = 1.0 + x;
      w[1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      w[3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      y = 0.5 - x;
      t = y * y;
      w[0] = t * t / 24.0;
      break;
    case 5:
      t = y * y;
      w[2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55;
      t = z * z;
      w[3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55;
      y += 1.0;
      w[1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      z += 1.0;
      w[4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      y = 1.0 - x;
      t = y * y;
      w[0] = y * t * t / 120.0;
      break;
    default:
      break;
  }
  // the weights add up to 1: the last one is what the others leave
  w[order] = 1.0;
  for (int i = 0; i < order; ++i) w[order] -= w[i];
}

// One axis of a point, shared by `interpolate` and `interpolate_taps`: coordinate c mapped inside by
// `mode` (grid-constant and nearest are not: SciPy pads the input for them, and every tap past an edge
// is handled per tap), the index of the first of the ORDER + 1 taps and their weights w[0..ORDER].
// False when the point is cval (constant modes outside, NaN coordinates).
template <int ORDER>
CUARRAY_DEVICE inline bool axis_spline(double c, long long len, int mode, long long& start, double* w) {
  if (mode != I_GRID_CONSTANT && mode != I_NEAREST) {
    c = map_coordinate(c, len, mode);
    if (!(c > -1.0)) return false;
  }
  start = (long long)floor((ORDER & 1) ? c : c + 0.5) - ORDER / 2;
  spline_weights(c, ORDER, w);
  return true;
}

// The value at coordinate c[0..ndim) (padding already added) of the C-contiguous `in` of `shape`.
// ND > 0: ndim known at compile time (the loops unroll and the per-axis state stays in registers);
// ND == 0: any ndim up to CUARRAY_NDIMAGE_INTERP_MAX_NDIM. ORDER: the spline order, 0..5.
template <typename T, int ND, int ORDER>
CUARRAY_DEVICE inline double interpolate(const T* in, const long long* shape, int ndim, const double* c,
                                         int mode, double cval) {
  const int nd = ND > 0 ? ND : ndim;
  long long start[ND > 0 ? ND : CUARRAY_NDIMAGE_INTERP_MAX_NDIM];
  double w[ND > 0 ? ND : CUARRAY_NDIMAGE_INTERP_MAX_NDIM][ORDER + 1];
  for (int d = 0; d < nd; ++d)
    if (!axis_spline<ORDER>(c[d], shape[d], mode, start[d], w[d])) return cval;
  int k[ND > 0 ? ND : CUARRAY_NDIMAGE_INTERP_MAX_NDIM];
  for (int d = 0; d < nd; ++d) k[d] = 0;
  int tm = tap_mode(mode);
  double t = 0.0;
  for (;;) {
    long long idx = 0;
    double weight = 1.0;
    bool outside = false;
    for (int d = 0; d < nd; ++d) {
      long long n = shape[d];
      long long i = start[d] + k[d];
      if (i < 0 || i >= n) {
        if (mode == I_GRID_CONSTANT) outside = true;
        else i = (long long)map_coordinate((double)i, n, tm);
      }
      idx = idx * n + i;
      weight *= w[d][k[d]];
    }
    t += weight * (outside ? cval : (double)in[idx]);
    int d = nd - 1;
    while (d >= 0 && ++k[d] > ORDER) k[d--] = 0;
    if (d < 0) break;
  }
  return t;
}

// The taps of a point as nested sums (last axis innermost, unrolled: the weights stay in registers),
// from per-axis offsets o[d][k] (I: int below 2^31 elements, the kernels' choice). EDGE: some offset
// may be negative, a grid-constant tap outside the input, which reads cval.
template <typename T, typename I, int ND, int ORDER, bool EDGE, int D>
struct taps_nest {
  CUARRAY_DEVICE static double go(const T* in, const I (*o)[ORDER + 1], const double (*w)[ORDER + 1], I base,
                                  bool outside, double cval) {
    double t = 0.0;
#pragma unroll
    for (int k = 0; k <= ORDER; ++k)
      t += w[D][k] * taps_nest<T, I, ND, ORDER, EDGE, D + 1>::go(in, o, w, base + o[D][k],
                                                                EDGE && (outside || o[D][k] < 0), cval);
    return t;
  }
};
template <typename T, typename I, int ND, int ORDER, bool EDGE>
struct taps_nest<T, I, ND, ORDER, EDGE, ND> {
  CUARRAY_DEVICE static double go(const T* in, const I (*)[ORDER + 1], const double (*)[ORDER + 1], I base,
                                  bool outside, double cval) {
    return EDGE && outside ? cval : (double)in[base];
  }
};

// `interpolate` for ND of 1..3 without its generic tap loop (whose run-time indexed weights and
// 64-bit index arithmetic per tap lived in local memory): per axis, ORDER + 1 weights and tap offsets
// (mapped by the tap mode only for points with a tap past an edge; grid-constant's outside taps read
// cval), then taps_nest. The same value as `interpolate` to rounding (the products are summed
// nested, SciPy sums tap by tap).
template <typename T, typename I, int ND, int ORDER>
CUARRAY_DEVICE inline double interpolate_taps(const T* in, const long long* shape, const double* c, int mode,
                                              double cval) {
  long long start[ND];
  double w[ND][ORDER + 1];
  I o[ND][ORDER + 1];
  bool inside = true;
#pragma unroll
  for (int d = 0; d < ND; ++d) {
    if (!axis_spline<ORDER>(c[d], shape[d], mode, start[d], w[d])) return cval;
    inside = inside && start[d] >= 0 && start[d] + ORDER < shape[d];
  }
  I stride = 1;
  if (inside) {
#pragma unroll
    for (int d = ND - 1; d >= 0; --d) {
#pragma unroll
      for (int k = 0; k <= ORDER; ++k) o[d][k] = (I)(start[d] + k) * stride;
      stride *= (I)shape[d];
    }
    return taps_nest<T, I, ND, ORDER, false, 0>::go(in, o, w, (I)0, false, cval);
  }
  int tm = tap_mode(mode);
#pragma unroll
  for (int d = ND - 1; d >= 0; --d) {
    long long n = shape[d];
#pragma unroll
    for (int k = 0; k <= ORDER; ++k) {
      long long i = start[d] + k;
      bool out = i < 0 || i >= n;
      if (out && mode != I_GRID_CONSTANT) i = (long long)map_coordinate((double)i, n, tm);
      o[d][k] = out && mode == I_GRID_CONSTANT ? (I)-1 : (I)i * stride;
    }
    stride *= (I)n;
  }
  return taps_nest<T, I, ND, ORDER, true, 0>::go(in, o, w, (I)0, false, cval);
}

// -- where output point idx reads (map_coordinates, affine_transform) -------------------------------
enum { KIND_COORDS = 0, KIND_AFFINE = 1 };

// The input coordinate c[0..indim) of output point idx (C order over oshape), padding added.
// KIND_COORDS: params = coordinates (indim x total). KIND_AFFINE: params = matrix (indim x ondim)
// then offset (indim).
// P: the coordinates' type (float32 coordinates are read as they are: SciPy converts each to double,
// exactly, as here).
template <typename P>
CUARRAY_DEVICE inline void input_coordinate(int kind, long long idx, long long total, const long long* oshape,
                                            int ondim, int indim, const P* params, double npad, double* c) {
  if (kind == KIND_COORDS) {
    for (int d = 0; d < indim; ++d) c[d] = (double)params[d * total + idx] + npad;
    return;
  }
  double o[CUARRAY_NDIMAGE_INTERP_MAX_NDIM];
  long long rem = idx;
  for (int d = ondim - 1; d >= 0; --d) {
    o[d] = (double)(rem % oshape[d]);
    rem /= oshape[d];
  }
  for (int d = 0; d < indim; ++d) {
    // SciPy's order of sums (the offset first): a point on an edge must land on SciPy's side of it
    double s = (double)params[indim * ondim + d];
    for (int e = 0; e < ondim; ++e) s += cuarray::rn::mul(o[e], (double)params[d * ondim + e]);
    c[d] = s + npad;
  }
}

// -- the prefilter: B-spline coefficients of one line, in place --------------------------------------
CUARRAY_DEVICE inline void init_causal_mirror(double* c, long long n, long long s, double z) {
  double zi = z, zn1 = pow(z, (double)(n - 1));
  c[0] = c[0] + zn1 * c[(n - 1) * s];
  for (long long i = 1; i < n - 1; ++i) {
    c[0] += zi * (c[i * s] + zn1 * c[(n - 1 - i) * s]);
    zi *= z;
  }
  c[0] /= 1 - zn1 * zn1;
}

CUARRAY_DEVICE inline void init_anticausal_mirror(double* c, long long n, long long s, double z) {
  c[(n - 1) * s] = (z * c[(n - 2) * s] + c[(n - 1) * s]) * z / (z * z - 1);
}

CUARRAY_DEVICE inline void init_causal_wrap(double* c, long long n, long long s, double z) {
  double zi = z;
  for (long long i = 1; i < n; ++i) {
    c[0] += zi * c[(n - i) * s];
    zi *= z;
  }
  c[0] /= 1 - zi;
}

CUARRAY_DEVICE inline void init_anticausal_wrap(double* c, long long n, long long s, double z) {
  double zi = z;
  for (long long i = 0; i < n - 1; ++i) {
    c[(n - 1) * s] += zi * c[i * s];
    zi *= z;
  }
  c[(n - 1) * s] *= z / (zi - 1);
}

// The sum is kept apart from c[0] because the loop reads c[0] again (as c[n-1-i], i = n-1): SciPy
// before 1.18 accumulated into c[0] and so got short lines (n of 2..5) wrong (scipy#24615).
CUARRAY_DEVICE inline void init_causal_reflect(double* c, long long n, long long s, double z) {
  double zi = z, zn = pow(z, (double)n);
  double sum = c[0] + zn * c[(n - 1) * s];
  for (long long i = 1; i < n; ++i) {
    sum += zi * (c[i * s] + zn * c[(n - 1 - i) * s]);
    zi *= z;
  }
  c[0] += sum * z / (1 - zn * zn);
}

CUARRAY_DEVICE inline void init_anticausal_reflect(double* c, long long n, long long s, double z) {
  c[(n - 1) * s] *= z / (z - 1);
}

// The n values c[0], c[s], ... become B-spline coefficients of `order` (2..5) under `mode`.
// Which boundary initialisation each mode uses was matched to scipy.ndimage.spline_filter1d.
// The poles of the B-spline of `order` (2..5), SciPy's gain, and per pole the warm-up length K of the
// chunked prefilter: the least K with |z|^K < 2^-60.
struct spline_poles_t {
  int np;
  double z[2];
  int k[2];
  double gain;
};

// K of pole q (0, 1) of `order`: a constant expression (the streamed kernels' unrolled loops need it).
#define CUARRAY_NDIMAGE_SPLINE_K(ORDER, Q) \
  ((ORDER) == 2 ? 24 : (ORDER) == 3 ? 32 : (ORDER) == 4 ? ((Q) ? 10 : 41) : ((Q) ? 14 : 50))

CUARRAY_DEVICE inline spline_poles_t spline_poles(int order) {
  spline_poles_t p;
  p.np = order / 2;
  switch (order) {
    case 2: p.z[0] = -0.171572875253809902396622551580603843; break;
    case 3: p.z[0] = -0.267949192431122706472553658494127633; break;
    case 4:
      p.z[0] = -0.361341225900220177092212841325675255;
      p.z[1] = -0.013725429297339121360331226939128204;
      break;
    default:
      p.z[0] = -0.430575347099973791851434783493520110;
      p.z[1] = -0.043096288203264653822712376822550182;
      break;
  }
  p.k[0] = CUARRAY_NDIMAGE_SPLINE_K(order, 0);
  p.k[1] = CUARRAY_NDIMAGE_SPLINE_K(order, 1);
  p.gain = 1.0;
  for (int q = 0; q < p.np; ++q) p.gain *= (1.0 - p.z[q]) * (1.0 - 1.0 / p.z[q]);
  return p;
}

// Which boundary initialisations a mode uses: 0 mirror's, 1 reflect's, 2 wrap's.
CUARRAY_DEVICE inline int spline_kind(int mode) {
  return (mode == I_REFLECT || mode == I_NEAREST) ? 1 : mode == I_GRID_WRAP ? 2 : 0;
}

CUARRAY_DEVICE inline void spline_filter_line(double* c, long long n, long long s, int order, int mode) {
  if (n <= 1 || order < 2) return;
  const spline_poles_t sp = spline_poles(order);
  const double* poles = sp.z;
  int np = sp.np;
  double gain = sp.gain;
  for (long long i = 0; i < n; ++i) c[i * s] *= gain;
  int kind = spline_kind(mode);
  for (int p = 0; p < np; ++p) {
    double z = poles[p];
    if (kind == 1) init_causal_reflect(c, n, s, z);
    else if (kind == 2) init_causal_wrap(c, n, s, z);
    else init_causal_mirror(c, n, s, z);
    double prev = c[0];  // the recursions carry their last value in a register (same arithmetic)
    for (long long i = 1; i < n; ++i) c[i * s] = prev = c[i * s] + z * prev;
    if (kind == 1) init_anticausal_reflect(c, n, s, z);
    else if (kind == 2) init_anticausal_wrap(c, n, s, z);
    else init_anticausal_mirror(c, n, s, z);
    prev = c[(n - 1) * s];
    for (long long i = n - 2; i >= 0; --i) c[i * s] = prev = z * (prev - c[i * s]);
  }
}

// -- the prefilter in chunks: a line split into runs, one a lane, no lane waiting on another --------
// A lane's run [a, b) needs the causal value c'[a-1]: it runs c'[i] = c[i] + z c'[i-1] over the K
// samples before a, started from 0 (the term it drops is z^K c'[a-K-1], |z|^K < 2^-60: far below
// the rounding of SciPy's own sums next to the line's largest value). Likewise the anticausal value
// after b from the K samples after it. The boundary initialisations are SciPy's sums cut after K
// terms (the rest, and the z^(n-1) corrections, are below 2^-60 once n > K + 1): lines of at least
// CUARRAY_NDIMAGE_SPLINE_CHUNK_MIN samples get SciPy's coefficients to rounding; shorter lines take
// spline_filter_line. Each pole is four phases, `start` (reads only) then `run` (writes only the
// lane's own run), so a warp puts a __syncwarp after each; the host test runs the lanes of a phase
// one after another. The gain is applied before (when the line is staged).
#define CUARRAY_NDIMAGE_SPLINE_CHUNK_MIN 64

// Sample j of a line with stride s, as double, times g: the streamed prefilter reads its input
// through it (S float or double, g the gain in the pass that applies it, else 1); the chunk phases
// read their double line with g = 1 (x * 1.0 is x: the compiler drops the product).
template <typename S, typename I = long long>
struct line_in {
  typedef I index;
  const S* p;
  I s;
  double g;
  CUARRAY_DEVICE double operator[](I j) const { return (double)p[j * s] * g; }
};

// The causal value c'[0]: SciPy's boundary sum cut after K terms, of the line c (c[j]: sample j).
template <typename C>
CUARRAY_DEVICE inline double causal_init_cut_of(const C& c, long long n, double z, int K, int kind) {
  double zi = z, sum = c[0];
  for (int i = 1; i < K; ++i) {
    sum += zi * (kind == 2 ? c[n - i] : c[i]);
    zi *= z;
  }
  return kind == 1 ? c[0] + sum * z : sum;
}

// s: the stride between a line's samples (1 in shared memory; the column kernel's `inner` in global memory).
CUARRAY_DEVICE inline double causal_init_cut(const double* c, long long n, double z, int K, int kind,
                                             long long s = 1) {
  return causal_init_cut_of(line_in<double>{c, s, 1.0}, n, z, K, kind);
}

// The anticausal value c''[n-1] from the causal values c'[n-2] (last2), c'[n-1] (last) and, for wrap,
// wrap_sum = c'[n-1] + z c'[0] + z^2 c'[1] + ... + z^(K-1) c'[K-2] (SciPy's sum cut after K terms).
CUARRAY_DEVICE inline double anticausal_init_of(double last2, double last, double wrap_sum, long long n, double z,
                                                int kind) {
  if (kind == 0) return (z * last2 + last) * z / (z * z - 1);
  if (kind == 1) return last * (z / (z - 1));
  return wrap_sum * (z / (pow(z, (double)n) - 1));
}

CUARRAY_DEVICE inline double anticausal_init_cut(const double* c, long long n, double z, int K, int kind,
                                                 long long s = 1) {
  double sum = c[(n - 1) * s];
  if (kind == 2) {
    double zi = z;
    for (int i = 0; i < K - 1; ++i) {
      sum += zi * c[i * s];
      zi *= z;
    }
  }
  return anticausal_init_of(kind == 0 ? c[(n - 2) * s] : 0.0, c[(n - 1) * s], sum, n, z, kind);
}

// The lane's run of a line of n: [a, b) with runs of m samples, m odd so that the lanes' runs begin
// in different shared-memory banks (doubles: 16 banks of 8 bytes; an even m would put lanes on the
// same bank, up to 32 ways).
CUARRAY_DEVICE inline long long spline_chunk(long long n) {
  long long m = (n + 31) / 32;
  return m | 1;
}

CUARRAY_DEVICE inline double chunk_causal_start(const double* c, long long n, double z, int K, int kind,
                                                long long a, long long b, long long s = 1) {
  if (a >= b) return 0.0;
  double prev;
  long long j;
  if (a <= K) {
    prev = causal_init_cut(c, n, z, K, kind, s);  // c'[0]
    j = 1;
  } else {
    prev = 0.0;
    j = a - K;
  }
  for (; j < a; ++j) prev = c[j * s] + z * prev;
  return prev;  // c'[a-1], or c'[0] for a == 0
}

CUARRAY_DEVICE inline void chunk_causal_run(double* c, double z, long long a, long long b, double prev,
                                            long long s = 1) {
  long long j = a;
  if (a == 0 && b > 0) {
    c[0] = prev;
    j = 1;
  }
  // four loads before four stores: the compiler may not move a load above a store through c (s is a
  // run-time stride), so one at a time each step would wait a full load latency (global memory in the
  // column kernel); the arithmetic is the loop's below, step by step
  for (; j + 4 <= b; j += 4) {
    double v0 = c[j * s], v1 = c[(j + 1) * s], v2 = c[(j + 2) * s], v3 = c[(j + 3) * s];
    v0 = v0 + z * prev;
    v1 = v1 + z * v0;
    v2 = v2 + z * v1;
    v3 = v3 + z * v2;
    c[j * s] = v0;
    c[(j + 1) * s] = v1;
    c[(j + 2) * s] = v2;
    c[(j + 3) * s] = v3;
    prev = v3;
  }
  for (; j < b; ++j) c[j * s] = prev = c[j * s] + z * prev;
}

CUARRAY_DEVICE inline double chunk_anticausal_start(const double* c, long long n, double z, int K, int kind,
                                                    long long a, long long b, long long s = 1) {
  if (a >= b) return 0.0;
  double prev;
  long long j;
  if (b >= n - K) {
    prev = anticausal_init_cut(c, n, z, K, kind, s);  // c''[n-1]
    j = n - 2;
  } else {
    prev = 0.0;
    j = b + K - 1;
  }
  for (; j >= b; --j) prev = z * (prev - c[j * s]);
  return prev;  // c''[b], or c''[n-1] for b == n
}

CUARRAY_DEVICE inline void chunk_anticausal_run(double* c, long long n, double z, long long a, long long b,
                                                double prev, long long s = 1) {
  if (a >= b) return;
  long long j = b - 1;
  if (b == n) {
    c[(n - 1) * s] = prev;
    j = n - 2;
  }
  for (; j - 3 >= a; j -= 4) {  // four loads before four stores, as chunk_causal_run
    double v0 = c[j * s], v1 = c[(j - 1) * s], v2 = c[(j - 2) * s], v3 = c[(j - 3) * s];
    v0 = z * (prev - v0);
    v1 = z * (v0 - v1);
    v2 = z * (v1 - v2);
    v3 = z * (v2 - v3);
    c[j * s] = v0;
    c[(j - 1) * s] = v1;
    c[(j - 2) * s] = v2;
    c[(j - 3) * s] = v3;
    prev = v3;
  }
  for (; j >= a; --j) c[j * s] = prev = z * (prev - c[j * s]);
}

// -- the prefilter streamed: each run of a line from the input alone, no thread waiting on another --
// One pole over the run [a, b) of a line of n samples (b - a <= M), read through x (the pole's input,
// gain applied): the causal value before a from the K samples before it (chunk_causal_start's
// warm-up), the run's causal values into r[0..b-a), then the causal recursion continued over the K
// samples after b, whose values c'[b..b+K) give the anticausal value at b as the forward sum
// -(z c'[b] + z^2 c'[b+1] + ... + z^K c'[b+K-1]) (chunk_anticausal_start's backward recursion, its
// terms summed in the other order: equal to rounding; the continuation differs from the next run's
// own warm-up by the dropped z^K term, below 2^-60). Where the continuation reaches the line's end
// (b >= n - K) the value there is SciPy's boundary initialisation from c'[n-2] and c'[n-1] (wrap also
// sums c'[0..K-1), from a walk over the line's start), carried back to b by z^(n-1-b). Then the
// anticausal recursion over r, which ends as the run's coefficients. Every read is of x, no write is:
// the threads of a pass need no barrier, and a pass cannot run in place (x and the output differ).
// r is indexed by constants only (unrolled loops, the run's end a predicate): it stays in registers.
// The runs near the line's ends (a <= K, b >= n - K) take out-of-line functions, so that their loops
// (whose loads the compiler would otherwise hoist all at once) do not set the register count of the
// threads in the middle of the line.
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
#define CUARRAY_NDIMAGE_COLD __noinline__
#else
#define CUARRAY_NDIMAGE_COLD inline
#endif

// c'[a-1] (c'[0] for a == 0) for a run that starts within K samples of the line's start.
template <typename C>
CUARRAY_DEVICE CUARRAY_NDIMAGE_COLD double stream_head(const C x, typename C::index n, double z, int K, int kind,
                                                      typename C::index a) {
  double prev = causal_init_cut_of(x, n, z, K, kind);
  for (typename C::index j = 1; j < a; ++j) prev = x[j] + z * prev;
  return prev;
}

// For a run that ends within K samples of the line's end (b >= n - K), from prev = c'[b-1] and
// last2 = c'[b-2]: c''[b], or c''[n-1] when b == n.
template <typename C>
CUARRAY_DEVICE CUARRAY_NDIMAGE_COLD double stream_tail(const C x, typename C::index n, double z, int K, int kind,
                                                      typename C::index b, double prev, double last2) {
  double acc = 0.0, zi = 1.0;  // -(z c'[b] + ... + z^(n-1-b) c'[n-2]); z^(n-1-b)
  for (typename C::index j = b; j < n; ++j) {
    const double v = x[j] + z * prev;
    last2 = prev;
    prev = v;
    if (j < n - 1) {
      zi *= z;
      acc -= zi * v;
    }
  }
  double wrap_sum = prev;
  if (kind == 2) {  // c'[0], c'[1], .. c'[K-2] again, from the line's start
    double c = causal_init_cut_of(x, n, z, K, kind), zk = z;
    for (int i = 0; i < K - 1; ++i) {
      if (i > 0) c = x[i] + z * c;
      wrap_sum += zk * c;
      zk *= z;
    }
  }
  const double init = anticausal_init_of(last2, prev, wrap_sum, n, z, kind);
  return b == n ? init : zi * init + acc;
}

// C::index: the index type (int below 2^31 elements: 32-bit address arithmetic a load). K: the pole's
// warm-up length (CUARRAY_NDIMAGE_SPLINE_K). U: the warm-ups' loads issued at once (their loops
// unrolled U times; U >= K: all of them). INTERIOR: the caller knows the run is whole (b - a == M) and
// K samples from either end (a > K, b < n - K): no predicate on any step, no boundary case (most runs
// of a line; the others take INTERIOR false).
template <int M, int K, int U, bool INTERIOR, typename C>
CUARRAY_DEVICE inline void stream_run(const C& x, typename C::index n, double z, int kind, typename C::index a,
                                      typename C::index b, double* r) {
  typedef typename C::index I;
  double prev;  // c'[a-1] (c'[0] when a == 0)
  if (INTERIOR || a > K) {
    prev = 0.0;
#pragma unroll(U < K ? U : K)
    for (int i = 0; i < K; ++i) prev = x[a - K + i] + z * prev;
  } else {
    prev = stream_head(x, n, z, K, kind, a);
  }
  double last2 = prev;  // the causal value before prev
#pragma unroll
  for (int i = 0; i < M; ++i) {
    const I j = a + i;
    if (INTERIOR || j < b) {
      const double v = !INTERIOR && j == 0 ? prev : x[j] + z * prev;
      last2 = prev;
      prev = v;
      r[i] = v;
    }
  }
  double after;  // c''[b] (b < n), or c''[n-1] (b == n)
  if (INTERIOR || b < n - K) {
    double acc = 0.0, zi = 1.0;
#pragma unroll(U < K ? U : K)
    for (int i = 0; i < K; ++i) {
      prev = x[b + i] + z * prev;
      zi *= z;
      acc -= zi * prev;
    }
    after = acc;
  } else {
    after = stream_tail(x, n, z, K, kind, b, prev, last2);
  }
#pragma unroll
  for (int i = M - 1; i >= 0; --i) {
    const I j = a + i;
    if (INTERIOR || j < b) r[i] = after = !INTERIOR && j == n - 1 ? after : z * (after - r[i]);
  }
}

// Run [a, b) of a line (stream_run) into d[j * s]: the interior form where it applies.
template <int M, int K, int U, typename C>
CUARRAY_DEVICE inline void stream_run_store(const C& x, double* d, typename C::index s, typename C::index n, double z,
                                            int kind, typename C::index a, typename C::index b) {
  double r[M];
  if (a > K && b < n - K && b - a == M) {  // most runs: no predicate, no boundary case
    stream_run<M, K, U, true>(x, n, z, kind, a, b, r);
#pragma unroll
    for (int i = 0; i < M; ++i) d[(a + i) * s] = r[i];
  } else {
    stream_run<M, K, U, false>(x, n, z, kind, a, b, r);
#pragma unroll
    for (int i = 0; i < M; ++i)
      if (a + i < b) d[(a + i) * s] = r[i];
  }
}

// -- SciPy's store of an interpolated value: integers rounded half away from zero and clamped -----
template <typename O> struct interp_store {
  CUARRAY_DEVICE static O go(double t) { return (O)t; }
};
#define CUARRAY_NDIMAGE_STORE_INT(TYPE, LO, HI)                                     \
  template <> struct interp_store<TYPE> {                                          \
    CUARRAY_DEVICE static TYPE go(double t) {                                      \
      t = t > 0 ? t + 0.5 : ((LO) == 0 ? 0.0 : t - 0.5);                          \
      t = t > (double)(HI) ? (double)(HI) : t;                                     \
      t = t < (double)(LO) ? (double)(LO) : t;                                     \
      return (TYPE)t;                                                              \
    }                                                                              \
  };
CUARRAY_NDIMAGE_STORE_INT(signed char, -128, 127)
CUARRAY_NDIMAGE_STORE_INT(short, -32768, 32767)
CUARRAY_NDIMAGE_STORE_INT(int, -2147483648LL, 2147483647LL)
CUARRAY_NDIMAGE_STORE_INT(long long, -9223372036854775807LL - 1, 9223372036854775807LL)
CUARRAY_NDIMAGE_STORE_INT(unsigned char, 0, 255)
CUARRAY_NDIMAGE_STORE_INT(unsigned short, 0, 65535)
CUARRAY_NDIMAGE_STORE_INT(unsigned int, 0, 4294967295ULL)
CUARRAY_NDIMAGE_STORE_INT(unsigned long long, 0, 18446744073709551615ULL)
#undef CUARRAY_NDIMAGE_STORE_INT
// bool: SciPy truncates toward zero first (0.875 is False), matched in the host test
template <> struct interp_store<bool> {
  CUARRAY_DEVICE static bool go(double t) { return (long long)t != 0; }
};

}  // namespace cuarray_ndimage
#endif
