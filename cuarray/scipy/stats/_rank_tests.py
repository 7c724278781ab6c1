"""mannwhitneyu of scipy.stats: U from the average ranks of the concatenated samples (one
rankdata along the axis, on the device), the tie term from the tie groups' sizes, the asymptotic
p-value from `ndtr` on the device; the exact null distribution (SciPy's choice for small samples
without ties) is counted on the host (a Gaussian binomial coefficient's coefficients, exact
integers) from the statistics read back once. nan_policy='omit' with NaNs: each slice's values
moved to the front of its row, one run per distinct pair of counts."""

from __future__ import annotations

from collections import namedtuple

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._indexing.inserting import take, take_along_axis
from ..._sorting.sorting import argsort
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate
from ..._manipulation.transpose import moveaxis
from ..._math.extrema import maximum
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..special._stats import ndtr
from ._descriptive import _policy, rankdata
from ._resampling import independent_pvalue, is_method

__all__ = ["mannwhitneyu", "MannwhitneyuResult"]

MannwhitneyuResult = namedtuple("MannwhitneyuResult", ("statistic", "pvalue"))


def u_counts(m: int, n: int) -> list:
    """The number of arrangements of m + n ranks giving each U = 0 .. m n (the coefficients of
    the Gaussian binomial [m + n choose m]_q), in exact integers: multiply by (1 - q^(n + i)) and
    divide by (1 - q^i) for i = 1 .. m (a division by 1 - q^i is a running sum with stride i)."""
    m, n = min(m, n), max(m, n)
    size = m * n + 1
    c = [0] * size
    c[0] = 1
    for i in range(1, m + 1):
        k = n + i
        for u in range(size - 1, k - 1, -1):
            c[u] -= c[u - k]
        for u in range(i, size):
            c[u] += c[u - i]
    return c


def exact_sf(u, m: int, n: int) -> numpy.ndarray:
    """P(U >= u) under the null for integer statistics `u` (a host array)."""
    counts = u_counts(m, n)
    total = sum(counts)
    tail = [0] * (len(counts) + 1)
    for k in range(len(counts) - 1, -1, -1):
        tail[k] = tail[k + 1] + counts[k]
    u = numpy.asarray(u, dtype=numpy.int64)
    idx = numpy.clip(u, 0, len(counts))
    return numpy.array([tail[int(i)] / total for i in idx.ravel()], dtype=numpy.float64).reshape(u.shape)


def _samples(x, y, axis, dt=None):
    """x and y cast to `dt` (mannwhitneyu's floating type by default), `axis` moved last, their
    other axes broadcast."""
    x, y = as_literal_or_array(x, "mannwhitneyu"), as_literal_or_array(y, "mannwhitneyu")
    x = x.reshape(1) if x.ndim == 0 else x
    y = y.reshape(1) if y.ndim == 0 else y
    if dt is None:
        dt = numpy.result_type(x.dtype, y.dtype, numpy.float16) if (x.dtype.kind in "fc" or y.dtype.kind in "fc") \
            else numpy.dtype(numpy.float64)
    x, y = x.astype(dt), y.astype(dt)
    nd = max(x.ndim, y.ndim)
    x, y = x.reshape((1,) * (nd - x.ndim) + x.shape), y.reshape((1,) * (nd - y.ndim) + y.shape)
    x, y = moveaxis(x, axis, -1), moveaxis(y, axis, -1)
    try:
        batch = numpy.broadcast_shapes(x.shape[:-1], y.shape[:-1])
    except ValueError:
        raise ValueError("Array shapes are incompatible for broadcasting.") from None
    return broadcast_to(x, batch + x.shape[-1:]), broadcast_to(y, batch + y.shape[-1:])


def _statistic(x, y, use_continuity, alternative, method):
    """(U of x, p-value) along the last axis of `x` and `y` (one batch shape); 'auto' decided
    over the whole batch, as SciPy does (ties anywhere: asymptotic)."""
    n1, n2 = x.shape[-1], y.shape[-1]
    xy = concatenate((x, y), axis=-1)
    ranks = rankdata(xy, axis=-1)
    u1 = sum_(ranks[..., :n1], axis=-1) - n1 * (n1 + 1) / 2
    u2 = n1 * n2 - u1
    u, f = {"greater": (u1, 1), "less": (u2, 1)}.get(alternative, (None, 2))
    if u is None:
        u = maximum(u1, u2)
    # tie groups: an element's group size g = max rank - min rank + 1; sum(g^2 - 1) = sum(t^3 - t)
    if is_method(method):  # SciPy's permutation test of U1: the pooled ranks permuted
        rows = int(numpy.prod(ranks.shape[:-1]))
        flat = ranks.reshape(rows, n1 + n2)
        p = independent_pvalue(flat[:, :n1], flat[:, n1:], lambda a, b: sum_(a, axis=-1) - n1 * (n1 + 1) / 2,
                               method, alternative, u1.reshape(rows).astype(x.dtype))
        return u1.astype(x.dtype), p.reshape(u1.shape).astype(x.dtype)
    g = rankdata(xy, "max", axis=-1) - rankdata(xy, "min", axis=-1) + 1
    if method == "auto":
        method = "asymptotic" if (n1 > 8 and n2 > 8) or bool(any_(g > 1).get()) else "exact"
    if method == "exact":  # SciPy truncates a non-integer U
        p = asarray(exact_sf(numpy.nan_to_num(numpy.asarray(u.get())).astype(numpy.int64), n1, n2)).astype(x.dtype)
    else:
        n = n1 + n2
        tie = sum_(g * g - 1, axis=-1)
        s = sqrt(n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1))))
        z = (u - n1 * n2 / 2 - (0.5 if use_continuity else 0.0)) / s
        p = ndtr(-z)
    p = p * f
    return u1.astype(x.dtype), where(p > 1, 1.0, where(p < 0, 0.0, p)).astype(x.dtype)


