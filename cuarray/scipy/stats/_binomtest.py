"""`binomtest` of scipy.stats on the device, elementwise over broadcast `k`, `n`, `p` as SciPy
1.18's: invalid arguments give NaN; the tails from `binom`'s cdf and sf (bdtr/bdtrc), the
two-sided p-value by SciPy's binary search for the other side's terms no more probable than the
observed one (relative tolerance 1e-7), run on the whole array a fixed number of halvings (the
count from one read of the largest `n`; a search that has ended stays put, as SciPy's scalar
loop). `proportion_ci`: 'exact' (Clopper-Pearson) by `find_root` on the tails, 'wilson' and
'wilsoncc' (Newcombe 1998) by formula."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.basic import full_like, ones_like, zeros_like
from ..._manipulation.dims import broadcast_arrays
from ..._manipulation.joining import stack
from ..._math.extrema import minimum
from ..._math.misc import sqrt
from ..._math.rounding import ceil, floor
from ..._sorting.searching import where
from ..optimize._chandrupatla import find_root
from ..special._stats import ndtri
from ._correlation import ConfidenceInterval
from ._distn_discrete import _host_width, _steps, binom

__all__ = ["binomtest", "BinomTestResult"]

_RERR = 1 + 1e-7  # SciPy's relative tolerance for "no more probable than the observed k"


def _pmf(x, n, p):
    return binom._pmf(floor(x), n, p)


def _cdf(x, n, p):
    return where(x >= 0, binom._cdf(floor(x), n, p), 0.0)


def _sf(x, n, p):
    return where(x >= 0, binom._sf(floor(x), n, p), 1.0)


class BinomTestResult:
    """See SciPy's `BinomTestResult`: k, n, alternative, statistic (alias
    `proportion_estimate`), pvalue; `proportion_ci`."""

    def __init__(self, k, n, alternative, statistic, pvalue, host_kn):
        self._k, self._n = k, n
        self.k, self.n = host_kn if host_kn is not None else (k, n)
        self.alternative = alternative
        self.statistic = statistic
        self.pvalue = pvalue
        self.proportion_estimate = statistic

    def __repr__(self):
        return (f"BinomTestResult(k={self.k}, n={self.n}, alternative={self.alternative!r}, "
                f"statistic={self.statistic}, pvalue={self.pvalue})")

    def proportion_ci(self, confidence_level=0.95, method="exact"):
        """See SciPy's `BinomTestResult.proportion_ci`."""
        if method not in ("exact", "wilson", "wilsoncc"):
            raise ValueError(f"method ('{method}') must be one of 'exact', 'wilson' or 'wilsoncc'.")
        if not 0 <= confidence_level <= 1:
            raise ValueError(f"confidence_level ({confidence_level}) must be in the interval [0, 1].")
        k, n = self._k, self._n
        if method == "exact":
            return ConfidenceInterval(*_exact_ci(k, n, confidence_level, self.alternative))
        return ConfidenceInterval(*_wilson_ci(k, n, confidence_level, self.alternative, method == "wilsoncc"))


def _exact_ci(k, n, cl, alternative):
    """Clopper-Pearson: the p at which each tail is alpha, by `find_root` on [0, 1]."""
    alpha = (1 - cl) / 2 if alternative == "two-sided" else 1 - cl
    init = (zeros_like(k), ones_like(k))
    low = zeros_like(k) if alternative == "less" else \
        find_root(lambda q, k, n: _sf(k - 1, n, q) - alpha, init, args=(k, n)).x
    high = ones_like(k) if alternative == "greater" else \
        find_root(lambda q, k, n: _cdf(k, n, q) - alpha, init, args=(k, n)).x
    return where(k == 0, 0.0, low).astype(k.dtype), where(k == n, 1.0, high).astype(k.dtype)


def _wilson_ci(k, n, cl, alternative, correction):
    """Wilson's score interval, with continuity correction for 'wilsoncc' (Newcombe 1998)."""
    z = ndtri(full_like(k, 0.5 + 0.5 * cl if alternative == "two-sided" else cl))
    p = k / n
    q = 1 - p
    denom = 2 * (n + z * z)
    center = (2 * n * p + z * z) / denom
    if correction:
        dlo = (1 + z * sqrt(z * z - 2 - 1 / n + 4 * p * (n * q + 1))) / denom
        dhi = (1 + z * sqrt(z * z + 2 - 1 / n + 4 * p * (n * q - 1))) / denom
    else:
        dlo = dhi = z / denom * sqrt(4 * n * p * q + z * z)
    low = zeros_like(k) if alternative == "less" else where(k == 0, 0.0, center - dlo)
    high = ones_like(k) if alternative == "greater" else where(k == n, 1.0, center + dhi)
    return low.astype(k.dtype), high.astype(k.dtype)


