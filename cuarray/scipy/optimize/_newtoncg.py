"""Newton-CG, ported from SciPy's `_minimize_newtoncg` (Nocedal & Wright, Numerical Optimization,
2nd ed., algorithm 7.1, a line-search Newton-CG with the Hessian applied to vectors): the
iterate, gradient, CG vectors and products with the Hessian stay on the device.

Host reads: one an outer iteration (the gradient's 1-norm for the CG tolerance) plus the line
search's (see `_linesearch`) and one of the step's 1-norm; one an inner CG iteration (the
curvature p.Ap, with the next residual's 1-norm, read together: the CG step is computed on the
device before the read and dropped where the curvature test stops the loop)."""

import math

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._math.misc import absolute
from ..._math.sums import sum as sum_
from ...linalg._products import dot, vdot
from ._linesearch import LineSearchError, line_search_wolfe12
from ._objective import Objective
from ._result import OptimizeResult

__all__ = ["minimize_newtoncg"]

_epsilon = numpy.sqrt(numpy.finfo(float).eps)
_MESSAGES = {"success": "Optimization terminated successfully.",
             "maxiter": "Maximum number of iterations has been exceeded.",
             "pr_loss": "Desired error not necessarily achieved due to precision loss.",
             "nan": "NaN result encountered."}


def _vec(v):
    v = as_array(v, "scipy.optimize.minimize")
    return v.reshape(-1) if v.ndim != 1 else v


def minimize_newtoncg(fun, x0, args, jac, hess, hessp, callback, halt, xtol=1e-5, eps=_epsilon, maxiter=None,
                      disp=False, return_all=False, c1=1e-4, c2=0.9, workers=None):
    """SciPy's `_minimize_newtoncg`; `halt(callback, result)` is minimize's."""
    if jac is None:
        raise ValueError("Jacobian is required for Newton-CG method")
    if isinstance(hess, str):
        raise ValueError("hess='{}' (finite-difference Hessians) is not supported by cuarray's Newton-CG; "
                         "give hess or hessp as a callable, or neither".format(hess))
    obj = Objective(fun, jac, args, eps, None)
    hcalls = 0
    n = len(x0)
    maxiter = n * 200 if maxiter is None else maxiter
    cg_maxiter = 20 * n
    xtol = n * xtol
    update_l1norm = numpy.finfo(float).max
    xk = x0.copy()
    allvecs = [xk] if return_all else None
    k = 0
    gfk = None
    old_fval = float(to_host(obj.fun(xk)))  # the first read: f(x0)
    old_old_fval = None
    eps64 = numpy.finfo(numpy.float64).eps

    def result(warnflag, msg):
        res = OptimizeResult(fun=old_fval, jac=gfk, nfev=obj.nfev, njev=obj.ngev, nhev=hcalls, status=warnflag,
                             success=(warnflag == 0), message=msg, x=xk, nit=k)
        if return_all:
            res["allvecs"] = allvecs
        return res

    while update_l1norm > xtol:
        if k >= maxiter:
            return result(1, "Warning: " + _MESSAGES["maxiter"])
        b = -obj.grad(xk)
        maggrad = float(to_host(sum_(absolute(b))))  # the outer iteration's read
        termcond = min(0.5, math.sqrt(maggrad)) * maggrad
        xsupi = zeros(n, dtype=x0.dtype)
        ri = -b
        psupi = -ri
        i = 0
        dri0 = vdot(ri, ri)
        A = None
        if callable(hess):
            A = as_array(hess(xk, *args), "scipy.optimize.minimize")
            hcalls += 1
        l1 = maggrad
        for _ in range(cg_maxiter):
            if l1 <= termcond:
                break
            if A is not None:
                Ap = dot(A, psupi)
            elif callable(hessp):
                Ap = _vec(hessp(xk, psupi, *args))
                hcalls += 1
            else:  # SciPy's approx_fhess_p: forward differences of the gradient along psupi
                Ap = (obj.grad(xk + eps * psupi) - obj.grad(xk)) / eps
            curv_d = vdot(psupi, Ap)
            alphai = dri0 / curv_d
            x_next = xsupi + alphai * psupi
            r_next = ri + alphai * Ap
            dri1 = vdot(r_next, r_next)
            # the inner iteration's read: the curvature, and the next residual's 1-norm
            curv, l1_next = (float(v) for v in to_host(stack([curv_d, sum_(absolute(r_next))])))
            if 0 <= curv <= 3 * eps64:
                break
            if curv < 0:
                if i == 0:  # SciPy's fallback: the steepest-descent direction
                    xsupi = dri0 / (-curv_d) * b
                break
            xsupi, ri, l1 = x_next, r_next, l1_next
            psupi = -ri + (dri1 / dri0) * psupi
            i += 1
            dri0 = dri1
        else:
            return result(3, "Warning: CG iterations didn't converge. The Hessian is not positive definite.")
        pk = xsupi
        gfk = -b
        try:
            alphak, old_fval, old_old_fval, _, xnew = line_search_wolfe12(obj, xk, pk, gfk, old_fval, old_old_fval,
                                                                          c1=c1, c2=c2)
        except LineSearchError:
            return result(2, "Warning: " + _MESSAGES["pr_loss"])
        update = alphak * pk
        xk = xnew  # the line search's point, xk + alphak pk: its gradient is known
        if return_all:
            allvecs.append(xk)
        k += 1
        if halt(callback, OptimizeResult(x=xk, fun=old_fval)):
            return result(5, "")
        update_l1norm = float(to_host(sum_(absolute(update))))  # the step's 1-norm
    if numpy.isnan(old_fval) or numpy.isnan(update_l1norm):
        return result(3, _MESSAGES["nan"])
    return result(0, _MESSAGES["success"])
