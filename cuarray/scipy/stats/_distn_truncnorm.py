"""`scipy.stats.truncnorm`: the standard normal truncated to [a, b], in SciPy's log-space forms
(scipy/stats/_continuous_distns.py, truncnorm_gen): the mass of [a, b] from the left tail's
log_ndtr (both ends mirrored when a > 0, log1p of the two tails when a < 0 < b), the cdf and sf
as differences of such masses in logs (log1p(-exp(the other)) once one is above -0.1), the
quantiles through ndtri_exp of a log-space sum (the isf too, as the mirrored ppf), the moments
by SciPy's recurrences. Where SciPy
takes log|e^p - e^q| as the real part of a complex logsumexp (whose log1p of a complex
-e^(q - p) loses eps / (p - q) of it next to p = q), here it is p + log1p(-exp(q - p)) or
log(-expm1(q - p)), whichever keeps the digits; ndtri_exp, which cuarray.scipy.special lacks,
is SciPy's branches with Newton's method on log_ndtr below y = -2 (see there)."""

from __future__ import annotations

import math

from ..._math.explog import exp, expm1, log, log1p
from ..._math.extrema import maximum, minimum
from ..._math.misc import sqrt
from ..._sorting.searching import where
from ..special._error import erfcx
from ..special._stats import log_ndtr, ndtr, ndtri
from ._distn_base import is_host
from ._distn_fit import rv_continuous
from ._distn_real_shape import _pick

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_LN2 = math.log(2)
_NDTRI_EXP_SPLIT = math.log1p(-math.exp(-2))  # SciPy's: ndtri(exp(y)) below, -ndtri(-expm1(y)) above
# Newton's steps of ndtri_exp below y = -2: log_ndtr is concave, so from the start (within 0.25
# of the root at y = -2, closer further out) the iterates rise monotonically to the root after
# one step, quadratically: 8 steps reach the root to rounding from any y < -2
_NDTRI_EXP_STEPS = 8


def _log1mexp(d):
    """log(1 - exp(d)) for d <= 0, without cancellation at either end (Maechler's split)."""
    return where(d > -_LN2, log(-expm1(d)), log1p(-exp(d)))


def _log_diff(p, q):
    """log|e**p - e**q| (SciPy's real part of logsumexp([p, q + pi i])); -inf where both are."""
    hi, lo = maximum(p, q), minimum(p, q)
    return where(hi == -math.inf, -math.inf, hi + _log1mexp(lo - hi))


def _log_sum(p, q):
    """log(e**p + e**q), as SciPy's logsumexp: the larger plus log1p of the other's ratio."""
    hi, lo = maximum(p, q), minimum(p, q)
    return where(hi == -math.inf, -math.inf, hi + log1p(exp(lo - hi)))


def _log_gauss_mass(a, b):
    """log(Phi(b) - Phi(a)), SciPy's three cases: both ends in the left tail (b <= 0) by
    log_ndtr's difference, both in the right (a > 0) mirrored, else log1p of the two tails."""
    def left(a, b):
        return _log_diff(log_ndtr(b), log_ndtr(a))

    def central(a, b):
        return log1p(-ndtr(a) - ndtr(-b))

    if is_host(a) and is_host(b):
        return left(a, b) if b <= 0 else left(-b, -a) if a > 0 else central(a, b)
    return where(b <= 0, left(a, b), where(a > 0, left(-b, -a), central(a, b)))


def ndtri_exp(y):
    """x with log_ndtr(x) = y: SciPy's branches ndtri(exp(y)) and -ndtri(-expm1(y)) from y = -2
    on; below, Newton's method on log_ndtr(x) - y (its slope phi / Phi)
    from the asymptotic root -s, s**2 = -2y - 2 log(s0 sqrt(2 pi)), s0 = sqrt(-2y), a fixed
    number of steps (no read); -inf below -DBL_MAX, as SciPy's."""
    yy = minimum(y, -2.0)
    s0 = sqrt(-2.0 * yy)
    x = -sqrt(maximum(-2.0 * yy - 2.0 * log(s0 * math.sqrt(2 * math.pi)), 1.0))
    for _ in range(_NDTRI_EXP_STEPS):
        # the slope phi / Phi as sqrt(2 / pi) / erfcx(-x / sqrt 2): log phi - log Phi cancels
        # (both near -x**2 / 2) far out
        x = x - (log_ndtr(x) - yy) * erfcx(-x / math.sqrt(2)) / math.sqrt(2 / math.pi)
    small = where(y < -1.7976931348623157e308, -math.inf, x)
    return where(y < -2.0, small, where(y > _NDTRI_EXP_SPLIT, -ndtri(-expm1(y)), ndtri(exp(y))))


