"""Compiling and launching templates/interpolation.cu and zoom_shift.cu (interp.cuh and
zoom_shift.cuh prepended): `geometric` (map_coordinates, affine_transform: one output point per
thread), `zoom_shift` (zoom, shift, a diagonal affine_transform: per-axis tables, then one output
point per thread, or for orders >= 2 of 2-D and up one pass per axis, `separable_plan`) and
`spline_filter` (the B-spline prefilter along one axis, into float64, `spline_plan`: along strided
axes a thread per (column, run of the line); else a warp per line staged in shared memory for lines
up to 6144 elements, its lanes each filtering a run of the line; else a thread per line; method
"stream": along strided axes a thread per (column, run) reading its run's warm-ups from the input
itself, a launch per pole, no barrier)."""

from __future__ import annotations

import pathlib

import numpy

from ..._core import dtypes as _dtypes
from ..._core.copying import astype, copyto_unchecked
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host
from ...cuda import launch as _launch
from ...cuda.kernel_family import KernelFamily
from . import _support as _s
from ._tables import constant_table

__all__ = ["KINDS", "MODES", "mode_code", "source", "geometric_name", "geometric", "zoom_shift_names",
           "zoom_shift", "separable_names", "separable_plan", "spline_filter", "spline_plan", "spline_staged",
           "spline_in_place_copies", "stream_name", "STREAM_RUNS", "STREAM_BATCHES",
           "PREFILTER_METHODS", "POINT_METHODS", "PREFILTER_DEFAULT", "POINT_DEFAULT", "ZS_ZOOM", "ZS_SHIFT",
           "ZS_GRID", "ZS_DIAG", "MAX_NDIM"]

_DIR = pathlib.Path(__file__).parent / "templates"
KINDS = {"coords": 0, "affine": 1}
ZS_ZOOM, ZS_SHIFT, ZS_GRID, ZS_DIAG = 1, 2, 4, 8  # zoom_shift.cuh's flags
MAX_NDIM = 16
# SciPy's interpolation codes (_ni_support._extend_mode_to_code without is_filter).
MODES = {"nearest": 0, "wrap": 1, "reflect": 2, "grid-mirror": 2, "mirror": 3, "constant": 4, "grid-wrap": 5,
         "grid-constant": 6}
SPLINE_FILTER = "cuarray_ndimage::spline_filter"
_SPLINE_FILTER_WARP = "cuarray_ndimage::spline_filter_warp<{}, {}>"
SPLINE_FILTER_WARP = _SPLINE_FILTER_WARP.format("double", "double")
SPLINE_FILTER_WARP_F4 = _SPLINE_FILTER_WARP.format("float", "double")
# The prefilter: "chunked" (a line cut into runs, each warmed up from the K samples before and after
# it: along a strided axis of 16 or more columns a thread per (column, run), coalesced, in place in
# global memory; else a warp per line staged in shared memory, a lane per run), "chunked-warp" (the
# warp kernel wherever it applies, strided axes included), or "lane0" (the warp kernel's lane 0 runs
# the whole line: 0.32 ms a pass of a 2048^2 image on the H100), or "stream" ("chunked" but along
# strided axes `spline_filter_stream`: a thread per (column, run of 16 or 32 samples) that reads the
# K samples before and after its run from the input itself (the anticausal warm-up from the causal
# recursion continued past the run), so no thread waits on another: no barrier, loads before stores,
# one launch per pole into another array; docs/perf-notes.md "The strided prefilter pass"). The
# point kernel of map_coordinates/affine_transform in 1-3 dimensions: "taps" (nested unrolled taps,
# per-axis offsets, 32-bit below 2^31 elements) or "loop" (the generic tap loop).
# scripts/perf/map_coordinates_variants.py times each; the defaults are its predicted winners.
PREFILTER_METHODS = ("chunked", "chunked-warp", "lane0", "stream")
POINT_METHODS = ("taps", "loop")
# The defaults every caller gets (one line each to switch, should the H100 table say so). "stream":
# H100, GPU time, order 3, the strided pass 2048^2 float32 61.4 -> 26.8 us, 4096^2 340.8 -> 77.5,
# float64 71.3 -> 32.2; the whole map_coordinates call 180 -> 138 us (2048^2 float32), 192 -> 154
# (float64), 890 -> 636 (4096^2), three alternating rounds (docs/perf-notes.md).
PREFILTER_DEFAULT = "stream"
POINT_DEFAULT = "taps"
_SPLINE_FILTER_COLUMNS = "cuarray_ndimage::spline_filter_columns<{}>"
_COLUMNS_X = 16  # columns a block: 16 doubles, one 128-byte row segment
_COLUMNS_RUN = 32  # samples a run at least (about the warm-up K), up to 64 runs a column
_CHUNK_MIN = 64  # interp.cuh's CUARRAY_NDIMAGE_SPLINE_CHUNK_MIN
_SPLINE_FILTER_STREAM = "cuarray_ndimage::spline_filter_stream<{}, {}, {}, {}, {}, {}>"
STREAM_RUNS = (16, 32)  # samples a thread's run holds (in registers)
# loads a thread has in flight in the warm-ups: 16, or 64 (all K of them; more registers: 2 blocks an SM)
STREAM_BATCHES = (16, 64)
_STREAM_RUN = 16
_STREAM_BATCH = 16
_STREAM_BLOCK = 256  # threads a block: 32 (16 where inner < 32) columns by consecutive runs
_GRID_Y = 65535
_F4 = numpy.dtype(numpy.float32)
_BLOCK = 128
_I8 = numpy.dtype(numpy.int64)
_I4_LIMIT = 2 ** 31  # 32-bit offsets and index arithmetic below this many elements
_TABLE_RATIO = 8  # zoom/shift tables when they hold at most one entry per 8 output points
# The separable zoom/shift when its float64 intermediates (the two alive at once, at their largest)
# take at most this many times the output's bytes; the direct kernel otherwise (shrinking zooms,
# whose first pass is larger than the output, mostly).
_SEPARABLE_BYTES = 4
_F8 = numpy.dtype(numpy.float64)


