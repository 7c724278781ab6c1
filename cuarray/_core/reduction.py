"""The reduction engine: axis planning, strategy choice, code generation, launch.

A reduction maps each input element to an accumulator value (`map_expr`), combines accumulators
(`reduce_expr` over `a` and `b`), and writes each output from its accumulator (`post_map`).
`ReductionDef.run` does, per call:

1. Plan (`plan`, pure Python): the input's axes split into kept and reduced ones; each group is
   collapsed (`shapes.collapse_dims`) where memory allows, giving `n_out` outputs that each reduce
   `n_red` elements through a few (out dims, strides) and (red dims, strides).
2. Strategy, by where the input's smallest stride lies (see `_choose` for the thresholds):
   - the reduced axes are the fast ones (`x.sum(axis=-1)`, full reductions): a warp (rows under
     4096 elements) or a 256-thread block per output, 16-byte vector loads when aligned;
   - a kept axis is the fast one (`x.sum(axis=0)`): a thread per output walks the reduced elements,
     neighbouring threads reading neighbouring addresses (coalesced);
   - short aligned rows that are a whole number of 16-byte vectors per lane take a row tile (a
     lane loads several rows' vectors before its first add; `_ROW_TILE`), and a few adjacent
     outputs along a fast kept axis take output vectors (a thread loads 16 bytes of outputs a
     reduced element, the block combines its sub-chunks; `_OUT_VEC`): passes of their own in
     reduction.cu;
   - a kept row of 2, 4 or 8 bytes packed row after row (`var(axis=0)` of (n, 2) float32) takes
     folded output vectors: a 16-byte load carries 16 / row rows of outputs, a thread folds them
     together at its end (`_OUT_FOLD`);
   - when that leaves the GPU under-filled (few outputs: full reductions, `sum(axis=0)` of a wide
     matrix...), the reduced index is cut into chunks over blockIdx.y; partials go to a temporary
     buffer and a second pass of the same skeleton combines them in a fixed order. No float
     atomics: results are bit-identical run to run on one device. When one block can do the
     second pass about as fast as a second launch (few outputs), it is fused: the last block of
     the grid to finish (an integer counter per stream, see `_workspace`) runs it, same order.
3. The plan, its compiled kernels (NVRTC once per key), LaunchConfigs and every argument but the
   pointers become a `_Launcher`, kept per definition under (shape, strides, output strides, axes,
   alignment, device): a repeated call is one look-up and the launch(es). The public functions add
   a look-up before all of this (`reduction_ops.fast_key`).

Kernel arguments, in the order `ReductionDef._declare` writes them: input pointers and scalars in
parameter order, the output pointer, partial in/out pointers, then (`_tail`) byte strides of each
array over the out dims then the out dim sizes, the same over the red dims, then
`_n_out, _n_red, _chunk` (a folded plan's chunk counts 16-byte vectors) and the partial strides
`_pso, _psj, _pdo, _pdc` (in accumulators); a fused kernel takes its counter last.
"""

from __future__ import annotations

import math
import string
import threading
from typing import NamedTuple

import numpy

from ..cuda import compiler as _compiler
from ..cuda import device as _device
from ..cuda import launch as _launch
from ..cuda import memory as _memory
from ..cuda import stream as _stream
from . import datetimes as _datetimes
from . import device_check as _device_check
from . import dtypes as _dtypes
from . import reduction_passes as _passes
from . import shapes as _shapes
from .elementwise import _INT32_MAX, _skeleton, compute_ctype, kernel_identifier

__all__ = ["ReductionDef", "Plan", "plan", "Stage", "one_launch_workspace", "stream_workspace"]

