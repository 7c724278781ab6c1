"""Stacks of small systems (n <= 16) solved by one kernel of ours (templates/small_solve.cu).

`solve` and `inv` of small matrices are launch-bound: cuBLAS's getrfBatched + getrsBatched take
two pointer tables (two kernels), the copies into column-major blocks, and the two routines; the
kernel here reads A and B as they lie when their matrices are row-major blocks (a single matrix
broadcast over the stack included), writes X in C order as NumPy does, and flags an exactly zero
pivot (LAPACK's singular matrix) in one int32 that the caller reads back.
"""

from __future__ import annotations

import pathlib

import numpy

from .._creation.basic import empty, zeros
from .._manipulation.dims import broadcast_to
from ..cuda.kernel_family import KernelFamily
from ._util import LinAlgError, batch_of, stacked_copy

__all__ = ["MAX_N", "MAX_K", "fits", "solve", "kernel_name", "source"]

# Orders up to which the kernel is used: 16 lanes hold 16 rows (a 16 x 16 complex128 system is 64
# registers of row data). Right-hand sides are solved one column at a time (2n shuffles each), so
# a wide B is left to cuBLAS/cuSOLVER, which parallelise over its columns.
MAX_N = 16
MAX_K = 64
_BLOCK = 128
_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "small_solve.cu"
_CTYPE = {"f": "float", "d": "double", "F": "cuarray::complex<float>", "D": "cuarray::complex<double>"}


def source() -> str:
    return _TEMPLATE.read_text()


SMALL_SOLVE = KernelFamily("cuarray_small_solve", source, kernels=(
    "cuarray_small_solve<T, W>(const T* a, long long a_step, const T* b, long long b_step, T* x, int n, "
    "int k, long long batch, int* singular)",
))


def _width(n: int) -> int:
    w = 1
    while w < n:
        w *= 2
    return w


def kernel_name(char: str, n: int) -> str:
    return "cuarray_small_solve<{}, {}>".format(_CTYPE[char], _width(n))


def _kernel(char: str, n: int):
    return SMALL_SOLVE.kernel(kernel_name(char, n))


def fits(n: int, k: int) -> bool:
    return 1 <= n <= MAX_N and k <= MAX_K


def _operand(x, batch_shape, char):
    """(array, step in elements) for the kernel: `x` itself when its matrices are row-major blocks
    of dtype `char` (step 0 when one matrix serves the whole stack), else a C-ordered copy."""
    rows, cols = x.shape[-2:]
    if x.dtype.char == char and x.data.ptr % x.dtype.itemsize == 0:
        if x.ndim == 2 or batch_of(x) == 1:
            m = x.reshape(rows, cols) if x.ndim > 2 else x
            if m._c:
                return m, 0
        elif x.shape[:-2] == tuple(batch_shape) and x._c:
            return x, rows * cols
    return stacked_copy(broadcast_to(x, tuple(batch_shape) + (rows, cols)), char, "C"), rows * cols


def solve(a, b, char: str, batch_shape, check: bool = True) -> object:
    """X with A X = B for every matrix of the broadcast stack; `b` is (..., n, k) and `fits(n, k)`.
    With `check`, raises LinAlgError('Singular matrix') after the kernel, as NumPy does (the read
    waits for the device); without it a singular matrix gives inf/nan and nothing waits."""
    n, k = a.shape[-1], b.shape[-1]
    batch_shape = tuple(batch_shape)
    x = empty(batch_shape + (n, k), dtype=char)
    if x.size == 0:
        return x
    am, astep = _operand(a, batch_shape, char)
    bm, bstep = _operand(b, batch_shape, char)
    batch = batch_of(x)
    flag = zeros(1, dtype=numpy.int32) if check else None
    w = _width(n)
    blocks = (batch * w + _BLOCK - 1) // _BLOCK
    _kernel(char, n).launch(blocks, _BLOCK, am.data.ptr, astep, bm.data.ptr, bstep, x.data.ptr, n, k, batch,
                            flag.data.ptr if check else 0)
    if check and int(flag.get()[0]):
        raise LinAlgError("Singular matrix")
    return x
