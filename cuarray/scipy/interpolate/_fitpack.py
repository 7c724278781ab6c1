"""FITPACK's interface: `splrep`, `splev`, `splint`, `sproot`, `UnivariateSpline`,
`InterpolatedUnivariateSpline`, `LSQUnivariateSpline`, and the tensor-product evaluation the
bivariate splines share (`tensor_eval`; the classes are in `_fitpack2`).

The fits (knot placement, the smoothing iterations: P. Dierckx, "Curve and Surface Fitting with
Splines", 1993) are host work, SciPy's FITPACK on host copies of the data; the knots and
coefficients come to the device, where every evaluation runs (the B-spline kernel, one pass).
FITPACK's conventions are kept: coefficients padded to the knots' length, `ext` modes 0-3 (1: zero
outside the base interval, 2: ValueError, 3: the boundary value), and bivariate evaluation clamped
to the knot range as FITPACK's bispev and parder do."""

from __future__ import annotations

import warnings

import numpy

from . import _kernels
from ..._core.transfer import to_host
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._math.misc import clip
from ..._sorting.searching import where
from . import _inputs
from ._bspline import BSpline, as_knots
from ._host import host_scipy

__all__ = ["splrep", "splev", "splint", "sproot", "UnivariateSpline", "InterpolatedUnivariateSpline",
           "LSQUnivariateSpline", "tensor_eval"]

_F8 = numpy.dtype(numpy.float64)
_EXT = {"extrapolate": 0, "zeros": 1, "raise": 2, "const": 3, 0: 0, 1: 1, 2: 2, 3: 3}


def _host(v):
    if v is None or isinstance(v, (numpy.ndarray, numpy.generic, int, float, list, tuple)):
        return v
    return to_host(_inputs.param(v))


def splrep(x, y, w=None, xb=None, xe=None, k=3, task=0, s=None, t=None, full_output=0, per=0, quiet=1):
    """See `scipy.interpolate.splrep`: host work (FITPACK's curfit/percur); the knots and
    coefficients are returned as device arrays."""
    res = host_scipy().splrep(_host(x), _host(y), _host(w), xb, xe, k, task, s, _host(t), full_output, per, quiet)
    tck = res[0] if full_output else res
    dev = (_inputs.param(tck[0]), _inputs.param(tck[1]), tck[2])
    return (dev,) + tuple(res[1:]) if full_output else dev


def _eval(t, c, k, x, der, ext):
    """FITPACK's splev of one coefficient column on the device."""
    x = _inputs.data(x)
    shape = x.shape
    xf = x.reshape(-1).astype(_F8)
    n = t.shape[0] - k - 1
    lo, hi = (float(v) for v in to_host(stack((t[k], t[n]))))
    if ext == 3 and der == 0:  # (FITPACK's splder extrapolates derivatives under ext=3)
        xf = clip(xf, lo, hi)
    outside = (xf < lo) | (xf > hi)
    if ext == 2 and xf.shape[0] and bool(any_(outside)):
        raise ValueError("Found x value not in the domain")
    vals = _kernels.ndbspline_eval([t], [k], c[:n].reshape((n, 1)), xf[:, None], [int(der)], True, _F8)[:, 0]
    if ext == 1:
        vals = where(outside, 0.0, vals)
    return vals.reshape(shape)


def splev(x, tck, der=0, ext=0):
    """See `scipy.interpolate.splev`."""
    if isinstance(tck, BSpline):
        if tck.c.ndim > 1:
            raise ValueError("Calling splev() with BSpline objects with c.ndim > 1 is not allowed. Use "
                             "BSpline.__call__(x) instead.")
        if ext != 0:
            raise ValueError(f"Extrapolation mode {ext} is not supported by BSpline.")
        return tck(x, der, extrapolate=True)
    t, c, k = tck
    if isinstance(c, (list, tuple)) or getattr(c, "ndim", 1) > 1:  # a parametric curve: one list per axis
        return [splev(x, (t, ci, k), der, ext) for ci in c]
    if not (0 <= der <= k):
        raise ValueError(f"0<=der={der}<=k={k} must hold")
    if ext not in (0, 1, 2, 3):
        raise ValueError(f"ext = {ext} not in (0, 1, 2, 3) ")
    return _eval(as_knots(t), _inputs.param(c).astype(_F8), int(k), x, der, ext)


