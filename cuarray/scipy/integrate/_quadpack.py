"""`quad`, `dblquad`, `tplquad` and `nquad` with device integrands evaluated in batches.

SciPy runs QUADPACK on the host, calling the integrand once per node with a Python float. Here
the adaptive Gauss-Kronrod algorithm of `_gk_batch` (QUADPACK's rules, error estimate and
extrapolation, a round of bisections at a time) calls the integrand once per round with a 1-D
cuarray array of all the round's nodes; a multiple integral is one batch of inner integrals per
round of the outer one, so `nquad`'s innermost integrand sees the nodes of many inner integrals
in one array. An integrand that only takes Python floats is called node by node on the host,
SciPy's way (see `_gk_batch.Integrand`). The results are Python floats, as SciPy's.
"""

import sys
import warnings

import numpy

from . import _gk_batch as gk

__all__ = ["quad", "dblquad", "tplquad", "nquad"]

_WEIGHTS = ("cos", "sin", "alg", "alg-loga", "alg-logb", "alg-log", "cauchy")
_OPTS = ("epsabs", "epsrel", "limit", "points", "weight", "wvar", "wopts")


def _warn(msg, stacklevel):
    from scipy.integrate import IntegrationWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

    warnings.warn(msg, IntegrationWarning, stacklevel=stacklevel + 1)


def _check(a, b, epsabs, epsrel, limit, points, weight):
    """SciPy's (QUADPACK's ier = 6) checks of the host parameters, SciPy's messages."""
    if weight is not None:
        if weight not in _WEIGHTS:
            raise ValueError(f"{weight} not a recognized weighting function.")
        raise NotImplementedError(f"cuarray.scipy.integrate.quad: weight={weight!r} (QUADPACK's QAWO/QAWF/QAWS/"
                                  "QAWC) is not supported; multiply the weight into the integrand")
    if epsabs <= 0 and epsrel < max(50 * sys.float_info.epsilon, 5e-29):
        raise ValueError("If 'epsabs'<=0, 'epsrel' must be greater than both 5e-29 and 50*(machine epsilon).")
    if limit < 1:
        raise ValueError("Invalid 'limit' argument. There must be at least one subinterval")
    if points is not None:
        if numpy.isinf(a) or numpy.isinf(b):
            raise ValueError("Infinity inputs cannot be used with break points.")
        inside = {float(p) for p in numpy.asarray(points, dtype=numpy.float64).ravel() if a < p < b}
        if len(inside) >= limit:
            raise ValueError(f"Number of break points ({len(points):d}) must be less than subinterval limit "
                             f"({limit:d})")


def _problem(a, b, outer, epsabs, epsrel, limit, points):
    """A `gk.Problem` for a <= b: finite, or QAGI's t-interval (0, 1] for an infinite range."""
    if numpy.isinf(a) or numpy.isinf(b):
        if numpy.isinf(a) and numpy.isinf(b):
            bound, sgn = 0.0, 0
        elif numpy.isinf(b):
            bound, sgn = a, 1
        else:
            bound, sgn = b, -1
        return gk.Problem(0.0, 1.0, "double" if sgn == 0 else "semi", bound, sgn, outer, epsabs, epsrel, limit, None)
    pts = None if points is None else [float(p) for p in numpy.asarray(points, dtype=numpy.float64).ravel()]
    return gk.Problem(a, b, "finite", 0.0, 0, outer, epsabs, epsrel, limit, pts)


def _infodict(p, neval, limit):
    """SciPy's `infodict` of QAGS/QAGI/QAGP: the intervals in their arrays of length `limit`."""
    last = len(p.a)
    out = {"neval": neval, "last": last}
    order = numpy.argsort(-numpy.asarray(p.e, dtype=numpy.float64), kind="stable")
    iord = numpy.zeros(limit, numpy.int32)
    iord[:last] = order + 1  # QUADPACK's 1-based pointers
    out["iord"] = iord
    for key, vals, fill in (("alist", p.a, numpy.nan), ("blist", p.b, numpy.nan), ("rlist", p.r, 0.0),
                            ("elist", p.e, 0.0)):
        arr = numpy.full(limit, fill, dtype=numpy.float64)
        arr[:last] = vals
        out[key] = arr
    return out


