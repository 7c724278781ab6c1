// zoom, shift and affine_transform with a diagonal matrix: separable transforms. The input
// coordinate along an axis depends only on the output index along that axis, so each axis' ORDER + 1
// spline weights and tap offsets (boundary already applied) are computed once per output index into
// a small table (SciPy's NI_ZoomShift keeps the same tables), and a point's value is nested,
// unrolled loops over the axes' taps: no per-tap weight product, boundary test or 64-bit index
// arithmetic as in interp.cuh's `interpolate`, whose per-axis arithmetic this repeats exactly.
// Plain C++ after interp.cuh (CUARRAY_DEVICE empty in the host test,
// tests/scipy/ndimage/test_ndimage_interp_cpu.py, which checks it against scipy.ndimage).
#ifndef CUARRAY_NDIMAGE_ZOOM_SHIFT_CUH
#define CUARRAY_NDIMAGE_ZOOM_SHIFT_CUH

#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
#define CUARRAY_ZS_UNROLL _Pragma("unroll")
#define CUARRAY_ZS_NOINLINE __noinline__
#else
#define CUARRAY_ZS_UNROLL
#define CUARRAY_ZS_NOINLINE inline
#endif

namespace cuarray_ndimage {

// flags: which parameters a coordinate uses. ZOOM and SHIFT: SciPy's zoom_shift, (o + shift) * zoom
// (grid_mode: pixel edges aligned, (o + 0.5) * zoom - 0.5); DIAG: an affine matrix's diagonal,
// shift + o * zoom (SciPy's order of sums for a matrix: the offset first).
enum { ZS_ZOOM = 1, ZS_SHIFT = 2, ZS_GRID = 4, ZS_DIAG = 8 };
// A table offset that is no input element: in f[0] (modes other than grid-constant) the point's
// coordinate along this axis is outside the input and the point is cval; in f[k] (grid-constant)
// tap k is outside and reads cval. Real offsets are >= 0.
enum { ZS_OUTSIDE = -1 };

CUARRAY_DEVICE inline double zoom_shift_coordinate(double o, double zoom, double shift, int flags) {
  if (flags & ZS_DIAG) return shift + cuarray::rn::mul(o, zoom);
  double c = o;
  if (flags & ZS_SHIFT) c += shift;
  if (flags & ZS_ZOOM) c = (flags & ZS_GRID) ? cuarray::rn::mul(c + 0.5, zoom) - 0.5 : cuarray::rn::mul(c, zoom);
  return c;
}

// The boundary cases, out of line on the device: called for coordinates and taps past an edge
// only, and each inlined copy of map_coordinate's switch (its double divisions) cost NVRTC about a
// second where the points compute their own taps (ORDER + 2 copies an axis).
CUARRAY_DEVICE CUARRAY_ZS_NOINLINE double zs_map_coordinate(double c, long long n, int mode) {
  return map_coordinate(c, n, mode);
}

CUARRAY_DEVICE CUARRAY_ZS_NOINLINE long long zs_map_tap(long long i, long long n, int tap_mode) {
  return (long long)map_coordinate((double)i, n, tap_mode);
}

// The taps of coordinate c (padding added) along an axis of n samples and C stride `stride`:
// weights w[0], w[step], .. w[ORDER * step] and offsets f[0], .. (index * stride), as
// `interpolate`'s per-axis steps compute them.
template <typename I, int ORDER>
CUARRAY_DEVICE inline void axis_taps(double c, long long n, long long stride, int mode, double* w, I* f,
                                     long long step) {
  if (mode != I_GRID_CONSTANT && mode != I_NEAREST) {
    if (!(c >= 0 && c <= n - 1)) c = zs_map_coordinate(c, n, mode);  // (NaN too)
    if (!(c > -1.0)) {  // constant modes outside, and NaN coordinates
      CUARRAY_ZS_UNROLL
      for (int k = 0; k <= ORDER; ++k) {
        w[k * step] = 0.0;
        f[k * step] = (I)ZS_OUTSIDE;
      }
      return;
    }
  }
  long long start = (long long)floor((ORDER & 1) ? c : c + 0.5) - ORDER / 2;
  double wk[ORDER + 1];
  spline_weights(c, ORDER, wk);
  int tm = tap_mode(mode);
  CUARRAY_ZS_UNROLL
  for (int k = 0; k <= ORDER; ++k) {
    w[k * step] = wk[k];
    long long i = start + k;
    if (i < 0 || i >= n) {
      if (mode == I_GRID_CONSTANT) {
        f[k * step] = (I)ZS_OUTSIDE;
        continue;
      }
      i = zs_map_tap(i, n, tm);
    }
    f[k * step] = (I)(i * stride);
  }
}

// Row r of the tables W, F: entry k of row r at [k * rows + r] (adjacent threads, adjacent rows
// of the last axis, read adjacent words); the rows of axis 0, then axis 1, ... (axis d has
// oshape[d] rows; rows: their sum). ishape: the input's (padded) shape; params: zoom (ndim) then
// shift (ndim).
// unit: the offsets are tap indices (stride 1: the separable passes, which scale them by their own
// inner extent) rather than offsets into the C-contiguous input.
template <typename I, int ORDER>
CUARRAY_DEVICE inline void zoom_shift_row(long long r, long long rows, const long long* ishape, const long long* oshape,
                                          int ndim, const double* params, int flags, double npad, int mode, double* W,
                                          I* F, bool unit = false) {
  int d = 0;
  long long j = r;
  while (j >= oshape[d]) j -= oshape[d++];
  long long stride = 1;
  if (!unit)
    for (int e = ndim - 1; e > d; --e) stride *= ishape[e];
  double c = zoom_shift_coordinate((double)j, params[d], params[ndim + d], flags) + npad;
  axis_taps<I, ORDER>(c, ishape[d], stride, mode, W + r, F + r, rows);
}

// The sum over the taps of axes D..ND-1 at input offset `off` (the taps of axes < D added in):
// sum_k w[D][k] * (the same over axes D+1..), innermost axis last. `out`: a tap of an outer axis is
// outside (grid-constant), so every tap below reads cval.
template <typename T, typename I, int ORDER, bool GC, int D, int ND>
struct zs_taps {
  CUARRAY_DEVICE static double sum(const T* in, const double (*w)[ORDER + 1], const I (*f)[ORDER + 1], I off,
                                   bool out, double cval) {
    double s = 0.0;
    CUARRAY_ZS_UNROLL
    for (int k = 0; k <= ORDER; ++k) {
      bool o = GC && (out || f[D][k] < 0);
      s += w[D][k] * zs_taps<T, I, ORDER, GC, D + 1, ND>::sum(in, w, f, off + f[D][k], o, cval);
    }
    return s;
  }
};

template <typename T, typename I, int ORDER, bool GC, int ND>
struct zs_taps<T, I, ORDER, GC, ND, ND> {
  CUARRAY_DEVICE static double sum(const T* in, const double (*)[ORDER + 1], const I (*)[ORDER + 1], I off, bool out,
                                   double cval) {
    return out ? cval : (double)in[off];
  }
};

// What a point of a zoom/shift reads besides the input: meta = ishape (ndim), oshape (ndim), zoom
// (ndim), shift (ndim) as zoom_shift_row takes them; the tables W, F of `rows` rows when built.
template <typename I>
struct zs_args {
  const double* W;
  const I* F;
  I rows;
  const long long* meta;
  int ndim, flags, mode;
  double npad, cval;
};

// The value of output point idx (C order over oshape). ND 1..3: the axes' taps in registers and
// the loops unrolled; TABLE: the taps read from the tables, else computed here (when tables would
// hold about as many entries as there are points: 1-D, or one long axis). ND == 0 (any ndim,
// tables only): the outer axes' taps read from the tables as the loops advance, the last axis' in
// registers. GC: grid-constant (taps outside read cval); otherwise a point outside along an axis
// is cval.
template <typename T, typename I, int ND, int ORDER, bool GC, bool TABLE>
struct zoom_shift_point {
  CUARRAY_DEVICE static double go(const T* in, const zs_args<I>& a, I idx) {
    const long long* ishape = a.meta;
    const long long* oshape = a.meta + ND;
    I row[ND];
    I rem = idx;
    CUARRAY_ZS_UNROLL
    for (int d = ND - 1; d > 0; --d) {
      I n = (I)oshape[d];
      I q = rem / n;
      row[d] = rem - q * n;
      rem = q;
    }
    row[0] = rem;  // idx < total: no division for the first axis
    double w[ND][ORDER + 1];
    I f[ND][ORDER + 1];
    if (TABLE) {
      I base = 0;
      CUARRAY_ZS_UNROLL
      for (int d = 0; d < ND; ++d) {
        I r = base + row[d];
        CUARRAY_ZS_UNROLL
        for (int k = 0; k <= ORDER; ++k) {
          w[d][k] = a.W[k * a.rows + r];
          f[d][k] = a.F[k * a.rows + r];
        }
        base += (I)oshape[d];
      }
    } else {
      const double* params = reinterpret_cast<const double*>(a.meta + 2 * ND);
      long long stride = 1;
      // (no unroll pragma: NVRTC unrolls these ND steps by itself; with the pragma it duplicated
      // the taps' code about 20 times, 21k PTX lines and 15 s of compile for 3-D order 5)
      for (int d = ND - 1; d >= 0; --d) {
        double c = zoom_shift_coordinate((double)row[d], params[d], params[ND + d], a.flags) + a.npad;
        axis_taps<I, ORDER>(c, ishape[d], stride, a.mode, w[d], f[d], 1);
        stride *= ishape[d];
      }
    }
    if (!GC) {
      CUARRAY_ZS_UNROLL
      for (int d = 0; d < ND; ++d)
        if (f[d][0] < 0) return a.cval;
    }
    return zs_taps<T, I, ORDER, GC, 0, ND>::sum(in, w, f, 0, false, a.cval);
  }
};

template <typename T, typename I, int ORDER, bool GC, bool TABLE>
struct zoom_shift_point<T, I, 0, ORDER, GC, TABLE> {
  CUARRAY_DEVICE static double go(const T* in, const zs_args<I>& a, I idx) {
    const int ndim = a.ndim;
    const long long* oshape = a.meta + ndim;
    const double* W = a.W;
    const I* F = a.F;
    const I rows = a.rows;
    I r[CUARRAY_NDIMAGE_INTERP_MAX_NDIM];  // each axis' table row
    I rem = idx, base = 0;
    for (int d = 0; d < ndim; ++d) base += (I)oshape[d];
    for (int d = ndim - 1; d >= 0; --d) {
      I n = (I)oshape[d];
      I q = rem / n;
      base -= n;
      r[d] = base + rem - q * n;
      rem = q;
    }
    if (!GC)
      for (int d = 0; d < ndim; ++d)
        if (F[r[d]] < 0) return a.cval;
    const int last = ndim - 1;
    double wl[ORDER + 1];
    I fl[ORDER + 1];
    for (int k = 0; k <= ORDER; ++k) {
      wl[k] = W[k * rows + r[last]];
      fl[k] = F[k * rows + r[last]];
    }
    int k[CUARRAY_NDIMAGE_INTERP_MAX_NDIM];
    for (int d = 0; d < last; ++d) k[d] = 0;
    double t = 0.0;
    for (;;) {
      I off = 0;
      double wt = 1.0;
      bool out = false;
      for (int d = 0; d < last; ++d) {
        I fk = F[k[d] * rows + r[d]];
        if (GC && fk < 0) out = true;
        off += fk;
        wt *= W[k[d] * rows + r[d]];
      }
      double s = 0.0;
      CUARRAY_ZS_UNROLL
      for (int c = 0; c <= ORDER; ++c) {
        bool o = GC && (out || fl[c] < 0);
        s += wl[c] * (o ? a.cval : (double)in[off + fl[c]]);
      }
      t += wt * s;
      int d = last - 1;
      while (d >= 0 && ++k[d] > ORDER) k[d--] = 0;
      if (d < 0) break;
    }
    return t;
  }
};


// The separable evaluation (ORDER >= 2, ndim >= 2; _interp_kernels.zoom_shift decides): one pass an
// axis, each a 1-D interpolation along that axis of the C-contiguous (outer, n_in, inner) array
// `src` into (outer, n_out, inner), float64 in between, with that axis' rows of the unit-stride
// tables (row base + j for output index j). Taken from the last axis to the first, the passes add
// the taps in the direct kernel's nesting (zs_taps: the last axis innermost), so the two agree to
// the bit; another order rounds differently (within SciPy's own summation differences).
//
// 'Outside' (modes other than grid-constant): a point whose coordinate along ANY axis is outside
// the input is exactly cval in SciPy. A pass cannot apply that for the other axes (cval mixed into
// neighbours along later axes would come out as cval times a sum of weights, or leak into inside
// points), so a pass writes 0 for an outside row of its own axis (nothing inside reads it: later
// passes mix along other axes only, so that value reaches only points outside along this axis)
// and the last pass, per output point, looks up every axis' row flag (zs_point_outside) and writes
// cval. Grid-constant: every tap outside reads cval, as the direct kernel's; the passes give
// cval * (sum of the other axes' weights) where the direct kernel gives cval, equal to rounding.
template <typename T, typename I, int ORDER, bool GC>
CUARRAY_DEVICE inline double zoom_shift_pass_value(const T* src, const double* W, const I* F, I rows, I r, I n_in,
                                                   I inner, I idx_outer, I idx_inner, double cval) {
  if (!GC && F[r] < 0) return 0.0;
  const T* line = src + (idx_outer * n_in * inner + idx_inner);
  double s = 0.0;
  CUARRAY_ZS_UNROLL
  for (int k = 0; k <= ORDER; ++k) {
    I f = F[k * rows + r];
    double v = (GC && f < 0) ? cval : (double)line[f * inner];
    s += W[k * rows + r] * v;
  }
  return s;
}

// Whether output point idx (C order over oshape, ndim axes; table rows of axis d from the sum of
// the earlier axes' extents) is outside the input along some axis: the first offset of its row < 0.
template <typename I>
CUARRAY_DEVICE inline bool zs_point_outside(const I* F, const long long* oshape, int ndim, I idx) {
  I base = 0;
  for (int d = 0; d < ndim; ++d) base += (I)oshape[d];
  I rem = idx;
  for (int d = ndim - 1; d >= 0; --d) {
    I n = (I)oshape[d];
    I q = rem / n;
    base -= n;
    if (F[base + rem - q * n] < 0) return true;
    rem = q;
  }
  return false;
}

}  // namespace cuarray_ndimage
#endif
