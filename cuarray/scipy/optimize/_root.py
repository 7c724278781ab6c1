"""`root` with method 'hybr': Powell's hybrid method (M. J. D. Powell, 'A hybrid method for
nonlinear equations', in Numerical Methods for Nonlinear Algebraic Equations, 1970) in the form
MINPACK's hybrd/hybrj document it (Moré, Garbow and Hillstrom, User Guide for MINPACK-1, 1980):
a dogleg step in a scaled trust region, Broyden's rank-one update of the Jacobian between
evaluations, the Jacobian taken again after two failed steps, and MINPACK's step-bound updates
and stopping tests. This is our own version for the device: MINPACK keeps a QR factorization of
the Jacobian and updates it by Givens rotations (a sequential chain); here the Jacobian itself
is kept and updated (one rank-one outer product) and the Gauss-Newton point comes from one LU
solve on the device. The final QR (fjac, r, qtf) is taken once, at the end.

Host reads an iteration: one of the dogleg's four norms, one of the new residual's norms (with
the linear model's and the step's). A finite-difference Jacobian costs n calls of `fun`."""

import warnings

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.ranges import arange
from ..._logic.truth import all as all_
from ..._manipulation.joining import stack
from ..._math.extrema import maximum
from ..._math.misc import absolute, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ..._creation.matrices import eye
from ...linalg._decomp import qr
from ...linalg._products import dot, outer, vdot
from ...linalg._solve import inv, solve
from ...linalg._util import LinAlgError
from ._nonlin import NONLIN_OPTIONS, root_nonlin
from ._nonlin_broyden import broyden_jacobians
from ._nonlin_mixing import jacobians
from ._result import OptimizeResult
from ._root_lm import lm_messages, root_lm
from ._spectral import DF_SANE_OPTIONS, root_df_sane

__all__ = ["root", "IMPLEMENTED"]

_EPSMCH = float(numpy.finfo(numpy.float64).eps)

_NONLIN = ("broyden1", "broyden2", "krylov", "anderson", "linearmixing", "diagbroyden", "excitingmixing")
IMPLEMENTED = ("hybr", "lm") + _NONLIN + ("df-sane",)
_OPTIONS = {"hybr": ("col_deriv", "xtol", "maxfev", "band", "eps", "factor", "diag"),
            "lm": ("col_deriv", "xtol", "ftol", "gtol", "maxiter", "eps", "factor", "diag"),
            "df-sane": DF_SANE_OPTIONS, **{m: NONLIN_OPTIONS for m in _NONLIN}}


def root(fun, x0, args=(), method="hybr", jac=None, tol=None, callback=None, options=None):
    """See `scipy.optimize.root`. All of SciPy's methods run on the device (see
    docs/scipy-optimize.md). ``fun`` (and
    ``jac``) take and return cuarray arrays; ``x``, ``fun``, ``fjac``, ``r`` and ``qtf`` come back
    on the device. ``nfev`` counts our calls of ``fun``: SciPy's counts two more (a call at ``x0``
    that checks the output's shape, and one at the end)."""
    if not isinstance(args, tuple):
        args = (args,)
    meth = method.lower()
    options = dict(options or {})
    if callback is not None and meth in ("hybr", "lm"):
        warnings.warn(f"Method {method} does not accept callback.", RuntimeWarning, stacklevel=2)
    if not callable(jac) and meth in ("hybr", "lm"):
        if bool(jac):
            fun, jac = _memoize_jac(fun)
        else:
            jac = None
    if tol is not None and meth in ("hybr", "lm"):
        options.setdefault("xtol", tol)
    elif tol is not None and meth == "df-sane":
        options.setdefault("ftol", tol)
    elif tol is not None and meth in _NONLIN:
        for k, v in (("xtol", tol), ("xatol", numpy.inf), ("ftol", numpy.inf), ("fatol", numpy.inf)):
            options.setdefault(k, v)
    if (meth in _NONLIN or meth == "df-sane") and jac is not None:
        warnings.warn(f"Method {method} does not use the jacobian (jac).", RuntimeWarning, stacklevel=2)
    if meth in IMPLEMENTED:
        unknown = {k: v for k, v in options.items() if k not in _OPTIONS[meth]}
        if unknown:
            from scipy.optimize import OptimizeWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

            warnings.warn("Unknown solver options: " + ", ".join(map(str, unknown)), OptimizeWarning, stacklevel=2)
        kw = {k: v for k, v in options.items() if k in _OPTIONS[meth]}
        if meth in _NONLIN:
            return root_nonlin(fun, x0, args, jac, callback, meth, {**jacobians(), **broyden_jacobians()}[meth], **kw)
        if meth == "df-sane":
            return root_df_sane(fun, x0, args, callback, **kw)
        return (_root_hybr if meth == "hybr" else _root_lm)(fun, x0, args, jac, **kw)
    raise ValueError(f"Unknown solver {method}")


