"""`curve_fit`: SciPy's wrapper of the least-squares solvers, with the residuals weighted by
`sigma` (1-D: divided; 2-D: the Cholesky factor's triangular solve, on the device) and the
covariance from the SVD of the Jacobian at the solution, as SciPy computes it."""

import inspect
import warnings

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import from_host
from ..._logic.content import isfinite, isnan
from ..._logic.truth import all as all_, any as any_
from ...linalg._svd import svd
from ..linalg._decomp_extra import cholesky
from ..linalg._triangular import solve_triangular
from ._least_squares import least_squares
from ._lsq_host import EPS
from ._lsq_lm import lm
from ._lsq_problem import Problem, read
from ._lsq_trf import evaluate
from ._result import Bounds

__all__ = ["curve_fit"]

_FN = "scipy.optimize.curve_fit"
_LEASTSQ_KEYS = ("ftol", "xtol", "gtol", "maxfev", "epsfcn", "factor", "diag", "col_deriv")


def _leastsq_message(info, ftol, xtol, gtol, maxfev):
    """MINPACK's messages as `scipy.optimize.leastsq` words them."""
    return {1: f"Both actual and predicted relative reductions in the sum of squares\n  are at most {ftol:f}",
            2: f"The relative error between two consecutive iterates is at most {xtol:f}",
            3: f"Both actual and predicted relative reductions in the sum of squares\n  are at most {ftol:f} and "
               f"the relative error between two consecutive iterates is at \n  most {xtol:f}",
            4: f"The cosine of the angle between func(x) and any column of the\n  Jacobian is at most {gtol:f} in "
               "absolute value",
            5: f"Number of calls to function has reached maxfev = {maxfev}.",
            6: f"ftol={ftol:f} is too small, no further reduction in the sum of squares\n  is possible.",
            7: f"xtol={xtol:f} is too small, no further improvement in the approximate\n  solution is possible.",
            8: f"gtol={gtol:f} is too small, func(x) is orthogonal to the columns of\n  the Jacobian to machine "
               "precision."}[info]


def _data(a, check_finite):
    a = as_literal_or_array(a, _FN).astype(numpy.float64)
    # one read: SciPy's asarray_chkfinite
    if check_finite and a.size and not bool(read(all_(isfinite(a)).astype(numpy.float64))[0]):
        raise ValueError("array must not contain infs or NaNs")
    return a


def _initialize_feasible(lb, ub):
    p0 = numpy.ones_like(lb)
    lbf, ubf = numpy.isfinite(lb), numpy.isfinite(ub)
    p0[lbf & ubf] = 0.5 * (lb[lbf & ubf] + ub[lbf & ubf])
    p0[lbf & ~ubf] = lb[lbf & ~ubf] + 1
    p0[~lbf & ubf] = ub[~lbf & ubf] - 1
    return p0


def _omit_nan(xdata, ydata, sigma, nan_policy):
    if nan_policy == "propagate":
        raise ValueError("`nan_policy='propagate'` is not supported by this function.")
    if nan_policy not in ("raise", "omit"):
        raise ValueError("nan_policy must be one of {None, 'raise', 'omit'}")
    has_nan = isnan(ydata)
    if hasattr(xdata, "ndim") and xdata.ndim:
        x_nan = isnan(xdata)
        has_nan = has_nan | (any_(x_nan, axis=tuple(range(x_nan.ndim - 1))) if x_nan.ndim > 1 else x_nan)
    if not bool(read(any_(has_nan).astype(numpy.float64))[0]):  # one read: whether any NaN is there
        return xdata, ydata, sigma
    if nan_policy == "raise":
        raise ValueError("The input contains nan values")
    keep = ~has_nan
    xdata = xdata[..., keep] if hasattr(xdata, "ndim") and xdata.ndim else xdata
    if sigma is not None and sigma.ndim == 1:
        sigma = sigma[keep]
    elif sigma is not None and sigma.ndim == 2:
        sigma = sigma[keep][:, keep]
    return xdata, ydata[keep], sigma


def _wrap(f, jac, xdata, ydata, transform):
    def residuals(params):
        r = f(xdata, *params) - ydata
        if transform is None:
            return r
        return transform * r if transform.ndim < 2 else solve_triangular(transform, r, lower=True)

    if not callable(jac):
        return residuals, jac

    def jacobian(params):
        J = as_literal_or_array(jac(xdata, *params), _FN)
        if transform is None:
            return J
        return transform[:, None] * J if transform.ndim == 1 else solve_triangular(transform, J, lower=True)
    return residuals, jacobian


