"""The host side of `minimize(method='SLSQP')`: the quadratic subproblem of Kraft's SQP method
(D. Kraft, "A software package for sequential quadratic programming", DFVLR-FB 88-28, 1988,
section 2.2) written as Lawson and Hanson's chain ("Solving Least Squares Problems", SIAM 1995,
ch. 20-23): LSQ (the QP as a least-squares problem in the Cholesky factor of the quasi-Newton
matrix), LSEI (equality constraints eliminated by an orthogonal basis), LSI (inequalities
through a QR of the objective), LDP (the least-distance problem solved by its dual NNLS).

Everything here is NumPy on n-vectors and (m + 2n) x n matrices read from the device once an
iteration: the subproblem is small and its active-set steps are sequential, so it runs on the
host. The modes returned are SLSQP's exit modes (1: solved; 2, 3, 4, 5, 6, 7: its failures)."""

import numpy

__all__ = ["qp_step", "nnls_host", "search_direction", "damped_bfgs"]

_EPS = float(numpy.finfo(float).eps)


def nnls_host(a, b, maxiter):
    """(x, |a x - b|, ok): Lawson and Hanson's active-set NNLS (algorithm 23.10) on host arrays;
    ok is False when the count of least-squares solves passes `maxiter`. As theirs: a column
    enters only with a positive dual value, a component independent of the passive columns
    and a positive coefficient, and the passive set stops growing at min(m, n) columns."""
    m, n = a.shape
    x = numpy.zeros(n)
    passive = numpy.zeros(n, dtype=bool)
    solves = 0
    while passive.sum() < min(m, n):
        w = a.T @ (b - a @ x)
        rejected = passive.copy()
        while True:
            cand = numpy.where(rejected, -numpy.inf, w)
            j = int(numpy.argmax(cand))
            if not cand[j] > 0:
                return x, float(numpy.linalg.norm(a @ x - b)), True
            rejected[j] = True
            if _independent(a, passive, j):
                trial = passive.copy()
                trial[j] = True
                z = _passive_lstsq(a, b, trial)
                if z[j] > 0:
                    break
        passive = trial
        while True:
            solves += 1
            if solves >= maxiter:
                return x, float(numpy.linalg.norm(a @ x - b)), False
            bad = passive & (z <= 0)
            if not bad.any():
                x = z
                break
            # the longest step from x towards z that keeps the passive set non-negative
            ratio = numpy.where(bad, x / numpy.where(bad, x - z, 1.0), numpy.inf)
            i = int(numpy.argmin(ratio))
            x = x + ratio[i] * (z - x)
            # the component that set the step leaves exactly (rounding can leave it at 1e-300,
            # and a passive set that keeps it cycles until maxiter), as Lawson and Hanson's step 11
            x[i] = 0.0
            passive &= x > 0
            x[~passive] = 0.0
            z = _passive_lstsq(a, b, passive)
    return x, float(numpy.linalg.norm(a @ x - b)), True


def _independent(a, passive, j):
    """Lawson and Hanson's test: column j's part outside the passive columns' span is not lost
    in rounding next to its part inside (their 0.01 factor)."""
    col = a[:, j]
    if not passive.any():
        return bool(numpy.any(col))
    q = numpy.linalg.qr(a[:, passive])[0]
    inside = q.T @ col
    unorm, pivot = numpy.linalg.norm(inside), numpy.linalg.norm(col - q @ inside)
    return (unorm + 0.01 * pivot) - unorm > 0


def _passive_lstsq(a, b, passive):
    z = numpy.zeros(a.shape[1])
    if passive.any():
        z[passive] = numpy.linalg.lstsq(a[:, passive], b, rcond=None)[0]
    return z


def _ldp(g, h):
    """min |z|/2 subject to g z >= h by the dual NNLS on [g'; h'] u = e_(n+1):
    (z, multipliers, mode)."""
    mg, n = g.shape
    if mg == 0:
        return numpy.zeros(n), numpy.zeros(0), 1
    dual = numpy.vstack([g.T, h[None, :]])
    rhs = numpy.zeros(n + 1)
    rhs[n] = 1.0
    u, rnorm, ok = nnls_host(dual, rhs, 3 * mg)
    if not ok:
        return None, None, 3
    fac = 1.0 - h @ u
    # no point satisfies the constraints when the dual's residual vanishes (fac = |residual|^2): Kraft
    # tests fac against one rounding of 1; a residual from a least-squares solve (not Householder
    # updates) is not exactly 0 there, so fac is compared with the rounding error of 1 - h'u
    if not rnorm > 0 or not fac > 10 * _EPS * (1.0 + numpy.abs(h) @ u):
        return None, None, 4
    z = (g.T @ u) / fac
    # one refinement: z is the minimum-norm solution of the active rows (u > 0) held as equalities,
    # which the dual's division by a small fac leaves violated by up to 1e-11 (then SLSQP's outer
    # loop cannot reach a violation below ftol); taken when its worst violation over all rows is
    # smaller (a row with a zero multiplier may sit on its bound, so rows are not compared one by one)
    act = u > 0
    if act.any():
        z_ref = numpy.linalg.lstsq(g[act], h[act], rcond=None)[0]
        if numpy.max(h - g @ z_ref) < numpy.max(h - g @ z):
            z = z_ref
    return z, u / fac, 1


def _lsi(a, b, g, h):
    """min |a x - b| subject to g x >= h with a of full column rank: (x, multipliers, mode)."""
    q, r = numpy.linalg.qr(a)
    if numpy.any(~(numpy.abs(numpy.diag(r)) >= _EPS)):
        return None, None, 5
    f1 = q.T @ b
    # z = r x - f1 turns the objective into |z|: the least-distance problem in z
    gr = numpy.linalg.solve(r.T, g.T).T
    z, lam, mode = _ldp(gr, h - gr @ f1)
    if mode != 1:
        return None, None, mode
    return numpy.linalg.solve(r, z + f1), lam, 1