class truncnorm_gen(rv_continuous):
    """See `scipy.stats.truncnorm` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-0.5, 0.0, 1.5])
    >>> cuarray.round(stats.truncnorm.cdf(x, -1.0, 2.0), 6)
    array([0.183097, 0.416989, 0.94618 ])
    >>> cuarray.round(stats.truncnorm(8.0, 9.0).ppf(cuarray.asarray([0.1, 0.5])), 6)
    array([8.012961, 8.084889])
    >>> round(float(stats.truncnorm(-1.0, 2.0).mean()), 6)
    0.229637
    """

    name = "truncnorm"
    shapes = "a, b"

    def _argcheck(self, a, b):
        return a < b

    def _get_support(self, a, b):
        return a, b

    def fit(self, data, *args, **kwds):
        """Not implemented: SciPy's start is the data's extremes as the shapes."""
        raise NotImplementedError("truncnorm.fit is not implemented on the device")

    def _logpdf(self, x, a, b):
        return -x * x / 2.0 - _LOG_SQRT_2PI - _log_gauss_mass(a, b)

    def _pdf(self, x, a, b):
        return exp(self._logpdf(x, a, b))

    def _logs(self, x, a, b):
        """(log cdf, log sf): each a difference of masses, log1p(-exp(the other)) above -0.1."""
        mass = _log_gauss_mass(a, b)
        lc = _log_gauss_mass(a, x) - mass
        ls = _log_gauss_mass(x, b) - mass
        return where(lc > -0.1, log1p(-exp(ls)), lc), where(ls > -0.1, log1p(-exp(lc)), ls)

    def _logcdf(self, x, a, b):
        return self._logs(x, a, b)[0]

    def _logsf(self, x, a, b):
        return self._logs(x, a, b)[1]

    def _cdf(self, x, a, b):
        return exp(self._logcdf(x, a, b))

    def _sf(self, x, a, b):
        return exp(self._logsf(x, a, b))

    def _ppf(self, q, a, b):
        """Phi(x) = Phi(a) + q m and Phi(-x) = Phi(-b) + (1 - q) m (m the mass), both sums of
        positive terms in logs; ndtri_exp inverts the smaller of the two (x below or above 0).
        SciPy picks by the sign of a, and a Phi(x) next to 1 keeps only an absolute eps of its
        log: ppf(1 - 2**-53, -1.5, inf) is 8.2095 there, the quantile 8.2178."""
        mass = _log_gauss_mass(a, b)
        lower = _log_sum(log_ndtr(a), log(q) + mass)
        upper = _log_sum(log_ndtr(-b), log1p(-q) + mass)
        left = lower <= upper
        x = ndtri_exp(where(left, lower, upper))
        return where(left, x, -x)

    def _isf(self, q, a, b):
        """The mirror image -ppf(q; -b, -a). SciPy's isf subtracts (1 - q) mass from Phi(-a)
        where b >= 0: for q below eps that difference is all rounding (SciPy's isf(1e-300, 2,
        inf) is 8.64 and isf(1e-300, -inf, inf) 8.20; the quantiles are 37.15 and 37.05)."""
        return -self._ppf(q, -b, -a)

    def _stats(self, a, b):
        """SciPy's: the pdf at the ends (0 at an infinite one) and the moment recurrences, each
        product p * end**k dropped where p is 0 (an infinite end)."""
        p_a, p_b = self._pdf(a, a, b), self._pdf(b, a, b)
        p_a = _pick(a == -math.inf, 0.0, p_a)
        p_b = _pick(b == math.inf, 0.0, p_b)

        def terms(k, shift=0.0):
            return (_pick(p_a != 0, p_a * (a - shift) ** k, 0.0) - _pick(p_b != 0, p_b * (b - shift) ** k, 0.0))

        m1 = p_a - p_b
        m2 = 1 + terms(1)
        mu2 = 1 + terms(1, m1)
        m3 = 2 * m1 + terms(2)
        m4 = 3 * m2 + terms(3)
        mu3 = m3 + m1 * (-3 * m2 + 2 * m1 ** 2)
        mu4 = m4 + m1 * (-4 * m3 + 3 * m1 * (2 * m2 - m1 ** 2))
        return m1, mu2, mu3 / mu2 ** 1.5, mu4 / mu2 ** 2 - 3

    def _entropy(self, a, b):
        big_a, big_b = ndtr(a), ndtr(b)
        z = big_b - big_a
        c = log(math.sqrt(2 * math.pi * math.e) * z)
        d = (a * exp(-a * a / 2.0 - _LOG_SQRT_2PI) - b * exp(-b * b / 2.0 - _LOG_SQRT_2PI)) / (2 * z)
        return c + d


truncnorm = truncnorm_gen()
