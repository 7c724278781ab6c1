"""cuarray.scipy.spatial: `scipy.spatial` on the GPU. See docs/scipy-spatial.md.

`distance` (pairwise distances), `transform` (rotations, rigid transforms) and the module-level
helpers; imported on its own (``import cuarray.scipy.spatial``), never by `import cuarray`."""

from . import distance as distance
from . import transform as transform
from ._delaunay import Delaunay as Delaunay
from ._delaunay import HalfspaceIntersection as HalfspaceIntersection
from ._delaunay import QhullError as QhullError
from ._delaunay import Voronoi as Voronoi
from ._delaunay import tsearch as tsearch
from ._hull import ConvexHull as ConvexHull
from ._kdtree import KDTree as KDTree
from ._kdtree import cKDTree as cKDTree
from ._minkowski import distance_matrix as distance_matrix
from ._procrustes import geometric_slerp as geometric_slerp
from ._procrustes import procrustes as procrustes
from ._minkowski import minkowski_distance as minkowski_distance
from ._minkowski import minkowski_distance_p as minkowski_distance_p
from ._plotutils import convex_hull_plot_2d as convex_hull_plot_2d
from ._plotutils import delaunay_plot_2d as delaunay_plot_2d
from ._plotutils import voronoi_plot_2d as voronoi_plot_2d
from ._rectangle import Rectangle as Rectangle
from ._spherical_voronoi import SphericalVoronoi as SphericalVoronoi
