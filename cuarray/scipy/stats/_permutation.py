"""scipy.stats.permutation_test on the device: SciPy's algorithm (its three permutation types, the
exact test over every permutation where they number at most `n_resamples`, else random ones; the
p-value counts with SciPy's tie tolerance and its +1 adjustment for random permutations) with the
permuted samples gathered on the device a batch at a time and the vectorized statistic called once
a batch. Random permutations are argsorts of `cuarray.random` keys (other values than SciPy's for
the same seed); the exact ones are enumerated on the host in SciPy's order and uploaded a batch at
a time."""

from __future__ import annotations

import inspect
import itertools
import math
from dataclasses import dataclass

import numpy

from ..._creation.from_data import asarray
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis, swapaxes
from ..._sorting.searching import where
from ..._sorting.sorting import argsort
from ...random import default_rng
from ._multisample import check_batch, resampling_pvalue, samples_last

__all__ = ["permutation_test", "PermutationTestResult"]

_BLOCK = 1 << 24  # values of the permuted samples per device batch when `batch` is None


@dataclass
class PermutationTestResult:
    """See `scipy.stats._resampling.PermutationTestResult`: device arrays."""

    statistic: object
    pvalue: object
    null_distribution: object


def _check(data, statistic, permutation_type, vectorized, n_resamples, batch, alternative, axis):
    """SciPy's `_permutation_test_iv`, its errors and messages."""
    if axis != int(axis):
        raise ValueError("`axis` must be an integer.")
    types = {"samples", "pairings", "independent"}
    permutation_type = permutation_type.lower()
    if permutation_type not in types:
        raise ValueError(f"`permutation_type` must be in {types}.")
    if vectorized not in {True, False, None}:
        raise ValueError("`vectorized` must be `True`, `False`, or `None`.")
    if vectorized is None:
        vectorized = "axis" in inspect.signature(statistic).parameters
    message = "`data` must be a tuple containing at least two samples"
    try:
        if len(data) < 2 and permutation_type == "independent":
            raise ValueError(message)
    except TypeError:
        raise TypeError(message) from None
    if not vectorized:  # SciPy's answer for arrays other than NumPy's
        raise TypeError("When using array library cuarray, `func` must be vectorized and accept argument `axis`.")
    n = int(n_resamples) if not math.isinf(n_resamples) else math.inf
    if n_resamples != n or n <= 0:
        raise ValueError("`n_resamples` must be a positive integer.")
    batch = check_batch(batch)
    alternatives = {"two-sided", "greater", "less"}
    if alternative.lower() not in alternatives:
        raise ValueError(f"`alternative` must be in {alternatives}")
    return permutation_type, n, batch, alternative.lower(), int(axis)


def permutation_test(data, statistic, *, permutation_type="independent", vectorized=None, n_resamples=9999,
                     batch=None, alternative="two-sided", axis=0, rng=None, random_state=None):
    """See `scipy.stats.permutation_test`. `statistic` must be vectorized (SciPy's rule for arrays
    other than NumPy's); `rng` (or the legacy `random_state`) seeds a `cuarray.random` generator,
    so random permutations differ from SciPy's for the same seed (exact tests agree). With `batch`
    None, the permutations are taken in batches of at most 2**24 permuted values.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([1.1, 2.3, 1.9, 3.0]), cuarray.array([2.8, 3.9, 3.1])
    >>> res = stats.permutation_test((x, y), lambda a, b, axis: a.mean(axis=axis) - b.mean(axis=axis))
    >>> round(float(res.pvalue), 4), res.null_distribution.shape  # every permutation: exact
    (0.1143, (35,))
    """
    permutation_type, n_resamples, batch, alternative, axis = _check(
        data, statistic, permutation_type, vectorized, n_resamples, batch, alternative, axis)
    samples, _, _, _ = samples_last(data, axis, "propagate", "permutation_test", floating=False)
    samples = [s.reshape((1,)) if s.ndim == 0 else s for s in samples]
    if any(s.shape[-1] <= 1 for s in samples):
        raise ValueError("each sample in `data` must contain two or more observations along `axis`.")
    dtype = numpy.result_type(*(s.dtype for s in samples))
    dtype = dtype if dtype.kind == "f" else numpy.dtype(numpy.float64)
    gen = default_rng(rng if rng is not None else random_state)
    observed = asarray(statistic(*samples, axis=-1))
    null_of = {"independent": _null_independent, "pairings": _null_pairings, "samples": _null_samples}[permutation_type]
    null, n_resamples, exact = null_of(samples, statistic, n_resamples, batch, gen)
    pvalues = resampling_pvalue(null, observed, alternative, n_resamples, 0 if exact else 1, dtype)
    return PermutationTestResult(observed, where(isnan(observed), numpy.nan, pvalues), null)


