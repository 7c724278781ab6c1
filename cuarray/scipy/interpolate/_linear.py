"""interp1d's 'linear' evaluation in one kernel (templates/linear.cu, family
`cuarray_interpolate_linear`): the points read once, each point's segment found by the knot
search, SciPy's formula (the installed SciPy's: 1.17's slope or 1.18's weights,
`weights_formula`) or numpy.interp's (SciPy delegates 1-D float64 data to numpy.interp), the fill
values outside the range, the values written once. No index array, no second pass, no
synchronisation.

The search (`SEARCH`, measured below): by default the guess from the mean knot spacing, both
knots around it read at once, one neighbour read where they miss (SEARCH_NEAR; galloping and
bisection only past it). Selectable: a cell table
built once by an interpolator that owns its knots (interp1d's copy=True; `build_cells`, one launch):
CELLS_PER_KNOT uniform cells a segment over [x[0], x[-1]], start[c] the first knot whose cell is
>= c, the cell of a value computed by the same rounded code for knots and points (so the bracket
start[c] - 1 <= segment < start[c + 1] is exact for any sorted knots); the kernel reads its records
a - 1, a, a + 1 at once (SEARCH 2) and bisects only in a crowded cell. Knots the caller may still
write (copy=False, one-shot `evaluate`) always take the guess. PIPE: a thread loads its next batch
of points before evaluating this one.

`plan` picks the route from dtypes and shapes alone (the CPU tests check its decisions): None
where the elementwise path of `_kernels.linear_eval` keeps the case (fewer than 2 knots, float16,
knots of integer types narrower than 4 bytes, whose NumPy promotion with float32 stays float32).
With one real column whose dtype is the knots', the caller's interleaved (x, y) table (`pairs`)
halves the gathers of a point: one load brings a knot and its value.

Budget at 1e7 float64 points on 1e4 knots (H100, ~2960 GB/s copy rate): 160 MB of streaming
traffic, ~54 us at the copy rate; the 160 KB table and the 80 KB cell table should stay in L1
(the kernel uses no shared memory, so the carve-out can give L1 its largest size). A point costs
one 4-byte gather of the cell table and three 16-byte record gathers issued together (two
dependent steps, no divergence outside crowded cells), where the guess cost ~2.05 record gathers
in 2 to 4 dependent, divergent steps on jittered knots (a miss on either side in nearly every
warp). SEARCH 0 (the guess, j + 1 read after x[j]'s compare), 1, 2, 4 (the hybrid: the guess's two
records, the table only where they miss) and 5 (the default), PIPE and CELLS_PER_KNOT are the knobs
the device measurement picks."""

from __future__ import annotations

import pathlib
import re
from typing import NamedTuple

import numpy

from ..._core import device_check as _device_check
from ..._core import device_errors as _errors
from ..._core.copying import astype
from ..._core.ndarray import _new_c, ndarray
from ...cuda import device as _device
from ...cuda import limits as _limits
from ...cuda import kernel_family as _kernel_family
from ...cuda.kernel_family import KernelFamily