def mode_code(mode) -> int:
    code = MODES.get(mode) if isinstance(mode, str) else None
    if code is None:
        raise RuntimeError("boundary mode not supported")
    return code


def source() -> str:
    return ("#define CUARRAY_DEVICE __device__\n" + (_DIR / "interp.cuh").read_text()
            + (_DIR / "zoom_shift.cuh").read_text() + (_DIR / "interpolation.cu").read_text()
            + (_DIR / "zoom_shift.cu").read_text())


INTERP = KernelFamily("cuarray_ndimage_interp", source, namespace="cuarray_ndimage", kernels=(
    "geometric<T, O, P, I, KIND, ND, ORDER, TAPS>(const T* in, O* out, const long long* ishape, int indim, "
    "const long long* oshape, int ondim, const P* params, long long total, int mode, double cval, "
    "double npad)",
    "spline_filter(double* data, long long n, long long inner, long long lines, int order, int mode)",
    "spline_filter_warp<S, D>(const S* src, D* dst, long long n, long long inner, long long lines, int "
    "order, int mode, int chunked)",
    "spline_filter_columns<S>(const S* src, double* dst, long long n, long long inner, long long outer, int "
    "order, int mode)",
    "spline_filter_stream<S, I, ORDER, POLE, M, U>(const S* src, double* dst, long long n, long long inner, "
    "long long groups, int mode)",
    "zoom_shift_table<I, ORDER>(const long long* meta, int ndim, int flags, double npad, int mode, "
    "long long rows, double* W, I* F)",
    "zoom_shift<T, O, I, ND, ORDER, GC, TABLE>(const T* in, O* out, const double* W, const I* F, long long "
    "rows, const long long* meta, int ndim, int flags, double npad, int mode, long long total, double "
    "cval)",
    "zoom_shift_axis_table<I, ORDER>(const long long* meta, int ndim, int flags, double npad, int mode, "
    "long long rows, double* W, I* F, int* outside)",
    "zoom_shift_pass<T, O, I, ORDER, GC, LAST>(const T* src, O* dst, const double* W, const I* F, long long "
    "rows, long long base, long long n_in, long long n_out, long long inner, long long total, "
    "const long long* oshape, int ndim, double cval, const int* outside)",
))


def geometric_name(in_dt, out_dt, kind: str, ndim: int, order: int, coord_dt=_F8, wide: bool = True,
                   point: str = POINT_DEFAULT) -> str:
    """The point kernel: coord_dt float32 or float64 (coordinates; float64 for "affine"), wide: 64-bit
    tap offsets (the input has 2^31 elements or more), point: one of POINT_METHODS."""
    nd = ndim if ndim <= 3 else 0  # 1..3 unrolled; any other ndim through the generic loops
    taps = point == "taps" and nd > 0
    return "cuarray_ndimage::geometric<{}, {}, {}, {}, {}, {}, {}, {}>".format(
        _dtypes.ctype(in_dt), _dtypes.ctype(out_dt), _dtypes.ctype(coord_dt),
        "long long" if wide or not taps else "int", KINDS[kind], nd, order, "true" if taps else "false")


