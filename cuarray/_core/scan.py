"""Cumulative operations (scans): cumsum, cumprod, their nan- forms and `ufunc.accumulate`.

The CUDA is in `templates/scan.cu` (skeleton) and `templates/cuarray/scan.cuh` (algorithms). An
input is brought to C order (an F-ordered input is scanned as its C-ordered transpose, so it costs
no copy; any other layout is copied first) and seen as (outer, n, inner) around the scanned axis:

- inner == 1 (the scanned axis is the contiguous one; 1-D arrays, `axis=-1`, `axis=None`): the
  "flat" kernel, a single-pass scan with decoupled look-back over tiles of 256 threads x 48
  float32 (128 threads and fewer elements for wider types, half as many when segmented), tile p =
  block p (CUB's order), 16-byte vector loads and stores (evict-first, and 4 blocks/SM forced,
  when no type is wider than 4 bytes); a tile's status (flag and value) is one 64-bit word per 4 accumulator
  bytes, and one warp looks back over 32 predecessors per round trip. Rows (outer > 1) are
  segments of the flat sequence, so short and long rows run at the same rate.
- inner > 1 and a long axis with few columns: the "columns" kernel, a thread per column (coalesced
  across the warp), 8 warps x R rows per block, the same look-back between row chunks.
- inner > 1 with a short axis or many columns, and every non-associative operator
  (`subtract.accumulate`, ...): the "serial" kernel, a thread per column walking every row.

Bytes moved: the input once and the output once, plus the status words of each tile (flat: 8
bytes per 4 accumulator bytes; columns: a flag and two accumulators per tile x column) and one
memset of the status words.

Order of operations: NumPy adds sequentially (((x0 + x1) + x2) + ...); the parallel kernels add
in a fixed tree (within a lane, across the warp, across warps, across tiles), so float results
can differ from NumPy's in the last bits; they are identical from run to run (scan.cuh says why).
float16 accumulates in float32 and rounds once per output (NumPy rounds every partial sum to
float16); so cuarray's float16 cumsum is the more accurate one.
"""

from __future__ import annotations

import functools
import math
import os
import pathlib
import string
import warnings

import numpy

from ..cuda import caches as _caches
from ..cuda import kernel_family as _kernel_family
from ..cuda import launch as _launch
from ..cuda import memory as _memory
from . import device_check as _device_check
from . import dtypes as _dtypes
from . import copying as _copying
from . import shapes as _shapes
from .host_input import as_array
from .ndarray import ndarray

__all__ = ["ScanOp", "accumulate", "ufunc_accumulate", "inclusive_sum_1d", "exclusive_sum_1d"]

# Binary ufuncs whose operator is associative: they run in parallel. Others (subtract, divide,
# power, ...) accumulate with the serial kernel in NumPy's order.
ASSOCIATIVE = frozenset({
    "add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
    "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm",
})

_BLOCK = 256
# Elements per thread in a flat tile, counted in 4-byte elements: 48 float32 (tile = 256 x 48 = 12288),
# 24 float64/int64, 12 complex128; halved for the segmented kernel (its segment flags double the
# registers). docs/perf-notes.md, "Flat scan: the decoupled look-back kernel", has the
# sweeps that chose 48 items (x 8 warps when no type is wider than 4 bytes, else x 4).
_ITEMS = 48
# Flat kernel knobs (scripts/perf/scan_variants.py sweeps them; docs/perf-notes.md has the numbers),
# one set for kernels whose widest type is at most _NARROW bytes and one for the others:
# (warps per block, tiles per lane in one look-back window (window = 32 x span tiles), polls of a
# window before the look-back sleeps between polls, tile order (1: tile p = block p, as CUB; 0: tile
# ids from an atomic ticket), evict-first tile loads and stores, the minimum blocks per SM of
# __launch_bounds__ (0: none)). Non-default values are #defined into the source and named in the
# kernel name. Narrow: 8 warps, 4 blocks/SM, evict-first won on both the H100 and the H200
# (float32 1-D 0.81 -> 0.84-0.85 and 0.67 -> 0.78-0.79 x copy, same processes); float64 lost with
# all three (0.81 -> 0.72 on the H100: hints and the register cap), so wider kernels keep 4 warps,
# plain accesses and the compiler's registers. docs/perf-notes.md, "Flat scan: the decoupled look-back kernel".
_CHOSEN_KNOBS = {True: (8, 1, 16, 1, 1, 4), False: (4, 1, 8, 1, 0, 0)}  # narrow?: knobs
_NARROW_KNOBS, _WIDE_KNOBS = _CHOSEN_KNOBS[True], _CHOSEN_KNOBS[False]
_NARROW = 4
_FLAT_DEFAULTS = (4, 1, 8, 1, 0)  # the macros' defaults in scan.cuh (warps, span, spins, order, streaming)
# Tuning hook: CUARRAY_SCAN_KNOBS="items,warps,span,spins[,order,streaming,min_blocks]" sets the
# knobs of both classes (wide kernels still take no streaming or min_blocks). Every process reads
# it, so pytest-xdist workers and the benchmark see the same kernels.
if os.environ.get("CUARRAY_SCAN_KNOBS"):
    _knobs = [int(v) for v in os.environ["CUARRAY_SCAN_KNOBS"].split(",")]
    _ITEMS = _knobs[0]
    _NARROW_KNOBS = tuple(_knobs[1:]) + _NARROW_KNOBS[len(_knobs) - 1:]
    _WIDE_KNOBS = _NARROW_KNOBS[:4] + (0, 0)
