"""`least_squares(method='lm')`: the Levenberg-Marquardt algorithm as MINPACK's lmder runs it
(J. J. Moré, "The Levenberg-Marquardt algorithm: implementation and theory", Numerical Analysis,
Lecture Notes in Mathematics 630, Springer 1978, pp. 105-116), written here: the same scaling
(``diag`` from the Jacobian's column norms, or 1/x_scale), trust-region radius updates,
convergence tests and status codes. The one change is the subproblem: MINPACK factors J by a
pivoted QR and solves the damped system by Givens rotations; here the SVD of ``J D^-1`` is taken
on the device (`cuarray.linalg.svd`) and Moré's iteration on the damping parameter runs on its n
singular values on the host (the same secular equation, to the same 10 % of the radius). The
iterates therefore agree with SciPy's to rounding, not bit for bit.

Reads per iteration: the gradient and column norms after a Jacobian, the SVD's small factors, and
the residual norm of each trial point (one read each)."""

import numpy

from ..._core.transfer import from_host
from ..._math.sums import sum as sum_
from ...linalg._products import dot
from ._lsq_host import EPS, lsq_trust_region, minpack_step_update
from ._lsq_problem import read
from ._lsq_trf import _svd_factors, evaluate
from ._result import OptimizeResult

__all__ = ["lm"]

# MINPACK's info to least_squares' status (SciPy's FROM_MINPACK_TO_COMMON); 6, 7 and 8 (a test
# met at machine precision) read as the ftol, xtol and gtol tests they refine
_STATUS = {1: 2, 2: 3, 3: 4, 4: 1, 5: 0, 6: 2, 7: 3, 8: 1}
_FACTOR = 100.0


def _gnorm(g, acnorm, fnorm):
    """MINPACK's gradient test: the largest |cosine| between a column of J and f."""
    nz = acnorm != 0
    if fnorm == 0 or not numpy.any(nz):
        return 0.0
    return float(numpy.max(numpy.abs(g[nz]) / acnorm[nz]) / fnorm)


def _jacobian(problem, x, f):
    J = problem.jac(x, f)
    g, col2 = read(dot(J.T, f), sum_(J * J, axis=0))
    return J, g, col2 ** 0.5


def lm(problem, x0, f0, cost0, ftol, xtol, gtol, max_nfev, x_scale, count_fd=False):
    """(OptimizeResult, MINPACK's info). `count_fd`: nfev includes the finite differences' calls
    (`leastsq`'s lmdif count); otherwise it counts the trial points only (`least_squares`')."""
    m, n = f0.size, x0.size
    max_nfev = 100 * n if max_nfev is None else max_nfev
    jac_mode = isinstance(x_scale, str)
    diag = None if jac_mode else 1 / x_scale
    x, f, fnorm = x0.copy(), f0, (2 * cost0) ** 0.5
    par, it, info, nfev, J_at = 0.0, 1, 0, 1, None
    while info == 0:
        nfd = problem.nfd
        J, g, acnorm = _jacobian(problem, x, f)
        J_at = x
        if count_fd:
            nfev += problem.nfd - nfd
        if it == 1:
            if jac_mode:
                diag = numpy.where(acnorm == 0, 1.0, acnorm)
            xnorm = numpy.linalg.norm(diag * x)
            delta = _FACTOR * xnorm if xnorm != 0 else _FACTOR
        gnorm = _gnorm(g, acnorm, fnorm)
        if gnorm <= gtol:
            info = 4
            break
        if jac_mode:
            diag = numpy.maximum(diag, acnorm)
        s, V, uf = _svd_factors(J * from_host(1 / diag), f)
        while True:
            z, par = lsq_trust_region(m, uf, s, V, delta, par, rtol=0.1, rescale=False)
            x_new = x + z / diag
            pnorm = numpy.linalg.norm(z)
            if it == 1:
                delta = min(delta, pnorm)
            f_new, cost_new, _ = evaluate(problem, x_new)
            nfev += 1
            fnorm1 = (2 * cost_new) ** 0.5
            temp1 = numpy.linalg.norm(s * V.T.dot(z)) / fnorm
            temp2 = par ** 0.5 * pnorm / fnorm
            actred, prered, ratio, delta, par = minpack_step_update(fnorm, fnorm1, temp1, temp2, delta, par, pnorm)
            if ratio >= 1e-4:
                x, f, fnorm = x_new, f_new, fnorm1
                xnorm = numpy.linalg.norm(diag * x)
                it += 1
            ftol_met = abs(actred) <= ftol and prered <= ftol and 0.5 * ratio <= 1
            xtol_met = delta <= xtol * xnorm
            info = 3 if ftol_met and xtol_met else 1 if ftol_met else 2 if xtol_met else 0
            if info == 0:
                if nfev >= max_nfev:
                    info = 5
                elif abs(actred) <= EPS and prered <= EPS and 0.5 * ratio <= 1:
                    info = 6
                elif delta <= EPS * xnorm:
                    info = 7
                elif gnorm <= EPS:
                    info = 8
            if info != 0 or ratio >= 1e-4:
                break
    njev = problem.njev
    if J_at is not x:  # SciPy's result holds J at the returned x
        J, g, _ = _jacobian(problem, x, f)
    g_dev = dot(J.T, f)
    optimality = float(numpy.max(numpy.abs(read(g_dev)[0])))
    return OptimizeResult(x=from_host(x), cost=0.5 * fnorm ** 2, fun=f, jac=J, grad=g_dev, optimality=optimality,
                          active_mask=from_host(numpy.zeros(n, dtype=int)), nfev=nfev, njev=njev,
                          status=_STATUS[info]), info
