"""`cubature`: adaptive integration over a box of any dimension, on the device.

SciPy 1.18's rules (scipy/integrate/_cubature.py and _rules/): the Cartesian product of the
21-point (or 15-point) Gauss-Kronrod rule, whose embedded Gauss product gives the error estimate
|K - G|, and, for two or more dimensions, Genz and Malik's degree-7 rule with its degree-5
companion (Genz and Malik, "An adaptive algorithm for numerical integration over an
N-dimensional rectangular region", J. Comput. Appl. Math. 6, 1980); a region is refined by
splitting it in two along every axis (2^ndim subregions); infinite limits are mapped to finite
ones as SciPy maps them, and `points` split the initial region.

Where SciPy splits the one region of largest error a step, a round here splits every region that
must be split for the remaining error to fall under a quarter of the tolerance (worst first), and
the integrand is called once a round on all the new regions' nodes (one device array of shape
(npoints, ndim)); the round's one host read brings back each new region's largest error and the
running totals. The region bounds are host numbers; the estimates stay on the device.
"""

import itertools
import math

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._manipulation.joining import concatenate, stack
from ..._math.misc import abs as abs_
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_
from ._quad_vec import _rule

__all__ = ["cubature", "CubatureResult", "CubatureRegion"]

_POINTS_A_CALL = 1 << 22  # nodes handed to the integrand in one call (bounds its temporaries)
_FN = "scipy.integrate.cubature"


class CubatureRegion:
    """See `scipy.integrate.cubature`'s `regions`: one region's estimate, error and corners."""

    def __init__(self, estimate, error, a, b):
        self.estimate, self.error, self.a, self.b = estimate, error, a, b

    def __repr__(self):
        return "CubatureRegion(estimate={!r}, error={!r}, a={!r}, b={!r})".format(self.estimate, self.error,
                                                                              self.a, self.b)


class CubatureResult:
    """See `scipy.integrate.cubature`'s result: estimate, error, status, regions, subdivisions,
    atol, rtol."""

    def __init__(self, estimate, error, status, regions, subdivisions, atol, rtol):
        self.estimate, self.error, self.status, self.regions = estimate, error, status, regions
        self.subdivisions, self.atol, self.rtol = subdivisions, atol, rtol

    def __repr__(self):
        return "CubatureResult(estimate={!r}, error={!r}, status={!r}, subdivisions={!r}, atol={!r}, rtol={!r})".format(
            self.estimate, self.error, self.status, self.subdivisions, self.atol, self.rtol)


def _product_gk(name, ndim):
    """Nodes (N, ndim) on [-1, 1]^ndim, the Kronrod product's weights and the error weights
    (Kronrod product minus the embedded Gauss product, which lies on every second node)."""
    x, wk, wg = _rule(name)
    grids = numpy.meshgrid(*([x] * ndim), indexing="ij")
    nodes = numpy.stack(grids, axis=-1).reshape(-1, ndim)
    high = numpy.prod(numpy.stack(numpy.meshgrid(*([wk] * ndim), indexing="ij"), axis=-1).reshape(-1, ndim), axis=-1)
    low = numpy.prod(numpy.stack(numpy.meshgrid(*([wg] * ndim), indexing="ij"), axis=-1).reshape(-1, ndim), axis=-1)
    return nodes, high, high - low


def _placed(ndim, values):
    """Every point with `values` at distinct coordinates (in that order) and 0 elsewhere."""
    out = []
    for where in itertools.permutations(range(ndim), len(values)):
        p = [0.0] * ndim
        for i, v in zip(where, values):
            p[i] = v
        out.append(tuple(p))
    return sorted(set(out))


