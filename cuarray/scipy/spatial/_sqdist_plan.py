"""The plan of the fused euclidean-family distance tiles (`_sqdist_tiles`, templates/sqdist_tiles.cu):
which tile shape, how many blocks and how much shared memory, from the sizes and the device's
compute capability. Pure: it never launches, allocates or syncs (tests check it on the CPU).

The kernel multiplies on the FP64 tensor cores (mma.sync m16n8k16 .f64, sm_90) and takes k in
chunks of `KC` from rows zero-padded to `padded_k(k)`. A device without them, or a grid past the
launch limit, gets None: `cdist` then takes the cuBLAS product and an elementwise epilogue.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["DIRECT_K", "KC", "LDS", "FP64_MMA_MAJORS", "MAX_TILES", "MMA_K", "SqdistPlan", "exact_threshold", "padded_k",
           "plan_sqdist", "persistent_grid"]

KC = 32                # k a shared-memory chunk (cuarray_sqdist::KC)
LDS = KC + 4           # a row's stride in shared memory, in doubles (cuarray_sqdist::LDS)
# Architectures that take the tiles: Hopper (sm_90), where they were measured. The data-centre
# Blackwells (sm_100, sm_103) have the same mma.sync m16n8k{4,8,16} .f64 and the template compiles
# for them (CPU test), but no run has measured or checked them there yet: cuBLAS until one does.
# sm_80 has only m8n8k4; the GeForce parts (sm_86, sm_89, sm_120) run FP64 at 1/64 of FP32.
FP64_MMA_MAJORS = (9,)
MAX_TILES = 2**31 - 1  # blocks along x
# The tile, a warp's piece of it, the mma shape m16n8kMMA_K and the blocks an SM must hold (the
# register cap): 64 x 64 in four 32 x 32 pieces, m16n8k16, 3 blocks (164 registers; 3 x 73.7 KB of
# shared memory). H200, 1e5 x 1e4 x 64: docs/perf-notes.md ("cdist on the tensor cores").
TILE_M, TILE_N = 64, 64
WARP_M, WARP_N = 32, 32
MMA_K = 16
MIN_BLOCKS = 3


class SqdistPlan(NamedTuple):
    spec: str         # the kernel's name expression
    tile_m: int
    tile_n: int
    tiles_n: int      # tiles along B (the kernel's row-major tile numbering)
    tiles: int        # tiles in all (the persistent blocks share them out)
    block: int        # threads a block
    shared_mem: int   # dynamic shared bytes a block: two stages of a chunk of both tiles
    k: int            # the padded row length the kernel reads


def padded_k(k: int) -> int:
    """k rounded up to a whole number of chunks (at least one): the row length of the operands."""
    return max(KC, -(-int(k) // KC) * KC)


def plan_sqdist(m: int, n: int, k: int, cc: tuple, tile: tuple = (TILE_M, TILE_N), ks: int = MMA_K,
                warp: tuple = (WARP_M, WARP_N), min_blocks: int = MIN_BLOCKS) -> SqdistPlan | None:
    """The launch for an (m, n) block of distances over k features on a device of compute
    capability `cc`, or None where the kernel does not apply (no FP64 tensor cores, nothing to
    compute, or more tiles than one launch takes)."""
    m, n, k = int(m), int(n), int(k)
    tm, tn = int(tile[0]), int(tile[1])
    wm, wn = int(warp[0]), int(warp[1])
    if ks not in (4, 8, 16):
        raise ValueError("the mma shape is m16n8k4, k8 or k16, got k{}".format(ks))
    if wm % 16 or wn % 8 or wm <= 0 or wn <= 0 or tm % wm or tn % wn or tm <= 0 or tn <= 0:
        raise ValueError("tile sides must be multiples of a warp's part, itself of 16 x 8: got {} x {} of {} x {}".format(
            tm, tn, wm, wn))
    if int(cc[0]) not in FP64_MMA_MAJORS or m <= 0 or n <= 0 or k < 0:
        return None
    tiles_n = -(-n // tn)
    tiles = -(-m // tm) * tiles_n
    if tiles > MAX_TILES:
        return None
    return SqdistPlan(spec="cuarray_sqdist_tiles<{}, {}, {}, {}, {}, {}>".format(tm, tn, wm, wn, ks, min_blocks), tile_m=tm, tile_n=tn, tiles_n=tiles_n,
                      tiles=tiles, block=(tm // wm) * (tn // wn) * 32, shared_mem=2 * (tm + tn) * LDS * 8,
                      k=padded_k(k))


def persistent_grid(plan: SqdistPlan, resident: int, sm_count: int) -> int:
    """Blocks to launch: as many as the device holds at once (`resident` an SM, from the occupancy
    calculator), no more than there are tiles."""
    return max(1, min(plan.tiles, max(1, int(resident)) * int(sm_count)))


DIRECT_K = 4  # up to this many features, every distance by SciPy's direct formula (exact_threshold)


def exact_threshold(k: int) -> float:
    """tau: the epilogues form a squared distance s again by the direct formula (sqdist_exact.cuh)
    where the expanded form gives s <= tau N, N = |a|^2 + |b|^2 (the rows' squared norms).

    The bound (u = 2^-53, gamma_k ~ k u, first order): |fl(a.b) - a.b| <= gamma_k sum |a_i b_i| <=
    gamma_k N / 2, each norm is within gamma_k of its value, and N and the final fma add an
    ulp each, so |s_hat - s| <= (2k + 2) u N + u s. An entry kept (s > tau N) thus has a relative
    error in s of at most (2k + 2) u / tau + u, and its distance half that: with
    tau = (k + 1) 2^-7, at most 2^-46 + u ~ 1.4e-14 for any k below 31; tau is capped at 1/4
    (past it, half of centred random pairs would be redone), where the bound is (k + 1) 2^-51:
    1.1e-13 at k = 255, 4.4e-13 at k = 1000 (worst case; rounding errors of random sign give about
    sqrt(k) u / tau). The operands' own rounding (centring, scaling: 2 ulps a coordinate) adds at
    most 4 u sqrt(2 / tau) < 4e-15. Duplicates (s = 0) and pairs whose distance is small
    against the rows' norms are always redone, exactly as SciPy forms them.

    Up to DIRECT_K features every pair is redone (4: s <= 2 N always, and N = 0 gives s = 0 <= 0):
    the direct formula costs a few loads and flops a pair there, and low-dimensional data (grids,
    coordinates) is where users compare distances with `==` (ties, duplicates, fcluster at t = 0):
    every entry is then SciPy's, bit for bit."""
    k = int(k)
    if k <= DIRECT_K:
        return 4.0
    return min(0.25, (k + 1) * 2.0 ** -7)
