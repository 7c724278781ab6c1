"""The closed-form continuous distributions of `scipy.stats`: norm, expon, uniform, cauchy,
laplace, logistic, lognorm, gumbel_r, gumbel_l, rayleigh, weibull_min, weibull_max, pareto.
Each formula is SciPy's, in the same log/complementary forms for the tails (norm.sf is
ndtr(-x), norm.logsf log_ndtr(-x), expon.cdf -expm1(-x), ...), on cuarray's elementwise routines."""

from __future__ import annotations

import math

from ..._math.explog import exp, expm1, log, log1p
from ..._math.misc import absolute, sqrt
from ..._math.trigonometric import arctan2, tan
from ..._sorting.searching import where
from ..special._convenience import expit, log_expit, logit, xlogy
from ..special._gamma import gamma as gamma_fn
from ..special._stats import log_ndtr, ndtr, ndtri
from ._distn_base import INF, NAN, choose
from ._distn_fit import rv_continuous
from ._distn_fit_closed import (cauchy_fitstart, expon_fit, gumbel_l_fit, gumbel_r_fit, laplace_fit, logistic_fit,
                                lognorm_fit, norm_fit, pareto_fit, rayleigh_fit, uniform_fit, weibull_min_fit)

_EULER = 0.577215664901532860606512090082402431042
_ZETA3 = 1.202056903159594285399738161511449990765
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_LOG_PI = math.log(math.pi)


class norm_gen(rv_continuous):
    """See `scipy.stats.norm` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 2.5])
    >>> cuarray.round(stats.norm.cdf(x), 6)
    array([0.158655, 0.5     , 0.99379 ])
    >>> cuarray.round(stats.norm().sf(x), 6)
    array([0.841345, 0.5     , 0.00621 ])
    >>> round(float(stats.norm().mean()), 6)
    0.0
    """

    name = "norm"
    _fit_override = norm_fit

    def fit(self, data, **kwds):
        """See `scipy.stats.norm.fit` (no positional starting values, as SciPy's)."""
        return super().fit(data, **kwds)

    def _rvs(self, shapes, size, rng):
        return rng.standard_normal(size)

    def _pdf(self, x):
        return exp(-x * x / 2.0) / math.sqrt(2 * math.pi)

    def _logpdf(self, x):
        return -x * x / 2.0 - _LOG_SQRT_2PI

    def _cdf(self, x):
        return ndtr(x)

    def _logcdf(self, x):
        return log_ndtr(x)

    def _sf(self, x):
        return ndtr(-x)

    def _logsf(self, x):
        return log_ndtr(-x)

    def _ppf(self, q):
        return ndtri(q)

    def _isf(self, q):
        return -ndtri(q)

    def _stats(self):
        return 0.0, 1.0, 0.0, 0.0

    def _entropy(self):
        return 0.5 * (math.log(2 * math.pi) + 1)

    def _munp(self, n):
        return math.prod(range(n - 1, 0, -2)) if n % 2 == 0 else 0.0  # (n-1)!!


class expon_gen(rv_continuous):
    """See `scipy.stats.expon` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.1, 1.0, 3.0])
    >>> cuarray.round(stats.expon.cdf(x), 6)
    array([0.095163, 0.632121, 0.950213])
    >>> cuarray.round(stats.expon().sf(x), 6)
    array([0.904837, 0.367879, 0.049787])
    >>> round(float(stats.expon().mean()), 6)
    1.0
    """

    name = "expon"
    _fit_override = expon_fit
    _a = 0.0

    def _rvs(self, shapes, size, rng):
        return rng.standard_exponential(size)

    def _pdf(self, x):
        return exp(-x)

    def _logpdf(self, x):
        return -x

    def _cdf(self, x):
        return -expm1(-x)

    def _ppf(self, q):
        return -log1p(-q)

    def _sf(self, x):
        return exp(-x)

    def _logsf(self, x):
        return -x

    def _isf(self, q):
        return -log(q)

    def _stats(self):
        return 1.0, 1.0, 2.0, 6.0

    def _entropy(self):
        return 1.0

    def _munp(self, n):
        return float(math.factorial(n))


