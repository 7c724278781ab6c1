"""The 'trust-exact' subproblem: SciPy's `IterativeSubproblem`, Moré and Sorensen's iteration on
the damping lambda of (H + lambda I) p = -g ('Computing a trust region step', SIAM J. Sci.
Stat. Comput. 4(3), 1983; Conn, Gould and Toint, Trust-Region Methods, 2000, section 7.3;
Nocedal and Wright, 2nd ed., section 4.3). Each step factors H + lambda I by a dense Cholesky on
the device (cuSOLVER's potrf through cuarray.linalg) and solves with it by two triangular solves.

Where SciPy estimates the smallest singular value and vector of the factor by Cline, Moler,
Stewart and Wilkinson's estimator (a sequential choice per row, n host decisions) and takes the
failing leading minor from LAPACK's incomplete factorization, this takes the smallest eigenpair of
H from one `eigh` on the device, computed only when a step falls inside the region, the gradient
is nearly zero or a factorization fails: the right singular vectors of the factor U of
H + lambda I = U'U are H's eigenvectors, and its smallest singular value is
sqrt(lambda_min(H) + lambda), so the estimate is exact and the lower bound on lambda it gives is
the sharpest one. Host reads: the factorization's success (potrf's info), then the norms of the
Newton step and of its triangular solve, read together."""

import math

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._creation.matrices import eye
from ..._indexing.inserting import diagonal
from ..._manipulation.joining import stack
from ..._math.misc import absolute
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_, min as min_
from ...linalg._decomp import cholesky, eigh
from ...linalg._products import dot, vdot
from ...linalg._util import LinAlgError
from ..linalg._triangular import solve_triangular
from ._trustregion import boundaries_intersections

__all__ = ["exact_solve"]

UPDATE_COEFF = 0.01  # Conn, Gould and Toint's theta (formula 7.3.14), as SciPy's
K_EASY, K_HARD = 0.1, 0.2  # their stopping constants (pp. 194-197), as SciPy's
EPS = numpy.finfo(float).eps


def _hessian_bounds(m):
    """Gershgorin's bounds, the inf and Frobenius norms and the smallest diagonal entry of H, read
    together once per model."""
    st = m.state
    if "hess_inf" not in st:
        h = m.hess
        d = diagonal(h)
        rows = sum_(absolute(h), axis=1)
        da = absolute(d)
        vals = to_host(stack([min_(d + da - rows), max_(d - da + rows), max_(rows), sum_(h * h) ** 0.5,
                              min_(d)]).astype(numpy.float64))
        lb, ub, inf, fro, dmin = (float(v) for v in vals)
        st.update(gersh_lb=lb, gersh_ub=ub, hess_inf=inf, hess_fro=fro, diag_min=dmin, previous_tr_radius=-1,
                  lambda_lb=None, close_to_zero=len(m.x) * EPS * inf)
    return st


def _smallest(m):
    """H's smallest eigenvalue (host) and its unit eigenvector (device), once per model."""
    st = m.state
    if "lam_min" not in st:
        w, v = eigh(m.hess)
        st["lam_min"] = float(to_host(w[0]))  # the read of the smallest eigenvalue
        st["z_min"] = v[:, 0]
    return st["lam_min"], st["z_min"]


def _factor(h, lam):
    """The lower Cholesky factor of H + lam I, or None where it is not positive definite."""
    try:
        return cholesky(h + lam * eye(h.shape[0], dtype=h.dtype) if lam else h)
    except LinAlgError:
        return None


def _next_lambda(lb, ub):
    return max(math.sqrt(abs(lb * ub)), lb + UPDATE_COEFF * (ub - lb))


