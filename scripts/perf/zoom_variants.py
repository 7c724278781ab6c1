"""ndimage.zoom x2 of a 256^3 float32 volume (the bench case `zoom`, issue 31): where the time goes,
and the library's two evaluations of a zoom on the same coefficients: the direct kernel
(`_interp_kernels.zoom_shift(..., separable=False)`: per-axis tables, then 64 taps a point) and the
separable passes (`separable=True`: one launch per axis, 4 taps an output, float64 intermediates
256^2x512 then 256x512^2, the last pass writing the 512^3 output and cval for outside points),
which `separable_plan` now picks for orders >= 2 when the intermediates fit in 4x the output's
bytes.

Rows (CUDA-event medians, one process): the whole call (order 3: prefilter + tables + passes); the
prefilter alone (spline_filter to float64); the general per-point kernel on ready coefficients (a
diagonal affine_transform's old path); the direct kernel; the library's separable path; the
prototype the separable path replaced (no outside flags: constant mode of a zoom has no outside
points); order 1 (no prefilter; the library keeps the direct kernel there); then both paths on
other shapes of zoom (mixed factors, a 2x shrink the plan leaves to the direct kernel: 6x the
output's bytes of intermediates) and a shift, each row saying which path the plan picks; CuPy's
zoom when installed. GB/s counts the output written and the input read once. Last line: the largest
differences (separable vs direct: 0 expected for the uniform zoom, same nesting of sums).

Run on the GPU machine: `python scripts/perf/zoom_variants.py [n]` (n = 256 by default)."""

import pathlib
import sys

import numpy

import cuarray as cp
import cuarray.scipy.ndimage as nd
from cuarray.scipy.ndimage import _interp_kernels as ik

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _timing import event_us  # noqa: E402

_TEMPLATES = pathlib.Path(ik.__file__).parent / "templates"
# The prototype: one axis of a zoom per launch, over the (outer, n, inner) view of a C-contiguous
# array, using zoom_shift.cuh's per-axis arithmetic (the tables of that one axis, stride `inner`).
_PASS = r"""
namespace cuarray_ndimage {
template <int ORDER>
__global__ void pass_table(double zoom, double shift, int flags, double npad, int mode, long long n, long long m,
                           long long inner, double* W, int* F) {
  long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  double c = zoom_shift_coordinate((double)j, zoom, shift, flags) + npad;
  axis_taps<int, ORDER>(c, n, inner, mode, W + j, F + j, m);
}

template <typename T, typename O, int ORDER>
__global__ void pass_point(const T* __restrict__ in, O* __restrict__ out, const double* __restrict__ W,
                           const int* __restrict__ F, int n, int m, int inner, long long total, double cval) {
  long long i0 = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i0 >= total) return;
  int idx = (int)i0;
  int t = idx / inner, i = idx - t * inner;
  int o = t / m, j = t - o * m;
  if (F[j] < 0) {
    out[idx] = interp_store<O>::go(cval);
    return;
  }
  const T* base = in + (o * n * inner + i);
  double s = 0.0;
#pragma unroll
  for (int k = 0; k <= ORDER; ++k) s += W[k * m + j] * (double)base[F[k * m + j]];
  out[idx] = interp_store<O>::go(s);
}
}  // namespace cuarray_ndimage
"""
_BLOCK = 128


def _module(orders, types):
    src = ("#define CUARRAY_DEVICE __device__\n" + (_TEMPLATES / "interp.cuh").read_text()
           + (_TEMPLATES / "zoom_shift.cuh").read_text() + _PASS)
    names = ["cuarray_ndimage::pass_table<{}>".format(o) for o in orders]
    names += ["cuarray_ndimage::pass_point<{}, {}, {}>".format(t, u, o) for o in orders for t, u in types]
    return cp.RawModule(code=src, name_expressions=names)