def quad(func, a, b, args=(), full_output=0, epsabs=1.49e-8, epsrel=1.49e-8, limit=50, points=None,
         weight=None, wvar=None, wopts=None, maxp1=50, limlst=50, complex_func=False):
    """See `scipy.integrate.quad`. `func(x, *args)` is called once per refinement round with a 1-D
    cuarray array of all the round's Gauss-Kronrod nodes and returns an array of that shape; a
    function of Python floats (the first array call raises TypeError or ValueError) is called
    node by node on the host, as SciPy calls it. QUADPACK's rules, error estimate and
    extrapolation; each round bisects every interval it must (not one) and reads four sums per
    interval in one transfer. `weight` is not supported (NotImplementedError); `full_output`'s
    dict has the keys of QAGS. The result is a Python float."""
    if not isinstance(args, tuple):
        args = (args,)
    a, b = float(a), float(b)
    if a == b:
        if not full_output:
            return (0.0, 0.0)
        info = _infodict(gk.Problem(0.0, 0.0, "finite", 0.0, 0, (), 0, 0, 0, None), 0, limit)
        return (0j, 0j, {"real": info, "imag": info}) if complex_func else (0.0, 0.0, info)
    flip, a, b = b < a, min(a, b), max(a, b)
    if complex_func:
        def refunc(x, *args):
            return func(x, *args).real

        def imfunc(x, *args):
            return func(x, *args).imag

        kw = dict(epsabs=epsabs, epsrel=epsrel, limit=limit, points=points, weight=weight, wvar=wvar,
                  wopts=wopts, maxp1=maxp1, limlst=limlst)
        re, im = (quad(f, a, b, args, full_output, **kw) for f in (refunc, imfunc))
        sign = -1 if flip else 1
        out = (sign * (re[0] + 1j * im[0]), re[1] + 1j * im[1])
        return out + ({"real": re[2:], "imag": im[2:]},) if full_output else out
    _check(a, b, epsabs, epsrel, limit, points, weight)
    p = _problem(a, b, (), epsabs, epsrel, limit, points)
    integrand = gk.Integrand(func, args)
    gk.refine([p], integrand)
    y = -p.result if flip else p.result
    if not p.ier:
        return (y, p.abserr, _infodict(p, integrand.neval, limit)) if full_output else (y, p.abserr)
    msg = gk.MESSAGES[p.ier].format(limit=limit)
    if full_output:
        return (y, p.abserr, _infodict(p, integrand.neval, limit), msg)
    _warn(msg, 2)
    return (y, p.abserr)


def dblquad(func, a, b, gfun, hfun, args=(), epsabs=1.49e-8, epsrel=1.49e-8):
    """See `scipy.integrate.dblquad`. `func(y, x, *args)` is called with 1-D cuarray arrays of
    equal shape: the inner nodes of every outer node of a round at once (see `nquad`); `gfun` and
    `hfun` are called with Python floats on the host."""
    def inner(*args):
        return [gfun(args[0]) if callable(gfun) else gfun, hfun(args[0]) if callable(hfun) else hfun]

    return nquad(func, [inner, [a, b]], args=args, opts={"epsabs": epsabs, "epsrel": epsrel})


def tplquad(func, a, b, gfun, hfun, qfun, rfun, args=(), epsabs=1.49e-8, epsrel=1.49e-8):
    """See `scipy.integrate.tplquad`. `func(z, y, x, *args)` is called with 1-D cuarray arrays
    of equal shape (see `nquad`); the limit functions are called with Python floats."""
    def innermost(*args):
        return [qfun(args[1], args[0]) if callable(qfun) else qfun, rfun(args[1], args[0]) if callable(rfun) else rfun]

    def middle(*args):
        return [gfun(args[0]) if callable(gfun) else gfun, hfun(args[0]) if callable(hfun) else hfun]

    return nquad(func, [innermost, middle, [a, b]], args=args, opts={"epsabs": epsabs, "epsrel": epsrel})