def splint(a, b, tck, full_output=0):
    """See `scipy.interpolate.splint`: the integral over [a, b] clipped to the base interval (FITPACK's
    rule), a 0-d device array (`full_output`: also the B-splines' integrals, host work)."""
    if isinstance(tck, BSpline):
        if tck.c.ndim > 1:
            raise ValueError("Calling splint() with BSpline objects with c.ndim > 1 is not allowed. Use "
                             "BSpline.integrate() instead.")
        if full_output != 0:
            warnings.warn(f"full_output = {full_output} is not supported. Proceeding as if full_output = 0",
                          stacklevel=2)
        return tck.integrate(a, b, extrapolate=False)
    t, c, k = tck
    spl = BSpline.construct_fast(as_knots(t), _inputs.param(c).astype(_F8), int(k), False)
    value = spl.integrate(a, b, extrapolate=False)
    if full_output:
        _, wrk = host_scipy().splint(a, b, (_host(t), _host(c), int(k)), full_output=1)
        return value, (None if wrk is None else _inputs.param(wrk))  # SciPy 1.18 gives None in place of wrk
    return value


def sproot(tck, mest=10):
    """See `scipy.interpolate.sproot`: host work (FITPACK's sproot), the roots as a device array."""
    if isinstance(tck, BSpline):
        if tck.c.ndim > 1:
            raise ValueError("Calling sproot() with BSpline objects with c.ndim > 1 is not allowed.")
        tck = tck.tck
    t, c, k = tck
    c = c if isinstance(c, (list, tuple)) else _host(c)
    return _inputs.param(host_scipy().sproot((_host(t), c, int(k)), mest))


class UnivariateSpline:
    """See `scipy.interpolate.UnivariateSpline`. The smoothing fit is FITPACK's on the host;
    evaluation is on the device. `integral`, `derivatives`, `roots` and `get_residual` are host
    work on the fitted spline (a few numbers)."""

    def __init__(self, x, y, w=None, bbox=[None, None], k=3, s=None, ext=0, check_finite=False):  # noqa: B006
        self._set(host_scipy().UnivariateSpline(_host(x), _host(y), _host(w), bbox, k, s, ext, check_finite))

    def _set(self, host):
        self._host_spline = host
        t, c, k = host._eval_args
        self._tck = (_inputs.param(t), _inputs.param(c), int(k))
        self.ext = host.ext

    @classmethod
    def _wrap(cls, host):
        self = object.__new__(UnivariateSpline)
        self._set(host)
        return self

    def __call__(self, x, nu=0, ext=None):
        """See `scipy.interpolate.UnivariateSpline.__call__`."""
        ext = self.ext if ext is None else ext
        if ext not in _EXT:
            raise ValueError(f"Unknown extrapolation mode {ext}.")
        t, c, k = self._tck
        return _eval(t, c, k, x, nu, _EXT[ext])

    def get_knots(self):
        return _inputs.param(self._host_spline.get_knots())

    def get_coeffs(self):
        return _inputs.param(self._host_spline.get_coeffs())

    def get_residual(self):
        return self._host_spline.get_residual()

    def integral(self, a, b):
        return self._host_spline.integral(a, b)

    def derivatives(self, x):
        return _inputs.param(self._host_spline.derivatives(x))

    def roots(self):
        return _inputs.param(self._host_spline.roots())

    def derivative(self, n=1):
        return self._wrap(self._host_spline.derivative(n))

    def antiderivative(self, n=1):
        return self._wrap(self._host_spline.antiderivative(n))

    def set_smoothing_factor(self, s):
        self._host_spline.set_smoothing_factor(s)
        self._set(self._host_spline)


class InterpolatedUnivariateSpline(UnivariateSpline):
    """See `scipy.interpolate.InterpolatedUnivariateSpline` (host fit, device evaluation)."""

    def __init__(self, x, y, w=None, bbox=[None, None], k=3, ext=0, check_finite=False):  # noqa: B006
        self._set(host_scipy().InterpolatedUnivariateSpline(_host(x), _host(y), _host(w), bbox, k, ext,
                                                            check_finite))


class LSQUnivariateSpline(UnivariateSpline):
    """See `scipy.interpolate.LSQUnivariateSpline` (host fit, device evaluation)."""

    def __init__(self, x, y, t, w=None, bbox=[None, None], k=3, ext=0, check_finite=False):  # noqa: B006
        self._set(host_scipy().LSQUnivariateSpline(_host(x), _host(y), _host(t), _host(w), bbox, k, ext,
                                                   check_finite))


def tensor_eval(t, degrees, c, ends, xs, ys, dx, dy, shape):
    """FITPACK's bispev/parder on the device: coordinates clamped to the knot range, one pass."""
    (x0, x1), (y0, y1) = ends
    pts = stack((clip(xs, x0, x1).reshape(-1), clip(ys, y0, y1).reshape(-1)), axis=-1)
    out = _kernels.ndbspline_eval(t, degrees, c, pts, (int(dx), int(dy)), True, _F8)
    return out.reshape(shape)
