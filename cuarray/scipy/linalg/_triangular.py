"""solve_triangular (cuBLAS trsm), cho_factor / cho_solve (cuarray.linalg.cholesky, then two
triangular solves)."""

from __future__ import annotations

import numpy

from ...cuda.libs import cublas_trsm as _trsm
from ...linalg import _decomp
from ..._core import device_errors as _errors
from ..._core.copying import astype
from ..._core import dtypes as _dtypes
from ..._core.elementwise import Definition, KernelParam
from ..._creation.basic import empty
from ..._manipulation.dims import broadcast_to
from ..._indexing.inserting import diagonal
from ...linalg._util import LinAlgError, stacked_copy
from . import _triangular_checks as _checks
from ._validate import as_lapack, batch_shape, lapack_char, require_finite
from ...cuda import caches as _caches

__all__ = ["solve_triangular", "cho_factor", "cho_solve"]

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}

# check_finite=False: no read, so a zero on the diagonal goes to the device-error channel and is
# raised as trtrs's LinAlgError at the next synchronisation. Position i of the (batch..., n)
# diagonals is recorded as ~i: the channel keeps the maximum, so the first zero is reported.
_ZERO_DIAGONAL = 2  # device_errors flag
_RECORD_ZERO_OP = ("if (d == decltype(d)(0)) cuarray::device_error((unsigned long long*)err, 2ull, "
                   "~(unsigned long long)i, 0, n);")
_U8, _I8 = numpy.dtype(numpy.uint64), numpy.dtype(numpy.int64)
_record_defs: dict = {}
_caches.register("solve_triangular zero-diagonal definitions", _record_defs)


def record_zero_definition(dt) -> Definition:
    """The engine's elementwise kernel recording the first zero of diagonals of dtype `dt`."""
    d = _record_defs.get(dt)
    if d is None:
        params = [KernelParam("d", "in", dt, dt), KernelParam("err", "raw", _U8, _U8),
                  KernelParam("n", "scalar", _I8, _I8)]
        d = _record_defs[dt] = Definition(
            "cuarray_scipy_record_zero_diagonal_{}_uint64_int64".format(dt.name), params, _RECORD_ZERO_OP,
            preamble='typedef {} T;\n#include "cuarray/indexing.cuh"'.format(_dtypes.ctype(dt)))
    return d


def _record_zero(diag, err, n) -> None:
    """Launch the recording kernel over `diag` (any strides) into the error buffer `err`."""
    record_zero_definition(diag.dtype).run([diag], (numpy.int64(n),), diag.shape, raw=(err,))


def _singular(value, axis, size):
    return LinAlgError("singular matrix: resolution failed at diagonal {}".format((~value) % size))


_errors.register_kind(_ZERO_DIAGONAL, _singular)


def _operator(a, char, n, trans, lower):
    """(stack, leading dimension, trans, lower) for trsm: `a` itself, read in place, when each
    matrix is a column-major block of dtype `char` with a leading dimension >= n (any batch
    strides, broadcast ones included); a row-major block is the column-major transpose, solved with
    the other triangle and the other `trans` (not for trans=2 on complex data: conj(a) has no
    cuBLAS op); otherwise one column-major copy."""
    it = numpy.dtype(char).itemsize
    if a.dtype.char == char and n > 1:
        rs, cs = a.strides[-2], a.strides[-1]
        if rs == it and cs >= n * it and cs % it == 0:
            return a, cs // it, trans, lower
        if cs == it and rs >= n * it and rs % it == 0 and (trans != 2 or char in "fd"):
            return a, rs // it, 1 if trans == 0 else 0, not lower
    return stacked_copy(a, char, "F"), max(n, 1), trans, lower


def _offsets(a, batch):
    """The byte offset of each matrix of `a` broadcast to `batch`, in C order over the batch."""
    if not batch:
        return [0]
    full = broadcast_to(a, batch + a.shape[-2:])
    steps = full.strides[:-2]
    return [sum(i * s for i, s in zip(idx, steps)) for idx in numpy.ndindex(*batch)]


def _raise_on(bits: int, a) -> None:
    """SciPy's errors for the checks' bits: ValueError for an inf or NaN in either operand (first,
    as SciPy checks before solving), else trtrs's LinAlgError naming the first zero diagonal
    element (read only then)."""
    if bits & (_checks.NOT_FINITE_A | _checks.NOT_FINITE_B):
        raise ValueError("array must not contain infs or NaNs")
    if bits & _checks.ZERO_DIAGONAL:
        d = diagonal(a, 0, -2, -1).reshape(-1, a.shape[-1]).get()
        raise LinAlgError("singular matrix: resolution failed at diagonal {}".format(int(numpy.nonzero(d == 0)[1][0])))


