"""Ordinal association measures of scipy.stats on the device: Somers' D from a contingency table
(Brown & Benedetti 1977; SAS's FREQ procedure: every cell's concordant and discordant blocks as
2-D cumulative sums, O(rs) work instead of SciPy's O(r^2 s^2) loops), and Vigna's weighted
Kendall tau (Vigna 2015, "A weighted correlation index for rankings with ties"), whose weighted
pair counts (ties in x, in y, joint ties, discordances) are summed here over all pairs at once,
block by block of rows: O(n^2) device work and no n^2 memory, where SciPy's merge sort is
O(n log n) on the host."""

from __future__ import annotations

from dataclasses import dataclass

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import full, zeros
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.rearranging import flip
from ..._math.extrema import maximum, minimum
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum
from ..._sets.unique import unique
from ..._sorting.searching import where
from ..._sorting.sorting import argsort
from ..._statistics.histograms import bincount
from ..special._stats import ndtr
from ._correlation import SignificanceResult, _check_alternative
from ._ksample import _run

__all__ = ["somersd", "SomersDResult", "weightedtau"]

_BLOCK = 1 << 22  # pair comparisons per block (elements of one (batch, rows, n) temporary)


@dataclass
class SomersDResult:
    """See `scipy.stats._hypotests.SomersDResult`: statistic, pvalue, table (device arrays)."""

    statistic: object
    pvalue: object
    table: object

    @property
    def correlation(self):
        return self.statistic


def _exclusive_cumsum2(a):
    """s[i, j] = a[:i, :j].sum(): the inclusive 2-D prefix sums shifted down and right by one."""
    s = cumsum(cumsum(a, axis=0), axis=1)
    s = concatenate([zeros((1, s.shape[1]), dtype=s.dtype), s[:-1]], axis=0)
    return concatenate([zeros((s.shape[0], 1), dtype=s.dtype), s[:, :-1]], axis=1)


def _somers_d(A, alternative):
    """(d, p) of a float table of at least 2 x 2, as 0-d device arrays (SciPy's `_somers_d`)."""
    # A_ij: cells above-left plus below-right of (i, j); D_ij: below-left plus above-right
    ul = _exclusive_cumsum2(A)
    lr = flip(_exclusive_cumsum2(flip(A)))
    ll = flip(_exclusive_cumsum2(flip(A, axis=0)), axis=0)
    ur = flip(_exclusive_cumsum2(flip(A, axis=1)), axis=1)
    aij, dij = ul + lr, ll + ur
    na = sum_(A)
    pa, qa = sum_(A * aij), sum_(A * dij)
    sri2 = sum_(sum_(A, axis=1) ** 2)
    d = (pa - qa) / (na * na - sri2)
    s = sum_(A * (aij - dij) ** 2) - (pa - qa) ** 2 / na
    z = (pa - qa) / sqrt(4 * s)
    if alternative == "less":
        p = ndtr(z)
    elif alternative == "greater":
        p = ndtr(-z)
    else:
        p = 2 * ndtr(-abs(z))
    return d, p


