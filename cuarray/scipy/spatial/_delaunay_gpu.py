"""The 2-D Delaunay triangulation on the GPU: the kernel family of templates/delaunay.cu and the
driver that runs its rounds (parallel incremental insertion, Lawson flips, one symbolic vertex at
infinity; the template's header comment has the algorithm).

`delaunay_2d(points)` returns (simplices, neighbors), int32 device arrays in SciPy's convention
(neighbors[i, k] across the edge opposite simplices[i, k], -1 on the hull; simplices
counterclockwise), or None where Qhull must answer: fewer than 3 or more than MAX_POINTS points,
or a predicate whose sign the double evaluation could not make certain (points on an edge,
duplicates, collinear or cocircular points, a flat set, NaN or huge or tiny coordinate
differences: the kernels flag them and the whole call goes to Qhull, which gives SciPy's answer or
its QhullError).

`triangulate(xy, runner)` is the algorithm's sequence of launches over a runner: `DeviceRunner`
here (cuarray arrays, the family's kernels); the CPU tests pass one over NumPy arrays and the
template built for the host, so the same driver runs there. The host reads two status words per
flip pass and one scan total per round (a few dozen syncs in all).
"""

from __future__ import annotations

import pathlib

import numpy

from ..._core.ndarray import ndarray
from ..._core.transfer import to_host
from ..._creation.basic import empty, full
from ..._creation.from_data import ascontiguousarray
from ..._math.sums_scan import cumsum
from ..._sorting.searching_reduce import argmax, argmin
from ...cuda import device as _device
from ...cuda.kernel_family import KernelFamily
from ._delaunay_plan import MAX_POINTS, Buffer, DelaunayPlan, launch_grid, plan_delaunay

__all__ = ["DELAUNAY", "KERNELS", "DeviceRunner", "delaunay_2d", "triangulate"]

_DIR = pathlib.Path(__file__).parent / "templates"
_COMMON = '#include "delaunay_common.cuh"'


def _source() -> str:
    """delaunay.cu with its header inlined (NVRTC sees one text; the host build includes it)."""
    return (_DIR / "delaunay.cu").read_text().replace(_COMMON, (_DIR / "delaunay_common.cuh").read_text(), 1)


_STATUS = "unsigned long long* status"
DELAUNAY = KernelFamily("cuarray_spatial_delaunay", _source, kernels=(
    "cuarray_delaunay_start_area(const double* xy, int n, int a, int b, double* area)",
    "cuarray_delaunay_start(const double* xy, int n, int a, int b, int c, int* tv, int* tn, double* center, "
    + _STATUS + ")",
    "cuarray_delaunay_locate_start(const double* xy, int n, const int* tv, const double* center, int* loc, "
    + _STATUS + ")",
    "cuarray_delaunay_pick(const double* xy, int n, const int* tv, const int* loc, unsigned long long* best)",
    "cuarray_delaunay_mark(int ntri, unsigned long long* best, int* chosen, int* splits)",
    "cuarray_delaunay_split(int ntri, const int* chosen, const int* rank, int* tv, int* tn, int* loc, int* dirty)",
    "cuarray_delaunay_relocate_split(const double* xy, int n, int ntri, const int* chosen, const int* rank, "
    "const int* tv, const double* center, int* loc, " + _STATUS + ")",
    "cuarray_delaunay_flip_vote(const double* xy, int n, int ntri, const int* tv, const int* tn, const int* dirty, "
    "int* claim, " + _STATUS + ")",
    "cuarray_delaunay_flip_apply(int ntri, int pass, int* tv, int* tn, const int* claim, int* remap, int* stamp, "
    + _STATUS + ")",
    "cuarray_delaunay_flip_relink(int ntri, int pass, int* tn, const int* remap, const int* stamp, int* claim, "
    "int* dirty)",
    "cuarray_delaunay_relocate_flip(const double* xy, int n, int pass, const int* tv, const int* tn, "
    "const int* stamp, int* loc, " + _STATUS + ")",
    "cuarray_delaunay_finish_mark(int n, int ntri, const int* tv, int* keep)",
    "cuarray_delaunay_finish_write(int ntri, const int* tv, const int* tn, const int* keep, const int* rank, "
    "int* simplices, int* neighbors)",
))
KERNELS = tuple(DELAUNAY.decls)
_INDEX = {name: i for i, name in enumerate(KERNELS)}


class DeviceRunner:
    """The GPU side of `triangulate`: cuarray buffers, the family's kernels (compiled together in
    one module), a device scan, and blocking reads of a few words."""

    def __init__(self, plan: DelaunayPlan):
        self.plan = plan

    def array(self, buf: Buffer):
        if buf.fill is None:
            return empty((buf.count,), dtype=buf.dtype)
        return full((buf.count,), buf.fill, dtype=buf.dtype)

    def scan(self, a, count: int):
        """The inclusive int32 prefix sum of a[:count]."""
        return cumsum(a[:count], dtype=numpy.int32)

    def read(self, a, start: int = 0, stop=None) -> numpy.ndarray:
        return to_host(a[start:stop])

    def argmin(self, v) -> int:
        return int(argmin(v))

    def argmax(self, v) -> int:
        return int(argmax(v))

    def launch(self, name: str, count: int, *args) -> None:
        kernel = DELAUNAY.get(*KERNELS)[_INDEX[name]]  # (every kernel is used: the module loads once, all of it)
        args = tuple(a.data.ptr if isinstance(a, ndarray) else a for a in args)
        kernel.launch(launch_grid(self.plan, count), self.plan.block, *args)


