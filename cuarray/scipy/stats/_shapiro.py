"""shapiro of scipy.stats (the Shapiro-Wilk test) on the device, as SciPy 1.18 computes it: each
slice sorted and moved by its middle value, Royston's approximate coefficients (P. Royston, "A
toolkit for testing for non-normality in complete and censored samples", The Statistician 42,
1993, section 2.2: the normal scores m_i = ndtri((i - 3/8)/(n + 1/4)), the two outer pairs by his
polynomials in 1/sqrt(n)) computed once on the device for the slice length, W from one product
and one sum of squares of every slice at once, and the p-value by his normalizing transformations
(Table 1; the exact null distribution for n = 3, Shapiro and Wilk 1965). SciPy 1.17 ran swilk.c
(Royston's AS R94), whose values differ by about 1e-7. `nan_policy='omit'` runs once per distinct
count of values."""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy

from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._math.explog import log
from ..._math.misc import clip, sqrt
from ..._math.sums import sum as sum_
from ..._math.trigonometric import arccos
from ..._sorting.sorting import sort
from ..._statistics.averages import mean
from ..special._stats import ndtr, ndtri
from ._ks1samp import nan_results, one_sample
from ._multisample import TOO_SMALL, keep_dims
from ._rank_tests import _front

__all__ = ["shapiro", "ShapiroResult"]


class ShapiroResult(NamedTuple):
    statistic: object
    pvalue: object


def _coefficients(n, dt):
    """Royston's coefficients a (length n, in the sample's dtype) for a sample of n > 3."""
    i = arange(1, n + 1, dtype=dt)
    m = ndtri((i - 3 / 8) / (n + 1 / 4))
    u = n ** -0.5
    mtm = sum_(m * m)
    c = mtm ** -0.5 * m
    mnm1, mn, cnm1, cn = m[-2], m[-1], c[-2], c[-1]
    an = cn + 0.221157 * u - 0.147981 * u ** 2 - 2.071190 * u ** 3 + 4.434685 * u ** 4 - 2.706056 * u ** 5
    anm1 = cnm1 + 0.042981 * u - 0.293762 * u ** 2 - 1.752461 * u ** 3 + 5.682633 * u ** 4 - 3.582633 * u ** 5
    if n <= 5:
        phi = (mtm - 2 * mn ** 2) / (1 - 2 * an ** 2)
    else:
        phi = (mtm - 2 * mn ** 2 - 2 * mnm1 ** 2) / (1 - 2 * an ** 2 - 2 * anm1 ** 2)
    a = phi ** -0.5 * m
    if n > 5:
        a[-2], a[1] = anm1, -anm1
    a[-1], a[0] = an, -an
    return a


def _test(y):
    """(W, p-value) of the rows of `y` (B, n), sorted and moved, n >= 3, no NaNs."""
    n = y.shape[-1]
    if n == 3:
        c = math.sqrt(2) / 2
        a = asarray(numpy.array([-c, 0.0, c]))  # float64, as SciPy's: W is float64 for any sample
    else:
        a = _coefficients(n, y.dtype)
    centred = y - mean(y, axis=-1, keepdims=True)
    w = sum_(a * y, axis=-1) ** 2 / sum_(centred * centred, axis=-1)
    if n == 3:  # the exact null distribution (Shapiro and Wilk 1965, corollary 4)
        w = clip(w, 0.75, 1.0)
        return w, clip(1.0 - 6 / numpy.pi * arccos(sqrt(w)), 0.0, 1.0)
    if n <= 11:
        gamma = -2.273 + 0.459 * n
        mu = 0.5440 - 0.39978 * n + 0.025054 * n ** 2 - 0.0006714 * n ** 3
        sigma = math.exp(1.3822 - 0.77857 * n + 0.062767 * n ** 2 - 0.0020322 * n ** 3)
        gw = -log(gamma - log(1 - w))
    else:
        u = math.log(n)
        mu = -1.5861 - 0.31082 * u - 0.083751 * u ** 2 + 0.0038915 * u ** 3
        sigma = math.exp(-0.4803 - 0.082676 * u + 0.0030302 * u ** 2)
        gw = log(1 - w)
    return w, ndtr(-((gw - mu) / sigma))


def _sorted_moved(rows):
    """Each row sorted, less the row's value at n // 2 (SciPy's: the unsorted row's, a value near
    the median keeping the sums well conditioned), NaNs sorted last."""
    n = rows.shape[-1]
    return sort(rows, axis=-1) - rows[:, n // 2:n // 2 + 1]


def _omitting(rows):
    """Each row's test over its non-NaN values (in their order), once per distinct count; NaN
    below 3 values."""
    front, ks = _front(rows)
    out = [full((rows.shape[0],), numpy.nan, dtype=rows.dtype) for _ in range(2)]
    for k in sorted(set(ks.tolist())):
        if k < 3:
            continue
        idx = asarray(numpy.flatnonzero(ks == k))
        vals = take(front, idx, axis=0)[:, :k]
        w, p = _test(sort(vals, axis=-1) - vals[:, k // 2:k // 2 + 1])
        out[0][idx], out[1][idx] = w, p.astype(w.dtype)
    return out


def shapiro(x, *, axis=None, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.shapiro` (SciPy 1.18's computation). Every slice of a batch is tested
    at once on the device; the coefficients are computed once for the slice length.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.shapiro(cuarray.array([2.1, 3.4, 1.9, 5.6, 4.4, 3.0, 2.8, 7.9, 3.3, 4.1]))
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.887612, 0.159368)
    """
    rows, batch, one, ndim_in, nan, counts = one_sample(x, axis, nan_policy, "shapiro")
    n = rows.shape[-1]
    if n <= 2 and (one or n == 0):
        warnings.warn(TOO_SMALL, RuntimeWarning, stacklevel=2)
        out = [full(rows.shape[:-1], numpy.nan, dtype=rows.dtype) for _ in range(2)]
    elif n <= 2:
        raise ValueError("Data must be at least length 3.")
    else:
        if n > 5000:
            warnings.warn("scipy.stats.shapiro: For N > 5000, computed p-value may not be accurate. "
                          f"Current N is {n}.", UserWarning, stacklevel=2)
        if counts is not None:
            out = _omitting(rows)
        else:
            w, p = _test(_sorted_moved(rows))
            out = [w, p.astype(w.dtype)]
        out = nan_results(out, rows, nan, counts, 3, one)
    out = keep_dims([o.reshape(batch) for o in out], axis, keepdims, ndim_in)
    return ShapiroResult(*out)