def zoom_shift_names(in_dt, out_dt, wide: bool, ndim: int, order: int, grid_constant: bool, table: bool = True):
    """(table kernel, point kernel) of a zoom/shift; wide: 64-bit offsets and indices; table: the
    points read per-axis tables (always past 3 dimensions)."""
    i = "long long" if wide else "int"
    nd = ndim if ndim <= 3 else 0  # 1..3 unrolled; any other ndim through the generic loops
    flag = {True: "true", False: "false"}
    return ("cuarray_ndimage::zoom_shift_table<{}, {}>".format(i, order),
            "cuarray_ndimage::zoom_shift<{}, {}, {}, {}, {}, {}, {}>".format(
                _dtypes.ctype(in_dt), _dtypes.ctype(out_dt), i, nd, order, flag[grid_constant], flag[table or nd == 0]))


def separable_names(in_dt, out_dt, wide: bool, order: int, grid_constant: bool):
    """(table, first pass, middle pass, last pass) kernels of the separable zoom/shift."""
    i = "long long" if wide else "int"
    gc = "true" if grid_constant else "false"
    p = "cuarray_ndimage::zoom_shift_pass<{}, {}, {}, {}, {}, {}>"
    return ("cuarray_ndimage::zoom_shift_axis_table<{}, {}>".format(i, order),
            p.format(_dtypes.ctype(in_dt), "double", i, order, gc, "false"),
            p.format("double", "double", i, order, gc, "false"),
            p.format("double", _dtypes.ctype(out_dt), i, order, gc, "true"))


def _prod(shape) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n


def separable_plan(ishape, oshape, order: int, out_itemsize: int, limit=None):
    """The axes in the order the separable zoom/shift takes them (one pass each), or None for the
    direct kernel: orders 0 and 1 (8 taps or fewer a point: the direct kernel was faster in the
    H100 measurement, docs/perf-notes.md), 1-D, empty extents, or intermediates past
    `_SEPARABLE_BYTES` times the output's bytes. A pass scales its axis' extent by oshape/ishape, so
    taking the axes by increasing ratio makes every intermediate the smallest any order could (the
    k-th holds the input's extents times the k smallest ratios); ties go from the last axis, the
    direct kernel's nesting of sums, which makes a uniform zoom's result identical to its. limit:
    the bytes allowed per output byte (`_SEPARABLE_BYTES` when None)."""
    ndim = len(oshape)
    if ndim < 2 or order < 2 or len(ishape) != ndim or 0 in ishape or 0 in oshape:
        return None
    axes = sorted(range(ndim), key=lambda d: (oshape[d] / ishape[d], -d))
    shape = list(ishape)
    sizes = []
    for d in axes[:-1]:
        shape[d] = oshape[d]
        sizes.append(_prod(shape))
    peak = max([sizes[0], sizes[-1]] + [a + b for a, b in zip(sizes, sizes[1:])]) * 8
    if peak > (_SEPARABLE_BYTES if limit is None else limit) * _prod(oshape) * out_itemsize:
        return None
    return axes


def _kernel(name: str):
    return INTERP.kernel(name)


def geometric(x: ndarray, out_dt, kind: str, oshape, params, order: int, mode: int, cval, npad: int,
              point: str = POINT_DEFAULT) -> ndarray:
    """Interpolate x (order 0..5, SciPy mode code) at the coordinates `kind` gives for each point of
    a fresh C-contiguous output of `oshape`. params: a device array (coordinates, indim x points:
    float32 ones are read as they are, others as float64) or host numbers (matrix + offset).
    point: one of POINT_METHODS."""
    if point not in POINT_METHODS:
        raise ValueError("point must be one of {}".format(POINT_METHODS))
    out = ndarray(tuple(oshape), out_dt)
    total = out.size
    if total == 0:
        return out
    if x.ndim > MAX_NDIM or len(oshape) > MAX_NDIM:
        raise NotImplementedError("interpolation of more than {} dimensions".format(MAX_NDIM))
    if not x._c:
        x = astype(x, x._dtype, order="C", copy=True)
    if isinstance(params, ndarray):
        # float32 coordinates as they are: SciPy converts each to double exactly as the kernel does
        p = astype(params, _F4 if params._dtype == _F4 else _F8, order="C", copy=False)
    else:
        p = from_host(numpy.ascontiguousarray(params, dtype=_F8).reshape(-1))
    ishape = constant_table(numpy.asarray(x.shape, _I8))
    osh = constant_table(numpy.asarray(oshape, _I8))
    k = _kernel(geometric_name(x._dtype, out_dt, kind, x.ndim, order, p._dtype, x.size >= _I4_LIMIT, point))
    k.launch(_launch.grid_one_pass(total, _BLOCK), _BLOCK, x.data.ptr, out.data.ptr, ishape.data.ptr, x.ndim,
             osh.data.ptr, len(oshape), p.data.ptr, total, mode, cval, npad)
    return out


