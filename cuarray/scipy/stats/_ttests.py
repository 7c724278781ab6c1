"""Student's t tests and simple linear regression of scipy.stats on the device: ttest_1samp,
ttest_rel, ttest_ind (pooled or Welch), ttest_ind_from_stats, linregress. Means and variances by cuarray's reductions,
p-values from the t distribution (`scipy.special.stdtr`, cuarray's); `nan_policy='omit'` by
NaN-aware moments (the counts per slice are arrays) or, for linregress's paired samples,
`_omit`."""

from __future__ import annotations

import collections

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._creation.basic import full
from ..._manipulation.dims import broadcast_to, expand_dims
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._sorting.sorting import sort
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.averages import mean, nanmean, nanvar, var
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ..special._stats import stdtr, stdtrit
from ._correlation import ConfidenceInterval, _check_alternative, _tails
from ._descriptive import _policy
from ._omit import has_nan, omit_nans
from ._resampling import independent_pvalue, is_method

__all__ = ["ttest_1samp", "ttest_rel", "ttest_ind", "ttest_ind_from_stats", "linregress", "TtestResult",
           "Ttest_indResult", "LinregressResult"]


class TtestResult(tuple):
    """See SciPy's `TtestResult`: unpacks as (statistic, pvalue), with `df` and
    `confidence_interval` (on the device)."""

    def __new__(cls, statistic, pvalue, df, alternative, standard_error, estimate):
        self = tuple.__new__(cls, (statistic, pvalue))
        self.df, self._alternative, self._se, self._estimate = df, alternative, standard_error, estimate
        return self

    statistic = property(lambda self: self[0])
    pvalue = property(lambda self: self[1])

    def __repr__(self):
        return "TtestResult(statistic={!r}, pvalue={!r}, df={!r})".format(self[0], self[1], self.df)

    def confidence_interval(self, confidence_level=0.95):
        """See `scipy.stats._result_classes.TtestResult.confidence_interval`."""
        level = float(confidence_level)
        if self._alternative == "two-sided":
            q = stdtrit(self.df, 0.5 + level / 2)
            return ConfidenceInterval(self._estimate - q * self._se, self._estimate + q * self._se)
        q = stdtrit(self.df, level)
        if self._alternative == "less":
            return ConfidenceInterval(self._estimate * 0 - numpy.inf, self._estimate + q * self._se)
        return ConfidenceInterval(self._estimate - q * self._se, self._estimate * 0 + numpy.inf)


def _sample(a, fn, nan_policy):
    a = _policy(nan_policy, as_literal_or_array(a, fn), omit=True)
    return a.astype(numpy.float64) if a.dtype.kind in "biu" else a


def _moments(a, axis, omit):
    """(n, mean, var with ddof 1) along `axis` (kept as length 1); n an int or, omitting NaNs,
    an array of the counts."""
    if omit and a.dtype.kind in "fc":
        n = sum_(~isnan(a), axis=axis, keepdims=True).astype(a.dtype)
        return n, nanmean(a, axis=axis, keepdims=True), nanvar(a, axis=axis, ddof=1, keepdims=True)
    return a.shape[axis], mean(a, axis=axis, keepdims=True), var(a, axis=axis, ddof=1, keepdims=True)


def _trimmed(a, trim, axis):
    """Yuen's (n - 2g, g-trimmed mean, g-winsorized variance with n - 2g - 1 degrees of freedom)
    along `axis` (kept as length 1), g = floor(trim n), from one sort; a slice holding a NaN has a
    NaN variance (SciPy: its NaNs may be sorted into the trimmed tail)."""
    s = moveaxis(sort(a, axis=axis), axis, -1)
    n = s.shape[-1]
    g = int(n * trim)
    if g == 0:
        m, v = mean(s, axis=-1, keepdims=True), var(s, axis=-1, ddof=1, keepdims=True)
    else:
        middle = s[..., g:n - g]
        tails = (broadcast_to(s[..., g:g + 1], s.shape[:-1] + (g,)),
                 broadcast_to(s[..., n - g - 1:n - g], s.shape[:-1] + (g,)))
        win = concatenate((tails[0], middle, tails[1]), axis=-1)
        v = var(win, axis=-1, ddof=2 * g + 1, keepdims=True)
        v = where(any_(isnan(s), axis=-1, keepdims=True), numpy.nan, v)
        m = mean(middle, axis=-1, keepdims=True)
    return n - 2 * g, moveaxis(m, -1, axis), moveaxis(v, -1, axis)


