"""The device side of `least_squares`: the user's residuals and Jacobian (callable or finite
differences with SciPy's steps, kept inside the bounds as `scipy.optimize._numdiff` keeps them),
the robust losses and their scaling of f and J, and the one stacked read of an iteration's small
quantities. The residuals (m) and the Jacobian (m x n) stay on the device; the parameters (n) are
a host vector, copied to the device for each call of the user's function."""

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import from_host, to_host
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import concatenate, stack
from ..._math.complex import imag
from ..._math.explog import log1p
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._math.trigonometric import arctan
from ..._sorting.searching import where
from ._lsq_host import EPS

__all__ = ["Problem", "read", "LOSSES"]

LOSSES = ("linear", "huber", "soft_l1", "cauchy", "arctan")
_FN = "scipy.optimize.least_squares"


def read(*arrays):
    """One device-to-host read of several small float arrays: host copies in the same shapes."""
    flat = to_host(concatenate([a.reshape(-1).astype(numpy.float64) for a in arrays]))
    out, k = [], 0
    for a in arrays:
        out.append(flat[k:k + a.size].reshape(a.shape))
        k += a.size
    return out


def _rho(loss, z):
    """(rho, rho', rho'') of a built-in loss at ``z = (f / f_scale)**2`` (SciPy's formulas)."""
    if loss == "soft_l1":
        t = 1 + z
        st = sqrt(t)
        return 2 * (st - 1), 1 / st, -0.5 / (t * st)
    if loss == "huber":
        small = z <= 1
        sz = sqrt(z)
        return where(small, z, 2 * sz - 1), where(small, 1.0, 1 / sz), where(small, 0.0, -0.5 / (z * sz))
    if loss == "cauchy":
        t = 1 + z
        return log1p(z), 1 / t, -1 / t ** 2
    t = 1 + z ** 2  # arctan
    return arctan(z), 1 / t, -2 * z / t ** 2


def _fd_steps(x0, method, rel_step, lb, ub):
    """SciPy's `_compute_absolute_step` and `_adjust_scheme_to_bounds` (host, n values)."""
    rstep = EPS ** (1 / 3) if method == "3-point" else EPS ** 0.5
    sign_x0 = (x0 >= 0).astype(float) * 2 - 1
    h = rstep * sign_x0 * numpy.maximum(1.0, numpy.abs(x0))
    if rel_step is not None:
        h_rel = rel_step * sign_x0 * numpy.abs(x0)
        h = numpy.where((x0 + h_rel) - x0 == 0, h, h_rel)
    one_sided = numpy.full(x0.shape, method == "2-point")
    if method == "cs" or numpy.all((lb == -numpy.inf) & (ub == numpy.inf)):
        return h, one_sided
    lower_dist, upper_dist = x0 - lb, ub - x0
    if method == "2-point":
        x = x0 + h
        violated = (x < lb) | (x > ub)
        fitting = numpy.abs(h) <= numpy.maximum(lower_dist, upper_dist)
        h[violated & fitting] *= -1
        forward = (upper_dist >= lower_dist) & ~fitting
        h[forward] = upper_dist[forward]
        backward = (upper_dist < lower_dist) & ~fitting
        h[backward] = -lower_dist[backward]
        return h, one_sided
    h = numpy.abs(h)
    central = (lower_dist >= h) & (upper_dist >= h)
    forward = (upper_dist >= lower_dist) & ~central
    h_adj = h.copy()
    h_adj[forward] = numpy.minimum(h[forward], 0.5 * upper_dist[forward])
    one_sided[forward] = True
    backward = (upper_dist < lower_dist) & ~central
    h_adj[backward] = -numpy.minimum(h[backward], 0.5 * lower_dist[backward])
    one_sided[backward] = True
    min_dist = numpy.minimum(upper_dist, lower_dist)
    adjusted_central = ~central & (numpy.abs(h_adj) <= min_dist)
    h_adj[adjusted_central] = min_dist[adjusted_central]
    one_sided[adjusted_central] = False
    return h_adj, one_sided