def _overlaps(a: ndarray, b: ndarray) -> bool:
    """Whether the C-contiguous a and b share bytes."""
    return a.data.ptr < b.data.ptr + b.nbytes and b.data.ptr < a.data.ptr + a.nbytes


def zoom_shift(x: ndarray, out_dt, oshape, zoom, shift, flags: int, order: int, mode: int, cval, npad: int,
               out=None, separable=None) -> ndarray:
    """Interpolate x (order 0..5, SciPy mode code) at, along each axis d, the coordinate
    zoom_shift.cuh's `zoom_shift_coordinate` gives output index o (zoom[d], shift[d], flags), padding
    `npad` added; into `out` when it is a C-contiguous `out_dt` array of `oshape` that shares no bytes
    with x, else a fresh array. separable: None, `separable_plan` decides; False, the direct kernel;
    True, the passes wherever they apply (orders >= 2, 2-D and up), whatever their memory."""
    oshape = tuple(oshape)
    ndim = len(oshape)
    if x.ndim > MAX_NDIM:
        raise NotImplementedError("interpolation of more than {} dimensions".format(MAX_NDIM))
    if not x._c:
        x = astype(x, x._dtype, order="C", copy=True)
    if not (isinstance(out, ndarray) and out._c and out._dtype == out_dt and out.shape == oshape
            and not _overlaps(out, x)):
        out = ndarray(oshape, out_dt)
    total = out.size
    if total == 0:
        return out
    rows = sum(oshape)
    taps = order + 1
    params = numpy.concatenate([numpy.asarray(zoom, _F8), numpy.asarray(shift, _F8)])
    # (a trailing 0: the separable tables' "a row is outside" flag, an int the table kernel sets)
    meta = from_host(numpy.concatenate([numpy.asarray(x.shape, _I8), numpy.asarray(oshape, _I8), params.view(_I8),
                                        numpy.zeros(1, _I8)]))
    grid_constant = mode == MODES["grid-constant"]
    axes = None
    if separable is not False:
        axes = separable_plan(x.shape, oshape, order, out_dt.itemsize, float("inf") if separable else None)
    if axes is not None:
        _separable(x, out, meta, axes, flags, order, mode, cval, npad, grid_constant)
        return out
    # Tables pay when each row serves many points; 1-D (a row a point) or one long axis would make
    # them larger than the output, so the points compute their taps themselves (ndim <= 3).
    table = ndim > 3 or rows * taps * _TABLE_RATIO <= total
    wide = max(x.size, total, rows * taps if table else 0) >= _I4_LIMIT
    table_k, point_k = INTERP.get(*zoom_shift_names(x._dtype, out_dt, wide, ndim if ndim <= 3 else 0, order,
                                                    grid_constant, table))
    w_ptr = f_ptr = 0
    if table:
        tables = ndarray((2 * rows * taps,), _F8)  # the weights, then the offsets (int or long long)
        w_ptr = tables.data.ptr
        f_ptr = w_ptr + rows * taps * 8
        table_k.launch(_launch.grid_one_pass(rows, _BLOCK), _BLOCK, meta.data.ptr, ndim, flags, npad, mode, rows,
                       w_ptr, f_ptr)
    point_k.launch(_launch.grid_one_pass(total, _BLOCK), _BLOCK, x.data.ptr, out.data.ptr, w_ptr, f_ptr, rows,
                   meta.data.ptr, ndim, flags, npad, mode, total, cval)
    return out


