"""`fit`, `nnlf` and `fit_loc_scale` of the continuous distributions, as SciPy's
`rv_continuous` (scipy/stats/_distn_infrastructure.py): starting values from `_fitstart`
(moments of the data, moved so that the support covers it), fixed parameters (`f0`/`fa`/
`fix_a`, `floc`, `fscale`), method "MLE" (SciPy's penalized negative log-likelihood) or "MM"
(the relative errors of the first k raw moments), minimized by cuarray's Nelder-Mead with
`optimize.fmin`'s tolerances, or by the user's `optimizer` called as SciPy calls it. With
`CensoredData` the objective is SciPy's censored likelihood: logpdf of the exact values, logcdf
of the left-censored, logsf of the right-censored and log(cdf(b) - cdf(a)) of the intervals.

The data stay on the device: the objective is a few elementwise passes and one sum over it,
whose value is the one read of each evaluation (the minimizer's). The starting values cost one
stacked read of the data's moments and extremes. A distribution with SciPy's closed-form
estimates sets `_fit_override` (_distn_fit_closed.py)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._logic.content import isfinite, isnan
from ..._logic.ops import logical_and, logical_not
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._math.explog import log
from ..._math.extrema import maximum
from ..._math.misc import absolute
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ..optimize._neldermead import minimize_neldermead
from ._censored import CensoredData
from ._distn_base import INF, and_, choose, is_host, or_
from ._distn_base import rv_continuous as _rv_continuous

_F64 = numpy.dtype(numpy.float64)
_LOGXMAX = math.log(numpy.finfo(float).max)


class FitError(RuntimeError):
    """SciPy's `scipy.stats.FitError`: the fit failed or its parameters are invalid."""

    def __init__(self, msg=None):
        self.args = (msg if msg is not None else "An error occurred when fitting a distribution to data.",)


class FitDataError(ValueError):
    """SciPy's: the data are inconsistent with the fixed parameters."""

    def __init__(self, distr, lower, upper):
        self.args = ("Invalid values in `data`.  Maximum likelihood estimation with {!r} requires that {!r} < "
                     "(x - loc)/scale  < {!r} for each x in `data`.".format(distr, lower, upper),)


def fixed_value(kwds, names):
    """SciPy's `_get_fixed_fit_value`: the one value among `names` (popped from `kwds`), or None."""
    vals = [(name, kwds.pop(name)) for name in names if name in kwds]
    if len(vals) > 1:
        raise ValueError("fit method got multiple keyword arguments to specify the same fixed parameter: "
                         + ", ".join(name for name, _ in vals))
    return vals[0][1] if vals else None


def fit_data(data, name):
    """The data as a float64 device vector (SciPy's `asarray(data).ravel()`), refused if any
    value is not finite (one read)."""
    x = as_literal_or_array(data, "scipy.stats.{}.fit".format(name)).astype(_F64, copy=False).ravel()
    if not bool(to_host(all_(isfinite(x)))):  # one read: SciPy refuses non-finite data
        raise ValueError("The data contains non-finite values.")
    return x


def summary(x, with_skew=False):
    """(mean, var, min, max[, skewness, excess kurtosis]) of the data on the host (SciPy's biased
    `_skew`/`_kurtosis`), one stacked read."""
    n = x.shape[0]
    mean = sum_(x) / n
    d = x - mean
    parts = [mean, sum_(d * d) / n, min_(x), max_(x)]
    if with_skew:
        d2 = d * d
        parts += [sum_(d2 * d) / n, sum_(d2 * d2) / n]
    vals = [float(v) for v in to_host(stack(parts))]  # the one read of the starting values
    if with_skew:
        with numpy.errstate(all="ignore"):
            m2 = numpy.float64(vals[1])
            vals[4], vals[5] = float(vals[4] / m2 ** 1.5), float(vals[5] / m2 ** 2 - 3)
    return tuple(vals)


def _host_theta(theta):
    """A parameter vector from a host optimizer (a list or NumPy array): Python floats."""
    return [float(t) for t in numpy.asarray(theta, dtype=float).ravel()]


class _Censored:
    """The float64 device arrays of a `CensoredData` that the censored likelihood reads."""

    def __init__(self, data):
        self.parts = tuple(a.astype(_F64, copy=False) for a in (data._uncensored, data._left, data._right))
        interval = data._interval.astype(_F64, copy=False)
        self.low, self.high = interval[:, 0], interval[:, 1]
        self.n_uncensored = data._uncensored.shape[0]


