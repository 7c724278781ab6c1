"""`lsq_linear`: SciPy's front end (argument checks, the unbounded solution, messages) over the
Trust Region Reflective loop (`_lsq_trf_linear`) and BVLS (`_lsq_bvls`), with A on the device
(`_lsq_linear_systems`)."""

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import from_host
from ..._math.sums import sum as sum_
from ...linalg._solve import lstsq
from ...sparse._sputils import issparse
from ...sparse.linalg._interface import LinearOperator, aslinearoperator
from ...sparse.linalg._lsmr import lsmr
from ._least_squares import _bounds
from ._lsq_bvls import bvls
from ._lsq_host import in_bounds
from ._lsq_linear_systems import DenseQR, OperatorSystem
from ._lsq_problem import read
from ._lsq_trf_linear import trf_linear
from ._result import OptimizeResult

__all__ = ["lsq_linear"]

_FN = "scipy.optimize.lsq_linear"

TERMINATION_MESSAGES = {
    -1: "The algorithm was not able to make progress on the last iteration.",
    0: "The maximum number of iterations is exceeded.",
    1: "The first-order optimality measure is less than `tol`.",
    2: "The relative change of the cost function is less than `tol`.",
    3: "The unconstrained solution is optimal.",
}


def _check(A, b, bounds, method, lsq_solver, verbose, max_iter, lsmr_tol, lsmr_maxiter):
    """SciPy's checks, in its order: (A, b, lb, ub, lsq_solver)."""
    if method not in ("trf", "bvls"):
        raise ValueError("`method` must be 'trf' or 'bvls'")
    if lsq_solver not in (None, "exact", "lsmr"):
        raise ValueError("`solver` must be None, 'exact' or 'lsmr'.")
    if verbose not in (0, 1, 2):
        raise ValueError("`verbose` must be in [0, 1, 2].")
    dense = not (issparse(A) or isinstance(A, LinearOperator))
    if dense:
        A = as_array(A, _FN)
        A = A.reshape((1,) * (2 - A.ndim) + A.shape) if A.ndim < 2 else A
        A = A.astype(numpy.float64, copy=False)
    if method == "bvls":
        if lsq_solver == "lsmr":
            raise ValueError("method='bvls' can't be used with lsq_solver='lsmr'")
        if not dense:
            raise ValueError("method='bvls' can't be used with `A` being sparse or LinearOperator.")
    if lsq_solver is None:
        lsq_solver = "exact" if dense else "lsmr"
    elif lsq_solver == "exact" and not dense:
        raise ValueError("`exact` solver can't be used when `A` is sparse or LinearOperator.")
    if len(A.shape) != 2:
        raise ValueError("`A` must have at most 2 dimensions.")
    if max_iter is not None and max_iter <= 0:
        raise ValueError("`max_iter` must be None or positive integer.")
    m, n = A.shape
    b = as_array(b, _FN)
    b = b.reshape(1) if b.ndim == 0 else b
    if b.ndim != 1:
        raise ValueError("`b` must have at most 1 dimension.")
    if b.size != m:
        raise ValueError("Inconsistent shapes between `A` and `b`.")
    lb, ub = _bounds(bounds, n, _FN)
    if lb.shape != (n,) and ub.shape != (n,):
        raise ValueError("Bounds have wrong shape.")
    if numpy.any(lb >= ub):
        raise ValueError("Each lower bound must be strictly less than each upper bound.")
    if lsmr_maxiter is not None and lsmr_maxiter < 1:
        raise ValueError("`lsmr_maxiter` must be None or positive integer.")
    if not ((isinstance(lsmr_tol, float) and lsmr_tol > 0) or lsmr_tol in ("auto", None)):
        raise ValueError("`lsmr_tol` must be None, 'auto', or positive float.")
    return A, b.astype(numpy.float64, copy=False), lb, ub, lsq_solver


def lsq_linear(A, b, bounds=(-numpy.inf, numpy.inf), method="trf", tol=1e-10, lsq_solver=None, lsmr_tol=None,
               max_iter=None, verbose=0, *, lsmr_maxiter=None):
    """See `scipy.optimize.lsq_linear`. ``A`` is a cuarray array, a `cuarray.sparse` matrix or a
    `cuarray.sparse.linalg.LinearOperator`, ``b`` a cuarray array; ``x``, ``fun``, ``active_mask``
    and the arrays of ``unbounded_sol`` are device arrays. A dense ``A`` (float64; other types are
    cast) is factored once by QR on the device and its n x n factor R read to the host: the
    iterations work on R (one n-vector read each; each subproblem solved on the device by SVD, the
    minimum-norm solution where SciPy's pivoted QR gives a basic one on a rank-deficient A).
    ``'lsmr'`` runs `cuarray.sparse.linalg.lsmr` and a few small reads an iteration."""
    A, b, lb, ub, lsq_solver = _check(A, b, bounds, method, lsq_solver, verbose, max_iter, lsmr_tol, lsmr_maxiter)
    m, n = A.shape
    if lsq_solver == "exact":
        unbounded = lstsq(A, b, rcond=-1)
    else:
        first_tol = 1e-2 * tol if lsmr_tol is None or lsmr_tol == "auto" else lsmr_tol
        unbounded = lsmr(A, b, maxiter=lsmr_maxiter, atol=first_tol, btol=first_tol)
    x_lsq = read(unbounded[0])[0]
    if in_bounds(x_lsq, lb, ub):
        op = aslinearoperator(A)
        r = op.matvec(unbounded[0]) - b
        g, cost = read(op.rmatvec(r), 0.5 * sum_(r * r))  # one read
        result = OptimizeResult(x=unbounded[0], fun=r, cost=float(cost),
                                optimality=float(numpy.linalg.norm(g, ord=numpy.inf)),
                                active_mask=from_host(numpy.zeros(n)), unbounded_sol=unbounded, nit=0, status=3,
                                message=TERMINATION_MESSAGES[3], success=True)
        if verbose > 0:
            print(result.message)
            print(f"Final cost {result.cost:.4e}, first-order optimality {result.optimality:.2e}")
        return result
    if lsq_solver == "exact":
        system = DenseQR(A, b)
    else:
        system = OperatorSystem(A, b, tol, lsmr_tol, lsmr_maxiter)
    solver = trf_linear if method == "trf" else bvls
    x, cost, optimality, active, nit, status, initial_cost = solver(system, x_lsq, lb, ub, tol, max_iter, verbose)
    result = OptimizeResult(x=from_host(x), fun=system.residual(x), cost=float(cost), optimality=float(optimality),
                            active_mask=from_host(active), unbounded_sol=unbounded, nit=nit, status=status,
                            message=TERMINATION_MESSAGES[status], success=status > 0)
    if verbose > 0:
        print(result.message)
        print(f"Number of iterations {result.nit}, initial cost {initial_cost:.4e}, final cost {result.cost:.4e}, "
              f"first-order optimality {result.optimality:.2e}.")
    return result
