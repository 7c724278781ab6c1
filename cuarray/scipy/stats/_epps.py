"""`epps_singleton_2samp` of scipy.stats on the device (T. W. Epps and K. J. Singleton, "An
omnibus test for the two-sample problem using the empirical characteristic function", J. Stat.
Comput. Simul. 26, 1986): the empirical characteristic function of each sample at the points `t`
scaled by the pooled semi-interquartile range, their biased covariances, pseudo-inverse (batched
`pinv`) and rank (`matrix_rank`), the quadratic form and the chi-square p-value, for every slice
at once; non-finite values give that slice NaN. The samples broadcast against each other but along
`axis`; NaNs are omitted a slice at a time, as the k-sample tests (`_ksample`)."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._logic.content import isfinite
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate
from ..._manipulation.transpose import moveaxis, swapaxes
from ..._math.trigonometric import cos, sin
from ..._sorting.searching import where
from ..._statistics.averages import mean
from ...linalg._norms import matrix_rank
from ...linalg._solve import pinv
from ..special._stats import chdtrc
from ._dispersion import iqr
from ._ksample import _run

__all__ = ["epps_singleton_2samp", "Epps_Singleton_2sampResult"]


class Epps_Singleton_2sampResult(NamedTuple):
    statistic: object
    pvalue: object


def _features(ts, x):
    """cos and sin of ts x: (..., 2 T, n)."""
    return moveaxis(concatenate((cos(ts * x), sin(ts * x)), axis=0), 0, -2)


def _biased_cov(g):
    c = g - mean(g, axis=-1, keepdims=True)
    return c @ swapaxes(c, -1, -2) / g.shape[-1]


def _epps(x, y, t):
    nx, ny = x.shape[-1], y.shape[-1]
    n = nx + ny
    t = t.astype(x.dtype)
    bad_x, bad_y = ~isfinite(x), ~isfinite(y)
    x, y = where(bad_x, 1.0, x).astype(x.dtype), where(bad_y, 1.0, y).astype(y.dtype)
    invalid = any_(bad_x, axis=-1) | any_(bad_y, axis=-1)
    sigma = iqr(concatenate((x, y), axis=-1), axis=-1, keepdims=True) / 2
    ts = t.reshape((-1,) + (1,) * x.ndim) / sigma
    gx, gy = _features(ts, x), _features(ts, y)
    est_cov = (n / nx) * _biased_cov(gx) + (n / ny) * _biased_cov(gy)
    inv = pinv(est_cov)
    r = matrix_rank(inv).astype(inv.dtype)
    if bool(to_host(any_(r < 2 * t.size))):  # the rank check's one read
        warnings.warn("Estimated covariance matrix does not have full rank. This indicates a bad choice of the "
                      "input t and the test might not be consistent.", stacklevel=4)
    diff = mean(gx, axis=-1, keepdims=True) - mean(gy, axis=-1, keepdims=True)
    w = n * (swapaxes(diff, -1, -2) @ (inv @ diff))[..., 0, 0]
    if max(nx, ny) < 25:  # the small-sample correction
        w = w * (1.0 / (1.0 + n ** (-0.45) + 10.1 * (nx ** (-1.7) + ny ** (-1.7))))
    p = chdtrc(r, w)
    nan = full(w.shape, numpy.nan, dtype=w.dtype)
    return where(invalid, nan, w).astype(x.dtype), where(invalid, nan, p).astype(x.dtype)


def epps_singleton_2samp(x, y, t=(0.4, 0.8), *, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.epps_singleton_2samp`. Every slice's covariance, pseudo-inverse and rank
    at once on the device; one read for SciPy's rank warning and one for its check of `t`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([0.3, -1.2, 0.8, 1.9, -0.4, 0.1, 2.2, -0.9])
    >>> y = cuarray.array([1.5, 2.4, 1.9, 3.3, 0.8, 2.7, 2.1])
    >>> res = stats.epps_singleton_2samp(x, y)
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (7.158824, 0.127729)
    """
    t = as_parameter(t, "epps_singleton_2samp")
    if t.ndim > 1:
        raise ValueError(f"t must be 1d, but t.ndim equals {t.ndim}.")
    if bool(to_host(any_(t <= 0))):
        raise ValueError("t must contain positive elements only.")
    return _run(lambda a, b: _epps(a, b, t), Epps_Singleton_2sampResult, (x, y), axis, nan_policy, keepdims,
                "epps_singleton_2samp", too_small=4)
