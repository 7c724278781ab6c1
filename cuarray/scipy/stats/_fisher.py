"""`fisher_exact` of scipy.stats. A 2 x 2 table is four counts and its test a walk over one
hypergeometric distribution, a scalar algorithm: the table is read to the host once and the
p-value summed there, as SciPy's (the same early exits, the same 1 + 1e-14 tolerance on "as
probable as the observed table"), but over exact integer terms C(n1, x) C(n2, n - x) divided by
C(n1 + n2, n) once, so the p-value is correctly rounded (SciPy sums Boost's floating-point pmf
and cdf values). Tables too large for exact integers (`_EXACT_LIMIT`) take each term as a ratio to
the mode's in floating point. An R x C table, or any `method`, runs SciPy's own resampling test
on the host copy (SciPy's random tables; SciPy is the optional `cuarray[scipy]` dependency)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.from_data import asarray
from ._correlation import SignificanceResult

__all__ = ["fisher_exact"]

# the largest total count summed over exact integers: a term has ~0.3 N digits and there are at
# most N / 2 + 1 of them, so the sum costs about 0.15 N^2 digit operations (milliseconds here)
_EXACT_LIMIT = 20000
_EPSILON = 1e-14  # SciPy's relative tolerance for "as probable as the observed table"


def _terms_exact(n1, n2, n):
    """{x: C(n1, x) C(n2, n - x)} over the support, as Python integers, and their total C(N, n)."""
    lo, hi = max(0, n - n2), min(n, n1)
    t = math.comb(n1, lo) * math.comb(n2, n - lo)
    terms = {lo: t}
    for x in range(lo, hi):  # the ratio of consecutive terms, exact: each term is an integer
        t = t * (n1 - x) * (n - x) // ((x + 1) * (n2 - n + x + 1))
        terms[x + 1] = t
    return terms, math.comb(n1 + n2, n)


def _terms_float(n1, n2, n):
    """The same terms relative to the mode's, in floating point: products of the consecutive
    ratios outward from the mode (a term k steps away carries about k roundings), total their sum."""
    lo, hi = max(0, n - n2), min(n, n1)
    mode = min(max(int((n + 1) * (n1 + 1) / (n1 + n2 + 2)), lo), hi)
    up = numpy.arange(mode, hi, dtype=numpy.float64)  # T(x + 1) / T(x) for x = mode..hi - 1
    right = numpy.cumprod((n1 - up) * (n - up) / ((up + 1) * (n2 - n + up + 1)))
    down = numpy.arange(mode, lo, -1, dtype=numpy.float64)  # T(x - 1) / T(x) for x = mode..lo + 1
    left = numpy.cumprod(down * (n2 - n + down) / ((n1 - down + 1) * (n - down + 1)))
    values = numpy.concatenate([left[::-1], [1.0], right])
    terms = dict(zip(range(lo, hi + 1), values.tolist()))
    return terms, math.fsum(values)


def _pvalue(c, alternative):
    """SciPy's p-value of the 2 x 2 table `c` (host int64, margins nonzero)."""
    n1, n2 = int(c[0, 0] + c[0, 1]), int(c[1, 0] + c[1, 1])
    n, x0 = int(c[0, 0] + c[1, 0]), int(c[0, 0])
    exact = n1 + n2 <= _EXACT_LIMIT
    terms, total = (_terms_exact if exact else _terms_float)(n1, n2, n)
    lo, hi = max(0, n - n2), min(n, n1)

    def prob(xs):
        return (sum(terms[x] for x in xs) if exact else math.fsum(terms[x] for x in xs)) / total

    # a term against the observed one made a relative 1e-14 larger, as SciPy's `pexact * gamma`
    # (exactly on integers: a * 10**14 against b * (10**14 + 1))
    def scaled(a):
        return a * 10 ** 14 if exact else a

    pe = terms[x0]
    limit = pe * (10 ** 14 + 1) if exact else pe * (1 + _EPSILON)
    if alternative == "less":
        return prob(range(lo, x0 + 1))
    if alternative == "greater":
        return prob(range(x0, hi + 1))
    mode = int((n + 1) * (n1 + 1) / (n1 + n2 + 2))
    pm = terms[mode]
    if scaled(abs(pe - pm)) <= max(pe, pm) * (1 if exact else _EPSILON):
        return 1.0
    # the other side of the mode (the pmf decreases away from it; SciPy's binary search finds the
    # same boundary): above the mode the terms strictly below the bound (SciPy's `sf` past its
    # search's last term at or above it), below the mode those at or below it (its `cdf`)
    if x0 < mode:
        tail = [x for x in range(mode, hi + 1) if scaled(terms[x]) < limit]
        return min(prob(list(range(lo, x0 + 1)) + tail), 1.0)
    tail = [x for x in range(lo, mode + 1) if scaled(terms[x]) <= limit]
    return min(prob(list(range(x0, hi + 1)) + tail), 1.0)


def fisher_exact(table, alternative=None, *, method=None):
    """See `scipy.stats.fisher_exact`. The table is read to the host (one read) and the test
    computed there: a 2 x 2 table's p-value over exact integers (correctly rounded, where SciPy's
    agrees to its floating-point sums' rounding), other tables (or any `method`) by SciPy's own
    resampling test on the host copy. The results are 0-d device arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.fisher_exact(cuarray.array([[8, 2], [1, 5]]))
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (20.0, 0.034965)
    >>> round(float(stats.fisher_exact([[8, 2], [1, 5]], alternative='greater').pvalue), 6)
    0.024476
    """
    c = numpy.asarray(to_host(as_literal_or_array(table, "fisher_exact"))).astype(numpy.int64)
    if c.ndim != 2:
        raise ValueError("The input `table` must have two dimensions.")
    if numpy.any(c < 0):
        raise ValueError("All values in `table` must be nonnegative.")
    if c.shape != (2, 2) or method is not None:
        return _rxc(c, alternative, method)
    alternative = "two-sided" if alternative is None else alternative
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError("`alternative` should be one of {'two-sided', 'less', 'greater'}")
    if 0 in c.sum(axis=0) or 0 in c.sum(axis=1):  # one table with these margins: SciPy's (NaN, 1)
        return SignificanceResult(asarray(numpy.nan), asarray(1.0))
    # int64 products as SciPy's, then the true division
    odds = c[0, 0] * c[1, 1] / (c[1, 0] * c[0, 1]) if c[1, 0] > 0 and c[0, 1] > 0 else numpy.inf
    return SignificanceResult(asarray(numpy.float64(odds)), asarray(numpy.float64(_pvalue(c, alternative))))


def _rxc(c, alternative, method):
    """SciPy's R x C test (a resampling `method`, Monte Carlo by default): its checks here, the
    test itself SciPy's on the host table."""
    if alternative is not None:
        raise ValueError("`alternative` must be the default (None) unless `table` has shape `(2, 2)` "
                         "and `method is None`.")
    if c.size == 0:
        raise ValueError("`table` must have at least one row and one column.")
    if c.shape[0] == 1 or c.shape[1] == 1 or numpy.all(c == 0):  # the only table with its margins
        return SignificanceResult(asarray(1.0), asarray(1.0))
    from scipy import stats as host_stats  # optional dependency: SciPy's random tables  # noqa: PLC0415

    res = host_stats.fisher_exact(c, method=method)
    return SignificanceResult(asarray(numpy.float64(res.statistic)), asarray(numpy.float64(res.pvalue)))
