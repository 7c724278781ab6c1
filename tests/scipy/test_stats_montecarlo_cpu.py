"""monte_carlo_test without a GPU: the module on NumPy (stats_tests_host) against scipy.stats with
the same resamples (an `rvs` that deals out a fixed table, so both null distributions are the same
values and the p-values must agree exactly): one and two samples, N-D data along an axis, every
alternative, batches, ties at the observed value; its errors and signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def M(stats_host):
    return stats_host["_montecarlo"].monte_carlo_test


class Dealer:
    """rvs(size=(m, n)): the next m rows of a fixed table (the same draws for SciPy and cuarray)."""

    def __init__(self, table):
        self.table, self.k = table, 0

    def __call__(self, size):
        m, n = size
        out = self.table[self.k:self.k + m, :n]
        self.k += m
        return out


def _mean(x, axis):
    return np.mean(x, axis=axis)


def _diff(x, y, axis):
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("batch", [None, 37])
def test_as_scipy(M, alternative, batch):
    rng = np.random.default_rng()
    n_res = 200
    table = rng.standard_normal((n_res, 12))
    x = rng.standard_normal(12) * 0.3 + 0.1
    kw = dict(n_resamples=n_res, batch=batch, alternative=alternative)
    got, want = M(x, Dealer(table), _mean, **kw), sst.monte_carlo_test(x, Dealer(table), _mean, **kw)
    np.testing.assert_array_equal(got.null_distribution, want.null_distribution)
    np.testing.assert_allclose(got.statistic, want.statistic, rtol=1e-15)
    np.testing.assert_array_equal(got.pvalue, want.pvalue)
    # two samples, N-D along axis 1
    t1, t2 = rng.standard_normal((n_res, 9)), rng.standard_normal((n_res, 7))
    a, b = rng.standard_normal((3, 9)), rng.standard_normal((1, 7))
    kw["axis"] = 1
    got = M((a, b), (Dealer(t1), Dealer(t2)), _diff, **kw)
    want = sst.monte_carlo_test((a, b), (Dealer(t1), Dealer(t2)), _diff, **kw)
    np.testing.assert_allclose(got.statistic, want.statistic, rtol=1e-14)
    np.testing.assert_array_equal(got.pvalue, want.pvalue)
    assert np.shape(got.pvalue) == np.shape(want.pvalue) == (3,)


def test_ties_count_as_scipy(M):
    # the observed statistic is in the null distribution (and a rounding away from it): SciPy's
    # 100-ulp tolerance counts them on both sides
    x = np.array([0.1, 0.2, 0.3])
    table = np.tile(x, (10, 1))
    table[::3] += 1.0
    for alt in ("two-sided", "less", "greater"):
        got = M(x, Dealer(table), _mean, n_resamples=10, alternative=alt)
        want = sst.monte_carlo_test(x, Dealer(table), _mean, n_resamples=10, alternative=alt)
        np.testing.assert_array_equal(got.pvalue, want.pvalue)


ERRORS = [
    (dict(axis=0.5), ValueError), (dict(vectorized=3), ValueError), (dict(rvs=3), TypeError),
    (dict(rvs=(np.random.default_rng().normal,) * 2), ValueError), (dict(statistic=3), TypeError),
    (dict(n_resamples=0), ValueError), (dict(n_resamples=2.5), ValueError), (dict(batch=0), ValueError),
    (dict(alternative="both"), ValueError),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_scipy(M, case):
    kw, err = ERRORS[case]
    args = dict(data=np.ones(5), rvs=np.random.default_rng().normal, statistic=_mean)
    args.update(kw)
    data, rvs, statistic = args.pop("data"), args.pop("rvs"), args.pop("statistic")
    with pytest.raises(err) as theirs:
        sst.monte_carlo_test(data, rvs, statistic, **args)
    with pytest.raises(err) as ours:
        M(data, rvs, statistic, **args)
    if "{" not in str(theirs.value):  # a set of names prints in no fixed order
        assert str(ours.value) == str(theirs.value)


def test_unvectorized_statistic_refused(M):
    # SciPy's answer for arrays other than NumPy's: the statistic must take `axis`
    with pytest.raises(ValueError, match="must be vectorized"):
        M(np.ones(5), np.random.default_rng().normal, lambda x: np.mean(x))


def test_signature_is_scipys():
    assert str(inspect.signature(cst.monte_carlo_test)) == str(inspect.signature(sst.monte_carlo_test))
