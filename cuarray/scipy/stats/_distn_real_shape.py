"""The continuous distributions of `scipy.stats` whose shape parameter is any finite real:
genextreme and skewnorm. Each formula is SciPy's (scipy/stats/_continuous_distns.py), in the
same log1p/expm1 forms next to c = 0 and in the tails, on cuarray's elementwise routines; where
SciPy integrates numerically (skewnorm's left tail, its entropy) or calls Boost's root finder
(skewnorm's quantiles) the device runs a fixed quadrature or a Newton iteration (see there)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._logic.content import isfinite, isnan
from ..._logic.ops import logical_and, logical_not, logical_or
from ..._logic.truth import any as any_
from ..._manipulation.dims import expand_dims
from ..._math.explog import exp, expm1, log, log1p
from ..._math.extrema import maximum, minimum
from ..._math.misc import absolute, clip, sign, sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..special._error import erfcx
from ..special._gamma import gamma as gamma_fn
from ..special._gamma import gammaln
from ..special._stats import log_ndtr, ndtr, ndtri, owens_t
from ._distn_base import INF, NAN, and_, is_host, or_
from ._distn_fit import rv_continuous, summary

_EULER = 0.577215664901532860606512090082402431042
_ZETA3 = 1.202056903159594285399738161511449990765
_XMIN = float(numpy.finfo(numpy.float64).tiny)
# zeta(2), ..., zeta(27): log Gamma(1 + c) = -euler c + sum_k>=2 (-1)**k zeta(k) c**k / k (A&S 6.1.33)
_ZETA = (1.6449340668482264, 1.2020569031595942, 1.0823232337111381, 1.03692775514337,
         1.0173430619844492, 1.008349277381923, 1.0040773561979444, 1.0020083928260821,
         1.000994575127818, 1.0004941886041194, 1.000246086553308, 1.0001227133475785,
         1.0000612481350588, 1.000030588236307, 1.0000152822594086, 1.0000076371976379,
         1.000003817293265, 1.0000019082127165, 1.0000009539620338, 1.0000004769329869,
         1.0000002384505027, 1.000000119219926, 1.000000059608189, 1.0000000298035034,
         1.0000000149015549, 1.0000000074507118)
# below this |c| genextreme's mean and variance come from those series (see `_small_c_moments`):
# SciPy's gammaln(1 + 2c) - 2 gammaln(1 + c) keeps the rounding of 1 + 2c and gammaln's own
# next to 1, some eps / c**2 of the variance (1.3e-12 of it at c = 0.011, 3e-14 at 0.1)
_SERIES_C = 0.1


def _pick(cond, a, b):
    """`where(cond, a, b)`; a host condition picks one side without a device pass."""
    if is_host(cond):
        return a if cond else b
    return where(cond, a, b)


class genextreme_gen(rv_continuous):
    """See `scipy.stats.genextreme` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 1.5])
    >>> cuarray.round(stats.genextreme.cdf(x, 0.5), 6)
    array([0.105399, 0.367879, 0.939413])
    >>> cuarray.round(stats.genextreme(-0.3).sf(x), 6)
    array([0.962504, 0.632121, 0.251591])
    >>> round(float(stats.genextreme(0.5).mean()), 6)
    0.227546
    """

    name = "genextreme"
    shapes = "c"

    def _argcheck(self, c):
        return math.isfinite(c) if is_host(c) else isfinite(c)

    def _get_support(self, c):
        if is_host(c):
            b = 1.0 / max(c, _XMIN) if c > 0 else INF
            a = 1.0 / min(c, -_XMIN) if c < 0 else -INF
            return numpy.float64(a), numpy.float64(b)
        return where(c < 0, 1.0 / minimum(c, -_XMIN), -INF), where(c > 0, 1.0 / maximum(c, _XMIN), INF)

    def _fitstart(self, x, args=None):
        # SciPy's: a shape of the data's skewness sign, better than the default 1
        skew = summary(x, with_skew=True)[4]
        return rv_continuous._fitstart(self, x, args=(0.5 if skew < 0 else -0.5,))

    def _loglogcdf(self, x, c):
        """log(-log(cdf)): log1p(-c x) / c, its c = 0 limit -x."""
        if is_host(c):
            return -x if c == 0 else log1p(-c * x) / c
        return where(c != 0, log1p(-c * x) / c, -x)

    def _pdf(self, x, c):
        return exp(self._logpdf(x, c))

    def _logpdf(self, x, c):
        if is_host(c):
            cx = c * x if c != 0 else 0.0
        else:  # 0 * inf is not c x at c = 0 (SciPy fills 0 there)
            cx = where(and_(x == x, c != 0), c * x, 0.0)
        logex2 = log1p(-cx)
        logpex2 = self._loglogcdf(x, c)
        pex2 = exp(logpex2)
        logpex2 = _pick(and_(c == 0, x == -INF), 0.0, logpex2)
        logpdf = _pick(or_(cx == 1, cx == -INF), -INF, -pex2 + logpex2 - logex2)
        return _pick(and_(c == 1, x == 1), 0.0, logpdf)

    def _logcdf(self, x, c):
        return -exp(self._loglogcdf(x, c))

    def _cdf(self, x, c):
        return exp(self._logcdf(x, c))

    def _sf(self, x, c):
        return -expm1(self._logcdf(x, c))

    def _from_gumbel(self, x, c):
        """A Gumbel quantile x mapped to genextreme's: -expm1(-c x) / c, x at c = 0."""
        if is_host(c):
            return x if c == 0 else -expm1(-c * x) / c
        return where(c != 0, -expm1(-c * x) / c, x)

    def _ppf(self, q, c):
        return self._from_gumbel(-log(-log(q)), c)

    def _isf(self, q, c):
        return self._from_gumbel(-log(-log1p(-q)), c)

    @staticmethod
    def _small_c_moments(c):
        """((Gamma(1 + c) - 1) / c, (Gamma(1 + 2c) / Gamma(1 + c)**2 - 1) / c**2) for |c| < 0.1
        from log Gamma's series: SciPy's expm1(gammaln(1 + c)) / c keeps the rounding of 1 + c,
        eps / c of the value (at c = 1e-9 its mean is 0.57721571267, the mean 0.57721566391), and
        its variance takes the c = 0 limit below 1e-7 (1.5e-9 of it off at c = 1e-9). With
        L = log Gamma(1 + c) = c U and S = log Gamma(1 + 2c) - 2 L = c**2 T, U and T are
        polynomials in c (the next terms, (2c)**26, below 1e-18 of them), then expm1(L) / c and
        expm1(S) / c**2 (U and T themselves below |c| = 1e-150)."""
        u = 0.0
        t = 0.0
        for k in range(len(_ZETA) + 1, 1, -1):
            u = u * c + (-1) ** k * _ZETA[k - 2] / k
            t = t * c + (-1) ** k * _ZETA[k - 2] * (2 ** k - 2) / k
        u = u * c - _EULER
        tiny = (abs(c) if is_host(c) else absolute(c)) < 1e-150  # c**2 subnormal: U and T are the values
        c = _pick(tiny, 1.0, c)
        return _pick(tiny, u, expm1(c * u) / c), _pick(tiny, t, expm1(c * c * t) / (c * c))

    def _stats(self, c):
        g1, g2, g3, g4 = (gamma_fn(n * c + 1) for n in (1, 2, 3, 4))
        ac = absolute(c)
        # Var is g(2) - g(1)**2, which cancels next to c = 0: there its limit (pi c)**2 / 6
        g2mg12 = _pick(ac < 1e-7, (c * math.pi) ** 2.0 / 6.0, g2 - g1 ** 2.0)
        small = ac < _SERIES_C
        series_k, series_2k = self._small_c_moments(_pick(small, c, 0.0))
        gam2k = _pick(small, series_2k, expm1(gammaln(2.0 * c + 1.0) - 2 * gammaln(c + 1.0)) / c ** 2.0)
        gamk = _pick(small, series_k, expm1(gammaln(c + 1)) / c)
        eps = 1e-14
        m = _pick(c < -1.0, NAN, -gamk)
        v = _pick(c < -0.5, NAN, g1 ** 2.0 * gam2k)
        sk = _pick(c >= -1.0 / 3, sign(c) * (-g3 + (g2 + 2 * g2mg12) * g1) / g2mg12 ** 1.5, NAN)
        sk = _pick(ac > eps ** 0.29, sk, 12 * math.sqrt(6) * _ZETA3 / math.pi ** 3)
        ku = _pick(c >= -1.0 / 4, (g4 + (-4 * g3 + 3 * (g2 + g2mg12) * g1) * g1) / g2mg12 ** 2 - 3, NAN)
        ku = _pick(ac > eps ** 0.23, ku, 12.0 / 5.0)
        return m, v, sk, ku

    def _munp(self, n, c):
        vals = 0.0
        for k in range(n + 1):
            vals = vals + math.comb(n, k) * (-1) ** k * gamma_fn(c * k + 1)
        return _pick(c * n > -1, vals / c ** n, INF)

    def _entropy(self, c):
        return _EULER * (1 - c) + 1


