"""cuarray.scipy.sparse.csgraph is `cuarray.sparse.csgraph`. See `scipy.sparse.csgraph`."""

from ....sparse.csgraph import connected_components as connected_components
