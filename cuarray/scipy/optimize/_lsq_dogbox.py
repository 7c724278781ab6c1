"""`least_squares(method='dogbox')`: SciPy's dogleg algorithm with rectangular trust regions
(Voglis & Lagaris, "A rectangular trust region dogleg approach for unconstrained and bound
constrained nonlinear optimization", WSEAS 2004; `scipy.optimize._lsq.dogbox`, ported). With the
exact subproblem solver the Gauss-Newton step on the free variables comes from the SVD of their
Jacobian columns on the device (`_lsq_trf._svd_factors`: the minimum-norm solution, as SciPy's
``lstsq(rcond=-1)``), and the quadratic models from its n-sized factors on the host; for 'lsmr'
see `_lsq_lsmr`.

Reads per iteration: the gradient and column norms after a Jacobian, the SVD's small factors, and
the cost of each trial point (one read each), as `_lsq_trf`'s."""

import numpy

from ..._core.transfer import from_host
from ..._indexing.inserting import take
from ._lsq_host import EPS, check_termination, in_bounds, minimize_quadratic_1d, step_size_to_bound, update_tr_radius
from ._lsq_lsmr import OperatorModel, SvdModel, dogbox_newton
from ._lsq_trf import _jac_scale, _svd_factors, accept, accept_and_rescale, evaluate, halted, result

__all__ = ["dogbox"]


def _dogleg_step(x, newton_step, g, a, b, tr_bounds, lb, ub):
    """SciPy's dogleg_step: the dogleg path cut at the intersection of the box trust region and
    the bounds. Returns (step, the original bounds it hits (-1/0/1), whether it hits the region)."""
    lb_c, ub_c = lb - x, ub - x
    lb_total, ub_total = numpy.maximum(lb_c, -tr_bounds), numpy.minimum(ub_c, tr_bounds)
    bound_hits = numpy.zeros_like(x, dtype=int)
    if in_bounds(newton_step, lb_total, ub_total):
        return newton_step, bound_hits, False
    to_bounds, _ = step_size_to_bound(numpy.zeros_like(x), -g, lb_total, ub_total)
    cauchy_step = -minimize_quadratic_1d(a, b, 0, to_bounds)[0] * g
    step_diff = newton_step - cauchy_step
    step_size, hits = step_size_to_bound(cauchy_step, step_diff, lb_total, ub_total)
    bound_hits[(hits < 0) & (lb_total == lb_c)] = -1
    bound_hits[(hits > 0) & (ub_total == ub_c)] = 1
    tr_hit = bool(numpy.any((hits < 0) & (lb_total == -tr_bounds) | (hits > 0) & (ub_total == tr_bounds)))
    return cauchy_step + step_size * step_diff, bound_hits, tr_hit


def _newton(J, f, free):
    """The Gauss-Newton step on the free variables and the SVD factors of their columns."""
    s, V, uf = _svd_factors(take(J, from_host(numpy.nonzero(free)[0]), axis=1), f)
    keep = s > EPS * s[0] if s.size else s > 0
    return -V[:, keep].dot(uf[keep] / s[keep]), s, V


def dogbox(problem, x0, f0, cost0, lb, ub, ftol, xtol, gtol, max_nfev, x_scale, callback, halt,
           lsmr_options=None):
    """The loop (SciPy's dogbox; tr_solver='lsmr' where `lsmr_options` (tr_options) are given)."""
    x, f_true, cost = x0.copy(), f0, cost0
    J, f, g, col2, g_dev = accept(problem, x, f0)
    jac_scale = isinstance(x_scale, str) and x_scale == "jac"
    scale, scale_inv = _jac_scale(col2) if jac_scale else (x_scale, 1 / x_scale)
    Delta = numpy.linalg.norm(x0 * scale_inv, ord=numpy.inf)
    Delta = 1.0 if Delta == 0 else Delta
    on_bound = numpy.zeros_like(x0, dtype=int)
    on_bound[x0 == lb] = -1
    on_bound[x0 == ub] = 1
    max_nfev = x0.size * 100 if max_nfev is None else max_nfev
    status, iteration = None, 0
    while True:
        free = ~(on_bound * g < 0)
        g_free = g[free]
        g_norm = numpy.linalg.norm(numpy.where(free, g, 0.0), ord=numpy.inf)
        if g_norm < gtol:
            status = 1
        if status is not None or problem.nfev == max_nfev:
            break
        x_free, lb_free, ub_free, scale_free = x[free], lb[free], ub[free], scale[free]
        if lsmr_options is None:
            newton_step, s, V = _newton(J, f, free)
            model = SvdModel(s, V, g_free)
        else:
            newton_step = dogbox_newton(J, f, scale, free, lsmr_options)
            model = OperatorModel(take(J, from_host(numpy.nonzero(free)[0]), axis=1), g_free)
        a, b = model.line(-g_free)
        actual_reduction = -1.0
        while actual_reduction <= 0 and problem.nfev < max_nfev:
            step_free, on_bound_free, tr_hit = _dogleg_step(x_free, newton_step, g_free, a, b, Delta * scale_free,
                                                            lb_free, ub_free)
            step = numpy.zeros_like(x)
            step[free] = step_free
            predicted_reduction = -model.value(step_free)
            x_new = numpy.clip(x + step, lb, ub)
            f_new, cost_new, finite = evaluate(problem, x_new)
            step_h_norm = numpy.linalg.norm(step * scale_inv, ord=numpy.inf)
            if not finite:
                Delta = 0.25 * step_h_norm
                continue
            actual_reduction = cost - cost_new
            Delta, ratio = update_tr_radius(Delta, actual_reduction, predicted_reduction, step_h_norm, tr_hit)
            status = check_termination(actual_reduction, cost, numpy.linalg.norm(step), numpy.linalg.norm(x), ratio,
                                       ftol, xtol)
            if status is not None:
                break
        if actual_reduction > 0:
            on_bound[free] = on_bound_free
            x = x_new
            x[on_bound == -1] = lb[on_bound == -1]
            x[on_bound == 1] = ub[on_bound == 1]
            f_true, cost = f_new, cost_new
            J, f, g, g_dev, scale, scale_inv = accept_and_rescale(problem, x, f_new, jac_scale, scale, scale_inv)
        iteration += 1
        if halted(problem, callback, halt, x, f_true, iteration, cost):
            status = -2
            break
    return result(problem, x, cost, f_true, J, g_dev, g_norm, on_bound, status)
