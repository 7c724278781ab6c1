"""Descriptive statistics of scipy.stats on cuarray arrays: moments, means, z-scores,
ranks, trimmed mean, Box-Cox log-likelihood, correlation coefficients. Compositions of cuarray's
reductions, sorts and elementwise kernels: every value stays on the device; NaN handling is
SciPy's `nan_policy` ('omit' only where there is no NaN to omit, see `_policy`)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

from ..._math.misc import abs as abs_
from ..._logic.truth import any as any_
from ..._creation.ranges import arange
from ..._manipulation.joining import concatenate, stack
from ..._creation.basic import full
from ..._creation.basic import empty
from ..._logic.content import isfinite, isnan
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ..._manipulation.transpose import moveaxis
from ..._manipulation.dims import expand_dims
from ..._creation.basic import ones
from ..._indexing.inserting import put_along_axis
from ..._math.sums import sum as sum_
from ..._indexing.inserting import take_along_axis
from ..._sorting.searching import where
from ..._creation.basic import zeros
from ..._core.host_input import as_literal_or_array
from ..._core.shapes import normalize_axis_index
from ..._math.explog import exp, log, log1p
from ..._math.extrema import maximum, minimum
from ..._math.sums_scan import cumsum
from ..._sorting.sorting import argsort, sort
from ..._math.complex import conj, real
from ..._statistics.averages import mean, var
from ..._statistics.averages import nanmean, nanvar
from ._omit import omit_nans, omit_reduce

__all__ = ["moment", "skew", "kurtosis", "describe", "gmean", "hmean", "pmean", "zscore", "zmap",
           "rankdata", "trim_mean", "boxcox_llf", "mode", "DescribeResult"]


def _policy(nan_policy, a, omit=False):
    """SciPy's `nan_policy`: 'propagate' as is; 'raise' reads whether `a` holds a NaN (one
    device read). 'omit' is handled before this by `_omit.omit_nans` (reductions) or by the
    function itself (`omit=True`: `a` is returned with its NaNs for it to skip)."""
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'omit', 'raise', 'propagate'}.")
    if nan_policy == "propagate" or a.dtype.kind not in "fc" or a.size == 0:
        return a
    if bool(any_(isnan(a)).get()):
        if nan_policy == "raise":
            raise ValueError("The input contains nan values")
        if not omit:
            raise NotImplementedError("nan_policy='omit' reached a function that does not omit")  # never: see above
    return a


def _float(a, fn, nan_policy="propagate"):
    a = _policy(nan_policy, as_literal_or_array(a, fn))
    return a.astype(numpy.float64) if a.dtype.kind in "biu" else a


def _axis(a, axis):
    if axis is None:
        return a.ravel(), 0
    return a, normalize_axis_index(axis, a.ndim)


@omit_nans("a")
def moment(a, order=1, axis=0, nan_policy="propagate", *, center=None, keepdims=False):
    """See `scipy.stats.moment` (central moment; `center` overrides the mean; a sequence of
    orders gives their moments stacked along a new first axis, as SciPy).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.moment(cuarray.array([1., 2., 3., 10.]), order=2)), 6)
    12.5
    """
    if isinstance(order, (list, tuple, numpy.ndarray)):
        return stack([moment(a, o, axis, nan_policy, center=center, keepdims=keepdims) for o in order])
    a, axis = _axis(_float(a, "moment", nan_policy), axis)
    if order == 0:
        return ones(_reduced(a, axis, keepdims), dtype=a.dtype)
    c = mean(a, axis=axis, keepdims=True) if center is None else center
    if order == 1 and center is None:
        return zeros(_reduced(a, axis, keepdims), dtype=a.dtype)
    return mean((a - c) ** order, axis=axis, keepdims=keepdims)


def _reduced(a, axis, keepdims):
    shape = list(a.shape)
    if keepdims:
        shape[axis] = 1
    else:
        del shape[axis]
    return tuple(shape)


@omit_nans("a")
def skew(a, axis=0, bias=True, nan_policy="propagate", *, keepdims=False):
    """See `scipy.stats.skew`. A constant slice gives NaN, as in SciPy.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.skew(cuarray.array([1., 2., 3., 10.]))), 6)
    1.018234
    >>> stats.skew(cuarray.array([[1., 2., 4.], [3., 2., 0.]]), axis=1)
    array([ 0.38180177, -0.38180177])
    """
    a, axis = _axis(_float(a, "skew", nan_policy), axis)
    n = a.shape[axis]
    m = mean(a, axis=axis, keepdims=True)
    d = a - m
    m2 = mean(d * d, axis=axis, keepdims=keepdims)
    m3 = mean(d * d * d, axis=axis, keepdims=keepdims)
    g = m3 / m2 ** 1.5
    g = where(m2 <= (numpy.finfo(m2.dtype).eps * abs_(mean(a, axis=axis, keepdims=keepdims))) ** 2,
                 numpy.nan, g)
    if not bias and n > 2:
        g = g * (math.sqrt((n - 1.0) * n) / (n - 2.0))
    return g


@omit_nans("a")
def kurtosis(a, axis=0, fisher=True, bias=True, nan_policy="propagate", *, keepdims=False):
    """See `scipy.stats.kurtosis`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.kurtosis(cuarray.array([1., 2., 3., 10.]))), 6)
    -0.7696
    """
    a, axis = _axis(_float(a, "kurtosis", nan_policy), axis)
    n = a.shape[axis]
    m = mean(a, axis=axis, keepdims=True)
    d = a - m
    d2 = d * d
    m2 = mean(d2, axis=axis, keepdims=keepdims)
    m4 = mean(d2 * d2, axis=axis, keepdims=keepdims)
    k = m4 / (m2 * m2)
    k = where(m2 <= (numpy.finfo(m2.dtype).eps * abs_(mean(a, axis=axis, keepdims=keepdims))) ** 2,
                 numpy.nan, k)
    if not bias and n > 3:
        k = 1.0 / (n - 2) / (n - 3) * ((n * n - 1.0) * k - 3 * (n - 1) ** 2.0) + 3.0
    return k - 3 if fisher else k


class DescribeResult(NamedTuple):
    nobs: int
    minmax: tuple
    mean: object
    variance: object
    skewness: object
    kurtosis: object


def describe(a, axis=0, ddof=1, bias=True, nan_policy="propagate"):
    """See `scipy.stats.describe`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.describe(cuarray.array([1., 2., 3., 10.]))
    >>> int(res.nobs)
    4
    >>> round(float(res.mean), 6), round(float(res.variance), 6)
    (4.0, 16.666667)
    """
    if nan_policy == "omit":
        return _describe_omit(as_literal_or_array(a, "describe"), axis, ddof, bias)
    a, axis = _axis(_float(a, "describe", nan_policy), axis)
    if a.shape[axis] == 0:
        raise ValueError("The input must not be empty.")
    return DescribeResult(a.shape[axis], (min_(a, axis=axis), max_(a, axis=axis)), mean(a, axis=axis),
                          var(a, axis=axis, ddof=ddof), skew(a, axis, bias=bias), kurtosis(a, axis, bias=bias))


def _describe_omit(a, axis, ddof, bias):
    """describe's 'omit': per slice over its non-NaN values (`nobs` an int64 array of the counts
    where slices differ, as SciPy's masked result)."""
    a = a.astype(numpy.float64) if a.dtype.kind in "biu" else a

    def per(x):
        k = x.shape[-1]
        return (full(x.shape[:-1], k, dtype=numpy.int64), min_(x, axis=-1), max_(x, axis=-1), mean(x, axis=-1),
                var(x, axis=-1, ddof=ddof), skew(x, -1, bias=bias), kurtosis(x, -1, bias=bias))

    nobs, lo, hi, m, v, sk, ku = omit_reduce(per, [a], axis)
    return DescribeResult(nobs, (lo, hi), m, v, sk, ku)


