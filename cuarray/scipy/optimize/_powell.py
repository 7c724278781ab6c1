"""Powell's conjugate-direction method, ported from SciPy's `_minimize_powell` and
`_linesearch_powell` (Powell 1964, "An efficient method for finding the minimum of a function of
several variables without calculating derivatives", Computer Journal 7:155-162, with the
direction-replacement test of Press et al., Numerical Recipes, powell). The iterate, the direction
set and the trial points x + alpha d stay on the device; each line search is a host loop over
the scalar alpha (Brent's method from a bracket, or bounded Brent on the step interval that the
bounds allow: SciPy's own host loops, through its `minimize_scalar`).

Host reads: one per function evaluation (the value the scalar search compares), one per line
search (whether the direction is zero and, with bounds, the interval of alpha that keeps
x + alpha d inside them), and one at the end (x outside the bounds / NaN in x)."""

import warnings

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.matrices import eye
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._sorting.searching import where
from ..._statistics.order import max as max_, min as min_
from ._neldermead import MaxFuncCallError, counted, limits
from ._result import OptimizeResult

__all__ = ["minimize_powell"]

_MESSAGES = {"success": "Optimization terminated successfully.",
             "maxfev": "Maximum number of function evaluations has been exceeded.",
             "maxiter": "Maximum number of iterations has been exceeded.",
             "nan": "NaN result encountered.",
             "out_of_bounds": "The result is outside of the provided bounds."}


def _search_interval(p, xi, lb, ub):
    """SciPy's `_line_for_search` on the device: the range of l with lb <= p + l xi <= ub over
    the nonzero entries of xi, stacked with whether xi has one (the caller reads the three)."""
    nonzero = xi != 0
    step = where(nonzero, xi, 1.0)
    low, high = (lb - p) / step, (ub - p) / step
    pos = xi > 0
    lmin = max_(where(nonzero, where(pos, low, high), -numpy.inf))
    lmax = min_(where(nonzero, where(pos, high, low), numpy.inf))
    return stack([any_(nonzero).astype(lmin.dtype), lmin, lmax])


def _interval(p, xi, lb, ub):
    # the line search's one read: is xi nonzero, and (with bounds) the interval of l
    if lb is None:
        return bool(to_host(any_(xi != 0))), -numpy.inf, numpy.inf
    nz, lmin, lmax = (float(v) for v in to_host(_search_interval(p, xi, lb, ub)))
    # x outside the bounds may leave no way back along xi: SciPy's (0, 0)
    return nz != 0, *((lmin, lmax) if lmax >= lmin else (0.0, 0.0))


def _scalar_minimum(f, tol, bounds=None):
    """(x, f(x)) by SciPy's host loops, the ones its `_linesearch_powell` runs (and
    `_scalar.minimize_scalar` runs for the user): Brent's with its recovery where no bracket is
    found, or the bounded Brent of `fminbound` on a finite interval."""
    import scipy.optimize  # optional dependency: the scalar loops are SciPy's  # noqa: PLC0415

    if bounds is None:
        res = scipy.optimize.minimize_scalar(f, method="brent", options={"xtol": tol})
    else:
        res = scipy.optimize.minimize_scalar(f, bounds=bounds, method="bounded", options={"xatol": tol})
    return res.x, res.fun


def _linesearch(f, p, xi, tol, lb, ub, fval):
    """SciPy's `_linesearch_powell`: (f, p + alpha xi, alpha xi, whether alpha xi is nonzero)."""
    nonzero, lmin, lmax = _interval(p, xi, lb, ub)
    if not nonzero:
        return fval, p, xi, False
    if numpy.isneginf(lmin) and numpy.isposinf(lmax):
        if tol < 0:
            raise ValueError(f"tolerance should be >= 0, got {tol!r}")
        alpha, fret = _scalar_minimum(lambda a: f(p + float(a) * xi), tol)
    elif not numpy.isneginf(lmin) and not numpy.isposinf(lmax):
        alpha, fret = _scalar_minimum(lambda a: f(p + float(a) * xi), tol / 100, (lmin, lmax))
    else:
        # bounded on one side: search over arctan(alpha), SciPy's change of variable
        t, fret = _scalar_minimum(lambda t: f(p + float(numpy.tan(t)) * xi), tol / 100,
                                  (numpy.arctan(lmin), numpy.arctan(lmax)))
        alpha = numpy.tan(t)
    step = float(alpha) * xi
    return fret, p + step, step, bool(alpha != 0)


