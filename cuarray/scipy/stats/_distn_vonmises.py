"""`scipy.stats.vonmises`: SciPy's circular distribution on the real line (the pdf periodic, the
cdf rising by 1 per turn: cdf(x + 2 pi) = cdf(x) + 1). The pdf and entropy are SciPy's formulas
on `i0e`/`i1e`; the cdf is SciPy's port of Hill's algorithm (G. W. Hill, "Algorithm 518:
Incomplete Bessel function I0. The von Mises distribution", ACM TOMS 3 (1977) 279-284; SciPy's
`von_mises_cdf` in scipy/stats/_stats.pyx: a backward recurrence of the Fourier series below
kappa = 50, a normal approximation above), run as a fixed number of elementwise passes. SciPy has
no quantile or moment formulas for it (a brentq root of the cdf, `quad` integrals of x**n pdf):
here the quantile is a safeguarded Newton iteration on the same cdf, the variance and kurtosis a
Gauss-Legendre rule (see there)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._logic.ops import logical_and, logical_not, logical_or
from ..._logic.truth import any as any_
from ..._math.arithmetic import remainder
from ..._math.explog import exp, log, log1p
from ..._math.extrema import maximum
from ..._math.misc import absolute, clip, sqrt
from ..._math.rounding import floor, rint
from ..._math.sums import sum as sum_
from ..._math.trigonometric import arcsin, cos, sin
from ..._sorting.searching import where
from ..special._bessel import i0e, i1e
from ..special._convenience import cosm1
from ..special._stats import ndtr, ndtri
from ._distn_base import is_host
from ._distn_fit import rv_continuous
from ._distn_real_shape import _last_axis, _pick

_TWO_PI = 2 * math.pi
_SQRT2_PI = 0.79788456080286535588  # sqrt(2 / pi)
# Hill's constants as SciPy's ("12 decimal digits"): the series' length below kappa = 50
_CK, _A1, _A2, _A3, _A4 = 50.0, 28.0, 0.5, 100.0, 5.0
_P_MAX = int(1 + _A1 + _A2 * _CK - _A3 / (_CK + _A4))  # the longest series (kappa just below 50)
_NEWTON_MAXITER = 60
_EPS = float(numpy.finfo(numpy.float64).eps)
# Gauss-Legendre nodes on [0, 1] for the even moments: the integrand x**n exp(kappa cosm1(x)) is
# entire, and over [0, L] with L = min(pi, 40 / sqrt(kappa)) (beyond 40 standard deviations it is
# below exp(-800) of its peak) 64 nodes give E[x**2] to 2e-14 of itself for every kappa (checked
# against quad at epsrel 2e-14 and the Fourier series sum (-1)**n I_n / I_0 where it converges)
_GL_U, _GL_W = numpy.polynomial.legendre.leggauss(64)
_GL_X, _GL_W = (_GL_U + 1) / 2, _GL_W / 2
_KAPPA_FULL = (40 / math.pi) ** 2  # below it the rule spans [0, pi]


class vonmises_gen(rv_continuous):
    """See `scipy.stats.vonmises` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([-1.0, 0.0, 1.5])
    >>> cuarray.round(stats.vonmises.cdf(x, 2.0), 6)
    array([0.110422, 0.5     , 0.957167])
    >>> cuarray.round(stats.vonmises(2.0).pdf(x), 6)
    array([0.205714, 0.515885, 0.080428])
    >>> round(float(stats.vonmises(2.0).ppf(0.9)), 6)
    1.052982
    """

    name = "vonmises"
    shapes = "kappa"

    def _argcheck(self, kappa):
        return kappa >= 0

    def _rvs(self, shapes, size, rng):
        return rng.vonmises(0.0, shapes[0], size)

    def rvs(self, *args, **kwds):
        """See `scipy.stats.vonmises.rvs`: drawn with `cuarray.random` (its streams are not
        SciPy's) and, as SciPy's, wrapped into [-pi, pi) after `loc` and `scale`."""
        return remainder(rv_continuous.rvs(self, *args, **kwds) + math.pi, _TWO_PI) - math.pi

    def fit(self, data, *args, **kwds):
        """Not implemented: SciPy's `vonmises.fit` wraps the data onto the circle (its circular
        mean and the root of I1/I0 = r), which no cuarray routine does yet."""
        raise NotImplementedError("vonmises.fit is not implemented on the device")

    def _pdf(self, x, kappa):
        return exp(kappa * cosm1(x)) / (_TWO_PI * i0e(kappa))

    def _logpdf(self, x, kappa):
        return kappa * cosm1(x) - math.log(_TWO_PI) - log(i0e(kappa))

    def _hill(self, x, kappa):
        """SciPy's `von_mises_cdf_series` for kappa < 50 (elsewhere its value is discarded): the
        backward recurrence R = 1 / (2n / kappa + R), V = R (sin(n x) / n + V) from n = p - 1 to
        1, sin(n x) and cos(n x) by rotation from sin(p x), as SciPy's, clipped to [0, 1]. A
        device kappa runs the longest series, each element's steps masked to n < p."""
        host = is_host(kappa)
        k = kappa if host else where(kappa < _CK, kappa, 1.0)
        if host:  # kappa = 0: V is 0 (R = 1 / inf), SciPy's loop run without its division by 0
            p = float(int(1 + _A1 + _A2 * k - _A3 / (k + _A4))) if 0 < k < _CK else 1.0
            top = int(p)
        else:
            p = floor(1 + _A1 + _A2 * k - _A3 / (k + _A4))
            top = _P_MAX
        s, c = sin(x), cos(x)
        sn, cn = sin(p * x), cos(p * x)
        r, v = 0.0, 0.0
        for n in range(top - 1, 0, -1):
            sn_next, cn_next = sn * c - cn * s, cn * c + sn * s
            r_next = 1.0 / (2 * n / k + r)
            v_next = r_next * (sn_next / n + v)
            if host:
                sn, cn, r, v = sn_next, cn_next, r_next, v_next
            else:
                act = n < p
                sn, cn = where(act, sn_next, sn), where(act, cn_next, cn)
                r, v = where(act, r_next, 0.0), where(act, v_next, 0.0)
        return clip(0.5 + x / _TWO_PI + v / math.pi, 0.0, 1.0)

    def _cdf(self, x, kappa):
        turns = rint(x / _TWO_PI)
        x = x - turns * _TWO_PI
        if is_host(kappa) and kappa < _CK:
            return self._hill(x, kappa) + turns
        normal = ndtr(_SQRT2_PI / i0e(kappa) * sin(x / 2.0))
        if is_host(kappa):
            return normal + turns
        return where(kappa < _CK, self._hill(x, kappa), normal) + turns

    # the median is 0 (the pdf is even): SciPy's generic split of the logs there, without a root
    def _logcdf(self, x, kappa):
        return where(x < 0, log(self._cdf(x, kappa)), log1p(-self._sf(x, kappa)))

    def _logsf(self, x, kappa):
        return where(x > 0, log(self._sf(x, kappa)), log1p(-self._cdf(x, kappa)))

    def _ppf(self, q, kappa):
        """The root in [-pi, pi] of cdf(x) = q (SciPy: brentq from a bracket it widens by tens).
        Above kappa = 50 the cdf is Phi(b sin(x / 2)), b = sqrt(2 / pi) / i0e(kappa): its inverse
        2 arcsin(ndtri(q) / b) (+-pi where |ndtri(q)| > b), exactly. Below, Newton's method
        from that start, kept inside the bracket [-pi, pi] narrowed by the sign of cdf - q
        (a bisection where a step would leave it). The cdf's value carries an absolute rounding
        of a few ulp of 1 (0.5 + x / 2 pi + V / pi), which moves the root by eps / pdf: the
        iteration stops at a step within 2 ulp of x or within 4 eps of the cdf (applied), or
        on the bracket's collapse; one read per step, the convergence flag."""
        z = ndtri(q) * i0e(kappa) / _SQRT2_PI
        start = where(absolute(z) <= 1, 2.0 * arcsin(clip(z, -1.0, 1.0)), where(z > 0, math.pi, -math.pi))
        if is_host(kappa) and not 0 <= kappa < _CK:  # the closed form, or an invalid kappa (discarded)
            return start
        x = start  # +-pi at q = 1 and 0 (`_isf` passes 1 - q, which rounds to 1 for q < 1e-17)
        lo, hi = -math.pi + 0 * x, math.pi + 0 * x
        active = logical_and(q > 0, q < 1)
        if not is_host(kappa):  # invalid kappa (< 0, NaN) left out: its result is discarded
            active = logical_and(active, logical_and(kappa >= 0, kappa < _CK))
        for _ in range(_NEWTON_MAXITER):
            d = self._cdf(x, kappa) - q
            lo, hi = where(d < 0, x, lo), where(d > 0, x, hi)
            step = d / self._pdf(x, kappa)
            new = x - step
            new = where(logical_and(new >= lo, new <= hi), new, (lo + hi) / 2)
            done = logical_or(logical_or(absolute(new - x) <= 4.5e-16 * absolute(x), absolute(d) <= 4 * _EPS),
                              hi - lo <= 4.5e-16 * maximum(absolute(lo), absolute(hi)))
            x = where(active, new, x)
            active = logical_and(active, logical_not(done))
            if not bool(to_host(any_(active))):
                break
        return _pick(kappa < _CK, x, start)

    def _stats(self, kappa):
        m2, m4 = self._even_moments(kappa)
        return 0.0, m2, 0.0, m4 / (m2 * m2) - 3.0

    def _even_moments(self, kappa):
        """(E[X**2], E[X**4]) over [-pi, pi] (SciPy integrates x**n pdf with quad; its values
        are off by 1e-7 at kappa = 10 and 2e-3 at 1e8): ratios of Gauss-Legendre sums of
        x**n exp(kappa cosm1(x)) over [0, L], the normalization by the same rule."""
        u = as_parameter(_GL_X, "scipy.stats.vonmises.stats")
        w = as_parameter(_GL_W, "scipy.stats.vonmises.stats")
        k = _last_axis(kappa)
        if is_host(kappa):
            half = math.pi if kappa <= _KAPPA_FULL else 40 / math.sqrt(kappa)
        else:
            half = where(k <= _KAPPA_FULL, math.pi, 40 / sqrt(where(k > 0, k, 1.0)))
        x = u * half
        g = w * exp(k * cosm1(x))
        x2 = x * x
        m0 = sum_(g, axis=-1)
        return sum_(g * x2, axis=-1) / m0, sum_(g * x2 * x2, axis=-1) / m0

    def _entropy(self, kappa):
        return -kappa * i1e(kappa) / i0e(kappa) + log(_TWO_PI * i0e(kappa)) + kappa


vonmises = vonmises_gen()
