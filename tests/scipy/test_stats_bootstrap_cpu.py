"""bootstrap without a GPU: the module on NumPy (stats_tests_host) against scipy.stats. Given the
same bootstrap distribution (`bootstrap_result`, no new resamples) both compute the same intervals:
percentile, basic and BCa (its jackknife too), every alternative, one and two samples, paired,
N-D along an axis, batches. Fresh resamples are compared in distribution; errors and signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def B(stats_host):
    return stats_host["_bootstrap"].bootstrap


def _mean(x, axis):
    return np.mean(x, axis=axis)


def _mdiff(x, y, axis):
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


def _same(got, want):
    # the same quantiles of the same values (BCa's levels from the same jackknife sums): ulps
    for g, w in zip(got.confidence_interval, want.confidence_interval):
        assert np.shape(g) == np.shape(w)
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got.standard_error, want.standard_error, rtol=1e-12)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_intervals_as_scipy(B, method, alternative):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(30), rng.standard_normal(20) + 1
    kw = dict(n_resamples=0, method=method, alternative=alternative)
    prior = sst.bootstrap((x,), _mean, n_resamples=500, rng=rng)
    _same(B((x,), _mean, bootstrap_result=prior, **kw), sst.bootstrap((x,), _mean, bootstrap_result=prior, **kw))
    prior = sst.bootstrap((x, y), _mdiff, n_resamples=500, rng=rng)
    _same(B((x, y), _mdiff, bootstrap_result=prior, batch=7, **kw),
          sst.bootstrap((x, y), _mdiff, bootstrap_result=prior, batch=7, **kw))
    z = 2 * x + rng.standard_normal(30)
    prior = sst.bootstrap((x, z), _mdiff, n_resamples=500, paired=True, rng=rng)
    _same(B((x, z), _mdiff, bootstrap_result=prior, paired=True, **kw),
          sst.bootstrap((x, z), _mdiff, bootstrap_result=prior, paired=True, **kw))
    a = rng.standard_normal((25, 3))
    prior = sst.bootstrap((a,), _mean, n_resamples=500, axis=0, rng=rng)
    _same(B((a,), _mean, bootstrap_result=prior, axis=0, **kw), sst.bootstrap((a,), _mean, bootstrap_result=prior, axis=0, **kw))


def test_fresh_resamples_in_distribution(B):
    rng = np.random.default_rng()
    x = rng.standard_normal(40) * rng.uniform(0.5, 2)
    nb = 4000
    got = B((x,), _mean, n_resamples=nb, rng=rng, method="percentile")
    want = sst.bootstrap((x,), _mean, n_resamples=nb, rng=rng, method="percentile")
    assert got.bootstrap_distribution.shape == (nb,)
    se = float(want.standard_error)
    # a 2.5% quantile of nb bootstrap means has sd sqrt(q (1 - q) / nb) / phi(z_q) se = 0.041 se;
    # two independent ones differ with sd 0.058 se: 7 sd is 0.41 se
    for g, w in zip(got.confidence_interval, want.confidence_interval):
        assert abs(float(g) - float(w)) <= 0.41 * se, (g, w, se)
    # a standard deviation from nb draws has relative sd 1/sqrt(2 nb); two: 0.016; 7 sd
    assert abs(float(got.standard_error) / se - 1) <= 7 * np.sqrt(1 / nb)


ERRORS = [
    (dict(vectorized=3), ValueError), (dict(axis=0.5), ValueError), (dict(data=()), ValueError),
    (dict(paired=3), ValueError), (dict(alternative="both"), ValueError), (dict(n_resamples=-1), ValueError),
    (dict(batch=0), ValueError), (dict(method="x"), ValueError), (dict(bootstrap_result=3), ValueError),
    (dict(n_resamples=0), ValueError), (dict(data=(np.ones(1),)), ValueError),
    (dict(data=(np.ones(4), np.ones(3)), paired=True, statistic=_mdiff), ValueError),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_scipy(B, case):
    kw, err = ERRORS[case]
    kw = dict(kw)
    data, statistic = kw.pop("data", (np.arange(5.0),)), kw.pop("statistic", _mean)
    with pytest.raises(err) as theirs:
        sst.bootstrap(data, statistic, **kw)
    with pytest.raises(err) as ours:
        B(data, statistic, **kw)
    if "{" not in str(theirs.value):  # a set of names prints in no fixed order
        assert str(ours.value) == str(theirs.value)


def test_unvectorized_statistic_refused(B):
    with pytest.raises(TypeError, match="must be vectorized"):
        B((np.arange(5.0),), lambda x: np.mean(x))


def test_signature_is_scipys():
    assert str(inspect.signature(cst.bootstrap)) == str(inspect.signature(sst.bootstrap))