class Problem:
    """The residual function, its Jacobian and the loss of one `least_squares` call."""

    def __init__(self, fun, jac, args, kwargs, rel_step, lb, ub, loss, f_scale):
        self._fun, self._jac, self._args, self._kwargs = fun, jac, args, kwargs or {}
        self._rel_step = None if rel_step is None else numpy.asarray(rel_step, dtype=float)
        self.lb, self.ub = lb, ub
        self.loss, self.f_scale = loss, float(f_scale)
        self.nfev = self.njev = 0
        self.nfd = 0  # the finite differences' calls of `fun` (not in nfev, as SciPy counts)
        self.shape = None  # (m, n), set once f(x0) is known

    def _call(self, x):
        f = as_array(self._fun(from_host(x), *self._args, **self._kwargs), _FN)
        return f.reshape(1) if f.ndim == 0 else f

    def fun(self, x):
        """f(x) on the device (x a host vector); counted."""
        self.nfev += 1
        return self._call(x).astype(numpy.float64, copy=False)

    def jac(self, x, f0):
        """J(x) (m, n) on the device; `f0` is f(x), used by the finite differences."""
        self.njev += 1
        if callable(self._jac):
            J = as_array(self._jac(from_host(x), *self._args, **self._kwargs), _FN)
            J = J.reshape(1, -1) if J.ndim < 2 else J
            if self.shape is not None and J.shape != self.shape:
                raise ValueError(f"The return value of `jac` has wrong shape: expected {self.shape}, "
                                 f"actual {J.shape}.")
            return J.astype(numpy.float64, copy=False)
        method = self._jac
        h, one_sided = _fd_steps(x, method, self._rel_step, self.lb, self.ub)
        cols = []
        for i in range(x.size):
            x1, x2 = x.copy(), x.copy()
            if method == "cs":
                xc = x.astype(complex)
                xc[i] += h[i] * 1j
                cols.append(imag(self._call(xc)) / h[i])
                continue
            if method == "2-point":
                x1[i] += h[i]
                cols.append((self._call(x1) - f0) / (x1[i] - x[i]))
            elif one_sided[i]:
                x1[i] += h[i]
                x2[i] += 2 * h[i]
                cols.append((-3.0 * f0 + 4 * self._call(x1) - self._call(x2)) / (x2[i] - x[i]))
            else:
                x1[i] -= h[i]
                x2[i] += h[i]
                cols.append((self._call(x2) - self._call(x1)) / (x2[i] - x1[i]))
        self.nfd += x.size * (2 if method == "3-point" else 1)
        return stack(cols, axis=1).astype(numpy.float64, copy=False)

    def rho(self, f):
        """The loss's (3, m) rows at the residuals f, scaled by f_scale as SciPy's."""
        c = self.f_scale
        z = (f / c) ** 2
        if callable(self.loss):
            rho = as_array(self.loss(z), _FN)
            if rho.shape != (3, f.size):
                raise ValueError("The return value of `loss` callable has wrong shape.")
            r0, r1, r2 = rho[0], rho[1], rho[2]
        else:
            r0, r1, r2 = _rho(self.loss, z)
        return r0 * c ** 2, r1, r2 / c ** 2

    def cost_and_finite(self, f):
        """(cost, all f finite) as device scalars: the trial point's one read."""
        if self.loss == "linear":
            cost = 0.5 * sum_(f * f)
        else:
            cost = 0.5 * sum_(self.rho(f)[0])
        return stack([cost, all_(isfinite(f)).astype(numpy.float64)])

    def scale_for_loss(self, J, f):
        """SciPy's `scale_for_robust_loss_function`: f and J scaled so that J'f and J'J are the
        loss's gradient and Gauss-Newton Hessian; (J, f) unchanged for the linear loss."""
        if self.loss == "linear":
            return J, f
        _, r1, r2 = self.rho(f)
        j_scale = r1 + 2 * r2 * f ** 2
        j_scale = sqrt(where(j_scale < EPS, EPS, j_scale))
        return J * j_scale[:, None], f * (r1 / j_scale)