@omit_nans("a", "weights")
def gmean(a, axis=0, dtype=None, weights=None, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.gmean`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.gmean(cuarray.array([1., 4., 16.]))), 6)
    4.0
    """
    flat = axis is None
    a, axis = _axis(_float(a, "gmean", nan_policy), axis)
    if dtype is not None:
        a = a.astype(dtype)
    la = log(a)
    if weights is None:
        return exp(mean(la, axis=axis, keepdims=keepdims))
    w = as_literal_or_array(weights, "gmean")
    w = w.ravel() if flat else w
    return exp(sum_(la * w, axis=axis, keepdims=keepdims) / sum_(w, axis=axis, keepdims=keepdims))


def hmean(a, axis=0, dtype=None, *, weights=None, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.hmean` (negative values: NaN where SciPy raises, no device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.hmean(cuarray.array([1., 2., 4.]))), 6)
    1.714286
    """
    return pmean(a, -1.0, axis=axis, dtype=dtype, weights=weights, nan_policy=nan_policy, keepdims=keepdims)


@omit_nans("a", "weights")
def pmean(a, p, *, axis=0, dtype=None, weights=None, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.pmean`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.pmean(cuarray.array([1., 2., 4.]), 2)), 6)
    2.645751
    """
    if not isinstance(p, (int, float)):
        raise ValueError("Power mean only defined for exponent of type int or float.")
    if p == 0:
        return gmean(a, axis=axis, dtype=dtype, weights=weights, nan_policy=nan_policy, keepdims=keepdims)
    flat = axis is None
    a, axis = _axis(_float(a, "pmean", nan_policy), axis)
    if dtype is not None:
        a = a.astype(dtype)
    ap = a ** float(p)
    if weights is None:
        m = mean(ap, axis=axis, keepdims=keepdims)
    else:
        w = as_literal_or_array(weights, "pmean")
        w = w.ravel() if flat else w
        m = sum_(ap * w, axis=axis, keepdims=keepdims) / sum_(w, axis=axis, keepdims=keepdims)
    return m ** (1.0 / p)


