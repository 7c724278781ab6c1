"""lu_factor, lu_solve, lu: SciPy's LU API on cuarray.linalg's LU (cuSOLVER getrf/getrs through
`cuarray.linalg._solve`; no second copy of the factorisation).

The factors are kept as LAPACK leaves them: `lu` column-major (an F-ordered array, as SciPy's),
`piv` 0-based int32. Square and rectangular matrices and stacks of them (a stack of small square
matrices takes cuBLAS's batched LU; rectangular ones one cuSOLVER getrf per matrix).
"""

from __future__ import annotations

import numpy

from ...linalg import _solve
from ..._creation.from_data import asarray
from ..._manipulation.dims import broadcast_to
from ..._creation.matrices import eye
from ..._creation.basic import ones
from ..._indexing.inserting import take_along_axis
from ..._creation.matrices import tril
from ..._creation.matrices import triu
from ..._creation.basic import zeros
from ...linalg._util import as_array, batch_of, compute_char, info_array, stacked_copy
from ..._creation.basic import empty
from ._validate import as_lapack, batch_shape, require_finite
from ...cuda.libs import cusolver as _cusolver

__all__ = ["lu_factor", "lu_solve", "lu", "permutation_from_pivots"]

_TRANS = {0: _cusolver.OP_N, 1: _cusolver.OP_T, 2: _cusolver.OP_C, "N": _cusolver.OP_N, "T": _cusolver.OP_T,
          "C": _cusolver.OP_C}


def _square(a, fn):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")


