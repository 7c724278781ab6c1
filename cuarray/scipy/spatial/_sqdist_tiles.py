"""The euclidean family's distances in one pass (templates/sqdist_tiles.cu): the products of rows
on the FP64 tensor cores and |a|^2 + |b|^2 - 2 a.b (clamped at 0, or its root) written from the
accumulators, where cuBLAS's product and an epilogue pass wrote, read and wrote the result again.
`_sqdist_plan.plan_sqdist` sizes the launch; `centred_rows` makes the operands (centred, scaled,
padded to the kernel's chunk) and their squared norms.
"""

from __future__ import annotations

import pathlib

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import empty
from ...cuda import device as _device
from ...cuda import launch as _launch
from ...cuda import limits as _limits
from ...cuda.kernel_family import KernelFamily
from ._sqdist_plan import SqdistPlan, padded_k, persistent_grid, plan_sqdist

__all__ = ["SQDIST", "centred_rows", "plan_for", "launch"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "sqdist_tiles.cu"

SQDIST = KernelFamily("cuarray_spatial_sqdist", _TEMPLATE.read_text, kernels=(
    "cuarray_sqdist_tiles<BM, BN, WARP_M, WARP_N, KS, MIN_BLOCKS>(const double* a, const double* b, const double* na, const double* nb, "
    "double* out, long long m, long long n, long long k, long long ldo, long long tiles_n, long long tiles, "
    "int root)",
    "cuarray_sqdist_rows(const double* x, long long rows, long long k, long long row_stride, long long col_stride, "
    "const double* shift, const double* scale, double* y, long long ldy, double* norms)",
))
_ROWS_BLOCK = 256  # 8 warps: a warp a row


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


def launch(plan: SqdistPlan, a: ndarray, b: ndarray, na: ndarray, nb: ndarray, out: ndarray, root: bool) -> None:
    """Distances of the rows of `a` (m x plan.k) to those of `b` (n x plan.k), both from
    `centred_rows`, into `out` (m rows of stride out.strides[0], C-contiguous
    rows), `na`/`nb` their squared norms."""
    kern = SQDIST.kernel(plan.spec)
    dev = _device.get_device_id()
    _limits.allow_dynamic_shared(kern.kernel, plan.shared_mem, dev)
    grid = persistent_grid(plan, _launch.blocks_per_sm(kern.kernel, plan.block, plan.shared_mem), _device._sm_count(dev))
    m, n = a.shape[0], b.shape[0]
    kern.launch(grid, plan.block, a.data.ptr, b.data.ptr, na.data.ptr, nb.data.ptr, out.data.ptr, m, n,
                plan.k, out.strides[0] // 8, plan.tiles_n, plan.tiles, int(root), shared_mem=plan.shared_mem)
