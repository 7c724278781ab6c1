"""Global polynomial and rational interpolators: `KroghInterpolator`/`krogh_interpolate`,
`BarycentricInterpolator`/`barycentric_interpolate`, `FloaterHormannInterpolator`.

Their coefficients and weights are O(n^2) (or O(n d)) host work on n nodes, a few dozen at most
for the polynomial ones (SciPy computes them on host copies, so its checks and warnings are
SciPy's); the evaluations at many points are on the device: the Newton form and its derivatives
(the Taylor shift of the Newton coefficients), and the barycentric formula as one product with
the weighted values (derivatives: the barycentric interpolant of the differentiation matrix's
powers applied to the values)."""

from __future__ import annotations

import math

import numpy

from .._rng import rng_transition
from ..._core.transfer import to_host
from ..._creation.basic import ones, zeros
from ..._logic.content import isinf
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from . import _inputs
from ._host import host_scipy

__all__ = ["KroghInterpolator", "krogh_interpolate", "BarycentricInterpolator", "barycentric_interpolate",
           "FloaterHormannInterpolator", "barycentric_rational"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)


def _host(v):
    if isinstance(v, (numpy.ndarray, numpy.generic, int, float, complex, list, tuple)):
        return numpy.asarray(v)
    return to_host(_inputs.param(v))


class _Interpolator1D:
    """The shape logic of SciPy's 1-D interpolators: y with its axis first, flattened to columns."""

    def __init__(self, xi=None, yi=None, axis=None):
        self._y_axis = axis
        self._y_extra_shape = None
        self.dtype = None
        if yi is not None:
            self._set_yi(yi, xi=xi, axis=axis)

    def __call__(self, x):
        x, x_shape = self._prepare_x(x)
        return self._finish_y(self._evaluate(x), x_shape)

    def _prepare_x(self, x):
        x = _inputs.data(x)
        if x.dtype.kind not in "fc":
            x = x.astype(_F8)
        return x.reshape(-1), x.shape

    def _finish_y(self, y, x_shape):
        y = y.reshape(x_shape + self._y_extra_shape)
        if self._y_axis != 0 and x_shape != ():
            nx, ny = len(x_shape), len(self._y_extra_shape)
            s = list(range(nx, nx + self._y_axis)) + list(range(nx)) + list(range(nx + self._y_axis, nx + ny))
            y = y.transpose(s)
        return y

    def _reshape_yi(self, yi, check=False):
        yi = moveaxis(_inputs.values(yi), self._y_axis, 0)
        if check and yi.shape[1:] != self._y_extra_shape:
            ok = f"{self._y_extra_shape[-self._y_axis:]!r} + (N,) + {self._y_extra_shape[:-self._y_axis]!r}"
            raise ValueError(f"Data must be of shape {ok}")
        return yi.reshape((yi.shape[0], -1))

    def _set_yi(self, yi, xi=None, axis=None):
        if axis is None:
            axis = self._y_axis
        if axis is None:
            raise ValueError("no interpolation axis specified")
        yi = _inputs.values(yi)
        shape = yi.shape or (1,)
        if xi is not None and shape[axis] != len(_host(xi)):
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        self._y_axis = axis % yi.ndim
        self._y_extra_shape = yi.shape[:self._y_axis] + yi.shape[self._y_axis + 1:]
        self.dtype = _C16 if yi.dtype.kind == "c" else _F8


class _Interpolator1DWithDerivatives(_Interpolator1D):
    def derivatives(self, x, der=None):
        """See `scipy.interpolate.KroghInterpolator.derivatives`."""
        x, x_shape = self._prepare_x(x)
        y = self._evaluate_derivatives(x, der)
        y = y.reshape((y.shape[0],) + x_shape + self._y_extra_shape)
        if self._y_axis != 0 and x_shape != ():
            nx, ny = len(x_shape), len(self._y_extra_shape)
            s = ([0] + list(range(nx + 1, nx + self._y_axis + 1)) + list(range(1, nx + 1))
                 + list(range(nx + 1 + self._y_axis, nx + ny + 1)))
            y = y.transpose(s)
        return y

    def derivative(self, x, der=1):
        """See `scipy.interpolate.KroghInterpolator.derivative`."""
        x, x_shape = self._prepare_x(x)
        return self._finish_y(self._evaluate_derivatives(x, der + 1)[der], x_shape)


