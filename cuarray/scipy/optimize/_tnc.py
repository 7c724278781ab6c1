"""`minimize(method='TNC')` and `fmin_tnc`: Nash's truncated-Newton method with bounds (S. G. Nash,
"Newton-type minimization via the Lanczos method", SIAM J. Numer. Anal. 21 (1984), pp. 770-778),
ported from the loop of the TNBC code that SciPy wraps (J.-S. Roy's C translation, `tnc.c`):
variables scaled to their box, an active set of bounds (`pivot`: -1 at the lower bound, 1 at the
upper, 2 fixed, 0 free), a preconditioned CG inner loop on finite differences of the gradient
(Hessian-vector products), preconditioned by a two-step self-scaled BFGS matrix with a diagonal
BFGS scaling, and Gill and Murray's step search (`_tnc_search`, host scalars).

The iterate, the gradient, the CG vectors, the preconditioner's vectors and the active set stay
on the device. Host reads: one per CG iteration (its curvature v.Hv, the model's terms g.z and
r.z and the next iteration's r.z, the next CG step computed before the read and dropped where a
test stops the loop) and one at its start (r.z); one before the step search (the slope, |p|,
|x| and the largest feasible step); one per trial step (the value and the slope); one at the
end of an outer iteration (the projected gradient's norm with and without the bound that may be
released, the released bound's multiplier and the preconditioner's y.s). The rounding of the
device's reductions differs from the C loops', so iterates agree with SciPy's to rounding only
and the counts may differ."""

import math

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import ones, zeros
from ..._creation.ranges import arange
from ..._logic.truth import all as all_, any as any_
from ..._manipulation.joining import stack
from ..._math.misc import absolute, clip
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmin
from ..._statistics.order import min as min_
from ...linalg._products import vdot
from ._objective import Objective
from ._result import Bounds, OptimizeResult, _bound_array
from ._tnc_search import EVAL, OK, StepSearch

__all__ = ["minimize_tnc", "fmin_tnc", "RCSTRINGS"]

_FN = "scipy.optimize.minimize"
_EPS = 2.0 ** -52  # the C code's machine precision: the smallest power of 2 with 1 + eps > 1
_RTEPS = math.sqrt(_EPS)
INFEASIBLE, LOCALMINIMUM, FCONVERGED, XCONVERGED, MAXFUN, LSFAIL, CONSTANT, NOPROGRESS = -1, 0, 1, 2, 3, 4, 5, 6
RCSTRINGS = {INFEASIBLE: "Infeasible (lower bound > upper bound)", LOCALMINIMUM: "Local minimum reached (|pg| ~= 0)",
             FCONVERGED: "Converged (|f_n-f_(n-1)| ~= 0)", XCONVERGED: "Converged (|x_n-x_(n-1)| ~= 0)",
             MAXFUN: "Max. number of function evaluations reached", LSFAIL: "Linear search failed",
             CONSTANT: "All lower bounds are equal to the upper bounds", NOPROGRESS: "Unable to progress",
             7: "User requested end of minimization"}
_LS_OK, _LS_MAXFUN, _LS_FAIL = 0, 1, 2


def _norm(v):
    return vdot(v, v) ** 0.5


def _ssbfgs(sj, hjv, hjyj, yjsj, yjhyj, vsj, vhyj):
    """The self-scaled BFGS update (gamma 1) of H v: `yjsj` is a host float."""
    if yjsj == 0.0:
        return hjv
    delta = (yjhyj / yjsj + 1.0) * vsj / yjsj - vhyj / yjsj
    return hjv + delta * sj + (-vsj / yjsj) * hjyj


