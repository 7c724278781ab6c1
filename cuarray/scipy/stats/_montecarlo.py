"""scipy.stats.monte_carlo_test on the device: SciPy's algorithm (the samples drawn by the caller's
`rvs` a batch at a time, the vectorized statistic called once a batch along the last axis, the
p-value counts with SciPy's tolerance for ties) on cuarray arrays, with no host read."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass

import numpy

from ..._creation.from_data import asarray
from ..._manipulation.joining import concatenate
from ._multisample import check_batch, resampling_pvalue, samples_last

__all__ = ["monte_carlo_test", "MonteCarloTestResult"]


@dataclass
class MonteCarloTestResult:
    """See `scipy.stats._resampling.MonteCarloTestResult`: device arrays."""

    statistic: object
    pvalue: object
    null_distribution: object


def _check(data, rvs, statistic, vectorized, n_resamples, batch, alternative, axis):
    """SciPy's `_monte_carlo_test_iv`, its errors and messages."""
    if axis != int(axis):
        raise ValueError("`axis` must be an integer.")
    if vectorized not in {True, False, None}:
        raise ValueError("`vectorized` must be `True`, `False`, or `None`.")
    if not isinstance(rvs, Sequence):
        rvs, data = (rvs,), (data,)
    if not all(callable(r) for r in rvs):
        raise TypeError("`rvs` must be callable or sequence of callables.")
    message = "If `rvs` is a sequence, `len(rvs)` must equal `len(data)`."
    try:
        len(data)
    except TypeError as e:
        raise ValueError(message) from e
    if len(rvs) != len(data):
        raise ValueError(message)
    if not callable(statistic):
        raise TypeError("`statistic` must be callable.")
    if vectorized is None:
        try:
            vectorized = "axis" in inspect.signature(statistic).parameters
        except ValueError as e:
            raise ValueError(f"Signature inspection of {statistic=} failed; pass `vectorize` explicitly.") from e
    if not vectorized:
        # SciPy's answer for arrays other than NumPy's: a loop over resamples is not its GPU path
        raise ValueError("`statistic` must be vectorized (i.e. support an `axis` argument) when `data` contains "
                         "cuarray arrays.")
    if n_resamples != int(n_resamples) or int(n_resamples) <= 0:
        raise ValueError("`n_resamples` must be a positive integer.")
    batch = check_batch(batch)
    alternatives = {"two-sided", "greater", "less"}
    if alternative.lower() not in alternatives:
        raise ValueError(f"`alternative` must be in {alternatives}")
    return data, rvs, int(n_resamples), batch, alternative.lower(), int(axis)


def monte_carlo_test(data, rvs, statistic, *, vectorized=None, n_resamples=9999, batch=None, alternative="two-sided",
                     axis=0):
    """See `scipy.stats.monte_carlo_test`. `rvs` must return device arrays (a
    `cuarray.random.Generator`'s methods do) and `statistic` must be vectorized, as SciPy requires
    for arrays other than NumPy's; each batch of `batch` resamples (all `n_resamples` by default:
    memory of n_resamples times the sample size) is one call of each.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([0.3, -0.1, 0.8, 1.1, 0.4, 0.9])
    >>> rng = cuarray.random.default_rng(0)
    >>> res = stats.monte_carlo_test(x, rng.standard_normal, lambda s, axis: s.mean(axis=axis))
    >>> res.null_distribution.shape
    (9999,)
    """
    data, rvs, n_resamples, batch, alternative, axis = _check(data, rvs, statistic, vectorized, n_resamples, batch,
                                                              alternative, axis)
    samples, _, _, _ = samples_last(data, axis, "propagate", "monte_carlo_test", floating=False)
    samples = [s.reshape((1,)) if s.ndim == 0 else s for s in samples]
    dtype = numpy.result_type(*(s.dtype for s in samples))
    dtype = dtype if dtype.kind == "f" else numpy.dtype(numpy.float64)
    observed = asarray(statistic(*samples, axis=-1))
    sizes = [s.shape[-1] for s in samples]
    step = batch or n_resamples
    null = []
    for k in range(0, n_resamples, step):
        m = min(step, n_resamples - k)
        null.append(asarray(statistic(*(r(size=(m, n)) for r, n in zip(rvs, sizes)), axis=-1)))
    null = concatenate(null).reshape((-1,) + (1,) * observed.ndim)
    # SciPy sums the counts in the floating dtype: exact below 2**24 resamples even in float32
    return MonteCarloTestResult(observed, resampling_pvalue(null, observed, alternative, n_resamples, 1, dtype), null)