def somersd(x, y=None, alternative="two-sided"):
    """See `scipy.stats.somersd`. The contingency table of two rankings is built on the device
    (`unique` and `bincount`); a table given as `x` is checked (non-negative integers, two nonzero
    cells) by one host read. statistic and pvalue are 0-d device arrays, table a device array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> table = cuarray.array([[27, 25, 14, 7, 0], [7, 14, 18, 35, 12], [1, 3, 2, 7, 17]])
    >>> res = stats.somersd(table)
    >>> round(float(res.statistic), 6)
    0.603277
    """
    _check_alternative(alternative)
    x = as_literal_or_array(x, "somersd")
    if x.ndim == 1:
        if y is None or as_literal_or_array(y, "somersd").size != x.size:
            raise ValueError("Rankings must be of equal length.")
        y = as_literal_or_array(y, "somersd").ravel()
        ux, ix = unique(x, return_inverse=True)
        uy, iy = unique(y, return_inverse=True)
        r, c = ux.shape[0], uy.shape[0]
        table = bincount(ix.ravel() * c + iy.ravel(), minlength=r * c).astype(numpy.int64).reshape(r, c)
    elif x.ndim == 2:
        bad = stack([any_(x < 0), any_(x != x.astype(numpy.int64)), sum_(x != 0) < 2]).get()  # the one read
        if bad[0]:
            raise ValueError("All elements of the contingency table must be non-negative.")
        if bad[1]:
            raise ValueError("All elements of the contingency table must be integer.")
        if bad[2]:
            raise ValueError("At least two elements of the contingency table must be nonzero.")
        table = x.copy()
    else:
        raise ValueError("x must be either a 1D or 2D array")
    if table.shape[0] <= 1 or table.shape[1] <= 1:
        nan = full((), numpy.nan, dtype=numpy.float64)
        d, p = nan, nan
    else:
        d, p = _somers_d(table.astype(numpy.float64), alternative)
    return SomersDResult(d, p, table)


def _cmp(a, b):
    """sign(a - b) as int8 with NaN below every number and equal to NaN (SciPy's `_toint64`)."""
    gt, lt = a > b, a < b
    if a.dtype.kind == "f":
        na, nb = isnan(a), isnan(b)
        gt, lt = gt | (~na & nb), lt | (na & ~nb)
    return gt.astype(numpy.int8) - lt.astype(numpy.int8)