class uniform_gen(rv_continuous):
    """See `scipy.stats.uniform` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.1, 0.5, 0.9])
    >>> cuarray.round(stats.uniform.cdf(x), 6)
    array([0.1, 0.5, 0.9])
    >>> cuarray.round(stats.uniform().sf(x), 6)
    array([0.9, 0.5, 0.1])
    >>> round(float(stats.uniform().mean()), 6)
    0.5
    """

    name = "uniform"
    _fit_override = uniform_fit
    _a, _b = 0.0, 1.0

    def _rvs(self, shapes, size, rng):
        return rng.random(size)

    def _pdf(self, x):
        return 1.0 * (x == x)

    def _cdf(self, x):
        return x

    def _ppf(self, q):
        return q

    def _stats(self):
        return 0.5, 1.0 / 12, 0.0, -1.2

    def _entropy(self):
        return 0.0

    def _munp(self, n):
        return 1.0 / (n + 1)


class cauchy_gen(rv_continuous):
    """See `scipy.stats.cauchy` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 2.5])
    >>> cuarray.round(stats.cauchy.cdf(x), 6)
    array([0.25    , 0.5     , 0.878881])
    >>> cuarray.round(stats.cauchy().sf(x), 6)
    array([0.75    , 0.5     , 0.121119])
    >>> round(float(stats.cauchy().mean()), 6)
    nan
    """

    name = "cauchy"
    _fitstart = cauchy_fitstart

    def _pdf(self, x):
        return 1.0 / math.pi / (1.0 + x * x)

    def _logpdf(self, x):
        ax = absolute(x)
        # for |x| >= 1 the square is factored out, as SciPy's, so that it cannot overflow
        return where(ax < 1, -_LOG_PI - log1p(ax * ax), -_LOG_PI - (2 * log(ax) + log1p((1 / ax) ** 2)))

    def _cdf(self, x):
        return arctan2(1.0, -x) / math.pi

    def _sf(self, x):
        return arctan2(1.0, x) / math.pi

    def _ppf(self, q):
        # tan(pi (q - 1/2)) loses the tails; SciPy's (boost) is -1/tan(pi q) below 1/2
        return where(q == 0.5, 0.0, where(q < 0.5, -1.0 / tan(math.pi * q), 1.0 / tan(math.pi * (1.0 - q))))

    def _isf(self, q):
        return -self._ppf(q)

    def _stats(self):
        return NAN, NAN, NAN, NAN

    def _entropy(self):
        return math.log(4 * math.pi)


class laplace_gen(rv_continuous):
    """See `scipy.stats.laplace` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 2.5])
    >>> cuarray.round(stats.laplace.cdf(x), 6)
    array([0.18394 , 0.5     , 0.958958])
    >>> cuarray.round(stats.laplace().sf(x), 6)
    array([0.81606 , 0.5     , 0.041042])
    >>> round(float(stats.laplace().mean()), 6)
    0.0
    """

    name = "laplace"
    _fit_override = laplace_fit

    def _rvs(self, shapes, size, rng):
        return rng.laplace(0.0, 1.0, size)

    def _pdf(self, x):
        return 0.5 * exp(-absolute(x))

    def _cdf(self, x):
        return where(x > 0, 1.0 - 0.5 * exp(-x), 0.5 * exp(x))

    def _sf(self, x):
        return self._cdf(-x)

    def _ppf(self, q):
        return where(q > 0.5, -log(2 * (1 - q)), log(2 * q))

    def _isf(self, q):
        return -self._ppf(q)

    def _stats(self):
        return 0.0, 2.0, 0.0, 3.0

    def _entropy(self):
        return math.log(2) + 1


