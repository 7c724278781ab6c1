"""Scattered-data interpolation: `NearestNDInterpolator`, `LinearNDInterpolator`,
`CloughTocher2DInterpolator`, `griddata`, over `cuarray.scipy.spatial`'s `KDTree` and `Delaunay`.

- Nearest: `KDTree(points, **tree_options).query(xi, **query_options)` on the device, then one
  gather (and SciPy's NaN where `distance_upper_bound` left a query without a neighbour).
- Linear: a `Delaunay` (triangulated on the GPU in 2-D, else by Qhull on the host; built once, or
  the one passed as `points`), its device `find_simplex` (a walk from each query's nearest vertex) and the
  barycentric interpolation over the located simplices on the device (two gathers and a
  weighted sum).
- Clough-Tocher: the same `Delaunay`; SciPy's gradient estimation and patch evaluation (which
  locates the simplices itself) are host work on host copies of the values and queries."""

from __future__ import annotations

import numpy

from ..spatial import Delaunay, KDTree
from ..spatial._delaunay import from_scipy, host_qhull, is_scipy_delaunay
from ..._core.transfer import to_host
from ..._indexing.inserting import take
from ..._logic.content import isfinite
from ..._manipulation.joining import concatenate
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.sorting import argsort
from ..._statistics.order import max as max_, min as min_
from . import _inputs
from ._host import host_scipy
from ._interp1d import interp1d
from ._rgi import ndim_coords

__all__ = ["NearestNDInterpolator", "LinearNDInterpolator", "CloughTocher2DInterpolator", "griddata"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)


def _points(points):
    """Data points (n, ndim) from an array or a tuple of coordinate arrays (host ones copied)."""
    if isinstance(points, tuple):
        return ndim_coords(tuple(_inputs.values(p) for p in points), None)
    return ndim_coords(_inputs.values(points), None)


def _given_triangulation(points):
    """A cuarray `Delaunay` passed as `points`, or a host SciPy one wrapped (its Qhull state
    kept: SciPy's interpolators take their own Delaunay as it is); None for point data."""
    if isinstance(points, Delaunay):
        return points
    return from_scipy(points) if is_scipy_delaunay(points) else None


def _set_points(self, points, rescale):
    """SciPy's NDInterpolatorBase: points (a Delaunay's, or float64 data), rescaled to the unit
    cube about their mean where asked; returns the triangulation passed, if any."""
    tri = _given_triangulation(points)
    self.scale = None
    if tri is not None:
        if rescale:
            raise ValueError("Rescaling is not supported when passing a Delaunay triangulation as ``points``.")
        self.points = tri.points
        return tri
    points = _points(points).astype(_F8)
    if rescale:
        self.offset = sum_(points, axis=0) / points.shape[0]
        points = points - self.offset
        scale = max_(points, axis=0) - min_(points, axis=0)
        self.scale = where(scale > 0, scale, 1.0)
        points = points / self.scale
    self.points = points
    return None


def _check_shapes(points, values, ndim=None):
    if values.shape[0] != points.shape[0]:
        raise ValueError("different number of values and points")
    if points.ndim != 2:
        raise ValueError("invalid shape for input data points")
    if points.shape[1] < 2:
        raise ValueError("input data must be at least 2-D")
    if ndim is not None and points.shape[1] != ndim:
        raise ValueError("this mode of interpolation available only for %d-D data" % ndim)


def _set_values(self, values, fill_value):
    values = _inputs.values(values)
    _check_shapes(self.points, values)
    self.values_shape = values.shape[1:]
    self.is_complex = values.dtype.kind == "c"
    self.values = values.reshape((values.shape[0], -1)).astype(_C16 if self.is_complex else _F8)
    self.fill_value = complex(fill_value) if self.is_complex else float(fill_value)


def _xi(self, args):
    xi = ndim_coords(args if len(args) != 1 else args[0], self.points.shape[1])
    if xi.shape[-1] != self.points.shape[1]:
        raise ValueError("number of dimensions in xi does not match x")
    shape = xi.shape
    xi = xi.reshape((-1, shape[-1])).astype(_F8)
    if self.scale is not None:
        xi = (xi - self.offset) / self.scale
    return xi, shape


class NearestNDInterpolator:
    """See `scipy.interpolate.NearestNDInterpolator`: a `cuarray.scipy.spatial.KDTree` (SciPy's
    tree_options go to it, query_options to its `query`; its answers and differences are the
    spatial module's), then a gather on the device."""

    def __init__(self, x, y, rescale=False, tree_options=None):
        _set_points(self, x, rescale)
        values = _inputs.values(y)
        _check_shapes(self.points, values)
        self.tree = KDTree(self.points, **(tree_options or {}))
        self.values = values

    def __call__(self, *args, **query_options):
        """See `scipy.interpolate.NearestNDInterpolator.__call__`."""
        xi, shape = _xi(self, args)
        dist, i = self.tree.query(xi, **query_options)
        values = self.values.reshape((self.values.shape[0], -1))
        dt = values.dtype if values.dtype.kind == "c" else _F8  # SciPy's NaN-filled holder's dtype
        if numpy.isinf(query_options.get("distance_upper_bound", numpy.inf)):
            out = take(values, i, axis=0).astype(dt)  # every query has its neighbour
        else:  # SciPy: NaN where no point lies within the bound (an infinite distance)
            valid = isfinite(dist)
            out = take(values, where(valid, i, 0), axis=0).astype(dt)
            out = where(valid[:, None], out, numpy.nan)
        return out.reshape(shape[:-1] + self.values.shape[1:])


