"""cuarray.sparse.csgraph: graph routines on sparse (or dense) adjacency matrices on the GPU. See
`scipy.sparse.csgraph`; docs/sparse.md lists what exists."""

from ._traversal import connected_components as connected_components
