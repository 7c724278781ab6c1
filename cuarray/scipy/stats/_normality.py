"""Normality tests of scipy.stats on the device: `skewtest`, `kurtosistest`, `normaltest`
(D'Agostino and Pearson's omnibus test) and `jarque_bera`. The moments are cuarray's reductions
(`skew`, `kurtosis`), the statistics SciPy's formulas (D'Agostino, Belanger and D'Agostino,
"A suggestion for using powerful and informative tests of normality", The American Statistician
44, 1990; Anscombe and Glynn 1983 for the kurtosis), the p-values `ndtr` and `chdtrc`.

SciPy's sample-size rules: a sample of one dimension (or `axis=None`) too small for the test gives
NaN with SciPy's warning; the slices of an N-D array too small give NaN from the formulas, as in
SciPy (skewtest needs 8 values, kurtosistest 5). `nan_policy='omit'` reduces each slice over its
non-NaN values (`_omit`)."""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy

from ..._logic.truth import any as any_
from ..._creation.basic import full
from ..._math.explog import log
from ..._math.misc import abs as abs_
from ..._math.misc import sign, sqrt
from ..._sorting.searching import where
from ..._statistics.averages import mean
from ..special._stats import chdtrc, ndtr
from ._correlation import SignificanceResult, _check_alternative, _tails
from ._descriptive import _axis, _float, kurtosis, skew
from ._multisample import TOO_SMALL
from ._omit import omit_nans

__all__ = ["skewtest", "kurtosistest", "normaltest", "jarque_bera", "SkewtestResult", "KurtosistestResult",
           "NormaltestResult"]



class SkewtestResult(NamedTuple):
    statistic: object
    pvalue: object


class KurtosistestResult(NamedTuple):
    statistic: object
    pvalue: object


class NormaltestResult(NamedTuple):
    statistic: object
    pvalue: object


def _sample(a, fn, nan_policy, axis):
    """(a as a float array, axis, whether it is one sample: 1-D or raveled by axis=None, the shape
    a kept reduced axis has: (1,) * a.ndim for axis=None)."""
    a = _float(a, fn, nan_policy)
    one = axis is None or a.ndim <= 1
    kept = (1,) * a.ndim if axis is None else None
    a, axis = _axis(a, axis)
    return a, axis, one, kept


def _result(cls, stat, p, kept, keepdims):
    if keepdims and kept is not None:
        stat, p = stat.reshape(kept), p.reshape(kept)
    return cls(stat, p.astype(stat.dtype))


def _too_small(a, axis, one, limit, keepdims, result, ndim):
    """SciPy's answer for a one-dimensional sample of `limit` values or fewer: NaN and a warning."""
    if not (one and a.shape[axis] <= limit):
        return None
    warnings.warn(TOO_SMALL, RuntimeWarning, stacklevel=3)
    shape = (1,) * max(ndim, 1) if keepdims else ()
    return result(full(shape, numpy.nan, dtype=a.dtype), full(shape, numpy.nan, dtype=a.dtype))


def _normal_pvalue(z, alternative):
    return _tails(ndtr, lambda s: ndtr(-s), z, alternative)


def _skew_z(a, axis, keepdims):
    n = a.shape[axis]
    b2 = skew(a, axis=axis, keepdims=keepdims)
    if n < 8:  # SciPy sets n to NaN there
        return full(b2.shape, numpy.nan, dtype=b2.dtype)
    # the constants as Python floats: a NumPy float64 would make a float32 sample's result float64
    y = b2 * math.sqrt(((n + 1) * (n + 3)) / (6.0 * (n - 2)))
    beta2 = 3.0 * (n * n + 27 * n - 70) * (n + 1) * (n + 3) / ((n - 2.0) * (n + 5) * (n + 7) * (n + 9))
    w2 = -1 + math.sqrt(2 * (beta2 - 1))
    delta = 1 / math.sqrt(0.5 * math.log(w2))
    alpha = math.sqrt(2.0 / (w2 - 1))
    y = where(y == 0, 1.0, y).astype(b2.dtype)
    r = y / alpha
    return delta * log(r + sqrt(r * r + 1))