_COLUMN_BYTES = 64   # accumulator bytes per thread in the columns kernel: R = 16 for float32
# Serial kernel for inner > 1 when the axis is this short or there are this many columns (a
# thread per column then fills the GPU by itself).
_SERIAL_MAX_ROWS = 32
_SERIAL_MIN_COLS = 1 << 18

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "scan.cu"
_skeleton = None

# (segments, segment_blocks: ufunc.reduceat's, reduceat.py)
_LAYOUT_IDS = {"flat": 0, "columns": 1, "serial": 2, "segments": 3, "segment_blocks": 4}
# Each layout's kernel parameters, as scan.cu declares them (in the order of `_LAYOUT_IDS`' branches):
# every scan and reduceat launch packs its arguments from these (`ScanOp.kernel`'s Kernel).
SCAN = _kernel_family.Skeleton("scan", ("scan.cu",), {
    "flat": "(const in_t* in, out_t* out, const long long n, const long long seg, unsigned* ticket, "
            "unsigned long long* status)",
    "columns": "(const in_t* in, out_t* out, const long long n, const long long inner, const long long ncols, "
               "const long long ncolblocks, unsigned* ticket, unsigned* flags, acc_t* aggs, acc_t* incls)",
    "serial": "(const in_t* in, out_t* out, const long long n, const long long inner, const long long ncols)",
    "segments": "(const in_t* in, out_t* out, const long long* idx, const long long nidx, const long long n, "
                "const long long inner, const long long total)",
    "segment_blocks": "(const in_t* in, out_t* out, const long long* idx, const long long nidx, const long long n, "
                      "const long long inner, const long long total)",
})


def _source_skeleton() -> string.Template:
    global _skeleton
    if _skeleton is None:
        lines = _TEMPLATE.read_text().splitlines(keepends=True)
        while lines and lines[0].startswith("//"):
            lines.pop(0)
        _skeleton = string.Template("".join(lines))
    return _skeleton


def _ctype(dt: numpy.dtype) -> str:
    return "__half" if dt.char == "e" else _dtypes.ctype(dt)


# Every live ScanOp's kernels, reached through the cache registry (`cuda/caches.py`).
_live_ops = _caches.instances("scan kernels", lambda s: (s._kernels,))


