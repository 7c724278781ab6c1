"""Explicit Runge-Kutta solvers RK23, RK45 and DOP853, after SciPy's `scipy.integrate._ivp.rk`
(the same tableaux, error norms and step-size controller, so the accepted steps are SciPy's). The
stages and the error estimate are device arrays; each trial step reads its error norm to the host
(one small read), since the accept/reject decision and the next step size are host numbers."""

import numpy

from ..._math.misc import abs as abs_, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from . import _rk_tableaux as tab
from ._ivp_base import (DenseOutput, OdeSolver, clipped_step, norm, read, select_initial_step, validate_first_step,
                        validate_max_step, validate_tol, warn_extraneous)


class RungeKutta(OdeSolver):
    """The embedded explicit Runge-Kutta step and SciPy's step-size controller."""

    C = A = B = E = P = NotImplemented
    order = error_estimator_order = n_stages = NotImplemented

    def __init__(self, fun, t0, y0, t_bound, max_step=numpy.inf, rtol=1e-3, atol=1e-6, vectorized=False,
                 first_step=None, **extraneous):
        warn_extraneous(extraneous)
        super().__init__(fun, t0, y0, t_bound, vectorized, support_complex=True)
        self.y_old = None
        self.max_step = validate_max_step(max_step)
        self.rtol, self.atol = validate_tol(rtol, atol, self.n)
        self.f = self.fun(self.t, self.y)
        if first_step is None:
            self.h_abs = select_initial_step(self.fun, self.t, self.y, t_bound, max_step, self.f, self.direction,
                                             self.error_estimator_order, self.rtol, self.atol)
        else:
            self.h_abs = validate_first_step(first_step, t0, t_bound)
        self.K = None
        self.error_exponent = -1 / (self.error_estimator_order + 1)
        self.h_previous = None

    def _estimate_error_norm(self, K, h, scale):
        return norm(tab.combine(K, self.E) * h / scale)

    def _step_impl(self):
        t, y = self.t, self.y
        min_step = 10 * numpy.abs(numpy.nextafter(t, self.direction * numpy.inf) - t)
        if self.h_abs > self.max_step:
            h_abs = self.max_step
        elif self.h_abs < min_step:
            h_abs = min_step
        else:
            h_abs = self.h_abs
        step_accepted = step_rejected = False
        while not step_accepted:
            if h_abs < min_step:
                return False, self.TOO_SMALL_STEP
            t_new, h, h_abs = clipped_step(self, t, h_abs)
            y_new, f_new, self.K = tab.rk_step(self.fun, t, y, self.f, h, self.A, self.B, self.C)
            scale = self.atol + _maximum_abs(y, y_new) * self.rtol
            # the step's one device-to-host read: the accept/reject test and the next step size
            error_norm = float(read(self._estimate_error_norm(self.K, h, scale)))
            if error_norm < 1:
                factor = tab.MAX_FACTOR if error_norm == 0 else \
                    min(tab.MAX_FACTOR, tab.SAFETY * error_norm ** self.error_exponent)
                if step_rejected:
                    factor = min(1, factor)
                h_abs *= factor
                step_accepted = True
            else:
                h_abs *= max(tab.MIN_FACTOR, tab.SAFETY * error_norm ** self.error_exponent)
                step_rejected = True
        self.h_previous = h
        self.y_old = y
        self.t = t_new
        self.y = y_new
        self.h_abs = h_abs
        self.f = f_new
        return True, None

    def _dense_output_impl(self):
        Q = [tab.combine(self.K, self.P[:, j]) for j in range(self.P.shape[1])]
        return RkDenseOutput(self.t_old, self.t, self.y_old, Q)


def _maximum_abs(a, b):
    a, b = abs_(a), abs_(b)
    return where(a >= b, a, b)


class RK23(RungeKutta):
    """See `scipy.integrate.RK23`. The state is a device array; one host read per trial step."""

    order, error_estimator_order, n_stages = 3, 2, 3
    C, A, B, E, P = (tab.RK23[k] for k in "CABEP")


class RK45(RungeKutta):
    """See `scipy.integrate.RK45`. The state is a device array; one host read per trial step."""

    order, error_estimator_order, n_stages = 5, 4, 6
    C, A, B, E, P = (tab.RK45[k] for k in "CABEP")


class DOP853(RungeKutta):
    """See `scipy.integrate.DOP853`. The state is a device array; one host read per trial step."""

    order, error_estimator_order, n_stages = 8, 7, tab.DOP853["n_stages"]
    C, A, B = (tab.DOP853[k] for k in "CAB")
    E3, E5, D = (tab.DOP853[k] for k in ("E3", "E5", "D"))
    A_EXTRA, C_EXTRA = tab.DOP853["A_EXTRA"], tab.DOP853["C_EXTRA"]

    def _estimate_error_norm(self, K, h, scale):
        err5 = tab.combine(K, self.E5) / scale
        err3 = tab.combine(K, self.E3) / scale
        a5, a3 = abs_(err5), abs_(err3)
        e5, e3 = sum_(a5 * a5), sum_(a3 * a3)
        denom = sqrt((e5 + 0.01 * e3) * float(self.n))
        # both norms zero gives 0, as SciPy returns: the numerator is then 0 too
        return abs(h) * e5 / where(denom == 0, 1.0, denom)

    def _dense_output_impl(self):
        K = list(self.K)
        h = self.h_previous
        for s, (a, c) in enumerate(zip(self.A_EXTRA, self.C_EXTRA), start=self.n_stages + 1):
            K.append(self.fun(self.t_old + float(c) * h, self.y_old + tab.combine(K, a[:s]) * h))
        f_old = K[0]
        delta_y = self.y - self.y_old
        F = [delta_y, h * f_old - delta_y, 2 * delta_y - h * (self.f + f_old)]
        F += [tab.combine(K, d) * h for d in self.D]
        return Dop853DenseOutput(self.t_old, self.t, self.y_old, F)


class RkDenseOutput(DenseOutput):
    """The step's interpolant y_old + h * sum_j Q_j x^(j+1), x = (t - t_old) / h."""

    def __init__(self, t_old, t, y_old, Q):
        super().__init__(t_old, t)
        self.h = t - t_old
        self.Q = Q
        self.order = len(Q) - 1
        self.y_old = y_old

    def _scaled(self, acc):
        return acc * self.h

    def _call_impl(self, t):
        x = (t - self.t_old) / self.h
        if isinstance(t, float):
            p, acc = 1.0, None
            for q in self.Q:
                p = p * x
                acc = q * p if acc is None else acc + q * p
            return self._scaled(acc) + self.y_old
        p, acc = None, None
        for q in self.Q:
            p = x if p is None else p * x
            term = q[:, None] * p[None, :]
            acc = term if acc is None else acc + term
        return self._scaled(acc) + self.y_old[:, None]


class Dop853DenseOutput(DenseOutput):
    """DOP853's interpolant, Horner's scheme over F in x and 1 - x as SciPy evaluates it."""

    def __init__(self, t_old, t, y_old, F):
        super().__init__(t_old, t)
        self.h = t - t_old
        self.F = F
        self.y_old = y_old

    def _call_impl(self, t):
        x = (t - self.t_old) / self.h
        scalar = isinstance(t, float)
        xc = x if scalar else x[None, :]
        y = None
        for i, f in enumerate(reversed(self.F)):
            f = f if scalar else f[:, None]
            y = f if y is None else y + f
            y = y * xc if i % 2 == 0 else y * (1 - xc)
        return y + (self.y_old if scalar else self.y_old[:, None])
