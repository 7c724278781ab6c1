"""The structure of a sparse matrix: spbandwidth and is_sptriangular. See
`scipy.sparse.linalg.spbandwidth` and `scipy.sparse.linalg.is_sptriangular`.

Both read the stored pattern (values are not checked for zeros), as SciPy's do: DIA by its
offsets, every other format by the column-minus-row gaps of its entries (a CSR/CSC matrix through
its COO pattern, on the device). One host read: the smallest and largest gap. An input that is
not a sparse matrix is converted to CSR with SciPy's SparseEfficiencyWarning.
"""

from __future__ import annotations

import warnings

import numpy

from ..._manipulation.joining import stack
from ..._math.arithmetic import subtract
from ..._statistics.order import max as max_, min as min_
from .._sputils import issparse
from .._format_csr import csr_array
from ._direct import SparseEfficiencyWarning

__all__ = ["spbandwidth", "is_sptriangular"]


def _gap_range(A, message):
    """(smallest, largest) of column - row over the stored entries; (0, 0) when none."""
    if not issparse(A):
        warnings.warn(message, SparseEfficiencyWarning, stacklevel=3)
        A = csr_array(A)
    if A.format == "dia":
        offsets = A.offsets
        if offsets.size == 0:
            return 0, 0
        lo, hi = stack([min_(offsets), max_(offsets)]).get()  # one read
        return int(lo), int(hi)
    coo = A if A.format == "coo" else A.tocoo()
    if coo.nnz == 0:
        return 0, 0
    gap = subtract(coo.col.astype("int64"), coo.row.astype("int64"))
    lo, hi = stack([min_(gap), max_(gap)]).get()  # one read
    return int(lo), int(hi)


def spbandwidth(A):
    """See `scipy.sparse.linalg.spbandwidth`: ``(below, above)`` as Python ints. A matrix with no
    stored entry gives (0, 0) (SciPy's CSR path raises on it).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csc_array(cuarray.array([[3., 0., 0.], [1., -1., 0.], [2., 0., 1.]]))
    >>> splinalg.spbandwidth(a)
    (2, 0)
    """
    lo, hi = _gap_range(A, "spbandwidth needs sparse format not LIL and BSR. Converting to CSR.")
    return max(-lo, 0), max(hi, 0)


def is_sptriangular(A):
    """See `scipy.sparse.linalg.is_sptriangular`: ``(lower, upper)`` as NumPy bools.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csc_array(cuarray.array([[3., 0., 0.], [1., -1., 0.], [2., 0., 1.]]))
    >>> splinalg.is_sptriangular(a)
    (np.True_, np.False_)
    """
    lo, hi = _gap_range(A, "is_sptriangular needs sparse and not BSR format. Converting to CSR.")
    return numpy.bool_(hi <= 0), numpy.bool_(lo >= 0)
