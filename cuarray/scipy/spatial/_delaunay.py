"""`Delaunay`, `HalfspaceIntersection`, and `ConvexHull` beyond the 2-D GPU path. See
`scipy.spatial.Delaunay`.

A 2-D `Delaunay` of points in general position is triangulated on the GPU (`_delaunay_gpu`:
parallel insertion and flips with certain predicate signs); its other arrays are derived on the
device (`_triangulation`). Everything else is SciPy's Qhull on the host, the points making one
round trip and Qhull's arrays (simplices, neighbors, equations, coplanar, good and the
combinatorial queries vertex_to_simplex, vertex_neighbor_vertices, convex_hull) coming back
exactly, as device arrays: 3-D and up, `furthest_site`, `incremental`, `qhull_options`, and the
2-D sets the GPU leaves to Qhull (duplicates, collinear or cocircular points, a flat set: any
predicate whose sign double arithmetic cannot make certain), HalfspaceIntersection and Voronoi.
What scales with the queries runs on the device: the barycentric `transform` (batched inverses,
with SciPy's condition limit), `find_simplex` (a walk for all queries at once from the simplex of
each one's nearest vertex, found by `KDTree`; SciPy's brute-force rule over blocks of query
points for `bruteforce=True` and for walks that do not finish), `plane_distance` and
`lift_points`.
"""

from __future__ import annotations

import sys

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import from_host, to_host
from ..._creation.basic import empty, ones
from ..._creation.from_data import ascontiguousarray
from ..._indexing.inserting import take
from ..._logic.content import isfinite
from ..._manipulation.joining import concatenate, stack
from ..._sorting.searching import where
from ...linalg._solve import _inverse
from . import _delaunay_gpu
from . import _triangulation as _tri
from ._kdtree import KDTree

__all__ = ["Delaunay", "HalfspaceIntersection", "HostHull", "QhullError", "Voronoi", "from_scipy", "host_qhull",
           "is_scipy_delaunay", "qhull", "tsearch"]


class QhullError(ValueError):
    """What SciPy's `scipy.spatial.QhullError` means (degenerate input: too few points, a flat
    set), as a ValueError (SciPy's is a RuntimeError)."""

_EPS = float(numpy.finfo(numpy.float64).eps)
# elements of the (queries x simplices x (ndim + 1)) barycentric block find_simplex computes at once
BLOCK_ELEMENTS = 1 << 24


def qhull(name, *args, **kwargs):
    """SciPy's Qhull object `name` of host arguments; its QhullError as this module's ValueError."""
    # host work: the triangulation / hull / intersection is Qhull's (no GPU Delaunay in cuarray yet)
    import scipy.spatial as host

    try:
        return getattr(host, name)(*args, **kwargs)
    except host.QhullError as e:
        raise QhullError(str(e)) from e


def _qhull_call(method, *args):
    """A host Qhull object's method; its QhullError as this module's."""
    try:
        method(*args)
    except RuntimeError as e:
        if type(e).__name__ == "QhullError":
            raise QhullError(str(e)) from e
        raise


def _host_points(x, fn):
    """Host float64 copy of a device point array (SciPy's own checks then run on it)."""
    return numpy.asarray(to_host(as_literal_or_array(x, fn)), dtype=numpy.float64)


def _query(xi, ndim, fn, message):
    x = as_literal_or_array(xi, fn)
    if x.ndim < 1 or x.shape[-1] != ndim:
        raise ValueError(message)
    return x.reshape(-1, ndim).astype(numpy.float64), x.shape[:-1]


class _QhullUser:
    """The device copies of a host Qhull object's arrays (`_h`), refreshed after add_points."""

    _ARRAYS = ()

    def _update(self):
        h = self._h
        for name in self._ARRAYS:
            v = getattr(h, name)
            setattr(self, name, None if v is None else from_host(numpy.ascontiguousarray(v)))
        self._points = from_host(numpy.ascontiguousarray(h.points))
        self.ndim, self.npoints = int(h.ndim), int(h.npoints)
        self.min_bound, self.max_bound = from_host(h.min_bound), from_host(h.max_bound)

    @property
    def points(self):
        return self._points

    def _add(self, points, restart):
        pts = _host_points(points, type(self).__name__ + ".add_points")
        _qhull_call(self._h.add_points, pts, restart)
        self._update()

    def close(self):
        """See `scipy.spatial.Delaunay.close`: releases the host Qhull state."""
        self._h.close()