def _memoize_jac(fun):
    """SciPy's MemoizeJac: `fun` returns (f, J); J is kept for the point it was computed at."""
    last = {}

    def f(x, *args):
        out = fun(x, *args)
        last["x"], last["jac"] = x, out[1]
        return out[0]

    def j(x, *args):
        if last.get("x") is not x:
            f(x, *args)
        return last["jac"]

    return f, j


_MESSAGES = {0: "Improper input parameters were entered.", 1: "The solution converged.",
             4: "The iteration is not making good progress, as measured by the \n improvement from the last five "
                "Jacobian evaluations.",
             5: "The iteration is not making good progress, as measured by the \n improvement from the last ten "
                "iterations."}


def _message(status, maxfev, xtol):
    if status == 2:
        return f"The number of calls to function has reached maxfev = {maxfev}."
    if status == 3:
        return f"xtol={xtol:f} is too small, no further improvement in the approximate\n solution is possible."
    return _MESSAGES[status]


class _Counted:
    def __init__(self, fun, args, n):
        self.fun, self.args, self.n, self.nfev = fun, args, n, 0

    def __call__(self, x):
        self.nfev += 1
        f = as_array(self.fun(x, *self.args), "scipy.optimize.root")
        if f.size != self.n:
            name = getattr(self.fun, "__name__", "func")
            raise TypeError(f"fsolve: there is a mismatch between the input and output shape of the 'func' argument "
                            f"'{name}'.Shape should be ({self.n},) but it is ({f.size},).")
        return f.reshape(self.n)


def _fd_jacobian(F, x, f, epsfcn):
    """MINPACK's fdjac1 (dense): forward differences with h_j = eps |x_j| (eps where x_j = 0),
    eps = sqrt(max(epsfcn, machine epsilon)); one call of F per column, no host read."""
    eps = max(float(epsfcn), float(numpy.finfo(numpy.float64).eps)) ** 0.5
    h = eps * absolute(x)
    h = where(h == 0, eps, h)
    idx = arange(len(x))
    cols = []
    for j in range(len(x)):
        hj = where(idx == j, h, 0)
        cols.append((F(x + hj) - f) / h[j])
    return stack(cols, axis=1)