def _no_variance_of_one(n, v):
    """SciPy's pooled variance: a sample of one adds nothing (its ddof-1 variance is NaN)."""
    if isinstance(n, int):
        return full(v.shape, 0.0, dtype=v.dtype) if n == 1 else v
    return where(n == 1, 0.0, v).astype(v.dtype)


def _pvalue(t, df, alternative):
    return _tails(lambda s: stdtr(df, s), lambda s: stdtr(df, -s), t, alternative)


def _finish(t, df, alternative, se, est, axis, keepdims, p=None):
    p = (_pvalue(t, df, alternative) if p is None else p).astype(t.dtype)
    df = full(t.shape, df, dtype=t.dtype) if isinstance(df, (int, float)) else broadcast_to(df, t.shape)
    out = [t, p, df, se, est]
    if not keepdims:
        out = [x.squeeze(axis) for x in out]
    return TtestResult(out[0], out[1], out[2], alternative, out[3], out[4])


def ttest_1samp(a, popmean, axis=0, nan_policy="propagate", alternative="two-sided", *, keepdims=False):
    """See `scipy.stats.ttest_1samp`. `popmean` broadcasts against the result (the axis removed).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.ttest_1samp(cuarray.array([1., 2., 3., 4., 5.]), 2.)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (1.414214, 0.2302)
    """
    _check_alternative(alternative)
    a = _sample(a, "ttest_1samp", nan_policy)
    if axis is None:
        a, axis = a.ravel(), 0
    axis = axis % a.ndim
    pm = as_parameter(popmean, "ttest_1samp")
    if pm.ndim:
        pm = expand_dims(pm, axis) if pm.ndim == a.ndim - 1 else pm
    n, m, v = _moments(a, axis, nan_policy == "omit")
    se = sqrt(v / n)
    t = (m - pm) / se
    return _finish(t, n - 1, alternative, se, m, axis, keepdims)


def ttest_rel(a, b, axis=0, nan_policy="propagate", alternative="two-sided", *, keepdims=False):
    """See `scipy.stats.ttest_rel`: the one-sample test of the differences.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.ttest_rel(cuarray.array([1., 2., 4.]), cuarray.array([1., 1., 2.]))
    >>> round(float(res.statistic), 6)
    1.732051
    """
    _check_alternative(alternative)
    a, b = _sample(a, "ttest_rel", nan_policy), _sample(b, "ttest_rel", nan_policy)
    if axis is not None and a.shape[axis] != b.shape[axis]:
        raise ValueError("unequal length arrays")
    return ttest_1samp(a - b, 0.0, axis=axis, nan_policy=nan_policy, alternative=alternative, keepdims=keepdims)


def _t_parts(a, b, axis, equal_var, trim, omit):
    """(t, df, standard error, mean difference) of the two-sample test along `axis` (kept)."""
    stats = (lambda x: _trimmed(x, trim, axis)) if trim else (lambda x: _moments(x, axis, omit))
    n1, m1, v1 = stats(a)
    n2, m2, v2 = stats(b)
    if equal_var:
        v1, v2 = _no_variance_of_one(n1, v1), _no_variance_of_one(n2, v2)
        df = n1 + n2 - 2.0
        svar = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
        se = sqrt(svar * (1.0 / n1 + 1.0 / n2))
    else:
        vn1, vn2 = v1 / n1, v2 / n2
        df = (vn1 + vn2) ** 2 / (vn1 ** 2 / (n1 - 1) + vn2 ** 2 / (n2 - 1))
        df = where(isnan(df), 1.0, df)  # SciPy: both variances zero
        se = sqrt(vn1 + vn2)
    d = m1 - m2
    return d / se, df, se, d


def _resampled(a, b, axis, t, method, alternative, equal_var, trim):
    """SciPy's permutation or Monte Carlo p-value of `t` (axis kept), the t statistic of every
    resample computed on the device (see `_resampling`)."""
    shape = numpy.broadcast_shapes(tuple(s for i, s in enumerate(a.shape) if i != axis),
                                   tuple(s for i, s in enumerate(b.shape) if i != axis))
    rows = int(numpy.prod(shape))
    x = broadcast_to(moveaxis(a, axis, -1), shape + (a.shape[axis],)).reshape(rows, a.shape[axis])
    y = broadcast_to(moveaxis(b, axis, -1), shape + (b.shape[axis],)).reshape(rows, b.shape[axis])
    observed = moveaxis(t, axis, -1).reshape(rows)

    def statistic(xs, ys):
        return _t_parts(xs, ys, xs.ndim - 1, equal_var, trim, False)[0][..., 0]

    p = independent_pvalue(x, y, statistic, method, alternative, observed)
    return moveaxis(p.reshape(shape + (1,)), -1, axis)


