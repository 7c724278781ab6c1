"""The host side of `least_squares`: the n-sized pieces of the trust-region algorithms, ported from
`scipy.optimize._lsq.common` (Branch, Coleman & Li, SIAM J. Sci. Comput. 21 (1999) for the
reflective steps; Moré, "The Levenberg-Marquardt algorithm: implementation and theory", Lecture
Notes in Mathematics 630 (1978) for the trust-region subproblem). They work on NumPy vectors of
the n parameters and on the SVD factors (s, V) read from the device once an iteration; the m-sized
residuals and the Jacobian never come here. Products with the Jacobian are taken from its SVD,
``|J p| = |s * (V' p)|``, so no m-sized product is needed on the host."""

from math import copysign

import numpy

EPS = float(numpy.finfo(float).eps)  # a Python float: a NumPy scalar on the left of a device array would not defer

__all__ = ["EPS", "intersect_trust_region", "lsq_trust_region", "update_tr_radius", "quadratic",
           "quadratic_1d", "minimize_quadratic_1d", "in_bounds", "step_size_to_bound",
           "find_active_constraints", "make_strictly_feasible", "cl_scaling_vector", "check_termination",
           "reflective_transformation", "print_iteration_linear", "trust_region_2d"]


def intersect_trust_region(x, s, Delta):
    """The two steps t with ``|x + t s| = Delta`` (x inside the region), smaller first."""
    a = numpy.dot(s, s)
    if a == 0:
        raise ValueError("`s` is zero.")
    b = numpy.dot(x, s)
    c = numpy.dot(x, x) - Delta ** 2
    if c > 0:
        raise ValueError("`x` is not within the trust region.")
    d = numpy.sqrt(b * b - a * c)
    q = -(b + copysign(d, b))
    t1, t2 = q / a, c / q
    return (t1, t2) if t1 < t2 else (t2, t1)


def lsq_trust_region(m, uf, s, V, Delta, alpha=None, rtol=0.01, max_iter=10, rescale=True):
    """``min |J p + f|`` subject to ``|p| <= Delta`` from ``J = U diag(s) V'`` and ``uf = U' f``:
    Moré's Newton iteration on the Levenberg-Marquardt parameter (secular equation in 1/|p|),
    stopping within ``rtol * Delta``. Returns (p, alpha)."""
    n = s.size
    suf = s * uf
    full_rank = m >= n and s[-1] > EPS * m * s[0]
    if full_rank:
        p = -V.dot(uf / s)
        if numpy.linalg.norm(p) <= Delta * (1 + (0 if rescale else rtol)):
            return p, 0.0

    def phi_and_derivative(a):
        denom = s ** 2 + a
        p_norm = numpy.linalg.norm(suf / denom)
        return p_norm - Delta, -numpy.sum(suf ** 2 / denom ** 3) / p_norm

    alpha_upper = numpy.linalg.norm(suf) / Delta
    if full_rank:
        phi, phi_prime = phi_and_derivative(0.0)
        alpha_lower = -phi / phi_prime
    else:
        alpha_lower = 0.0
    if alpha is None or not full_rank and alpha == 0:
        alpha = max(0.001 * alpha_upper, (alpha_lower * alpha_upper) ** 0.5)
    for _ in range(max_iter):
        if alpha < alpha_lower or alpha > alpha_upper:
            alpha = max(0.001 * alpha_upper, (alpha_lower * alpha_upper) ** 0.5)
        phi, phi_prime = phi_and_derivative(alpha)
        if phi < 0:
            alpha_upper = alpha
        ratio = phi / phi_prime
        alpha_lower = max(alpha_lower, alpha - ratio)
        alpha -= (phi + Delta) * ratio / Delta
        if abs(phi) < rtol * Delta:
            break
    p = -V.dot(suf / (s ** 2 + alpha))
    if rescale:
        p *= Delta / numpy.linalg.norm(p)
    return p, alpha


def update_tr_radius(Delta, actual_reduction, predicted_reduction, step_norm, bound_hit):
    if predicted_reduction > 0:
        ratio = actual_reduction / predicted_reduction
    elif predicted_reduction == actual_reduction == 0:
        ratio = 1
    else:
        ratio = 0
    if ratio < 0.25:
        Delta = 0.25 * step_norm
    elif ratio > 0.75 and bound_hit:
        Delta *= 2.0
    return Delta, ratio


