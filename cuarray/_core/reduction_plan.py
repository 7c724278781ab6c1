"""The reduction planner: pure functions of shapes, strides, item sizes, alignment and the SM count
that say how `ReductionDef` runs a reduction (`plan` -> `Plan`; the kernels a plan needs are keyed by
`Stage`). Nothing here touches the device; tests/_core/test_reduction_plan.py checks its decisions
at the boundary shapes.

The strategy (`_layout`, then `_split`): where the input's smallest stride lies picks a thread, a
lane group, a warp or a block per output (`_WARP_ROW`, `_BLOCK_ROW`), 16-byte vector loads when
aligned (`_LANE_VECS`, `_VEC_ND`), row tiles (`_ROW_TILE`), sub-chunks and output vectors for few
outputs along a fast kept axis (`_SUB_PARTS`, `_SUB_MIN_RED`, `_UNROLL_SUB`, `_OUT_VEC`, `_OUT_FOLD`),
then how far the reduced index is split over blockIdx.y (`_BLOCKS_PER_SM`, `_MAX_CHAIN`,
`_FOLD_ROUNDS`, `_FOLD_WIDE_BLOCKS_PER_SM`) and whether the second pass is fused (`_FUSE_STEPS`).

The tuning constants, in one table (each one's measurements are in the comment at its definition
below; scripts/perf/shapes_sweep.py --set NAME=v1,v2 and scripts/perf/kept_fold.py sweep them on a
device; tests and sweeps change them on this module):

======================== ======= ==========================================================================
constant                 value   what it decides
======================== ======= ==========================================================================
BLOCK                    256     threads a block (every reduction kernel)
_BLOCKS_PER_SM           16      blocks an SM a split aims for when the outputs alone do not fill the GPU
_BLOCK_ROW               4096    reduced elements from which an output takes a whole block (else a warp)
_WARP_ROW                64      reduced elements from which adjacent elements take a warp (else a thread)
_MAX_CHAIN               2048    elements one accumulator takes before the index is split (rounding chain)
_MAX_SPLIT               65535   chunks at most (grid.y)
_UNROLL_COLS             8       accumulators (loads in flight) of a thread walking a column
_UNROLL_ROWS             8       16-byte loads in flight a lane of a row group
_MAX_GRID_X              2**20   blocks along x at most (the kernels stride past it)
_FUSE_STEPS              4       extra loop rounds one block may take to fuse the second pass
FUSE                     True    fused second passes at all
_SUB_PARTS               65536   partials at most of a sub-chunked plan (few outputs, fast kept axis)
_SUB_MIN_RED             4096    reduced elements from which few outputs take sub-chunks
_LANE_VECS               2       16-byte loads a lane of a short row's lane group (0: off)
_SHORT_UNROLL            1       walks shorter than _UNROLL_COLS unrolled by their length (0: off)
_VEC_ND                  1       16-byte loads over several reduced dims (0: off)
_ROW_TILE                8       16-byte loads a lane of a row tile over several short rows (0: off)
_UNROLL_SUB              16      accumulators a thread of a scalar sub-chunked plan
_OUT_VEC                 1       output vectors: 16 bytes of adjacent outputs a thread (0: off)
_OUT_FOLD                8       largest fold of 2-8 byte kept rows into one 16-byte vector (0: off)
_FOLD_ROUNDS             2       fewest load rounds a thread of a folded plan before more chunks
_FOLD_WIDE_BLOCKS_PER_SM 2       _BLOCKS_PER_SM of folded plans with accumulators over 8 bytes
_FOLD_WIDE_SETS_FROM     0       load rounds an SM from which wide folded accumulators take 2 sets (0: never)
======================== ======= ==========================================================================
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

from . import reduction_passes as _passes
from . import shapes as _shapes

__all__ = ["BLOCK", "Plan", "Stage", "plan"]

# 32-bit index arithmetic below this (elementwise._INT32_MAX: offsets stay clear of the sign bit)
_INT32_MAX = 2**30 - 1

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
# (CuPy 34.7); docs/perf-notes.md, "Reductions over short axes: row tiles and output vectors".
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
    """Fill `p`'s strategy: the layout of a block's threads over outputs and reduced elements
    (`_layout`), then the split of the reduced index, the second pass and the index type (`_split`)."""
    _layout(p, itemsizes, aligned, sm_count, allow_vec, acc_size, wide)
    _split(p, sm_count, allow_fuse, acc_size, wide)


def _layout(p: Plan, itemsizes, aligned, sm_count, allow_vec, acc_size, wide) -> None:
    """group, vec, unroll, sub, rows, mvec, ovec, accs and fold of `p`."""
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


def _split(p: Plan, sm_count, allow_fuse, acc_size, wide) -> None:
    """split, chunk, grid_x, the second pass (group2, unroll2, grid2, fused) and index_t of `p`,
    whose layout `_layout` set."""
    n_out, n_red = p.n_out, p.n_red
    group, vec, unroll, sub, rows, ovec, accs, fold = p.group, p.vec, p.unroll, p.sub, p.rows, p.ovec, p.accs, p.fold
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
