"""`BSpline` and the spline calculus `splder`/`splantider`: knots `t` and coefficients `c` on the
device; evaluation, derivatives of any order and the design matrix's entries are one pass each
(`_kernels.ndbspline_eval` with one dimension, `bspline_entries`: the knot search and de Boor's
recurrence inside); derivative and antiderivative are coefficient differences and a cumulative sum
(Schumaker, "Spline Functions: Basic Theory", 5.3; FITPACK's splder/splantider conventions: the
coefficients padded with zeros to the knots' length)."""

from __future__ import annotations

import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

from . import _kernels
from ..._core.transfer import to_host
from ..._creation.basic import full, zeros
from ..._creation.from_data import ascontiguousarray
from ..._creation.ranges import arange
from ..._logic.content import isfinite, isnan
from ..._logic.truth import all as all_, any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.arithmetic import remainder
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum, diff
from ..._statistics.order import max as max_, min as min_
from ...sparse._format_csr import csr_array
from . import _inputs
from ._host import host_scipy

__all__ = ["BSpline", "splder", "splantider", "as_knots"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)


def as_knots(t):
    """Knots as a contiguous float64 device array; a host sequence or array converted as SciPy's
    np.ascontiguousarray(t, dtype=float64) does (complex Python numbers: TypeError)."""
    if isinstance(t, (list, tuple, numpy.ndarray)):
        t = numpy.ascontiguousarray(t, dtype=numpy.float64)
    return ascontiguousarray(_inputs.param(t, _F8))


def _pad_to(c, length):
    extra = length - c.shape[0]
    if extra <= 0:
        return c
    return concatenate((c, zeros((extra,) + c.shape[1:], dtype=c.dtype)))


def _col(v, ndim):
    return v.reshape((v.shape[0],) + (1,) * (ndim - 1))


def _splder(t, c, k, n):
    """(t, c, k) of the n-th derivative (c of t's length, FITPACK's convention)."""
    if n > k:
        raise ValueError(f"Order of derivative (n = {n!r}) must be <= order of spline (k = {k!r})")
    for _ in range(n):
        dt = t[k + 1:-1] - t[1:-k - 1]
        if bool(any_(dt == 0)):
            raise ValueError(f"The spline has internal repeated knots and is not differentiable {n} times")
        c = (c[1:-1 - k] - c[:-2 - k]) * k / _col(dt, c.ndim)
        c = concatenate((c, zeros((k,) + c.shape[1:], dtype=c.dtype)))
        t = t[1:-1]
        k -= 1
    return t, c, k


def _splantider(t, c, k, n):
    for _ in range(n):
        dt = t[k + 1:] - t[:-k - 1]
        c = cumsum(c[:-k - 1] * _col(dt, c.ndim), axis=0) / (k + 1)
        last = broadcast_to(c[-1:], (k + 2,) + c.shape[1:])
        c = concatenate((zeros((1,) + c.shape[1:], dtype=c.dtype), c, last))
        t = concatenate((t[:1], t, t[-1:]))
        k += 1
    return t, c, k


