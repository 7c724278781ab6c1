"""permutation_test on the GPU against scipy.stats: exact tests (every permutation; p-values equal
exactly) of the three permutation types and N-D samples, then random permutations in distribution."""

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


# The statistics carry an offset of 10: SciPy's tie tolerance is 100 ulps of |observed|, and the
# null value of the observed arrangement (summed in another order) is a few ulps of the data's scale
# (~1) off it; with |observed| near 0 that null value could fall on either side, with ~10 not.
def _mdiff(x, y, axis):
    return x.mean(axis=axis) - y.mean(axis=axis) + 10


def _cov(x, y, axis):
    return ((x - x.mean(axis=axis, keepdims=True)) * (y - y.mean(axis=axis, keepdims=True))).sum(axis=axis) + 10


def _mean(x, axis):
    return x.mean(axis=axis) + 10


def _seven_sd(p, n):
    """7 sd of the difference of two independent estimates of a two-sided p = 2 min(p-, p+) from n
    permutations each: each one-sided count is binomial, so sd = sqrt(2 * 4 q (1 - q) / n), q = p/2
    (floored at 1/n for p near 0)."""
    q = p / 2
    return 7 * np.sqrt(8 * max(q * (1 - q), 1 / n) / n)


def _exact(got, want, what):
    # the same permutations' statistics (sums of <= 6 values: a few ulps apart, inside SciPy's
    # 100-ulp tie tolerance; continuous data has no other near-ties)
    np.testing.assert_allclose(np.sort(cuarray.asnumpy(got.null_distribution), axis=0), np.sort(want.null_distribution, axis=0),
                               rtol=1e-13, atol=1e-15, err_msg=what)
    np.testing.assert_array_equal(cuarray.asnumpy(got.pvalue), want.pvalue, err_msg=what)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_exact_as_scipy(alternative):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(5), rng.standard_normal(4) + 0.5
    kw = dict(alternative=alternative)
    _exact(cst.permutation_test((G(x), G(y)), _mdiff, **kw), sst.permutation_test((x, y), _mdiff, **kw), "independent")
    _exact(cst.permutation_test((G(x[:4]), G(y)), _cov, permutation_type="pairings", **kw),
           sst.permutation_test((x[:4], y), _cov, permutation_type="pairings", **kw), "pairings")
    _exact(cst.permutation_test((G(x),), _mean, permutation_type="samples", **kw),
           sst.permutation_test((x,), _mean, permutation_type="samples", **kw), "samples, one")
    z = x + rng.uniform(-1, 1)
    _exact(cst.permutation_test((G(x), G(z)), _mdiff, permutation_type="samples", **kw),
           sst.permutation_test((x, z), _mdiff, permutation_type="samples", **kw), "samples, two")
    a, b = rng.standard_normal((6, 3)), rng.standard_normal((5, 1))
    _exact(cst.permutation_test((G(a), G(b)), _mdiff, axis=0, batch=50, **kw),
           sst.permutation_test((a, b), _mdiff, axis=0, batch=50, **kw), "N-D")


def test_random_in_distribution():
    rng = np.random.default_rng()
    x, y = rng.standard_normal(30), rng.standard_normal(25) + 0.4
    n = 20000
    got = cst.permutation_test((G(x), G(y)), _mdiff, n_resamples=n, rng=int(rng.integers(2**31)))
    want = sst.permutation_test((x, y), _mdiff, n_resamples=n, rng=rng)
    p = float(want.pvalue)
    assert abs(float(cuarray.asnumpy(got.pvalue)) - p) <= _seven_sd(p, n), (got.pvalue, p)
    assert got.null_distribution.shape == (n,)
    # pairings and sign flips, random
    for kind, data, stat in (("pairings", (x[:25], y), _cov), ("samples", (x,), _mean)):
        got = cst.permutation_test(tuple(G(d) for d in data), stat, permutation_type=kind, n_resamples=n, rng=1)
        want = sst.permutation_test(data, stat, permutation_type=kind, n_resamples=n, rng=rng)
        p = float(want.pvalue)
        assert abs(float(cuarray.asnumpy(got.pvalue)) - p) <= _seven_sd(p, n), (kind, got.pvalue, p)
