"""The variable-order (1 to 5) BDF method with the NDF modification, after SciPy's
`scipy.integrate._ivp.bdf` (L. F. Shampine, M. W. Reichelt, "The MATLAB ODE Suite", SIAM J. Sci.
Comput. 18, 1997: quasi-constant steps on a backward-difference array D, the NDF coefficients
kappa, the error estimates of orders k-1, k, k+1 that choose the next order). The differences D,
the Jacobian and the LU of I - c J are device arrays; c, the order and the step size are host
numbers. The host reads one small vector per Newton iteration (the increment's norm and whether f
was finite), one number per trial step (the error norm) and, when the order may change, the two
neighbouring orders' error norms in one read."""

import numpy

from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import stack
from ..._math.misc import abs as abs_
from ..._sorting.searching import where
from ._implicit import identity, is_sparse, lu, solve_lu, start_steps, validate_jac
from ._ivp_base import DenseOutput, OdeSolver, norm, read, validate_max_step, validate_tol, warn_extraneous

MAX_ORDER = 5
NEWTON_MAXITER = 4
MIN_FACTOR = 0.2
MAX_FACTOR = 10
KAPPA = numpy.array([0, -0.1850, -1 / 9, -0.0823, -0.0415, 0])  # Shampine & Reichelt's NDF coefficients
GAMMA = numpy.hstack((0, numpy.cumsum(1 / numpy.arange(1, MAX_ORDER + 1))))
ALPHA = (1 - KAPPA) * GAMMA
ERROR_CONST = KAPPA * GAMMA + 1 / numpy.arange(1, MAX_ORDER + 2)


def compute_R(order, factor):
    """The matrix that rescales the differences for a step changed by `factor` (host, small)."""
    i = numpy.arange(1, order + 1)[:, None]
    j = numpy.arange(1, order + 1)
    M = numpy.zeros((order + 1, order + 1))
    M[1:, 1:] = (i - 1 - factor * j) / i
    M[0] = 1
    return numpy.cumprod(M, axis=0)


def combine(vectors, weights):
    out = None
    for v, w in zip(vectors, weights):
        term = v * float(w)
        out = term if out is None else out + term
    return out


def change_D(D, order, factor):
    """D[:order + 1] <- (R U)^T D[:order + 1] in place of the list's entries."""
    RU = compute_R(order, factor).dot(compute_R(order, 1))
    D[:order + 1] = [combine(D[:order + 1], RU[:, k]) for k in range(order + 1)]


def solve_bdf_system(fun, t_new, y_predict, c, psi, LU, scale, tol):
    """The simplified Newton iteration of the BDF step: (converged, iterations, y, d)."""
    d = 0
    y = y_predict
    dy_norm_old = None
    converged = False
    for k in range(NEWTON_MAXITER):
        f = fun(t_new, y)
        dy = solve_lu(LU, c * f - psi - d)
        # the iteration's one read: the increment's norm and whether f was finite
        dy_norm, ok = (float(v) for v in read(stack([norm(dy / scale), where(all_(isfinite(f)), 1.0, 0.0)])))
        if not ok:
            break
        rate = None if dy_norm_old is None else dy_norm / dy_norm_old
        if rate is not None and (rate >= 1 or rate ** (NEWTON_MAXITER - k) / (1 - rate) * dy_norm > tol):
            break
        y = y + dy
        d = d + dy
        if dy_norm == 0 or rate is not None and rate / (1 - rate) * dy_norm < tol:
            converged = True
            break
        dy_norm_old = dy_norm
    return converged, k + 1, y, d


