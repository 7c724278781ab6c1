"""permutation_test without a GPU: the module on NumPy (stats_tests_host) against scipy.stats. Where
every permutation is enumerated (few observations), both nulls are the same set of values and the
p-values must agree exactly: the three permutation types, every alternative, N-D samples along an
axis, batches. Random permutations are compared in distribution; errors and signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def PT(stats_host):
    return stats_host["_permutation"].permutation_test


# The statistics carry an offset of 10: SciPy's tie tolerance is 100 ulps of |observed|, and the
# null value of the observed arrangement (summed in another order) is a few ulps of the data's scale
# (~1) off it; with |observed| near 0 that null value could fall on either side, with ~10 not.
def _mdiff(x, y, axis):
    return np.mean(x, axis=axis) - np.mean(y, axis=axis) + 10


def _cov(x, y, axis):
    return np.sum((x - x.mean(axis=axis, keepdims=True)) * (y - y.mean(axis=axis, keepdims=True)), axis=axis) + 10


def _mean(x, axis):
    return np.mean(x, axis=axis) + 10


def _seven_sd(p, n):
    """7 sd of the difference of two independent estimates of a two-sided p = 2 min(p-, p+) from n
    permutations each: each one-sided count is binomial, so sd = sqrt(2 * 4 q (1 - q) / n), q = p/2
    (floored at 1/n for p near 0)."""
    q = p / 2
    return 7 * np.sqrt(8 * max(q * (1 - q), 1 / n) / n)


def _exact(got, want):
    # the same permutations' statistics, each a sum of <= 6 values: a few ulps apart, far inside
    # SciPy's 100-ulp tie tolerance, and continuous data has no other near-ties
    np.testing.assert_allclose(np.sort(got.null_distribution, axis=0), np.sort(want.null_distribution, axis=0),
                               rtol=1e-13, atol=1e-15)
    np.testing.assert_array_equal(got.pvalue, want.pvalue)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_exact_as_scipy(PT, alternative):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(5), rng.standard_normal(4) + 0.5
    kw = dict(alternative=alternative)
    _exact(PT((x, y), _mdiff, **kw), sst.permutation_test((x, y), _mdiff, **kw))
    _exact(PT((x[:4], y), _cov, permutation_type="pairings", **kw),
           sst.permutation_test((x[:4], y), _cov, permutation_type="pairings", **kw))
    _exact(PT((x,), _mean, permutation_type="samples", **kw), sst.permutation_test((x,), _mean, permutation_type="samples", **kw))
    z = x + rng.uniform(-1, 1)
    _exact(PT((x, z), _mdiff, permutation_type="samples", **kw),
           sst.permutation_test((x, z), _mdiff, permutation_type="samples", **kw))
    a, b = rng.standard_normal((3, 6)), rng.standard_normal((1, 5))
    got = PT((a.T, b.T), _mdiff, axis=0, batch=50, **kw)
    _exact(got, sst.permutation_test((a.T, b.T), _mdiff, axis=0, batch=50, **kw))
    assert np.shape(got.pvalue) == (3,)


def test_exact_ties_and_integers(PT):
    # integer samples with ties: null values equal to the observed one count on both sides
    x, y = np.array([1, 2, 2, 3]), np.array([2, 3, 3])
    for alt in ("two-sided", "less", "greater"):
        _exact(PT((x, y), _mdiff, alternative=alt), sst.permutation_test((x, y), _mdiff, alternative=alt))
    nan = PT((np.array([1.0, np.nan, 2.0]), np.array([3.0, 4.0])), _mdiff)
    assert np.isnan(nan.pvalue)


def test_random_in_distribution(PT):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(30), rng.standard_normal(25) + 0.4
    n = 20000
    got = PT((x, y), _mdiff, n_resamples=n, rng=rng)
    want = sst.permutation_test((x, y), _mdiff, n_resamples=n, rng=rng)
    p = float(want.pvalue)
    assert abs(float(got.pvalue) - p) <= _seven_sd(p, n), (got.pvalue, p)
    assert got.null_distribution.shape == (n,)


ERRORS = [
    (dict(axis=0.5), ValueError), (dict(permutation_type="x"), ValueError), (dict(vectorized=3), ValueError),
    (dict(n_resamples=0), ValueError), (dict(n_resamples=2.5), ValueError), (dict(batch=0), ValueError),
    (dict(alternative="both"), ValueError), (dict(data=(np.ones(4),)), ValueError), (dict(data=3), TypeError),
    (dict(data=(np.ones(4), np.ones(1))), ValueError),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_scipy(PT, case):
    kw, err = ERRORS[case]
    kw = dict(kw)
    data = kw.pop("data", (np.arange(4.0), np.arange(3.0)))
    with pytest.raises(err) as theirs:
        sst.permutation_test(data, _mdiff, **kw)
    with pytest.raises(err) as ours:
        PT(data, _mdiff, **kw)
    if "{" not in str(theirs.value):  # a set of names prints in no fixed order
        assert str(ours.value) == str(theirs.value)


def test_unvectorized_statistic_refused(PT):
    # SciPy's answer for arrays other than NumPy's: the statistic must take `axis`
    with pytest.raises(TypeError, match="must be vectorized"):
        PT((np.arange(4.0), np.arange(3.0)), lambda x, y: np.mean(x) - np.mean(y))


def test_signature_is_scipys():
    assert str(inspect.signature(cst.permutation_test)) == str(inspect.signature(sst.permutation_test))
