"""`minimize` with SciPy's quasi-Newton (BFGS) and nonlinear conjugate-gradient (CG) methods,
ported from `scipy.optimize._optimize` (Nocedal & Wright, Numerical Optimization, 2nd ed.,
algorithms 6.1 and 5.4 with Polak-Ribiere+ and Gilbert-Nocedal's descent test). The iterate,
gradient, direction and BFGS's inverse Hessian stay on the device.

Host reads per iteration: the line search's scalars (see `_linesearch`) and one stacked read of
the convergence scalars (gradient norm, y.s, |p|, |x|) that SciPy's loop tests."""

import functools
import inspect
import warnings

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.matrices import eye
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._math.misc import absolute
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_, min as min_
from ...linalg._products import dot, outer, vdot
from ._lbfgsb import minimize_lbfgsb
from ._linesearch import LineSearchError, line_search_wolfe12
from ._objective import FD_METHODS, Objective
from ._neldermead import minimize_neldermead
from ._newtoncg import minimize_newtoncg
from ._powell import minimize_powell
from ._result import Bounds, OptimizeResult
from ._slsqp import Reduced, fixed_by_bounds, minimize_slsqp, old_constraints
from ._tnc import minimize_tnc
from ._trustexact import exact_solve
from ._trustkrylov import krylov_solve
from ._trustregion import minimize_trust_region, steihaug_solve

__all__ = ["minimize", "SUPPORTED"]

SUPPORTED = ("BFGS", "CG", "L-BFGS-B", "Nelder-Mead", "Newton-CG", "Powell", "SLSQP", "TNC", "trust-ncg",
             "trust-krylov", "trust-exact")
_TRUST = ("trust-ncg", "trust-krylov", "trust-exact")
_epsilon = numpy.sqrt(numpy.finfo(float).eps)
_MESSAGES = {"success": "Optimization terminated successfully.",
             "maxiter": "Maximum number of iterations has been exceeded.",
             "pr_loss": "Desired error not necessarily achieved due to precision loss.",
             "nan": "NaN result encountered."}
_SCIPY_METHODS = ("nelder-mead", "powell", "cg", "bfgs", "newton-cg", "l-bfgs-b", "tnc", "cobyla", "cobyqa", "slsqp",
                  "trust-constr", "dogleg", "trust-ncg", "trust-exact", "trust-krylov")


def vecnorm(x, ord=2):  # noqa: A002
    if ord == numpy.inf:
        return max_(absolute(x))
    if ord == -numpy.inf:
        return min_(absolute(x))
    return sum_(absolute(x) ** ord) ** (1.0 / ord)


def _wrap_callback(callback):
    if callback is None:
        return None
    try:
        params = set(inspect.signature(callback).parameters)
    except (TypeError, ValueError):
        params = set()
    if params == {"intermediate_result"}:
        def wrapped(res):
            return callback(intermediate_result=res)
    else:
        def wrapped(res):
            return callback(res.x.copy())
    wrapped.stop_iteration = False
    return wrapped


def _halt(callback, res):
    if callback is None:
        return False
    try:
        callback(res)
    except StopIteration:
        callback.stop_iteration = True
        return True
    return False


def _check_unknown(unknown):
    if unknown:
        from scipy.optimize import OptimizeWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

        warnings.warn("Unknown solver options: " + ", ".join(map(str, unknown.keys())), OptimizeWarning,
                      stacklevel=4)


