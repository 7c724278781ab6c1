"""FITPACK's bivariate splines: `BivariateSpline` and its fitted subclasses `SmoothBivariateSpline`
(surfit), `LSQBivariateSpline` (surfit, given knots), `RectBivariateSpline` (regrid), and the
spherical ones `SmoothSphereBivariateSpline`, `LSQSphereBivariateSpline` (sphere) and
`RectSphereBivariateSpline` (spgrid).

The fits are small sequential host work (P. Dierckx, "Curve and Surface Fitting with Splines",
1993: knot placement and the smoothing iterations): SciPy's FITPACK on host copies of the data.
The knots and coefficients then live on the device, where everything that scales with the query
points runs: values and partial derivatives on grids or at points (the tensor-product B-spline
kernel, one pass, coordinates clamped to the knot range as FITPACK's bispev/parder do), and the
derivative splines' coefficients (FITPACK's pardtc recurrence, a few elementwise passes).
`integral` is host work (FITPACK's dblint: the B-splines' integrals against the coefficients; a
Python float as SciPy's)."""

from __future__ import annotations

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._logic.truth import all as all_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import stack
from ..._math.sums_scan import diff
from ..._sorting.searching import where
from ..._statistics.order import max as max_, min as min_
from . import _inputs
from ._fitpack import _host, tensor_eval  # (_host: a fit argument's host copy, as the 1-D fits')
from ._host import host_scipy

__all__ = ["BivariateSpline", "SmoothBivariateSpline", "LSQBivariateSpline", "RectBivariateSpline",
           "SmoothSphereBivariateSpline", "LSQSphereBivariateSpline", "RectSphereBivariateSpline"]

_F8 = numpy.dtype(numpy.float64)


def _bbox_host(bbox):
    return [b if b is None or isinstance(b, (int, float, numpy.generic)) else float(_host(b)) for b in bbox] \
        if isinstance(bbox, (list, tuple)) else _host(bbox)


def _pardtc_axis(c, t, k, nu, axis):
    """Coefficients (on the device) of the nu-th derivative along `axis` of a tensor spline with
    knots t (host) and degree k: FITPACK's pardtc recurrence, c_i <- (c_{i+1} - c_i) k /
    (t_{i+k+1} - t_{i+1}) once per order (c_i kept where that knot span is empty, as pardtc),
    the degree and the knots' ends shrinking by one."""
    for step in range(nu):
        kk = k - step
        n = c.shape[axis]
        den = t[step + kk + 1:step + kk + n] - t[step + 1:step + n]
        keep = _inputs.param(den <= 0)
        span = _inputs.param(numpy.where(den > 0, den, 1.0))
        if axis == 1:
            c0, c1, keep, span = c[:, :-1], c[:, 1:], keep[None, :], span[None, :]
        else:
            c0, c1, keep, span = c[:-1], c[1:], keep[:, None], span[:, None]
        c = where(keep, c0, (c1 - c0) * float(kk) / span)
    return c


