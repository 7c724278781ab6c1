"""One separable-filter pass with the input staged in shared memory (templates/filter_tile.cu):
`filter1d_rows` along the last axis, `filter1d_cols` along a strided one. `plan` says which kernel
a pass takes and its launch shape, or None where filters.cu's one-output-a-thread `filter1d` runs
it (a tile past 48 KiB of shared memory, or a shape the tile would mostly leave idle);
`_filter_kernels.filter1d` asks it. Results are the same bits as `filter1d`'s (same sums, same
order); docs/perf-notes.md, "Separable filters: a shared tile a pass".
"""

from __future__ import annotations

import pathlib
from typing import NamedTuple

import numpy

from ..._core import dtypes as _dtypes
from ...cuda import caches as _caches
from ...cuda.limits import SHARED_PER_BLOCK

__all__ = ["Plan", "plan", "kernel_name", "source", "vector_flags", "grid", "SHARED_MAX", "VARIANTS", "AUTO_VARIANT",
           "PIPE_FROM_TAPS", "SHORT_MAX", "auto_variant"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "filter_tile.cu"
_PIPE_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "filter_tile_pipe.cu"
_SHORT_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "filter_tile_short.cu"
SHARED_MAX = SHARED_PER_BLOCK  # without the opt-in attribute
# Variant 4's one-wave grid (a block per resident slot): shared memory an SM on sm_90 (228 KiB, 1 KiB
# of it reserved a block) and the blocks an SM its kernels' __launch_bounds__ promise registers for
# (rows: 5 where the accumulator is 4 bytes, 4 where 8, else 3; cols: 4 where it is 4 bytes or r is
# 4, else 3).
_SM_SHARED, _BLOCK_RESERVED = 228 * 1024, 1024
_ROWS_MIN_TPL, _ROWS_MAX_TPL = 8, 256
_COLS_BW, _COLS_BH = 32, 8
# Where "auto" leaves a pass to filter1d: a strided pass over fewer columns than this leaves most
# of a block's 32 lanes idle, over fewer rows than half a block's (8 r / 2) most of its warps; a
# pass along lines shorter than half the smallest piece (r * 8 / 2 outputs) stages mostly halo.
_COLS_MIN_INNER = 16
# The kernels' VAR (filter_tile.cu): 0 the first tile (scalar staging, one mode mapping an element),
# 1 16-byte staging loads all in flight before the stores, chunks inside the array unmapped,
# 16-byte output stores; 2 that and the tap loop unrolled by the window's groups (no register
# moves). `filter1d(plan=...)` names them; docs/perf-notes.md "Separable filters" has the timings.
# Plans ending "-half-r" make half the outputs a thread (`plan(half_r=True)`).
# 3 ("tile-rows3") that with the rows' halo (tile slots outside the line) filled through the mode
# from the tile after a barrier, not by a per-chunk call in the staging loop, 6 blocks an SM (4-byte
# accumulators), and the rows' 16-byte units swizzled (4- and 8-byte accumulators: the window's
# 16-byte loads without bank conflicts), which wants rows of a multiple of 32 bytes (the strided
# pass as 2).
# 4 ("tile-pipe", templates/filter_tile_pipe.cu) that with a software-pipelined next tile: a grid of
# one wave, each block a contiguous range of tiles, the next tile's copies (cp.async) in flight
# while this one is computed, two tile buffers; the strided pass keeps the size + 4 rows the next
# tile of its column strip shares with this one. The strided pass makes r = 4 outputs a thread of
# 8-byte accumulators (not 8) and halves r where its two buffers pass SHARED_MAX; failing that
# the pass runs variant 3 (the Plan's variant says).
# 5 ("tile-rows-short", templates/filter_tile_short.cu): last-axis passes over lines of at most
# SHORT_MAX: a piece of threads covers a whole line (16 outputs a thread of 4-byte accumulators, 8
# of 8-byte), the halo filled through the mode from the line while staging (no halo barrier), as
# many lines a block as fit 256 threads and SHARED_MAX; other passes plan variant 3.
VARIANTS = {"tile": 0, "tile-half-r": 0, "tile-vec": 1, "tile-vec-u": 2, "tile-vec-u-half-r": 2, "tile-rows3": 3,
            "tile-pipe": 4, "tile-rows-short": 5}
SHORT_MAX = 1024
# The variant plan="auto" (the public filters) runs; scripts/perf/filter_tile_passes.py decided it
# on the H100 (GPU time alone, 4096^2 float32 gaussian sigma 4, whole filter: variant 0 218 us,
# 2 147 us, 3 132 us; 3 fastest or tied on every pass of the table, its strided pass being 2's).
AUTO_VARIANT = 3
# Where plan="auto" takes variant 4 instead (auto_variant): passes of PIPE_FROM_TAPS taps or more
# along a strided axis, and along the last axis with 8-byte accumulators. H100, GPU time, x copy of
# the pass, variant 3 -> 4 (filter_tile_passes.py --plans tile-rows3,tile-pipe, session 16): strided
# passes of 33 taps (gaussian sigma 4) 4096^2 float32 0.72 -> 0.77, 256^3 axis 0 0.69 -> 0.75,
# axis 1 0.73 -> 0.73, float64 0.59 -> 0.74; float64 rows of 33 taps 0.60 -> 0.64. Slower: strided
# passes of 17 taps or fewer (sigma 2 0.85 -> 0.76, sigma 1 0.90 -> 0.77, uniform 5 0.90 -> 0.73)
# and float32 rows (sigma 4 0.66 -> 0.59, sigma 1 0.86 -> 0.71; 256^3 0.48 -> 0.49): where a pass has
# little arithmetic a tap, the one-wave walk's barriers cost more than the overlap gives.
PIPE_FROM_TAPS = 33


def auto_variant(shape, axis: int, size: int, acc_dt) -> int:
    """The variant plan="auto" runs for a pass of `size` taps along `axis` of `shape` with `acc_dt`
    accumulators: AUTO_VARIANT, or where it measured faster (from PIPE_FROM_TAPS taps) 4 for
    strided passes and 8-byte accumulators, 5 for 4-byte accumulators along lines of at most
    SHORT_MAX (H100, gaussian sigma 4 float32, the last-axis pass alone, x copy variant 3 -> 5:
    lines of 128 0.49 -> 0.60, 256 0.49 -> 0.66, 512 0.60 -> 0.68, 1024 0.64 -> 0.70; 4096 stays 3)."""
    if AUTO_VARIANT != 3 or size < PIPE_FROM_TAPS:
        return AUTO_VARIANT
    last_axis = all(int(s) == 1 for s in shape[axis + 1:])
    if not last_axis or numpy.dtype(acc_dt).itemsize == 8:
        return 4
    return 5 if int(shape[axis]) <= SHORT_MAX else AUTO_VARIANT


class Plan(NamedTuple):
    """kind "rows": `lines` lines of n, pieces of tpl = 2**ltpl threads making seg = r * tpl
    outputs each, 256 // tpl pieces a block, `segs` blocks a line; tile rows of `pitch` values.
    kind "cols": (outer, n, inner), blocks of 32 x 8 threads making r rows each: `rblocks` x
    `cblocks` blocks a plane. `blocks`: the grid (variant 4: the tiles, which a grid of at most
    `per_sm` blocks an SM walks); `shared`: dynamic shared memory in bytes; `variant`: the
    kernels' VAR."""
    kind: str
    r: int
    n: int
    inner: int
    outer: int
    ltpl: int
    segs: int
    pitch: int
    rblocks: int
    cblocks: int
    blocks: int
    shared: int
    variant: int = 0
    per_sm: int = 0
    threads: int = 0


def _r16(b: int) -> int:
    return (b + 15) & ~15


def _r(kind: str, acc_itemsize: int) -> int:
    """Outputs a thread: 8 (rows) / 16 (cols) of 4-byte or smaller accumulators, half that of 8-byte."""
    big = acc_itemsize > 4
    return (4 if big else 8) if kind == "rows" else (8 if big else 16)


def plan(shape, axis: int, size: int, acc_dt, out_dt, op: str, force: bool = False, half_r: bool = False,
         variant: int = 0):
    """The Plan of a pass of `size` taps along `axis` of a C-contiguous array of `shape`, or None.
    force=True plans the tile for any shape that fits in shared memory (tests, perf scripts);
    half_r=True makes half the outputs a thread (a variant scripts/perf/filter_tile_passes.py
    times: shorter windows, more blocks, a larger share of halo); `variant` the kernels' VAR
    (VARIANTS), which changes no launch shape but variant 3's rows' pitch (a multiple of 32 bytes)
    and variant 4's shared memory, per_sm and (strided passes past SHARED_MAX) r; variant 4
    plans variant 3 where its two tile buffers do not fit."""
    args = (tuple(int(s) for s in shape), int(axis), int(size), numpy.dtype(acc_dt).itemsize,
            numpy.dtype(out_dt).itemsize, op == "correlate", bool(force), bool(half_r), int(variant) >= 3)
    if int(variant) in (4, 5):
        if half_r:
            raise ValueError("variant {} has no half-r plan".format(int(variant)))
        p = _short_plan(*args[:6]) if int(variant) == 5 else _pipe_plan(*args[:7])
        if p is not None:
            return p
        variant = 3
    p = _plan(*args)
    return p if p is None or not variant else p._replace(variant=int(variant))


def grid(p: Plan, sm_count: int, per_sm: int | None = None) -> int:
    """The launch's blocks: p.blocks, or for variant 4 one wave of at most `per_sm` blocks an SM
    (the launcher passes the driver's occupancy of the compiled kernel; p.per_sm is what the
    kernels' __launch_bounds__ and sm_90's shared memory promise)."""
    if p.variant != 4:
        return p.blocks
    return max(1, min(p.blocks, sm_count * (p.per_sm if per_sm is None else per_sm)))


def _per_sm(shared: int, regs_bound: int) -> int:
    return max(1, min(regs_bound, 8, _SM_SHARED // (shared + _BLOCK_RESERVED)))


@_caches.memo("ndimage short-line filter plans", maxsize=256)
def _short_plan(shape, axis, size, asz, osz, weighted):
    """Variant 5's Plan: a last-axis pass over lines of at most SHORT_MAX, a piece of 2**ltpl threads
    a whole line, r outputs a thread; None where the pass is another (variant 3 runs it)."""
    n = shape[axis] if shape else 0
    outer = 1
    for s in shape[:axis]:
        outer *= s
    if any(s != 1 for s in shape[axis + 1:]) or n == 0 or n > SHORT_MAX or outer == 0:
        return None
    r = 16 if asz <= 4 else 8
    tpl = 1
    while tpl * r < n:
        tpl *= 2
    seg = tpl * r
    q = max(4, 64 // asz)  # short_slot swaps 16-byte units inside groups of four: whole groups a row
    pitch = (seg + size + 4 + q - 1) // q * q
    wbytes = _r16(((size + 3) & ~3) * asz) if weighted else 0
    lpb = max(1, 256 // tpl)
    while True:
        shared = wbytes + _r16(lpb * pitch * asz) + lpb * seg * osz
        if shared <= SHARED_MAX:
            break
        if lpb * tpl <= 32 or lpb == 1:
            return None
        lpb //= 2
    return Plan("rows", r, n, 1, outer, tpl.bit_length() - 1, 1, pitch, 0, 0, -(-outer // lpb), shared,
                variant=5, threads=lpb * tpl)


@_caches.memo("ndimage pipelined filter plans", maxsize=256)
def _pipe_plan(shape, axis, size, asz, osz, weighted, force):
    """Variant 4's Plan (two tile buffers), or None where they do not fit (or "auto" takes filter1d)."""
    p = _plan(shape, axis, size, asz, osz, weighted, force, False, True)
    if p is None:
        return None
    wbytes = _r16(((size + 3) & ~3) * asz) if weighted else 0
    if p.kind == "rows":
        lpb = 256 >> p.ltpl
        shared = wbytes + 2 * _r16(lpb * p.pitch * asz) + lpb * p.r * (1 << p.ltpl) * osz
        if shared > SHARED_MAX:
            return None
        return p._replace(shared=shared, variant=4, per_sm=_per_sm(shared, {4: 5, 8: 4}.get(asz, 3)))
    r = min(p.r, 4) if asz == 8 else p.r  # (8 at 8 bytes spilled at 80 registers with 64-bit indices)
    while True:
        shared = wbytes + 2 * (_COLS_BH * r + size + 4) * _COLS_BW * asz
        if shared <= SHARED_MAX:
            break
        if r <= 4:
            return None
        r //= 2
    rblocks = -(-p.n // (_COLS_BH * r))
    return p._replace(r=r, rblocks=rblocks, blocks=p.outer * rblocks * p.cblocks, shared=shared, variant=4,
                      per_sm=_per_sm(shared, 4 if asz == 4 or r == 4 else 3))


def vector_flags(in_ptr: int, out_ptr: int, n: int, inner: int, in_itemsize: int, out_itemsize: int) -> int:
    """The kernels' vflags: bit 0 when every line (rows: n; cols: inner) of the input starts
    16-byte aligned, bit 1 the same of the output (VAR >= 1 loads and stores 16 bytes there)."""
    line = n if inner == 1 else inner
    return (int(in_ptr % 16 == 0 and line * in_itemsize % 16 == 0)
            | int(out_ptr % 16 == 0 and line * out_itemsize % 16 == 0) << 1)


@_caches.memo("ndimage tiled filter plans", maxsize=256)
def _plan(shape, axis, size, asz, osz, weighted, force, half_r=False, swizzled=False):
    n = shape[axis]
    inner = 1
    for s in shape[axis + 1:]:
        inner *= s
    outer = 1
    for s in shape[:axis]:
        outer *= s
    total = n * inner * outer
    if total == 0:
        return None
    if not weighted and asz == 8 and not force:
        return None  # float64 uniform: filter1d read at 0.67-0.70 of the copy rate, the tile 0.57-0.62 (H100)
    wbytes = _r16(((size + 3) & ~3) * asz) if weighted else 0
    if inner == 1:
        r = _r("rows", asz) // (2 if half_r and asz <= 4 else 1)  # the swizzle needs r of 4 or 8
        if not force and 2 * n < _ROWS_MIN_TPL * r:
            return None
        tpl = _ROWS_MIN_TPL
        while tpl < _ROWS_MAX_TPL and tpl * r < n:
            tpl *= 2
        seg, lpb = tpl * r, 256 // tpl
        q = max(4, 16 // asz)  # rows start 16-byte aligned (VAR >= 1 stores 16 bytes at a time)
        if swizzled and asz >= 4:  # VAR 3 pairs a row's 16-byte units (tile_slot): an even number of them
            q = max(q, 32 // asz)
        pitch = (seg + size + 4 + q - 1) // q * q
        shared = wbytes + _r16(lpb * pitch * asz) + lpb * seg * osz
        if shared > SHARED_MAX:
            return None
        segs = -(-n // seg)
        blocks = -(-outer // lpb) * segs
        return Plan("rows", r, n, 1, outer, tpl.bit_length() - 1, segs, pitch, 0, 0, blocks, shared)
    r = _r("cols", asz) // (2 if half_r else 1)
    shared = wbytes + (_COLS_BH * r + size + 4) * _COLS_BW * asz
    if shared > SHARED_MAX:
        return None
    if not force and (inner < _COLS_MIN_INNER or n < _COLS_BH * r // 2):
        return None
    rblocks, cblocks = -(-n // (_COLS_BH * r)), -(-inner // _COLS_BW)
    return Plan("cols", r, n, inner, outer, 0, 0, 0, rblocks, cblocks, outer * rblocks * cblocks, shared)


def kernel_name(kind: str, in_dt, out_dt, acc_dt, op_code: int, idx64: bool, r: int, variant: int = 0) -> str:
    """filter1d_rows / filter1d_cols (variants 0-3), filter1d_rows_pipe / filter1d_cols_pipe (4),
    filter1d_rows_short (5)."""
    return "cuarray_ndimage::filter1d_{}{}<{}, {}, {}, {}, {}, {}, {}>".format(
        kind, {4: "_pipe", 5: "_short"}.get(variant, ""), _dtypes.ctype(in_dt), _dtypes.ctype(out_dt),
        _dtypes.ctype(acc_dt), op_code,
        "long long" if idx64 else "int", r, variant)


def source(filters_source: str) -> str:
    """filter_tile.cu, filter_tile_pipe.cu and filter_tile_short.cu after filters.cu's source
    (boundary.cuh, to_out, combine)."""
    return filters_source + _TEMPLATE.read_text() + _PIPE_TEMPLATE.read_text() + _SHORT_TEMPLATE.read_text()
