"""`NdPPoly`: tensor-product piecewise polynomials, coefficients (k_1..k_n, m_1..m_n, ...). A
point's coefficient block is one gather (its intervals found by `searchsorted` per dimension), then
Horner's rule one dimension at a time, all points at once. The calculus works one axis at a time
through `PPoly` (the axis moved to PPoly's (k, m, ...) layout)."""

from __future__ import annotations

import math

import numpy

from ..._creation.basic import zeros
from ..._creation.from_data import ascontiguousarray
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.transpose import moveaxis
from ..._math.misc import clip
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from . import _inputs
from ._ppoly import PPoly, poch_factors
from ._rgi import ndim_coords

__all__ = ["NdPPoly"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)


class NdPPoly:
    """See `scipy.interpolate.NdPPoly` (evaluation gathers each point's (k_1 ... k_n) coefficient
    block: memory proportional to points times block size, in chunks)."""

    def __init__(self, c, x, extrapolate=None):
        self.x = tuple(ascontiguousarray(_inputs.param(v).astype(_F8)) for v in x)
        c = _inputs.param(c)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        if any(v.ndim != 1 for v in self.x):
            raise ValueError("x arrays must all be 1-dimensional")
        if any(v.size < 2 for v in self.x):
            raise ValueError("x arrays must all contain at least 2 points")
        if c.ndim < 2 * ndim:
            raise ValueError("c must have at least 2*len(x) dimensions")
        if any(bool(any_(v[1:] - v[:-1] < 0)) for v in self.x):
            raise ValueError("x-coordinates are not in increasing order")
        if any(a != b.size - 1 for a, b in zip(c.shape[ndim:2 * ndim], self.x)):
            raise ValueError("x and c do not agree on the number of intervals")
        dt = _C16 if c.dtype.kind == "c" else _F8
        self.c = ascontiguousarray(c.astype(dt))

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None):
        """See `scipy.interpolate.NdPPoly.construct_fast`."""
        self = object.__new__(cls)
        self.c, self.x = c, tuple(x)
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def __call__(self, x, nu=None, extrapolate=None):
        """See `scipy.interpolate.NdPPoly.__call__`."""
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        x = ndim_coords(x, ndim)
        x_shape = x.shape
        x = x.reshape((-1, x_shape[-1])).astype(_F8)
        if nu is None:
            nu = (0,) * ndim
        else:
            nu = numpy.asarray(nu, dtype=numpy.intc)
            if nu.ndim != 1 or nu.shape[0] != ndim:
                raise ValueError("invalid number of derivative orders nu")
            nu = tuple(int(v) for v in nu)
        ks = self.c.shape[:ndim]
        ms = self.c.shape[ndim:2 * ndim]
        trailing = self.c.shape[2 * ndim:]
        # (intervals, coefficients, trailing): one row of coefficient blocks an interval cell
        perm = list(range(ndim, 2 * ndim)) + list(range(ndim)) + list(range(2 * ndim, self.c.ndim))
        blocks = ascontiguousarray(self.c.transpose(perm)).reshape(
            (math.prod(ms), math.prod(ks), math.prod(trailing)))
        flat, svals, bad = None, [], None
        for d in range(ndim):
            xd, v = self.x[d], x[:, d]
            i = clip(searchsorted(xd, v, side="right") - 1, 0, ms[d] - 1)
            flat = i if flat is None else flat * ms[d] + i
            svals.append(v - xd[i])
            out_d = isnan(v) if extrapolate else (isnan(v) | (v < xd[0]) | (v > xd[-1]))
            bad = out_d if bad is None else bad | out_d
        vals = blocks[flat].reshape((x.shape[0],) + tuple(ks) + (math.prod(trailing),))
        for d in range(ndim - 1, -1, -1):
            vals = _horner(vals, d + 1, svals[d], ks[d], nu[d])
        vals = where(bad[:, None], numpy.nan, vals)
        return vals.reshape(x_shape[:-1] + trailing)

    def _axis_ppoly(self, axis, c=None):
        """This polynomial's `axis` as a PPoly: coefficients (k, m, everything else)."""
        ndim = len(self.x)
        c = self.c if c is None else c
        c2 = moveaxis(c, (axis, ndim + axis), (0, 1))
        return PPoly.construct_fast(c2, self.x[axis], self.extrapolate), c2.shape

    def _from_axis(self, pp, shape, axis):
        ndim = len(self.x)
        c = pp.c.reshape(pp.c.shape[:2] + shape[2:])
        return ascontiguousarray(moveaxis(c, (0, 1), (axis, ndim + axis)))

    def derivative(self, nu):
        """See `scipy.interpolate.NdPPoly.derivative`."""
        c = self.c
        for axis, n in enumerate(nu):
            if n:
                pp, shape = self._axis_ppoly(axis, c)
                pp = pp.derivative(n) if n > 0 else pp.antiderivative(-n)
                c = self._from_axis(pp, (pp.c.shape[0], shape[1]) + shape[2:], axis)
        return self.construct_fast(c, self.x, self.extrapolate)

    def antiderivative(self, nu):
        """See `scipy.interpolate.NdPPoly.antiderivative`."""
        return self.derivative([-n for n in nu])

    def integrate_1d(self, a, b, axis, extrapolate=None):
        """See `scipy.interpolate.NdPPoly.integrate_1d`."""
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        axis = int(axis) % ndim
        pp, shape = self._axis_ppoly(axis)
        pp.extrapolate = extrapolate
        out = pp.integrate(a, b, extrapolate=extrapolate).reshape(shape[2:])
        if ndim == 1:
            return out
        return self.construct_fast(out, self.x[:axis] + self.x[axis + 1:], extrapolate)

    def integrate(self, ranges, extrapolate=None):
        """See `scipy.interpolate.NdPPoly.integrate`."""
        ndim = len(self.x)
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        if len(ranges) != ndim:
            raise ValueError("Range not a sequence of correct length")
        p = self
        for n in range(ndim - 1, -1, -1):
            a, b = ranges[n]
            p = p.integrate_1d(a, b, n, extrapolate) if isinstance(p, NdPPoly) else p
        return p


def _horner(vals, axis, s, k, nu):
    """Sum over `axis` (k coefficients, highest power first) of the nu-th derivative at s."""
    acc = None
    shape = (s.shape[0],) + (1,) * (vals.ndim - 2)
    s = s.reshape(shape)
    factors = poch_factors(k, nu, k - 1)  # (power)(power - 1)... for each row's power
    for p in range(k - nu):
        term = take(vals, p, axis=axis) * float(factors[p])
        acc = term if acc is None else acc * s + term
    if acc is None:
        return zeros(take(vals, 0, axis=axis).shape, dtype=vals.dtype)
    return acc
