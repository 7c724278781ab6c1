"""`quad_vec`: adaptive Gauss-Kronrod quadrature of a vector-valued integrand on the device.

SciPy 1.18's algorithm (scipy/integrate/_quad_vec.py): a heap of intervals ordered by error, up
to 128 of the worst split in two each round, QUADPACK's error estimate of each half (Piessens et
al., "QUADPACK", 1983), the same substitutions for infinite limits. The integrand's values are
device arrays; the Kronrod and Gauss sums of all the intervals of a round are a few batched
operations, and the round's one host read is the small vector of their error norms (with the
norm of the running integral for the tolerance). The heap and the error bookkeeping are SciPy's,
on the host, on the numbers that read brings back.
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


class _Semi:
    """SciPy's SemiInfiniteFunc: x = start + sgn (1 - t) / t on (0, 1]."""

    def __init__(self, func, start, infty):
        self.func, self.start, self.sgn = func, start, -1 if infty < 0 else 1
        self.tmin = sys.float_info.min ** 0.5

    def get_t(self, x):
        z = self.sgn * (x - self.start) + 1
        return numpy.inf if z == 0 else 1 / z

    def __call__(self, t):
        if t < self.tmin:
            return 0.0
        return self.sgn * (self.func(self.start + self.sgn * (1 - t) / t) / t) / t


class _Double:
    """SciPy's DoubleInfiniteFunc: x = (1 - |t|) / t on [-1, 1]."""

    def __init__(self, func):
        self.func, self.tmin = func, sys.float_info.min ** 0.5

    def get_t(self, x):
        return (-1 if x < 0 else 1) / (abs(x) + 1)

    def __call__(self, t):
        if abs(t) < self.tmin:
            return 0.0
        return (self.func((1 - abs(t)) / t) / t) / t


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
    """See `scipy.integrate.quad_vec`. `f(x, *args)` takes a Python float and returns a cuarray
    array (or scalar); the Gauss-Kronrod sums of each round's intervals are batched on the device
    and the round reads one small vector of norms. `workers` is accepted and unused (the device
    is the parallelism); a callable `norm` is called on device arrays and read one by one. The
    result is a device array; `info.integrals` too.

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
    kw = dict(epsabs=epsabs, epsrel=epsrel, norm=norm, cache_size=cache_size, limit=limit, workers=workers,
              points=points, quadrature="gk15" if quadrature is None else quadrature, full_output=full_output)
    if numpy.isfinite(a) and numpy.isinf(b):
        f2 = _Semi(f, a, b)
        if points is not None:
            kw["points"] = tuple(f2.get_t(p) for p in points)
        return quad_vec(f2, 0, 1, **kw)
    if numpy.isfinite(b) and numpy.isinf(a):
        f2 = _Semi(f, b, a)
        if points is not None:
            kw["points"] = tuple(f2.get_t(p) for p in points)
        res = quad_vec(f2, 0, 1, **kw)
        return (-res[0],) + res[1:]
    if numpy.isinf(a) and numpy.isinf(b):
        sgn = -1 if b < a else 1
        f2 = _Double(f)
        kw["points"] = (0,) + (tuple(f2.get_t(p) for p in points) if points is not None else ())
        res = quad_vec(f2, -1, 1, **kw) if a != b else quad_vec(f2, 1, 1, **kw)
        return (res[0] * sgn,) + res[1:]
    if not (numpy.isfinite(a) and numpy.isfinite(b)):
        raise ValueError(f"invalid integration bounds a={a}, b={b}")
    if not callable(norm) and norm not in (None, "max", "2"):
        raise KeyError(norm)
    rule_name = {None: "gk21", "gk21": "gk21", "gk15": "gk15", "trapezoid": "trapezoid"}.get(quadrature)
    if rule_name is None:
        raise ValueError(f"unknown quadrature {quadrature!r}")
    return _Adaptive(f, norm, rule_name, epsabs, epsrel, cache_size, limit).run(a, b, points, full_output)


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

    def values(self, points):
        """f at the Python floats `points`, stacked on the device: (len(points), *value shape)."""
        return stack([as_array(self.f(float(p)), "scipy.integrate.quad_vec") for p in points])

    def rules(self, bounds):
        """For intervals [(x1, x2), ...]: the integrals (device, (m, *shape)) and the host
        (err, round_err) of each, SciPy's `_quadrature_gk`/`_quadrature_trapezoid` estimates,
        with the tolerance norm of `self.total + extra(integrals)` read in the same transfer."""
        m = len(bounds)
        if self.rule_name == "trapezoid":
            pts = [p for x1, x2 in bounds for p in (x1, x2, 0.5 * (x1 + x2))]
            fv = self.values(pts)
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
        fv = self.values(pts)
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
