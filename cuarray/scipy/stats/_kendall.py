"""kendalltau of scipy.stats: discordant and jointly tied pairs counted on the device (the pair
signs compared block by block of rows: O(n^2) work, no n^2 memory), the ties' statistics from
each element's tie-group size (max rank - min rank + 1); the p-value on the host from those few
counts: the normal approximation, or the exact distribution of the number of discordant pairs
(permutations by inversions, counted in integers) where SciPy picks it."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.from_data import asarray
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._manipulation.transpose import moveaxis
from ..._math.sums import sum as sum_
from ..special._stats import ndtr
from ._correlation import SignificanceResult, _check_alternative
from ._descriptive import rankdata

__all__ = ["kendalltau"]

_BLOCK = 1 << 22  # pair comparisons per block (elements of one (rows, n) temporary)


def inversions_cdf(n: int, d: int) -> float:
    """P(D <= d) for D the number of inversions of a uniformly random permutation of n (the
    Mahonian numbers, inserting one element at a time, each row a sliding sum of the previous)."""
    d = min(d, n * (n - 1) // 2)
    if d < 0:
        return 0.0
    row = [1] + [0] * d
    for j in range(2, n + 1):  # inserting the j-th element adds 0 .. j - 1 inversions
        prefix = [0] * (d + 2)
        for k in range(d + 1):
            prefix[k + 1] = prefix[k] + row[k]
        row = [prefix[k + 1] - prefix[max(0, k - j + 1)] for k in range(d + 1)]
    return sum(row) / math.factorial(n)


def _exact_p(n, dis, alternative):
    tot = n * (n - 1) // 2
    if alternative == "greater":
        p = inversions_cdf(n, dis)
    elif alternative == "less":
        p = inversions_cdf(n, tot - dis)
    else:
        p = 2 * inversions_cdf(n, min(dis, tot - dis))
    return min(max(p, 0.0), 1.0)


def _counts(x, y):
    """(discordant pairs, jointly tied pairs) of two 1-D device arrays, as Python ints."""
    n = x.shape[0]
    rows = max(1, _BLOCK // max(n, 1))
    dis, joint = [], []
    for i in range(0, n, rows):
        dx = x[i:i + rows, None] - x[None, :]
        dy = y[i:i + rows, None] - y[None, :]
        dis.append(sum_(((dx > 0) & (dy < 0)) | ((dx < 0) & (dy > 0))))  # signs: no product to underflow
        joint.append(sum_((dx == 0) & (dy == 0)))
    both = stack([sum_(stack(dis)), sum_(stack(joint))]).get()
    return int(both[0]) // 2, (int(both[1]) - n) // 2


def _tie_stats(v):
    g = (rankdata(v, "max") - rankdata(v, "min")).astype(numpy.float64)  # group size - 1, per element
    s = stack([sum_(g), sum_(g * (g - 1)), sum_(g * (2 * g + 7)), max_dense(v)]).get()
    # per group of size t: t(t-1)/2, t(t-1)(t-2), t(t-1)(2t+5) as sums over its t elements
    return int(round(s[0])) // 2, int(round(s[1])), int(round(s[2])), int(round(s[3]))


def max_dense(v):
    return rankdata(v, "dense").max()


def _one(x, y, method, variant, alternative):
    if x.dtype.kind not in "f" or y.dtype.kind not in "f":  # integer differences could wrap
        x, y = x.astype(numpy.float64), y.astype(numpy.float64)
    n = x.shape[0]
    nan = numpy.nan
    if n == 0:
        return nan, nan
    tot = n * (n - 1) // 2
    xtie, x0, x1, xcls = _tie_stats(x)
    ytie, y0, y1, ycls = _tie_stats(y)
    if xtie == tot or ytie == tot:
        return nan, nan
    dis, ntie = _counts(x, y)
    cmd = tot - xtie - ytie + ntie - 2 * dis
    if variant == "b":
        tau = cmd / math.sqrt(tot - xtie) / math.sqrt(tot - ytie)
    else:
        mc = min(xcls, ycls)
        tau = 2 * cmd / (n ** 2 * (mc - 1) / mc)
    tau = min(1.0, max(-1.0, tau))
    if method == "exact" and (xtie or ytie):
        raise ValueError("Ties found, exact method cannot be used.")
    if method == "auto":
        method = "exact" if not xtie and not ytie and (n <= 33 or min(dis, tot - dis) <= 1) else "asymptotic"
    if method == "exact":
        return tau, _exact_p(n, dis, alternative)
    m = n * (n - 1.0)
    var = (m * (2 * n + 5) - x1 - y1) / 18 + (2 * xtie * ytie) / m + x0 * y0 / (9 * m * (n - 2))
    z = cmd / math.sqrt(var)
    zz = asarray(numpy.array([-abs(z), -z, z]))
    lo = ndtr(zz).get()  # P(Z <= -|z|), P(Z <= -z), P(Z <= z)
    p = {"two-sided": 2 * lo[0], "greater": lo[1], "less": lo[2]}[alternative]
    return tau, float(min(max(p, 0.0), 1.0))


def kendalltau(x, y, *, nan_policy="propagate", method="auto", variant="b", alternative="two-sided", axis=None,
               keepdims=False):
    """See `scipy.stats.kendalltau` (variants 'b' and 'c'; 'auto', 'exact', 'asymptotic'). The
    pair counts are O(n^2) device work (SciPy's merge sort is O(n log n)); the counts are read
    back once per slice and the p-value computed on the host. A slice with NaN gives NaN
    ('propagate'); 'omit' drops the pairs where either is NaN.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.kendalltau(cuarray.array([1., 2., 3., 4., 5.]), cuarray.array([1., 3., 2., 4., 5.]))
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.8, 0.083333)
    """
    _check_alternative(alternative)
    if variant not in ("b", "c"):
        raise ValueError("Unknown variant of the method chosen: {}. variant must be 'b' or 'c'.".format(variant))
    if method not in ("auto", "exact", "asymptotic"):
        raise ValueError("Unknown method {} specified.  Please use auto, exact or asymptotic.".format(method))
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'omit', 'raise', 'propagate'}.")
    x, y = as_literal_or_array(x, "kendalltau"), as_literal_or_array(y, "kendalltau")
    if axis is None:
        x, y, ax = x.ravel(), y.ravel(), 0
    else:
        ax = axis
    if x.shape != y.shape:
        raise ValueError("Array shapes are incompatible for broadcasting.")
    xs, ys = moveaxis(x, ax, -1), moveaxis(y, ax, -1)
    batch, n = xs.shape[:-1], xs.shape[-1]
    xs, ys = xs.reshape(-1, n), ys.reshape(-1, n)
    taus, ps = [], []
    for r in range(xs.shape[0]):
        a, b = xs[r], ys[r]
        bad = isnan(a) | isnan(b) if (a.dtype.kind in "fc" or b.dtype.kind in "fc") else None
        if bad is not None and bool(any_(bad).get()):
            if nan_policy == "raise":
                raise ValueError("The input contains nan values")
            if nan_policy == "propagate":
                taus.append(numpy.nan)
                ps.append(numpy.nan)
                continue
            a, b = a[~bad], b[~bad]
        t, p = _one(a, b, method, variant, alternative)
        taus.append(t)
        ps.append(p)
    tau = numpy.array(taus, dtype=numpy.float64).reshape(batch)
    p = numpy.array(ps, dtype=numpy.float64).reshape(batch)
    if keepdims:
        shape = (1,) * x.ndim if axis is None else tuple(numpy.expand_dims(tau, ax).shape)
        tau, p = tau.reshape(shape), p.reshape(shape)
    return SignificanceResult(asarray(tau), asarray(p))
