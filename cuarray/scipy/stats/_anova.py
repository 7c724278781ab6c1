"""One-way analysis of variance on the device: `f_oneway`, Fisher's F test (equal variances) and
Welch's (`equal_var=False`; B. L. Welch, "On the comparison of several mean values: an alternative
approach", Biometrika 38, 1951), SciPy's computation: sums of squares about the pooled mean,
SciPy's constant-sample rules (F = inf where every sample is constant, NaN where all values are
equal), the p-value `fdtrc`. The samples broadcast against each other except along `axis`.

`nan_policy='omit'` uses NaN-aware sums and counts per slice (each sample's own count), so it
needs no loop over slices; a slice left with an empty sample gives NaN, as SciPy."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import full
from ..._logic.content import isnan
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.sums import nansum
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.averages import mean, nanmean, nanvar, var
from ..._statistics.order import nanmax, nanmin
from ..special._stats import fdtrc
from ._multisample import TOO_SMALL, keep_dims, samples_last

__all__ = ["f_oneway", "F_onewayResult"]

ALL_LENGTH_ONE = ("all input arrays have length 1.  f_oneway requires that at least one input has length "
                  "greater than 1.")


class F_onewayResult(NamedTuple):  # noqa: N801  (SciPy's name)
    statistic: object
    pvalue: object


def f_oneway(*samples, axis=0, equal_var=True, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.f_oneway`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a, b = cuarray.array([1., 2., 3., 4.]), cuarray.array([3., 4., 5., 6., 7.])
    >>> res = stats.f_oneway(a, b)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (6.481481, 0.038334)
    """
    if len(samples) < 2:
        raise TypeError(f"At least two samples are required; got {len(samples)}.")
    samples, batch, one, ndim_in = samples_last(samples, axis, nan_policy, "f_oneway")
    if not isinstance(equal_var, bool):
        raise TypeError("Expected a boolean value for 'equal_var'")
    dt = samples[0].dtype
    lengths = [s.shape[-1] for s in samples]
    if 0 in lengths or all(n == 1 for n in lengths):
        if one or all(n == 1 for n in lengths):
            warnings.warn(ALL_LENGTH_ONE if 0 not in lengths else TOO_SMALL, RuntimeWarning, stacklevel=2)
        nan = full(batch, numpy.nan, dtype=dt)
        return F_onewayResult(*keep_dims([nan, nan], axis, keepdims, ndim_in))
    omit = nan_policy == "omit" and any(bool(any_(isnan(s)).get()) for s in samples)
    counts = [sum_(~isnan(s), axis=-1).astype(dt) for s in samples] if omit else [float(n) for n in lengths]
    k = len(samples)
    alldata = concatenate(samples, axis=-1)
    bign = counts[0]
    for c in counts[1:]:
        bign = bign + c
    is_const = stack([nanmax(s, axis=-1) == nanmin(s, axis=-1) for s in samples], axis=-1) if omit else \
        stack([all_(s[..., 1:] == s[..., :-1], axis=-1) for s in samples], axis=-1)
    all_const = all_(is_const, axis=-1)
    all_same = nanmax(alldata, axis=-1) == nanmin(alldata, axis=-1) if omit else \
        all_(alldata[..., 1:] == alldata[..., :-1], axis=-1)
    total = nansum if omit else sum_
    with warnings.catch_warnings():  # slices emptied by 'omit' divide by zero counts: NaN, as SciPy
        warnings.simplefilter("ignore", RuntimeWarning)
        if equal_var:
            offset = (nanmean if omit else mean)(alldata, axis=-1, keepdims=True)
            centred = alldata - offset
            normalized_ss = total(centred, axis=-1) ** 2.0 / bign
            sstot = total(centred * centred, axis=-1) - normalized_ss
            ssbn = 0
            for s, n in zip(samples, counts):
                ssbn = ssbn + total(s - offset, axis=-1) ** 2.0 / n
            ssbn = ssbn - normalized_ss
            sswn = sstot - ssbn
            dfn, dfd = k - 1, bign - k
            f = (ssbn / dfn) / (sswn / dfd)
        else:
            n_t = stack([broadcast_to(_as(n, dt), batch) for n in counts])
            y_t = stack([(nanmean if omit else mean)(s, axis=-1) for s in samples])
            s_t2 = stack([(nanvar if omit else var)(s, axis=-1, ddof=1) for s in samples])
            w_t = n_t / s_t2
            s_w_t = sum_(w_t, axis=0)
            y_hat = sum_(w_t * y_t, axis=0) / s_w_t
            numerator = sum_(w_t * (y_t - y_hat) ** 2, axis=0) / (k - 1)
            spread = sum_(1 / (n_t - 1) * (1 - w_t / s_w_t) ** 2, axis=0)
            f = numerator / (1 + 2 * (k - 2) / (k ** 2 - 1) * spread)
            dfn, dfd = k - 1, (k ** 2 - 1) / (3 * spread)
        f = where(all_const, numpy.inf, f)
        f = where(all_same, numpy.nan, f).astype(dt)
        if omit:  # a slice with an empty sample: NaN (SciPy's too-small rule per slice)
            empty = counts[0] == 0
            for c in counts[1:]:
                empty = empty | (c == 0)
            f = where(empty, numpy.nan, f).astype(dt)
        p = fdtrc(dfn, dfd, f).astype(dt)
    return F_onewayResult(*keep_dims([f, p], axis, keepdims, ndim_in))


def _as(n, dt):
    return full((), n, dtype=dt) if isinstance(n, float) else n
