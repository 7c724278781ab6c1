"""`minimize(method='L-BFGS-B')`: the limited-memory BFGS method for bound constraints of Byrd,
Lu, Nocedal and Zhu (1995), "A limited memory algorithm for bound constrained optimization",
SIAM J. Sci. Comput. 16(5), with the 2011 projection of Morales and Nocedal (ACM TOMS 38(1)),
ported from the loop of SciPy's L-BFGS-B (its `setulb`'s `mainlb`, `cauchy`, `subsm`, `lnsrlb`).

The iterate, gradient, the correction pairs (s, y) and every n-vector of the generalized Cauchy
point and the subspace minimization stay on the device. Only 2m x 2m matrices (m = maxcor) are
formed on the host, from dot products read with the line search's scalars.

The generalized Cauchy point walks the breakpoints of the projected path in sorted order. The
Fortran code walks them one at a time with O(m) work each; here the walk is whole-array: the
breakpoints are sorted on the device, and the model's first and second derivatives at every
breakpoint come from prefix sums (section 4 of the paper, its recurrences written in closed
form), so the first segment holding the model's minimizer is found by one reduction. Rounding
differs from the sequential recurrences, so iteration counts may differ from SciPy's.

Host reads per iteration: one before the line search (the slope g.d, |d| and the largest feasible
step) and one per line-search trial step (the value, the slope, the projected-gradient norm and
the dot products that update the 2m x 2m matrices). DCSRCH (More and Thuente) is SciPy's scalar
routine on those host scalars."""

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._indexing.inserting import take
from ..._manipulation.joining import concatenate, stack
from ..._math.extrema import maximum, minimum
from ..._math.misc import absolute, clip
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ..._sorting.sorting import argsort
from ..._statistics.order import max as max_, min as min_
from ...linalg._products import dot, vdot
from ...linalg._solve import solve
from ...sparse.linalg._interface import LinearOperator
from ._objective import Objective
from ._result import OptimizeResult

__all__ = ["minimize_lbfgsb", "LbfgsInvHessProduct"]

_EPSMCH = numpy.finfo(float).eps
_BIG = 1e10  # lnsrlb's largest step without bounds
_MSG = {"pg": "CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL",
        "f": "CONVERGENCE: RELATIVE REDUCTION OF F <= FACTR*EPSMCH",
        "maxiter": "STOP: TOTAL NO. OF ITERATIONS REACHED LIMIT",
        "maxfun": "STOP: TOTAL NO. OF F,G EVALUATIONS EXCEEDS LIMIT",
        "callback": "STOP: CALLBACK REQUESTED HALT",
        "abnormal": "ABNORMAL: "}


def _dcsrch(phi, ftol, gtol, xtol, stpmin, stpmax):
    # optional dependency: More and Thuente's scalar search is SciPy's (host work on a few floats)
    from scipy.optimize._dcsrch import DCSRCH  # noqa: PLC0415

    return DCSRCH(phi, None, ftol, gtol, xtol, stpmin, stpmax)


def _proj_grad(x, g, lo, hi):
    """SciPy's `projgr`: the gradient with the components that point out of the box clipped."""
    return where(g < 0, maximum(x - hi, g), minimum(x - lo, g))


class _Memory:
    """The m latest correction pairs (device vectors) with their dot products (host m x m)."""

    def __init__(self, m):
        self.m = m
        self.clear()

    def clear(self):
        self.s, self.y = [], []
        self.ss = numpy.zeros((0, 0))
        self.sy = numpy.zeros((0, 0))
        self.theta = 1.0

    def products(self, s, y):
        """The device products a new pair needs: S s, S y, Y s (stacked with nothing when empty)."""
        if not self.s:
            return []
        sm, ym = stack(self.s), stack(self.y)
        return [dot(sm, s), dot(sm, y), dot(ym, s)]

    def push(self, s, y, host):
        """Append (s, y) given the host values of `products` then s.s, s.y, y.y."""
        k = len(self.s)
        ss = numpy.zeros((k + 1, k + 1))
        sy = numpy.zeros((k + 1, k + 1))
        ss[:k, :k], sy[:k, :k] = self.ss, self.sy
        if k:
            ss[:k, k] = ss[k, :k] = host[:k]
            sy[:k, k] = host[k:2 * k]  # s_i . y_new
            sy[k, :k] = host[2 * k:3 * k]  # s_new . y_j
        ss[k, k], sy[k, k] = host[-3], host[-2]
        self.s.append(s)
        self.y.append(y)
        self.ss, self.sy = ss, sy
        if k + 1 > self.m:
            self.s.pop(0)
            self.y.pop(0)
            self.ss, self.sy = ss[1:, 1:], sy[1:, 1:]
        self.theta = float(host[-1] / host[-2])  # y.y / s.y (a Python float keeps float32 data float32)

    def compact(self, dtype):
        """W = [Y, theta S] (n x 2k) on the device and M (2k x 2k), the compact form
        B = theta I - W M W' of the paper's section 3."""
        th = self.theta
        w = stack(self.y + [s * th for s in self.s], axis=1)
        d = numpy.diag(numpy.diag(self.sy))
        low = numpy.tril(self.sy, -1)
        mid = numpy.block([[-d, low.T], [low, th * self.ss]])
        return w, as_parameter(numpy.linalg.inv(mid).astype(dtype), "scipy.optimize.minimize")


