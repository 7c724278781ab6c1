"""SciPy's own `fit` of the distributions that override the generic one: closed forms or
the likelihood equations of norm, expon, uniform, laplace, gamma (`floc` given, or method "MM"),
lognorm, rayleigh, gumbel_r, gumbel_l, pareto, logistic, beta (`floc` and `fscale`), and
weibull_min's moment estimates (its "MM", and its "MLE"'s start); the `_fitstart`s of gamma,
beta and cauchy. Each returns None where SciPy falls back to the generic fit. The sums over
the data run on the device and come back in one stacked read per evaluation; the equations
in one or two unknowns are solved on the host (Newton's steps, or SciPy's bracketing solvers
through `cuarray.scipy.optimize.root_scalar`)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._manipulation.joining import stack
from ..._math.explog import exp, log, log1p
from ..._math.hyperbolic import tanh
from ..._math.misc import absolute, sqrt
from ..._math.sums import sum as sum_
from ..._statistics.median import median
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ..._statistics.quantiles import percentile
from ..optimize._scalar import root_scalar
from ..special._convenience import expit
from ._distn_base import is_host
from ._distn_fit import FitDataError, FitError, fit_data, fixed_value, rv_continuous, summary


def _read(*vals):
    """Device scalars as Python floats: one read."""
    return [float(v) for v in to_host(stack(list(vals)))]


def _check_optimizer_keys(kwds):
    """SciPy's `_remove_optimizer_parameters`: loc, scale and optimizer are ignored, others refused."""
    for k in ("loc", "scale", "optimizer"):
        kwds.pop(k, None)
    if kwds:
        raise TypeError("Unknown arguments: {}.".format(kwds))


def _mle_only(kwds):
    """SciPy's `_call_super_mom`: method "MM" takes the generic fit."""
    return kwds.get("method", "mle").lower() == "mle"


def _two_fixed(kwds, args):
    """(floc, fscale) of a distribution without shapes (norm, expon, uniform), SciPy's checks."""
    if args:
        raise TypeError("Too many arguments.")
    floc, fscale = kwds.pop("floc", None), kwds.pop("fscale", None)
    kwds.pop("method", None)
    _check_optimizer_keys(kwds)
    if floc is not None and fscale is not None:
        raise ValueError("All parameters fixed. There is nothing to optimize.")
    return floc, fscale


def _fit_input(dist, data, args, kwds, superfit=False):
    """SciPy's `_check_fit_input_parameters` (after its own `superfit` keyword where SciPy's fit
    takes one): the fixed shapes (by f0/fa/fix_a), floc, fscale, and the data on the device."""
    if superfit:
        kwds.pop("superfit", None)
    fshapes, floc, fscale = _check_fit_input(dist, args, kwds)
    return fshapes, floc, fscale, fit_data(data, dist.name)


def _check_fit_input(dist, args, kwds):
    """SciPy's checks of the keywords and positional arguments, in its order."""
    floc, fscale = kwds.get("floc"), kwds.get("fscale")
    keys, fshapes = [], []
    for j, s in enumerate(dist._shape_names):
        val = fixed_value(kwds, ["f" + str(j), "f" + s, "fix_" + s])
        keys.append("f" + str(j))
        fshapes.append(val)
        if val is not None:
            kwds["f" + str(j)] = val
    unknown = set(kwds).difference({"loc", "scale", "optimizer", "method", "floc", "fscale", *keys})
    if unknown:
        raise TypeError("Unknown keyword arguments: {}.".format(unknown))
    if len(args) > len(fshapes):
        raise TypeError("Too many positional arguments.")
    if None not in {floc, fscale, *fshapes}:
        raise RuntimeError("All parameters fixed. There is nothing to optimize.")
    return fshapes, floc, fscale


def norm_fit(dist, data, args, kwds):
    """The sample mean and the root mean square deviation from loc."""
    if not _mle_only(kwds):
        return None
    floc, fscale = _two_fixed(kwds, args)
    x = fit_data(data, dist.name)
    loc = sum_(x) / x.shape[0] if floc is None else floc
    if fscale is not None:
        return (numpy.float64(_read(loc)[0]) if floc is None else loc), fscale
    d = x - loc
    scale = sqrt(sum_(d * d) / x.shape[0])
    if floc is None:
        loc_h, scale_h = _read(loc, scale)
        return numpy.float64(loc_h), numpy.float64(scale_h)
    return floc, numpy.float64(_read(scale)[0])