class HostHull(_QhullUser):
    """A `ConvexHull` whose hull is Qhull's on the host (3-D and up, `incremental=True`,
    `qhull_options`); the 2-D default is the GPU path of `_hull.ConvexHull`."""

    _ARRAYS = ("simplices", "neighbors", "equations", "coplanar", "good")

    def _init_host(self, points, incremental, qhull_options):
        self._h = qhull("ConvexHull", _host_points(points, "ConvexHull"), incremental=incremental,
                        qhull_options=qhull_options)
        self._update()

    def _update(self):
        _QhullUser._update(self)
        h = self._h
        self.vertices = from_host(numpy.ascontiguousarray(h.vertices))
        self.nsimplex = int(h.nsimplex)
        self.area, self.volume = float(h.area), float(h.volume)


class Delaunay(_QhullUser):
    """See `scipy.spatial.Delaunay`. In 2-D (without `furthest_site`, `incremental` or
    `qhull_options`) the triangulation is made on the GPU: the same triangles as Qhull's for
    points in general position, in another order (SciPy documents none), and where Qhull's
    tolerances make near-cocircular points a triangulation that is not exactly Delaunay, the
    exact one. Sets with duplicate, collinear or cocircular points, other dimensions and the
    options above take SciPy's Qhull on the host (the points make one round trip; the arrays are
    Qhull's, as device arrays). `transform`, `find_simplex`, `plane_distance` and `lift_points`
    run on the device. `find_simplex` walks from the simplex of each query's nearest vertex (a
    `KDTree` query) towards the point, all queries at once; `bruteforce=True` (and any walk that
    does not finish or meets a degenerate simplex) tests every simplex with SciPy's brute-force
    rule. A point on a shared face may get another of the simplices that hold it than Qhull's
    walk gives.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.spatial import Delaunay
    >>> tri = Delaunay(cuarray.array([[0., 0.], [1., 0.], [0., 1.], [1., 1.]]))
    >>> tri.simplices.shape
    (2, 3)
    >>> int(tri.find_simplex(cuarray.array([5., 5.])))
    -1
    """

    _ARRAYS = ("simplices", "neighbors", "equations", "coplanar", "good")

    def __init__(self, points, furthest_site=False, incremental=False, qhull_options=None):
        self.furthest_site = bool(furthest_site)
        if not (furthest_site or incremental or qhull_options is not None):
            x = as_literal_or_array(points, "Delaunay")
            tri = _delaunay_gpu.delaunay_2d(x) if x.ndim == 2 and x.shape[1] == 2 else None
            if tri is not None:  # (None: not 2-D, or a set the GPU leaves to Qhull: see _delaunay_gpu)
                self._set_triangulation(ascontiguousarray(x, dtype=numpy.float64), *tri)
                return
        self._h = qhull("Delaunay", _host_points(points, "Delaunay"), furthest_site=furthest_site,
                        incremental=incremental, qhull_options=qhull_options)
        self._update()

    def _update(self):
        _QhullUser._update(self)
        h = self._h
        self.nsimplex = int(h.nsimplex)
        self.paraboloid_scale, self.paraboloid_shift = float(h.paraboloid_scale), float(h.paraboloid_shift)
        self._transform = self._v2s = self._vnv = self._hull = self._tree = self._nb_host = None

    def _set_triangulation(self, points, simplices, neighbors):
        """This object as the 2-D triangulation `simplices` (int32, counterclockwise) with its
        `neighbors` (-1 on the hull) of the device float64 `points` (n, 2): not Qhull's (no host
        state; `_triangulation` derives SciPy's other arrays on the device)."""
        self._h = self._host_tri = None
        self._points, self.simplices, self.neighbors = points, simplices, neighbors
        self.ndim, self.npoints, self.nsimplex = 2, int(points.shape[0]), int(simplices.shape[0])
        self.min_bound, self.max_bound = points.min(axis=0), points.max(axis=0)
        self.paraboloid_scale, self.paraboloid_shift = _tri.paraboloid(points)
        self.equations = _tri.equations(points, simplices, self.paraboloid_scale, self.paraboloid_shift)
        self.coplanar = empty((0, 3), dtype=numpy.intc)  # (duplicates go to Qhull)
        self.good = ones(self.nsimplex, dtype=numpy.intc)  # (made on the device: 8 MB of upload at 2e6 simplices)
        self._transform = self._v2s = self._vnv = self._hull = self._tree = self._nb_host = None

    def add_points(self, points, restart=False):
        """See `scipy.spatial.Delaunay.add_points` (`incremental=True`; Qhull's, on the host)."""
        if self._h is None:  # (SciPy's RuntimeError for a triangulation made without incremental=True)
            raise RuntimeError("incremental mode not enabled or already closed")
        self._add(points, restart)

    def close(self):
        """See `scipy.spatial.Delaunay.close`: releases the host Qhull state."""
        if self._h is not None:
            self._h.close()

    @property
    def transform(self):
        """The affine maps to barycentric coordinates, (nsimplex, ndim + 1, ndim), on the device:
        ``T^-1`` of ``T[:, j] = v_j - v_ndim`` and the last vertex; NaN for a simplex whose
        ``T`` has a 1-norm reciprocal condition number below 1000 eps (SciPy's limit)."""
        if self._transform is None:
            self._transform = _barycentric_transforms(self._points, self.simplices, self.ndim)
        return self._transform

    @property
    def vertex_to_simplex(self):
        if self._v2s is None:
            self._v2s = (_tri.vertex_to_simplex(self.simplices, self.npoints) if self._h is None else
                         from_host(self._h.vertex_to_simplex))
        return self._v2s

    @property
    def vertex_neighbor_vertices(self):
        if self._vnv is None:
            self._vnv = (_tri.vertex_neighbor_vertices(self.simplices, self.npoints) if self._h is None else
                         tuple(from_host(v) for v in self._h.vertex_neighbor_vertices))
        return self._vnv

    @property
    def convex_hull(self):
        if self._hull is None:
            self._hull = (_tri.convex_hull(self.simplices, self.neighbors) if self._h is None else
                          from_host(numpy.ascontiguousarray(self._h.convex_hull)))
        return self._hull

    def _neighbors_host(self):
        """The neighbours as a host array (SciPy's rule for degenerate simplices walks them there)."""
        if self._h is not None:
            return self._h.neighbors
        if self._nb_host is None:
            self._nb_host = numpy.asarray(to_host(self.neighbors))
        return self._nb_host

    def lift_points(self, x):
        """See `scipy.spatial.Delaunay.lift_points` (on the device)."""
        x = as_literal_or_array(x, "Delaunay.lift_points").astype(numpy.float64)
        z = (x * x).sum(axis=-1, keepdims=True) * self.paraboloid_scale + self.paraboloid_shift
        return concatenate([x, z], axis=-1)

    def plane_distance(self, xi):
        """See `scipy.spatial.Delaunay.plane_distance` (one GEMM on the device)."""
        x, shape = _query(xi, self.ndim, "Delaunay.plane_distance",
                          "xi has different dimensionality than triangulation")
        eq = self.equations
        d = self.ndim
        out = self.lift_points(x) @ eq[:, :d + 1].T + eq[:, d + 1]
        return out.reshape(shape + (self.nsimplex,))

    def find_simplex(self, xi, bruteforce=False, tol=None):
        """See `scipy.spatial.Delaunay.find_simplex`: a walk from each query's nearest vertex on
        the device, or SciPy's brute-force rule (see the class for points on shared faces)."""
        eps = 100 * _EPS if tol is None else float(tol)
        if eps < 0:
            raise ValueError("tol must be nonnegative")
        x, shape = _query(xi, self.ndim, "Delaunay.find_simplex", "wrong dimensionality in xi")
        bounds = (self.min_bound, self.max_bound)
        if bruteforce or x.shape[0] == 0 or self.nsimplex == 0 or self.ndim > 16:  # KDTree: 16-D at most
            return _find_simplex(self.transform, self._neighbors_host(), bounds, x, self.ndim, eps).reshape(shape)
        if self._tree is None:
            self._tree = KDTree(self._points)
        parts = []
        for lo in range(0, x.shape[0], WALK_QUERIES):  # bounds the walk's (queries, d + 1, d) gathers
            xs = x[lo:lo + WALK_QUERIES]
            finite = isfinite(xs).all(axis=-1, keepdims=True)  # NaN/inf queries: any start (then -1)
            start = take(self.vertex_to_simplex, self._tree.query(where(finite, xs, 0.0))[1])
            parts.append(_walk(self.transform, self.neighbors, where(start < 0, 0, start), xs, self.ndim, eps))
        res = parts[0] if len(parts) == 1 else concatenate(parts)
        lo, hi = bounds
        res = where(((x < lo - eps) | (x > hi + eps)).any(axis=-1), -1, res)
        left = numpy.flatnonzero(numpy.asarray(to_host(res == -2)))
        if left.size:  # unfinished walks and degenerate simplices: SciPy's brute-force rule
            idx = from_host(left)
            rest = take(x, idx, axis=0)
            res[idx] = _find_simplex(self.transform, self._neighbors_host(), bounds, rest, self.ndim, eps)
        return res.astype(numpy.intc).reshape(shape)


