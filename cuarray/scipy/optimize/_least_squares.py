"""`least_squares`: SciPy's front end (argument checks, tolerances, scaling, bounds, losses) over
the Trust Region Reflective loop (`_lsq_trf`) and the Levenberg-Marquardt loop (`_lsq_lm`).
The residuals and Jacobian live on the device; the n parameters are a host vector the loops
steer with a few small reads an iteration (see those modules)."""

import warnings

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ._lsq_dogbox import dogbox
from ._lsq_host import EPS, in_bounds, make_strictly_feasible
from ._lsq_lm import lm
from ._lsq_problem import LOSSES, Problem
from ._lsq_trf import evaluate, trf
from ._minimize import _halt, _wrap_callback
from ._result import Bounds

__all__ = ["least_squares", "TERMINATION_MESSAGES"]

TERMINATION_MESSAGES = {
    -2: "Stopped because `callback` function raised `StopIteration` or returned `True`",
    -1: "Improper input parameters status returned from `leastsq`",
    0: "The maximum number of function evaluations is exceeded.",
    1: "`gtol` termination condition is satisfied.",
    2: "`ftol` termination condition is satisfied.",
    3: "`xtol` termination condition is satisfied.",
    4: "Both `ftol` and `xtol` termination conditions are satisfied.",
}


def _check_tolerance(ftol, xtol, gtol, method):
    def check(tol, name):
        if tol is None:
            return 0
        if tol < EPS:
            warnings.warn(f"Setting `{name}` below the machine epsilon ({EPS:.2e}) effectively disables the "
                          f"corresponding termination condition.", stacklevel=4)
        return tol

    ftol, xtol, gtol = check(ftol, "ftol"), check(xtol, "xtol"), check(gtol, "gtol")
    if method == "lm" and (ftol < EPS or xtol < EPS or gtol < EPS):
        raise ValueError(f"All tolerances must be higher than machine epsilon ({EPS:.2e}) for method 'lm'.")
    if ftol < EPS and xtol < EPS and gtol < EPS:
        raise ValueError(f"At least one of the tolerances must be higher than machine epsilon ({EPS:.2e}).")
    return ftol, xtol, gtol


def _check_x_scale(x_scale, x0, method):
    if x_scale is None:
        x_scale = "jac" if method == "lm" else 1.0
    if isinstance(x_scale, str) and x_scale == "jac":
        return x_scale
    try:
        x_scale = numpy.asarray(x_scale, dtype=float)
        valid = bool(numpy.all(numpy.isfinite(x_scale)) and numpy.all(x_scale > 0))
    except (ValueError, TypeError):
        valid = False
    if not valid:
        raise ValueError("`x_scale` must be 'jac' or array_like with positive numbers.")
    if x_scale.ndim == 0:
        x_scale = numpy.resize(x_scale, x0.shape)
    if x_scale.shape != x0.shape:
        raise ValueError("Inconsistent shapes between `x_scale` and `x0`.")
    return x_scale


def _host_vector(v, fn="scipy.optimize.least_squares"):
    # x0 and bounds are small parameters: a device array is read once, a host one taken as is
    if hasattr(v, "__cuda_array_interface__") or (hasattr(v, "get") and not isinstance(v, numpy.ndarray)):
        return numpy.asarray(to_host(as_parameter(v, fn)))
    return numpy.asarray(v)


def _bounds(bounds, n, fn="scipy.optimize.least_squares"):
    """(lb, ub) host vectors of a `Bounds` or a 2-tuple, a scalar bound repeated n times."""
    if isinstance(bounds, Bounds):
        lb, ub = bounds.lb, bounds.ub
    elif len(bounds) == 2:
        lb, ub = (numpy.asarray(_host_vector(b, fn), dtype=float) for b in bounds)
        lb = numpy.resize(lb, n) if lb.ndim == 0 else lb
        ub = numpy.resize(ub, n) if ub.ndim == 0 else ub
    else:
        raise ValueError("`bounds` must contain 2 elements.")
    return numpy.asarray(lb, dtype=float), numpy.asarray(ub, dtype=float)


def _check_arguments(method, jac, tr_solver, loss, verbose, max_nfev):
    if method not in ("trf", "dogbox", "lm"):
        raise ValueError("`method` must be 'trf', 'dogbox' or 'lm'.")
    if jac not in ("2-point", "3-point", "cs") and not callable(jac):
        raise ValueError("`jac` must be '2-point', '3-point', 'cs' or callable.")
    if tr_solver not in (None, "exact", "lsmr"):
        raise ValueError("`tr_solver` must be None, 'exact' or 'lsmr'.")
    if loss not in LOSSES and not callable(loss):
        raise ValueError(f"`loss` must be one of {dict.fromkeys(LOSSES).keys()} or a callable.")
    if method == "lm" and loss != "linear":
        raise ValueError("method='lm' supports only 'linear' loss function.")
    if verbose not in (0, 1, 2):
        raise ValueError("`verbose` must be in [0, 1, 2].")
    if max_nfev is not None and max_nfev <= 0:
        raise ValueError("`max_nfev` must be None or positive integer.")