def expon_fit(dist, data, args, kwds):
    """loc the minimum, scale the mean excess over loc."""
    if not _mle_only(kwds):
        return None
    floc, fscale = _two_fixed(kwds, args)
    x = fit_data(data, dist.name)
    mn, mean = _read(min_(x), sum_(x) / x.shape[0])
    loc = mn if floc is None else floc
    if floc is not None and mn < floc:
        raise FitDataError("expon", lower=floc, upper=numpy.inf)
    scale = mean - loc if fscale is None else fscale
    return float(loc), float(scale)


class FitUniformFixedScaleDataError(FitDataError):
    """SciPy's: the data spread wider than the fixed scale."""

    def __init__(self, ptp, fscale):
        self.args = ("Invalid values in `data`.  Maximum likelihood estimation with the uniform distribution "
                     "and fixed scale requires that np.ptp(data) <= fscale, but np.ptp(data) = {} and "
                     "fscale = {}.".format(ptp, fscale),)


def uniform_fit(dist, data, args, kwds):
    """The smallest interval holding the data (centred on it where the scale is fixed)."""
    if not _mle_only(kwds):
        return None
    floc, fscale = _two_fixed(kwds, args)
    x = fit_data(data, dist.name)
    mn, mx = _read(min_(x), max_(x))
    if fscale is None:
        if floc is None:
            loc, scale = mn, mx - mn
        else:
            loc, scale = floc, mx - floc
            if mn < loc:
                raise FitDataError("uniform", lower=loc, upper=loc + scale)
    else:
        ptp = mx - mn
        if ptp > fscale:
            raise FitUniformFixedScaleDataError(ptp=numpy.float64(ptp), fscale=fscale)
        loc, scale = mn - 0.5 * (fscale - ptp), fscale
    return float(loc), float(scale)


def laplace_fit(dist, data, args, kwds):
    """loc the median, scale the mean absolute deviation from it."""
    if not _mle_only(kwds):
        return None
    _, floc, fscale, x = _fit_input(dist, data, args, kwds)
    loc = median(x) if floc is None else floc
    if fscale is None:
        loc_h, scale_h = _read(loc, sum_(absolute(x - loc)) / x.shape[0])
        return (numpy.float64(loc_h) if floc is None else floc), numpy.float64(scale_h)
    return numpy.float64(_read(loc)[0]), fscale


def _digamma(x):
    """psi(x) for x > 0 on the host: the recurrence up to 10, then the asymptotic series (its
    first omitted term below 3e-14 there)."""
    r = 0.0
    while x < 10.0:
        r -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    return r + math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f * (1 / 132)))))


def _trigamma(x):
    r = 0.0
    while x < 10.0:
        r += 1.0 / (x * x)
        x += 1.0
    f = 1.0 / (x * x)
    return r + 1 / x + f / 2 + f / x * (1 / 6 - f * (1 / 30 - f * (1 / 42 - f * (1 / 30))))


def _newton(g, dg, a):
    """A root of g by Newton's steps from a (g monotone there), kept positive."""
    for _ in range(100):
        step = g(a) / dg(a)
        new = a - step
        if new <= 0:
            new = a / 2
        if abs(new - a) <= 4e-16 * abs(new):
            return new
        a = new
    return a