def exact_solve(m, tr_radius, maxiter, k_easy=K_EASY, k_hard=K_HARD):
    """SciPy's `IterativeSubproblem.solve`: (p, hits_boundary)."""
    st = _hessian_bounds(m)
    jac_mag = m.jac_mag
    h, g = m.hess, m.jac
    lambda_ub = max(0, jac_mag / tr_radius + min(-st["gersh_lb"], st["hess_fro"], st["hess_inf"]))
    lambda_lb = max(0, -st["diag_min"], jac_mag / tr_radius - min(st["gersh_ub"], st["hess_fro"], st["hess_inf"]))
    if tr_radius < st["previous_tr_radius"]:
        lambda_lb = max(st["lambda_lb"], lambda_lb)
    lambda_current = 0 if lambda_lb == 0 else _next_lambda(lambda_lb, lambda_ub)
    hits_boundary = True
    already_factorized = False
    factor, p = None, None
    boundary = None  # the last hard-case step's point on the boundary: the answer if maxiter ends it
    niter = 0
    while niter < maxiter:
        if already_factorized:
            already_factorized = False
        else:
            factor = _factor(h, lambda_current)
        niter += 1
        if factor is not None and jac_mag > st["close_to_zero"]:
            # (H + lambda I) p = -g as L L' p = -g; w solves L w = p (U' w = p with U = L')
            y = solve_triangular(factor, -g, lower=True, check_finite=False)
            p = solve_triangular(factor, y, trans="T", lower=True, check_finite=False)
            w = solve_triangular(factor, p, lower=True, check_finite=False)
            pp, ww = (float(v) for v in to_host(stack([vdot(p, p), vdot(w, w)])))  # the step's read
            p_norm, w_norm = math.sqrt(pp), math.sqrt(ww)
            if p_norm <= tr_radius and lambda_current == 0:
                hits_boundary = False
                break
            # Newton's step on 1/|p(lambda)| - 1/radius (Nocedal and Wright's formula 4.44)
            lambda_new = lambda_current + (p_norm / w_norm) ** 2 * (p_norm - tr_radius) / tr_radius
            if p_norm < tr_radius:  # inside: the hard case's step along the smallest eigenvector
                lam_min, z_min = _smallest(m)
                s_min2 = max(lam_min + lambda_current, 0.0)
                pz, zz, php = (float(v) for v in to_host(stack([vdot(p, z_min), vdot(z_min, z_min),
                                                                 vdot(p, dot(h, p))])))
                ta, tb = boundaries_intersections(zz, pz, pp, tr_radius)
                step_len = min([ta, tb], key=abs)  # the smaller move (Moré and Sorensen, before tau)
                quadratic_term = php + lambda_current * pp
                relative_error = step_len ** 2 * s_min2 / (quadratic_term + lambda_current * tr_radius ** 2)
                boundary = p + step_len * z_min
                if relative_error <= k_hard:
                    p = boundary
                    break
                lambda_ub = lambda_current
                lambda_lb = max(lambda_lb, lambda_current - s_min2)
                factor_new = _factor(h, lambda_new)
                if factor_new is not None:
                    lambda_current, factor = lambda_new, factor_new
                    already_factorized = True
                else:
                    lambda_lb = max(lambda_lb, lambda_new)
                    lambda_current = _next_lambda(lambda_lb, lambda_ub)
            else:  # outside
                if abs(p_norm - tr_radius) / tr_radius <= k_easy:
                    break
                lambda_lb = lambda_current
                lambda_current = lambda_new
        elif factor is not None:  # the gradient is nearly zero
            if lambda_current == 0:
                p = zeros(g.shape, dtype=g.dtype)
                hits_boundary = False
                break
            lam_min, z_min = _smallest(m)
            s_min2 = max(lam_min + lambda_current, 0.0)
            p = tr_radius * z_min
            if tr_radius ** 2 * s_min2 <= k_hard * lambda_current * tr_radius ** 2:
                break
            lambda_ub = lambda_current
            lambda_lb = max(lambda_lb, lambda_current - s_min2)
            lambda_current = _next_lambda(lambda_lb, lambda_ub)
        else:  # not positive definite: lambda is at least -lambda_min(H) (and more than this lambda)
            lam_min, _ = _smallest(m)
            lambda_lb = max(lambda_lb, lambda_current, -lam_min)
            lambda_current = _next_lambda(lambda_lb, lambda_ub)
    else:
        # maxiter ran out inside the region in the hard case: Moré and Sorensen's point on the
        # boundary along the smallest eigenvector, not the interior iterate (whose model value
        # was 0.4 against SciPy's 62 on a draw with H's eigenvalues -4.1 and -0.76)
        if boundary is not None:
            p = boundary
    st.update(lambda_lb=lambda_lb, lambda_current=lambda_current, previous_tr_radius=tr_radius)
    if p is None:  # no factorization succeeded within maxiter
        raise LinAlgError("trust-exact: no positive definite H + lambda I within the subproblem's maxiter")
    return p, hits_boundary
