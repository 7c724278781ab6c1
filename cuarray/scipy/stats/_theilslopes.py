"""The Theil-Sen estimator of scipy.stats on the device (Theil 1950, Sen 1968): the slopes of every
pair of points (the n(n-1)/2 pairs i < j of each slice gathered at once), their median over the
pairs with distinct x by one sort along the pairs, the intercept from the medians of y and x (or of
y - slope * x), and Sen's confidence interval: the variance (2.6) with the tie terms from each
value's tie-group size (`rankdata`'s 'max' less 'min' plus one), the interval's ends read from the
sorted slopes at their ranks. Medians as SciPy 1.18's `quantile(..., 0.5)`; the slices and NaNs as
the k-sample tests (`_ksample`); no host read."""

from __future__ import annotations

import math
import statistics
from typing import NamedTuple

import numpy

from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take, take_along_axis
from ..._logic.content import isfinite, isnan
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._math.extrema import maximum, minimum
from ..._math.misc import clip, sqrt
from ..._math.rounding import around
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.sorting import sort
from ._descriptive import rankdata
from ._ksample import _run

__all__ = ["theilslopes", "TheilslopesResult", "siegelslopes", "SiegelslopesResult"]


class TheilslopesResult(NamedTuple):
    slope: object
    intercept: object
    low_slope: object
    high_slope: object