def gamma_fit(dist, data, args, kwds):
    """SciPy's gamma.fit with `floc`: the shape solves log(a) - psi(a) = log(mean) - mean(log)
    (Newton's steps from SciPy's starting estimate; SciPy brackets it with brentq), or with
    `fscale` psi(a) = mean(log(x / fscale)); method "MM": the closed-form moment estimates."""
    floc = kwds.get("floc")
    method = kwds.get("method", "mle").lower()
    if floc is None and method != "mm":
        return None
    kwds.pop("floc", None)
    f0 = fixed_value(kwds, ["f0", "fa", "fix_a"])
    fscale = kwds.pop("fscale", None)
    kwds.pop("method", None)
    _check_optimizer_keys(kwds)
    if f0 is not None and floc is not None and fscale is not None:
        raise ValueError("All parameters fixed. There is nothing to optimize.")
    x = fit_data(data, dist.name)
    n = x.shape[0]
    if method == "mm":
        m1 = sum_(x) / n
        d = x - m1
        m1, m2, m3 = _read(m1, sum_(d * d) / n, sum_(d * d * d) / n)
        a, loc, scale = f0, floc, fscale
        if a is None and loc is None and scale is None:
            scale = m3 / (2 * m2)
        if loc is None and scale is None:
            scale = math.sqrt(m2 / a)
        if a is None and scale is None:
            scale = m2 / (m1 - loc)
        if a is None and loc is None:
            a = m2 / (scale ** 2)
        if a is None:
            a = (m1 - loc) / scale
        if loc is None:
            loc = m1 - a * scale
        if scale is None:
            scale = (m1 - loc) / a
        return a, loc, scale
    y = x - floc if floc != 0 else x
    xbar, mn, mlog = _read(sum_(y) / n, min_(y), sum_(log(y)) / n)
    if mn <= 0:
        raise FitDataError("gamma", lower=floc, upper=numpy.inf)
    if fscale is None:
        if f0 is not None:
            a = f0
        else:
            s = math.log(xbar) - mlog
            aest = (3 - s + math.sqrt((s - 3) ** 2 + 24 * s)) / (12 * s)
            a = _newton(lambda t: math.log(t) - _digamma(t) - s, lambda t: 1 / t - _trigamma(t), aest)
        scale = xbar / a
    else:
        c = mlog - math.log(fscale)
        start = math.exp(c) + 0.5 if c > -0.125 else -1 / (c + 0.5772156649015329)
        a = _newton(lambda t: _digamma(t) - c, _trigamma, start)
        scale = fscale
    return numpy.float64(a), floc, numpy.float64(scale)


def lognorm_fit(dist, data, args, kwds):
    """SciPy's lognorm.fit: shape and scale in closed form from loc (the mean and the root mean
    square of log(x - loc)); loc `floc`, or the root of the likelihood's derivative below
    min(data) (SciPy's bracket search and Brent's method, one read per evaluation), or just below
    min(data) where the likelihood is higher there."""
    if not _mle_only(kwds):
        return None
    (fshape,), floc, fscale, x = _fit_input(dist, data, args, kwds, superfit=True)
    n = x.shape[0]
    mn = _read(min_(x))[0]

    def shape_scale(loc):
        lnx = log(x - loc)
        scale = fscale or exp(sum_(lnx) / n)
        if fshape:
            return fshape, scale
        d = lnx - (math.log(scale) if fscale else log(scale))
        return sqrt(sum_(d * d) / n), scale

    def dl_dloc(loc):
        shape, scale = shape_scale(loc)
        shifted = x - loc
        return sum_((1 + log(shifted / scale) / shape ** 2) / shifted)

    def ll(loc):
        shape, scale = shape_scale(loc)
        return -float(to_host(dist.nnlf([shape, loc, scale], x)))

    if floc is None:
        dl = _host(dl_dloc)
        spacing = numpy.spacing(mn)
        rbrack = mn - spacing
        dl_r, ll_r = dl(rbrack), ll(rbrack)
        delta = 2 * spacing
        while dl_r >= -1e-6:
            rbrack = mn - delta
            dl_r = dl(rbrack)
            delta *= 2
        if not numpy.isfinite(rbrack) or not numpy.isfinite(dl_r):
            return dist._fit_generic(x, *args, **kwds)
        lbrack = numpy.minimum(numpy.nextafter(rbrack, -numpy.inf), rbrack - 1)
        dl_l = dl(lbrack)
        delta = 2 * (rbrack - lbrack)
        while numpy.isfinite(lbrack) and numpy.isfinite(dl_l) and numpy.sign(dl_l) == numpy.sign(dl_r):
            lbrack = rbrack - delta
            dl_l = dl(lbrack)
            delta *= 2
        if not numpy.isfinite(lbrack) or not numpy.isfinite(dl_l):
            return dist._fit_generic(x, *args, **kwds)
        res = root_scalar(dl_dloc, bracket=(lbrack, rbrack))
        if not res.converged:
            return dist._fit_generic(x, *args, **kwds)
        loc = res.root if ll(res.root) > ll_r else mn - spacing
    else:
        if floc >= mn:
            raise FitDataError("lognorm", lower=0.0, upper=numpy.inf)
        loc = floc
    pair = shape_scale(loc)
    read = iter(_read(*[v for v in pair if not is_host(v)]) if not all(is_host(v) for v in pair) else ())
    shape, scale = (v if is_host(v) else numpy.float64(next(read)) for v in pair)
    if not (shape > 0 and scale > 0):
        return dist._fit_generic(x, *args, **kwds)
    return shape, (floc if floc is not None else numpy.float64(loc)), scale