def lu_factor(a, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.lu_factor` (square or rectangular, stacks). A singular matrix is factored
    without the LinAlgWarning SciPy emits (no device read). The factors of a matrix that contains
    a NaN (check_finite=False) are all NaN.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> lu, piv = linalg.lu_factor(cuarray.array([[1., 2.], [3., 4.]]))
    >>> lu
    array([[3.        , 4.        ],
           [0.33333333, 0.66666667]])
    >>> piv
    array([1, 1], dtype=int32)
    """
    a = as_lapack(a, "lu_factor")
    if a.ndim < 2:
        raise ValueError("expected at least a 2-D array, got shape {}".format(a.shape))
    require_finite(check_finite, a)
    char = compute_char(a)
    lu = stacked_copy(a, char, "F")  # column-major: LAPACK factors A itself
    m, n = a.shape[-2:]
    k = min(m, n)
    if lu.size == 0:
        return lu, zeros(a.shape[:-2] + (k,), dtype=numpy.int32)
    if m == n:
        piv = _solve._lu_factor(lu, char).piv  # (NaN factors for a matrix with a NaN: carry_nan)
    else:
        # cuarray.linalg's LU is for square systems; the rectangular factorisation is the same
        # getrf call with m != n, one per matrix, with the same NaN rule.
        nan = None if check_finite else _solve.has_nan(lu)  # (checked finite otherwise: no pass)
        piv = empty(a.shape[:-2] + (k,), dtype=numpy.int64)
        infos = info_array(batch_of(lu))
        step = m * n * lu.itemsize
        for i in range(batch_of(lu)):
            _cusolver.getrf(char, m, n, lu.data.ptr + i * step, m, piv.data.ptr + i * k * 8, infos.data.ptr + 4 * i)
        if nan is not None:
            _solve.carry_nan(lu, nan)
    return lu, (piv - 1).astype(numpy.int32).reshape(a.shape[:-2] + (k,))


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.lu_solve` (stacks, SciPy's rule: a 1-D `b` is one vector for every
    matrix, otherwise `b` is a stack of (n, k) blocks broadcast against the factors').

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[1., 2.], [3., 4.]])
    >>> lu_and_piv = linalg.lu_factor(a)
    >>> linalg.lu_solve(lu_and_piv, cuarray.array([5., 11.]))
    array([1., 2.])
    """
    lu, piv = lu_and_piv
    lu, b, piv = as_lapack(lu, "lu_solve"), as_lapack(b, "lu_solve"), as_array(piv, "lu_solve")
    _square(lu, "lu_solve")
    if trans not in _TRANS:
        raise ValueError("trans must be 0, 1 or 2")
    n = lu.shape[-1]
    vector = b.ndim == 1
    bb = b[..., None] if vector else b
    if b.ndim == 0 or bb.shape[-2] != n:
        raise ValueError("Shapes of lu {} and b {} are incompatible".format(lu.shape[-2:], b.shape))
    batch = batch_shape("lu_solve", lu.shape[:-2], piv.shape[:-1], bb.shape[:-2])
    require_finite(check_finite, b)  # SciPy checks b only, not the factors
    char = compute_char(lu, b)
    x = stacked_copy(broadcast_to(bb, batch + bb.shape[-2:]), char, "F")
    if x.size:
        f = _solve._LU()
        f.lu = stacked_copy(broadcast_to(lu, batch + (n, n)), char, "F")
        f.char, f.batched, f.table = char, False, None
        # C order explicitly: getrs below steps through the pivots matrix by matrix, and a 'K'-order
        # cast of a broadcast piv keeps the broadcast axis innermost (NumPy's layout rule), so a
        # b stacked deeper than the factors read another matrix's pivots.
        f.piv = broadcast_to(piv.astype(numpy.int64) + 1, batch + (n,)).astype(numpy.int64, order="C")
        f.infos = info_array(max(1, _prod(batch)))
        _solve._lu_solve(f, _TRANS[trans], x)
    return x[..., 0] if vector else x


def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def permutation_from_pivots(piv_host: numpy.ndarray, m: int | None = None) -> numpy.ndarray:
    """`rows` (..., m) with A[rows] = L U from LAPACK's 0-based row interchanges (row i swapped
    with piv[i], in order; m rows, default len(piv)), on the host: a sequential loop."""
    k = piv_host.shape[-1]
    n = k if m is None else m
    rows = numpy.broadcast_to(numpy.arange(n), piv_host.shape[:-1] + (n,)).copy()
    flat_rows, flat_piv = rows.reshape(-1, n), piv_host.reshape(-1, k)
    for r, p in zip(flat_rows, flat_piv):
        for i, j in enumerate(p):
            r[i], r[j] = r[j], r[i]
    return rows


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """See `scipy.linalg.lu` (square or rectangular, stacks). The permutation is built on the host
    from the pivots (one read of min(m, n) int32 per matrix). As SciPy's, P is real (float32 for
    float32/complex64 input, else float64), except for 1 x 1 matrices, where SciPy returns
    ones of the input's dtype (and intp zeros with `p_indices`); an empty input (any axis of
    length 0) gives SciPy's (..., 0, 0) P or (..., 0) indices.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> p, l, u = linalg.lu(cuarray.array([[1., 2.], [3., 4.]]))
    >>> l
    array([[1.        , 0.        ],
           [0.33333333, 1.        ]])
    >>> u
    array([[3.        , 4.        ],
           [0.        , 0.66666667]])
    """
    a = as_lapack(a, "lu")
    if a.ndim < 2:
        raise ValueError("The input array must be at least two-dimensional.")
    require_finite(check_finite, a)
    m, n = a.shape[-2:]
    k = min(m, n)
    nd = a.shape[:-2]
    a = a.astype(compute_char(a), copy=False)  # SciPy's LAPACK dtype (integers as float64)
    real_char = "f" if a.dtype.char in "fF" else "d"
    if 0 in a.shape:
        lower, upper = empty(nd + (m, k), dtype=a.dtype), empty(nd + (k, n), dtype=a.dtype)
        if permute_l:
            return lower, upper
        p = empty(nd + (0,), dtype=numpy.int32) if p_indices else empty(nd + (0, 0), dtype=real_char)
        return p, lower, upper
    if (m, n) == (1, 1):
        if permute_l:
            return ones(a.shape, dtype=a.dtype), a.copy()
        p = zeros(nd + (1,), dtype=numpy.intp) if p_indices else ones(a.shape, dtype=a.dtype)
        return p, ones(a.shape, dtype=a.dtype), a.copy()
    lu_, piv = lu_factor(a, check_finite=False)
    lower = tril(lu_[..., :, :k], -1) + eye(m, k, dtype=lu_.dtype)
    upper = triu(lu_[..., :k, :])
    rows = permutation_from_pivots(piv.get(), m)  # A[rows] = L U
    if p_indices or permute_l:
        # A = L[inv] U where inv is the inverse permutation of rows.
        inv = numpy.argsort(rows, axis=-1).astype(numpy.int32)
        if permute_l:
            pl = take_along_axis(lower, asarray(inv)[..., :, None].astype(numpy.int64)
                                 * ones((1, k), dtype=numpy.int64), axis=-2)
            return pl, upper
        return asarray(inv), lower, upper
    pmat = numpy.zeros(rows.shape + (m,), dtype=real_char)
    numpy.put_along_axis(pmat, rows[..., :, None], 1, axis=-1)  # P^T[i, rows[i]] = 1
    p = asarray(numpy.swapaxes(pmat, -1, -2).copy())
    return p, lower, upper
