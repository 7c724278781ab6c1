"""`ConvexHull` in 2-D and `QhullError`. See `scipy.spatial.ConvexHull`.

The GPU discards the points that cannot be hull vertices (Akl-Toussaint: the points strictly
inside the polygon of the eight extreme points, x, y, x + y and x - y at their minimum and
maximum, found by device argmin/argmax), one compaction brings the survivors to the host and
Andrew's monotone chain orders them. For points spread over an area almost all are discarded;
points all on a circle survive, and the host sort is then the cost. 3-D and higher,
`incremental=True` and `qhull_options` take SciPy's Qhull on the host (`_delaunay.HostHull`).
"""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import from_host, to_host
from ..._sorting.searching_nonzero import nonzero
from ._delaunay import HostHull, QhullError

__all__ = ["ConvexHull", "QhullError"]


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _monotone_chain(xy, idx):
    """The hull of host points `xy` (k, 2) in counterclockwise order, as indices `idx` of them
    (Andrew 1979); collinear points on an edge are not vertices."""
    order = numpy.lexsort((xy[:, 1], xy[:, 0]))
    pts, ids = xy[order], idx[order]
    lower, upper = [], []
    for i in range(len(pts)):
        while len(lower) >= 2 and _cross(pts[lower[-2]], pts[lower[-1]], pts[i]) <= 0:
            lower.pop()
        lower.append(i)
    for i in range(len(pts) - 1, -1, -1):
        while len(upper) >= 2 and _cross(pts[upper[-2]], pts[upper[-1]], pts[i]) <= 0:
            upper.pop()
        upper.append(i)
    chain = lower[:-1] + upper[:-1]
    return ids[chain]


def _argmin(v):
    return v.argmin()


def _argmax(v):
    return v.argmax()


def _candidates(p):
    """Indices (host) of the points not strictly inside the extreme points' polygon."""
    x, y = p[:, 0], p[:, 1]
    keys = (x, y, x + y, x - y)
    ext = numpy.unique(numpy.array([int(to_host(f(k))) for k in keys for f in (_argmin, _argmax)]))
    poly = _monotone_chain(to_host(p[from_host(ext)]), ext)
    if len(poly) < 3:
        return to_host(nonzero(x == x)[0])  # degenerate: every point
    vx, vy = to_host(p[from_host(poly)]).T
    inside = None
    for k in range(len(poly)):
        ax, ay, bx, by = vx[k], vy[k], vx[(k + 1) % len(poly)], vy[(k + 1) % len(poly)]
        left = (bx - ax) * (y - ay) - (by - ay) * (x - ax) > 0
        inside = left if inside is None else inside & left
    return to_host(nonzero(~inside)[0])


class ConvexHull(HostHull):
    """See `scipy.spatial.ConvexHull`. 2-D points: the GPU filter and a host monotone chain (see
    the module); the simplices start at another vertex than Qhull's (the same counterclockwise
    cycle) and `coplanar` is empty (points on an edge are not vertices, as in Qhull, but are not
    listed). 3-D and up, `incremental=True` or `qhull_options`: SciPy's Qhull on the host (one
    round trip of the points; Qhull's arrays as device arrays).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.spatial import ConvexHull
    >>> cube = cuarray.array([[x, y, z] for x in (0., 1.) for y in (0., 1.) for z in (0., 1.)])
    >>> hull = ConvexHull(cuarray.concatenate([cube, cuarray.full((1, 3), 0.5)]))
    >>> round(hull.volume, 6), len(hull.vertices)
    (1.0, 8)
    """

    def __init__(self, points, incremental=False, qhull_options=None):
        p = as_literal_or_array(points, "ConvexHull").astype(numpy.float64)
        if p.ndim != 2:
            raise ValueError("Input points array must have 2 dimensions.")
        n, d = p.shape
        if d < 2:
            raise ValueError("Need at least 2-D data")
        self._h = None
        if d != 2 or incremental or qhull_options is not None:
            self._init_host(p, incremental, qhull_options)
            return
        if n < 3:
            raise QhullError("QH6214 qhull input error: not enough points({}) to construct initial simplex "
                             "(need 3)".format(n))
        if not bool((p == p).all()) or not bool((abs(p) < numpy.inf).all()):
            raise ValueError("Points cannot contain NaN or inf")
        cand = _candidates(p)
        hull = _monotone_chain(to_host(p[from_host(cand)]), cand)
        if len(hull) < 3:
            raise QhullError("QH6154 Qhull precision error: Initial simplex is flat")
        self._set(p, hull)

    def _set(self, p, hull):
        m = len(hull)
        xy = to_host(p[from_host(hull)])
        nxt = numpy.roll(numpy.arange(m), -1)
        edges = numpy.stack([hull, hull[nxt]], axis=1).astype(numpy.intc)
        dvec = xy[nxt] - xy
        length = numpy.hypot(dvec[:, 0], dvec[:, 1])
        normal = numpy.stack([dvec[:, 1], -dvec[:, 0]], axis=1) / length[:, None]  # outward for CCW
        eq = numpy.concatenate([normal, -(normal * xy).sum(axis=1, keepdims=True)], axis=1)
        # the facet opposite vertex 0 of edge i is the next edge, opposite vertex 1 the previous
        nbr = numpy.stack([nxt, numpy.roll(numpy.arange(m), 1)], axis=1).astype(numpy.intc)
        self._points = p
        self.ndim, self.npoints, self.nsimplex = 2, p.shape[0], m
        self.vertices = from_host(hull.astype(numpy.intc))
        self.simplices = from_host(edges)
        self.neighbors = from_host(nbr)
        self.equations = from_host(eq)
        self.coplanar = from_host(numpy.zeros((0, 3), dtype=numpy.intc))
        self.good = None
        self.area = float(length.sum())
        self.volume = float(0.5 * abs((xy[:, 0] * xy[nxt, 1] - xy[nxt, 0] * xy[:, 1]).sum()))
        self.min_bound = p.min(axis=0)
        self.max_bound = p.max(axis=0)

    def add_points(self, points, restart=False):
        """See `scipy.spatial.ConvexHull.add_points` (`incremental=True`: Qhull's, on the host)."""
        if self._h is None:  # the 2-D GPU hull is not incremental (SciPy says the same)
            raise RuntimeError("incremental mode not enabled or already closed")
        self._add(points, restart)

    def close(self):
        """See `scipy.spatial.ConvexHull.close` (releases the host Qhull state, if any)."""
        if self._h is not None:
            self._h.close()