def minimize(fun, x0, args=(), method=None, jac=None, hess=None, hessp=None, bounds=None, constraints=(), tol=None,
             callback=None, options=None):
    """See `scipy.optimize.minimize`. Methods ``'BFGS'``, ``'CG'``, ``'Nelder-Mead'`` (with
    bounds), ``'L-BFGS-B'`` (bounds; the generalized Cauchy point found by sorting the breakpoints
    on the device, so iteration counts may differ from SciPy's), ``'Newton-CG'`` (``hess``/``hessp`` callables or
    neither), ``'Powell'`` (bounds; its scalar line searches are host loops, one read per evaluation; ``direc``
    comes back on the device), ``'SLSQP'`` (bounds and constraints; its small QP subproblem solved on the host),
    ``'trust-ncg'``, ``'trust-krylov'`` (``hess``/``hessp`` callables), ``'trust-exact'`` (``hess``) and a callable; ``fun`` (and ``jac``) take and return cuarray arrays; ``x0`` is a device array (a host list or NumPy
    array is copied as a parameter). Finite-difference gradients run ``fun`` on the device. The
    returned ``x``, ``jac`` and ``hess_inv`` are device arrays."""
    x0 = as_parameter(x0, "scipy.optimize.minimize")
    if x0.ndim == 0:
        x0 = x0.reshape(1)
    if x0.ndim != 1:
        raise ValueError("'x0' must only have one dimension.")
    if x0.dtype.kind in "iub":
        x0 = x0.astype(numpy.float64)
    if not isinstance(args, tuple):
        args = (args,)
    if method is None:
        method = "SLSQP" if constraints else ("L-BFGS-B" if bounds is not None else "BFGS")
    meth = "_custom" if callable(method) else method.lower()
    options = dict(options or {})
    if hess is not None and meth not in ("newton-cg", "dogleg", "trust-ncg", "trust-constr", "trust-krylov",
                                         "trust-exact", "_custom"):
        warnings.warn(f"Method {method} does not use Hessian information (hess).", RuntimeWarning, stacklevel=2)
    if hessp is not None and meth not in ("newton-cg", "trust-ncg", "trust-constr", "trust-krylov", "_custom"):
        warnings.warn(f"Method {method} does not use Hessian-vector product information (hessp).",
                      RuntimeWarning, stacklevel=2)
    if meth in ("nelder-mead", "powell") and (callable(jac) or jac is True or (isinstance(jac, str) and bool(jac))):
        warnings.warn(f"Method {method} does not use gradient information (jac).", RuntimeWarning, stacklevel=2)
    if meth in ("bfgs", "cg", "nelder-mead", "newton-cg", "l-bfgs-b", "powell", "tnc") + _TRUST and constraints:
        warnings.warn(f"Method {method} cannot handle constraints.", RuntimeWarning, stacklevel=2)
    if meth in ("bfgs", "cg", "newton-cg") + _TRUST and bounds is not None:
        warnings.warn(f"Method {method} cannot handle bounds.", RuntimeWarning, stacklevel=2)
    if meth in ("l-bfgs-b", "slsqp", "tnc") and options.get("return_all", False):
        warnings.warn(f"Method {method} does not support the return_all option.", RuntimeWarning, stacklevel=2)
    if not (callable(jac) or jac is True or (jac in FD_METHODS and meth in ("bfgs", "cg", "l-bfgs-b", "slsqp", "tnc"))):
        jac = None
    if tol is not None and meth in ("l-bfgs-b", "slsqp", "tnc"):
        options.setdefault("ftol", tol)
    if tol is not None and meth in ("bfgs", "cg", "l-bfgs-b", "tnc") + _TRUST:
        options.setdefault("gtol", tol)
    if tol is not None and meth in ("newton-cg", "powell", "tnc"):
        options.setdefault("xtol", tol)
    if tol is not None and meth == "powell":
        options.setdefault("ftol", tol)
    if tol is not None and meth == "nelder-mead":
        options.setdefault("xatol", tol)
        options.setdefault("fatol", tol)
    if tol is not None and meth == "_custom":
        options.setdefault("tol", tol)
    if meth == "_custom":
        return method(fun, x0, args=args, jac=jac, hess=hess, hessp=hessp, bounds=bounds, constraints=constraints,
                      callback=callback, **options)
    if meth not in ("bfgs", "cg", "nelder-mead", "newton-cg", "l-bfgs-b", "powell", "slsqp", "tnc") + _TRUST:
        if meth in _SCIPY_METHODS:
            raise ValueError(f"Method {method} is not available in cuarray.scipy.optimize.minimize yet; "
                             f"supported methods: {', '.join(SUPPORTED)} (or a callable)")
        raise ValueError(f"Unknown solver {method}")
    if meth == "slsqp":
        constraints = _old_constraints(constraints, x0)
    if bounds is not None:
        bounds = _new_bounds(bounds, x0)
        if meth == "slsqp" and numpy.all(bounds.lb == bounds.ub):
            return fixed_by_bounds(fun, args, bounds, constraints)
        if meth in ("l-bfgs-b", "tnc") and numpy.all(bounds.lb == bounds.ub):
            # SciPy's answer when the bounds fix every variable: x = lb, one evaluation
            x = as_parameter(bounds.lb.astype(numpy.float64), "scipy.optimize.minimize")
            return OptimizeResult(x=x, fun=fun(x, *args), success=True, nfev=1, njev=0, nhev=0,
                                  message="All independent variables were fixed by bounds.")
    if meth == "tnc":  # SciPy calls TNC's callback(x) itself, unwrapped
        _check_unknown({k: v for k, v in options.items() if k not in _TNC_OPTIONS})
        return _tnc(fun, x0, args, jac, bounds, callback, {k: v for k, v in options.items() if k in _TNC_OPTIONS})
    callback = _wrap_callback(callback)
    if meth in _TRUST:
        return _trust(meth, fun, x0, args, jac, hess, hessp, callback, options)
    if meth == "l-bfgs-b":
        _check_unknown({k: v for k, v in options.items() if k not in _LBFGSB_OPTIONS})
        res = minimize_lbfgsb(fun, x0, args, jac, bounds, callback, _halt,
                              **{k: v for k, v in options.items() if k in _LBFGSB_OPTIONS})
    elif meth == "slsqp":
        _check_unknown({k: v for k, v in options.items() if k not in _SLSQP_OPTIONS})
        res = minimize_slsqp(fun, x0, args, jac, bounds, constraints, callback, _halt,
                             **{k: v for k, v in options.items() if k in _SLSQP_OPTIONS})
    elif meth == "nelder-mead":
        _check_unknown({k: v for k, v in options.items() if k not in _NM_OPTIONS})
        res = minimize_neldermead(fun, x0, args, callback, _halt, bounds=bounds, **options)
    elif meth == "powell":
        _check_unknown({k: v for k, v in options.items() if k not in _POWELL_OPTIONS})
        res = minimize_powell(fun, x0, args, callback, _halt, bounds=bounds,
                              **{k: v for k, v in options.items() if k in _POWELL_OPTIONS})
    elif meth == "newton-cg":
        _check_unknown({k: v for k, v in options.items() if k not in _NCG_OPTIONS})
        res = minimize_newtoncg(fun, x0.astype(x0.dtype if x0.dtype.kind == "f" else numpy.float64), args, jac,
                                hess, hessp, callback, _halt, **options)
    else:
        solver = _minimize_bfgs if meth == "bfgs" else _minimize_cg
        res = solver(fun, x0, args, jac, callback, **options)
    if getattr(callback, "stop_iteration", False):
        res.success, res.status, res.message = False, 99, "`callback` raised `StopIteration`."
    return res


