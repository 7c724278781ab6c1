"""ks_2samp of scipy.stats: the statistic on the device (one stable argsort of each pooled row,
the two empirical CDFs by a scan of the sample labels, read at the end of each tie group; the
extremes of their difference and where they lie), the p-value on the host from the statistic and
the two sample sizes (SciPy's null distributions: the exact lattice-path counts or Smirnov's
limiting forms; host work: a few numbers per distinct statistic). nan_policy='omit' with NaNs:
one run per distinct pair of counts, as mannwhitneyu."""

from __future__ import annotations

import math
import warnings

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._indexing.inserting import take, take_along_axis
from ..._logic.content import isnan
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate
from ..._manipulation.transpose import moveaxis
from ..._math.sums_scan import cumsum
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax, argmin
from ..._sorting.sorting import argsort
from ._descriptive import rankdata
from ._rank_tests import _front, _samples

__all__ = ["ks_2samp", "KstestResult"]

_MAX_AUTO_N = 10000  # SciPy's 'auto': exact while both samples are at most this long


class KstestResult(tuple):
    """See SciPy's `KstestResult`: unpacks as (statistic, pvalue), with `statistic_location` and
    `statistic_sign`."""

    def __new__(cls, statistic, pvalue, statistic_location, statistic_sign):
        self = tuple.__new__(cls, (statistic, pvalue))
        self.statistic_location, self.statistic_sign = statistic_location, statistic_sign
        return self

    statistic = property(lambda self: self[0])
    pvalue = property(lambda self: self[1])

    def __repr__(self):
        return "KstestResult(statistic={!r}, pvalue={!r}, statistic_location={!r}, statistic_sign={!r})".format(
            self[0], self[1], self.statistic_location, self.statistic_sign)


def _cdf_values(k, n, dt):
    """k / n as NumPy's linspace(0, 1, n + 1)[k] gives it (k times the float64 step, the last 1)."""
    return where(k == n, 1.0, k.astype(numpy.float64) * (1.0 / n)).astype(dt)


def _rows(x, y, alternative, dt):
    """(D, its location, its sign) for rows x (B, n1) and y (B, n2) without NaNs."""
    n1, n2 = x.shape[-1], y.shape[-1]
    z = concatenate((x, y), axis=-1)
    order = argsort(z, axis=-1, kind="stable")
    zs = take_along_axis(z, order, axis=-1)
    k1 = cumsum((order < n1).astype(numpy.int64), axis=-1)
    end = rankdata(zs, "max", axis=-1).astype(numpy.int64) - 1  # each tie group's last position
    k1 = take_along_axis(k1, end, axis=-1)
    k2 = end + 1 - k1
    diff = _cdf_values(k1, n1, dt) - _cdf_values(k2, n2, dt)
    imin, imax = argmin(diff, axis=-1, keepdims=True), argmax(diff, axis=-1, keepdims=True)
    min_s = -take_along_axis(diff, imin, axis=-1)[..., 0]
    min_s = where(min_s < 0, 0.0, where(min_s > 1, 1.0, min_s)).astype(dt)
    max_s = take_along_axis(diff, imax, axis=-1)[..., 0]
    loc_min, loc_max = take_along_axis(zs, imin, axis=-1)[..., 0], take_along_axis(zs, imax, axis=-1)[..., 0]
    if alternative == "less":
        return min_s, loc_min, full(min_s.shape, -1, dtype=numpy.int8)
    if alternative == "greater":
        return max_s, loc_max, full(max_s.shape, 1, dtype=numpy.int8)
    sel = min_s > max_s
    return where(sel, min_s, max_s).astype(dt), where(sel, loc_min, loc_max), where(sel, -1, 1).astype(numpy.int8)


def _one_sided_limit(d, n1, n2):
    """Hodges' (1958) approximation (his eq. 5.3) to the one-sided tail, m the larger sample."""
    m, n = sorted([float(n1), float(n2)], reverse=True)
    z = math.sqrt(m * n / (m + n)) * d
    return math.exp(-2 * z * z - 2 * z * (m + 2 * n) / math.sqrt(m * n * (m + n)) / 3.0)


def pvalue(d, n1: int, n2: int, method: str, alternative: str) -> float:
    """SciPy's p-value of the statistic `d` (a NumPy scalar of the result dtype) for sizes n1, n2."""
    # host work: SciPy's exact lattice-path counts and its kstwo distribution (scipy.stats)
    from scipy import stats as host_stats  # import time: SciPy only when a p-value is asked for
    from scipy.stats import _stats_py

    if numpy.isnan(d):
        return numpy.nan
    g = math.gcd(n1, n2)
    if method == "auto":
        method = "exact" if max(n1, n2) <= _MAX_AUTO_N else "asymp"
    elif method == "exact" and n1 // g >= numpy.iinfo(numpy.int32).max / (n2 // g):
        method = "asymp"
        warnings.warn(f"Exact ks_2samp calculation not possible with samples sizes {n1} and {n2}. "
                      "Switching to 'asymp'.", RuntimeWarning, stacklevel=3)
    prob = numpy.nan
    if method == "exact":
        ok, _, prob = _stats_py._attempt_exact_2kssamp(n1, n2, numpy.int64(g), d, alternative)
        if not ok:
            method = "asymp"
            warnings.warn("ks_2samp: Exact calculation unsuccessful. Switching to method=asymp.",
                          RuntimeWarning, stacklevel=3)
    if method == "asymp":
        if alternative == "two-sided":
            en = float(n1) * n2 / (n1 + n2)
            prob = host_stats.kstwo.sf(d, numpy.round(en))
        else:
            prob = _one_sided_limit(float(d), n1, n2)
    return float(numpy.clip(prob, 0, 1))