def gamma_fitstart(dist, x, args=None):
    """SciPy's: the shape from the skewness, a = 4 / (1e-8 + skew**2)."""
    skew = summary(x, with_skew=True)[4]
    return rv_continuous._fitstart(dist, x, args=(4 / (1e-8 + skew ** 2),))


def beta_fitstart(dist, x, args=None):
    """SciPy's: the shapes whose skewness and kurtosis are the data's (SciPy's `fsolve` from (1, 1)
    on the host: a solve of two closed-form equations)."""
    from scipy.optimize import fsolve  # optional dependency: SciPy's solver, so the start is SciPy's  # noqa: PLC0415

    g1, g2 = summary(x, with_skew=True)[4:]

    def func(v):
        a, b = v
        sk = 2 * (b - a) * numpy.sqrt(a + b + 1) / (a + b + 2) / numpy.sqrt(a * b)
        ku = a ** 3 - a ** 2 * (2 * b - 1) + b ** 2 * (b + 1) - 2 * a * b * (b + 2)
        ku /= a * b * (a + b + 2) * (a + b + 3)  # SciPy's order of operations: its rounding, its path
        ku *= 6
        return [sk - g1, ku - g2]

    with numpy.errstate(all="ignore"):
        a, b = fsolve(func, (1.0, 1.0))
    return rv_continuous._fitstart(dist, x, args=(a, b))


def cauchy_fitstart(dist, x, args=None):
    """SciPy's: the median and half the interquartile range."""
    p25, p50, p75 = (float(v) for v in to_host(percentile(x, [25.0, 50.0, 75.0])))  # one read
    return p50, (p75 - p25) / 2


class FitSolverError(FitError):
    """SciPy's: the solver of the likelihood equations did not converge."""

    def __init__(self, mesg):
        self.args = ("Solver for the MLE equations failed to converge: " + mesg.replace("\n", ""),)


def _host(f):
    """A device function of one host float, read once per call (the bracket searches')."""
    return lambda v: float(to_host(f(v)))


def _sign_change(fh, lo, hi):
    return numpy.sign(fh(lo)) != numpy.sign(fh(hi))


def _left_bracket(fh, rbrack):
    """SciPy's `_get_left_bracket`: widen to the left until the sign changes."""
    lbrack = rbrack - 1
    diff = rbrack - lbrack
    while not _sign_change(fh, lbrack, rbrack):
        diff *= 2
        lbrack = rbrack - diff
        if numpy.isinf(lbrack):
            raise FitSolverError("The solver could not find a bracket containing a root to an MLE first order "
                                 "condition.")
    return lbrack


def _widen(fh, start):
    """SciPy's bracket search of gumbel_r and pareto: halve the left end, double the right."""
    lbrack, rbrack = start / 2, start * 2
    while not _sign_change(fh, lbrack, rbrack) and (lbrack > 0 or rbrack < numpy.inf):
        lbrack /= 2
        rbrack *= 2
    return lbrack, rbrack