BLOCK = 256
# Blocks of 256 threads per SM the grid aims for when outputs alone do not fill the GPU (the
# reduced index is then split over blockIdx.y). Two waves of 8 resident blocks: measured on an
# H200 (1 GiB float32; 16384^2 sum(axis=0)), 16 gave sum 1.03 / max 1.03 / axis 0 0.93 x copy
# rate against 0.99 / 0.97 / 0.82 with 8 (one wave: the last blocks leave SMs idle); 32: 0.90.
_BLOCKS_PER_SM = 16
# A warp per output below this many reduced elements, a block above: a 4096-element row is 16
# elements per thread of a block, too few to amortise the block's shared-memory combine, and 128
# per lane of a warp (8 unrolled 16-byte loads each). Reasoned, not yet swept on a device.
_BLOCK_ROW = 4096
# Outputs of fewer elements than this get a thread each even when their elements are adjacent:
# a warp would leave most lanes idle. Swept on an H100 (scripts/perf/shapes_sweep.py --warp-row,
# float32, rows of 16: (1e6, 16) max 166 us with a warp per row, 46-58 with a thread per row
# (CuPy 46); argmax 436 -> 48 (CuPy 150); rows of 64: a warp 95-109 us, a thread 150; rows of 2-8
# the same either way): a thread below 64, a warp from 64.
_WARP_ROW = 64
# Each accumulator of a thread takes at most this many elements before the work is split into
# chunks (a second pass): bounds the float rounding chain (error ~ chain * eps) well below
# NumPy's pairwise summation on realistic data, for a partial buffer of negligible size.
_MAX_CHAIN = 2048
_MAX_SPLIT = 65535  # grid.y limit
# Independent accumulators (loads in flight) per thread: a thread walking a column issues 8
# coalesced 4-byte loads at once (H200, 16384^2 sum(axis=0): 4 -> 0.80, 8 -> 0.82, 16 -> 0.89 x
# copy rate with one wave, but 16 lost with two waves: 0.84); a row group issues 8 16-byte loads
# per lane (1 GiB argmax 0.93 -> 1.00, sum 0.99 -> 1.03 going from 4 to 8).
_UNROLL_COLS = 8
_UNROLL_ROWS = 8
_MAX_GRID_X = 2**20
# A split reduction whose second pass one block does in at most this many more loop rounds than
# the second launch's blocks would is fused into the first launch: the last block to finish (a
# per-stream counter) combines the partials, in the same fixed order as the second launch. A
# launch costs ~4 us of host time and a few us on the device; 4 rounds of dependent loads about
# as much as the device part. Reasoned, not swept.
_FUSE_STEPS = 4
FUSE = True
# Few outputs along a fast kept axis (`sum(axis=0)` of (1e6, 4)): a thread per output left 252 of
# a block's 256 threads idle. Such plans give each block `sub` sub-chunks (a power of two, up to
# BLOCK / n_out): thread t takes output t % (BLOCK / sub) and every sub-th element of its chunk, so
# a warp reads consecutive addresses, and writes its own partial. The partials are kept to at most
# this many in all (chunks x sub-chunks x outputs), so the combining pass stays short. H100 sweep
# (scripts/perf/shapes_sweep.py --sub-parts), sum(axis=0) float32 of (1e6, 4) / (1e6, 32), µs:
# 16384: 24.8 / 152; 32768: 24.5 / 90.5; 65536: 19.6 / 68.5; 131072: 24.3 / 66.0 (PyTorch 30.5 /
# 107; the plain thread-per-output plan 115 / 212).
_SUB_PARTS = 65536
_SUB_MIN_RED = 4096  # below this many reduced elements the plain layout is fast enough
# Short rows of adjacent, 16-byte aligned elements (`x.sum(axis=1)` of (1e6, 16) or (5e5, 64)
# float32): a group of G lanes per row, G the power of two (1 to 32) that gives each lane about
# this many 16-byte loads; several rows per warp. Before: a thread per row under _WARP_ROW
# elements (4-byte loads, 16-64 bytes apart), a warp per row from it (2 4-byte loads a lane for
# rows of 64). 0: off. H100, scripts/perf/shapes_sweep.py --set _LANE_VECS=0,1,2,4 in one process
# (µs, 0 -> 2): sum rows of 64 (5e5) 90.7 -> 59.9, of 64 (1e6) 174.7 -> 103.5, of 100 (1e6) 219.8 ->
# 153.4, of 16 (4e6) 141.1 -> 101.0, var rows of 16 104.4 -> 87.4; 1 lost argmax rows of 8/16
# (72.6 -> 116.5, 45.5 -> 70.0) and float64 rows of 8, 2 did not: chosen 2.
_LANE_VECS = 2
# A thread walking fewer than _UNROLL_COLS elements (sum(axis=0) of (2, 4e6); rows of 3) unrolls by
# exactly that many: with 8 accumulators such a walk never entered the unrolled loop, and the
# remainder loop issues each load after the previous one's add (one load in flight per thread).
# 0: off. H100, --set _SHORT_UNROLL=0,1 (µs): sum(axis=0) of (2, 4e6) 40.4 -> 30.4 (PyTorch 35.9),
# rows of 3 37.4 -> 34.4; sum(exp) over rows of 2 in float64 17.4 -> 28.0 (CuPy 40.5, PyTorch 34.6):
# kept, every row at or under both peers.
_SHORT_UNROLL = 1
# Reduced dims that do not collapse into one (`mean(axis=(0, 2))` of (64, 1024, 256)) still get
# 16-byte loads when the last one is contiguous and a multiple of the vector long: the vector index
# is unravelled per load (two divisions per 16 bytes). 0: scalar loads there, as before. H100,
# --set _VEC_ND=0,1: mean(axis=(0, 2)) of (64, 1024, 256) 42.8 -> 38.6-40.4 µs (PyTorch 43.7).
_VEC_ND = 1
# Row tiles: short aligned rows that are exactly G lanes x M 16-byte vectors (G the lane group
# above, dividing the row's vectors; M <= 8: `sum(axis=1)` of (4e6, 4) or (4e6, 16) float32, rows
# of 2 float64) are read by a separate pass (reduction.cu, @@tile@@) in which a lane issues about
# this many 16-byte loads, over max(1, _ROW_TILE // M) rows (fewer, down to 1, while the grid would
# have under 2 blocks an SM), before its first add. Why: with the one-pass skeleton a row of one
# vector is one 16-byte load a thread behind ~100 instructions of loop bounds (SASS, sm_90), and
# the measured rows sat at ~0.5 of the copy rate (sum (4e6, 4) 45.7 µs for 64 MB; max (1e6, 16)
# 38.4). 0: off (the one-pass plans, kernels unchanged byte for byte). H100, full-size bench before
# and after in one call: sum (4e6, 4) 32.4 -> 30.2 µs (CuPy 30.2), max (1e6, 16) 29.2 -> 27.4
# (CuPy 34.7); docs/perf-notes.md, "Reductions over short axes, third pass".
_ROW_TILE = 8
# Accumulators a thread of a sub-chunked plan keeps (`sum(axis=0)` of (1.6e7, 4), `var(axis=0)` of
# (1e6, 4)): those plans have at most _SUB_PARTS partials, so ~2 blocks an SM, each thread with
# _UNROLL_COLS 4-byte loads in flight (~16 KB an SM, under what the H100 needs to cover DRAM
# latency at its rate). _UNROLL_COLS (8): as before. The H100 sweep (--set _UNROLL_SUB=0,16,32)
# drifted +-20% between sections on rows it does not touch: not settled; kept at 16.
_UNROLL_SUB = 16
# Output vectors: a sub-chunked plan (above) whose outputs are adjacent in every input (one kept
# dim, unit stride, 16-byte aligned rows, n_out a multiple of the vector and at most 32 vectors)
# gives a thread 16 bytes of outputs (4 float32 columns) with one 16-byte load per reduced element,
# and the block combines its sub-chunks itself (reduction.cu, @@cols@@): one partial per block and
# output instead of one per sub-chunk, so the grid is not held to _SUB_PARTS / (n_out x sub) blocks
# (64 for (n, 4) float32) and the second pass is short enough to fuse. Accumulators a thread:
# _UNROLL_COLS rounds while they stay within 128 bytes of registers (a float32 var's (mean, m2, n)
# takes 2 rounds of 4 columns). Why: `sum(axis=0)` of (1.6e7, 4) ran 1.10x PyTorch with 4-byte
# loads, 8 in flight, ~2 blocks an SM; `var(axis=0)` of (1e6, 4) 1.14x. 0: off. H100, bench before
# and after in one call: (1.6e7, 4) 108 -> 92.0 µs (0.95x PyTorch), var 50.5 -> 36.4 (1.03x).
_OUT_VEC = 1
# Folded output vectors: a sub-chunked plan whose row of outputs is 2, 4 or 8 bytes (axis 0 of
# (n, 2) float32, (n, 4) float16, (n, 8) int8), every row right after the last (reduced stride =
# the row's bytes) from a 16-byte aligned pointer: F = 16 / row rows are one aligned 16-byte vector.
# A thread loads whole vectors (F rows x n_out outputs), keeps an accumulator a lane of the vector
# (lane k: output k % n_out), folds its F lanes of each output together at its end in a fixed
# order, and the block combines its 256 sub-chunks as the output-vector pass does (reduction.cu,
# @@fold@@); the rows past the last whole vector (fewer than F) are read by thread 0 of the last
# chunk. The largest F taken (2, 4 or 8; 0: off, the scalar sub-chunk plan). Why: `var(axis=0)`
# of (1e6, 2) float32 ran 43.5 µs of GPU time against PyTorch's 13.0 with 4-byte loads and 65 536
# partials in a second launch. Kept axes of 12 or 24 bytes (3 or 6 float32 columns) do not divide
# a vector: scalar sub-chunks still. Off with _OUT_VEC = 0 too. H100 (scripts/perf/kept_fold.py,
# GPU time): every row faster folded than off, at every F (var (1e6, 2) 44.7 -> 11.6 µs, PyTorch
# 13.9; argmax 42.3 -> 11.3; (1.6e7, 2) u8 max, F = 8: 24.0 -> 15.0).
_OUT_FOLD = 8
# The fewest unrolled rounds a thread of a folded plan makes before the reduced index is cut into
# more chunks: 2 is every plan's rule (the partials stay half as many); 1 doubles the blocks of the
# small cases ((1e6, 2) float32: 123 blocks, under one an SM, -> 245) for one load round a thread
# instead of two. H100 (kept_fold.py --rounds 1,2): 2 faster on the 8 MB rows (var (1e6, 2) 11.6
# against 14.5 µs, argmax 11.3 / 13.7), the same on the 128 MB rows: 2.
_FOLD_ROUNDS = 2
# Blocks of 256 threads an SM a folded plan's split aims for when its accumulator is over 8 bytes
# (var/std's moments, argmax/argmin's pairs; other plans: _BLOCKS_PER_SM). Such a block ends in
# more work than a load round: each output's F lanes folded by Chan's step (a division) or a
# compare of pairs, the block combination, and a partial the fused last block combines again.
# With _BLOCKS_PER_SM = 16 a long reduced index is cut into chunks of _FOLD_ROUNDS rounds and that
# end is paid every two rounds ((1.6e7, 2) float32: 1954 blocks, 3.7 waves of ~4 resident blocks an
# SM, var 75.3 µs of GPU time against PyTorch's 65.0). Small cases keep their split (set by
# _FOLD_ROUNDS there: (1e6, 2) float32 123 blocks). H100 (kept_fold.py --blocks-per-sm 16,4,2,1,
# GPU time, µs, var / argmax): (4e6, 2) f32 21.5 / 19.6 -> 17.8 / 17.0 at 2; (1.6e7, 2) f32
# 75.3 / 75.8 -> 52.2 / 53.7 at 2 (58.8 / 61.6 at 4, 57.9 / 59.1 at 1); (6.4e7, 2) f32 200.7 / 198.7
# -> 190.0 / 190.4 at 2 (178.2 / 179.8 at 1); (1.6e7, 4) f16 86.0 / 87.3 -> 55.6 / 57.9. Sums and
# maxes (8-byte accumulators or less) keep 16: fewer blocks gained at 1.6e7 rows and lost at 6.4e7
# (sum (6.4e7, 2) f32 172.3 at 16, 185.5 at 4, 199.2 at 2).
_FOLD_WIDE_BLOCKS_PER_SM = 2
# Accumulator sets of several fields (var/std's moments, argmax/argmin's pairs) in folded plans: 2
# sets instead of one when the reduced index is long for the GPU: at least this many load rounds of
# `unroll` vectors for each of 256 threads an SM (vectors / (SMs x 256 x unroll); when it was
# measured, a plan's split kept a thread's own rounds at ~2 for every size, so the measure is the
# machine's, not the thread's). 0: never (one set, the text of every kernel before). Why: (1.6e7, 2)
# float32 var ran 75.6 µs (PyTorch 65.4), argmax 75.6 (60.3), a sum 51: ~15 blocks an SM wait on one dependent
# chain of 8 steps a lane a round (a division per element in var); the small rows ((1e6, 2): 1.85
# rounds an SM, under one block an SM) wait on the loads, which ptxas issued 5 + 3 with 2 sets.
# The sets take a round's loads alternately and are combined in order (set 0, then set 1) by the
# reduction's own combine: Chan's for moments, the lower index on ties for pairs.
# (1.6e7, 2) float32 is 29.6 rounds an SM on an H100, (1e6, 2) 1.85. H100 (kept_fold.py --sets-from
# 0,1,8): two sets slower everywhere (var (1.6e7, 2) 75.7 -> 80.0 µs, argmax 75.9 -> 79.9): 0.
_FOLD_WIDE_SETS_FROM = 0


