"""cuarray.scipy.sparse.csgraph is `cuarray.sparse.csgraph`. See `scipy.sparse.csgraph`."""

from ....sparse.csgraph import connected_components as connected_components
from ....sparse.csgraph import laplacian as laplacian
from ....sparse.csgraph import NegativeCycleError as NegativeCycleError
from ....sparse.csgraph import csgraph_from_dense as csgraph_from_dense
from ....sparse.csgraph import csgraph_to_dense as csgraph_to_dense
from ....sparse.csgraph import reconstruct_path as reconstruct_path
from ....sparse.csgraph import breadth_first_order as breadth_first_order
from ....sparse.csgraph import breadth_first_tree as breadth_first_tree
from ....sparse.csgraph import bellman_ford as bellman_ford
from ....sparse.csgraph import dijkstra as dijkstra
from ....sparse.csgraph import floyd_warshall as floyd_warshall
from ....sparse.csgraph import johnson as johnson
from ....sparse.csgraph import shortest_path as shortest_path
from ....sparse.csgraph import depth_first_order as depth_first_order
from ....sparse.csgraph import depth_first_tree as depth_first_tree
from ....sparse.csgraph import minimum_spanning_tree as minimum_spanning_tree
from ....sparse.csgraph import construct_dist_matrix as construct_dist_matrix
from ....sparse.csgraph import csgraph_masked_from_dense as csgraph_masked_from_dense
from ....sparse.csgraph import csgraph_from_masked as csgraph_from_masked
from ....sparse.csgraph import csgraph_to_masked as csgraph_to_masked
from ....sparse.csgraph import maximum_flow as maximum_flow
from ....sparse.csgraph import maximum_bipartite_matching as maximum_bipartite_matching
from ....sparse.csgraph import structural_rank as structural_rank
from ....sparse.csgraph import min_weight_full_bipartite_matching as min_weight_full_bipartite_matching
from ....sparse.csgraph import reverse_cuthill_mckee as reverse_cuthill_mckee
from ....sparse.csgraph import yen as yen