class _Preconditioner:
    """The two-step BFGS preconditioner: (s_k, y_k) the last step, (s_r, y_r) the steps summed
    since the last reset, over the diagonal `diagb`; `upd1` until the first update."""

    def __init__(self, n):
        self.diagb = ones(n, dtype=numpy.float64)
        self.upd1, self.lreset = True, False
        self.sk = self.yk = self.sr = self.yr = None
        self.yksk = self.yrsr = 0.0

    def solve(self, v):
        """`msolve`: the preconditioner applied to v."""
        if self.upd1:
            return v / self.diagb
        sk, yk, sr, yr, diagb = self.sk, self.yk, self.sr, self.yr, self.diagb
        gsk = vdot(v, sk)
        hg, hyk = v / diagb, yk / diagb
        if not self.lreset:
            hyr = yr / diagb
            yrhyr = vdot(yr, hyr)
            hg = _ssbfgs(sr, hg, hyr, self.yrsr, yrhyr, vdot(v, sr), vdot(v, hyr))
            hyk = _ssbfgs(sr, hyk, hyr, self.yrsr, yrhyr, vdot(yk, sr), vdot(yk, hyr))
        return _ssbfgs(sk, hg, hyk, self.yksk, vdot(hyk, yk), gsk, vdot(hyk, v))

    def diagonal(self):
        """`initPreconditioner`: the diagonal the CG loop starts its scaling from."""
        if self.upd1:
            return self.diagb
        sk, yk, sr, yr, td = self.sk, self.yk, self.sr, self.yr, self.diagb
        yksk = self.yksk if self.yksk != 0.0 else 1.0
        if self.lreset:
            sds = vdot(sk, td * sk)
            sds = where(sds == 0.0, 1.0, sds)
            return td - td * td * sk * sk / sds + yk * yk / yksk
        yrsr = self.yrsr if self.yrsr != 0.0 else 1.0
        bsk = td * sr
        sds = vdot(sr, bsk)
        srds = vdot(sk, bsk)
        sds = where(sds == 0.0, 1.0, sds)
        bsk = td * sk - bsk * srds / sds + yr * (vdot(yr, sk) / yrsr)
        emat = td - td * td * sr * sr / sds + yr * yr / yrsr
        sds = vdot(sk, bsk)
        sds = where(sds == 0.0, 1.0, sds)
        return emat - bsk * bsk / sds + yk * yk / yksk


class _Scaled:
    """The problem in TNC's scaled variables xs = (x - offset) / scale (x where scale is 0): the
    user's function at unscaled points clipped into the box, the gradient scaled by scale and by
    `fscale`, the bound tests, the active set's projection."""

    def __init__(self, obj, lo, hi, lo_fin, hi_fin, xscale, xoffset, const):
        self.obj, self.lo, self.hi, self.lo_fin, self.hi_fin = obj, lo, hi, lo_fin, hi_fin
        self.xscale, self.xoffset, self.const = xscale, xoffset, const
        safe = where(const, 1.0, xscale)
        self.lo_s, self.hi_s = (lo - xoffset) / safe, (hi - xoffset) / safe
        self._safe = safe
        self.fscale = 1.0
        self.nfeval = 0  # the C code's count of calls, for maxfun
        self.gfull = None  # the gradient at the last accepted point

    def scale(self, x):
        return where(self.const, x, (x - self.xoffset) / self._safe)

    def unscale(self, xs):
        return xs * self.xscale + self.xoffset

    def evaluate(self, xs):
        """(point, f, gradient) at the unscaled xs clipped into the box, one call of the C code's."""
        return self.evaluate_at(clip(self.unscale(xs), self.lo, self.hi))

    def evaluate_at(self, x):
        # the value too where jac is a callable, as SciPy's `fun_and_grad` (its nfev counts it)
        f_d, g = self.obj.fun(x), self.obj.grad(x)
        self.nfeval += 1
        return x, f_d, g

    def grad_s(self, gfull):
        return gfull * self.xscale * self.fscale

    def near_lower(self, xs):
        return self.lo_fin & (self.unscale(xs) - self.lo <= _EPS * 10.0 * (absolute(self.lo) + 1.0))


def _project(v, pivot):
    return where(pivot != 0, 0.0, v)