def _mean_kept(x, axis, omit):
    """SciPy's `_xp_mean` with keepdims: NaNs (omit) weighted 0, the weights of x's dtype."""
    if not omit:
        return mean(x, axis=axis, keepdims=True)
    nan = isnan(x)
    w = where(nan, 0.0, 1.0).astype(x.dtype)
    return sum_(where(nan, 0.0, x) * w, axis=axis, keepdims=True) / sum_(w, axis=axis, keepdims=True)


def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """See `scipy.stats.zmap`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> stats.zmap(cuarray.array([1., 2.]), cuarray.array([1., 2., 3., 4.]))
    array([-1.34164079, -0.4472136 ])
    """
    like_zscore = scores is compare  # then slices of (near) zero spread are NaN, as SciPy's
    # SciPy's steps, float16 too: the variance the mean of squared deviations times n / (n - ddof)
    omit = nan_policy == "omit"
    scores = _policy("propagate" if omit else nan_policy, as_literal_or_array(scores, "zmap"))
    compare = _policy("propagate" if omit else nan_policy, as_literal_or_array(compare, "zmap"))
    dtype = numpy.result_type(scores.dtype, compare.dtype)
    dtype = numpy.dtype(numpy.float64) if dtype.kind in "biu" else dtype
    scores, compare = scores.astype(dtype, copy=False), compare.astype(dtype, copy=False)
    mn = _mean_kept(compare, axis, omit)
    d = compare - mn
    var = _mean_kept(d * conj(d) if dtype.kind == "c" else d * d, axis, omit)
    if ddof != 0:
        n = compare.size if axis is None else compare.shape[normalize_axis_index(axis, compare.ndim)]
        n = full(var.shape, n, dtype=var.dtype)
        if omit:
            n = n - sum_(isnan(compare).astype(var.dtype), axis=axis, keepdims=True)
        nc = n - ddof
        var = var * where(real(nc) > 0, n / where(real(nc) > 0, nc, 1), math.nan).astype(var.dtype)
    std = var ** 0.5
    z = (scores - mn) / std
    if like_zscore:
        zero = (real(std) if dtype.kind == "c" else std) <= abs_(numpy.finfo(dtype).eps * mn)
        z = where(zero, math.nan, z).astype(z.dtype, copy=False)
    return z