__all__ = ["LINEAR", "Route", "plan", "numpy_rule", "pair_dtype", "Prepared", "evaluate", "knot_dtype",
           "weights_formula", "installed_weights_formula", "cell_count", "build_cells", "search_for", "stage_bytes",
           "stages"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "linear.cu"
_NAME = "cuarray_interpolate_linear"
_SIGNATURE = ("interp1d_linear<Q, T, Y, R, MODE, PAIRED, SEARCH, PIPE>(const Q* xq, long long qstride, long long m, "
              "const T* x, const Y* y, long long n, long long ncols, const double* below, const double* above, "
              "int ext, unsigned long long* err, R* out, const int* cells, long long ncells)")
_CELLS_SIGNATURE = "interp1d_cells<T, PAIRED>(const T* x, long long n, long long ncells, int* start)"
_STAGED_SIGNATURE = ("interp1d_linear_staged<Q, T, R, MODE, PIPE, CONTIG>(const Q* xq, long long qstride, long long m, "
                     "const T* x, long long n, const double* below, const double* above, int ext, "
                     "unsigned long long* err, R* out)")
_BELOW, _ABOVE = 531, 532  # templates/linear.cu's FLAG_BELOW, FLAG_ABOVE (device_errors kinds)


def _bounds_error(side: str, bound: str):
    def make_error(value, axis, size):
        v, b = (float(numpy.int64(w).view(numpy.float64)) for w in (value, size))
        return ValueError("A value ({}) in x_new is {} the interpolation range's {} value ({}). (interp1d, "
                          "bounds_error=True)".format(v, side, bound, b))
    return make_error


_below_error = _bounds_error("below", "minimum")
_above_error = _bounds_error("above", "maximum")


def _declare() -> KernelFamily:
    # a CPU test's host copy of this module (fake_device.host_packages runs its source again)
    # takes the declaration (and error kinds) made at import: one family of this name a process
    for fam in _kernel_family.families():
        if fam.name == _NAME:
            return fam
    _errors.register_kind(_BELOW, _below_error)
    _errors.register_kind(_ABOVE, _above_error)
    return KernelFamily(_NAME, _TEMPLATE.read_text, namespace="cuarray_interp1d",
                        kernels=(_SIGNATURE, _CELLS_SIGNATURE, _STAGED_SIGNATURE))


LINEAR = _declare()

MODE_SLOPE, MODE_RECIP, MODE_NUMPY, MODE_WEIGHTS, MODE_WEIGHTS_COMPLEX = 0, 1, 2, 3, 4
THREADS, UNROLL = 256, 4  # templates/linear.cu's kThreads, kUnroll
BLOCKS_PER_SM = 8  # the grid's cap a multiprocessor (<= 64 registers a thread: 4 blocks resident at once)
# the knot search (templates/linear.cu's SEARCH): the mean-spacing guess (0), the cell table built
# once per interpolator, its records read in two steps (1) or at once (2), the guess with a window
# of four records read at once (3, no table); PIPE: a thread loads its next batch of points before
# evaluating this one. Measured (H100, 1e7 float64 points, µs, docs/perf-notes.md): the guess with
# PIPE 93 / 77 / 159 on jittered 1e4 / uniform 1e4 / jittered 1e6 knots, the table (2) 103 / 116 /
# 233; the table wins on clustered knots only (99 against the guess's 353): the guess is the default.
# SEARCH_HYBRID (4): the guess's two records, the table's bracket (as 2) where they miss (measured
# worse: 128 us on jittered 1e4). SEARCH_NEAR (5): the guess's gathers of SEARCH 0 without
# its two costs the SASS shows: record j + 1 waits on x[j]'s compare (two dependent L1 round trips
# a point, four points a thread one after another) and a miss (~29% of jittered points, in nearly
# every warp) runs two divergent gallop loops (a load, a bisection test, bookkeeping each). 5 loads
# j and j + 1 together and gives the miss lanes one load (j - 1 or j + 2: the answer on jittered
# knots), galloping only past that; 32-bit knot indices. Never more gathers than 0 on any path:
# the default, predicted jittered 1e4 93 -> ~80 us (scripts/perf/interp1d_variants.py measures).
SEARCH_GUESS, SEARCH_CELLS, SEARCH_CELLS3, SEARCH_WINDOW, SEARCH_HYBRID, SEARCH_NEAR = SEARCHES = 0, 1, 2, 3, 4, 5
TABLE_SEARCHES = (SEARCH_CELLS, SEARCH_CELLS3, SEARCH_HYBRID)  # those that read the cell table
SEARCH, PIPE = SEARCH_NEAR, True
_NEAR_MAX_KNOTS = 2**31 - 1  # SEARCH_NEAR's int knot indices (i + 2 <= n): SEARCH_GUESS past it
# The staged table (templates/linear.cu's interp1d_linear_staged, kStagedThreads a block, one block
# an SM): SEARCH_NEAR on the (n, 2) records copied into shared memory by each block. The L1 path's
# limit is its gathers: a warp's load of 32 random 16-byte records costs one L1 wavefront a distinct
# line (~32), two loads a point, ~2 x 32 cycles a warp of points (83 us at 1e7 points on 1e4 knots on
# an H100, the measured time); shared memory serves the same load at the bank conflicts of each
# quarter warp (~10 wavefronts). A block's copy costs ~n / 4 cycles of L2 traffic against ~1.4
# cycles saved a point: it is taken where the points an SM are at least STAGE_KNOTS_PER_POINT x n.
STAGED_THREADS, STAGED_UNROLL = 1024, 2  # templates/linear.cu's kStagedThreads, kStagedUnroll
STAGE_KNOTS_PER_POINT = 0.25
CELLS_PER_KNOT = 2  # table cells a segment (int32 entries: 8 bytes a knot beside its 16-byte record)
_MAX_CELLS = 2**30
_F4, _F8, _I8 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64), numpy.dtype(numpy.int64)
_CT = {_F4: "float", _F8: "double"}


