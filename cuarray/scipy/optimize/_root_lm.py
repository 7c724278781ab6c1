"""`root` with method 'lm': the Levenberg-Marquardt method in the form of MINPACK's lmder/lmdif
(J. J. Moré, 'The Levenberg-Marquardt algorithm: implementation and theory', Numerical Analysis,
Lecture Notes in Mathematics 630, 1978; Moré, Garbow and Hillstrom, User Guide for MINPACK-1,
1980): MINPACK's scaled trust region, its updates of the bound and of the Levenberg-Marquardt
parameter, and its ftol/xtol/gtol tests and statuses. Our own version for the device, on the
square system: where MINPACK's lmpar works on a pivoted QR of J, this solves
(J'J + par D^2) p = -J'f by a Cholesky factorization on the device (the normal equations square
J's condition number, fine for the well-conditioned systems this method is for) and takes
lmpar's Newton corrections of par from the same factor.

Host reads: in lmpar, one a factorization (potrf's info), one of |D p| and one of the Newton
correction's norm; a step, one of the new residual's norm (with the model's, |D p| and |D x|)."""

import math

import numpy

from ..._core.transfer import to_host
from ..._creation.matrices import eye
from ..._manipulation.joining import stack
from ..._math.extrema import maximum
from ..._math.misc import absolute, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ...linalg._decomp import cholesky
from ...linalg._products import dot, vdot
from ...linalg._util import LinAlgError
from ..linalg._triangular import solve_triangular
from ._lsq_host import minpack_step_update
from ._result import OptimizeResult

__all__ = ["root_lm"]

_DWARF = float(numpy.finfo(numpy.float64).tiny)


def _factor_solve(a, d2, par, g):
    """The lower Cholesky factor of A + par D^2 and the solution p of (A + par D^2) p = -g, or
    (None, None) where A + par D^2 is not positive definite (J rank-deficient, par = 0)."""
    try:
        low = cholesky(a + eye(a.shape[0], dtype=a.dtype) * (par * d2) if par else a)
    except LinAlgError:
        return None, None
    y = solve_triangular(low, -g, lower=True, check_finite=False)
    return low, solve_triangular(low, y, trans="T", lower=True, check_finite=False)


def _lmpar(a, g, d, delta, par):
    """MINPACK's lmpar: par >= 0 and p with |D p| within 10% of delta (or par = 0 and the
    Gauss-Newton step inside), p minimizing |J p + f|^2 + par |D p|^2; a = J'J, g = J'f."""
    d2 = d * d
    low, p = _factor_solve(a, d2, 0.0, g)
    parl, fp_prev = 0.0, None
    if p is not None:
        dxnorm = float(to_host(vdot(d * p, d * p))) ** 0.5
        fp = dxnorm - delta
        if fp <= 0.1 * delta:
            return 0.0, p
        # the lower bound from the Newton step at par = 0 (J has full rank)
        w = d * (d * p) / dxnorm
        q = solve_triangular(low, w, lower=True, check_finite=False)
        parl = max(((fp / delta) / float(to_host(vdot(q, q)))), 0.0)
        fp_prev = fp
    gnorm = float(to_host(vdot(g / d, g / d))) ** 0.5
    paru = gnorm / delta
    if paru == 0:
        paru = _DWARF / min(delta, 0.1)
    par = min(max(par, parl), paru)
    if par == 0:
        par = gnorm / dxnorm if p is not None else 0.001 * paru
    for it in range(1, 11):
        if par == 0:
            par = max(_DWARF, 0.001 * paru)
        low, p = _factor_solve(a, d2, par, g)
        if p is None:  # rounding at a tiny par: move up
            parl = max(parl, par)
            par = max(parl * 10, 0.001 * paru)
            continue
        w_un = d * (d * p)
        dxnorm = float(to_host(vdot(d * p, d * p))) ** 0.5  # the iteration's read
        fp = dxnorm - delta
        if abs(fp) <= 0.1 * delta or (parl == 0 and fp_prev is not None and fp <= fp_prev and fp_prev < 0) \
                or it == 10:
            break
        q = solve_triangular(low, w_un / dxnorm, lower=True, check_finite=False)
        parc = (fp / delta) / float(to_host(vdot(q, q)))
        if fp > 0:
            parl = max(parl, par)
        if fp < 0:
            paru = min(paru, par)
        par = max(parl, par + parc)
        fp_prev = fp
    return par, p


