"""The adaptive Gauss-Kronrod engine under `quad`, `dblquad`, `tplquad` and `nquad`: many
independent one-dimensional integrals refined together, a round at a time.

The rules and error estimate are QUADPACK's (Piessens, de Doncker-Kapenga, Ueberhuber and
Kahaner, "QUADPACK: A Subroutine Package for Automatic Integration", Springer 1983): the 21-point
Gauss-Kronrod rule (QK21) on finite ranges; on an infinite range the 15-point rule (QK15I) on
t in (0, 1] after x = bound + (1 - t) / t (QAGI's substitution; both halves summed for
(-inf, inf)); the error estimate resasc * min(1, (200 |K - G| / resasc)^1.5), bounded below by
50 eps resabs. QAGS's strategy is bisection of the worst intervals with Wynn's epsilon algorithm
(Wynn, "On a device for computing the e_m(S_n) transformation", 1956) extrapolating the sequence
of estimates, which is what takes endpoint singularities; QAGP starts from the break points.

Where QUADPACK bisects one interval per step, a round here bisects every interval that must be
split for the remaining error to fall under a quarter of the tolerance (worst first, for every
integral of the batch), so that the integrand is called once a round on all the new nodes (one
device array) and the round's one device-to-host read brings back four sums per interval. The
interval lists, the extrapolation and the error bookkeeping are host numbers, per integral.
"""

import math
import sys

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import stack
from ._quad_vec import _rule

_EPS = sys.float_info.epsilon
_UFLOW = sys.float_info.min
_RULES = {kind: _rule(name) for kind, name in (("finite", "gk21"), ("infinite", "gk15"))}

# SciPy's messages (scipy.integrate.quad) for QUADPACK's ier
MESSAGES = {
    1: "The maximum number of subdivisions ({limit}) has been achieved.\n  If increasing the limit yields no "
       "improvement it is advised to analyze \n  the integrand in order to determine the difficulties.  If the "
       "position of a \n  local difficulty can be determined (singularity, discontinuity) one will \n  probably "
       "gain from splitting up the interval and calling the integrator \n  on the subranges.  Perhaps a "
       "special-purpose integrator should be used.",
    2: "The occurrence of roundoff error is detected, which prevents \n  the requested tolerance from being "
       "achieved.  The error may be \n  underestimated.",
    3: "Extremely bad integrand behavior occurs at some points of the\n  integration interval.",
}


class Integrand:
    """The user's integrand and how it is called. Vectorized (the default): `func(x, *outer,
    *args)` with `x` a 1-D cuarray array of nodes (and each outer variable an array of the same
    shape), returning values of that shape (or a scalar). If the first such call raises
    TypeError or ValueError (a function of Python floats: `math.exp`, an `if x < 0:`), `func` is
    called with Python floats node by node on the host, as SciPy calls it, for the rest."""

    def __init__(self, func, args):
        self.func, self.args, self.scalar, self.neval = func, tuple(args), None, 0

    def __call__(self, x, outer):
        """Values at host nodes `x` (1-D) with host outer variables `outer` (list of 1-D): a
        float64 device array, or a host array in the scalar mode."""
        self.neval += x.size
        if not self.scalar:
            try:
                xd = [as_parameter(v, "scipy.integrate.quad") for v in [x, *outer]]
                out = self.func(*xd, *self.args)
            except (TypeError, ValueError):
                if self.scalar is not None:
                    raise
                self.scalar = True
            else:
                self.scalar = False
                out = as_array(out, "scipy.integrate.quad")
                if out.dtype.kind == "c":
                    raise TypeError("must be real number, not complex (use complex_func=True)")
                if out.shape != x.shape:
                    if out.ndim:
                        raise ValueError(f"the integrand returned shape {out.shape} for {x.shape[0]} nodes: a "
                                         "vectorized integrand returns one value per node")
                    out = broadcast_to(out, x.shape)
                return out.astype(numpy.float64)
        return numpy.array([float(self.func(*(float(v[i]) for v in [x, *outer]), *self.args))
                            for i in range(x.size)], dtype=numpy.float64)


def _sums(fv, wk, wg):
    """QK's four sums of each row of fv (nodes along the last axis): Kronrod, Gauss, Kronrod of
    |f|, Kronrod of |f - mean|, in one array (4, rows); device or host as fv is."""
    resk = fv @ wk
    return [resk, fv @ wg, abs(fv) @ wk, abs(fv - (resk * 0.5)[:, None]) @ wk]


