"""`least_squares(method='trf')`: SciPy's Trust Region Reflective algorithm (Branch, Coleman & Li,
SIAM J. Sci. Comput. 21 (1999); `scipy.optimize._lsq.trf`, ported) with the exact subproblem
solver: the SVD of the scaled (and, with bounds, augmented) Jacobian on the device
(`cuarray.linalg.svd`), Moré's iteration on the host on its n singular values. (The 'lsmr'
solver's steps: `_lsq_lsmr`.)

Reads per iteration: the gradient and column norms after a Jacobian (one read), the SVD's small
factors (s, V, U'f: one read), and the cost of each trial point (one read per function call). The
residuals and the Jacobian stay on the device."""

import numpy

from ..._core.transfer import from_host
from ..._creation.matrices import diag
from ..._manipulation.joining import concatenate
from ..._math.sums import sum as sum_
from ...linalg._products import dot
from ...linalg._svd import svd
from ._lsq_host import (check_termination, cl_scaling_vector, find_active_constraints, in_bounds,
                        intersect_trust_region, lsq_trust_region, make_strictly_feasible, minimize_quadratic_1d,
                        step_size_to_bound, trust_region_2d, update_tr_radius)
from ._lsq_lsmr import SvdModel, trf_subspace
from ._lsq_problem import read
from ._result import OptimizeResult

__all__ = ["trf", "evaluate", "accept", "accept_and_rescale", "halted", "result"]


def evaluate(problem, x):
    """f(x) on the device and (cost, finite) on the host: one read."""
    f = problem.fun(x)
    cost, finite = read(problem.cost_and_finite(f))[0]
    return f, float(cost), bool(finite)


def accept(problem, x, f):
    """J at an accepted point, scaled for the loss, and the host gradient and squared column norms
    (one read). Returns (J, g, colnorm2, J on the device)."""
    J, fs = problem.scale_for_loss(problem.jac(x, f), f)
    g_dev = dot(J.T, fs)
    g, col2 = read(g_dev, sum_(J * J, axis=0))
    return J, fs, g, col2, g_dev


def accept_and_rescale(problem, x, f, jac_scale, scale, scale_inv):
    """`accept` at an accepted point, and the 'jac' scaling updated from its column norms:
    (J, f, g, g on the device, scale, scale_inv)."""
    J, f, g, col2, g_dev = accept(problem, x, f)
    if jac_scale:
        scale, scale_inv = _jac_scale(col2, scale_inv)
    return J, f, g, g_dev, scale, scale_inv


def halted(problem, callback, halt, x, f_true, iteration, cost):
    """Whether the callback stops the loop after an iteration (SciPy's intermediate result)."""
    return halt(callback, OptimizeResult(x=from_host(x), fun=f_true, nit=iteration, nfev=problem.nfev, cost=cost))


def result(problem, x, cost, f_true, J, g_dev, g_norm, active, status):
    return OptimizeResult(x=from_host(x), cost=cost, fun=f_true, jac=J, grad=g_dev, optimality=g_norm,
                          active_mask=from_host(active), nfev=problem.nfev, njev=problem.njev,
                          status=0 if status is None else status)


def _jac_scale(col2, scale_inv_old=None):
    scale_inv = col2 ** 0.5
    if scale_inv_old is None:
        scale_inv[scale_inv == 0] = 1
    else:
        scale_inv = numpy.maximum(scale_inv, scale_inv_old)
    return 1 / scale_inv, scale_inv


def _svd_factors(J_h, f, diag_h=None):
    """(s, V, U'f) on the host of J_h, or of [J_h; diag(diag_h)**0.5] (one read)."""
    m = J_h.shape[0]
    A = J_h if diag_h is None else concatenate([J_h, diag(from_host(diag_h ** 0.5))])
    U, s, Vt = svd(A, full_matrices=False)
    uf = dot(U[:m].T, f)
    s, Vt, uf = read(s, Vt, uf)
    return s, Vt.T, uf


def _select_step(x, model, g_h, p, p_h, d, Delta, lb, ub, theta):
    """SciPy's select_step: the best of the reflected, the bound-clipped and the gradient steps
    (`model`: the quadratic model of the step in the scaled variables)."""
    if in_bounds(x + p, lb, ub):
        return p, p_h, -model.value(p_h)
    p_stride, hits = step_size_to_bound(x, p, lb, ub)
    r_h = numpy.copy(p_h)
    r_h[hits.astype(bool)] *= -1
    r = d * r_h
    p = p * p_stride
    p_h = p_h * p_stride
    _, to_tr = intersect_trust_region(p_h, r_h, Delta)
    to_bound, _ = step_size_to_bound(x + p, r, lb, ub)
    r_stride = min(to_bound, to_tr)
    if r_stride > 0:
        r_stride_l = (1 - theta) * p_stride / r_stride
        r_stride_u = theta * to_bound if r_stride == to_bound else to_tr
    else:
        r_stride_l, r_stride_u = 0, -1
    if r_stride_l <= r_stride_u:
        a, b, c = model.line(r_h, s0=p_h)
        r_stride, r_value = minimize_quadratic_1d(a, b, r_stride_l, r_stride_u, c=c)
        r_h = r_h * r_stride + p_h
        r = r_h * d
    else:
        r_value = numpy.inf
    p = p * theta
    p_h = p_h * theta
    p_value = model.value(p_h)
    ag_h = -g_h
    ag = d * ag_h
    to_tr = Delta / numpy.linalg.norm(ag_h)
    to_bound, _ = step_size_to_bound(x, ag, lb, ub)
    ag_stride = theta * to_bound if to_bound < to_tr else to_tr
    a, b = model.line(ag_h)
    ag_stride, ag_value = minimize_quadratic_1d(a, b, 0, ag_stride)
    if p_value < r_value and p_value < ag_value:
        return p, p_h, -p_value
    if r_value < p_value and r_value < ag_value:
        return r, r_h, -r_value
    return ag * ag_stride, ag_h * ag_stride, -ag_value


