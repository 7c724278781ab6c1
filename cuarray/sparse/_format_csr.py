"""Compressed Sparse Row: csr_matrix and csr_array. See `scipy.sparse.csr_array`.

The format cuSPARSE serves best: products (`@`), reductions along rows and row indexing work on
it directly; the other formats convert to it for arithmetic.
"""

from __future__ import annotations

from ._base import register, sparray, spmatrix
from ._compressed import _cs_matrix
from ._format_bsr import csr_to_bsr

__all__ = ["csr_matrix", "csr_array", "isspmatrix_csr"]


class _csr_base(_cs_matrix):
    _format = "csr"

    def tocsr(self, copy=False):
        return self.copy() if copy else self

    def tocsc(self, copy=False):
        return self._to_other_compressed()

    def tobsr(self, blocksize=None, copy=True):
        """See `scipy.sparse.csr_array.tobsr`: blocks in sorted column order within each block
        row (SciPy keeps their order of first appearance)."""
        return csr_to_bsr(self, blocksize, copy)


@register
class csr_array(sparray, _csr_base):
    """See `scipy.sparse.csr_array`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_array(cuarray.array([[1., 0.], [0., 2.]]))
    >>> a.nnz
    2
    >>> (2 * a).toarray()
    array([[2., 0.],
           [0., 4.]])
    """


@register
class csr_matrix(spmatrix, _csr_base):
    """See `scipy.sparse.csr_matrix`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 0.], [0., 2.]]))
    >>> a.nnz
    2
    >>> a @ cuarray.array([1., 1.])
    array([1., 2.])
    >>> a.toarray()
    array([[1., 0.],
           [0., 2.]])
    """


def isspmatrix_csr(x) -> bool:
    """See `scipy.sparse.isspmatrix_csr`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.isspmatrix_csr(sparse.csr_matrix(cuarray.eye(2)))
    True
    """
    return isinstance(x, csr_matrix)