def _median_sorted(s, m):
    """SciPy's `quantile(., 0.5)` ('linear': half of each middle value) of the first `m` values of
    each sorted row (`m` an int, or an int array of the rows' shape); NaN where m is 0."""
    if isinstance(m, int):
        return 0.5 * s[..., (m - 1) // 2] + 0.5 * s[..., m // 2]
    lo = take_along_axis(s, maximum((m - 1) // 2, 0)[..., None], axis=-1)[..., 0]
    hi = take_along_axis(s, maximum(m // 2, 0)[..., None], axis=-1)[..., 0]
    return where(m > 0, 0.5 * lo + 0.5 * hi, numpy.nan).astype(s.dtype)


def _ties(a):
    """Sen's tie term: the sum over tie groups of k(k-1)(2k+5), as each value's (t-1)(2t+5)."""
    t = rankdata(a, method="max", axis=-1) - rankdata(a, method="min", axis=-1) + 1
    return sum_((t - 1) * (2 * t + 5), axis=-1)


def _z(alpha):
    """ndtri(alpha / 2) on the host (a parameter, not data)."""
    half = alpha / 2.0
    if half <= 0:
        return -math.inf
    return statistics.NormalDist().inv_cdf(half) if half < 1 else math.inf


def theilslopes(y, x=None, alpha=0.95, method="separate", *, axis=None, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.theilslopes` (SciPy 1.18's: the slopes of the pairs i < j as
    (y_i - y_j) / (x_i - x_j)). The pairs' slopes take n(n-1)/2 values of memory per slice.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([0., 1, 2, 3, 4, 5])
    >>> y = cuarray.array([1., 2.5, 4.5, 7.5, 9, 10.5])
    >>> res = stats.theilslopes(y, x)
    >>> float(res.slope), float(res.intercept)
    (2.0, 1.0)
    >>> float(res.low_slope), float(res.high_slope)
    (1.5, 2.5)
    """
    if method not in ("joint", "separate"):
        raise ValueError(f"method must be either 'joint' or 'separate'. '{method}' is invalid.")
    alpha = float(alpha)
    z = _z(1.0 - alpha if alpha > 0.5 else alpha)

    def test(y, x=None):
        n = y.shape[-1]
        dt = y.dtype
        if x is None:
            x = arange(n, dtype=dt) * full(y.shape, 1, dtype=dt)
        if n < 2:
            nan = full(y.shape[:-1], numpy.nan, dtype=dt)
            return nan, nan, nan, nan
        i, j = numpy.triu_indices(n, 1)
        i, j = asarray(i), asarray(j)
        dx = take(x, i, axis=-1) - take(x, j, axis=-1)
        dy = take(y, i, axis=-1) - take(y, j, axis=-1)
        slopes = sort(dy / where(dx == 0, numpy.nan, dx), axis=-1)  # equal x: no slope (NaN sorts last)
        slope = _median_sorted(slopes, sum_(~isnan(slopes), axis=-1))
        if method == "joint":
            inter = _median_sorted(sort(y - slope[..., None] * x, axis=-1), n)
        else:
            inter = _median_sorted(sort(y, axis=-1), n) - slope * _median_sorted(sort(x, axis=-1), n)
        nt = sum_(isfinite(slopes), axis=-1).astype(dt)  # N in Sen (1968)
        sigsq = 1 / 18.0 * (n * (n - 1) * (2 * n + 5) - _ties(x) - _ties(y))  # Sen's (2.6)
        sigma = sqrt(maximum(sigsq, 0))
        upper = minimum(around((nt - z * sigma) / 2.0).astype(numpy.int64), nt.astype(numpy.int64) - 1)
        lower = maximum(around((nt + z * sigma) / 2.0).astype(numpy.int64) - 1, 0)
        ends = stack([lower, upper], axis=-1)
        ends = where(ends < 0, ends + slopes.shape[-1], ends)  # no finite slope: SciPy's index -1
        ends = clip(ends, 0, slopes.shape[-1] - 1)  # a NaN slice's garbage ranks stay in bounds (masked below)
        delta = where((sigsq < 0)[..., None], numpy.nan, take_along_axis(slopes, ends, axis=-1)).astype(dt)
        out = [slope, inter, delta[..., 0], delta[..., 1]]
        bad = any_(isnan(y) | isnan(x), axis=-1)  # 'propagate': a NaN spoils its slice
        return tuple(where(bad, numpy.nan, r).astype(dt) for r in out)

    samples = (y,) if x is None else (y, x)
    return _run(test, TheilslopesResult, samples, axis, nan_policy, keepdims, "theilslopes", paired=True, too_small=1)


class SiegelslopesResult(NamedTuple):
    slope: object
    intercept: object


def _nanmedian_rows(a):
    """SciPy's `quantile(., 0.5, nan_policy='omit')` along the last axis (NaN sorts last)."""
    return _median_sorted(sort(a, axis=-1), sum_(~isnan(a), axis=-1))


def siegelslopes(y, x=None, method="hierarchical", *, axis=None, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.siegelslopes` (Siegel 1982: the median over the points of each point's
    median slope to the others). All n^2 slopes of a slice are formed at once (n^2 values of
    memory a slice) and their row medians taken by one sort; no host read.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.siegelslopes(cuarray.array([1., 3, 5, 7, 9, 30]))  # x = 0, 1, ..., 5
    >>> float(res.slope), float(res.intercept)
    (2.0, 1.0)
    """
    if method not in ("hierarchical", "separate"):
        raise ValueError(f"method must be either 'hierarchical' or 'separate'. '{method}' is invalid.")

    def test(y, x=None):
        n = y.shape[-1]
        dt = y.dtype
        if x is None:
            x = arange(n, dtype=dt) * full(y.shape, 1, dtype=dt)
        dx = x[..., :, None] - x[..., None, :]
        slopes = (y[..., :, None] - y[..., None, :]) / where(dx == 0, numpy.nan, dx)  # equal x: no slope
        slope = _median_sorted(sort(_nanmedian_rows(slopes), axis=-1), n)
        if method == "hierarchical":
            inter = _median_sorted(sort(y - slope[..., None] * x, axis=-1), n)
        else:
            inter = _median_sorted(sort(_nanmedian_rows(y[..., :, None] - slopes * x[..., :, None]), axis=-1), n)
        bad = any_(isnan(y) | isnan(x), axis=-1)  # 'propagate': a NaN spoils its slice
        return tuple(where(bad, numpy.nan, r).astype(dt) for r in (slope, inter))

    samples = (y,) if x is None else (y, x)
    return _run(test, SiegelslopesResult, samples, axis, nan_policy, keepdims, "siegelslopes", paired=True, too_small=1)