def nquad(func, ranges, args=None, opts=None, full_output=False):
    """See `scipy.integrate.nquad`. The integrals over x0 for all the outer nodes of a round are
    one batch: `func(x0, x1, ..., *args)` is called with 1-D cuarray arrays of equal shape (every
    inner node of every inner integral of the round), or node by node with Python floats when it
    takes only floats (as `quad`). `ranges` and `opts` callables are called on the host with
    Python floats, once per inner integral. `abserr` is SciPy's: the largest error estimate of
    all the one-dimensional integrals; `weight` options are not supported."""
    depth = len(ranges)
    ranges = [r if callable(r) else _Const(r) for r in ranges]
    args = () if args is None else tuple(args)
    if opts is None:
        opts = [_Const({})] * depth
    elif isinstance(opts, dict):
        opts = [_Const(opts)] * depth
    else:
        opts = [o if callable(o) else _Const(o) for o in opts]
    run = _NQuad(func, ranges, opts, args, full_output)
    value, = run.level(depth - 1, numpy.empty((1, 0)))
    if full_output:
        return float(value), run.abserr, {"neval": run.integrand.neval}
    return float(value), run.abserr


class _Const:
    def __init__(self, value):
        self.value = value

    def __call__(self, *args):
        return self.value


class _NQuad:
    """Level k integrates over x_k for a batch of outer points (x_{k+1}, ..., x_{n-1}); its
    integrand at a round's nodes is level k - 1's batch over those nodes (a host vector)."""

    def __init__(self, func, ranges, opts, args, full_output):
        self.ranges, self.opts, self.args, self.full_output = ranges, opts, args, full_output
        self.integrand = gk.Integrand(func, args)
        self.abserr = 0.0

    def level(self, k, outer):
        problems, flips = [], []
        for row in outer:
            point = tuple(float(v) for v in row)
            lo, hi = (float(v) for v in self.ranges[k](*point, *self.args))
            opt = dict(self.opts[k](*point, *self.args))
            unknown = set(opt) - set(_OPTS)
            if unknown:
                raise TypeError(f"quad() got an unexpected keyword argument {sorted(unknown)[0]!r}")
            eps_abs, eps_rel = opt.get("epsabs", 1.49e-8), opt.get("epsrel", 1.49e-8)
            limit, points = opt.get("limit", 50), opt.get("points")
            if points is not None:
                points = [x for x in points if lo <= x <= hi]  # SciPy's nquad drops the points outside
            flips.append(hi < lo)
            lo, hi = min(lo, hi), max(lo, hi)
            _check(lo, hi, eps_abs, eps_rel, limit, points, opt.get("weight"))
            problems.append(None if lo == hi else _problem(lo, hi, point, eps_abs, eps_rel, limit, points))
        live = [p for p in problems if p is not None]
        gk.refine(live, self.integrand if k == 0 else _Inner(self, k))
        failed = [p for p in live if p.ier]
        if failed and not self.full_output:  # SciPy's nquad: quad warns, or with full_output says nothing
            _warn(gk.MESSAGES[failed[0].ier].format(limit=failed[0].limit), 4)
        self.abserr = max([self.abserr] + [p.abserr for p in live])
        return numpy.array([0.0 if p is None else (-p.result if f else p.result) for p, f in zip(problems, flips)])


class _Inner:
    """Level k's integrand: level k - 1 over the outer points (node, *outer) of a round's nodes."""

    def __init__(self, run, k):
        self.run, self.k, self.neval = run, k, 0

    def __call__(self, x, outer):
        return self.run.level(self.k - 1, numpy.column_stack([x, *outer]) if outer else x[:, None])
