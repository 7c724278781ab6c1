"""The GPU neighbour structure behind `KDTree`: a uniform grid over the first g = min(d, 3)
coordinates, points sorted by cell (one radix argsort), cell starts by one searchsorted, and
per-query kernels (templates/kdtree.cu) that visit cells outward from the query's.

`plan_grid` is the pure planner (tested on the CPU); `Grid` holds the built structure and the
launches of the three kernels (the only hand-packed launches of cuarray.scipy.spatial, all in
`_launch_args` below).
"""

from __future__ import annotations

import math
import pathlib
from typing import NamedTuple

import numpy

from ..._creation.basic import empty
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._math.rounding import floor
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import argsort
from ...cuda import launch as _launch
from ...cuda.kernel_family import KernelFamily

__all__ = ["GridPlan", "plan_grid", "Grid", "knn_capacity", "p_kind"]

_DIR = pathlib.Path(__file__).parent / "templates"
_BLOCK = 128
POINTS_PER_CELL = 2.0  # about k = 8 neighbours within the 27 cells of ring 1 in 3-D
MAX_CELLS = 1 << 27
KNN_CAPACITIES = (1, 2, 4, 8, 16, 32, 64, 128)  # the knn kernel's instances (its list length K)


class GridPlan(NamedTuple):
    g: int            # grid axes (the first g coordinates)
    res: tuple        # cells along each of 3 axes (1 past g)
    lo: tuple         # the grid's origin along each of 3 axes (0 past g)
    h: float          # the cells' side


def plan_grid(n: int, lo, hi, per_cell: float = POINTS_PER_CELL, max_cells: int = MAX_CELLS) -> GridPlan:
    """Cubic cells sized so that the grid has about n / per_cell cells over the box [lo, hi] of
    the first g coordinates (a flat axis counts as one cell wide), at most `max_cells`."""
    g = min(len(lo), 3)
    lo = [float(v) for v in lo[:g]]
    ext = [max(float(b) - float(a), 0.0) for a, b in zip(lo, hi[:g])]
    target = max(1.0, min(float(max_cells), n / per_cell))
    # the side that gives `target` cells over the axes longer than a cell (an axis shorter than
    # the side is one cell wide: it drops out, and the side is found again over the others)
    axes = [e for e in ext if e > 0]
    h = 1.0
    while axes:
        h = (math.prod(axes) / target) ** (1.0 / len(axes))
        h = max(h, max(axes) / 2 ** 20, 1e-300)
        longer = [e for e in axes if e >= h]
        if len(longer) == len(axes):
            break
        axes = longer
    res = [max(1, min(int(e / h) + 1, 1 << 20)) for e in ext]
    while math.prod(res) > max_cells:  # rounding up can overshoot: widen the cells
        h *= 1.25
        res = [max(1, min(int(e / h) + 1, 1 << 20)) for e in ext]
    res += [1] * (3 - g)
    lo += [0.0] * (3 - g)
    return GridPlan(g, tuple(res), tuple(lo), float(h))


def knn_capacity(k: int):
    """The knn kernel instance for k neighbours (its list length), None past the largest."""
    for cap in KNN_CAPACITIES:
        if k <= cap:
            return cap
    return None


def p_kind(p: float) -> int:
    """The kernels' code of a Minkowski p: 0 for 2, 1 for 1, 2 for inf, 3 for another p."""
    return 0 if p == 2 else (1 if p == 1 else (2 if numpy.isinf(p) else 3))


def _source() -> str:
    return (_DIR / "kdtree.cu").read_text()


# The grid's arrays and plan, first in every kernel's parameters (Grid._launch_args).
_GRID = ("const double* pts, const long long* perm, const long long* start, long long n, int d, int g, "
         "int res0, int res1, int res2, double lo0, double lo1, double lo2, double h")
KDTREE = KernelFamily("cuarray_spatial_kdtree", _source, kernels=(
    "cuarray_spatial_knn<K>(" + _GRID + ", const double* q, long long m, int k, int pk, double p, double ub, "
    "double eps_fac, double* out_d, long long* out_i)",
    "cuarray_spatial_ball_count(" + _GRID + ", const double* q, long long m, const double* radius, "
    "int radius_stride, int pk, double p, const double* w, long long* count, double* wsum)",
    "cuarray_spatial_ball_fill(" + _GRID + ", const double* q, long long m, const double* radius, "
    "int radius_stride, int pk, double p, const long long* offset, long long* out_i, double* out_d)",
))


