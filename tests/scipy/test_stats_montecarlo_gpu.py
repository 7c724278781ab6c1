"""monte_carlo_test on the GPU against scipy.stats: the same resamples dealt from a fixed table
(p-values equal exactly), then cuarray.random draws against NumPy's (p-values within binomial error)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray


class Dealer:
    """rvs(size=(m, n)): the next m rows of a fixed table."""

    def __init__(self, table):
        self.table, self.k = table, 0

    def __call__(self, size):
        m, n = size
        out = self.table[self.k:self.k + m, :n]
        self.k += m
        return out


def _diff(x, y, axis):
    return x.mean(axis=axis) - y.mean(axis=axis)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_same_resamples_as_scipy(alternative):
    rng = np.random.default_rng()
    n_res = 500
    t1, t2 = rng.standard_normal((n_res, 9)), rng.standard_normal((n_res, 7))
    a, b = rng.standard_normal((3, 9)), rng.standard_normal((1, 7))
    kw = dict(n_resamples=n_res, alternative=alternative, axis=1)
    got = cst.monte_carlo_test((G(a), G(b)), (Dealer(G(t1)), Dealer(G(t2))), _diff, batch=128, **kw)
    want = sst.monte_carlo_test((a, b), (Dealer(t1), Dealer(t2)), _diff, **kw)
    # means of <= 9 values: a few ulps; the counts see SciPy's 100-ulp tie tolerance, and a null
    # value within a few ulps of observed +- 100 ulps has probability ~1e-13
    np.testing.assert_allclose(cuarray.asnumpy(got.statistic), want.statistic, rtol=1e-13, atol=1e-15)
    np.testing.assert_array_equal(cuarray.asnumpy(got.pvalue), want.pvalue)
    assert got.null_distribution.shape == want.null_distribution.shape


def test_random_draws_in_distribution():
    rng = np.random.default_rng()
    x = rng.standard_normal(30) * 1.2
    gen = cuarray.random.default_rng()

    def stat(s, axis):
        return s.std(axis=axis)

    n = 20000
    got = cst.monte_carlo_test(G(x), gen.standard_normal, stat, n_resamples=n, alternative="greater")
    want = sst.monte_carlo_test(x, rng.standard_normal, stat, n_resamples=n, alternative="greater")
    # both estimate the same p by n draws: the difference has sd sqrt(2 p (1 - p) / n) <= 0.0051; 7 sd
    p = float(want.pvalue)
    assert abs(float(cuarray.asnumpy(got.pvalue)) - p) <= 7 * np.sqrt(2 * max(p * (1 - p), 1 / n) / n), (got.pvalue, p)
