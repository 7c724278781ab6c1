"""Masked-array graphs. See `scipy.sparse.csgraph.csgraph_masked_from_dense`, `csgraph_from_masked`
and `csgraph_to_masked`.

A masked array is a host NumPy object (`numpy.ma` has no device counterpart), so these three
functions are where a graph crosses the host boundary, as `cuarray.asarray` and `.get()` do:
`csgraph_masked_from_dense` copies a dense device graph to the host (one copy) and masks it there,
`csgraph_from_masked` takes a host masked array and returns a device CSR (three copies to the
device: data, indices, indptr), `csgraph_to_masked` densifies on the device (`csgraph_to_dense`)
and copies the dense graph to the host once. The null rules are SciPy's (`numpy.ma.masked_values`
for the null value, so floats within its tolerance of it are masked too)."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import from_host, to_host
from .._format_csr import csr_array
from ._tools import csgraph_to_dense

__all__ = ["csgraph_masked_from_dense", "csgraph_from_masked", "csgraph_to_masked"]

_F64 = numpy.dtype(numpy.float64)
_I32 = numpy.dtype(numpy.int32)


def _check_square(a):
    if a.ndim != 2:
        raise ValueError("graph should have two dimensions")
    if a.shape[1] != a.shape[0]:
        raise ValueError("graph should be a square array")


def csgraph_masked_from_dense(graph, null_value=0, nan_null=True, infinity_null=True, copy=True):
    """See `scipy.sparse.csgraph.csgraph_masked_from_dense`. `graph` is a dense cuarray array (or a
    Python list); the result is a host `numpy.ma.MaskedArray` of the graph's dtype (the graph copied
    to the host once, so `copy` changes nothing: the result never shares the device memory)."""
    del copy
    a = as_literal_or_array(graph, "csgraph_masked_from_dense")
    _check_square(a)
    host = to_host(a)  # the one device-to-host copy: a masked array lives on the host
    if null_value is not None:
        null_value = _F64.type(null_value)
        if numpy.isnan(null_value):
            nan_null, null_value = True, None
        elif numpy.isinf(null_value):
            infinity_null, null_value = True, None
    if null_value is None:
        out = numpy.ma.masked_array(host, numpy.zeros(host.shape, bool), copy=False)
    else:
        out = numpy.ma.masked_values(host, null_value, copy=False)
    if infinity_null:
        out.mask |= numpy.isinf(host)
    if nan_null:
        out.mask |= numpy.isnan(host)
    return out


def csgraph_from_masked(graph):
    """See `scipy.sparse.csgraph.csgraph_from_masked`. `graph` is a host masked array (or anything
    `numpy.ma.asarray` takes): the edges are its unmasked entries; the result is a float64
    `csr_array` on the device with int32 indices, as SciPy's (the CSR built on the host and copied
    to the device). A masked array without a mask (`numpy.ma.nomask`) has every entry an edge."""
    g = numpy.ma.asarray(graph)
    _check_square(g)
    n = g.shape[0]
    edge = ~numpy.ma.getmaskarray(g)
    data = numpy.ascontiguousarray(g.data[edge], dtype=_F64)
    indices = numpy.nonzero(edge)[1].astype(_I32)  # row-major: CSR order
    indptr = numpy.zeros(n + 1, _I32)
    numpy.cumsum(edge.sum(1), out=indptr[1:])
    return csr_array((from_host(data), from_host(indices), from_host(indptr)), shape=(n, n))


def csgraph_to_masked(csgraph):
    """See `scipy.sparse.csgraph.csgraph_to_masked`. `csgraph` is a cuarray CSR or CSC graph; the
    result is a host float64 `numpy.ma.MaskedArray` masking the absent edges, as SciPy's (the
    dense graph built on the device, then copied to the host once)."""
    dense = to_host(csgraph_to_dense(csgraph, null_value=numpy.nan))
    return numpy.ma.masked_invalid(dense)