class Stage(NamedTuple):
    """What a compiled kernel is specialised on (a kernel cache key). src: 'map' (inputs through
    map_expr) or 'part' (partials); dst: 'out' (post_map), 'part' (partials) or 'fused' (partials,
    then the last block to finish combines them into the outputs with `group2` threads per output
    and `unroll2` accumulators: one launch). `rows`/`mvec`: a row tile (`_ROW_TILE`), `rows` rows
    of `group` lanes x `mvec` 16-byte vectors per group of lanes; 0: the one-pass skeleton.
    `ovec`: output vectors (`_OUT_VEC`), `ovec` adjacent outputs a thread, one partial a block.
    `accs`: accumulator sets of an output-vector thread when fewer than its `unroll` loads a round
    (`ReductionDef.wide`; a folded plan's wide accumulators: 1, or 2 past `_FOLD_WIDE_SETS_FROM`); 0: one a
    load. `fold`: folded output vectors (`_OUT_FOLD`), `fold` rows of
    `ovec / fold` outputs a 16-byte vector of `ovec` lanes; 0: none."""

    src: str
    dst: str
    group: int
    unroll: int
    vec: int
    out_ndim: int
    red_ndim: int
    index_t: type
    group2: int = 0
    unroll2: int = 0
    sub: int = 1
    rows: int = 0
    mvec: int = 0
    ovec: int = 0
    fold: int = 0
    accs: int = 0


class Plan:
    """How one reduction runs (pure data; see `plan`)."""

    __slots__ = ("n_out", "n_red", "out_dims", "out_strides", "red_dims", "red_strides", "group",
                 "unroll", "vec", "split", "chunk", "grid_x", "index_t", "group2", "grid2", "unroll2", "fused",
                 "sub", "rows", "mvec", "ovec", "accs", "fold")

    @property
    def parts(self) -> int:
        """Partials per output: one per chunk (blockIdx.y) and sub-chunk (one per chunk with output
        vectors: the block combines its sub-chunks)."""
        return self.split * (1 if self.ovec else self.sub)

    def __repr__(self):
        return "Plan(" + ", ".join("{}={!r}".format(k, getattr(self, k)) for k in self.__slots__) + ")"

    @property
    def strategy(self) -> str:
        """A name for tests and docs: 'full', 'rows' (warp/block per output), 'cols' (thread per output)."""
        if self.n_out == 1 and self.group > 1:
            return "full"
        return "cols" if self.group == 1 else "rows"


def _collapse_ordered(shape, strides_list):
    """Collapse neighbouring axes in their given (logical C) order only; drop length-1 axes.

    Not `shapes.collapse_dims(..., keep_order=True)`: that one maps any size-0 shape to (0,),
    while the planner keeps the zero-length axes of an empty reduced part as they are."""
    dims, out = [], [[] for _ in strides_list]
    for i, d in enumerate(shape):
        if d == 1:
            continue
        if dims and all(o[-1] == s[i] * d for o, s in zip(out, strides_list)):
            dims[-1] *= d
            for o, s in zip(out, strides_list):
                o[-1] = s[i]
        else:
            dims.append(d)
            for o, s in zip(out, strides_list):
                o.append(s[i])
    return tuple(dims), tuple(map(tuple, out))


