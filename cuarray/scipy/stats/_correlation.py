"""pearsonr and spearmanr: the statistics and their p-values on the device, as SciPy 1.18 computes
them: reductions for the statistic (ranks by one sort per slice for spearmanr), then the null
distribution's tail from cuarray.scipy.special (the beta distribution of r through `betainc`,
Student's t through `stdtr`). No host read, no SciPy at run time."""

from __future__ import annotations

from collections import namedtuple
from typing import NamedTuple

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate
from ..._manipulation.transpose import moveaxis
from ..._math.hyperbolic import arctanh, tanh
from ..._math.misc import abs as abs_
from ..._math.misc import sqrt
from ..._math.rounding import rint
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.averages import mean
from ..._statistics.correlating import corrcoef
from ..._statistics.order import max as max_
from ..special._gamma import betainc
from ..special._stats import ndtri, stdtr
from ._descriptive import _policy, rankdata
from ._omit import has_nan, omit_nans, omit_reduce

__all__ = ["pearsonr", "spearmanr", "PearsonRResult", "SignificanceResult", "ConfidenceInterval"]

_ALTERNATIVES = ("two-sided", "less", "greater")

ConfidenceInterval = namedtuple("ConfidenceInterval", ["low", "high"])


class SignificanceResult(NamedTuple):
    """See SciPy's `SignificanceResult`: (statistic, pvalue); `correlation` is the statistic."""

    statistic: object
    pvalue: object

    @property
    def correlation(self):
        return self.statistic


class PearsonRResult(tuple):
    """See `scipy.stats._result_classes.PearsonRResult`: unpacks as (statistic, pvalue), with
    `correlation` (the statistic) and `confidence_interval`."""

    def __new__(cls, statistic, pvalue, alternative, n):
        self = tuple.__new__(cls, (statistic, pvalue))
        self._alternative = alternative
        self._n = n
        return self

    statistic = property(lambda self: self[0])
    pvalue = property(lambda self: self[1])
    correlation = property(lambda self: self[0])

    def __repr__(self):
        return "PearsonRResult(statistic={!r}, pvalue={!r})".format(self[0], self[1])

    def confidence_interval(self, confidence_level=0.95, method=None):
        """See `scipy.stats._result_classes.PearsonRResult.confidence_interval`: Fisher's
        transformation on the device (SciPy's default); [-1, 1] for n <= 3. A `method`
        (bootstrap) raises ValueError, as SciPy does for arrays that are not NumPy's."""
        if method is not None:
            raise ValueError("`method` must be `None` if `pearsonr` arguments were not NumPy arrays.")
        r, n = self[0], self._n
        level = float(confidence_level)
        minus_one, one = full(r.shape, -1.0, dtype=r.dtype), full(r.shape, 1.0, dtype=r.dtype)
        if n <= 3:  # no finite standard error: the whole interval
            return ConfidenceInterval(minus_one, one)
        zr = arctanh(r)
        se = (1.0 / (n - 3)) ** 0.5
        if self._alternative == "two-sided":
            h = ndtri(full((), 0.5 + level / 2, dtype=r.dtype))
            return ConfidenceInterval(tanh(zr - h * se), tanh(zr + h * se))
        h = ndtri(full((), level, dtype=r.dtype))
        if self._alternative == "less":
            return ConfidenceInterval(minus_one, tanh(zr + h * se))
        return ConfidenceInterval(tanh(zr - h * se), one)


def _check_alternative(alternative):
    if alternative not in _ALTERNATIVES:
        raise ValueError("`alternative` must be 'less', 'greater', or 'two-sided'.")


def _tails(cdf, sf, stat, alternative):
    """SciPy's `_get_pvalue` for a distribution symmetric about 0 given as its cdf and sf."""
    if alternative == "less":
        return cdf(stat)
    if alternative == "greater":
        return sf(stat)
    return 2 * sf(abs_(stat))


def _beta_pvalue(r, n, alternative):
    """p-values of Pearson's r under the null: r is Beta(n/2 - 1, n/2 - 1) on (-1, 1). By that
    symmetry sf(r) = betainc(ab, ab, (1 - r)/2), which keeps its digits as |r| -> 1 (SciPy's
    betaincc(ab, ab, (1 + r)/2) is the same value)."""
    ab = n / 2 - 1
    return _tails(lambda t: betainc(ab, ab, (1 + t) / 2), lambda t: betainc(ab, ab, (1 - t) / 2), r, alternative)