def _separable(x: ndarray, out: ndarray, meta: ndarray, axes, flags: int, order: int, mode: int, cval, npad: int,
               grid_constant: bool) -> None:
    """zoom_shift one axis at a time (zoom_shift.cuh's passes), `axes` in `separable_plan`'s order:
    the unit-stride tables of every axis, then a pass per axis into a fresh float64 intermediate
    from the pool (each dropped once the next pass is queued), the last into `out`."""
    oshape = out.shape
    ndim = len(oshape)
    rows = sum(oshape)
    taps = order + 1
    shape = list(x.shape)
    sizes = []
    for d in axes:
        shape[d] = oshape[d]
        sizes.append(_prod(shape))
    wide = max([x.size, rows * taps] + sizes) >= _I4_LIMIT
    table_k, first_k, middle_k, last_k = INTERP.get(*separable_names(x._dtype, out._dtype, wide, order, grid_constant))
    tables = ndarray((2 * rows * taps,), _F8)  # the weights, then the offsets (int or long long)
    w_ptr = tables.data.ptr
    f_ptr = w_ptr + rows * taps * 8
    outside_ptr = meta.data.ptr + 4 * ndim * 8  # meta's trailing 0 (little-endian: its low int)
    table_k.launch(_launch.grid_one_pass(rows, _BLOCK), _BLOCK, meta.data.ptr, ndim, flags, npad, mode, rows, w_ptr,
                   f_ptr, outside_ptr)
    oshape_ptr = meta.data.ptr + ndim * 8
    base = [sum(oshape[:d]) for d in range(ndim)]
    shape = list(x.shape)
    cur = x
    for p, d in enumerate(axes):
        n_in = shape[d]
        shape[d] = oshape[d]
        inner = _prod(shape[d + 1:])
        last = p == ndim - 1
        dst = out if last else ndarray((sizes[p],), _F8)
        k = last_k if last else first_k if p == 0 else middle_k
        k.launch(_launch.grid_one_pass(sizes[p], _BLOCK), _BLOCK, cur.data.ptr, dst.data.ptr, w_ptr, f_ptr, rows,
                 base[d], n_in, oshape[d], inner, sizes[p], oshape_ptr, ndim, cval, outside_ptr)
        cur = dst