def _dogleg(J, f, d, delta):
    """MINPACK's dogleg with J in place of its Q R: the Gauss-Newton point solves J x = f, the
    scaled gradient is J'f / d; returns the step -x (device) for the bound delta (host)."""
    u = dot(J.T, f) / d  # the scaled gradient D^-1 J'f
    v = u / d
    jv_d = dot(J, v)
    for shift in (False, True):
        if shift:
            # a singular J: MINPACK replaces a zero pivot of R by epsmch times the largest entry of
            # its column (or epsmch), which gives a long Gauss-Newton step along the null space that
            # the dogleg then cuts to the region; here the same with J + epsmch max|J| I
            tau = float(to_host(max_(absolute(J)))) * _EPSMCH or _EPSMCH
            J_solve = J + tau * eye(J.shape[0], dtype=J.dtype)
        else:
            J_solve = J
        try:
            xg = solve(J_solve, f)  # LU; a singular matrix raises (the factorization's info is read)
        except LinAlgError:
            xg = None
        qn_d = vdot(d * xg, d * xg) if xg is not None else vdot(u, u) * numpy.nan
        vals = to_host(stack([qn_d, vdot(u, u), vdot(jv_d, jv_d), vdot(f, f)]))
        qnorm, gnorm, jv, bnorm = (float(t) ** 0.5 for t in vals)  # the dogleg's read
        ok = xg is not None and numpy.isfinite(qnorm)
        if ok:
            break
    if not ok:  # no Gauss-Newton point even so: the Cauchy step along the scaled gradient
        qnorm = numpy.inf
    if qnorm <= delta:
        return -xg
    alpha = delta / qnorm if ok else 0.0
    sgnorm = 0.0
    if gnorm != 0:
        temp = jv / gnorm  # |J (v / gnorm)|
        sgnorm = (gnorm / temp) / temp
        alpha = 0.0
        if sgnorm < delta and ok:
            temp = (bnorm / gnorm) * (bnorm / qnorm) * (sgnorm / delta)
            temp = temp - (delta / qnorm) * (sgnorm / delta) ** 2 + numpy.sqrt(
                (temp - delta / qnorm) ** 2 + (1 - (delta / qnorm) ** 2) * (1 - (sgnorm / delta) ** 2))
            alpha = ((delta / qnorm) * (1 - (sgnorm / delta) ** 2)) / temp
    temp = (1 - alpha) * min(sgnorm, delta)
    step = (temp / gnorm) * v if gnorm != 0 else 0.0 * v
    return -(step + alpha * xg) if ok else -step


def _root_hybr(fun, x0, args=(), jac=None, col_deriv=0, xtol=1.49012e-08, maxfev=0, band=None, eps=None, factor=100,
               diag=None):
    x = as_parameter(x0, "scipy.optimize.root").reshape(-1)
    x = x.astype(x.dtype if x.dtype.kind == "f" else numpy.float64)
    n = len(x)
    F = _Counted(fun, args, n)
    epsfcn = numpy.finfo(x.dtype).eps if eps is None else eps
    maxfev = (200 if jac is None else 100) * (n + 1) if maxfev == 0 else maxfev
    epsmch = float(numpy.finfo(numpy.float64).eps)
    njev = 0
    f = F(x)
    d = None if diag is None else as_parameter(diag, "scipy.optimize.root").reshape(-1).astype(x.dtype)
    if n <= 0 or xtol < 0 or maxfev <= 0 or factor <= 0 or (d is not None and (
            len(d) != n or not bool(to_host(all_(d > 0))))):
        return _result(x, f, 0, F, jac, njev, None, maxfev, xtol)
    fnorm = float(to_host(vdot(f, f))) ** 0.5  # the first read: |f(x0)|
    it, ncsuc, ncfail, nslow1, nslow2 = 1, 0, 0, 0, 0
    status, J = 0, None
    xnorm = delta = 0.0
    while status == 0:
        if jac is None:
            J = _fd_jacobian(F, x, f, epsfcn)
        else:
            J = as_array(jac(x, *args), "scipy.optimize.root")
            J = (J.T if col_deriv else J).reshape(n, n).astype(x.dtype)
            njev += 1
        jeval = True
        colnorms = sqrt(sum_(J * J, axis=0))
        if it == 1:
            if diag is None:
                d = where(colnorms == 0, 1, colnorms).astype(x.dtype)
            xnorm = float(to_host(vdot(d * x, d * x))) ** 0.5
            delta = factor * xnorm if xnorm != 0 else factor
        if diag is None:
            d = maximum(d, colnorms)
        while True:
            p = _dogleg(J, f, d, delta)
            fjp = f + dot(J, p)  # the linear model's residual at x + p
            f1 = F(x + p)
            # the step's read: |D p|, |f(x + p)|, the model's residual and |D (x + p)|
            pn2, fn2, mn2, xn2 = (float(t) for t in to_host(stack(
                [vdot(d * p, d * p), vdot(f1, f1), vdot(fjp, fjp), vdot(d * (x + p), d * (x + p))])))
            pnorm, fnorm1, temp = pn2 ** 0.5, fn2 ** 0.5, mn2 ** 0.5
            if it == 1:
                delta = min(delta, pnorm)
            actred = 1 - (fnorm1 / fnorm) ** 2 if fnorm1 < fnorm else -1.0
            prered = 1 - (temp / fnorm) ** 2 if temp < fnorm else 0.0
            ratio = actred / prered if prered > 0 else 0.0
            if ratio < 0.1:
                ncsuc, ncfail = 0, ncfail + 1
                delta *= 0.5
            else:
                ncfail, ncsuc = 0, ncsuc + 1
                if ratio >= 0.5 or ncsuc > 1:
                    delta = max(delta, pnorm / 0.5)
                if abs(ratio - 1) <= 0.1:
                    delta = pnorm / 0.5
            if ratio >= 1e-4:
                x, f, xnorm, fnorm = x + p, f1, xn2 ** 0.5, fnorm1
                it += 1
            nslow1 += 1
            if actred >= 0.001:
                nslow1 = 0
            if jeval:
                nslow2 += 1
            if actred >= 0.1:
                nslow2 = 0
            if delta <= xtol * xnorm or fnorm == 0:
                status = 1
            elif F.nfev >= maxfev:
                status = 2
            elif 0.1 * max(0.1 * delta, pnorm) <= epsmch * xnorm:
                status = 3
            elif nslow2 == 5:
                status = 4
            elif nslow1 == 10:
                status = 5
            if status or ncfail == 2:
                break
            # Broyden's update, scaled as MINPACK's: J += (f(x+p) - (f + J p)) (D^2 p)' / |D p|^2
            J = J + outer(f1 - fjp, d * d * p) / pn2
            jeval = False
    return _result(x, f, status, F, jac, njev, J, maxfev, xtol)