def is_scipy_delaunay(obj):
    """Whether `obj` is a host `scipy.spatial.Delaunay` (SciPy is not imported to find out: an
    object of SciPy's class means SciPy is already imported)."""
    host = sys.modules.get("scipy.spatial")
    return host is not None and isinstance(obj, host.Delaunay)


def from_scipy(tri):
    """A cuarray `Delaunay` over a host `scipy.spatial.Delaunay`: its Qhull state itself (nothing is
    triangulated again), its arrays copied to the device once."""
    out = Delaunay.__new__(Delaunay)
    out._h = tri
    out.furthest_site = bool(tri.furthest_site)
    out._update()
    return out


def host_qhull(tri):
    """The host `scipy.spatial.Delaunay` behind a cuarray `Delaunay` (for host work that takes
    SciPy's object: CloughTocher2DInterpolator's patches); for a triangulation that is not Qhull's,
    Qhull's of the same points, made once (for points in general position, the same triangles)."""
    if tri._h is not None:
        return tri._h
    if tri._host_tri is None:
        tri._host_tri = qhull("Delaunay", _host_points(tri.points, "Delaunay"))
    return tri._host_tri


def tsearch(tri, xi):
    """See `scipy.spatial.tsearch`: ``tri.find_simplex(xi)`` (a cuarray `Delaunay`)."""
    return tri.find_simplex(xi)


