"""The arrays of SciPy's `Delaunay` for a 2-D triangulation that is not Qhull's: the GPU
triangulation (`_delaunay_gpu`) gives simplices and neighbours, and everything else is derived
here on the device, as SciPy defines it:

- `paraboloid`: Qhull's lift (options 'Qbb' and 'Qz', SciPy's defaults): z = x*x + y*y scaled to
  [0, m] with m the largest coordinate magnitude, over [min z, 1.1 max z] (the point 'Qz' adds
  at infinity is lifted to 1.1 times the highest point). The same arithmetic as Qhull's
  qh_scalelast, so `paraboloid_scale` and `paraboloid_shift` are Qhull's bit for bit.
- `equations`: each simplex's lifted plane, unit normal pointing down (Qhull's lower hull) and
  offset, as ``normal . lifted + offset = 0``, from each triangle's circumcentre (to 1e-12 of the
  exact plane; differences of lifted values lost ~2e-12 on a small triangle far from the origin).
- `vertex_to_simplex`: the lowest-numbered simplex of each vertex (-1 for none).
- `convex_hull`: the hull edges (the simplex edges with no neighbour), in simplex order.
- `vertex_neighbor_vertices`: (indptr, indices), each vertex's neighbours in increasing order.

SciPy documents no order for these (Qhull's depends on its insertion order); the sets are
SciPy's, and the orders above are this module's (a triangulation of points in general position
is unique, so its simplices, hull and adjacency are the ones Qhull finds).
"""

from __future__ import annotations

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._manipulation.joining import concatenate, stack
from ..._math.misc import sqrt
from ..._sets.unique import unique
from ..._sorting.searching import where
from ..._sorting.searching_nonzero import nonzero
from ..._sorting.searchsorted import searchsorted

__all__ = ["paraboloid", "equations", "vertex_to_simplex", "convex_hull", "vertex_neighbor_vertices"]

_I4 = numpy.dtype(numpy.int32)


def paraboloid(points) -> tuple:
    """(paraboloid_scale, paraboloid_shift) of Qhull's lift of `points` (n, 2), host floats."""
    z = points[:, 0] * points[:, 0] + points[:, 1] * points[:, 1]  # (Qhull's order of the sum)
    lo, hi, m = (float(v) for v in to_host(stack([z.min(), z.max(), abs(points).max()])))
    hi = hi * 1.1  # the point at infinity ('Qz')
    scale = m / (hi - lo)
    return scale, -lo * scale


def equations(points, simplices, scale: float, shift: float):
    """(nsimplex, 4): each simplex's lifted plane (unit normal with a negative last component,
    then the offset)."""
    v = take(points, simplices, axis=0)  # (s, 3, 2)
    x, y = [v[:, k, 0] for k in range(3)], [v[:, k, 1] for k in range(3)]
    # The lifted plane through a triangle is z = 2 s (cx x + cy y) + s (r^2 - cx^2 - cy^2) + shift
    # with (cx, cy) its circumcentre and r its radius: from the centre relative to one vertex
    # (differences of lifted values cancel for a small triangle far from the origin), the vertex
    # opposite the longest edge (a sliver's far vertex would make the two edge vectors nearly
    # parallel: ~1e-12 of error at 1e-3 from a vertex 6 away, against ~1e-15 from the other end).
    opp = [(x[(k + 1) % 3] - x[(k + 2) % 3]) ** 2 + (y[(k + 1) % 3] - y[(k + 2) % 3]) ** 2 for k in range(3)]
    k1 = (opp[1] > opp[0]) & (opp[1] >= opp[2])
    k2 = (opp[2] > opp[0]) & (opp[2] > opp[1])

    def pick(c, shift_by):  # c[(k + shift_by) % 3] for the chosen k of each triangle
        return where(k1, c[(1 + shift_by) % 3], where(k2, c[(2 + shift_by) % 3], c[shift_by % 3]))

    x0, y0 = pick(x, 0), pick(y, 0)
    ax, ay, bx, by = pick(x, 1) - x0, pick(y, 1) - y0, pick(x, 2) - x0, pick(y, 2) - y0
    a2, b2, det2 = ax * ax + ay * ay, bx * bx + by * by, 2.0 * (ax * by - ay * bx)
    ux, uy = (by * a2 - ay * b2) / det2, (ax * b2 - bx * a2) / det2
    cx, cy = x0 + ux, y0 + uy
    alpha, beta = (2.0 * scale) * cx, (2.0 * scale) * cy
    gamma = scale * ((ux * ux + uy * uy) - (cx * cx + cy * cy)) + shift
    inv = 1.0 / sqrt(alpha * alpha + beta * beta + 1.0)
    nx, ny, nz, offset = alpha * inv, beta * inv, -inv, gamma * inv  # (the normal points down: the lower hull)
    return stack([nx, ny, nz, offset], axis=1)


def vertex_to_simplex(simplices, npoints: int):
    """(npoints,) int32: the lowest-numbered simplex holding each point, -1 for none."""
    out = full(npoints, -1, dtype=_I4)
    if simplices.shape[0]:
        verts, first = unique(simplices.reshape(-1), return_index=True)  # each vertex's first entry
        out[verts] = (first // 3).astype(_I4)
    return out


def convex_hull(simplices, neighbors):
    """(nhull, 2) int32: the edges of the simplices that have no neighbour across them."""
    i, k = nonzero(neighbors < 0)
    a = simplices[i, (k + 1) % 3]
    b = simplices[i, (k + 2) % 3]
    return stack([a, b], axis=1).astype(_I4)


def vertex_neighbor_vertices(simplices, npoints: int) -> tuple:
    """(indptr (npoints + 1,), indices) int32: the vertices sharing an edge with each vertex, in
    increasing order."""
    s = simplices.astype(numpy.int64)
    a = concatenate([s[:, 0], s[:, 1], s[:, 2], s[:, 1], s[:, 2], s[:, 0]])
    b = concatenate([s[:, 1], s[:, 2], s[:, 0], s[:, 0], s[:, 1], s[:, 2]])
    key = unique(a * npoints + b)  # sorted: by vertex, then neighbour
    indptr = searchsorted(key // npoints, arange(npoints + 1, dtype=numpy.int64))
    return indptr.astype(_I4), (key % npoints).astype(_I4)