class ScanOp:
    """One scan operator over one (input, output, accumulator) dtype triple; caches its kernels.

    `operation` is a ufunc row's C expression (`out0` from `in0`, earlier, and `in1`, later) in the
    accumulator type; `load_expr` maps each element's value `x` on load (NaN -> 0 for nancumsum);
    `identity` (a C expression) is needed only by exclusive scans.
    """

    __slots__ = ("name", "in_dtype", "out_dtype", "acc_dtype", "operation", "load_expr", "identity",
                 "associative", "key", "_kernels", "__weakref__")

    def __init__(self, name, in_dtype, out_dtype, acc_dtype, operation, *, load_expr="x", identity=None,
                 associative=True):
        self.name = name
        self.in_dtype = numpy.dtype(in_dtype)
        self.out_dtype = numpy.dtype(out_dtype)
        self.acc_dtype = numpy.dtype(acc_dtype)
        self.operation = operation
        self.load_expr = load_expr
        self.identity = identity
        self.associative = associative
        self.key = (name, self.in_dtype.char, self.out_dtype.char, self.acc_dtype.char, operation, load_expr,
                    identity, associative)
        self._kernels = {}
        _live_ops.add(self)

    def kernel_name(self, layout: str, a: int = 0, b: int = 0, segmented=False, exclusive=False) -> str:
        parts = ["cuarray", self.name, self.in_dtype.name]
        if self.out_dtype != self.in_dtype:
            parts += ["to", self.out_dtype.name]
        name = "_".join(parts) + "__" + layout
        if layout == "flat":
            name += "_k{}j{}".format(a, b) + ("_seg" if segmented else "") + ("_excl" if exclusive else "")
            knobs = flat_knobs(self.narrow())
            if knobs != _CHOSEN_KNOBS[self.narrow()]:  # a tuning run's kernels are named apart
                name += "_w{}v{}s{}o{}c{}m{}".format(*knobs)
        elif layout == "columns":
            name += "_r{}".format(a)
        elif layout == "segment_blocks":
            name += "_b{}".format(a)
        return name

    def narrow(self) -> bool:
        """Whether no type of the scan is wider than _NARROW bytes (evict-first accesses, forced
        residency)."""
        return max(self.in_dtype.itemsize, self.out_dtype.itemsize, self.acc_dtype.itemsize) <= _NARROW

    def source(self, layout: str, a: int = 0, b: int = 0, segmented=False, exclusive=False) -> tuple[str, str]:
        """(kernel name, CUDA source) for one specialisation. Pure: needs no device."""
        kname = self.kernel_name(layout, a, b, segmented, exclusive)
        includes = []
        if "e" in (self.in_dtype.char, self.out_dtype.char) or "__half" in self.load_expr:
            includes += ["#define CUARRAY_HAS_HALF 1", "#include <cuda_fp16.h>"]
        includes += ['#include "cuarray/common.cuh"', '#include "cuarray/ops.cuh"']
        warps = _FLAT_DEFAULTS[0] if layout != "segment_blocks" else a // 32  # (segment_blocks: a = its block)
        min_blocks = ""
        if layout == "flat":
            warps, span, spins, order, streaming, minb = flat_knobs(self.narrow())
            for macro, v, d in zip(("WARPS", "SPAN", "SPINS", "TILE_ORDER", "STREAMING"),
                                   (warps, span, spins, order, streaming), _FLAT_DEFAULTS):
                if v != d:
                    includes.append("#define CUARRAY_SCAN_{} {}".format(macro, v))
            if minb:
                min_blocks = ", {}".format(minb)
        if exclusive and self.identity is None:
            raise ValueError("an exclusive {} scan needs an identity".format(self.name))
        src = _source_skeleton().substitute(
            includes="\n".join(includes), preamble="", name=kname, ns=kname + "_ns",
            in_t=_ctype(self.in_dtype), out_t=_ctype(self.out_dtype), acc_t=_ctype(self.acc_dtype),
            operation=self.operation, load_expr=self.load_expr,
            identity=self.identity if exclusive else "acc_t()",
            layout=_LAYOUT_IDS[layout], block=32 * warps, min_blocks=min_blocks, vec=a or 1,
            rows=(b if layout == "flat" else a) or 1,
            segmented="true" if segmented else "false", exclusive="true" if exclusive else "false",
        )
        return kname, src

    def kernel(self, layout: str, a: int = 0, b: int = 0, segmented=False, exclusive=False):
        """The kernel of one specialisation, as a `Kernel` of `SCAN` (its `launch` packs by the
        declaration of `layout`)."""
        k = (layout, a, b, segmented, exclusive) + (flat_knobs(self.narrow()) if layout == "flat" else ())
        kern = self._kernels.get(k)
        if kern is None:
            handle = _kernel_family.generated(
                ("scan", self.key, k), functools.partial(self.source, layout, a, b, segmented, exclusive))
            kern = self._kernels[k] = SCAN.bind(layout, handle, {"in_t": _ctype(self.in_dtype),
                                                                 "out_t": _ctype(self.out_dtype),
                                                                 "acc_t": _ctype(self.acc_dtype)})
        return kern