class logistic_gen(rv_continuous):
    """See `scipy.stats.logistic` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 2.5])
    >>> cuarray.round(stats.logistic.cdf(x), 6)
    array([0.268941, 0.5     , 0.924142])
    >>> cuarray.round(stats.logistic().sf(x), 6)
    array([0.731059, 0.5     , 0.075858])
    >>> round(float(stats.logistic().mean()), 6)
    0.0
    """

    name = "logistic"
    _fit_override = logistic_fit

    def _pdf(self, x):
        return exp(self._logpdf(x))

    def _logpdf(self, x):
        y = -absolute(x)
        return y - 2.0 * log1p(exp(y))

    def _cdf(self, x):
        return expit(x)

    def _logcdf(self, x):
        return log_expit(x)

    def _sf(self, x):
        return expit(-x)

    def _logsf(self, x):
        return log_expit(-x)

    def _ppf(self, q):
        return logit(q)

    def _isf(self, q):
        return -logit(q)

    def _stats(self):
        return 0.0, math.pi * math.pi / 3.0, 0.0, 6.0 / 5.0

    def _entropy(self):
        return 2.0


class lognorm_gen(rv_continuous):
    """See `scipy.stats.lognorm` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.5, 1.0, 2.5])
    >>> cuarray.round(stats.lognorm.cdf(x, 0.5), 6)
    array([0.082829, 0.5     , 0.966568])
    >>> cuarray.round(stats.lognorm(0.5).sf(x), 6)
    array([0.917171, 0.5     , 0.033432])
    >>> round(float(stats.lognorm(0.5).mean()), 6)
    1.133148
    """

    _open_pdf = True  # SciPy's pdf is 0 at the lower edge (its open support mask)
    name = "lognorm"
    _fit_override = lognorm_fit
    shapes = "s"
    _a = 0.0

    def _rvs(self, shapes, size, rng):
        return exp(shapes[0] * rng.standard_normal(size))

    def _pdf(self, x, s):
        return exp(self._logpdf(x, s))

    def _logpdf(self, x, s):
        return -log(x) ** 2 / (2 * s ** 2) - log(s * x * math.sqrt(2 * math.pi))

    def _cdf(self, x, s):
        return ndtr(log(x) / s)

    def _logcdf(self, x, s):
        return log_ndtr(log(x) / s)

    def _sf(self, x, s):
        return ndtr(-log(x) / s)

    def _logsf(self, x, s):
        return log_ndtr(-log(x) / s)

    def _ppf(self, q, s):
        return exp(s * ndtri(q))

    def _isf(self, q, s):
        return exp(-s * ndtri(q))

    def _stats(self, s):
        p = exp(s * s)
        return sqrt(p), p * (p - 1), sqrt(p - 1) * (2 + p), (((p + 2) * p + 3) * p) * p - 6.0

    def _entropy(self, s):
        return 0.5 * (1 + math.log(2 * math.pi) + 2 * log(s))


class gumbel_r_gen(rv_continuous):
    """See `scipy.stats.gumbel_r` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 2.5])
    >>> cuarray.round(stats.gumbel_r.cdf(x), 6)
    array([0.065988, 0.367879, 0.921194])
    >>> cuarray.round(stats.gumbel_r().sf(x), 6)
    array([0.934012, 0.632121, 0.078806])
    >>> round(float(stats.gumbel_r().mean()), 6)
    0.577216
    """

    name = "gumbel_r"
    _fit_override = gumbel_r_fit

    def _pdf(self, x):
        return exp(self._logpdf(x))

    def _logpdf(self, x):
        return -x - exp(-x)

    def _cdf(self, x):
        return exp(-exp(-x))

    def _logcdf(self, x):
        return -exp(-x)

    def _sf(self, x):
        return -expm1(-exp(-x))

    def _ppf(self, q):
        return -log(-log(q))

    def _isf(self, q):
        return -log(-log1p(-q))

    def _stats(self):
        return _EULER, math.pi * math.pi / 6.0, 12 * math.sqrt(6) / math.pi ** 3 * _ZETA3, 12.0 / 5

    def _entropy(self):
        return _EULER + 1.0


