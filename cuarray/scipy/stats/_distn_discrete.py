"""The discrete distributions of `scipy.stats`: poisson, binom, geom, nbinom, hypergeom (pmf,
logpmf, cdf, logcdf, sf, logsf, ppf, isf, rvs, the moments; entropy for geom and hypergeom).
SciPy's formulas (pdtr/pdtrc, bdtr/bdtrc, the incomplete beta on `cuarray.scipy.special`); the
pmf of binom is exp of SciPy's logpmf (SciPy calls Boost's). The quantiles of poisson, binom,
nbinom and hypergeom are the smallest integer k with cdf(k) >= q (sf(k) <= q) found by bisection
over the integers, a fixed number of steps on the whole array (SciPy inverts with pdtrik/bdtrik
or Boost, which cuarray.scipy.special lacks, then corrects to the same integer)."""

from __future__ import annotations

import math

import numpy

from ..._core.transfer import to_host
from ..._logic.content import isfinite
from ..._creation.ranges import arange
from ..._manipulation.dims import expand_dims
from ..._math.explog import exp, expm1, log, log1p
from ..._math.extrema import maximum, minimum
from ..._math.misc import sqrt
from ..._math.rounding import ceil, floor
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ..special._convenience import entr, xlog1py, xlogy
from ..special._gamma import betaln, gammaln
from ..special._stats import bdtr, bdtrc, fdtr, fdtrc, pdtr, pdtrc
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


def _host_width(width):
    """The widest finite integer range of `width` as a host float: one small read where the
    parameters are on the device (the bisection's step count and hypergeom's padded range depend
    on it; invalid parameters, NaN or inf, are left out: their results are NaN)."""
    if is_host(width):
        return float(width) if math.isfinite(width) else 0.0
    return float(to_host(max_(where(isfinite(width), width, 0.0))))


def _stirling_tail(z):
    """log Gamma(z) - ((z - 1/2) log z - z + log(2 pi)/2): Stirling's series to z**-7 (its next
    term is below 2e-15 for z >= 20)."""
    z2 = z * z
    return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / (1680 * z2)) / z2) / z2) / z


def _lgamma_diff(k, n):
    """log Gamma(n + k) - log Gamma(k + 1). From k = 20 on by Stirling's series of the difference,
    (k + 1/2) log1p((n - 1)/(k + 1)) + (n - 1)(log(n + k) - 1) + the tails' difference, whose
    terms are of the size of the result: gammaln(n + k) - gammaln(k + 1) loses
    eps * gammaln(k) to cancellation (2e-12 of the pmf at k = 2100)."""
    x, a = k + 1, n - 1
    big = (x - 0.5) * log1p(a / x) + a * (log(n + k) - 1) + _stirling_tail(n + k) - _stirling_tail(x)
    return where(k >= 20, big, gammaln(n + k) - gammaln(k + 1))


def _last(v):
    """v with a new last axis (for a range along it); a host scalar as it is."""
    return v if is_host(v) else expand_dims(v, -1)


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