def _batch_size(batch, per_permutation, total):
    return int(batch or max(1, min(total, _BLOCK // max(per_permutation, 1))))


def _all_partitions(ns):
    """SciPy's `_all_partitions_concatenated`: every split of range(sum(ns)) into groups of the
    sizes `ns`, each group's indices in increasing order, concatenated (SciPy's order)."""
    def split(z, sizes):
        if not sizes:
            yield [z]
            return
        for c in itertools.combinations(sorted(z), sizes[0]):
            rest = z - set(c)
            for tail in split(rest, sizes[1:]):
                yield [set(c)] + tail

    for parts in split(set(range(sum(ns))), list(ns)):
        yield numpy.concatenate([sorted(p) for p in parts]).astype(numpy.int64)


def _batches(iterator, size):
    while True:
        chunk = list(itertools.islice(iterator, size))
        if not chunk:
            return
        yield numpy.asarray(chunk)


def _null_independent(data, statistic, n_resamples, batch, gen):
    sizes = [s.shape[-1] for s in data]
    bounds = list(itertools.accumulate(sizes, initial=0))
    n_obs = bounds[-1]
    n_max = math.prod(math.comb(n, k) for n, k in zip(bounds[1:], bounds[:-1]))
    exact = n_resamples >= n_max
    n_perm = n_max if exact else n_resamples
    pooled = concatenate(data, axis=-1)
    step = _batch_size(batch, pooled.size, n_perm)
    if exact:
        chunks = (asarray(c) for c in _batches(_all_partitions(sizes), step))
    else:
        chunks = (argsort(gen.random((min(step, n_perm - k), n_obs)), axis=-1) for k in range(0, n_perm, step))
    null = []
    for idx in chunks:
        permuted = moveaxis(take(pooled, idx, axis=-1), -2, 0)  # (permutations, ..., observations)
        null.append(asarray(statistic(*(permuted[..., i:j] for i, j in zip(bounds[:-1], bounds[1:])), axis=-1)))
    return concatenate(null, axis=0), n_perm, exact


def _null_pairings(data, statistic, n_resamples, batch, gen):
    n_samples, n_obs = len(data), data[0].shape[-1]
    n_max = math.factorial(n_obs) ** n_samples
    exact = n_resamples >= n_max
    n_perm = n_max if exact else n_resamples
    step = _batch_size(batch, sum(s.size for s in data), n_perm)
    if exact:  # SciPy's order: the Cartesian product of each sample's permutations
        gen_all = itertools.product(*(itertools.permutations(range(n_obs)) for _ in range(n_samples)))
        chunks = (asarray(c) for c in _batches(gen_all, step))
    else:  # each sample's observations permuted independently
        chunks = (argsort(gen.random((min(step, n_perm - k), n_samples, n_obs)), axis=-1) for k in range(0, n_perm, step))
    null = []
    for idx in chunks:
        permuted = [moveaxis(take(s, idx[:, i], axis=-1), -2, 0) for i, s in enumerate(data)]
        null.append(asarray(statistic(*permuted, axis=-1)))
    return concatenate(null, axis=0), n_perm, exact


def _null_samples(data, statistic, n_resamples, batch, gen):
    # SciPy's reduction to 'pairings' with samples and observations swapped; one sample is paired
    # with its negative (permuting the two flips signs)
    n_samples = len(data)
    if n_samples == 1:
        data = [data[0], -data[0]]
    stacked = swapaxes(stack(data, axis=0), 0, -1)

    def wrapped(*rows, axis):
        back = swapaxes(stack(rows, axis=0), 0, -1)
        if n_samples == 1:
            back = back[0:1]
        return statistic(*(back[i] for i in range(back.shape[0])), axis=axis)

    return _null_pairings([stacked[i] for i in range(stacked.shape[0])], wrapped, n_resamples, batch, gen)
