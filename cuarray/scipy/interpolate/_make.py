"""Spline fits that return a `BSpline`: `make_interp_spline`, `make_lsq_spline`,
`make_smoothing_spline`.

On the device: k = 0 and k = 1 (the data are the coefficients), and k = 3 with SciPy's default
knots and one end condition of order 1 or 2 a side (not-a-knot, 'natural', 'clamped', (order,
value)): that interpolant is the cubic spline `CubicSpline` builds by cyclic reduction, and its
B-spline coefficients are the blossoms of its pieces at three consecutive knots (de Boor, "A
Practical Guide to Splines", the dual functional of B-splines), one elementwise pass. Every other
case (other degrees, given knots, 'periodic', several end conditions a side) and the least-squares
and smoothing fits are host work: SciPy solves the banded systems on host copies and the
coefficients come back to the device, where the spline is evaluated."""

from __future__ import annotations

import numpy
from numpy.lib.array_utils import normalize_axis_index

from ..._core.transfer import to_host
from ..._creation.from_data import ascontiguousarray
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.misc import clip
from ..._math.sums_scan import diff
from ..._sorting.searchsorted import searchsorted
from . import _inputs
from ._bspline import BSpline
from ._cubic_spline import CubicSpline
from ._host import host_scipy

__all__ = ["make_interp_spline", "make_lsq_spline", "make_smoothing_spline"]

_F8 = numpy.dtype(numpy.float64)


def _host(v):
    if v is None or isinstance(v, (str, int, float, complex, numpy.ndarray, numpy.generic)):
        return v
    if isinstance(v, (list, tuple)):
        return type(v)(_host(u) for u in v)
    return to_host(v)


def _device(b, axis=0):
    return BSpline.construct_fast(_inputs.param(b.t), _inputs.param(b.c), b.k, b.extrapolate, axis)


def _cubic_bc(bc_type):
    """The CubicSpline bc_type of a make_interp_spline bc_type with one order-1/2 condition a side,
    or None where the device path does not apply."""
    if bc_type is None or bc_type == "not-a-knot":
        return "not-a-knot"
    if bc_type in ("natural", "clamped"):
        return bc_type
    try:
        left, right = bc_type
    except (TypeError, ValueError):
        return None
    out = []
    for side in (left, right):
        if side in ("natural", "clamped"):
            out.append(side)
        elif isinstance(side, list) and len(side) == 1 and side[0][0] in (1, 2):
            out.append((side[0][0], side[0][1]))
        else:
            return None
    return tuple(out)


def _blossom_coefficients(x, t, pp):
    """B-spline coefficients (nt, ...) of the cubic spline `pp` on knots t: each the blossom of the
    piece under knot t[i + 2] at (t[i + 1], t[i + 2], t[i + 3])."""
    nt = t.shape[0] - 4
    j = clip(searchsorted(x, t[2:2 + nt], side="right") - 1, 0, x.shape[0] - 2)
    shape = (nt,) + (1,) * (pp.c.ndim - 2)
    s1, s2, s3 = ((t[o:o + nt] - x[j]).reshape(shape) for o in (1, 2, 3))
    a, b, c, d = (pp.c[p][j] for p in range(4))
    return d + c * (s1 + s2 + s3) / 3 + b * (s1 * s2 + s1 * s3 + s2 * s3) / 3 + a * (s1 * s2 * s3)


def _cubic_knots(x, not_a_knot):
    ends = (x[:1], x[-1:])
    if not_a_knot:
        return concatenate((ends[0], ends[0], ends[0], ends[0], x[2:-2], ends[1], ends[1], ends[1], ends[1]))
    return concatenate((ends[0], ends[0], ends[0], x, ends[1], ends[1], ends[1]))


def make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0, check_finite=True):
    """See `scipy.interpolate.make_interp_spline`. On the device for k = 0, 1 and for k = 3 with
    the default knots and one condition of order 1 or 2 a side; otherwise SciPy solves the
    collocation system on the host (the spline is returned and evaluated on the device)."""
    k = int(k)
    cubic_bc = _cubic_bc(bc_type) if k == 3 and t is None else None
    simple = (k in (0, 1) and t is None and bc_type is None) or cubic_bc is not None
    xd, yd = _inputs.param(x), _inputs.values(y)
    if simple and xd.ndim == 1 and yd.ndim >= 1 and xd.dtype.kind in "fiu" and yd.dtype.kind in "fiuc":
        axis = normalize_axis_index(axis, yd.ndim)
        xd = xd.astype(_F8)
        ym = moveaxis(yd, axis, 0)
        n = xd.shape[0]
        ok = n == ym.shape[0] and n >= 2 and (cubic_bc != "not-a-knot" or n >= 4)
        if ok:
            checks = to_host(stack((all_(diff(xd) > 0), all_(isfinite(xd)),
                                            all_(isfinite(ym)))))
            ok = bool(checks[0]) and (not check_finite or (bool(checks[1]) and bool(checks[2])))
        if ok:
            return _make_simple(xd, ym, k, cubic_bc, axis)
    # host work: SciPy's collocation solve (and all of its checks and errors)
    b = host_scipy().make_interp_spline(_host(x), _host(y), k, _host(t), _host(bc_type), axis, check_finite)
    return _device(b, b.axis)


def _make_simple(x, y, k, cubic_bc, axis):
    dt = numpy.complex128 if y.dtype.kind == "c" else _F8
    y = y.astype(dt)
    if k == 0:
        return BSpline.construct_fast(concatenate((x, x[-1:])), ascontiguousarray(y), 0, True, axis)
    if k == 1:
        return BSpline.construct_fast(concatenate((x[:1], x, x[-1:])), ascontiguousarray(y), 1, True, axis)
    pp = CubicSpline(x, y, axis=0, bc_type=cubic_bc)
    t = _cubic_knots(x, cubic_bc == "not-a-knot")
    c = _blossom_coefficients(x, t, pp)
    return BSpline.construct_fast(t, ascontiguousarray(c), 3, True, axis)


def make_lsq_spline(x, y, t, k=3, w=None, axis=0, check_finite=True, *, method="qr"):
    """See `scipy.interpolate.make_lsq_spline`: host work (SciPy's banded least-squares solve on
    host copies); the returned spline lives and evaluates on the device."""
    y = _inputs.values(y)  # the data fitted: on the device or a Python literal (docs/scipy.md, "Host inputs")
    b = host_scipy().make_lsq_spline(_host(x), _host(y), _host(t), k, _host(w), axis, check_finite, method=method)
    return _device(b, b.axis)


def make_smoothing_spline(x, y, w=None, lam=None, *, axis=0):
    """See `scipy.interpolate.make_smoothing_spline`: host work (SciPy's penalised fit and its GCV
    search for `lam`); the returned spline lives and evaluates on the device."""
    y = _inputs.values(y)  # the data fitted: on the device or a Python literal (docs/scipy.md, "Host inputs")
    b = host_scipy().make_smoothing_spline(_host(x), _host(y), _host(w), lam, axis=axis)
    return _device(b, b.axis)