def separable(mod, x, zooms, order, out_dtype, cval=0.0):
    """zoom (not grid_mode, mode 'constant') one axis at a time, float64 in between."""
    cur = x
    ctype = {numpy.dtype("float32"): "float", numpy.dtype("float64"): "double"}
    table = mod.get_function("cuarray_ndimage::pass_table<{}>".format(order))
    for axis in range(x.ndim - 1, -1, -1):  # the last axis first: its pass reads contiguously
        n = cur.shape[axis]
        m = int(round(n * zooms[axis]))
        z = (n - 1) / (m - 1) if m > 1 else 1.0
        inner = int(numpy.prod(cur.shape[axis + 1:], dtype=numpy.int64))
        oshape = cur.shape[:axis] + (m,) + cur.shape[axis + 1:]
        dt = numpy.dtype(out_dtype) if axis == 0 else numpy.dtype("float64")
        out = cp.empty(oshape, dt)
        w = cp.empty(((order + 1) * m,), "float64")
        f = cp.empty(((order + 1) * m,), "int32")
        table(((m + _BLOCK - 1) // _BLOCK,), (_BLOCK,),
              (numpy.float64(z), numpy.float64(0.0), numpy.int32(ik.ZS_ZOOM), numpy.float64(0.0),
               numpy.int32(ik.MODES["constant"]), numpy.int64(n), numpy.int64(m), numpy.int64(inner), w, f))
        point = mod.get_function("cuarray_ndimage::pass_point<{}, {}, {}>".format(ctype[cur.dtype], ctype[dt], order))
        point(((out.size + _BLOCK - 1) // _BLOCK,), (_BLOCK,),
              (cur, out, w, f, numpy.int32(n), numpy.int32(m), numpy.int32(inner), numpy.int64(out.size),
               numpy.float64(cval)))
        cur = out
    return cur


def _zoom_args(coeffs, zooms):
    oshape = tuple(int(round(s * z)) for s, z in zip(coeffs.shape, zooms))
    z = [(s - 1) / (o - 1) if o > 1 else 1.0 for s, o in zip(coeffs.shape, oshape)]
    return oshape, z


def direct(coeffs, zooms, order, out_dtype, separable=False):
    """The library's zoom_shift on ready coefficients (mode constant): the direct kernel, or with
    separable=True the passes (whatever their memory), None: the plan's choice."""
    oshape, z = _zoom_args(coeffs, zooms)
    return ik.zoom_shift(coeffs, numpy.dtype(out_dtype), oshape, z, [0.0] * coeffs.ndim, ik.ZS_ZOOM, order,
                         ik.MODES["constant"], 0.0, 0, separable=separable)


def shifted(coeffs, sh, order, out_dtype, separable=False):
    return ik.zoom_shift(coeffs, numpy.dtype(out_dtype), coeffs.shape, [1.0] * coeffs.ndim, [-s for s in sh],
                         ik.ZS_SHIFT, order, ik.MODES["constant"], 0.0, 0, separable=separable)


def plan_of(coeffs, oshape, order, out_dtype):
    axes = ik.separable_plan(coeffs.shape, oshape, order, numpy.dtype(out_dtype).itemsize)
    return "direct" if axes is None else "separable, axes {}".format(axes)


def general(coeffs, zooms, order, out_dtype):
    """The same points through the general per-point kernel (`geometric`, a diagonal affine
    matrix): the path zoom took before the tables, same arithmetic per point."""
    oshape = tuple(int(round(s * z)) for s, z in zip(coeffs.shape, zooms))
    z = [(s - 1) / (o - 1) if o > 1 else 1.0 for s, o in zip(coeffs.shape, oshape)]
    params = numpy.concatenate([numpy.diag(z).ravel(), numpy.zeros(coeffs.ndim)])
    return ik.geometric(coeffs, numpy.dtype(out_dtype), "affine", oshape, params, order, ik.MODES["constant"], 0.0, 0)


def main(n):
    rng = numpy.random.default_rng(45)
    host = rng.random((n, n, n), dtype=numpy.float64).astype(numpy.float32)
    x = cp.asarray(host)
    zooms = (2.0, 2.0, 2.0)
    out_bytes = (2 * n) ** 3 * 4
    mod = _module((1, 3), (("double", "double"), ("double", "float"), ("float", "double")))
    coeffs = nd.spline_filter(x, 3)
    rows = []

    def row(name, fn, in_bytes):
        us = event_us(fn, reps=10)
        rows.append((name, us, (out_bytes + in_bytes) / us / 1e3))

    row("zoom(x, 2) order 3, whole call", lambda: nd.zoom(x, 2.0), x.nbytes)
    row("  prefilter: spline_filter(x, 3) -> float64", lambda: nd.spline_filter(x, 3), x.nbytes)
    row("  general per-point kernel (before)", lambda: general(coeffs, zooms, 3, "float32"), coeffs.nbytes)
    row("  direct kernel (tables + 64 taps a point)", lambda: direct(coeffs, zooms, 3, "float32"), coeffs.nbytes)
    row("  separable path (3 passes, 4 taps each) [plan: {}]".format(
        plan_of(coeffs, (2 * n,) * 3, 3, "float32")), lambda: direct(coeffs, zooms, 3, "float32", True), coeffs.nbytes)
    row("  separable prototype (what the path replaced)", lambda: separable(mod, coeffs, zooms, 3, "float32"),
        coeffs.nbytes)
    row("zoom(x, 2, order=1), whole call", lambda: nd.zoom(x, 2.0, order=1), x.nbytes)
    row("  direct kernel, order 1 (8 taps a point)", lambda: direct(x, zooms, 1, "float32"), x.nbytes)
    row("  separable prototype, order 1", lambda: separable(mod, x, zooms, 1, "float32"), x.nbytes)
    for label, zs in [("zoom (0.5, 2, 2)", (0.5, 2.0, 2.0)), ("zoom (2, 2, 0.5)", (2.0, 2.0, 0.5)),
                      ("zoom 0.5", (0.5, 0.5, 0.5))]:
        oshape, _ = _zoom_args(coeffs, zs)
        ob = int(numpy.prod(oshape)) * 4
        for name, sep in [("direct", False), ("separable", True)]:
            us = event_us(lambda: direct(coeffs, zs, 3, "float32", sep), reps=10)
            rows.append(("{} order 3 {} [plan: {}]".format(label, name, plan_of(coeffs, oshape, 3, "float32")), us,
                         (ob + coeffs.nbytes) / us / 1e3))
    for name, sep in [("direct", False), ("separable", True)]:
        us = event_us(lambda: shifted(coeffs, (1.5, -2.25, 0.5), 3, "float32", sep), reps=10)
        rows.append(("shift (1.5, -2.25, 0.5) order 3 {} [plan: {}]".format(
            name, plan_of(coeffs, coeffs.shape, 3, "float32")), us, (n ** 3 * 4 + coeffs.nbytes) / us / 1e3))
    try:
        import cupy
        import cupyx.scipy.ndimage as cnd
        xc = cupy.asarray(host)

        def cupy_us(fn):
            for _ in range(3):
                fn()
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            times = []
            for _ in range(10):
                start.record()
                fn()
                end.record()
                end.synchronize()
                times.append(cupy.cuda.get_elapsed_time(start, end) * 1e3)
            return float(numpy.median(times))
        for name, fn in [("CuPy zoom order 3", lambda: cnd.zoom(xc, 2.0)),
                         ("CuPy zoom order 1", lambda: cnd.zoom(xc, 2.0, order=1))]:
            us = cupy_us(fn)
            rows.append((name, us, (out_bytes + x.nbytes) / us / 1e3))
    except ImportError:
        pass
    d3 = direct(coeffs, zooms, 3, "float32")
    l3 = direct(coeffs, zooms, 3, "float32", True)
    s3 = separable(mod, coeffs, zooms, 3, "float32")
    d1 = direct(x, zooms, 1, "float32")
    s1 = separable(mod, x, zooms, 1, "float32")
    ref = nd.zoom(x, 2.0)
    g3 = general(coeffs, zooms, 3, "float32")
    dm = direct(coeffs, (0.5, 2.0, 2.0), 3, "float32")
    lm = direct(coeffs, (0.5, 2.0, 2.0), 3, "float32", True)
    print("n = {}: {} -> {} float32".format(n, (n,) * 3, (2 * n,) * 3))
    print("{:64s} {:>10s} {:>8s}".format("row", "ms", "GB/s"))
    for name, us, gbs in rows:
        print("{:64s} {:10.3f} {:8.0f}".format(name, us / 1e3, gbs))
    print("max |separable path - direct|: order 3 {:.2e} (0 expected), zoom (0.5, 2, 2) {:.2e}; "
          "|prototype - direct| order 3 {:.2e}, order 1 {:.2e}; |zoom - separable path| {:.2e}; "
          "|general - direct| {:.2e}".format(
              float(cp.abs(l3 - d3).max()), float(cp.abs(lm - dm).max()), float(cp.abs(d3 - s3).max()),
              float(cp.abs(d1 - s1).max()), float(cp.abs(ref - l3).max()), float(cp.abs(g3 - d3).max())))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 256)
