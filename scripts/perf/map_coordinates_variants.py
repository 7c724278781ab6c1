"""ndimage.map_coordinates order 3 (the bench case `map_coordinates`, issue 31): where the time goes
and each variant of its two parts, in one process, CuPy's cupyx.scipy.ndimage beside.

- The prefilter (float64 B-spline coefficients, one pass per axis; `_interp_kernels.spline_plan`
  says which kernel): `method="lane0"` (a warp per line staged in shared memory, lane 0 running the
  whole recursion: 0.32 ms a pass on the H100; axes of 65536 strided lines or more: a thread per
  line), `"chunked-warp"` (the same kernels, each lane of the warp filtering a run of the line from a
  warm-up of K samples, interp.cuh) and `"chunked"` (the default: along strided axes of 16 or more
  columns a thread per (column, run), coalesced, in global memory; the contiguous axis as
  chunked-warp). The first pass reads the float32 input itself (no float64 copy first).
- The point kernel (`_interp_kernels.geometric`): `point="loop"` (the generic tap loop) against
  `"taps"` (nested unrolled taps, per-axis int offsets); "loop + f64 coords" is the old path (the
  float32 coordinates converted to a float64 copy first, as before this change).
- The whole call for each pair, with float32 coefficients for a float32 input (CuPy's choice; SciPy's
  and the default are float64: `_prefiltered(..., coef=float32)`), the public call (the defaults),
  CuPy's. For the 256^3 case also the bench's `zoom` (x2, order 3) with each prefilter method.

Each row: microseconds (CUDA-event median), and for results the max abs error against SciPy on the
host (the whole image's coefficients; the interpolated values at 20000 of the points), with BAD
when over the GPU tests' tolerance (float32 1e-4, float64 1e-9, times max(1, max |ref|)).
Cases: the bench's 2048^2 float32 (random points over [-(n-1)/2, (n-1)/2]: three quarters fall
outside, mode constant gives cval there), 4096^2 float32, 2048^2 float64, 256^3 float32.

- The strided pass (axis 0 here; `--strided`: only it, orders 2-5): `"chunked"`'s column kernel against
  `"stream"` (`spline_filter_stream`, a thread per (column, run of 16 or 32 samples) warmed up from the
  input itself, 16 or all 64 of its warm-up loads in flight, a launch per pole), GPU time (a spin
  kernel ahead: the host's launches not counted), each checked against SciPy's spline_filter1d along
  axis 0 and against the column kernel.

Run on the GPU machine: `python scripts/perf/map_coordinates_variants.py [case ...]` (cases: 2048f,
4096f, 2048d, 256f; all by default); `--strided [case ...]` for the strided pass alone (orders 2-5).
Predictions for the strided pass (docs/perf-notes.md "the strided prefilter pass: streamed runs"):
2048^2 float32 order 3 chunked 72 us -> stream ~20-25 us (runs of 16, 16 loads; the other forms
within ~20% of it, runs of 32 with all loads, one block an SM, the slowest).
Predictions of the session before (H100; docs/perf-notes.md "map_coordinates: runs of a line in
parallel, nested taps"): 2048^2 passes lane0 ~320 us each, chunked-warp ~60 (axis 0,
strided staging) / ~40 (axis 1), chunked ~30 / ~40; the point kernel loop + f64 coords ~600, loop
~550, taps ~100; the whole call ~1300 (old) -> ~200 us, about 0.15x CuPy's 1330; 256^3's prefilter
~1.9 ms (lane0: thread-per-line axes) -> ~0.3 ms, and the zoom row ~3.2 -> ~1.6 ms."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import numpy  # noqa: E402
import scipy.ndimage as snd  # noqa: E402
from _timing import event_us, gpu_us  # noqa: E402

import cuarray as cp  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402
from cuarray.scipy.ndimage import _interp_kernels as ik  # noqa: E402
from cuarray.scipy.ndimage import _interpolation as interp  # noqa: E402

try:  # a peer, when installed
    import cupy
    import cupyx.scipy.ndimage as cupy_nd
except Exception:  # noqa: BLE001 -- any import failure means no peer
    cupy = None

ORDER = 3
MODE = "constant"
CODE = ik.mode_code(MODE)
CASES = {"2048f": ((2048, 2048), "float32"), "4096f": ((4096, 4096), "float32"),
         "2048d": ((2048, 2048), "float64"), "256f": ((256, 256, 256), "float32")}
CHECK_POINTS = 20000


def tol_of(dtype):
    return 1e-4 if numpy.dtype(dtype) == numpy.float32 else 1e-9


def err_text(got, ref, dtype):
    err = float(numpy.max(numpy.abs(got.astype(numpy.float64) - ref.astype(numpy.float64))))
    lim = tol_of(dtype) * max(1.0, float(numpy.abs(ref).max()))
    return "{:.2e}{}".format(err, "  BAD (> {:.1e})".format(lim) if not err <= lim else "")


def whole(x, c2, oshape, method, point, coords_f64=False, coef=numpy.float64):
    """map_coordinates(x, coords, order=3, mode='constant') through the chosen parts."""
    f, npad = interp._prefiltered(x, ORDER, MODE, 0.0, True, method=method, coef=coef)
    if coords_f64:
        c2 = c2.astype(numpy.float64)
    return ik.geometric(f, x.dtype, "coords", oshape, c2, ORDER, CODE, 0.0, npad, point=point)


def run_case(name, rows):
    shape, dtype = CASES[name]
    rng = numpy.random.default_rng(43)
    host = rng.random(shape, dtype=numpy.float64).astype(dtype)
    hc = ((rng.random((len(shape),) + shape, dtype=numpy.float64) - 0.5) * (shape[0] - 1)).astype(dtype)
    x, coords = cp.asarray(host), cp.asarray(hc)
    oshape = shape
    c2 = coords.reshape((len(shape), -1))
    pick = rng.choice(int(numpy.prod(shape)), CHECK_POINTS, replace=False)
    hc2 = hc.reshape(len(shape), -1)
    ref_pts = snd.map_coordinates(host, hc2[:, pick], order=ORDER, mode=MODE)
    ref_coef = snd.spline_filter(host, ORDER, mode=MODE)
    label = "{} {}".format("x".join(map(str, shape)), dtype)

    def row(part, variant, us, err=""):
        rows.append((label, part, variant, us, err))

    # the prefilter, pass by pass (the first reads x itself; axis 0's result checked), and whole
    ref_ax0 = snd.spline_filter1d(host, ORDER, 0, mode=MODE)
    for method in ik.PREFILTER_METHODS:
        data = cp.empty(shape, numpy.float64)
        for axis in range(len(shape)):
            src = x if axis == 0 else None
            err = ""
            if axis == 0:
                ik.spline_filter(data, 0, ORDER, CODE, src=x, method=method)
                err = err_text(cp.asnumpy(data), ref_ax0, "float64")
            row("prefilter axis {}".format(axis), method,
                event_us(lambda: ik.spline_filter(data, axis, ORDER, CODE, src=src, method=method)), err)
        row("prefilter (all axes)", method,
            event_us(lambda: interp._prefiltered(x, ORDER, MODE, 0.0, True, method=method)),
            err_text(cp.asnumpy(interp._prefiltered(x, ORDER, MODE, 0.0, True, method=method)[0]), ref_coef, "float64"))
    coef = interp._prefiltered(x, ORDER, MODE, 0.0, True)[0]
    for point in ik.POINT_METHODS:
        row("point kernel", point,
            event_us(lambda: ik.geometric(coef, x.dtype, "coords", oshape, c2, ORDER, CODE, 0.0, 0, point=point)))
    row("point kernel", "loop + f64 coords (old)",
        event_us(lambda: ik.geometric(coef, x.dtype, "coords", oshape, c2.astype(numpy.float64), ORDER, CODE, 0.0, 0,
                                      point="loop")))
    for method in ik.PREFILTER_METHODS:
        for point in ik.POINT_METHODS:
            res = cp.asnumpy(whole(x, c2, oshape, method, point)).reshape(-1)[pick]
            row("map_coordinates", "{} + {}".format(method, point),
                event_us(lambda: whole(x, c2, oshape, method, point)), err_text(res, ref_pts, dtype))
    if x.dtype == numpy.float32:  # CuPy's float32 coefficients (SciPy's are float64): an option, not the default
        row("prefilter (all axes)", "chunked, f32 coefficients",
            event_us(lambda: interp._prefiltered(x, ORDER, MODE, 0.0, True, coef=numpy.float32)))
        res = cp.asnumpy(whole(x, c2, oshape, "chunked", "taps", coef=numpy.float32)).reshape(-1)[pick]
        row("map_coordinates", "chunked + taps, f32 coefficients",
            event_us(lambda: whole(x, c2, oshape, "chunked", "taps", coef=numpy.float32)),
            err_text(res, ref_pts, dtype))
    res = cp.asnumpy(whole(x, c2, oshape, "lane0", "loop", True)).reshape(-1)[pick]
    row("map_coordinates", "lane0 + loop + f64 coords (old)",
        event_us(lambda: whole(x, c2, oshape, "lane0", "loop", True)), err_text(res, ref_pts, dtype))
    res = cp.asnumpy(cnd.map_coordinates(x, coords, order=ORDER)).reshape(-1)[pick]
    row("map_coordinates", "public (defaults)", event_us(lambda: cnd.map_coordinates(x, coords, order=ORDER)),
        err_text(res, ref_pts, dtype))
    if len(shape) == 3:  # the bench's zoom x2 (order 3, mode constant) with each prefilter method
        zshape = tuple(2 * v for v in shape)
        z = [(v - 1) / (w - 1) for v, w in zip(shape, zshape)]

        def zoom_with(method):
            f, npad = interp._prefiltered(x, ORDER, MODE, 0.0, True, method=method)
            return ik.zoom_shift(f, x.dtype, zshape, z, [0.0] * len(shape), ik.ZS_ZOOM, ORDER, CODE, 0.0, npad)
        for method in ik.PREFILTER_METHODS:
            row("zoom x2 (bench zoom)", method, event_us(lambda: zoom_with(method), reps=10))
        row("zoom x2 (bench zoom)", "public (defaults)", event_us(lambda: cnd.zoom(x, 2.0), reps=10))
        if cupy is not None:
            xz = cupy.asarray(host)
            row("zoom x2 (bench zoom)", "CuPy", event_us(lambda: cupy_nd.zoom(xz, 2.0), reps=10, cuda=cupy.cuda))
            del xz
    for _, run, batch in STRIDED_VARIANTS[2:]:  # the streamed strided pass' other forms (axis 0 from x)
        data = cp.empty(shape, numpy.float64)
        ik.spline_filter(data, 0, ORDER, CODE, src=x, method="stream", run=run, batch=batch)
        row("prefilter axis 0", "stream, runs of {}, {} loads".format(run, batch),
            event_us(lambda: ik.spline_filter(data, 0, ORDER, CODE, src=x, method="stream", run=run, batch=batch)),
            err_text(cp.asnumpy(data), ref_ax0, "float64"))
    if cupy is not None:
        xc, cc = cupy.asarray(host), cupy.asarray(hc)
        for axis in range(len(shape)):
            row("prefilter axis {}".format(axis), "CuPy spline_filter1d",
                event_us(lambda: cupy_nd.spline_filter1d(xc, ORDER, axis), cuda=cupy.cuda))
        row("prefilter (all axes)", "CuPy spline_filter",
            event_us(lambda: cupy_nd.spline_filter(xc, ORDER), cuda=cupy.cuda),
            err_text(cupy.asnumpy(cupy_nd.spline_filter(xc, ORDER)), ref_coef, "float64"))
        res = cupy.asnumpy(cupy_nd.map_coordinates(xc, cc, order=ORDER)).reshape(-1)[pick]
        row("map_coordinates", "CuPy", event_us(lambda: cupy_nd.map_coordinates(xc, cc, order=ORDER), cuda=cupy.cuda),
            err_text(res, ref_pts, dtype))


STRIDED_VARIANTS = (("chunked", 16, 16),) + tuple(("stream", r, u) for r in ik.STREAM_RUNS for u in ik.STREAM_BATCHES)


def strided_case(name, rows):
    """The strided pass (axis 0, from x itself) of each variant, orders 2-5: GPU time, the max error against
    SciPy's spline_filter1d (BAD over the float64 tolerance) and the max difference from the column kernel."""
    shape, dtype = CASES[name]
    host = numpy.random.default_rng(7).random(shape, dtype=numpy.float64).astype(dtype)
    x = cp.asarray(host)
    label = "{} {}".format("x".join(map(str, shape)), dtype)
    for order in (2, 3, 4, 5):
        ref = snd.spline_filter1d(host, order, 0, mode=MODE)
        base = None
        for method, run, batch in STRIDED_VARIANTS:
            data = cp.empty(shape, numpy.float64)
            us = gpu_us(lambda: ik.spline_filter(data, 0, order, CODE, src=x, method=method, run=run, batch=batch))
            data = cp.empty(shape, numpy.float64)
            ik.spline_filter(data, 0, order, CODE, src=x, method=method, run=run, batch=batch)
            got = cp.asnumpy(data)
            base = got if base is None else base
            err = "{}  vs chunked {:.1e}".format(err_text(got, ref, "float64"), float(numpy.max(numpy.abs(got - base))))
            rows.append((label, "strided pass, order {}".format(order), "{} (runs of {}, {} loads)".format(
                method, run, batch) if method == "stream" else method, us, err))


def main(args):
    strided = "--strided" in args
    names = [a for a in args if a != "--strided"]
    rows = []
    for name in names or CASES:
        (strided_case if strided else run_case)(name, rows)
    print("{:<22} {:<22} {:<34} {:>10}  {}".format("case", "part", "variant", "us", "max |err| vs SciPy"))
    for label, part, variant, us, err in rows:
        print("{:<22} {:<22} {:<34} {:>10.1f}  {}".format(label, part, variant, us, err))


if __name__ == "__main__":
    main(sys.argv[1:])
