"""'trust-krylov''s subproblem: the trust-region step in the Krylov space of the gradient, by the
Lanczos method (Gould, Lucidi, Roma and Toint, "Solving the trust-region subproblem using the
Lanczos method", SIAM J. Optim. 9(2), 1999: GLTR, the method of SciPy's trlib). Each Lanczos step
is one Hessian-vector product on the device; the tridiagonal problem it builds is a few numbers,
solved on the host exactly (its eigendecomposition and Moré and Sorensen's secular equation), and
the step is the Lanczos vectors' combination, formed on the device once.

Host reads: one a Lanczos step (its alpha and beta, read together). The Lanczos vectors are kept
(full reorthogonalization against them, as the Krylov spaces are small): at most `MAX_LANCZOS`."""

import math

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ...linalg._products import dot, vdot

__all__ = ["krylov_solve", "tridiagonal_step", "MAX_LANCZOS"]

MAX_LANCZOS = 200  # Lanczos vectors kept a subproblem (n of them where n is smaller)


def tridiagonal_step(alphas, betas, gnorm, radius):
    """The minimizer of gnorm * h[0] + h.T T h / 2 over |h| <= radius, for T tridiagonal (diagonal
    `alphas`, off-diagonal `betas`), and whether it lies on the boundary."""
    k = len(alphas)
    t = numpy.diag(numpy.asarray(alphas, dtype=float))
    if k > 1:
        off = numpy.asarray(betas[:k - 1], dtype=float)
        t += numpy.diag(off, 1) + numpy.diag(off, -1)
    lam, v = numpy.linalg.eigh(t)
    c = gnorm * v[0]  # V.T (gnorm e1)
    if lam[0] > 0:
        h = -v @ (c / lam)
        if numpy.linalg.norm(h) <= radius:
            return h, False
    # the shift mu >= 0 past max(0, -lambda_min), with the denominators lambda_i + max(0, -lambda_min)
    # formed first (exactly 0 for the lowest): near the hard case the step's norm is then accurate
    # where the shift is tiny
    base = lam - lam[0] if lam[0] <= 0 else lam

    def h_of(mu):
        return -v @ (c / (base + mu))

    # the hard case: g has no part along the lowest eigenvectors and the step at -lambda_min stays
    # inside; then move along the lowest eigenvector to the boundary (Moré and Sorensen, section 4)
    low = base <= 1e-12 * max(1.0, abs(lam[0]))
    if lam[0] <= 0 and numpy.all(numpy.abs(c[low]) <= 1e-14 * gnorm):
        rest = ~low
        h = -v[:, rest] @ (c[rest] / base[rest]) if rest.any() else numpy.zeros(k)
        left = radius ** 2 - float(h @ h)
        if left >= 0:
            return h + math.sqrt(left) * v[:, 0], True
    # |h(mu)| = radius: Newton on 1/|h| - 1/radius, safeguarded by bisection of [lo, hi]
    lo, hi = 0.0, gnorm / radius + 1.0
    while numpy.linalg.norm(h_of(hi)) > radius:
        hi = 2 * hi + 1.0
    mu = hi
    for _ in range(200):
        h = h_of(mu)
        hn = numpy.linalg.norm(h)
        if abs(hn - radius) <= 1e-13 * radius:
            break
        if hn > radius:
            lo = mu
        else:
            hi = mu
        dh = numpy.sum(c ** 2 / (base + mu) ** 3)  # -d|h|^2/dmu / 2
        mu = mu + ((hn - radius) / radius * hn ** 2 / dh if dh > 0 else 0.0)
        if not (lo < mu < hi):
            mu = (lo + hi) / 2
            if mu in (lo, hi):  # the bracket is one ulp wide
                break
    return h_of(mu), True


def krylov_solve(m, trust_radius, maxiter, inexact=True):
    """SciPy's trlib subproblem (`get_trlib_quadratic_subproblem`): (p, hits_boundary). The
    Lanczos process stops when the tridiagonal step's residual beta_k |h_k| falls under SciPy's
    forcing tolerance: min(0.5, |g|) |g| inside the region, min(0.5, sqrt|g|) |g| on its boundary
    (inexact=True; 1e-8 |g| and 1e-6 |g| otherwise). `maxiter` is not used: the Krylov space is at
    most n (or `MAX_LANCZOS`) vectors."""
    g, gnorm = m.jac, m.jac_mag
    n = g.shape[0]
    if gnorm == 0:
        return zeros(g.shape, dtype=g.dtype), False
    tol_i = min(0.5, gnorm) * gnorm if inexact else 1e-8 * gnorm
    tol_b = min(0.5, math.sqrt(gnorm)) * gnorm if inexact else 1e-6 * gnorm
    q = g / gnorm
    qs, alphas, betas = [q], [], []
    for j in range(min(n, MAX_LANCZOS)):
        w = m.hessp(q)
        if j:
            w = w - betas[-1] * qs[-2]
        alpha_d = vdot(q, w)
        w = w - alpha_d * q
        for v in qs[:-1]:  # full reorthogonalization (the spaces are small)
            w = w - vdot(v, w) * v
        # the step's read: alpha and |w| (beta)
        alpha, beta = (float(x) for x in to_host(stack([alpha_d, vdot(w, w)])))
        beta = math.sqrt(max(beta, 0.0))
        alphas.append(alpha)
        h, boundary = tridiagonal_step(alphas, betas, gnorm, trust_radius)
        if beta * abs(h[-1]) <= (tol_b if boundary else tol_i) or beta <= 1e-14 * gnorm or j + 1 >= n:
            break
        betas.append(beta)
        q = w / beta
        qs.append(q)
    basis = stack(qs[:len(h)])
    return dot(as_parameter(numpy.asarray(h, dtype=basis.dtype), "scipy.optimize.minimize"), basis), boundary
