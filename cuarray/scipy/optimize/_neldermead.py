"""Nelder-Mead, ported from SciPy's `_minimize_neldermead` (Nelder & Mead 1965; the adaptive
parameters of Gao & Han 2012), with the simplex, its points and the bounds clip on the device and
the N + 1 function values on the host, where the method's comparisons and its sort happen.

Host reads: one per function evaluation (the value the method compares), one an iteration (the
simplex's spread, max |sim[1:] - sim[0]|, for the `xatol` test), and with bounds one at the start
(whether x0 is inside them)."""

import warnings

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.matrices import eye
from ..._indexing.inserting import take
from ..._manipulation.joining import concatenate
from ..._math.misc import absolute, clip
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ._differentiate import fun_value
from ._result import OptimizeResult

__all__ = ["minimize_neldermead", "limits", "counted", "MaxFuncCallError"]

_MESSAGES = {"success": "Optimization terminated successfully.",
             "maxfev": "Maximum number of function evaluations has been exceeded.",
             "maxiter": "Maximum number of iterations has been exceeded."}


class MaxFuncCallError(RuntimeError):
    pass


def minimize_neldermead(func, x0, args=(), callback=None, halt=None, maxiter=None, maxfev=None, disp=False,
                        return_all=False, initial_simplex=None, xatol=1e-4, fatol=1e-4, adaptive=False, bounds=None):
    """SciPy's `_minimize_neldermead` on a device simplex; `halt(callback, result)` is minimize's."""
    maxfun = maxfev
    if x0.dtype.kind not in "fc":
        x0 = x0.astype(numpy.float64)
    if adaptive:
        dim = float(len(x0))
        rho, chi, psi, sigma = 1, 1 + 2 / dim, 0.75 - 1 / (2 * dim), 1 - 1 / dim
    else:
        rho, chi, psi, sigma = 1, 2, 0.5, 0.5
    lb = ub = None
    if bounds is not None:
        if numpy.any(bounds.lb > bounds.ub):
            raise ValueError("Nelder Mead - one of the lower bounds is greater than an upper bound.")
        x0_host = to_host(x0)  # one read at the start: is x0 inside the bounds (SciPy's warning)
        if numpy.any(bounds.lb > x0_host) or numpy.any(x0_host > bounds.ub):
            from scipy.optimize import OptimizeWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

            warnings.warn("Initial guess is not within the specified bounds", OptimizeWarning, stacklevel=4)
        lb = as_parameter(bounds.lb, "scipy.optimize.minimize").astype(x0.dtype)
        ub = as_parameter(bounds.ub, "scipy.optimize.minimize").astype(x0.dtype)
        x0 = clip(x0, lb, ub)

    def bound(x):
        return x if lb is None else clip(x, lb, ub)

    sim, N = _start_simplex(x0, initial_simplex)
    allvecs = [sim[0]] if return_all else None
    maxiter, maxfun = limits(maxiter, maxfun, N * 200)
    if lb is not None:
        # reflect a start point past an upper bound into the interior, then clip (SciPy's)
        sim = bound(where(sim > ub, 2 * ub - sim, sim))
    fcalls, f = counted(func, args, maxfun)

    fsim = numpy.full((N + 1,), numpy.inf, dtype=float)
    try:
        for k in range(N + 1):
            fsim[k] = f(sim[k])
    except MaxFuncCallError:
        pass
    sim, fsim = _sorted(sim, fsim)
    iterations = 1
    while fcalls[0] < maxfun and iterations < maxiter:
        try:
            # the iteration's read: the simplex's spread, for the x tolerance
            if float(to_host(max_(absolute(sim[1:] - sim[0])))) <= xatol and \
                    numpy.max(numpy.abs(fsim[0] - fsim[1:])) <= fatol:
                break
            xbar = sum_(sim[:-1], axis=0) / N
            xr = bound((1 + rho) * xbar - rho * sim[-1])
            fxr = f(xr)
            doshrink = False
            if fxr < fsim[0]:
                xe = bound((1 + rho * chi) * xbar - rho * chi * sim[-1])
                fxe = f(xe)
                sim[-1], fsim[-1] = (xe, fxe) if fxe < fxr else (xr, fxr)
            elif fxr < fsim[-2]:
                sim[-1], fsim[-1] = xr, fxr
            elif fxr < fsim[-1]:
                xc = bound((1 + psi * rho) * xbar - psi * rho * sim[-1])
                fxc = f(xc)
                if fxc <= fxr:
                    sim[-1], fsim[-1] = xc, fxc
                else:
                    doshrink = True
            else:
                xcc = bound((1 - psi) * xbar + psi * sim[-1])
                fxcc = f(xcc)
                if fxcc < fsim[-1]:
                    sim[-1], fsim[-1] = xcc, fxcc
                else:
                    doshrink = True
            if doshrink:
                for j in range(1, N + 1):
                    sim[j] = bound(sim[0] + sigma * (sim[j] - sim[0]))
                    fsim[j] = f(sim[j])
            iterations += 1
        except MaxFuncCallError:
            pass
        sim, fsim = _sorted(sim, fsim)
        if return_all:
            allvecs.append(sim[0])
        if halt(callback, OptimizeResult(x=sim[0], fun=fsim[0])):
            break
    if fcalls[0] >= maxfun:
        warnflag, msg = 1, _MESSAGES["maxfev"]
    elif iterations >= maxiter:
        warnflag, msg = 2, _MESSAGES["maxiter"]
    else:
        warnflag, msg = 0, _MESSAGES["success"]
    res = OptimizeResult(fun=numpy.min(fsim), nit=iterations, nfev=fcalls[0], status=warnflag,
                         success=(warnflag == 0), message=msg, x=sim[0], final_simplex=(sim, fsim))
    if return_all:
        res["allvecs"] = allvecs
    return res


