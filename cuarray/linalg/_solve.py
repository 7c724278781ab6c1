"""solve, inv, det, slogdet, tensorsolve, tensorinv (LU), pinv and lstsq (SVD).

LU runs in one kernel of ours for matrices up to 16 x 16 (`_small_solve`: registers and warp
shuffles, A and B read as they lie), on cuBLAS's getrfBatched/getrsBatched for stacks of larger
small matrices (one launch for the whole stack), else on cuSOLVER's 64-bit getrf/getrs, one call
per matrix. A C-ordered matrix is
the transpose to cuSOLVER, so A is copied once as it lies (one plain copy, cast included) and
solved with the transpose flag; B is copied once into column-major blocks, which are the result.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

from .._core.copying import astype, copyto_where_unchecked
from .._core.host_input import as_parameter
from .._core.ndarray import ndarray
from .._creation.basic import empty, ones, zeros
from .._creation.matrices import eye
from .._creation.ranges import arange
from .._indexing.inserting import diagonal
from .._logic.comparison import greater
from .._logic.content import isfinite, isnan
from .._logic.truth import all as all_, any as any_
from .._manipulation.dims import broadcast_to, expand_dims
from .._math.arithmetic import divide, multiply
from .._math.complex import conj
from .._math.explog import exp, log
from .._math.misc import abs as abs_, sign as sign_
from .._math.sums import prod, sum as sum_
from .._sorting.counting import count_nonzero
from .._sorting.searching import where
from .._statistics.order import max as max_
from ..cuda.libs import cublas_solve
from ..cuda.libs import cusolver as _cs
from . import _small_solve
from ._matmul import matmul
from ._svd import rank_svd
from ._util import (LinAlgError, as_array, assert_stacked_2d, assert_stacked_square, batch_of,
                    compute_char, info_array, natural_order, pointers, real_char,
                    stacked_copy)

__all__ = ["solve", "inv", "det", "slogdet", "tensorsolve", "tensorinv", "pinv", "lstsq",
           "SlogdetResult"]

_LSTSQ_FAILED = "SVD did not converge in Linear Least Squares"

# n at or below which a stack of more than one matrix uses cuBLAS's batched LU (one launch).
# Measured (scripts/perf/batched_lu_cutoff.py, H200, float64): batched against a cuSOLVER call a
# matrix, n = 33 / 53 / 64: 0.79 / 0.67 / 0.70 of the loop's time at 2 matrices, 0.01 at 256, 1.1 ms
# against 495 at 4096 x 53 x 53 (RBFInterpolator's neighbourhoods); n = 128 took minutes: not past 64.
BATCHED_LU_MAX_N = 64


class SlogdetResult(NamedTuple):
    sign: object
    logabsdet: object


class _LU:
    """LU factors of a stack, in place in `lu`; `piv` 1-based pivots; `infos` one int32 each;
    `table` the device pointer table of `lu` (batched path; getrs reuses it)."""

    __slots__ = ("lu", "piv", "infos", "batched", "char", "table")


def _lu_factor(lu, char) -> _LU:
    n = lu.shape[-1]
    batch = batch_of(lu)
    f = _LU()
    f.lu, f.char, f.infos = lu, char, info_array(batch)
    f.batched = batch > 1 and n <= BATCHED_LU_MAX_N
    nan = has_nan(lu)  # before getrf overwrites it: see carry_nan
    if f.batched:
        f.piv = empty(lu.shape[:-1], dtype=numpy.int32)
        f.table = pointers(lu)  # held as long as the factors (see _lu_solve)
        cublas_solve.getrf_batched(char, n, f.table.data.ptr, n, f.piv.data.ptr, f.infos.data.ptr, batch)
    else:
        f.piv = empty(lu.shape[:-1], dtype=numpy.int64)
        step = n * n * lu.dtype.itemsize
        base, pbase, ibase = lu.data.ptr, f.piv.data.ptr, f.infos.data.ptr
        for i in range(batch):
            _cs.getrf(char, n, n, base + i * step, n, pbase + i * n * 8, ibase + 4 * i)
    carry_nan(lu, nan)
    return f


def carry_nan(lu, nan) -> None:
    """Make the factors of each matrix that held a NaN (`nan`, the batch-shaped result of
    `has_nan` taken before getrf) all NaN, in place. cuSOLVER's getrf does not carry a NaN into its
    factors (on the H100, scripts/linalg_nan_getrf.py: an all-NaN matrix came back with zeros on U's
    diagonal, so solve and inv raised 'Singular matrix'; one NaN in a 40 x 40 left every factor
    finite, so solve and inv returned finite numbers), where LAPACK's factors, and so NumPy's
    solve, inv and det, hold NaN. NaN factors give NaN through getrs, det and slogdet."""
    copyto_where_unchecked(lu, lu.dtype.type(numpy.nan), nan[..., None, None])


def _lu_solve(f: _LU, trans: int, x) -> None:
    """Overwrite `x` (stack of column-major n x k blocks, same batch as the factors)."""
    n, k = x.shape[-2], x.shape[-1]
    batch = batch_of(x)
    if f.batched:
        # Pointer tables must live until getrs is enqueued: a table dropped inside the call
        # expression goes back to the pool at once, and the next table is written into the same
        # block (both arguments then pointed at B's table: the wrong solutions of an earlier run).
        b_table = pointers(x.mT)
        cublas_solve.getrs_batched(f.char, trans, n, k, f.table.data.ptr, n, f.piv.data.ptr,
                                   b_table.data.ptr, n, batch)
        return
    step, xstep = n * n * f.lu.dtype.itemsize, n * k * x.dtype.itemsize
    for i in range(batch):
        _cs.getrs(f.char, trans, n, k, f.lu.data.ptr + i * step, n, f.piv.data.ptr + i * n * 8,
                  x.data.ptr + i * xstep, n, f.infos.data.ptr + 4 * i)


def _raise_if_singular(f: _LU) -> None:
    """NumPy raises at once for a singular matrix, so this read is the semantics: an exactly zero
    pivot left on U's diagonal, LAPACK's condition (getrf finishes the factorisation, U(i, i)
    stays 0). The diagonal, not getrf's info: a run with info alone missed a singular 2 x 2.
    Two launches (compare, reduce) and one 1-byte read."""
    if bool(any_(diagonal(f.lu, 0, -2, -1) == 0).get()):
        raise LinAlgError("Singular matrix")


def _factor(a, char, batch_shape):
    """LU of `a` broadcast to `batch_shape`, copied as it lies; returns (factors, trans flag)."""
    n = a.shape[-1]
    order = natural_order(a)  # as it lies: a plain copy (a C-ordered block is A^T to the library)
    lu = stacked_copy(broadcast_to(a, batch_shape + (n, n)), char, order)
    # A row-major block read column-major is A^T, so solve with its transpose.
    return _lu_factor(lu, char), (_cs.OP_T if order == "C" else _cs.OP_N)


def solve(a, b):
    """See `numpy.linalg.solve`. The result's matrices are column-major blocks except for n <= 16,
    where they are C-ordered as NumPy's.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3.0, 1.0], [1.0, 2.0]])
    >>> b = cuarray.array([9.0, 8.0])
    >>> cuarray.round(cuarray.linalg.solve(a, b), 6)  # cuSOLVER's last bits may differ from LAPACK's
    array([2., 3.])
    """
    a, b = as_array(a, "linalg.solve"), as_array(b, "linalg.solve")
    assert_stacked_square(a)
    char = compute_char(a, b)
    n = a.shape[-1]
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
        batch = a.shape[:-2]
    else:
        if b.ndim < 2:
            raise ValueError("solve: Input operand 1 does not have enough dimensions (has {}, gufunc "
                             "core with signature (m,m),(m,n)->(m,n) requires 2)".format(b.ndim))
        batch = numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if b.shape[-2] != n:
        raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                         "signature (m,m),(m,n)->(m,n) (size {} is different from {})".format(b.shape[-2], n))
    k = b.shape[-1]
    if _small_solve.fits(n, k):
        x = _small_solve.solve(a, b, char, batch)
        return x[..., 0] if vector else x
    x = stacked_copy(broadcast_to(b, batch + (n, k)), char, "F")
    if x.size:
        f, trans = _factor(a, char, batch)
        _lu_solve(f, trans, x)
        _raise_if_singular(f)
    return x[..., 0] if vector else x


def _inverse(a, char, check: bool):
    n = a.shape[-1]
    batch = a.shape[:-2]
    if _small_solve.fits(n, n):
        # The identity is one n x n matrix read by every system (step 0), never broadcast in memory.
        return _small_solve.solve(a, eye(n, dtype=char), char, batch, check)
    x = stacked_copy(broadcast_to(eye(n, dtype=char), batch + (n, n)), char, "C")
    if x.size == 0:
        return x
    f, trans = _factor(a, char, batch)
    # Solve with the other transpose flag: the library writes inv(A^T) = inv(A)^T column-major,
    # which read row-major is inv(A), C-contiguous as NumPy's (no copy; I is its own transpose).
    _lu_solve(f, _cs.OP_N if trans == _cs.OP_T else _cs.OP_T, x)
    if check:
        _raise_if_singular(f)
    return x


def inv(a):
    """See `numpy.linalg.inv`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[2.0, 1.0], [1.0, 1.0]])
    >>> cuarray.round(cuarray.linalg.inv(a), 6)
    array([[ 1., -1.],
           [-1.,  2.]])
    >>> cuarray.linalg.inv(cuarray.ones((10, 3, 3)) + 2 * cuarray.eye(3)).shape   # a stack of matrices
    (10, 3, 3)
    """
    a = as_array(a, "linalg.inv")
    assert_stacked_square(a)
    return _inverse(a, compute_char(a), True)


def _lu_diagonal(a, char):
    """(diagonal of U, pivot parity as +-1 in `char`) of every matrix; nothing launched for n == 0."""
    n = a.shape[-1]
    f = _lu_factor(stacked_copy(a, char, natural_order(a)), char)  # det(A^T) == det(A)
    d = diagonal(f.lu, 0, -2, -1)
    swaps = count_nonzero(f.piv != arange(1, n + 1, dtype=f.piv.dtype), axis=-1)
    parity = (1 - 2 * (swaps % 2)).astype(char)
    return d, parity


def det(a):
    """See `numpy.linalg.det`. Returns a 0-d array for one matrix. No synchronisation.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1.0, 2.0], [3.0, 4.0]])
    >>> round(float(cuarray.linalg.det(a)), 6)   # a 0-d array, on the device until read
    -2.0
    >>> cuarray.linalg.det(cuarray.ones((4, 2, 2)) + cuarray.eye(2)).shape
    (4,)
    """
    a = as_array(a, "linalg.det")
    assert_stacked_square(a)
    char = compute_char(a)
    if a.size == 0:
        return ones(a.shape[:-2], dtype=char)
    d, parity = _lu_diagonal(a, char)  # (a matrix with a NaN has NaN factors: carry_nan)
    det_ = prod(d, axis=-1) * parity
    # NumPy's det is sign * exp(logdet): where the pivots' product leaves the range (complex inf * 0
    # is NaN; an overflow that later pivots bring back, an underflow) NumPy's is that, as here
    sign, logdet = _slogdet_parts(d, parity, char)
    return where(isfinite(det_) & (det_ != 0), det_, sign * exp(logdet)).astype(char)


def slogdet(a):
    """See `numpy.linalg.slogdet`. No synchronisation.

    Examples
    --------
    >>> import cuarray
    >>> sign, logabsdet = cuarray.linalg.slogdet(cuarray.array([[2.0, 0.0], [0.0, -3.0]]))
    >>> float(sign), round(float(logabsdet), 6)
    (-1.0, 1.791759)
    """
    a = as_array(a, "linalg.slogdet")
    assert_stacked_square(a)
    char = compute_char(a)
    rchar = real_char(char)
    if a.size == 0:
        return SlogdetResult(ones(a.shape[:-2], dtype=char), zeros(a.shape[:-2], dtype=rchar))
    d, parity = _lu_diagonal(a, char)
    return SlogdetResult(*_slogdet_parts(d, parity, char))


def _slogdet_parts(d, parity, char):
    """(sign, logdet) from the LU pivots `d` and the permutation's parity."""
    absd = abs_(d)
    zero = any_(absd == 0, axis=-1)
    logdet = where(zero, -numpy.inf, sum_(log(absd), axis=-1)).astype(real_char(char))
    unit = d / absd if char in "FD" else sign_(d)
    sign = where(zero, 0, prod(unit, axis=-1) * parity).astype(char)  # NaN factors: NaN, NaN
    return sign, logdet