def _genz_malik(ndim):
    """Genz and Malik's degree-7 nodes and weights on [-1, 1]^ndim and the error weights (the
    degree-7 rule minus the degree-5 rule, which uses every node but the 2^ndim corners)."""
    l2, l3, l4, l5 = math.sqrt(9 / 70), math.sqrt(9 / 10), math.sqrt(9 / 10), math.sqrt(9 / 19)
    groups = [[(0.0,) * ndim],
              _placed(ndim, (l2,)) + _placed(ndim, (-l2,)),
              _placed(ndim, (l3,)) + _placed(ndim, (-l3,)),
              _placed(ndim, (l4, l4)) + _placed(ndim, (l4, -l4)) + _placed(ndim, (-l4, -l4)),
              list(itertools.product((l5, -l5), repeat=ndim))]
    s = 2.0 ** ndim
    high = (s * (12824 - 9120 * ndim + 400 * ndim ** 2) / 19683, s * 980 / 6561, s * (1820 - 400 * ndim) / 19683,
            s * 200 / 19683, 6859 / 19683)
    low = (s * (729 - 950 * ndim + 50 * ndim ** 2) / 729, s * 245 / 486, s * (265 - 100 * ndim) / 1458,
           s * 25 / 729, 0.0)
    nodes = numpy.array([p for g in groups for p in g], dtype=float)
    wh = numpy.concatenate([numpy.full(len(g), w) for g, w in zip(groups, high)])
    wl = numpy.concatenate([numpy.full(len(g), w) for g, w in zip(groups, low)])
    return nodes, wh, wh - wl


def _rule_tables(rule, ndim):
    if not isinstance(rule, str):
        raise ValueError(f"unknown rule {rule}")
    if rule == "genz-malik":
        if ndim < 2:
            raise ValueError("Genz-Malik cubature is only defined for ndim >= 2")
        return _genz_malik(ndim)
    name = {"gauss-kronrod": "gk21", "gk21": "gk21", "gk15": "gk15"}.get(rule)
    if name is None:
        raise ValueError(f"unknown rule {rule}")
    return _product_gk(name, ndim)


class _Limits:
    """The map of infinite limits to finite ones (SciPy's, per axis): x = (1 - |t|) / t on
    (-1, 1) for (-inf, inf), x = a + (1 - t) / t on (0, 1] for [a, inf), x = b - (1 - t) / t for
    (-inf, b], each with the Jacobian 1 / t^2. (SciPy 1.18 maps (-inf, b] as [-b, inf) without
    reflecting x, so it integrates f over [-b, inf) there: this map is the one its docs state.)"""

    def __init__(self, a, b):
        self.double = numpy.isneginf(a) & numpy.isposinf(b)
        self.upper = ~numpy.isinf(a) & numpy.isposinf(b)      # [a, inf)
        self.lower = numpy.isneginf(a) & ~numpy.isinf(b)      # (-inf, b]
        self.a, self.b = a, b
        self.any = bool((self.double | self.upper | self.lower).any())

    def limits(self):
        lo, hi = self.a.copy(), self.b.copy()
        lo[self.double], hi[self.double] = -1.0, 1.0
        semi = self.upper | self.lower
        lo[semi], hi[semi] = 0.0, 1.0
        return lo, hi

    def inverse(self, x):
        """t of a point x of the original space (a break point); inf where x maps to no t."""
        t = numpy.array(x, dtype=float)
        with numpy.errstate(divide="ignore"):
            d = self.double
            t[d] = numpy.where(x[d] == 0, numpy.inf, 1 / (x[d] + numpy.sign(x[d])))
            t[self.upper] = 1 / (x[self.upper] - self.a[self.upper] + 1)
            t[self.lower] = 1 / (self.b[self.lower] - x[self.lower] + 1)
        return t

    def wrap(self, f):
        """The integrand of t: f(x(t)) times the Jacobian."""
        mapped = [i for i in range(self.a.size) if self.double[i] or self.upper[i] or self.lower[i]]

        def g(t, *args):
            parts, jac = [], None
            for i in range(self.a.size):
                ti = t[:, i]
                if self.double[i]:
                    ti_x = (1 - abs_(ti)) / ti
                elif self.upper[i]:
                    ti_x = (1 - ti) / ti + float(self.a[i])
                elif self.lower[i]:
                    ti_x = float(self.b[i]) - (1 - ti) / ti
                else:
                    ti_x = ti
                parts.append(ti_x)
                if i in mapped:
                    jac = 1 / (ti * ti) if jac is None else jac / (ti * ti)
            fx = as_parameter(f(stack(parts, axis=-1), *args), _FN)
            return fx * jac.reshape((-1,) + (1,) * (fx.ndim - 1))
        return g


