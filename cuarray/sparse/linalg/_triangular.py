"""spsolve_triangular on cuSPARSE's SpSV. See `scipy.sparse.linalg.spsolve_triangular`.

The matrix is made canonical CSR first (SpSV needs sorted rows); a zero on the diagonal raises
SciPy's LinAlgError after one device read. Several right-hand sides are solved one column at a
time (one analysis each). Integer and bool inputs are solved in float64, as SciPy does.
"""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import empty
from ..._logic.comparison import equal
from ..._logic.truth import any as any_
from .. import _sputils
from .._sputils import issparse
from .._matmul import _cusparse, _descr

__all__ = ["spsolve_triangular"]


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False, unit_diagonal=False):
    """See `scipy.sparse.linalg.spsolve_triangular` (A sparse, b a cuarray array).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[2., 0.], [1., 4.]]))
    >>> splinalg.spsolve_triangular(a, cuarray.array([2., 9.]))
    array([1., 2.])
    """
    if not issparse(A):
        raise TypeError("A must be a sparse matrix or array")
    if not isinstance(b, ndarray):
        raise TypeError("b must be a cuarray array (call cuarray.asarray first)")
    m, n = A.shape
    if m != n:
        raise ValueError("A must be a square matrix but its shape is {}.".format(A.shape))
    if b.ndim not in (1, 2) or b.shape[0] != m:
        raise ValueError("The size of the dimensions of A ({}) and b ({}) do not match".format(A.shape, b.shape))
    dt = numpy.result_type(A.dtype, b.dtype, numpy.float64 if A.dtype.kind in "biu" and b.dtype.kind in "biu"
                           else A.dtype)
    dt = _sputils.upcast(dt)
    a = A.tocsr(copy=True).astype(dt)
    a.sum_duplicates()
    if not unit_diagonal and m:
        if bool(any_(equal(a.diagonal(), 0))):
            from numpy.linalg import LinAlgError

            raise LinAlgError("A is singular: zero entry on diagonal.")

    cs = _cusparse()
    d, _keep = _descr(a, dt)
    cols = b.reshape(m, 1) if b.ndim == 1 else b
    out = empty((m, cols.shape[1]), dt)
    for j in range(cols.shape[1]):
        x = cols[:, j].astype(dt).copy()
        y = empty((m,), dt)
        if m:
            cs.spsv(d, lower, unit_diagonal, x.data.ptr, y.data.ptr, m)
        out[:, j] = y
    return out.reshape(m) if b.ndim == 1 else out