def _unit_scaled_norm(d):
    """||d|| along the last axis as max|d| * ||d / max|d|||: no overflow or underflow of the
    squares (SciPy's scaling)."""
    dmax = max_(abs_(d), axis=-1, keepdims=True)
    return dmax * sqrt(sum_((d / dmax) ** 2, axis=-1, keepdims=True))


def pearsonr(x, y, *, alternative="two-sided", method=None, axis=0):
    """See `scipy.stats.pearsonr` (SciPy 1.18's computation): the statistic and the p-value (the
    exact beta distribution of r) on the device; `confidence_interval()` by Fisher's
    transformation. A `method` (permutation/Monte Carlo tests) raises ValueError, as SciPy does
    for arrays that are not NumPy's. A constant slice gives NaN without SciPy's
    ConstantInputWarning (detecting it would cost a device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([1., 2., 3., 4.]), cuarray.array([2., 1., 4., 5.])
    >>> res = stats.pearsonr(x, y)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.848528, 0.151472)
    """
    _check_alternative(alternative)
    if method is not None:
        raise ValueError("`method` must be `None` if arguments are not NumPy arrays.")
    x, y = as_literal_or_array(x, "pearsonr"), as_literal_or_array(y, "pearsonr")
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        raise ValueError("This function does not support complex data")
    dtype = numpy.result_type(x.dtype, y.dtype)
    if dtype.kind != "f":  # SciPy's promotion with force_floating: integers and bools in float64
        dtype = numpy.dtype(numpy.float64)
    if axis is None:
        x, y, axis = x.ravel(), y.ravel(), -1
    if int(axis) != axis:
        raise ValueError("`axis` must be an integer.")
    axis = int(axis)
    try:
        numpy.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError("`x` and `y` must be broadcastable.") from None
    ndim = max(x.ndim, y.ndim)
    x = x.reshape((1,) * (ndim - x.ndim) + x.shape)
    y = y.reshape((1,) * (ndim - y.ndim) + y.shape)
    if x.shape[axis] != y.shape[axis]:
        raise ValueError("`x` and `y` must have the same length along `axis`.")
    n = x.shape[axis]
    if n < 2:
        raise ValueError("`x` and `y` must have length at least 2.")
    x = moveaxis(x, axis, -1).astype(dtype, copy=False)
    y = moveaxis(y, axis, -1).astype(dtype, copy=False)
    # A constant slice has no correlation: NaN (SciPy's test is exact equality with the first
    # element; the centred data of a constant slice may be rounding noise, not zero).
    const = all_(x == x[..., :1], axis=-1) | all_(y == y[..., :1], axis=-1)
    xm = x - mean(x, axis=-1, keepdims=True)
    ym = y - mean(y, axis=-1, keepdims=True)
    r = sum_((xm / _unit_scaled_norm(xm)) * (ym / _unit_scaled_norm(ym)), axis=-1)
    r = where(const, numpy.nan, where(r > 1, 1.0, where(r < -1, -1.0, r))).astype(dtype)
    if n == 2:  # r is +-1 (exactly, after rounding) and the test has no power: p is 1
        r = rint(r)
        p = where(isnan(r), numpy.nan, 1.0).astype(dtype)
    else:
        p = _beta_pvalue(r, n, alternative).astype(dtype)
    return PearsonRResult(r, p, alternative, n)


def _pair_rho(ra, rb):
    """(rho, p-value arguments) of rows ra, rb (pairs, k) without NaN: Pearson's r of the rows'
    average ranks, NaN where every value of the pair is zero (SciPy's masked path)."""
    k = ra.shape[-1]
    if k == 0:
        nan = full(ra.shape[:-1], numpy.nan, dtype=numpy.float64)
        return nan, nan
    if k == 1:
        raise ValueError("The input must have at least 3 entries!")
    ca, cb = rankdata(ra, axis=-1), rankdata(rb, axis=-1)
    ca, cb = ca - mean(ca, axis=-1, keepdims=True), cb - mean(cb, axis=-1, keepdims=True)
    rho = sum_(ca * cb, axis=-1) / sqrt(sum_(ca * ca, axis=-1) * sum_(cb * cb, axis=-1))
    rho = where(any_((ra != 0) | (rb != 0), axis=-1), rho, numpy.nan)
    return rho, full(rho.shape, k - 2.0, dtype=numpy.float64)