def zscore(a, axis=0, ddof=0, nan_policy="propagate"):
    """See `scipy.stats.zscore`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> stats.zscore(cuarray.array([1., 2., 3., 4.]))
    array([-1.34164079, -0.4472136 ,  0.4472136 ,  1.34164079])
    """
    return zmap(a, a, axis=axis, ddof=ddof, nan_policy=nan_policy)


def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """See `scipy.stats.rankdata` (NaN anywhere in a slice makes its ranks NaN, as SciPy's
    'propagate'). One stable sort along the axis, tie groups by a scan. The ranks are floating for
    every method, as SciPy 1.18's: the input's floating dtype, float64 for integers and bools
    (SciPy 1.17 gave int64 for all methods but 'average').

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> stats.rankdata(cuarray.array([10, 30, 20, 20]))
    array([1. , 4. , 2.5, 2.5])
    """
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError('unknown method "{}"'.format(method))
    a = _policy(nan_policy, as_literal_or_array(a, "rankdata"), omit=True)
    if axis is None:
        a, axis = a.ravel(), -1
    a = moveaxis(a, axis, -1)
    n = a.shape[-1]
    dtype = numpy.result_type(a.dtype, numpy.float16) if a.dtype.kind in "fc" else numpy.dtype(numpy.float64)
    if a.size == 0:
        return moveaxis(empty(a.shape, dtype=dtype), -1, axis)
    order = argsort(a, axis=-1, kind="stable")
    y = take_along_axis(a, order, axis=-1)
    ordinal = arange(1, n + 1, dtype=numpy.int64) * ones(a.shape, dtype=numpy.int64)
    if method == "ordinal":
        ranks = ordinal
    else:
        new = concatenate([ones(a.shape[:-1] + (1,), dtype=bool), y[..., 1:] != y[..., :-1]], axis=-1)
        dense = cumsum(new.astype(numpy.int64), axis=-1)  # 1-based tie-group number
        if method == "dense":
            ranks = dense
        else:
            # first and last ordinal position of each tie group, gathered per element
            firsts = where(new, ordinal, 0)
            start = _running_max(firsts)
            ends_flag = concatenate([new[..., 1:], ones(a.shape[:-1] + (1,), dtype=bool)], axis=-1)
            lasts = where(ends_flag, ordinal, n + 1)
            end = _running_min_reversed(lasts)
            if method == "min":
                ranks = start
            elif method == "max":
                ranks = end
            else:
                ranks = (start + end) * 0.5
    out = empty(a.shape, dtype=dtype)
    put_along_axis(out, order, ranks.astype(dtype), axis=-1)
    if a.dtype.kind in "fc":
        # 'omit': NaNs sort last, each its own tie group, so the other ranks are those among the
        # non-NaN values; only the NaNs' own ranks become NaN. Otherwise a NaN spoils its slice.
        bad = isnan(a) if nan_policy == "omit" else any_(isnan(a), axis=-1, keepdims=True)
        out = where(bad, numpy.nan, out)  # a Python float: out keeps its dtype (NEP 50)
    return moveaxis(out, -1, axis)


def _running_max(x):
    return maximum.accumulate(x, axis=-1)


def _running_min_reversed(x):
    return minimum.accumulate(x[..., ::-1], axis=-1)[..., ::-1]