def _names():
    return tuple("cuarray_spatial_knn<{}>".format(c) for c in KNN_CAPACITIES) + (
        "cuarray_spatial_ball_count", "cuarray_spatial_ball_fill")


def _kernel(name):
    """The kernel `name`, compiled with the family's other kernels in one module (one NVRTC run)."""
    names = _names()
    return KDTREE.get(*names)[names.index(name)]


def _ptr(a):
    return 0 if a is None else a.data.ptr


class Grid:
    """Points (n, d) float64 sorted by cell, their original indices and the cells' starts."""

    def __init__(self, data):
        n, d = data.shape
        self.n, self.d = n, d
        g = min(d, 3)
        if n:
            lo = data[:, :g].min(axis=0).get()
            hi = data[:, :g].max(axis=0).get()
        else:
            lo = hi = numpy.zeros(g)
        self.plan = plan_grid(n, lo, hi)
        cells = self.cells(data)
        self.perm = argsort(cells, kind="stable")
        self.pts = take(data, self.perm, axis=0)
        ncell = math.prod(self.plan.res)
        self.start = searchsorted(take(cells, self.perm), arange(ncell + 1, dtype=numpy.int64))

    def cells(self, x):
        """The linear cell index of each row of x (clamped into the grid)."""
        pl = self.plan
        c = None
        for j in range(3):
            if j < pl.g:
                cj = floor((x[:, j] - pl.lo[j]) / pl.h).clip(0, pl.res[j] - 1).astype(numpy.int64)
            else:
                cj = 0
            c = cj if c is None else c * pl.res[j] + cj
        return c

    def _launch_args(self):
        pl = self.plan
        return (self.pts.data.ptr, self.perm.data.ptr, self.start.data.ptr, self.n, self.d, pl.g, *pl.res,
                *(float(v) for v in pl.lo), float(pl.h))

    def knn(self, q, k, p, ub_reduced, eps_fac):
        """(reduced distances (m, k), indices (m, k)) of the k <= 128 nearest points."""
        m = q.shape[0]
        od, oi = empty((m, k), dtype=numpy.float64), empty((m, k), dtype=numpy.int64)
        if m and k:
            name = "cuarray_spatial_knn<{}>".format(knn_capacity(k))
            _kernel(name).launch(_launch.grid_one_pass(m, _BLOCK), _BLOCK, *self._launch_args(), q.data.ptr, m, k,
                                 p_kind(p), float(p), float(ub_reduced), float(eps_fac), od.data.ptr, oi.data.ptr)
        return od, oi

    def ball_count(self, q, radius, p, weights=None):
        """(counts (m,) int64, weight sums (m,) float64 or None) of the points within radius
        (a (m,) or (1,) float64 device array)."""
        m = q.shape[0]
        count = empty((m,), dtype=numpy.int64)
        wsum = None if weights is None else empty((m,), dtype=numpy.float64)
        if m:
            _kernel("cuarray_spatial_ball_count").launch(
                _launch.grid_one_pass(m, _BLOCK), _BLOCK, *self._launch_args(), q.data.ptr, m, radius.data.ptr,
                int(radius.shape[0] == m and m > 1), p_kind(p), float(p), _ptr(weights), count.data.ptr, _ptr(wsum))
        return count, wsum

    def ball_fill(self, q, radius, p, offsets, total, with_distances):
        """The indices (and reduced distances) of the points within radius, query after query
        from `offsets` (an exclusive scan of ball_count's counts; `total` their sum)."""
        m = q.shape[0]
        oi = empty((total,), dtype=numpy.int64)
        od = empty((total,), dtype=numpy.float64) if with_distances else None
        if m and total:
            _kernel("cuarray_spatial_ball_fill").launch(
                _launch.grid_one_pass(m, _BLOCK), _BLOCK, *self._launch_args(), q.data.ptr, m, radius.data.ptr,
                int(radius.shape[0] == m and m > 1), p_kind(p), float(p), offsets.data.ptr, oi.data.ptr, _ptr(od))
        return oi, od
