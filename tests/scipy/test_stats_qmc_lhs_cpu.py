"""qmc.LatinHypercube without a GPU: the module on NumPy (stats_tests_host; NumPy's Generator for
the device's) for the properties SciPy's sample has: one point in each stratum [k/n, (k+1)/n) of
every dimension, uniform within it (or its centre without `scramble`), a sample replayed by
`reset` and continued otherwise; the errors."""

from __future__ import annotations


import numpy as np
import pytest

sq = pytest.importorskip("scipy.stats.qmc")



@pytest.fixture(scope="module")
def L(stats_host):
    return stats_host["_lhs"].LatinHypercube


def _stratified(x):
    n = x.shape[0]
    cells = np.floor(x * n).astype(np.int64)
    return all(np.array_equal(np.sort(c), np.arange(n)) for c in cells.T)


@pytest.mark.parametrize("scramble", [True, False])
def test_one_point_a_stratum(L, scramble):
    for n, d in ((1, 1), (7, 3), (100, 5)):
        x = np.asarray(L(d, scramble=scramble, rng=np.random.default_rng()).random(n))
        assert x.shape == (n, d) and x.dtype == np.float64
        assert _stratified(x)
        if not scramble:  # the strata's centres
            np.testing.assert_allclose(np.sort(x, axis=0), ((np.arange(n)[:, None] + 0.5) / n) * np.ones(d), rtol=0, atol=1e-15)
    x = np.asarray(L(2, rng=np.random.default_rng()).random(0))
    assert x.shape == (0, 2)


def test_reset_replays_and_draws_continue(L):
    e = L(4, rng=np.random.default_rng())
    a, b = np.asarray(e.random(16)), np.asarray(e.random(16))
    assert not np.array_equal(a, b) and e.num_generated == 32
    np.testing.assert_array_equal(np.asarray(e.reset().random(16)), a)
    np.testing.assert_array_equal(np.asarray(L(4, rng=5).random(8)), np.asarray(L(4, rng=5).random(8)))


def test_within_strata_uniform(L):
    # 64 x 200 offsets within their strata: uniform on [0, 1); KS at the 1e-4 level (a false alarm
    # once in 10,000 runs)
    stats = pytest.importorskip("scipy.stats")
    n = 64
    x = np.asarray(L(200, rng=np.random.default_rng()).random(n))
    offsets = (x * n - np.floor(x * n)).ravel()
    assert stats.kstest(offsets, "uniform").pvalue > 1e-4


def test_errors_and_strength_as_scipys(L):
    for cls in (L, sq.LatinHypercube):
        with pytest.raises(ValueError, match="is not a valid strength"):
            cls(2, strength=3)
        with pytest.raises(ValueError, match="d must be a non-negative integer"):
            cls(-1)
    with pytest.raises(NotImplementedError, match="strength=2"):
        L(2, strength=2)