class BDF(OdeSolver):
    """See `scipy.integrate.BDF`. The state, the differences, the Jacobian and its LU are device
    arrays (cuSOLVER's LU; complex `y0` as SciPy allows); `jac` is a device array or a callable
    returning one, or None for forward differences on the device. A sparse `jac`, or `jac_sparsity`
    (differences grouped by columns, on its pattern only), gives a sparse Jacobian factorised by
    cuDSS as SciPy's by SuperLU (without `cuarray[cudss]`: gtsv2's solves where it is tridiagonal,
    else the dense LU up to 16384 rows and ImportError past that). The host reads one small vector
    per Newton iteration and one number per trial step (plus one when the order may change)."""

    def __init__(self, fun, t0, y0, t_bound, max_step=numpy.inf, rtol=1e-3, atol=1e-6, jac=None, jac_sparsity=None,
                 vectorized=False, first_step=None, **extraneous):
        warn_extraneous(extraneous)
        super().__init__(fun, t0, y0, t_bound, vectorized, support_complex=True)
        self.max_step = validate_max_step(max_step)
        self.rtol, self.atol = validate_tol(rtol, atol, self.n)
        f = self.fun(self.t, self.y)
        start_steps(self, first_step, t0, t_bound, max_step, f, 1)
        self.jac_factor = None
        jac_wrapped, self.J = validate_jac(self, jac, jac_sparsity, self.y.dtype, f)
        if jac is None:
            def jac_wrapped(t, y, _jac=jac_wrapped):  # SciPy evaluates f here, outside nfev
                return _jac(t, y, self.fun_single(t, y))
        self.jac = jac_wrapped
        self.I = identity(self.n, dtype=self.y.dtype, sparse=is_sparse(self.J))
        self.gamma, self.alpha, self.error_const = GAMMA, ALPHA, ERROR_CONST
        zero = self.y * 0
        self.D = [self.y, f * (self.h_abs * self.direction)] + [zero] * (MAX_ORDER + 1)
        self.order = 1
        self.n_equal_steps = 0
        self.LU = None

    def _step_impl(self):
        t, D = self.t, self.D
        max_step = self.max_step
        min_step = 10 * numpy.abs(numpy.nextafter(t, self.direction * numpy.inf) - t)
        if self.h_abs > max_step:
            h_abs = max_step
            change_D(D, self.order, max_step / self.h_abs)
            self.n_equal_steps = 0
        elif self.h_abs < min_step:
            h_abs = min_step
            change_D(D, self.order, min_step / self.h_abs)
            self.n_equal_steps = 0
        else:
            h_abs = self.h_abs
        atol, rtol, order = self.atol, self.rtol, self.order
        J, LU = self.J, self.LU
        current_jac = self.jac is None
        step_accepted = False
        while not step_accepted:
            if h_abs < min_step:
                return False, self.TOO_SMALL_STEP
            h = h_abs * self.direction
            t_new = t + h
            if self.direction * (t_new - self.t_bound) > 0:
                t_new = self.t_bound
                change_D(D, order, numpy.abs(t_new - t) / h_abs)
                self.n_equal_steps = 0
                LU = None
            h = t_new - t
            h_abs = numpy.abs(h)
            y_predict = combine(D[:order + 1], numpy.ones(order + 1))
            scale = atol + rtol * abs_(y_predict)
            psi = combine(D[1:order + 1], GAMMA[1:order + 1] / ALPHA[order])
            converged = False
            c = h / ALPHA[order]
            while not converged:
                if LU is None:
                    LU = lu(self, self.I - c * J)
                converged, n_iter, y_new, d = solve_bdf_system(self.fun, t_new, y_predict, c, psi, LU, scale,
                                                               self.newton_tol)
                if not converged:
                    if current_jac:
                        break
                    J = self.jac(t_new, y_predict)
                    LU = None
                    current_jac = True
            if not converged:
                factor = 0.5
                h_abs *= factor
                change_D(D, order, factor)
                self.n_equal_steps = 0
                LU = None
                continue
            safety = 0.9 * (2 * NEWTON_MAXITER + 1) / (2 * NEWTON_MAXITER + n_iter)
            scale = atol + rtol * abs_(y_new)
            # the trial step's read: its error norm
            error_norm = float(read(norm(ERROR_CONST[order] * d / scale)))
            if error_norm > 1:
                factor = max(MIN_FACTOR, safety * error_norm ** (-1 / (order + 1)))
                h_abs *= factor
                change_D(D, order, factor)
                self.n_equal_steps = 0
            else:
                step_accepted = True
        self.n_equal_steps += 1
        self.t, self.y, self.h_abs = t_new, y_new, h_abs
        self.J, self.LU = J, LU
        D[order + 2] = d - D[order + 1]
        D[order + 1] = d
        for i in reversed(range(order + 1)):
            D[i] = D[i] + D[i + 1]
        if self.n_equal_steps < order + 1:
            return True, None
        # the neighbouring orders' error norms, read together
        others = [norm(ERROR_CONST[order - 1] * D[order] / scale) if order > 1 else None,
                  norm(ERROR_CONST[order + 1] * D[order + 2] / scale) if order < MAX_ORDER else None]
        values = iter(float(v) for v in read(stack([v for v in others if v is not None])))
        error_m_norm, error_p_norm = (numpy.inf if v is None else next(values) for v in others)
        error_norms = numpy.array([error_m_norm, error_norm, error_p_norm])
        with numpy.errstate(divide="ignore"):
            factors = error_norms ** (-1 / numpy.arange(order, order + 3))
        order += numpy.argmax(factors) - 1
        self.order = int(order)
        factor = min(MAX_FACTOR, safety * numpy.max(factors))
        self.h_abs *= factor
        change_D(D, self.order, factor)
        self.n_equal_steps = 0
        self.LU = None
        return True, None

    def _dense_output_impl(self):
        return BdfDenseOutput(self.t_old, self.t, self.h_abs * self.direction, self.order, self.D[:self.order + 1])


class BdfDenseOutput(DenseOutput):
    """See `scipy.integrate._ivp.bdf.BdfDenseOutput`: the interpolating polynomial through the
    backward differences D, in Newton's form."""

    def __init__(self, t_old, t, h, order, D):
        super().__init__(t_old, t)
        self.order = order
        self.t_shift = self.t - h * numpy.arange(self.order)
        self.denom = h * (1 + numpy.arange(self.order))
        self.D = list(D)

    def _call_impl(self, t):
        if isinstance(t, float):
            p = numpy.cumprod((t - self.t_shift) / self.denom)
            return combine(self.D[1:], p) + self.D[0]
        y, p = None, None
        for j in range(self.order):
            x = (t - float(self.t_shift[j])) / float(self.denom[j])
            p = x if p is None else p * x
            term = self.D[j + 1][:, None] * p[None, :]
            y = term if y is None else y + term
        return y + self.D[0][:, None]