class gumbel_l_gen(rv_continuous):
    """See `scipy.stats.gumbel_l` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 2.5])
    >>> cuarray.round(stats.gumbel_l.cdf(x), 6)
    array([0.307799, 0.632121, 0.999995])
    >>> cuarray.round(stats.gumbel_l().sf(x), 6)
    array([6.92201e-01, 3.67879e-01, 5.00000e-06])
    >>> round(float(stats.gumbel_l().mean()), 6)
    -0.577216
    """

    name = "gumbel_l"

    def _fit_override(self, data, args, kwds):
        return gumbel_l_fit(gumbel_r, data, args, kwds)  # SciPy's: gumbel_r's fit of -data

    def _pdf(self, x):
        return exp(self._logpdf(x))

    def _logpdf(self, x):
        return x - exp(x)

    def _cdf(self, x):
        return -expm1(-exp(x))

    def _sf(self, x):
        return exp(-exp(x))

    def _logsf(self, x):
        return -exp(x)

    def _ppf(self, q):
        return log(-log1p(-q))

    def _isf(self, q):
        return log(-log(q))

    def _stats(self):
        return -_EULER, math.pi * math.pi / 6.0, -12 * math.sqrt(6) / math.pi ** 3 * _ZETA3, 12.0 / 5

    def _entropy(self):
        return _EULER + 1.0


class rayleigh_gen(rv_continuous):
    """See `scipy.stats.rayleigh` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.5, 1.0, 2.5])
    >>> cuarray.round(stats.rayleigh.cdf(x), 6)
    array([0.117503, 0.393469, 0.956063])
    >>> cuarray.round(stats.rayleigh().sf(x), 6)
    array([0.882497, 0.606531, 0.043937])
    >>> round(float(stats.rayleigh().mean()), 6)
    1.253314
    """

    _open_pdf = True  # SciPy's pdf is 0 at the lower edge (its open support mask)
    name = "rayleigh"
    _fit_override = rayleigh_fit
    _a = 0.0

    def _pdf(self, r):
        return exp(self._logpdf(r))

    def _logpdf(self, r):
        return log(r) - 0.5 * r * r

    def _cdf(self, r):
        return -expm1(-0.5 * r * r)

    def _sf(self, r):
        return exp(-0.5 * r * r)

    def _logsf(self, r):
        return -0.5 * r * r

    def _ppf(self, q):
        return sqrt(-2 * log1p(-q))

    def _isf(self, q):
        return sqrt(-2 * log(q))

    def _stats(self):
        val = 4 - math.pi
        return (math.sqrt(math.pi / 2), val / 2, 2 * (math.pi - 3) * math.sqrt(math.pi) / val ** 1.5,
                6 * math.pi / val - 16 / val ** 2)

    def _entropy(self):
        return _EULER / 2.0 + 1 - 0.5 * math.log(2)


def _stats_from_munp(dist, *shapes):
    """Mean, variance, skewness and excess kurtosis from E[Y], ..., E[Y^4] (SciPy's generic `stats`)."""
    m1, m2, m3, m4 = (dist._munp(n, *shapes) for n in (1, 2, 3, 4))
    mu2 = m2 - m1 * m1
    mu3 = (-m1 * m1 - 3 * mu2) * m1 + m3
    g1 = mu3 / mu2 ** 1.5
    mu4 = ((-m1 * m1 - 6 * mu2) * m1 - 4 * mu3) * m1 + m4
    return m1, mu2, g1, mu4 / mu2 ** 2 - 3.0


class weibull_min_gen(rv_continuous):
    """See `scipy.stats.weibull_min` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.5, 1.0, 2.5])
    >>> cuarray.round(stats.weibull_min.cdf(x, 1.5), 6)
    array([0.297811, 0.632121, 0.9808  ])
    >>> cuarray.round(stats.weibull_min(1.5).sf(x), 6)
    array([0.702189, 0.367879, 0.0192  ])
    >>> round(float(stats.weibull_min(1.5).mean()), 6)
    0.902745
    """

    name = "weibull_min"
    _fit_override = weibull_min_fit
    _censored_override = "any"  # SciPy's: uncensored CensoredData takes its MLE and MM alike
    shapes = "c"
    _a = 0.0

    def _pdf(self, x, c):
        return c * x ** (c - 1) * exp(-x ** c)

    def _logpdf(self, x, c):
        return log(c) + xlogy(c - 1, x) - x ** c

    def _cdf(self, x, c):
        return -expm1(-x ** c)

    def _sf(self, x, c):
        return exp(-x ** c)

    def _logsf(self, x, c):
        return -x ** c

    def _ppf(self, q, c):
        return (-log1p(-q)) ** (1.0 / c)

    def _isf(self, q, c):
        return (-log(q)) ** (1 / c)

    def _entropy(self, c):
        return -_EULER / c - log(c) + _EULER + 1

    def _munp(self, n, c):
        return gamma_fn(1.0 + n * 1.0 / c)

    def _stats(self, c):
        return _stats_from_munp(self, c)