def spline_plan(shape, axis: int, method: str = PREFILTER_DEFAULT, coef=_F8) -> str:
    """Which kernel filters along `axis` of a C-contiguous array of `shape`: "columns" (a thread per
    column and run: method "chunked", float64, inner of 16 or more, lines of 64 or more), "stream"
    (method "stream", the same arrays, `spline_filter_stream`), "warp" (a warp per line in shared
    memory), "thread" (a thread per line, float64 in place) or "none"."""
    n = shape[axis]
    if n <= 1 or _prod(shape) == 0:
        return "none"
    inner = _prod(shape[axis + 1:])
    columns = numpy.dtype(coef) == _F8 and inner >= _COLUMNS_X and n >= _CHUNK_MIN
    if method == "chunked" and columns:
        return "columns"
    if method == "stream" and columns and _stream_grid(n, inner, _prod(shape[:axis]), min(STREAM_RUNS)) is not None:
        return "stream"
    if _s.warp_per_line(_prod(shape) // n, n * 8, inner) is not None:
        return "warp"
    return "thread"


def _stream_grid(n: int, inner: int, outer: int, run: int):
    """(grid, block, column groups) of `spline_filter_stream`, or None past the grid's limits."""
    bx = 32 if inner >= 32 else 16
    by = _STREAM_BLOCK // bx
    groups = -(-inner // bx)
    gy = -(-(-(-n // run)) // by)
    if groups * outer >= 2 ** 31 or gy > _GRID_Y:
        return None
    return (groups * outer, gy), (bx, by), groups


def stream_name(s_dt, order: int, pole: int, run: int = _STREAM_RUN, wide: bool = False,
                batch: int = _STREAM_BATCH) -> str:
    """The streamed strided pass of pole `pole` (0, or 1 for orders 4 and 5) reading `s_dt` (float32
    or float64); wide: 64-bit index arithmetic (2^31 elements or more); run, batch: STREAM_RUNS,
    STREAM_BATCHES."""
    return _SPLINE_FILTER_STREAM.format(_dtypes.ctype(s_dt), "long long" if wide else "int", order, pole, run, batch)


def spline_in_place_copies(shape, axis: int, order: int, method: str = PREFILTER_DEFAULT, coef=_F8) -> bool:
    """Whether `spline_filter` in place along `axis` costs a copy: the streamed pass of a one-pole
    order (2, 3) reads one array and writes another, so in place it filters into a buffer and copies
    back; a caller with a spare array filters into it instead (orders 4, 5 go through a buffer
    between their two poles anyway)."""
    return order // 2 == 1 and spline_plan(shape, axis, method, coef) == "stream"


def spline_staged(shape, axis: int) -> bool:
    """Whether float32 coefficients can be filtered along `axis` (the warp kernel, or nothing to do)."""
    return spline_plan(shape, axis, "chunked-warp", _F4) in ("warp", "none")


def spline_filter(data: ndarray, axis: int, order: int, mode: int, src=None,
                  method: str = PREFILTER_DEFAULT, run: int = _STREAM_RUN, batch: int = _STREAM_BATCH) -> None:
    """B-spline coefficients of `order` along `axis` of the C-contiguous `data`: in place, or from
    `src` (a C-contiguous float32 or float64 array of data's shape, read by the kernel itself: no
    separate float64 copy of the input). data is float64, or float32 where `spline_staged` (the sums
    in double, stored in float). method: one of PREFILTER_METHODS (`spline_plan` picks the kernel).
    run, batch: the streamed kernel's run length and loads in flight, of STREAM_RUNS and
    STREAM_BATCHES (the perf script times each)."""
    if method not in PREFILTER_METHODS:
        raise ValueError("method must be one of {}".format(PREFILTER_METHODS))
    if run not in STREAM_RUNS or batch not in STREAM_BATCHES:
        raise ValueError("run, batch must be of {}, {}".format(STREAM_RUNS, STREAM_BATCHES))
    plan = spline_plan(data.shape, axis, method, data._dtype)
    if data._dtype == _F4 and plan == "thread":
        raise ValueError("float32 coefficients need the warp kernel (spline_staged)")
    if src is not None and (plan in ("thread", "none") or src._dtype not in (_F4, _F8)):
        copyto_unchecked(data, src)
        src = None
    if plan == "none":
        return
    n = data.shape[axis]
    inner = _prod(data.shape[axis + 1:])
    lines = data.size // n
    s_dt = data._dtype if src is None else src._dtype
    src_ptr = (data if src is None else src).data.ptr
    if plan == "stream":
        _stream(data, src, n, inner, lines // inner, order, mode, run, batch)
        return
    if plan == "columns":
        runs = max(1, min(64, n // _COLUMNS_RUN))
        outer = lines // inner
        grid = (-(-inner // _COLUMNS_X), min(outer, 65535))
        _kernel(_SPLINE_FILTER_COLUMNS.format(_dtypes.ctype(s_dt))).launch(
            grid, (_COLUMNS_X, runs), src_ptr, data.data.ptr, n, inner, outer, order, mode)
        return
    if plan == "warp":
        grid, block, shared = _s.warp_per_line(lines, n * 8, inner)
        name = _SPLINE_FILTER_WARP.format(_dtypes.ctype(s_dt), _dtypes.ctype(data._dtype))
        _kernel(name).launch(grid, block, src_ptr, data.data.ptr, n, inner, lines, order, mode, method != "lane0",
                             shared_mem=shared)
        return
    k = _kernel(SPLINE_FILTER)
    k.launch(_launch.grid_one_pass(lines, _BLOCK), _BLOCK, data.data.ptr, n, inner, lines, order, mode)


def _stream(data: ndarray, src, n: int, inner: int, outer: int, order: int, mode: int, run: int,
            batch: int) -> None:
    """`spline_filter`'s streamed strided pass: a launch per pole, each from one array into another
    (src, else data, -> data for one pole; -> a buffer -> data for two; in place with one pole, into
    a buffer then copied back)."""
    grid, block, groups = _stream_grid(n, inner, outer, run)
    wide = data.size >= _I4_LIMIT
    first = data if src is None else src
    tail = (n, inner, groups, mode)
    if order // 2 == 1 and src is not None:
        _kernel(stream_name(first._dtype, order, 0, run, wide, batch)).launch(grid, block, first.data.ptr,
                                                                              data.data.ptr, *tail)
        return
    buf = ndarray(data.shape, _F8)
    _kernel(stream_name(first._dtype, order, 0, run, wide, batch)).launch(grid, block, first.data.ptr, buf.data.ptr,
                                                                          *tail)
    if order // 2 == 1:
        copyto_unchecked(data, buf)
        return
    _kernel(stream_name(_F8, order, 1, run, wide, batch)).launch(grid, block, buf.data.ptr, data.data.ptr, *tail)
