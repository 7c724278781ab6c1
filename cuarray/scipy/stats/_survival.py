"""`ecdf` (SciPy's scipy/stats/_survival.py): the empirical CDF and SF of a sample, or the
Kaplan-Meier estimate of right-censored data, with Greenwood's ("linear") and the exponential
Greenwood ("log-log") confidence intervals (Sawyer, "The Greenwood and Exponential Greenwood
Confidence Intervals in Survival Analysis"). The sort, the counts at the unique times, the
product-limit estimate and `evaluate`'s step lookup run on the device; `confidence_interval`
reads one flag (SciPy's warning where the formula is undefined)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._logic.ops import logical_or
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate
from ..._math.explog import exp, log
from ..._math.misc import clip, sqrt
from ..._math.sums_scan import cumprod, cumsum, diff
from ..._sets.unique import unique
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import argsort
from ..special._stats import ndtri
from ._censored import CensoredData
from ._correlation import ConfidenceInterval

_F64 = numpy.dtype(numpy.float64)


@dataclass
class EmpiricalDistributionFunction:
    """See SciPy's `EmpiricalDistributionFunction` (`scipy.stats.ecdf`'s `cdf` and `sf`):
    `quantiles` and `probabilities` are device arrays; no `plot`."""

    quantiles: object
    probabilities: object
    _n: object = field(repr=False)
    _d: object = field(repr=False)
    _sf: object = field(repr=False)
    _kind: str = field(repr=False)

    def __init__(self, q, p, n, d, kind):
        self.probabilities = p
        self.quantiles = q
        self._n = n
        self._d = d
        self._sf = p if kind == "sf" else 1 - p
        self._kind = kind
        f0 = 1.0 if kind == "sf" else 0.0  # the value left of every quantile
        # the steps with their values at -inf and +inf (SciPy's `interp1d(kind='previous')` table)
        self._x = concatenate((full((1,), -numpy.inf, dtype=_F64), q.astype(_F64, copy=False),
                               full((1,), numpy.inf, dtype=_F64)))
        self._y = concatenate((full((1,), f0, dtype=_F64), p.astype(_F64, copy=False),
                               full((1,), 1.0 - f0, dtype=_F64)))

    def evaluate(self, x):
        """See SciPy's `EmpiricalDistributionFunction.evaluate`: the value of the last step at
        or left of each x (the value at +inf for NaN, as SciPy's); a device array of x's shape."""
        x = as_literal_or_array(x, "scipy.stats.EmpiricalDistributionFunction.evaluate").astype(_F64, copy=False)
        idx = clip(searchsorted(self._x, x, side="right") - 1, 0, self._x.shape[0] - 1)
        return where(isnan(x), self._y[-1], take(self._y, idx))

    def confidence_interval(self, confidence_level=0.95, *, method="linear"):
        """See SciPy's `EmpiricalDistributionFunction.confidence_interval`: `low` and `high` as
        `EmpiricalDistributionFunction`s; one read (whether any bound is NaN, SciPy's warning)."""
        if self._n is None:
            raise NotImplementedError("Confidence interval bounds do not implement a `confidence_interval` method.")
        methods = {"linear": self._linear_ci, "log-log": self._loglog_ci}
        if method.lower() not in methods:
            raise ValueError("`method` must be one of {}.".format(set(methods)))
        confidence_level = numpy.asarray(confidence_level)[()]
        if confidence_level.shape or not (0 <= confidence_level <= 1):
            raise ValueError("`confidence_level` must be a scalar between 0 and 1.")
        with numpy.errstate(divide="ignore", invalid="ignore"):  # n == d and sf == 0 are the formulas' (SciPy's)
            low, high = methods[method.lower()](float(confidence_level))
        if bool(to_host(any_(logical_or(isnan(low), isnan(high))))):  # the one read
            warnings.warn("The confidence interval is undefined at some observations. This is a feature of the "
                          "mathematical formula used, not an error in its implementation.", RuntimeWarning,
                          stacklevel=2)
        low, high = clip(low, 0, 1), clip(high, 0, 1)
        return ConfidenceInterval(EmpiricalDistributionFunction(self.quantiles, low, None, None, self._kind),
                                  EmpiricalDistributionFunction(self.quantiles, high, None, None, self._kind))

    def _greenwood_sum(self):
        """The cumulative sum of d / (n (n - d)) (inf where n == d, as SciPy's)."""
        n = self._n.astype(_F64)
        return cumsum(self._d / (n * (n - self._d)))

    def _z(self, confidence_level):
        return ndtri(full((), 0.5 + confidence_level / 2, dtype=_F64))

    def _linear_ci(self, confidence_level):
        z_se = self._z(confidence_level) * sqrt(self._sf ** 2 * self._greenwood_sum())
        return self.probabilities - z_se, self.probabilities + z_se

    def _loglog_ci(self, confidence_level):
        log_sf = log(self._sf)
        z_se = self._z(confidence_level) * sqrt(1 / log_sf ** 2 * self._greenwood_sum())
        lnl_points = log(-log_sf)
        low, high = exp(-exp(lnl_points + z_se)), exp(-exp(lnl_points - z_se))
        if self._kind == "cdf":
            low, high = 1 - high, 1 - low
        return low, high


@dataclass
class ECDFResult:
    """See SciPy's `ECDFResult`: `cdf` and `sf`, `EmpiricalDistributionFunction`s."""

    cdf: EmpiricalDistributionFunction
    sf: EmpiricalDistributionFunction

    def __init__(self, q, cdf, sf, n, d):
        self.cdf = EmpiricalDistributionFunction(q, cdf, n, d, "cdf")
        self.sf = EmpiricalDistributionFunction(q, sf, n, d, "sf")


def ecdf(sample):
    """See `scipy.stats.ecdf`. `sample` is a 1-D device array (a NumPy array raises TypeError) or
    a `CensoredData` of uncensored and right-censored values; the result's arrays are on the
    device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.ecdf(cuarray.array([1., 3., 2., 2.]))
    >>> res.cdf.quantiles
    array([1., 2., 3.])
    >>> res.cdf.probabilities
    array([0.25, 0.75, 1.  ])
    """
    if not isinstance(sample, CensoredData):
        try:
            sample = CensoredData(uncensored=sample)
        except ValueError as e:
            raise type(e)(str(e).replace("uncensored", "sample")) from e
    if sample.num_censored() == 0:
        res = _ecdf_uncensored(sample._uncensor())
    elif sample.num_censored() == sample._right.shape[0]:
        res = _ecdf_right_censored(sample)
    else:
        raise NotImplementedError("Currently, only uncensored and right-censored data is supported.")
    return ECDFResult(*res)


def _ecdf_uncensored(sample):
    """The unique values, the fraction at or below each (cdf) and above (sf), the number not
    below each (at risk) and the count of each."""
    x, counts = unique(sample, return_counts=True)
    events = cumsum(counts)
    n = sample.shape[0]
    cdf = events / n
    at_risk = concatenate((full((1,), n, dtype=events.dtype), n - events[:-1]))
    return x, cdf, 1 - cdf, at_risk, counts


def _ecdf_right_censored(sample):
    """Kaplan-Meier: over the unique times (deaths and losses) sorted, the number at risk at the
    first of each, the deaths at each, and the product of (n - d) / n up to each."""
    tod, tol = sample._uncensored, sample._right
    times = concatenate((tod, tol))
    died = concatenate((full((tod.shape[0],), 1, dtype=numpy.int64), full((tol.shape[0],), 0, dtype=numpy.int64)))
    i = argsort(times)
    times, died = take(times, i), take(died, i)
    at_risk = arange(times.shape[0], 0, -1)
    j = diff(times, prepend=-numpy.inf, append=numpy.inf) > 0
    j_l, j_r = j[:-1], j[1:]  # the first and the last of each unique time
    t, n = times[j_l], at_risk[j_l]
    d = diff(cumsum(died)[j_r], prepend=0)
    sf = cumprod((n - d) / n)
    return t, 1 - sf, sf, n, d