class KroghInterpolator(_Interpolator1DWithDerivatives):
    """See `scipy.interpolate.KroghInterpolator`. The Newton coefficients are host work (SciPy's,
    on host copies of the nodes); evaluation and derivatives run on the device."""

    def __init__(self, xi, yi, axis=0):
        super().__init__(xi, yi, axis)
        # host work: the divided differences, O(n^2) on n <= ~30 nodes
        host = host_scipy().KroghInterpolator(_host(xi), _host(yi), axis)
        self.xi = _inputs.param(host.xi)
        self.yi = self._reshape_yi(yi)
        self.n, self.r = self.yi.shape
        self.c = _inputs.param(host.c).astype(self.dtype)

    def _newton(self, x):
        """(p, w, pi0): the value, the factors x - xi[k] and the products of Newton's basis."""
        p = zeros((x.shape[0], self.r), dtype=self.dtype) + self.c[0][None]
        w, pis = [], [ones(x.shape[0], dtype=_F8 if x.dtype.kind == "f" else x.dtype)]
        for k in range(1, self.n):
            w.append(x - self.xi[k - 1])
            pis.append(w[-1] * pis[-1])
            p = p + pis[-1][:, None] * self.c[k][None]
        w.append(x * 0)  # (the recurrence reads one factor past the last node: zero)
        return p, w, pis

    def _evaluate(self, x):
        return self._newton(x)[0]

    def _evaluate_derivatives(self, x, der=None):
        n = self.n
        der = n if der is None else der
        p, w, pi = self._newton(x)
        zero = zeros((x.shape[0], self.r), dtype=self.dtype)
        cn = [zero + self.c[k][None] if k <= n else zero for k in range(max(der, n + 1))]
        cn[0] = p
        pi = list(pi)
        for k in range(1, n):
            for i in range(1, n - k + 1):
                pi[i] = w[k + i - 1] * pi[i - 1] + pi[i]
                cn[k] = cn[k] + pi[i][:, None] * cn[k + i]
            cn[k] = cn[k] * float(math.factorial(k))
        cn[n] = zero
        return stack(cn[:der]) if der else zeros((0, x.shape[0], self.r), dtype=self.dtype)


def krogh_interpolate(xi, yi, x, der=0, axis=0):
    """See `scipy.interpolate.krogh_interpolate`."""
    p = KroghInterpolator(xi, yi, axis=axis)
    if der == 0:
        return p(x)
    if numpy.isscalar(der):
        return p.derivative(x, der=der)
    return p.derivatives(x, der=int(numpy.amax(der)) + 1)[numpy.asarray(der)]


def _barycentric(x, xi, wi, yi, dtype):
    """The barycentric formula at x (m,): (m, r); exact nodes give their values."""
    if x.shape[0] == 0:
        return zeros((0, yi.shape[1]), dtype=dtype)
    c = x[:, None] - xi[None, :]
    z = c == 0
    c = wi[None, :] / where(z, 1.0, c)
    p = (c.astype(dtype) @ yi.astype(dtype)) / sum_(c, axis=-1)[:, None]
    hit = any_(z, axis=1)
    return where(hit[:, None], yi.astype(dtype)[argmax(z, axis=1)], p)


def barycentric_rational(zv, points, weights, values, dtype):
    """SciPy's barycentric rational form at zv (m,): the formula with values (n, r), each support
    point's value where zv hits it, and sum(w f) / sum(w) (over every value column at once, as
    SciPy) at infinite zv; (m, r) of `dtype`."""
    w = weights.astype(dtype)
    out = _barycentric(zv, points, w, values, dtype)
    limit = sum_(w[:, None] * values.astype(dtype)) / sum_(w)
    return where(isinf(zv)[:, None], limit, out)