def plan(shape, in_strides, in_itemsizes, y_strides, raxes, *, aligned=None, keep_order=False,
         sm_count=132, allow_vec=True, allow_fuse=None, acc_size=4, wide=False) -> Plan:
    """Plan the reduction of arrays of `shape` (strides `in_strides`, one tuple per input, already
    broadcast to `shape`) over the axes `raxes` into an output with byte strides `y_strides` over
    the kept axes. `aligned[k]`: input k's pointer is 16-byte aligned. `keep_order`: the reduced
    index `_j` must be the C-order flat index over the reduced axes (arg reductions).
    `allow_fuse` (default: the module's FUSE): a split whose second pass is small runs in one
    launch (`Plan.fused`). `acc_size`: bytes of the accumulator (bounds output vectors' unroll, or
    with `wide` their accumulator sets: `ReductionDef.wide`)."""
    nd = len(shape)
    rset = set(raxes)
    kaxes = [i for i in range(nd) if i not in rset]
    raxes = sorted(rset)
    kshape = tuple(shape[i] for i in kaxes)
    rshape = tuple(shape[i] for i in raxes)
    p = Plan()
    p.n_out = math.prod(kshape)
    p.n_red = math.prod(rshape)
    n_in = len(in_strides)
    if p.n_out == 0:
        p.out_dims, p.out_strides = (0,), ((0,),) * (n_in + 1)
    else:
        ks = (tuple(y_strides),) + tuple(tuple(s[i] for i in kaxes) for s in in_strides)
        p.out_dims, p.out_strides = _shapes.collapse_dims(kshape, ks)
    rs = tuple(tuple(s[i] for i in raxes) for s in in_strides)
    if p.n_red == 0:
        p.red_dims, p.red_strides = (), ((),) * n_in
    elif keep_order:
        p.red_dims, p.red_strides = _collapse_ordered(rshape, rs)
    else:
        p.red_dims, p.red_strides = _shapes.collapse_dims(rshape, rs)
    _choose(p, in_itemsizes, aligned, sm_count, allow_vec, FUSE if allow_fuse is None else allow_fuse, acc_size,
            wide)
    return p


