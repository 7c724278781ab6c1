"""`interp1d`. 'linear' is one fused pass (`_kernels.linear_evaluator`: the knot search, the
installed SciPy's two-point formula and the fill values in one kernel, prepared once a points
dtype); 'nearest'/'previous'/'next' are a `searchsorted` and a
gather; the spline kinds SciPy builds with `make_interp_spline` are the same interpolants built
here as piecewise polynomials: 'zero' (piecewise constant), 'slinear' (linear, extrapolated
linearly) and 'cubic' (the not-a-knot cubic spline, which is `make_interp_spline(k=3)`'s); the
other orders through `make_interp_spline`."""

from __future__ import annotations

import numpy

from . import _kernels
from . import _linear
from ..._core.transfer import to_host
from ..._creation.basic import empty
from ..._creation.from_data import ascontiguousarray
from ..._indexing.inserting import take
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.floating import nextafter
from ..._math.misc import clip
from ..._math.sums_scan import diff
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import argsort
from ..._statistics.order import max as max_, min as min_
from . import _inputs
from ._cubic_spline import CubicSpline
from ._make import make_interp_spline
from ._ppoly import PPoly

__all__ = ["interp1d"]

_F8 = numpy.dtype(numpy.float64)
_SPLINE_ORDERS = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}


def _do_extrapolate(fill_value):
    return isinstance(fill_value, str) and fill_value == "extrapolate"


def _broadcast_up_to(arr, shape, name):
    """A fill value as one value a column (SciPy's _check_broadcast_up_to), on the host."""
    arr = numpy.asarray(arr)
    if len(shape) >= arr.ndim and all(f in (1, t) for t, f in zip(shape[::-1], arr.shape[::-1])):
        return numpy.broadcast_to(arr, shape).ravel()
    raise ValueError(f"{name} was not broadcastable to {shape} (shape {arr.shape})")


