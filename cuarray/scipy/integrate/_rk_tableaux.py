"""Butcher tableaux of the explicit Runge-Kutta pairs (host constants), as SciPy's
`scipy.integrate._ivp.rk` states them: Bogacki-Shampine 3(2) (P. Bogacki, L. F. Shampine,
"A 3(2) pair of Runge-Kutta formulas", Appl. Math. Lett. 2, 1989) and Dormand-Prince 5(4)
(J. R. Dormand, P. J. Prince, "A family of embedded Runge-Kutta formulae", J. Comput. Appl. Math. 6,
1980) with Shampine's dense output (L. F. Shampine, "Some Practical Runge-Kutta Formulas",
Math. Comp. 46, 1986). Each pair: C nodes, A stage matrix, B weights, E error weights (with the
last stage f(t + h, y_new)), P dense-output coefficients, the orders and the stage count."""

import numpy

from . import _dop853_coefficients as dop

SAFETY = 0.9  # the step-size controller's safety factor, minimum and maximum change per step
MIN_FACTOR = 0.2
MAX_FACTOR = 10

RK23 = dict(
    order=3, error_estimator_order=2, n_stages=3,
    C=numpy.array([0, 1 / 2, 3 / 4]),
    A=numpy.array([[0, 0, 0], [1 / 2, 0, 0], [0, 3 / 4, 0]]),
    B=numpy.array([2 / 9, 1 / 3, 4 / 9]),
    E=numpy.array([5 / 72, -1 / 12, -1 / 9, 1 / 8]),
    P=numpy.array([[1, -4 / 3, 5 / 9], [0, 1, -2 / 3], [0, 4 / 3, -8 / 9], [0, -1, 1]]),
)

RK45 = dict(
    order=5, error_estimator_order=4, n_stages=6,
    C=numpy.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1]),
    A=numpy.array([
        [0, 0, 0, 0, 0],
        [1 / 5, 0, 0, 0, 0],
        [3 / 40, 9 / 40, 0, 0, 0],
        [44 / 45, -56 / 15, 32 / 9, 0, 0],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656]]),
    B=numpy.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]),
    E=numpy.array([-71 / 57600, 0, 71 / 16695, -71 / 1920, 17253 / 339200, -22 / 525, 1 / 40]),
    P=numpy.array([
        [1, -8048581381 / 2820520608, 8663915743 / 2820520608, -12715105075 / 11282082432],
        [0, 0, 0, 0],
        [0, 131558114200 / 32700410799, -68118460800 / 10900136933, 87487479700 / 32700410799],
        [0, -1754552775 / 470086768, 14199869525 / 1410260304, -10690763975 / 1880347072],
        [0, 127303824393 / 49829197408, -318862633887 / 49829197408, 701980252875 / 199316789632],
        [0, -282668133 / 205662961, 2019193451 / 616988883, -1453857185 / 822651844],
        [0, 40617522 / 29380423, -110615467 / 29380423, 69997945 / 29380423]]),
)

DOP853 = dict(
    order=8, error_estimator_order=7, n_stages=dop.N_STAGES,
    C=dop.C[:dop.N_STAGES], A=dop.A[:dop.N_STAGES, :dop.N_STAGES], B=dop.B,
    E3=dop.E3, E5=dop.E5, D=dop.D,
    A_EXTRA=dop.A[dop.N_STAGES + 1:], C_EXTRA=dop.C[dop.N_STAGES + 1:],
)


def combine(K, weights):
    """sum_j weights[j] * K[j] over the stages K (device arrays, all one shape) with host weights;
    zero weights are skipped (adding 0 * K[j] changes no finite value)."""
    out = None
    for k, w in zip(K, weights):
        if w != 0:
            term = k * float(w)
            out = term if out is None else out + term
    return K[0] * 0.0 if out is None else out


def rk_step(fun, t, y, f, h, A, B, C):
    """One explicit Runge-Kutta step from (t, y) with f = fun(t, y): (y_new, f_new, K), K the
    stages and f_new last. `t` and `h` are host floats, or device columns (batch, 1) of
    per-system times and steps for the batched solver."""
    K = [f]
    for s in range(1, len(C)):
        K.append(fun(t + float(C[s]) * h, y + combine(K, A[s, :s]) * h))
    y_new = y + combine(K, B) * h
    f_new = fun(t + h, y_new)
    K.append(f_new)
    return y_new, f_new, K