def _search(a, target, lo, hi, steps):
    """SciPy's `_binary_search_for_binom_tst` on each element: the largest x in [lo, hi] with
    a(x) <= target (a ascending there), lo - 1 where there is none."""
    for _ in range(steps):
        active = lo < hi
        mid = lo + floor((hi - lo) / 2)
        midval = a(mid)
        lo, hi = (where(active & (midval < target), mid + 1, where(active & (midval == target), mid, lo)),
                  where(active & (midval > target), mid - 1, where(active & (midval == target), mid, hi)))
    return where(a(lo) <= target, lo, lo - 1)


def _two_sided(k, n, p):
    d = _pmf(k, n, p)
    lt = k < p * n  # the observed k below the mode: the other tail is above it
    sign = where(lt, -1.0, 1.0)
    lo = where(lt, ceil(p * n), 0.0)
    hi = where(lt, n, floor(p * n))
    ix = _search(lambda x: sign * _pmf(x, n, p), sign * d * _RERR, lo, hi, _steps(_host_width(n)))
    # above the mode: the terms from ix on (ix itself where it equals the bound, SciPy's rare case)
    y = n - ix + (d * _RERR == _pmf(ix, n, p)).astype(ix.dtype)
    upper = _cdf(k, n, p) + _sf(n - y, n, p)
    lower = _cdf(ix, n, p) + _sf(k - 1, n, p)
    return minimum(where(lt, upper, lower), 1.0)


def binomtest(k, n, p=0.5, alternative="two-sided"):
    """See `scipy.stats.binomtest`. As SciPy 1.18's: `k`, `n`, `p` broadcast, computed elementwise
    on the device, invalid values give NaN (SciPy 1.17 raises ValueError for a scalar). `k` and
    `n` of a 0-d result are read to the host as SciPy's Python ints (one read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.binomtest(3, 15, 0.1)
    >>> round(float(res.pvalue), 6), round(float(res.statistic), 6)
    (0.184061, 0.2)
    >>> ci = res.proportion_ci(confidence_level=0.95)
    >>> round(float(ci.low), 6), round(float(ci.high), 6)
    (0.043312, 0.480891)
    """
    raw = (k, n, p)
    arrays = [as_literal_or_array(v, "binomtest") for v in raw]
    dts = [a.dtype for a, v in zip(arrays, raw) if type(v) not in (int, float, bool)]  # Python's are weak
    dt = numpy.result_type(*dts) if dts else numpy.dtype(numpy.float64)
    if dt.kind not in "biuf":
        raise TypeError(f"binomtest: `k`, `n` and `p` must be real numbers, not {dt}")
    dt = dt if dt.kind == "f" else numpy.dtype(numpy.float64)
    k, n, p = broadcast_arrays(*(a.astype(dt) for a in arrays))
    valid = (k >= 0) & (k <= n) & (k == floor(k)) & (n >= 1) & (n == floor(n)) & (p >= 0) & (p <= 1)
    k, n, p = (where(valid, v, numpy.nan).astype(dt) for v in (k, n, p))
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"alternative ('{alternative}') not recognized; \nmust be 'two-sided', 'less' or 'greater'")
    if alternative == "less":
        pval = _cdf(k, n, p)
    elif alternative == "greater":
        pval = _sf(k - 1, n, p)
    else:
        pval = _two_sided(k, n, p)
    statistic = where(valid, k / n, numpy.nan).astype(dt)
    pval = where(valid, pval, numpy.nan).astype(dt)
    host_kn = None
    if statistic.ndim == 0:  # SciPy's Python ints (NaN where invalid): one read
        host_kn = tuple(v if math.isnan(v) else int(v) for v in numpy.asarray(to_host(stack([k, n]))).tolist())
    return BinomTestResult(k, n, alternative, statistic, pval, host_kn)