def has_nan(a):
    """Whether each matrix of the stack `a` holds a NaN (batch-shaped bool)."""
    return any_(isnan(a), axis=(-2, -1))


def tensorsolve(a, b, axes=None):
    """See `numpy.linalg.tensorsolve`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.eye(6).reshape(6, 2, 3)
    >>> x = cuarray.linalg.tensorsolve(a, cuarray.arange(1.0, 7.0))
    >>> cuarray.round(x, 6)
    array([[1., 2., 3.],
           [4., 5., 6.]])
    """
    a, b = as_array(a, "linalg.tensorsolve"), as_array(b, "linalg.tensorsolve")
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = a.transpose(order)
    oldshape = a.shape[-(an - b.ndim):]
    size = math.prod(oldshape)
    if a.size != size ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    x = solve(a.reshape(size, size), b.reshape(-1))
    return x.reshape(oldshape)


def tensorinv(a, ind=2):
    """See `numpy.linalg.tensorinv`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.eye(4 * 6).reshape(4, 6, 8, 3)
    >>> cuarray.linalg.tensorinv(a, ind=2).shape
    (8, 3, 4, 6)
    """
    a = as_array(a, "linalg.tensorinv")
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    oldshape = a.shape
    invshape = oldshape[ind:] + oldshape[:ind]
    size = math.prod(oldshape[ind:])
    return inv(a.reshape(size, -1)).reshape(invshape)