def rayleigh_fit(dist, data, args, kwds):
    """SciPy's: with `floc` the closed form; else loc the root of the likelihood's derivative
    left of min(data) (Brent's method, one read per step), scale from it."""
    if not _mle_only(kwds):
        return None
    _, floc, fscale, x = _fit_input(dist, data, args, kwds, superfit=True)
    n = x.shape[0]

    def scale_mle(loc):
        d = x - loc
        return sqrt(sum_(d * d) / (2 * n))

    if floc is not None:
        mn, scale = _read(min_(x), scale_mle(floc))
        if mn - floc <= 0:
            raise FitDataError("rayleigh", lower=1, upper=numpy.inf)
        return floc, numpy.float64(scale)

    def loc_mle(loc):
        d = x - loc
        if fscale is None:
            return sum_(d) - sum_(d * d) / (2 * n) * sum_(1 / d)
        return sum_(d) - fscale ** 2 * sum_(1 / d)

    rbrack = numpy.nextafter(_read(min_(x))[0], -numpy.inf)
    lbrack = _left_bracket(_host(loc_mle), rbrack)
    res = root_scalar(loc_mle, bracket=(lbrack, rbrack))
    if not res.converged:
        raise FitSolverError(res.flag)
    loc = numpy.float64(res.root)
    return loc, (fscale or numpy.float64(_read(scale_mle(loc))[0]))


def gumbel_r_fit(dist, data, args, kwds):
    """SciPy's: the scale the root of the likelihood equation (Brent's, rtol = xtol = 1e-14),
    loc from it by a log-sum-exp over the data."""
    if not _mle_only(kwds):
        return None
    _, floc, fscale, x = _fit_input(dist, data, args, kwds)
    n = x.shape[0]

    def loc_of(scale):
        sd = -x / scale
        m = max_(sd)
        return -scale * (m + log(sum_(exp(sd - m))) - math.log(n))

    if fscale is not None:
        return numpy.float64(_read(loc_of(fscale))[0]), fscale
    if floc is not None:
        def func(scale):
            d = floc - x
            return sum_(d * exp(d / scale) + x) - n * (floc + scale)
    else:
        mean = sum_(x) / n

        def func(scale):
            sd = -x / scale
            w = exp(sd - max_(sd))
            return mean - sum_(x * w) / sum_(w) - scale
    lbrack, rbrack = _widen(_host(func), kwds.get("scale", 1))
    scale = root_scalar(func, bracket=(lbrack, rbrack), rtol=1e-14, xtol=1e-14).root
    return (floc if floc is not None else numpy.float64(_read(loc_of(scale))[0])), scale


def gumbel_l_fit(gumbel_r, data, args, kwds):
    """SciPy's: `gumbel_r`'s fit of -data, loc negated (gumbel_l's override passes gumbel_r, whose
    module imports this one)."""
    if kwds.get("floc") is not None:
        kwds["floc"] = -kwds["floc"]
    x = as_literal_or_array(data, "scipy.stats.gumbel_l.fit")
    loc_r, scale_r = gumbel_r.fit(-x, *args, **kwds)
    return -loc_r, scale_r


def pareto_fit(dist, data, args, kwds):
    """SciPy's: the shape from loc and scale in closed form; with neither fixed the scale is the
    root of the likelihood equations in loc = min(data) - scale (Brent's, one read per step)."""
    if not _mle_only(kwds):
        return None
    (fshape,), floc, fscale, x = _fit_input(dist, data, args, kwds)
    n = x.shape[0]
    mn = _read(min_(x))[0]
    if floc is not None and mn - floc < (fscale or 0):
        raise FitDataError("pareto", lower=1, upper=numpy.inf)

    def shape_of(scale, loc):
        return n / sum_(log((x - loc) / scale))

    if floc is None and fscale is None:
        def func(scale):
            loc = mn - scale
            shape = fshape or shape_of(scale, loc)
            return (shape + 1) * sum_(1 / (x - loc)) - n * shape / scale

        lbrack, rbrack = _widen(_host(func), float(kwds.get("scale", 1)))
        res = root_scalar(func, bracket=[lbrack, rbrack])
        if not res.converged:
            return None
        scale = res.root
        loc = mn - scale
        shape = fshape or numpy.float64(_read(shape_of(scale, loc))[0])
        if not (scale + loc) < mn:
            scale = numpy.nextafter(mn - loc, 0)
        return shape, numpy.float64(loc), scale
    loc = mn - fscale if floc is None else floc
    scale = fscale or mn - loc
    shape = fshape or numpy.float64(_read(shape_of(scale, loc))[0])
    return shape, loc, scale


