"""pearsonr and spearmanr: the statistics on the device (reductions; ranks by one sort per slice),
the p-values from SciPy's distributions on the host (an optional run-time use of SciPy, imported
when a p-value is asked for; one read of the statistics, which are a reduced array) until
cuarray.scipy.special has the incomplete beta function."""

from __future__ import annotations

from typing import NamedTuple

import numpy

from ..._core.host_input import as_array
from ..._creation.from_data import asarray
from ..._manipulation.dims import broadcast_arrays
from ..._manipulation.joining import concatenate
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.averages import mean
from ..._statistics.correlating import corrcoef
from ._descriptive import _float, _policy, rankdata

__all__ = ["pearsonr", "spearmanr", "PearsonRResult", "SignificanceResult"]

_ALTERNATIVES = ("two-sided", "less", "greater")


class PearsonRResult(NamedTuple):
    statistic: object
    pvalue: object


class SignificanceResult(NamedTuple):
    statistic: object
    pvalue: object


def _check_alternative(alternative):
    if alternative not in _ALTERNATIVES:
        raise ValueError("`alternative` must be 'less', 'greater', or 'two-sided'.")


def _host_stats(fn: str):
    """scipy.stats, for a p-value on the host: SciPy is optional at run time (not a dependency of
    cuarray), so a fresh install without it gets an ImportError that says so, not a bare
    ModuleNotFoundError from inside the routine."""
    try:
        from scipy import stats  # (function level: the optional host-side SciPy)
    except ImportError as e:
        raise ImportError("cuarray.scipy.stats.{}: its p-value is computed by SciPy on the host; "
                          "pip install scipy".format(fn)) from e
    return stats


def _pvalue(r, alternative, dist):
    """p-values (host) of the host statistics `r` under `dist` (a frozen SciPy distribution of
    the statistic)."""
    r = numpy.asarray(r, dtype=numpy.float64)
    if alternative == "less":
        p = dist.cdf(r)
    elif alternative == "greater":
        p = dist.sf(r)
    else:
        p = 2 * dist.sf(numpy.abs(r))
    return numpy.where(numpy.isnan(r), numpy.nan, numpy.clip(p, 0, 1))


def pearsonr(x, y, *, alternative="two-sided", method=None, axis=0):
    """See `scipy.stats.pearsonr`. The statistic on the device; the p-value (the exact beta
    distribution of r, as SciPy's default) by SciPy on the host. `method` (permutation/bootstrap
    tests) is not supported (NotImplementedError); the result has no `confidence_interval`."""
    _check_alternative(alternative)
    if method is not None:
        raise NotImplementedError("pearsonr: only the default (exact) p-value")
    x, y = _float(x, "pearsonr"), _float(y, "pearsonr")
    try:
        x, y = broadcast_arrays(x, y)
    except ValueError:
        raise ValueError("`x` and `y` must be broadcastable.") from None
    if axis is None:
        x, y, axis = x.ravel(), y.ravel(), 0
    n = x.shape[axis]
    if n < 2:
        raise ValueError("`x` and `y` must have length at least 2.")
    xm = x - mean(x, axis=axis, keepdims=True)
    ym = y - mean(y, axis=axis, keepdims=True)
    r = sum_(xm * ym, axis=axis) / (sum_(xm * xm, axis=axis) * sum_(ym * ym, axis=axis)) ** 0.5
    r = where(r > 1, 1.0, where(r < -1, -1.0, r)).astype(x.dtype)
    if n == 2:  # r is +-1 and the test has no power: SciPy's p is 1
        return PearsonRResult(r, where(r == r, 1.0, numpy.nan).astype(x.dtype))
    stats = _host_stats("pearsonr")
    ab = n / 2 - 1
    p = _pvalue(r.get(), alternative, stats.beta(ab, ab, loc=-1, scale=2))
    return PearsonRResult(r, asarray(p.astype(r.dtype)))


def spearmanr(a, b=None, axis=0, nan_policy="propagate", alternative="two-sided"):
    """See `scipy.stats.spearmanr` (1-D samples, or the columns (axis=0) / rows (axis=1) of 2-D
    arrays as variables): Pearson's r of the average ranks on the device, the p-value (Student's
    t with n - 2 degrees of freedom, as SciPy's) by SciPy on the host."""
    _check_alternative(alternative)
    if axis is not None and axis not in (0, 1, -1, -2):
        raise ValueError("The input must have at most 2 dimensions.")
    a = _policy(nan_policy, as_array(a, "spearmanr"))
    arrays = [a] if b is None else [a, _policy(nan_policy, as_array(b, "spearmanr"))]
    if axis is None:
        arrays, axis = [x.ravel() for x in arrays], 0
    if any(x.ndim > 2 for x in arrays):
        raise ValueError("`spearmanr` only handles 1-D or 2-D arrays")
    axis = axis % max(x.ndim for x in arrays) if max(x.ndim for x in arrays) > 1 else 0
    # Variables as rows, observations along the last axis.
    rows = []
    for x in arrays:
        if x.ndim == 1:
            rows.append(rankdata(x)[None, :])
        else:
            r = rankdata(x, axis=axis)
            rows.append(r.T if axis == 0 else r)
    v = concatenate(rows, axis=0) if len(rows) > 1 else rows[0]
    if v.shape[0] < 2:
        raise ValueError("`spearmanr` needs at least two variables")
    n = v.shape[1]
    rho = corrcoef(v)
    if rho.shape == (2, 2):
        rho = rho[0, 1]
    stats = _host_stats("spearmanr")
    dof = n - 2
    rh = rho.get()
    with numpy.errstate(divide="ignore", invalid="ignore"):
        t = rh * numpy.sqrt(dof / ((rh + 1.0) * (1.0 - rh)))
    return SignificanceResult(rho, asarray(_pvalue(t, alternative, stats.t(dof)).astype(rho.dtype)))
