"""chi2_contingency without a GPU: the module on NumPy (stats_tests_host) against scipy.stats
(2-D and 3-D tables, one degree of freedom with and without Yates' correction, every lambda_,
degenerate tables, integer and float counts); its errors and signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_contingency"]


def _same(got, want):
    assert len(got) == 4
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)
    assert got.dof == want.dof and np.shape(got.expected_freq) == np.shape(want.expected_freq)


@pytest.mark.parametrize("shape", [(2, 2), (3, 4), (2, 3, 4), (1, 5), (5,)])
@pytest.mark.parametrize("lambda_", [None, "log-likelihood", "cressie-read", 0.5])
@pytest.mark.parametrize("correction", [True, False])
def test_as_scipy(H, shape, lambda_, correction):
    rng = np.random.default_rng()
    for observed in (rng.integers(1, 60, shape), rng.uniform(0.5, 30, shape)):
        _same(H.chi2_contingency(observed, correction, lambda_), sst.chi2_contingency(observed, correction, lambda_))


def test_small_counts_yates_no_larger_than_the_difference(H):
    for observed in (np.array([[1, 0], [0, 1]]) + 1, np.array([[10, 10], [10, 11]]), np.array([[5.2, 5.0], [5.0, 5.0]])):
        _same(H.chi2_contingency(observed), sst.chi2_contingency(observed))


def test_errors_as_scipy(H):
    for bad in (np.array([[1, -1], [2, 3]]), np.zeros((0, 2)), np.array([[0, 0], [1, 2]]), np.zeros((2, 0)) - 1):
        with pytest.raises(ValueError) as theirs:
            sst.chi2_contingency(bad)
        with pytest.raises(ValueError) as ours:
            H.chi2_contingency(bad)
        assert str(ours.value) == str(theirs.value)


def test_signature_is_scipys():
    ours, theirs = inspect.signature(cst.chi2_contingency), inspect.signature(sst.chi2_contingency)
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
