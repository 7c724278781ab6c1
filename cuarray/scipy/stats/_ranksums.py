"""The Wilcoxon rank-sum test of scipy.stats (`ranksums`) on the device: the pooled samples ranked
by cuarray's `rankdata` along the last axis, the first sample's rank sum standardized by its null
mean and variance (no tie correction, as SciPy's), the p-value from the normal distribution
(`ndtr`). The samples broadcast against each other but along `axis`; NaNs are omitted a slice at
a time, as the k-sample tests (`_ksample`)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

from ..._manipulation.joining import concatenate
from ..._math.sums import sum as sum_
from ..special._stats import ndtr
from ._correlation import _check_alternative, _tails
from ._descriptive import rankdata
from ._ksample import _run

__all__ = ["ranksums", "RanksumsResult"]


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
