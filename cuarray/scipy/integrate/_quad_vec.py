"""`quad_vec`: adaptive Gauss-Kronrod quadrature of a vector-valued integrand on the device.

SciPy 1.18's algorithm (scipy/integrate/_quad_vec.py): a heap of intervals ordered by error, up
to 128 of the worst split in two each round, QUADPACK's error estimate of each half (Piessens et
al., "QUADPACK", 1983), the same substitutions for infinite limits. SciPy calls the integrand
once per node; here a vectorizable integrand (found by one probe, `_Integrand`) is called once a
round with all the round's nodes. Its values are device arrays; the Kronrod and Gauss sums of all
the intervals of a round are a few batched operations, and the round's one host read is the
small vector of their error norms (with the norm of the running integral for the tolerance).
The heap and the error bookkeeping are SciPy's, on the host, on the numbers that read brings back.
"""

import collections
import heapq
import sys

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._manipulation.joining import concatenate, stack
from ..._math.misc import abs as abs_, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_

__all__ = ["quad_vec"]

# Kronrod abscissae (x), Gauss weights (w, at the odd abscissae), Kronrod weights (v): SciPy's
_GK21_X = (0.995657163025808080735527280689003, 0.973906528517171720077964012084452,
           0.930157491355708226001207180059508, 0.865063366688984510732096688423493,
           0.780817726586416897063717578345042, 0.679409568299024406234327365114874,
           0.562757134668604683339000099272694, 0.433395394129247190799265943165784,
           0.294392862701460198131126603103866, 0.148874338981631210884826001129720, 0)
_GK21_W = (0.066671344308688137593568809893332, 0.149451349150580593145776339657697,
           0.219086362515982043995534934228163, 0.269266719309996355091226921569469,
           0.295524224714752870173892994651338)
_GK21_V = (0.011694638867371874278064396062192, 0.032558162307964727478818972459390,
           0.054755896574351996031381300244580, 0.075039674810919952767043140916190,
           0.093125454583697605535065465083366, 0.109387158802297641899210590325805,
           0.123491976262065851077958109831074, 0.134709217311473325928054001771707,
           0.142775938577060080797094273138717, 0.147739104901338491374841515972068,
           0.149445554002916905664936468389821)
_GK15_X = (0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
           0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
           0.586087235467691130294144838258730, 0.405845151377397166906606412076961,
           0.207784955007898467600689403773245, 0.0)
_GK15_W = (0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
           0.381830050505118944950369775488975, 0.417959183673469387755102040816327)
_GK15_V = (0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
           0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
           0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
           0.204432940075298892414161999234649, 0.209482141084727828012999174891714)


def _symmetric(half, centre_last=True):
    """The full rule from its first half and centre: (h_0, ..., h_c, ..., h_0)."""
    return numpy.array(half + half[-2::-1] if centre_last else half + half[::-1])


def _rule(name):
    """(abscissae, Kronrod weights, Gauss weights on the full abscissae (0 off the Gauss points))."""
    x, w, v = {"gk21": (_GK21_X, _GK21_W, _GK21_V), "gk15": (_GK15_X, _GK15_W, _GK15_V)}[name]
    xs = numpy.array(x[:-1] + (0.0,) + tuple(-t for t in x[-2::-1]))
    vs = _symmetric(v)
    gauss = numpy.zeros(xs.size)
    full_w = numpy.array(w + w[::-1] if name == "gk21" else w + w[-2::-1])
    gauss[1::2] = full_w
    return xs, vs, gauss


def _param(v):
    """A rule's host constants (weights, half-widths) copied to the device."""
    return as_parameter(v, "scipy.integrate.quad_vec")


# The values of f a batched call may return (nodes x the value's size): it bounds the device
# memory of a round's sums (a few arrays of this size, 128 MiB each in float64)
_BATCH_VALUES = 2 ** 24


class _NotVectorized(Exception):
    """f's array call did not return one value per node."""


