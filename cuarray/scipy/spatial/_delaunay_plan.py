"""The plan of the GPU 2-D Delaunay triangulation (`_delaunay_gpu`): the launch shape and every
buffer the kernels of templates/delaunay.cu use, from the number of points and the device's
multiprocessor count. Pure: it never launches, allocates or syncs (tests check it on the CPU).

Sizes: with the symbolic vertex at infinity the mesh is a triangulated sphere over n + 1 vertices,
2n - 2 triangles once every point is in (4 at the start, 2 more per insertion), so every
per-triangle buffer has exactly that many entries and never grows. Indices are int32 and a
neighbour is the edge id 4 t + k, so 4 (2n - 3) + 3 < 2^31 bounds n at 2^28 points.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy

__all__ = ["MAX_POINTS", "BLOCK", "BLOCKS_PER_SM", "Buffer", "DelaunayPlan", "plan_delaunay", "launch_grid"]

MAX_POINTS = 1 << 28
BLOCK = 256
# Grid-stride kernels: enough blocks of 256 to fill an SM's 2048 threads, no more (a launch over
# more items loops).
BLOCKS_PER_SM = 8
NO_PICK = numpy.uint64(0xFFFFFFFFFFFFFFFF)  # cuarray_delaunay::kNoPick
NO_CLAIM = 0x7FFFFFFF                       # cuarray_delaunay::kNoClaim
# Lawson flip passes of one round before the driver gives up (Qhull then answers): a guard against
# a livelock, far above what any input needs (a pass flips the smallest candidate edge at least).
MAX_FLIP_PASSES = 1 << 16


class Buffer(NamedTuple):
    name: str
    count: int
    dtype: numpy.dtype
    fill: object      # the initial value, None for a buffer every reader finds written first


class DelaunayPlan(NamedTuple):
    n: int                    # points; vertex id n is the point at infinity
    max_triangles: int        # 2n - 2: the mesh's size when every point is in
    block: int
    max_grid: int             # blocks of a grid-stride launch at most
    buffers: tuple            # Buffer, ...
    max_flip_passes: int


def plan_delaunay(n: int, sm_count: int) -> DelaunayPlan:
    """The plan for `n` points (3 <= n <= MAX_POINTS) on a device of `sm_count` multiprocessors."""
    n = int(n)
    if n < 3:
        raise ValueError("the GPU Delaunay triangulation needs at least 3 points, got {}".format(n))
    if n > MAX_POINTS:
        raise ValueError("the GPU Delaunay triangulation takes at most {} points (int32 edge ids), got {}".format(
            MAX_POINTS, n))
    tri = 2 * n - 2
    i4, u8, f8 = numpy.dtype(numpy.int32), numpy.dtype(numpy.uint64), numpy.dtype(numpy.float64)
    buffers = (
        Buffer("tv", 3 * tri, i4, None),         # vertices of triangle t: tv[3t + k]
        Buffer("tn", 3 * tri, i4, None),         # neighbour across the edge opposite tv[3t + k]: 4 t' + k'
        Buffer("remap", 3 * tri, i4, None),      # a flipped triangle's old edge -> its new edge id
        Buffer("best", tri, u8, NO_PICK),        # each triangle's winning bid of the round
        Buffer("chosen", tri, i4, None),         # the point a triangle inserts this round, or -1
        Buffer("splits", tri, i4, None),         # 1 where a triangle splits (scanned into new ids)
        Buffer("claim", tri, i4, NO_CLAIM),      # the smallest flip candidate claiming a triangle
        Buffer("stamp", tri, i4, 0),             # the flip pass that last flipped a triangle
        Buffer("dirty", tri, i4, 0),             # 1: the triangle's edges are checked next pass
        Buffer("loc", n, i4, None),              # an uninserted point's triangle, -1 once inserted
        Buffer("area", n, f8, None),             # the start's scratch: distance to the first line
        Buffer("center", 2, f8, None),           # the apex of the hull edges' cones
        Buffer("status", 2, u8, 0),              # fallback reasons; the last pass that flipped
    )
    return DelaunayPlan(n, tri, BLOCK, max(1, int(sm_count)) * BLOCKS_PER_SM, buffers, MAX_FLIP_PASSES)


def launch_grid(plan: DelaunayPlan, count: int) -> int:
    """Blocks of a grid-stride launch over `count` items: one item a thread up to a full device."""
    return max(1, min(-(-int(count) // plan.block), plan.max_grid))