def _jprod(s, V, p):
    """``J p`` in the rotated basis (``U' J p``): same norm and inner products as ``J p``."""
    return s * V.T.dot(p)


def quadratic(s, V, g, p):
    """``0.5 |J p|^2 + g'p`` with J given by its SVD (a diagonal term folded into J's SVD)."""
    v = _jprod(s, V, p)
    return 0.5 * numpy.dot(v, v) + numpy.dot(g, p)


def quadratic_1d(s, V, g, d, s0=None):
    """The coefficients of ``q(t) = a t^2 + b t (+ c)`` along ``s0 + t d`` (SciPy's build_quadratic_1d)."""
    v = _jprod(s, V, d)
    a = 0.5 * numpy.dot(v, v)
    b = numpy.dot(g, d)
    if s0 is None:
        return a, b
    u = _jprod(s, V, s0)
    return a, b + numpy.dot(u, v), 0.5 * numpy.dot(u, u) + numpy.dot(g, s0)


def trust_region_2d(B, g, Delta):
    """SciPy's solve_trust_region_2d: min 0.5 p'B p + g'p over |p| <= Delta for a 2 x 2 B, the
    Newton point where B is positive definite and inside, else the best point of the circle (the
    real roots of SciPy's quartic in t = tan(phi / 2))."""
    try:
        L = numpy.linalg.cholesky(B)
        p = -numpy.linalg.solve(L.T, numpy.linalg.solve(L, g))
        if numpy.dot(p, p) <= Delta ** 2:
            return p, True
    except numpy.linalg.LinAlgError:
        pass
    a, b, c = B[0, 0] * Delta ** 2, B[0, 1] * Delta ** 2, B[1, 1] * Delta ** 2
    d, f = g[0] * Delta, g[1] * Delta
    t = numpy.roots(numpy.array([-b + d, 2 * (a - c + f), 6 * b, 2 * (-a + c + f), -b - d]))
    t = numpy.real(t[numpy.isreal(t)])
    p = Delta * numpy.vstack((2 * t / (1 + t ** 2), (1 - t ** 2) / (1 + t ** 2)))
    value = 0.5 * numpy.sum(p * B.dot(p), axis=0) + numpy.dot(g, p)
    return p[:, numpy.argmin(value)], False


def minimize_quadratic_1d(a, b, lb, ub, c=0):
    t = [lb, ub]
    if a != 0:
        extremum = -0.5 * b / a
        if lb < extremum < ub:
            t.append(extremum)
    t = numpy.asarray(t)
    y = t * (a * t + b) + c
    i = numpy.argmin(y)
    return t[i], y[i]


def in_bounds(x, lb, ub):
    return bool(numpy.all((x >= lb) & (x <= ub)))


def step_size_to_bound(x, s, lb, ub):
    non_zero = numpy.nonzero(s)
    steps = numpy.full_like(x, numpy.inf)
    with numpy.errstate(over="ignore"):
        steps[non_zero] = numpy.maximum((lb - x)[non_zero] / s[non_zero], (ub - x)[non_zero] / s[non_zero])
    min_step = numpy.min(steps)
    return min_step, numpy.equal(steps, min_step) * numpy.sign(s).astype(int)


def find_active_constraints(x, lb, ub, rtol=1e-10):
    active = numpy.zeros_like(x, dtype=int)
    if rtol == 0:
        active[x <= lb] = -1
        active[x >= ub] = 1
        return active
    lower_dist, upper_dist = x - lb, ub - x
    lower_threshold = rtol * numpy.maximum(1, numpy.abs(lb))
    upper_threshold = rtol * numpy.maximum(1, numpy.abs(ub))
    active[numpy.isfinite(lb) & (lower_dist <= numpy.minimum(upper_dist, lower_threshold))] = -1
    active[numpy.isfinite(ub) & (upper_dist <= numpy.minimum(lower_dist, upper_threshold))] = 1
    return active