def _weibull_skew(c):
    g1, g2, g3 = math.gamma(1 + 1 / c), math.gamma(1 + 2 / c), math.gamma(1 + 3 / c)
    return (2 * g1 ** 3 - 3 * g1 * g2 + g3) / (g2 - g1 ** 2) ** 1.5


def _bisect(f, xa, xb, xtol=2e-12, rtol=4 * numpy.finfo(float).eps, maxiter=100):
    """SciPy's bisection (scipy/optimize/Zeros/bisect.c), on a host function."""
    fa, fb = f(xa), f(xb)
    if fa == 0:
        return xa
    if fb == 0:
        return xb
    dm = xb - xa
    xm = xa
    for _ in range(maxiter):
        dm *= 0.5
        xm = xa + dm
        fm = f(xm)
        if fm * fa >= 0:
            xa = xm
        if fm == 0 or abs(dm) < xtol + rtol * abs(xm):
            return xm
    return xm


def weibull_min_fit(dist, data, args, kwds):
    """SciPy's: the method-of-moments estimates (the shape matching the data's skewness, by
    bisection on the host), returned for "MM" and the generic fit's start for "MLE"."""
    method = kwds.get("method", "mle").lower()
    (fc,), floc, fscale, x = _fit_input(dist, data, args, kwds, superfit=True)
    mean, var, _, _, s, _ = summary(x, with_skew=True)
    if s < _weibull_skew(1e4) and method != "mm" and fc is None and not args:
        return dist._fit_generic(x, *args, **kwds)
    if method == "mm":
        c = loc = scale = None
    else:
        c = args[0] if len(args) else None
        loc, scale = kwds.pop("loc", None), kwds.pop("scale", None)
    if fc is None and c is None:
        c = _bisect(lambda t: _weibull_skew(t) - s, 0.02, 1e4)
    elif fc is not None:
        c = fc
    if fscale is None and scale is None:
        scale = math.sqrt(var / (math.gamma(1 + 2 / c) - math.gamma(1 + 1 / c) ** 2))
    elif fscale is not None:
        scale = fscale
    if floc is None and loc is None:
        loc = mean - scale * math.gamma(1 + 1 / c)
    elif floc is not None:
        loc = floc
    if method == "mm":
        return c, loc, scale
    return dist._fit_generic(x, c, loc=loc, scale=scale, **kwds)


def logistic_fit(dist, data, args, kwds):
    """SciPy's: the root of the likelihood equations in loc and scale (the free ones), from the
    generic start. SciPy's `optimize.root` (MINPACK's hybrid method) is Newton's method here, on
    the host with the equations' sums and Jacobian from the device (one stacked read per step);
    the generic fit where it does not converge, as SciPy's."""
    if not _mle_only(kwds):
        return None
    _, floc, fscale, x = _fit_input(dist, data, args, kwds, superfit=True)
    n = x.shape[0]
    loc, scale = dist._fitstart(x)
    loc, scale = float(kwds.get("loc", loc)), float(kwds.get("scale", scale))
    if floc is not None:
        loc = floc
    if fscale is not None:
        scale = fscale
    idx = [i for i, f in enumerate((floc is None, fscale is None)) if f]

    def equations(loc, scale):
        """The free equations g1 = sum(expit(c)) - n/2, g2 = sum(c tanh(c/2)) - n and their
        Jacobian (dc/dloc = -1/scale, dc/dscale = -c/scale): one stacked read."""
        c = (x - loc) / scale
        e = expit(c)
        th = tanh(c / 2)
        de = e * (1 - e)
        dt = th + c * (1 - th * th) / 2
        s = _read(sum_(e), sum_(c * th), sum_(de), sum_(de * c), sum_(dt), sum_(dt * c))
        g = numpy.array([s[0] - n / 2, s[1] - n])
        jac = -numpy.array([[s[2], s[3]], [s[4], s[5]]]) / scale
        return g[idx], jac[numpy.ix_(idx, idx)]

    params = numpy.array([loc, scale], dtype=float)
    g, jac = equations(*params)
    for _ in range(100):  # Newton's steps, halved until the residual shrinks
        try:
            step = numpy.linalg.solve(jac, g)
        except numpy.linalg.LinAlgError:
            break
        if numpy.all(numpy.abs(step) <= 1e-12 * numpy.abs(params[idx])):  # converged: a smaller residual is noise
            params[idx] -= step
            return (floc if floc is not None else numpy.float64(params[0])), \
                (fscale if fscale is not None else numpy.float64(abs(params[1])))
        t = 1.0
        while t > 1e-10:
            new = params.copy()
            new[idx] -= t * step
            if new[1] > 0:
                g_new, jac_new = equations(*new)
                if numpy.all(numpy.isfinite(g_new)) and numpy.linalg.norm(g_new) <= numpy.linalg.norm(g):
                    break
            t /= 2
        else:
            break
        params, g, jac = new, g_new, jac_new
    return dist._fit_generic(x, *args, **kwds)


