"""ndimage interpolation without a device: templates/interp.cuh and zoom_shift.cuh (the very code
the kernels run) built with g++ into a host library, driven by the public functions (their launches replaced by
calls into that library, cuarray arrays by NumPy arrays), against scipy.ndimage for every mode,
order 0-5, prefilter on/off, grid_mode, output dtypes; and NVRTC compiles of the kernels. (The
separable zoom/shift's tests, on these builds: test_ndimage_zoom_separable_cpu.py.)"""

import ctypes
import re
import types
import warnings

import numpy as np
import pytest
import scipy
import scipy.ndimage as snd

from cuarray.cuda import compiler
from cuarray.scipy.ndimage import _interp_kernels as ik
from cubin_info import ptxas_verbose  # tests/ is on sys.path

WRAPPER = r"""
#include <vector>
#include "interp.cuh"
#include "zoom_shift.cuh"
using namespace cuarray_ndimage;

// The point kernel (interpolation.cu's geometric) as a loop: TAPS, interpolate_taps with int offsets.
template <int ND, int ORDER, bool TAPS>
static void run(const double* in, const long long* ishape, int indim, const long long* oshape, int ondim,
                const double* params, long long total, int kind, int mode, double cval, double npad, double* out) {
  for (long long idx = 0; idx < total; ++idx) {
    double c[CUARRAY_NDIMAGE_INTERP_MAX_NDIM];
    input_coordinate(kind, idx, total, oshape, ondim, indim, params, npad, c);
    if constexpr (TAPS && ND > 0) out[idx] = interpolate_taps<double, int, ND, ORDER>(in, ishape, c, mode, cval);
    else out[idx] = interpolate<double, ND, ORDER>(in, ishape, indim, c, mode, cval);
  }
}

#define ORDERS_T(ND, T) \
  switch (order) { case 0: f = run<ND, 0, T>; break; case 1: f = run<ND, 1, T>; break; \
                   case 2: f = run<ND, 2, T>; break; case 3: f = run<ND, 3, T>; break; \
                   case 4: f = run<ND, 4, T>; break; default: f = run<ND, 5, T>; }
#define ORDERS(ND) if (taps) { ORDERS_T(ND, true) } else { ORDERS_T(ND, false) }

extern "C" void geometric(const double* in, const long long* ishape, int indim, const long long* oshape, int ondim,
                          const double* params, long long total, int kind, int order, int mode, double cval,
                          double npad, double* out, int taps) {
  void (*f)(const double*, const long long*, int, const long long*, int, const double*, long long, int, int,
            double, double, double*);
  int nd = indim <= 3 ? indim : 0;
  if (nd == 1) { ORDERS(1) } else if (nd == 2) { ORDERS(2) } else if (nd == 3) { ORDERS(3) } else { ORDERS(0) }
  f(in, ishape, indim, oshape, ondim, params, total, kind, mode, cval, npad, out);
}

// interpolation.cu's spline_filter_warp with chunked = 1, its lanes run one after another within each
// phase (the kernel's __syncwarp between phases): line by line, staged with the gain applied.
extern "C" void spline_filter_chunked(double* data, long long n, long long inner, long long lines, int order,
                                      int mode) {
  std::vector<double> c(n), prev(32);
  const spline_poles_t sp = spline_poles(order);
  const bool chunk = n >= CUARRAY_NDIMAGE_SPLINE_CHUNK_MIN;
  const long long m = spline_chunk(n);
  const int kind = spline_kind(mode);
  for (long long line = 0; line < lines; ++line) {
    long long o = line / inner, k = line - o * inner;
    double* g = data + o * n * inner + k;
    for (long long i = 0; i < n; ++i) c[i] = g[i * inner] * (chunk ? sp.gain : 1.0);
    if (!chunk) {
      spline_filter_line(c.data(), n, 1, order, mode);
    } else {
      long long a[32], b[32];
      for (int l = 0; l < 32; ++l) {
        a[l] = l * m < n ? l * m : n;
        b[l] = a[l] + m < n ? a[l] + m : n;
      }
      for (int q = 0; q < sp.np; ++q) {
        const double z = sp.z[q];
        const int K = sp.k[q];
        for (int l = 0; l < 32; ++l) prev[l] = chunk_causal_start(c.data(), n, z, K, kind, a[l], b[l]);
        for (int l = 0; l < 32; ++l) chunk_causal_run(c.data(), z, a[l], b[l], prev[l]);
        for (int l = 0; l < 32; ++l) prev[l] = chunk_anticausal_start(c.data(), n, z, K, kind, a[l], b[l]);
        for (int l = 0; l < 32; ++l) chunk_anticausal_run(c.data(), n, z, a[l], b[l], prev[l]);
      }
    }
    for (long long i = 0; i < n; ++i) g[i * inner] = c[i];
  }
}

// zoom_shift's two kernels as loops: the tables row by row (when asked for), then the points.
template <typename I, int ND, int ORDER, bool GC, bool TABLE>
static void zs_run(const double* in, const long long* meta, int ndim, int flags, double npad, int mode, double cval,
                   double* out) {
  const long long* oshape = meta + ndim;
  long long rows = 0, total = 1;
  for (int d = 0; d < ndim; ++d) {
    rows += oshape[d];
    total *= oshape[d];
  }
  std::vector<double> W(TABLE ? rows * (ORDER + 1) : 0);
  std::vector<I> F(TABLE ? rows * (ORDER + 1) : 0);
  if (TABLE)
    for (long long r = 0; r < rows; ++r)
      zoom_shift_row<I, ORDER>(r, rows, meta, oshape, ndim, (const double*)(meta + 2 * ndim), flags, npad, mode,
                               W.data(), F.data());
  const zs_args<I> a = {W.data(), F.data(), (I)rows, meta, ndim, flags, mode, npad, cval};
  for (long long idx = 0; idx < total; ++idx)
    out[idx] = zoom_shift_point<double, I, ND, ORDER, GC, TABLE>::go(in, a, (I)idx);
}

typedef void (*zs_fn)(const double*, const long long*, int, int, double, int, double, double*);
#define ZS_ORDERS(I, ND, GC, T) \
  switch (order) { case 0: f = zs_run<I, ND, 0, GC, T>; break; case 1: f = zs_run<I, ND, 1, GC, T>; break; \
                   case 2: f = zs_run<I, ND, 2, GC, T>; break; case 3: f = zs_run<I, ND, 3, GC, T>; break; \
                   case 4: f = zs_run<I, ND, 4, GC, T>; break; default: f = zs_run<I, ND, 5, GC, T>; }
#define ZS_GC(I, ND, T) if (gc) { ZS_ORDERS(I, ND, true, T) } else { ZS_ORDERS(I, ND, false, T) }
#define ZS_TABLE(I, ND) if (table) { ZS_GC(I, ND, true) } else { ZS_GC(I, ND, false) }
#define ZS_ND(I) \
  if (nd == 1) { ZS_TABLE(I, 1) } else if (nd == 2) { ZS_TABLE(I, 2) } else if (nd == 3) { ZS_TABLE(I, 3) } \
  else { ZS_GC(I, 0, true) }

extern "C" void zoom_shift(const double* in, const long long* meta, int ndim, int flags, double npad, int order,
                           int mode, double cval, int wide, int table, double* out) {
  zs_fn f;
  int nd = ndim <= 3 ? ndim : 0;
  bool gc = mode == I_GRID_CONSTANT;
  if (wide) { ZS_ND(long long) } else { ZS_ND(int) }
  f(in, meta, ndim, flags, npad, mode, cval, out);
}

// The separable path (zoom_shift.cuh's passes) as loops: the unit-stride tables, then one pass.
template <typename I, int ORDER>
static void zs_axis_table_run(const long long* meta, int ndim, int flags, double npad, int mode, double* W, void* F,
                              int* outside) {
  long long rows = 0;
  for (int d = 0; d < ndim; ++d) rows += meta[ndim + d];
  for (long long r = 0; r < rows; ++r) {
    zoom_shift_row<I, ORDER>(r, rows, meta, meta + ndim, ndim, (const double*)(meta + 2 * ndim), flags, npad, mode,
                             W, (I*)F, true);
    if (mode != I_GRID_CONSTANT && ((I*)F)[r] < 0) *outside = 1;
  }
}

template <typename I, int ORDER, bool GC>
static void zs_pass_run(const double* src, double* dst, const double* W, const void* Fv, long long rows,
                        long long base, long long n_in, long long n_out, long long inner, long long total,
                        const long long* oshape, int ndim, double cval, int last, int outside) {
  const I* F = (const I*)Fv;
  for (long long i0 = 0; i0 < total; ++i0) {
    I idx = (I)i0, q = idx / (I)inner, i = idx - q * (I)inner, o = q / (I)n_out, j = q - o * (I)n_out;
    if (last && !GC && outside && zs_point_outside<I>(F, oshape, ndim, idx)) dst[idx] = cval;
    else dst[idx] = zoom_shift_pass_value<double, I, ORDER, GC>(src, W, F, (I)rows, (I)base + j, (I)n_in, (I)inner,
                                                                o, i, cval);
  }
}

#define ZS_PASS_ORDERS(I, GC) \
  switch (order) { case 2: p = zs_pass_run<I, 2, GC>; break; case 3: p = zs_pass_run<I, 3, GC>; break; \
                   case 4: p = zs_pass_run<I, 4, GC>; break; default: p = zs_pass_run<I, 5, GC>; }
#define ZS_TABLE_ORDERS(I) \
  switch (order) { case 2: t = zs_axis_table_run<I, 2>; break; case 3: t = zs_axis_table_run<I, 3>; break; \
                   case 4: t = zs_axis_table_run<I, 4>; break; default: t = zs_axis_table_run<I, 5>; }

extern "C" int zs_axis_table(const long long* meta, int ndim, int flags, double npad, int order, int mode, int wide,
                             double* W, void* F) {
  void (*t)(const long long*, int, int, double, int, double*, void*, int*);
  if (wide) { ZS_TABLE_ORDERS(long long) } else { ZS_TABLE_ORDERS(int) }
  int outside = 0;
  t(meta, ndim, flags, npad, mode, W, F, &outside);
  return outside;
}

extern "C" void zs_pass(const double* src, double* dst, const double* W, const void* F, long long rows,
                        long long base, long long n_in, long long n_out, long long inner, long long total,
                        const long long* oshape, int ndim, double cval, int last, int outside, int order, int gc,
                        int wide) {
  void (*p)(const double*, double*, const double*, const void*, long long, long long, long long, long long, long long,
            long long, const long long*, int, double, int, int);
  if (wide) { if (gc) { ZS_PASS_ORDERS(long long, true) } else { ZS_PASS_ORDERS(long long, false) } }
  else { if (gc) { ZS_PASS_ORDERS(int, true) } else { ZS_PASS_ORDERS(int, false) } }
  p(src, dst, W, F, rows, base, n_in, n_out, inner, total, oshape, ndim, cval, last, outside);
}

extern "C" void spline_filter(double* data, long long n, long long inner, long long lines, int order, int mode) {
  for (long long line = 0; line < lines; ++line) {
    long long o = line / inner, k = line - o * inner;
    spline_filter_line(data + o * n * inner + k, n, inner, order, mode);
  }
}

// interpolation.cu's spline_filter_columns: the (column, run) threads of each phase one after another (the
// kernel's __syncthreads between phases), in place on the (outer, n, inner) view.
extern "C" void spline_filter_columns(double* data, long long n, long long inner, long long outer, int order,
                                      int mode, int runs) {
  const spline_poles_t sp = spline_poles(order);
  const int kind = spline_kind(mode);
  const long long m = (n + runs - 1) / runs;
  std::vector<long long> a(runs), b(runs);
  for (int r = 0; r < runs; ++r) {
    a[r] = r * m < n ? r * m : n;
    b[r] = a[r] + m < n ? a[r] + m : n;
  }
  std::vector<double> prev(runs * inner);
  for (long long o = 0; o < outer; ++o) {
    double* base = data + o * n * inner;
    for (long long k = 0; k < inner; ++k)
      for (long long j = 0; j < n; ++j) base[j * inner + k] *= sp.gain;
    for (int q = 0; q < sp.np; ++q) {
      const double z = sp.z[q];
      const int K = sp.k[q];
      for (int r = 0; r < runs; ++r)
        for (long long k = 0; k < inner; ++k)
          prev[r * inner + k] = chunk_causal_start(base + k, n, z, K, kind, a[r], b[r], inner);
      for (int r = 0; r < runs; ++r)
        for (long long k = 0; k < inner; ++k) chunk_causal_run(base + k, z, a[r], b[r], prev[r * inner + k], inner);
      for (int r = 0; r < runs; ++r)
        for (long long k = 0; k < inner; ++k)
          prev[r * inner + k] = chunk_anticausal_start(base + k, n, z, K, kind, a[r], b[r], inner);
      for (int r = 0; r < runs; ++r)
        for (long long k = 0; k < inner; ++k)
          chunk_anticausal_run(base + k, n, z, a[r], b[r], prev[r * inner + k], inner);
    }
  }
}

// interpolation.cu's spline_filter_stream launches (a pass per pole: src -> dst for one, src -> a buffer -> dst for
// two), the (column, run) threads one after another: no thread reads what another writes.
template <int M, int U, typename I, int ORDER, int POLE>
static void stream_pass(const double* src, double* dst, long long n, long long inner, long long outer, int mode) {
  const spline_poles_t sp = spline_poles(ORDER);
  for (long long o = 0; o < outer; ++o)
    for (long long k = 0; k < inner; ++k)
      for (long long a = 0; a < n; a += M) {
        const long long base = o * n * inner + k;
        const line_in<double, I> x = {src + base, (I)inner, POLE == 0 ? sp.gain : 1.0};
        stream_run_store<M, CUARRAY_NDIMAGE_SPLINE_K(ORDER, POLE), U>(x, dst + base, (I)inner, (I)n, sp.z[POLE],
                                                                       spline_kind(mode), (I)a,
                                                                       (I)(a + M < n ? a + M : n));
      }
}

template <int M, int U, typename I>
static void stream_filter(const double* src, double* dst, long long n, long long inner, long long outer, int order,
                          int mode) {
  std::vector<double> buf(order > 3 ? n * inner * outer : 0);
  switch (order) {
    case 2: stream_pass<M, U, I, 2, 0>(src, dst, n, inner, outer, mode); break;
    case 3: stream_pass<M, U, I, 3, 0>(src, dst, n, inner, outer, mode); break;
    case 4:
      stream_pass<M, U, I, 4, 0>(src, buf.data(), n, inner, outer, mode);
      stream_pass<M, U, I, 4, 1>(buf.data(), dst, n, inner, outer, mode);
      break;
    default:
      stream_pass<M, U, I, 5, 0>(src, buf.data(), n, inner, outer, mode);
      stream_pass<M, U, I, 5, 1>(buf.data(), dst, n, inner, outer, mode);
  }
}

extern "C" void spline_filter_stream(const double* src, double* dst, long long n, long long inner, long long outer,
                                     int order, int mode, int run, int batch) {
  // (batch only unrolls loops, which g++ ignores: two instantiations, int and 64-bit indices, cover the arithmetic)
  if (run == 16) stream_filter<16, 16, int>(src, dst, n, inner, outer, order, mode);
  else stream_filter<32, 64, long long>(src, dst, n, inner, outer, order, mode);
}

#define STORE(CODE, TYPE) case CODE: for (long long i = 0; i < n; ++i) ((TYPE*)out)[i] = interp_store<TYPE>::go(t[i]); break;
extern "C" void store(const double* t, long long n, char code, void* out) {
  switch (code) {
    STORE('?', bool) STORE('b', signed char) STORE('h', short) STORE('i', int) STORE('q', long long)
    STORE('l', long long) STORE('B', unsigned char) STORE('H', unsigned short) STORE('I', unsigned int)
    STORE('Q', unsigned long long) STORE('L', unsigned long long) STORE('f', float) STORE('d', double)
  }
}
"""