def _lsei(a, b, e, f, g, h):
    """min |a x - b| subject to e x = f, g x >= h: (x, equality and inequality multipliers, mode).
    The equality rows are eliminated in the basis of a QR of e' (x = q1 xe + q2 x2)."""
    me, n = e.shape
    if me > n:
        return None, None, None, 2
    q, r = numpy.linalg.qr(e.T, mode="complete")
    r = r[:me]
    if numpy.any(~(numpy.abs(numpy.diag(r)) >= _EPS)):
        return None, None, None, 6
    q1, q2 = q[:, :me], q[:, me:]
    xe = numpy.linalg.solve(r.T, f)
    a1, a2 = a @ q1, a @ q2
    g1, g2 = g @ q1, g @ q2
    mu = numpy.zeros(g.shape[0])
    if me < n:
        rhs = b - a1 @ xe
        if g.shape[0] == 0:
            x2, _, rank, _ = numpy.linalg.lstsq(a2, rhs, rcond=_EPS ** 0.5)
            if rank < n - me:
                return None, None, None, 7
        else:
            x2, mu, mode = _lsi(a2, rhs, g2, h - g1 @ xe)
            if mode != 1:
                return None, None, None, mode
    else:
        x2 = numpy.zeros(0)
    x = q1 @ xe + q2 @ x2
    # the equality multipliers from stationarity, a'(a x - b) = e' lam + g' mu, in the q1 rows
    lam = numpy.linalg.solve(r, a1.T @ (a @ x - b) - g1.T @ mu) if me else numpy.zeros(0)
    return x, lam, mu, 1


def qp_step(bmat, grad, cmat, c, meq, lo, hi, rho=None):
    """SLSQP's search direction: min d'B d/2 + g'd subject to C_eq d + c_eq = 0,
    C_in d + c_in >= 0 and lo <= d <= hi (NaN: no bound), as |R d + R^-T g| with B = R'R.
    With `rho`, Kraft's relaxed problem: one more variable t in [0, 1] weighted by rho, the
    constraints' values scaled by (1 - t) (for the violated inequalities). Returns
    (d, multipliers of the m constraints, mode)."""
    n = len(grad)
    r = numpy.linalg.cholesky(bmat).T
    a = r
    b = -numpy.linalg.solve(r.T, grad)
    ceq, cin = cmat[:meq], cmat[meq:]
    feq, hin = -c[:meq], -c[meq:]
    lo, hi = numpy.asarray(lo, float), numpy.asarray(hi, float)
    if rho is not None:
        a = numpy.block([[r, numpy.zeros((n, 1))], [numpy.zeros((1, n)), numpy.full((1, 1), rho)]])
        b = numpy.append(b, 0.0)
        ceq = numpy.hstack([ceq, -c[:meq, None]])
        cin = numpy.hstack([cin, numpy.maximum(-c[meq:], 0.0)[:, None]])
        lo, hi = numpy.append(lo, 0.0), numpy.append(hi, 1.0)
    k = len(lo)
    eye = numpy.eye(k)
    has_lo, has_hi = ~numpy.isnan(lo), ~numpy.isnan(hi)
    g = numpy.vstack([cin, eye[has_lo], -eye[has_hi]])
    h = numpy.concatenate([hin, lo[has_lo], -hi[has_hi]])
    d, lam, mu, mode = _lsei(a, b, ceq, feq, g, h)
    if mode != 1:
        return None, None, mode
    d = numpy.where(has_lo & (d < lo), lo, numpy.where(has_hi & (d > hi), hi, d))
    return d, numpy.concatenate([lam, mu[:len(hin)]]), 1


def search_direction(bmat, grad, cmat, c, meq, lo, hi):
    """Kraft's step: the subproblem, or when its linearized constraints are inconsistent the
    relaxed one, its weight raised tenfold up to six times. Returns (d, multipliers, mode,
    whether relaxed, 1 - t for the relaxed variable t)."""
    n = len(grad)
    d, mult, mode = qp_step(bmat, grad, cmat, c, meq, lo, hi)
    if mode == 6 and n == meq:
        mode = 4
    if mode != 4:
        return d, mult, mode, False, 1.0
    for rho in 100.0 * 10.0 ** numpy.arange(6):
        d, mult, mode = qp_step(bmat, grad, cmat, c, meq, lo, hi, rho=rho)
        if mode != 4:
            break
    if mode != 1:
        return d, mult, mode, True, 1.0
    return d[:n], mult, 1, True, 1.0 - d[n]


def damped_bfgs(bmat, s, u):
    """Powell's damped BFGS update of B with the step s and the change u of the Lagrangian's
    gradient (u moved towards B s where s'u < s'B s / 5); None for a singular update."""
    bs = bmat @ s
    h1, h2 = float(s @ u), float(s @ bs)
    if h1 < 0.2 * h2:
        theta = 0.8 * h2 / (h2 - h1)
        h1, u = 0.2 * h2, theta * u + (1 - theta) * bs
    if h1 == 0 or h2 == 0:
        return None
    new = bmat + numpy.outer(u, u) / h1 - numpy.outer(bs, bs) / h2
    # the update keeps B positive definite in exact arithmetic (s'u >= s'B s / 5 > 0); Kraft updates
    # B's LDL' factors, which holds it in rounding too: a dense B that rounding made indefinite is
    # a singular update here
    try:
        numpy.linalg.cholesky(new)
    except numpy.linalg.LinAlgError:
        return None
    return new