def _split_at(lo, hi, at):
    """The 2^ndim boxes of each box (lo, hi) (host, (R, ndim)) cut at `at` (R, ndim) on every axis,
    as (lo, hi) arrays of shape (R * 2^ndim, ndim), each box's children together."""
    ndim = lo.shape[1]
    right = numpy.array(list(itertools.product((False, True), repeat=ndim)))[None]  # the upper half, per axis
    sub_lo = numpy.where(right, at[:, None, :], lo[:, None, :]).reshape(-1, ndim)
    sub_hi = numpy.where(right, hi[:, None, :], at[:, None, :]).reshape(-1, ndim)
    return sub_lo, sub_hi


def _initial_regions(lo, hi, points):
    """SciPy's split of the initial box at each finite break point strictly inside a region
    (empty boxes dropped)."""
    regions = [(lo, hi)]
    for p in points:
        if numpy.isinf(p).any():
            continue
        out = []
        for a, b in regions:
            inside = not ((p == a).all() or (p == b).all()) and (a <= p).all() and (p <= b).all()
            if not inside:
                out.append((a, b))
                continue
            sub_lo, sub_hi = _split_at(a[None], b[None], p[None])
            out += [(sl, sh) for sl, sh in zip(sub_lo, sub_hi) if not (sl == sh).any()]
        regions = out
    return regions


