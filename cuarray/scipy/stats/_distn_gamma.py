"""The continuous distributions of `scipy.stats` on the incomplete gamma and beta functions:
gamma, chi2, invgamma, beta, t, f. Formulas are SciPy's; the cdf/sf/ppf/isf are
`cuarray.scipy.special`'s gammainc/gammaincc/gammaincinv/gammainccinv, chdtr/chdtrc/chdtri,
betainc/betaincinv, stdtr/stdtrit, fdtr/fdtrc/fdtri. `beta.sf` and `beta.isf` are
written on betainc/betaincinv (SciPy 1.18 calls betaincc/betainccinv, which
cuarray.scipy.special lacks; see `beta_gen._sf`)."""

from __future__ import annotations

import math

from ..._logic.content import isinf
from ..._math.explog import exp, log, log1p
from ..._math.extrema import maximum
from ..._math.misc import sqrt
from ..._sorting.searching import where
from ..special._convenience import xlog1py, xlogy
from ..special._gamma import beta as beta_fn
from ..special._gamma import (betainc, betaincinv, betaln, gammainc, gammaincc, gammainccinv, gammaincinv,
                              gammaln, poch, psi)
from ..special._stats import chdtr, chdtrc, chdtri, fdtr, fdtrc, fdtri, stdtr, stdtrit
from ._distn_base import INF, NAN, choose
from ._distn_fit import rv_continuous
from ._distn_fit_closed import beta_fit, beta_fitstart, gamma_fit, gamma_fitstart
from ._distn_continuous import norm

_LOG2 = math.log(2.0)
_TINY = 2.2250738585072014e-308


class gamma_gen(rv_continuous):
    """See `scipy.stats.gamma` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.5, 2.0, 6.0])
    >>> cuarray.round(stats.gamma.cdf(x, 2.5), 6)
    array([0.037434, 0.450584, 0.965212])
    >>> cuarray.round(stats.gamma(2.5).sf(x), 6)
    array([0.962566, 0.549416, 0.034788])
    >>> round(float(stats.gamma(2.5).mean()), 6)
    2.5
    """

    name = "gamma"
    _fit_override = gamma_fit
    _censored_override = "none"  # SciPy's gamma.fit passes any CensoredData to the generic fit
    _fitstart = gamma_fitstart
    shapes = "a"
    _a = 0.0

    def _rvs(self, shapes, size, rng):
        return rng.standard_gamma(shapes[0], size)

    def _pdf(self, x, a):
        return exp(self._logpdf(x, a))

    def _logpdf(self, x, a):
        return xlogy(a - 1.0, x) - x - gammaln(a)

    def _cdf(self, x, a):
        return gammainc(a, x)

    def _sf(self, x, a):
        return gammaincc(a, x)

    def _ppf(self, q, a):
        return gammaincinv(a, q)

    def _isf(self, q, a):
        return gammainccinv(a, q)

    def _stats(self, a):
        return a, a, 2.0 / sqrt(a), 6.0 / a

    def _entropy(self, a):
        regular = psi(a) * (1 - a) + a + gammaln(a)
        asymptotic = (0.5 * (1.0 + math.log(2 * math.pi) + log(a)) - 1 / (3 * a) - (a ** -2.0) / 12
                      - (a ** -3.0) / 90 + (a ** -4.0) / 120)
        return choose(a < 250, regular, asymptotic)

    def _munp(self, n, a):
        return poch(a, n)


class chi2_gen(rv_continuous):
    """See `scipy.stats.chi2` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.5, 2.0, 6.0])
    >>> cuarray.round(stats.chi2.cdf(x, 3.0), 6)
    array([0.081109, 0.427593, 0.88839 ])
    >>> cuarray.round(stats.chi2(3.0).sf(x), 6)
    array([0.918891, 0.572407, 0.11161 ])
    >>> round(float(stats.chi2(3.0).mean()), 6)
    3.0
    """

    name = "chi2"
    shapes = "df"
    _a = 0.0

    def _rvs(self, shapes, size, rng):
        return rng.chisquare(shapes[0], size)

    def _pdf(self, x, df):
        return exp(self._logpdf(x, df))

    def _logpdf(self, x, df):
        return xlogy(df / 2.0 - 1, x) - x / 2.0 - gammaln(df / 2.0) - (_LOG2 * df) / 2.0

    def _cdf(self, x, df):
        return chdtr(df, x)

    def _sf(self, x, df):
        return chdtrc(df, x)

    def _ppf(self, p, df):
        return 2 * gammaincinv(df / 2, p)

    def _isf(self, p, df):
        return chdtri(df, p)

    def _stats(self, df):
        return df, 2 * df, 2 * sqrt(2.0 / df), 12.0 / df

    def _entropy(self, df):
        h = 0.5 * df
        regular = h + _LOG2 + gammaln(h) + (1 - h) * psi(h)
        c = _LOG2 + 0.5 * (1 + math.log(2 * math.pi))
        r = 0.5 / h
        asymptotic = r * (-2 / 3 + r * (-1 / 3 + r * (-4 / 45 + r / 7.5))) + 0.5 * log(h) + c
        return choose(h < 125, regular, asymptotic)

    def _munp(self, n, df):
        return 2.0 ** n * poch(df / 2.0, n)


