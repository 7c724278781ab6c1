"""The result and constraint objects of `scipy.optimize`: host containers, as SciPy's."""

import numpy

from .._rich_result import RichResult

__all__ = ["OptimizeResult", "Bounds", "LinearConstraint", "NonlinearConstraint"]


class OptimizeResult(RichResult):
    """See `scipy.optimize.OptimizeResult`. A dict whose keys are also attributes; its array
    entries (``x``, ``jac``, ``hess_inv``) are cuarray arrays on the device."""


def _bound_array(v):
    # bounds are small parameters SciPy keeps as float arrays; a cuarray array is read once here
    if hasattr(v, "get") and not isinstance(v, numpy.ndarray):
        v = v.get()
    return numpy.asarray(v)


class Bounds:
    """See `scipy.optimize.Bounds`. The bounds are kept as host float arrays (SciPy's)."""

    def __init__(self, lb=-numpy.inf, ub=numpy.inf, keep_feasible=False):
        self.lb = numpy.atleast_1d(_bound_array(lb))
        self.ub = numpy.atleast_1d(_bound_array(ub))
        self.keep_feasible = numpy.atleast_1d(numpy.asarray(keep_feasible)).astype(bool)
        try:
            self.lb, self.ub, self.keep_feasible = numpy.broadcast_arrays(self.lb, self.ub, self.keep_feasible)
        except ValueError as exc:
            raise ValueError("`lb`, `ub`, and `keep_feasible` must be broadcastable.") from exc

    def __repr__(self):
        start = f"{type(self).__name__}({self.lb!r}, {self.ub!r}"
        end = f", keep_feasible={self.keep_feasible!r})" if numpy.any(self.keep_feasible) else ")"
        return start + end

    def residual(self, x):
        """See `scipy.optimize.Bounds.residual` (on host values)."""
        x = _bound_array(x)
        return x - self.lb, self.ub - x


class LinearConstraint:
    """See `scipy.optimize.LinearConstraint`. Stored on the host as SciPy stores it;
    ``minimize(method='SLSQP')`` copies ``A`` to the device once."""

    def __init__(self, A, lb=-numpy.inf, ub=numpy.inf, keep_feasible=False):
        A = _bound_array(A)
        if A.ndim == 1:
            A = A[None, :]
        if A.ndim != 2:
            raise ValueError("`A` must have exactly two dimensions.")
        self.A = A
        try:
            shape = self.A.shape[0:1]
            self.lb = numpy.broadcast_to(_bound_array(lb), shape)
            self.ub = numpy.broadcast_to(_bound_array(ub), shape)
            self.keep_feasible = numpy.broadcast_to(numpy.asarray(keep_feasible, dtype=bool), shape)
        except ValueError as exc:
            raise ValueError("`lb`, `ub`, and `keep_feasible` must be broadcastable to shape `A.shape[0:1]`") \
                from exc

    def residual(self, x):
        """See `scipy.optimize.LinearConstraint.residual` (on host values)."""
        Ax = self.A @ _bound_array(x)
        return Ax - self.lb, self.ub - Ax


class NonlinearConstraint:
    """See `scipy.optimize.NonlinearConstraint`. Stored as SciPy stores it; ``fun`` (and a callable
    ``jac``) take and return device arrays (``minimize(method='SLSQP')``)."""

    def __init__(self, fun, lb, ub, jac="2-point", hess=None, keep_feasible=False, finite_diff_rel_step=None,
                 finite_diff_jac_sparsity=None):
        self.fun = fun
        self.lb = lb
        self.ub = ub
        self.finite_diff_rel_step = finite_diff_rel_step
        self.finite_diff_jac_sparsity = finite_diff_jac_sparsity
        self.jac = jac
        self.hess = hess
        self.keep_feasible = keep_feasible
