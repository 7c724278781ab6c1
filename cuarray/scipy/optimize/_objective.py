"""The objective of a minimizer: the user's function and gradient at the last point asked for,
counted as SciPy's `ScalarFunction` counts them (nfev, njev), the gradient from the user's
`jac`, from ``jac=True`` or by finite differences on the device."""

import numpy

from ..._core.host_input import as_array
from ._differentiate import approx_derivative, fun_value

__all__ = ["Objective", "FD_METHODS"]

FD_METHODS = ("2-point", "3-point", "cs")


class Objective:
    """f and its gradient at one point at a time. The point is remembered by identity (the
    minimizers make each trial point once), not compared by value as SciPy does, which would
    cost a device read per call."""

    def __init__(self, fun, jac, args, eps, rel_step, bounds=None):
        self._fun, self._args = fun, args
        self._both = jac is True
        if jac == "cs":
            raise ValueError("jac='cs' (complex-step) is not supported by cuarray's minimizers; "
                             "use '2-point' or '3-point'")
        self._jac = jac if callable(jac) else None
        # jac=None: forward differences with the absolute step `eps`; '2-point'/'3-point': relative steps
        self._fd = None if (callable(jac) or self._both) else (jac if jac in FD_METHODS else "2-point")
        self._abs_step = eps if jac not in FD_METHODS else None
        self._rel_step = rel_step
        self._bounds = bounds  # (lb, ub) device vectors: finite-difference steps stay inside them
        self.nfev = self.ngev = 0
        self.x = self.f = self.g = self._g_both = None

    def _move(self, x):
        if x is not self.x:
            self.x, self.f, self.g, self._g_both = x, None, None, None

    def _call(self, x):
        out = self._fun(x, *self._args)
        if self._both:
            out, self._g_both = out[0], out[1]
        return fun_value(out)

    def fun(self, x):
        self._move(x)
        if self.f is None:
            self.f = self._call(x)
            self.nfev += 1
        return self.f

    def grad(self, x):
        self._move(x)
        if self.g is not None:
            return self.g
        if self._jac is not None:
            self.g = fun_value_vector(self._jac(x, *self._args), x)
        elif self._both:
            if self._g_both is None:  # the gradient asked for before the value: one call gives both
                self._call(x)
            self.g = fun_value_vector(self._g_both, x)
        else:
            f0 = self.fun(x)
            self.g, n = approx_derivative(lambda y: self._call(y), x, f0, self._fd, abs_step=self._abs_step,
                                          rel_step=self._rel_step, bounds=self._bounds)
            self.nfev += n
        self.ngev += 1
        return self.g


def fun_value_vector(g, x):
    g = as_array(g, "scipy.optimize.minimize")
    if g.ndim == 0:
        g = g.reshape(1)
    return g.astype(numpy.result_type(g.dtype, x.dtype)) if g.dtype != x.dtype else g