class _BivariateSplineBase:
    """Device knots and coefficients (`tck`, `degrees`) and their evaluation; `fp` and the host
    fit are the subclasses'."""

    @classmethod
    def _from_tck(cls, tck):
        self = cls.__new__(cls)
        if len(tck) != 5:
            raise ValueError("tck should be a 5 element tuple of tx, ty, c, kx, ky")
        self._set_tck(tck[0], tck[1], tck[2], tck[3], tck[4])
        return self

    def _set_tck(self, tx, ty, c, kx, ky):
        tx, ty = _inputs.param(tx).astype(_F8), _inputs.param(ty).astype(_F8)
        kx, ky = int(kx), int(ky)
        self.degrees = (kx, ky)
        nx, ny = tx.shape[0] - kx - 1, ty.shape[0] - ky - 1
        c = _inputs.param(c)
        self.tck = (tx, ty, c)
        self._grid = c.astype(_F8)[:nx * ny].reshape((nx, ny, 1))
        ends = to_host(stack((tx[kx], tx[nx], ty[ky], ty[ny])))  # the base box: 4 host numbers
        self._ends = [(float(ends[0]), float(ends[1])), (float(ends[2]), float(ends[3]))]

    def _set_fit(self, host):
        """Keep a host fit's knots and coefficients on the device, and its residual."""
        tx, ty, c = host.tck
        self._set_tck(tx, ty, c, *host.degrees)
        self.fp = float(host.fp)

    def get_residual(self):
        """See `scipy.interpolate.BivariateSpline.get_residual` (a Python float)."""
        return self.fp

    def get_knots(self):
        """See `scipy.interpolate.BivariateSpline.get_knots` (device arrays)."""
        return self.tck[:2]

    def get_coeffs(self):
        """See `scipy.interpolate.BivariateSpline.get_coeffs` (a device array)."""
        return self.tck[2]

    def __call__(self, x, y, dx=0, dy=0, grid=True):
        """See `scipy.interpolate.BivariateSpline.__call__`: device points, one evaluation pass."""
        x, y = _inputs.data(x).astype(_F8), _inputs.data(y).astype(_F8)
        squeeze = x.ndim == 0 and y.ndim == 0
        if grid:
            x, y = x.reshape(-1), y.reshape(-1)
            shape = (x.shape[0], y.shape[0])
            if 0 in shape:
                return zeros(shape, dtype=self.tck[2].dtype)
            for name, v in (("x", x), ("y", y)):
                if v.shape[0] >= 2 and not bool(all_(diff(v) >= 0.0)):
                    raise ValueError(f"{name} must be strictly increasing when `grid` is True")
            xs, ys = broadcast_to(x[:, None], shape), broadcast_to(y[None, :], shape)
        else:
            x, y = x.reshape(x.shape or (1,)), y.reshape(y.shape or (1,))
            shape = numpy.broadcast_shapes(x.shape, y.shape)
            if 0 in shape:
                return zeros(shape, dtype=self.tck[2].dtype)
            xs, ys = broadcast_to(x, shape), broadcast_to(y, shape)
        kx, ky = self.degrees
        if (dx or dy) and not (0 <= dx < kx and 0 <= dy < ky):
            raise ValueError(f"Error code returned by {'parder' if grid else 'pardeu'}: 10")
        z = tensor_eval(self.tck[:2], self.degrees, self._grid, self._ends, xs, ys, dx, dy, shape)
        return z.reshape(()) if squeeze and not grid else z

    def partial_derivative(self, dx, dy):
        """See `scipy.interpolate.BivariateSpline.partial_derivative`: the derivative spline's
        coefficients computed on the device (FITPACK's pardtc)."""
        if dx == 0 and dy == 0:
            return self
        kx, ky = self.degrees
        if not (dx >= 0 and dy >= 0):
            raise ValueError("order of derivative must be positive or zero")
        if not (dx < kx and dy < ky):
            raise ValueError("order of derivative must be less than degree of spline")
        tx, ty = self.tck[0], self.tck[1]
        htx, hty = numpy.asarray(to_host(tx)), numpy.asarray(to_host(ty))  # the knots: a few numbers
        c = self._grid[..., 0]
        c = _pardtc_axis(c, htx, kx, dx, 0)
        c = _pardtc_axis(c, hty, ky, dy, 1)
        nx, ny = tx.shape[0], ty.shape[0]
        return _DerivedBivariateSpline._from_tck((tx[dx:nx - dx], ty[dy:ny - dy], c.reshape(-1), kx - dx, ky - dy))


class BivariateSpline(_BivariateSplineBase):
    """See `scipy.interpolate.BivariateSpline`: the base class of the fitted splines (device
    knots and coefficients, device evaluation)."""

    def ev(self, xi, yi, dx=0, dy=0):
        """See `scipy.interpolate.BivariateSpline.ev`."""
        return self.__call__(xi, yi, dx=dx, dy=dy, grid=False)

    def integral(self, xa, xb, ya, yb):
        """See `scipy.interpolate.BivariateSpline.integral` (host work, a Python float)."""
        tx, ty, _ = self.tck
        kx, ky = self.degrees
        htx, hty = numpy.asarray(to_host(tx)), numpy.asarray(to_host(ty))
        c = numpy.asarray(to_host(self._grid[..., 0]))
        # FITPACK's dblint: the integrals of the B-splines over the intervals clipped to the base
        # box (fpintb), every basis function at once (the identity's columns), against the coefficients
        bspline = host_scipy().BSpline
        wx = bspline(htx, numpy.eye(c.shape[0]), kx).integrate(xa, xb, extrapolate=False)
        wy = bspline(hty, numpy.eye(c.shape[1]), ky).integrate(ya, yb, extrapolate=False)
        return float(wx @ c @ wy)


class _DerivedBivariateSpline(_BivariateSplineBase):
    """A partial derivative of another spline (no fit, so no residual), as SciPy's."""

    _invalid_why = ("is unavailable, because _DerivedBivariateSpline instance is not constructed from data that "
                    "are to be interpolated or smoothed, but derived from the underlying knots and coefficients of "
                    "another spline object")

    @property
    def fp(self):
        raise AttributeError(f'attribute "fp" {self._invalid_why}')

    def get_residual(self):
        raise AttributeError(f'method "get_residual" {self._invalid_why}')


class SmoothBivariateSpline(BivariateSpline):
    """See `scipy.interpolate.SmoothBivariateSpline`: FITPACK's surfit on the host, device
    evaluation."""

    def __init__(self, x, y, z, w=None, bbox=[None] * 4, kx=3, ky=3, s=None, eps=1e-16):  # noqa: B006
        self._set_fit(host_scipy().SmoothBivariateSpline(_host(x), _host(y), _host(z), _host(w), _bbox_host(bbox),
                                                         kx, ky, s, eps))