def _cauchy(x, g, lo, hi, w, mmat, theta):
    """The generalized Cauchy point (the paper's algorithm CP) as whole-array steps: (x_cp,
    free mask, c = W'(x_cp - x))."""
    gs = where(g == 0, 1.0, g)
    t = where(g < 0, (x - hi) / gs, where(g > 0, (x - lo) / gs, numpy.inf))
    d = where(t > 0, -g, 0.0)
    order = argsort(t)
    ts, ds = take(t, order), take(d, order)
    finite = ts < numpy.inf
    # suffix sums: |d|^2 over the variables still moving after k breakpoints (exactly 0 when none)
    dd = concatenate([cumsum((ds * ds)[::-1])[::-1], zeros(1, dtype=x.dtype)])
    tk = concatenate([zeros(1, dtype=x.dtype), where(finite, ts, numpy.inf)])
    tk0 = where(tk < numpy.inf, tk, 0.0)
    f1 = -dd + theta * tk0 * dd
    f2 = theta * dd
    if w is not None:
        ws = take(w, order, axis=0)
        zero_row = zeros((1, w.shape[1]), dtype=w.dtype)
        # p_k = W'd over the moving variables, c_k = W'z_k (z_k the path's point at breakpoint k)
        p = concatenate([cumsum((ds[:, None] * ws)[::-1], axis=0)[::-1], zero_row])
        fixed_part = cumsum(where(finite, ts * ds, 0.0)[:, None] * ws, axis=0)
        c = concatenate([zero_row, fixed_part]) + tk0[:, None] * p
        pm = dot(p, mmat)
        f1 = f1 - sum_(pm * c, axis=1)
        f2 = f2 - sum_(pm * p, axis=1)
    f2 = maximum(f2, _EPSMCH * f2[0])
    dtm = -f1 / f2
    dt = concatenate([tk[1:], numpy.inf + zeros(1, dtype=x.dtype)]) - tk0
    stop = (tk < numpy.inf) & (dtm < dt)
    k = argmax(stop)
    tb, dtk = take(tk0, k), maximum(take(dtm, k), 0.0)
    tcp = tb + dtk
    c_cp = None if w is None else take(c, k, axis=0) + dtk * take(p, k, axis=0)
    passed = t <= tb
    xcp = where(passed, where(t > 0, where(g < 0, hi, lo), x), x + tcp * d)
    return xcp, (~passed) & (lo < hi), c_cp


def _subspace(x, g, lo, hi, xcp, free, c, w, mmat, theta):
    """The direct primal subspace minimization (the paper's section 5.1) from x_cp over the free
    variables, then Morales and Nocedal's projection, with the truncated step when the projected
    point is not a descent direction. Returns x_bar."""
    if free is None:  # no bounds: every variable is free and x_cp is x
        r = g
        wtw = dot(w.T, w)
    else:
        fr = free.astype(x.dtype)
        r = (g + theta * (xcp - x) - dot(w, dot(mmat, c))) * fr
        wtw = dot(w.T, w * fr[:, None])
    v = dot(mmat, dot(r, w))
    nmat = -dot(mmat, wtw) / theta
    k2 = nmat.shape[0]
    nmat = nmat + as_parameter(numpy.eye(k2, dtype=x.dtype), "scipy.optimize.minimize")
    v = solve(nmat, v)
    du = -r / theta - dot(w, v) / theta ** 2
    if free is None:
        return x + du
    du = du * fr
    proj = clip(xcp + du, lo, hi)
    # the truncated step: the largest alpha <= 1 keeping x_cp + alpha du in the box
    dus = where(du == 0, 1.0, du)
    ratio = where(du < 0, (lo - xcp) / dus, where(du > 0, (hi - xcp) / dus, numpy.inf))
    alpha = minimum(min_(maximum(ratio, 0.0)), 1.0)
    trunc = clip(xcp + alpha * du, lo, hi)
    return where(vdot(proj - x, g) > 0, trunc, proj)


