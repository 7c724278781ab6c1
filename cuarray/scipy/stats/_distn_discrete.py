"""The discrete distributions of `scipy.stats`: poisson, binom, geom (pmf, logpmf, cdf, logcdf,
sf, logsf, ppf, isf, rvs, the moments; entropy for geom). SciPy's formulas (pdtr/pdtrc,
bdtr/bdtrc on `cuarray.scipy.special`); the pmf of binom is exp of SciPy's logpmf (SciPy calls
Boost's). The ppf of poisson and binom, and binom's isf, are the smallest integer k with
cdf(k) >= q (sf(k) <= q) found by bisection over the integers, a fixed number of steps on the
whole array (SciPy inverts with pdtrik/bdtrik, which cuarray.scipy.special lacks, then corrects
to the same integer)."""

from __future__ import annotations

import math

import numpy

from ..._math.explog import exp, expm1, log, log1p
from ..._math.misc import sqrt
from ..._math.rounding import ceil, floor
from ..._sorting.searching import where
from ..special._convenience import xlog1py, xlogy
from ..special._gamma import gammaln
from ..special._stats import bdtr, bdtrc, pdtr, pdtrc
from ._distn_base import INF, NAN, and_, choose, is_host, rv_discrete


def _bisect(hit, lo, hi, steps):
    """The smallest integer k in (lo, hi] with hit(k), where hit(lo) fails and hit(hi) holds:
    `steps` halvings (enough when 2**steps exceeds hi - lo)."""
    for _ in range(steps):
        mid = floor((lo + hi) / 2)
        ok = hit(mid)
        hi = where(ok, mid, hi)
        lo = where(ok, lo, mid)
    return hi


def _steps(width):
    """Halvings for an integer range of `width`: from the host scalar, else 64 (any double range)."""
    if is_host(width):
        if not math.isfinite(width):  # an invalid parameter (NaN) or mu = inf: no search
            return 1
        return max(1, int(math.ceil(math.log2(max(float(width), 1.0) + 1.0))) + 1)
    return 64


class poisson_gen(rv_discrete):
    """See `scipy.stats.poisson` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.0, 2.0, 5.0])
    >>> cuarray.round(stats.poisson.pmf(x, 3.5), 6)
    array([0.030197, 0.184959, 0.132169])
    >>> cuarray.round(stats.poisson(3.5).sf(x), 6)
    array([0.969803, 0.679153, 0.142386])
    >>> round(float(stats.poisson(3.5).mean()), 6)
    3.5
    """

    name = "poisson"
    shapes = "mu"

    def _argcheck(self, mu):
        return mu >= 0

    def _rvs(self, shapes, size, rng):
        return rng.poisson(shapes[0], size)

    def _pmf(self, k, mu):
        return exp(self._logpmf(k, mu))

    def _logpmf(self, k, mu):
        return xlogy(k, mu) - gammaln(k + 1) - mu

    def _cdf(self, k, mu):
        return pdtr(k, mu)

    def _sf(self, k, mu):
        return pdtrc(k, mu)

    def _ppf(self, q, mu):
        # beyond mu + 40 sqrt(mu) + 800 the Poisson tail is below 1e-300: its cdf rounds to 1
        hi = mu + 40 * (mu ** 0.5) + 800
        hi = numpy.floor(hi) if is_host(hi) else floor(hi)
        k = _bisect(lambda k: pdtr(k, mu) >= q, -1.0 + 0 * q, hi + 0 * q, _steps(hi + 1))
        # SciPy's pdtrik(1, mu) is NaN: its isf (ppf of 1 - q) is NaN where 1 - q rounds to 1
        return where(q < 1.0, k, NAN)

    def _isf(self, q, mu):
        return self._ppf(1.0 - q, mu)

    def _stats(self, mu):
        return mu, mu, choose(mu > 0, sqrt(1.0 / mu), INF), choose(mu > 0, 1.0 / mu, INF)


