"""`RegularGridInterpolator` and `interpn`. 'linear' and the spline methods are tensor-product
B-splines evaluated in one pass (`NdBSpline`'s kernel): 'linear'/'slinear' the degree-1 spline on
the grid (the values are its coefficients), 'cubic'/'quintic' the not-a-knot interpolating spline,
built one axis at a time (`make_interp_spline` along each axis: the tensor product of the 1-D
interpolation operators), which is the spline SciPy's `make_ndbspl` solves for. 'nearest' is a
search and one gather; 'pchip' folds one axis at a time as SciPy does, every query point's line at
once (batched PCHIP slopes and a Hermite evaluation at each line's own point)."""

from __future__ import annotations

import numpy

from ..._core.transfer import to_host
from ..._creation.from_data import ascontiguousarray
from ..._creation.ranges import arange
from ..._logic.content import isnan
from ..._logic.truth import all as all_, any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.misc import clip
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from . import _inputs
from ._bspline import BSpline  # noqa: F401 (the type make_interp_spline returns)
from ._cubic import pchip_slopes
from ._make import make_interp_spline
from ._ndbspline import NdBSpline

__all__ = ["RegularGridInterpolator", "interpn"]

_F8 = numpy.dtype(numpy.float64)


def _host_points(points):
    return [p if isinstance(p, numpy.ndarray) else (numpy.asarray(p) if isinstance(p, (list, tuple))
                                                     else to_host(_inputs.param(p))) for p in points]


def _check_points(points):
    grid, desc = [], []
    for i, p in enumerate(_host_points(points)):
        p = numpy.asarray(p, dtype=float)
        if not numpy.all(p[1:] > p[:-1]):
            if numpy.all(p[1:] < p[:-1]):
                desc.append(i)
                p = numpy.flip(p)
            else:
                raise ValueError(f"The points in dimension {i} must be strictly ascending or descending")
        grid.append(numpy.ascontiguousarray(p))
    return tuple(grid), tuple(desc)


def _check_dimensionality(points, values):
    if len(points) > values.ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values has {values.ndim} dimensions")
    for i, p in enumerate(points):
        if not numpy.asarray(p).ndim == 1:
            raise ValueError(f"The points in dimension {i} must be 1-dimensional")
        if not values.shape[i] == len(p):
            raise ValueError(f"There are {len(p)} points and {values.shape[i]} values in dimension {i}")