def _failed(runner, buf) -> bool:
    return bool(runner.read(buf["status"], 0, 1)[0])


def _start(runner, xy, buf) -> bool:
    """The first four triangles and every point's first triangle; False where Qhull must answer."""
    n = runner.plan.n
    a, b = runner.argmin(xy[:, 0]), runner.argmax(xy[:, 0])
    runner.launch("cuarray_delaunay_start_area", n, xy, n, a, b, buf["area"])
    c = runner.argmax(buf["area"])
    runner.launch("cuarray_delaunay_start", 1, xy, n, a, b, c, buf["tv"], buf["tn"], buf["center"], buf["status"])
    runner.launch("cuarray_delaunay_locate_start", n, xy, n, buf["tv"], buf["center"], buf["loc"], buf["status"])
    return not _failed(runner, buf)


def _insert(runner, xy, buf, ntri: int):
    """One round of insertions: each triangle holding points splits around one of them. The new
    triangle count (ntri when no point was left), or None where Qhull must answer."""
    n = runner.plan.n
    runner.launch("cuarray_delaunay_pick", n, xy, n, buf["tv"], buf["loc"], buf["best"])
    runner.launch("cuarray_delaunay_mark", ntri, ntri, buf["best"], buf["chosen"], buf["splits"])
    rank = runner.scan(buf["splits"], ntri)
    splits = int(runner.read(rank, ntri - 1, ntri)[0])
    if splits == 0:
        return ntri
    runner.launch("cuarray_delaunay_split", ntri, ntri, buf["chosen"], rank, buf["tv"], buf["tn"], buf["loc"],
                  buf["dirty"])
    runner.launch("cuarray_delaunay_relocate_split", n, xy, n, ntri, buf["chosen"], rank, buf["tv"],
                  buf["center"], buf["loc"], buf["status"])
    return None if _failed(runner, buf) else ntri + 2 * splits


def _flip(runner, xy, buf, ntri: int, last_pass: int):
    """Flip passes until no edge flips: the last pass's number, or None where Qhull must answer
    (a predicate not certain, or MAX_FLIP_PASSES passes without an end)."""
    n = runner.plan.n
    tv, tn, status = buf["tv"], buf["tn"], buf["status"]
    for p in range(last_pass + 1, last_pass + 1 + runner.plan.max_flip_passes):
        runner.launch("cuarray_delaunay_flip_vote", ntri, xy, n, ntri, tv, tn, buf["dirty"], buf["claim"], status)
        runner.launch("cuarray_delaunay_flip_apply", ntri, ntri, p, tv, tn, buf["claim"], buf["remap"],
                      buf["stamp"], status)
        runner.launch("cuarray_delaunay_flip_relink", ntri, ntri, p, tn, buf["remap"], buf["stamp"], buf["claim"],
                      buf["dirty"])
        runner.launch("cuarray_delaunay_relocate_flip", n, xy, n, p, tv, tn, buf["stamp"], buf["loc"], status)
        failed, flipped = (int(w) for w in runner.read(status))
        if failed:
            return None
        if flipped != p:
            return p
    return None


def _finish(runner, buf, ntri: int):
    """(simplices, neighbors) of the finite triangles, compacted in their mesh order."""
    n = runner.plan.n
    keep = buf["splits"]
    runner.launch("cuarray_delaunay_finish_mark", ntri, n, ntri, buf["tv"], keep)
    rank = runner.scan(keep, ntri)
    m = int(runner.read(rank, ntri - 1, ntri)[0])
    i4 = numpy.dtype(numpy.int32)
    simplices = runner.array(Buffer("simplices", 3 * m, i4, None))
    neighbors = runner.array(Buffer("neighbors", 3 * m, i4, None))
    runner.launch("cuarray_delaunay_finish_write", ntri, ntri, buf["tv"], buf["tn"], keep, rank, simplices, neighbors)
    return simplices.reshape(m, 3), neighbors.reshape(m, 3)


def triangulate(xy, runner):
    """(simplices, neighbors) of the points `xy` ((n, 2) float64, C-contiguous, the runner's
    array type; n = runner.plan.n), or None where Qhull must answer."""
    buf = {b.name: runner.array(b) for b in runner.plan.buffers}
    if not _start(runner, xy, buf):
        return None
    ntri, last_pass = 4, 0
    while True:
        grown = _insert(runner, xy, buf, ntri)
        if grown is None:
            return None
        if grown == ntri:  # no point left
            return _finish(runner, buf, ntri)
        ntri = grown
        last_pass = _flip(runner, xy, buf, ntri, last_pass)
        if last_pass is None:
            return None


def delaunay_2d(points):
    """(simplices, neighbors) int32 device arrays of the Delaunay triangulation of the (n, 2)
    device array `points`, or None where Qhull must answer (see the module's docstring)."""
    if points.ndim != 2 or points.shape[1] != 2 or not 3 <= points.shape[0] <= MAX_POINTS:
        return None
    xy = ascontiguousarray(points, dtype=numpy.float64)
    plan = plan_delaunay(points.shape[0], _device._sm_count(_device.get_device_id()))
    return triangulate(xy, DeviceRunner(plan))