def _resolve_bounds(bounds, n):
    if bounds is None:
        return numpy.full(n, -numpy.inf), numpy.full(n, numpy.inf)
    return (numpy.broadcast_to(numpy.asarray(bounds.lb, dtype=float), (n,)).copy(),
            numpy.broadcast_to(numpy.asarray(bounds.ub, dtype=float), (n,)).copy())


def _vector_option(v, n):
    if v is None:
        return None
    v = numpy.asarray(_bound_array(v), dtype=float).reshape(-1)
    if v.size == 0:
        return None
    if v.size != n:
        raise ValueError("tnc: vector sizes must be equal")
    return v


def minimize_tnc(fun, x0, args, jac, bounds, callback, eps=1e-8, scale=None, offset=None, mesg_num=None,
                 maxCGit=-1, eta=-1, stepmx=0, accuracy=0, minfev=0, ftol=-1, xtol=-1, gtol=-1, rescale=-1,
                 disp=False, finite_diff_rel_step=None, maxfun=None, workers=None):
    """SciPy's `_minimize_tnc` (and the C `tnc`) with the iterate on the device; `bounds` a
    `Bounds` (host lb/ub) or None; `callback(x)` as SciPy's TNC calls it (a device copy)."""
    n = len(x0)
    if n == 0:  # SciPy's error, from its conversion of the (empty) bounds
        raise ValueError("not enough values to unpack (expected 2, got 0)")
    lo_h, hi_h = _resolve_bounds(bounds, n)
    scale_h, offset_h = _vector_option(scale, n), _vector_option(offset, n)
    maxfun = max(100, 10 * n) if maxfun is None else maxfun
    x0 = x0.astype(numpy.float64)
    lo_fin, hi_fin = numpy.isfinite(lo_h), numpy.isfinite(hi_h)
    constrained = bool(lo_fin.any() or hi_fin.any())
    lo, hi = as_parameter(lo_h, _FN), as_parameter(hi_h, _FN)
    obj = Objective(fun, jac, args, eps, finite_diff_rel_step, (lo, hi) if constrained else None)
    if numpy.any(lo_h > hi_h):
        return _result(obj, x0, INFEASIBLE, 0)
    # a read of the start's place in the box where finite differences need it: SciPy's difference
    # steps start from the unclipped x0 and refuse one outside the bounds
    if constrained and not (callable(jac) or jac is True) and bool(to_host(any_((x0 < lo) | (x0 > hi)))):
        raise ValueError("`x0` violates bound constraints.")
    x = clip(x0, lo, hi)
    if maxfun < 1:
        return _result(obj, x, MAXFUN, 0)
    both = lo_fin & hi_fin
    if scale_h is not None:
        const_h = scale_h == 0.0
        xscale = as_parameter(numpy.abs(scale_h), _FN)
    else:
        const_h = both & (lo_h == hi_h)
        span = numpy.where(both, hi_h, 0.0) - numpy.where(both, lo_h, 0.0)  # no inf - inf
        xscale = where(as_parameter(both, _FN), as_parameter(span, _FN), 1.0 + absolute(x))
    if numpy.all((lo_h == hi_h) | const_h):  # the C code's answer after its first evaluation
        return _result(obj, x, CONSTANT, 0)
    const = as_parameter(const_h, _FN)
    if offset_h is not None:
        xoffset = as_parameter(offset_h, _FN)
    elif scale_h is not None:  # the C code leaves these offsets unset; x keeps the scaling sane
        xoffset = x
    else:
        mid = (numpy.where(both, hi_h, 0.0) + numpy.where(both, lo_h, 0.0)) * 0.5
        xoffset = where(as_parameter(both, _FN), as_parameter(mid, _FN), x)
    if scale_h is not None and const_h.any():  # a zero scale fixes its variable where it starts
        lo, hi = where(const, x, lo), where(const, x, hi)
        xoffset = where(const, x, xoffset)
    prob = _Scaled(obj, lo, hi, as_parameter(lo_fin, _FN), as_parameter(hi_fin, _FN), xscale, xoffset, const)
    opts = _defaults(n, maxCGit, eta, stepmx, accuracy, ftol, gtol, xtol, rescale)
    return _run(prob, x, opts, maxfun, minfev, callback)


