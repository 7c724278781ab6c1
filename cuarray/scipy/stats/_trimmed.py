"""Trimmed statistics of scipy.stats on the device: `tmean`, `tvar`, `tstd`, `tsem`, `tmin`,
`tmax`. The values outside `limits` (each end inclusive or not, SciPy's rule) are left out of the
reduction by a mask, so each is one pass of cuarray's reductions; SciPy's error when no value is
within the limits (one device read). NaNs: 'propagate' gives NaN for a slice holding one, 'omit'
leaves them out as it leaves out the values past the limits, 'raise' raises."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import zeros
from ..._logic.content import isnan
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ._descriptive import _policy

__all__ = ["tmean", "tvar", "tstd", "tsem", "tmin", "tmax"]


def _excluded(a, limits, inclusive, nan_policy):
    """(a, the mask of the values left out, the mask of the slices' NaNs to propagate or None)."""
    mask = zeros(a.shape, dtype=bool)
    if limits is not None:
        lower, upper = limits
        lower_inc, upper_inc = inclusive
        if lower is not None:
            mask = mask | ((a < lower) if lower_inc else (a <= lower))
        if upper is not None:
            mask = mask | ((a > upper) if upper_inc else (a >= upper))
        if a.size and bool(all_(mask).get()):  # SciPy's check, on the whole array
            raise ValueError("No array values within given limits")
    nans = None
    if a.dtype.kind in "fc":
        nans = isnan(a)
        if nan_policy == "omit":
            mask, nans = mask | nans, None
    return mask, nans


def _prepared(a, axis, nan_policy, fn):
    a = _policy(nan_policy, as_literal_or_array(a, fn), omit=True)
    kept = None
    if axis is None:
        kept, a, axis = (1,) * max(a.ndim, 1), a.ravel(), 0
    return a, axis, kept


def _shaped(res, kept, keepdims):
    return res.reshape(kept) if keepdims and kept is not None else res


def _propagated(res, nans, axis, keepdims):
    if nans is None:
        return res
    return where(any_(nans, axis=axis, keepdims=keepdims), numpy.nan, res).astype(res.dtype)


def _floating(a):
    return a.astype(numpy.float64) if a.dtype.kind in "biu" else a


def tmean(a, limits=None, inclusive=(True, True), axis=None, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.tmean`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.tmean(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)
    4.0
    """
    a, axis, kept = _prepared(a, axis, nan_policy, "tmean")
    a = _floating(a)
    mask, nans = _excluded(a, limits, inclusive, nan_policy)
    n = sum_(~mask, axis=axis, keepdims=keepdims, dtype=a.dtype)
    total = sum_(where(mask, 0, a), axis=axis, keepdims=keepdims, dtype=a.dtype)
    res = where(n != 0, total / where(n != 0, n, 1), numpy.nan).astype(a.dtype)
    return _shaped(_propagated(res, nans, axis, keepdims), kept, keepdims)


def _trimmed_var(a, limits, inclusive, axis, ddof, nan_policy, keepdims):
    """(the variance of the values within the limits with `ddof`, their count, NaN mask)."""
    a = _floating(a)
    mask, nans = _excluded(a, limits, inclusive, nan_policy)
    n = sum_(~mask, axis=axis, keepdims=True, dtype=a.dtype)
    safe = where(n != 0, n, 1)
    m = sum_(where(mask, 0, a), axis=axis, keepdims=True, dtype=a.dtype) / safe
    d = where(mask, 0, a - m)
    ss = sum_(d * d, axis=axis, keepdims=True, dtype=a.dtype)
    dof = n - ddof
    var = where(dof > 0, ss / where(dof > 0, dof, 1), numpy.nan).astype(a.dtype)
    if not keepdims:
        var, n = var.squeeze(axis), n.squeeze(axis)
    return _propagated(var, nans, axis, keepdims), n


def tvar(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.tvar`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.tvar(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)
    16.666667
    """
    a, axis, kept = _prepared(a, axis, nan_policy, "tvar")
    return _shaped(_trimmed_var(a, limits, inclusive, axis, ddof, nan_policy, keepdims)[0], kept, keepdims)


def tstd(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.tstd`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.tstd(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)
    4.082483
    """
    a, axis, kept = _prepared(a, axis, nan_policy, "tstd")
    return _shaped(sqrt(_trimmed_var(a, limits, inclusive, axis, ddof, nan_policy, keepdims)[0]), kept, keepdims)


def tsem(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.tsem`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.tsem(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)
    2.041241
    """
    a, axis, kept = _prepared(a, axis, nan_policy, "tsem")
    var, n = _trimmed_var(a, limits, inclusive, axis, ddof, nan_policy, keepdims)
    return _shaped(sqrt(var) / sqrt(n), kept, keepdims)


def _extreme(a, limit, axis, inclusive, nan_policy, keepdims, lower, fn):
    a, axis, kept = _prepared(a, axis, nan_policy, fn)
    limits = (limit, None) if lower else (None, limit)
    mask, nans = _excluded(a, limits, (inclusive, None) if lower else (None, inclusive), nan_policy)
    if a.dtype.kind in "iub":
        info = numpy.iinfo(a.dtype) if a.dtype.kind != "b" else None
        fill = (info.max if lower else info.min) if info is not None else lower
    else:
        fill = numpy.inf if lower else -numpy.inf
    filled = where(mask, fill, a).astype(a.dtype)
    # `initial`: an empty slice reduces to the fill, then NaN as every slice with no value (SciPy's)
    res = (min_ if lower else max_)(filled, axis=axis, keepdims=keepdims, initial=fill)
    invalid = all_(mask, axis=axis, keepdims=keepdims)
    if res.size and bool(any_(invalid).get()):  # SciPy's NaN for a slice with no value: a float result
        res = where(invalid, numpy.nan, _floating(res)).astype(_floating(res).dtype)
    return _shaped(_propagated(res, nans, axis, keepdims) if nans is not None else res, kept, keepdims)


def tmin(a, lowerlimit=None, axis=0, inclusive=True, nan_policy="propagate", *, keepdims=False):
    """See `scipy.stats.tmin`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> float(stats.tmin(cuarray.array([1., 2., 3., 10., 50.]), 2.5))
    3.0
    """
    return _extreme(a, lowerlimit, axis, inclusive, nan_policy, keepdims, True, "tmin")


def tmax(a, upperlimit=None, axis=0, inclusive=True, nan_policy="propagate", *, keepdims=False):
    """See `scipy.stats.tmax`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> float(stats.tmax(cuarray.array([1., 2., 3., 10., 50.]), 20))
    10.0
    """
    return _extreme(a, upperlimit, axis, inclusive, nan_policy, keepdims, False, "tmax")
