"""Cubic interpolators as `PPoly` subclasses: `CubicHermiteSpline` (coefficients from values and
slopes in a few elementwise passes), `PchipInterpolator`/`pchip_interpolate`, `Akima1DInterpolator`
(slopes from local formulas) and `CubicSpline`, whose slopes solve a tridiagonal system
(`_tridiag.solve_tridiagonal`: cuSPARSE's gtsv2, or cyclic reduction for many columns; 'periodic'
splits off the last unknown as SciPy does and solves two right-hand sides). The validation SciPy does on
the host (finite, strictly increasing x) reads three booleans back."""

from typing import Literal

import numpy

from ..._core.transfer import to_host
from ..._creation.from_data import ascontiguousarray
from ..._logic.content import isfinite
from ..._logic.truth import all as all_, any as any_
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.misc import abs as abs_, sign
from ..._math.sums_scan import diff
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from . import _inputs
from ._ppoly import PPoly

__all__ = ["CubicHermiteSpline", "CubicSpline", "PchipInterpolator", "pchip_interpolate",
           "Akima1DInterpolator", "prepare_input"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)


def prepare_input(x, y, axis, dydx=None):
    """SciPy's checks and casts of the cubic interpolators' data; y (and dydx) with `axis` first."""
    x, y = _inputs.param(x), _inputs.values(y)
    dydx = None if dydx is None else _inputs.values(dydx)
    if x.dtype.kind == "c":
        raise ValueError("`x` must contain real values.")
    x = x.astype(_F8)
    dtype = _C16 if y.dtype.kind == "c" else _F8
    if dydx is not None:
        if y.shape != dydx.shape:
            raise ValueError("The shapes of `y` and `dydx` must be identical.")
        if dydx.dtype.kind == "c":
            dtype = _C16
        dydx = dydx.astype(dtype)
    y = y.astype(dtype)
    if y.ndim == 0:
        raise ValueError("`y` must be at least 1-dimensional.")  # SciPy: axis % 0 divides by zero
    axis = axis % y.ndim
    if x.ndim != 1:
        raise ValueError("`x` must be 1-dimensional.")
    if x.shape[0] < 2:
        raise ValueError("`x` must contain at least 2 elements.")
    if x.shape[0] != y.shape[axis]:
        raise ValueError(f"The length of `y` along `axis`={axis} doesn't match the length of `x`")
    checks = [all_(isfinite(x)), all_(isfinite(y)),
              all_(isfinite(dydx)) if dydx is not None else all_(isfinite(x)),
              any_(diff(x) <= 0)]
    ok_x, ok_y, ok_d, unsorted = (bool(v) for v in to_host(stack(checks)))
    if not ok_x:
        raise ValueError("`x` must contain only finite values.")
    if not ok_y:
        raise ValueError("`y` must contain only finite values.")
    if not ok_d:
        raise ValueError("`dydx` must contain only finite values.")
    if unsorted:
        raise ValueError("`x` must be strictly increasing sequence.")
    y = moveaxis(y, axis, 0)
    if dydx is not None:
        dydx = moveaxis(dydx, axis, 0)
    return x, diff(x), y, axis, dydx


def _col(v, ndim):
    return v.reshape((v.shape[0],) + (1,) * (ndim - 1))


def hermite_coefficients(x, dx, y, dydx):
    """The (4, n - 1, ...) power-basis coefficients of the cubic Hermite interpolant."""
    dxr = _col(dx, y.ndim)
    slope = diff(y, axis=0) / dxr
    t = (dydx[:-1] + dydx[1:] - 2 * slope) / dxr
    return stack((t / dxr, (slope - dydx[:-1]) / dxr - t, dydx[:-1], y[:-1]))


