"""`newton_krylov` and `root(method='krylov')`: SciPy's inexact Newton loop (scipy/optimize/_nonlin.py:
nonlin_solve, KrylovJacobian and its line searches; C. T. Kelley, Iterative Methods for Linear and
Nonlinear Equations, SIAM 1995, and Solving Nonlinear Equations with Newton's Method, SIAM 2003;
D. A. Knoll and D. E. Keyes, J. Comp. Phys. 193, 2004). Each outer step solves J dx = -F(x) to the
forcing tolerance of Eisenstat and Walker's second choice by a Krylov method of
`cuarray.sparse.linalg` (LGMRES by default: Baker, Jessup and Manteuffel, SIAM J. Matrix Anal. Appl.
26, 2005, its outer vectors kept across Newton steps), J v being the forward difference
(F(x + w v / |v|) - F(x)) |v| / w; then a backtracking (Armijo) or Wolfe search on |F|^2 whose
scalar searches are SciPy's host routines.

The iterate, residuals and J v products stay on the device. Host reads per outer step: the
termination test's norms (with the 2-norm of F, one read), the step's norms (one read, with the
finiteness flag of the last J v), one per line-search trial; inside the inner solver one per J v
product (|v|, which decides the difference step and whether F is called at all, as SciPy's) besides
the solver's own reads."""

import sys
import warnings
from difflib import get_close_matches
from inspect import signature

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full_like
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._math.extrema import maximum
from ..._math.misc import absolute
from ..._statistics.order import max as max_
from ...linalg._norms import norm
from ...sparse.linalg._cgs import cgs
from ...sparse.linalg._gcrotmk import gcrotmk
from ...sparse.linalg._interface import LinearOperator
from ...sparse.linalg._iterative import bicgstab, gmres
from ...sparse.linalg._lgmres import lgmres
from ...sparse.linalg._minres import minres
from ...sparse.linalg._tfqmr import tfqmr
from ._result import OptimizeResult

__all__ = ["NoConvergence", "newton_krylov", "nonlin_solve", "root_nonlin", "NONLIN_OPTIONS"]

_NAME = "scipy.optimize.newton_krylov"
NONLIN_OPTIONS = ("nit", "disp", "maxiter", "ftol", "fatol", "xtol", "xatol", "tol_norm", "line_search",
                  "jac_options")


class NoConvergence(Exception):
    """See `scipy.optimize.NoConvergence`. Its argument is the last iterate, on the device."""


def _as_inexact(x):
    return x if x.dtype.kind in "fc" else x.astype(numpy.float64)


def _read(values):
    """One host read of a few device scalars, as float64."""
    return [float(v) for v in to_host(stack([v.astype(numpy.float64) for v in values]))]


class _Jacobian:
    """What nonlin_solve asks of a Jacobian approximation besides setup/solve/update: a device flag
    to read with the step's norms (None: nothing to check) and the error it stands for."""

    pending = None

    def take_pending(self):
        flag, self.pending = self.pending, None
        return flag

    def raise_if(self, bad):
        if bad:
            raise ValueError("Function returned non-finite results")

    def nonfinite_step(self, f):
        """The step again where the read flag of `solve` was set (an approximation may restart)."""
        self.raise_if(True)