def _blocks(n, batch):
    rows = max(1, _BLOCK // max(n * batch, 1))
    return [(i, min(i + rows, n)) for i in range(0, n, rows)]


def _lex_rank(x, y):
    """SciPy's rank when `rank` is None: n - 1 - each element's place in the stable sort by x,
    then y (the largest pair ranks 0; of jointly tied pairs the later index ranks first)."""
    n = x.shape[-1]
    j = arange(n)
    pos = []
    for i0, i1 in _blocks(n, x.shape[0]):
        cx = _cmp(x[:, i0:i1, None], x[:, None, :])
        cy = _cmp(y[:, i0:i1, None], y[:, None, :])
        before = (cx > 0) | ((cx == 0) & ((cy > 0) | ((cy == 0) & (j[None, :] < arange(i0, i1)[:, None]))))
        pos.append(sum_(before, axis=-1))
    return n - 1 - concatenate(pos, axis=-1)


def _dense_rank(r):
    """SciPy's `_toint64` of a rank array: dense ranks from 0 (from 1, NaN 0, where NaN occur)."""
    order = argsort(r, axis=-1)  # NaN last
    s = take_along_axis(r, order, axis=-1)
    new = s[..., 1:] != s[..., :-1]
    if s.dtype.kind == "f":
        new = new & ~(isnan(s[..., 1:]) & isnan(s[..., :-1]))
    dense = concatenate([zeros(s.shape[:-1] + (1,), dtype=numpy.int64), cumsum(new, axis=-1).astype(numpy.int64)], axis=-1)
    dense = take_along_axis(dense, argsort(order, axis=-1), axis=-1)
    if r.dtype.kind != "f":
        return dense
    nan = isnan(r)
    return where(nan, 0, dense + any_(nan, axis=-1, keepdims=True)).astype(numpy.int64)


def _weighted(x, y, rank, weigher, additive):
    """Vigna's weighted tau of each row of x, y ((batch, n) arrays), float64 (batch,)."""
    n = x.shape[-1]
    if rank is None:
        rank = _lex_rank(x, y)
    w = weigher(rank)
    w = broadcast_to(asarray(w) if not hasattr(w, "astype") else w, x.shape).astype(numpy.float64)
    sw, sq = sum_(w, axis=-1), sum_(w * w, axis=-1)
    tot = sw * (n - 1) if additive else (sw * sw - sq) / 2
    diag = 2 * sw if additive else sq  # a pair (i, i) is "tied" in the ordered sums below
    u = v = t = dis = 0.0
    xvar = yvar = 0
    for i0, i1 in _blocks(n, x.shape[0]):
        cx = _cmp(x[:, i0:i1, None], x[:, None, :])
        cy = _cmp(y[:, i0:i1, None], y[:, None, :])
        wi = w[:, i0:i1, None]
        pw = wi + w[:, None, :] if additive else wi * w[:, None, :]
        tx, ty = cx == 0, cy == 0
        zero = numpy.float64(0.0)
        u = u + sum_(where(tx, pw, zero), axis=(-2, -1))
        v = v + sum_(where(ty, pw, zero), axis=(-2, -1))
        t = t + sum_(where(tx & ty, pw, zero), axis=(-2, -1))
        dis = dis + sum_(where((cx * cy) < 0, pw, zero), axis=(-2, -1))
        xvar = xvar + sum_(~tx, axis=(-2, -1))
        yvar = yvar + sum_(~ty, axis=(-2, -1))
    u, v, t, dis = (u - diag) / 2, (v - diag) / 2, (t - diag) / 2, dis / 2  # each unordered pair once
    tau = ((tot - (v + u - t)) - 2.0 * dis) / sqrt(tot - u) / sqrt(tot - v)
    tau = where(isnan(tau), -1.0, minimum(maximum(tau, -1.0), 1.0))  # SciPy's min(1, max(-1, nan)) is -1
    return where((xvar == 0) | (yvar == 0), numpy.nan, tau)  # a constant x or y: NaN


def _hyperbolic(r):
    return 1.0 / (1 + r)


def weightedtau(x, y, rank=True, weigher=None, additive=True, *, axis=None, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.weightedtau`. `weigher` is called once on the device array of all ranks
    (so it must work elementwise on an array, as the default hyperbolic 1/(r + 1) does), not once a
    rank. The weighted pair counts are O(n^2) device work (SciPy's merge sort is O(n log n)); no
    host read. NaN ranks below every number, as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([12., 2, 1, 12, 2])
    >>> y = cuarray.array([1., 4, 7, 1, 0])
    >>> res = stats.weightedtau(x, y)
    >>> round(float(res.statistic), 6)
    -0.56695
    """
    weigher = _hyperbolic if weigher is None else weigher
    samples = [x, y]
    explicit = not (isinstance(rank, bool) or rank is None)
    if explicit:
        samples.append(rank)
        xs = [as_literal_or_array(s, "weightedtau") for s in samples]
        if axis is None and xs[2].size != xs[0].size:
            raise ValueError("All inputs to `weightedtau` must be of the same size, found x-size {} and rank-size {}"
                             .format(xs[0].size, xs[2].size))

    def test(a, b, r=None):
        shape = a.shape[:-1]
        a2, b2 = a.reshape(-1, a.shape[-1]), b.reshape(-1, b.shape[-1])
        if a2.dtype.kind == "b":
            a2, b2 = a2.astype(numpy.int8), b2.astype(numpy.int8)
        if rank is True:
            tau = (_weighted(a2, b2, None, weigher, additive) + _weighted(b2, a2, None, weigher, additive)) / 2
        elif rank is False:
            tau = _weighted(a2, b2, broadcast_to(arange(a2.shape[-1]), a2.shape), weigher, additive)
        elif rank is None:
            tau = _weighted(a2, b2, None, weigher, additive)
        else:
            tau = _weighted(a2, b2, _dense_rank(r.reshape(a2.shape)), weigher, additive)
        tau = tau.reshape(shape)
        return tau, full(shape, numpy.nan, dtype=numpy.float64)

    return _run(test, SignificanceResult, samples, axis, nan_policy, keepdims, "weightedtau", paired=True, too_small=1,
                floating=False)