def _defaults(n, maxCGit, eta, stepmx, accuracy, ftol, pgtol, xtol, rescale):
    """The C code's defaults for out-of-range parameters."""
    if stepmx < _RTEPS * 10.0:
        stepmx = 10.0
    if eta < 0.0 or eta >= 1.0:
        eta = 0.25
    if rescale < 0:
        rescale = 1.3
    if maxCGit < 0:
        maxCGit = min(max(n // 2, 1), 50)
    maxCGit = min(maxCGit, n)
    if accuracy <= _EPS:
        accuracy = _RTEPS
    if ftol < 0.0:
        ftol = accuracy
    if pgtol < 0.0:
        pgtol = 1e-2 * math.sqrt(accuracy)
    if xtol < 0.0:
        xtol = _RTEPS
    return dict(maxCGit=maxCGit, eta=eta, stepmx=stepmx, accuracy=accuracy, ftol=ftol, pgtol=pgtol, xtol=xtol,
                rescale=rescale)


def _result(obj, x, rc, nit):
    """SciPy's result: f and the gradient at the final x, as SciPy evaluates them again."""
    f_d, g = obj.fun(x), obj.grad(x)
    # the final read: the value
    fun = float(to_host(f_d))
    return OptimizeResult(x=x, fun=fun, jac=g, nfev=obj.nfev, nit=nit, status=rc, message=RCSTRINGS[rc],
                          success=(-1 < rc < 3))


def _run(prob, x, o, maxfun, fmin, callback):
    """`tnc_minimize`: the outer loop, in scaled variables."""
    obj, n = prob.obj, x.shape[0]
    xs = prob.scale(x)
    _, f_d, prob.gfull = prob.evaluate_at(x)
    # the initial active set: a lower bound the point is on (the C code's upper-bound test asks
    # for the point beyond the bound, which the clipping rules out), kept where its multiplier
    # has the right sign
    pivot = where(prob.const, 2.0, where(prob.near_lower(xs), -1.0, 0.0))
    g = prob.grad_s(prob.gfull)
    pivot = where(-pivot * g < 0.0, 0.0, pivot)
    g = _project(g, pivot)
    # the first read: f(x0) and the projected gradient's norm
    f, gnorm = (float(v) for v in to_host(stack([f_d.astype(numpy.float64), _norm(g)])))
    pre = _Preconditioner(n)
    f_last_con = f_last_reset = f
    difnew, epsred, icycle, newcon, nit = 0.0, 0.05, n - 1, True, 0
    stepmx, pgtol = o["stepmx"], o["pgtol"]
    while True:
        if gnorm <= pgtol * prob.fscale:
            rc = LOCALMINIMUM
            break
        if prob.nfeval >= maxfun:
            rc = MAXFUN
            break
        if gnorm > _EPS and abs(math.log10(gnorm)) > o["rescale"]:  # rescale f to a unit gradient
            s = 1.0 / gnorm
            f, prob.fscale, gnorm = f * s, prob.fscale * s, gnorm * s
            f_last_con, f_last_reset, difnew = f_last_con * s, f_last_reset * s, difnew * s
            g = g * s
            pre.diagb = ones(n, dtype=numpy.float64)
            pre.upd1, icycle, newcon = True, n - 1, True
        xnorm_d = _norm(_project(xs, pivot))
        old_nfeval = prob.nfeval
        pk = _direction(prob, pre, xs, g, gnorm, pivot, xnorm_d, o, maxfun)
        if not newcon:
            if not pre.lreset:  # the steps and gradient changes since the last reset, summed
                pre.sr, pre.yr = pre.sr + pre.sk, pre.yr + pre.yk
                icycle += 1
            else:
                pre.sr, pre.yr = pre.sk, pre.yk
                f_last_reset, icycle = f, 1
        oldg, oldf = g, f
        ps = where(pk == 0.0, 1.0, pk)
        ratio = where(pk < 0.0, (prob.lo_s - xs) / ps, (prob.hi_s - xs) / ps)
        bound_step = min_(where((pivot == 0.0) & (pk != 0.0), ratio, numpy.inf))
        # the read before the step search: the slope, |p|, |x| and the largest step the box allows
        oldgtp, pnorm, xnorm, spe_box = (float(v) for v in to_host(stack([vdot(pk, g), _norm(pk), xnorm_d,
                                                                            bound_step])))
        ustpmax = stepmx / (pnorm + _EPS)
        spe = min(ustpmax, spe_box)
        alpha = 0.0
        if spe > 0.0:
            d = abs(f - fmin / prob.fscale)  # the C code's initial step (its fmin scaled so)
            alpha = -2.0 * d / oldgtp if (2.0 * d <= -oldgtp and d >= _EPS) else 1.0
            alpha = min(alpha, spe)
            lsrc, alpha, found = _step_search(prob, xs, pk, f, oldgtp, xnorm, pnorm, alpha, spe, o, maxfun)
            if lsrc == _LS_OK:
                f = found
                xs = xs + alpha * pk
            if alpha >= 0.9 * ustpmax:
                stepmx *= 1e2
            if alpha - spe >= -_EPS * 10.0:
                newcon = True
            elif lsrc != _LS_OK:
                rc = MAXFUN if lsrc == _LS_MAXFUN else LSFAIL
                break
            else:
                newcon = False
        else:
            newcon = True
        if newcon:
            xs, pivot, added = _add_constraints(prob, xs, pk, pivot)
            # a read only where the iteration made no evaluation: whether a bound was met
            if prob.nfeval == old_nfeval and not bool(to_host(added)):
                rc = NOPROGRESS
                break
            f_last_con = f
        nit += 1
        if callback is not None:
            callback(prob.unscale(xs))
        difold, difnew = difnew, oldf - f
        if icycle == 1:
            if difnew > difold * 2.0:
                epsred += epsred
            if difnew < difold * 0.5:
                epsred *= 0.5
        state = _end_of_iteration(prob, pre, pivot, oldg, alpha, pk, newcon, oldgtp, f, f_last_con, o)
        pivot, g, gnorm, remcon = state
        if remcon:
            f_last_con = f
        if not remcon and not newcon:
            if abs(difnew) <= o["ftol"] * prob.fscale:
                rc = FCONVERGED
                break
            if alpha * pnorm <= o["xtol"]:
                rc = XCONVERGED
                break
        if not newcon:
            if icycle == n - 1 or difnew < epsred * (f_last_reset - f):
                pre.lreset = True
            else:
                pre.lreset = pre.yrsr <= 0.0
            pre.upd1 = False
    x = clip(prob.unscale(xs), prob.lo, prob.hi)
    # a read: whether x is the last point evaluated, where SciPy's final evaluation comes from its
    # cache (so nfev counts as SciPy's)
    if bool(to_host(all_(x == obj.x))):
        return _result(obj, obj.x, rc, nit)
    return _result(obj, x, rc, nit)


def _end_of_iteration(prob, pre, pivot, oldg, alpha, pk, newcon, oldgtp, f, f_last_con, o):
    """The new projected gradient, the release of the bound whose multiplier has the wrong sign
    (the most negative, first among equals; `removeConstraint`) and the preconditioner's new
    pair, computed for both outcomes of the release before the one read that decides it."""
    g = prob.grad_s(prob.gfull)
    gp = _project(g, pivot)
    t = where(pivot == 2.0, 0.0, -pivot * g)
    i = argmin(t)
    released = where(arange(pivot.shape[0]) == i, 0.0, pivot)
    gp_rel = _project(g, released)
    parts = [_norm(gp), min_(t), _norm(gp_rel)]
    if not newcon:
        sk = alpha * pk
        yk, yk_rel = gp - oldg, gp_rel - oldg
        parts += [vdot(yk, sk), vdot(yk_rel, sk), vdot(pre.yr, pre.sr) if pre.sr is not None else vdot(sk, sk) * 0.0]
    # the outer iteration's read: the norms, the multiplier, the preconditioner's products
    host = [float(v) for v in to_host(stack(parts))]
    gnorm = host[0]
    remcon = not (f_last_con - f <= oldgtp * -0.5 and gnorm > o["pgtol"] * prob.fscale) and host[1] < 0.0
    if remcon:
        pivot, gp, gnorm = released, gp_rel, host[2]
    if not newcon:
        pre.sk, pre.yk = sk, (yk_rel if remcon else yk)
        pre.yksk, pre.yrsr = host[4] if remcon else host[3], host[5]
    return pivot, gp, gnorm, remcon


def _add_constraints(prob, xs, p, pivot):
    """`addConstraint`: the free variables moving onto a bound (within 10 eps) join the active
    set, placed on it. Returns (xs, pivot, whether any joined: a device flag)."""
    xu = prob.unscale(xs)
    cand = (pivot == 0.0) & (p != 0.0)
    down = (p < 0.0) & prob.lo_fin
    lo_hit = cand & down & (xu - prob.lo <= _EPS * 10.0 * (absolute(prob.lo) + 1.0))
    hi_hit = cand & ~down & prob.hi_fin & (prob.hi - xu <= _EPS * 10.0 * (absolute(prob.hi) + 1.0))
    pivot = where(lo_hit, -1.0, where(hi_hit, 1.0, pivot))
    xs = where(lo_hit, prob.lo_s, where(hi_hit, prob.hi_s, xs))
    return xs, pivot, any_(lo_hit | hi_hit)


def _hessp(prob, xs, g, v, delta):
    """`hessianTimesVector`: forward differences of the scaled gradient along v."""
    _, _, gfull = prob.evaluate(xs + delta * v)
    return where(prob.const, 0.0, (prob.grad_s(gfull) - g) / delta)


def _direction(prob, pre, xs, g, gnorm, pivot, xnorm_d, o, maxfun):
    """`tnc_direction`: preconditioned CG on the Newton equations, stopped by the model's
    relative reduction (Nash's test), negative curvature or a direction turning uphill."""
    if o["maxCGit"] == 0:
        return -g  # g is projected
    tol = 1e-12
    emat = pre.diagonal()
    delta = o["accuracy"] * (xnorm_d + 1.0)
    r = -g
    zsol = v = zeros(g.shape[0], dtype=numpy.float64)
    zk = _project(pre.solve(r), pivot)
    rz = float(to_host(vdot(r, zk)))  # the CG loop's first read: r.z
    qold = rzold = 0.0
    for k in range(o["maxCGit"]):
        if rz / gnorm < tol or prob.nfeval >= maxfun - 1:
            if k == 0:
                zsol = -g
            break
        beta = 0.0 if k == 0 else rz / rzold
        v = _project(zk + beta * v, pivot)
        gv = _project(_hessp(prob, xs, g, v, delta), pivot)
        vgv_d = vdot(v, gv)
        # the next CG step, before the read that decides whether it is taken
        vgv_s = where(vgv_d == 0.0, 1.0, vgv_d)  # a zero curvature stops the loop before its step is used
        emat_next = emat - r * r / vdot(v, r) + gv * gv / vgv_s
        emat_next = where(emat_next <= 1e-6, 1.0, emat_next)
        alpha_d = rz / vgv_s
        zsol_next = zsol + alpha_d * v
        r_next = r - alpha_d * gv
        zk_next = _project(pre.solve(r_next), pivot)
        # the CG iteration's read: the curvature, the model's terms and the next r.z
        vgv, gtp, pr, rz_next = (float(v_) for v_ in to_host(stack(
            [vgv_d, vdot(zsol_next, g), vdot(r_next, zsol_next), vdot(r_next, zk_next)])))
        if vgv / gnorm < tol:
            if k == 0:
                zsol = -_project(pre.solve(g), pivot)
            break
        emat, zsol, r = emat_next, zsol_next, r_next
        qnew = (gtp + pr) * 0.5
        with numpy.errstate(divide="ignore", invalid="ignore"):  # a zero model value: the C code's inf/NaN
            qtest = (k + 1) * (1.0 - numpy.float64(qold) / qnew)
        if qtest <= 0.5:
            break
        if gtp > 0.0:  # uphill: the step before
            zsol = zsol - alpha_d * v
            break
        qold, rzold, rz, zk = qnew, rz, rz_next, zk_next
    pre.diagb = emat
    return zsol


def _step_search(prob, xs, p, f, gtp, xnorm, pnorm, alpha, xbnd, o, maxfun):
    """`linearSearch`: (status, step, value) of Gill and Murray's search from `alpha`, at most `xbnd`;
    the accepted point's evaluation becomes `prob`'s current point."""
    pe = pnorm + _EPS
    search = StepSearch(_RTEPS * (xnorm + 1.0) / pe, -_EPS * (1.0 + abs(f)) / (gtp - _EPS), _EPS * (xnorm + 1.0) / pe,
                        o["eta"], 1e-4, xbnd, o["ftol"], alpha, f, gtp)
    itest = search.start()
    itcnt, best = 0, None
    p_s = p * prob.xscale
    while itest == EVAL:
        itcnt += 1
        if itcnt > 64 or prob.nfeval >= maxfun:
            break
        ualpha = search.xmin + search.u
        _, f_d, gfull = prob.evaluate(xs + ualpha * p)
        # one read per trial step: the value and the slope
        fu, gu = (float(v) for v in to_host(stack([f_d.astype(numpy.float64), vdot(gfull, p_s)])))
        itest = search.step_with(fu * prob.fscale, gu * prob.fscale)
        if search.xmin == ualpha:
            best = gfull
    step = getattr(search, "xmin", alpha)
    if itest == OK:
        prob.gfull = best
        return _LS_OK, step, search.fmin
    return (_LS_FAIL if itcnt > 64 or itest != EVAL else _LS_MAXFUN), step, None


def fmin_tnc(func, x0, fprime=None, args=(), approx_grad=0, bounds=None, epsilon=1e-8, scale=None, offset=None,
             messages=15, maxCGit=-1, maxfun=None, eta=-1, stepmx=0, accuracy=0, fmin=0, ftol=-1, xtol=-1, pgtol=-1,
             rescale=-1, disp=None, callback=None):
    """See `scipy.optimize.fmin_tnc`. ``func`` (and ``fprime``) take and return cuarray arrays;
    the returned ``x`` is a device array. ``messages`` and ``disp`` print nothing."""
    jac = None if approx_grad else (True if fprime is None else fprime)
    x0 = as_parameter(x0, "scipy.optimize.fmin_tnc").reshape(-1)
    if x0.dtype.kind != "f":
        x0 = x0.astype(numpy.float64)
    if not isinstance(args, tuple):
        args = (args,)
    if bounds is not None:
        if len(bounds) != x0.shape[0]:
            raise ValueError("length of x0 != length of bounds")
        lb, ub = zip(*bounds)
        bounds = Bounds([-numpy.inf if v is None else float(v) for v in lb],
                        [numpy.inf if v is None else float(v) for v in ub])
    res = minimize_tnc(func, x0, args, jac, bounds, callback, eps=epsilon, scale=scale, offset=offset,
                       maxCGit=maxCGit, maxfun=maxfun, eta=eta, stepmx=stepmx, accuracy=accuracy, minfev=fmin,
                       ftol=ftol, xtol=xtol, gtol=pgtol, rescale=rescale)
    return res["x"], res["nfev"], res["status"]