class _Integrand:
    """The user's f at the nodes t of the integration variable: x = t on a finite range, SciPy's
    SemiInfiniteFunc (x = start + sgn (1 - t) / t on (0, 1], values sgn f(x) / t / t) or
    DoubleInfiniteFunc (x = (1 - |t|) / t on [-1, 1], values f(x) / t / t), zero where
    |t| < sqrt(smallest float). f is called with a Python float first, as SciPy calls it; then
    once with a device array of nodes of shape (k, 1, ..., 1) (a dimension for each of the value's),
    kept when it returns (k, *value shape) and, at the first and last node, the values of the
    float calls (within 1e-3 of the value's scale); otherwise node by node, SciPy's way."""

    def __init__(self, f, kind="finite", start=0.0, sgn=1):
        self.f, self.kind, self.start, self.sgn = f, kind, start, sgn
        self.tmin = sys.float_info.min ** 0.5
        self.vectorized = None  # unknown until the first call that has two nodes
        self.shape = self.dtype = None  # of f's value, from its first call with a float

    def get_t(self, x):
        """The node t of a point x (SciPy's get_t, for `points`)."""
        if self.kind == "semi":
            z = self.sgn * (x - self.start) + 1
            return numpy.inf if z == 0 else 1 / z
        return (-1 if x < 0 else 1) / (abs(x) + 1)

    def live(self, t):
        """The nodes where the value is f's, not SciPy's zero next to t = 0."""
        if self.kind == "finite":
            return numpy.ones(t.shape, bool)
        return (t if self.kind == "semi" else numpy.abs(t)) >= self.tmin

    def x_of(self, t):
        if self.kind == "semi":
            return self.start + self.sgn * (1 - t) / t
        return t if self.kind == "finite" else (1 - numpy.abs(t)) / t

    def one(self, t):
        """The value at one node, with SciPy's operations in SciPy's order."""
        v = as_array(self.f(float(self.x_of(t))), "scipy.integrate.quad_vec")
        if self.shape is None:
            self.shape, self.dtype = v.shape, v.dtype
        if self.kind == "semi":
            v = self.sgn * (v / t) / t
        elif self.kind == "double":
            v = (v / t) / t
        return v

    def node_by_node(self, t, known=None):
        known = known or {}
        live = self.live(t)
        vals = [known[i] if i in known else self.one(float(t[i])) if live[i] else None for i in range(t.size)]
        if not live.all():
            zero = full(self.shape or (), 0.0, dtype=numpy.float64 if self.dtype is None else self.dtype)
            vals = [zero if v is None else v for v in vals]
        return stack(vals)

    def batch(self, t):
        """One call of f on all the nodes; _NotVectorized if its value is not one a node."""
        live = self.live(t)
        ts = numpy.where(live, t, 1.0)  # a harmless node in place of those SciPy sets to zero
        col = (-1,) + (1,) * len(self.shape)
        out = as_array(self.f(as_parameter(self.x_of(ts).reshape(col), "scipy.integrate.quad_vec")),
                       "scipy.integrate.quad_vec")
        if out.shape != t.shape + self.shape or out.dtype.kind != self.dtype.kind:
            raise _NotVectorized
        if self.kind != "finite":
            tc = _param(ts.reshape(col))
            out = (self.sgn * (out / tc) / tc) if self.kind == "semi" else (out / tc) / tc
            if not live.all():
                out = where(_param(live.reshape(col)), out, 0.0)
        return out if out.dtype == self.dtype else out.astype(self.dtype)

    def probe(self, t):
        """The first call with two live nodes: f's values at the first and last by float calls, all
        of them by one array call, compared in one read."""
        i0, i1 = (int(i) for i in numpy.flatnonzero(self.live(t))[[0, -1]])
        known = {i0: self.one(float(t[i0])), i1: self.one(float(t[i1]))}
        try:
            out = self.batch(t)
        except Exception:  # noqa: BLE001 -- the float calls worked: f does not take arrays
            self.vectorized = False
            return self.node_by_node(t, known)
        got, want = numpy.split(to_host(stack([out[i0], out[i1], known[i0], known[i1]])), 2)  # the probe's read
        # A relative 1e-3: the float calls may compute in a lower precision than the array call
        # (float32 data times a Python float stays float32; times a float64 array of nodes it
        # does not); a function that misreads the array of nodes is off by far more
        fin = numpy.isfinite(want)
        tol = 1e-3 * numpy.max(numpy.abs(want[fin]), initial=0.0)
        same = numpy.array_equal(got[~fin], want[~fin], equal_nan=True) and \
            bool(numpy.all(numpy.abs(got[fin] - want[fin]) <= tol))
        self.vectorized = same
        return out if same else self.node_by_node(t, known)

    def __call__(self, t):
        """The values at the host nodes t (1-D): a device array (t.size, *value shape)."""
        t = numpy.asarray(t, dtype=numpy.float64)
        if self.vectorized is None and numpy.count_nonzero(self.live(t)) >= 2:
            return self.probe(t)
        if self.vectorized:
            try:
                return self.batch(t)
            except _NotVectorized:  # a later array call broke the contract: SciPy's way from here
                self.vectorized = False
        return self.node_by_node(t)