class _Krylov(_Jacobian):
    """SciPy's KrylovJacobian: the inner solver and its keywords, the J v products by differences."""

    def __init__(self, rdiff=None, method="lgmres", inner_maxiter=20, inner_M=None, outer_k=10, **kw):
        self.preconditioner = inner_M
        self.rdiff = rdiff
        solvers = {"bicgstab": bicgstab, "gmres": gmres, "lgmres": lgmres, "cgs": cgs, "minres": minres,
                   "tfqmr": tfqmr}
        self.method = solvers.get(method, method)
        self.method_kw = {"maxiter": inner_maxiter, "M": self.preconditioner}
        if self.method is gmres:  # Newton's steps stand in for GMRES's restarts
            self.method_kw["restart"] = inner_maxiter
            self.method_kw["maxiter"] = 1
            self.method_kw.setdefault("atol", 0)
        elif self.method in (gcrotmk, bicgstab, cgs):
            self.method_kw.setdefault("atol", 0)
        elif self.method is lgmres:
            # one LGMRES cycle a Newton step; its outer vectors carry over, their products with the
            # old Jacobian do not (the Jacobian may change much in a step)
            self.method_kw.update(outer_k=outer_k, maxiter=1)
            self.method_kw.setdefault("outer_v", [])
            self.method_kw.setdefault("prepend_outer_v", True)
            self.method_kw.setdefault("store_outer_Av", False)
            self.method_kw.setdefault("atol", 0)
        valid = [k for k in signature(self.method).parameters if k not in ("self", "args", "kwargs")]
        for key, value in kw.items():
            if not key.startswith("inner_"):
                raise ValueError(f"Unknown parameter {key}")
            if key[6:] not in valid:
                close = get_close_matches(key[6:], valid, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                warnings.warn(f"Option '{key}' is invalid for the inner method: {method}. It will be ignored."
                              "Please check inner method documentation for valid options." + hint,
                              UserWarning, stacklevel=4)
                continue
            self.method_kw[key[6:]] = value

    def setup(self, x, f, func):
        self.func = func
        self.op = LinearOperator((f.size, x.size), matvec=self.matvec, dtype=f.dtype)
        if self.rdiff is None:
            self.rdiff = float(numpy.finfo(x.dtype).eps) ** 0.5
        self.update(x, f, setup=func)

    def update(self, x, f, setup=None):
        self.x0, self.f0 = x, f
        # the difference step w = rdiff max(1, |x|_max) / max(1, |f|_max), kept on the device
        self.omega = self.rdiff * maximum(max_(absolute(x)), 1) / maximum(max_(absolute(f)), 1)
        p = self.preconditioner
        if setup is not None and hasattr(p, "setup"):
            p.setup(x, f, setup)
        elif setup is None and hasattr(p, "update"):
            p.update(x, f)

    def matvec(self, v):
        flag = self.take_pending()
        nv = norm(v)
        # |v| decides the difference step and whether F is called; read with the last product's flag
        vals = _read([nv] if flag is None else [nv, flag])
        self.raise_if(len(vals) > 1 and vals[1])
        if vals[0] == 0:
            return 0 * v
        sc = self.omega / vals[0]
        r = (self.func(self.x0 + sc * v) - self.f0) / sc
        self.pending = any_(~isfinite(r)) & all_(isfinite(v))  # read with the next read
        return r

    def solve(self, rhs, tol=0):
        if "rtol" in self.method_kw:
            sol, _ = self.method(self.op, rhs, **self.method_kw)
        else:
            sol, _ = self.method(self.op, rhs, rtol=tol, **self.method_kw)
        return sol


class _Termination:
    """SciPy's TerminationCondition on host norms: |F| <= f_tol and |F| <= f_rtol |F0|, and
    |dx| <= x_tol and |dx| <= x_rtol |x|."""

    def __init__(self, f_tol=None, f_rtol=None, x_tol=None, x_rtol=None, iter=None):  # noqa: A002
        self.f_tol = numpy.finfo(numpy.float64).eps ** (1. / 3) if f_tol is None else f_tol
        self.f_rtol = numpy.inf if f_rtol is None else f_rtol
        self.x_tol = numpy.inf if x_tol is None else x_tol
        self.x_rtol = numpy.inf if x_rtol is None else x_rtol
        self.iter = iter
        self.f0_norm = None
        self.iteration = 0

    def check(self, f_norm, x_norm, dx_norm):
        self.iteration += 1
        if self.f0_norm is None:
            self.f0_norm = f_norm
        if f_norm == 0:
            return 1
        if self.iter is not None:
            return 2 * (self.iteration > self.iter)
        return int((f_norm <= self.f_tol and f_norm / self.f_rtol <= self.f0_norm)
                   and (dx_norm <= self.x_tol and dx_norm / self.x_rtol <= x_norm))


def _norms(tol_norm, Fx, x, dx, pending):
    """One read: the termination norms of F, x, dx (SciPy's max-norm, or the caller's `tol_norm`),
    the 2-norm of F, and the last J v's finiteness flag (or 0)."""
    if tol_norm is None:
        vals = [max_(absolute(Fx)), max_(absolute(x)), max_(absolute(dx))]
    else:
        vals = [as_array(tol_norm(v), _NAME) for v in (Fx, x, dx)]
    out = _read(vals + [norm(Fx)] + ([] if pending is None else [pending]))
    return out[:4], len(out) > 4 and out[4]


def _line_search(func, x, Fx, dx, search_type, phi0, s_norm, rdiff=1e-8, smin=1e-2):
    """SciPy's _nonlin_line_search on phi(s) = |F(x + s dx)|^2 (inf where F is not finite): one host
    read per trial step."""
    from scipy.optimize._linesearch import scalar_search_armijo, scalar_search_wolfe1  # noqa: PLC0415

    last = {"s": 0, "phi": phi0, "Fx": Fx}

    def phi(s, store=True):
        s = float(s)  # SciPy's NumPy scalar steps; as Python floats they keep a float32 iterate float32
        if s == last["s"]:
            return last["phi"]
        v = func(x + s * dx)
        n, finite = _read([norm(v), all_(isfinite(v))])
        p = n ** 2 if finite else numpy.inf
        if store:
            last.update(s=s, phi=p, Fx=v)
        return p

    def derphi(s):
        ds = (abs(s) + s_norm + 1) * rdiff
        return (phi(s + ds, store=False) - phi(s)) / ds

    if search_type == "wolfe":
        s, _, _ = scalar_search_wolfe1(phi, derphi, last["phi"], xtol=1e-2, amin=smin)
    else:
        s, _ = scalar_search_armijo(phi, last["phi"], -last["phi"], amin=smin)
    s = 1.0 if s is None else float(s)  # no step found: SciPy takes the full Newton step
    x = x + s * dx
    return s, x, (last["Fx"] if s == last["s"] else func(x))


def nonlin_solve(F, x0, jacobian, iter=None, verbose=False, maxiter=None, f_tol=None, f_rtol=None,  # noqa: A002
                 x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo", callback=None, full_output=False,
                 raise_exception=True):
    """SciPy's nonlin_solve with the iterate on the device (see the module's docstring)."""
    condition = _Termination(f_tol, f_rtol, x_tol, x_rtol, iter)
    x0 = _as_inexact(as_parameter(x0, _NAME))
    shape = x0.shape

    def func(z):
        return _as_inexact(as_array(F(z.reshape(shape)), _NAME)).reshape(-1)

    x = x0.reshape(-1)
    dx = full_like(x, numpy.inf)
    Fx = func(x)
    jacobian.setup(x, Fx, func)
    if maxiter is None:
        maxiter = iter + 1 if iter is not None else 100 * (x.size + 1)
    if line_search is True:
        line_search = "armijo"
    elif line_search is False:
        line_search = None
    if line_search not in (None, "armijo", "wolfe"):
        raise ValueError("Invalid line search")
    gamma, eta_max, eta_threshold, eta = 0.9, 0.9999, 0.1, 1e-3
    (f_n, x_n, dx_n, Fx_norm), _ = _norms(tol_norm, Fx, x, dx, None)
    status = 0
    for n in range(maxiter):
        status = condition.check(f_n, x_n, dx_n)
        if status:
            break
        dx = -jacobian.solve(Fx, tol=min(eta, eta * Fx_norm))  # the forcing term as the inner rtol
        flag = jacobian.take_pending()
        vals = _read([norm(dx), norm(x)] + ([] if flag is None else [flag]))  # the step's read
        if len(vals) > 2 and vals[2]:
            dx = -jacobian.nonfinite_step(Fx)
            vals = _read([norm(dx), norm(x)])
        if vals[0] == 0:
            raise ValueError("Jacobian inversion yielded zero vector. This indicates a bug in the Jacobian "
                             "approximation.")
        if line_search:
            s, x, Fx = _line_search(func, x, Fx, dx, line_search, Fx_norm ** 2, vals[1] / vals[0])
        else:
            s, x = 1.0, x + dx
            Fx = func(x)
        jacobian.update(x, Fx)
        if callback:
            callback(x, Fx)
        (f_n, x_n, dx_n, Fx_norm_new), bad = _norms(tol_norm, Fx, x, dx, jacobian.take_pending())
        jacobian.raise_if(bad)
        # Eisenstat and Walker's forcing term, safeguarded as SciPy's
        eta_a = gamma * Fx_norm_new ** 2 / Fx_norm ** 2
        eta = min(eta_max, eta_a) if gamma * eta ** 2 < eta_threshold else min(eta_max, max(eta_a, gamma * eta ** 2))
        Fx_norm = Fx_norm_new
        if verbose:
            sys.stdout.write(f"{n}:  |F(x)| = {f_n:g}; step {s:g}\n")
            sys.stdout.flush()
    else:
        if raise_exception:
            raise NoConvergence(x.reshape(shape))
        status = 2
    if not full_output:
        return x.reshape(shape)
    message = {1: "A solution was found at the specified tolerance.",
               2: "The maximum number of iterations allowed has been reached."}[status]
    return x.reshape(shape), {"nit": condition.iteration, "fun": Fx, "status": status, "success": status == 1,
                              "message": message}


def newton_krylov(F, xin, iter=None, rdiff=None, method="lgmres", inner_maxiter=20, inner_M=None,  # noqa: A002
                  outer_k=10, verbose=False, maxiter=None, f_tol=None, f_rtol=None, x_tol=None, x_rtol=None,
                  tol_norm=None, line_search="armijo", callback=None, **kw):
    """See `scipy.optimize.newton_krylov`. ``F`` takes and returns cuarray arrays; the string
    `method` names a solver of `cuarray.sparse.linalg` (a callable is called as SciPy's, with a
    cuarray LinearOperator), and `inner_M` is a cuarray LinearOperator. The solution comes back
    on the device in ``xin``'s dtype (SciPy's turns a float32 iterate into float64 after a
    shortened line-search step);
    NoConvergence carries the last iterate on the device."""
    jac = _Krylov(rdiff=rdiff, method=method, inner_maxiter=inner_maxiter, inner_M=inner_M, outer_k=outer_k, **kw)
    return nonlin_solve(F, xin, jac, iter, verbose, maxiter, f_tol, f_rtol, x_tol, x_rtol, tol_norm, line_search,
                        callback)


def root_nonlin(fun, x0, args=(), jac=None, callback=None, method="krylov", jacobian=_Krylov, nit=None, disp=False,
                maxiter=None, ftol=None, fatol=None, xtol=None, xatol=None, tol_norm=None, line_search="armijo",
                jac_options=None):
    """SciPy's _root_nonlin_solve: the options mapped onto nonlin_solve's, the Jacobian
    approximation `jacobian(**jac_options)`, `nfev` counting the calls of `fun`."""
    nfev = 0

    def f(x):
        nonlocal nfev
        nfev += 1
        out = fun(x, *args)
        return out[0] if jac is True else out

    x, info = nonlin_solve(f, x0, jacobian(**dict(jac_options or {})), iter=nit, verbose=disp, maxiter=maxiter,
                           f_tol=fatol, f_rtol=ftol, x_tol=xatol, x_rtol=xtol, tol_norm=tol_norm,
                           line_search=line_search, callback=callback, full_output=True, raise_exception=False)
    res = OptimizeResult(x=x, method=method)
    res.update(info)
    res["nfev"] = nfev
    return res
