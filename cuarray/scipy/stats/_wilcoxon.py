"""wilcoxon of scipy.stats: the differences, the zero method and the signed ranks on the device
(one rankdata of |d| per row; the Wilcox ranks are the ranks among all minus the number of zeros,
the zeros ranking first), the normal approximation on the device (`ndtr`), the exact null
distribution counted on the host in integers from the rank sums read back once, and SciPy's
permutation version (its 'auto' choice for small samples with ties or zeros) as one matrix
product of the ranks with every sign pattern on the device."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._indexing.inserting import take
from ...linalg._matmul import matmul
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.transpose import moveaxis
from ..._math.misc import abs as abs_
from ..._math.misc import sign as sign_
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..special._stats import ndtr
from ._descriptive import rankdata
from . import _resampling
from ._rank_tests import _front

__all__ = ["wilcoxon", "WilcoxonResult"]


class WilcoxonResult(tuple):
    """See SciPy's `WilcoxonResult`: unpacks as (statistic, pvalue); `zstatistic` with
    ``method='asymptotic'``."""

    def __new__(cls, statistic, pvalue, zstatistic=None):
        self = tuple.__new__(cls, (statistic, pvalue))
        if zstatistic is not None:
            self.zstatistic = zstatistic
        return self

    statistic = property(lambda self: self[0])
    pvalue = property(lambda self: self[1])

    def __repr__(self):
        return "WilcoxonResult(statistic={!r}, pvalue={!r})".format(self[0], self[1])


def signed_rank_counts(n: int) -> list:
    """How many of the 2^n sign patterns of the ranks 1..n give each positive-rank sum 0..n(n+1)/2
    (exact integers: the coefficients of prod_k (1 + q^k))."""
    c = [1]
    for k in range(1, n + 1):
        c = [(c[s] if s < len(c) else 0) + (c[s - k] if s >= k else 0) for s in range(len(c) + k)]
    return c


def exact_pvalue(r_plus: float, n: int, alternative: str) -> float:
    """SciPy's exact p-value of the positive-rank sum `r_plus` of n nonzero differences."""
    if numpy.isnan(r_plus):
        return numpy.nan
    c = signed_rank_counts(n)
    total = 2 ** n
    cdf = sum(c[:max(int(numpy.ceil(r_plus)) + 1, 0)]) / total
    sf = sum(c[max(int(numpy.floor(r_plus)), 0):]) / total
    if alternative == "less":
        return cdf
    if alternative == "greater":
        return sf
    return min(1.0, 2 * min(sf, cdf))


def _signed_ranks(d, zero_method):
    """(ranks of the nonzero differences under `zero_method`, zsplit's constant half zero-rank sum,
    count, number of zeros, tie term, whether any tie or zero) per row of `d` (no NaN)."""
    n, dt = d.shape[-1], d.dtype
    zeros = d == 0
    r = rankdata(abs_(d), axis=-1).astype(dt)
    g = rankdata(abs_(d), "max", axis=-1) - rankdata(abs_(d), "min", axis=-1) + 1  # tie-group sizes
    nz = sum_(zeros, axis=-1).astype(dt)
    tied = any_(g > 1) | any_(zeros)
    if zero_method == "wilcox":
        r, count = r - nz[:, None], n - nz  # the zeros ranked first: the rest shift down
    else:
        count = full(nz.shape, n, dtype=dt)
    half_zero = sum_(where(zeros, r, 0.0), axis=-1).astype(dt) / 2 if zero_method == "zsplit" else None
    tie_terms = g * g - 1 if zero_method == "zsplit" else where(zeros, 0.0, g * g - 1)
    return where(zeros, 0.0, r).astype(dt), half_zero, count, nz, sum_(tie_terms, axis=-1).astype(dt), tied


def _rows(d, zero_method, correction, alternative, method):
    """(statistic, p-value, z) of rows `d` (no NaN) under a resolved `method` ('asymptotic',
    'exact' or a PermutationMethod)."""
    dt = d.dtype
    r, half_zero, count, nz, tie, _ = _signed_ranks(d, zero_method)
    r_plus = sum_(where(d > 0, r, 0.0), axis=-1).astype(dt)
    r_minus = sum_(where(d < 0, r, 0.0), axis=-1).astype(dt)
    if half_zero is not None:
        r_plus, r_minus = r_plus + half_zero, r_minus + half_zero
    mn = count * (count + 1.0) * 0.25
    se = count * (count + 1.0) * (2.0 * count + 1.0)
    if zero_method == "pratt":
        mn, se = mn - nz * (nz + 1.0) * 0.25, se - nz * (nz + 1.0) * (2.0 * nz + 1.0)
    se = sqrt((se - tie / 2) / 24)
    z = (r_plus - mn) / se if method == "asymptotic" else full(r_plus.shape, numpy.nan, dtype=dt)
    if method == "asymptotic":
        if correction:
            s = {"greater": 1.0, "less": -1.0}.get(alternative)
            z = z - (sign_(z) if s is None else s) * 0.5 / se
        p = {"less": lambda: ndtr(z), "greater": lambda: ndtr(-z)}.get(alternative, lambda: 2 * ndtr(-abs_(z)))()
        z = -abs_(z) if alternative == "two-sided" else z
    elif method == "exact":
        rp, cn = numpy.asarray(r_plus.get(), dtype=numpy.float64), numpy.asarray(count.get()).astype(numpy.int64)
        p = asarray(numpy.array([exact_pvalue(a, int(b), alternative) for a, b in zip(rp, cn)], dtype=dt))
    else:
        p = _permutation_pvalue(d, r, r_plus, half_zero, alternative, method)
    stat = where(r_plus < r_minus, r_plus, r_minus) if alternative == "two-sided" else r_plus
    return stat.astype(dt), p.astype(dt), z.astype(dt)


