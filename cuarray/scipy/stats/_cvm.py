"""cramervonmises of scipy.stats (the one-sample Cramér-von Mises test) on the device: each slice
sorted, the cdf called once on the sorted batch, the statistic 1/(12 n) + sum ((2i - 1)/(2n) -
F(x_i))^2, and its p-value from Csörgő and Faraway's series ("The exact and asymptotic
distributions of Cramér-von Mises statistics", J. R. Statist. Soc. B 58, 1996: eq. 1.2 for the
limit, 1.8 and 1.10 for the finite-n term), summed as SciPy sums it: each element's terms until
one falls below 1e-7, on the whole batch at once, one read a term to learn whether any element
still needs one."""

from __future__ import annotations

import math
import warnings

import numpy

from ..._creation.basic import full, zeros_like
from ..._creation.ranges import arange
from ..._logic.truth import any as any_
from ..._math.explog import exp
from ..._math.misc import abs as abs_
from ..._math.misc import clip, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.sorting import sort
from ..special._bessel import kv
from ._ks1samp import distribution, nan_results, one_sample
from ._multisample import TOO_SMALL, keep_dims

__all__ = ["cramervonmises", "CramerVonMisesResult"]

_SMALL = 1e-7  # SciPy's: a series stops for an element at its first term below this


class CramerVonMisesResult:
    """See SciPy's `CramerVonMisesResult` (attributes `statistic` and `pvalue`; not a tuple)."""

    def __init__(self, statistic, pvalue):
        self.statistic = statistic
        self.pvalue = pvalue

    def __repr__(self):
        return f"{self.__class__.__name__}(statistic={self.statistic}, pvalue={self.pvalue})"


def _series(x, active, term):
    """sum over k of term(x, k), each element's sum stopped after its first term below 1e-7."""
    tot = zeros_like(x)
    k = 0
    while bool(any_(active).get()):  # the one read a term
        z = term(x, k)
        tot = tot + where(active, z, 0.0).astype(x.dtype)
        active = active & (abs_(z) >= _SMALL)
        k += 1
    return tot


def _limit_term(x, k):
    u = math.exp(math.lgamma(k + 0.5) - math.lgamma(k + 1)) / (math.pi ** 1.5 * sqrt(x))
    y = 4 * k + 1
    q = y ** 2 / (16 * x)
    return u * math.sqrt(y) * exp(-q) * kv(0.25, q).astype(x.dtype)


def _ed2(y):
    z = y ** 2 / 4
    return exp(-z) * (y / 2) ** 1.5 * (kv(0.25, z) + kv(0.75, z)).astype(y.dtype) / math.sqrt(math.pi)


def _ed3(y):
    z = y ** 2 / 4
    return exp(-z) / math.sqrt(math.pi) * (y / 2) ** 2.5 * (2 * kv(0.25, z) + 3 * kv(0.75, z) - kv(1.25, z)).astype(y.dtype)


def _finite_term(x, k):
    """The k-th term of psi1 (eq. 1.10) without its V(x)/12 part, as SciPy's `_psi1_mod`."""
    m = 2 * k + 1
    sx = 2 * sqrt(x)
    y1, y2 = x ** 0.75, x ** 1.25
    g1, g3 = math.gamma(k + 0.5), math.gamma(k + 1.5)
    a = (m * g1 * _ed2((4 * k + 3) / sx) / (9 * y1) + g1 * _ed3((4 * k + 1) / sx) / (72 * y2)
         + 2 * (m + 2) * g3 * _ed3((4 * k + 5) / sx) / (12 * y2) + 7 * m * g1 * _ed2((4 * k + 1) / sx) / (144 * y1)
         + 7 * m * g1 * _ed2((4 * k + 5) / sx) / (144 * y1))
    return -a / (math.pi * math.gamma(k + 1))


def _cdf(w, n):
    """SciPy's `_cdf_cvm`: the finite-n cdf of the statistic on (1/(12n), n/3), 0 below, 1 above."""
    inside = (1.0 / (12 * n) < w) & (w < n / 3.0)
    x = where(inside, w, 1.0).astype(w.dtype)  # a harmless point where the series is not wanted
    y = _series(x, inside, _limit_term) * (1 + 1.0 / (12 * n)) + _series(x, inside, _finite_term) / n
    return where(w >= n / 3.0, 1.0, where(inside, y, 0.0)).astype(w.dtype)


def _statistic(rows, cdf, args, counts):
    xs = sort(rows, axis=-1)
    cdfvals = cdf(xs, *args)
    j = arange(1, xs.shape[-1] + 1, dtype=xs.dtype)
    n = full((xs.shape[0], 1), xs.shape[-1], dtype=xs.dtype) if counts is None else counts.astype(xs.dtype)[:, None]
    sq = ((2 * j - 1) / (2 * n) - cdfvals) ** 2
    if counts is not None:  # the NaNs sorted last are no terms
        sq = where(j > n, 0.0, sq).astype(sq.dtype)
    n = n[:, 0]
    w = 1 / (12 * n) + sum_(sq, axis=-1)
    return w, clip(1.0 - _cdf(w, n), 0.0, None)  # n in the sample's dtype, as SciPy's count


def cramervonmises(rvs, cdf, args=(), *, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.cramervonmises`. `cdf` is called once on the sorted batch (a cuarray
    callable such as ``stats.norm.cdf``, or the name of a cuarray distribution); the statistic and
    the p-value's series on the device, one read a term of the series.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.cramervonmises(cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5, 0.8]), 'norm')
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (0.054437, 0.867381)
    """
    if isinstance(cdf, str):
        cdf = distribution(cdf).cdf
    rows, batch, one, ndim_in, nan, counts = one_sample(rvs, axis, nan_policy, "cramervonmises")
    if rows.shape[-1] == 1 and not one:  # SciPy's own check, reached by a batch of one-value slices
        raise ValueError("The sample must contain at least two observations.")
    if rows.shape[-1] <= 1:
        warnings.warn(TOO_SMALL, RuntimeWarning, stacklevel=2)
        out = [full(rows.shape[:-1], numpy.nan, dtype=rows.dtype) for _ in range(2)]
    else:
        out = nan_results(list(_statistic(rows, cdf, args, counts)), rows, nan, counts, 2, one)
    out = keep_dims([o.reshape(batch) for o in out], axis, keepdims, ndim_in)
    return CramerVonMisesResult(*out)