def _leastsq(func, jac, p0, kwargs):
    """The 'lm' path: `leastsq`'s defaults and counts (function calls of the finite differences
    included in nfev, as MINPACK's lmdif counts them) over the Levenberg-Marquardt loop."""
    unknown = set(kwargs) - set(_LEASTSQ_KEYS)
    if unknown:
        raise TypeError(f"leastsq() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    n = p0.size
    ftol, xtol, gtol = kwargs.get("ftol", 1.49012e-8), kwargs.get("xtol", 1.49012e-8), kwargs.get("gtol", 0.0)
    maxfev = kwargs.get("maxfev", 0) or (100 * (n + 1) if callable(jac) else 200 * (n + 1))
    diag = kwargs.get("diag")
    step = max(kwargs.get("epsfcn") or EPS, EPS) ** 0.5
    problem = Problem(func, jac if callable(jac) else "2-point", (), None, None if callable(jac) else step,
                      numpy.full(n, -numpy.inf), numpy.full(n, numpy.inf), "linear", 1.0)
    f0, cost0, _ = evaluate(problem, p0)
    if n > f0.size:
        raise TypeError(f"Improper input: func input vector length N={n} must not exceed func output vector "
                        f"length M={f0.size}")
    problem.shape = (f0.size, n)
    x_scale = "jac" if diag is None else 1 / numpy.asarray(diag, dtype=float)
    res, info = lm(problem, p0, f0, cost0, ftol, xtol, gtol, maxfev, x_scale, count_fd=not callable(jac))
    return res, info, _leastsq_message(info, ftol, xtol, gtol, maxfev)


def curve_fit(f, xdata, ydata, p0=None, sigma=None, absolute_sigma=False, check_finite=None,
              bounds=(-numpy.inf, numpy.inf), method=None, jac=None, *, full_output=False, nan_policy=None,
              **kwargs):
    """See `scipy.optimize.curve_fit`. ``f(xdata, *params)`` takes and returns cuarray arrays
    (``xdata`` is passed as given: a cuarray array, or a list/tuple copied to the device);
    ``ydata`` and ``sigma`` are device arrays. ``popt`` and ``pcov`` are device arrays. With
    ``method='lm'`` the covariance comes from the Jacobian's SVD as for 'trf' (SciPy inverts
    MINPACK's R factor; the two agree for a full-rank Jacobian) and ``infodict`` holds ``nfev`` and
    ``fvec`` only (MINPACK's ``fjac``, ``ipvt`` and ``qtf`` belong to its QR factorization)."""
    if p0 is None:
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(params) < 2:
            raise ValueError("Unable to determine number of fit parameters.")
        n = len(params) - 1
    else:
        p0 = numpy.atleast_1d(numpy.asarray(p0.get() if hasattr(p0, "get") and not isinstance(p0, numpy.ndarray)
                                            else p0, dtype=float))
        n = p0.size
    if isinstance(bounds, Bounds):
        lb, ub = bounds.lb, bounds.ub
    else:
        lb, ub = (numpy.asarray(b, dtype=float) for b in bounds)
        lb = numpy.resize(lb, n) if lb.ndim == 0 else lb
        ub = numpy.resize(ub, n) if ub.ndim == 0 else ub
    if p0 is None:
        p0 = _initialize_feasible(lb, ub)
    bounded = bool(numpy.any((lb > -numpy.inf) | (ub < numpy.inf)))
    method = method if method is not None else ("trf" if bounded else "lm")
    if method == "lm" and bounded:
        raise ValueError("Method 'lm' only works for unconstrained problems. Use 'trf' or 'dogbox' instead.")
    check_finite = (nan_policy is None) if check_finite is None else check_finite
    ydata = _data(ydata, check_finite)
    if isinstance(xdata, (list, tuple, numpy.ndarray)) or hasattr(xdata, "__cuda_array_interface__"):
        xdata = _data(xdata, check_finite)
    if ydata.size == 0:
        raise ValueError("`ydata` must not be empty!")
    if sigma is not None:
        sigma = as_literal_or_array(sigma, _FN).astype(numpy.float64)
    if not check_finite and nan_policy is not None:
        xdata, ydata, sigma = _omit_nan(xdata, ydata, sigma, nan_policy)
    transform = None
    if sigma is not None:
        if sigma.size == 1 or sigma.shape == (ydata.size,):
            transform = 1.0 / sigma
        elif sigma.shape == (ydata.size, ydata.size):
            try:
                transform = cholesky(sigma, lower=True)
            except numpy.linalg.LinAlgError as e:
                raise ValueError("`sigma` must be positive definite.") from e
        else:
            raise ValueError("`sigma` has incorrect shape.")
    if "args" in kwargs:
        raise ValueError("'args' is not a supported keyword argument.")
    func, jac = _wrap(f, jac, xdata, ydata, transform)
    if method == "lm":
        if ydata.size != 1 and n > ydata.size:
            raise TypeError(f"The number of func parameters={n} must not exceed the number of data "
                            f"points={ydata.size}")
        res, ier, errmsg = _leastsq(func, jac, p0, kwargs)
        if ier not in (1, 2, 3, 4):
            raise RuntimeError("Optimal parameters not found: " + errmsg)
    else:
        if "max_nfev" not in kwargs:
            kwargs["max_nfev"] = kwargs.pop("maxfev", None)
        res = least_squares(func, p0, jac="2-point" if jac is None else jac, bounds=(lb, ub), method=method,
                            **kwargs)
        if not res.success:
            raise RuntimeError("Optimal parameters not found: " + res.message)
        ier, errmsg = res.status, res.message
    popt, ysize, cost = res.x, res.fun.size, 2 * res.cost
    pcov = _covariance(res.jac)
    warn_cov = False
    if numpy.isnan(pcov).any():
        pcov = numpy.full((n, n), numpy.inf)
        warn_cov = True
    elif not absolute_sigma:
        if ysize > p0.size:
            pcov = pcov * (cost / (ysize - p0.size))
        else:
            pcov.fill(numpy.inf)
            warn_cov = True
    if warn_cov:
        from scipy.optimize import OptimizeWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

        warnings.warn("Covariance of the parameters could not be estimated", category=OptimizeWarning, stacklevel=2)
    pcov = from_host(pcov)
    if full_output:
        return popt, pcov, {"nfev": res.nfev, "fvec": res.fun}, errmsg, ier
    return popt, pcov


def _covariance(J):
    """SciPy's pseudo-inverse of J'J from the SVD of J (on the device; the n x n factors read)."""
    _, s, VT = svd(J, full_matrices=False)
    s, VT = read(s, VT)
    threshold = numpy.finfo(float).eps * max(J.shape) * s[0]
    keep = s > threshold
    s, VT = s[keep], VT[:keep.sum()]
    return numpy.dot(VT.T / s ** 2, VT)
