"""Radau IIA of order 5, after SciPy's `scipy.integrate._ivp.radau` (E. Hairer, G. Wanner, "Solving
Ordinary Differential Equations II: Stiff and Differential-Algebraic Problems", Sec. IV.8): the
three-stage collocation system is solved by a simplified Newton iteration in the transformed
variables W = TI Z, one real and one complex linear system a stage, each with its LU of
(mu / h) I - J kept across steps while it serves. The stages, the Jacobian and its LUs are device
arrays. The host reads one small vector per Newton iteration (the increment's norm and whether
f was finite: the convergence test) and one number per trial step (the error norm)."""

import numpy

from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import stack
from ..._math.complex import imag, real
from ..._math.misc import abs as abs_
from ..._sorting.searching import where
from ._implicit import identity, is_sparse, lu, solve_lu, start_steps, validate_jac
from ._ivp_base import OdeSolver, clipped_step, norm, read, validate_max_step, validate_tol, warn_extraneous
from ._rk import RkDenseOutput

S6 = 6 ** 0.5
C = numpy.array([(4 - S6) / 10, (4 + S6) / 10, 1])  # the collocation nodes
E = numpy.array([-13 - 7 * S6, -13 + 7 * S6, -1]) / 3  # the embedded error estimator's weights
# the eigenvalues of the inverse of the Butcher matrix A, and the matrices that bring A^-1 to its
# real block-diagonal form (T^-1 A^-1 T), as Hairer & Wanner tabulate them
MU_REAL = 3 + 3 ** (2 / 3) - 3 ** (1 / 3)
MU_COMPLEX = 3 + 0.5 * (3 ** (1 / 3) - 3 ** (2 / 3)) - 0.5j * (3 ** (5 / 6) + 3 ** (7 / 6))
T = numpy.array([[0.09443876248897524, -0.14125529502095421, 0.03002919410514742],
                 [0.25021312296533332, 0.20412935229379994, -0.38294211275726192],
                 [1, 1, 0]])
TI = numpy.array([[4.17871859155190428, 0.32768282076106237, 0.52337644549944951],
                  [-4.17871859155190428, -0.32768282076106237, 0.47662355450055044],
                  [0.50287263494578682, -2.57192694985560522, 0.59603920482822492]])
TI_REAL = TI[0]
TI_COMPLEX = TI[1] + 1j * TI[2]
# the collocation polynomial's coefficients in x = (t - t_old) / h, from the stages Z
P = numpy.array([[13 / 3 + 7 * S6 / 3, -23 / 3 - 22 * S6 / 3, 10 / 3 + 5 * S6],
                 [13 / 3 - 7 * S6 / 3, -23 / 3 + 22 * S6 / 3, 10 / 3 - 5 * S6],
                 [1 / 3, -8 / 3, 10 / 3]])
NEWTON_MAXITER = 6
MIN_FACTOR = 0.2
MAX_FACTOR = 10


def combine(vectors, weights):
    """sum_i weights[i] * vectors[i] with host weights (real or complex)."""
    out = None
    for v, w in zip(vectors, weights):
        if w == 0:
            continue
        term = v * (complex(w) if numpy.iscomplexobj(w) else float(w))
        out = term if out is None else out + term
    return out if out is not None else vectors[0] * 0.0


def solve_collocation_system(fun, t, y, h, Z0, scale, tol, LU_real, LU_complex):
    """The simplified Newton iteration of the collocation system: (converged, iterations, Z,
    rate). Z is a list of three device vectors (y at t + C h is y + Z[i])."""
    M_real = MU_REAL / h
    M_complex = MU_COMPLEX / h
    W = [combine(Z0, TI[i]) for i in range(3)]
    Z = Z0
    ch = h * C
    dW_norm_old = None
    converged = False
    rate = None
    for k in range(NEWTON_MAXITER):
        F = [fun(t + ch[i], y + Z[i]) for i in range(3)]
        f_real = combine(F, TI_REAL) - M_real * W[0]
        f_complex = combine(F, TI_COMPLEX) - M_complex * (W[1] + 1j * W[2])
        dW_real = solve_lu(LU_real, f_real)
        dW_complex = solve_lu(LU_complex, f_complex)
        dW = [dW_real, real(dW_complex), imag(dW_complex)]
        # the iteration's one read: the increment's norm and whether f was finite
        finite = all_(stack([all_(isfinite(f)) for f in F]))
        dW_norm, ok = (float(v) for v in read(stack([norm(stack(dW) / scale), where(finite, 1.0, 0.0)])))
        if not ok:
            break
        if dW_norm_old is not None:
            rate = dW_norm / dW_norm_old
        if rate is not None and (rate >= 1 or rate ** (NEWTON_MAXITER - k) / (1 - rate) * dW_norm > tol):
            break
        W = [w + d for w, d in zip(W, dW)]
        Z = [combine(W, T[i]) for i in range(3)]
        if dW_norm == 0 or rate is not None and rate / (1 - rate) * dW_norm < tol:
            converged = True
            break
        dW_norm_old = dW_norm
    return converged, k + 1, Z, rate


def predict_factor(h_abs, h_abs_old, error_norm, error_norm_old):
    """The step-size factor of Hairer & Wanner's predictive (Gustafsson) controller, as SciPy."""
    if error_norm_old is None or h_abs_old is None or error_norm == 0:
        multiplier = 1
    else:
        multiplier = h_abs / h_abs_old * (error_norm_old / error_norm) ** 0.25
    with numpy.errstate(divide="ignore"):
        return min(1, multiplier) * numpy.float64(error_norm) ** -0.25


def _maximum_abs(a, b):
    a, b = abs_(a), abs_(b)
    return where(a >= b, a, b)