class Voronoi(_QhullUser):
    """See `scipy.spatial.Voronoi`: Qhull's on the host, as `Delaunay` (one round trip of the
    points); `vertices`, `ridge_points` and `point_region` are device arrays, `regions`,
    `ridge_vertices` and `ridge_dict` host lists and a dict, as SciPy's."""

    _ARRAYS = ("vertices", "ridge_points", "point_region")

    def __init__(self, points, furthest_site=False, incremental=False, qhull_options=None):
        self._h = qhull("Voronoi", _host_points(points, "Voronoi"), furthest_site=furthest_site,
                        incremental=incremental, qhull_options=qhull_options)
        self.furthest_site = bool(furthest_site)
        self._update()

    def _update(self):
        _QhullUser._update(self)
        self.regions = [list(r) for r in self._h.regions]
        self.ridge_vertices = [list(r) for r in self._h.ridge_vertices]

    @property
    def ridge_dict(self):
        return self._h.ridge_dict

    def add_points(self, points, restart=False):
        """See `scipy.spatial.Voronoi.add_points` (`incremental=True`; Qhull's, on the host)."""
        self._add(points, restart)


def _norm1(m):
    """The 1-norm (largest column sum of magnitudes) of each matrix of a stack."""
    return abs(m).sum(axis=-2).max(axis=-1)