class _Bunch:
    def __init__(self, **kwargs):
        self.__keys = kwargs.keys()
        self.__dict__.update(**kwargs)

    def __repr__(self):
        return "_Bunch({})".format(", ".join(f"{k}={self.__dict__[k]!r}" for k in self.__keys))


class _LRU(collections.OrderedDict):
    """SciPy's LRUDict: the integrals of the last `max_size` intervals."""

    def __init__(self, max_size):
        super().__init__()
        self.max_size = max_size

    def __setitem__(self, key, value):
        existing = key in self
        super().__setitem__(key, value)
        if existing:
            self.move_to_end(key)
        elif len(self) > self.max_size:
            self.popitem(last=False)


_STATUS = {0: "Target precision reached.", 1: "Target precision not reached.",
           2: "Target precision could not be reached due to rounding error.", 3: "Non-finite values encountered."}


def quad_vec(f, a, b, epsabs=1e-200, epsrel=1e-8, norm='2', cache_size=100e6,
             limit=10000, workers=1, points=None, quadrature=None, full_output=False,
             *, args=()):
    """See `scipy.integrate.quad_vec`. `f(x, *args)` returns a cuarray array (or scalar). It is
    called with a Python float at two nodes, then once with a device array `x` of shape
    `(k, 1, ..., 1)` holding all the nodes of a round (one dimension for each of the value's): if
    that returns shape `(k, *value shape)` with the float calls' values, every round calls `f`
    once this way; otherwise (a function of floats) node by node, as SciPy. The nodes, the
    intervals and the error estimates are SciPy's; each round reads one small vector of norms.
    `workers` is accepted and unused; a callable `norm` is called on device arrays and read one
    by one. The result is a device array; `info.integrals` too.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import integrate
    >>> p = cuarray.array([1., 2.])
    >>> integrate.quad_vec(lambda x: x ** p, 0, 1)[0]
    array([0.5       , 0.33333333])
    """
    a, b = float(a), float(b)
    if args:
        args = args if isinstance(args, tuple) else (args,)
        user = f

        def f(x):
            return user(x, *args)
    kw = dict(epsabs=epsabs, epsrel=epsrel, norm=norm, cache_size=cache_size, limit=limit,
              quadrature="gk15" if quadrature is None else quadrature, full_output=full_output)
    # SciPy's substitutions for infinite limits, on t in (0, 1] or [-1, 1]
    if numpy.isfinite(a) and numpy.isinf(b):
        ig = _Integrand(f, "semi", a, -1 if b < 0 else 1)
        pts = None if points is None else tuple(ig.get_t(p) for p in points)
        return _solve(ig, 0.0, 1.0, pts, **kw)
    if numpy.isfinite(b) and numpy.isinf(a):
        ig = _Integrand(f, "semi", b, -1 if a < 0 else 1)
        res = _solve(ig, 0.0, 1.0, None if points is None else tuple(ig.get_t(p) for p in points), **kw)
        return (-res[0],) + res[1:]
    if numpy.isinf(a) and numpy.isinf(b):
        sgn = -1 if b < a else 1
        ig = _Integrand(f, "double")
        pts = (0,) + (tuple(ig.get_t(p) for p in points) if points is not None else ())
        res = _solve(ig, -1.0 if a != b else 1.0, 1.0, pts, **kw)
        return (res[0] * sgn,) + res[1:]
    if not (numpy.isfinite(a) and numpy.isfinite(b)):
        raise ValueError(f"invalid integration bounds a={a}, b={b}")
    return _solve(_Integrand(f), a, b, points, **dict(kw, quadrature=quadrature))


def _solve(integrand, a, b, points, epsabs, epsrel, norm, cache_size, limit, quadrature, full_output):
    if not callable(norm) and norm not in (None, "max", "2"):
        raise KeyError(norm)
    rule_name = {None: "gk21", "gk21": "gk21", "gk15": "gk15", "trapezoid": "trapezoid"}.get(quadrature)
    if rule_name is None:
        raise ValueError(f"unknown quadrature {quadrature!r}")
    return _Adaptive(integrand, norm, rule_name, epsabs, epsrel, cache_size, limit).run(a, b, points, full_output)


