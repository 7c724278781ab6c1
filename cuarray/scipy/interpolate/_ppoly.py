"""`PPoly`: piecewise polynomials in the power basis, coefficients `c` (k, m, ...) on breakpoints
`x` (m + 1), kept on the device; evaluation is `_kernels.ppoly_eval` (one pass, the interval search
inside). Derivatives and antiderivatives are coefficient scalings and, for the antiderivative's
integration constants, a cumulative sum over the intervals (the continuity fix is a prefix sum of
each interval's increment, one per derivative order). Root finding (`solve`, `roots`) is host work
through SciPy, as it is a per-interval companion-matrix eigenproblem on small data."""

from __future__ import annotations

import math

import numpy

from . import _kernels
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._creation.from_data import ascontiguousarray
from ..._logic.truth import all as all_
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.arithmetic import remainder
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum, diff
from . import _inputs
from ._bspline import BSpline
from ._host import host_scipy

__all__ = ["PPoly", "poch_factors", "integration_points"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)


def poch_factors(k: int, nu: int, start: int) -> numpy.ndarray:
    """(power)(power - 1)...(power - nu + 1) for the powers start, start - 1, ..., start - k + 1."""
    return numpy.array([math.prod(range(p - nu + 1, p + 1)) for p in range(start, start - k, -1)], dtype=float)


def _column(v, ndim):
    return v.reshape((v.shape[0],) + (1,) * (ndim - 1))