class Radau(OdeSolver):
    """See `scipy.integrate.Radau`. The state, the Jacobian and its LU factors are device arrays
    (cuSOLVER's LU); `jac` is a device array or a callable returning one, or None for forward
    differences on the device. A sparse `jac`, or `jac_sparsity` (differences grouped by columns,
    on its pattern only), gives a sparse Jacobian whose real and complex iteration matrices cuDSS
    factorises, as SciPy's SuperLU (without `cuarray[cudss]`: gtsv2's solves where it is
    tridiagonal, else the dense LU up to 16384 rows and ImportError past that). The host reads one small
    vector per Newton iteration and one number per trial step."""

    def __init__(self, fun, t0, y0, t_bound, max_step=numpy.inf, rtol=1e-3, atol=1e-6, jac=None, jac_sparsity=None,
                 vectorized=False, first_step=None, **extraneous):
        warn_extraneous(extraneous)
        super().__init__(fun, t0, y0, t_bound, vectorized)
        self.y_old = None
        self.max_step = validate_max_step(max_step)
        self.rtol, self.atol = validate_tol(rtol, atol, self.n)
        self.f = self.fun(self.t, self.y)
        start_steps(self, first_step, t0, t_bound, max_step, self.f, 3)
        self.sol = None
        self.jac_factor = None
        self.jac, self.J = validate_jac(self, jac, jac_sparsity, float, self.f)
        self.I = identity(self.n, sparse=is_sparse(self.J))
        self.current_jac = True
        self.LU_real = None
        self.LU_complex = None
        self.Z = None

    def _step_impl(self):
        t, y, f = self.t, self.y, self.f
        max_step, atol, rtol = self.max_step, self.atol, self.rtol
        min_step = 10 * numpy.abs(numpy.nextafter(t, self.direction * numpy.inf) - t)
        if self.h_abs > max_step:
            h_abs, h_abs_old, error_norm_old = max_step, None, None
        elif self.h_abs < min_step:
            h_abs, h_abs_old, error_norm_old = min_step, None, None
        else:
            h_abs, h_abs_old, error_norm_old = self.h_abs, self.h_abs_old, self.error_norm_old
        J, LU_real, LU_complex = self.J, self.LU_real, self.LU_complex
        current_jac, jac = self.current_jac, self.jac
        rejected = step_accepted = False
        while not step_accepted:
            if h_abs < min_step:
                return False, self.TOO_SMALL_STEP
            t_new, h, h_abs = clipped_step(self, t, h_abs)
            if self.sol is None:
                Z0 = [y * 0.0 for _ in range(3)]
            else:
                Z0 = [self.sol(float(t + h * c)) - y for c in C]
            scale = atol + abs_(y) * rtol
            converged = False
            while not converged:
                if LU_real is None or LU_complex is None:
                    LU_real = lu(self, MU_REAL / h * self.I - J)
                    LU_complex = lu(self, MU_COMPLEX / h * self.I - J)
                converged, n_iter, Z, rate = solve_collocation_system(self.fun, t, y, h, Z0, scale, self.newton_tol,
                                                                      LU_real, LU_complex)
                if not converged:
                    if current_jac:
                        break
                    J = self.jac(t, y, f)
                    current_jac = True
                    LU_real = LU_complex = None
            if not converged:
                h_abs *= 0.5
                LU_real = LU_complex = None
                continue
            y_new = y + Z[-1]
            ZE = combine(Z, E / h)
            error = solve_lu(LU_real, f + ZE)
            scale = atol + _maximum_abs(y, y_new) * rtol
            # the trial step's read: its error norm
            error_norm = float(read(norm(error / scale)))
            safety = 0.9 * (2 * NEWTON_MAXITER + 1) / (2 * NEWTON_MAXITER + n_iter)
            if rejected and error_norm > 1:
                error = solve_lu(LU_real, self.fun(t, y + error) + ZE)
                error_norm = float(read(norm(error / scale)))
            if error_norm > 1:
                factor = predict_factor(h_abs, h_abs_old, error_norm, error_norm_old)
                h_abs *= max(MIN_FACTOR, safety * factor)
                LU_real = LU_complex = None
                rejected = True
            else:
                step_accepted = True
        recompute_jac = jac is not None and n_iter > 2 and rate > 1e-3
        factor = predict_factor(h_abs, h_abs_old, error_norm, error_norm_old)
        factor = min(MAX_FACTOR, safety * factor)
        if not recompute_jac and factor < 1.2:
            factor = 1
        else:
            LU_real = LU_complex = None
        f_new = self.fun(t_new, y_new)
        if recompute_jac:
            J = jac(t_new, y_new, f_new)
            current_jac = True
        elif jac is not None:
            current_jac = False
        self.h_abs_old = self.h_abs
        self.error_norm_old = error_norm
        self.h_abs = h_abs * factor
        self.y_old = y
        self.t, self.y, self.f = t_new, y_new, f_new
        self.Z = Z
        self.LU_real, self.LU_complex = LU_real, LU_complex
        self.current_jac = current_jac
        self.J = J
        self.t_old = t
        self.sol = RadauDenseOutput(self.t_old, self.t, self.y_old, [combine(Z, P[:, j]) for j in range(3)])
        return step_accepted, None

    def _dense_output_impl(self):
        return self.sol


class RadauDenseOutput(RkDenseOutput):
    """See `scipy.integrate._ivp.radau.RadauDenseOutput`: y_old + sum_j Q_j x^(j+1), x = (t - t_old) / h
    (the explicit methods' interpolant without their factor h)."""

    def _scaled(self, acc):
        return acc

