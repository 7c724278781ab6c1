"""SciPy's resampling p-values for two independent samples (`PermutationMethod`,
`MonteCarloMethod`), batched on the device: the permutations (every partition when they are fewer
than `n_resamples`, else `rng.permutation` draws) or the Monte Carlo samples are drawn on the host
by SciPy's own calls on the same generator, so a seeded method gives SciPy's null distribution;
the statistic of every resample of every slice is computed on the device in blocks of resamples,
and only the counts of null values beyond the observed ones are kept."""

from __future__ import annotations

import itertools
import math

import numpy

from ..._creation.from_data import asarray
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._math.misc import abs as abs_
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._manipulation.joining import concatenate

__all__ = ["is_method", "independent_pvalue"]

_BLOCK = 1 << 24  # values of the gathered resamples per device block


def _classes():
    # host work: SciPy's method classes, to recognise and read them
    from scipy.stats import MonteCarloMethod, PermutationMethod  # import time: only with a `method`
    return PermutationMethod, MonteCarloMethod


def is_method(method) -> str | None:
    """'permutation', 'monte_carlo' or None (not one of SciPy's two method classes)."""
    if method is None or isinstance(method, str):
        return None
    perm, mc = _classes()
    return "permutation" if isinstance(method, perm) else ("monte_carlo" if isinstance(method, mc) else None)


def _generator(method):
    """The generator SciPy's permutation_test draws from for this method."""
    if method.rng is not None:
        return numpy.random.default_rng(method.rng)
    seed = method.random_state
    if seed is None or seed is numpy.random:
        return numpy.random.mtrand._rand
    if isinstance(seed, (numpy.random.RandomState, numpy.random.Generator)):
        return seed
    return numpy.random.RandomState(seed)


def _check(method):
    n = method.n_resamples
    if math.isinf(n):
        n = math.inf
    elif n != int(n) or int(n) <= 0:
        raise ValueError("`n_resamples` must be a positive integer.")
    if method.batch is not None and (method.batch != int(method.batch) or int(method.batch) <= 0):
        raise ValueError("`batch` must be a positive integer or None.")
    return n


def _compare(null, observed, counts, gamma):
    """Add the counts of null values at most / at least the observed ones (SciPy's eps * 100
    tolerance `gamma`) of a block `null` (rows, resamples)."""
    counts[0] = counts[0] + sum_(null <= (observed + gamma)[:, None], axis=-1)
    counts[1] = counts[1] + sum_(null >= (observed - gamma)[:, None], axis=-1)


def _finish(counts, total, adjustment, observed, alternative):
    dt = observed.dtype
    less = (counts[0].astype(dt) + adjustment) / (total + adjustment)
    greater = (counts[1].astype(dt) + adjustment) / (total + adjustment)
    p = {"less": less, "greater": greater}.get(alternative)
    if p is None:
        p = where(less < greater, less, greater) * 2
    p = where(p > 1, 1.0, where(p < 0, 0.0, p))
    return where(isnan(observed), numpy.nan, p).astype(dt)


def _permutations(n1, n, method):
    """(index blocks (resamples, n) of the pooled sample, their number, exact?)."""
    n_max = math.comb(n, n1)
    total = _check(method)
    if total >= n_max:
        def parts():
            for c in itertools.combinations(range(n), n1):
                rest = sorted(set(range(n)) - set(c))
                yield list(c) + rest
        return parts(), n_max, True
    rng = _generator(method)
    return (rng.permutation(n) for _ in range(int(total))), int(total), False


def independent_pvalue(x, y, statistic, method, alternative, observed):
    """SciPy's resampling p-value for rows x (B, n1), y (B, n2): `statistic(xs, ys)` reduces the
    last axis of stacks (..., k) of resampled rows; `observed` (B,) its value on the data."""
    kind = is_method(method)
    n1, n = x.shape[-1], x.shape[-1] + y.shape[-1]
    if n1 < 2 or n - n1 < 2:
        raise ValueError("each sample in `data` must contain two or more observations along `axis`.")
    dt = observed.dtype
    gamma = abs_(observed * (numpy.finfo(dt).eps * 100))
    counts = [0, 0]
    rows = max(x.shape[0], 1)
    step = max(1, _BLOCK // (rows * n))
    if kind == "permutation":
        pooled = concatenate((x, y), axis=-1)
        gen, total, exact = _permutations(n1, n, method)
        while True:
            block = list(itertools.islice(gen, step))
            if not block:
                break
            g = take(pooled, asarray(numpy.asarray(block, dtype=numpy.int64)), axis=-1)  # (B, R, n)
            _compare(statistic(g[..., :n1], g[..., n1:]).astype(dt), observed, counts, gamma)
        return _finish(counts, total, 0 if exact else 1, observed, alternative)
    total = _check(method)
    if math.isinf(total):
        raise ValueError("`n_resamples` must be a positive integer.")
    total = int(total)
    rvs = method.rvs
    if method.rng is not None:
        rng = numpy.random.default_rng(method.rng)
        rvs = (rng.normal, rng.normal)
    rvs = rvs if isinstance(rvs, (tuple, list)) else (rvs,)
    if not all(callable(f) for f in rvs):
        raise TypeError("`rvs` must be callable or sequence of callables.")
    if len(rvs) != 2:
        raise ValueError("If `rvs` is a sequence, `len(rvs)` must equal `len(data)`.")
    batch = int(method.batch or total)
    for k in range(0, total, batch):
        actual = min(batch, total - k)
        a, b = (numpy.asarray(f(size=(actual, m))) for f, m in zip(rvs, (n1, n - n1)))
        for s in range(0, actual, step):
            null = statistic(asarray(a[s:s + step]), asarray(b[s:s + step]))  # SciPy's draws' dtype
            _compare(null.reshape(1, -1), observed, counts, gamma)
    return _finish(counts, total, 1, observed, alternative)