class nbinom_gen(rv_discrete):
    """See `scipy.stats.nbinom` (docs/scipy-stats.md: what differs on the GPU): SciPy's logpmf;
    the pmf (SciPy's is Boost's) from the same sum with its lgamma difference by Stirling's series
    for k >= 20; the cdf and sf the regularized incomplete beta function as Boost's; the quantiles
    by bisection over the integers.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.0, 2.0, 5.0])
    >>> cuarray.round(stats.nbinom.pmf(x, 3.5, 0.4), 6)
    array([0.040477, 0.114753, 0.110765])
    >>> cuarray.round(stats.nbinom(3.5, 0.4).sf(x), 6)
    array([0.959523, 0.759768, 0.399703])
    >>> round(float(stats.nbinom(3.5, 0.4).mean()), 6)
    5.25
    """

    name = "nbinom"
    shapes = "n, p"

    def _argcheck(self, n, p):
        return and_(n > 0, and_(p > 0, p <= 1))

    def _rvs(self, shapes, size, rng):
        return rng.negative_binomial(shapes[0], shapes[1], size)

    def _pmf(self, k, n, p):
        return exp(_lgamma_diff(k, n) - gammaln(n) + n * log(p) + xlog1py(k, -p))

    def _logpmf(self, k, n, p):
        coeff = gammaln(n + k) - gammaln(k + 1) - gammaln(n)
        return coeff + n * log(p) + xlog1py(k, -p)

    # cdf = I_p(n, k+1), sf = I_{1-p}(k+1, n) (Boost's ibeta, ibetac). Both through fdtr/fdtrc
    # at x = (k+1) p / (n (1-p)), whose incomplete beta takes p and 1 - p each to a few ulp of
    # their own size: 1 - p formed directly would carry an absolute rounding of 2**-54, which for
    # small p is a relative error of 2**-54 / p in the sf's argument
    # (at p = 1, x = inf: cdf 1 and sf 0 from k = 0 on; at k = -1, the bisection's lower end,
    # x = 0 or NaN: no hit)
    def _fx(self, k, n, p):
        return (k + 1) * p / (n * (1 - p))

    def _cdf(self, k, n, p):
        return fdtr(2 * n, 2 * (k + 1), self._fx(k, n, p))

    def _sf(self, k, n, p):
        return fdtrc(2 * n, 2 * (k + 1), self._fx(k, n, p))

    # SciPy's: log1p(-sf) where the cdf is above 1/2
    def _logcdf(self, k, n, p):
        c = self._cdf(k, n, p)
        return where(c > 0.5, log1p(-self._sf(k, n, p)), log(c))

    def _search(self, q, n, p, hit):
        # beyond this k, Chernoff's bound on Bin(k + n, p) < n puts the tail below 1e-308
        hi = (1500 + 40 * (n ** 0.5)) / p + n * (1 - p) / p
        hi = numpy.floor(hi) if is_host(hi) else floor(hi)
        return _bisect(hit, -1.0 + 0 * q + 0 * n, hi + 0 * q, _steps(_host_width(hi + 1)))

    def _ppf(self, q, n, p):
        return self._search(q, n, p, lambda k: self._cdf(k, n, p) >= q)

    def _isf(self, q, n, p):
        return self._search(q, n, p, lambda k: self._sf(k, n, p) <= q)

    def _stats(self, n, p):
        nq = n * (1 - p)
        return nq / p, nq / (p * p), (2 - p) / sqrt(nq), (6 - 6 * p + p * p) / nq