class invgamma_gen(rv_continuous):
    """See `scipy.stats.invgamma` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.2, 0.5, 2.0])
    >>> cuarray.round(stats.invgamma.cdf(x, 2.5), 6)
    array([0.075235, 0.549416, 0.962566])
    >>> cuarray.round(stats.invgamma(2.5).sf(x), 6)
    array([0.924765, 0.450584, 0.037434])
    >>> round(float(stats.invgamma(2.5).mean()), 6)
    0.666667
    """

    _open_pdf = True  # SciPy's pdf is 0 at the lower edge (its open support mask)
    name = "invgamma"
    shapes = "a"
    _a = 0.0

    def _rvs(self, shapes, size, rng):
        return 1.0 / rng.standard_gamma(shapes[0], size)

    def _pdf(self, x, a):
        return exp(self._logpdf(x, a))

    def _logpdf(self, x, a):
        return -(a + 1) * log(x) - gammaln(a) - 1.0 / x

    def _cdf(self, x, a):
        return gammaincc(a, 1.0 / x)

    def _sf(self, x, a):
        return gammainc(a, 1.0 / x)

    def _ppf(self, q, a):
        return 1.0 / gammainccinv(a, q)

    def _isf(self, q, a):
        return 1.0 / gammaincinv(a, q)

    def _stats(self, a):
        return (choose(a > 1, 1.0 / (a - 1.0), INF), choose(a > 2, 1.0 / (a - 1.0) ** 2 / (a - 2.0), INF),
                choose(a > 3, 4.0 * sqrt(a - 2.0) / (a - 3.0), NAN),
                choose(a > 4, 6.0 * (5.0 * a - 11.0) / (a - 3.0) / (a - 4.0), NAN))

    def _entropy(self, a):
        regular = a - (a + 1.0) * psi(a) + gammaln(a)
        asymptotic = ((1 - 3 * log(a) + _LOG2 + math.log(math.pi)) / 2 + 2 / 3 * a ** -1.0 + a ** -2.0 / 12
                      - a ** -3.0 / 90 - a ** -4.0 / 120)
        return choose(a >= 200, asymptotic, regular)


def _betaincinv(a, b, q):
    """betaincinv, with the leading term of the series where the root is below 1e-17: there
    I(a, b, x) = x^a / (a B(a, b)) (1 + O(x)) is exact in double, and betaincinv gives NaN for
    q of 1e-300 where SciPy's beta.ppf (Boost's quantile) finds the root."""
    small = exp((log(q) + log(a) + betaln(a, b)) / a)
    # Boost's quantile returns the smallest normal double where the root underflows
    return where(small < 1e-17, maximum(small, _TINY), betaincinv(a, b, q))


class beta_gen(rv_continuous):
    """See `scipy.stats.beta` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.1, 0.5, 0.9])
    >>> cuarray.round(stats.beta.cdf(x, 2.0, 5.0), 6)
    array([0.114265, 0.890625, 0.999945])
    >>> cuarray.round(stats.beta(2.0, 5.0).sf(x), 6)
    array([8.85735e-01, 1.09375e-01, 5.50000e-05])
    >>> round(float(stats.beta(2.0, 5.0).mean()), 6)
    0.285714
    """

    name = "beta"
    _fit_override = beta_fit
    _fitstart = beta_fitstart
    shapes = "a, b"
    _a, _b = 0.0, 1.0

    def _rvs(self, shapes, size, rng):
        return rng.beta(shapes[0], shapes[1], size)

    def _pdf(self, x, a, b):
        return exp(self._logpdf(x, a, b))

    def _logpdf(self, x, a, b):
        return xlog1py(b - 1.0, -x) + xlogy(a - 1.0, x) - betaln(a, b)

    def _cdf(self, x, a, b):
        return betainc(a, b, x)

    # sf and isf without betaincc/betainccinv: 1 - cdf where the cdf is below 1/2 (no
    # cancellation there), else the mirrored integral at 1 - x (exact for x >= 1/2)
    def _sf(self, x, a, b):
        c = betainc(a, b, x)
        return where(c < 0.5, 1.0 - c, betainc(b, a, 1.0 - x))

    def _logsf(self, x, a, b):
        c = betainc(a, b, x)
        return where(c < 0.5, log1p(-c), log(betainc(b, a, 1.0 - x)))

    def _ppf(self, q, a, b):
        return _betaincinv(a, b, q)

    def _isf(self, q, a, b):
        return where(q > 0.5, _betaincinv(a, b, 1.0 - q), 1.0 - _betaincinv(b, a, q))

    def _stats(self, a, b):
        s = a + b
        mean = a / s
        var = a * b / (s ** 2 * (s + 1))
        skew = (2 * (b - a) * sqrt(s + 1)) / ((s + 2) * sqrt(a * b))
        kurt = 6 * ((a - b) ** 2 * (s + 1) - a * b * (s + 2)) / (a * b * (s + 2) * (s + 3))
        return mean, var, skew, kurt

    def _entropy(self, a, b):
        # SciPy's regular formula (its asymptotic forms take over only above a, b ~ 5e6)
        return betaln(a, b) - (a - 1) * psi(a) - (b - 1) * psi(b) + (a + b - 2) * psi(a + b)


