"""`anderson_ksamp` of scipy.stats, the k-sample Anderson-Darling test (Scholz and Stephens,
"K-sample Anderson-Darling tests", JASA 82, 1987), on the device: the pooled sample sorted, its
distinct values by `unique`, each sample's counts at or below them by comparisons summed over the
sample (batched over resamples for a `PermutationMethod`, cuarray's `permutation_test`), and the
statistic of SciPy's three variants (equations 3, 6 and 7) by reductions. The standardization and
SciPy's interpolation of the p-value in Scholz and Stephens' table are host arithmetic on the sample
sizes and the statistic (one read)."""

from __future__ import annotations

import math
import warnings
from collections import namedtuple

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._manipulation.joining import concatenate
from ..._math.sums_scan import cumsum
from ..._math.sums import sum as sum_
from ..._sets.unique import unique
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import sort
from ._correlation import SignificanceResult
from ._permutation import permutation_test

__all__ = ["anderson_ksamp", "Anderson_ksampResult"]


class Anderson_ksampResult(tuple):
    """See SciPy's `Anderson_ksampResult`: (statistic, critical_values, pvalue), with
    `significance_level` the p-value."""

    def __new__(cls, statistic, critical_values, pvalue):
        return tuple.__new__(cls, (statistic, critical_values, pvalue))

    statistic = property(lambda self: self[0])
    critical_values = property(lambda self: self[1])
    pvalue = property(lambda self: self[2])
    significance_level = property(lambda self: self[2])

    def __repr__(self):
        return "Anderson_ksampResult(statistic={!r}, critical_values={!r}, pvalue={!r})".format(*self)


class _NoValueType:
    """SciPy's `_NoValue`: an argument left out (`midrank`'s deprecation tells them apart)."""

    def __repr__(self):
        return "<no value>"


_NoValue = _NoValueType()
_MIDRANK = ("Parameter `variant` has been introduced to replace `midrank`; `midrank` will be removed in SciPy "
            "1.19.0. Specify `variant` to silence this warning. Note that the returned object will no longer be "
            "unpackable as a tuple, and `critical_values` will be omitted.")
# Scholz and Stephens' Table 2: the interpolation coefficients of the critical values
_B0 = numpy.array([0.675, 1.281, 1.645, 1.96, 2.326, 2.573, 3.085])
_B1 = numpy.array([-0.245, 0.25, 0.678, 1.149, 1.822, 2.364, 3.615])
_B2 = numpy.array([-0.105, -0.305, -0.362, -0.391, -0.396, -0.345, -0.154])
_SIG = numpy.array([0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.001])


def _at_or_below(s, points, strict=False):
    """Each row's count of values <= (<) each point: s (..., n), points (J,) -> (..., J)."""
    below = s[..., :, None] < points if strict else s[..., :, None] <= points
    return sum_(below, axis=-2).astype(numpy.float64)


def _statistic(variant, z, zstar, n, big_n):
    """A2kN of `samples` (each (..., n_i)) as SciPy's variant computes it, against the pooled
    sorted `z` and its distinct values `zstar` (fixed under permutation)."""
    if variant == "continuous":
        j = arange(1, big_n, dtype=numpy.float64)

        def term(s, ni):
            m = _at_or_below(s, z[:-1])
            return sum_((big_n * m - j * ni) ** 2 / (j * (big_n - j)), axis=-1) / ni
        scale = 1.0 / big_n
    elif variant == "right":
        left, right = searchsorted(z, zstar[:-1], "left"), searchsorted(z, zstar[:-1], "right")
        lj = (right - left).astype(numpy.float64)
        bj = cumsum(lj)

        def term(s, ni):
            m = _at_or_below(s, zstar[:-1])
            return sum_(lj / big_n * (big_n * m - bj * ni) ** 2 / (bj * (big_n - bj)), axis=-1) / ni
        scale = 1.0
    else:  # midrank: values tied with a point count half
        left = searchsorted(z, zstar, "left")
        lj = (searchsorted(z, zstar, "right") - left).astype(numpy.float64)
        bj = left + lj / 2.0

        def term(s, ni):
            m = (_at_or_below(s, zstar) + _at_or_below(s, zstar, strict=True)) / 2.0
            return sum_(lj / big_n * (big_n * m - bj * ni) ** 2 / (bj * (big_n - bj) - big_n * lj / 4.0), axis=-1) / ni
        scale = (big_n - 1.0) / big_n

    def statistic(*samples, axis=-1):
        return sum(term(s, ni) for s, ni in zip(samples, n)) * scale
    return statistic


