"""ks_1samp and kstest of scipy.stats: the one-sample Kolmogorov-Smirnov statistic on the device
(each slice sorted, the cdf called once on the sorted batch, D+ = max (i + 1)/n - F(x_i) and
D- = max F(x_i) - i/n and where they lie found by argmax), the p-values from the statistic:
the one-sided ones (`ksone`: `smirnov`), 'asymp' (`kstwobign`: `kolmogorov`) and 'approx'
(twice the one-sided) on the device; 'exact' (`kstwo`, Simard and L'Ecuyer's algorithm) on the
host from SciPy, one read of the statistics (one evaluation per distinct statistic and count).
`nan_policy='omit'` runs the whole batch at once, each slice's NaNs sorted last and masked."""

from __future__ import annotations

import math
import warnings

import numpy

from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._math.misc import clip, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ..._sorting.sorting import sort
from ..special._stats import kolmogorov, ndtr, smirnov
from . import _distn_continuous, _distn_discrete, _distn_gamma, _distn_real_shape
from ._ks import KstestResult, ks_2samp
from ._multisample import OMIT_TOO_SMALL, TOO_SMALL, keep_dims, samples_last

__all__ = ["ks_1samp", "kstest", "one_sample", "nan_results", "distribution"]

def distribution(name):
    """cuarray's distribution of SciPy's name (SciPy's AttributeError for a name it lacks)."""
    for module in (_distn_continuous, _distn_gamma, _distn_real_shape, _distn_discrete):
        if name in getattr(module, "__all__", ()) or hasattr(getattr(module, name, None), "cdf"):
            return getattr(module, name)
    raise AttributeError(f"cuarray.scipy.stats has no distribution {name!r}")


def _largest(d, xs):
    """(max of `d` along the last axis, the sorted value where it lies)."""
    i = argmax(d, axis=-1, keepdims=True)
    return take_along_axis(d, i, axis=-1)[..., 0], take_along_axis(xs, i, axis=-1)[..., 0]


def _kstwo_sf(d, n, dt):
    """SciPy's exact two-sided p-values `kstwo.sf(d, n)` of the device statistics (one read)."""
    from scipy.stats import kstwo  # host work: Simard and L'Ecuyer's algorithm lives in SciPy only

    dh, nh = numpy.asarray(d.get()), numpy.broadcast_to(numpy.asarray(n.get() if hasattr(n, "get") else n), d.shape)
    pairs, inverse = numpy.unique(numpy.stack([dh.ravel(), nh.ravel().astype(numpy.float64)]), axis=1,
                                  return_inverse=True)
    with numpy.errstate(invalid="ignore"):
        probs = numpy.asarray(kstwo.sf(pairs[0], numpy.maximum(pairs[1], 1)), dtype=numpy.float64)
    return asarray(probs[numpy.ravel(inverse)].reshape(dh.shape).astype(dt))


def _statistic(rows, cdf, args, alternative, method, counts):
    """(D, p-value, location, sign) of the rows (B, n) sorted; `counts` the values of each row
    (None: all n), the rest NaNs sorted last and left out."""
    dt = rows.dtype
    xs = sort(rows, axis=-1)
    cdfvals = cdf(xs, *args)
    j = arange(xs.shape[-1], dtype=dt)
    n = xs.shape[-1] if counts is None else counts.astype(dt)[:, None]
    plus, minus = (j + 1) / n - cdfvals, cdfvals - j / n
    if counts is not None:  # the NaNs' places can hold no maximum
        past = j[None, :] >= n
        plus, minus = where(past, -numpy.inf, plus), where(past, -numpy.inf, minus)
    n = n if counts is None else counts
    ones = full(rows.shape[:-1], 1, dtype=numpy.int8)
    if alternative != "two-sided":
        d, loc = _largest(plus if alternative == "greater" else minus, xs)
        return d, smirnov(n, d).astype(dt), loc, ones if alternative == "greater" else -ones
    (dp, lp), (dm, lm) = _largest(plus, xs), _largest(minus, xs)
    sel = dp > dm
    d = where(sel, dp, dm)
    loc, sign = where(sel, lp, lm), where(sel, ones, -ones).astype(numpy.int8)
    if method == "asymp":
        p = kolmogorov(d * (math.sqrt(n) if counts is None else sqrt(n.astype(d.dtype))))
    elif method == "approx":
        p = 2 * smirnov(n, d)
    else:
        p = _kstwo_sf(d, n, numpy.float64)
    return d, clip(p, 0.0, 1.0).astype(dt), loc, sign


