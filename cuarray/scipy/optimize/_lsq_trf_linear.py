"""`lsq_linear(method='trf')`: SciPy's adaptation of the Trust Region Reflective algorithm to a
linear least-squares problem with bounds (Branch, Coleman & Li, SIAM J. Sci. Comput. 21 (1999);
`scipy.optimize._lsq.trf_linear`, ported): Coleman and Li's scaling, a regularized Gauss-Newton
step, and the best of the reflected, the bound-clipped and the scaled-gradient steps.

The loop runs on the host on n-vectors; the system (`_lsq_linear_systems`) supplies the step, the
gradient and cost, and the Gram matrix of the three candidate directions, so each quadratic
model below is evaluated from a 3 x 3 matrix instead of products with A. Reads per iteration:
one (the step) for a dense A; the step, the Gram matrix and (gradient, cost) for 'lsmr'."""

import numpy

from ._lsq_host import (cl_scaling_vector, find_active_constraints, in_bounds, make_strictly_feasible,
                        minimize_quadratic_1d, print_iteration_linear, reflective_transformation,
                        step_size_to_bound)

__all__ = ["trf_linear"]


def _select_step(system, x, g_h, p_h, d, diag_h, lb, ub, theta):
    """SciPy's select_step: (step, predicted cost change) of the best candidate. The directions
    p_h, r_h (p_h reflected at the bound it hits) and -g_h are the columns of W; ``H = W'(D A'A D
    + diag_h)W`` gives every model's coefficients, ``G`` (without diag_h) the cost change."""
    p = d * p_h
    if in_bounds(x + p, lb, ub):
        W, coef = p_h[:, None], numpy.array([1.0])
        G = system.gram(d[:, None] * W)
    else:
        p_stride, hits = step_size_to_bound(x, p, lb, ub)
        r_h = numpy.copy(p_h)
        r_h[hits.astype(bool)] *= -1
        W = numpy.stack([p_h, r_h, -g_h], axis=1)
        G = system.gram(d[:, None] * W)
        H = G + (W * diag_h[:, None]).T.dot(W)
        gW = g_h.dot(W)
        t = theta * p_stride  # p, moved back inside
        p_value, p_coef = 0.5 * t * t * H[0, 0] + t * gW[0], [t, 0.0, 0.0]
        r_stride_u, _ = step_size_to_bound(x + p * p_stride, d * r_h, lb, ub)
        r_value, r_coef = numpy.inf, None
        if r_stride_u > 0:  # the reflected step from the bound, kept inside
            a = 0.5 * H[1, 1]
            b = gW[1] + p_stride * H[0, 1]
            c = 0.5 * p_stride ** 2 * H[0, 0] + p_stride * gW[0]
            r_stride, r_value = minimize_quadratic_1d(a, b, (1 - theta) * r_stride_u, theta * r_stride_u, c=c)
            r_coef = [p_stride, r_stride, 0.0]
        ag_stride_u, _ = step_size_to_bound(x, -d * g_h, lb, ub)
        ag_stride, ag_value = minimize_quadratic_1d(0.5 * H[2, 2], gW[2], 0, theta * ag_stride_u)
        if p_value < r_value and p_value < ag_value:
            coef = p_coef
        elif r_value < p_value and r_value < ag_value:
            coef = r_coef
        else:
            coef = [0.0, 0.0, ag_stride]
        coef = numpy.asarray(coef)
    step_h = W.dot(coef)
    return d * step_h, -(0.5 * coef.dot(G).dot(coef) + g_h.dot(step_h))


def _quadratic(system, g, s):
    """``0.5 |A s|^2 + g's``."""
    return 0.5 * system.gram(s[:, None])[0, 0] + g.dot(s)


def _backtracking(system, g, x, p, theta, p_dot_g, lb, ub):
    """SciPy's backtracking line search along the reflected path; as SciPy's, it returns the
    step and its cost change but leaves the iterate where it was."""
    alpha = 1.0
    while True:
        x_new = reflective_transformation(x + alpha * p, lb, ub)
        step = x_new - x
        cost_change = -_quadratic(system, g, step)
        if cost_change > -0.1 * alpha * p_dot_g:
            break
        alpha *= 0.5
    if numpy.any(find_active_constraints(x_new, lb, ub) != 0):
        x_new = make_strictly_feasible(reflective_transformation(x + theta * alpha * p, lb, ub), lb, ub, rstep=0)
        step = x_new - x
        cost_change = -_quadratic(system, g, step)
    return step, cost_change


def trf_linear(system, x_lsq, lb, ub, tol, max_iter, verbose):
    """The loop; (x, cost, optimality, active_mask, nit, status, initial_cost) on the host."""
    x = make_strictly_feasible(reflective_transformation(x_lsq, lb, ub), lb, ub, rstep=0.1)
    g, cost = system.grad_cost(x)
    initial_cost = cost
    status = step_norm = cost_change = None
    max_iter = 100 if max_iter is None else max_iter
    if verbose == 2:
        print_iteration_linear(None, 0, 0, 0, 0)
    for iteration in range(max_iter):
        v, dv = cl_scaling_vector(x, g, lb, ub)
        g_norm = numpy.linalg.norm(g * v, ord=numpy.inf)
        if g_norm < tol:
            status = 1
        if verbose == 2:
            print_iteration_linear(iteration, cost, cost_change, step_norm, g_norm)
        if status is not None:
            break
        diag_h = g * dv
        d = v ** 0.5
        g_h = d * g
        p_h = system.trf_direction(x, d, diag_h ** 0.5, g_norm)
        p = d * p_h
        p_dot_g = p.dot(g)
        if p_dot_g > 0:
            status = -1
        theta = 1 - min(0.005, g_norm)
        step, cost_change = _select_step(system, x, g_h, p_h, d, diag_h, lb, ub, theta)
        if cost_change < 0:  # p is a descent direction: rarely reached
            step, cost_change = _backtracking(system, g, x, p, theta, p_dot_g, lb, ub)
        else:
            x = make_strictly_feasible(x + step, lb, ub, rstep=0)
        step_norm = numpy.linalg.norm(step)
        g, cost_new = system.grad_cost(x)
        if cost_change < tol * cost:
            status = 2
        cost = cost_new
    active = find_active_constraints(x, lb, ub, rtol=tol)
    return x, cost, g_norm, active, iteration + 1, 0 if status is None else status, initial_cost