class _PPolyBase:
    """What PPoly and BPoly share: the checks, the breakpoints, evaluation (in the power basis:
    `_power_c`), `extend`."""

    def __init__(self, c, x, extrapolate=None, axis=0):
        c = _inputs.param(c)
        x = _inputs.param(x)
        self.extrapolate = True if extrapolate is None else (
            extrapolate if extrapolate == "periodic" else bool(extrapolate))
        if c.ndim < 2:
            raise ValueError("Coefficients array must be at least 2-dimensional.")
        if not (0 <= axis < c.ndim - 1):
            raise ValueError(f"axis={axis} must be between 0 and {c.ndim - 1}")
        self.axis = axis
        if axis != 0:
            c = moveaxis(c, axis + 1, 0)
            c = moveaxis(c, axis + 1, 0)
        x_dt = _F8
        x = ascontiguousarray(x.astype(x_dt) if x.dtype != x_dt else x)
        if x.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if x.size < 2:
            raise ValueError("at least 2 breakpoints are needed")
        if c.shape[0] == 0:
            raise ValueError("polynomial must be at least of order 0")
        if c.shape[1] != x.size - 1:
            raise ValueError("number of coefficients != len(x)-1")
        dx = diff(x)
        if not (bool(all_(dx >= 0)) or bool(all_(dx <= 0))):
            raise ValueError("`x` must be strictly increasing or decreasing.")
        dt = _C16 if c.dtype.kind == "c" else _F8
        self.c = ascontiguousarray(c.astype(dt) if c.dtype != dt else c)
        self.x = x
        self._desc = bool(to_host(x[-1:])[0] < to_host(x[:1])[0])

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis=0):
        """See `scipy.interpolate.PPoly.construct_fast` (no checks; `c` and `x` device arrays)."""
        self = object.__new__(cls)
        self.c = c
        self.x = x
        self.axis = axis
        self.extrapolate = True if extrapolate is None else extrapolate
        self._desc = None
        return self

    def _descending(self) -> bool:
        if self._desc is None:
            self._desc = bool(to_host(self.x[-1:])[0] < to_host(self.x[:1])[0])
        return self._desc

    def _ends(self):
        ends = to_host(stack((self.x[0], self.x[-1])))
        return float(ends[0]), float(ends[1])

    def __call__(self, x, nu=0, extrapolate=None):
        """See `scipy.interpolate.PPoly.__call__`."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        x = _inputs.data(x)
        if x.dtype.kind == "c":
            raise TypeError("x must be real")  # SciPy's cast to float64 refuses complex
        x_shape, x_ndim = x.shape, x.ndim
        xf = x.reshape(-1)
        if xf.dtype.kind not in "f":
            xf = xf.astype(_F8)
        if extrapolate == "periodic":
            x0, x1 = self._ends()
            xf = x0 + remainder(xf.astype(_F8) - x0, x1 - x0)
            extrapolate = False
        if int(nu) < 0:
            raise ValueError("Order of derivative cannot be negative")  # SciPy: "must be non-negative"
        pc = self._power_c()
        c = pc.reshape(pc.shape[:2] + (-1,))
        out = _kernels.ppoly_eval(c, self.x, xf, int(nu), bool(extrapolate), self.c.dtype, self._descending())
        out = out.reshape(x_shape + self.c.shape[2:])
        if self.axis != 0:
            order = list(range(out.ndim))
            order = order[x_ndim:x_ndim + self.axis] + order[:x_ndim] + order[x_ndim + self.axis:]
            out = out.transpose(order)
        return out

    def _power_c(self):
        raise NotImplementedError


class PPoly(_PPolyBase):
    """See `scipy.interpolate.PPoly`. Coefficients and breakpoints live on the device; `solve`
    and `roots` copy them to the host (SciPy does the root finding) and return device arrays."""

    def _power_c(self):
        return self.c

    def derivative(self, nu=1):
        """See `scipy.interpolate.PPoly.derivative`."""
        if nu < 0:
            return self.antiderivative(-nu)
        if nu == 0:
            c2 = self.c.copy()
        else:
            k = self.c.shape[0]
            c2 = self.c[:k - nu].copy()
            if c2.shape[0] == 0:
                c2 = zeros((1,) + c2.shape[1:], dtype=c2.dtype)
            else:
                c2 = c2 * _column(_inputs.param(poch_factors(k - nu, nu, k - 1)), c2.ndim)
        return self.construct_fast(c2, self.x, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        """See `scipy.interpolate.PPoly.antiderivative`."""
        if nu <= 0:
            return self.derivative(-nu)
        k, m = self.c.shape[0], self.c.shape[1]
        big = k + nu
        c2 = zeros((big,) + self.c.shape[1:], dtype=self.c.dtype)
        c2[:k] = self.c / _column(_inputs.param(poch_factors(k, nu, k - 1 + nu)), self.c.ndim)
        _fix_continuity(c2, self.x, nu)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(c2, self.x, extrapolate, self.axis)

    def integrate(self, a, b, extrapolate=None):
        """See `scipy.interpolate.PPoly.integrate` (a, b: host scalars; the result a device array)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1
        if b < a:
            a, b, sign = b, a, -1
        anti = self.antiderivative()
        pts, weights = integration_points(self, a, b, extrapolate)
        vals = anti(_inputs.param(numpy.array(pts)), extrapolate=True if extrapolate == "periodic" else bool(extrapolate))
        w = _column(_inputs.param(numpy.array(weights, dtype=float) * sign), vals.ndim)
        out = sum_(vals.reshape((len(pts), -1)) * w.reshape((len(pts), 1)), axis=0)
        return out.reshape(self.c.shape[2:])

    def solve(self, y=0, discontinuity=True, extrapolate=None):
        """See `scipy.interpolate.PPoly.solve`: host work (SciPy on copies of `c` and `x`)."""
        host = host_scipy().PPoly.construct_fast(to_host(self.c), to_host(self.x),
                                                  self.extrapolate, self.axis)
        return _inputs.param(host.solve(y, discontinuity, extrapolate))

    def roots(self, discontinuity=True, extrapolate=None):
        """See `scipy.interpolate.PPoly.roots`: host work, as `solve`."""
        return self.solve(0, discontinuity, extrapolate)

    def extend(self, c, x):
        """See `scipy.interpolate.PPoly.extend`."""
        c = _inputs.param(c)
        x = _inputs.param(x, _F8)
        if c.ndim < 2:
            raise ValueError("invalid dimensions for c")
        if x.ndim != 1:
            raise ValueError("invalid dimensions for x")
        if x.shape[0] != c.shape[1]:
            raise ValueError(f"Shapes of x {x.shape} and c {c.shape} are incompatible")
        if c.shape[2:] != self.c.shape[2:] or c.ndim != self.c.ndim:
            raise ValueError(f"Shapes of c {c.shape} and self.c {self.c.shape} are incompatible")
        if c.size == 0:
            return
        dx = diff(x)
        if not (bool(all_(dx >= 0)) or bool(all_(dx <= 0))):
            raise ValueError("`x` is not sorted.")
        ends = to_host(stack((self.x[0], self.x[-1], x[0], x[-1])))
        if ends[1] >= ends[0]:
            action = "append" if ends[2] >= ends[1] else "prepend" if ends[3] <= ends[0] else None
        else:
            action = "append" if ends[2] <= ends[1] else "prepend" if ends[3] >= ends[0] else None
        if action is None:
            raise ValueError("`x` is in the different order than `self.x`.")
        k2 = max(c.shape[0], self.c.shape[0])
        dt = numpy.result_type(self.c.dtype, c.dtype, _F8)
        old = zeros((k2,) + self.c.shape[1:], dtype=dt)
        old[k2 - self.c.shape[0]:] = self.c
        new = zeros((k2,) + c.shape[1:], dtype=dt)
        new[k2 - c.shape[0]:] = c
        if action == "append":
            self.c = concatenate((old, new), axis=1)
            self.x = concatenate((self.x, x))
        else:
            self.c = concatenate((new, old), axis=1)
            self.x = concatenate((x, self.x))

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        """See `scipy.interpolate.PPoly.from_spline`: each piece's Taylor coefficients from the
        spline's derivatives at the knots, evaluated on the device."""
        if not isinstance(tck, BSpline):
            t, c, k = tck
            tck = BSpline.construct_fast(_inputs.param(t, _F8), _inputs.param(c), int(k))
        elif extrapolate is None:
            extrapolate = tck.extrapolate
        c, x = tck._device_derivatives()
        return cls.construct_fast(c, x, extrapolate)

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        """See `scipy.interpolate.PPoly.from_bernstein_basis`: the change of basis is a small
        (k, k) matrix applied on the device to every interval's coefficients."""
        k = bp.c.shape[0] - 1
        dx = diff(bp.x)
        # c_ppoly[k - j] = sum_a comb(k, a) comb(k - a, j - a)(-1)^(j - a) c_bern[a] / dx^j
        mat = numpy.zeros((k + 1, k + 1))
        for a in range(k + 1):
            for j in range(a, k + 1):
                mat[k - j, a] = math.comb(k, a) * math.comb(k - a, j - a) * (-1) ** (j - a)
        flat = bp.c.reshape((k + 1, -1))
        cm = (_inputs.param(mat).astype(flat.dtype) @ flat).reshape(bp.c.shape)
        powers = _inputs.param(numpy.arange(k, -1, -1, dtype=float))
        scale = dx[None, :] ** (-powers[:, None])
        c = cm * scale.reshape(scale.shape + (1,) * (cm.ndim - 2))
        return cls.construct_fast(c, bp.x, bp.extrapolate if extrapolate is None else extrapolate, bp.axis)