def one_sample(x, axis, nan_policy, fn):
    """(the sample's slices as rows (B, n), the batch shape, whether it is one sample, the input's
    ndim, each row's NaN flag (None where no row holds one: the one read), each row's count of
    values under 'omit' with NaNs (None otherwise))."""
    (a,), batch, one, ndim_in = samples_last([x], axis, nan_policy, fn)
    rows = a.reshape(int(numpy.prod(batch)), a.shape[-1])
    nan = any_(isnan(rows), axis=-1) if rows.size else None
    if nan is not None and not bool(any_(nan).get()):
        nan = None
    counts = rows.shape[-1] - sum_(isnan(rows), axis=-1) if nan is not None and nan_policy == "omit" else None
    return rows, batch, one, ndim_in, nan, counts


def nan_results(out, rows, nan, counts, least, one):
    """SciPy's results where NaNs are present: NaN for the rows holding one ('propagate') or left
    with fewer than `least` values ('omit', with SciPy's warning). Their dtypes are those of SciPy's
    slice-by-slice path (`apply_along_axis`, which takes the first slice's): the sample's where the
    first slice is NaN, else the results' common dtype; one sample keeps its own where it is not."""
    if nan is None:
        return out
    bad = nan if counts is None else counts < least
    flags = numpy.asarray(bad.get())  # one read: the NaN slices
    if counts is not None and flags.any():
        warnings.warn(OMIT_TOO_SMALL, RuntimeWarning, stacklevel=4)
    if one and not flags[0]:
        return out
    dt = rows.dtype if flags[0] else numpy.result_type(*(o.dtype for o in out))
    return [where(bad, numpy.nan, o).astype(dt) for o in out]


def _one_sample(x, cdf, args, alternative, method, axis, nan_policy, keepdims, fn):
    if method not in ("auto", "exact", "approx", "asymp"):
        raise ValueError(f"Invalid value for method: {method!r}. Must be one of 'auto', 'exact', 'approx', 'asymp'.")
    alternative = {"t": "two-sided", "g": "greater", "l": "less"}.get(str(alternative).lower()[:1], alternative)
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(f"Unexpected value alternative={alternative!r}")
    rows, batch, one, ndim_in, nan, counts = one_sample(x, axis, nan_policy, fn)
    if rows.shape[-1] == 0:
        warnings.warn(TOO_SMALL, RuntimeWarning, stacklevel=3)
        out = [full(rows.shape[:-1], numpy.nan, dtype=rows.dtype) for _ in range(4)]
    else:
        out = nan_results(list(_statistic(rows, cdf, args, alternative, method, counts)), rows, nan, counts, 1, one)
    out = keep_dims([o.reshape(batch) for o in out], axis, keepdims, ndim_in)
    return KstestResult(*out)


def ks_1samp(x, cdf, args=(), alternative="two-sided", method="auto", *, axis=0, nan_policy="propagate",
             keepdims=False):
    """See `scipy.stats.ks_1samp`. `cdf` is called once on the sorted batch (a cuarray array; a
    cuarray distribution's ``cdf``, e.g. ``stats.norm.cdf``, or any callable of device arrays).
    The statistic and the one-sided, 'asymp' and 'approx' p-values on the device; 'exact' (the
    default for two sides) evaluates SciPy's `kstwo` on the host after one read of the statistics.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.ks_1samp(cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5]), stats.norm.cdf)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.182089, 0.985687)
    """
    return _one_sample(x, cdf, args, alternative, method, axis, nan_policy, keepdims, "ks_1samp")


def kstest(rvs, cdf, args=(), N=20, alternative="two-sided", method="auto", *, axis=0, nan_policy="propagate",
           keepdims=False):
    """See `scipy.stats.kstest`. A name in `rvs` or `cdf` is cuarray's distribution of that name
    (its variates drawn with `cuarray.random`, not SciPy's streams); a sample in `cdf` runs
    `ks_2samp`, a callable or a name `ks_1samp`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.kstest(cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5]), 'norm')
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.182089, 0.985687)
    """
    if alternative == "two_sided":
        alternative = "two-sided"
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(f"Unexpected alternative: {alternative}")
    if isinstance(rvs, str):
        rvs = distribution(rvs).rvs(*args, size=N)
    elif callable(rvs):
        rvs = rvs(*args, size=N)
    if isinstance(cdf, str):
        cdf = ndtr if cdf == "norm" else distribution(cdf).cdf  # SciPy's shortcut for 'norm'
    if callable(cdf):
        return _one_sample(rvs, cdf, args, alternative, method, axis, nan_policy, keepdims, "kstest")
    return ks_2samp(rvs, cdf, alternative, method, axis=axis, nan_policy=nan_policy, keepdims=keepdims)
