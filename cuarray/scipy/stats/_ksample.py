"""k-sample tests of scipy.stats on the device: equal variances (`bartlett`; `levene` and the
rank-based `fligner`, Brown and Forsythe's centers: median, mean, trimmed mean) and equal
distributions by ranks (`kruskal`, with the tie correction). SciPy's formulas over cuarray's
reductions and `rankdata`, the p-values `chdtrc`/`fdtrc`; the samples broadcast against each other
except along `axis` (`_multisample`). A sample with no values gives NaN with SciPy's warning;
`nan_policy='omit'` with NaNs present runs one test per slice (`_multisample.per_slice`)."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy

from ..._creation.basic import full
from ..._manipulation.joining import concatenate, stack
from ..._math.explog import log
from ..._math.misc import abs as abs_
from ..._math.misc import clip
from ..._math.sums import sum as sum_
from ..._statistics.averages import mean, var
from ..._statistics.median import median
from ..special._stats import chdtrc, fdtrc, ndtri
from ._descriptive import rankdata, trim_mean
from ._multisample import TOO_SMALL, keep_dims, per_slice, samples_last

__all__ = ["bartlett", "levene", "fligner", "kruskal", "friedmanchisquare", "BartlettResult", "LeveneResult",
           "FlignerResult", "KruskalResult", "FriedmanchisquareResult"]



class BartlettResult(NamedTuple):
    statistic: object
    pvalue: object


class LeveneResult(NamedTuple):
    statistic: object
    pvalue: object


class FlignerResult(NamedTuple):
    statistic: object
    pvalue: object


class KruskalResult(NamedTuple):
    statistic: object
    pvalue: object


class FriedmanchisquareResult(NamedTuple):
    statistic: object
    pvalue: object


def _run(test, result, samples, axis, nan_policy, keepdims, fn, paired=False, too_small=0, floating=True):
    """SciPy's `_axis_nan_policy` around `test(*samples)` of samples along their last axis (a
    sample of at most `too_small` values, or samples whose lengths `too_small(*lengths)` finds too
    small, give NaN with SciPy's warning; `floating=False` keeps integer samples' dtype)."""
    samples, batch, one, ndim_in = samples_last(samples, axis, nan_policy, fn, floating)
    if paired and len({s.shape[-1] for s in samples}) > 1:
        raise ValueError("Array shapes are incompatible for broadcasting.")
    lengths = [s.shape[-1] for s in samples]
    # a callable `too_small(*lengths)` is SciPy's rule for a 1-D sample (N-D slices: empty only)
    if too_small(*lengths) and (one or 0 in lengths) if callable(too_small) else min(lengths) <= too_small:
        warnings.warn(TOO_SMALL, RuntimeWarning, stacklevel=3)
        nan = full(batch, numpy.nan, dtype=samples[0].dtype if samples[0].dtype.kind == "f" else numpy.float64)
        return result(*keep_dims([nan] * len(result._fields), axis, keepdims, ndim_in))
    out = per_slice(test, samples, batch, paired, too_small) if nan_policy == "omit" else None
    if out is None:
        out = test(*samples)
    return result(*keep_dims(list(out), axis, keepdims, ndim_in))


def _bartlett(*samples):
    k = len(samples)
    dt = samples[0].dtype
    ni = [float(s.shape[-1]) for s in samples]
    ssq = [var(s, axis=-1, ddof=1) for s in samples]
    ntot = sum(ni)
    spsq = sum((n - 1) * v for n, v in zip(ni, ssq)) / (ntot - k)
    numer = (ntot - k) * log(spsq) - sum((n - 1) * log(v) for n, v in zip(ni, ssq))
    denom = 1 + 1 / (3 * (k - 1)) * (sum(1 / (n - 1) if n != 1 else numpy.inf for n in ni) - 1 / (ntot - k))
    t = (numer / denom).astype(dt)
    p = chdtrc(full((), k - 1, dtype=dt), t).astype(dt)
    return clip(t, 0.0, numpy.inf).astype(dt), p


def bartlett(*samples, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.bartlett`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 4., 4.5, 5.])
    >>> res = stats.bartlett(a, b)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (3.941242, 0.047116)
    """
    if len(samples) < 2:
        raise ValueError("Must enter at least two input sample vectors.")
    return _run(_bartlett, BartlettResult, samples, axis, nan_policy, keepdims, "bartlett")


def _center(center, proportiontocut):
    if center not in ("mean", "median", "trimmed"):
        raise ValueError("center must be 'mean', 'median' or 'trimmed'.")
    if center == "median":
        return lambda x: median(x, axis=-1, keepdims=True)
    if center == "mean":
        return lambda x: mean(x, axis=-1, keepdims=True)
    return lambda x: trim_mean(x, proportiontocut, axis=-1)[..., None]