@pytest.fixture(scope="module")
def lib(host_lib):
    return host_lib("interp", WRAPPER, ik._DIR)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


@pytest.fixture(scope="module")
def host_interp(lib):
    """A private copy of `_interpolation` (the public functions) with NumPy arrays for cuarray's and the
    kernels' drivers run by the host library, over copies of `_support` and `_interp_kernels`
    (`cuarray.testing.fake_device.host_modules`: nothing of cuarray is patched)."""
    from cuarray.scipy.ndimage import _interpolation, _support
    from cuarray.testing.fake_device import host_modules

    def astype(x, dt, order="K", copy=True):
        return np.array(x, dtype=dt, order=order, copy=True) if copy else np.asarray(x, dtype=dt, order=order)

    def copyto_unchecked(d, s):
        np.copyto(d, s, casting="unsafe")

    def geometric(x, out_dt, kind, oshape, params, order, mode, cval, npad, point="taps"):
        xin = np.ascontiguousarray(x, dtype=np.float64)
        p = np.ascontiguousarray(params, dtype=np.float64).reshape(-1)
        oshape = tuple(oshape)
        total = int(np.prod(oshape))
        t = np.empty(total)
        ish, osh = np.asarray(x.shape, np.int64), np.asarray(oshape, np.int64)
        if total:
            lib.geometric(_p(xin), _p(ish), ctypes.c_int(x.ndim), _p(osh), ctypes.c_int(len(oshape)), _p(p),
                          ctypes.c_longlong(total), ctypes.c_int(ik.KINDS[kind]), ctypes.c_int(order),
                          ctypes.c_int(mode), ctypes.c_double(cval), ctypes.c_double(npad), _p(t),
                          ctypes.c_int(point == "taps"))
        return store(t, oshape, out_dt)

    def store(t, oshape, out_dt):
        out = np.empty(oshape, out_dt)
        lib.store(_p(t), ctypes.c_longlong(t.size), ctypes.c_char(np.dtype(out_dt).char.encode()), _p(out))
        return out

    def zoom_shift(x, out_dt, oshape, zoom, shift, flags, order, mode, cval, npad, out=None):
        xin = np.ascontiguousarray(x, dtype=np.float64)
        oshape = tuple(oshape)
        total = int(np.prod(oshape))
        params = np.concatenate([np.asarray(zoom, np.float64), np.asarray(shift, np.float64)])
        meta = np.concatenate([np.asarray(x.shape, np.int64), np.asarray(oshape, np.int64), params.view(np.int64)])
        if total and ik.separable_plan(x.shape, oshape, order, np.dtype(out_dt).itemsize) is not None:
            return store(separable(xin, meta, oshape, flags, order, mode, cval, npad), oshape, out_dt)
        rows = sum(oshape) * (order + 1)  # as ik.zoom_shift decides:
        table = len(oshape) > 3 or rows * ik._TABLE_RATIO <= total
        wide = max(x.size, total, rows if table else 0) >= ik._I4_LIMIT
        t = np.empty(total)
        if total:
            lib.zoom_shift(_p(xin), _p(meta), ctypes.c_int(len(oshape)), ctypes.c_int(flags), ctypes.c_double(npad),
                           ctypes.c_int(order), ctypes.c_int(mode), ctypes.c_double(cval), ctypes.c_int(wide),
                           ctypes.c_int(table), _p(t))
        return store(t, oshape, out_dt)

    def separable(xin, meta, oshape, flags, order, mode, cval, npad):
        """ik._separable's tables and passes (in separable_plan's order) through the host library."""
        ndim = len(oshape)
        axes = ik.separable_plan(xin.shape, oshape, order, 8)
        rows, taps = sum(oshape), order + 1
        shape, sizes = list(xin.shape), []
        for d in axes:
            shape[d] = oshape[d]
            sizes.append(int(np.prod(shape)))
        wide = max([xin.size, rows * taps] + sizes) >= ik._I4_LIMIT
        w = np.empty(rows * taps)
        f = np.empty(rows * taps, np.int64 if wide else np.int32)
        gc = mode == ik.MODES["grid-constant"]
        outside = lib.zs_axis_table(_p(meta), ctypes.c_int(ndim), ctypes.c_int(flags), ctypes.c_double(npad),
                                    ctypes.c_int(order), ctypes.c_int(mode), ctypes.c_int(wide), _p(w), _p(f))
        osh = np.asarray(oshape, np.int64)
        cur, shape = xin, list(xin.shape)
        for p, d in enumerate(axes):
            n_in = shape[d]
            shape[d] = oshape[d]
            dst = np.empty(sizes[p])
            lib.zs_pass(_p(cur), _p(dst), _p(w), _p(f), ctypes.c_longlong(rows), ctypes.c_longlong(sum(oshape[:d])),
                        ctypes.c_longlong(n_in), ctypes.c_longlong(oshape[d]),
                        ctypes.c_longlong(int(np.prod(shape[d + 1:]))), ctypes.c_longlong(sizes[p]), _p(osh),
                        ctypes.c_int(ndim), ctypes.c_double(cval), ctypes.c_int(p == ndim - 1),
                        ctypes.c_int(outside), ctypes.c_int(order), ctypes.c_int(gc), ctypes.c_int(wide))
            cur = dst
        return cur

    def spline_filter(data, axis, order, mode, src=None, method="chunked", run=ik._STREAM_RUN,
                      batch=ik._STREAM_BATCH):
        assert data.dtype == np.float64 and data.flags.c_contiguous
        assert method in ik.PREFILTER_METHODS
        if src is not None:
            assert src.flags.c_contiguous and src.dtype in (np.float32, np.float64) and src.shape == data.shape
            np.copyto(data, src)
        plan = ik.spline_plan(data.shape, axis, method, data.dtype)
        if plan == "none":
            return
        n = data.shape[axis]
        inner = int(np.prod(data.shape[axis + 1:]))
        lines = data.size // n
        if plan == "stream":  # from a copy: the passes read one array and write another
            lib.spline_filter_stream(_p(data.copy()), _p(data), ctypes.c_longlong(n), ctypes.c_longlong(inner),
                                     ctypes.c_longlong(lines // inner), ctypes.c_int(order), ctypes.c_int(mode),
                                     ctypes.c_int(run), ctypes.c_int(batch))
            return
        if plan == "columns":  # the launch's blockDim.y, as _interp_kernels.spline_filter sets it
            runs = max(1, min(64, n // ik._COLUMNS_RUN))
            lib.spline_filter_columns(_p(data), ctypes.c_longlong(n), ctypes.c_longlong(inner),
                                      ctypes.c_longlong(lines // inner), ctypes.c_int(order), ctypes.c_int(mode),
                                      ctypes.c_int(runs))
            return
        fn = lib.spline_filter
        if plan == "warp" and method != "lane0":
            fn = lib.spline_filter_chunked
        fn(_p(data), ctypes.c_longlong(n), ctypes.c_longlong(inner), ctypes.c_longlong(lines),
           ctypes.c_int(order), ctypes.c_int(mode))

    return host_modules({
        _support: {"as_array": lambda x, fn: np.asarray(x), "ndarray": np.ndarray, "copyto_unchecked": copyto_unchecked,
                   "astype": astype},
        _interpolation: {"ndarray": lambda shape, dt: np.empty(shape, dt), "astype": astype,
                         "copyto_unchecked": copyto_unchecked, "_pad": np.pad},
        ik: {"geometric": geometric, "zoom_shift": zoom_shift, "spline_filter": spline_filter},
    })[_interpolation]


MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap"]
RNG = np.random.default_rng(5)


# SciPy 1.18 fixed the reflect-kind spline prefilter ("reflect", "grid-mirror", "nearest"), which
# before got lines of a few samples wrong (scipy#24615: c[0] summed in place, then read again).
# cuarray follows the fix; with an older SciPy the oracle for those modes is this NumPy transcription
# of SciPy 1.18's ni_splines.c, and the geometric functions are given its coefficients with
# prefilter=False (SciPy pads no samples for these modes, so that is the path SciPy itself takes).
OLD_SCIPY_REFLECT = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)
_POLES = {2: [-0.171572875253809902396622551580603843], 3: [-0.267949192431122706472553658494127633],
          4: [-0.361341225900220177092212841325675255, -0.013725429297339121360331226939128204],
          5: [-0.430575347099973791851434783493520110, -0.043096288203264653822712376822550182]}


def _filter1d_reflect_118(x, order, axis):
    c = np.moveaxis(np.array(x, dtype=np.float64), axis, 0)
    n = c.shape[0]
    if n <= 1 or order < 2:
        return np.moveaxis(c, 0, axis)
    gain = 1.0
    for z in _POLES[order]:
        gain *= (1.0 - z) * (1.0 - 1.0 / z)
    c *= gain
    for z in _POLES[order]:
        zn, zi = z ** n, z
        acc = c[0] + zn * c[n - 1]
        for i in range(1, n):
            acc = acc + zi * (c[i] + zn * c[n - 1 - i])
            zi *= z
        c[0] += acc * z / (1 - zn * zn)
        for i in range(1, n):
            c[i] += z * c[i - 1]
        c[n - 1] *= z / (z - 1)
        for i in range(n - 2, -1, -1):
            c[i] = z * (c[i + 1] - c[i])
    return np.moveaxis(c, 0, axis)


def _reflect_kind(mode, order, prefilter=True):
    return OLD_SCIPY_REFLECT and prefilter and order > 1 and mode in ("reflect", "grid-mirror", "nearest")


def ref_spline_filter1d(x, order=3, axis=-1, output=np.float64, mode="mirror"):
    if not _reflect_kind(mode, order):
        return snd.spline_filter1d(x, order, axis, output=output, mode=mode)
    return _filter1d_reflect_118(x, order, axis).astype(output)


def ref_spline_filter(x, order=3, output=np.float64, mode="mirror"):
    if not _reflect_kind(mode, order):
        return snd.spline_filter(x, order, output=output, mode=mode)
    out = np.asarray(x)
    for axis in range(out.ndim):  # SciPy stores each axis's pass in `output`'s dtype
        out = _filter1d_reflect_118(out, order, axis).astype(output)
    return out


def ref_geometric(name, x, *args, order=3, mode="constant", prefilter=True, **kw):
    """scipy.ndimage.<name>, with SciPy 1.18's prefilter for the reflect kinds that pad nothing."""
    if _reflect_kind(mode, order, prefilter) and mode != "nearest" and np.asarray(x).dtype.kind != "c":
        kw.setdefault("output", np.asarray(x).dtype)
        x, prefilter = ref_spline_filter(x, order, mode=mode), False
    return getattr(snd, name)(x, *args, order=order, mode=mode, prefilter=prefilter, **kw)


def test_reflect_prefilter_short_lines(host_interp):
    """The B-spline of the filtered coefficients passes through the samples (reflect, n of 2..5):
    the bug SciPy 1.18 fixed; the check needs no SciPy."""
    for order, mode in [(o, m) for o in (2, 3, 4, 5) for m in ("reflect", "grid-mirror")]:
        for n in (2, 3, 4, 5):
            eye = np.eye(n)
            coeffs = host_interp.spline_filter1d(eye, order, axis=0, mode=mode)
            for j in range(n):
                back = snd.map_coordinates(coeffs[:, j], np.arange(n, dtype=float)[None], order=order,
                                           mode=mode, prefilter=False)
                np.testing.assert_allclose(back, eye[:, j], atol=1e-12)


def close(got, ref):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    if ref.dtype.kind in "iub":
        np.testing.assert_array_equal(got, ref)
    else:  # float32: the sum in double, rounded once; SciPy adds the taps in another order
        tol = 1e-6 if ref.dtype.char in "fF" else 1e-9
        np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
def test_spline_filter(host_interp, mode, order):
    x = RNG.normal(size=(6, 7, 3))
    if order >= 2:
        close(host_interp.spline_filter(x, order, mode=mode), ref_spline_filter(x, order, mode=mode))
        close(host_interp.spline_filter(x, order, output=np.float32, mode=mode),
              ref_spline_filter(x, order, output=np.float32, mode=mode))
    for axis in (0, 1, -1):
        close(host_interp.spline_filter1d(x, order, axis, mode=mode), ref_spline_filter1d(x, order, axis, mode=mode))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("prefilter", [True, False])
def test_map_coordinates(host_interp, mode, order, prefilter):
    x = RNG.normal(size=(7, 9)) * 10
    coords = RNG.uniform(-4, 12, size=(2, 5, 11))
    coords[:, 0, :3] = [[0, 3, 6], [8, 2, 0]]  # exact grid points
    ref = ref_geometric("map_coordinates", x, coords, order=order, mode=mode, cval=-2.5, prefilter=prefilter)
    close(host_interp.map_coordinates(x, coords, order=order, mode=mode, cval=-2.5, prefilter=prefilter), ref)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int64", "float32", "bool", "complex128"])
def test_map_coordinates_dtypes(host_interp, dtype):
    x = RNG.normal(size=(5, 6, 4)) * 50
    x = x + 1j * RNG.normal(size=x.shape) if dtype == "complex128" else x
    x = (np.abs(x) if dtype == "uint8" else x > 0 if dtype == "bool" else x).astype(dtype)  # bool: mixed
    coords = RNG.uniform(-1, 6, size=(3, 40))
    for order in (0, 1, 3):
        got = host_interp.map_coordinates(x, coords, order=order, mode="nearest")
        ref = ref_geometric("map_coordinates", x, coords, order=order, mode="nearest")
        if dtype == "bool":
            # SciPy stores (npy_bool)t, a truncation: at t within rounding of an integer (1 - 1e-16 where
            # the weights of all-True neighbours sum to one) it is decided by the last bit of the
            # weights' rounding, which differs between SciPy builds (seen on SciPy 1.18's wheel)
            t = snd.map_coordinates(x.astype(np.float64), coords, order=order, mode="nearest")
            keep = (np.abs(t - np.round(t)) > 1e-9) | (order == 0)  # order 0 copies samples: exact
            assert keep.sum() >= 10
            got, ref = got[keep], ref[keep]
        close(got, ref)
    close(host_interp.map_coordinates(x, coords, output=np.float32, mode="mirror"),
          ref_geometric("map_coordinates", x, coords, output=np.float32, mode="mirror"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 3, 5])
def test_shift_zoom(host_interp, mode, order):
    x = RNG.normal(size=(8, 10)) * 10
    close(host_interp.shift(x, (1.3, -2.6), order=order, mode=mode, cval=1.0),
          ref_geometric("shift", x, (1.3, -2.6), order=order, mode=mode, cval=1.0))
    for z in [(1.7, 0.6), 2.0, (1, 1.5)]:
        for grid_mode in (False, True):
            with pytest.warns(UserWarning) if grid_mode and mode in ("constant", "wrap") else _nothing():
                got = host_interp.zoom(x, z, order=order, mode=mode, grid_mode=grid_mode)
            with pytest.warns(UserWarning) if grid_mode and mode in ("constant", "wrap") else _nothing():
                ref = ref_geometric("zoom", x, z, order=order, mode=mode, grid_mode=grid_mode)
            close(got, ref)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


@pytest.mark.parametrize("mode", ["constant", "nearest", "reflect", "wrap", "grid-constant"])
@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_affine_and_rotate(host_interp, mode, order):
    x = RNG.normal(size=(9, 8)) * 10
    m = np.array([[0.9, 0.2], [-0.3, 1.1]])
    close(host_interp.affine_transform(x, m, offset=(0.5, -1.0), order=order, mode=mode),
          ref_geometric("affine_transform", x, m, offset=(0.5, -1.0), order=order, mode=mode))
    close(host_interp.affine_transform(x, [1.2, 0.7], offset=0.3, output_shape=(11, 5), order=order, mode=mode),
          ref_geometric("affine_transform", x, [1.2, 0.7], offset=0.3, output_shape=(11, 5), order=order, mode=mode))
    h = np.array([[1.0, 0.1, 0.5], [0.0, 0.9, -2.0], [0, 0, 1]])
    close(host_interp.affine_transform(x, h, order=order, mode=mode),
          ref_geometric("affine_transform", x, h, order=order, mode=mode))
    for angle, reshape in [(30, True), (90, False), (-17.5, True)]:
        close(host_interp.rotate(x, angle, reshape=reshape, order=order, mode=mode),
              ref_geometric("rotate", x, angle, reshape=reshape, order=order, mode=mode))


@pytest.mark.parametrize("mode", ["constant", "wrap", "grid-constant", "mirror"])
@pytest.mark.parametrize("order", [0, 1, 3])
def test_affine_point_on_edge(host_interp, mode, order):
    """Output point (1, 7) maps to row 2.0 + 0.8 - 2.8 = -4.4e-16 in SciPy's order of sums (offset
    first), exactly 0.0 in the other order: outside the input for 'constant', or inside."""
    x = RNG.normal(size=(20, 16))
    m = np.array([[0.8, -0.4], [0.5, 1.2]])
    close(host_interp.affine_transform(x, m, (2.0, -3.0), output_shape=(25, 12), order=order, mode=mode),
          ref_geometric("affine_transform", x, m, (2.0, -3.0), output_shape=(25, 12), order=order, mode=mode))


def test_rotate_3d_is_one_affine(host_interp):
    x = RNG.normal(size=(5, 6, 7))
    for axes in [(1, 0), (0, 2), (-1, -2)]:
        got = host_interp.rotate(x, 25, axes=axes, order=3, mode="nearest")
        ref = ref_geometric("rotate", x, 25, axes=axes, order=3, mode="nearest")
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-7, atol=1e-7)


def test_interp_errors(host_interp):
    x = RNG.normal(size=(4, 5))
    for call in [lambda nd: nd.map_coordinates(x, np.zeros((3, 4))),
                 lambda nd: nd.map_coordinates(x, np.zeros((2, 4)), order=6),
                 lambda nd: nd.map_coordinates(x, np.zeros((2, 4)), mode="bogus"),
                 lambda nd: nd.spline_filter(x, 1),
                 lambda nd: nd.affine_transform(x, np.eye(4)),
                 lambda nd: nd.affine_transform(x, np.ones((3, 3)) + np.eye(3)),
                 lambda nd: nd.rotate(x[0], 10),
                 lambda nd: nd.rotate(x, 10, axes=(0, 0, 1)),
                 lambda nd: nd.zoom(x, 2, output=np.empty((2, 2)))]:
        with pytest.raises(Exception) as ref:
            call(snd)
        with pytest.raises(ref.type):
            call(host_interp)


def test_kernels_compile_for_sm90():
    names = [ik.geometric_name(np.dtype(a), np.dtype(b), k, nd, o)
             for a, b, k, nd, o in [("f", "f", "coords", 2, 3), ("d", "d", "affine", 3, 1), ("B", "B", "affine", 2, 0),
                                    ("q", "d", "affine", 5, 5), ("?", "?", "coords", 1, 2)]]
    names += [ik.geometric_name(np.dtype(a), np.dtype(b), "coords", nd, o, np.dtype(c), w, pt)
              for a, b, nd, o, c, w, pt in [("f", "f", 2, 3, "f", False, "taps"), ("d", "f", 3, 5, "d", True, "taps"),
                                            ("f", "f", 1, 2, "f", False, "loop"), ("d", "d", 2, 0, "d", False, "taps"),
                                            ("d", "d", 4, 3, "f", False, "taps")]]
    names += [ik.stream_name(np.dtype(s), o, p, r, w, u) for s, o, p, r, w, u in
              [("f", 4, 0, 16, False, 64), ("d", 4, 1, 32, True, 16)]]  # (more: test_stream_and_point_kernels_keep_registers)
    names += [ik.SPLINE_FILTER, ik.SPLINE_FILTER_WARP, ik.SPLINE_FILTER_WARP_F4,
              ik._SPLINE_FILTER_WARP.format("float", "float"), ik._SPLINE_FILTER_COLUMNS.format("double"),
              ik._SPLINE_FILTER_COLUMNS.format("float")]
    cubin, mapping = compiler.compile_cubin(ik.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


def _ptxas_info(names):
    """{name: (registers, stack bytes, spill store bytes)} of `names` compiled by NVRTC for sm_90 (ptxas -v)."""
    log, lowered = ptxas_verbose(ik.source(), names, "interp.cu")
    info, fn = {}, None
    for line in log.splitlines():
        m = re.search(r"(?:Compiling entry function|Function properties for) '?([\w$]+)'?", line)
        if m:
            fn = lowered.get(m.group(1))
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
        if m and fn:
            info.setdefault(fn, {}).update(stack=int(m.group(1)), spill=int(m.group(2)))
        m = re.search(r"Used (\d+) registers", line)
        if m and fn:
            info.setdefault(fn, {}).update(regs=int(m.group(1)))
    return {n: (v["regs"], v["stack"], v["spill"]) for n, v in info.items()}


def test_stream_and_point_kernels_keep_registers():
    """ptxas for sm_90: the streamed prefilter pass keeps its run in registers (M doubles indexed by constants:
    no spill; 32-bit and 64-bit indices; float and double inputs; both poles of order 5), the order-3 ones without a
    stack frame (orders 4, 5 have one for the calls into their out-of-line end-of-line paths); the point kernels of
    map_coordinates (nested taps, the shared per-axis helper axis_spline) without one."""
    stream = [ik.stream_name(np.dtype(s), o, p, r, w, u) for s, o, p, r, w, u in
              [("f", 3, 0, 16, False, 16), ("d", 3, 0, 16, False, 16), ("f", 3, 0, 32, False, 16),
               ("f", 2, 0, 16, True, 16), ("f", 3, 0, 16, False, 64), ("f", 5, 0, 16, False, 16),
               ("d", 5, 1, 16, False, 16)]]
    taps = [ik.geometric_name(np.dtype("d"), np.dtype("f"), "coords", nd, 3, np.dtype("f"), False, "taps")
            for nd in (1, 2, 3)]
    info = _ptxas_info(stream + taps)
    assert set(info) == set(stream + taps)
    assert all(spill == 0 for _, _, spill in info.values()), info
    assert all(info[n][1] == 0 for n in stream[:5] + taps), info
    # runs of 16 with 16 loads in flight (int indices) under the launch bound of 3 blocks an SM
    assert info[stream[0]][0] <= 80 and info[stream[5]][0] <= 80, info


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filter_stream_in_filtered_along(host_interp, order):
    """method="stream" through _interpolation._filtered_along: a 3-D volume (axis 0 read from the input itself, axis
    1 strided and in place: filtered into a fresh array instead, axis 2 too short for the streamed pass), inputs a
    float32 one, a non-contiguous one and an integer one (copied first: every strided pass in place), every mode,
    against SciPy."""
    interp = host_interp  # _interpolation's copy

    x = RNG.normal(size=(70, 66, 17)) * 10
    assert [ik.spline_plan(x.shape, a, "stream") for a in range(3)][:2] == ["stream", "stream"]
    for xin in (x.astype(np.float32), x[:, ::-1], (x * 10).astype(np.int16)):
        for mode in MODES:
            got = interp._filtered_along(xin, range(3), order, ik.mode_code(mode), "stream")
            assert got.dtype == np.float64
            close(got, ref_spline_filter(xin, order, mode=mode))


# The chunked prefilter (each lane of a warp a run of the line, warmed up from K samples before and after it, the
# boundary sums cut after K terms): lines from the threshold (64) up, odd lengths, runs shorter than K (n of 64..1000
# gives runs of 3..33 samples against K of 10..50), every mode kind, against the sequential line and SciPy.
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filter_chunked(host_interp, lib, mode, order):
    code = ik.mode_code(mode)
    for n in (2, 5, 63, 64, 65, 97, 130, 333, 1000, 2049):
        for shape, axis in (((n, 3), 0), ((2, n), 1)):
            x = RNG.normal(size=shape) * np.exp(RNG.uniform(-3, 3, size=shape))  # magnitudes over ~6 decades
            seq = np.array(x, dtype=np.float64)  # a copy: x is the oracle's input
            chk = seq.copy()
            inner = int(np.prod(shape[axis + 1:]))
            for fn, buf in ((lib.spline_filter, seq), (lib.spline_filter_chunked, chk)):
                fn(_p(buf), ctypes.c_longlong(n), ctypes.c_longlong(inner), ctypes.c_longlong(buf.size // n),
                   ctypes.c_int(order), ctypes.c_int(code))
            bufs = [chk]
            if n >= 64:  # the column kernel (any number of runs: 1, the launch's, and more than the warm-up allows)
                for runs in sorted({1, max(1, min(64, n // ik._COLUMNS_RUN)), 32}):
                    col = np.array(np.moveaxis(x, axis, 0), dtype=np.float64, order="C")  # (n, others): inner = others
                    lib.spline_filter_columns(_p(col), ctypes.c_longlong(n), ctypes.c_longlong(col.size // n),
                                              ctypes.c_longlong(1), ctypes.c_int(order), ctypes.c_int(code),
                                              ctypes.c_int(runs))
                    bufs.append(np.moveaxis(col, 0, axis))
                # the streamed passes (runs of 16 with int indices, of 32 with 64-bit ones)
                col = np.array(np.moveaxis(x, axis, 0), dtype=np.float64, order="C")
                for run in ik.STREAM_RUNS:
                    out = np.full_like(col, np.nan)
                    lib.spline_filter_stream(_p(col), _p(out), ctypes.c_longlong(n), ctypes.c_longlong(col.size // n),
                                             ctypes.c_longlong(1), ctypes.c_int(order), ctypes.c_int(code),
                                             ctypes.c_int(run), ctypes.c_int(16))
                    bufs.append(np.moveaxis(out, 0, axis))
            scale = float(np.abs(seq).max())
            for got in bufs:
                np.testing.assert_allclose(got, seq, rtol=0, atol=1e-14 * scale)
                if n > 5 or not OLD_SCIPY_REFLECT:
                    np.testing.assert_allclose(got, ref_spline_filter1d(x, order, axis, mode=mode), rtol=0,
                                               atol=1e-13 * scale)


@pytest.mark.parametrize("method", ik.PREFILTER_METHODS)
def test_spline_filter_methods_and_float32_source(host_interp, monkeypatch, method):
    """Both prefilter methods through the public functions (float32 and float64 inputs read directly by the
    first pass; a non-contiguous input copied first), long enough lines for the chunked path."""
    calls = []
    stub = host_interp._k.spline_filter

    def forced(data, axis, order, mode, src=None, method="chunked", _m=method):
        calls.append(None if src is None else src.dtype)
        stub(data, axis, order, mode, src=src, method=_m)

    monkeypatch.setattr(host_interp._k, "spline_filter", forced)  # the copy's
    x = RNG.normal(size=(70, 129))
    for xin in (x, x.astype(np.float32), x[:, ::-1], x.astype(np.int16)):
        calls.clear()
        close(host_interp.spline_filter(xin, 3, mode="mirror"), ref_spline_filter(xin, 3, mode="mirror"))
        assert calls[0] == (xin.dtype if xin.flags.c_contiguous and xin.dtype.kind == "f" else None)
        assert calls[1:] == [None]
        close(host_interp.spline_filter1d(xin, 5, 0, mode="grid-wrap"),
              ref_spline_filter1d(xin, 5, 0, mode="grid-wrap"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
def test_point_methods(host_interp, mode, order):
    """interpolate_taps (nested taps, per-axis offsets, int) and the generic tap loop, 1-3 dimensions, points
    inside, near the edges and outside, against SciPy on coefficients (prefilter=False)."""
    for shape in ((13,), (7, 9), (5, 6, 4)):
        x = RNG.normal(size=shape) * 10
        coords = np.stack([RNG.uniform(-3, s + 2, size=60) for s in shape])
        coords[:, :len(shape)] = np.asarray(shape)[:, None] - 1  # the last sample exactly
        ref = snd.map_coordinates(x, coords, order=order, mode=mode, cval=-1.5, prefilter=False)
        for point in ik.POINT_METHODS:
            got = host_interp._k.geometric(x, np.dtype(np.float64), "coords", (60,), coords, order,  # the copy's
                                           ik.mode_code(mode), -1.5, 0, point=point)
            close(got, ref)


@pytest.mark.parametrize("order", [1, 3])
def test_generic_ndim_kernel(host_interp, order):
    """ndim 4 and 1 (the generic loops and the 1-D unrolled kernel)."""
    x = RNG.normal(size=(3, 4, 3, 5))
    coords = RNG.uniform(-1, 5, size=(4, 30))
    close(host_interp.map_coordinates(x, coords, order=order, mode="reflect"),
          ref_geometric("map_coordinates", x, coords, order=order, mode="reflect"))
    close(host_interp.zoom(x, (1.5, 1, 0.7, 2), order=order, mode="grid-wrap"),
          ref_geometric("zoom", x, (1.5, 1, 0.7, 2), order=order, mode="grid-wrap"))
    y = RNG.normal(size=17)
    close(host_interp.shift(y, 2.25, order=order, mode="mirror"), ref_geometric("shift", y, 2.25, order=order, mode="mirror"))


# -- zoom, shift, diagonal affine_transform: the per-axis tables of zoom_shift.cuh ---------------------
ZS_SHAPES = {1: (13,), 2: (9, 7), 3: (5, 6, 4)}
ZS_ZOOMS = {1: [2.0, 0.45, 1.3], 2: [(1.7, 0.6), 2.0, (1, 1.5)], 3: [2.0, (0.5, 1.4, 3.0), (1, 0.8, 1.25)]}


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():  # grid_mode's advice for constant and wrap, in both libraries
        warnings.simplefilter("ignore", UserWarning)
        return fn(*args, **kw)


@pytest.fixture(params=["table", "inline"])
def zs_taps_from(request, monkeypatch):
    """The zoom/shift points reading per-axis tables, or computing their taps (the choice forced;
    the direct kernel for every order: the separable path has its tests below)."""
    monkeypatch.setattr(ik, "_TABLE_RATIO", 0 if request.param == "table" else 10 ** 9)
    monkeypatch.setattr(ik, "_SEPARABLE_BYTES", -1)
    return request.param


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_zoom_shift_every_order_mode_ndim(host_interp, zs_taps_from, mode, order, ndim):
    x = RNG.normal(size=ZS_SHAPES[ndim]) * 10
    for z in ZS_ZOOMS[ndim]:
        for grid_mode in (False, True):
            got = _quiet(host_interp.zoom, x, z, order=order, mode=mode, cval=-1.75, grid_mode=grid_mode)
            close(got, _quiet(ref_geometric, "zoom", x, z, order=order, mode=mode, cval=-1.75, grid_mode=grid_mode))
    for s in [1.3, -2.6, 0.5, 7.25]:  # 7.25: beyond the whole input along the short axes
        sh = [s * (-1) ** d for d in range(ndim)]
        close(host_interp.shift(x, sh, order=order, mode=mode, cval=2.5),
              ref_geometric("shift", x, sh, order=order, mode=mode, cval=2.5))
    for prefilter in (False,) if order > 1 else ():
        close(host_interp.zoom(x, 1.5, order=order, mode=mode, prefilter=prefilter),
              ref_geometric("zoom", x, 1.5, order=order, mode=mode, prefilter=prefilter))


def _close_int(got, ref, unrounded):
    """Integer outputs: SciPy sums the taps in another order, so a value within rounding of .5
    may round either way: every difference is one unit, at a point where SciPy's unrounded value
    (`unrounded`, its float64 output) is a tie. (A count of allowed differences made the test
    depend on the data: shifts of integers by 0.4 or 1.3 land on exact ties often.)"""
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got.astype(float), ref.astype(float), atol=1, rtol=0)
    off = got != ref
    frac = np.abs(unrounded - np.floor(unrounded) - 0.5)
    assert np.all(frac[off] < 1e-6), (got[off], ref[off], unrounded[off])


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "float32", "complex128"])
def test_zoom_shift_dtypes(host_interp, dtype):
    x = RNG.normal(size=(9, 11)) * 60
    x = x + 1j * RNG.normal(size=x.shape) if dtype == "complex128" else x
    x = (np.abs(x) if dtype == "uint8" else x).astype(dtype)
    for order in (0, 1, 3):
        for fn, arg in [("zoom", (1.6, 0.7)), ("shift", (0.4, -1.3))]:
            got = getattr(host_interp, fn)(x, arg, order=order, mode="mirror")
            ref = ref_geometric(fn, x, arg, order=order, mode="mirror")
            if ref.dtype.kind in "iu":
                _close_int(got, ref, ref_geometric(fn, x, arg, order=order, mode="mirror", output=np.float64))
            else:
                close(got, ref)
    if dtype != "complex128":
        for out in (np.float32, np.int16):
            got = host_interp.zoom(x, 2, output=out, order=3, mode="nearest")
            ref = ref_geometric("zoom", x, 2, output=out, order=3, mode="nearest")
            if ref.dtype.kind in "iu":
                _close_int(got, ref, ref_geometric("zoom", x, 2, output=np.float64, order=3, mode="nearest"))
            else:
                assert got.dtype == ref.dtype
                np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 3, 4])
def test_affine_diagonal_matrix(host_interp, zs_taps_from, mode, order):
    """A diagonal matrix (2-D, or its homogeneous form) goes through the per-axis tables: SciPy's
    offset + o * m along each axis, points on an edge on SciPy's side (offset -1.2 + 1.2 * 1 is 0)."""
    x = RNG.normal(size=(8, 9, 5)) * 10
    m = np.diag([1.2, 0.55, -0.8])
    off = (-1.2, 0.75, 3.6)
    for oshape in [None, (7, 15, 4)]:
        close(host_interp.affine_transform(x, m, off, output_shape=oshape, order=order, mode=mode, cval=0.5),
              ref_geometric("affine_transform", x, m, off, output_shape=oshape, order=order, mode=mode, cval=0.5))
    h = np.eye(4)
    h[:3, :3] = m
    h[:3, 3] = off
    close(host_interp.affine_transform(x, h, order=order, mode=mode),
          ref_geometric("affine_transform", x, h, order=order, mode=mode))
    close(host_interp.affine_transform(x, [1.2, 0.55, 0.8], 0.7, output_shape=(9, 16, 3), order=order, mode=mode),
          ref_geometric("affine_transform", x, [1.2, 0.55, 0.8], 0.7, output_shape=(9, 16, 3), order=order, mode=mode))
    # rotate by 180 degrees: a diagonal of -1 (2-D: SciPy rotates a 3-D array plane by plane)
    p = np.ascontiguousarray(x[:, :, 1])
    close(host_interp.rotate(p, 180, order=order, mode=mode), ref_geometric("rotate", p, 180, order=order, mode=mode))


@pytest.mark.parametrize("mode", ["constant", "grid-constant", "reflect", "nearest", "grid-wrap"])
@pytest.mark.parametrize("order", [0, 2, 3, 5])
def test_zoom_shift_generic_ndim_and_wide(host_interp, monkeypatch, zs_taps_from, mode, order):
    """ndim 4 and 5 (the generic loops, tables whatever is asked), and 64-bit offsets (forced: the
    threshold set to 0)."""
    x = RNG.normal(size=(3, 4, 2, 5))
    y = RNG.normal(size=(2, 3, 2, 2, 3))
    for wide in (False, True):
        if wide:
            monkeypatch.setattr(ik, "_I4_LIMIT", 0)
        close(_quiet(host_interp.zoom, x, (1.5, 1, 0.7, 2), order=order, mode=mode, grid_mode=True),
              _quiet(ref_geometric, "zoom", x, (1.5, 1, 0.7, 2), order=order, mode=mode, grid_mode=True))
        close(host_interp.shift(y, (0.5, -1.25, 2, 0, 0.75), order=order, mode=mode, cval=-3.0, prefilter=False),
              ref_geometric("shift", y, (0.5, -1.25, 2, 0, 0.75), order=order, mode=mode, cval=-3.0, prefilter=False))
        z = RNG.normal(size=(6, 7, 5))
        close(host_interp.zoom(z, (1.3, 0.6, 2.2), order=order, mode=mode),
              ref_geometric("zoom", z, (1.3, 0.6, 2.2), order=order, mode=mode))


def test_affine_1d_matrix_rank(host_interp):
    # SciPy 1.17 crashes on this (zoom_shift with an output of another rank)
    with pytest.raises(RuntimeError):
        host_interp.affine_transform(RNG.normal(size=(4, 5)), [1.0, 1.0], output_shape=(3,))


@pytest.mark.parametrize("order", range(6))
@pytest.mark.nvrtc_fast
def test_zoom_shift_kernels_compile_for_sm90(order):
    """Every (ndim class, grid-constant, tables or not) the zoom/shift kernels are built for, of
    each order; 64-bit offsets (only the index type changes) for 3-D and the generic ndim."""
    names = set()
    for nd in (1, 2, 3, 4):
        for gc in (False, True):
            for table in (False, True):
                for wide in (False, True) if nd >= 3 else (False,):
                    names.update(ik.zoom_shift_names(np.dtype("d"), np.dtype("f"), wide, nd, order, gc, table))
    for a, b in [("f", "f"), ("B", "B"), ("q", "d"), ("?", "?"), ("d", "H")] if order == 1 else ():
        names.update(ik.zoom_shift_names(np.dtype(a), np.dtype(b), False, 2, 1, False))
    names = sorted(names)
    cubin, mapping = compiler.compile_cubin(ik.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("shape,zoom", [((7, 16), (1.5, 1)), ((16, 5), (1, 0.5)), ((3, 17), (2.5, 1.1)),
                                        ((16, 18), 0.06), ((16, 18), 0.02), ((20,), 1.0)])
def test_zoom_output_shapes(host_interp, zs_taps_from, shape, zoom):
    """SciPy's rounding of the output shape (10.5 -> 10, 2.5 -> 2, 7.5 -> 8), outputs of one sample
    (a zero zoom divisor) or none, a zoom of 1 with and without prefilter."""
    x = RNG.normal(size=shape)
    for grid_mode in (False, True):
        close(host_interp.zoom(x, zoom, order=3, mode="grid-mirror", grid_mode=grid_mode),
              ref_geometric("zoom", x, zoom, order=3, mode="grid-mirror", grid_mode=grid_mode))
        close(host_interp.zoom(x, zoom, order=1, mode="nearest", grid_mode=grid_mode, prefilter=False),
              ref_geometric("zoom", x, zoom, order=1, mode="nearest", grid_mode=grid_mode, prefilter=False))


# -- zoom_shift's Python driver against the kernels themselves: templates/zoom_shift.cu built with g++,
# each launch a loop over the grid's threads reading the arguments the driver packed, as
# cuLaunchKernel reads them (each at the width of the kernel's parameter) ----------------------------
LAUNCH_DRIVER = r"""
#include <cstddef>
#include <type_traits>
#include <utility>
struct host_dim3 { unsigned x; };
static host_dim3 blockIdx, blockDim, threadIdx;
#define __global__
#include "interp.cuh"
#include "zoom_shift.cuh"
#include "zoom_shift.cu"
using namespace cuarray_ndimage;

template <typename... P, std::size_t... Is>
static void call(void (*k)(P...), void** args, std::index_sequence<Is...>) {
  k(*static_cast<typename std::remove_cv<P>::type*>(args[Is])...);
}

template <typename... P>
static void launch(void (*k)(P...), unsigned grid, unsigned block, void** args) {
  blockDim.x = block;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t) {
      blockIdx.x = b;
      threadIdx.x = t;
      call(k, args, std::index_sequence_for<P...>{});
    }
}

template <typename I, int ORDER>
static void point(int nd, int gc, int table, unsigned grid, unsigned block, void** args) {
#define ZS_POINT(ND, GC, T) launch(zoom_shift<double, double, I, ND, ORDER, GC, T>, grid, block, args)
#define ZS_GT(ND) if (gc) { if (table) ZS_POINT(ND, true, true); else ZS_POINT(ND, true, false); } \
                  else { if (table) ZS_POINT(ND, false, true); else ZS_POINT(ND, false, false); }
  if (nd == 1) { ZS_GT(1) } else if (nd == 2) { ZS_GT(2) } else if (nd == 3) { ZS_GT(3) } else { ZS_GT(0) }
}

// kind 0: zoom_shift_table<I, order>; 1: zoom_shift<double, double, I, nd, order, gc, table> (orders 1, 3)
extern "C" void run(int kind, int wide, int nd, int order, int gc, int table, unsigned grid, unsigned block,
                    void** args) {
  if (kind == 0) {
    if (wide) launch(order == 1 ? zoom_shift_table<long long, 1> : zoom_shift_table<long long, 3>, grid, block, args);
    else launch(order == 1 ? zoom_shift_table<int, 1> : zoom_shift_table<int, 3>, grid, block, args);
  } else if (wide) {
    (order == 1 ? point<long long, 1> : point<long long, 3>)(nd, gc, table, grid, block, args);
  } else {
    (order == 1 ? point<int, 1> : point<int, 3>)(nd, gc, table, grid, block, args);
  }
}

// The separable path (order 3, double in and out): kind 0 zoom_shift_axis_table<I, 3>, 1 a pass
// zoom_shift_pass<double, double, I, 3, gc, last>.
extern "C" void run_separable(int kind, int wide, int gc, int last, unsigned grid, unsigned block, void** args) {
#define ZS_PASS(I) \
  if (gc) { if (last) launch(zoom_shift_pass<double, double, I, 3, true, true>, grid, block, args); \
            else launch(zoom_shift_pass<double, double, I, 3, true, false>, grid, block, args); } \
  else { if (last) launch(zoom_shift_pass<double, double, I, 3, false, true>, grid, block, args); \
         else launch(zoom_shift_pass<double, double, I, 3, false, false>, grid, block, args); }
  if (kind == 0) {
    if (wide) launch(zoom_shift_axis_table<long long, 3>, grid, block, args);
    else launch(zoom_shift_axis_table<int, 3>, grid, block, args);
  } else if (wide) {
    ZS_PASS(long long)
  } else {
    ZS_PASS(int)
  }
}
"""


class _HostArray:
    """What zoom_shift uses of a device array, over a NumPy array (C order)."""

    def __init__(self, shape=None, dtype=None, a=None):
        self.a = np.zeros(shape, dtype) if a is None else np.ascontiguousarray(a)
        self.shape, self.size, self.nbytes, self.ndim = self.a.shape, self.a.size, self.a.nbytes, self.a.ndim
        self._dtype, self._c = self.a.dtype, True
        self.data = types.SimpleNamespace(ptr=self.a.ctypes.data)


@pytest.fixture
def zs_on_host(host_lib):
    """ik.zoom_shift as it is, on a private copy of ik (`run.ik`, whose thresholds a test may set) with its
    device arrays and launches on the host (`cuarray.testing.fake_device.host_module`)."""
    lib = host_lib("zoom_launch", LAUNCH_DRIVER, ik._DIR)
    from cuarray.cuda import launch as real_launch
    from cuarray.testing.fake_device import host_module

    def launch(kernel, grid, block, args):
        kind, key = kernel
        bufs = [ctypes.create_string_buffer(a.to_bytes(8, "little", signed=a < 0) if type(a) is int else a.tobytes())
                for a in args]  # a Python int is a pointer: 8 bytes, as the launchers pack it
        ptrs = (ctypes.c_void_p * len(bufs))(*[ctypes.addressof(b) for b in bufs])
        if kind in ("axis_table", "first", "middle", "last"):
            in_dt, out_dt, wide, order, gc = key
            assert in_dt == out_dt == np.float64 and order == 3
            launched.append(kind)
            lib.run_separable(ctypes.c_int(kind != "axis_table"), ctypes.c_int(wide), ctypes.c_int(gc),
                              ctypes.c_int(kind == "last"), ctypes.c_uint(grid), ctypes.c_uint(block), ptrs)
            return
        _, out_dt, wide, nd, order, gc, table = key
        assert out_dt == np.float64 and order in (1, 3)
        launched.append(kind)
        lib.run(ctypes.c_int(kind == "point"), ctypes.c_int(wide), ctypes.c_int(nd), ctypes.c_int(order),
                ctypes.c_int(gc), ctypes.c_int(table), ctypes.c_uint(grid), ctypes.c_uint(block), ptrs)

    uploaded = []  # the host arrays the driver uploads (its metadata), for the tests to read

    def from_host(a):
        uploaded.append(_HostArray(a=a))
        return uploaded[-1]
    # The kernels by kind and key (the name functions' arguments); each packs its arguments by the
    # real declaration of the kernel it stands for (INTERP's), then runs on the host.
    zs_names, sep_names = ik.zoom_shift_names, ik.separable_names

    class HostKernel:
        def __init__(self, kind, key, name):
            self.kind, self.key, self.packer = kind, key, ik.INTERP.packer(name)

        def launch(self, grid, block, *args, shared_mem=0):
            launch((self.kind, self.key), grid, block, self.packer.pack(args))

    copy = host_module(ik, {
        "ndarray": _HostArray, "from_host": from_host, "constant_table": from_host,
        "_launch": types.SimpleNamespace(launch=launch, grid_one_pass=real_launch.grid_one_pass),
        "zoom_shift_names": lambda *key: tuple(zip(("table", "point"), (key, key), zs_names(*key))),
        "separable_names": lambda *key: tuple(zip(("axis_table", "first", "middle", "last"), (key,) * 4,
                                                  sep_names(*key))),
        "INTERP": types.SimpleNamespace(get=lambda *specs: tuple(HostKernel(*s) for s in specs))})
    launched = []

    def run(x, *args, **kw):
        launched.clear()
        uploaded.clear()
        out = copy.zoom_shift(_HostArray(a=x), *args, **kw)
        run.launched = list(launched)
        run.meta = uploaded[-1].a
        return out.a
    run.ik = copy
    return run


@pytest.mark.parametrize("source", ["table", "inline"])
@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("mode", ["constant", "grid-constant", "mirror"])
@pytest.mark.parametrize("order", [1, 3])
def test_zoom_shift_driver_and_kernels(zs_on_host, monkeypatch, source, wide, mode, order):
    """Arguments, metadata and tables as the kernels read them: zoom (grid_mode too), shift and a
    diagonal affine, 1-D to 4-D, against scipy.ndimage (prefilter=False: x is the coefficients).
    The direct kernel (forced for order 3; test_separable_driver_and_kernels has the passes)."""
    monkeypatch.setattr(zs_on_host.ik, "_TABLE_RATIO", 0 if source == "table" else 10 ** 9)
    monkeypatch.setattr(zs_on_host.ik, "_I4_LIMIT", 0 if wide else 2 ** 31)
    monkeypatch.setattr(zs_on_host.ik, "_SEPARABLE_BYTES", -1)
    code = ik.MODES[mode]
    for shape in [(23,), (9, 7), (6, 5, 4), (3, 4, 2, 5)]:
        x = RNG.normal(size=shape)
        nd = len(shape)
        for zoom, grid_mode in [((1.7, 0.6, 2.0, 1.3)[:nd], False), ((0.8, 1.5, 1.0, 2.2)[:nd], True)]:
            oshape = tuple(int(round(s * z)) for s, z in zip(shape, zoom))
            num, div = np.array(shape, float), np.array(oshape, float)
            if not grid_mode:
                num, div = num - 1, div - 1
            z = np.divide(num, div, out=np.ones(nd), where=div != 0)
            flags = ik.ZS_ZOOM | (ik.ZS_GRID if grid_mode else 0)
            got = zs_on_host(x, np.dtype(np.float64), oshape, z, np.zeros(nd), flags, order, code, -1.5, 0)
            ref = _quiet(snd.zoom, x, zoom, order=order, mode=mode, cval=-1.5, prefilter=False, grid_mode=grid_mode)
            close(got, ref)
        sh = (1.25, -2.5, 0.5, 3.0)[:nd]
        got = zs_on_host(x, np.dtype(np.float64), shape, np.ones(nd), [-s for s in sh], ik.ZS_SHIFT, order, code,
                         2.0, 0)
        close(got, snd.shift(x, sh, order=order, mode=mode, cval=2.0, prefilter=False))
        m, off = np.array((1.2, -0.7, 0.9, 1.1)[:nd]), np.array((-1.2, 3.5, 0.25, -0.5)[:nd])
        got = zs_on_host(x, np.dtype(np.float64), shape, m, off, ik.ZS_DIAG, order, code, 0.5, 0)
        close(got, snd.affine_transform(x, np.diag(m), off, order=order, mode=mode, cval=0.5, prefilter=False))



@pytest.mark.parametrize("order", [3, 5])
@pytest.mark.parametrize("in_place", [False, True])
def test_stream_launches(recorded_launches, monkeypatch, order, in_place):
    """`spline_filter`'s streamed pass on the fake device: a launch per pole, each from one array into another (one
    pole from src: straight into data; in place: into a buffer, then copied back; two poles: through a buffer),
    the grid's x the column groups times the outer extent, 16-column blocks where the axis has fewer than 32."""
    from cuarray.testing.fake_device import new_c

    copies = []
    monkeypatch.setattr(ik, "copyto_unchecked", lambda dst, src: copies.append((dst.data.ptr, src.data.ptr)))
    for shape, axis, bx in (((2, 300, 40), 1, 32), ((5, 70, 20), 1, 16), ((4096, 3000), 0, 32)):
        data = new_c(shape, "f8")
        src = None if in_place else new_c(shape, "f4")
        recorded_launches.clear()
        copies.clear()
        ik.spline_filter(data, axis, order, 4, src=src, method="stream", run=32, batch=64)
        got = [(cfg, k, args) for _, cfg, k, *args in recorded_launches if isinstance(k, str)]
        n, inner = shape[axis], int(np.prod(shape[axis + 1:]))
        outer = data.size // (n * inner)
        groups = -(-inner // bx)
        first = data if src is None else src
        assert [k for _, k, _ in got] == [ik.stream_name(first.dtype if p == 0 else np.dtype("f8"), order, p, 32,
                                                         batch=64) for p in range(order // 2)]
        for cfg, _, args in got:
            assert cfg == ("cfg", (groups * outer, -(-(-(-n // 32)) // (256 // bx))), (bx, 256 // bx), 0)
            assert [int(v) for v in args[2:]] == [n, inner, groups, 4] and type(args[2]) is np.int64
        ptrs = [(args[0], args[1]) for _, _, args in got]
        assert ptrs[0][0] == first.data.ptr and ptrs[-1][1] == (data.data.ptr if order == 5 or src is not None
                                                                 else ptrs[0][1])
        assert all(a != b for a, b in ptrs)
        if order == 5:
            assert ptrs[0][1] == ptrs[1][0] != data.data.ptr  # the buffer between the poles
        # the copy back of a one-pole pass in place, from its buffer
        assert copies == ([(data.data.ptr, ptrs[0][1])] if order == 3 and in_place else [])