class LinearNDInterpolator:
    """See `scipy.interpolate.LinearNDInterpolator`. `points` may be a `cuarray.scipy.spatial.Delaunay`
    (or SciPy's, used as it is). The triangulation is the GPU's in 2-D (Qhull's on the host for
    other dimensions and degenerate sets); the simplices are found by the device `Delaunay.find_simplex` (see there for points on shared faces) and the
    barycentric interpolation runs on the device."""

    def __init__(self, points, values, fill_value=numpy.nan, rescale=False):
        tri = _set_points(self, points, rescale)
        self.tri = Delaunay(self.points) if tri is None else tri
        _set_values(self, values, fill_value)

    def __call__(self, *args, simplex_tolerance=1.0):
        """See `scipy.interpolate.LinearNDInterpolator.__call__`."""
        if simplex_tolerance <= 0:
            raise ValueError("simplex_tolerance must be positive")
        xi, shape = _xi(self, args)
        ndim = xi.shape[1]
        s = self.tri.find_simplex(xi, tol=100 * numpy.finfo(float).eps * simplex_tolerance)
        valid = s >= 0
        sc = where(valid, s, 0)
        t = take(self.tri.transform, sc, axis=0)  # (m, ndim + 1, ndim)
        c = sum_(t[:, :ndim, :] * (xi - t[:, ndim, :])[:, None, :], axis=2)
        w = concatenate((c, 1.0 - sum_(c, axis=1, keepdims=True)), axis=1)
        vals = self.values[take(self.tri.simplices, sc, axis=0)]  # (m, ndim + 1, r)
        out = sum_(w[:, :, None].astype(vals.dtype) * vals, axis=1)
        out = where(valid[:, None], out, self.fill_value)
        return out.reshape(shape[:-1] + self.values_shape)


class CloughTocher2DInterpolator:
    """See `scipy.interpolate.CloughTocher2DInterpolator`. The triangulation is a
    `cuarray.scipy.spatial.Delaunay` (or the one passed as `points`); SciPy's gradient estimation
    and patch evaluation (with its own simplex walk) are host work on host copies of the values
    and of the (rescaled) query points."""

    def __init__(self, points, values, fill_value=numpy.nan, tol=1e-6, maxiter=400, rescale=False):
        tri = _set_points(self, points, rescale)
        self.tri = Delaunay(self.points) if tri is None else tri
        # host work: SciPy's CT on Qhull's triangulation of the same points (rescaling is ours, done above)
        self._host = host_scipy().CloughTocher2DInterpolator(host_qhull(self.tri), to_host(_inputs.values(values)),
                                                             fill_value, tol, maxiter)
        self.values_shape = self._host.values_shape

    def __call__(self, *args, simplex_tolerance=1.0):
        """See `scipy.interpolate.CloughTocher2DInterpolator.__call__` (host work)."""
        if simplex_tolerance <= 0:
            raise ValueError("simplex_tolerance must be positive")
        xi, shape = _xi(self, args)
        host_xi = to_host(xi)
        try:
            out = self._host(host_xi, simplex_tolerance=simplex_tolerance)
        except TypeError:  # SciPy before 1.18: no simplex_tolerance
            out = self._host(host_xi)
        return _inputs.param(out).reshape(shape[:-1] + self.values_shape)


def griddata(points, values, xi, method="linear", fill_value=numpy.nan, rescale=False, simplex_tolerance=1.0):
    """See `scipy.interpolate.griddata` (1-D data through `interp1d`; 'linear' and 'cubic' as
    their interpolators say). A `Delaunay` as `points` is refused, as by SciPy (TypeError)."""
    if isinstance(points, Delaunay) or is_scipy_delaunay(points):
        raise TypeError("griddata takes point coordinates, not a Delaunay triangulation")
    pts = _points(points)
    ndim = pts.ndim if pts.ndim < 2 else pts.shape[-1]
    values = _inputs.values(values)
    if ndim == 1 and method in ("nearest", "linear", "cubic"):
        pts = pts.reshape(-1)
        if isinstance(xi, tuple):
            if len(xi) != 1:
                raise ValueError("invalid number of dimensions in xi")
            xi, = xi
        idx = argsort(pts)
        fill = "extrapolate" if method == "nearest" else fill_value
        return interp1d(pts[idx], values[idx], kind=method, axis=0, bounds_error=False, fill_value=fill)(xi)
    if method == "nearest":
        return NearestNDInterpolator(pts, values, rescale=rescale)(xi)
    if method == "linear":
        return LinearNDInterpolator(pts, values, fill_value=fill_value, rescale=rescale)(
            xi, simplex_tolerance=simplex_tolerance)
    if method == "cubic" and ndim == 2:
        return CloughTocher2DInterpolator(pts, values, fill_value=fill_value, rescale=rescale)(
            xi, simplex_tolerance=simplex_tolerance)
    raise ValueError(f"Unknown interpolation method {method!r} for {ndim} dimensional data")