class interp1d:  # noqa: N801 (SciPy's name)
    """See `scipy.interpolate.interp1d` (legacy in SciPy, kept for porting). 'quadratic' and the
    integer orders other than 0, 1 and 3 build their spline on the host (`make_interp_spline`'s
    host path) and evaluate on the device; NaN in `x` or `y` is not rewritten for the spline kinds.
    kind='linear' with ``bounds_error=True`` checks the points in its kernel and raises the
    ValueError in the call (one read after the launch), naming an offending point, not necessarily
    the first."""

    def __init__(self, x, y, kind="linear", axis=-1, copy=True, bounds_error=None, fill_value=numpy.nan,
                 assume_sorted=False):
        self.bounds_error = bounds_error
        self.copy = copy
        if kind in _SPLINE_ORDERS:
            order, kind = _SPLINE_ORDERS[kind], "spline"
        elif isinstance(kind, int):
            order, kind = kind, "spline"
        elif kind not in ("linear", "nearest", "nearest-up", "previous", "next"):
            raise NotImplementedError(f"{kind} is unsupported: Use fitpack routines for other types.")
        x = _inputs.param(x)
        y = _inputs.values(y)
        x = x.copy() if copy else x
        y = y.copy() if copy else y
        if not assume_sorted and x.ndim == 1:
            ind = argsort(x, kind="stable")
            x = x[ind]
            y = take(y, ind, axis=axis)
        if x.ndim != 1:
            raise ValueError("the x array must have exactly one dimension.")
        if y.ndim == 0:
            raise ValueError("the y array must have at least one dimension.")
        if y.dtype.kind not in "fc":
            y = y.astype(_F8)
        self.axis = axis % y.ndim
        if y.shape[self.axis] != x.shape[0]:
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        self.y = y
        self._y_extra_shape = y.shape[:self.axis] + y.shape[self.axis + 1:]
        self._y = moveaxis(y, self.axis, 0).reshape((x.shape[0], -1))
        self.x = x
        self._kind = kind
        minval = 1
        if kind in ("nearest", "nearest-up"):
            self._side = "left" if kind == "nearest" else "right"
            half = x / 2.0
            self.x_bds = half[1:] + half[:-1]
        elif kind in ("previous", "next"):
            self._side, self._ind = ("left", 0) if kind == "previous" else ("right", 1)
            self._x_shift = nextafter(x.astype(_F8) if x.dtype.kind != "f" else x,
                                          -numpy.inf if kind == "previous" else numpy.inf)
            if _do_extrapolate(fill_value):
                self._check_and_update_bounds_error_for_extrapolation()
                end = to_host(take(self.y, -1 if kind == "previous" else 0, axis=self.axis))
                fill_value = (numpy.nan, end) if kind == "previous" else (end, numpy.nan)
        elif kind == "spline":
            minval = order + 1
        if x.shape[0] < minval:
            raise ValueError(f"x and y arrays must have at least {minval} entries")
        if kind == "spline":
            self._spline = self._build_spline(order)
        self._pairs = self._pair_table() if kind == "linear" and copy else None
        # the installed SciPy's linear formula (1.17's slope, 1.18's weights): the same bits as it
        self._weights = _linear.installed_weights_formula() if kind == "linear" else False
        self.fill_value = fill_value

    def _pair_table(self):
        """The (n, 2) interleaved knots and values the linear kernel reads with one load a knot
        (`_linear.pair_dtype`), or None. Built from the copies (copy=True): with copy=False the
        caller's later writes to x or y must reach the evaluation, as in SciPy."""
        dt = _linear.pair_dtype(self.x.dtype, self._y.dtype, self._y.shape[1])
        if dt is None or self.x.shape[0] < 2:
            return None
        return ascontiguousarray(stack((self.x.astype(dt), self._y[:, 0]), axis=1))

    def _build_spline(self, order):
        xf = self.x.astype(_F8)
        y = self._y.astype(numpy.result_type(self._y.dtype, _F8))
        if order == 3:
            return CubicSpline(xf, y, axis=0)
        if order not in (0, 1):  # (the collocation solve of other orders is host work: _make)
            return make_interp_spline(xf, y, k=order, check_finite=False)
        if order == 1:
            slope = diff(y, axis=0) / diff(xf)[:, None]
            return PPoly.construct_fast(stack((slope, y[:-1])), xf, True)
        # make_interp_spline(k=0)'s knots end with x[-1] twice: y[-1] from x[-1] on
        return PPoly.construct_fast(y[None], concatenate((xf, xf[-1:])), True)

    @property
    def fill_value(self):
        """The fill value."""
        return self._fill_value_orig

    @fill_value.setter
    def fill_value(self, fill_value):
        self._fill_dev = {}  # the fill values on the device, by dtype: uploaded once, not every call
        self._linear_runs = {}  # the linear evaluations prepared (with these fill values), by points dtype
        if _do_extrapolate(fill_value):
            self._check_and_update_bounds_error_for_extrapolation()
            self._extrapolate = True
        else:
            shape = self._y_extra_shape or (1,)
            if isinstance(fill_value, tuple) and len(fill_value) == 2:
                below = _broadcast_up_to(_host(fill_value[0]), shape, "fill_value (below)")
                above = _broadcast_up_to(_host(fill_value[1]), shape, "fill_value (above)")
            else:
                below = above = _broadcast_up_to(_host(fill_value), shape, "fill_value")
            self._fill_below, self._fill_above = below, above
            self._extrapolate = False
            if self.bounds_error is None:
                self.bounds_error = True
        self._fill_value_orig = fill_value

    def _check_and_update_bounds_error_for_extrapolation(self):
        if self.bounds_error:
            raise ValueError("Cannot extrapolate and raise at the same time.")
        self.bounds_error = False

    def __call__(self, x):
        """See `scipy.interpolate.interp1d.__call__`."""
        x = _inputs.data(x)
        if x.dtype.kind not in "fc":
            x = x.astype(_F8)
        x_shape = x.shape
        if self._kind == "linear":  # the values come in their final (C-order) shape
            y = self._linear_call(x if len(x_shape) == 1 else x.reshape(-1), x_shape + self._y_extra_shape)
        else:
            y = self._evaluate(x.reshape(-1)).reshape(x_shape + self._y_extra_shape)
        if self.axis != 0 and x_shape != ():
            nx, ny = len(x_shape), len(self._y_extra_shape)
            s = list(range(nx, nx + self.axis)) + list(range(nx)) + list(range(nx + self.axis, nx + ny))
            y = y.transpose(s)
        return y

    def _fills(self, dtype):
        if self._extrapolate:
            return None
        key = numpy.dtype(dtype)
        if key not in self._fill_dev:
            self._fill_dev[key] = tuple(_inputs.param(numpy.asarray(v).astype(dtype))
                                        for v in (self._fill_below, self._fill_above))
        return self._fill_dev[key]

    def _linear_fills(self, out_dt):
        """The linear kernel's (below, above) float64 columns (placeholders, never read, when extrapolating)."""
        if self._extrapolate:
            if "none" not in self._fill_dev:
                ncols = self._y.shape[1] * (2 if out_dt.kind == "c" else 1)
                self._fill_dev["none"] = (empty(max(ncols, 1)),) * 2
            return self._fill_dev["none"]
        below, above = self._fills(numpy.complex128 if out_dt.kind == "c" else _F8)
        if out_dt.kind == "c":  # the float view's columns: (re, im) pairs
            below, above = (v.view(_F8) for v in (below, above))
        return below, above

    def _linear_call(self, xq, shape):
        """The linear values at the 1-D points `xq`, as an array of `shape`: the evaluation prepared
        for the points' dtype (`_kernels.linear_evaluator`: dtypes, route, fill values, table)
        at the first call with that dtype, so a call costs the host one launch and the result's
        allocation. bounds_error: checked on the device where the kernel takes the dtypes."""
        run = self._linear_runs.get(xq.dtype)
        if run is None:
            out_dt = numpy.result_type(xq.dtype, self.x.dtype, self._y.dtype, numpy.float16)
            below, above = self._linear_fills(out_dt)
            use_numpy = _linear.numpy_rule(self.x.dtype, self.y.dtype, self.y.ndim, self._extrapolate)
            # copy=True: the knots are this interpolator's own copy, so the kernel's cell table is built once
            run = _kernels.linear_evaluator(self.x, self._y, xq.dtype, below, above, self._extrapolate, out_dt,
                                            use_numpy, self._pairs, self._weights, bool(self.copy))
            if self.copy or not run.snapshot:  # copy=False: converted copies would miss the caller's writes
                self._linear_runs[xq.dtype] = run
        return run(xq, shape, self._check_bounds if self.bounds_error and xq.shape[0] else None)

    def _evaluate(self, xq):
        self._check_bounds(xq)
        if self._kind == "spline":
            y_new = self._spline(xq)
        elif self._kind in ("nearest", "nearest-up"):
            idx = clip(searchsorted(self.x_bds, xq, side=self._side), 0, self.x.shape[0] - 1)
            y_new = self._y[idx]
        else:
            idx = searchsorted(self._x_shift, xq, side=self._side)
            idx = clip(idx, 1 - self._ind, self.x.shape[0] - self._ind)
            y_new = self._y[idx + self._ind - 1]
        fills = self._fills(y_new.dtype)
        if fills is not None and y_new.shape[0] > 0:
            y_new = where((xq < self.x[0])[:, None], fills[0][None], y_new)
            y_new = where((xq > self.x[-1])[:, None], fills[1][None], y_new)
        return y_new

    def _check_bounds(self, xq):
        if not self.bounds_error or xq.shape[0] == 0:
            return
        # host work: SciPy raises naming the first offending value. The common case (all inside)
        # costs two reductions and one read of four numbers; only a NaN or an offender takes the
        # exact path (a NaN is never out of bounds, but it hides the extremes from min/max).
        x0, x1 = (float(v) for v in to_host(stack((self.x[0], self.x[-1])).astype(_F8)))
        lo, hi = (float(v) for v in to_host(stack((min_(xq), max_(xq))).astype(_F8)))
        if lo >= x0 and hi <= x1:
            return
        below, above = xq < self.x[0], xq > self.x[-1]
        flags = to_host(stack((any_(below), any_(above))))
        if flags[0]:
            v = to_host(xq[below][:1])[0]
            raise ValueError(f"A value ({v}) in x_new is below the interpolation range's minimum value ({x0}).")
        if flags[1]:
            v = to_host(xq[above][:1])[0]
            raise ValueError(f"A value ({v}) in x_new is above the interpolation range's maximum value ({x1}).")


def _host(v):
    """A fill value as a NumPy array (device arrays are copied back: they are a few values)."""
    return v if isinstance(v, (numpy.ndarray, numpy.generic, float, int, complex)) else (
        numpy.asarray(v) if isinstance(v, (list, tuple)) else to_host(v))
