"""`ansari` of scipy.stats, the Ansari-Bradley test of equal scales, on the device: the pooled
samples ranked by `rankdata` along the last axis, each rank's distance from the nearer end
(min(r, N + 1 - r)) summed over the first sample (AB). The null distribution of AB without ties
(SciPy's `gscale`) is counted on the host for the two sample sizes -- a 0/1 knapsack over the N
scores, each sum's number of n-subsets -- its cumulative tables uploaded once and every slice's
p-value gathered from them on the device. The normal approximation (with SciPy's tie-corrected
variance when any slice holds ties: one read decides, as SciPy decides for the whole batch) and a
`PermutationMethod` (the scores permuted as SciPy permutes the data, `_resampling`) run on the
whole batch. The samples broadcast against each other but along `axis`; NaNs are omitted a slice
at a time, as the k-sample tests (`_ksample`)."""

from __future__ import annotations

from collections import namedtuple

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate
from ..._math.extrema import minimum
from ..._math.misc import clip, sqrt
from ..._math.rounding import ceil, floor
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..special._stats import ndtr
from ._correlation import _tails
from ._descriptive import rankdata
from ._ksample import _run
from ._resampling import independent_pvalue, is_method

__all__ = ["ansari", "AnsariResult"]

AnsariResult = namedtuple("AnsariResult", ("statistic", "pvalue"))
_METHODS = ("auto", "asymptotic", "exact")


def null_counts(n, m):
    """(the smallest AB, the number of n-subsets of the N = n + m scores min(i, N + 1 - i) giving
    each AB from it on), as SciPy's `gscale` (floats, as SciPy keeps them: exact to 2**53)."""
    big_n = n + m
    scores = sorted(min(i, big_n + 1 - i) for i in range(1, big_n + 1))
    top = sum(scores[-n:])
    count = numpy.zeros((n + 1, top + 1))
    count[0, 0] = 1.0
    for a in scores:  # each score taken or not: subsets of j + 1 from those of j
        count[1:, a:] = count[1:, a:] + count[:-1, :top + 1 - a]
    start = sum(scores[:n])
    return start, count[n, start:]


def _exact(ab, n, m, alternative):
    """SciPy's `_ABW` tails of every slice's AB: cdf at ceil(AB), sf from floor(AB) (ties give
    half-integers), gathered from the tables on the device."""
    start, freqs = null_counts(n, m)
    total = freqs.sum()
    size = freqs.size
    cdf = numpy.array([freqs[:i + 1].sum() for i in range(size)]) / total  # SciPy's sums, term for term
    sf = numpy.array([freqs[i:].sum() for i in range(size)] + [0.0]) / total
    tables = asarray(numpy.concatenate([cdf, sf]))  # one upload
    nan = isnan(ab)  # a slice propagating NaN: no index of it read
    at = where(nan, float(start), ab) - start
    lower = take(tables, clip(ceil(at), 0, size - 1).astype(numpy.int64))
    upper = take(tables, size + clip(floor(at), 0, size).astype(numpy.int64))
    if alternative == "two-sided":
        p = minimum(2.0 * minimum(lower, upper), 1.0)
    else:  # AB is small where x's scale is the larger: 'greater' is the lower tail
        p = minimum(lower if alternative == "greater" else upper, 1.0)
    return where(nan, numpy.nan, p)


def _asymptotic(ab, symrank, n, m, repeats, alternative):
    big_n = n + m
    mean = n * (big_n + 1.0) ** 2 / 4.0 / big_n if big_n % 2 else n * (big_n + 2.0) / 4.0
    if repeats:  # the tie-corrected variance, from the scores' sum of squares
        fac = sum_(symrank * symrank, axis=-1)
        if big_n % 2:
            var = m * n * (16 * big_n * fac - (big_n + 1) ** 4) / (16.0 * big_n ** 2 * (big_n - 1))
        else:
            var = m * n * (16 * fac - big_n * (big_n + 2) ** 2) / (16.0 * big_n * (big_n - 1))
    elif big_n % 2:
        var = n * m * (big_n + 1.0) * (3 + big_n ** 2) / (48.0 * big_n ** 2)
    else:
        var = m * n * (big_n + 2) * (big_n - 2.0) / 48 / (big_n - 1.0)
    z = (mean - ab) / sqrt(var)
    return _tails(ndtr, lambda t: ndtr(-t), z, alternative)


def _ansari(x, y, alternative, method):
    n, m = x.shape[-1], y.shape[-1]
    dt = x.dtype
    if n == 0 or m == 0:  # a slice emptied by nan_policy='omit'
        nan = full(x.shape[:-1], numpy.nan, dtype=dt)
        return nan, nan
    xy = concatenate([x, y], axis=-1)
    rank = rankdata(xy, axis=-1).astype(numpy.float64)
    symrank = minimum(rank, n + m - rank + 1)
    ab = sum_(symrank[..., :n], axis=-1)
    if is_method(method):  # SciPy's permutations of the pooled data: its scores move with it
        rows = int(numpy.prod(ab.shape))
        flat = symrank.reshape(rows, n + m)
        swapped = {"less": "greater", "greater": "less"}.get(alternative, alternative)
        p = independent_pvalue(flat[:, :n], flat[:, n:], lambda a, b: sum_(a, axis=-1), method, swapped,
                               ab.reshape(rows))
        return ab.astype(dt), p.reshape(ab.shape).astype(dt)
    repeats = None
    if method != "exact":  # SciPy's one decision for the batch: any tie in any slice (one read)
        # (NaN ranks, of a slice propagating NaN, are no ties: the comparison is False)
        ties = rankdata(xy, "max", axis=-1) > rankdata(xy, "min", axis=-1)
        repeats = bool(to_host(any_(ties)))
    if method == "auto":
        method = "exact" if m < 55 and n < 55 and not repeats else "asymptotic"
    if method == "exact":
        return ab.astype(dt), _exact(ab, n, m, alternative).astype(dt)
    return ab.astype(dt), _asymptotic(ab, symrank, n, m, repeats, alternative).astype(dt)


def ansari(x, y, alternative="two-sided", *, axis=0, method="auto", nan_policy="propagate", keepdims=False):
    """See `scipy.stats.ansari` (SciPy 1.18's, with `method`). The exact null distribution is
    counted on the host (a table for the two sample sizes, one upload); a `PermutationMethod`
    draws SciPy's permutations on the host from the method's generator, so a seeded method gives
    SciPy's p-value.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([1.1, 2.3, 0.4, 3.8, 2.9, 5.0]), cuarray.array([2.5, 3.1, 2.7, 3.0, 2.2])
    >>> res = stats.ansari(x, y)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (15.0, 0.138528)
    """
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError("'alternative' must be 'two-sided', 'greater', or 'less'.")
    if not is_method(method) and str(method) not in _METHODS:
        raise ValueError("`method` must be one of {'auto', 'asymptotic', 'exact'} or an instance of "
                         "`PermutationMethod`.")
    if is_method(method) == "monte_carlo":
        raise ValueError("`method` must be one of {'auto', 'asymptotic', 'exact'} or an instance of "
                         "`PermutationMethod`.")
    return _run(lambda a, b: _ansari(a, b, alternative, method), AnsariResult, (x, y), axis, nan_policy,
                keepdims, "ansari")