def _sigma_sq(n, k, big_n):
    """The variance of A2kN under the null (Scholz and Stephens' equation 4), SciPy's sums."""
    h_big = (1.0 / n).sum()
    hs_cs = (1.0 / numpy.arange(big_n - 1, 1, -1)).cumsum()
    h = hs_cs[-1] + 1
    g = (hs_cs / numpy.arange(2, big_n)).sum()
    a = (4 * g - 6) * (k - 1) + (10 - 6 * g) * h_big
    b = (2 * g - 4) * k ** 2 + 8 * h * k + (2 * g - 14 * h - 4) * h_big - 8 * h + 4 * g - 6
    c = (6 * h + 2 * g - 2) * k ** 2 + (4 * h - 4 * g + 6) * k + (2 * h - 6) * h_big + 4 * h
    d = (2 * h + 6) * k ** 2 - 4 * h * k
    return (a * big_n ** 3 + b * big_n ** 2 + c * big_n + d) / ((big_n - 1.0) * (big_n - 2.0) * (big_n - 3.0))


def anderson_ksamp(samples, midrank=_NoValue, *, variant=_NoValue, method=None):
    """See `scipy.stats.anderson_ksamp`. The statistic on the device; the p-value interpolated on
    the host after one read, or with a `PermutationMethod` by cuarray's `permutation_test`
    (its permutations from `cuarray.random`: SciPy's p-value where every permutation is used,
    another draw of the same null otherwise).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a, b = cuarray.array([0.1, 0.4, 0.7, 1.0, 1.3, 1.6]), cuarray.array([1.5, 2.4, 1.9, 3.3, 0.8])
    >>> res = stats.anderson_ksamp([a, b], variant='midrank')
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (2.176091, 0.041354)
    """
    k = len(samples)
    if k < 2:
        raise ValueError("anderson_ksamp needs at least two samples")
    samples = [as_literal_or_array(s, "anderson_ksamp").ravel().astype(numpy.float64) for s in samples]
    z = sort(concatenate(samples))
    big_n = z.size
    zstar = unique(z)
    if zstar.size < 2:
        raise ValueError("anderson_ksamp needs more than one distinct observation")
    n = numpy.array([s.size for s in samples])
    if numpy.any(n == 0):
        raise ValueError("anderson_ksamp encountered sample without observations")
    if variant is _NoValue or midrank is not _NoValue:
        warnings.warn(_MIDRANK, UserWarning, stacklevel=2)
    critical_values_too = variant is _NoValue
    if variant is _NoValue:
        variant = "midrank" if midrank else "right"
    if variant not in ("midrank", "right", "continuous"):
        raise ValueError("`variant` must be one of 'midrank', 'right', or 'continuous'.")
    statistic = _statistic(variant, z, zstar, n, big_n)
    a2kn = statistic(*samples)
    m = k - 1
    a2 = (a2kn - m) / math.sqrt(_sigma_sq(n, k, big_n))
    critical = _B0 + _B1 / math.sqrt(m) + _B2 / m
    if method is not None:
        kw = method._asdict()
        if kw.get("batch") is None:  # the comparisons hold N values per value resampled
            kw["batch"] = max(1, (1 << 26) // (big_n * big_n))
        p = permutation_test(samples, statistic, **kw, alternative="greater").pvalue
    else:
        a2_host = float(to_host(a2))  # the interpolation's one read
        if a2_host < critical.min():
            p = _SIG.max()
            warnings.warn(f"p-value capped: true value larger than {p}. Consider specifying `method` "
                          "(e.g. `method=stats.PermutationMethod()`.)", stacklevel=2)
        elif a2_host > critical.max():
            p = _SIG.min()
            warnings.warn(f"p-value floored: true value smaller than {p}. Consider specifying `method` "
                          "(e.g. `method=stats.PermutationMethod()`.)", stacklevel=2)
        else:  # the probit of the significance level interpolated, as SciPy
            p = math.exp(numpy.polyval(numpy.polyfit(critical, numpy.log(_SIG), 2), a2_host))
        p = asarray(numpy.float64(p))
    if critical_values_too:
        return Anderson_ksampResult(a2, asarray(critical), p)
    return SignificanceResult(a2, p)