def _newton_system(g, x, tol=1e-13):
    """A root of the host system g (returning (value, Jacobian)) by Newton's steps, each halved
    until the parameters stay positive and the residual shrinks; None where that fails."""
    x = numpy.asarray(x, dtype=float)
    val, jac = g(x)
    for _ in range(100):
        try:
            step = numpy.linalg.solve(jac, val)
        except numpy.linalg.LinAlgError:
            return None
        if numpy.all(numpy.abs(step) <= tol * numpy.abs(x)):
            return x - step
        t = 1.0
        while t > 1e-10:
            new = x - t * step
            if numpy.all(new > 0):
                nval, njac = g(new)
                if numpy.all(numpy.isfinite(nval)) and numpy.linalg.norm(nval) <= numpy.linalg.norm(val):
                    break
            t /= 2
        else:
            return None
        x, val, jac = new, nval, njac
    return None


def beta_fit(dist, data, args, kwds):
    """SciPy's beta.fit with `floc` and `fscale`: the shapes solve the likelihood equations
    psi(a) - psi(a + b) = mean(log y), psi(b) - psi(a + b) = mean(log(1 - y)) (one of them where a
    shape is fixed) from the moment estimates; SciPy calls MINPACK, this Newton's steps on the
    host, with the data's sums from the device (one read)."""
    floc, fscale = kwds.get("floc"), kwds.get("fscale")
    if not _mle_only(kwds) or floc is None or fscale is None:
        return None
    kwds.pop("floc", None)
    kwds.pop("fscale", None)
    f0 = fixed_value(kwds, ["f0", "fa", "fix_a"])
    f1 = fixed_value(kwds, ["f1", "fb", "fix_b"])
    _check_optimizer_keys(kwds)
    if f0 is not None and f1 is not None:
        raise ValueError("All parameters fixed. There is nothing to optimize.")
    y = (fit_data(data, dist.name) - floc) / fscale
    n = y.shape[0]
    mean = sum_(y) / n
    d = y - mean
    mn, mx, xbar, var, s1, s2 = _read(min_(y), max_(y), mean, sum_(d * d) / n, sum_(log(y)), sum_(log1p(-y)))
    if mn <= 0 or mx >= 1:
        raise FitDataError("beta", lower=floc, upper=floc + fscale)
    if f0 is not None or f1 is not None:
        b, s = (f0, s2) if f0 is not None else (f1, s1)
        xb = 1 - xbar if f0 is not None else xbar

        def one(v):
            a = v[0]
            return (numpy.array([s - n * (_digamma(a) - _digamma(a + b))]),
                    numpy.array([[-n * (_trigamma(a) - _trigamma(a + b))]]))

        root = _newton_system(one, [b * xb / (1 - xb)])
        if root is None:
            raise FitSolverError("Newton's method did not converge.")
        a = numpy.float64(root[0])
        return (b, a, floc, fscale) if f0 is not None else (a, b, floc, fscale)
    fac = xbar * (1 - xbar) / var - 1

    def both(v):
        a, b = v
        pab, tab = _digamma(a + b), _trigamma(a + b)
        val = numpy.array([s1 - n * (_digamma(a) - pab), s2 - n * (_digamma(b) - pab)])
        jac = -n * numpy.array([[_trigamma(a) - tab, -tab], [-tab, _trigamma(b) - tab]])
        return val, jac

    root = _newton_system(both, [xbar * fac, (1 - xbar) * fac])
    if root is None:
        raise FitSolverError("Newton's method did not converge.")
    return numpy.float64(root[0]), numpy.float64(root[1]), floc, fscale