def trf(problem, x0, f0, cost0, lb, ub, ftol, xtol, gtol, max_nfev, x_scale, callback, halt, lsmr_options=None):
    """The TRF loop (bounded and unbounded: SciPy's trf_bounds/trf_no_bounds in one, the bounded
    parts skipped when there are no bounds, as SciPy's two functions differ only there), with the
    exact solver or, given `lsmr_options` (tr_options), lsmr's 2-D subspace steps."""
    if lsmr_options is not None:
        lsmr_options = dict(lsmr_options)
        regularize = lsmr_options.pop("regularize", True)
    bounded = not (numpy.all(lb == -numpy.inf) and numpy.all(ub == numpy.inf))
    x, f_true, cost = x0.copy(), f0, cost0
    J, f, g, col2, g_dev = accept(problem, x, f0)
    m, n = J.shape
    jac_scale = isinstance(x_scale, str) and x_scale == "jac"
    scale, scale_inv = _jac_scale(col2) if jac_scale else (x_scale, 1 / x_scale)
    if bounded:
        v, dv = cl_scaling_vector(x, g, lb, ub)
        v[dv != 0] *= scale_inv[dv != 0]
        Delta = numpy.linalg.norm(x0 * scale_inv / v ** 0.5)
    else:
        Delta = numpy.linalg.norm(x0 * scale_inv)
    Delta = 1.0 if Delta == 0 else Delta
    max_nfev = x0.size * 100 if max_nfev is None else max_nfev
    alpha, status, iteration = 0.0, None, 0
    while True:
        if bounded:
            v, dv = cl_scaling_vector(x, g, lb, ub)
            g_norm = numpy.linalg.norm(g * v, ord=numpy.inf)
        else:
            g_norm = numpy.linalg.norm(g, ord=numpy.inf)
        if g_norm < gtol:
            status = 1
        if status is not None or problem.nfev == max_nfev:
            break
        if bounded:
            v[dv != 0] *= scale_inv[dv != 0]
            d = v ** 0.5 * scale
            diag_h = g * dv * scale
            theta = max(0.995, 1 - g_norm)
        else:
            d, diag_h = scale, None
        g_h = d * g
        if lsmr_options is None:
            s, V, uf = _svd_factors(J * from_host(d), f, diag_h)
            model = SvdModel(s, V, g_h)
        else:
            model, S, B_S, g_S = trf_subspace(J, f, d, g_h, diag_h, Delta, regularize, lsmr_options)
        actual_reduction = -1
        while actual_reduction <= 0 and problem.nfev < max_nfev:
            if lsmr_options is None:
                p_h, alpha = lsq_trust_region(m, uf, s, V, Delta, alpha)
            else:
                p_S, _ = trust_region_2d(B_S, g_S, Delta)
                p_h = S.dot(p_S)
            if bounded:
                step, step_h, predicted_reduction = _select_step(x, model, g_h, d * p_h, p_h, d, Delta, lb, ub, theta)
                x_new = make_strictly_feasible(x + step, lb, ub, rstep=0)
            else:
                step_h, predicted_reduction = p_h, -model.value(p_h)
                step = d * step_h
                x_new = x + step
            f_new, cost_new, finite = evaluate(problem, x_new)
            step_h_norm = numpy.linalg.norm(step_h)
            if not finite:
                Delta = 0.25 * step_h_norm
                continue
            actual_reduction = cost - cost_new
            Delta_new, ratio = update_tr_radius(Delta, actual_reduction, predicted_reduction, step_h_norm,
                                                step_h_norm > 0.95 * Delta)
            status = check_termination(actual_reduction, cost, numpy.linalg.norm(step), numpy.linalg.norm(x),
                                       ratio, ftol, xtol)
            if status is not None:
                break
            alpha *= Delta / Delta_new
            Delta = Delta_new
        if actual_reduction > 0:
            x, f_true, cost = x_new, f_new, cost_new
            J, f, g, g_dev, scale, scale_inv = accept_and_rescale(problem, x, f_new, jac_scale, scale, scale_inv)
        iteration += 1
        if halted(problem, callback, halt, x, f_true, iteration, cost):
            status = -2
            break
    active = find_active_constraints(x, lb, ub, rtol=xtol) if bounded else numpy.zeros(n)
    return result(problem, x, cost, f_true, J, g_dev, g_norm, active, status)
