"""Depth-first order and tree on the host. See `scipy.sparse.csgraph.depth_first_order`.

Depth-first search is sequential (each step depends on the last), so a device version would be
one thread walking the graph; it runs on the host instead: the graph is copied to the host once
(its CSR arrays, or the dense array), SciPy's depth-first search runs there (SciPy is the
optional `cuarray[scipy]`), and the results are copied back. The results are SciPy's exactly."""

from __future__ import annotations

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import from_host, to_host
from .._sputils import issparse
from ._paths import reconstruct_path

__all__ = ["depth_first_order", "depth_first_tree"]


def _host_graph(csgraph):
    """The graph on the host, as SciPy takes it (same format)."""
    if issparse(csgraph):
        return csgraph.get()
    return to_host(as_literal_or_array(csgraph, "scipy.sparse.csgraph.depth_first_order"))


def depth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """See `scipy.sparse.csgraph.depth_first_order`. Runs on the host (SciPy's search; the graph
    copied there and the results back: cuarray int32 arrays equal to SciPy's); it needs SciPy."""
    # optional dependency: SciPy runs the sequential search
    from scipy.sparse.csgraph import depth_first_order as host_order

    out = host_order(_host_graph(csgraph), i_start, directed, return_predecessors)
    if return_predecessors:
        return from_host(out[0]), from_host(out[1])
    return from_host(out)


def depth_first_tree(csgraph, i_start, directed=True):
    """See `scipy.sparse.csgraph.depth_first_tree`: `reconstruct_path` of the depth-first
    predecessors (found on the host, as `depth_first_order`'s; the tree built on the device)."""
    _, pred = depth_first_order(csgraph, i_start, directed, True)
    return reconstruct_path(csgraph, pred, directed)