def minimize_powell(func, x0, args=(), callback=None, halt=None, bounds=None, xtol=1e-4, ftol=1e-4, maxiter=None,
                    maxfev=None, disp=False, direc=None, return_all=False):
    """SciPy's `_minimize_powell` on a device iterate; `halt(callback, result)` is minimize's."""
    maxfun = maxfev
    x = x0.reshape(-1).copy()
    allvecs = [x] if return_all else None
    N = len(x)
    maxiter, maxfun = limits(maxiter, maxfun, N * 1000)
    fcalls, f = counted(func, args, maxfun)  # one read per evaluation
    if direc is None:
        direc = eye(N, dtype=numpy.float64)
    else:
        direc_h = numpy.asarray(to_host(as_parameter(direc, "scipy.optimize.minimize")), dtype=float)
        if numpy.linalg.matrix_rank(direc_h) != direc_h.shape[0]:
            from scipy.optimize import OptimizeWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

            warnings.warn("direc input is not full rank, some parameters may not be optimized", OptimizeWarning,
                          stacklevel=3)
        direc = as_parameter(direc_h, "scipy.optimize.minimize").copy()
    lb = ub = None
    if bounds is not None:
        x0_h = to_host(x)  # one read at the start: is x0 inside the bounds (SciPy's warning)
        if numpy.any(bounds.lb > x0_h) or numpy.any(x0_h > bounds.ub):
            from scipy.optimize import OptimizeWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

            warnings.warn("Initial guess is not within the specified bounds", OptimizeWarning, stacklevel=3)
        lb = as_parameter(numpy.asarray(bounds.lb, dtype=float), "scipy.optimize.minimize")
        ub = as_parameter(numpy.asarray(bounds.ub, dtype=float), "scipy.optimize.minimize")

    fval = f(x)
    x1 = x
    it = 0
    while True:
        try:
            fx, bigind, delta = fval, 0, 0.0
            for i in range(N):
                fx2 = fval
                fval, x, _, _ = _linesearch(f, x, direc[i], xtol * 100, lb, ub, fval)
                if (fx2 - fval) > delta:
                    delta, bigind = fx2 - fval, i
            it += 1
            if return_all:
                allvecs.append(x)
            if halt(callback, OptimizeResult(x=x, fun=fval)):
                break
            bnd = ftol * (numpy.abs(fx) + numpy.abs(fval)) + 1e-20
            if 2.0 * (fx - fval) <= bnd or fcalls[0] >= maxfun or it >= maxiter:
                break
            if numpy.isnan(fx) and numpy.isnan(fval):  # in a NaN region: give up
                break
            # the extrapolated point 2x - x1, pulled back inside the bounds
            direc1 = x - x1
            x1 = x
            lmax = 1.0 if lb is None else _interval(x, direc1, lb, ub)[2]
            fx2 = f(x + min(lmax, 1) * direc1)
            if fx > fx2:
                t = 2.0 * (fx + fx2 - 2.0 * fval)
                temp = fx - fval - delta
                t *= temp * temp
                temp = fx - fx2
                t -= delta * temp * temp
                if t < 0.0:  # replace the direction of largest decrease by the average one
                    fval, x, direc1, moved = _linesearch(f, x, direc1, xtol * 100, lb, ub, fval)
                    if moved:
                        direc[bigind] = direc[-1]
                        direc[-1] = direc1
        except MaxFuncCallError:
            break
    # the final read: whether x holds a NaN or (with bounds) left them
    flags = [any_(isnan(x))] if lb is None else [any_(isnan(x)), any_((x < lb) | (x > ub))]
    has_nan, out = ([bool(v) for v in to_host(stack(flags))] + [False])[:2]
    if out:
        warnflag, msg = 4, _MESSAGES["out_of_bounds"]
    elif fcalls[0] >= maxfun:
        warnflag, msg = 1, _MESSAGES["maxfev"]
    elif it >= maxiter:
        warnflag, msg = 2, _MESSAGES["maxiter"]
    elif numpy.isnan(fval) or has_nan:
        warnflag, msg = 3, _MESSAGES["nan"]
    else:
        warnflag, msg = 0, _MESSAGES["success"]
    res = OptimizeResult(fun=fval, direc=direc, nit=it, nfev=fcalls[0], status=warnflag, success=(warnflag == 0),
                         message=msg, x=x)
    if return_all:
        res["allvecs"] = allvecs
    return res