def flat_knobs(narrow: bool) -> tuple:
    """(warps, span, spins, order, streaming, min_blocks) of the flat kernels of one width class."""
    return _NARROW_KNOBS if narrow else _WIDE_KNOBS


# ---------------------------------------------------------------------------------------------
# Planning and launching over C-contiguous buffers

def flat_shape(in_dtype, out_dtype, in_ptr: int = 0, out_ptr: int = 0, acc_dtype=None,
               segmented=False) -> tuple[int, int]:
    """(K, J) of the flat kernel: K elements per 16-byte vector of the wider type (1 when a
    pointer is not aligned to the vector), J rows so that K * J elements per thread is _ITEMS
    4-byte elements' worth of the widest of the three types (halved when segmented)."""
    widest = max(in_dtype.itemsize, out_dtype.itemsize)
    k = max(1, 16 // widest)
    if in_ptr % (k * in_dtype.itemsize) or out_ptr % (k * out_dtype.itemsize):
        k = 1
    if acc_dtype is not None:
        widest = max(widest, acc_dtype.itemsize)
    items = min(_ITEMS, _ITEMS * 4 // widest)
    if segmented:
        items //= 2
    return k, max(1, items // k)


def column_rows(acc_dtype) -> int:
    """R of the columns kernel: rows per thread (accumulators held in registers)."""
    return min(16, max(2, _COLUMN_BYTES // acc_dtype.itemsize))


def _round16(n: int) -> int:
    return (n + 15) & ~15


def _status(nparts: int, acc_dtype):
    """Look-back state: [ticket][flags x nparts][aggregates][inclusive prefixes]; ticket and flags
    zeroed on the stream before the launch. Returns (memory, ticket, flags, aggs, incls)."""
    fl = _round16(4 * nparts)
    vals = _round16(acc_dtype.itemsize * nparts)
    mem = _memory.alloc(16 + fl + 2 * vals)
    mem.memset_async(0, 16 + fl)
    p = mem.ptr
    return mem, p, p + 16, p + 16 + fl, p + 16 + fl + vals


def _flat_status(nparts: int, acc_dtype):
    """Look-back state of the flat kernel: [ticket][status words: ceil(acc bytes / 4) 64-bit words per
    tile], all zeroed by one memset on the stream. Returns (memory, ticket, status)."""
    nw = (acc_dtype.itemsize + 3) // 4
    mem = _memory.alloc(16 + 8 * nw * nparts)
    mem.memset_async(0, 16 + 8 * nw * nparts)
    return mem, mem.ptr, mem.ptr + 16


def run(op: ScanOp, in_ptr: int, out_ptr: int, outer: int, n: int, inner: int, exclusive=False) -> None:
    """Scan C-contiguous data of shape (outer, n, inner) along n, from `in_ptr` to `out_ptr`
    (may be equal: every kernel reads an element before it writes it, in one thread)."""
    total = outer * n * inner
    if total == 0:
        return
    if exclusive and (inner != 1 or not op.associative):
        raise NotImplementedError("exclusive scans run along the contiguous axis only")
    if not op.associative or (inner > 1 and (n <= _SERIAL_MAX_ROWS or outer * inner >= _SERIAL_MIN_COLS)):
        ncols = outer * inner
        op.kernel("serial").launch(_launch.grid_for(ncols, _BLOCK), _BLOCK, in_ptr, out_ptr, n, inner, ncols)
        return
    if inner == 1:
        segmented = outer > 1
        k, j = flat_shape(op.in_dtype, op.out_dtype, in_ptr, out_ptr, op.acc_dtype, segmented)
        block = 32 * flat_knobs(op.narrow())[0]
        tile = block * k * j
        nparts = -(-total // tile)
        kern = op.kernel("flat", k, j, segmented, exclusive)
        mem = None
        ticket = status = 0
        if nparts > 1:
            mem, ticket, status = _flat_status(nparts, op.acc_dtype)
        kern.launch(nparts, block, in_ptr, out_ptr, total, n if segmented else 1, ticket, status)
        del mem  # stream-ordered pool: freed memory is reused only by later work on this stream
        return
    r = column_rows(op.acc_dtype)
    ncols = outer * inner
    nchunks = -(-n // (8 * r))
    ncolblocks = -(-ncols // 32)
    kern = op.kernel("columns", r)
    mem = None
    ticket = flags = aggs = incls = 0
    if nchunks > 1:
        mem, ticket, flags, aggs, incls = _status(nchunks * ncols, op.acc_dtype)
    kern.launch(nchunks * ncolblocks, _BLOCK, in_ptr, out_ptr, n, inner, ncols, ncolblocks, ticket, flags, aggs,
                incls)
    del mem


# ---------------------------------------------------------------------------------------------
# Operators from ufunc rows

_ops: dict = {}
_caches.register("scan definitions", _ops)
_result_dtypes: dict = {}


def result_dtype(uf, in_dtype, dtype=None, method="accumulate") -> numpy.dtype:
    """NumPy's result dtype of `uf.accumulate(x, dtype=dtype)` (`method="reduceat"`: of
    `uf.reduceat(x, [0], dtype=dtype)`) for an `in_dtype` array (NumPy is the oracle, on a
    one-element host array; its exceptions are the errors)."""
    key = (uf.__name__, in_dtype, dtype, method)
    dt = _result_dtypes.get(key)
    if dt is None:
        kw = {} if dtype is None else {"dtype": dtype}
        args = ([0],) if method == "reduceat" else ()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ComplexWarning of the oracle's cast, not the user's
            dt = getattr(uf._np, method)(numpy.ones((1,), in_dtype), *args, **kw).dtype
        if dt not in _dtypes.SUPPORTED_DTYPES:
            raise TypeError("{}.{} resolved to dtype {} which cuarray does not support".format(
                uf.__name__, method, dt))
        _result_dtypes[key] = dt
    return dt


def op_for(uf, in_dtype, out_dtype, loop_dtype, nan=None) -> ScanOp:
    """The ScanOp of `uf` accumulating in `loop_dtype` (NumPy's loop 'TT->T'), reading
    `in_dtype` and writing `out_dtype`. `nan`: 0 or 1 replaces NaN inputs (nancumsum/nancumprod)."""
    key = (uf.__name__, in_dtype, out_dtype, loop_dtype, nan)
    op = _ops.get(key)
    if op is None:
        loop = uf._resolve((loop_dtype, loop_dtype), None, "unsafe")
        if loop.out_dtypes[0] != loop_dtype or loop.in_dtypes != (loop_dtype, loop_dtype):
            raise TypeError("{}.accumulate has no {}-typed loop".format(uf.__name__, loop_dtype))
        acc = numpy.dtype(numpy.float32) if loop_dtype.char == "e" else loop_dtype
        load = "x"
        if loop_dtype.char == "e" and in_dtype.char != "e":
            # NumPy casts the input to the float16 loop's type first (float32 accumulates it
            # here): nancumsum(c16 holding -1e30, dtype=f2) adds -inf, not float32's -1e30.
            load = "cuarray::cast<acc_t>(cuarray::cast<__half>(v))"
        if nan is not None and in_dtype.kind in "fc":
            # NumPy replaces NaN in the input's dtype, then casts (nancumprod(f8, dtype=i1): a NaN
            # is 1, not the cast of NaN; a complex NaN in either part is replaced before the real
            # part is taken): the test reads the stored value `v`, not `x`, its cast.
            load = "(cuarray::scan::is_nan(v) ? acc_t({}) : {})".format(nan, load)
        identity = None
        if uf.identity is not None and not isinstance(uf.identity, bool):
            identity = "acc_t({})".format(int(uf.identity))
        name = uf.__name__ if nan is None else "nan" + uf.__name__
        op = _ops[key] = ScanOp(name, in_dtype, out_dtype, acc, uf._op_for(loop), load_expr=load,
                                identity=identity, associative=uf.__name__ in ASSOCIATIVE)
    return op


# ---------------------------------------------------------------------------------------------
# The array-level driver

def accumulate(uf, a: ndarray, axis, dtype=None, out=None, *, nan=None, what="accumulate") -> ndarray:
    """Scan `a` along `axis` (an int, already normalised) with `uf`; NumPy's dtype for
    `uf.accumulate(a, dtype=dtype)`; into `out` when given (any layout and dtype: cast on store)."""
    if _device_check.active[0]:
        _device_check.check((a, out))
    if dtype is not None:
        dtype = _dtypes.normalize_dtype(dtype)
    rd = result_dtype(uf, a._dtype, dtype)
    shape = a._shape
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray.ndarray, got {}".format(type(out).__name__))
        if out._shape != shape:
            raise ValueError("provided out is the wrong size for the accumulation.")
        if not out._writeable:
            raise ValueError("output array is read-only")
    if a._size == 0:
        return out if out is not None else ndarray(shape, rd)
    # The scan runs on C-ordered data: `a` itself, its transpose when F-ordered, or a C copy.
    nd = len(shape)
    if a._c:
        src, ax, transposed = a, axis, False
    elif a._f:
        src, ax, transposed = a.T, nd - 1 - axis, True
    else:
        src, ax, transposed = _copying.copy(a, "C"), axis, False
    cshape = src._shape
    outer = math.prod(cshape[:ax])
    n = cshape[ax]
    inner = math.prod(cshape[ax + 1:])
    # Write straight into `out` when its layout matches the scan's and it does not partly overlap
    # the input (the same memory exactly is fine: each element is read before it is written).
    dst = None
    if out is not None:
        view = out.T if transposed else out
        if view._c:
            if out._same_elements(a) or not out._overlaps(a):
                dst = view
    target = dst if dst is not None else ndarray(cshape, rd)
    op = op_for(uf, src._dtype, target._dtype, rd, nan)
    run(op, src.data.ptr, target.data.ptr, outer, n, inner)
    if dst is not None:
        return out
    result = target.T if transposed else target
    if out is not None:
        _copying.copyto_unchecked(out, result)
        return out
    return result


def single_axis(axis, ndim: int, method: str) -> int:
    """The one axis `ufunc.accumulate` and `ufunc.reduceat` (`method`) take, normalised as NumPy
    does: None only for 1-D input, a one-element tuple, or an int (AxisError when out of range)."""
    if axis is None:
        if ndim != 1:
            raise ValueError("{} does not allow multiple axes".format(method))
        return 0
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError("{} does not allow multiple axes".format(method))
        axis = axis[0]
    return _shapes.normalize_axis_index(axis, ndim)


def ufunc_accumulate(uf, array, axis=0, dtype=None, out=None) -> ndarray:
    """`uf.accumulate(array, axis=0, dtype=None, out=None)`. See `numpy.ufunc.accumulate`.

    Associative operators (ASSOCIATIVE) scan in parallel; others walk each row in order on one
    thread (correct, but slow when the scanned axis is long and there are few rows).
    """
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("accumulate only supported for binary functions")
    a = as_array(array, uf.__name__ + ".accumulate")
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    axis = single_axis(axis, a.ndim, "accumulate")
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    return accumulate(uf, a, axis, dtype, out)


# ---------------------------------------------------------------------------------------------
# Internal API for other engine modules (boolean-mask indexing, nonzero, compaction). Stable.

def _sum_op(in_dtype, out_dtype) -> ScanOp:
    key = ("sum1d", in_dtype, out_dtype)
    op = _ops.get(key)
    if op is None:
        acc = numpy.dtype(numpy.float32) if out_dtype.char == "e" else out_dtype
        expr = "out0 = in0 || in1" if acc.char == "?" else "out0 = in0 + in1"
        op = _ops[key] = ScanOp("sum1d", in_dtype, out_dtype, acc, expr, identity="acc_t(0)")
    return op


def _sum_1d(x: ndarray, dtype, exclusive: bool) -> ndarray:
    x = as_array(x, "inclusive_sum_1d")
    if x.ndim != 1:
        raise ValueError("expected a 1-D array, got {} dimensions".format(x.ndim))
    dtype = _dtypes.normalize_dtype(dtype)
    if not x._c:
        x = _copying.copy(x, "C")
    out = ndarray(x._shape, dtype)
    run(_sum_op(x._dtype, dtype), x.data.ptr, out.data.ptr, 1, x._size, 1, exclusive=exclusive)
    return out


def inclusive_sum_1d(x: ndarray, dtype=numpy.int64) -> ndarray:
    """Inclusive prefix sums of a 1-D array (bool or integers: a mask's running count) as a new
    contiguous array of `dtype`: out[i] = x[0] + ... + x[i]. Asynchronous (no sync)."""
    return _sum_1d(x, dtype, False)


def exclusive_sum_1d(x: ndarray, dtype=numpy.int64) -> ndarray:
    """Exclusive prefix sums: out[0] = 0, out[i] = x[0] + ... + x[i-1]. Asynchronous."""
    return _sum_1d(x, dtype, True)
