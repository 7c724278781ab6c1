"""solve_triangular (cuBLAS trsm), cho_factor / cho_solve (cuarray.linalg.cholesky, then two
triangular solves)."""

from __future__ import annotations

import numpy

from ...cuda.libs import cublas_trsm as _trsm
from ...linalg import _decomp
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._indexing.inserting import diagonal
from ...linalg._util import LinAlgError, batch_of, compute_char, stacked_copy
from ._validate import as_lapack, require_finite

__all__ = ["solve_triangular", "cho_factor", "cho_solve"]

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.solve_triangular` (stacks, SciPy's rule: a 1-D `b` is one vector for every
    matrix, otherwise `b` is a stack of (n, k) blocks broadcast against `a`'s). Like SciPy, a zero
    on the diagonal raises LinAlgError (one device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[2., 0.], [1., 4.]])
    >>> linalg.solve_triangular(a, cuarray.array([2., 9.]), lower=True)
    array([1., 2.])
    """
    a, b = as_lapack(a, "solve_triangular"), as_lapack(b, "solve_triangular")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    if trans not in _TRANS:
        raise ValueError("trans must be 0, 1, 2, 'N', 'T' or 'C'")
    n = a.shape[-1]
    vector = b.ndim == 1
    bb = b[..., None] if vector else b
    if b.ndim == 0 or bb.shape[-2] != n:
        raise ValueError("shapes of a {} and b {} are incompatible".format(a.shape, b.shape))
    require_finite(check_finite, a, b)
    char = compute_char(a, b)
    batch = numpy.broadcast_shapes(a.shape[:-2], bb.shape[:-2])
    x = stacked_copy(broadcast_to(bb, batch + bb.shape[-2:]), char, "F")
    if x.size == 0:
        return x[..., 0] if vector else x
    if not unit_diagonal and bool(any_(diagonal(a, 0, -2, -1) == 0).get()):
        d = diagonal(a, 0, -2, -1).reshape(-1, n).get()
        raise LinAlgError("singular matrix: resolution failed at diagonal {}".format(int(numpy.nonzero(d == 0)[1][0])))
    f = stacked_copy(broadcast_to(a, batch + (n, n)), char, "F")  # column-major A
    k = x.shape[-1]
    uplo = _trsm.FILL_LOWER if lower else _trsm.FILL_UPPER
    diag = _trsm.DIAG_UNIT if unit_diagonal else _trsm.DIAG_NON_UNIT
    astep, xstep = n * n * f.dtype.itemsize, n * k * x.dtype.itemsize
    for i in range(batch_of(f)):
        _trsm.trsm(char, _trsm.SIDE_LEFT, uplo, _TRANS[trans], diag, n, k, f.data.ptr + i * astep, n,
                   x.data.ptr + i * xstep, n)
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
    """See `scipy.linalg.cho_solve`: A x = b with A = L L^H (or U^H U).

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
        y = solve_triangular(c, bb, trans=0, lower=True, check_finite=False)
        x = solve_triangular(c, y, trans=2, lower=True, check_finite=False)
    else:
        y = solve_triangular(c, bb, trans=2, lower=False, check_finite=False)
        x = solve_triangular(c, y, trans=0, lower=False, check_finite=False)
    return x[..., 0] if vector else x