class BarycentricInterpolator(_Interpolator1DWithDerivatives):
    """See `scipy.interpolate.BarycentricInterpolator`. The weights are host work (SciPy's, on the
    nodes, with SciPy's random permutation from `rng`, or `random_state` as SciPy reads it);
    evaluation is one product with the weighted values on the device."""

    @rng_transition("random_state")
    def __init__(self, xi, yi=None, axis=0, *, wi=None, rng=None):
        super().__init__(xi, yi, axis)
        # host work: the weights, O(n^2) on the nodes (SciPy's capacity-scaled products); `rng` is
        # handed on as SciPy's legacy keyword, which SciPy reads without renormalising it (a
        # Generator from `rng=` is already one)
        self._host = host_scipy().BarycentricInterpolator(_host(xi), None, wi=None if wi is None else _host(wi),
                                                          random_state=rng)
        self.xi = _inputs.param(self._host.xi)
        self.set_yi(yi)
        self.n = self.xi.shape[0]
        self.wi = _inputs.param(numpy.asarray(self._host.wi, dtype=float))
        self._diff_cij = None

    def set_yi(self, yi, axis=None):
        """See `scipy.interpolate.BarycentricInterpolator.set_yi`."""
        if yi is None:
            self.yi = None
            return
        self._set_yi(yi, xi=self.xi, axis=axis)
        self.yi = self._reshape_yi(yi)
        self.n, self.r = self.yi.shape

    def add_xi(self, xi, yi=None):
        """See `scipy.interpolate.BarycentricInterpolator.add_xi` (weights updated on the host)."""
        if yi is not None:
            if self.yi is None:
                raise ValueError("No previous yi value to update!")
            yi = self._reshape_yi(yi, check=True)
            self.yi = concatenate((self.yi, yi))
        elif self.yi is not None:
            raise ValueError("No update to yi provided!")
        self._host.add_xi(_host(xi))
        self.xi = _inputs.param(self._host.xi)
        self.n = self.xi.shape[0]
        self.wi = _inputs.param(numpy.asarray(self._host.wi, dtype=float))
        self._diff_cij = None

    def __call__(self, x):
        """See `scipy.interpolate.BarycentricInterpolator.__call__`."""
        return _Interpolator1D.__call__(self, x)

    def _evaluate(self, x):
        return _barycentric(x, self.xi, self.wi, self.yi, self.dtype)

    def _diff_matrix(self):
        if self._diff_cij is None:
            c = self.xi[:, None] - self.xi[None, :]
            eye = c == 0
            c = self.wi[None, :] / (where(eye, 1.0, c) * self.wi[:, None])
            c = where(eye, 0.0, c)
            self._diff_cij = where(eye, -sum_(c, axis=1)[:, None], c)
        return self._diff_cij

    def _order(self, x, m):
        if m > self.n - 1 and m > 0:
            return zeros((x.shape[0], self.r), dtype=self.dtype)
        vals = self.yi.astype(self.dtype)
        d = self._diff_matrix().astype(self.dtype)
        for _ in range(m):
            vals = d @ vals
        return _barycentric(x, self.xi, self.wi, vals, self.dtype)

    def derivative(self, x, der=1):
        """See `scipy.interpolate.BarycentricInterpolator.derivative`."""
        x, x_shape = self._prepare_x(x)
        return self._finish_y(self._order(x, der), x_shape)

    def _evaluate_derivatives(self, x, der=None):
        der = self.n if der is None else der
        if der == 0:
            return zeros((0, x.shape[0], self.r), dtype=self.dtype)
        return stack([self._order(x, m) for m in range(der)])


def barycentric_interpolate(xi, yi, x, axis=0, *, der=0, rng=None):
    """See `scipy.interpolate.barycentric_interpolate`."""
    p = BarycentricInterpolator(xi, yi, axis=axis, rng=rng)
    if der == 0:
        return p(x)
    if numpy.isscalar(der):
        return p.derivative(x, der=der)
    return p.derivatives(x, der=int(numpy.amax(der)) + 1)[numpy.asarray(der)]


class FloaterHormannInterpolator:
    """See `scipy.interpolate.FloaterHormannInterpolator`. The weights are host work (SciPy's);
    evaluation is the barycentric formula on the device; `poles`, `residues` and `roots` are
    host work (small eigenproblems)."""

    def __init__(self, points, values, *, d=3, axis=0):
        # host work: the Floater-Hormann weights, O(n d) on the nodes
        self._host = host_scipy().FloaterHormannInterpolator(_host(points), _host(values), d=d, axis=axis)
        self._points = _inputs.param(numpy.asarray(self._host._support_points, dtype=float))
        vals = numpy.asarray(self._host._support_values)
        self._shape = vals.shape[1:]
        self._values = _inputs.param(vals.reshape(vals.shape[0], -1))
        self.weights = _inputs.param(self._host.weights)
        self._dtype = _C16 if vals.dtype.kind == "c" or self._host.weights.dtype.kind == "c" else _F8

    def __call__(self, z):
        """See `scipy.interpolate.FloaterHormannInterpolator.__call__`."""
        z = _inputs.data(z)
        zv = z.reshape(-1).astype(_F8) if z.dtype.kind != "c" else z.reshape(-1)
        out = barycentric_rational(zv, self._points, self.weights, self._values, self._dtype)
        return out.reshape(z.shape + self._shape)

    def poles(self):
        """See `scipy.interpolate.FloaterHormannInterpolator.poles` (host work)."""
        return _inputs.param(self._host.poles())

    def residues(self):
        """See `scipy.interpolate.FloaterHormannInterpolator.residues` (host work)."""
        return _inputs.param(self._host.residues())

    def roots(self):
        """See `scipy.interpolate.FloaterHormannInterpolator.roots` (host work)."""
        return _inputs.param(self._host.roots())
