"""Extracting parts of sparse matrices: find, tril, triu, and the diagonal setter behind
`setdiag`. See `scipy.sparse.find`, `scipy.sparse.tril`, `scipy.sparse.triu`."""

from __future__ import annotations

import numpy

from .._creation.basic import full
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import equal, greater_equal, less, less_equal
from .._logic.ops import logical_and, logical_not
from .._manipulation.joining import concatenate
from .._math.arithmetic import add, subtract
from .._sorting.searching_nonzero import flatnonzero
from . import _sputils
from ._sputils import issparse
from ._format_coo import coo_matrix

__all__ = ["find", "tril", "triu", "setdiag_coo"]

_I64 = numpy.dtype(numpy.int64)


def find(A):
    """(row, col, values) of the nonzero entries of A, duplicates summed, in row-major order.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> rows, cols, values = sparse.find(sparse.csr_matrix(cuarray.array([[0., 3.], [4., 0.]])))
    >>> rows
    array([0, 1], dtype=int32)
    >>> cols
    array([1, 0], dtype=int32)
    >>> values
    array([3., 4.])
    """
    if not issparse(A):
        A = coo_matrix(A)
    c = A.tocsr(copy=True)
    c.sum_duplicates()
    c.eliminate_zeros()
    coo = c.tocoo()
    return coo.row, coo.col, coo.data


def _triangle(A, k, format, lower):  # noqa: A002
    if not issparse(A):
        A = coo_matrix(A)
    coo = A.tocoo()
    d = subtract(coo.col.astype(_I64), coo.row.astype(_I64))
    keep = flatnonzero(less_equal(d, k) if lower else greater_equal(d, k))
    out = coo._from_parts(take(coo.data, keep), take(coo.row, keep), take(coo.col, keep), coo.shape)
    out._dedup = coo._dedup
    return out.asformat(format)


def tril(A, k=0, format=None):  # noqa: A002
    """See `scipy.sparse.tril` (COO unless `format` says otherwise).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.tril(sparse.csr_matrix(cuarray.array([[1., 2.], [3., 4.]]))).toarray()
    array([[1., 0.],
           [3., 4.]])
    """
    return _triangle(A, k, format, True)


def triu(A, k=0, format=None):  # noqa: A002
    """See `scipy.sparse.triu`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.triu(sparse.csr_matrix(cuarray.array([[1., 2.], [3., 4.]]))).toarray()
    array([[1., 2.],
           [0., 4.]])
    """
    return _triangle(A, k, format, False)


def setdiag_coo(coo, values, k):
    """A new canonical COO matrix equal to `coo` with its k-th diagonal set to `values` (a scalar,
    or a 1-D array whose first entries are used; a shorter one leaves the rest unchanged)."""
    m, n = coo.shape
    if k <= -m or k >= n:
        raise ValueError("k exceeds array dimensions")
    length = min(m + min(k, 0), n - max(k, 0))
    if _sputils.isscalarlike(values):
        vals = full((length,), values, coo.dtype)
    else:
        vals = values.reshape(-1)[:length].astype(coo.dtype)
    nset = vals.size
    r0, c0 = max(-k, 0), max(k, 0)
    row = coo.row.astype(_I64)
    col = coo.col.astype(_I64)
    on = logical_and(equal(subtract(col, row), k), less(subtract(row, r0), nset))
    keep = flatnonzero(logical_not(on))
    pos = arange(nset, dtype=_I64)
    data = concatenate([take(coo.data, keep), vals])
    rows = concatenate([take(row, keep), add(pos, r0)])
    cols = concatenate([take(col, keep), add(pos, c0)])
    idt = _sputils.get_index_dtype(maxval=max(m, n))
    out = coo._from_parts(data, rows.astype(idt), cols.astype(idt), coo.shape)
    out.sum_duplicates()
    return out
