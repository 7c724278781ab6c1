"""Compressed Sparse Column: csc_matrix and csc_array. See `scipy.sparse.csc_array`.

A CSC matrix is the CSR matrix of its transpose over the same arrays (`A.T` is free), which is
how products and indexing reach it; `tocsr` re-sorts by rows.
"""

from __future__ import annotations

from .._indexing.inserting import take
from . import _canonical as canon
from ._base import register, sparray, spmatrix
from ._compressed import _cs_matrix

__all__ = ["csc_matrix", "csc_array", "isspmatrix_csc"]


class _csc_base(_cs_matrix):
    _format = "csc"

    def tocsc(self, copy=False):
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        return self._to_other_compressed()

    def nonzero(self) -> tuple:
        """(row, col) of the nonzero stored entries in C order, as SciPy's CSC (and NumPy's
        nonzero) give them: storage order (by column) stably sorted by row."""
        row, col = super().nonzero()
        order = canon.sort_keys(row)[1]
        return take(row, order), take(col, order)


@register
class csc_array(sparray, _csc_base):
    """See `scipy.sparse.csc_array`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csc_array(cuarray.array([[1., 0.], [3., 2.]]))
    >>> a.indices
    array([0, 1, 1], dtype=int32)
    """


@register
class csc_matrix(spmatrix, _csc_base):
    """See `scipy.sparse.csc_matrix`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csc_matrix(cuarray.array([[1., 0.], [3., 2.]]))
    >>> a.indptr
    array([0, 2, 3], dtype=int32)
    >>> a.toarray()
    array([[1., 0.],
           [3., 2.]])
    """


def isspmatrix_csc(x) -> bool:
    """See `scipy.sparse.isspmatrix_csc`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.isspmatrix_csc(sparse.csr_matrix(cuarray.eye(2)))
    False
    """
    return isinstance(x, csc_matrix)