def _kurtosis_z(a, axis, keepdims):
    n = a.shape[axis]
    b2 = kurtosis(a, axis=axis, fisher=False, keepdims=keepdims)
    if n < 5:
        return full(b2.shape, numpy.nan, dtype=b2.dtype)
    e = 3.0 * (n - 1) / (n + 1)
    varb2 = 24.0 * n * (n - 2) * (n - 3) / ((n + 1) * (n + 1.0) * (n + 3) * (n + 5))
    x = (b2 - e) / varb2 ** 0.5
    sqrtbeta1 = 6.0 * (n * n - 5 * n + 2) / ((n + 7) * (n + 9)) * ((6.0 * (n + 3) * (n + 5)) / (n * (n - 2) * (n - 3))) ** 0.5
    big_a = 6.0 + 8.0 / sqrtbeta1 * (2.0 / sqrtbeta1 + (1 + 4.0 / sqrtbeta1 ** 2) ** 0.5)
    term1 = 1 - 2 / (9.0 * big_a)
    denom = 1 + x * (2 / (big_a - 4.0)) ** 0.5
    term2 = sign(denom) * where(denom == 0.0, numpy.nan, ((1 - 2.0 / big_a) / abs_(denom)) ** (1 / 3))
    if denom.size and bool(any_(denom == 0).get()):  # SciPy's warning (one read, only to warn)
        warnings.warn("Test statistic not defined in some cases due to division by zero. Return nan in that case...",
                      RuntimeWarning, stacklevel=4)
    return ((term1 - term2) / (2 / (9.0 * big_a)) ** 0.5).astype(b2.dtype)


def _z_test(a, axis, nan_policy, alternative, keepdims, fn, limit, z_of, result):
    """A test whose statistic z is standard normal under the null: its sample rules, z, p."""
    _check_alternative(alternative)
    a, axis, one, kept = _sample(a, fn, nan_policy, axis)
    small = _too_small(a, axis, one, limit, keepdims, result, len(kept or a.shape))
    if small is not None:
        return small
    z = z_of(a, axis, keepdims)
    return _result(result, z, _normal_pvalue(z, alternative), kept, keepdims)


@omit_nans("a", result=SkewtestResult)
def skewtest(a, axis=0, nan_policy="propagate", alternative="two-sided", *, keepdims=False):
    """See `scipy.stats.skewtest`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.])
    >>> res = stats.skewtest(x)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (3.287057, 0.001012)
    """
    return _z_test(a, axis, nan_policy, alternative, keepdims, "skewtest", 7, _skew_z, SkewtestResult)


@omit_nans("a", result=KurtosistestResult)
def kurtosistest(a, axis=0, nan_policy="propagate", alternative="two-sided", *, keepdims=False):
    """See `scipy.stats.kurtosistest`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.])
    >>> res = stats.kurtosistest(x)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (2.955771, 0.003119)
    """
    return _z_test(a, axis, nan_policy, alternative, keepdims, "kurtosistest", 4, _kurtosis_z, KurtosistestResult)


@omit_nans("a", result=NormaltestResult)
def normaltest(a, axis=0, nan_policy="propagate", *, keepdims=False):
    """See `scipy.stats.normaltest`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.])
    >>> res = stats.normaltest(x)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (19.54133, 5.7e-05)
    """
    a, axis, one, kept = _sample(a, "normaltest", nan_policy, axis)
    small = _too_small(a, axis, one, 7, keepdims, NormaltestResult, len(kept or a.shape))
    if small is not None:
        return small
    s, k = _skew_z(a, axis, keepdims), _kurtosis_z(a, axis, keepdims)
    stat = s * s + k * k
    return _result(NormaltestResult, stat, chdtrc(2.0, stat), kept, keepdims)


@omit_nans("x", result=SignificanceResult)
def jarque_bera(x, *, axis=None, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.jarque_bera`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.jarque_bera(cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.]))
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (8.014855, 0.01818)
    """
    x, axis, one, kept = _sample(x, "jarque_bera", nan_policy, axis)
    if x.shape[axis] == 0 and one:
        small = _too_small(x, axis, one, 0, keepdims, SignificanceResult, len(kept or x.shape))
        if small is not None:
            return small
    n = x.shape[axis]
    d = x - mean(x, axis=axis, keepdims=True)
    s = skew(d, axis=axis, keepdims=keepdims)
    k = kurtosis(d, axis=axis, keepdims=keepdims)
    stat = n / 6 * (s * s + k * k / 4)
    return _result(SignificanceResult, stat, chdtrc(2.0, stat), kept, keepdims)