_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
# Gauss-Laguerre nodes for skewnorm's left tail: the integrand there is e^-u times a function that
# varies on a scale of sqrt((1 + a**2) x**2) >= 4 in u (see `_log_left_tail`): 30 nodes give it to
# a few ulp (checked against quad at epsrel 1e-13 for a in [0.01, 30], x in [-20, -2])
_GL_U, _GL_W = numpy.polynomial.laguerre.laggauss(30)
# trapezoid nodes for skewnorm's entropy: its integrand is analytic in a strip about the real line
# and below 1e-300 beyond |t| = 40, where the trapezoid rule converges geometrically in 1/h
_TRAP_H = 0.125
_TRAP_T = numpy.arange(-320, 321) * _TRAP_H
# skewnorm's odd moments E[Y**n] = sqrt(2/pi) delta P_n(delta**2), delta = a / sqrt(1 + a**2):
# the coefficients of P_n (SciPy's table, from the moment generating function)
_SKEWNORM_ODD = {
    1: (1,), 3: (3, -1), 5: (15, -10, 3), 7: (105, -105, 63, -15), 9: (945, -1260, 1134, -540, 105),
    11: (10395, -17325, 20790, -14850, 5775, -945),
    13: (135135, -270270, 405405, -386100, 225225, -73710, 10395),
    15: (2027025, -4729725, 8513505, -10135125, 7882875, -3869775, 1091475, -135135),
    17: (34459425, -91891800, 192972780, -275675400, 268017750, -175429800, 74220300, -18378360, 2027025),
    19: (654729075, -1964187225, 4714049340, -7856748900, 9166207050, -7499623950, 4230557100, -1571349780,
         346621275, -34459425),
}
_NEWTON_MAXITER = 100