def _fix_continuity(c2, x, nu):
    """Integration constants of an antiderivative: for each order dd < nu, from the highest, the
    coefficient of s^dd in interval j + 1 is that of interval j plus the increment of the dd-th
    derivative over interval j (a cumulative sum over the intervals)."""
    big, m = c2.shape[0], c2.shape[1]
    if m < 2:
        return
    h = _column(x[1:-1] - x[:-2], c2.ndim - 1)
    for dd in range(nu - 1, -1, -1):
        inc = None
        for p in range(big - 1 - dd):
            power = big - 1 - p
            term = c2[p, :-1] * (math.prod(range(power - dd + 1, power + 1)) / math.factorial(dd)) * h ** (power - dd)
            inc = term if inc is None else inc + term
        c2[big - 1 - dd, 1:] = c2[big - 1 - dd, :1] + cumsum(inc, axis=0)


def integration_points(pp, a, b, extrapolate):
    """(points, weights): the integral is sum(w * F(points)) for the antiderivative F."""
    if extrapolate != "periodic":
        return [a, b], [-1.0, 1.0]
    xs, xe = pp._ends()
    period = xe - xs
    n_periods, left = divmod(b - a, period)
    pts, w = [], []
    if n_periods > 0:
        pts += [xs, xe]
        w += [-n_periods, n_periods]
    a = xs + (a - xs) % period
    b = a + left
    if b <= xe:
        pts += [a, b]
        w += [-1.0, 1.0]
    else:
        pts += [a, xe, xs, xs + left + a - xe]
        w += [-1.0, 1.0, -1.0, 1.0]
    return pts, w