def ttest_ind(a, b, *, axis=0, equal_var=True, nan_policy="propagate", alternative="two-sided", trim=0,
              method=None, keepdims=False):
    """See `scipy.stats.ttest_ind` (pooled variance, or Welch's with ``equal_var=False``; `trim`:
    Yuen's trimmed test, one sort per sample). A `PermutationMethod` or `MonteCarloMethod`: the
    permutations or samples drawn on the host by SciPy's own calls on the method's generator (a
    seeded method gives SciPy's p-value), the t statistic of every resample on the device; with
    ``nan_policy='omit'`` and NaNs present, `trim` or a `method` runs one test per slice (SciPy's way).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.ttest_ind(cuarray.array([1., 2., 3., 4.]), cuarray.array([3., 4., 5., 6.]))
    >>> round(float(res.statistic), 6)
    -2.19089
    """
    _check_alternative(alternative)
    if not 0 <= trim < 0.5:
        raise ValueError("Trimming percentage should be 0 <= `trim` < .5.")
    if method is not None and is_method(method) is None:
        raise ValueError("`method` must be an instance of `PermutationMethod`, an instance of "
                         "`MonteCarloMethod`, or None (default).")
    omit = nan_policy == "omit"
    a, b = _sample(a, "ttest_ind", nan_policy), _sample(b, "ttest_ind", nan_policy)
    if axis is None:
        a, b, axis = a.ravel(), b.ravel(), 0
    axis = axis % max(a.ndim, b.ndim)
    if omit and (method is not None or trim) and has_nan([a, b]):
        return _ttest_ind_per_slice(a, b, axis, keepdims, equal_var=equal_var, alternative=alternative, trim=trim,
                                    method=method)
    t, df, se, d = _t_parts(a, b, axis, equal_var, trim, omit)
    p = None if method is None else _resampled(a, b, axis, t, method, alternative, equal_var, trim)
    return _finish(t, df, alternative, se, d, axis, keepdims, p)


def _ttest_ind_per_slice(a, b, axis, keepdims, **kw):
    """`nan_policy='omit'` with NaNs present for the paths whose statistic is not a NaN-aware
    reduction (`trim`, a resampling `method`): as SciPy does, one test per slice on each sample's
    own non-NaN values, in slice order (a method's generator advances from slice to slice as in
    SciPy), the results stacked. One device read per slice and sample (the kept counts)."""
    nd = max(a.ndim, b.ndim)
    a, b = (x.reshape((1,) * (nd - x.ndim) + x.shape) for x in (a, b))
    batch = numpy.broadcast_shapes(*(tuple(s for i, s in enumerate(x.shape) if i != axis) for x in (a, b)))
    rows = [broadcast_to(moveaxis(x, axis, -1), batch + (x.shape[axis],)).reshape(-1, x.shape[axis]) for x in (a, b)]
    parts = []
    for i in range(rows[0].shape[0]):
        x, y = rows[0][i], rows[1][i]
        r = ttest_ind(x[~isnan(x)], y[~isnan(y)], axis=0, nan_policy="propagate", **kw)
        parts.append((r[0], r[1], r.df, r._se, r._estimate))
    cols = [stack([p[j].reshape(()) for p in parts]).reshape(batch) for j in range(5)]
    if keepdims:
        cols = [expand_dims(c, axis) for c in cols]
    return TtestResult(cols[0], cols[1], cols[2], kw["alternative"], cols[3], cols[4])


Ttest_indResult = collections.namedtuple("Ttest_indResult", ("statistic", "pvalue"))


def _stats_arguments(values):
    """The summary statistics as device arrays of one floating dtype: SciPy's promotion of the
    six arguments (Python scalars weak, integers and booleans to float64)."""
    arrays = [as_parameter(v, "ttest_ind_from_stats") if not isinstance(v, (int, float)) or isinstance(v, bool)
              else v for v in values]
    dt = numpy.result_type(*[a.dtype if hasattr(a, "dtype") else a for a in arrays])
    if dt.kind not in "fc":
        dt = numpy.dtype(numpy.float64)
    return [full((), a, dtype=dt) if isinstance(a, (int, float)) else a.astype(dt, copy=False) for a in arrays]


