"""Matching, flow, reordering and k-shortest paths on the host. See
`scipy.sparse.csgraph.maximum_flow`, `maximum_bipartite_matching`, `structural_rank`,
`min_weight_full_bipartite_matching`, `reverse_cuthill_mckee` and `yen`.

These are augmenting-path algorithms (Hopcroft-Karp, Edmonds-Karp, Dinic's blocking flows, LAPJVsp's
shortest augmenting paths), a breadth-first ordering whose next vertex depends on the last one
(Cuthill-McKee) and Yen's path deviations: each step extends one path found by the step before, so a
device version is a few threads walking the graph with a synchronisation per augmentation. They run on
the host instead: the graph is copied there once (its CSR/CSC arrays, or the dense array), SciPy's
routine runs (SciPy is the optional `cuarray[scipy]`), and the results are copied back once. The
results, and the exceptions for bad input, are SciPy's exactly. Device versions (push-relabel flow,
auction matching) are the next step where graphs are large enough for them to pay."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import from_host, to_host
from .._base import container
from .._sputils import issparse

__all__ = ["MaximumFlowResult", "maximum_flow", "maximum_bipartite_matching", "structural_rank",
           "min_weight_full_bipartite_matching", "reverse_cuthill_mckee", "yen"]


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


def maximum_bipartite_matching(graph, perm_type="row"):
    """See `scipy.sparse.csgraph.maximum_bipartite_matching`. Runs on the host (SciPy's
    Hopcroft-Karp; the module's docstring); the result is SciPy's, a cuarray int32 array. Needs
    SciPy."""
    from scipy.sparse.csgraph import maximum_bipartite_matching as host_match  # optional dependency

    return from_host(host_match(_host_graph(graph, "maximum_bipartite_matching"), perm_type))


def structural_rank(graph):
    """See `scipy.sparse.csgraph.structural_rank`: the size of a maximum bipartite matching, found
    on the host (SciPy's Hopcroft-Karp; the module's docstring). Returns a Python int. Needs SciPy."""
    from scipy.sparse.csgraph import structural_rank as host_rank  # optional dependency

    return int(host_rank(_host_graph(graph, "structural_rank")))


def min_weight_full_bipartite_matching(biadjacency, maximize=False):
    """See `scipy.sparse.csgraph.min_weight_full_bipartite_matching`. Runs on the host (SciPy's
    LAPJVsp; the module's docstring): the rows and columns are SciPy's, as cuarray arrays, and a
    graph without a full matching raises SciPy's ValueError. Needs SciPy."""
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching as host_lap  # optional dependency

    rows, cols = host_lap(_host_graph(biadjacency, "min_weight_full_bipartite_matching"), maximize)
    return from_host(rows), from_host(cols)


def reverse_cuthill_mckee(graph, symmetric_mode=False):
    """See `scipy.sparse.csgraph.reverse_cuthill_mckee`. Runs on the host (SciPy's ordering; the
    module's docstring), so the permutation is SciPy's exactly, a cuarray int32 array. Needs
    SciPy. A 0 x 0 CSR/CSC graph gives the empty permutation (SciPy 1.17/1.18 raise there)."""
    from scipy.sparse.csgraph import reverse_cuthill_mckee as host_rcm  # optional dependency

    host = _host_graph(graph, "reverse_cuthill_mckee")
    if getattr(host, "format", None) in ("csr", "csc") and host.shape == (0, 0):
        return from_host(numpy.zeros(0, numpy.int32))
    return from_host(host_rcm(host, symmetric_mode))


def yen(csgraph, source, sink, K, *, directed=True, return_predecessors=False, unweighted=False):
    """See `scipy.sparse.csgraph.yen`. Runs on the host (SciPy's Yen's algorithm; the module's
    docstring): the distances (and predecessors) are SciPy's, as cuarray arrays. Needs SciPy."""
    from scipy.sparse.csgraph import yen as host_yen  # optional dependency

    out = host_yen(_host_graph(csgraph, "yen"), source, sink, K, directed=directed,
                   return_predecessors=return_predecessors, unweighted=unweighted)
    if return_predecessors:
        return from_host(numpy.asarray(out[0])), from_host(numpy.asarray(out[1]))
    return from_host(numpy.asarray(out))