class t_gen(rv_continuous):
    """See `scipy.stats.t` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-2.0, 0.0, 1.5])
    >>> cuarray.round(stats.t.cdf(x, 7.0), 6)
    array([0.04281 , 0.5     , 0.911351])
    >>> cuarray.round(stats.t(7.0).sf(x), 6)
    array([0.95719 , 0.5     , 0.088649])
    >>> round(float(stats.t(7.0).mean()), 6)
    0.0
    """

    name = "t"
    shapes = "df"

    def _rvs(self, shapes, size, rng):
        return rng.standard_t(shapes[0], size)

    def _pdf(self, x, df):
        return choose(isinf(df), norm._pdf(x), exp(self._logpdf(x, df)))

    def _logpdf(self, x, df):
        t = log(poch(0.5 * df, 0.5)) - 0.5 * (log(df) + math.log(math.pi)) - (df + 1) / 2 * log1p(x * x / df)
        return choose(isinf(df), norm._logpdf(x), t)

    def _cdf(self, x, df):
        return stdtr(df, x)

    def _sf(self, x, df):
        return stdtr(df, -x)

    def _ppf(self, q, df):
        return stdtrit(df, q)

    def _isf(self, q, df):
        return -stdtrit(df, q)

    def _stats(self, df):
        fin = ~isinf(df)
        mu = choose(df > 1, 0.0, INF)
        mu2 = choose(df > 2, choose(fin, df / (df - 2.0), 1.0), choose(df > 1, INF, NAN))
        g1 = choose(df > 3, 0.0, NAN)
        g2 = choose(df > 4, choose(fin, 6.0 / (df - 4.0), 0.0), choose(df > 2, INF, NAN))
        return mu, mu2, g1, g2

    def _entropy(self, df):
        half, half1 = df / 2, (df + 1) / 2
        regular = half1 * (psi(half1) - psi(half)) + log(sqrt(df) * beta_fn(half, 0.5))
        asymptotic = (norm._entropy() + 1 / df + (df ** -2.0) / 4 - (df ** -3.0) / 6 - (df ** -4.0) / 8
                      + 3 / 10 * (df ** -5.0) + (df ** -6.0) / 4)
        return choose(df >= 100, asymptotic, regular)


class f_gen(rv_continuous):
    """See `scipy.stats.f` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([0.5, 1.0, 3.0])
    >>> cuarray.round(stats.f.cdf(x, 4.0, 9.0), 6)
    array([0.26301 , 0.54421 , 0.921124])
    >>> cuarray.round(stats.f(4.0, 9.0).sf(x), 6)
    array([0.73699 , 0.45579 , 0.078876])
    >>> round(float(stats.f(4.0, 9.0).mean()), 6)
    1.285714
    """

    name = "f"
    shapes = "dfn, dfd"
    _a = 0.0

    def _rvs(self, shapes, size, rng):
        return rng.f(shapes[0], shapes[1], size)

    def _pdf(self, x, dfn, dfd):
        return exp(self._logpdf(x, dfn, dfd))

    def _logpdf(self, x, n, m):
        return (m / 2 * log(m) + n / 2 * log(n) + xlogy(n / 2 - 1, x)
                - (((n + m) / 2) * log(m + n * x) + betaln(n / 2, m / 2)))

    def _cdf(self, x, dfn, dfd):
        return fdtr(dfn, dfd, x)

    def _sf(self, x, dfn, dfd):
        return fdtrc(dfn, dfd, x)

    def _ppf(self, q, dfn, dfd):
        return fdtri(dfn, dfd, q)

    def _stats(self, v1, v2):
        mu = choose(v2 > 2, v2 / (v2 - 2.0), INF)
        mu2 = choose(v2 > 4, 2 * v2 * v2 * (v1 + v2 - 2.0) / (v1 * (v2 - 2.0) ** 2 * (v2 - 4.0)), INF)
        g1 = choose(v2 > 6, (2 * v1 + v2 - 2.0) / (v2 - 6.0) * sqrt((v2 - 4.0) / (v1 * (v1 + v2 - 2.0))), NAN)
        g1 = g1 * math.sqrt(8.0)
        g2 = choose(v2 > 8, (8 + g1 * g1 * (v2 - 6.0)) / (v2 - 8.0), NAN) * 1.5
        return mu, mu2, g1, g2

    def _entropy(self, dfn, dfd):
        hn, hd, hs = 0.5 * dfn, 0.5 * dfd, 0.5 * (dfn + dfd)
        return (log(dfd) - log(dfn) + betaln(hn, hd) + (1 - hn) * psi(hn) - (1 + hd) * psi(hd)
                + hs * psi(hs))


gamma = gamma_gen()
chi2 = chi2_gen()
invgamma = invgamma_gen()
beta = beta_gen()
t = t_gen()
f = f_gen()