def _record_zero_diagonal(a):
    """check_finite=False: a zero on `a`'s diagonals to the device-error channel (nothing read)."""
    if a.size:
        _record_zero(diagonal(a, 0, -2, -1), _errors.error_buffer(), a.shape[-1])
        _errors.after_launch()


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.solve_triangular` (stacks, SciPy's rule: a 1-D `b` is one vector for every
    matrix, otherwise `b` is a stack of (n, k) blocks broadcast against `a`'s). cuBLAS trsm reads
    a column- or row-major `a` in place; `b` is always copied (`overwrite_b` is accepted and
    ignored). With ``check_finite=True`` the finiteness and zero-diagonal tests (SciPy's
    ValueError and LinAlgError) are one kernel queued before the solve and read once after its
    launch (the host waits for the checks, not for the solve: `_triangular_checks`). With
    ``check_finite=False`` nothing is read: a zero on the diagonal raises SciPy's LinAlgError at the
    next synchronisation (the device-error channel, as a device index's IndexError; at the call
    under `cuarray.set_sync_index_checks`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[2., 0.], [1., 4.]])
    >>> linalg.solve_triangular(a, cuarray.array([2., 9.]), lower=True)
    array([1., 2.])
    """
    return _solve(a, b, trans, lower, unit_diagonal, check_finite, True)


def _solve(a, b, trans, lower, unit_diagonal, check_finite, singular):
    """solve_triangular; `singular` False skips the zero-diagonal test (cho_solve: SciPy's potrs
    reports no singularity, its result just holds infs or NaNs)."""
    a, b = as_lapack(a, "solve_triangular"), as_lapack(b, "solve_triangular")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    try:
        t = _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError("trans must be 0, 1, 2, 'N', 'T' or 'C', got {!r}".format(trans)) from None
    n = a.shape[-1]
    vector = b.ndim == 1
    bb = b[..., None] if vector else b
    if b.ndim == 0 or bb.shape[-2] != n:
        raise ValueError("shapes of a {} and b {} are incompatible".format(a.shape, b.shape))
    char = lapack_char(a, b)
    batch = batch_shape("solve_triangular", a.shape[:-2], bb.shape[:-2])
    if not batch and b.size == 0:  # SciPy: an empty result of the non-empty case's dtype
        require_finite(check_finite, a)
        return empty(b.shape, dtype=char)
    if bb.shape[:-2] != batch:
        bb = broadcast_to(bb, batch + bb.shape[-2:])
    # column-major B, solved in place (one matrix: astype's F order, without stacked_copy's views)
    x = astype(bb, char, order="F") if bb.ndim == 2 else stacked_copy(bb, char, "F")
    pending = None
    if check_finite:
        pending = _checks.queue(a, b, a.dtype.kind in "fc", b.dtype.kind in "fc", singular and not unit_diagonal)
    f, lda, op, low = _operator(a, char, n, t, lower)
    k = x.shape[-1]
    if x.size:
        uplo = _trsm.FILL_LOWER if low else _trsm.FILL_UPPER
        diag = _trsm.DIAG_UNIT if unit_diagonal else _trsm.DIAG_NON_UNIT
        xstep = n * k * x.dtype.itemsize
        base = f.data.ptr
        for i, off in enumerate(_offsets(f, batch)):
            _trsm.trsm(char, _trsm.SIDE_LEFT, uplo, op, diag, n, k, base + off, lda, x.data.ptr + i * xstep, n)
    if pending is not None:
        _raise_on(pending.wait(), a)
    if not check_finite and singular and not unit_diagonal:
        _record_zero_diagonal(a)  # after the solve: the launch's host time overlaps it on the device
    return x[..., 0] if vector else x


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.cho_factor`. The other triangle of the result is zero (SciPy leaves
    whatever was there; cho_solve reads only the factor's triangle either way). As SciPy 1.18's,
    the flag comes back as a NumPy bool array of the batch shape (0-d for one matrix).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> c, lower = linalg.cho_factor(cuarray.array([[4., 2.], [2., 3.]]))
    >>> cuarray.triu(c)   # the other triangle is not referenced
    array([[2.        , 1.        ],
           [0.        , 1.41421356]])
    >>> bool(lower)   # SciPy 1.18: a bool array of the batch shape (0-d here); 1.17: a bool
    False
    """
    a = as_lapack(a, "cho_factor")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("Input array is expected to be square but has the shape: {}.".format(a.shape))
    require_finite(check_finite, a)
    try:
        c = _decomp.cholesky(a, upper=not lower)
    except LinAlgError:
        raise LinAlgError("not positive definite") from None
    return c, numpy.tile(bool(lower), a.shape[:-2])


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.cho_solve`: A x = b with A = L L^H (or U^H U). As SciPy's potrs, a zero
    on the factor's diagonal raises nothing: the result holds infs or NaNs.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[4., 2.], [2., 3.]])
    >>> linalg.cho_solve(linalg.cho_factor(a), cuarray.array([8., 7.]))
    array([1.25, 1.5 ])
    """
    c, lower = c_and_lower
    # SciPy 1.18's cho_factor returns the flag as an array of the batch shape; LAPACK's potrs
    # (through f2py) reads its first element, so does this.
    flag = numpy.asarray(lower)
    lower = bool(flag.flat[0]) if flag.size else False
    c, b = as_lapack(c, "cho_solve"), as_lapack(b, "cho_solve")
    if c.ndim < 2 or c.shape[-1] != c.shape[-2]:
        raise ValueError("The factored matrix c is not square.")
    if b.ndim == 0 or b.shape[0 if b.ndim == 1 else -2] != c.shape[-1]:
        raise ValueError("incompatible dimensions ({} and {})".format(c.shape, b.shape))
    require_finite(check_finite, b, c)
    # A 1-D b is one vector for every matrix of a stacked c (SciPy's batching rule); as a column it
    # stays a column through both solves (the first one's stacked result is no longer 1-D).
    vector = b.ndim == 1
    bb = b[:, None] if vector else b
    if lower:
        y = _solve(c, bb, 0, True, False, False, False)
        x = _solve(c, y, 2, True, False, False, False)
    else:
        y = _solve(c, bb, 2, False, False, False, False)
        x = _solve(c, y, 0, False, False, False, False)
    return x[..., 0] if vector else x
