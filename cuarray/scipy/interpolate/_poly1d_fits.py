"""The polynomial helpers that return `poly1d` objects: `lagrange`, `pade`,
`approximate_taylor_polynomial` (deprecated in SciPy 1.18, with SciPy's DeprecationWarning).

Each is a few dozen coefficients at most: host work on purpose (NumPy on host copies of the
nodes or series coefficients: the Lagrange basis products, Pade's (m + n + 1)-square linear
system, the divided differences of `approximate_taylor_polynomial`); the results are cuarray
`poly1d` objects with device coefficients, as SciPy on a GPU array library would return them.
`approximate_taylor_polynomial` calls `f` with a device array of its sample points."""

from __future__ import annotations

import math
import warnings

import numpy

from ..._core.transfer import to_host
from ..._polynomial.poly1d import poly1d
from . import _inputs
from ._host import host_scipy

__all__ = ["lagrange", "pade", "approximate_taylor_polynomial"]


def _deprecated(message):
    warnings.warn(message, DeprecationWarning, stacklevel=3)


def _host(v):
    """A host copy of a small argument (device arrays are read back)."""
    if isinstance(v, (list, tuple, int, float, complex, numpy.ndarray, numpy.generic)):
        return numpy.asarray(v)
    return numpy.asarray(to_host(_inputs.param(v)))


def _device_poly(coeffs):
    return poly1d(_inputs.param(numpy.asarray(coeffs)))


def lagrange(x, w):
    """See `scipy.interpolate.lagrange` (host work: the Lagrange basis on a few nodes; a
    `cuarray.poly1d`)."""
    _deprecated("`lagrange` is deprecated and will be removed in SciPy 1.20.0. Use "
                "`scipy.interpolate.BarycentricInterpolator` instead.")
    x, w = _host(x), _host(w)
    total = numpy.poly1d(0.0)
    for j in range(len(x)):
        term = numpy.poly1d(w[j])
        for k in range(len(x)):
            if k != j:  # the basis polynomial of node j: prod (t - x_k) / (x_j - x_k)
                term *= numpy.poly1d([1.0, -x[k]]) / (x[j] - x[k])
        total += term
    return _device_poly(total.coeffs)


def pade(an, m, n=None):
    """See `scipy.interpolate.pade` (host work: one small linear system; two `cuarray.poly1d`)."""
    _deprecated("`pade` is deprecated and will be removed in SciPy 1.20.0. Use `mpmath.pade` instead.")
    an = _host(an)
    if n is None:
        n = len(an) - 1 - m
        if n < 0:
            raise ValueError("Order of q <m> must be smaller than len(an)-1.")
    if n < 0:
        raise ValueError("Order of p <n> must be greater than 0.")
    order = m + n
    if order > len(an) - 1:
        raise ValueError("Order of q+p <m+n> must be smaller than len(an).")
    an = an[:order + 1]
    # unknowns: p_0..p_n, then q_1..q_m (q_0 = 1); row k: p_k - sum_j q_j a_{k-j} = a_k
    lhs_p = numpy.eye(order + 1, n + 1, dtype=an.dtype)
    lhs_q = numpy.zeros((order + 1, m), dtype=an.dtype)
    for k in range(1, order + 1):
        lo = max(0, k - m)
        lhs_q[k, :k - lo] = -an[lo:k][::-1]
    sol = numpy.linalg.solve(numpy.hstack((lhs_p, lhs_q)), an)
    p, q = sol[:n + 1], numpy.r_[1.0, sol[n + 1:]]
    return _device_poly(p[::-1]), _device_poly(q[::-1])


def approximate_taylor_polynomial(f, x, degree, scale, order=None):
    """See `scipy.interpolate.approximate_taylor_polynomial`: `f` is called once with a device
    array of the order + 1 sample points; the derivatives at `x` are host work (SciPy's
    KroghInterpolator on the samples); a `cuarray.poly1d`."""
    _deprecated("`approximate_taylor_polynomial` is deprecated and will be removed in SciPy 1.20.0.")
    if order is None:
        order = degree
    x = x if isinstance(x, (int, float, complex, numpy.generic)) else _host(x)
    count = order + 1
    # Chebyshev-like points clustered at the ends of [x - scale, x + scale] (no Runge phenomenon)
    xs = scale * numpy.cos(numpy.linspace(0, numpy.pi, count, endpoint=False)) + x
    values = _host(f(_inputs.param(xs)))
    derivs = host_scipy().KroghInterpolator(xs, values).derivatives(x, der=degree + 1)
    factorials = numpy.array([math.factorial(k) for k in range(degree + 1)], dtype=float)
    return _device_poly((derivs / factorials)[::-1])
