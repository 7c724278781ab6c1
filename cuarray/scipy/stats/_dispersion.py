"""Dispersion and percentile statistics of scipy.stats on the device: sem, variation, gstd, iqr,
median_abs_deviation, trimboth, trim1, scoreatpercentile, percentileofscore. Compositions of
cuarray's reductions, sorts, percentiles and searchsorted; `nan_policy='omit'` as `_omit`."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._creation.basic import full
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.dims import expand_dims
from ..._manipulation.transpose import moveaxis
from ..._math.explog import exp, log
from ..._math.misc import abs as abs_
from ..._sorting.searchsorted import searchsorted
from ..._sorting.searching import where
from ..._sorting.sorting import sort
from ..._statistics.averages import mean, std
from ..._statistics.median import median
from ..._statistics.quantiles import percentile
from ._descriptive import _policy
from ._omit import omit_nans

__all__ = ["sem", "variation", "gstd", "iqr", "median_abs_deviation", "trimboth", "trim1", "scoreatpercentile",
           "percentileofscore"]

_IQR_NORMAL = 1.3489795003921634      # 2 sqrt(2) erfinv(1/2): the IQR of the standard normal
_MAD_NORMAL = 0.67448975019608171     # its median absolute deviation


def _sample(a, fn, nan_policy):
    a = _policy(nan_policy, as_literal_or_array(a, fn))
    return a.astype(numpy.float64) if a.dtype.kind in "biu" else a


def _flat(a, axis):
    return (a.ravel(), 0) if axis is None else (a, axis)


def _keep(r, axis, ndim, keepdims):
    if not keepdims:
        return r
    return r.reshape((1,) * ndim) if axis is None else expand_dims(r, axis)


@omit_nans("a")
def sem(a, axis=0, ddof=1, nan_policy="propagate", *, keepdims=False):
    """See `scipy.stats.sem`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.sem(cuarray.array([1., 2., 3., 4.]))), 6)
    0.645497
    """
    a = _sample(a, "sem", nan_policy)
    ndim = a.ndim
    a, ax = _flat(a, axis)
    n = a.shape[ax]
    return _keep(std(a, axis=ax, ddof=ddof) / math.sqrt(n), axis, ndim, keepdims)


@omit_nans("a")
def variation(a, axis=0, nan_policy="propagate", ddof=0, *, keepdims=False):
    """See `scipy.stats.variation` (NaN where n <= ddof, as SciPy).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.variation(cuarray.array([1., 2., 3., 4.]))), 6)
    0.447214
    """
    a = _sample(a, "variation", nan_policy)
    ndim = a.ndim
    a, ax = _flat(a, axis)
    n = a.shape[ax]
    if n <= ddof:
        shape = a.shape[:ax] + a.shape[ax + 1:]
        return _keep(full(shape, numpy.nan, dtype=numpy.result_type(a.dtype, numpy.float16)), axis, ndim, keepdims)
    return _keep(std(a, axis=ax, ddof=ddof) / mean(a, axis=ax), axis, ndim, keepdims)


@omit_nans("a")
def gstd(a, axis=0, ddof=1, *, keepdims=False, nan_policy="propagate"):
    """See `scipy.stats.gstd`: exp(std(log(a), ddof)); a non-positive value gives NaN (no device
    read to raise).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.gstd(cuarray.array([1., 2., 4., 8.]))), 6)
    2.446967
    """
    a = _sample(a, "gstd", nan_policy)
    ndim = a.ndim
    a, ax = _flat(a, axis)
    return _keep(exp(std(log(a), axis=ax, ddof=ddof)), axis, ndim, keepdims)


def _scale(scale, normal):
    if isinstance(scale, str):
        if scale.lower() == "normal":
            return normal
        raise ValueError("{} not a valid scale for `iqr`".format(scale))
    return scale


@omit_nans("x")
def iqr(x, axis=None, rng=(25, 75), scale=1.0, nan_policy="propagate", interpolation="linear", keepdims=False):
    """See `scipy.stats.iqr` (two percentiles of one sort along the axis).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> float(stats.iqr(cuarray.array([1., 2., 3., 4., 5.])))
    2.0
    """
    x = _sample(x, "iqr", nan_policy)
    scale = _scale(scale, _IQR_NORMAL)
    if len(rng) != 2:
        raise TypeError("quantile range must be two element sequence")
    if numpy.isnan(rng).any():
        raise ValueError("range must not contain NaNs")
    rng = sorted(rng)
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError("{} interpolation not recognized".format(interpolation))
    ndim = x.ndim
    x, ax = _flat(x, axis)
    if x.shape[ax] == 0:
        shape = x.shape[:ax] + x.shape[ax + 1:]
        return _keep(full(shape, numpy.nan, dtype=numpy.result_type(x.dtype, numpy.float64)), axis, ndim, keepdims)
    p = percentile(x, list(rng), axis=ax, method=interpolation)
    return _keep((p[1] - p[0]) / scale, axis, ndim, keepdims)


@omit_nans("x")
def median_abs_deviation(x, axis=0, center=None, scale=1.0, nan_policy="propagate", *, keepdims=False):
    """See `scipy.stats.median_abs_deviation` (two medians along the axis; a callable `center` is
    called as ``center(x, axis=axis)`` on the device array).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> float(stats.median_abs_deviation(cuarray.array([1., 2., 3., 4., 10.])))
    1.0
    """
    x = _sample(x, "median_abs_deviation", nan_policy)
    scale = _scale(scale, _MAD_NORMAL)
    ndim = x.ndim
    x, ax = _flat(x, axis)
    if x.shape[ax] == 0:
        shape = x.shape[:ax] + x.shape[ax + 1:]
        return _keep(full(shape, numpy.nan, dtype=numpy.result_type(x.dtype, numpy.float64)), axis, ndim, keepdims)
    med = median(x, axis=ax, keepdims=True) if center is None else expand_dims(center(x, axis=ax), ax)
    return _keep(median(abs_(x - med), axis=ax) / scale, axis, ndim, keepdims)


def _trimmed(a, lo, hi, axis):
    s = moveaxis(sort(a, axis=axis), axis, -1)[..., lo:hi]
    return moveaxis(s, -1, axis)


def trimboth(a, proportiontocut, axis=0):
    """See `scipy.stats.trimboth`. The kept values come back sorted along the axis (SciPy's
    partition leaves them in an unspecified order).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> cuarray.sort(stats.trimboth(cuarray.arange(10.), 0.1))
    array([1., 2., 3., 4., 5., 6., 7., 8.])
    """
    a = as_literal_or_array(a, "trimboth")
    if a.size == 0:
        return a
    a, axis = _flat(a, axis)
    n = a.shape[axis]
    lo = int(proportiontocut * n)
    hi = n - lo
    if lo >= hi:
        raise ValueError("Proportion too big.")
    return _trimmed(a, lo, hi, axis)


def trim1(a, proportiontocut, tail="right", axis=0):
    """See `scipy.stats.trim1`. The kept values come back sorted along the axis (SciPy's
    partition leaves them in an unspecified order).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> cuarray.sort(stats.trim1(cuarray.arange(10.), 0.2))
    array([0., 1., 2., 3., 4., 5., 6., 7.])
    """
    a = as_literal_or_array(a, "trim1")
    a, axis = _flat(a, axis)
    n = a.shape[axis]
    if proportiontocut >= 1:
        return a[:0] if a.ndim == 1 else moveaxis(moveaxis(a, axis, -1)[..., :0], -1, axis)
    if tail.lower() == "right":
        lo, hi = 0, n - int(proportiontocut * n)
    elif tail.lower() == "left":
        lo, hi = int(proportiontocut * n), n
    else:
        raise ValueError("tail must be 'left' or 'right'")
    return _trimmed(a, lo, hi, axis)


def scoreatpercentile(a, per, limit=(), interpolation_method="fraction", axis=None):
    """See `scipy.stats.scoreatpercentile` ('fraction', 'lower', 'higher' are NumPy's 'linear',
    'lower', 'higher' percentiles; `limit` compacts the values inside it, one device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> float(stats.scoreatpercentile(cuarray.arange(100.), 50))
    49.5
    """
    a = as_literal_or_array(a, "scoreatpercentile")
    if limit:
        a = a[(limit[0] <= a) & (a <= limit[1])]
    method = {"fraction": "linear", "lower": "lower", "higher": "higher"}.get(interpolation_method)
    if method is None:
        raise ValueError("interpolation_method can only be 'fraction', 'lower' or 'higher'")
    per = numpy.asarray(per)
    if a.size == 0:
        return full(per.shape, numpy.nan) if per.ndim else full((), numpy.nan)
    if axis is None:
        a, axis = a.ravel(), 0
    a = a.astype(numpy.float64) if a.dtype.kind in "biu" else a
    return percentile(a, per.tolist() if per.ndim else float(per), axis=axis, method=method)


def percentileofscore(a, score, kind="rank", nan_policy="propagate"):
    """See `scipy.stats.percentileofscore`: one sort of `a` and two searchsorted of the scores.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> float(stats.percentileofscore(cuarray.array([1., 2., 3., 4.]), 3))
    75.0
    """
    if kind not in ("rank", "weak", "strict", "mean"):
        raise ValueError("kind can only be 'rank', 'strict', 'weak' or 'mean'")
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'omit', 'raise', 'propagate'}.")
    a = as_literal_or_array(a, "percentileofscore").ravel()
    s = as_parameter(score, "percentileofscore")
    a = a.astype(numpy.float64) if a.dtype.kind in "biu" else a
    a_nan = a.dtype.kind in "fc" and a.size and bool(any_(isnan(a)).get())
    if a_nan:
        if nan_policy == "raise":
            raise ValueError("The input contains nan values")
        if nan_policy == "omit":
            a = a[~isnan(a)]
    n = a.size
    if n == 0:
        return full(s.shape, numpy.nan)
    srt = sort(a)
    left = searchsorted(srt, s, side="left").astype(numpy.float64)
    right = searchsorted(srt, s, side="right").astype(numpy.float64)
    if kind == "rank":
        r = (left + right + (left < right)) * (50.0 / n)
    elif kind == "strict":
        r = left * (100.0 / n)
    elif kind == "weak":
        r = right * (100.0 / n)
    else:
        r = (left + right) * (50.0 / n)
    bad = isnan(s) if s.dtype.kind in "fc" else None
    if a_nan and nan_policy == "propagate":
        r = r * numpy.nan
    elif bad is not None:
        r = where(bad, numpy.nan, r)
    return r