def levene(*samples, center="median", proportiontocut=0.05, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.levene`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 4., 4.5, 5.])
    >>> res = stats.levene(a, b)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (4.55058, 0.070336)
    """
    func = _center(center, proportiontocut)
    if len(samples) < 2:
        raise ValueError("Must provide at least two samples.")

    def test(*xs):
        k = len(xs)
        ni = [float(x.shape[-1]) for x in xs]
        ntot = sum(ni)
        z = [abs_(x - func(x)) for x in xs]
        zbar_i = [mean(zi, axis=-1, keepdims=True) for zi in z]
        zbar = sum(n * zb for n, zb in zip(ni, zbar_i)) / ntot
        dfd, dfn = ntot - k, k - 1.0
        numer = dfd * sum(n * (zb - zbar) ** 2 for n, zb in zip(ni, zbar_i))
        denom = dfn * sum(sum_((zi - zb) ** 2, axis=-1, keepdims=True) for zi, zb in zip(z, zbar_i))
        w = (numer / denom)[..., 0]
        return w, fdtrc(full((), dfn, dtype=w.dtype), full((), dfd, dtype=w.dtype), w).astype(w.dtype)
    return _run(test, LeveneResult, samples, axis, nan_policy, keepdims, "levene")


def fligner(*samples, center="median", proportiontocut=0.05, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.fligner`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 4., 4.5, 5.])
    >>> res = stats.fligner(a, b)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (4.127868, 0.042182)
    """
    func = _center(center, proportiontocut)
    if len(samples) < 2:
        raise ValueError("Must provide at least two samples.")

    def test(*xs):
        k = len(xs)
        ni = [float(x.shape[-1]) for x in xs]
        n = sum(ni)
        dev = concatenate([abs_(x - func(x)) for x in xs], axis=-1)
        ranks = rankdata(dev, method="average", axis=-1)
        a = ndtri(ranks / (2 * (n + 1.0)) + 0.5)
        splits = numpy.cumsum([0] + [x.shape[-1] for x in xs])
        abar = mean(a, axis=-1)
        v2 = var(a, axis=-1, ddof=1)
        stat = sum(m * (mean(a[..., i:j], axis=-1) - abar) ** 2 for m, i, j in zip(ni, splits[:-1], splits[1:])) / v2
        stat = stat.astype(xs[0].dtype)
        return stat, chdtrc(full((), k - 1, dtype=stat.dtype), stat).astype(stat.dtype)
    return _run(test, FlignerResult, samples, axis, nan_policy, keepdims, "fligner")


def kruskal(*samples, nan_policy="propagate", axis=0, keepdims=False):
    """See `scipy.stats.kruskal`. The tie term from each value's tie-group size (rankdata's 'max'
    less 'min' plus one): the groups' t^3 - t summed as t^2 - 1 over their members.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 5., 8., 9.])
    >>> res = stats.kruskal(a, b)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (1.5, 0.220671)
    """
    if len(samples) < 2:
        raise ValueError("Need at least two groups in stats.kruskal()")

    def test(*xs):
        k = len(xs)
        ni = [float(x.shape[-1]) for x in xs]
        n = sum(ni)
        alldata = concatenate(xs, axis=-1)
        ranked = rankdata(alldata, method="average", axis=-1)
        t = rankdata(alldata, method="max", axis=-1) - rankdata(alldata, method="min", axis=-1) + 1
        ties = 1 - sum_(t * t - 1, axis=-1) / (n ** 3 - n)
        splits = numpy.cumsum([0] + [x.shape[-1] for x in xs])
        ssbn = sum(sum_(ranked[..., i:j], axis=-1) ** 2 / m for m, i, j in zip(ni, splits[:-1], splits[1:]))
        h = ((12.0 / (n * (n + 1)) * ssbn - 3 * (n + 1)) / ties).astype(ranked.dtype)
        return h, chdtrc(full((), k - 1, dtype=h.dtype), h).astype(h.dtype)
    return _run(test, KruskalResult, samples, axis, nan_policy, keepdims, "kruskal")


def friedmanchisquare(*samples, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.friedmanchisquare`. The ranks within each block (the k values of one
    observation) by `rankdata`; the tie term from each value's tie-group size, as `kruskal`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 5., 8.])
    >>> c = cuarray.array([2., 6., 3., 9.])
    >>> res = stats.friedmanchisquare(a, b, c)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (3.5, 0.173774)
    """
    k = len(samples)
    if k < 3:
        raise ValueError(f"At least 3 samples must be given for Friedman test, got {k}.")

    def test(*xs):
        n = float(xs[0].shape[-1])
        data = stack(xs, axis=-1)  # (..., n, k): a block a row
        ranked = rankdata(data, method="average", axis=-1)
        t = rankdata(data, method="max", axis=-1) - rankdata(data, method="min", axis=-1) + 1
        ties = sum_(t * t - 1, axis=(-2, -1))
        c = 1 - ties / (k * (k * k - 1) * n)
        ssbn = sum_(sum_(ranked, axis=-2) ** 2, axis=-1)
        stat = ((12.0 / (k * n * (k + 1)) * ssbn - 3 * n * (k + 1)) / c).astype(ranked.dtype)
        return stat, chdtrc(full((), k - 1, dtype=stat.dtype), stat).astype(stat.dtype)
    return _run(test, FriedmanchisquareResult, samples, axis, nan_policy, keepdims, "friedmanchisquare", paired=True)