class _Adaptive:
    """SciPy's loop, its host bookkeeping, with the sums and norms of each round batched."""

    def __init__(self, f, norm, rule_name, epsabs, epsrel, cache_size, limit):
        self.f, self.norm, self.rule_name = f, norm, rule_name
        self.epsabs, self.epsrel, self.cache_size, self.limit = epsabs, epsrel, cache_size, limit
        if rule_name == "trapezoid":
            self.num_eval = 3
        else:
            self.x, self.v, self.w = _rule(rule_name)
            self.num_eval = self.x.size

    def norms(self, v):
        """The norm of each row of v (first axis: the intervals), a device vector (or, for a
        callable norm, host floats read one by one)."""
        if callable(self.norm):
            return numpy.array([float(self.norm(v[i])) for i in range(v.shape[0])])
        flat = abs_(v.reshape(v.shape[0], -1))
        if self.norm == "2":
            return sqrt(sum_(flat * flat, axis=-1))
        return max_(flat, axis=-1)

    def rules(self, bounds):
        """For intervals [(x1, x2), ...]: the integrals (device, (m, *shape)), the norms SciPy's
        `_quadrature_gk`/`_quadrature_trapezoid` take of each (device vectors, or host ones for a
        callable norm) and the rule's kind. f's values are taken a chunk of intervals at a time,
        at most _BATCH_VALUES values a call (one interval first, while the value's size is unknown)."""
        ig, parts, start = [], [], 0
        while start < len(bounds):
            shape = self.f.shape
            per = 1 if shape is None else max(1, _BATCH_VALUES // (self.num_eval * max(int(numpy.prod(shape)), 1)))
            i, p, kind = self.rules_of(bounds[start:start + per])
            ig.append(i)
            parts.append(p)
            start += per
        if len(ig) == 1:
            return ig[0], parts[0], kind
        join = [numpy.concatenate(ps) if isinstance(ps[0], numpy.ndarray) else concatenate(ps) for ps in zip(*parts)]
        return concatenate(ig), join, kind

    def rules_of(self, bounds):
        m = len(bounds)
        if self.rule_name == "trapezoid":
            pts = [p for x1, x2 in bounds for p in (x1, x2, 0.5 * (x1 + x2))]
            fv = self.f(pts)
            fv = fv.reshape((m, 3) + fv.shape[1:])
            d = _param(numpy.array([x2 - x1 for x1, x2 in bounds]).reshape((m,) + (1,) * (fv.ndim - 2)))
            f1, f2, f3 = fv[:, 0], fv[:, 1], fv[:, 2]
            s2 = 0.25 * d * (f1 + 2 * f3 + f2)
            s1 = 0.5 * d * (f1 + f2)
            parts = [self.norms(f1), self.norms(f3), self.norms(f2), self.norms(s1 - s2)]
            return s2, parts, "trapezoid"
        c = numpy.array([0.5 * (x1 + x2) for x1, x2 in bounds])
        h = numpy.array([0.5 * (x2 - x1) for x1, x2 in bounds])
        pts = (c[:, None] + h[:, None] * self.x[None, :]).reshape(-1)
        fv = self.f(pts)
        shape = fv.shape[1:]
        fv = fv.reshape((m, self.num_eval) + shape)
        bw = (-1,) + (1,) * len(shape)
        v, w = _param(self.v.reshape(bw)), _param(self.w.reshape(bw))
        s_k = sum_(v * fv, axis=1)
        s_k_abs = sum_(v * abs_(fv), axis=1)
        s_g = sum_(w * fv, axis=1)
        s_k_dabs = sum_(v * abs_(fv - (s_k / 2.0)[:, None]), axis=1)
        hb = _param(h.reshape((m,) + (1,) * len(shape)))
        eps = sys.float_info.epsilon
        parts = [self.norms((s_k - s_g) * hb), self.norms(s_k_dabs * hb), self.norms(50 * eps * hb * s_k_abs)]
        return hb * s_k, parts, "gk"

    def estimates(self, bounds, parts, kind, total_norm):
        """One read: the norms of the round's rules and of the running integral; then SciPy's
        error formulas on the host, interval by interval."""
        host = [p if isinstance(p, numpy.ndarray) else None for p in parts]
        dev = [p for p in parts if not isinstance(p, numpy.ndarray)] + [total_norm.reshape(1)]
        read = to_host(concatenate(dev))  # the round's one device-to-host read
        it = iter(numpy.split(read[:-1], len(dev) - 1) if len(dev) > 1 else [])
        parts = [h if h is not None else next(it) for h in host]
        out = []
        for i, (x1, x2) in enumerate(bounds):
            if kind == "trapezoid":
                n1, n3, n2, nd = (float(p[i]) for p in parts)
                round_err = 0.25 * abs(x2 - x1) * (n1 + 2 * n3 + n2) * 2e-16
                out.append((1 / 3 * nd, round_err))
                continue
            err, dabs, round_err = (float(p[i]) for p in parts)
            if dabs != 0 and err != 0:
                err = dabs * min(1.0, (200 * err / dabs) ** 1.5)
            if round_err > sys.float_info.min:
                err = max(err, round_err)
            out.append((err, round_err))
        return out, float(read[-1])

    def total_norm(self, total):
        if callable(self.norm):
            return full((1,), float(self.norm(total)))
        return self.norms(total.reshape((1,) + total.shape))

    def run(self, a, b, points, full_output):
        if points is None:
            initial = [(a, b)]
        else:
            prev, initial = a, []
            for p in sorted(points):
                p = float(p)
                if not (a < p < b) or p == prev:
                    continue
                initial.append((prev, p))
                prev = p
            initial.append((prev, b))
        ig, parts, kind = self.rules(initial)
        total = sum_(ig, axis=0)
        est, tot_norm = self.estimates(initial, parts, kind, self.total_norm(total))
        neval = self.num_eval * len(initial)
        global_error = sum(e for e, _ in est)
        rounding_error = sum(r for _, r in est)
        one = numpy.empty(ig.shape[1:], ig.dtype)
        cache = _LRU(self.cache_size // (sys.getsizeof(one) if one.ndim else 24))  # SciPy's count
        intervals = []
        for i, ((x1, x2), (err, _)) in enumerate(zip(initial, est)):
            cache[(x1, x2)] = ig[i]
            intervals.append((-err, x1, x2))
        heapq.heapify(intervals)
        ier = 1
        while intervals and len(intervals) < self.limit:
            tol = max(self.epsabs, self.epsrel * tot_norm)
            todo, err_sum = [], 0
            for j in range(128):
                if not intervals or (j > 0 and err_sum > global_error - tol / 8):
                    break
                neg_err, x1, x2 = heapq.heappop(intervals)
                todo.append((-neg_err, x1, x2, cache.pop((x1, x2), None)))
                err_sum += -neg_err
            halves = [h for _, x1, x2, _ in todo for h in ((x1, 0.5 * (x1 + x2)), (0.5 * (x1 + x2), x2))]
            missing = [(x1, x2) for _, x1, x2, old in todo if old is None]
            ig, parts, kind = self.rules(halves + missing)
            olds, k = [], 2 * len(todo)
            for _, _, _, old in todo:
                olds.append(old if old is not None else ig[k])
                k += old is None
            total = total + sum_(ig[:2 * len(todo)], axis=0) - sum_(stack(olds), axis=0)
            est, tot_norm = self.estimates(halves + missing, parts, kind, self.total_norm(total))
            for i, (old_err, x1, x2, old) in enumerate(todo):
                (e1, r1), (e2, r2) = est[2 * i], est[2 * i + 1]
                # trapezoid: SciPy's per-split cache of f evaluates the shared midpoint once
                neval += 5 if kind == "trapezoid" else 2 * self.num_eval + (self.num_eval if old is None else 0)
                global_error += e1 + e2 - old_err
                rounding_error += r1 + r2
                for (y1, y2), s, e in ((halves[2 * i], ig[2 * i], e1), (halves[2 * i + 1], ig[2 * i + 1], e2)):
                    cache[(y1, y2)] = s
                    heapq.heappush(intervals, (-e, y1, y2))
            if len(intervals) >= 2:
                tol = max(self.epsabs, self.epsrel * tot_norm)
                if global_error < tol / 8:
                    ier = 0
                    break
                if global_error < rounding_error:
                    ier = 2
                    break
            if not (numpy.isfinite(global_error) and numpy.isfinite(rounding_error)):
                ier = 3
                break
        err = global_error + rounding_error
        if not full_output:
            return total, err
        dummy = full(total.shape, numpy.nan, dtype=total.dtype)
        integrals = stack([cache.get((z[1], z[2]), dummy) for z in intervals]) if intervals else \
            full((0,) + total.shape, numpy.nan, dtype=total.dtype)
        info = _Bunch(neval=neval, success=ier == 0, status=ier, message=_STATUS[ier],
                      intervals=numpy.array([[z[1], z[2]] for z in intervals]), integrals=integrals,
                      errors=numpy.array([-z[0] for z in intervals]))
        return total, err, info