def _omit_pairwise(arrays, axis, alternative):
    """SciPy's spearmanr with nan_policy='omit' and NaNs present (its masked-array path): every
    pair of variables over the observations where both are present, all pairs at once (one
    `omit_reduce`: a run per distinct count). Float64 results; a matrix for more than two
    variables (ones and zeros on the diagonals)."""
    if axis is None:
        arrays, axis = [x.ravel() for x in arrays], 0
    if any(x.ndim > 2 for x in arrays):
        raise ValueError("spearmanr only handles 1-D or 2-D arrays")
    cols = []
    for x in arrays:  # variables as columns (SciPy's column_stack / vstack, then a transpose)
        x = x.astype(numpy.float64)
        cols.append(x[:, None] if x.ndim == 1 else (x if axis % 2 == 0 else x.T))
    v = concatenate(cols, axis=1) if len(cols) > 1 else cols[0]
    nv = v.shape[1]
    if nv < 2:
        raise ValueError("`spearmanr` needs at least 2 variables to compare")
    i, j = (asarray(k) for k in numpy.triu_indices(nv, 1))
    rho, dof = omit_reduce(_pair_rho, [take(v, i, axis=1).T, take(v, j, axis=1).T], -1)
    q = dof / ((rho + 1.0) * (1.0 - rho))
    t = rho * sqrt(where(q < 0, 0.0, q))
    p = _tails(lambda s: stdtr(dof, s), lambda s: stdtr(dof, -s), t, alternative).astype(numpy.float64)
    if nv == 2:
        return SignificanceResult(rho[0], p[0])
    rs, ps = full((nv, nv), 1.0, dtype=numpy.float64), full((nv, nv), 0.0, dtype=numpy.float64)
    for out, val in ((rs, rho), (ps, p)):
        out[i, j] = val
        out[j, i] = val
    return SignificanceResult(rs, ps)


def spearmanr(a, b=None, axis=0, nan_policy="propagate", alternative="two-sided"):
    """See `scipy.stats.spearmanr` (1-D samples, or the columns (axis=0) / rows (axis=1) of 2-D
    arrays as variables): Pearson's r of the average ranks, and the p-value from Student's t
    with n - 2 degrees of freedom (`stdtr`, as SciPy 1.18), all on the device. No
    ConstantInputWarning (a device read). ``nan_policy='omit'`` with NaNs: SciPy's masked path,
    every pair of variables over its complete observations (float64 results), all pairs in one
    run per distinct count.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([1., 2., 3., 4.]), cuarray.array([2., 1., 4., 5.])
    >>> res = stats.spearmanr(x, y)
    >>> round(float(res.statistic), 6)
    0.8
    """
    _check_alternative(alternative)
    if axis is not None and axis not in (0, 1, -1, -2):
        raise ValueError("The input must have at most 2 dimensions.")
    a = _policy(nan_policy, as_literal_or_array(a, "spearmanr"), omit=True)
    arrays = [a] if b is None else [a, _policy(nan_policy, as_literal_or_array(b, "spearmanr"), omit=True)]
    if nan_policy == "omit" and has_nan(arrays):
        return _omit_pairwise(arrays, axis, alternative)
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
        rho = rho[1, 0]
    dof = n - 2
    # rho = +-1 gives t = +-inf (p 0); the clip drops rounding's small negative values.
    q = dof / ((rho + 1.0) * (1.0 - rho))
    t = rho * sqrt(where(q < 0, 0.0, q))
    p = _tails(lambda s: stdtr(dof, s), lambda s: stdtr(dof, -s), t, alternative)
    return SignificanceResult(rho, p.astype(rho.dtype))



@omit_nans("x", "y", result=SignificanceResult)
def pointbiserialr(x, y, *, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.pointbiserialr`: Pearson's r of the two samples (`pearsonr`), with SciPy's
    `nan_policy` (paired: 'omit' drops a position where either sample holds a NaN) and keepdims.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([0., 0., 1., 1., 1.]), cuarray.array([1., 2., 4., 3., 5.])
    >>> res = stats.pointbiserialr(x, y)
    >>> round(float(res.statistic), 6)
    0.866025
    """
    x = _policy(nan_policy, as_literal_or_array(x, "pointbiserialr"), omit=True)
    y = _policy(nan_policy, as_literal_or_array(y, "pointbiserialr"), omit=True)
    ndim = max(x.ndim, y.ndim, 1)
    r, p = pearsonr(x, y, axis=axis)
    if keepdims:
        if axis is None:
            r, p = r.reshape((1,) * ndim), p.reshape((1,) * ndim)
        else:
            ax = int(axis) % ndim
            r, p = moveaxis(r[..., None], -1, ax), moveaxis(p[..., None], -1, ax)
    return SignificanceResult(r, p)
