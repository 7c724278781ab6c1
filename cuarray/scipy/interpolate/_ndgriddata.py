"""Scattered-data interpolation: `NearestNDInterpolator`, `LinearNDInterpolator`,
`CloughTocher2DInterpolator`, `griddata`.

They are written against a small internal interface (`_Triangulation` and `nearest_indices`
below) that `cuarray.scipy.spatial`'s `Delaunay` and `KDTree` will provide on the GPU:

- nearest_indices(points, queries) -> the index of each query's nearest point (KDTree.query):
  here by brute force on the device (a distance product and `argmin` per chunk of queries);
- a triangulation with `simplices` (nsimplex, ndim + 1), `transform` (nsimplex, ndim + 1, ndim:
  SciPy's barycentric transforms) and `find_simplex(xi, tol)` (Delaunay.find_simplex): here SciPy's
  Qhull triangulation and its simplex walk are host work on host copies (`_host_delaunay`), and the
  barycentric interpolation over the located simplices runs on the device (two gathers and a
  weighted sum).

CloughTocher2DInterpolator is host work entirely until then (SciPy's gradient estimation and
patch evaluation on host copies; its values come back to the device)."""

from __future__ import annotations

import numpy

from . import _xp
from ._host import host_scipy, host_spatial
from ._interp1d import interp1d
from ._rgi import ndim_coords

__all__ = ["NearestNDInterpolator", "LinearNDInterpolator", "CloughTocher2DInterpolator", "griddata",
           "nearest_indices"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)
_CHUNK = 1 << 26  # distance-matrix elements a chunk


