"""The euclidean family's distances in one pass (templates/sqdist_tiles.cu): the products of rows
on the FP64 tensor cores and |a|^2 + |b|^2 - 2 a.b (clamped at 0, or its root) written from the
accumulators, where cuBLAS's product and an epilogue pass wrote, read and wrote the result again.
`_sqdist_plan.plan_sqdist` sizes the launch; `centred_rows` makes the operands (centred, scaled,
padded to the kernel's chunk) and their squared norms. Both epilogues (the tiles' and `epilogue`, the
cuBLAS product's) form the pairs whose expanded form cancelled again from the original rows
(`Exact`, templates/sqdist_exact.cuh) by SciPy's direct formula.
"""

from __future__ import annotations

import pathlib
from typing import NamedTuple

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import empty
from ...cuda import device as _device
from ...cuda import launch as _launch
from ...cuda import limits as _limits
from ...cuda.kernel_family import KernelFamily
from ._sqdist_plan import SqdistPlan, exact_threshold, padded_k, persistent_grid, plan_sqdist

__all__ = ["SQDIST", "EXACT_MODES", "Exact", "centred_rows", "epilogue", "plan_for", "launch"]

_DIR = pathlib.Path(__file__).parent / "templates"
_EXACT = '#include "sqdist_exact.cuh"'
# sqdist_exact.cuh's modes: how a column's term is formed (`p` the Exact's parameter)
EXACT_MODES = {"plain": 0, "weighted": 1, "weighted_sq": 2, "variance": 3, "quad": 4}
_EXACT_ARGS = ("const double* xa, long long xa_rs, long long xa_cs, const double* xb, long long xb_rs, "
               "long long xb_cs, long long kx, int mode, const double* param, double tau")


def _source() -> str:
    """sqdist_tiles.cu with its header inlined (NVRTC sees one text; the host build includes it)."""
    return (_DIR / "sqdist_tiles.cu").read_text().replace(_EXACT, (_DIR / "sqdist_exact.cuh").read_text(), 1)


SQDIST = KernelFamily("cuarray_spatial_sqdist", _source, kernels=(
    "cuarray_sqdist_tiles<BM, BN, WARP_M, WARP_N, KS, MIN_BLOCKS>(const double* a, const double* b, const double* na, const double* nb, "
    "double* out, long long m, long long n, long long k, long long ldo, long long tiles_n, long long tiles, "
    "int root, " + _EXACT_ARGS + ")",
    "cuarray_sqdist_epilogue(const double* g, long long ldg, const double* na, const double* nb, double* out, "
    "long long m, long long n, long long ldo, int root, " + _EXACT_ARGS + ")",
    "cuarray_sqdist_rows(const double* x, long long rows, long long k, long long row_stride, long long col_stride, "
    "const double* shift, const double* scale, double* y, long long ldy, double* norms)",
))
_ROWS_BLOCK = 256  # 8 warps: a warp a row
_EPILOGUE_BLOCK = 256


class Exact(NamedTuple):
    """The original rows (float64 views, any strides) the epilogues form cancelled pairs from, the
    formula (`EXACT_MODES`) and its contiguous float64 parameter (weights, variances, VI; None)."""
    A: ndarray
    B: ndarray
    mode: str = "plain"
    param: ndarray | None = None

    def rows(self, i0: int, j0: int) -> "Exact":
        return self._replace(A=self.A[i0:], B=self.B[j0:])

    def args(self) -> tuple:
        A, B = self.A, self.B
        return (A.data.ptr, A.strides[0], A.strides[1], B.data.ptr, B.strides[0], B.strides[1], A.shape[1],
                EXACT_MODES[self.mode], 0 if self.param is None else self.param.data.ptr,
                exact_threshold(A.shape[1]))


def centred_rows(X: ndarray, shift: ndarray, scale: ndarray | None = None) -> tuple:
    """((X - shift) * scale, its rows' squared norms) in one launch: the operand as the tiles read
    it (rows zero-padded to `padded_k`) and |a|^2. X is any float64 view; shift and scale are
    contiguous float64 vectors of X's width (scale None: 1)."""
    rows, k = X.shape
    Y = empty((rows, padded_k(k)), dtype=numpy.float64)
    norms = empty((rows,), dtype=numpy.float64)
    if rows:
        SQDIST.kernel("cuarray_sqdist_rows").launch(
            -(-rows // (_ROWS_BLOCK // 32)), _ROWS_BLOCK, X.data.ptr, rows, k, X.strides[0], X.strides[1], shift.data.ptr,
            0 if scale is None else scale.data.ptr, Y.data.ptr, Y.shape[1], norms.data.ptr)
    return Y, norms


def plan_for(m: int, n: int, k: int) -> SqdistPlan | None:
    """The plan on the current device (None: take the cuBLAS product)."""
    return plan_sqdist(m, n, k, _device._compute_capability(_device.get_device_id()))


def launch(plan: SqdistPlan, a: ndarray, b: ndarray, na: ndarray, nb: ndarray, out: ndarray, root: bool,
           exact: Exact) -> None:
    """Distances of the rows of `a` (m x plan.k) to those of `b` (n x plan.k), both from
    `centred_rows`, into `out` (m rows of stride out.strides[0], C-contiguous
    rows), `na`/`nb` their squared norms; `exact`: the same rows as given (its rows from i0, j0 of
    `a`'s and `b`'s)."""
    kern = SQDIST.kernel(plan.spec)
    dev = _device.get_device_id()
    _limits.allow_dynamic_shared(kern.kernel, plan.shared_mem, dev)
    grid = persistent_grid(plan, _launch.blocks_per_sm(kern.kernel, plan.block, plan.shared_mem), _device._sm_count(dev))
    m, n = a.shape[0], b.shape[0]
    kern.launch(grid, plan.block, a.data.ptr, b.data.ptr, na.data.ptr, nb.data.ptr, out.data.ptr, m, n,
                plan.k, out.strides[0] // 8, plan.tiles_n, plan.tiles, int(root), *exact.args(),
                shared_mem=plan.shared_mem)


def epilogue(g: ndarray, na: ndarray, nb: ndarray, out: ndarray, root: bool, exact: Exact) -> None:
    """The distances from the cuBLAS product g = A B^T (m x n, C-contiguous rows) and the rows'
    squared norms `na` (m) and `nb` (n) into `out` (rows of stride out.strides[0]), the cancelled
    pairs formed again from `exact`'s rows."""
    m, n = g.shape
    if m == 0 or n == 0:
        return
    grid = min(-(-(m * n) // _EPILOGUE_BLOCK), 65535 * 32)
    SQDIST.kernel("cuarray_sqdist_epilogue").launch(
        grid, _EPILOGUE_BLOCK, g.data.ptr, g.strides[0] // 8, na.data.ptr, nb.data.ptr, out.data.ptr, m, n,
        out.strides[0] // 8, int(root), *exact.args())