def least_squares(fun, x0, jac="2-point", bounds=(-numpy.inf, numpy.inf), method="trf", ftol=1e-8, xtol=1e-8,
                  gtol=1e-8, x_scale=None, loss="linear", f_scale=1.0, diff_step=None, tr_solver=None,
                  tr_options=None, jac_sparsity=None, max_nfev=None, verbose=0, args=(), kwargs=None, callback=None,
                  workers=None):
    """See `scipy.optimize.least_squares`. Methods ``'trf'``, ``'dogbox'`` (with bounds) and ``'lm'``,
    the ``'exact'`` trust-region solver (the SVD of the Jacobian on the device) and ``'lsmr'``
    (`cuarray.sparse.linalg.lsmr` on the device Jacobian, ``tr_options`` passed to it as SciPy's),
    every built-in loss and a callable one. ``fun``, ``jac`` and a callable ``loss`` take and return cuarray arrays;
    the finite-difference Jacobian calls ``fun`` once per column (twice for ``'3-point'``). The
    returned ``x``, ``fun``, ``jac``, ``grad`` and ``active_mask`` are device arrays. Not yet:
    ``jac_sparsity``, sparse or LinearOperator Jacobians,
    ``verbose`` printing per iteration."""
    _check_arguments(method, jac, tr_solver, loss, verbose, max_nfev)
    x0 = _host_vector(x0)
    if numpy.iscomplexobj(x0):
        raise ValueError("`x0` must be real.")
    x0 = numpy.atleast_1d(x0).astype(float)
    if x0.ndim > 1:
        raise ValueError("`x0` must have at most 1 dimension.")
    lb, ub = _bounds(bounds, x0.shape[0])
    if method == "lm" and not numpy.all((lb == -numpy.inf) & (ub == numpy.inf)):
        raise ValueError("Method 'lm' doesn't support bounds.")
    if lb.shape != x0.shape or ub.shape != x0.shape:
        raise ValueError("Inconsistent shapes between bounds and `x0`.")
    if numpy.any(lb >= ub):
        raise ValueError("Each lower bound must be strictly less than each upper bound.")
    if not in_bounds(x0, lb, ub):
        raise ValueError("Initial guess is outside of provided bounds")
    x_scale = _check_x_scale(x_scale, x0, method)
    ftol, xtol, gtol = _check_tolerance(ftol, xtol, gtol, method)
    if jac_sparsity is not None:
        raise ValueError("`jac_sparsity` is not available in cuarray.scipy.optimize.least_squares yet")
    if method == "trf":
        x0 = make_strictly_feasible(x0, lb, ub)
    problem = Problem(fun, jac, args, kwargs, diff_step, lb, ub, loss, f_scale)
    f0, cost0, finite = evaluate(problem, x0)
    if f0.ndim != 1:
        raise ValueError(f"`fun` must return at most 1-d array_like. f0.shape: {f0.shape}")
    if not finite:
        raise ValueError("Residuals are not finite in the initial point.")
    m, n = f0.size, x0.size
    if method == "lm" and m < n:
        raise ValueError("Method 'lm' doesn't work when the number of residuals is less than the number of "
                         "variables.")
    problem.shape = (m, n)
    if method == "lm":
        if callback is not None:
            warnings.warn("Callback function specified, but not supported with `lm` method.", stacklevel=2)
        result, _ = lm(problem, x0, f0, cost0, ftol, xtol, gtol, max_nfev, x_scale)
        if not callable(jac):
            result.njev = None
    else:
        options = None
        if tr_solver == "lsmr":
            options = dict(tr_options or {})
            if method == "dogbox" and "regularize" in options:
                warnings.warn("The keyword 'regularize' in `tr_options` is not relevant for 'dogbox' method.",
                              stacklevel=2)
                del options["regularize"]
        loop = trf if method == "trf" else dogbox
        result = loop(problem, x0, f0, cost0, lb, ub, ftol, xtol, gtol, max_nfev, x_scale, _wrap_callback(callback),
                      _halt, options)
    result.message = TERMINATION_MESSAGES[result.status]
    result.success = result.status > 0
    if verbose >= 1:
        print(result.message)
        print(f"Function evaluations {result.nfev}, initial cost {cost0:.4e}, final cost {result.cost:.4e}, "
              f"first-order optimality {result.optimality:.2e}.")
    return result
