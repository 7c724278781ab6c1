"""`lsq_linear(method='bvls')`: the Bounded-Variable Least-Squares algorithm of Stark and Parker
("Bounded-Variable Least-Squares: an Algorithm and Applications", Computational Statistics 10
(1995)), with SciPy's initialization loop (`scipy.optimize._lsq.bvls`, ported). The active-set
loop is sequential and runs on the host on n-vectors; each least-squares solve on the free
variables runs on the device on R's columns (`_lsq_linear_systems.DenseQR.free_solve`, one read
of the solution); the gradient and the cost come from R on the host."""

import numpy

from ._lsq_host import print_iteration_linear

__all__ = ["bvls"]


def _kkt_optimality(g, on_bound):
    """The largest violation of the KKT conditions."""
    g_kkt = g * on_bound
    free = on_bound == 0
    g_kkt[free] = numpy.abs(g[free])
    return numpy.max(g_kkt)


def _clip(x, z, free, lb, ub, on_bound):
    """x on the free variables set to z, the ones z puts out of bounds to their bound; returns the
    mask of those (SciPy's initialization step)."""
    low, high = z < lb[free], z > ub[free]
    for mask, bound, side in ((low, lb, -1), (high, ub, 1)):
        ind = free[mask]
        x[ind] = bound[ind]
        on_bound[ind] = side
    out = low | high
    x[free[~out]] = z[~out]
    return out


def bvls(system, x_lsq, lb, ub, tol, max_iter, verbose):
    """The loop; (x, cost, optimality, active_mask, nit, status, initial_cost) on the host."""
    n = system.n
    x = x_lsq.copy()
    on_bound = numpy.zeros(n)
    on_bound[x <= lb] = -1
    on_bound[x >= ub] = 1
    x = numpy.clip(x, lb, ub)
    free = numpy.nonzero(on_bound == 0)[0]
    g, cost = system.grad_cost(x)
    initial_cost = cost
    cost_change = step_norm = None
    iteration = 0
    if verbose == 2:
        print_iteration_linear(None, 0, 0, 0, 0)
    # SciPy's initialization: solve on the free variables, fix the ones that leave their bounds,
    # repeat on the rest until the free solution is feasible
    while free.size > 0:
        if verbose == 2:
            print_iteration_linear(iteration, cost, cost_change, step_norm, _kkt_optimality(g, on_bound))
        iteration += 1
        x_free_old = x[free].copy()
        z = system.free_solve(x * (on_bound != 0), free)
        out = _clip(x, z, free, lb, ub, on_bound)
        g, cost_new = system.grad_cost(x)
        cost_change, cost = cost - cost_new, cost_new
        step_norm = numpy.linalg.norm(x[free] - x_free_old)
        if not numpy.any(out):
            break
        free = free[~out]
    max_iter = (n if max_iter is None else max_iter) + iteration
    status = None
    optimality = _kkt_optimality(g, on_bound)
    for iteration in range(iteration, max_iter):
        if verbose == 2:
            print_iteration_linear(iteration, cost, cost_change, step_norm, optimality)
        if optimality < tol:
            status = 1
        if status is not None:
            break
        on_bound[numpy.argmax(g * on_bound)] = 0
        while True:
            free = numpy.nonzero(on_bound == 0)[0]
            x_free = x[free]
            x_free_old = x_free.copy()
            lb_free, ub_free = lb[free], ub[free]
            z = system.free_solve(x * (on_bound != 0), free)
            lbv = numpy.nonzero(z < lb_free)[0]
            ubv = numpy.nonzero(z > ub_free)[0]
            v = numpy.hstack((lbv, ubv))
            if v.size == 0:
                x_free = z
                x[free] = x_free
                break
            # step from x toward z up to the first bound met; that variable joins the bound set
            alphas = numpy.hstack((lb_free[lbv] - x_free[lbv], ub_free[ubv] - x_free[ubv])) / (z[v] - x_free[v])
            i = numpy.argmin(alphas)
            x_free = x_free * (1 - alphas[i]) + alphas[i] * z
            x[free] = x_free
            on_bound[free[v[i]]] = -1 if i < lbv.size else 1
        step_norm = numpy.linalg.norm(x_free - x_free_old)
        g, cost_new = system.grad_cost(x)
        cost_change = cost - cost_new
        if cost_change < tol * cost:
            status = 2
        cost = cost_new
        optimality = _kkt_optimality(g, on_bound)
    return x, cost, optimality, on_bound, iteration + 1, 0 if status is None else status, initial_cost