def _choose(p: Plan, itemsizes, aligned, sm_count, allow_vec, allow_fuse=True, acc_size=4, wide=False) -> None:
    n_out, n_red = p.n_out, p.n_red
    main = 0
    s_red = abs(p.red_strides[main][-1]) if p.red_dims else 0
    s_out = min((abs(s) for s, d in zip(p.out_strides[1 + main], p.out_dims) if d > 1), default=None)
    short_row = False  # a row of adjacent elements too short for a block
    if n_red <= 1 or n_out == 0:
        group = 1
    elif s_out is not None and s_out < s_red and s_out <= 16:
        group = 1  # a kept axis is the fast one: thread per output, coalesced over outputs
    elif n_red < _WARP_ROW and n_out > 1:
        group, short_row = 1, True
    elif n_red >= _BLOCK_ROW or n_out == 1:
        group = BLOCK
    else:
        group, short_row = 32, True
    vec = 1
    v = _vec_width(p, itemsizes, aligned) if allow_vec and (group > 1 or short_row) else 1
    if v > 1 and short_row and _LANE_VECS and n_red >= v:
        # Aligned short rows: a group of 1-32 lanes (a power of two) per row, _LANE_VECS 16-byte
        # loads per lane (a warp reads 512 contiguous bytes per load instruction).
        group = min(32, 1 << (n_red // (v * _LANE_VECS)).bit_length() - 1 if n_red >= v * _LANE_VECS else 1)
        vec = v
    elif v > 1 and group > 1 and n_red >= v * group:
        vec = v
    unroll = _UNROLL_COLS if group == 1 else _UNROLL_ROWS
    if _SHORT_UNROLL and group == 1 and vec == 1 and 1 < n_red < unroll:
        unroll = n_red  # the whole row in one unrolled round: all its loads in flight at once
    sub = 1
    if group == 1 and 0 < n_out <= BLOCK // 2 and n_red >= _SUB_MIN_RED:
        sub = 1 << ((BLOCK // n_out).bit_length() - 1)
        if _UNROLL_SUB:
            unroll = _UNROLL_SUB
    ovec = _passes.out_vec_width(p, itemsizes, aligned) if sub > 1 and allow_vec and _OUT_VEC else 1
    accs = fold = 0
    if ovec > 1 and n_out % ovec == 0 and n_out // ovec <= 32:
        sub = 1 << ((BLOCK // (n_out // ovec)).bit_length() - 1)
        unroll = max(1, min(_UNROLL_COLS, 128 // (ovec * acc_size)))
        if wide and unroll < _UNROLL_COLS:
            # Wide accumulators (var's moments): as many loads in flight as a sum's, folded into
            # the sets that fit (a float32 var: 8 loads a round into 2 sets, not 2 loads into 2),
            # or into `wide` sets when it is a number (2-8: var's "welford-wide4/8" methods).
            unroll, accs = _UNROLL_COLS, (unroll if wide is True else max(1, min(int(wide), _UNROLL_COLS)))
    else:
        ovec = 0
        fold = _passes.out_fold_width(p, itemsizes, aligned, _OUT_FOLD) if sub > 1 and allow_vec and _OUT_VEC else 1
        if fold > 1:
            # Folded output vectors: one vector of outputs (F rows), so 256 sub-chunks a block; a
            # sum's 8 loads a round into the accumulator sets that fit 128 bytes (each lane at
            # least a 4-byte register: int8 max keeps 2 sets of 16, not 8). Accumulators of
            # several fields (var's moments, argmax's pairs) keep one set: with two, ptxas issued
            # a float32 var's round as 5 loads, the steps of the first, then 3 (sm_90 SASS); with
            # one, 8 back to back (64 registers either way). One set of 128 bytes (16 int8 lanes
            # summed in int64) takes 4 loads a round: with 8, ptxas issued them 2 at a time.
            ovec, sub = 16 // itemsizes[0], BLOCK
            unroll = _UNROLL_COLS // 2 if acc_size <= 8 and ovec * max(4, acc_size) >= 128 else _UNROLL_COLS
            sets = max(1, min(unroll, 128 // (ovec * max(4, acc_size)))) if acc_size <= 8 else 1
            if wide and wide is not True:
                sets = max(1, min(int(wide), unroll))
            accs = sets if sets < unroll else 0
        else:
            fold = 0
    rows = mvec = 0
    nv = n_red // vec  # 16-byte vectors a row
    if _ROW_TILE and short_row and vec > 1 and len(p.red_dims) == 1 and nv * vec == n_red and nv % group == 0 \
            and nv // group <= 8:
        mvec = nv // group  # the lane group as above; each lane's share of the row exact
        rows = max(1, _ROW_TILE // mvec)
        # but no fewer than ~2 blocks an SM where the rows allow (the EM step's 4e5 rows: 4, not 8)
        fill = n_out // (BLOCK // group * 2 * sm_count)
        rows = min(rows, 1 << max(0, fill.bit_length() - 1))
    p.group, p.vec, p.unroll, p.sub, p.rows, p.mvec, p.ovec = group, vec, unroll, sub, rows, mvec, ovec
    p.accs, p.fold = accs, fold
    gpb = n_out if fold else BLOCK // group // sub * max(rows, 1) * max(ovec, 1)
    blocks_x = -(-n_out // gpb) if n_out else 0
    target = sm_count * (_FOLD_WIDE_BLOCKS_PER_SM if fold and acc_size > 8 else _BLOCKS_PER_SM)
    split = 1
    # The reduced index a chunk counts: rows, or whole vectors of `fold` rows (the kernel reads the
    # rows past the last whole vector itself).
    n_idx = n_red // fold if fold else n_red
    if n_idx > 0 and blocks_x and not rows:  # a row tile reads whole rows: never split
        step = group * unroll * vec * sub  # elements one unrolled iteration of a group covers
        if blocks_x < target:
            split = -(-target // blocks_x)
        if sub > 1:
            split = min(split, max(1, _SUB_PARTS // (n_out * (1 if ovec else sub))))
        split = max(split, -(-n_idx // (group * sub * unroll * _MAX_CHAIN)))
        split = min(split, -(-n_idx // ((_FOLD_ROUNDS if fold else 2) * step)), _MAX_SPLIT)
        split = max(split, 1)
    if split > 1:
        step = group * unroll * vec * sub
        chunk = -(-n_idx // split)
        chunk = -(-chunk // step) * step
        split = -(-n_idx // chunk)
    else:
        chunk = n_idx
    p.split, p.chunk = split, chunk
    if fold and accs == 1 and acc_size > 8 and (wide is True or not wide) and _FOLD_WIDE_SETS_FROM > 0 \
            and n_idx >= _FOLD_WIDE_SETS_FROM * max(1, sm_count) * BLOCK * unroll:
        p.accs = 2  # `_FOLD_WIDE_SETS_FROM`: a long reduced index, 2 sets of a wide accumulator
    p.grid_x = max(1, min(blocks_x, _MAX_GRID_X))
    # Second pass over the partials: [chunk][out] for thread-per-output (coalesced over outputs),
    # [out][chunk] otherwise (sub-chunked plans too: few outputs, many partials each).
    parts = p.parts
    if parts > 1:
        if group == 1 and sub == 1:
            p.group2 = 1
        elif n_out == 1 or parts >= _BLOCK_ROW:
            p.group2 = BLOCK
        else:
            p.group2 = 32 if parts >= _WARP_ROW else 1
        p.unroll2 = _UNROLL_COLS if p.group2 == 1 else _UNROLL_ROWS
        p.grid2 = max(1, min(-(-n_out // (BLOCK // p.group2)), _MAX_GRID_X))
    else:
        p.group2 = p.grid2 = p.unroll2 = 0
    # One launch when one block can do the second pass about as fast as the second launch's
    # grid2 blocks: the rounds (of up to unroll2 loads per thread) it makes beyond those of one of
    # them are at most _FUSE_STEPS. grid2 == 1 is always fused.
    p.fused = False
    if allow_fuse and parts > 1:
        rounds = -(-parts // (p.group2 * p.unroll2))
        p.fused = (-(-n_out // (BLOCK // p.group2)) - 1) * rounds <= _FUSE_STEPS
    # 32-bit indices when every byte offset and index product fits.
    big = n_out * max(n_red, parts) > _INT32_MAX
    if not big:
        for k in range(len(p.red_strides)):
            ext = sum((d - 1) * abs(s) for d, s in zip(p.out_dims, p.out_strides[1 + k]))
            ext += sum((d - 1) * abs(s) for d, s in zip(p.red_dims, p.red_strides[k]))
            if ext + 16 * BLOCK * unroll > _INT32_MAX:
                big = True
                break
        ext = sum((d - 1) * abs(s) for d, s in zip(p.out_dims, p.out_strides[0]))
        big = big or ext > _INT32_MAX
    p.index_t = numpy.int64 if big else numpy.int32


def _vec_width(p: Plan, itemsizes, aligned) -> int:
    """Elements per 16-byte load along the reduced index (1: none): every input that moves along it
    (one item size) has unit stride in the last reduced dim, is 16-byte aligned at every output's
    first element and, with several reduced dims (`_VEC_ND`), at the start of every run of the
    last one, whose length is then a multiple of the vector. An input broadcast over the reduced
    dims (all strides 0) reads its one element."""
    nd = len(p.red_dims)
    if nd == 0 or (nd > 1 and not _VEC_ND):
        return 1
    moving = [(isz, s) for isz, s in zip(itemsizes, p.red_strides) if any(s)]
    sizes = {isz for isz, s in moving}
    if len(sizes) != 1 or not all(s[-1] == isz for isz, s in moving):
        return 1
    v = 16 // sizes.pop()
    if v <= 1 or p.red_dims[-1] % v and nd > 1:
        return 1
    for k, s in enumerate(p.red_strides):
        if not any(s):
            continue
        if aligned is None or not aligned[k] or any(st % 16 for st in p.out_strides[1 + k] + s[:-1]):
            return 1
    return v


# --------------------------------------------------------------------------------------------


class ReductionDef:
    """A reduction over fixed parameters; caches its kernels.

    `params`: KernelParams of kind 'in' (arrays, broadcast to the input shape) and 'scalar';
    `out`: the KernelParam (kind 'out') of the result `y`; `acc_ctype`/`acc_size`: the C type of the
    accumulator and an upper bound of its size in bytes; `identity`: a C expression of that type.
    `wide`: output-vector plans keep a sum's loads in flight with fewer accumulator sets than loads
    (`Plan.accs`; var's moments, whose 16-32 byte accumulators otherwise cut a round to 1-2 loads):
    True for the sets that fit 128 bytes, or a number of sets.
    """

    __slots__ = ("name", "params", "out", "acc_ctype", "acc_size", "map_expr", "reduce_expr",
                 "identity", "post_map", "preamble", "options", "user_source", "key", "_kernels",
                 "_arrays", "step", "_launchers", "_in_first", "half", "wide")

    def __init__(self, name, params, out, acc_ctype, acc_size, map_expr, reduce_expr, identity, post_map,
                 preamble="", options=(), user_source=None, step=None, half=False, wide=False):
        self.name = kernel_identifier(name)
        # `half`: as `elementwise.Definition`'s (__half in the code with no float16 param).
        self.half = half
        self.params = tuple(params)
        self.out = out
        self.acc_ctype = acc_ctype
        self.acc_size = acc_size
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.identity = identity
        self.post_map = post_map
        self.preamble = preamble
        self.options = tuple(options)
        self.user_source = user_source
        # `step`: optional C statement folding one element into `ACC` in a thread's own (in
        # index order) loop, when cheaper than `ACC = reduce(ACC, map)`; `{acc}` marks ACC.
        self.step = step
        self.wide = wide  # a planner choice: the kernels of a plan are keyed by its Stage
        self._arrays = tuple(p for p in self.params if p.kind == "in")
        self.key = (name, tuple(p.key() for p in self.params), out.key(), acc_ctype, map_expr, reduce_expr,
                    identity, post_map, preamble, self.options, step)
        self._kernels = {}
        self._launchers = {}
        kinds = [p.kind for p in self.params]
        self._in_first = kinds == sorted(kinds)  # 'in' < 'scalar': every array before every scalar

    # -- code generation -------------------------------------------------------------------
    def _declare(self, st: Stage) -> list:
        it = "int" if st.index_t is numpy.int32 else "long long"
        decls = [p.declare() for p in self.params] + [self.out.declare()]
        decls += ["const _acc_t* __restrict__ _part_in", "_acc_t* __restrict__ _part_out"]
        names = [p.name for p in self._arrays] + [self.out.name]
        decls += ["const {} _os{}_{}".format(it, n, d) for n in names for d in range(st.out_ndim)]
        decls += ["const {} _od{}".format(it, d) for d in range(st.out_ndim)]
        decls += ["const {} _rs{}_{}".format(it, p.name, d) for p in self._arrays for d in range(st.red_ndim)]
        decls += ["const {} _rd{}".format(it, d) for d in range(st.red_ndim)]
        decls += ["const {} {}".format(it, n) for n in ("_n_out", "_n_red", "_chunk", "_pso", "_psj", "_pdo", "_pdc")]
        if st.dst == "fused":
            decls.append("unsigned int* __restrict__ _counter")
        return decls

    def kernel_name(self, st: Stage) -> str:
        src, dst, group, unroll, vec, ond, rnd, index_t, group2 = st[:9]
        parts = [self.name, "g{}".format(group), "o{}r{}".format(ond, rnd)]
        if st.sub > 1:
            parts.append("sub{}".format(st.sub))
        if st.rows:
            parts.append("tile{}x{}".format(st.rows, st.mvec))
        if st.ovec:
            parts.append("ovec{}".format(st.ovec))
        if st.fold:
            parts.append("fold{}".format(st.fold))
        if st.accs:
            parts.append("acc{}".format(st.accs))
        if vec > 1:
            parts.append("vec{}".format(vec))
        if src == "part":
            parts.append("pass2")
        elif dst == "part":
            parts.append("split")
        elif dst == "fused":
            parts.append("fused{}".format(group2))
        if index_t is numpy.int64:
            parts.append("i64")
        return "__".join(parts)

    def source(self, st: Stage) -> tuple[str, str]:
        """(kernel name, CUDA source) for one specialisation. Pure: needs no device."""
        src, dst, group, unroll, vec, ond, rnd, index_t, group2, unroll2, sub, rows, mvec, ovec, fold, accs = st
        it = "int" if index_t is numpy.int32 else "long long"
        kname = self.kernel_name(st)
        kernel_t, pass_t, finish_t, tile_t, body_t, cols_t, fold_t = _templates()
        if rows:
            pass1 = _passes.tile_pass(self, tile_t, body_t, group, mvec, rows, vec, ond, it, BLOCK)
        elif fold:
            pass1 = _passes.fold_pass(self, fold_t, "part" if dst == "fused" else dst, unroll, ovec, fold, it, BLOCK,
                                      accs)
        elif ovec:
            pass1 = _passes.cols_pass(self, cols_t, "part" if dst == "fused" else dst, unroll, ovec, sub, it, BLOCK,
                                      accs)
        else:
            pass1 = self._pass(pass_t, src, "part" if dst == "fused" else dst, group, unroll, vec, ond, rnd, it, sub)
        finish = ""
        if dst == "fused":
            finish = finish_t.substitute(pass2=self._pass(pass_t, "fused", "out", group2, unroll2, 1, ond, rnd, it,
                                                          1, parts_per_block=1 if ovec else sub))
        includes = []
        if self.half or any(p.dtype.char == "e" or p.compute.char == "e" for p in self.params + (self.out,)):
            includes += ["#define CUARRAY_HAS_HALF 1", "#include <cuda_fp16.h>"]
        includes += ['#include "cuarray/common.cuh"', '#include "cuarray/ops.cuh"']
        if any(p.dtype.kind in "Mm" for p in self.params + (self.out,)):
            includes.append(_datetimes.HEADER)
        fields = dict(
            includes="\n".join(includes), preamble=self.preamble, acc_t=self.acc_ctype, block=BLOCK, name=kname,
            params=",\n    ".join(self._declare(st)), index_t=it, reduce_expr=self.reduce_expr, pass1=pass1,
            finish=finish,
        )
        return kname, kernel_t.substitute(fields)

    def _pass(self, pass_t, src, dst, group, unroll, vec, ond, rnd, it, sub=1, parts_per_block=1) -> str:
        """One pass of the skeleton: `src` 'map' (inputs), 'part' (partials of an earlier launch)
        or 'fused' (partials of this launch's other blocks, `parts_per_block` from each block);
        `dst` 'out' or 'part'; `sub` sub-chunks per block (a partial each)."""
        subwarp = 1 < group < 32  # several groups per warp: see the template's <o_cond>
        out_indexer = "\n      ".join(_passes.out_indexer(self, ond, it, subwarp))
        red, load = [], []
        step = None
        if src == "map":
            if rnd > 1:
                red.append("{} _p = _j;".format(it))
                for d in range(rnd - 1, 0, -1):
                    red.append("const {t} _m{d} = _p % _rd{d}; _p /= _rd{d};".format(t=it, d=d))
                red.append("const {} _m0 = _p;".format(it))
            for p in self._arrays:
                if rnd == 1:
                    red.append("const {t} _off_{n} = _ob_{n} + _j * _rs{n}_0;".format(t=it, n=p.name))
                else:
                    terms = "".join(" + _m{d} * _rs{n}_{d}".format(d=d, n=p.name) for d in range(rnd))
                    red.append("const {} _off_{n} = _ob_{n}{};".format(it, terms, n=p.name))
                load.append(self._load(p, "_off_" + p.name))
            mapped = self.map_expr
            step = self.step
        elif src == "part":
            mapped = "_part_in[_o * _pso + _j * _psj]"
        else:
            mapped = "cuarray::load_cg(_part_out + (_o * _pdo + _j * _pdc))"
        if step is None:
            # `mapped` may hold braces (T{...}): escape them for the .format(acc=...) below.
            step = "{acc} = _reduce({acc}, (%s));" % mapped.replace("{", "{{").replace("}", "}}")
        vload, lane_load = [], []
        if vec > 1:
            last = rnd - 1
            if rnd > 1:
                # Vector _jvu of a reduced index over several dims, the last one contiguous and a
                # multiple of `vec` long (planner): its position in the other dims, then bytes.
                vload.append("{} _pv = _jvu;".format(it))
                vload.append("const {t} _mv{d} = _pv % (_rd{d} / {v}); _pv /= _rd{d} / {v};".format(
                    t=it, d=last, v=vec))
                for d in range(last - 1, 0, -1):
                    vload.append("const {t} _mv{d} = _pv % _rd{d}; _pv /= _rd{d};".format(t=it, d=d))
                vload.append("const {} _mv0 = _pv;".format(it))
            for p in self._arrays:
                # Arrays with reduced stride 0 (broadcast along the row) read their one element.
                vt = "cuarray::vec<{}, {}>".format(_dtypes.ctype(p.dtype), vec)
                b = vec * p.dtype.itemsize
                if rnd > 1:
                    off = "_ob_{n}".format(n=p.name) + "".join(
                        " + _mv{d} * _rs{n}_{d}".format(d=d, n=p.name) for d in range(last)) + " + _mv{} * {}".format(
                        last, b)
                else:
                    off = "_ob_{n} + _jvu * {b}".format(n=p.name, b=b)
                vload.append(
                    "const {vt} _v{n} = _rs{n}_{l} ? *(const {vt}*)((const char*){n}_ptr + {off}) : {vt}();"
                    .format(vt=vt, n=p.name, l=last, off=off))
                lane_load.append("const {ct} {n} = _rs{n}_{l} ? cuarray::cast<{ct}>(_v{n}.v[_k]) : cuarray::cast<{ct}>("
                                 "*(const {st}*)((const char*){n}_ptr + _ob_{n}));".format(
                                     ct=compute_ctype(p.compute), n=p.name, st=_dtypes.ctype(p.dtype), l=last))
        if dst == "out":
            store = "{t}& {n} = *({t}*)((char*){n}_ptr + _ob_{n});\n        const _acc_t a = _t;\n        {pm};".format(
                t=_dtypes.ctype(self.out.dtype), n=self.out.name, pm=self.post_map)
        elif sub > 1:
            store = "_part_out[_o * _pdo + ((long long)blockIdx.y * {} + _lane) * _pdc] = _t;".format(sub)
        else:
            store = "_part_out[_o * _pdo + (long long)blockIdx.y * _pdc] = _t;"
        if subwarp:
            store = "if (_o < _n_out) {\n          " + store + "\n        }"
        if src == "fused":  # one block walks every output and the whole reduced index (the chunks)
            r0, r1, o0, ostep = "0", "({})gridDim.y * {}".format(it, parts_per_block), "0", "1"
        else:
            r0, r1 = "({})blockIdx.y * _chunk".format(it), "min(_r0 + _chunk, _n_red)"
            o0, ostep = "({})blockIdx.x".format(it), "({})gridDim.x".format(it)
        fields = dict(
            block=BLOCK, index_t=it, group=group, unroll=unroll, out_indexer=out_indexer, identity=self.identity,
            vec=vec, vload="\n            ".join(vload), lane_load="\n              ".join(lane_load),
            red_indexer="\n          ".join(red), load="\n          ".join(load), store=store,
            step_u=step.format(acc="_acc[_u]"), step_0=step.format(acc="_acc[0]"), r0=r0, r1=r1, o0=o0, ostep=ostep,
            sub=sub,
            o_cond="_o - (int)((threadIdx.x & 31) / _G) < _n_out" if subwarp else "_o < _n_out",
        )
        return pass_t.substitute(fields)

    @staticmethod
    def _load(p, off) -> str:
        ct = compute_ctype(p.compute)
        return "const {ct} {n} = cuarray::cast<{ct}>(*(const {st}*)((const char*){n}_ptr + {off}));".format(
            ct=ct, n=p.name, st=_dtypes.ctype(p.dtype), off=off)

    def _kernel(self, st: Stage):
        kern = self._kernels.get(st)
        if kern is None:
            kern = _shared_kernels.get((self.key, st))
            if kern is None:
                kname, src = self.source(st)
                module = _compiler.compile_module(src, options=self.options, user_source=self.user_source, name=kname)
                kern = module.get_function(kname).kernel
                _shared_kernels[(self.key, st)] = kern
            self._kernels[st] = kern
        return kern

    def stages(self, p: Plan) -> list:
        """The (Stage, grid, role) launches a plan makes, in order."""
        ond, rnd = len(p.out_dims), len(p.red_dims)
        if p.ovec:  # output vectors: the sub-chunk count and unroll are the kernel's
            if p.parts == 1:
                return [(Stage("map", "out", 1, p.unroll, 1, ond, rnd, p.index_t, sub=p.sub, ovec=p.ovec,
                               accs=p.accs, fold=p.fold), (p.grid_x, 1), "only")]
            if p.fused:
                return [(Stage("map", "fused", 1, p.unroll, 1, ond, rnd, p.index_t, p.group2, p.unroll2, p.sub,
                               ovec=p.ovec, accs=p.accs, fold=p.fold), (p.grid_x, p.split), "fused")]
        if p.parts == 1:
            if p.rows:
                return [(Stage("map", "out", p.group, 1, p.vec, ond, rnd, p.index_t, rows=p.rows, mvec=p.mvec),
                         (p.grid_x, 1), "only")]
            return [(Stage("map", "out", p.group, p.unroll, p.vec, ond, rnd, p.index_t), (p.grid_x, 1), "only")]
        if p.fused:
            return [(Stage("map", "fused", p.group, p.unroll, p.vec, ond, rnd, p.index_t, p.group2, p.unroll2, p.sub),
                     (p.grid_x, p.split), "fused")]
        return [(Stage("map", "part", p.group, p.unroll, p.vec, ond, rnd, p.index_t, sub=p.sub, ovec=p.ovec,
                       accs=p.accs, fold=p.fold), (p.grid_x, p.split), "first"),
                (Stage("part", "out", p.group2, p.unroll2, 1, ond, rnd, p.index_t), (p.grid2, 1), "second")]

    # -- launch ----------------------------------------------------------------------------
    def run(self, shape, arrays, scalars, y, raxes, keep_order=False) -> None:
        """Reduce `arrays` (ndarrays for the 'in' params, each broadcastable to `shape`) over
        `raxes` into `y` (shape: `shape` without `raxes`). `scalars`: C-typed values in order."""
        if _device_check.active[0]:
            _device_check.check(arrays)
            _device_check.check((y,))
        launcher = self.launcher(shape, arrays, y._strides, raxes, keep_order)
        if self._in_first:
            head = tuple(a.data.ptr for a in arrays) + tuple(scalars)
        else:
            head, ia, isc = [], 0, 0
            for prm in self.params:
                if prm.kind == "scalar":
                    head.append(scalars[isc])
                    isc += 1
                else:
                    head.append(arrays[ia].data.ptr)
                    ia += 1
        launcher(tuple(head), y.data.ptr)

    def launcher(self, shape, arrays, y_strides, raxes, keep_order=False):
        """The prepared launch(es) of this reduction for arrays laid out like `arrays` (shape and
        strides, 16-byte alignment of their pointers) and an output of byte strides `y_strides`
        over the kept axes, on the current device: a `_Launcher`, planned and compiled once per key."""
        in_strides = []
        for a in arrays:
            st = a._strides if a._shape == shape else _shapes.broadcast_to_strides(a._shape, a._strides, shape)
            in_strides.append(st)
        aligned = tuple(a.data.ptr % 16 == 0 for a in arrays)
        dev = _device.get_device_id()
        key = (shape, tuple(in_strides), y_strides, tuple(raxes), aligned, keep_order, dev, FUSE)
        lau = self._launchers.get(key)
        if lau is None:
            if len(self._launchers) > 1024:
                self._launchers.clear()
            p = plan(shape, in_strides, tuple(a._dtype.itemsize for a in arrays), y_strides, raxes,
                     aligned=aligned, keep_order=keep_order, sm_count=_device._sm_count(dev), acc_size=self.acc_size,
                     wide=self.wide)
            lau = self._launchers[key] = self._prepare(p)
        return lau

    def _prepare(self, p: Plan):
        if p.n_out == 0:
            return _no_launch
        lau = _Launcher()
        lau.plan = p
        lau.steps = tuple((self._kernel(st), _launch.launch_config(grid, BLOCK), self._tail(st, p, role))
                          for st, grid, role in self.stages(p))
        lau.part_bytes = p.n_out * p.parts * self.acc_size if p.parts > 1 else 0
        lau.fused = p.fused
        return lau

    def _tail(self, st, p: Plan, role) -> tuple:
        """The kernel arguments after (inputs and scalars, y, part_in, part_out): strides, sizes."""
        it = st.index_t
        out = []
        ostr = p.out_strides[1:] + p.out_strides[:1]  # inputs, then y
        for s in ostr:
            out.extend(it(v) for v in s)
        out.extend(it(d) for d in p.out_dims)
        for s in p.red_strides:
            out.extend(it(v) for v in s)
        out.extend(it(d) for d in p.red_dims)
        if p.group == 1 and p.sub == 1:  # partials laid out [chunk][out]
            pdo, pdc = 1, p.n_out
        else:  # [out][chunk]
            pdo, pdc = p.parts, 1
        if role == "second":
            n_red = chunk = p.parts
        else:
            n_red, chunk = p.n_red, p.chunk
        out += [it(p.n_out), it(n_red), it(chunk), it(pdo), it(pdc), it(pdo), it(pdc)]
        return tuple(out)


class _Launcher:
    """A plan made ready to launch: per launch the compiled kernel, its LaunchConfig and the
    arguments after the pointers (`tail`), plus the size of the partials buffer. Called with the
    leading arguments (input pointers and scalars, in parameter order) and the output's pointer;
    does one allocation when the plan splits, and one or two launches on the current stream."""

    __slots__ = ("plan", "steps", "part_bytes", "fused")

    def __call__(self, head, y_ptr) -> None:
        stream = _stream.get_current_stream()
        cs = _stream.core_stream(stream)
        fn = _launch.enqueue  # cuda.core's launch, or the launch hook's wrapper
        steps = self.steps
        nbytes = self.part_bytes
        if not nbytes:
            kern, cfg, tail = steps[0]
            fn(cs, cfg, kern, *head, y_ptr, 0, 0, *tail)
            return
        if self.fused:
            ws = _stream_workspace(stream, nbytes)
            kern, cfg, tail = steps[0]
            fn(cs, cfg, kern, *head, y_ptr, 0, ws[1], *tail, ws[0])
            return
        part = _memory.alloc(nbytes)  # freed in stream order when this returns
        pptr = part.ptr
        (k1, c1, t1), (k2, c2, t2) = steps
        fn(cs, c1, k1, *head, y_ptr, 0, pptr, *t1)
        fn(cs, c2, k2, *head, y_ptr, pptr, 0, *t2)


def _no_launch(head, y_ptr) -> None:
    """The launcher of an empty output."""


# The fused kernels' workspace, per (device, stream): (counter pointer, partials pointer, partials
# bytes, partials MemoryPointer). The counter (the "last block done" test) is a 4-byte word, zero
# between kernels (the last block resets it), never freed. The partials are only used inside one
# kernel. Kernels of one stream run one after the other, so they share both; kernels of other
# streams have their own. A stream keeps its workspace (a few KiB) for the life of the process.
_workspaces: dict = {}
_counter_slabs: dict = {}  # device -> [MemoryPointer of _SLAB words, next free word]
_SLAB = 1024


_workspace_lock = threading.Lock()


def _stream_workspace(stream, nbytes: int) -> tuple:
    """The workspace of the current device and `stream`, with partials of at least `nbytes`."""
    sptr = stream.ptr
    if sptr == 2:  # the per-thread default stream is another stream in each thread
        sptr = _stream.ptds_pool_key()
    ws = _workspaces.get((_device.get_device_id(), sptr))
    if ws is None or ws[2] < nbytes:
        ws = _workspace(sptr, nbytes)
    return ws


def stream_workspace(stream) -> tuple:
    """`stream`'s workspace on the current device, made if it has none: (counter pointer,
    partials pointer, partials bytes, partials memory). A CUDA-graph capture (fusion/graph_replay.py)
    makes it before capturing (making it synchronises) and holds the memory its graph's kernels use."""
    return _stream_workspace(stream, 1)


def one_launch_workspace(nbytes: int) -> tuple:
    """(counter pointer, partials pointer) of the current stream's workspace, for a kernel of
    another module that finishes its own reduction the way the fused plans do: every block writes
    its partial (at most `nbytes` in all), the last block to finish combines them and sets the
    counter back to zero."""
    ws = _stream_workspace(_stream.get_current_stream(), nbytes)
    return ws[0], ws[1]


def _workspace(stream_ptr: int, nbytes: int) -> tuple:
    """The workspace of the current device and stream `stream_ptr` (the pool's key of the stream:
    per thread for the per-thread default stream), with partials of at least `nbytes` (a larger one
    replaces the old, freed in stream order). Under a lock: two streams' first fused reductions at
    once, from two threads, must not be given the same counter word."""
    key = (_device.get_device_id(), stream_ptr)
    with _workspace_lock:
        ws = _workspaces.get(key)
        counter = _new_counter(key[0]) if ws is None else ws[0]
        if ws is None or ws[2] < nbytes:
            size = max(4096, 1 << (nbytes - 1).bit_length())
            mem = _memory.alloc(size)
            ws = _workspaces[key] = (counter, mem.ptr, size, mem)
    return ws


def _new_counter(dev: int) -> int:
    slab = _counter_slabs.get(dev)
    if slab is None or slab[1] == _SLAB:
        mem = _memory.alloc(_SLAB * 4)
        mem.memset(0, _SLAB * 4)
        _device.synchronize()  # zero before any stream's kernel reads it
        slab = _counter_slabs[dev] = [mem, 0]
    ptr = slab[0].ptr + 4 * slab[1]
    slab[1] += 1
    return ptr


_shared_kernels: dict = {}
_template_parts: tuple = ()


def _templates():
    """reduction.cu split at its `// @@` lines: (kernel, one pass, fused finish, row tile, row tile's body,
    output vectors, folded output vectors) Templates. Built
    whole, then published by one assignment: threads racing on the first reduction each see three
    parts (filling a shared list in place gave a second thread six)."""
    global _template_parts
    if not _template_parts:
        text = _skeleton("reduction.cu").template
        pieces, cur = [], []
        for line in text.splitlines(keepends=True):
            if line.startswith("// @@"):
                pieces.append("".join(cur))
                cur = []
            else:
                cur.append(line)
        pieces.append("".join(cur))
        _template_parts = tuple(string.Template(t) for t in pieces)
    return _template_parts