class BSpline:
    """See `scipy.interpolate.BSpline`. Degrees up to 31 evaluate on the GPU (a thread's basis
    values live in registers); `design_matrix` returns a `cuarray.sparse.csr_array`."""

    def __init__(self, t, c, k, extrapolate=True, axis=0):
        self.k = k_int = operator.index(k)  # SciPy's: TypeError for a str or float degree
        self.c = _inputs.param(c)
        self.t = as_knots(t)
        self.extrapolate = extrapolate if extrapolate == "periodic" else bool(extrapolate)
        n = self.t.shape[0] - k_int - 1
        axis = _check_axis(axis, self.c.ndim)
        self.axis = axis
        if axis != 0:
            self.c = moveaxis(self.c, axis, 0)
        if k_int < 0:
            raise ValueError("Spline order cannot be negative.")
        if self.t.ndim != 1:
            raise ValueError("Knot vector must be one-dimensional.")
        if n < k_int + 1:
            raise ValueError(f"Need at least {2 * k_int + 2} knots for degree {k_int}")
        # SciPy's checks in its order, one read: fewer than two distinct values (NaNs one value,
        # as numpy.unique counts them) among t[k:n + 1] is too few internal knots
        inner = self.t[k_int:n + 1]
        checks = to_host(stack((any_(diff(self.t) < 0), all_(inner == inner[0]) | all_(isnan(inner)),
                                all_(isfinite(self.t)))))
        if bool(checks[0]):
            raise ValueError("Knots must be in a non-decreasing order.")
        if bool(checks[1]):
            raise ValueError("Need at least two internal knots.")
        if not bool(checks[2]):
            raise ValueError("Knots should not have nans or infs.")
        if self.c.ndim < 1:
            raise ValueError("Coefficients must be at least 1-dimensional.")
        if self.c.shape[0] < n:
            raise ValueError("Knots, coefficients and degree are inconsistent.")
        dt = _C16 if self.c.dtype.kind == "c" else _F8
        self.c = ascontiguousarray(self.c.astype(dt) if self.c.dtype != dt else self.c)

    @classmethod
    def construct_fast(cls, t, c, k, extrapolate=True, axis=0):
        """See `scipy.interpolate.BSpline.construct_fast` (device arrays, no checks)."""
        self = object.__new__(cls)
        self.t, self.c, self.k, self.extrapolate, self.axis = t, c, k, extrapolate, axis
        return self

    @property
    def tck(self):
        """Equivalent to ``(self.t, self.c, self.k)`` (read-only)."""
        return self.t, self.c, self.k

    def _ends(self):
        n = self.t.shape[0] - self.k - 1
        ends = to_host(stack((self.t[self.k], self.t[n])))
        return float(ends[0]), float(ends[1])

    def __call__(self, x, nu=0, extrapolate=None):
        """See `scipy.interpolate.BSpline.__call__`."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        if int(nu) < 0:
            raise NotImplementedError(f"Cannot do derivative order {nu}.")
        x = _inputs.data(x)
        if x.dtype.kind == "c":
            raise TypeError("x must be real")
        x_shape, x_ndim = x.shape, x.ndim
        xf = x.reshape(-1)
        if xf.dtype.kind != "f":
            xf = xf.astype(_F8)
        if extrapolate == "periodic":
            x0, x1 = self._ends()
            xf = x0 + remainder(xf.astype(_F8) - x0, x1 - x0)
            extrapolate = False
        n = self.t.shape[0] - self.k - 1
        c = self.c[:n].reshape((n, -1))
        out = _kernels.ndbspline_eval([self.t], [self.k], c, xf[:, None], [int(nu)], bool(extrapolate), self.c.dtype)
        out = out.reshape(x_shape + self.c.shape[1:])
        if self.axis != 0:
            order = list(range(out.ndim))
            order = order[x_ndim:x_ndim + self.axis] + order[:x_ndim] + order[x_ndim + self.axis:]
            out = out.transpose(order)
        return out

    def derivative(self, nu=1):
        """See `scipy.interpolate.BSpline.derivative`."""
        if nu < 0:
            return self.antiderivative(-nu)
        t, c, k = _splder(self.t, _pad_to(self.c, self.t.shape[0]), self.k, nu)
        return self.construct_fast(t, c, k, extrapolate=self.extrapolate, axis=self.axis)

    def antiderivative(self, nu=1):
        """See `scipy.interpolate.BSpline.antiderivative`."""
        if nu < 0:
            return self.derivative(-nu)
        t, c, k = _splantider(self.t, _pad_to(self.c, self.t.shape[0]), self.k, nu)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(t, c, k, extrapolate=extrapolate, axis=self.axis)

    def integrate(self, a, b, extrapolate=None):
        """See `scipy.interpolate.BSpline.integrate` (a, b: host scalars; a device result)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        lo, hi = self._ends()
        if extrapolate != "periodic" and not extrapolate:
            a, b = max(a, lo), min(b, hi)
        pts, w = _integral_points(a, b, lo, hi, extrapolate)
        t, c, k = _splantider(self.t, _pad_to(self.c, self.t.shape[0]), self.k, 1)
        anti = self.construct_fast(t, c, k, extrapolate=extrapolate == "periodic" or bool(extrapolate))
        vals = anti(_inputs.param(numpy.array(pts)))
        wts = _inputs.param(numpy.array(w) * sign).astype(vals.dtype)
        flat = vals.reshape((len(pts), -1))
        return sum_(flat * wts[:, None], axis=0).reshape(self.c.shape[1:])

    @classmethod
    def design_matrix(cls, x, t, k, extrapolate=False):
        """See `scipy.interpolate.BSpline.design_matrix`: a `cuarray.sparse.csr_array`, its k + 1
        entries a row computed in one pass."""
        x = _inputs.data(x).astype(_F8)
        t = as_knots(t)
        k = _degree(k)
        n = t.shape[0] - k - 1
        if x.ndim != 1 or t.ndim != 1:
            raise ValueError("Expect x and t to be 1-D arrays")  # SciPy: x as 1-D via ravel
        if n < k + 1:
            raise ValueError(f"Length t is not enough for k={k}.")
        if extrapolate == "periodic":
            x0, x1 = (float(v) for v in to_host(stack((t[k], t[n]))))
            x = x0 + remainder(x - x0, x1 - x0)
            extrapolate = False
        elif not extrapolate:
            lo, hi = (float(v) for v in to_host(stack((min_(x), max_(x)))))
            x0, x1 = (float(v) for v in to_host(stack((t[k], t[n]))))
            if lo < x0 or hi > x1:
                raise ValueError(f"Out of bounds w/ x = {x}.")
        data, cols = _kernels.bspline_entries(t, k, x, bool(extrapolate))
        indptr = arange(0, (x.shape[0] + 1) * (k + 1), k + 1, dtype=numpy.int64)
        return csr_array((data.reshape(-1), cols.reshape(-1), indptr), shape=(x.shape[0], n))

    @classmethod
    def basis_element(cls, t, extrapolate=True):
        """See `scipy.interpolate.BSpline.basis_element`."""
        t = as_knots(t)
        k = t.shape[0] - 2
        t = concatenate((full((k,), 0.0) + t[0] - 1, t, full((k,), 0.0) + t[-1] + 1))
        c = zeros(t.shape[0])
        c[k] = 1.0
        return cls.construct_fast(t, c, k, extrapolate)

    def insert_knot(self, x, m=1):
        """See `scipy.interpolate.BSpline.insert_knot`: host work (SciPy's FITPACK insert)."""
        host = host_scipy().BSpline(to_host(self.t), to_host(self.c), self.k, self.extrapolate)
        new = host.insert_knot(x, m)
        return self.construct_fast(_inputs.param(new.t), _inputs.param(new.c), new.k, self.extrapolate, self.axis)

    def _device_derivatives(self):
        """(c, x) of the equivalent PPoly: the derivatives at each knot (PPoly.from_spline)."""
        t, k = self.t, self.k
        rows = [self(t[:-1], nu=nu, extrapolate=True) / float(numpy.prod(numpy.arange(1, nu + 1)))
                for nu in range(k, -1, -1)]
        return stack(rows), t