def limits(maxiter, maxfun, default):
    """SciPy's defaults of the derivative-free methods: both `default` when neither is given, else
    the missing one unlimited, unless the given one is (then the missing one is `default`)."""
    if maxiter is None and maxfun is None:
        return default, default
    if maxiter is None:
        return (default if maxfun == numpy.inf else numpy.inf), maxfun
    if maxfun is None:
        return maxiter, (default if maxiter == numpy.inf else numpy.inf)
    return maxiter, maxfun


def counted(func, args, maxfun):
    """([calls], f): f(x) is func's value read to the host (a NumPy scalar of func's type, as
    SciPy's wrapper keeps it), counted, raising `MaxFuncCallError` once `maxfun` calls are made."""
    fcalls = [0]

    def f(x):
        if fcalls[0] >= maxfun:
            raise MaxFuncCallError
        fcalls[0] += 1
        return to_host(fun_value(func(x, *args)))[()]  # the evaluation's one read
    return fcalls, f


def _start_simplex(x0, initial_simplex):
    """(sim, N): the given simplex checked, or SciPy's: x0, and x0 with coordinate k scaled by
    1 + 0.05 (set to 0.00025 where it is 0)."""
    if initial_simplex is None:
        N = len(x0)
        moved = where(x0 != 0, (1 + 0.05) * x0, 0.00025)
        sim = concatenate([x0.reshape(1, N), where(eye(N, dtype=bool), moved.reshape(1, N), x0.reshape(1, N))])
    else:
        sim = as_parameter(initial_simplex, "scipy.optimize.minimize")
        if sim.ndim == 1:
            sim = sim.reshape(1, -1)
        sim = sim.astype(sim.dtype if sim.dtype.kind in "fc" else numpy.float64)
        if sim.ndim != 2 or sim.shape[0] != sim.shape[1] + 1:
            raise ValueError("`initial_simplex` should be an array of shape (N+1,N)")
        if len(x0) != sim.shape[1]:
            raise ValueError("Size of `initial_simplex` is not consistent with `x0`")
        N = sim.shape[1]
    return sim, N


def _sorted(sim, fsim):
    """The simplex ordered by value (a stable sort on the host; the rows gathered on the device)."""
    ind = numpy.argsort(fsim)
    return take(sim, as_parameter(ind, "scipy.optimize.minimize"), 0), fsim[ind]
