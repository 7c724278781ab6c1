"""Conversions between dense and sparse graphs, and NegativeCycleError. See
`scipy.sparse.csgraph.csgraph_from_dense` and `csgraph_to_dense`.

Compositions of cuarray's own routines: a dense graph's edges are its entries other than the null
values (one device read, the edge count, as `nonzero` does); a sparse graph's duplicate edges keep
their smallest weight (SciPy's rule) through `minimum.at`. No kernel of their own: each step is a
single pass over the entries."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import full, zeros
from ..._indexing.inserting import take
from ..._logic.comparison import equal
from ..._logic.content import isinf, isnan
from ..._logic.ops import logical_not, logical_or
from ..._math.extrema import minimum
from ..._math.sums_scan import cumsum
from ..._manipulation.joining import concatenate
from ..._sorting.searching import where
from ..._sorting.searching_nonzero import flatnonzero
from ..._statistics.histograms import bincount
from .._sputils import issparse
from .._format_csr import csr_array

__all__ = ["NegativeCycleError", "csgraph_from_dense", "csgraph_to_dense"]

_F64 = numpy.dtype(numpy.float64)
_I32 = numpy.dtype(numpy.int32)


class NegativeCycleError(Exception):
    """See `scipy.sparse.csgraph.NegativeCycleError`."""

    def __init__(self, message=""):
        Exception.__init__(self, message)


def _square(graph, fn):
    a = as_literal_or_array(graph, fn)
    if a.ndim != 2:
        raise ValueError("graph should have two dimensions")
    if a.shape[1] != a.shape[0]:
        raise ValueError("graph should be a square array")
    return a


def null_mask(a, null_value=0, nan_null=True, infinity_null=True):
    """True where an entry of the dense graph `a` is no edge (SciPy's rule: equal to
    `null_value`, NaN where `nan_null`, +-inf where `infinity_null`; a NaN or infinite
    `null_value` turns the matching flag on)."""
    if null_value is not None:
        null_value = _F64.type(null_value)
        if numpy.isnan(null_value):
            nan_null, null_value = True, None
        elif numpy.isinf(null_value):
            infinity_null, null_value = True, None
    mask = zeros(a.shape, bool)
    if null_value is not None:
        mask = equal(a, null_value)
    if a.dtype.kind in "fc":
        if nan_null:
            mask = logical_or(mask, isnan(a))
        if infinity_null:
            mask = logical_or(mask, isinf(a))
    return mask


def csgraph_from_dense(graph, null_value=0, nan_null=True, infinity_null=True):
    """See `scipy.sparse.csgraph.csgraph_from_dense`. A dense cuarray array (or a Python list; a
    NumPy array is refused: call `cuarray.asarray`); the result is a float64 `csr_array` with
    int32 indices, as SciPy's. One device read (the edge count)."""
    a = _square(graph, "csgraph_from_dense")
    n = a.shape[0]
    edge = logical_not(null_mask(a, null_value, nan_null, infinity_null))
    flat = flatnonzero(edge)  # row-major: CSR order (one device read: the edge count)
    data = take(a.reshape(-1), flat).astype(_F64)
    if n == 0:
        return csr_array((data, flat.astype(_I32), zeros((1,), _I32)), shape=(0, 0))
    row = (flat // n).astype(_I32)
    indptr = concatenate([zeros((1,), _I32), cumsum(bincount(row, minlength=n), dtype=_I32)])
    return csr_array((data, (flat % n).astype(_I32), indptr), shape=(n, n))


def csgraph_to_dense(csgraph, null_value=0):
    """See `scipy.sparse.csgraph.csgraph_to_dense`. A cuarray CSR or CSC matrix or array; the
    result is a float64 cuarray array. Duplicate edges keep their smallest weight, as SciPy's;
    explicitly stored zeros are edges of weight 0."""
    if not issparse(csgraph):
        raise ValueError("csgraph must be sparse")
    if csgraph.format not in ("csr", "csc"):
        raise ValueError("csgraph must be lil, csr, or csc format")
    m, n = csgraph.shape
    if m != n:
        raise ValueError("csgraph should be a square matrix")
    coo = csgraph.tocoo()
    out = full((n, n), numpy.inf, dtype=_F64)
    has = zeros((n, n), bool)
    if coo.nnz:
        index = (coo.row, coo.col)
        minimum.at(out, index, coo.data.astype(_F64))
        has[index] = True
    return where(has, out, _F64.type(null_value))
