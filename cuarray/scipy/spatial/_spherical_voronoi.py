"""`SphericalVoronoi`: the Voronoi diagram of points on a sphere, as SciPy builds it (T. Reddy and
others, SciPy 0.19): the diagram's vertices are the outward unit normals of the generators'
convex hull's facets, scaled to the sphere, and each generator's region is the set of hull
facets that touch it.

The hull is this package's `ConvexHull` run through SciPy's Qhull on the host in every dimension
(with SciPy's own options, so the facets, hence the vertices, the regions and the order of the 2-D
areas, are SciPy's: points on a sphere are all hull vertices, so the 2-D GPU filter would discard
none of them and only change the facets' order); the input checks (rank by a device SVD of the centred points,
duplicates by `KDTree.query_pairs`, radii) and the areas (solid angles of the triangles fanned
out from each generator, or arc lengths in 2-D) are device work. The regions are SciPy's host
lists of vertex indices, built from one host copy of the hull's simplices, and
`sort_vertices_of_regions` orders them by SciPy's walk around each generator (host work over
those lists)."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import from_host, to_host
from ..._creation.basic import zeros
from ..._manipulation.joining import concatenate
from ..._math.misc import abs as abs_
from ..._math.misc import sqrt
from ..._math.sums_scan import cumsum
from ..._math.trigonometric import arccos, arctan2
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ...linalg._svd import svd
from ._hull import ConvexHull
from ._kdtree import KDTree

__all__ = ["SphericalVoronoi"]


def _dot(a, b):
    return (a * b).sum(axis=-1)


def _solid_angles(r):
    """Solid angles of the spherical triangles (n, 3, 3) of unit vectors (Van Oosterom and
    Strackee's formula, as SciPy): |2 atan2(det, 1 + a.b + b.c + c.a)|."""
    a, b, c = r[:, 0], r[:, 1], r[:, 2]
    cross = concatenate([(b[:, 1] * c[:, 2] - b[:, 2] * c[:, 1])[:, None],
                         (b[:, 2] * c[:, 0] - b[:, 0] * c[:, 2])[:, None],
                         (b[:, 0] * c[:, 1] - b[:, 1] * c[:, 0])[:, None]], axis=1)
    return abs_(2 * arctan2(_dot(a, cross), 1 + _dot(a, b) + _dot(b, c) + _dot(c, a)))


def _walk_region(n, region, simplices):
    """SciPy's ordering of generator n's facets (its `_voronoi.sort_vertices_of_regions`): from
    the first, repeatedly to the first remaining facet holding the last facet's far vertex (the
    edge through n they share), as many steps as the region has facets."""
    current = region[0]
    vertex = next((k for k in simplices[current] if k != n), None)
    out = [current]
    remaining = [s for s in region if s != current]
    while len(region) > len(out):
        current = next((s for s in remaining if vertex in simplices[s]), current)
        vertex = next((k for k in simplices[current] if k != n and k != vertex), vertex)
        out.append(current)
        remaining = [s for s in remaining if s != current]
    return [int(s) for s in out]


class SphericalVoronoi:
    """See `scipy.spatial.SphericalVoronoi`. `points`, `center`, `vertices` and the areas are
    device arrays; `regions` are SciPy's host lists of vertex indices (the hull is Qhull's, so
    they are SciPy's exactly)."""

    def __init__(self, points, radius=1, center=None, threshold=1e-06):
        if radius is None:
            raise ValueError("`radius` is `None`. Please provide a floating point number (i.e. `radius=1`).")
        self.radius = float(radius)
        self.points = as_literal_or_array(points, "SphericalVoronoi").astype(numpy.float64)
        self._dim = self.points.shape[1]
        if center is None:
            self.center = zeros(self._dim)
        else:
            self.center = as_parameter(center, "SphericalVoronoi").astype(numpy.float64)
        tol = threshold * self.radius
        # the rank of the generators around the first (a device SVD of an (n, dim) matrix)
        s = svd(self.points - self.points[0], compute_uv=False)
        self._rank = int(to_host((s > tol).sum()))
        if self._rank < self._dim:
            raise ValueError(f"Rank of input points must be at least {self._dim}")
        if KDTree(self.points).query_pairs(tol, output_type="ndarray").shape[0]:
            raise ValueError("Duplicate generators present.")
        diff = self.points - self.center
        radii = sqrt((diff * diff).sum(axis=1))
        if float(to_host(max_(abs_(radii - self.radius)))) >= tol:
            raise ValueError("Radius inconsistent with generators.")
        self._calc_vertices_regions()

    def _calc_vertices_regions(self):
        # Qhull with SciPy's default options for ConvexHull(points) ("Qt", and "Qx" from 5-D up):
        # options must be given to take the host path, and given ones replace SciPy's defaults
        conv = ConvexHull(self.points, qhull_options="Qt Qx" if self._dim >= 5 else "Qt")
        self.vertices = self.radius * conv.equations[:, :-1] + self.center
        simplices = numpy.asarray(to_host(conv.simplices))
        self._simplices = simplices
        # each generator's facets: the facets' indices grouped by the vertex they hold (host lists)
        tri_indices = numpy.repeat(numpy.arange(len(simplices)), self._dim)
        self._point_indices = simplices.ravel()
        self._indices = numpy.argsort(self._point_indices, kind="mergesort")
        flat = tri_indices[self._indices].astype(numpy.intp)
        self._intervals = numpy.cumsum(numpy.bincount(self._point_indices + 1))
        self.regions = [list(flat[self._intervals[i]:self._intervals[i + 1]])
                        for i in range(len(self._intervals) - 1)]

    def sort_vertices_of_regions(self):
        """See `scipy.spatial.SphericalVoronoi.sort_vertices_of_regions` (host work on the
        regions' lists)."""
        if self._dim != 3:
            raise TypeError("Only supported for three-dimensional point sets")
        simplices = self._simplices.tolist()
        self.regions = [_walk_region(n, region, simplices) for n, region in enumerate(self.regions)]

    def _calculate_areas_3d(self):
        self.sort_vertices_of_regions()
        sizes = numpy.diff(self._intervals)
        csizes = numpy.cumsum(sizes)
        point_indices = self._point_indices[self._indices]
        nbrs1 = numpy.array([r for region in self.regions for r in region], dtype=numpy.intp)
        nbrs2 = numpy.roll(nbrs1, 1)  # each region's previous vertex, cyclically
        starts = numpy.roll(csizes, 1)
        starts[0] = 0
        nbrs2[starts] = nbrs1[csizes - 1]
        p = (self.points - self.center) / self.radius
        v = (self.vertices - self.center) / self.radius
        tri = concatenate([p[from_host(point_indices)][:, None], v[from_host(nbrs1)][:, None],
                           v[from_host(nbrs2)][:, None]], axis=1)
        total = cumsum(_solid_angles(tri))[from_host(csizes - 1)]
        return concatenate([total[:1], total[1:] - total[:-1]]) * self.radius ** 2

    def _calculate_areas_2d(self):
        arcs = self.points[from_host(self._simplices)] - self.center
        d = ((arcs[:, 1] - arcs[:, 0]) ** 2).sum(axis=1)
        theta = arccos(1 - d / (2 * self.radius ** 2))
        areas = self.radius * theta
        back = _dot(arcs[:, 0], self.vertices - self.center) < 0
        return where(back, 2 * numpy.pi * self.radius - areas, areas)

    def calculate_areas(self):
        """See `scipy.spatial.SphericalVoronoi.calculate_areas` (device work)."""
        if self._dim == 2:
            return self._calculate_areas_2d()
        if self._dim == 3:
            return self._calculate_areas_3d()
        raise TypeError("Only supported for 2D and 3D point sets")