def _sign_flips(n, method):
    """(flip matrix (resamples, n) of 0/1, resamples, exact?): every sign pattern when they are
    at most `n_resamples`, else SciPy's draws for a one-sample 'samples' permutation test (the
    pair (d, -d) of each value permuted by `rng.permuted`, or argsort of `rng.random` for a
    RandomState), made by the same calls on the same generator."""
    total = _resampling._check(method)
    if 2 ** n <= total:
        return (numpy.arange(2 ** n)[:, None] >> numpy.arange(n)[None, :]) & 1, 2 ** n, True
    total = int(total)
    rng = _resampling._generator(method)
    batch = min(int(method.batch or total), total)
    parts = []
    for k in range(0, total, batch):
        actual = min(batch, total - k)
        if hasattr(rng, "permuted"):
            idx = rng.permuted(numpy.tile(numpy.arange(2), (batch, n, 1)), axis=-1)[:actual]
        else:
            idx = numpy.argsort(rng.random(size=(actual, n, 2)), axis=-1)
        parts.append(idx[..., 0])  # 1: the value taken is -d
    return numpy.concatenate(parts), total, False


def _permutation_pvalue(d, r, observed, half_zero, alternative, method):
    """SciPy's permutation p-value (its eps * 100 tolerance; +1 in both counts for drawn
    resamples): the positive-rank sum of every resample as products of the ranks with the flip
    matrix (float64: half-integer sums, exact)."""
    n = d.shape[-1]
    flips, total, exact = _sign_flips(n, method)
    flips = asarray(flips.T.astype(numpy.float64))  # (n, resamples)
    pos = where(d > 0, r, 0.0).astype(numpy.float64)
    neg = where(d < 0, r, 0.0).astype(numpy.float64)
    null = matmul(pos, 1.0 - flips) + matmul(neg, flips)  # a flipped negative value counts
    if half_zero is not None:
        null = null + half_zero.astype(numpy.float64)[:, None]
    gamma = abs_(observed * (numpy.finfo(observed.dtype).eps * 100))
    lo = (observed + gamma).astype(numpy.float64)[:, None]
    hi = (observed - gamma).astype(numpy.float64)[:, None]
    adj = 0 if exact else 1
    less = (sum_(null <= lo, axis=-1) + adj) / float(total + adj)
    greater = (sum_(null >= hi, axis=-1) + adj) / float(total + adj)
    p = {"less": less, "greater": greater}.get(alternative)
    if p is None:
        p = where(less < greater, less, greater) * 2
    return where(p > 1, 1.0, p).astype(observed.dtype)


def _resolve(d, zero_method, method):
    """SciPy's method for rows `d` (decided over all of them, as SciPy's one call): 'auto' is
    asymptotic past 50 values, else exact without ties or zeros, else the permutation test."""
    if method == "auto":
        if d.shape[-1] > 50:
            return "asymptotic"
        tied = bool(_signed_ranks(d, zero_method)[5].get())
        if not tied:
            return "exact"
        return _permutation_method()() if d.shape[-1] <= 13 else "asymptotic"
    return method


def _permutation_method():
    # host work: SciPy's PermutationMethod class, for isinstance checks and 'auto'
    from scipy.stats import PermutationMethod  # import time: SciPy only for a permutation test
    return PermutationMethod


def _grouped(d, counts, zero_method, correction, alternative, method):
    """Rows of `d` with their NaNs moved last and `counts` values each: one test per distinct
    count (and, under 'auto', per SciPy's per-slice choice), NaN where counts are -1."""
    dt = d.dtype
    out = [full((d.shape[0],), numpy.nan, dtype=dt) for _ in range(3)]
    for k in sorted(set(counts.tolist()) - {-1}):
        rows = numpy.nonzero(counts == k)[0]
        groups = [(rows, method)]
        if method == "auto" and k and k <= 50:
            sub = take(d, asarray(rows), axis=0)[:, :k]
            g = rankdata(abs_(sub), "max", axis=-1) != rankdata(abs_(sub), "min", axis=-1)
            tied = (any_(g, axis=-1) | any_(sub == 0, axis=-1)).get()
            groups = [(rows[sel], m) for sel, m in ((tied, "tied"), (~tied, "exact")) if sel.any()]
        for r, m in groups:
            sub = take(d, asarray(r), axis=0)[:, :k]
            if k == 0:
                continue
            if m == "tied":
                m = _permutation_method()() if k <= 13 else "asymptotic"
            res = _rows(sub, zero_method, correction, alternative, _resolve(sub, zero_method, m))
            for o, v in zip(out, res):
                o[asarray(r)] = v
    return out