def _degree(k):
    k = int(k)
    if k < 0:
        raise ValueError("Spline order cannot be negative.")
    return k


def _check_axis(axis, ndim):
    return normalize_axis_index(axis, ndim)


def _integral_points(a, b, lo, hi, extrapolate):
    if extrapolate != "periodic":
        return [a, b], [-1.0, 1.0]
    period = hi - lo
    n_periods, left = divmod(b - a, period)
    pts, w = [], []
    if n_periods > 0:
        pts += [lo, hi]
        w += [-n_periods, n_periods]
    a = lo + (a - lo) % period
    b = a + left
    if b <= hi:
        return pts + [a, b], w + [-1.0, 1.0]
    return pts + [a, hi, lo, lo + b - hi], w + [-1.0, 1.0, -1.0, 1.0]


def splder(tck, n=1):
    """See `scipy.interpolate.splder`: a BSpline gives a BSpline, a (t, c, k) tuple a tuple."""
    if isinstance(tck, BSpline):
        return tck.derivative(n)
    if n < 0:
        return splantider(tck, -n)
    t, c, k = tck
    return _splder(as_knots(t), _inputs.param(c), int(k), n)


def splantider(tck, n=1):
    """See `scipy.interpolate.splantider`: a BSpline gives a BSpline, a (t, c, k) tuple a tuple."""
    if isinstance(tck, BSpline):
        return tck.antiderivative(n)
    if n < 0:
        return splder(tck, -n)
    t, c, k = tck
    return _splantider(as_knots(t), _inputs.param(c), int(k), n)
