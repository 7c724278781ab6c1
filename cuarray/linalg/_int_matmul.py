"""Integer and bool matrix products with a tiled kernel of ours (templates/int_matmul.cu).

cuBLAS has no exact integer GEMM for every width (and none for int64), so NumPy's integer loops
(`bb->b` ... `QQ->Q`, `??->?`) run here: exact, wrapping modulo 2^bits like NumPy. The kernel takes
any element strides, so no operand is ever copied for its layout.
"""

from __future__ import annotations

import pathlib

import numpy

from .._core import dtypes as _dtypes
from ..cuda.kernel_family import KernelFamily

__all__ = ["gemm", "kernel_name", "source"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "int_matmul.cu"
_TILE = 16
_Z_LIMIT = 65535


def source() -> str:
    return _TEMPLATE.read_text()


INT_MATMUL = KernelFamily("cuarray_int_matmul", source, kernels=(
    "cuarray_int_matmul<T>(const T* a, const T* b, T* c, long long m, long long n, long long k, "
    "long long batch, long long a_batch, long long a_row, long long a_col, long long b_batch, long long b_row, "
    "long long b_col, long long c_batch, long long c_row, long long c_col)",
))


def kernel_name(dtype: numpy.dtype) -> str:
    return "cuarray_int_matmul<{}>".format(_dtypes.ctype(dtype))


def _kernel(dtype):
    if dtype.kind in "Mm":  # int64 on the device, but no product: NumPy's own error (UFuncTypeError)
        numpy.matmul(numpy.empty((1, 1), dtype), numpy.empty((1, 1), dtype))
    return INT_MATMUL.kernel(kernel_name(dtype))


def gemm(dtype, m, n, k, a, a_strides, b, b_strides, c, c_strides, batch=1):
    """C[z] = A[z] @ B[z] for z < batch; pointers are ints, strides are (batch, row, col) in
    elements. m, n, k, batch > 0."""
    kern = _kernel(dtype)
    isz = dtype.itemsize
    rows = _Z_LIMIT * _TILE  # rows per launch: grid.y is limited to 65535 blocks
    for r0 in range(0, m, rows):
        mm = min(rows, m - r0)
        grid = ((n + _TILE - 1) // _TILE, (mm + _TILE - 1) // _TILE, min(batch, _Z_LIMIT))
        kern.launch(grid, (_TILE, _TILE, 1), a + r0 * a_strides[1] * isz, b, c + r0 * c_strides[1] * isz, mm, n, k,
                    batch, *a_strides, *b_strides, *c_strides)
