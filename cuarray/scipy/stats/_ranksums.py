"""Two-sample rank tests of scipy.stats on the device: the Wilcoxon rank-sum test (`ranksums`: the
first sample's rank sum standardized by its null mean and variance, no tie correction, as SciPy's)
and Mood's test of scale (`mood`: the first sample's sum of squared centred ranks, ties by
Mielke's averaged scores and variance, P. W. Mielke, "Note on some squared rank tests with
existing ties", Technometrics 9, 1967). The pooled samples ranked by cuarray's `rankdata` along
the last axis, the p-values from the normal distribution (`ndtr`). The samples broadcast against
each other but along `axis`; NaNs are omitted a slice at a time, as the k-sample tests
(`_ksample`)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

from ..._manipulation.joining import concatenate
from ..._creation.basic import full
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..special._stats import ndtr
from ._correlation import SignificanceResult, _check_alternative, _tails
from ._descriptive import rankdata
from ._ksample import _run

__all__ = ["ranksums", "RanksumsResult", "mood"]


class RanksumsResult(NamedTuple):
    statistic: object
    pvalue: object


def ranksums(x, y, alternative="two-sided", *, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.ranksums`. The results are float64, as SciPy's (its ranks are).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([1.1, 2.3, 0.4, 3.8, 2.9]), cuarray.array([3.5, 4.1, 5.2, 2.7])
    >>> res = stats.ranksums(x, y)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (-1.714643, 0.086411)
    """
    _check_alternative(alternative)

    def test(x, y):
        n1, n2 = x.shape[-1], y.shape[-1]
        ranks = rankdata(concatenate([x, y], axis=-1), axis=-1).astype(numpy.float64)
        s = sum_(ranks[..., :n1], axis=-1)
        z = (s - n1 * (n1 + n2 + 1) / 2.0) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0)
        return z, _tails(ndtr, lambda t: ndtr(-t), z, alternative).astype(z.dtype)
    return _run(test, RanksumsResult, (x, y), axis, nan_policy, keepdims, "ranksums")


def _mood(x, y, alternative):
    m, n = x.shape[-1], y.shape[-1]
    big_n = m + n
    dt = x.dtype
    if m == 0 or n == 0 or big_n < 3:
        nan = full(x.shape[:-1], numpy.nan, dtype=dt)
        return nan, nan
    xy = concatenate([x, y], axis=-1)
    lo = rankdata(xy, "min", axis=-1).astype(numpy.float64)
    hi = rankdata(xy, "max", axis=-1).astype(numpy.float64)
    t = hi - lo + 1  # each value's tie group: its size, its ranks lo..hi
    c = (big_n + 1) / 2.0
    # the mean of (I - c)^2 over the group's ranks: the centre's square plus the ranks' variance
    phi = ((lo + hi) / 2 - c) ** 2 + (t * t - 1) / 12
    stat = sum_(phi[..., :m], axis=-1)
    # Mielke's tie term, a sum over the groups: each value adds its group's term / its group's size
    ties = sum_((t * t - 1) * (t * t - 4 + 15 * (big_n - hi - (lo - 1)) ** 2), axis=-1)
    var = m * n * (big_n + 1.0) * (big_n ** 2 - 4) / 180 - m * n / (180 * big_n * (big_n - 1)) * ties
    z = (stat - m * (big_n * big_n - 1) / 12) / sqrt(var)
    return z.astype(dt), _tails(ndtr, lambda s: ndtr(-s), z, alternative).astype(dt)


def mood(x, y, axis=0, alternative="two-sided", *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.mood`. Ties or none, one formula (Mielke's, which reduces to Mood's
    without ties) for the whole batch.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([1.1, 2.3, 0.4, 3.8, 2.9, 5.0]), cuarray.array([2.5, 3.1, 2.7, 3.0])
    >>> res = stats.mood(x, y)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (1.85405, 0.063732)
    """
    _check_alternative(alternative)
    return _run(lambda a, b: _mood(a, b, alternative), SignificanceResult, (x, y), axis, nan_policy, keepdims,
                "mood", too_small=lambda m, n: m + n < 3)
