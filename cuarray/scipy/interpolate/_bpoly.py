"""`BPoly`: piecewise polynomials in the Bernstein basis. Evaluation converts the coefficients to
the power basis once (a (k+1) x (k+1) matrix applied to every interval, scaled by the interval's
length powers) and runs the power-basis kernel; derivatives, antiderivatives (a cumulative sum over
the coefficients, then over the intervals for continuity), degree elevation in `extend` and
`from_power_basis` are coefficient algebra on the device. `from_derivatives` is host work (SciPy's
per-interval Hermite construction)."""

from __future__ import annotations

import math

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._manipulation.joining import concatenate
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum, diff
from . import _inputs
from ._host import host_scipy
from ._ppoly import PPoly, _PPolyBase, integration_points

__all__ = ["BPoly"]

_F8 = numpy.dtype(numpy.float64)


def _rest(ndim):
    return (None,) * (ndim - 2)


class BPoly(_PPolyBase):
    """See `scipy.interpolate.BPoly`."""

    def _power_c(self):
        cached = getattr(self, "_pc", None)
        if cached is None or cached[0] is not self.c:
            cached = self._pc = (self.c, PPoly.from_bernstein_basis(self).c)
        return cached[1]

    def derivative(self, nu=1):
        """See `scipy.interpolate.BPoly.derivative`."""
        if nu < 0:
            return self.antiderivative(-nu)
        bp = self
        for _ in range(nu):
            k = bp.c.shape[0] - 1
            dx = diff(bp.x)[(None, slice(None)) + _rest(bp.c.ndim)]
            c2 = k * diff(bp.c, axis=0) / dx
            if c2.shape[0] == 0:
                c2 = zeros((1,) + c2.shape[1:], dtype=c2.dtype)
            bp = self.construct_fast(c2, bp.x, bp.extrapolate, bp.axis)
        return bp if nu else self.construct_fast(self.c.copy(), self.x, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        """See `scipy.interpolate.BPoly.antiderivative`."""
        if nu <= 0:
            return self.derivative(-nu)
        bp = self
        for _ in range(nu):
            c, x = bp.c, bp.x
            k = c.shape[0]
            c2 = concatenate((zeros((1,) + c.shape[1:], dtype=c.dtype), cumsum(c, axis=0) / k))
            c2 = c2 * diff(x)[(None, slice(None)) + _rest(c.ndim)]
            # continuity: interval j starts where interval j - 1 ended (its last coefficient)
            jumps = cumsum(c2[k], axis=0)[:-1]
            c2 = concatenate((c2[:, :1], c2[:, 1:] + jumps[None]), axis=1)
            extrapolate = False if bp.extrapolate == "periodic" else bp.extrapolate
            bp = self.construct_fast(c2, x, extrapolate, bp.axis)
        return bp

    def integrate(self, a, b, extrapolate=None):
        """See `scipy.interpolate.BPoly.integrate` (a device result)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        anti = self.antiderivative()
        pts, w = integration_points(self, a, b, extrapolate)
        vals = anti(_inputs.param(numpy.array(pts)), extrapolate=True if extrapolate == "periodic" else bool(extrapolate))
        wts = _inputs.param(numpy.array(w) * sign).astype(vals.dtype)
        return sum_(vals.reshape((len(pts), -1)) * wts[:, None], axis=0).reshape(self.c.shape[2:])

    def extend(self, c, x):
        """See `scipy.interpolate.BPoly.extend` (the lower degree raised to the higher one)."""
        c = _inputs.param(c)
        k = max(self.c.shape[0], c.shape[0])
        self.c = _raise_degree(self.c, k - self.c.shape[0])
        c = _raise_degree(c, k - c.shape[0])
        PPoly.extend(self, c, x)

    @classmethod
    def from_power_basis(cls, pp, extrapolate=None):
        """See `scipy.interpolate.BPoly.from_power_basis`."""
        if not isinstance(pp, PPoly):
            raise TypeError(f".from_power_basis only accepts PPoly instances. Got {type(pp)} instead.")
        dx = diff(pp.x)
        k = pp.c.shape[0] - 1
        # c_bern[a] = sum_{j <= a} comb(a, j) / comb(k, j) * dx^j * (coefficient of s^j)
        scaled = pp.c * (dx[None, :] ** _inputs.param(numpy.arange(k, -1, -1, dtype=float))[:, None])[
            (slice(None), slice(None)) + _rest(pp.c.ndim)]
        mat = numpy.zeros((k + 1, k + 1))
        for a in range(k + 1):
            for j in range(a + 1):
                mat[a, k - j] = math.comb(a, j) / math.comb(k, j)
        flat = scaled.reshape((k + 1, -1))
        c = (_inputs.param(mat).astype(flat.dtype) @ flat).reshape(pp.c.shape)
        return cls.construct_fast(c, pp.x, pp.extrapolate if extrapolate is None else extrapolate, pp.axis)

    @classmethod
    def from_derivatives(cls, xi, yi, orders=None, extrapolate=None):
        """See `scipy.interpolate.BPoly.from_derivatives`: host work (SciPy's construction)."""
        host = host_scipy().BPoly.from_derivatives(_host(xi), [numpy.asarray(_host(v)) for v in yi], orders,
                                                   extrapolate)
        return cls.construct_fast(_inputs.param(host.c), _inputs.param(host.x), host.extrapolate)


def _host(v):
    if isinstance(v, (numpy.ndarray, numpy.generic, int, float, complex, list, tuple)):
        return v
    return to_host(v)


def _raise_degree(c, d):
    """Bernstein coefficients of the same polynomials at degree k + d (k + 1 = len(c))."""
    if d == 0:
        return c
    k = c.shape[0] - 1
    mat = numpy.zeros((k + d + 1, k + 1))
    for a in range(k + 1):
        for j in range(a, a + d + 1):
            mat[j, a] = math.comb(k, a) * math.comb(d, j - a) / math.comb(k + d, j)
    flat = c.reshape((k + 1, -1))
    return (_inputs.param(mat).astype(flat.dtype) @ flat).reshape((k + d + 1,) + c.shape[1:])