_TRUST_OPTIONS = ("initial_trust_radius", "max_trust_radius", "eta", "gtol", "maxiter", "disp", "return_all",
                  "inexact", "workers", "subproblem_maxiter")


def _trust(meth, fun, x0, args, jac, hess, hessp, callback, options):
    """SciPy's `_minimize_trust_ncg` / `_minimize_trust_krylov` / `_minimize_trustregion_exact`: their
    checks, then the loop."""
    if meth in ("trust-ncg", "trust-krylov"):
        # SciPy's texts: Newton-CG's, and trust-krylov's (which names the exact method)
        what = "Newton-CG" if meth == "trust-ncg" else "Krylov"
        if jac is None:
            raise ValueError("Jacobian is required for Newton-CG trust-region minimization" if meth == "trust-ncg"
                             else "Jacobian is required for trust region exact minimization.")
        if hess is None and hessp is None:
            raise ValueError("Either the Hessian or the Hessian-vector product is required for {} "
                             "trust-region minimization".format(what))
        if not callable(hess) and not callable(hessp):
            raise ValueError("hess={!r} (finite-difference or quasi-Newton Hessians) is not supported by cuarray's "
                             "{}; give hess or hessp as a callable".format(hess, meth))
        subproblem = steihaug_solve if meth == "trust-ncg" else functools.partial(
            krylov_solve, inexact=bool(options.get("inexact", True)))
    else:
        if jac is None:
            raise ValueError("Jacobian is required for trust region exact minimization.")
        if not callable(hess):
            raise ValueError("Hessian matrix is required for trust region exact minimization.")
        hessp = None
        subproblem = exact_solve
    _check_unknown({k: v for k, v in options.items() if k not in _TRUST_OPTIONS})
    options = {k: v for k, v in options.items() if k in _TRUST_OPTIONS}
    res = minimize_trust_region(fun, x0, args, jac, hess, hessp, callback, _halt, subproblem,
                                hessian_at_proposal=meth == "trust-exact", **options)
    if getattr(callback, "stop_iteration", False):
        res.success, res.status, res.message = False, 99, "`callback` raised `StopIteration`."
    return res


