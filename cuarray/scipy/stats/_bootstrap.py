"""scipy.stats.bootstrap on the device: SciPy's algorithm (resamples of each sample, or of the
paired observations' indices; the percentile, basic and BCa intervals from `quantile` of the
bootstrap distribution; BCa's jackknife acceleration) with the resampling indices drawn by
`cuarray.random` on the device, the resamples gathered a batch at a time and the vectorized
statistic called once a batch. One read: whether the interval holds a NaN (SciPy's warning)."""

from __future__ import annotations

import inspect
import warnings
from dataclasses import dataclass
from statistics import NormalDist

import numpy

from ..._creation.basic import full_like
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._core.transfer import to_host
from ..._indexing.inserting import take
from ..._logic.truth import any as any_
from ..._logic.content import isnan
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._math.sums import sum as sum_
from ..._sorting.counting import count_nonzero
from ..._statistics.averages import mean, std
from ...random import default_rng
from ..special._stats import ndtr, ndtri
from ._correlation import ConfidenceInterval
from ._multisample import check_batch, samples_last
from ._quantile import quantile

__all__ = ["bootstrap", "BootstrapResult"]

_BLOCK = 1 << 26  # values of the resamples per device batch when `batch` is None


class DegenerateDataWarning(RuntimeWarning):
    """SciPy's `scipy.stats.DegenerateDataWarning` (a RuntimeWarning): the data cannot give the
    statistic's interval."""


@dataclass
class BootstrapResult:
    """See `scipy.stats._resampling.BootstrapResult`: device arrays."""

    confidence_interval: ConfidenceInterval
    bootstrap_distribution: object
    standard_error: object


def _check(data, statistic, vectorized, paired, axis, alternative, n_resamples, batch, method, bootstrap_result):
    """SciPy's `_bootstrap_iv`, its errors and messages."""
    if vectorized not in {True, False, None}:
        raise ValueError("`vectorized` must be `True`, `False`, or `None`.")
    if vectorized is None:
        vectorized = "axis" in inspect.signature(statistic).parameters
    if not vectorized:  # SciPy's answer for arrays other than NumPy's
        raise TypeError("When using array library cuarray, `func` must be vectorized and accept argument `axis`.")
    if axis != int(axis):
        raise ValueError("`axis` must be an integer.")
    try:
        n_samples = len(data)
    except TypeError:
        raise ValueError("`data` must be a sequence of samples.") from None
    if n_samples == 0:
        raise ValueError("`data` must contain at least one sample.")
    if paired not in {True, False}:
        raise ValueError("`paired` must be `True` or `False`.")
    alternatives = {"two-sided", "less", "greater"}
    if alternative.lower() not in alternatives:
        raise ValueError(f"`alternative` must be one of {alternatives}")
    if n_resamples != int(n_resamples) or int(n_resamples) < 0:
        raise ValueError("`n_resamples` must be a non-negative integer.")
    batch = check_batch(batch)
    methods = {"percentile", "basic", "bca"}
    if method.lower() not in methods:
        raise ValueError(f"`method` must be in {methods}")
    if bootstrap_result is not None and not hasattr(bootstrap_result, "bootstrap_distribution"):
        raise ValueError("`bootstrap_result` must have attribute `bootstrap_distribution'")
    if (not bootstrap_result or not bootstrap_result.bootstrap_distribution.size) and int(n_resamples) == 0:
        raise ValueError("Either `bootstrap_result.bootstrap_distribution.size` or `n_resamples` must be positive.")
    return int(axis), alternative.lower(), int(n_resamples), batch, method.lower()