def make_strictly_feasible(x, lb, ub, rstep=1e-10):
    x_new = x.copy()
    active = find_active_constraints(x, lb, ub, rstep)
    lower, upper = active == -1, active == 1
    if rstep == 0:
        x_new[lower] = numpy.nextafter(lb[lower], ub[lower])
        x_new[upper] = numpy.nextafter(ub[upper], lb[upper])
    else:
        x_new[lower] = lb[lower] + rstep * numpy.maximum(1, numpy.abs(lb[lower]))
        x_new[upper] = ub[upper] - rstep * numpy.maximum(1, numpy.abs(ub[upper]))
    tight = (x_new < lb) | (x_new > ub)
    x_new[tight] = 0.5 * (lb[tight] + ub[tight])
    return x_new


def cl_scaling_vector(x, g, lb, ub):
    """Coleman and Li's scaling vector v and its derivative dv."""
    v = numpy.ones_like(x)
    dv = numpy.zeros_like(x)
    mask = (g < 0) & numpy.isfinite(ub)
    v[mask] = ub[mask] - x[mask]
    dv[mask] = -1
    mask = (g > 0) & numpy.isfinite(lb)
    v[mask] = x[mask] - lb[mask]
    dv[mask] = 1
    return v, dv


def reflective_transformation(y, lb, ub):
    """y folded into [lb, ub] by reflections at the bounds (SciPy's, without the unused sign)."""
    if in_bounds(y, lb, ub):
        return y
    lbf, ubf = numpy.isfinite(lb), numpy.isfinite(ub)
    x = y.copy()
    mask = lbf & ~ubf
    x[mask] = numpy.maximum(y[mask], 2 * lb[mask] - y[mask])
    mask = ~lbf & ubf
    x[mask] = numpy.minimum(y[mask], 2 * ub[mask] - y[mask])
    mask = lbf & ubf
    w = ub[mask] - lb[mask]
    t = numpy.remainder(y[mask] - lb[mask], 2 * w)
    x[mask] = lb[mask] + numpy.minimum(t, 2 * w - t)
    return x


def print_iteration_linear(iteration, cost, cost_reduction, step_norm, optimality):
    """SciPy's verbose=2 line of the linear solvers (the header first, at iteration None)."""
    if iteration is None:
        print("{:^15}{:^15}{:^15}{:^15}{:^15}".format("Iteration", "Cost", "Cost reduction", "Step norm",
                                                      "Optimality"))
        return
    reduction = " " * 15 if cost_reduction is None else f"{cost_reduction:^15.2e}"
    norm = " " * 15 if step_norm is None else f"{step_norm:^15.2e}"
    print(f"{iteration:^15}{cost:^15.4e}{reduction}{norm}{optimality:^15.2e}")


def check_termination(dF, F, dx_norm, x_norm, ratio, ftol, xtol):
    ftol_satisfied = dF < ftol * F and ratio > 0.25
    xtol_satisfied = dx_norm < xtol * (xtol + x_norm)
    if ftol_satisfied and xtol_satisfied:
        return 4
    if ftol_satisfied:
        return 2
    if xtol_satisfied:
        return 3
    return None


def minpack_step_update(fnorm, fnorm1, temp1, temp2, delta, par, pnorm):
    """MINPACK lmder's test of a trial step (More 1978): the actual and predicted reductions, their
    ratio, and the updated radius `delta` and Levenberg-Marquardt parameter `par`, from the norms
    of the residuals before and after the step (`fnorm`, `fnorm1`), of J p (`temp1` * fnorm) and of
    sqrt(par) D p (`temp2` * fnorm); host floats. (actred, prered, ratio, delta, par)."""
    actred = 1 - (fnorm1 / fnorm) ** 2 if 0.1 * fnorm1 < fnorm else -1.0
    prered = temp1 ** 2 + temp2 ** 2 / 0.5
    dirder = -(temp1 ** 2 + temp2 ** 2)
    ratio = actred / prered if prered != 0 else 0.0
    if ratio <= 0.25:
        temp = 0.5 if actred >= 0 else 0.5 * dirder / (dirder + 0.5 * actred)
        if 0.1 * fnorm1 >= fnorm or temp < 0.1:
            temp = 0.1
        delta = temp * min(delta, pnorm / 0.1)
        par = par / temp
    elif par == 0 or ratio >= 0.75:
        delta = pnorm / 0.5
        par = 0.5 * par
    return actred, prered, ratio, delta, par