class binom_gen(rv_discrete):
    """See `scipy.stats.binom` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.0, 2.0, 5.0])
    >>> cuarray.round(stats.binom.pmf(x, 10, 0.3), 6)
    array([0.028248, 0.233474, 0.102919])
    >>> cuarray.round(stats.binom(10, 0.3).sf(x), 6)
    array([0.971752, 0.617217, 0.047349])
    >>> round(float(stats.binom(10, 0.3).mean()), 6)
    3.0
    """

    name = "binom"
    shapes = "n, p"

    def _argcheck(self, n, p):
        return and_(and_(n >= 0, (numpy.floor(n) if is_host(n) else floor(n)) == n), and_(p >= 0, p <= 1))

    def _get_support(self, n, p):
        return 0.0, n

    def _rvs(self, shapes, size, rng):
        n, p = shapes
        return rng.binomial(int(n) if is_host(n) else n.astype(numpy.int64), p, size)

    def _pmf(self, k, n, p):
        return exp(self._logpmf(k, n, p))

    def _logpmf(self, x, n, p):
        k = floor(x)
        return gammaln(n + 1) - (gammaln(k + 1) + gammaln(n - k + 1)) + xlogy(k, p) + xlog1py(n - k, -p)

    # each tail from the smaller of bdtr and bdtrc: 1 - (the other) where that is above 1/2, so
    # that a tail next to 1 is 1 as SciPy's (Boost's) and not 1 - 2**-53
    def _cdf(self, k, n, p):
        s = bdtrc(k, n, p)
        return where(s < 0.5, 1.0 - s, bdtr(k, n, p))

    def _sf(self, k, n, p):
        c = bdtr(k, n, p)
        return where(c < 0.5, 1.0 - c, bdtrc(k, n, p))

    def _search(self, q, n, p, hit):
        return _bisect(hit, -1.0 + 0 * q + 0 * n, n + 0 * q, _steps(n))

    def _ppf(self, q, n, p):
        return self._search(q, n, p, lambda k: self._cdf(k, n, p) >= q)

    def _isf(self, q, n, p):
        return self._search(q, n, p, lambda k: self._sf(k, n, p) <= q)

    def _stats(self, n, p):
        mu = n * p
        var = mu - n * p * p
        pq = p - p * p
        npq_sqrt = sqrt(n * pq)
        return mu, var, 1.0 / npq_sqrt - (2.0 * p) / npq_sqrt, 1.0 / (n * pq) - 6.0 / n


class geom_gen(rv_discrete):
    """See `scipy.stats.geom` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([1.0, 2.0, 5.0])
    >>> cuarray.round(stats.geom.pmf(x, 0.3), 6)
    array([0.3    , 0.21   , 0.07203])
    >>> cuarray.round(stats.geom(0.3).sf(x), 6)
    array([0.7    , 0.49   , 0.16807])
    >>> round(float(stats.geom(0.3).mean()), 6)
    3.333333
    """

    name = "geom"
    shapes = "p"
    _a = 1.0

    def _argcheck(self, p):
        return and_(p <= 1, p > 0)

    def _rvs(self, shapes, size, rng):
        return rng.geometric(shapes[0], size)

    def _pmf(self, k, p):
        return (1 - p) ** (k - 1) * p

    def _logpmf(self, k, p):
        return xlog1py(k - 1, -p) + log(p)

    def _cdf(self, k, p):
        return -expm1(log1p(-p) * k)

    def _sf(self, k, p):
        return exp(self._logsf(k, p))

    def _logsf(self, k, p):
        return k * log1p(-p)

    def _ppf(self, q, p):
        vals = ceil(log1p(-q) / log1p(-p))
        temp = self._cdf(vals - 1, p)
        return where((temp >= q) & (vals > 0), vals - 1, vals)

    def _isf(self, q, p):
        return self._ppf(1.0 - q, p)

    def _stats(self, p):
        qr = 1.0 - p
        return 1.0 / p, qr / p / p, (2.0 - p) / sqrt(qr), ((p - 6) * p + 6) / (1.0 - p)

    def _entropy(self, p):
        return -log(p) - log1p(-p) * (1.0 - p) / p


poisson = poisson_gen()
binom = binom_gen()
geom = geom_gen()
