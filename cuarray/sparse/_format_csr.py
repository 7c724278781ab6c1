"""Compressed Sparse Row: csr_matrix and csr_array. See `scipy.sparse.csr_array`.

The format cuSPARSE serves best: products (`@`), reductions along rows and row indexing work on
it directly; the other formats convert to it for arithmetic.
"""

from __future__ import annotations

from ._base import register, sparray, spmatrix
from ._compressed import _cs_matrix

__all__ = ["csr_matrix", "csr_array", "isspmatrix_csr"]


class _csr_base(_cs_matrix):
    _format = "csr"

    def tocsr(self, copy=False):
        return self.copy() if copy else self

    def tocsc(self, copy=False):
        return self._to_other_compressed()


@register
class csr_array(sparray, _csr_base):
    """See `scipy.sparse.csr_array`."""


@register
class csr_matrix(spmatrix, _csr_base):
    """See `scipy.sparse.csr_matrix`."""


def isspmatrix_csr(x) -> bool:
    """See `scipy.sparse.isspmatrix_csr`."""
    return isinstance(x, csr_matrix)