class LSQBivariateSpline(BivariateSpline):
    """See `scipy.interpolate.LSQBivariateSpline`: FITPACK's least-squares surfit on the host,
    device evaluation."""

    def __init__(self, x, y, z, tx, ty, w=None, bbox=[None] * 4, kx=3, ky=3, eps=None):  # noqa: B006
        self._set_fit(host_scipy().LSQBivariateSpline(_host(x), _host(y), _host(z), _host(tx), _host(ty), _host(w),
                                                      _bbox_host(bbox), kx, ky, eps))


class RectBivariateSpline(BivariateSpline):
    """See `scipy.interpolate.RectBivariateSpline`: FITPACK's regrid fit on the host, device
    evaluation."""

    def __init__(self, x, y, z, bbox=[None] * 4, kx=3, ky=3, s=0, maxit=20):  # noqa: B006
        self._set_fit(host_scipy().RectBivariateSpline(_host(x), _host(y), _host(z), _bbox_host(bbox), kx, ky, s,
                                                       maxit))


class SphereBivariateSpline(_BivariateSplineBase):
    """The spherical splines' evaluation in (theta, phi): theta's range is checked (two host
    numbers), then the tensor spline is evaluated as any other."""

    def __call__(self, theta, phi, dtheta=0, dphi=0, grid=True):
        """See `scipy.interpolate.SmoothSphereBivariateSpline.__call__`."""
        theta = _inputs.data(theta)
        if theta.size > 0:
            lo, hi = (float(v) for v in to_host(stack((min_(theta), max_(theta)))))
            if lo < 0.0 or hi > numpy.pi:
                raise ValueError("requested theta out of bounds.")
        return _BivariateSplineBase.__call__(self, theta, phi, dx=dtheta, dy=dphi, grid=grid)

    def ev(self, theta, phi, dtheta=0, dphi=0):
        """See `scipy.interpolate.SmoothSphereBivariateSpline.ev`."""
        return self.__call__(theta, phi, dtheta=dtheta, dphi=dphi, grid=False)


def _check_phi(phi):
    phi = _inputs.data(phi)
    if phi.size > 0:
        lo, hi = (float(v) for v in to_host(stack((min_(phi), max_(phi)))))
        if lo < 0.0 or hi > 2.0 * numpy.pi:
            raise ValueError("requested phi out of bounds.")
    return phi


class SmoothSphereBivariateSpline(SphereBivariateSpline):
    """See `scipy.interpolate.SmoothSphereBivariateSpline`: FITPACK's sphere fit on the host,
    device evaluation."""

    def __init__(self, theta, phi, r, w=None, s=0.0, eps=1e-16):
        self._set_fit(host_scipy().SmoothSphereBivariateSpline(_host(theta), _host(phi), _host(r), _host(w), s, eps))

    def __call__(self, theta, phi, dtheta=0, dphi=0, grid=True):
        """See `scipy.interpolate.SmoothSphereBivariateSpline.__call__`."""
        return SphereBivariateSpline.__call__(self, theta, _check_phi(phi), dtheta=dtheta, dphi=dphi, grid=grid)


class LSQSphereBivariateSpline(SphereBivariateSpline):
    """See `scipy.interpolate.LSQSphereBivariateSpline`: FITPACK's least-squares sphere fit on
    the host, device evaluation."""

    def __init__(self, theta, phi, r, tt, tp, w=None, eps=1e-16):
        self._set_fit(host_scipy().LSQSphereBivariateSpline(_host(theta), _host(phi), _host(r), _host(tt),
                                                            _host(tp), _host(w), eps))

    def __call__(self, theta, phi, dtheta=0, dphi=0, grid=True):
        """See `scipy.interpolate.LSQSphereBivariateSpline.__call__`."""
        return SphereBivariateSpline.__call__(self, theta, _check_phi(phi), dtheta=dtheta, dphi=dphi, grid=grid)


class RectSphereBivariateSpline(SphereBivariateSpline):
    """See `scipy.interpolate.RectSphereBivariateSpline`: FITPACK's spgrid fit on the host,
    device evaluation."""

    def __init__(self, u, v, r, s=0.0, pole_continuity=False, pole_values=None, pole_exact=False, pole_flat=False):
        host = host_scipy().RectSphereBivariateSpline(_host(u), _host(v), _host(r), s, pole_continuity,
                                                      _host(pole_values), pole_exact, pole_flat)
        self._set_fit(host)
        self.v0 = host.v0

    def __call__(self, theta, phi, dtheta=0, dphi=0, grid=True):
        """See `scipy.interpolate.RectSphereBivariateSpline.__call__`."""
        return SphereBivariateSpline.__call__(self, theta, phi, dtheta=dtheta, dphi=dphi, grid=grid)