def nearest_indices(points, queries):
    """int64 index of each query's nearest point (squared distances by one product a chunk)."""
    n = points.shape[0]
    sq = _xp.sum(points * points, axis=1)
    step = max(1, _CHUNK // max(n, 1))
    parts = []
    for s in range(0, queries.shape[0], step):
        q = queries[s:s + step]
        d = sq[None, :] - 2.0 * (q @ points.T)  # |q|^2 is the same along a row
        parts.append(_xp.argmax(-d, axis=1))
    if not parts:
        return _xp.zeros((0,), dtype=numpy.int64)
    return parts[0] if len(parts) == 1 else _xp.concatenate(parts)


class _HostTriangulation:
    """The interface the linear and cubic interpolators need from a Delaunay triangulation."""

    def __init__(self, points_host):
        self.host = host_spatial().Delaunay(points_host)
        self.simplices = _xp.param(self.host.simplices.astype(numpy.int64))
        self.transform = _xp.param(self.host.transform)

    def find_simplex(self, xi, tol):
        # host work: the simplex walk on host copies of the query points
        return _xp.param(self.host.find_simplex(_xp.to_host(xi), tol=tol).astype(numpy.int64))


def _points(points):
    """Data points (n, ndim) from an array or a tuple of coordinate arrays (host ones copied)."""
    if isinstance(points, tuple):
        return ndim_coords(tuple(_xp.param(p) for p in points), None)
    return ndim_coords(_xp.param(points), None)


def _prepare(self, points, values, fill_value, rescale):
    points = _points(points)
    points = points.astype(_F8)
    values = _xp.param(values)
    if values.shape[0] != points.shape[0]:
        raise ValueError("different number of values and points")
    if points.ndim != 2:
        raise ValueError("invalid shape for input data points")
    if points.shape[1] < 2:
        raise ValueError("input data must be at least 2-D")
    self.scale = None
    if rescale:
        self.offset = _xp.sum(points, axis=0) / points.shape[0]
        points = points - self.offset
        scale = _xp.max(points, axis=0) - _xp.min(points, axis=0)
        self.scale = _xp.where(scale > 0, scale, 1.0)
        points = points / self.scale
    self.points = points
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
    """See `scipy.interpolate.NearestNDInterpolator`. The nearest point is found by brute force on
    the GPU (no KD-tree yet); `tree_options` and `query_options` are accepted and unused."""

    def __init__(self, x, y, rescale=False, tree_options=None):
        _prepare(self, x, y, numpy.nan, rescale)
        if not bool(_xp.all(_xp.isfinite(self.points))):  # SciPy's KDTree refuses them
            raise ValueError("data must be finite, check for nan or inf values")
        self.values = _xp.param(y).reshape((self.points.shape[0], -1))

    def __call__(self, *args, **query_options):
        """See `scipy.interpolate.NearestNDInterpolator.__call__`."""
        xi, shape = _xi(self, args)
        if not bool(_xp.all(_xp.isfinite(xi))):  # SciPy's KDTree query refuses them (1.17 and 1.18)
            raise ValueError("'x' must be finite, check for nan or inf values")
        idx = nearest_indices(self.points, xi)
        dt = self.values.dtype if self.values.dtype.kind == "c" else _F8
        out = self.values[idx].astype(dt)
        return out.reshape(shape[:-1] + self.values_shape)


class LinearNDInterpolator:
    """See `scipy.interpolate.LinearNDInterpolator`. The triangulation and the simplex location are
    host work (SciPy's Qhull) until `cuarray.scipy.spatial.Delaunay`; interpolation is on the GPU."""

    def __init__(self, points, values, fill_value=numpy.nan, rescale=False):
        _prepare(self, points, values, fill_value, rescale)
        self.tri = _HostTriangulation(_xp.to_host(self.points))

    def __call__(self, *args, simplex_tolerance=1.0):
        """See `scipy.interpolate.LinearNDInterpolator.__call__`."""
        if simplex_tolerance <= 0:
            raise ValueError("simplex_tolerance must be positive")
        xi, shape = _xi(self, args)
        ndim = xi.shape[1]
        s = self.tri.find_simplex(xi, 100 * numpy.finfo(float).eps * simplex_tolerance)
        valid = s >= 0
        sc = _xp.where(valid, s, 0)
        t = self.tri.transform[sc]  # (m, ndim + 1, ndim)
        c = _xp.sum(t[:, :ndim, :] * (xi - t[:, ndim, :])[:, None, :], axis=2)
        w = _xp.concatenate((c, 1.0 - _xp.sum(c, axis=1, keepdims=True)), axis=1)
        vals = self.values[self.tri.simplices[sc]]  # (m, ndim + 1, r)
        out = _xp.sum(w[:, :, None].astype(vals.dtype) * vals, axis=1)
        out = _xp.where(valid[:, None], out, self.fill_value)
        return out.reshape(shape[:-1] + self.values_shape)


class CloughTocher2DInterpolator:
    """See `scipy.interpolate.CloughTocher2DInterpolator`: host work (SciPy's triangulation,
    gradient estimation and patch evaluation on host copies) until `cuarray.scipy.spatial`."""

    def __init__(self, points, values, fill_value=numpy.nan, tol=1e-6, maxiter=400, rescale=False):
        pts = points if isinstance(points, tuple) else _xp.to_host(_xp.param(points))
        if isinstance(pts, tuple):
            pts = tuple(_xp.to_host(_xp.param(p)) for p in pts)
        self._host = host_scipy().CloughTocher2DInterpolator(pts, _xp.to_host(_xp.param(values)), fill_value, tol, maxiter, rescale)

    def __call__(self, *args, simplex_tolerance=1.0):
        """See `scipy.interpolate.CloughTocher2DInterpolator.__call__` (host work)."""
        host_args = tuple(_xp.to_host(_xp.data(a)) for a in args)
        try:
            out = self._host(*host_args, simplex_tolerance=simplex_tolerance)
        except TypeError:  # SciPy before 1.18: no simplex_tolerance
            out = self._host(*host_args)
        return _xp.param(out)


def griddata(points, values, xi, method="linear", fill_value=numpy.nan, rescale=False, simplex_tolerance=1.0):
    """See `scipy.interpolate.griddata` (1-D data through `interp1d`; 'linear' and 'cubic' as
    their interpolators say)."""
    if simplex_tolerance <= 0:
        raise ValueError("simplex_tolerance must be positive")
    pts = _points(points)
    ndim = pts.ndim if pts.ndim < 2 else pts.shape[-1]
    values = _xp.param(values)
    if ndim == 1 and method in ("nearest", "linear", "cubic"):
        pts = pts.reshape(-1)
        if isinstance(xi, tuple):
            if len(xi) != 1:
                raise ValueError("invalid number of dimensions in xi")
            xi, = xi
        idx = _xp.argsort(pts)
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