def _front(rows):
    """Each row's non-NaN values moved to its front in order (one stable argsort of the NaN
    mask), and the rows' counts of them (on the host: one read)."""
    nan = isnan(rows)
    order = argsort(nan.astype(numpy.int8), axis=-1, kind="stable")
    return take_along_axis(rows, order, axis=-1), (rows.shape[-1] - sum_(nan, axis=-1)).get()


def _omitting(x, y, use_continuity, alternative, method):
    """nan_policy='omit' with NaNs present: SciPy's slice-by-slice test of each slice's non-NaN
    values, run once per distinct (count of x, count of y) on the rows that have it ('auto'
    decided per slice: rows with and without ties apart where the exact test is possible);
    a slice left without values in a sample is NaN."""
    batch = x.shape[:-1]
    xr, cx = _front(x.reshape(-1, x.shape[-1]))
    yr, cy = _front(y.reshape(-1, y.shape[-1]))
    u_out, p_out = full((len(cx),), numpy.nan, dtype=x.dtype), full((len(cx),), numpy.nan, dtype=x.dtype)
    for k1, k2 in sorted(set(zip(cx.tolist(), cy.tolist()))):
        if k1 == 0 or k2 == 0:
            continue
        rows = numpy.nonzero((cx == k1) & (cy == k2))[0]
        xs, ys = take(xr, asarray(rows), axis=0)[:, :k1], take(yr, asarray(rows), axis=0)[:, :k2]
        groups = [(rows, xs, ys, method)]
        if method == "auto" and not (k1 > 8 and k2 > 8):
            xy = concatenate((xs, ys), axis=-1)
            tied = any_(rankdata(xy, "max", axis=-1) != rankdata(xy, "min", axis=-1), axis=-1).get()
            groups = [(rows[sel], take(xs, asarray(numpy.nonzero(sel)[0]), axis=0),
                       take(ys, asarray(numpy.nonzero(sel)[0]), axis=0), m)
                      for sel, m in ((tied, "asymptotic"), (~tied, "exact")) if sel.any()]
        for r, xs_, ys_, m in groups:
            u, p = _statistic(xs_, ys_, use_continuity, alternative, m)
            u_out[asarray(r)] = u
            p_out[asarray(r)] = p
    return u_out.reshape(batch), p_out.reshape(batch)


def mannwhitneyu(x, y, use_continuity=True, alternative="two-sided", axis=0, method="auto", *,
                 nan_policy="propagate", keepdims=False):
    """See `scipy.stats.mannwhitneyu`. 'asymptotic' on the device; 'exact' (and 'auto' where
    SciPy picks it: a sample of at most 8 and no ties, one device read for the ties) counts the
    null distribution on the host. ``nan_policy='omit'`` with NaNs present: the test of each
    slice's non-NaN values, once per distinct pair of counts (one read of the counts). A
    `PermutationMethod`: SciPy's permutations of the pooled ranks (drawn on the host by SciPy's
    calls on the method's generator), U of each on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.mannwhitneyu(cuarray.array([1., 2., 3., 4.]), cuarray.array([5., 6., 7.]))
    >>> float(res.statistic), round(float(res.pvalue), 6)
    (0.0, 0.057143)
    """
    if use_continuity not in (True, False):
        raise ValueError("`use_continuity` must be one of {True, False}.")
    alternative = alternative.lower()
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError("`alternative` must be one of {'two-sided', 'less', 'greater'}.")
    if is_method(method) != "permutation":
        method = method.lower()
    if is_method(method) is None and method not in ("asymptotic", "exact", "auto"):
        raise ValueError("`method` must be one of {'asymptotic', 'exact', 'auto'}.")
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'omit', 'raise', 'propagate'}.")
    if axis is None:
        x, y, axis = as_literal_or_array(x, "mannwhitneyu").ravel(), as_literal_or_array(y, "mannwhitneyu").ravel(), 0
    x, y = _samples(x, y, int(axis))
    if x.shape[-1] == 0 or y.shape[-1] == 0:
        raise ValueError("`x` and `y` must be of nonzero size.")
    nan = any_(isnan(x), axis=-1) | any_(isnan(y), axis=-1)
    if nan_policy != "propagate" and bool(any_(nan).get()):
        if nan_policy == "raise":
            raise ValueError("The input contains nan values")
        u1, p = _omitting(x, y, use_continuity, alternative, method)
        nan = isnan(u1)
    else:
        u1, p = _statistic(x, y, use_continuity, alternative, method)
    u1 = where(nan, numpy.nan, u1).astype(x.dtype)
    p = where(nan, numpy.nan, p).astype(x.dtype)
    if keepdims:
        u1, p = u1[..., None], p[..., None]
        u1, p = moveaxis(u1, -1, axis), moveaxis(p, -1, axis)
    return MannwhitneyuResult(u1, p)
