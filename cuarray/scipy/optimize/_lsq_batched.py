"""`least_squares_batched`: many independent small nonlinear least-squares problems at once (no
SciPy counterpart; SciPy loops over `least_squares`). Each problem keeps its own damping,
acceptance and stopping; every step is whole-batch arithmetic on (batch, m, n) stacks with one
batched solve, and one host read an iteration (how many problems are still running).

The algorithm is Levenberg-Marquardt with Marquardt's diagonal scaling and Nielsen's damping
update (K. Madsen, H. B. Nielsen, O. Tingleff, "Methods for non-linear least squares problems",
2nd ed., 2004, algorithm 3.16), not SciPy's trust-region 'trf'/'lm': a per-problem trust-region
radius would need a secular-equation solve per problem, while Nielsen's update is one elementwise
rule. Its stopping tests are SciPy's (gtol on |J'f|_inf, ftol on the cost's relative decrease,
xtol on the step), so a converged fit is the same minimizer as SciPy's."""

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._creation.matrices import eye
from ..._logic.content import isfinite
from ..._manipulation.joining import stack
from ..._math.extrema import maximum
from ..._math.misc import absolute, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ...linalg._matmul import matmul
from ...linalg._solve import solve
from ._lsq_host import EPS
from ._result import OptimizeResult

__all__ = ["least_squares_batched"]

_FN = "scipy.optimize.least_squares_batched"
_MESSAGES = {0: "The maximum number of function evaluations is exceeded.",
             1: "`gtol` termination condition is satisfied.", 2: "`ftol` termination condition is satisfied.",
             3: "`xtol` termination condition is satisfied.",
             4: "Both `ftol` and `xtol` termination conditions are satisfied."}


def _fd_jacobian(call, x, f):
    """Forward differences over the batch: one call of `fun` per parameter (SciPy's '2-point' step)."""
    n = x.shape[1]
    sign = (x >= 0).astype(numpy.float64) * 2 - 1
    h = EPS ** 0.5 * sign * maximum(1.0, absolute(x))
    unit = eye(n)
    cols = []
    for j in range(n):
        x1 = x + h[:, j:j + 1] * unit[j]
        cols.append((call(x1) - f) / (x1[:, j:j + 1] - x[:, j:j + 1]))
    return stack(cols, axis=2)


def least_squares_batched(fun, x0, jac="2-point", *, ftol=1e-8, xtol=1e-8, gtol=1e-8, max_nfev=None, args=()):
    """Solve ``batch`` independent problems ``min 0.5 |f_b(x_b)|^2``. ``fun(x, *args)`` takes the
    (batch, n) parameters and returns the (batch, m) residuals; ``jac`` is ``'2-point'`` or a
    callable returning (batch, m, n). ``x0`` is a (batch, n) device array. Returns an
    `OptimizeResult` whose ``x``, ``cost``, ``fun``, ``jac``, ``grad``, ``optimality``, ``status``
    and ``success`` hold one entry per problem (device arrays) and ``nfev``/``nit`` count the
    batch's evaluations (host ints). Status codes and tolerances are `least_squares`'."""
    x = as_array(x0, _FN).astype(numpy.float64)
    if x.ndim != 2:
        raise ValueError("`x0` must have shape (batch, n).")
    if jac != "2-point" and not callable(jac):
        raise ValueError("`jac` must be '2-point' or callable.")
    batch, n = x.shape
    max_nfev = 100 * n if max_nfev is None else max_nfev

    def call(y):
        r = as_array(fun(y, *args), _FN).astype(numpy.float64)
        if r.ndim != 2 or r.shape[0] != batch:
            raise ValueError(f"`fun` must return the residuals as (batch, m); got shape {r.shape}.")
        return r

    def jacobian(y, r):
        if jac == "2-point":
            return _fd_jacobian(call, y, r)
        return as_array(jac(y, *args), _FN).astype(numpy.float64)

    def normal(J, r):
        Jt = J.swapaxes(1, 2)
        return matmul(Jt, J), matmul(Jt, r[:, :, None])[:, :, 0]

    f = call(x)
    cost = 0.5 * sum_(f * f, axis=1)
    J = jacobian(x, f)
    A, g = normal(J, f)
    D = maximum(A.diagonal(axis1=1, axis2=2), EPS)  # Marquardt's scaling, never below eps
    lam = 1e-3 * max_(D, axis=1)
    nu = full((batch,), 2.0)
    status = where(max_(absolute(g), axis=1) < gtol, 1, 0)
    nfev, nit, unit = 1, 0, eye(n)
    # one read an iteration: how many problems are still running
    while int(to_host(sum_(status == 0))) > 0 and nfev < max_nfev:
        h = solve(A + (lam[:, None] * D)[:, :, None] * unit, -g[:, :, None])[:, :, 0]
        x_new = x + h
        f_new = call(x_new)
        nfev += 1
        cost_new = 0.5 * sum_(f_new * f_new, axis=1)
        predicted = 0.5 * sum_(h * (lam[:, None] * D * h - g), axis=1)
        actual = cost - cost_new
        rho = where(predicted > 0, actual / where(predicted > 0, predicted, 1.0), 0.0)
        running = status == 0
        accept = running & (rho > 0) & isfinite(cost_new)
        ftol_ok = running & (actual < ftol * cost) & (rho > 0.25)
        xtol_ok = running & (sqrt(sum_(h * h, axis=1)) < xtol * (xtol + sqrt(sum_(x * x, axis=1))))
        x = where(accept[:, None], x_new, x)
        f = where(accept[:, None], f_new, f)
        cost = where(accept, cost_new, cost)
        J = where(accept[:, None, None], jacobian(x, f), J)
        A, g = normal(J, f)
        D = maximum(D, A.diagonal(axis1=1, axis2=2))
        lam = where(accept, lam * maximum(1 / 3, 1 - (2 * rho - 1) ** 3), lam * nu)
        nu = where(accept, 2.0, nu * 2)
        gtol_ok = running & (max_(absolute(g), axis=1) < gtol)
        done = where(ftol_ok & xtol_ok, 4, where(ftol_ok, 2, where(xtol_ok, 3, 0)))
        status = where(running, where(gtol_ok, 1, done), status)
        nit += 1
    optimality = max_(absolute(g), axis=1)
    return OptimizeResult(x=x, cost=cost, fun=f, jac=J, grad=g, optimality=optimality, status=status,
                          success=status > 0, nfev=nfev, njev=nit + 1, nit=nit,
                          message=_MESSAGES[0] if bool(to_host(sum_(status == 0)) > 0) else
                          "Every problem met a termination condition (see `status`).")