class hypergeom_gen(rv_discrete):
    """See `scipy.stats.hypergeom` (docs/scipy-stats.md: what differs on the GPU): SciPy's logpmf
    (betaln), the pmf its exp; the cdf and sf are sums of the pmf over the support, each element
    over a range padded to the widest support of the parameters (min(n, N) + 1 values at most:
    memory and time grow with it, meant for moderate n and N); the smaller tail is summed and the
    other is 1 minus it, as Boost's. The quantiles by bisection over the support.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([2.0, 4.0, 6.0])
    >>> cuarray.round(stats.hypergeom.pmf(x, 20, 7, 12), 6)
    array([0.047678, 0.357585, 0.095356])
    >>> cuarray.round(stats.hypergeom(20, 7, 12).sf(x), 6)
    array([0.947884, 0.391641, 0.010217])
    >>> round(float(stats.hypergeom(20, 7, 12).mean()), 6)
    4.2
    """

    name = "hypergeom"
    shapes = "M, n, N"

    def _argcheck(self, M, n, N):
        cond = and_(and_(M > 0, n >= 0), and_(N >= 0, and_(n <= M, N <= M)))
        for v in (M, n, N):
            cond = and_(cond, (numpy.floor(v) if is_host(v) else floor(v)) == v)
        return cond

    def _get_support(self, M, n, N):
        lo = N - (M - n)
        if is_host(M) and is_host(n) and is_host(N):
            return max(lo, 0.0), min(n, N)
        return maximum(lo, 0.0), minimum(n, N)

    def _rvs(self, shapes, size, rng):
        M, n, N = (int(v) if is_host(v) else v.astype(numpy.int64) for v in shapes)
        return rng.hypergeometric(n, M - n, N, size)

    def _pmf(self, k, M, n, N):
        return exp(self._logpmf(k, M, n, N))

    def _logpmf(self, k, M, n, N):
        bad = M - n
        val = (betaln(n + 1, 1) + betaln(bad + 1, 1) + betaln(M - N + 1, N + 1) - betaln(k + 1, n - k + 1)
               - betaln(N - k + 1, bad - N + k + 1) - betaln(M + 1, 1))
        # a one-point support (n or N is 0 or M): 0 exactly, where the betaln sum rounds to a few ulp
        a, b = self._get_support(M, n, N)
        return choose(a == b, 0.0, val)

    def _tails(self, k, M, n, N):
        """(P(X <= k), P(X > k)): the pmf summed over the support along a padded last axis."""
        a, b = self._get_support(M, n, N)
        width = _host_width(b - a)
        j = _last(a) + arange(int(width) + 1, dtype=numpy.float64)
        ok = j <= _last(b)
        pmf = where(ok, exp(self._logpmf(j, _last(M), _last(n), _last(N))), 0.0)
        below = j <= _last(k)
        return sum_(where(below, pmf, 0.0), axis=-1), sum_(where(below, 0.0, pmf), axis=-1)

    def _shares(self, k, M, n, N):
        """(P(X <= k), P(X > k)), each tail over their sum: the pmf's errors common to every k
        (its betaln terms of M, n and N alone, some 1e-14 of it) cancel, so that the cdf is a few
        ulp of the exact one and a tie of the exact cdf with q is one (hypergeom(60, 45, 30) is
        symmetric about 22.5: cdf(22) is 1/2 exactly, the tails' sums equal)."""
        lower, upper = self._tails(k, M, n, N)
        total = lower + upper
        return lower / total, upper / total

    def _cdf(self, k, M, n, N):
        lower, upper = self._shares(k, M, n, N)
        return where(lower <= upper, lower, 1.0 - upper)

    def _sf(self, k, M, n, N):
        lower, upper = self._shares(k, M, n, N)
        return where(upper <= lower, upper, 1.0 - lower)

    def _logcdf(self, k, M, n, N):
        lower, upper = self._shares(k, M, n, N)
        return where(lower <= upper, log(lower), log1p(-upper))

    def _logsf(self, k, M, n, N):
        lower, upper = self._shares(k, M, n, N)
        return where(upper <= lower, log(upper), log1p(-lower))

    def _search(self, q, M, n, N, hit):
        a, b = self._get_support(M, n, N)
        return _bisect(hit, a - 1.0 + 0 * q, b + 0 * q, _steps(_host_width(b - a + 1)))

    def _ppf(self, q, M, n, N):
        return self._search(q, M, n, N, lambda k: self._cdf(k, M, n, N) >= q)

    def _isf(self, q, M, n, N):
        return self._search(q, M, n, N, lambda k: self._sf(k, M, n, N) <= q)

    def _stats(self, M, n, N):
        m = M - n
        g2 = M * (M + 1) - 6.0 * N * (M - N) - 6.0 * n * m
        g2 = g2 * (M - 1) * M * M + 6.0 * n * N * (M - N) * m * (5.0 * M - 6)
        g2 = g2 / (n * N * (M - N) * m * (M - 2.0) * (M - 3.0))
        mean = n * N / M
        var = n * N * m * (M - N) / (M * M * (M - 1))
        skew = (M - 2 * n) * sqrt(M - 1) * (M - 2 * N) / (sqrt(n * N * m * (M - N)) * (M - 2))
        return mean, var, skew, g2

    def _entropy(self, M, n, N):
        a, b = self._get_support(M, n, N)
        j = _last(a) + arange(int(_host_width(b - a)) + 1, dtype=numpy.float64)
        pmf = where(j <= _last(b), exp(self._logpmf(j, _last(M), _last(n), _last(N))), 0.0)
        return sum_(entr(pmf), axis=-1)


poisson = poisson_gen()
binom = binom_gen()
geom = geom_gen()
nbinom = nbinom_gen()
hypergeom = hypergeom_gen()