def evaluate(integrand, kind, lo, hi, bound, sgn, outer):
    """QUADPACK's (result, abserr, resabs) of each interval [lo_i, hi_i]: the rule's nodes of all
    the intervals in one call of `integrand`, the sums in one read. `kind` is "finite", "semi"
    (t-intervals in (0, 1], x = bound_i + sgn_i (1 - t) / t) or "double" (x = +-(1 - t) / t,
    both halves in the same call). `outer` lists each interval's outer variables (host 1-D)."""
    x, wk, wg = _RULES["finite" if kind == "finite" else "infinite"]
    m, n = lo.size, x.size
    c, h = 0.5 * (lo + hi), 0.5 * (hi - lo)
    t = c[:, None] + h[:, None] * x[None, :]
    outer_n = [numpy.repeat(v, n) for v in outer]
    if kind == "finite":
        fv = integrand(t.reshape(-1), outer_n).reshape(m, n)
    elif kind == "semi":
        fv = integrand((bound[:, None] + sgn[:, None] * ((1 - t) / t)).reshape(-1), outer_n).reshape(m, n)
    else:
        u = ((1 - t) / t).reshape(-1)
        fv = integrand(numpy.concatenate([u, -u]), [numpy.tile(v, 2) for v in outer_n])
        fv = fv[:m * n].reshape(m, n) + fv[m * n:].reshape(m, n)
    if kind != "finite":
        jac = 1.0 / (t * t)
        fv = fv * (jac if isinstance(fv, numpy.ndarray) else as_parameter(jac, "scipy.integrate.quad"))
    if isinstance(fv, numpy.ndarray):
        sums = numpy.stack(_sums(fv, wk, wg))
    else:
        wkd, wgd = (as_parameter(w, "scipy.integrate.quad") for w in (wk, wg))
        sums = to_host(stack(_sums(fv, wkd, wgd)))  # the round's one device-to-host read
    resk, resg, resabs, resasc = (numpy.asarray(s, dtype=numpy.float64) for s in sums)
    result, resabs, resasc = resk * h, resabs * numpy.abs(h), resasc * numpy.abs(h)
    err = numpy.abs((resk - resg) * h)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scaled = resasc * numpy.minimum(1.0, (200 * err / resasc) ** 1.5)
    err = numpy.where((resasc != 0) & (err != 0), scaled, err)
    err = numpy.where(resabs > _UFLOW / (50 * _EPS), numpy.maximum(50 * _EPS * resabs, err), err)
    return result, err, resabs


def epsilon_extrapolate(seq):
    """Wynn's epsilon algorithm on `seq`: the last entry of the highest even column that can be
    formed before a difference vanishes (the table has converged there) or overflows."""
    prev, cur, best = [0.0] * (len(seq) + 1), list(seq), seq[-1]
    k = 0
    while len(cur) > 1:
        nxt = []
        for i in range(len(cur) - 1):
            d = cur[i + 1] - cur[i]
            if not math.isfinite(d) or abs(d) <= 4 * _EPS * max(abs(cur[i]), abs(cur[i + 1])):
                return best
            nxt.append(prev[i + 1] + 1.0 / d)
        prev, cur = cur, nxt
        k += 1
        if k % 2 == 0:
            if not math.isfinite(cur[-1]):
                return best
            best = cur[-1]
    return best