class rv_continuous(_rv_continuous):
    """`scipy.stats.rv_continuous` with `fit`, `nnlf`, `fit_loc_scale` (the base class's other
    methods as they are)."""

    _fit_override = None  # f(dist, data, args, kwds) -> the estimates, or None for the generic fit
    # which `CensoredData` without censored values SciPy's own fit takes (as the uncensored array;
    # data with censored values always take the generic fit): "mle" (SciPy's `_call_super_mom`:
    # method "MM" takes the generic fit, which refuses it), "any" (weibull_min), "none" (gamma)
    _censored_override = "mle"

    # -- the objectives ---------------------------------------------------------------------------
    def _unpack(self, theta):
        theta = list(theta)
        if len(theta) < 2:
            raise ValueError("Not enough input arguments.")
        return theta[-2], theta[-1], tuple(theta[:-2])

    def _support_of(self, z, shapes):
        a, b = self._get_support(*shapes)
        if self._open_pdf:
            return logical_and(z > a, z < b)
        return logical_and(z >= a, z <= b)

    def _penalized_nnlf(self, theta, x):
        """SciPy's: -sum(logpdf) over the data inside the support with a finite logpdf, plus
        100 log(DBL_MAX) for each other datum, plus n log(scale); inf for invalid parameters.
        A 0-d device array (inf as one where the parameters are host values)."""
        loc, scale, shapes = self._unpack(theta)
        cond = and_(self._argcheck(*shapes), scale > 0)
        if is_host(cond) and not cond:
            return full((), INF, dtype=_F64)
        z = (x - loc) / scale
        lp = self._logpdf(z, *shapes)
        good = logical_and(self._support_of(z, shapes), isfinite(lp))
        n = x.shape[0]
        n_bad = n - sum_(good)
        val = n_bad * (_LOGXMAX * 100) - sum_(where(good, lp, 0.0)) + n * (
            math.log(scale) if is_host(scale) else log(scale))
        return choose(cond, val, INF) if not is_host(cond) else val

    def _penalized_nnlf_censored(self, theta, data):
        """SciPy's `_nnlf_and_penalty` of `CensoredData` plus (number uncensored) log(scale): each
        kind of value inside (or, for intervals, overlapping) the open support adds its finite
        logpdf, logcdf (left-censored), logsf (right-censored) or log(cdf(high) - cdf(low)); each
        other value 100 log(DBL_MAX). A 0-d device array (inf for invalid host parameters)."""
        loc, scale, shapes = self._unpack(theta)
        cond = and_(self._argcheck(*shapes), scale > 0)
        if is_host(cond) and not cond:
            return full((), INF, dtype=_F64)
        a, b = self._get_support(*shapes)
        u, left, right = ((v - loc) / scale for v in data.parts)
        low, high = (data.low - loc) / scale, (data.high - loc) / scale
        terms = [(u, logical_and(a < u, u < b), lambda: self._logpdf(u, *shapes)),
                 (left, a < left, lambda: self._logcdf(left, *shapes)),
                 (right, right < b, lambda: self._logsf(right, *shapes)),
                 (low, logical_and(a < high, low < b), lambda: log(self._delta_cdf(low, high, shapes)))]
        val = data.n_uncensored * (math.log(scale) if is_host(scale) else log(scale))
        for z, keep, term in terms:
            if z.shape[0]:  # an empty kind adds nothing: no pass over it
                lp = term()
                good = logical_and(keep, isfinite(lp))
                val = val + (z.shape[0] - sum_(good)) * (_LOGXMAX * 100) - sum_(where(good, lp, 0.0))
        return choose(cond, val, INF) if not is_host(cond) else val

    def _delta_cdf(self, low, high, shapes):
        """SciPy's: cdf(high) - cdf(low), or sf(low) - sf(high) where cdf(low) > 1/2 (the digits
        of the upper tail)."""
        cdf_low = self.cdf(low, *shapes)
        return where(cdf_low > 0.5, self.sf(low, *shapes) - self.sf(high, *shapes), self.cdf(high, *shapes) - cdf_low)

    def _moment_error(self, theta, x, data_moments, nan_seen):
        """SciPy's: the sum of the squared relative errors of the first k raw moments; a NaN
        distribution moment is remembered on the device (`nan_seen`) and raised after the fit."""
        loc, scale, shapes = self._unpack(theta)
        cond = and_(self._argcheck(*shapes), scale > 0)
        if is_host(cond) and not cond:
            return full((), INF, dtype=_F64)
        err = 0.0
        any_nan = False
        for i, dm in enumerate(data_moments):
            m = self.moment(i + 1, *shapes, loc=loc, scale=scale)
            any_nan = or_(any_nan, isnan(m))
            err = err + ((dm - m) / maximum(absolute(dm), 1e-8)) ** 2
        nan_seen[0] = or_(nan_seen[0], and_(cond, any_nan))
        return where(cond, err, INF) if not is_host(cond) else err

    def nnlf(self, theta, x):
        """See `scipy.stats.rv_continuous.nnlf`: a 0-d device array (inf where a parameter is
        invalid or a datum lies outside the support)."""
        if not is_host(theta) and hasattr(theta, "shape") and not isinstance(theta, numpy.ndarray):
            theta = [theta[i] for i in range(theta.shape[0])]
        else:
            theta = [float(t) if is_host(t) else t for t in theta]
        loc, scale, shapes = self._unpack(theta)
        x = as_literal_or_array(x, "scipy.stats.{}.nnlf".format(self.name)).astype(_F64, copy=False)
        cond = and_(self._argcheck(*shapes), scale > 0)
        if is_host(cond) and not cond:
            return full((), INF, dtype=_F64)
        z = (x - loc) / scale
        outside = any_(logical_not(self._support_of(z, shapes)))
        val = -sum_(self._logpdf(z, *shapes), axis=0) + x.shape[0] * (
            math.log(scale) if is_host(scale) else log(scale))
        return where(and_(cond, logical_not(outside)), val, INF)

    # -- starting values --------------------------------------------------------------------------
    def fit_loc_scale(self, data, *args):
        """See `scipy.stats.rv_continuous.fit_loc_scale`: (Lhat, Shat) as Python floats (one read)."""
        x = as_literal_or_array(data, "scipy.stats.{}.fit_loc_scale".format(self.name)).astype(_F64, copy=False)
        return self._loc_scale(summary(x.ravel()), args)

    def _loc_scale(self, summ, args):
        m, v = self.stats(*args, moments="mv")
        mu, mu2 = (float(t) for t in to_host(stack([m, v])))  # the standard moments: one read
        with numpy.errstate(all="ignore"):
            shat = numpy.sqrt(numpy.float64(summ[1]) / mu2)
            lhat = summ[0] - shat * mu
        if not numpy.isfinite(lhat):
            lhat = 0
        if not (numpy.isfinite(shat) and 0 < shat):
            shat = 1
        return lhat, shat

    def _fit_loc_scale_support(self, summ, *args):
        """SciPy's: the moment estimates, or a loc (and scale) that put the data inside the support."""
        loc_hat, scale_hat = self._loc_scale(summ, args)
        a, b = self._get_support(*args)
        if b - a <= 0:
            return loc_hat, scale_hat
        a_hat, b_hat = loc_hat + a * scale_hat, loc_hat + b * scale_hat
        data_a, data_b = summ[2], summ[3]
        if a_hat < data_a and data_b < b_hat:
            return loc_hat, scale_hat
        width = data_b - data_a
        margin = width * 0.1
        if b - a < INF:
            return (data_a - a) - margin, (width + 2 * margin) / (b - a)
        if a > -INF:
            return (data_a - a) - margin, 1
        return (data_b - b) + margin, 1

    def _fitstart(self, x, args=None):
        """SciPy's starting point (shapes 1, loc and scale from `_fit_loc_scale_support`)."""
        if args is None:
            args = (1.0,) * len(self._shape_names)
        return tuple(args) + tuple(self._fit_loc_scale_support(summary(x), *args))

    # -- fit ----------------------------------------------------------------------------------------
    def fit(self, data, *args, **kwds):
        """See `scipy.stats.rv_continuous.fit`: the objective on the device, minimized by
        cuarray's Nelder-Mead (SciPy's `optimize.fmin`, xtol = ftol = 1e-4) unless `optimizer`
        is given (then called as SciPy calls it, with host parameter vectors and float values:
        one read per evaluation). `CensoredData` takes the censored likelihood (method "MLE")."""
        own = self._fit_override is not None
        if own and isinstance(data, CensoredData):
            rule = self._censored_override
            mm = kwds.get("method", "mle").lower() == "mm"
            own = data.num_censored() == 0 and (rule == "any" or (rule == "mle" and not mm))
            data = data._uncensored if own else data
        if own:
            out = type(self)._fit_override(self, data, args, dict(kwds))
            if out is not None:
                return out
        return self._fit_generic(data, *args, **kwds)

    def _fit_generic(self, data, *args, **kwds):
        """SciPy's `rv_continuous.fit` (what a distribution's own `fit` falls back to)."""
        kwds = dict(kwds)
        method = kwds.get("method", "mle").lower()
        censored = isinstance(data, CensoredData)
        if censored:
            if method != "mle":
                raise ValueError('For censored data, the method must be "MLE".')
            if data.num_censored() == 0:
                data, censored = data._uncensored, False
        numargs = len(self._shape_names)
        if len(args) > numargs:
            raise TypeError("Too many input arguments.")
        # censored: the starting values from the endpoints and the intervals' midpoints (SciPy's)
        x = _Censored(data) if censored else fit_data(data, self.name)
        start = [None] * 2
        if len(args) < numargs or not ("loc" in kwds and "scale" in kwds):
            start = self._fitstart(data._uncensor().astype(_F64, copy=False) if censored else x)
            args += tuple(start[len(args):-2])
        args += (kwds.pop("loc", start[-2]), kwds.pop("scale", start[-1]))
        x0, func, restore, args, nan_seen = self._reduce_func(args, kwds, x)
        optimizer = kwds.pop("optimizer", None)
        if kwds:
            raise TypeError("Unknown arguments: {}.".format(kwds))
        if optimizer is None or optimizer in ("fmin", ""):
            res = minimize_neldermead(func, as_parameter(numpy.asarray(x0, dtype=float), "scipy.stats.fit"),
                                      (x,), None, lambda cb, r: False, xatol=1e-4, fatol=1e-4)
            vals, obj = to_host(res.x), res.fun  # the estimates: one read
        else:
            optimizer = _optimizer(optimizer)

            def host_func(theta, data_):
                return float(to_host(func(_host_theta(theta), data_)))  # the evaluation's one read

            vals = optimizer(host_func, x0, args=(x,), disp=0)
            obj = host_func(vals, x)
        vals = [numpy.float64(v) for v in numpy.asarray(vals, dtype=float).ravel()]
        if restore is not None:
            vals = restore(args, vals)
        vals = tuple(vals)
        flag = False if nan_seen is None else nan_seen[0]
        if flag if is_host(flag) else bool(to_host(flag)):  # MM: one read
            raise ValueError("Method of moments encountered a non-finite distribution moment and cannot "
                             "continue. Consider trying method='MLE'.")
        loc, scale, shapes = self._unpack(vals)
        if not (numpy.all(self._argcheck(*shapes)) and scale > 0):
            raise FitError("Optimization converged to parameters that are outside the range allowed by the "
                           "distribution.")
        if method == "mm" and not numpy.isfinite(obj):
            raise FitError("Optimization failed: either a data moment or fitted distribution moment is non-finite.")
        return vals

    def _reduce_func(self, args, kwds, x):
        """SciPy's `_reduce_func`: the free parameters' start x0, the objective of them, the
        function that puts them back among the fixed ones, the full argument list, and for "MM"
        the device flag of a NaN distribution moment met (None for "MLE")."""
        names = list(self._shape_names)
        for j, s in enumerate(names):
            val = fixed_value(kwds, ["f" + str(j), "f" + s, "fix_" + s])
            if val is not None:
                kwds["f" + str(j)] = val
        args = list(args)
        nargs = len(args)
        keys = ["f{}".format(n) for n in range(nargs - 2)] + ["floc", "fscale"]
        fixedn, x0 = [], []
        for n, key in enumerate(keys):
            if key in kwds:
                fixedn.append(n)
                args[n] = kwds.pop(key)
            else:
                x0.append(args[n])
        method = kwds.pop("method", "mle").lower()
        if method == "mm":
            k = len(names) + 2 - len(fixedn)
            data_moments = [sum_(x ** e) / x.shape[0] for e in range(1, k + 1)]
            nan_seen = [False]

            def objective(theta, x_):
                return self._moment_error(theta, x_, data_moments, nan_seen)
        elif method == "mle":
            nan_seen = None
            objective = self._penalized_nnlf_censored if isinstance(x, _Censored) else self._penalized_nnlf
        else:
            raise ValueError("Method '{}' not available; must be one of {}".format(method, {"mle", "mm"}))
        if len(fixedn) == nargs:
            raise ValueError("All parameters fixed. There is nothing to optimize.")

        def restore(full_args, theta):
            full_args = list(full_args)
            free = [n for n in range(nargs) if n not in fixedn]
            for i, n in enumerate(free):
                full_args[n] = theta[i]
            return full_args

        def func(theta, x_):
            if not isinstance(theta, (list, tuple)):  # a device vector: its entries as 0-d arrays
                theta = [theta[i] for i in range(theta.shape[0])]
            return objective(restore(args, theta) if fixedn else theta, x_)

        return x0, func, (restore if fixedn else None), args, nan_seen


def _optimizer(optimizer):
    """SciPy's `_fit_determine_optimizer`: a callable, or the name of a `scipy.optimize.fmin_*`."""
    if callable(optimizer):
        return optimizer
    import scipy.optimize  # optional dependency: a named optimizer is SciPy's  # noqa: PLC0415

    name = optimizer if optimizer.startswith("fmin_") else "fmin_" + optimizer
    try:
        return getattr(scipy.optimize, name)
    except AttributeError as e:
        raise ValueError("{} is not a valid optimizer".format(name)) from e
