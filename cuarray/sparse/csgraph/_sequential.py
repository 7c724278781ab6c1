"""Flow, weighted matching and k-shortest paths on the host. See
`scipy.sparse.csgraph.maximum_flow`, `min_weight_full_bipartite_matching` and `yen`.

These are augmenting-path algorithms (Edmonds-Karp, Dinic's blocking flows, LAPJVsp's shortest
augmenting paths) and Yen's path deviations: each step extends one path found by the step before,
so a device version is a few threads walking the graph with a synchronisation per augmentation.
They run on the host instead: the graph is copied there once (its CSR/CSC arrays, or the dense
array), SciPy's routine runs (SciPy is the optional `cuarray[scipy]`), and the results are copied
back once. The results, and the exceptions for bad input, are SciPy's exactly. The unweighted
matching and the reordering run on the device (_matching.py, _ordering.py); push-relabel flow is
the next step where graphs are large enough for it to pay."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import from_host, to_host
from .._base import container
from .._sputils import issparse

__all__ = ["MaximumFlowResult", "maximum_flow", "min_weight_full_bipartite_matching", "yen"]


def _host_graph(graph, fn):
    """The graph on the host as SciPy takes it (same format and kind; a dense graph dense): the one
    device-to-host copy."""
    if issparse(graph):
        return graph.get()
    return to_host(as_literal_or_array(graph, fn))


def _device_csr(host):
    """A host scipy.sparse CSR result on the device, of the same kind (array or matrix)."""
    import scipy.sparse as hs  # optional dependency, present whenever a host routine ran

    cls = container("csr", isinstance(host, hs.sparray))
    return cls((from_host(host.data), from_host(host.indices), from_host(host.indptr)), shape=host.shape)


class MaximumFlowResult:
    """See `scipy.sparse.csgraph.MaximumFlowResult`: `flow_value` (a Python int) and `flow` (a
    cuarray CSR of the input's kind)."""

    def __init__(self, flow_value, flow):
        self.flow_value = flow_value
        self.flow = flow

    def __repr__(self):
        return "MaximumFlowResult with value of %d" % self.flow_value


def maximum_flow(csgraph, source, sink, *, method="dinic"):
    """See `scipy.sparse.csgraph.maximum_flow`. Runs on the host (the module's docstring): the CSR
    graph copied there once, SciPy's Edmonds-Karp or Dinic, the flow copied back as a cuarray CSR.
    Needs SciPy."""
    from scipy.sparse.csgraph import maximum_flow as host_flow  # optional dependency

    out = host_flow(_host_graph(csgraph, "maximum_flow"), source, sink, method=method)
    return MaximumFlowResult(int(out.flow_value), _device_csr(out.flow))


def min_weight_full_bipartite_matching(biadjacency, maximize=False):
    """See `scipy.sparse.csgraph.min_weight_full_bipartite_matching`. Runs on the host (SciPy's
    LAPJVsp; the module's docstring): the rows and columns are SciPy's, as cuarray arrays, and a
    graph without a full matching raises SciPy's ValueError. Needs SciPy."""
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching as host_lap  # optional dependency

    rows, cols = host_lap(_host_graph(biadjacency, "min_weight_full_bipartite_matching"), maximize)
    return from_host(rows), from_host(cols)


def yen(csgraph, source, sink, K, *, directed=True, return_predecessors=False, unweighted=False):
    """See `scipy.sparse.csgraph.yen`. Runs on the host (SciPy's Yen's algorithm; the module's
    docstring): the distances (and predecessors) are SciPy's, as cuarray arrays. Needs SciPy."""
    from scipy.sparse.csgraph import yen as host_yen  # optional dependency

    out = host_yen(_host_graph(csgraph, "yen"), source, sink, K, directed=directed,
                   return_predecessors=return_predecessors, unweighted=unweighted)
    if return_predecessors:
        return from_host(numpy.asarray(out[0])), from_host(numpy.asarray(out[1]))
    return from_host(numpy.asarray(out))