def _pvalues(d, n1, n2, method, alternative, dt):
    """The p-values of the device statistics `d` (one read; one host evaluation per distinct D)."""
    host = numpy.asarray(d.get())
    values, inverse = numpy.unique(host.ravel(), return_inverse=True)
    probs = numpy.array([pvalue(v, n1, n2, method, alternative) for v in values], dtype=numpy.float64)
    return asarray(probs[inverse].reshape(host.shape).astype(dt))


def _omitting(x, y, alternative, method, dt):
    """Each row's test over its non-NaN values, once per distinct pair of counts; NaN where a
    sample is left empty. The sign is then floating, as SciPy's slice-by-slice results are."""
    xr, cx = _front(x)
    yr, cy = _front(y)
    loc_dt = numpy.result_type(x.dtype, y.dtype)
    out = [full((len(cx),), numpy.nan, dtype=t) for t in (dt, dt, numpy.result_type(loc_dt, dt), dt)]
    for k1, k2 in sorted(set(zip(cx.tolist(), cy.tolist()))):
        if k1 == 0 or k2 == 0:
            continue
        rows = asarray(numpy.nonzero((cx == k1) & (cy == k2))[0])
        d, loc, sign = _rows(take(xr, rows, axis=0)[:, :k1], take(yr, rows, axis=0)[:, :k2], alternative, dt)
        p = _pvalues(d, k1, k2, method, alternative, dt)
        for o, v in zip(out, (d, p, loc, sign)):
            o[rows] = v
    return out


def ks_2samp(data1, data2, alternative="two-sided", method="auto", *, axis=0, nan_policy="propagate",
             keepdims=False):
    """See `scipy.stats.ks_2samp`. The statistic, its location and sign on the device; the
    p-value from the statistic on the host (one read; SciPy's exact path counts or its limiting
    distributions, SciPy imported for it). ``nan_policy='omit'`` with NaNs: the test of each
    slice's non-NaN values, once per distinct pair of counts.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.ks_2samp(cuarray.array([1., 2., 3., 4.]), cuarray.array([3.5, 5., 6.]))
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.75, 0.228571)
    """
    if method not in ("auto", "exact", "asymp"):
        raise ValueError(f"Invalid value for mode: {method}")
    alternative = {"t": "two-sided", "g": "greater", "l": "less"}.get(str(alternative).lower()[:1], alternative)
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"Invalid value for alternative: {alternative}")
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'omit', 'raise', 'propagate'}.")
    x, y = as_literal_or_array(data1, "ks_2samp"), as_literal_or_array(data2, "ks_2samp")
    dt = numpy.result_type(x.dtype, y.dtype)
    dt = dt if dt.kind == "f" else numpy.dtype(numpy.float64)
    ndim = max(x.ndim, y.ndim, 1)
    flat = axis is None
    if flat:
        x, y, axis = x.ravel(), y.ravel(), 0
    axis = int(axis) % ndim if not flat else 0
    x, y = _samples(x, y, axis, numpy.result_type(x.dtype, y.dtype))
    batch = x.shape[:-1]
    rows = int(numpy.prod(batch))
    x, y = x.reshape(rows, x.shape[-1]), y.reshape(rows, y.shape[-1])
    nan = None
    if dt.kind == "f" and x.size + y.size:
        nan = any_(isnan(x), axis=-1) | any_(isnan(y), axis=-1)
        if not bool(any_(nan).get()):
            nan = None
        elif nan_policy == "raise":
            raise ValueError("The input contains nan values")
    if nan is not None and nan_policy == "omit" and (flat or ndim == 1):  # SciPy drops the NaNs of one slice
        (xr, cx), (yr, cy) = _front(x), _front(y)
        x, y, nan = xr[:, :int(cx[0])], yr[:, :int(cy[0])], None
    if nan is not None and nan_policy == "omit":
        out = _omitting(x, y, alternative, method, dt)
    elif x.shape[-1] == 0 or y.shape[-1] == 0 or (nan is not None and bool(all_(nan).get())):
        warnings.warn("One or more sample arguments is too small; all returned values will be NaN.",
                      RuntimeWarning, stacklevel=2)
        out = [full((x.shape[0],), numpy.nan, dtype=dt) for _ in range(4)]
    else:
        if nan is not None:  # the rows holding a NaN computed on zeros, their results NaN below
            x, y = where(nan[:, None], 0, x).astype(x.dtype), where(nan[:, None], 0, y).astype(y.dtype)
        d, loc, sign = _rows(x, y, alternative, dt)
        p = _pvalues(where(nan, numpy.nan, d) if nan is not None else d, x.shape[-1], y.shape[-1],
                     method, alternative, dt)
        out = [d, p, loc, sign]
        if nan is not None:  # SciPy's NaN results for the slices holding a NaN, the sign floating
            out = [where(nan, numpy.nan, o).astype(numpy.result_type(o.dtype, dt)) for o in out]
    out = [o.reshape(batch) for o in out]
    if keepdims:
        out = [o.reshape((1,) * ndim) if flat else moveaxis(o[..., None], -1, axis) for o in out]
    return KstestResult(*out)
