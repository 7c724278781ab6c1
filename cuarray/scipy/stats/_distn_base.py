"""The machinery of the `scipy.stats` distribution objects (`rv_continuous`-style and
`rv_discrete`-style): argument parsing, SciPy's `argcheck` rules (scale <= 0 or a shape out of
its domain gives NaN), the support rules of each method, loc/scale, broadcasting of x with the
parameters, frozen distributions. Each distribution (_distn_*.py) writes only its standard
formulas (`_pdf`, `_cdf`, ...) on cuarray's elementwise routines and `cuarray.scipy.special`.

On the device every formula runs on every element and the results are chosen with `where`
(SciPy evaluates only the valid elements: the values are the same). Parameters that are Python
scalars are checked on the host, so a valid scalar parameter costs no mask. Results are float64
as SciPy's (SciPy promotes x to float64), 0-d arrays where SciPy returns a scalar."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._creation.basic import full
from ..._logic.truth import all as all_
from ..._manipulation.dims import broadcast_to
from ..._sorting.searching import where
from ..._core.transfer import to_host
from ..._logic.content import isfinite, isinf, isnan
from ..._logic.ops import logical_and, logical_not, logical_or
from ..._math.explog import log, log1p
from ..._math.misc import clip
from ..._math.rounding import floor
from ...random._generator import default_rng

_F64 = numpy.dtype(numpy.float64)
NAN = math.nan
INF = math.inf


def is_host(v) -> bool:
    """A host scalar (Python or NumPy): its checks run on the host."""
    return isinstance(v, (bool, int, float, numpy.generic))


def and_(a, b):
    """a & b where either may be a host bool (True/False short-cut the device pass)."""
    if is_host(a):
        return b if a else False
    if is_host(b):
        return a if b else False
    return logical_and(a, b)


def or_(a, b):
    if is_host(a):
        return True if a else b
    if is_host(b):
        return True if b else a
    return logical_or(a, b)


def not_(a):
    return (not a) if is_host(a) else logical_not(a)


def choose(cond, a, b):
    """`where(cond, a, b)`, on the host when all three are host scalars."""
    if is_host(cond) and is_host(a) and is_host(b):
        return a if cond else b
    return where(cond, a, b)


def select(shape, pairs, default):
    """`default` where no condition holds, else the value of the first (cond, value) that holds;
    a float64 array of `shape` (a fresh array, as SciPy's)."""
    out = default
    for cond, value in reversed(pairs):
        if is_host(cond):
            if cond:
                out = value
            continue
        out = where(cond, value, out)
    if is_host(out) or out.shape != tuple(shape) or out.dtype != _F64:
        out = full(shape, out, dtype=_F64) if is_host(out) else broadcast_to(out, shape).astype(_F64)
    return out


def _value(v, fn):
    """A parameter: a Python float where it is a host scalar, else a float64 device array."""
    if is_host(v):  # NumPy's scalar: 1/0 is inf (with a warning), not ZeroDivisionError
        return numpy.float64(v)
    return as_parameter(v, fn).astype(_F64, copy=False)


def _shape_of(*vals):
    return numpy.broadcast_shapes(*(() if is_host(v) else tuple(v.shape) for v in vals))


class rv_base:
    """What the continuous and the discrete distributions share: parsing, checks, moments."""

    name = ""
    shapes = ""          # SciPy's comma-separated shape names
    _a, _b = -INF, INF   # the support of the standard distribution
    _has_scale = True
    _open_pdf = False    # pdf/logpdf on the open support (SciPy's `_open_support_mask`)

    @property
    def _shape_names(self):
        return tuple(s.strip() for s in self.shapes.split(",") if s.strip())

    def __repr__(self):
        return "<cuarray.scipy.stats.{} distribution>".format(self.name)

    # -- the parts a distribution writes --------------------------------------------------------
    def _argcheck(self, *shapes):
        cond = True
        for s in shapes:
            cond = and_(cond, s > 0)
        return cond

    def _get_support(self, *shapes):
        return self._a, self._b

    def _stats(self, *shapes):
        raise NotImplementedError

    def _entropy(self, *shapes):
        raise NotImplementedError("the entropy of {} is not implemented on the device".format(self.name))

    def _munp(self, n, *shapes):
        raise NotImplementedError("moment of order {} of {} is not implemented on the device".format(n, self.name))

    # -- parsing ------------------------------------------------------------------------------------
    def _parse(self, args, kwds, method, extra=()):
        """(shapes, loc, scale, extras) as SciPy's `_parse_args`: shapes positional or by name,
        then loc and scale (discrete: loc only)."""
        names = self._shape_names + (("loc", "scale") if self._has_scale else ("loc",))
        kwds = dict(kwds)
        got = {}
        if len(args) > len(names):
            raise TypeError("{}() takes at most {} positional arguments ({} given)".format(
                method, len(names), len(args)))
        for n, v in zip(names, args):
            got[n] = v
        for n in names:
            if n in kwds:
                if n in got:
                    raise TypeError("{}() got multiple values for argument '{}'".format(method, n))
                got[n] = kwds.pop(n)
        ex = {k: kwds.pop(k) for k in extra if k in kwds}
        if kwds:
            raise TypeError("{}() got an unexpected keyword argument '{}'".format(method, next(iter(kwds))))
        missing = [n for n in self._shape_names if n not in got]
        if missing:
            raise TypeError("{}() missing {} required positional argument{}: {}".format(
                method, len(missing), "s" if len(missing) > 1 else "", ", ".join(repr(m) for m in missing)))
        fn = "scipy.stats.{}.{}".format(self.name, method)
        shapes = tuple(_value(got[n], fn) for n in self._shape_names)
        loc = _value(got.get("loc", 0.0), fn)
        scale = _value(got.get("scale", 1.0), fn) if self._has_scale else 1.0
        return shapes, loc, scale, ex

    def _valid(self, shapes, scale, loc=None):
        cond = and_(self._argcheck(*shapes), scale > 0)
        if loc is not None:
            cond = and_(cond, loc == loc)
        return cond

    def _x(self, x, loc, scale, method):
        """(x - loc) / scale in float64, and x's broadcast shape with the parameters."""
        x = as_literal_or_array(x, "scipy.stats.{}.{}".format(self.name, method))
        x = x.astype(_F64, copy=False)
        if not (is_host(loc) and loc == 0.0):
            x = x - loc
        if not (is_host(scale) and scale == 1.0):
            x = x / scale
        return x

    # -- moments ------------------------------------------------------------------------------------
    def stats(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.stats`."""
        shapes, loc, scale, ex = self._parse(args, kwds, "stats", ("moments",))
        moments = ex.get("moments", "mv")
        shape = _shape_of(loc, scale, *shapes)
        cond = self._valid(shapes, scale, loc)
        m, v, s, k = self._stats(*shapes)
        out = []
        if "m" in moments:
            out.append(select(shape, [(cond, m * scale + loc)], NAN))
        if "v" in moments:
            out.append(select(shape, [(cond, v * scale * scale)], NAN))
        if "s" in moments:
            out.append(select(shape, [(cond, s)], NAN))
        if "k" in moments:
            out.append(select(shape, [(cond, k)], NAN))
        return out[0] if len(out) == 1 else tuple(out)

    def mean(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.mean`."""
        return self.stats(*args, moments="m", **kwds)

    def var(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.var`."""
        return self.stats(*args, moments="v", **kwds)

    def std(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.std`."""
        return self.var(*args, **kwds) ** 0.5

    def median(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.median`."""
        return self.ppf(0.5, *args, **kwds)

    def _noncentral(self, n, shapes):
        """E[Y**n] of the standard distribution: from the mean, variance, skewness and kurtosis
        (SciPy's `_moment_from_stats`) up to order 4, else `_munp`."""
        if n == 0:
            return 1.0
        if n > 4:
            return self._munp(n, *shapes)
        mu, mu2, g1, g2 = self._stats(*shapes)
        if n == 1:
            return mu
        if n == 2:
            return mu2 + mu * mu
        mu3 = g1 * mu2 ** 1.5
        if n == 3:
            return mu3 + 3 * mu * mu2 + mu * mu * mu
        return (g2 + 3.0) * mu2 ** 2.0 + 4 * mu * mu3 + 6 * mu * mu * mu2 + mu * mu * mu * mu

    def moment(self, order, *args, **kwds):
        """See `scipy.stats.rv_continuous.moment`: orders above 4 only where the distribution
        has a closed form (NotImplementedError else)."""
        shapes, loc, scale, _ = self._parse(args, kwds, "moment")
        if math.floor(order) != order:
            raise ValueError("Moment must be an integer.")
        if order < 0:
            raise ValueError("Moment must be positive.")
        n = int(order)
        shape = _shape_of(loc, scale, *shapes)
        cond = self._valid(shapes, scale)
        # E[(L + S Y)^n] = sum_k C(n, k) L^(n-k) S^k E[Y^k]; at L = 0 only S^n E[Y^n], as SciPy's
        # (an infinite lower moment times 0 would make NaN of it)
        top = self._noncentral(n, shapes) * scale ** n if n else 1.0
        if is_host(loc) and loc == 0:
            return select(shape, [(cond, top)], NAN)
        total = 0.0
        for k in range(n + 1):
            term = math.comb(n, k) * self._noncentral(k, shapes)
            if k:
                term = term * scale ** k
            if n - k:
                term = term * loc ** (n - k)
            total = total + term
        return select(shape, [(cond, choose(loc == 0, top, total))], NAN)

    def entropy(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.entropy` (in nats)."""
        shapes, loc, scale, _ = self._parse(args, kwds, "entropy")
        shape = _shape_of(loc, scale, *shapes)
        cond = self._valid(shapes, scale, loc)
        h = self._entropy(*shapes)
        if not (is_host(scale) and scale == 1.0):
            h = h + (numpy.log(scale) if is_host(scale) else log(scale))
        return select(shape, [(cond, h)], NAN)

    def interval(self, confidence, *args, **kwds):
        """See `scipy.stats.rv_continuous.interval`."""
        c = confidence if not is_host(confidence) else float(confidence)
        if is_host(c):
            if c > 1 or c < 0:
                raise ValueError("confidence must be in range [0, 1]")
        else:  # one small read: SciPy raises for any confidence outside [0, 1]
            if not bool(to_host(all_(logical_and(c >= 0, c <= 1)))):
                raise ValueError("confidence must be in range [0, 1]")
        return self.ppf((1.0 - c) / 2, *args, **kwds), self.ppf((1.0 + c) / 2, *args, **kwds)

    def support(self, *args, **kwargs):
        """See `scipy.stats.rv_continuous.support`."""
        shapes, loc, scale, _ = self._parse(args, kwargs, "support")
        shape = _shape_of(loc, scale, *shapes)
        a, b = self._get_support(*shapes)
        cond = self._valid(shapes, scale)
        return (select(shape, [(cond, a * scale + loc)], NAN), select(shape, [(cond, b * scale + loc)], NAN))

    # -- random variates ------------------------------------------------------------------------------
    def rvs(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.rvs`: drawn with `cuarray.random` (`random_state` or
        `rng`: None, a seed or a cuarray Generator); the streams are not SciPy's."""
        shapes, loc, scale, ex = self._parse(args, kwds, "rvs", ("size", "random_state", "rng"))
        cond = and_(self._argcheck(*shapes), scale >= 0)
        if not is_host(cond):  # one small read: SciPy raises for any invalid parameter
            cond = bool(to_host(all_(cond)))
        if not cond:
            raise ValueError("Domain error in arguments. The `scale` parameter must be positive for all "
                             "distributions, and many distributions have restrictions on shape parameters. "
                             "Please see the `scipy.stats.{}` documentation for details.".format(self.name))
        size = ex.get("size")
        pshape = _shape_of(loc, scale, *shapes)
        size = pshape if size is None else ((int(size),) if numpy.ndim(size) == 0 else tuple(int(s) for s in size))
        try:
            ok = numpy.broadcast_shapes(size, pshape) == size
        except ValueError:
            ok = False
        if not ok:
            raise ValueError("size does not match the broadcast shape of the parameters. {}, {}, {}".format(
                size, pshape, pshape))
        seed = ex.get("rng", ex.get("random_state"))
        rng = default_rng(seed)
        vals = self._rvs(shapes, size, rng)
        if not (is_host(scale) and scale == 1.0):
            vals = vals * scale
        if not (is_host(loc) and loc == 0.0):
            vals = vals + loc
        if not self._has_scale:  # discrete: integers, as SciPy's
            vals = vals.astype(numpy.int64)
        return vals

    def _rvs(self, shapes, size, rng):
        """Standard variates by inversion of `_ppf` (a distribution with a direct sampler overrides)."""
        return self._ppf(rng.random(size), *shapes)

    # -- frozen -----------------------------------------------------------------------------------------
    def freeze(self, *args, **kwds):
        """See `scipy.stats.rv_continuous.freeze`."""
        return rv_frozen(self, *args, **kwds)

    def __call__(self, *args, **kwds):
        return self.freeze(*args, **kwds)


class rv_frozen:
    """A distribution with its parameters fixed (`norm(loc, scale)`): every method without them."""

    def __init__(self, dist, *args, **kwds):
        self.dist, self.args, self.kwds = dist, args, kwds
        dist._parse(args, kwds, "freeze")  # SciPy checks the arguments when freezing
        self.a, self.b = dist._get_support(*dist._parse(args, kwds, "freeze")[0])

    def __getattr__(self, method):
        if method.startswith("_") or method in ("fit", "nnlf", "fit_loc_scale"):
            raise AttributeError(method)
        fn = getattr(self.dist, method)
        takes_value = method in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "pmf", "logpmf",
                                 "moment", "interval")

        if takes_value:
            def bound(value):
                return fn(value, *self.args, **self.kwds)
        elif method in ("rvs",):
            def bound(size=None, random_state=None):
                return fn(*self.args, size=size, random_state=random_state, **self.kwds)
        elif method == "stats":
            def bound(moments="mv"):
                return fn(*self.args, moments=moments, **self.kwds)
        else:
            def bound():
                return fn(*self.args, **self.kwds)
        bound.__name__ = method
        return bound


class rv_continuous(rv_base):
    """`scipy.stats.rv_continuous`'s public methods over a distribution's `_pdf`, `_cdf`, ...;
    the generic fallbacks (`_logpdf` = log `_pdf`, `_sf` = 1 - `_cdf`, ...) as SciPy's."""

    def _logpdf(self, x, *s):
        return log(self._pdf(x, *s))

    # SciPy's: the log of whichever of cdf and sf is the smaller, log1p of the other's complement
    def _logcdf(self, x, *s):
        return where(x < self._ppf(0.5, *s), log(self._cdf(x, *s)), log1p(-self._sf(x, *s)))

    def _sf(self, x, *s):
        return 1.0 - self._cdf(x, *s)

    def _logsf(self, x, *s):
        return where(x > self._ppf(0.5, *s), log(self._sf(x, *s)), log1p(-self._cdf(x, *s)))

    def _isf(self, q, *s):
        return self._ppf(1.0 - q, *s)

    def _pdf_like(self, method, x, args, kwds, fill, log_scale):
        shapes, loc, scale, _ = self._parse(args, kwds, method)
        x = self._x(x, loc, scale, method)
        shape = _shape_of(x, loc, scale, *shapes)
        a, b = self._get_support(*shapes)
        cond0 = self._valid(shapes, scale)
        inside = and_(cond0, logical_and(x > a, x < b) if self._open_pdf else logical_and(x >= a, x <= b))
        val = getattr(self, "_" + method)(x, *shapes)
        if not (is_host(scale) and scale == 1.0):
            val = val - log(scale) if log_scale else val / scale
        return select(shape, [(or_(not_(cond0), isnan(x)), NAN), (inside, val)], fill)

    def pdf(self, x, *args, **kwds):
        """See `scipy.stats.rv_continuous.pdf`."""
        return self._pdf_like("pdf", x, args, kwds, 0.0, False)

    def logpdf(self, x, *args, **kwds):
        """See `scipy.stats.rv_continuous.logpdf`."""
        return self._pdf_like("logpdf", x, args, kwds, -INF, True)

    def _cdf_like(self, method, x, args, kwds, low, high):
        """cdf/logcdf (`low` below the support, `high` above) and sf/logsf (the reverse)."""
        shapes, loc, scale, _ = self._parse(args, kwds, method)
        x = self._x(x, loc, scale, method)
        shape = _shape_of(x, loc, scale, *shapes)
        a, b = self._get_support(*shapes)
        cond0 = self._valid(shapes, scale)
        inside = and_(cond0, logical_and(x > a, x < b))
        val = getattr(self, "_" + method)(x, *shapes)
        if method in ("cdf", "logcdf"):
            edge = and_(cond0, x >= b)
            return select(shape, [(or_(not_(cond0), isnan(x)), NAN), (edge, high), (inside, val)], low)
        edge = and_(cond0, x <= a)
        return select(shape, [(or_(not_(cond0), isnan(x)), NAN), (edge, low), (inside, val)], high)

    def cdf(self, x, *args, **kwds):
        """See `scipy.stats.rv_continuous.cdf`."""
        return self._cdf_like("cdf", x, args, kwds, 0.0, 1.0)

    def logcdf(self, x, *args, **kwds):
        """See `scipy.stats.rv_continuous.logcdf`."""
        return self._cdf_like("logcdf", x, args, kwds, -INF, 0.0)

    def sf(self, x, *args, **kwds):
        """See `scipy.stats.rv_continuous.sf`."""
        return self._cdf_like("sf", x, args, kwds, 1.0, 0.0)

    def logsf(self, x, *args, **kwds):
        """See `scipy.stats.rv_continuous.logsf`."""
        return self._cdf_like("logsf", x, args, kwds, 0.0, -INF)

    def _ppf_like(self, method, q, args, kwds):
        shapes, loc, scale, _ = self._parse(args, kwds, method)
        q = as_literal_or_array(q, "scipy.stats.{}.{}".format(self.name, method)).astype(_F64, copy=False)
        shape = _shape_of(q, loc, scale, *shapes)
        a, b = self._get_support(*shapes)
        cond0 = self._valid(shapes, scale, loc)
        lo, hi = (q == 0, q == 1) if method == "ppf" else (q == 1, q == 0)
        val = getattr(self, "_" + method)(q, *shapes) * scale + loc
        return select(shape, [(and_(cond0, logical_and(q > 0, q < 1)), val), (and_(cond0, lo), a * scale + loc),
                              (and_(cond0, hi), b * scale + loc)], NAN)

    def ppf(self, q, *args, **kwds):
        """See `scipy.stats.rv_continuous.ppf`."""
        return self._ppf_like("ppf", q, args, kwds)

    def isf(self, q, *args, **kwds):
        """See `scipy.stats.rv_continuous.isf`."""
        return self._ppf_like("isf", q, args, kwds)


class rv_discrete(rv_base):
    """`scipy.stats.rv_discrete`'s public methods (loc, no scale) over a distribution's `_pmf`,
    `_cdf`, ...: k is floored for the cdf and sf, the pmf is 0 off the integers, as SciPy's."""

    _has_scale = False
    _a = 0.0

    def _logpmf(self, k, *s):
        return log(self._pmf(k, *s))

    def _logcdf(self, k, *s):
        return log(self._cdf(k, *s))

    def _logsf(self, k, *s):
        return log(self._sf(k, *s))

    def _pmf_like(self, method, k, args, kwds, fill):
        shapes, loc, _, _ = self._parse(args, kwds, method)
        k = self._x(k, loc, 1.0, method)
        shape = _shape_of(k, loc, *shapes)
        a, b = self._get_support(*shapes)
        cond0 = self._argcheck(*shapes)
        cond = and_(cond0, logical_and(logical_and(k >= a, k <= b), floor(k) == k))
        val = getattr(self, "_" + method)(k, *shapes)
        if method == "pmf":
            val = clip(val, 0.0, 1.0)
        return select(shape, [(or_(not_(cond0), isnan(k)), NAN), (cond, val)], fill)

    def pmf(self, k, *args, **kwds):
        """See `scipy.stats.rv_discrete.pmf`."""
        return self._pmf_like("pmf", k, args, kwds, 0.0)

    def logpmf(self, k, *args, **kwds):
        """See `scipy.stats.rv_discrete.logpmf`."""
        return self._pmf_like("logpmf", k, args, kwds, -INF)

    def _cdf_like(self, method, k, args, kwds, low, high):
        shapes, loc, _, _ = self._parse(args, kwds, method)
        k = floor(self._x(k, loc, 1.0, method))
        shape = _shape_of(k, loc, *shapes)
        a, b = self._get_support(*shapes)
        cond0 = self._argcheck(*shapes)
        cond = and_(cond0, logical_and(logical_and(k >= a, k < b), isfinite(k)))
        val = getattr(self, "_" + method)(k, *shapes)
        if method in ("cdf", "sf"):
            val = clip(val, 0.0, 1.0)
        bad = or_(not_(cond0), isnan(k))
        if method == "cdf":
            return select(shape, [(bad, NAN), (k >= b, high), (cond, val)], low)
        if method == "logcdf":  # SciPy puts 0 above the support after the NaNs of invalid parameters
            return select(shape, [(k >= b, high), (bad, NAN), (cond, val)], low)
        return select(shape, [(bad, NAN), (logical_or(k < a, isinf(k) & (k < 0)), low), (cond, val)], high)

    def cdf(self, k, *args, **kwds):
        """See `scipy.stats.rv_discrete.cdf`."""
        return self._cdf_like("cdf", k, args, kwds, 0.0, 1.0)

    def logcdf(self, k, *args, **kwds):
        """See `scipy.stats.rv_discrete.logcdf`."""
        return self._cdf_like("logcdf", k, args, kwds, -INF, 0.0)

    def sf(self, k, *args, **kwds):
        """See `scipy.stats.rv_discrete.sf`."""
        return self._cdf_like("sf", k, args, kwds, 1.0, 0.0)

    def logsf(self, k, *args, **kwds):
        """See `scipy.stats.rv_discrete.logsf`."""
        return self._cdf_like("logsf", k, args, kwds, 0.0, -INF)

    def _ppf_like(self, method, q, args, kwds):
        shapes, loc, _, _ = self._parse(args, kwds, method)
        q = as_literal_or_array(q, "scipy.stats.{}.{}".format(self.name, method)).astype(_F64, copy=False)
        shape = _shape_of(q, loc, *shapes)
        a, b = self._get_support(*shapes)
        cond0 = and_(self._argcheck(*shapes), loc == loc)
        lo, hi = (q == 0, q == 1) if method == "ppf" else (q == 1, q == 0)
        val = getattr(self, "_" + method)(q, *shapes) + loc
        return select(shape, [(and_(cond0, logical_and(q > 0, q < 1)), val), (and_(cond0, hi), b + loc),
                              (and_(cond0, lo), a - 1.0 + loc)], NAN)

    def ppf(self, q, *args, **kwds):
        """See `scipy.stats.rv_discrete.ppf`."""
        return self._ppf_like("ppf", q, args, kwds)

    def isf(self, q, *args, **kwds):
        """See `scipy.stats.rv_discrete.isf`."""
        return self._ppf_like("isf", q, args, kwds)

    def _valid(self, shapes, scale, loc=None):
        cond = self._argcheck(*shapes)
        return cond if loc is None else and_(cond, loc == loc)