def _root_lm(fun, x0, args=(), jac=None, col_deriv=0, xtol=1.49012e-08, ftol=1.49012e-08, gtol=0.0, maxiter=0,
             eps=0.0, factor=100, diag=None):
    x = as_parameter(x0, "scipy.optimize.root").reshape(-1)
    x = x.astype(x.dtype if x.dtype.kind == "f" else numpy.float64)
    n = len(x)
    F = _Counted(fun, args, n)
    maxfev = (200 if jac is None else 100) * (n + 1) if maxiter == 0 else maxiter
    d = None if diag is None else as_parameter(diag, "scipy.optimize.root").reshape(-1).astype(x.dtype)

    def jac_of(x):
        J = as_array(jac(x, *args), "scipy.optimize.root")
        return (J.T if col_deriv else J).reshape(n, n).astype(x.dtype)

    x, f, status, njev, J = root_lm(F, x, None if jac is None else jac_of, n, col_deriv, xtol, ftol, gtol, maxfev,
                                    eps, factor, d, _fd_jacobian)
    res = OptimizeResult(x=x, message=lm_messages(status, ftol, xtol, gtol, maxfev), status=status,
                         success=status in (1, 2, 3, 4), cov_x=None, fun=f, method="lm", nfev=F.nfev)
    if jac is not None:
        res["njev"] = njev
    if J is not None and status in (1, 2, 3, 4):
        # SciPy's cov_x: inv(J'J) of the last Jacobian, None where J'J is singular
        try:
            res["cov_x"] = inv(dot(J.T, J))
        except LinAlgError:
            pass
    return res


def _result(x, f, status, F, jac, njev, J, maxfev, xtol):
    res = OptimizeResult(x=x, success=(status == 1), status=status, method="hybr", nfev=F.nfev, fun=f)
    if jac is not None:
        res["njev"] = njev
    if J is not None:
        # one QR of the final Jacobian approximation, in SciPy's layout: J = fjac' R with R packed
        # by rows in r, qtf = fjac f (MINPACK updates its factors; the signs of a row of fjac and
        # the same row of R may differ from MINPACK's, and its qtf is the one of its last update)
        q, r = qr(J)
        rows, cols = numpy.triu_indices(J.shape[0])
        res["fjac"] = q.T
        res["r"] = r[as_parameter(rows, "scipy.optimize.root"), as_parameter(cols, "scipy.optimize.root")]
        res["qtf"] = dot(q.T, f)
    res["message"] = _message(status, maxfev, xtol)
    return res