class CubicHermiteSpline(PPoly):
    """See `scipy.interpolate.CubicHermiteSpline`."""

    def __init__(self, x, y, dydx, axis=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = True
        x, dx, y, axis, dydx = prepare_input(x, y, axis, dydx)
        self._set(x, dx, y, dydx, axis, extrapolate)

    def _set(self, x, dx, y, dydx, axis, extrapolate):
        self.c = ascontiguousarray(hermite_coefficients(x, dx, y, dydx))
        self.x = x
        self.extrapolate = extrapolate
        self._desc = False
        self.axis = axis


def _edge_case(h0, h1, m0, m1):
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    mask = sign(d) != sign(m0)
    mask2 = (sign(m0) != sign(m1)) & (abs_(d) > 3.0 * abs_(m0))
    d = where(mask, 0.0, d)
    return where(~mask & mask2, 3.0 * m0, d)


def pchip_slopes(x, y):
    """PCHIP's slopes (Fritsch & Carlson; Moler's one-sided ends, "Numerical Computing with
    MATLAB" 3.6) for y with its points first."""
    shape = y.shape
    y2 = y.reshape((shape[0], -1))
    h = (x[1:] - x[:-1])[:, None]
    mk = (y2[1:] - y2[:-1]) / h
    if shape[0] == 2:
        return concatenate((mk, mk)).reshape(shape)
    smk = sign(mk)
    cond = (smk[1:] != smk[:-1]) | (mk[1:] == 0) | (mk[:-1] == 0)
    w1 = 2 * h[1:] + h[:-1]
    w2 = h[1:] + 2 * h[:-1]
    safe_hi = where(cond, 1.0, mk[1:])
    safe_lo = where(cond, 1.0, mk[:-1])
    whmean = (w1 / safe_lo + w2 / safe_hi) / (w1 + w2)
    inner = where(cond, 0.0, 1.0 / whmean)
    first = _edge_case(h[0], h[1], mk[0], mk[1])[None]
    last = _edge_case(h[-1], h[-2], mk[-1], mk[-2])[None]
    return concatenate((first, inner, last)).reshape(shape)


def _real_only(y, name):
    if y.dtype.kind == "c":
        raise ValueError(f"`{name}` only works with real values for `y`. If you are trying to use the real "
                         "components of the passed array, use `np.real` on the array before passing to "
                         f"`{name}`.")


class PchipInterpolator(CubicHermiteSpline):
    """See `scipy.interpolate.PchipInterpolator`."""

    def __init__(self, x, y, axis=0, extrapolate=None):
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        _real_only(y, "PchipInterpolator")
        self._set(x, dx, y, pchip_slopes(x, y), axis, True if extrapolate is None else extrapolate)


def pchip_interpolate(xi, yi, x, der=0, axis=0):
    """See `scipy.interpolate.pchip_interpolate`."""
    p = PchipInterpolator(xi, yi, axis=axis)
    if isinstance(der, (int, numpy.integer)):
        return p(x, der)
    return [p(x, nu) for nu in der]


def akima_slopes(x, dx, y, method):
    """Akima's (1970) slopes, or the modified ones ('makima': weights with |m_i + m_{i+1}|)."""
    shape = y.shape
    y2 = y.reshape((shape[0], -1))
    mk = diff(y2, axis=0) / dx[:, None]
    if shape[0] == 2:
        return concatenate((mk, mk)).reshape(shape)
    m1 = 2.0 * mk[:1] - mk[1:2]
    m0 = 2.0 * m1 - mk[:1]
    mn = 2.0 * mk[-1:] - mk[-2:-1]
    mn1 = 2.0 * mn - mk[-1:]
    m = concatenate((m0, m1, mk, mn, mn1))
    t = 0.5 * (m[3:] + m[:-3])
    dm = abs_(diff(m, axis=0))
    if method == "makima":
        pm = abs_(m[1:] + m[:-1])
        f1 = dm[2:] + 0.5 * pm[2:]
        f2 = dm[:-2] + 0.5 * pm[:-2]
    else:
        f1, f2 = dm[2:], dm[:-2]
    f12 = f1 + f2
    ind = f12 > 1e-9 * max_(f12) if f12.size else f12 > 0
    t = where(ind, m[1:-2] + (f2 / where(ind, f12, 1.0)) * (m[2:-1] - m[1:-2]), t)
    return t.reshape(shape)


class Akima1DInterpolator(CubicHermiteSpline):
    """See `scipy.interpolate.Akima1DInterpolator`."""

    def __init__(self, x, y, axis=0, *, method: Literal["akima", "makima"] = "akima",
                 extrapolate: bool | None = None):
        if method not in {"akima", "makima"}:
            raise NotImplementedError(f"`method`={method} is unsupported.")
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        _real_only(y, "Akima1DInterpolator")
        extrapolate = False if extrapolate is None else extrapolate
        self._set(x, dx, y, akima_slopes(x, dx, y, method), axis, extrapolate)

    def extend(self, c, x, right=True):
        raise NotImplementedError("Extending a 1-D Akima interpolator is not yet implemented")

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        raise NotImplementedError("This method does not make sense for an Akima interpolator.")

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        raise NotImplementedError("This method does not make sense for an Akima interpolator.")