_TNC_OPTIONS = ("eps", "scale", "offset", "mesg_num", "maxCGit", "eta", "stepmx", "accuracy", "minfev", "ftol", "xtol",
                "gtol", "rescale", "disp", "finite_diff_rel_step", "maxfun", "workers")


def _tnc(fun, x0, args, jac, bounds, callback, options):
    """TNC without the variables that the bounds fix (SciPy's `minimize` always takes them out for
    TNC): they come back in x, with NaN in jac."""
    fixed = None if bounds is None else numpy.asarray(bounds.lb == bounds.ub)
    if fixed is None or not fixed.any():
        return minimize_tnc(fun, x0, args, jac, bounds, callback, **options)
    red = Reduced(fixed, bounds)
    res = minimize_tnc(red.fun(fun, jac is True), take(x0, red.free_d), args,
                       red.grad(jac) if callable(jac) else jac, red.bounds,
                       None if callback is None else (lambda x: callback(red.full(x))), **options)
    res.x, res.jac = red.full(res.x), red.full(res.jac, numpy.nan)
    return res


_LBFGSB_OPTIONS = ("maxcor", "ftol", "gtol", "eps", "maxfun", "maxiter", "iprint", "disp", "maxls",
                   "finite_diff_rel_step", "workers")
_SLSQP_OPTIONS = ("maxiter", "ftol", "iprint", "disp", "eps", "finite_diff_rel_step", "workers")
_NCG_OPTIONS = ("xtol", "eps", "maxiter", "disp", "return_all", "c1", "c2", "workers")
_POWELL_OPTIONS = ("xtol", "ftol", "maxiter", "maxfev", "disp", "direc", "return_all")
_NM_OPTIONS = ("maxiter", "maxfev", "disp", "return_all", "initial_simplex", "xatol", "fatol", "adaptive")


def _old_constraints(constraints, x0):
    """SciPy's `standardize_constraints` for SLSQP: a list of dicts, the new-style constraint
    objects converted in place (their extra dict appended at the end)."""
    if constraints is None:
        constraints = []
    elif isinstance(constraints, dict) or hasattr(constraints, "lb"):
        constraints = [constraints]
    else:
        constraints = list(constraints)
    for i, con in enumerate(list(constraints)):
        if not isinstance(con, dict) and hasattr(con, "lb"):
            old = old_constraints(con, x0)
            constraints[i] = old[0]
            constraints.extend(old[1:])
    return constraints