class Route(NamedTuple):
    """One instantiation: the mode, the kernel's point/knot/value/output dtypes (component dtypes
    of complex values), whether the values come interleaved with the knots, the knot search
    (`plan` gives the guess; `Prepared` the cell table where the knots are fixed) and PIPE."""
    mode: int
    q: numpy.dtype
    t: numpy.dtype
    y: numpy.dtype
    r: numpy.dtype
    paired: bool
    search: int = SEARCH_GUESS
    pipe: bool = PIPE

    def spec(self) -> str:
        return "interp1d_linear<{}, {}, {}, {}, {}, {}, {}, {}>".format(
            _CT[self.q], _CT[self.t], _CT[self.y], _CT[self.r], self.mode, "true" if self.paired else "false",
            self.search, "true" if self.pipe else "false")

    def staged_spec(self, contig: bool = True) -> str:
        """The shared-memory staged evaluation of these records (interp1d_linear_staged) for
        unit-stride points (`contig`) or any stride."""
        return "interp1d_linear_staged<{}, {}, {}, {}, {}, {}>".format(
            _CT[self.q], _CT[self.t], _CT[self.r], self.mode, "true" if self.pipe else "false",
            "true" if contig else "false")

    def cells_spec(self) -> str:
        """The cell table's builder for these knots (interp1d_cells)."""
        return "interp1d_cells<{}, {}>".format(_CT[self.t], "true" if self.paired else "false")


def knot_dtype(x_dt):
    """The kernel's dtype for knots of `x_dt`: float32/float64 as they are, integers of 4 or more
    bytes as float64 (NumPy promotes them with any float to float64; exact below 2**53); None for
    the others (narrower integers promote with float32 to float32, bool, float16)."""
    x_dt = numpy.dtype(x_dt)
    if x_dt in _CT:
        return x_dt
    if x_dt.kind in "iu" and x_dt.itemsize >= 4:
        return _F8
    return None


def numpy_rule(x_dt, y_dt, y_ndim: int, extrapolate: bool) -> bool:
    """SciPy's condition for handing interp1d's linear evaluation to numpy.interp."""
    return (numpy.dtype(x_dt) in (_F8, _I8) and numpy.dtype(y_dt) in (_F8, _I8) and y_ndim == 1
            and not extrapolate)


def weights_formula(scipy_version) -> bool:
    """Whether interp1d's linear values follow SciPy 1.18's formula, (v - x_lo) / dx * y_hi +
    (x_hi - v) / dx * y_lo (True), or 1.17's, (y_hi - y_lo) / dx * (v - x_lo) + y_lo (False), for
    SciPy of version `scipy_version` ("1.17.1", "1.18.0rc1", ...; None: no SciPy, the newest
    formula). They differ in the last bit; the result follows the installed SciPy bit for bit."""
    if scipy_version is None:
        return True
    m = re.match(r"\s*(\d+)\.(\d+)", str(scipy_version))
    return m is None or (int(m.group(1)), int(m.group(2))) >= (1, 18)