def _last_axis(v):
    """v with a trailing axis of length 1 (a host scalar stays one)."""
    return v if is_host(v) else expand_dims(v, -1)


def _nodes(values, fn):
    return as_parameter(values, "scipy.stats.skewnorm." + fn)


class skewnorm_gen(rv_continuous):
    """See `scipy.stats.skewnorm` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 1.5])
    >>> cuarray.round(stats.skewnorm.cdf(x, 2.0), 6)
    array([0.001719, 0.147584, 0.866426])
    >>> cuarray.round(stats.skewnorm(-1.5).pdf(x), 6)
    array([0.451611, 0.398942, 0.003167])
    >>> round(float(stats.skewnorm(2.0).mean()), 6)
    0.71365
    """

    name = "skewnorm"
    shapes = "a"

    def _argcheck(self, a):
        return math.isfinite(a) if is_host(a) else isfinite(a)

    def _rvs(self, shapes, size, rng):
        # Azzalini and Capitanio (1999), as SciPy's: |u0| decides the sign of a correlated normal
        a = shapes[0]
        u0 = rng.standard_normal(size)
        v = rng.standard_normal(size)
        d = a / sqrt(1 + a * a) if not is_host(a) else a / math.sqrt(1 + a * a)
        u1 = d * u0 + v * (sqrt(1 - d * d) if not is_host(d) else math.sqrt(1 - d * d))
        return where(u0 >= 0, u1, -u1)

    def _pdf(self, x, a):
        phi = exp(-x * x / 2.0) / math.sqrt(2 * math.pi)
        return _pick(a == 0, phi, 2.0 * phi * ndtr(a * x))  # a x is NaN at x = inf, a = 0

    def _logpdf(self, x, a):
        lphi = -x * x / 2.0 - _LOG_SQRT_2PI
        return _pick(a == 0, lphi, math.log(2) + lphi + log_ndtr(a * x))

    def _log_left_tail(self, x, a):
        """log F(x; a) for x < 0 <= a, where Boost's Phi(x) - 2 T(x, a) cancels: SciPy integrates
        the pdf there (quad). With t = x - u / k, k = (1 + a**2) |x|, and
        Phi(a t) = erfcx(-a t / sqrt 2) exp(-a**2 t**2 / 2) / 2, F is
        exp(-(1 + a**2) x**2 / 2) / (sqrt(2 pi) k) * int_0^inf e^-u g(u) du with
        g(u) = exp(-(1 + a**2) u**2 / (2 k**2)) erfcx(a (u / k - x) / sqrt 2): Gauss-Laguerre."""
        s = 1.0 + a * a
        k = -s * x
        u, w = _nodes(_GL_U, "cdf"), _nodes(_GL_W, "cdf")
        xe, ke, ae, se = _last_axis(x), _last_axis(k), _last_axis(a), _last_axis(s)
        g = exp(-se * u * u / (2 * ke * ke)) * erfcx(ae * (u / ke - xe) / math.sqrt(2))
        return -s * x * x / 2 - log(math.sqrt(2 * math.pi) * k) + log(sum_(w * g, axis=-1))

    def _cdf_parts(self, x, a):
        """(Boost's cdf Phi(x) - 2 T(x, a); where log F replaces it; log F there). SciPy integrates
        where the difference cancels (below 1e-6 for a > 0); below 1e-300 (a <= 0) ndtr flushes
        what Boost's erfc keeps as subnormals: there F = 2 Phi(x) - F(x; -a) (Phi(a t) is
        1 - Phi(-a t)), whose second term is the left tail's integral, in logs."""
        boost = ndtr(x) - 2.0 * owens_t(x, a)
        left = x < 0
        use_log = and_(left, or_(and_(a > 0, boost < 1e-6), boost < 1e-300))
        log_tail = self._log_left_tail(x, absolute(a) if not is_host(a) else abs(a))
        log_2phi = math.log(2) + log_ndtr(x)
        share = exp(log_tail - log_2phi)  # F(x; -a) / (2 Phi(x)) in [0, 1/2]; NaN where both are 0
        log_f = _pick(a > 0, log_tail, log_2phi + log1p(-where(isnan(share), 0.0, share)))
        return boost, use_log, log_f

    def _cdf(self, x, a):
        boost, use_log, log_f = self._cdf_parts(x, a)
        return clip(_pick(use_log, exp(log_f), boost), 0.0, 1.0)

    def _sf(self, x, a):
        return self._cdf(-x, -a)  # Boost's (and SciPy's) sf

    def _lower_quantile(self, p, a):
        """x with F(x; a) = p, for p <= 1/2 (where F is well conditioned): Newton's method on
        log F(x) - log p. The skew normal is log-concave (Azzalini 1985), so log F is concave:
        a Newton step from either side lands left of the root, and from the left the iterates
        rise monotonically to it; the start ndtri(p) is left of the root for a >= 0 (F <= Phi
        there) and right of it for a < 0, one step away. SciPy's (Boost's) Newton on F - p near
        q = 1 is where F - p cancels; here ppf(q) for q > 1/2 is -x(1 - q, -a), with 1 - q exact.
        One read per iteration, the convergence test (|step| within 2 ulp of |x| + F / f: F / f
        is what the root moves per unit of log F, its scale next to x = 0)."""
        x = ndtri(p)
        logp = log(p)
        prev = 0.0
        active = True
        for _ in range(_NEWTON_MAXITER):
            boost, use_log, log_f = self._cdf_parts(x, a)
            logf = _pick(use_log, log_f, log(boost))
            ratio = exp(logf - self._logpdf(x, a))  # F / f: the root moves by ulp(F) / f per ulp of F
            step = (logf - logp) * ratio
            x = _pick(active, x - step, x)
            size = absolute(step) / (absolute(x) + ratio)
            # converged (and frozen): a step within 2 ulp, or a reversal (impossible in exact
            # arithmetic once left of the root) at the rounding level of Boost's cancelling Phi - 2T
            done = logical_or(logical_or(size <= 4.5e-16, logical_and(step * prev < 0, size <= 1e-12)),
                              isnan(step))
            active = and_(active, logical_not(done))
            prev = step
            if not bool(to_host(any_(active))):
                break
        return x

    def _quantile(self, q, a, upper):
        """ppf (isf where `upper`): in the lower half F(x; a) = p, in the upper half
        sf(x; a) = F(-x; -a) = p, so x = -x(p, -a); p outside (0, 1) (the base discards those
        results) runs from 1/2, so that every element converges."""
        low = q >= 0.5 if upper else q <= 0.5
        p = _pick(low, 1.0 - q, q) if upper else _pick(low, q, 1.0 - q)
        p = _pick(and_(p > 0, p < 1), p, 0.5)
        x = self._lower_quantile(p, _pick(low, a, -a))
        return _pick(low, x, -x)

    def _ppf(self, q, a):
        return self._quantile(q, a, False)

    def _isf(self, q, a):
        return self._quantile(q, a, True)

    def _stats(self, a):
        const = _SQRT_2_OVER_PI * a / sqrt(1 + a * a)
        return (const, 1 - const * const, ((4 - math.pi) / 2) * (const / sqrt(1 - const * const)) ** 3,
                (2 * (math.pi - 3)) * (const ** 4 / (1 - const * const) ** 2))

    def _munp(self, order, a):
        if order % 2 == 0:  # (order - 1)!!
            return math.gamma((order + 1) / 2) * 2 ** (order / 2) / math.sqrt(math.pi)
        if order > 19:
            raise NotImplementedError("skewnorm noncentral moments not implemented for odd orders greater than 19.")
        delta = a / sqrt(1 + a * a)
        d2 = delta * delta
        poly = 0.0
        for coef in reversed(_SKEWNORM_ODD[order]):
            poly = poly * d2 + coef
        return delta * poly * _SQRT_2_OVER_PI

    def _entropy(self, a):
        """SciPy's is the integral -int f log f (quad); here -log 2 + log(2 pi) / 2 + 1/2 - J with
        J = 2 E_phi[Phi(a X) log Phi(a X)] (E[X**2] = 1), by the trapezoid rule: in x for |a| <= 1,
        in y = a x (weight phi(y / a) / |a|) for |a| > 1, so that the integrand's scale is >= 1."""
        t = _nodes(_TRAP_T, "entropy")
        ae = _last_axis(a)
        aa = absolute(ae)
        small = aa <= 1
        y = _pick(small, ae * t, t)
        weight = _pick(small, exp(-t * t / 2), exp(-(t / ae) ** 2 / 2) / aa) / math.sqrt(2 * math.pi)
        j = 2 * _TRAP_H * sum_(weight * ndtr(y) * log_ndtr(y), axis=-1)
        return -math.log(2) + _LOG_SQRT_2PI + 0.5 - j


genextreme = genextreme_gen()
skewnorm = skewnorm_gen()
