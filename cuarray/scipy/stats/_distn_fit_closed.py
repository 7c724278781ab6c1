"""SciPy's own `fit` of the distributions that override the generic one with closed-form (or
one-dimensional) maximum-likelihood estimates: norm, expon, uniform, laplace, gamma (`floc`
given, or method "MM"), lognorm (`floc` given); and the `_fitstart`s of gamma and cauchy.
Each returns None where SciPy falls back to the generic fit. The sums run on the device; the
few scalars they give come back in one stacked read and any scalar equation (gamma's shape)
is solved on the host."""

from __future__ import annotations

import math

import numpy

from ..._core.transfer import to_host
from ..._manipulation.joining import stack
from ..._math.explog import exp, log
from ..._math.misc import absolute, sqrt
from ..._math.sums import sum as sum_
from ..._statistics.median import median
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ..._statistics.quantiles import percentile
from ._distn_fit import FitDataError, fit_data, fixed_value, rv_continuous, summary


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


def _check_fit_input(dist, args, kwds):
    """SciPy's `_check_fit_input_parameters`: the fixed shapes (by f0/fa/fix_a), floc, fscale."""
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
    _, floc, fscale = _check_fit_input(dist, args, kwds)
    x = fit_data(data, dist.name)
    loc = median(x) if floc is None else floc
    if fscale is None:
        loc_h, scale_h = _read(loc, sum_(absolute(x - loc)) / x.shape[0])
        return (numpy.float64(loc_h) if floc is None else floc), numpy.float64(scale_h)
    return numpy.float64(_read(loc)[0]), fscale


def _digamma(x):
    """psi(x) for x > 0 on the host: the recurrence up to 6, then the asymptotic series."""
    r = 0.0
    while x < 6.0:
        r -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    return r + math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f * (1 / 132)))))


def _trigamma(x):
    r = 0.0
    while x < 6.0:
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
    """SciPy's lognorm.fit with `floc`: the mean and the root mean square of log(x - floc)."""
    if not _mle_only(kwds) or kwds.get("floc") is None:
        return None  # SciPy solves for loc by a root of the likelihood's derivative: the generic fit here
    (fshape,), floc, fscale = _check_fit_input(dist, args, kwds)
    x = fit_data(data, dist.name)
    mn = _read(min_(x))[0]
    if floc >= mn:
        raise FitDataError("lognorm", lower=0.0, upper=numpy.inf)
    lnx = log(x - floc)
    n = x.shape[0]
    scale = fscale or exp(sum_(lnx) / n)
    if fshape:
        shape = fshape
        scale = _read(scale)[0] if not fscale else scale
    else:
        d = lnx - (math.log(scale) if fscale else log(scale))
        shape_d = sqrt(sum_(d * d) / n)
        shape, scale = (_read(shape_d)[0], scale) if fscale else _read(shape_d, scale)
    if not (shape > 0 and scale > 0):
        return None
    return numpy.float64(shape), floc, numpy.float64(scale)


def gamma_fitstart(dist, x, args=None):
    """SciPy's: the shape from the skewness, a = 4 / (1e-8 + skew**2)."""
    skew = summary(x, with_skew=True)[4]
    return rv_continuous._fitstart(dist, x, args=(4 / (1e-8 + skew ** 2),))


def cauchy_fitstart(dist, x, args=None):
    """SciPy's: the median and half the interquartile range."""
    p25, p50, p75 = (float(v) for v in to_host(percentile(x, [25.0, 50.0, 75.0])))  # one read
    return p50, (p75 - p25) / 2