_installed = []


def installed_weights_formula() -> bool:
    """`weights_formula` of the installed SciPy (read once from its package metadata: SciPy is
    not imported)."""
    if not _installed:
        # import time: importlib.metadata is only needed here, once a process
        from importlib import metadata

        try:
            version = metadata.version("scipy")
        except metadata.PackageNotFoundError:
            version = None
        _installed.append(weights_formula(version))
    return _installed[0]


def _component(dt):
    dt = numpy.dtype(dt)
    if dt.kind == "c":
        dt = numpy.dtype("f{}".format(dt.itemsize // 2))
    return dt if dt in _CT else None


def plan(x_dt, y_dt, q_dt, out_dt, n: int, ncols: int, use_numpy: bool, have_pairs: bool, weights: bool = False):
    """The Route for knots of `x_dt` (n of them), values of `y_dt` (ncols columns), points of
    `q_dt` and results of `out_dt`, or None for the elementwise path. `use_numpy`: numpy_rule's
    answer; `have_pairs`: the caller holds the interleaved table; `weights`: SciPy 1.18's formula
    (`weights_formula`) where numpy.interp's is not used, else 1.17's."""
    q_dt, y_dt, out_dt = numpy.dtype(q_dt), numpy.dtype(y_dt), numpy.dtype(out_dt)
    t, yc, r = knot_dtype(x_dt), _component(y_dt), _component(out_dt)
    if n < 2 or q_dt not in _CT or t is None or yc is None or r is None or (y_dt.kind == "c") != (out_dt.kind == "c"):
        return None
    if numpy.result_type(q_dt, t, yc) != r:
        return None
    if use_numpy:
        if y_dt.kind == "c" or ncols != 1 or r != _F8:
            return None
        mode = MODE_NUMPY
    else:
        complex_values = y_dt.kind == "c"
        if weights:
            mode = MODE_WEIGHTS_COMPLEX if complex_values else MODE_WEIGHTS
        else:
            mode = MODE_RECIP if complex_values else MODE_SLOPE
    paired = bool(have_pairs) and ncols == 1 and y_dt.kind != "c" and t == yc
    return Route(mode, q_dt, t, yc, r, paired)


def pair_dtype(x_dt, y_dt, ncols: int):
    """The dtype of the interleaved (n, 2) table of knots and values the kernel can read, or None
    (several columns, complex values, values of another dtype than the knots' kernel dtype). The
    caller builds the table once, at construction."""
    t = knot_dtype(x_dt)
    return t if t is not None and ncols == 1 and numpy.dtype(y_dt) == t else None


def _points(xq: ndarray, q_dt) -> tuple:
    """(array, stride in elements) of the 1-D points: a strided view stays one (no copy)."""
    if xq.dtype != q_dt:
        return astype(xq, q_dt, order="C", copy=False), 1
    step = xq.strides[0] if xq.ndim == 1 else None
    if step is None or step % xq.itemsize:
        return astype(xq, q_dt, order="C", copy=True), 1
    return xq, step // xq.itemsize


def cell_count(n: int) -> int:
    """The cell table's cells for n knots (CELLS_PER_KNOT a segment; at least one), or 0 where
    int32 cannot index the knots (the guess then)."""
    if n >= 2**31 - 1:
        return 0
    return int(min(max(1, CELLS_PER_KNOT * (n - 1)), _MAX_CELLS))


def search_for(fixed: bool, n: int, search=None) -> int:
    """The search a Prepared launch takes: `search` (default SEARCH), the guess in place of a
    cell table search (TABLE_SEARCHES, the hybrid's included) where the knots are not fixed or
    `cell_count` gives no table, and in place of SEARCH_NEAR past int32 knot indices."""
    search = SEARCH if search is None else int(search)
    if search in TABLE_SEARCHES and not (fixed and cell_count(n)):
        return SEARCH_GUESS
    if search == SEARCH_NEAR and n > _NEAR_MAX_KNOTS:
        return SEARCH_GUESS
    return search


def build_cells(route: Route, xs: ndarray, n: int):
    """The cell table of the knots `xs` (the route's kernel layout: knots or (n, 2) pairs) on the
    device: (array of ncells + 1 int32, ncells), one launch of interp1d_cells (start[c] = the first
    knot whose cell is >= c; templates/linear.cu), compiled in one module with the route's kernel
    (`specs`). None where `cell_count` gives none."""
    ncells = cell_count(n)
    if not ncells:
        return None
    cells = _new_c((ncells + 1,), numpy.dtype(numpy.int32))
    grid = min(-(-(ncells + 1) // THREADS), BLOCKS_PER_SM * _device._sm_count(_device.get_device_id()))
    LINEAR.get(*specs(route))[0].launch(grid, THREADS, xs.data.ptr, n, ncells, cells.data.ptr)
    return cells, ncells


def stage_bytes(route: Route, n: int, optin: int) -> int:
    """The shared memory the staged kernel takes for `route`'s n records (2 n knot-dtype items), or
    0 where the route has none: values not interleaved with the knots, a search other than
    SEARCH_NEAR's, or a table past `optin` (the device's opt-in limit a block)."""
    if not route.paired or route.search != SEARCH_NEAR:
        return 0
    nbytes = 2 * int(n) * route.t.itemsize
    return nbytes if nbytes <= optin else 0


def stages(nbytes: int, n: int, m: int, sm_count: int) -> bool:
    """Whether m points on n knots take the staged table (of `nbytes`, `stage_bytes`; 0: none):
    where the points an SM (one block each) are at least STAGE_KNOTS_PER_POINT x n."""
    return nbytes > 0 and m >= STAGE_KNOTS_PER_POINT * n * sm_count


def specs(route: Route) -> tuple:
    """The kernels of one module for `route`: the cell table's builder first where the route's
    search reads a table (one NVRTC compile for both), then the evaluation, then the staged
    evaluation of unit-stride points where the route has one (`stage_bytes`; paired records,
    SEARCH_NEAR)."""
    if route.search in TABLE_SEARCHES:
        return route.cells_spec(), route.spec()
    if route.paired and route.search == SEARCH_NEAR:
        return route.spec(), route.staged_spec()
    return (route.spec(),)


class Prepared:
    """A route's launch with everything but the points prepared once (an interp1d keeps one a
    points dtype: the per-call host work is the points' stride, the grid and the launch).
    `snapshot`: it holds converted copies of the knots or values (a caller that aliases them,
    copy=False, prepares again each call). `fixed`: the knots are the caller's own copy, never
    written again: the cell table (`build_cells`) is built here, once, and the kernel searches
    with it (`search`, default SEARCH); else the mean-spacing guess. `pipe`: PIPE's override.
    `stage`: the staged table's override (None: `stages` decides a call; True where the route
    has none raises)."""

    __slots__ = ("specs", "q_dt", "args", "keep", "ext", "snapshot", "route", "staged", "stage", "main", "strided")

    def __init__(self, route: Route, x: ndarray, yr: ndarray, below, above, extrapolate: bool, table=None,
                 fixed: bool = False, search=None, pipe=None, stage=None):
        xs = table if route.paired else astype(x, route.t, order="C", copy=False)
        ys = xs if route.paired else astype(yr, route.y, order="C", copy=False)
        self.snapshot = not route.paired and (xs.data.ptr != x.data.ptr or ys.data.ptr != yr.data.ptr)
        if extrapolate:  # the kernel reads no fill value
            below = above = None
        else:
            below = astype(below, _F8, order="C", copy=False)
            above = astype(above, _F8, order="C", copy=False)
        route = route._replace(search=search_for(fixed, x.shape[0], search), pipe=PIPE if pipe is None else bool(pipe))
        built = build_cells(route, xs, x.shape[0]) if route.search in TABLE_SEARCHES else None
        cells, ncells = built if built is not None else (None, 0)
        self.route, self.specs, self.q_dt, self.ext = route, specs(route), route.q, bool(extrapolate)
        self.keep = (xs, ys, below, above, cells)
        self.args = (xs.data.ptr, ys.data.ptr, x.shape[0], yr.shape[1], 0 if below is None else below.data.ptr,
                     0 if above is None else above.data.ptr, int(self.ext), 0 if cells is None else cells.data.ptr,
                     ncells)
        nbytes = stage_bytes(route, x.shape[0], _limits.shared_per_block_optin()) if xs.data.ptr % 16 == 0 else 0
        if stage and not nbytes:
            raise ValueError("this route has no staged table ({}, {} knots)".format(route.spec(), x.shape[0]))
        self.staged, self.stage = nbytes, stage
        self.main = 1 if route.search in TABLE_SEARCHES else 0  # the evaluation's index in `specs`
        self.strided = route.staged_spec(False) if nbytes else None  # strided points' staged kernel

    def __call__(self, xq: ndarray, out_ptr: int, check: bool = False) -> None:
        """Launch on the 1-D points `xq` (values into `out_ptr`: (points, columns), C order); with
        `check` (bounds_error) a point outside the knots raises SciPy's ValueError here: one
        32-byte read after the launch (the sync SciPy's contract costs)."""
        m = xq.shape[0]
        if m == 0:
            return
        q, step = _points(xq, self.q_dt)
        if _device_check.active[0]:  # raw pointers: the launch cannot tell another device's memory
            _device_check.check((q,) + tuple(a for a in self.keep if a is not None))
        err = _errors.error_buffer("interp1d").data.ptr if check and not self.ext else 0
        dev = _device.get_device_id()
        sms = _device._sm_count(dev)
        xs, ys, n, ncols, below, above, ext, cells, ncells = self.args
        nbytes, stage = self.staged, self.stage
        if nbytes and (stages(nbytes, n, m, sms) if stage is None else stage):
            # unit-stride points: the module's kernel; strided: its own module, compiled at first use
            k = LINEAR.get(*self.specs)[-1] if step == 1 else LINEAR.kernel(self.strided)
            _limits.allow_dynamic_shared(k.kernel, nbytes, dev)
            grid = min(-(-m // (STAGED_THREADS * STAGED_UNROLL)), sms)
            k.launch(grid, STAGED_THREADS, q.data.ptr, step, m, xs, n, below, above, ext, err, out_ptr,
                     shared_mem=nbytes)
        else:
            grid = min(-(-m // (THREADS * UNROLL)), BLOCKS_PER_SM * sms)
            k = LINEAR.get(*self.specs)[self.main]
            k.launch(grid, THREADS, q.data.ptr, step, m, xs, ys, n, ncols, below, above, ext, err, out_ptr, cells,
                     ncells)
        if err:
            _errors.check_index_errors()


def evaluate(route: Route, x: ndarray, yr: ndarray, xq: ndarray, below: ndarray, above: ndarray, extrapolate: bool,
             real: ndarray, table=None, check: bool = False) -> None:
    """Fill `real` (points, columns) with the route's values. `yr`: the values' real (n, columns)
    C-contiguous view; `below`/`above`: float64 fill values a column; `table`: the (n, 2) pairs;
    `check` (bounds_error): a point outside the knots is recorded on the device (device_errors)
    and raised as SciPy's ValueError in this call (`Prepared.__call__`)."""
    if xq.shape[0]:
        if _device_check.active[0]:
            _device_check.check((real,))
        Prepared(route, x, yr, below, above, extrapolate, table)(xq, real.data.ptr, check)
