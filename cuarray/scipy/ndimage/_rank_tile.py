"""The small-footprint rank filter (templates/rank_tile.cu): when the footprint has at most
`max_taps` true elements and spans at most three axes, a block stages its input tile in shared
memory and each thread runs a selection network (_rank_network) over its window in registers.
`plan` says whether a call qualifies; `_filter_kernels.rank` runs the general kernel otherwise.

Why this shape: the per-thread quickselect of the general kernel keeps its window in local
memory and branches on the data; here the window's size, its offsets in the tile and the network
are compile-time constants, so the gather is one shared load per tap and the selection is
straight-line min/max code. The footprint (taps) and the rank are baked into the source: one
compile (disk-cached) per footprint, origin and rank, as CuPy does for its rank kernels.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

from ..._core import dtypes as _dtypes
from ..._core.ndarray import ndarray
from ...cuda import caches as _caches
from ...cuda.kernel_family import KernelFamily
from ...cuda.limits import shared_per_block
from . import _rank_network
from ._filter_kernels import _DIR, _FILTER_KERNELS, _contiguous, _scalar
from ._filter_kernels import source as _filters_source

__all__ = ["Plan", "Pairing", "max_taps", "plan", "pairing", "tile_offset", "kernel_name", "source", "rank_tile"]

# Register budget (ptxas -v for sm_90, 256 threads a block; scripts/perf/rank_tile_registers.py):
# the window lives in registers. Up to 64 taps of 1-, 2- and 4-byte types and 49 of 8-byte ones
# ptxas fits in 27-128 registers, with at most ~32 bytes of spill for some ranks (its own choice
# of a 64- or 128-register budget; L1-resident, a few loads against hundreds of min/max); past that
# the general kernel. docs/perf-notes.md, "Rank filters over small footprints".
_MAX_TAPS = {1: 64, 2: 64, 4: 64, 8: 49}
_MAX_GRID_YZ = 65535


class Plan(NamedTuple):
    """The array seen as (pre, depth, mid0, rows, mid, cols, post) with the footprint in the
    (depth, rows, cols) space (depth 1 for footprints over one or two axes); taps (dz, dy, dx) in
    footprint C order; the block (bw x bh threads, rpt outputs each down a column, one depth) and
    its tile (sd x sh x sw, starting at offsets (oz, oy, ox) from the block's first output)."""
    pre: int
    depth: int
    mid0: int
    rows: int
    mid: int
    cols: int
    post: int
    taps: tuple
    bw: int
    bh: int
    rpt: int
    oz: int
    oy: int
    ox: int
    sd: int
    sh: int
    sw: int


def max_taps(itemsize: int) -> int:
    return _MAX_TAPS[itemsize]


def plan(shape, footprint: numpy.ndarray, origins, itemsize: int):
    """The Plan for a rank filter over `footprint` (ndim == len(shape)), or None when the general
    kernel must run it (too many taps, more than three axes spanned, a tile past 48 KiB)."""
    fp = numpy.ascontiguousarray(footprint, dtype=bool)
    return _plan(tuple(int(s) for s in shape), fp.shape, fp.tobytes(), tuple(int(o) for o in origins), itemsize)


@_caches.memo("ndimage rank filter plans", maxsize=256)
def _plan(shape, fshape, fbytes, origins, itemsize):
    """plan() on hashable arguments (24 us a call uncached, a look-up cached)."""
    footprint = numpy.frombuffer(fbytes, dtype=bool).reshape(fshape)
    nnz = int(numpy.count_nonzero(footprint))
    if nnz < 2 or nnz > _MAX_TAPS[itemsize] or len(shape) == 0:
        return None
    active = [d for d in range(len(shape)) if footprint.shape[d] > 1]
    z = None
    if len(active) > 3:
        return None
    if len(active) == 3:
        z, p, q = active
    elif len(active) == 2:
        p, q = active
    elif active[0] > 0:
        p, q = active[0] - 1, active[0]
    elif len(shape) > 1:
        p, q = 0, 1
    else:
        p, q = None, 0
    pos = numpy.argwhere(footprint)
    center = [s // 2 + o for s, o in zip(footprint.shape, origins)]

    def offsets(axis):
        return [0] * nnz if axis is None else [int(v) - center[axis] for v in pos[:, axis]]

    dzs, dys, dxs = offsets(z), offsets(p), offsets(q)
    if p is None:
        pre, depth, mid0, rows, mid = 1, 1, 1, 1, math.prod(shape[:q])
    else:
        first = p if z is None else z
        pre, rows, mid = math.prod(shape[:first]), shape[p], math.prod(shape[p + 1:q])
        depth, mid0 = (1, 1) if z is None else (shape[z], math.prod(shape[z + 1:p]))
    bw, bh, rpt = (256, 1, 1) if rows == 1 else (32, 8, 4)
    oz, oy, ox = min(dzs), min(dys), min(dxs)
    sd, sh, sw = 1 + max(dzs) - oz, bh * rpt + max(dys) - oy, bw + max(dxs) - ox
    if sd * sh * sw * itemsize > shared_per_block() or -(-rows // (bh * rpt)) > _MAX_GRID_YZ:
        return None
    return Plan(pre, depth, mid0, rows, mid, shape[q], math.prod(shape[q + 1:]), tuple(zip(dzs, dys, dxs)), bw, bh,
                rpt, oz, oy, ox, sd, sh, sw)


class Pairing(NamedTuple):
    """Two outputs a thread, one above the other, sharing the taps both windows cover: tile
    offsets (from the upper output's spot) of the shared taps, of the upper window's own and of
    the lower window's own; the networks of _rank_network.pair_ops."""
    shared: tuple
    upper: tuple
    lower: tuple
    lo: int
    hi: int
    shared_ops: tuple
    final_ops: tuple


def pairing(pl: Plan, k: int):
    """The Pairing for rank k, or None where it does not save a tenth of the min/max (or the
    block has one row of outputs a thread)."""
    if pl.rpt % 2:
        return None
    upper = set(pl.taps)
    lower = {(dz, dy + 1, dx) for dz, dy, dx in pl.taps}
    both = sorted(upper & lower)
    if not both:
        return None
    lo, hi, sops, fops = _rank_network.pair_ops(len(both), len(upper) - len(both), k)
    if _rank_network.op_count(sops) + 2 * _rank_network.op_count(fops) > \
            1.8 * _rank_network.op_count(_rank_network.select_ops(len(pl.taps), k)):
        return None

    def offsets(points):
        return tuple(tile_offset(pl, *t) for t in points)

    return Pairing(offsets(both), offsets(sorted(upper - lower)), offsets(sorted(lower - upper)), lo, hi, sops, fops)


def tile_offset(pl: Plan, dz: int, dy: int, dx: int) -> int:
    """Where a tap at (dz, dy, dx) from an output reads the tile, from that output's spot."""
    return ((dz - pl.oz) * pl.sh + dy - pl.oy) * pl.sw + dx - pl.ox


def kernel_name(in_dt, out_dt, n: int, k: int, idx64: bool) -> str:
    return "cuarray_ndimage::rank_tile<{}, {}, {}, {}, {}>".format(
        _dtypes.ctype(in_dt), _dtypes.ctype(out_dt), n, k, "long long" if idx64 else "int")


def _taps(offsets, first: int = 0) -> str:
    return " ".join("TAP({}, {})".format(first + t, o) for t, o in enumerate(offsets))


def _net(ops) -> str:
    return " ".join("{}({}, {})".format(op.upper(), i, j) for op, i, j in ops)


def source(pl: Plan, k: int) -> str:
    """rank_tile.cu with the footprint's and networks' macros (the kernel's only holes)."""
    n = len(pl.taps)
    macros = [("BW", pl.bw), ("BH", pl.bh), ("RPT", pl.rpt), ("OZ", pl.oz), ("OY", pl.oy), ("OX", pl.ox),
              ("SD", pl.sd), ("SH", pl.sh), ("SW", pl.sw), ("TAPS(TAP)", _taps(tile_offset(pl, *t) for t in pl.taps))]
    pr = pairing(pl, k)
    if pr is None:
        macros += [("PAIR", 0), ("NET(CE, LO, HI)", _net(_rank_network.select_ops(n, k)))]
    else:
        m = pr.hi - pr.lo + 1
        macros += [("PAIR", 1), ("NS", len(pr.shared)), ("NF", m + len(pr.upper)), ("LO", pr.lo), ("M", m),
                   ("KF", k - pr.lo), ("STAPS(TAP)", _taps(pr.shared)), ("UTAPS(TAP)", _taps(pr.upper, m)),
                   ("LTAPS(TAP)", _taps(pr.lower, m)), ("SNET(CE, LO, HI)", _net(pr.shared_ops)),
                   ("FNET(CE, LO, HI)", _net(pr.final_ops))]
    head = "".join("#define CUARRAY_RANK_{} {}\n".format(key, val) for key, val in macros)
    return _filters_source() + head + (_DIR / "rank_tile.cu").read_text()


def _example() -> tuple:
    """A plan and rank whose source the drift test reads (a 3x3 median)."""
    return plan((8, 8), numpy.ones((3, 3), bool), (0, 0), 4), 4


RANK_TILE = KernelFamily("cuarray_ndimage_rank", source, namespace="cuarray_ndimage", example=_example, kernels=_FILTER_KERNELS + (
    "rank_tile<T, O, N, K, I>(const T* in, O* out, I depth, I mid0, I rows, I mid, I cols, I post, I nbatch, "
    "int mode, T cval)",
))


def _kernel(name: str, pl: Plan, k: int):
    """The kernel for `pl` and rank k, the source's holes being the footprint's taps and the block
    (the shape fields are zeroed in the variant: one compile serves every shape)."""
    shapeless = pl._replace(pre=0, depth=0, mid0=0, rows=0, mid=0, cols=0, post=0)
    return RANK_TILE.kernel(name, variant=(shapeless, k))


def rank_tile(x: ndarray, out_dt, pl: Plan, k: int, mode: int, cval) -> ndarray:
    """The k-th smallest of the values under the planned footprint at every point of x."""
    out = ndarray(x._shape, out_dt)
    if out.size == 0:
        return out
    x = _contiguous(x)
    idx64 = out.size >= 2**30  # reflect's period 2n stays in range
    kern = _kernel(kernel_name(x._dtype, out_dt, len(pl.taps), k, idx64), pl, k)
    nbatch = pl.pre * pl.depth * pl.mid0 * pl.mid * pl.post
    grid = (-(-pl.cols // pl.bw), -(-pl.rows // (pl.bh * pl.rpt)), min(nbatch, _MAX_GRID_YZ))
    kern.launch(grid, (pl.bw, pl.bh), x.data.ptr, out.data.ptr, pl.depth, pl.mid0, pl.rows, pl.mid, pl.cols, pl.post,
                nbatch, mode, _scalar(x._dtype, cval))
    return out