def bootstrap(data, statistic, *, n_resamples=9999, batch=None, vectorized=None, paired=False, axis=0,
              confidence_level=0.95, alternative="two-sided", method="BCa", bootstrap_result=None, rng=None,
              random_state=None):
    """See `scipy.stats.bootstrap`. `statistic` must be vectorized (SciPy's rule for arrays other
    than NumPy's); `rng` (or the legacy `random_state`) seeds a `cuarray.random` generator, so the
    resamples differ from SciPy's for the same seed. With `batch` None, resamples and BCa's
    jackknife samples are taken in batches of at most 2**26 values.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([2.1, 3.4, 1.9, 5.6, 4.2, 3.3, 2.8, 4.9])
    >>> res = stats.bootstrap((x,), lambda s, axis: s.mean(axis=axis), rng=0)
    >>> res.bootstrap_distribution.shape
    (9999,)
    >>> bool(res.confidence_interval.low < x.mean() < res.confidence_interval.high)
    True
    """
    axis, alternative, n_resamples, batch, method = _check(data, statistic, vectorized, paired, axis, alternative,
                                                           n_resamples, batch, method, bootstrap_result)
    samples, _, _, _ = samples_last(data, axis, "propagate", "bootstrap", floating=False)
    if any(s.ndim == 0 or s.shape[-1] <= 1 for s in samples):
        raise ValueError("each sample in `data` must contain two or more observations along `axis`.")
    if paired:
        n = samples[0].shape[-1]
        if any(s.shape[-1] != n for s in samples[1:]):
            raise ValueError("When `paired is True`, all samples must have the same length along `axis`")
        statistic = _paired(statistic, samples)
        sizes = sum(s.size for s in samples)
        samples = [arange(n)]
    else:
        sizes = max(s.size for s in samples)
    gen = default_rng(rng if rng is not None else random_state)

    theta_b = [] if bootstrap_result is None else [asarray(bootstrap_result.bootstrap_distribution)]
    step = batch or max(1, min(n_resamples, _BLOCK // max(sizes, 1)))
    for k in range(0, n_resamples, step):
        m = min(step, n_resamples - k)
        resampled = [take(s, gen.integers(0, s.shape[-1], (m, s.shape[-1])), axis=-1) for s in samples]
        theta_b.append(asarray(statistic(*resampled, axis=-1)))
    theta_b = concatenate(theta_b, axis=-1)

    alpha = (1 - confidence_level) / 2 if alternative == "two-sided" else (1 - confidence_level)
    if method == "bca":
        interval = _bca_interval(samples, statistic, alpha, theta_b, batch)
    else:
        interval = (asarray(alpha, dtype=theta_b.dtype), asarray(1 - alpha, dtype=theta_b.dtype))
    ci = quantile(theta_b, stack(interval, axis=-1), axis=-1)
    if bool(to_host(any_(isnan(ci)))):  # the one read
        warnings.warn(DegenerateDataWarning("The BCa confidence interval cannot be calculated. This problem is known "
                                            "to occur when the distribution is degenerate or the statistic is np.min."),
                      stacklevel=2)
    low, high = ci[..., 0], ci[..., 1]
    if method == "basic":
        theta_hat = asarray(statistic(*samples, axis=-1))
        low, high = 2 * theta_hat - high, 2 * theta_hat - low
    if alternative == "less":
        low = full_like(low, -numpy.inf)
    elif alternative == "greater":
        high = full_like(high, numpy.inf)
    return BootstrapResult(ConfidenceInterval(low, high), theta_b, std(theta_b, ddof=1, axis=-1))


def _paired(statistic, samples):
    """SciPy's paired statistic: it is given resampled indices of the observations."""
    def wrapped(i, axis=-1):
        return statistic(*(take(s, i, axis=-1) for s in samples), axis=axis)
    return wrapped


def _common(arrays):
    """The arrays broadcast against each other except along their last axis (SciPy's
    `_broadcast_arrays(..., axis=-1)`)."""
    batch = numpy.broadcast_shapes(*(a.shape[:-1] for a in arrays))
    return [broadcast_to(a, batch + a.shape[-1:]) for a in arrays]


def _jackknife(sample, batch):
    """Batches of leave-one-out resamples (..., b, n - 1), the indices made on the device: row r of
    the batch starting at k drops observation k + r."""
    n = sample.shape[-1]
    step = batch or max(1, min(n, _BLOCK // max(sample.size, 1)))
    cols = arange(n - 1)
    for k in range(0, n, step):
        rows = arange(k, min(n, k + step))[:, None]
        yield take(sample, cols + (cols >= rows), axis=-1)


def _bca_interval(data, statistic, alpha, theta_b, batch):
    """SciPy's bias-corrected and accelerated interval (Efron & Tibshirani, 14.3 and 15.4, eq. 15.36)."""
    theta_hat = asarray(statistic(*data, axis=-1))[..., None]
    below = count_nonzero(theta_b < theta_hat, axis=-1) + count_nonzero(theta_b <= theta_hat, axis=-1)
    z0 = ndtri(below.astype(theta_hat.dtype) / (2 * theta_b.shape[-1]))
    nums, dens = [], []
    for j, sample in enumerate(data):
        samples = [s[..., None, :] for s in data]
        parts = []
        for jack in _jackknife(sample, batch):
            samples[j] = jack
            parts.append(asarray(statistic(*_common(samples), axis=-1)))
        theta_i = concatenate(parts, axis=-1)
        n = float(theta_i.shape[-1])
        u = (n - 1) * (mean(theta_i, axis=-1, keepdims=True) - theta_i)
        nums.append(sum_(u ** 3, axis=-1) / n ** 3)
        dens.append(sum_(u ** 2, axis=-1) / n ** 2)
    a_hat = 1 / 6 * sum(nums) / sum(dens) ** (3 / 2)
    z_alpha = NormalDist().inv_cdf(alpha)
    num1, num2 = z0 + z_alpha, z0 - z_alpha
    return ndtr(z0 + num1 / (1 - a_hat * num1)), ndtr(z0 + num2 / (1 - a_hat * num2))