def ttest_ind_from_stats(mean1, std1, nobs1, mean2, std2, nobs2, equal_var=True, alternative="two-sided"):
    """See `scipy.stats.ttest_ind_from_stats`. The statistic and p-value are device arrays (0-d for
    scalar arguments, where SciPy returns NumPy scalars); the arguments broadcast together.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.ttest_ind_from_stats(0.2, 0.4013, 150, 0.225, 0.4186, 200)
    >>> round(float(res.statistic), 4)
    -0.5628
    """
    _check_alternative(alternative)
    m1, s1, n1, m2, s2, n2 = _stats_arguments((mean1, std1, nobs1, mean2, std2, nobs2))
    v1, v2 = s1 * s1, s2 * s2
    if equal_var:  # (SciPy's pooled variance: a sample of one adds nothing)
        v1, v2 = where(n1 == 1, 0.0, v1), where(n2 == 1, 0.0, v2)
        df = n1 + n2 - 2.0
        denom = sqrt((((n1 - 1) * v1 + (n2 - 1) * v2) / df) * (1.0 / n1 + 1.0 / n2))
    else:
        vn1, vn2 = v1 / n1, v2 / n2
        df = (vn1 + vn2) ** 2 / (vn1 ** 2 / (n1 - 1) + vn2 ** 2 / (n2 - 1))
        df = where(isnan(df), 1.0, df)  # (both variances zero: any df that is not NaN)
        denom = sqrt(vn1 + vn2)
    t = (m1 - m2) / denom
    df = broadcast_to(df.astype(t.dtype, copy=False), t.shape)
    return Ttest_indResult(t, _pvalue(t, df, alternative).astype(t.dtype, copy=False))


class LinregressResult(tuple):
    """See SciPy's `LinregressResult`: unpacks as (slope, intercept, rvalue, pvalue, stderr), with
    `intercept_stderr`."""

    def __new__(cls, slope, intercept, rvalue, pvalue, stderr, intercept_stderr):
        self = tuple.__new__(cls, (slope, intercept, rvalue, pvalue, stderr))
        self.intercept_stderr = intercept_stderr
        return self

    slope = property(lambda self: self[0])
    intercept = property(lambda self: self[1])
    rvalue = property(lambda self: self[2])
    pvalue = property(lambda self: self[3])
    stderr = property(lambda self: self[4])


@omit_nans("x", "y")
def _linregress(x, y, alternative="two-sided", axis=0, nan_policy="propagate", keepdims=False):
    x, y = _sample(x, "linregress", nan_policy), _sample(y, "linregress", nan_policy)
    if axis is None:
        x, y, axis = x.ravel(), y.ravel(), 0
    n = x.shape[axis]
    if n == 0 or y.shape[axis] == 0:
        raise ValueError("Inputs must not be empty.")
    kw = dict(axis=axis, keepdims=keepdims)
    xm, ym = mean(x, axis=axis, keepdims=True), mean(y, axis=axis, keepdims=True)
    dx, dy = x - xm, y - ym
    ssxm, ssym, ssxym = mean(dx * dx, **kw), mean(dy * dy, **kw), mean(dx * dy, **kw)
    zero = (ssxm == 0) | (ssym == 0)
    r = where(zero, where(ssxym == 0, numpy.nan, 0.0), ssxym / sqrt(where(zero, 1.0, ssxm * ssym)))
    r = where(r > 1.0, 1.0, where(r < -1.0, -1.0, r))
    slope = ssxym / ssxm
    xm, ym = (xm, ym) if keepdims else (xm.squeeze(axis), ym.squeeze(axis))
    intercept = ym - slope * xm
    # SciPy 1.18 has no n == 2 case (1.17 returned p 0 or 1 and zero errors): df = 0 gives a NaN
    # p-value (stdtr's df <= 0) and 0/0 or x/0 standard errors, as here.
    df = n - 2
    tiny = 1.0e-20
    t = r * sqrt(df / ((1.0 - r + tiny) * (1.0 + r + tiny)))
    p = _pvalue(t, df, alternative).astype(r.dtype)
    se = sqrt((1 - r * r) * ssym / ssxm / df)
    return slope, intercept, r, p, se, se * sqrt(ssxm + xm * xm)


def linregress(x, y, alternative="two-sided", *, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.linregress`, along `axis` (SciPy 1.17+). All-identical x values raise
    SciPy's ValueError (one device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.linregress(cuarray.array([0., 1., 2., 3.]), cuarray.array([1., 3., 5., 7.]))
    >>> round(float(res.slope), 6), round(float(res.intercept), 6)
    (2.0, 1.0)
    """
    _check_alternative(alternative)
    xa = as_literal_or_array(x, "linregress")
    if xa.size and (xa.shape[axis] if axis is not None else xa.size) > 1:
        flat = xa.ravel() if axis is None else xa
        same = max_(flat, axis=0 if axis is None else axis) == min_(flat, axis=0 if axis is None else axis)
        if bool(any_(same).get()):
            raise ValueError("Cannot calculate a linear regression if all x values are identical")
    res = _linregress(xa, y, alternative, axis, nan_policy, keepdims)
    return LinregressResult(*res)