# -- SVD-based -------------------------------------------------------------------------------
def _matmul(x, y):
    return matmul(x, y)


_NoValue = numpy._NoValue


_DOUBLE = {"f": "d", "F": "D"}


def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    """See `numpy.linalg.pinv`. float32 and complex64 input is decomposed in double precision (the
    result keeps the input's type): a single-precision SVD may leave the zero singular values of an
    exactly rank-deficient matrix (small integers, repeated rows) at rounding level, up to ~1e-7 of
    the largest, above NumPy's default cutoff 1e-15, under which LAPACK's sgesdd usually lands on
    such input; in double they fall below it too, so the rank NumPy keeps is kept.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(cuarray.linalg.pinv(cuarray.array([[1.0, 2.0], [3.0, 4.0]])), 6)
    array([[-2. ,  1. ],
           [ 1.5, -0.5]])
    >>> cuarray.linalg.pinv(cuarray.ones((3, 5))).shape
    (5, 3)
    """
    a = as_array(a, "linalg.pinv")
    assert_stacked_2d(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * numpy.finfo(a.dtype).eps  # (NumPy's ValueError for integers)
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        return empty(a.shape[:-2] + (n, m), dtype=a.dtype)  # NumPy's empty_like: any dtype, float16 too
    if hermitian:
        assert_stacked_square(a)  # (the svd's eigh checks the shape before the dtype)
    char = compute_char(a)  # (the dtype check, float16's TypeError, of the svd below)
    wide = _DOUBLE.get(char)
    u, s, vh = rank_svd(astype(a, wide) if wide else a, full_matrices=False, hermitian=hermitian)
    # NumPy's cutoff: asarray(rcond)[..., None] * max(s) per matrix, in rcond's dtype and s's promoted
    # (a Python float is a float64 array there, a strong type); an array rcond broadcasts over the stack
    if isinstance(rcond, ndarray) or numpy.ndim(rcond):
        rc = expand_dims(as_parameter(rcond, "linalg.pinv"), -1)
    else:
        rc = numpy.asarray(rcond)[()]
    large = greater(s, multiply(max_(s, axis=-1, keepdims=True), rc))
    sinv = where(large, divide(1, where(large, s, 1)), 0)
    # pinv = V diag(1/s) U^H
    res = _matmul(multiply(conj(vh).mT, sinv[..., None, :]), conj(u).mT)
    return astype(res, char) if wide else res


def lstsq(a, b, rcond=None):
    """See `numpy.linalg.lstsq`. Solved through the SVD (NumPy uses LAPACK's gelsd: same minimum-
    norm solution). The rank is read back to the host, as NumPy returns it as a number. float32 and
    complex64 input is decomposed in double precision, as NumPy's is (its default cutoff is float64's
    eps times max(M, N), and float64's eps for an `rcond` outside (0, 1), as LAPACK's gelsd); the
    results keep the input's type.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> x, residuals, rank, sv = cuarray.linalg.lstsq(a, cuarray.array([1.0, 2.0, 3.0]))
    >>> cuarray.round(x, 6), int(rank)
    (array([1., 2.]), 2)
    """
    a, b = as_array(a, "linalg.lstsq"), as_array(b, "linalg.lstsq")
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    if a.ndim != 2 or b.ndim != 2:
        raise LinAlgError("{}-dimensional array given. Array must be two-dimensional"
                          .format(a.ndim if a.ndim != 2 else b.ndim))
    m, n = a.shape
    m2, k = b.shape
    if m != m2:
        raise LinAlgError("Incompatible dimensions")
    char = compute_char(a, b)
    rchar = real_char(char)
    # NumPy solves in double precision (gelsd on float32 input cast up) with its default cutoff
    # eps(float64) * max(M, N): a float32 matrix whose small singular values lie between that and
    # float32's eps keeps its full rank (and its residuals) there, so cuarray decomposes in double too
    wide = _DOUBLE.get(char, char)
    rwide = real_char(wide)
    if rcond is None:
        rcond = numpy.finfo(numpy.float64).eps * max(n, m)
    elif not 0 < rcond < 1:  # LAPACK's dlalsd cuts at eps there (rcond=0 is not "keep every value")
        rcond = numpy.finfo(numpy.float64).eps
    kk = min(m, n)
    if kk == 0:
        x = zeros((n, k), dtype=char)
        s = empty((0,), dtype=rchar)
        resid = (sum_(abs_(b.astype(char)) ** 2, axis=0).astype(rchar)
                 if (n == 0 and m > 0) else empty((0,), dtype=rchar))
        return (x[:, 0] if vector else x), resid, numpy.int32(0), s
    # NumPy's gelsd fails on a matrix holding NaN or inf ("SVD did not converge in Linear Least
    # Squares"); cuSOLVER's SVD returns NaN there. The rank's one read-back carries the check: -1.
    try:
        aw = a.astype(wide, copy=False)
        u, s, vh = rank_svd(aw, full_matrices=False)
    except LinAlgError:
        raise LinAlgError(_LSTSQ_FAILED) from None
    large = s > rcond * s[0]
    rank = int(where(all_(isfinite(a)), count_nonzero(large), -1).get())
    if rank < 0:
        raise LinAlgError(_LSTSQ_FAILED)
    sinv = where(large, 1 / where(large, s, 1), 0).astype(rwide)
    bc = b.astype(wide, copy=False)
    x = _matmul(conj(vh).mT, _matmul(conj(u).mT, bc) * sinv[:, None])
    if rank == n and m > n:
        resid = sum_(abs_(bc - _matmul(aw, x)) ** 2, axis=0).astype(rchar)
    else:
        resid = empty((0,), dtype=rchar)
    x = x.astype(char, copy=False)
    return (x[:, 0] if vector else x), resid, numpy.int32(rank), s.astype(rchar, copy=False)