@omit_nans("a")
def trim_mean(a, proportiontocut, axis=0, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.trim_mean` (a full sort along the axis).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.trim_mean(cuarray.array([1., 2., 3., 4., 100.]), 0.2)), 6)
    3.0
    """
    a = _float(a, "trim_mean", nan_policy)
    ndim = a.ndim
    if keepdims:
        m = trim_mean(a, proportiontocut, axis)
        return m.reshape((1,) * ndim) if axis is None else expand_dims(m, axis)
    if a.ndim == 0:  # SciPy 1.17+: a 0-d sample is one value
        return trim_mean(a.reshape(1), proportiontocut, 0).reshape(())
    if axis is None:
        a, axis = a.ravel(), 0
    n = a.shape[axis]
    if n == 0:  # SciPy's NaN for each empty slice
        return _nan_slices(a, axis)
    lo = int(proportiontocut * n)
    hi = n - lo
    if lo >= hi:
        raise ValueError("Proportion too big.")
    s = moveaxis(sort(a, axis=axis), axis, -1)[..., lo:hi]
    return mean(s, axis=-1)


def _nan_slices(a, axis):
    """NaN for every slice along `axis` (SciPy's answer for empty slices), of a's floating dtype."""
    shape = a.shape[:axis % a.ndim] + a.shape[axis % a.ndim + 1:]
    dt = a.dtype if a.dtype.kind in "fc" else numpy.dtype(numpy.float64)
    return full(shape, numpy.nan, dtype=dt)


def _rounded_once(fn, x):
    """fn(x) correctly rounded in float32 (computed in float64, rounded once), as the host's libm
    gives it: the device's expf/logf/log1pf may be an ulp or two off, and with a tiny lmb SciPy's
    float32 value hangs on those ulps (e^(-4e-8) is 0.99999994 on the host, 1 from the device's
    expf, and log1p(-1) then made the log-likelihood inf)."""
    if x.dtype == numpy.float32:
        return fn(x.astype(numpy.float64)).astype(numpy.float32)
    return fn(x)


def _log_var(logx, axis):
    """log var(x) from log x, SciPy's `_log_var` operation for operation (its rounding too: in
    float32 a tiny lmb leaves x^lmb a few ulps apart, and only SciPy's order of operations gives
    SciPy's value): log |x - mean| as SciPy's signed two-term logsumexp, then the log of the
    mean square, in logarithms throughout so that far-out powers keep their digits."""
    logn = math.log(logx.shape[axis])
    logmean = _logsumexp(logx, axis) - logn
    top = maximum(logx, logmean)
    at_x, at_mean = logx == top, logmean == top
    m = at_x.astype(logx.dtype) - at_mean.astype(logx.dtype)  # the weight of the top term
    s = where(at_x, 0.0, _rounded_once(exp, logx - top)) - where(at_mean, 0.0, _rounded_once(exp, logmean - top))
    s = where(s == 0, s, s / m)
    s = where(s < -1, -s - 2, s)
    logxmu = _rounded_once(log1p, s) + _rounded_once(log, abs_(m)) + top
    # SciPy's logsumexp takes the plain log |sum b e^a| where the shifted form is not finite (x at
    # the mean's float, log1p(-1) = -inf)
    plain = _rounded_once(log, abs_(_rounded_once(exp, logx) - _rounded_once(exp, logmean)))
    logxmu = where(isfinite(logxmu), logxmu, plain)
    return _logsumexp(2 * logxmu, axis) - logn


def _logsumexp(v, axis):
    """SciPy's logsumexp: the maxima (every tie) taken out of the sum, log1p of the rest's sum
    over their count, plus log of that count and the maximum; the plain log of the sum where that
    is not finite."""
    top = max_(v, axis=axis, keepdims=True)
    at_top = v == top
    m = sum_(at_top, axis=axis, keepdims=True, dtype=v.dtype)
    s = sum_(where(at_top, 0.0, _rounded_once(exp, v - top)), axis=axis, keepdims=True, dtype=v.dtype)
    s = where(s == 0, s, s / m)
    out = _rounded_once(log1p, s) + _rounded_once(log, m) + top
    plain = _rounded_once(log, sum_(_rounded_once(exp, v), axis=axis, keepdims=True))
    return where(isfinite(out), out, plain)


@omit_nans("data")
def boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy="propagate"):
    """See `scipy.stats.boxcox_llf`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> round(float(stats.boxcox_llf(0.5, cuarray.array([1., 2., 3.]))), 6)
    0.639393
    """
    data = _float(data, "boxcox_llf", nan_policy)
    if isinstance(lmb, numpy.generic):  # SciPy's promotion: a NumPy scalar lmb sets the type, a Python float does not
        data = data.astype(numpy.result_type(data.dtype, lmb), copy=False)
    if data.ndim == 0:  # SciPy: a 0-d sample is one value
        r = boxcox_llf(lmb, data.reshape(1))
        return r if keepdims else r.reshape(())
    if axis is None:
        data, axis = data.ravel(), 0
    n = data.shape[axis]
    if n == 0:
        out = _nan_slices(data, axis)
        return expand_dims(out, axis) if keepdims else out
    logdata = _rounded_once(log, data)
    if lmb == 0:
        logvar = log(var(logdata, axis=axis, keepdims=True))
    elif data.dtype.kind == "c":
        # var((x^l - 1) / l) = var(x^l) / l^2
        logvar = log(var(exp(lmb * logdata), axis=axis, keepdims=True)) - 2 * math.log(abs(lmb))
    else:
        logvar = _log_var(lmb * logdata, axis) - 2 * math.log(abs(lmb))
    llf = (lmb - 1) * sum_(logdata, axis=axis, keepdims=True) - n / 2 * logvar
    llf = llf.astype(data.dtype, copy=False)
    return llf if keepdims else llf.squeeze(axis)


class ModeResult(NamedTuple):
    mode: object
    count: object


@omit_nans("a", result=ModeResult)
def mode(a, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.mode` (smallest most frequent value; one sort along the axis). An empty
    slice gives SciPy 1.18's result: mode NaN (the input's floating dtype, float64 for integers),
    count 0 as the default integer, or in the mode's dtype where the result is 0-d.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.mode(cuarray.array([1, 2, 2, 3]))
    >>> int(res.mode), int(res.count)
    (2, 2)
    """
    a = _policy(nan_policy, as_literal_or_array(a, "mode"))
    if axis is None:
        if keepdims:  # SciPy keeps every reduced axis, (1,) * a.ndim, and then counts in integers
            m, c = (r.reshape((1,) * a.ndim) for r in mode(a, None))
            return ModeResult(m, c.astype(numpy.intp) if m.ndim else c)
        a, axis = a.ravel(), 0
    s = moveaxis(sort(a, axis=axis), axis, -1)
    n = s.shape[-1]
    if s.size == 0:
        shape = s.shape[:-1]
        nan_dtype = numpy.result_type(a.dtype, numpy.float16) if a.dtype.kind in "fc" else numpy.float64
        m = full(shape, numpy.nan, dtype=nan_dtype)
        if keepdims:
            m = expand_dims(m, axis)
        # SciPy 1.18 (_mode_result) casts the count to the default integer unless it is 0-d.
        c = zeros(m.shape, dtype=numpy.intp if m.ndim else nan_dtype)
        return ModeResult(m, c)
    new = concatenate([ones(s.shape[:-1] + (1,), dtype=bool), s[..., 1:] != s[..., :-1]], axis=-1)
    ordinal = arange(n, dtype=numpy.int64) * ones(s.shape, dtype=numpy.int64)
    start = _running_max(where(new, ordinal, 0))
    count = ordinal - start + 1  # running length of the current run
    best = take_along_axis(count, argsort(-count, axis=-1, kind="stable")[..., :1], axis=-1)
    # the first (smallest) value whose run reaches the best length
    idx = argsort(-(count == best).astype(numpy.int8), axis=-1, kind="stable")[..., :1]
    m = take_along_axis(s, idx, axis=-1)
    c = best
    if not keepdims:
        m, c = m[..., 0], c[..., 0]
    else:
        m, c = moveaxis(m, -1, axis), moveaxis(c, -1, axis)
    return ModeResult(m, c)