def _evaluate(g, args, rule, lo, hi, dtype):
    """Estimates and errors (device, (R, *out)) of the boxes (lo, hi) (host, (R, ndim)): the
    integrand called on every box's nodes (`rule`: device nodes, weights, error weights) in as
    few calls as `_POINTS_A_CALL` allows. Only the boxes' corners go to the device."""
    nodes, wh, we = rule
    n, ndim = nodes.shape
    step = max(1, _POINTS_A_CALL // n)
    ests, errs = [], []
    for i in range(0, lo.shape[0], step):
        l, h = lo[i:i + step], hi[i:i + step]
        half = (h - l) * 0.5
        corner = as_parameter(numpy.stack([l, half]).astype(dtype), _FN)  # (2, R, ndim)
        x = ((nodes[None, :, :] + 1) * corner[1][:, None, :] + corner[0][:, None, :]).reshape((-1, ndim))
        fx = as_parameter(g(x, *args), _FN)
        fx = fx.reshape((l.shape[0], n) + tuple(fx.shape[1:]))
        tail = (1,) * (fx.ndim - 2)
        scale = as_parameter(numpy.prod(half, axis=1).astype(dtype), _FN).reshape((-1,) + tail)  # volume / 2^ndim
        ests.append(sum_(fx * wh.reshape((1, n) + tail), axis=1) * scale)
        errs.append(abs_(sum_(fx * we.reshape((1, n) + tail), axis=1) * scale))
    return (ests[0], errs[0]) if len(ests) == 1 else (concatenate(ests), concatenate(errs))


def _largest(err):
    """Each region's largest error component (the ordering SciPy's heap uses), device (R,)."""
    return err if err.ndim == 1 else max_(err.reshape((err.shape[0], -1)), axis=1)


def _host_vector(x):
    """A limit or break point as host numbers (a host literal as it is; a device array read)."""
    if isinstance(x, (list, tuple, numpy.ndarray, int, float)):
        return numpy.asarray(x)
    return numpy.asarray(to_host(as_array(x, _FN)))


def cubature(f, a, b, *, rule="gk21", rtol=1e-8, atol=0, max_subdivisions=10000, args=(), workers=1, points=None):
    """See `scipy.integrate.cubature`. `f` takes a device array of shape (npoints, ndim) and
    returns one of shape (npoints, ...); it is called once a round on every new region's nodes.
    The result's estimate and error are device arrays; each region of `regions` holds device
    views. Differences: a round splits every region the tolerance needs (SciPy: one), so
    `subdivisions` and `regions` may differ from SciPy's while the estimate agrees within the
    tolerance; `workers` is accepted and not used (the device evaluates the nodes in parallel);
    `rule` is one of SciPy's names; (-inf, b] limits integrate over (-inf, b] (SciPy 1.18
    integrates over [-b, inf) there)."""
    a, b = _host_vector(a), _host_vector(b)
    dtype = numpy.result_type(a.dtype, b.dtype, numpy.float16)
    dtype = numpy.dtype(numpy.float64) if dtype.kind != "f" else dtype
    if a.size == 0 or b.size == 0:
        raise ValueError("`a` and `b` must be nonempty")
    a, b = numpy.broadcast_arrays(a.astype(dtype), b.astype(dtype))
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("`a` and `b` must be 1D arrays")
    pts = [_host_vector(p).astype(dtype).reshape(-1) for p in (points or [])]
    max_subdivisions = math.inf if max_subdivisions is None else max_subdivisions
    nodes, wh, we = _rule_tables(rule, a.size)
    tables = tuple(as_parameter(t.astype(dtype), _FN) for t in (nodes, wh, we))
    sign = -1.0 if int((a > b).sum()) % 2 else 1.0
    lo, hi = numpy.minimum(a, b), numpy.maximum(a, b)
    g, limits = f, _Limits(lo, hi)
    if limits.any:
        g = limits.wrap(f)
        pts = [limits.inverse(p) for p in pts] + [numpy.zeros(a.size)]
        lo, hi = limits.limits()
    boxes = _initial_regions(lo, hi, pts)
    blo, bhi = numpy.array([r[0] for r in boxes]), numpy.array([r[1] for r in boxes])
    est, err = _evaluate(g, args, tables, blo, bhi, dtype)
    new_err, worst = err, numpy.zeros(0)
    subdivisions, rounds, converged = 0, 0, False
    while True:
        total_est, total_err = sum_(est, axis=0), sum_(err, axis=0)
        # the round's one read: |estimate| and error of the whole, each new region's largest error
        both = to_host(concatenate([abs_(total_est).reshape(-1), total_err.reshape(-1), _largest(new_err)]))
        m = total_err.size
        size_est, size_err = numpy.asarray(both[:m], dtype=float), numpy.asarray(both[m:2 * m], dtype=float)
        worst = numpy.concatenate([worst, numpy.asarray(both[2 * m:], dtype=float)])
        if rounds and subdivisions >= max_subdivisions:  # SciPy stops there, converged or not
            break
        tol = atol + rtol * size_est
        if not (size_err > tol).any():
            converged = True
            break
        order = numpy.argsort(-worst, kind="stable")
        rest = numpy.cumsum(worst[order][::-1])[::-1]  # rest[k]: the error left when the worst k are split
        k = int(numpy.count_nonzero(rest > float(numpy.min(tol)) / 4))
        k = int(min(max(k, 1), max(max_subdivisions - subdivisions, 1)))
        chosen = numpy.sort(order[:k])
        keep = numpy.ones(worst.size, dtype=bool)
        keep[chosen] = False
        nlo, nhi = _split_at(blo[chosen], bhi[chosen], (blo[chosen] + bhi[chosen]) / 2)
        new_est, new_err = _evaluate(g, args, tables, nlo, nhi, dtype)
        kept = as_parameter(numpy.flatnonzero(keep), _FN)
        est, err = concatenate([est[kept], new_est]), concatenate([err[kept], new_err])
        blo, bhi, worst = numpy.concatenate([blo[keep], nlo]), numpy.concatenate([bhi[keep], nhi]), worst[keep]
        subdivisions, rounds = subdivisions + k, rounds + 1
    corners = as_parameter(numpy.stack([blo, bhi]), _FN)
    regions = [CubatureRegion(est[i], err[i], corners[0, i], corners[1, i]) for i in range(blo.shape[0])]
    return CubatureResult(total_est * sign, total_err, "converged" if converged else "not_converged", regions,
                          subdivisions, atol, rtol)