class Problem:
    """One integral's QUADPACK state: its intervals (a, b, result, error), the sequence of its
    round totals and their extrapolations, its status `ier` (None while refining)."""

    def __init__(self, lo, hi, kind, bound, sgn, outer, epsabs, epsrel, limit, points):
        self.kind, self.bound, self.sgn, self.outer = kind, bound, sgn, outer
        self.epsabs, self.epsrel, self.limit = epsabs, epsrel, limit
        edges = [lo] + sorted(p for p in set(points or ()) if lo < p < hi) + [hi]
        self.pending = list(zip(edges[:-1], edges[1:]))
        self.a, self.b, self.r, self.e = [], [], [], []
        self.seq, self.ext, self.iroff, self.ier = [], [], 0, None
        self.result = self.abserr = 0.0
        self.splits = []  # (index of the parent, its result and error) of the pending halves
        self.best_ext = None  # an extrapolation whose error estimate beat the sum's

    def finish(self):
        """A problem that stopped short: the extrapolation where its error estimate is smaller."""
        if self.ier and self.best_ext is not None and self.best_ext[1] < self.abserr:
            self.result, self.abserr = self.best_ext

    def plan(self):
        """The next round's intervals: bisect the worst until the rest's error is under tol / 4."""
        if self.ier is not None or self.pending:
            return
        tol = max(self.epsabs, self.epsrel * abs(self.result))
        if len(self.a) >= self.limit:
            self.ier = 1
            return
        order = sorted(range(len(self.e)), key=lambda i: -self.e[i])
        rest, picked = sum(self.e), []
        for i in order:
            if rest <= tol / 4 or len(self.a) + len(picked) >= self.limit:
                break
            a1, b1 = self.a[i], self.b[i]
            mid = 0.5 * (a1 + b1)
            if max(abs(a1), abs(b1)) <= (1 + 100 * _EPS) * (abs(mid) + 1000 * _UFLOW):
                self.ier = 3  # QUADPACK: an interval too small to bisect
                return
            picked.append(i)
            rest -= self.e[i]
        for i in picked:
            mid = 0.5 * (self.a[i] + self.b[i])
            self.pending += [(self.a[i], mid), (mid, self.b[i])]
            self.splits.append((i, self.r[i], self.e[i]))

    def update(self, res, err, resabs):
        """Takes the round's results of the pending intervals; the convergence test."""
        halves, self.pending = self.pending, []
        drop = set()
        for j, (i, r0, e0) in enumerate(self.splits):
            r12, e12 = res[2 * j] + res[2 * j + 1], err[2 * j] + err[2 * j + 1]
            if abs(r0 - r12) <= 1e-5 * abs(r12) and e12 >= 0.99 * e0:
                self.iroff += 1  # QUADPACK's roundoff count: bisecting no longer helps
            drop.add(i)
        keep = [i for i in range(len(self.a)) if i not in drop]
        self.a = [self.a[i] for i in keep] + [p[0] for p in halves]
        self.b = [self.b[i] for i in keep] + [p[1] for p in halves]
        self.r = [self.r[i] for i in keep] + list(res)
        self.e = [self.e[i] for i in keep] + list(err)
        first = not self.splits
        self.splits = []
        self.result, self.abserr = math.fsum(self.r), math.fsum(self.e)
        tol = max(self.epsabs, self.epsrel * abs(self.result))
        if not (math.isfinite(self.result) and math.isfinite(self.abserr)):
            self.ier = 3
            return
        if self.abserr <= tol:
            self.ier = 0
            return
        if first and len(halves) == 1 and self.abserr <= 100 * _EPS * float(resabs[0]):
            self.ier = 2
            return
        self.seq.append(self.result)
        if len(self.seq) >= 3:
            ext = epsilon_extrapolate(self.seq[-50:])
            # QUADPACK's estimate of the extrapolated value's error: its distance to the last
            # three extrapolations (none before there are three)
            ext_err = sum(abs(ext - v) for v in self.ext[-3:]) if len(self.ext) >= 3 else math.inf
            self.ext.append(ext)
            ext_err = max(ext_err, 5 * _EPS * abs(ext))
            if ext_err < self.abserr:
                self.best_ext = (ext, ext_err)
                if ext_err <= max(self.epsabs, self.epsrel * abs(ext)):
                    self.result, self.abserr, self.ier = ext, ext_err, 0
                    return
        if self.iroff >= 10:
            self.ier = 2


def refine(problems, integrand):
    """Runs every problem to its end; one integrand call and one read per kind and round."""
    while True:
        for p in problems:
            p.plan()
        live = [p for p in problems if p.pending]
        if not live:
            for p in problems:
                p.finish()
            return
        for kind in ("finite", "semi", "double"):
            group = [p for p in live if p.kind == kind]
            if not group:
                continue
            counts = [len(p.pending) for p in group]
            lo = numpy.array([iv[0] for p in group for iv in p.pending], dtype=numpy.float64)
            hi = numpy.array([iv[1] for p in group for iv in p.pending], dtype=numpy.float64)
            bound = numpy.repeat([p.bound for p in group], counts).astype(numpy.float64)
            sgn = numpy.repeat([p.sgn for p in group], counts).astype(numpy.float64)
            width = len(group[0].outer)
            outer = [numpy.repeat([p.outer[k] for p in group], counts).astype(numpy.float64) for k in range(width)]
            res, err, resabs = evaluate(integrand, kind, lo, hi, bound, sgn, outer)
            start = 0
            for p, k in zip(group, counts):
                p.update(res[start:start + k], err[start:start + k], resabs[start:start + k])
                start += k