def _differences(x, y, axis):
    """d = x - y (floating, as SciPy promotes) with `axis` moved last, as rows; and the batch."""
    x = as_literal_or_array(x, "wilcoxon")
    if y is not None:
        y = as_literal_or_array(y, "wilcoxon")
    dt = numpy.result_type(x.dtype, *(() if y is None else (y.dtype,)))
    if dt.kind in "biu":
        dt = numpy.dtype(numpy.float64)
    if dt.kind != "f":
        raise ValueError("`x` (and `y`, if provided) must be an array of real numbers.")
    x = x.astype(dt)
    if y is None:
        d = x
    else:
        y = y.astype(dt)
        nd = max(x.ndim, y.ndim, 1)
        x, y = x.reshape((1,) * (nd - x.ndim) + x.shape), y.reshape((1,) * (nd - y.ndim) + y.shape)
        if x.shape[axis] != y.shape[axis]:
            raise ValueError("`x` and `y` must have the same length along `axis`.")
        d = x - y
    d = d.reshape(1) if d.ndim == 0 else d
    d = moveaxis(d, axis, -1)
    batch = d.shape[:-1]
    return d.reshape(int(numpy.prod(batch)), d.shape[-1]), batch


def wilcoxon(x, y=None, zero_method="wilcox", correction=False, alternative="two-sided", method="auto", *,
             axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.wilcoxon`. The differences, the zero method, the signed ranks and the
    normal approximation on the device; 'exact' counts the null distribution on the host from the
    rank sums (one read); the permutation test (SciPy's 'auto' for at most 13 values with ties or
    zeros, or a `PermutationMethod`) compares the rank sums of every sign pattern, or of SciPy's
    drawn sign flips (the same calls on the method's generator: a seeded method gives SciPy's
    p-value), on the device as matrix products.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.wilcoxon(cuarray.array([1.5, -0.5, 2.5, 3.5, 4.5, 0.7]))
    >>> float(res.statistic), round(float(res.pvalue), 6)
    (1.0, 0.0625)
    """
    zero_method = str(zero_method).lower()
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise ValueError("`zero_method` must be one of {'wilcox', 'pratt', 'zsplit'}.")
    if correction not in (True, False):
        raise ValueError("`correction` must be one of {True, False}.")
    alternative = str(alternative).lower()
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError("`alternative` must be one of {'two-sided', 'less', 'greater'}.")
    if not (isinstance(method, str) and method in ("auto", "asymptotic", "exact")) and \
            not (not isinstance(method, str) and isinstance(method, _permutation_method())):
        raise ValueError("`method` must be one of {'auto', 'asymptotic', 'exact'} or an instance of "
                         "`stats.PermutationMethod`.")
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'omit', 'raise', 'propagate'}.")
    flat = axis is None
    if flat:
        x, y = as_literal_or_array(x, "wilcoxon").ravel(), (None if y is None else as_literal_or_array(y, "wilcoxon").ravel())
    ndim = max(as_literal_or_array(x, "wilcoxon").ndim, 0 if y is None else as_literal_or_array(y, "wilcoxon").ndim, 1)
    axis = 0 if flat else int(axis) % ndim
    d, batch = _differences(x, y, axis)
    nan = any_(isnan(d), axis=-1) if d.size else None
    if nan is not None and not bool(any_(nan).get()):
        nan = None
    if nan is not None and nan_policy == "raise":
        raise ValueError("The input contains nan values")
    if d.shape[-1] == 0 or d.shape[0] == 0:
        out = [full((d.shape[0],), numpy.nan, dtype=d.dtype) for _ in range(3)]
    elif nan is not None:  # SciPy's slice-by-slice path: each slice's own count and 'auto' choice
        if nan_policy == "omit":
            d, counts = _front(d)
        else:
            counts = numpy.where(nan.get(), -1, d.shape[-1])
            d = where(nan[:, None], 0.0, d).astype(d.dtype)
        out = _grouped(d, counts, zero_method, correction, alternative, method)
    else:
        out = list(_rows(d, zero_method, correction, alternative, _resolve(d, zero_method, method)))
    out = [o.reshape(batch) for o in out]
    if keepdims:
        out = [o.reshape((1,) * ndim) if flat else moveaxis(o[..., None], -1, axis) for o in out]
    return WilcoxonResult(out[0], out[1], out[2] if isinstance(method, str) and method == "asymptotic" else None)
