"""cuBLAS's batched LU routines (getrfBatched, getrsBatched) for stacks of small matrices.

cuSOLVER has no batched LU; cuBLAS's runs one stack of small matrices in one launch, which is what
`solve`, `inv` and `det` need for (..., n, n) stacks of small n (the 10000 x 8 x 8 bench case).
Uses the handle of `cublas` (one per (device, thread), bound to the current stream there, without
a kept workspace: these routines use none).
Pointers are ints; `ptrs` arguments are device arrays of matrix addresses; `char` is the dtype's
NumPy character. Column-major, as cuBLAS is.
"""

from __future__ import annotations

import numpy

from . import cublas as _cublas

__all__ = ["getrf_batched", "getrs_batched"]

_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


def getrf_batched(char, n, ptrs, lda, pivots, infos, batch) -> None:
    """LU with partial pivoting of `batch` n x n matrices in place; `pivots` int32[batch * n],
    `infos` int32[batch] (device)."""
    lib = _cublas.bindings()
    getattr(lib, _PREFIX[char] + "getrf_batched")(_cublas.handle(False), n, ptrs, lda, pivots, infos, batch)


def getrs_batched(char, trans, n, nrhs, a_ptrs, lda, pivots, b_ptrs, ldb, batch) -> None:
    """Solve op(A_i) X_i = B_i with `getrf_batched`'s factors; B_i overwritten. `trans` is 0/1/2
    (N/T/C). Its info is a host int that only reports invalid arguments (the binding raises)."""
    lib = _cublas.bindings()
    info = numpy.zeros(1, numpy.int32)
    getattr(lib, _PREFIX[char] + "getrs_batched")(_cublas.handle(False), trans, n, nrhs, a_ptrs, lda, pivots,
                                                  b_ptrs, ldb, info.ctypes.data, batch)
    if info[0] != 0:
        raise ValueError("cublas getrsBatched: invalid argument {}".format(-int(info[0])))
