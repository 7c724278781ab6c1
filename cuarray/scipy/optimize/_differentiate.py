"""Finite-difference gradients of a scalar (or vector) function of a device vector, as
`scipy.optimize._numdiff.approx_derivative` takes them (dense; bounds move the steps inside them
as SciPy's `_adjust_scheme_to_bounds` does): one call of the user's function per shifted point,
the quotients formed on the device, no host read."""

import numpy

from ..._core.host_input import as_array
from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._math.extrema import maximum, minimum
from ..._math.misc import absolute
from ..._sorting.searching import where

__all__ = ["approx_derivative", "relative_step", "fun_value"]


def fun_value(v, fn="scipy.optimize.minimize"):
    """A user function's value as a device array (a Python or NumPy scalar goes to the device)."""
    v = as_array(v, fn)
    if v.size != 1:
        raise ValueError("The user-provided objective function must return a scalar value.")
    return v.reshape(())


def _eps(x_dtype, f_dtype, method):
    # scipy.optimize._numdiff._eps_for_method: the smaller of the two floating types sets EPS
    eps_dt = numpy.dtype(x_dtype) if numpy.dtype(x_dtype).kind == "f" else numpy.dtype(numpy.float64)
    if numpy.dtype(f_dtype).kind == "f" and numpy.dtype(f_dtype).itemsize < eps_dt.itemsize:
        eps_dt = numpy.dtype(f_dtype)
    eps = numpy.finfo(eps_dt).eps
    return float(eps) ** 0.5 if method == "2-point" else float(eps) ** (1 / 3)


def relative_step(x0, f0, method, rel_step=None):
    """SciPy's `_compute_absolute_step`: ``rstep * sign(x0) * max(1, |x0|)`` (sign 1 at 0)."""
    sign_x0 = (x0 >= 0).astype(numpy.float64) * 2 - 1
    rstep = _eps(x0.dtype, f0.dtype, method)
    if rel_step is None:
        return rstep * sign_x0 * maximum(1.0, absolute(x0))
    h = rel_step * sign_x0 * absolute(x0)
    dx = (x0 + h) - x0
    return where(dx == 0, rstep * sign_x0 * maximum(1.0, absolute(x0)), h)


def _fit_to_bounds(x0, h, method, bounds):
    """SciPy's `_adjust_scheme_to_bounds` on the device: (h, one_sided). '2-point' flips or
    shortens a step that leaves the box; '3-point' turns one-sided (x0 + h, x0 + 2h) where a
    central pair does not fit."""
    lb, ub = bounds
    lower, upper = x0 - lb, ub - x0
    if method == "2-point":
        fitting = absolute(h) <= maximum(lower, upper)
        x = x0 + h
        h = where(((x < lb) | (x > ub)) & fitting, -h, h)
        h = where(fitting, h, where(upper >= lower, upper, -lower))
        return h, None
    h = absolute(h)
    central = (lower >= h) & (upper >= h)
    forward = (upper >= lower) & ~central
    backward = (upper < lower) & ~central
    adj = where(forward, minimum(h, 0.5 * upper), where(backward, -minimum(h, 0.5 * lower), h))
    min_dist = minimum(upper, lower)
    adjusted_central = ~central & (absolute(adj) <= min_dist)
    return where(adjusted_central, min_dist, adj), (forward | backward) & ~adjusted_central


def approx_derivative(fun, x0, f0, method, abs_step=None, rel_step=None, bounds=None):
    """(J, nfev): the gradient (n,) of a scalar `fun` or Jacobian (m, n) at the device vector `x0`,
    `f0 = fun(x0)`, by '2-point' (forward) or '3-point' (central) differences; `abs_step` as
    SciPy's (a zero effective step falls back to the relative one); `bounds` (lb, ub) device
    vectors or None."""
    f0 = as_array(f0, "scipy.optimize.approx_fprime")
    if abs_step is None:
        h = relative_step(x0, f0, method, rel_step)
    else:
        sign_x0 = (x0 >= 0).astype(numpy.float64) * 2 - 1
        h = zeros(x0.shape, numpy.float64) + abs_step
        dx = (x0 + h) - x0
        h = where(dx == 0, _eps(x0.dtype, f0.dtype, method) * sign_x0 * maximum(1.0, absolute(x0)), h)
    one_sided = None
    if bounds is not None:
        h, one_sided = _fit_to_bounds(x0, h, method, bounds)
    # the second point: x0 - h (central) or x0 + 2h (one-sided, where the bounds ask for it)
    h2 = -h if one_sided is None else where(one_sided, 2 * h, -h)
    n = x0.shape[0]
    up, down = [], []
    for i in range(n):
        x1 = x0.copy()
        x1[i] = x0[i] + h[i]
        if method == "2-point":
            up.append(as_array(fun(x1), "scipy.optimize.approx_fprime"))
            continue
        x2 = x0.copy()
        x2[i] = x0[i] + h2[i]
        down.append(as_array(fun(x2), "scipy.optimize.approx_fprime"))
        up.append(as_array(fun(x1), "scipy.optimize.approx_fprime"))
    xp = x0 + h
    if method == "2-point":
        df = stack(up) - f0
        dx = xp - x0
        nfev = n
    else:
        df = stack(up) - stack(down)
        dx = xp - (x0 + h2)
        nfev = 2 * n
        if one_sided is not None:
            os = one_sided.reshape((n,) + (1,) * (df.ndim - 1))
            df = where(os, -3.0 * f0 + 4 * stack(up) - stack(down), df)
            dx = where(one_sided, (x0 + h2) - x0, dx)
    if df.ndim > 1 and df[0].size > 1:
        return (df.reshape(n, -1) / dx[:, None]).T, nfev
    df = df.reshape(n)
    return df / dx, nfev