def _new_bounds(bounds, x0):
    """SciPy's `standardize_bounds` to a `Bounds` and `_validate_bounds` (host arrays)."""
    if not isinstance(bounds, Bounds) and hasattr(bounds, "lb") and hasattr(bounds, "ub"):
        # scipy.optimize.Bounds, which SciPy users pass (ours is a class of its own)
        bounds = Bounds(bounds.lb, bounds.ub, getattr(bounds, "keep_feasible", False))
    elif not isinstance(bounds, Bounds):
        lb, ub = zip(*bounds)
        bounds = Bounds([-numpy.inf if v is None else float(v) for v in lb],
                        [numpy.inf if v is None else float(v) for v in ub])
    if numpy.any(bounds.ub < bounds.lb):
        raise ValueError("An upper bound is less than the corresponding lower bound.")
    try:
        bounds.lb = numpy.broadcast_to(bounds.lb, x0.shape)
        bounds.ub = numpy.broadcast_to(bounds.ub, x0.shape)
    except Exception as exc:
        raise ValueError("The number of bounds is not compatible with the length of `x0`.") from exc
    return bounds


def _finish(obj, k, maxiter, warnflag, gnorm, fval, xk, gfk, **extra):
    if warnflag == 2:
        msg = _MESSAGES["pr_loss"]
    elif k >= maxiter:
        warnflag, msg = 1, _MESSAGES["maxiter"]
    # the final read: whether x holds a NaN (SciPy's last test)
    elif numpy.isnan(gnorm) or numpy.isnan(fval) or bool(to_host(any_(isnan(xk)))):
        warnflag, msg = 3, _MESSAGES["nan"]
    else:
        msg = _MESSAGES["success"]
    return OptimizeResult(fun=fval, jac=gfk, nfev=obj.nfev, njev=obj.ngev, status=warnflag,
                          success=(warnflag == 0), message=msg, x=xk, nit=k, **extra)


def _start(fun, x0, args, jac, eps, finite_diff_rel_step, maxiter):
    x0 = x0.astype(x0.dtype if x0.dtype.kind == "f" else numpy.float64)
    obj = Objective(fun, jac, args, eps, finite_diff_rel_step)
    f0 = obj.fun(x0)
    g0 = obj.grad(x0)
    # the first read: f(x0) and |g0| to start the step guess and the convergence test
    f0h, g2 = (float(v) for v in to_host(stack([f0.astype(g0.dtype), sum_(g0 * g0)])))
    return x0, obj, f0h, g0, f0h + g2 ** 0.5 / 2, (len(x0) * 200 if maxiter is None else maxiter)


def _minimize_bfgs(fun, x0, args=(), jac=None, callback=None, gtol=1e-5, norm=numpy.inf, eps=_epsilon, maxiter=None,
                   disp=False, return_all=False, finite_diff_rel_step=None, xrtol=0, c1=1e-4, c2=0.9,
                   hess_inv0=None, workers=None, **unknown):
    _check_unknown(unknown)
    xk, obj, old_fval, gfk, old_old_fval, maxiter = _start(fun, x0, args, jac, eps, finite_diff_rel_step, maxiter)
    n = len(xk)
    eye_n = eye(n, dtype=xk.dtype)
    Hk = eye_n if hess_inv0 is None else as_parameter(hess_inv0, "scipy.optimize.minimize")
    allvecs = [xk] if return_all else None
    k, warnflag = 0, 0
    gnorm = float(to_host(vecnorm(gfk, norm)))
    while gnorm > gtol and k < maxiter:
        pk = -dot(Hk, gfk)
        try:
            alpha_k, old_fval, old_old_fval, gfkp1, xkp1 = line_search_wolfe12(
                obj, xk, pk, gfk, old_fval, old_old_fval, c1=c1, c2=c2, amin=1e-100, amax=1e100, amax2=1e100)
        except LineSearchError:
            warnflag = 2
            break
        sk = alpha_k * pk
        xk = xkp1  # the line search's point: xk + alpha_k pk, as SciPy's xk + sk
        if return_all:
            allvecs.append(xk)
        if gfkp1 is None:
            gfkp1 = obj.grad(xk)
        yk = gfkp1 - gfk
        gfk = gfkp1
        k += 1
        if _halt(callback, OptimizeResult(x=xk, fun=old_fval)):
            break
        # the iteration's read: the convergence scalars, together
        gnorm, rhok_inv, pnorm, xnorm = (float(v) for v in to_host(stack(
            [vecnorm(gfk, norm), vdot(yk, sk), vecnorm(pk), vecnorm(xk)])))
        if gnorm <= gtol:
            break
        if alpha_k * pnorm <= xrtol * (xrtol + xnorm):
            break
        if not numpy.isfinite(old_fval):
            warnflag = 2
            break
        rhok = 1000.0 if rhok_inv == 0.0 else 1.0 / rhok_inv
        # SciPy's product form (I - r s y')H(I - r y s') + r s s': two n^3 matrix products (cuBLAS), kept
        # rather than the O(n^2) rank-two expansion so that the rounding, and so the stopping step, is SciPy's
        a1 = eye_n - outer(sk, yk) * rhok
        a2 = eye_n - outer(yk, sk) * rhok
        Hk = dot(a1, dot(Hk, a2)) + rhok * outer(sk, sk)
    res = _finish(obj, k, maxiter, warnflag, gnorm, old_fval, xk, gfk, hess_inv=Hk)
    if return_all:
        res["allvecs"] = allvecs
    return res