def _barycentric_transforms(points, simplices, d):
    s = simplices.shape[0]
    if s == 0:
        return from_host(numpy.zeros((0, d + 1, d)))
    v = take(points, simplices, axis=0)  # (s, d + 1, d)
    r = v[:, d, :]
    t = (v[:, :d, :] - r[:, None, :]).transpose(0, 2, 1)  # t[:, i, j] = (v_j - r)_i
    tinv = _inverse(t, "d", False)  # no singularity check: a singular T gives inf/NaN, masked below
    rcond = 1.0 / (_norm1(t) * _norm1(tinv))
    good = rcond >= 1000 * _EPS  # False for NaN
    out = concatenate([tinv, r[:, None, :]], axis=1)
    return where(good[:, None, None], out, numpy.nan)


def _degenerate_events(transform, neighbors, d, eps):
    """SciPy's order of tests for find_simplex, where some simplices are degenerate (NaN
    transform): simplex i in index order, and for a degenerate i each valid neighbour j in turn,
    which holds the point with the leeway sqrt(eps) on its face shared with i. Returns (host)
    the valid simplices, the (i, j) pairs with their lower bounds, and the event order."""
    bad = numpy.asarray(to_host(transform[:, 0, 0] != transform[:, 0, 0]))
    if not bad.any():
        return None
    nb = numpy.asarray(neighbors)
    valid = numpy.flatnonzero(~bad)
    keys, pairs, lower = [(int(i), -1) for i in valid], [], []
    for i in numpy.flatnonzero(bad):
        for k in range(d + 1):
            j = int(nb[i, k])
            if j < 0 or bad[j]:
                continue
            lower.append(numpy.where(nb[j] == i, -numpy.sqrt(eps), -eps))
            pairs.append(j)
            keys.append((int(i), k))
    order = sorted(range(len(keys)), key=keys.__getitem__)
    answers = numpy.concatenate([valid, numpy.asarray(pairs, dtype=numpy.int64)])[order]
    return valid, numpy.asarray(pairs, dtype=numpy.int64), numpy.asarray(lower).reshape(-1, d + 1), order, answers