class weibull_max_gen(rv_continuous):
    """See `scipy.stats.weibull_max` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-2.5, -1.0, -0.5])
    >>> cuarray.round(stats.weibull_max.cdf(x, 1.5), 6)
    array([0.0192  , 0.367879, 0.702189])
    >>> cuarray.round(stats.weibull_max(1.5).sf(x), 6)
    array([0.9808  , 0.632121, 0.297811])
    >>> round(float(stats.weibull_max(1.5).mean()), 6)
    -0.902745
    """

    name = "weibull_max"
    shapes = "c"
    _a, _b = -INF, 0.0

    def _pdf(self, x, c):
        return c * (-x) ** (c - 1) * exp(-(-x) ** c)

    def _logpdf(self, x, c):
        return log(c) + xlogy(c - 1, -x) - (-x) ** c

    def _cdf(self, x, c):
        return exp(-(-x) ** c)

    def _logcdf(self, x, c):
        return -(-x) ** c

    def _sf(self, x, c):
        return -expm1(-(-x) ** c)

    def _ppf(self, q, c):
        return -(-log(q)) ** (1.0 / c)

    def _entropy(self, c):
        return -_EULER / c - log(c) + _EULER + 1

    def _munp(self, n, c):
        return (-1 if n % 2 else 1) * gamma_fn(1.0 + n * 1.0 / c)

    def _stats(self, c):
        return _stats_from_munp(self, c)


class pareto_gen(rv_continuous):
    """See `scipy.stats.pareto` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([1.5, 2.0, 4.0])
    >>> cuarray.round(stats.pareto.cdf(x, 2.5), 6)
    array([0.637113, 0.823223, 0.96875 ])
    >>> cuarray.round(stats.pareto(2.5).sf(x), 6)
    array([0.362887, 0.176777, 0.03125 ])
    >>> round(float(stats.pareto(2.5).mean()), 6)
    1.666667
    """

    name = "pareto"
    _fit_override = pareto_fit
    shapes = "b"
    _a = 1.0

    def _pdf(self, x, b):
        return b * x ** (-b - 1)

    def _cdf(self, x, b):
        # SciPy's 1 - x**-b cancels next to x = 1, where one ulp of pow is most of the value
        return -expm1(-b * log(x))

    def _sf(self, x, b):
        return x ** (-b)

    def _ppf(self, q, b):
        return (1 - q) ** (-1.0 / b)

    def _isf(self, q, b):
        return q ** (-1.0 / b)

    def _stats(self, b):
        mu = choose(b > 1, b / (b - 1.0), INF)
        mu2 = choose(b > 2, b / (b - 2.0) / (b - 1.0) ** 2, INF)
        g1 = choose(b > 3, 2 * (b + 1.0) * sqrt(b - 2.0) / ((b - 3.0) * sqrt(b)), NAN)
        g2 = choose(b > 4, 6.0 * (((b + 1.0) * b - 6) * b - 2) / (((b - 7.0) * b + 12.0) * b), NAN)
        return mu, mu2, g1, g2

    def _entropy(self, b):
        return 1 + 1.0 / b - log(b)


norm = norm_gen()
expon = expon_gen()
uniform = uniform_gen()
cauchy = cauchy_gen()
laplace = laplace_gen()
logistic = logistic_gen()
lognorm = lognorm_gen()
gumbel_r = gumbel_r_gen()
gumbel_l = gumbel_l_gen()
rayleigh = rayleigh_gen()
weibull_min = weibull_min_gen()
weibull_max = weibull_max_gen()
pareto = pareto_gen()