def _minimize_cg(fun, x0, args=(), jac=None, callback=None, gtol=1e-5, norm=numpy.inf, eps=_epsilon, maxiter=None,
                 disp=False, return_all=False, finite_diff_rel_step=None, c1=1e-4, c2=0.4, workers=None, **unknown):
    _check_unknown(unknown)
    xk, obj, old_fval, gfk, old_old_fval, maxiter = _start(fun, x0, args, jac, eps, finite_diff_rel_step, maxiter)
    allvecs = [xk] if return_all else None
    k, warnflag, sigma_3 = 0, 0, 0.01
    pk = -gfk
    gnorm = float(to_host(vecnorm(gfk, norm)))
    while gnorm > gtol and k < maxiter:
        deltak = vdot(gfk, gfk)
        cached = [None]

        def prp_step(alpha, gfkp1=None, xk=xk, pk=pk, gfk=gfk, deltak=deltak):
            alpha = float(alpha)  # a Python float keeps a float32 iterate float32
            xkp1 = xk + alpha * pk
            if gfkp1 is None:
                gfkp1 = obj.grad(xkp1)
            yk = gfkp1 - gfk
            beta = vdot(yk, gfkp1) / deltak
            # one read: beta's sign (Polak-Ribiere+ clips it at 0) and the new gradient's norm
            beta_h, gn = (float(v) for v in to_host(stack([beta, vecnorm(gfkp1, norm)])))
            pkp1 = -gfkp1 + max(0.0, beta_h) * pk
            return alpha, xkp1, pkp1, gfkp1, gn

        def descent_condition(alpha, xkp1, fp1, gfkp1):
            cached[:] = prp_step(alpha, gfkp1)
            _, _, p1, g1, gn = cached
            if gn <= gtol:
                return True
            return float(to_host(vdot(p1, g1) + sigma_3 * vdot(g1, g1))) <= 0  # one read: the descent test

        try:
            alpha_k, old_fval, old_old_fval, gfkp1, _ = line_search_wolfe12(
                obj, xk, pk, gfk, old_fval, old_old_fval, c1=c1, c2=c2, amin=1e-100, amax=1e100,
                extra_condition=descent_condition, amax2=1e100)
        except LineSearchError:
            warnflag = 2
            break
        if cached[0] is not None and alpha_k == cached[0]:
            alpha_k, xk, pk, gfk, gnorm = cached
        else:
            alpha_k, xk, pk, gfk, gnorm = prp_step(alpha_k, gfkp1)
        if return_all:
            allvecs.append(xk)
        k += 1
        if _halt(callback, OptimizeResult(x=xk, fun=old_fval)):
            break
    res = _finish(obj, k, maxiter, warnflag, gnorm, old_fval, xk, gfk)
    if return_all:
        res["allvecs"] = allvecs
    return res
