"""The Rosenbrock test function and its derivatives, and finite-difference gradients
(`approx_fprime`, `check_grad`), composed of cuarray's elementwise and reduction routines."""

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import zeros, zeros_like
from ..._creation.matrices import diag
from ..._math.sums import sum as sum_
from ._differentiate import approx_derivative

__all__ = ["rosen", "rosen_der", "rosen_hess", "rosen_hess_prod", "approx_fprime", "check_grad"]

_epsilon = numpy.sqrt(numpy.finfo(float).eps)


def _floating(x, fn):
    x = as_array(x, fn)
    return x if x.dtype.kind in "fc" else x.astype(numpy.float64)


def rosen(x):
    """See `scipy.optimize.rosen`. Sums along axis 0 on the device; returns a device array."""
    x = _floating(x, "scipy.optimize.rosen")
    return sum_(100.0 * (x[1:] - x[:-1] ** 2.0) ** 2.0 + (1 - x[:-1]) ** 2.0, axis=0, dtype=x.dtype)


def rosen_der(x):
    """See `scipy.optimize.rosen_der`."""
    x = _floating(x, "scipy.optimize.rosen_der")
    xm, xm_m1, xm_p1 = x[1:-1], x[:-2], x[2:]
    der = zeros_like(x)
    der[1:-1] = 200 * (xm - xm_m1 ** 2) - 400 * (xm_p1 - xm ** 2) * xm - 2 * (1 - xm)
    der[0] = -400 * x[0] * (x[1] - x[0] ** 2) - 2 * (1 - x[0])
    der[-1] = 200 * (x[-1] - x[-2] ** 2)
    return der


def rosen_hess(x):
    """See `scipy.optimize.rosen_hess`."""
    x = _floating(x, "scipy.optimize.rosen_hess")
    H = diag(-400 * x[:-1], 1) - diag(400 * x[:-1], -1)
    diagonal = zeros(x.shape[0], dtype=x.dtype)
    diagonal[0] = 1200 * x[0] ** 2 - 400 * x[1] + 2
    diagonal[-1] = 200
    diagonal[1:-1] = 202 + 1200 * x[1:-1] ** 2 - 400 * x[2:]
    return H + diag(diagonal)


def rosen_hess_prod(x, p):
    """See `scipy.optimize.rosen_hess_prod`."""
    x = _floating(x, "scipy.optimize.rosen_hess_prod")
    if x.ndim == 0:
        x = x.reshape(1)
    p = as_array(p, "scipy.optimize.rosen_hess_prod").astype(x.dtype)
    Hp = zeros(x.shape[0], dtype=x.dtype)
    Hp[0] = (1200 * x[0] ** 2 - 400 * x[1] + 2) * p[0] - 400 * x[0] * p[1]
    Hp[1:-1] = -400 * x[:-2] * p[:-2] + (202 + 1200 * x[1:-1] ** 2 - 400 * x[2:]) * p[1:-1] - 400 * x[1:-1] * p[2:]
    Hp[-1] = -400 * x[-2] * p[-2] + 200 * p[-1]
    return Hp


def approx_fprime(xk, f, epsilon=_epsilon, *args):
    """See `scipy.optimize.approx_fprime`. Forward differences with the absolute step `epsilon`:
    `f` is called once at `xk` and once per coordinate on device arrays, and the quotients are
    formed on the device (no host read)."""
    xk = as_array(xk, "scipy.optimize.approx_fprime")
    xk = xk.astype(numpy.float64) if xk.dtype.kind != "f" else xk
    if xk.ndim == 0:
        xk = xk.reshape(1)
    f0 = f(xk, *args)
    return approx_derivative(lambda x: f(x, *args), xk, f0, "2-point", abs_step=epsilon)[0]


def check_grad(func, grad, x0, *args, epsilon=_epsilon, direction="all", rng=None, seed=None):
    """See `scipy.optimize.check_grad`. The random direction of ``direction='random'`` is drawn
    on the host with NumPy's generator (as SciPy's) and copied to the device; the result is one
    host float (one device-to-host read)."""
    x0 = as_array(x0, "scipy.optimize.check_grad")
    if direction == "random":
        g0 = as_array(grad(x0, *args), "scipy.optimize.check_grad")
        if g0.ndim > 1:
            raise ValueError("'random' can only be used with scalar valued func")
        gen = rng if rng is not None else seed
        gen = gen if isinstance(gen, numpy.random.Generator) else numpy.random.default_rng(gen)
        v = as_parameter(gen.standard_normal(size=x0.shape), "scipy.optimize.check_grad")
        analytical = sum_(g0 * v)
        numerical = approx_fprime(zeros(1), lambda w, *a: func(x0 + w * v, *a), epsilon, *args)
    elif direction == "all":
        analytical = as_array(grad(x0, *args), "scipy.optimize.check_grad")
        numerical = approx_fprime(x0, func, epsilon, *args)
    else:
        raise ValueError(f"{direction} is not a valid string for ``direction`` argument")
    diff = analytical - numerical
    # the one read: the error norm SciPy returns as a host float
    return float(to_host(sum_(abs(diff) ** 2)) ** 0.5)
