"""anderson of scipy.stats (the one-sample Anderson-Darling test for a family of distributions) on
the device: the sample sorted, the family's parameters estimated (normal: mean and standard
deviation; exponential: mean; logistic: the likelihood equations solved by SciPy's `fsolve` from
SciPy's start, each evaluation two sums over the data on the device and one read of them; Gumbel:
cuarray's `gumbel_r`/`gumbel_l` fit, SciPy's), A^2 from the fitted logcdf and logsf summed on the
device. The critical values are Stephens' tables scaled for n, as SciPy's (M. A. Stephens, "EDF
Statistics for Goodness of Fit and Some Comparisons", JASA 69, 1974; "Goodness of Fit for the
Extreme Value Distribution", Biometrika 64, 1977; "Tests of Fit for the Logistic Distribution
Based on the Empirical Distribution Function", Biometrika 66, 1979); `method='interpolate'`
interpolates the p-value in them on the host after one read of A^2."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._manipulation.joining import stack
from ..._math.explog import exp
from ..._math.sums import sum as sum_
from ..._sorting.sorting import sort
from ..._statistics.averages import mean, std
from ._correlation import SignificanceResult
from ._distn_continuous import expon, gumbel_l, gumbel_r, logistic, norm

__all__ = ["anderson", "AndersonResult"]

_AVALS = {  # the tables' asymptotic critical values (SciPy's _Avals_*)
    "norm": numpy.array([0.561, 0.631, 0.752, 0.873, 1.035]),
    "expon": numpy.array([0.916, 1.062, 1.321, 1.591, 1.959]),
    "gumbel": numpy.array([0.474, 0.637, 0.757, 0.877, 1.038]),
    "logistic": numpy.array([0.426, 0.563, 0.660, 0.769, 0.906, 1.010]),
}
_DISTS = {"norm": norm, "expon": expon, "logistic": logistic, "gumbel_r": gumbel_r, "gumbel_l": gumbel_l}
_NAMES = {"norm", "expon", "gumbel_l", "gumbel_r", "logistic", "weibull_min"}  # SciPy's
_FUTURE = ("As of SciPy 1.17, users must choose a p-value calculation method by providing the `method` parameter. "
           "`method='interpolate'` interpolates the p-value from pre-calculated tables; `method` may also be an "
           "instance of `MonteCarloMethod` to approximate the p-value via Monte Carlo simulation. When `method` is "
           "specified, the result object will include a `pvalue` attribute and not attributes `critical_value`, "
           "`significance_level`, or `fit_result`. Beginning in 1.19.0, these other attributes will no longer be "
           "available, and a p-value will always be computed according to one of the available `method` options.")
_FITTED = "`anderson` successfully fit the distribution to the data."


class FitParams(NamedTuple):
    loc: object
    scale: object


class FitResult:
    """SciPy's `FitResult` of `anderson`: `params` (loc, scale), `success`, `message` (without
    SciPy's `nllf` and `plot`)."""

    def __init__(self, params):
        self.params, self.success, self.message = params, True, _FITTED

    def __repr__(self):
        return f"  params: {self.params!r}\n success: {self.success}\n message: {self.message!r}"


class AndersonResult(tuple):
    """See SciPy's `AndersonResult`: unpacks as (statistic, critical_values, significance_level),
    with `fit_result`."""

    def __new__(cls, statistic, critical_values, significance_level, *, fit_result):
        self = tuple.__new__(cls, (statistic, critical_values, significance_level))
        self.fit_result = fit_result
        return self

    statistic = property(lambda self: self[0])
    critical_values = property(lambda self: self[1])
    significance_level = property(lambda self: self[2])

    def __repr__(self):
        return "AndersonResult(statistic={!r}, critical_values={!r}, significance_level={!r}, fit_result={!r})".format(
            *self, self.fit_result)