def root_lm(F, x, jac_of, n, col_deriv, xtol, ftol, gtol, maxfev, epsfcn, factor, diag, fd_jacobian):
    """MINPACK's lmder/lmdif loop; returns (x, f, status, njev, J)."""
    epsmch = float(numpy.finfo(numpy.float64).eps)
    f = F(x)
    if n <= 0 or ftol < 0 or xtol < 0 or gtol < 0 or maxfev <= 0 or factor <= 0:
        return x, f, 0, 0, None
    fnorm = float(to_host(vdot(f, f))) ** 0.5  # the first read: |f(x0)|
    par, it, njev, status = 0.0, 1, 0, 0
    d = None if diag is None else diag
    xnorm = delta = 0.0
    J = None
    while status == 0:
        if jac_of is None:
            J = fd_jacobian(F, x, f, epsfcn)
        else:
            J = jac_of(x)
            njev += 1
        acnorm = sqrt(sum_(J * J, axis=0))
        a = dot(J.T, J)
        g = dot(J.T, f)
        if it == 1:
            if diag is None:
                d = where(acnorm == 0, 1, acnorm).astype(x.dtype)
            xnorm = float(to_host(vdot(d * x, d * x))) ** 0.5
            delta = factor * xnorm if xnorm != 0 else factor
        # the scaled cosine of the angle between f and J's columns, max_j |J_j'f| / (|J_j| |f|)
        cosines = where(acnorm == 0, 0, absolute(g) / where(acnorm == 0, 1, acnorm))
        gnorm = float(to_host(max_(cosines))) / fnorm if fnorm != 0 else 0.0
        if gnorm <= gtol:
            status = 4
            break
        if diag is None:
            d = maximum(d, acnorm)
        while True:
            par, p = _lmpar(a, g, d, delta, par)
            jp = dot(J, p)
            f1 = F(x + p)
            # the step's read: |D p|, |f(x + p)|, |J p| and |D (x + p)|
            pn2, fn2, jp2, xn2 = (float(t) for t in to_host(stack(
                [vdot(d * p, d * p), vdot(f1, f1), vdot(jp, jp), vdot(d * (x + p), d * (x + p))])))
            pnorm, fnorm1 = pn2 ** 0.5, fn2 ** 0.5
            if it == 1:
                delta = min(delta, pnorm)
            temp1 = jp2 ** 0.5 / fnorm
            temp2 = math.sqrt(par) * pnorm / fnorm
            actred, prered, ratio, delta, par = minpack_step_update(fnorm, fnorm1, temp1, temp2, delta, par, pnorm)
            accepted = ratio >= 1e-4
            if accepted:
                x, f, xnorm, fnorm = x + p, f1, xn2 ** 0.5, fnorm1
                it += 1
            small_f = abs(actred) <= ftol and prered <= ftol and 0.5 * ratio <= 1
            if small_f:
                status = 1
            if delta <= xtol * xnorm:
                status = 3 if small_f else 2
            if status:
                break
            if F.nfev >= maxfev:
                status = 5
            elif abs(actred) <= epsmch and prered <= epsmch and 0.5 * ratio <= 1:
                status = 6
            elif delta <= epsmch * xnorm:
                status = 7
            elif gnorm <= epsmch:
                status = 8
            if status or accepted:
                break
    return x, f, status, njev, J


def lm_messages(status, ftol, xtol, gtol, maxfev):
    """SciPy's leastsq messages."""
    return {0: "Improper input parameters.",
            1: f"Both actual and predicted relative reductions in the sum of squares\n  are at most {ftol:f}",
            2: f"The relative error between two consecutive iterates is at most {xtol:f}",
            3: f"Both actual and predicted relative reductions in the sum of squares\n  are at most {ftol:f} and the "
               f"relative error between two consecutive iterates is at \n  most {xtol:f}",
            4: f"The cosine of the angle between func(x) and any column of the\n  Jacobian is at most {gtol:f} in "
               "absolute value",
            5: f"Number of calls to function has reached maxfev = {maxfev}.",
            6: f"ftol={ftol:f} is too small, no further reduction in the sum of squares\n  is possible.",
            7: f"xtol={xtol:f} is too small, no further improvement in the approximate\n  solution is possible.",
            8: f"gtol={gtol:f} is too small, func(x) is orthogonal to the columns of\n  the Jacobian to machine "
               "precision."}[status]