def _direction(x, g, lo, hi, mem, constrained):
    if mem.s:
        w, mmat = mem.compact(x.dtype)
        if constrained:
            xcp, free, c = _cauchy(x, g, lo, hi, w, mmat, mem.theta)
        else:  # without bounds the Cauchy point is skipped (as mainlb): the L-BFGS step from x
            xcp, free, c = x, None, None
        return _subspace(x, g, lo, hi, xcp, free, c, w, mmat, mem.theta) - x
    if not constrained:  # the Cauchy point of the first model (B = I) without bounds: x - g
        return -g
    return _cauchy(x, g, lo, hi, None, None, 1.0)[0] - x


def minimize_lbfgsb(fun, x0, args, jac, bounds, callback, halt, maxcor=10, ftol=2.2204460492503131e-09, gtol=1e-5,
                    eps=1e-8, maxfun=15000, maxiter=15000, iprint=-1, disp=None, maxls=20,
                    finite_diff_rel_step=None, workers=None):
    """SciPy's `_minimize_lbfgsb` loop (`mainlb`) on the device."""
    n = len(x0)
    if not maxls > 0:
        raise ValueError("maxls must be positive.")
    lo_h = numpy.full(n, -numpy.inf) if bounds is None else numpy.asarray(bounds.lb, dtype=float)
    hi_h = numpy.full(n, numpy.inf) if bounds is None else numpy.asarray(bounds.ub, dtype=float)
    constrained = bool(numpy.isfinite(lo_h).any() or numpy.isfinite(hi_h).any())
    boxed = bool(numpy.isfinite(lo_h).all() and numpy.isfinite(hi_h).all())
    dtype = numpy.float64 if x0.dtype.kind != "f" else x0.dtype
    lo = as_parameter(lo_h.astype(dtype), "scipy.optimize.minimize")
    hi = as_parameter(hi_h.astype(dtype), "scipy.optimize.minimize")
    x = clip(x0.astype(dtype), lo, hi)
    obj = Objective(fun, jac, args, eps, finite_diff_rel_step, (lo, hi) if constrained else None)
    f_d, g = obj.fun(x), obj.grad(x)
    # the first read: f(x0) and the projected gradient's norm
    f, pgn = (float(v) for v in to_host(stack([f_d.astype(g.dtype), max_(absolute(_proj_grad(x, g, lo, hi)))])))
    mem = _Memory(maxcor)
    nit, key = 0, None
    if pgn <= gtol:
        key = "pg"
    while key is None:
        d = _direction(x, g, lo, hi, mem, constrained)
        if constrained and nit > 0:
            ds = where(d == 0, 1.0, d)
            ratio = where(d < 0, (lo - x) / ds, where(d > 0, (hi - x) / ds, numpy.inf))
            stpmx_d = minimum(min_(maximum(ratio, 0.0)), _BIG)
        else:
            stpmx_d = zeros((), dtype=x.dtype) + (1.0 if constrained else _BIG)
        # the iteration's first read: the slope, |d| and the largest feasible step
        gd, dnorm, stpmx = (float(v) for v in to_host(stack([vdot(g, d), vdot(d, d) ** 0.5, stpmx_d])))
        step = _line_search(obj, x, d, g, f, gd, dnorm, stpmx, lo, hi, mem, nit == 0 and not boxed, maxls)
        if step is None:  # no acceptable step: drop the memory and retry, or give up without one
            if mem.s:
                mem.clear()
                continue
            key = "abnormal"
            break
        x_new, f_new, g_new, s, y, host, _ = step
        nit += 1
        f_old, x, g, f = f, x_new, g_new, f_new
        if halt(callback, OptimizeResult(x=x, fun=f)):
            key = "callback"
            break
        if nit >= maxiter:
            key = "maxiter"
            break
        if obj.nfev > maxfun:
            key = "maxfun"
            break
        if host[2] <= gtol:
            key = "pg"
            break
        if f_old - f <= ftol * max(abs(f_old), abs(f), 1.0):
            key = "f"
            break
        if host[-2] > _EPSMCH * host[3]:  # the curvature test: s.y > eps (-g.s), else no update
            mem.push(s, y, host[4:])
    status = 0 if key in ("pg", "f") else (1 if key in ("maxiter", "maxfun") else 2)
    return OptimizeResult(fun=f, jac=g, nfev=obj.nfev, njev=obj.ngev, nit=nit, status=status,
                          message=_MSG[key], x=x, success=(status == 0),
                          hess_inv=LbfgsInvHessProduct(*_pairs(mem, n, dtype)))