def _logistic_fit(x, n):
    """SciPy's: the logistic likelihood equations solved by `fsolve` (xtol 1e-5) from the mean and
    the standard deviation; each evaluation two sums on the device and one read."""
    from scipy.optimize import fsolve  # host work: SciPy's MINPACK hybrd, so its iterates are SciPy's

    def equations(ab):
        # in the dtype SciPy's NumPy arithmetic takes: the first call (from the start, in the
        # sample's dtype) sets fsolve's finite-difference step by that dtype's eps, the rest are
        # float64
        tmp = (x.astype(numpy.result_type(x.dtype, ab.dtype)) - float(ab[0])) / float(ab[1])
        tmp2 = exp(tmp)
        return to_host(stack([sum_(1.0 / (1 + tmp2)) - 0.5 * n, sum_(tmp * (1.0 - tmp2) / (1 + tmp2)) + n]))

    start = to_host(stack([mean(x, axis=0), std(x, ddof=1, axis=0)]))  # one read
    return fsolve(equations, start, xtol=1e-5)


def anderson(x, dist="norm", *, method=None):
    """See `scipy.stats.anderson`. `dist='weibull_min'` and a `MonteCarloMethod` raise
    NotImplementedError; `x` must be one-dimensional; `critical_values` and
    `significance_level` are NumPy arrays (constants of n), `fit_result` holds `params`,
    `success` and `message`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5, 0.8, 2.1, -0.7])
    >>> res = stats.anderson(x, method='interpolate')
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.12697, 0.15)
    """
    dist = dist.lower()
    if dist in {"extreme1", "gumbel"}:
        dist = "gumbel_l"
    if dist not in _NAMES:
        raise ValueError(f"Invalid distribution; dist must be in {_NAMES}.")
    if dist == "weibull_min":
        raise NotImplementedError("anderson(dist='weibull_min') is not implemented in cuarray")
    if method is not None and method != "interpolate":
        if type(method).__name__ == "MonteCarloMethod":
            raise NotImplementedError("anderson with a MonteCarloMethod is not implemented in cuarray")
        raise ValueError("`method` must be either 'interpolate' or an instance of `MonteCarloMethod`.")
    x = as_literal_or_array(x, "anderson")
    if x.dtype.kind not in "biuf":
        raise TypeError(f"anderson: the sample must be real numbers, not {x.dtype}")
    if x.ndim != 1:
        raise ValueError("anderson: the sample must be one-dimensional")
    n = x.shape[0]
    if n == 0:
        raise ZeroDivisionError("float division by zero")  # SciPy's, from its critical values
    y = sort(x)
    if dist == "norm":
        xbar, s = mean(x, axis=0), std(x, ddof=1, axis=0)
        w, params = (y - xbar) / s, (xbar, s)
        sig, critical = numpy.array([15, 10, 5, 2.5, 1]), numpy.around(_AVALS["norm"] / (1.0 + 0.75 / n + 2.25 / n / n), 3)
    elif dist == "expon":
        xbar = mean(x, axis=0)
        w, params = y / xbar, (0.0, xbar)
        sig, critical = numpy.array([15, 10, 5, 2.5, 1]), numpy.around(_AVALS["expon"] / (1.0 + 0.6 / n), 3)
    elif dist == "logistic":
        sol = _logistic_fit(x, n)
        w, params = (y - sol[0]) / sol[1], (sol[0], sol[1])
        sig = numpy.array([25, 10, 5, 2.5, 1, 0.5])
        critical = numpy.around(_AVALS["logistic"] / (1.0 + 0.25 / n), 3)
    else:
        loc, scale = _DISTS[dist].fit(x)
        w, params = (y - loc) / scale, (loc, scale)
        sig = numpy.array([25, 10, 5, 2.5, 1])
        critical = numpy.around(_AVALS["gumbel"] / (1.0 + 0.2 / numpy.sqrt(n)), 3)
    family = _DISTS[dist]
    logcdf, logsf = family.logcdf(w), family.logsf(w)
    i = arange(1, n + 1)
    a2 = -n - sum_((2 * i - 1.0) / n * (logcdf + logsf[::-1]), axis=0)
    if method is None:
        warnings.warn(_FUTURE, FutureWarning, stacklevel=2)
        # SciPy's parameters are one NumPy array of them: their common dtype
        dt = numpy.result_type(*(getattr(p, "dtype", numpy.float64) for p in params))
        fit = FitResult(FitParams(*(asarray(p).astype(dt) for p in params)))
        return AndersonResult(a2, critical, sig.astype(numpy.float64), fit_result=fit)
    p = numpy.interp(float(to_host(a2)), critical, sig / 100)  # the one read
    return SignificanceResult(a2, asarray(numpy.float64(p)))
