"""The continuous distributions of `scipy.stats` whose shape parameter is any finite real:
genextreme. Each formula is SciPy's (scipy/stats/_continuous_distns.py), in the same
log1p/expm1 forms next to c = 0 and in the tails, on cuarray's elementwise routines."""

from __future__ import annotations

import math

import numpy

from ..._logic.content import isfinite
from ..._math.explog import exp, expm1, log, log1p
from ..._math.extrema import maximum, minimum
from ..._math.misc import absolute, sign
from ..._sorting.searching import where
from ..special._gamma import gamma as gamma_fn
from ..special._gamma import gammaln
from ._distn_base import INF, NAN, and_, is_host, or_
from ._distn_fit import rv_continuous, summary

_EULER = 0.577215664901532860606512090082402431042
_ZETA3 = 1.202056903159594285399738161511449990765
_XMIN = float(numpy.finfo(numpy.float64).tiny)


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

    def _stats(self, c):
        g1, g2, g3, g4 = (gamma_fn(n * c + 1) for n in (1, 2, 3, 4))
        ac = absolute(c)
        # Var is g(2) - g(1)**2, which cancels next to c = 0: there its limit (pi c)**2 / 6
        g2mg12 = _pick(ac < 1e-7, (c * math.pi) ** 2.0 / 6.0, g2 - g1 ** 2.0)
        gam2k = _pick(ac >= 1e-7, expm1(gammaln(2.0 * c + 1.0) - 2 * gammaln(c + 1.0)) / c ** 2.0,
                      math.pi ** 2.0 / 6.0)
        eps = 1e-14
        gamk = _pick(ac >= eps, expm1(gammaln(c + 1)) / c, -_EULER)
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


genextreme = genextreme_gen()