def _pairs(mem, n, dtype):
    if not mem.s:
        return zeros((0, n), dtype=dtype), zeros((0, n), dtype=dtype)
    return stack(mem.s), stack(mem.y)


def _line_search(obj, x, d, g, f0, gd0, dnorm, stpmx, lo, hi, mem, first, maxls):
    """lnsrlb: DCSRCH (ftol 1e-3, gtol 0.9, xtol 0.1) from step 1 (1/|d| on the first iteration
    unless every variable has both bounds). Returns (x, f, g, s, y, host scalars, step) or None."""
    if gd0 >= 0:  # not a descent direction (rounding): the caller restarts
        return None
    stp = min(1.0 / dnorm, stpmx) if first else 1.0
    search = _dcsrch(None, 1e-3, 0.9, 0.1, 0.0, stpmx)
    task, fv, gv = b"START", f0, gd0
    last = None
    for _ in range(maxls):
        stp, fv, gv, task = search._iterate(stp, fv, gv, task)
        if task[:2] != b"FG":
            break
        stp = float(stp)  # a Python float keeps a float32 iterate float32
        xt = x + d if stp == 1.0 else x + stp * d  # step 1 is x_bar itself, as lnsrlb
        ft, gt = obj.fun(xt), obj.grad(xt)
        s, y = xt - x, gt - g
        parts = [ft.astype(gt.dtype), vdot(gt, d), max_(absolute(_proj_grad(xt, gt, lo, hi))), -vdot(g, s)]
        # one read per trial step: the value, slope and the convergence and update scalars
        host = to_host(concatenate([stack(parts)] + mem.products(s, y) +
                                   [stack([vdot(s, s), vdot(s, y), vdot(y, y)])]))
        host = numpy.asarray(host, dtype=float)
        fv, gv = float(host[0]), float(host[1])
        last = (xt, fv, gt, s, y, host, stp)
    else:
        stp, fv, gv, task = search._iterate(stp, fv, gv, task)
    if task[:4] not in (b"CONV", b"WARN") or last is None:
        return None
    return last


class LbfgsInvHessProduct(LinearOperator):
    """See `scipy.optimize.LbfgsInvHessProduct`. `sk` and `yk` are device arrays (n_corrs, n); the
    products and `todense` run on the device (SciPy's two-loop recursion)."""

    def __init__(self, sk, yk):
        if sk.shape != yk.shape or sk.ndim != 2:
            raise ValueError("sk and yk must have matching shape, (n_corrs, n)")
        n_corrs, n = sk.shape
        super().__init__(sk.dtype, (n, n))
        self.sk, self.yk, self.n_corrs = sk, yk, n_corrs
        self.rho = 1 / sum_(sk * yk, axis=1)

    def _matmat(self, X):
        # the two loops on a block of columns: alpha_i and beta are rows, one per column of X
        q = X.astype(self.dtype)
        alpha = [None] * self.n_corrs
        for i in range(self.n_corrs - 1, -1, -1):
            alpha[i] = self.rho[i] * dot(self.sk[i], q)
            q = q - self.yk[i][:, None] * alpha[i][None, :]
        r = q
        for i in range(self.n_corrs):
            beta = self.rho[i] * dot(self.yk[i], r)
            r = r + self.sk[i][:, None] * (alpha[i] - beta)[None, :]
        return r

    def _matvec(self, x):
        return self._matmat(x.reshape(-1, 1)).reshape(-1)

    def _adjoint(self):
        return self  # symmetric

    def todense(self):
        """See `scipy.optimize.LbfgsInvHessProduct.todense` (a device array)."""
        n = self.shape[0]
        return self._matmat(as_parameter(numpy.eye(n, dtype=self.dtype), "scipy.optimize.minimize"))
