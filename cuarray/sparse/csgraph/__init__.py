"""cuarray.sparse.csgraph: graph routines on sparse (or dense) adjacency matrices on the GPU. See
`scipy.sparse.csgraph`; docs/sparse.md lists what exists."""

from ._traversal import connected_components as connected_components
from ._laplacian import laplacian as laplacian
from ._tools import NegativeCycleError as NegativeCycleError
from ._tools import csgraph_from_dense as csgraph_from_dense
from ._tools import csgraph_to_dense as csgraph_to_dense
from ._paths import reconstruct_path as reconstruct_path
from ._bfs import breadth_first_order as breadth_first_order
from ._bfs import breadth_first_tree as breadth_first_tree
from ._shortest import bellman_ford as bellman_ford
from ._shortest import dijkstra as dijkstra
from ._shortest import floyd_warshall as floyd_warshall
from ._shortest import johnson as johnson
from ._shortest import shortest_path as shortest_path
from ._dfs import depth_first_order as depth_first_order
from ._dfs import depth_first_tree as depth_first_tree
from ._mst import minimum_spanning_tree as minimum_spanning_tree
from ._paths import construct_dist_matrix as construct_dist_matrix
from ._masked import csgraph_masked_from_dense as csgraph_masked_from_dense
from ._masked import csgraph_from_masked as csgraph_from_masked
from ._masked import csgraph_to_masked as csgraph_to_masked
from ._sequential import maximum_flow as maximum_flow
from ._matching import maximum_bipartite_matching as maximum_bipartite_matching
from ._matching import structural_rank as structural_rank
from ._sequential import min_weight_full_bipartite_matching as min_weight_full_bipartite_matching
from ._ordering import reverse_cuthill_mckee as reverse_cuthill_mckee
from ._sequential import yen as yen