def _find_simplex(transform, neighbors, bounds, x, d, eps):
    """For each row of `x`, SciPy's brute-force answer: the first simplex in index order whose
    barycentric coordinates all lie in [-eps, 1 + eps] (a degenerate one passes the test to its
    neighbours, see `_degenerate_events`), -1 for none or a point outside the bounding box."""
    s, q = transform.shape[0], x.shape[0]
    if s == 0 or q == 0:
        return from_host(numpy.full(q, -1, dtype=numpy.intc))
    a = transform[:, :d, :]                        # (s, d, d)
    r = transform[:, d, :]                         # (s, d)
    ev = _degenerate_events(transform, neighbors, d, eps)
    if ev is not None:
        valid, pairs, lower, order, answers = ev
        valid, pairs, order, answers = (from_host(v) for v in (valid, pairs, numpy.asarray(order), answers))
        lower = from_host(lower)
    lo, hi = bounds
    step = max(1, BLOCK_ELEMENTS // (s * (d + 1)))
    parts = []
    for start in range(0, q, step):
        xs = x[start:start + step]
        diff = xs[:, None, :] - r                  # (k, s, d): A (x - r) as SciPy, not A x - A r
        cols = [(a[:, i, :] * diff).sum(axis=-1) for i in range(d)]
        last = 1.0 - cols[0]
        for ci in cols[1:]:
            last = last - ci                       # SciPy's order: 1 - c_0 - c_1 - ...
        c = stack(cols + [last], axis=-1)          # (k, s, d + 1)
        upper = c <= 1 + eps
        inside = ((c >= -eps) & upper).all(axis=-1)
        if ev is None:
            found, first = inside.any(axis=-1), inside.astype(numpy.uint8).argmax(axis=-1)
        else:
            lenient = ((take(c, pairs, axis=1) >= lower) & take(upper, pairs, axis=1)).all(axis=-1)
            events = take(concatenate([take(inside, valid, axis=1), lenient], axis=1), order, axis=1)
            found, first = events.any(axis=-1), take(answers, events.astype(numpy.uint8).argmax(axis=-1))
        outside = ((xs < lo - eps) | (xs > hi + eps)).any(axis=-1)
        parts.append(where(found & ~outside, first, -1).astype(numpy.intc))
    return parts[0] if len(parts) == 1 else concatenate(parts)


# steps of the walk find_simplex takes from the nearest vertex's simplex (then brute force for the rest)
WALK_STEPS = 64
# queries walked at once
WALK_QUERIES = 1 << 21


def _walk(transform, neighbors, start, x, d, eps):
    """A visibility walk for every query at once: from `start`, step to the neighbour across the
    face of the most negative barycentric coordinate until all coordinates lie in
    [-eps, 1 + eps] (the answer), or the face is on the hull (-1, outside). Returns the answers
    with -2 where the walk did not finish in WALK_STEPS steps or met a degenerate simplex."""
    nb = neighbors.reshape(-1)
    cur = start
    res = from_host(numpy.full(x.shape[0], -2, dtype=numpy.int64))
    for step in range(WALK_STEPS):
        t = take(transform, cur, axis=0)                  # (q, d + 1, d)
        diff = x - t[:, d, :]
        cols = [(t[:, i, :] * diff).sum(axis=-1) for i in range(d)]
        last = 1.0 - cols[0]
        for ci in cols[1:]:
            last = last - ci
        c = stack(cols + [last], axis=-1)                 # (q, d + 1)
        pending = res == -2
        flat = c[:, 0] != c[:, 0]                         # a NaN transform: left to brute force
        inside = ((c >= -eps) & (c <= 1 + eps)).all(axis=-1)
        nxt = take(nb, cur * (d + 1) + c.argmin(axis=-1))
        res = where(pending & flat, -3, res)
        res = where(pending & ~flat & inside, cur, res)
        res = where(pending & ~flat & ~inside & (nxt < 0), -1, res)
        cur = where(res == -2, nxt, cur)
        if step % 8 == 7 and not bool((res == -2).any()):
            break
    return where(res == -3, -2, res)


class HalfspaceIntersection:
    """See `scipy.spatial.HalfspaceIntersection`: Qhull's on the host (the halfspaces make one
    round trip); `intersections`, `dual_points`, `dual_equations`, `dual_vertices`,
    `halfspaces` and `interior_point` are device arrays, `dual_facets` a list as SciPy's."""

    def __init__(self, halfspaces, interior_point, incremental=False, qhull_options=None):
        hs = _host_points(halfspaces, "HalfspaceIntersection")
        # a small parameter: host sequences are accepted, as by SciPy
        ip = numpy.asarray(to_host(as_parameter(interior_point, "HalfspaceIntersection")), dtype=numpy.float64)
        self._h = qhull("HalfspaceIntersection", hs, ip, incremental=incremental, qhull_options=qhull_options)
        self._update()

    def _update(self):
        h = self._h
        for name in ("halfspaces", "interior_point", "intersections", "dual_points", "dual_equations",
                     "dual_vertices"):
            setattr(self, name, from_host(numpy.ascontiguousarray(getattr(h, name))))
        self.dual_facets = [list(f) for f in h.dual_facets]
        self.dual_area, self.dual_volume = float(h.dual_area), float(h.dual_volume)
        self.ndim, self.nineq = int(h.ndim), int(h.nineq)
        self.min_bound, self.max_bound = from_host(h.min_bound), from_host(h.max_bound)

    def add_halfspaces(self, halfspaces, restart=False):
        """See `scipy.spatial.HalfspaceIntersection.add_halfspaces` (Qhull's, on the host)."""
        hs = _host_points(halfspaces, "HalfspaceIntersection.add_halfspaces")
        _qhull_call(self._h.add_halfspaces, hs, restart)
        self._update()

    def close(self):
        """See `scipy.spatial.HalfspaceIntersection.close`: releases the host Qhull state."""
        self._h.close()
