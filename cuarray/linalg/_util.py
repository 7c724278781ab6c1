"""Shared pieces of the cuSOLVER-backed linalg routines: NumPy's input checks and dtype rule,
copies that give each matrix of a stack one contiguous column-major (or row-major) block, device
pointer tables for the batched routines, and the one device-to-host read of a call's infos.

Layout convention (cuSOLVER is column-major): a C-ordered n x n block read column-major is the
transpose. Routines use that instead of a transposing copy wherever the math allows (solve with a
'T' flag, cholesky and eigh of the conjugate, svd of the transpose).
"""

from __future__ import annotations

import math

import numpy
from numpy.linalg import LinAlgError

from .._core import copying as _copying
from .._core import device_check as _device_check
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._creation.ranges import arange

__all__ = ["as_array", "LinAlgError", "compute_char", "real_char", "assert_stacked_2d",
           "assert_stacked_square", "stacked_copy", "pointers", "raise_on_info", "empty"]

_REAL = {"f": "f", "d": "d", "F": "f", "D": "d"}


def compute_char(*arrays) -> str:
    """The dtype character the routine works in: NumPy's rule for which inputs are accepted and
    which kind of result they give (ints and bools -> float64, float16 -> TypeError), but float32
    and complex64 are computed in single precision where NumPy computes in double and casts back
    (docs/linalg.md). Also where the routines refuse operands of another device."""
    if _device_check.active[0]:
        _device_check.check(arrays)
    double = False
    complex_ = False
    single_seen = False
    for a in arrays:
        dt = a.dtype
        if dt.kind in "fc":
            if dt.char not in "fdFD":
                raise TypeError("array type {} is unsupported in linalg".format(dt.name))
            complex_ |= dt.kind == "c"
            double |= dt.char in "dD"
            single_seen = True
        else:
            double = True
    if not double and not single_seen:
        double = True
    if complex_:
        return "D" if double else "F"
    return "d" if double else "f"


def real_char(char: str) -> str:
    return _REAL[char]


def assert_stacked_2d(*arrays) -> None:
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError("{}-dimensional array given. Array must be at least two-dimensional"
                              .format(a.ndim))


def assert_stacked_square(*arrays) -> None:
    for a in arrays:
        assert_stacked_2d(a)
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def empty(shape, char) -> ndarray:
    return ndarray(tuple(shape), numpy.dtype(char))


def _matrix_contiguous(a: ndarray, order: str) -> bool:
    """Each matrix of the stack is one contiguous block in `order` and the stack is dense in C
    order over those blocks (what a copy would give)."""
    if order == "C":
        return a._c
    return a.mT._c


def stacked_copy(a: ndarray, char: str, order: str = "C") -> ndarray:
    """A fresh array of `a`'s values in dtype `char` whose matrices are each one contiguous block,
    row-major ('C') or column-major ('F'), blocks laid out in C order. Routines that overwrite
    their input get exactly one copy (the cast, if any, happens in the same kernel)."""
    dt = numpy.dtype(char)
    if order == "C":
        return _copying.astype(a, dt, order="C", copy=True)
    return _copying.astype(a.mT, dt, order="C", copy=True).mT


def natural_order(a: ndarray) -> str:
    """'F' when `a`'s matrices are already column-major blocks (a transposed view), else 'C'."""
    if a.ndim >= 2 and not a._c and _matrix_contiguous(a, "F"):
        return "F"
    return "C"


def batch_of(a: ndarray) -> int:
    return math.prod(a.shape[:-2])


def pointers(a: ndarray) -> ndarray:
    """A device int64 array of the address of each matrix of a stack made by `stacked_copy`
    (one arange kernel). Keep it referenced until the library call using it is enqueued."""
    step = a.shape[-1] * a.shape[-2] * a.dtype.itemsize
    start = a.data.ptr
    return arange(start, start + batch_of(a) * step, step, dtype=numpy.int64)


def raise_on_info(infos: ndarray, message: str) -> None:
    """Read a call's device infos (one copy, which waits for the work: NumPy raises at once, so
    this sync is the semantics) and raise LinAlgError(message) if any reports failure (> 0)."""
    if infos.size and int(infos.get().max()) > 0:
        raise LinAlgError(message)


def info_array(batch: int) -> ndarray:
    return zeros(max(batch, 1), dtype=numpy.int32)
