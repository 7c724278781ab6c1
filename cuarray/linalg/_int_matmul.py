"""Integer and bool matrix products with a tiled kernel of ours (templates/int_matmul.cu).

cuBLAS has no exact integer GEMM for every width (and none for int64), so NumPy's integer loops
(`bb->b` ... `QQ->Q`, `??->?`) run here: exact, wrapping modulo 2^bits like NumPy. The kernel takes
any element strides, so no operand is ever copied for its layout.
"""

from __future__ import annotations

import pathlib

import numpy

from .._core import dtypes as _dtypes
from ..cuda import compiler as _compiler
from ..cuda import launch as _launch

__all__ = ["gemm", "kernel_name", "source"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "int_matmul.cu"
_TILE = 16
_Z_LIMIT = 65535
_source = None
_kernels: dict = {}


def source() -> str:
    global _source
    if _source is None:
        _source = _TEMPLATE.read_text()
    return _source


def kernel_name(dtype: numpy.dtype) -> str:
    return "cuarray_int_matmul<{}>".format(_dtypes.ctype(dtype))


def _kernel(dtype):
    k = _kernels.get(dtype)
    if k is None:
        if dtype.kind in "Mm":  # int64 on the device, but no product: NumPy's own error (UFuncTypeError)
            numpy.matmul(numpy.empty((1, 1), dtype), numpy.empty((1, 1), dtype))
        name = kernel_name(dtype)
        mod = _compiler.compile_module(source(), name_expressions=(name,), name="cuarray_int_matmul")
        k = _kernels[dtype] = mod.get_function(name).kernel
    return k


def gemm(dtype, m, n, k, a, a_strides, b, b_strides, c, c_strides, batch=1):
    """C[z] = A[z] @ B[z] for z < batch; pointers are ints, strides are (batch, row, col) in
    elements. m, n, k, batch > 0."""
    kern = _kernel(dtype)
    i64 = numpy.int64
    isz = dtype.itemsize
    rows = _Z_LIMIT * _TILE  # rows per launch: grid.y is limited to 65535 blocks
    for r0 in range(0, m, rows):
        mm = min(rows, m - r0)
        grid = ((n + _TILE - 1) // _TILE, (mm + _TILE - 1) // _TILE, min(batch, _Z_LIMIT))
        args = (a + r0 * a_strides[1] * isz, b, c + r0 * c_strides[1] * isz,
                i64(mm), i64(n), i64(k), i64(batch),
                *(i64(s) for s in a_strides), *(i64(s) for s in b_strides),
                *(i64(s) for s in c_strides))
        _launch.launch(kern, grid, (_TILE, _TILE, 1), args)
