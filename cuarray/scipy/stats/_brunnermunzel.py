"""The Brunner-Munzel test of scipy.stats on the device (Brunner & Munzel, Biometrical Journal 42
(2000) 17-25): the ranks of the pooled and of each sample by cuarray's `rankdata` along the last
axis, the variance estimates and the statistic by reductions, the p-value from Student's t with
the Satterthwaite-type degrees of freedom (`stdtr`) or from the normal distribution (`ndtr`). The
samples broadcast against each other but along `axis` and NaNs are omitted a slice at a time, as
the k-sample tests (`_ksample`)."""

from __future__ import annotations

import warnings
from typing import NamedTuple

from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._statistics.averages import mean
from ..special._stats import ndtr, stdtr
from ._correlation import _check_alternative, _tails
from ._descriptive import rankdata
from ._ksample import _run

__all__ = ["brunnermunzel", "BrunnerMunzelResult"]

_UNDEFINED_DF = ("p-value cannot be estimated with `distribution='t' because degrees of freedom parameter is "
                 "undefined (0/0). Try using `distribution='normal'")


class BrunnerMunzelResult(NamedTuple):
    statistic: object
    pvalue: object


def _deviation(pooled, own):
    """The placements' spread: each value's pooled rank less its rank within its own sample, about
    the mean of that difference (Brunner and Munzel's S^2, times n - 1)."""
    d = pooled - own - mean(pooled, axis=-1, keepdims=True) + mean(own, axis=-1, keepdims=True)
    return sum_(d * d, axis=-1)


def brunnermunzel(x, y, alternative="two-sided", distribution="t", nan_policy="propagate", *, axis=0, keepdims=False):
    """See `scipy.stats.brunnermunzel`. With `distribution='t'`, SciPy's warning for undefined
    degrees of freedom (0/0) reads one flag from the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x1 = cuarray.array([1., 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 1, 1])
    >>> x2 = cuarray.array([3., 3, 4, 3, 1, 2, 3, 1, 1, 5, 4])
    >>> res = stats.brunnermunzel(x1, x2)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (3.137467, 0.005786)
    """
    if distribution not in ("t", "normal"):
        raise ValueError("distribution should be 't' or 'normal'")
    _check_alternative(alternative)

    def test(x, y):
        nx, ny = float(x.shape[-1]), float(y.shape[-1])
        pooled = rankdata(concatenate([x, y], axis=-1), axis=-1)
        rx, ry = pooled[..., :x.shape[-1]], pooled[..., x.shape[-1]:]
        sx = _deviation(rx, rankdata(x, axis=-1)) / (nx - 1)
        sy = _deviation(ry, rankdata(y, axis=-1)) / (ny - 1)
        spread = nx * sx + ny * sy
        w = nx * ny * (mean(ry, axis=-1) - mean(rx, axis=-1)) / ((nx + ny) * sqrt(spread))
        if distribution == "normal":
            return w, _tails(ndtr, lambda s: ndtr(-s), -w, alternative).astype(w.dtype)
        df_numer = spread * spread
        df_denom = (nx * sx) ** 2 / (nx - 1) + (ny * sy) ** 2 / (ny - 1)
        if bool((any_(df_numer == 0) & any_(df_denom == 0)).get()):  # SciPy's warning: one read
            warnings.warn(_UNDEFINED_DF, RuntimeWarning, stacklevel=4)
        df = df_numer / df_denom
        return w, _tails(lambda s: stdtr(df, s), lambda s: stdtr(df, -s), -w, alternative).astype(w.dtype)
    return _run(test, BrunnerMunzelResult, (x, y), axis, nan_policy, keepdims, "brunnermunzel")