def ndim_coords(xi, ndim):
    """SciPy's _ndim_coords_from_arrays on the device: points (..., ndim)."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        parts = [_inputs.data(p).astype(_F8) for p in xi]
        shape = numpy.broadcast_shapes(*(p.shape for p in parts))
        return stack([broadcast_to(p, shape) for p in parts], axis=-1)
    xi = _inputs.data(xi)
    if xi.ndim == 1:
        xi = xi.reshape((-1, 1 if ndim is None else ndim))
    return xi


class RegularGridInterpolator:
    """See `scipy.interpolate.RegularGridInterpolator`. `solver`/`solver_args` are accepted and
    not used: the spline methods are built by exact per-axis solves (no iterative solver)."""

    _SPLINE_DEGREE_MAP = {"slinear": 1, "cubic": 3, "quintic": 5, "pchip": 3}
    _SPLINE_METHODS_ndbspl = {"slinear", "cubic", "quintic"}
    _SPLINE_METHODS = list(_SPLINE_DEGREE_MAP)
    _ALL_METHODS = ["linear", "nearest"] + _SPLINE_METHODS

    def __init__(self, points, values, method="linear", bounds_error=True, fill_value=numpy.nan, *, solver=None,
                 solver_args=None):
        if method not in self._ALL_METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        if method in self._SPLINE_METHODS:
            self._validate_grid_dimensions(points, method)
        self.method = method
        self.bounds_error = bounds_error
        self._grid, self._descending_dimensions = _check_points(points)
        values = _inputs.values(values)
        if values.dtype.kind not in "fc":
            values = values.astype(_F8)
        _check_dimensionality(self._grid, values)
        if fill_value is not None:
            if not numpy.can_cast(numpy.asarray(fill_value).dtype, values.dtype, casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible with values")
        self.fill_value = fill_value
        if self._descending_dimensions:
            values = values[tuple(slice(None, None, -1) if d in self._descending_dimensions else slice(None)
                                  for d in range(values.ndim))]
        if method == "pchip" and values.dtype.kind == "c":
            raise ValueError("`PchipInterpolator` only works with real values. If you are trying to use the real "
                             "components of the passed array, use `np.real` on the array before passing to "
                             "`RegularGridInterpolator`.")
        if method not in self._SPLINE_METHODS_ndbspl and (solver is not None or solver_args):
            raise ValueError(f"{method =} does not accept the 'solver' argument. Got  {solver = } and with "
                             f"arguments {solver_args}.")
        self._values = ascontiguousarray(values)
        self._dgrid = tuple(_inputs.param(g) for g in self._grid)
        self._splines = {}

    @property
    def grid(self):
        return self._dgrid

    @property
    def values(self):
        return self._values

    def _validate_grid_dimensions(self, points, method):
        k = self._SPLINE_DEGREE_MAP[method]
        for i, point in enumerate(points):
            ndim = len(numpy.atleast_1d(point)) if isinstance(point, (list, tuple, numpy.ndarray)) else (
                point.shape[0] if point.ndim else 1)
            if ndim <= k:
                raise ValueError(f"There are {ndim} points in dimension {i}, but method {method} requires at "
                                 f"least  {k + 1} points per dimension.")

    def _spline(self, method):
        """The tensor-product spline of 'linear' (degree 1) or a spline method, built once."""
        k = 1 if method == "linear" else self._SPLINE_DEGREE_MAP[method]
        spl = self._splines.get(k)
        if spl is None:
            ndim = len(self._grid)
            c, ts = self._values, []
            for d in range(ndim):
                if k == 1:
                    g = self._dgrid[d]
                    ts.append(concatenate((g[:1], g, g[-1:])))
                    continue
                b = make_interp_spline(self._dgrid[d], c, k=k, axis=d)
                ts.append(b.t)
                c = moveaxis(b.c, 0, d)
            spl = self._splines[k] = NdBSpline.__new__(NdBSpline)
            spl._t, spl._k, spl.extrapolate = tuple(ts), (k,) * ndim, True
            dt = numpy.complex128 if c.dtype.kind == "c" else _F8
            spl._c = ascontiguousarray(c.astype(dt))
        return spl

    def __call__(self, xi, method=None, *, nu=None):
        """See `scipy.interpolate.RegularGridInterpolator.__call__`."""
        method = self.method if method is None else method
        if method not in self._ALL_METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        if nu is not None and method not in self._SPLINE_METHODS_ndbspl:
            raise ValueError(f"Can only compute derivatives for methods {self._SPLINE_METHODS_ndbspl}, got "
                             f"{method =}.")
        if method != self.method and method in self._SPLINE_METHODS:
            self._validate_grid_dimensions(self._grid, method)
        ndim = len(self._grid)
        xi = ndim_coords(xi, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]} but this "
                             f"RegularGridInterpolator has dimension {ndim}")
        xi_shape = xi.shape
        xi = xi.reshape((-1, ndim)).astype(_F8)
        out_of_bounds = self._out_of_bounds(xi)
        if method == "nearest":
            result = self._nearest(xi)
        elif method == "pchip":  # (SciPy's folded result keeps the values' dtype)
            result = self._pchip(xi).astype(self._values.dtype)
        else:
            result = self._spline(method)(xi, nu=nu)
        result = result.reshape((xi.shape[0], -1))
        if out_of_bounds is not None and self.fill_value is not None:
            fill = _inputs.param(numpy.asarray(self.fill_value, dtype=result.dtype))
            result = where(out_of_bounds[:, None], fill, result)
        if method in ("nearest", "pchip"):
            result = where(any_(isnan(xi), axis=1)[:, None], numpy.nan, result)
        return result.reshape(xi_shape[:-1] + self._values.shape[ndim:])

    def _out_of_bounds(self, xi):
        """The out-of-bounds mask, or None after checking there are none (bounds_error=True)."""
        if self.bounds_error:
            if xi.shape[0] == 0:
                return None
            # as SciPy's test, a NaN coordinate is out of bounds here
            inside = [(xi[:, d] >= g[0]) & (xi[:, d] <= g[-1]) for d, g in enumerate(self._grid)]
            flags = to_host(stack([~all_(m) for m in inside]))
            for i, bad in enumerate(flags):
                if bad:
                    raise ValueError(f"One of the requested xi is out of bounds in dimension {i}")
            return None
        masks = [(xi[:, d] < g[0]) | (xi[:, d] > g[-1]) for d, g in enumerate(self._grid)]
        out = masks[0]
        for m in masks[1:]:
            out = out | m
        return out

    def _nearest(self, xi):
        flat = None
        stride = 1
        ndim = len(self._grid)
        for d in range(ndim - 1, -1, -1):
            g, n = self._dgrid[d], self._grid[d].shape[0]
            x = xi[:, d]
            i = clip(searchsorted(g, x) - 1, 0, max(n - 2, 0))
            if n > 1:
                dist = (x - g[i]) / (g[i + 1] - g[i])
                i = where(dist <= 0.5, i, i + 1)
            flat = i * stride if flat is None else flat + i * stride
            stride *= n
        return self._values.reshape((stride, -1))[flat]

    def _pchip(self, xi):
        ndim = len(self._grid)
        m = xi.shape[0]
        vals = self._values.reshape(self._values.shape[:ndim] + (-1,))
        # the last axis first, for every query at once (the values are shared)
        lines = moveaxis(vals, ndim - 1, 0)  # (n_last, n_0, ..., n_{ndim-2}, r)
        folded = _hermite_shared(self._dgrid[-1], lines, xi[:, -1])  # (m, n_0, ..., r)
        for d in range(ndim - 2, -1, -1):
            f = moveaxis(folded, d + 1, 0)  # (n_d, m, ..., r)
            folded = _hermite_lines(self._dgrid[d], f, xi[:, d])
        return folded.reshape((m, -1))


def _hermite_at(x, y, s, i, p, take):
    yl, yr = take(y, i), take(y, i + 1)
    h = x[i + 1] - x[i]
    t = (p - x[i]) / h
    shape = (p.shape[0],) + (1,) * (yl.ndim - 1)
    t, h = t.reshape(shape), h.reshape(shape)
    dl, dr = take(s, i), take(s, i + 1)
    one = 1 - t
    return ((1 + 2 * t) * one * one * yl + t * one * one * h * dl + t * t * (3 - 2 * t) * yr
            + t * t * (t - 1) * h * dr)


def _interval(x, p):
    return clip(searchsorted(x, p, side="right") - 1, 0, x.shape[0] - 2)


def _hermite_shared(x, y, p):
    """PCHIP of the lines y (n, ...) evaluated at every p: (len(p), ...)."""
    s = pchip_slopes(x, y)
    return _hermite_at(x, y, s, _interval(x, p), p, lambda a, i: a[i])


def _hermite_lines(x, y, p):
    """PCHIP of line j of y (n, m, ...) evaluated at its own p[j]: (m, ...)."""
    s = pchip_slopes(x, y)
    cols = arange(p.shape[0])
    return _hermite_at(x, y, s, _interval(x, p), p, lambda a, i: a[i, cols])


def interpn(points, values, xi, method="linear", bounds_error=True, fill_value=numpy.nan):
    """See `scipy.interpolate.interpn`. 'splinef2d' raises NotImplementedError (it needs FITPACK's
    bivariate smoothing fit; 'cubic' is the interpolating spline on the GPU)."""
    if method not in ["linear", "nearest", "cubic", "quintic", "pchip", "splinef2d", "slinear"]:
        raise ValueError("interpn only understands the methods 'linear', 'nearest', 'slinear', 'cubic', 'quintic', "
                         f"'pchip', and 'splinef2d'. You provided {method}.")
    values = _inputs.values(values)
    ndim = values.ndim
    if method == "splinef2d":
        raise NotImplementedError("interpn(method='splinef2d') is not implemented on the GPU; use 'cubic'")
    if len(points) > ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values has {ndim} dimensions")
    grid, _ = _check_points(points)
    _check_dimensionality(grid, values)
    xi = ndim_coords(xi, len(grid))
    if xi.shape[-1] != len(grid):
        raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]}, but this "
                         f"RegularGridInterpolator has dimension {len(grid)}")
    interp = RegularGridInterpolator(points, values, method=method, bounds_error=bounds_error,
                                     fill_value=fill_value)
    return interp(xi)
