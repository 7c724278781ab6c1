"""Extracting parts of sparse matrices: find, tril, triu, and the diagonal setter behind
`setdiag`. See `scipy.sparse.find`, `scipy.sparse.tril`, `scipy.sparse.triu`."""

from __future__ import annotations

import numpy

from . import _sputils
from . import _xp as xp
from ._base import issparse

__all__ = ["find", "tril", "triu", "setdiag_coo"]

_I64 = numpy.dtype(numpy.int64)


def find(A):
    """(row, col, values) of the nonzero entries of A, duplicates summed, in row-major order."""
    if not issparse(A):
        from ._format_coo import coo_matrix

        A = coo_matrix(A)
    c = A.tocsr(copy=True)
    c.sum_duplicates()
    c.eliminate_zeros()
    coo = c.tocoo()
    return coo.row, coo.col, coo.data


def _triangle(A, k, format, lower):  # noqa: A002
    if not issparse(A):
        from ._format_coo import coo_matrix

        A = coo_matrix(A)
    coo = A.tocoo()
    d = xp.subtract(coo.col.astype(_I64), coo.row.astype(_I64))
    keep = xp.flatnonzero(xp.less_equal(d, k) if lower else xp.greater_equal(d, k))
    out = coo._from_parts(xp.take(coo.data, keep), xp.take(coo.row, keep), xp.take(coo.col, keep), coo.shape)
    out._dedup = coo._dedup
    return out.asformat(format)


def tril(A, k=0, format=None):  # noqa: A002
    """See `scipy.sparse.tril` (COO unless `format` says otherwise)."""
    return _triangle(A, k, format, True)


def triu(A, k=0, format=None):  # noqa: A002
    """See `scipy.sparse.triu`."""
    return _triangle(A, k, format, False)


def setdiag_coo(coo, values, k):
    """A new canonical COO matrix equal to `coo` with its k-th diagonal set to `values` (a scalar,
    or a 1-D array whose first entries are used; a shorter one leaves the rest unchanged)."""
    m, n = coo.shape
    if k <= -m or k >= n:
        raise ValueError("k exceeds array dimensions")
    length = min(m + min(k, 0), n - max(k, 0))
    if _sputils.isscalarlike(values):
        vals = xp.full((length,), values, coo.dtype)
    else:
        vals = values.reshape(-1)[:length].astype(coo.dtype)
    nset = vals.size
    r0, c0 = max(-k, 0), max(k, 0)
    row = coo.row.astype(_I64)
    col = coo.col.astype(_I64)
    on = xp.logical_and(xp.equal(xp.subtract(col, row), k), xp.less(xp.subtract(row, r0), nset))
    keep = xp.flatnonzero(xp.logical_not(on))
    pos = xp.arange(nset, dtype=_I64)
    data = xp.concatenate([xp.take(coo.data, keep), vals])
    rows = xp.concatenate([xp.take(row, keep), xp.add(pos, r0)])
    cols = xp.concatenate([xp.take(col, keep), xp.add(pos, c0)])
    idt = _sputils.get_index_dtype(maxval=max(m, n))
    out = coo._from_parts(data, rows.astype(idt), cols.astype(idt), coo.shape)
    out.sum_duplicates()
    return out
