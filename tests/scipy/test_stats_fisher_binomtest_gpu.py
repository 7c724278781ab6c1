"""fisher_exact and binomtest on the GPU against SciPy: 2 x 2 tables (device arrays and lists,
every alternative, zeros), an R x C table by a seeded resampling method, the errors; binomtest of
scalars and of a broadcast batch (every alternative, k = 0 and n, p at 0 and 1), its intervals."""

from __future__ import annotations

import warnings

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

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
ALTERNATIVES = ("two-sided", "less", "greater")


def test_fisher_2x2_as_scipy():
    # the p-value is summed on the host over exact integers (correctly rounded); SciPy's Boost sums
    # are a few ulps from it
    rng = np.random.default_rng()
    tables = [rng.integers(0, s, size=(2, 2)) for s in (4, 30, 300) for _ in range(4)] + [[[0, 0], [2, 3]]]
    for c in tables:
        for alternative in (None,) + ALTERNATIVES:
            got = cst.fisher_exact(cuarray.asarray(np.asarray(c)), alternative)
            want = sst.fisher_exact(c, alternative)
            assert got.statistic.shape == () and got.pvalue.dtype == np.float64
            np.testing.assert_allclose([float(got.statistic), float(got.pvalue)], [want.statistic, want.pvalue],
                                       rtol=1e-12, err_msg=f"{c} {alternative}")
    got = cst.fisher_exact([[8, 2], [1, 5]], "less")
    assert float(got.pvalue) == pytest.approx(sst.fisher_exact([[8, 2], [1, 5]], "less").pvalue, rel=1e-12)


def test_fisher_rxc_and_errors():
    table = np.array([[3, 1, 4], [2, 5, 0]])
    got = cst.fisher_exact(cuarray.asarray(table), method=sst.MonteCarloMethod(n_resamples=999, rng=np.random.default_rng(5)))
    want = sst.fisher_exact(table, method=sst.MonteCarloMethod(n_resamples=999, rng=np.random.default_rng(5)))
    assert (float(got.statistic), float(got.pvalue)) == (want.statistic, want.pvalue)
    for bad, kw in (([1, 2, 3, 4], {}), ([[1, -2], [3, 4]], {}), ([[1, 2], [3, 4]], {"alternative": "bigger"}),
                    (table, {"alternative": "less"})):
        with pytest.raises(ValueError):
            cst.fisher_exact(cuarray.asarray(np.asarray(bad)), **kw)
    with pytest.raises(TypeError):
        cst.fisher_exact(np.array([[1, 2], [3, 4]]))  # host arrays refused, as every routine


def _close(got, want, what):
    # the pmf exp(gammaln sums) and the tails bdtr/bdtrc on the device, each ~1e-12 relative for
    # n <= 300 (binom's GPU tests: 1e-10); tails below ~1e-250 may underflow on one side only
    np.testing.assert_allclose(cuarray.asnumpy(got).astype(float), want, rtol=1e-9, atol=1e-250, equal_nan=True,
                               err_msg=str(what))


def test_binomtest_scalars_as_scipy():
    rng = np.random.default_rng()
    cases = [(0, 10, 0.3), (10, 10, 0.3), (0, 5, 0.0), (5, 5, 1.0), (3, 7, 0.0), (4, 8, 0.5), (1, 1, 0.5)]
    cases += [(int(k), int(n), float(rng.random())) for n in rng.integers(1, 300, 5) for k in [rng.integers(0, n + 1)]]
    for i, (k, n, p) in enumerate(cases):
        for alternative in ALTERNATIVES:
            got, want = cst.binomtest(k, n, p, alternative), sst.binomtest(k, n, p, alternative)
            assert (got.k, got.n) == (want.k, want.n)
            _close(got.pvalue, want.pvalue, (k, n, p, alternative))
            _close(got.statistic, want.statistic, (k, n, p, alternative))
            # the intervals of a few cases: 'exact' is two find_root loops, a read an iteration
            for method in ("exact", "wilson", "wilsoncc") if i % 3 == 0 else ():
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    w = want.proportion_ci(0.9, method)
                g = got.proportion_ci(0.9, method)
                _close(cuarray.stack([g.low, g.high]), [w.low, w.high], (k, n, p, alternative, method))


def test_binomtest_batch_is_elementwise():
    rng = np.random.default_rng()
    n = rng.integers(1, 300, size=(4, 1)).astype(np.float64)
    k = np.floor(rng.random((4, 5)) * (n + 1))
    k[0, 0], k[1, 1] = 0, n[1, 0]
    p = rng.random(5)
    p[2], p[3] = 0.0, 1.0
    for alternative in ALTERNATIVES:
        got = cst.binomtest(cuarray.asarray(k), cuarray.asarray(n), cuarray.asarray(p), alternative)
        assert got.pvalue.shape == (4, 5) and got.pvalue.dtype == np.float64
        want = [[sst.binomtest(int(k[i, j]), int(n[i, 0]), p[j], alternative).pvalue for j in range(5)] for i in range(4)]
        _close(got.pvalue, want, alternative)


@pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.17 raises ValueError where 1.18 returns NaN")
def test_binomtest_invalid_is_nan():
    k, n = cuarray.asarray([-1.0, 1.5, 2.0, 2.0, 5.0]), cuarray.asarray([4.0, 4.0, 0.0, 4.5, 4.0])
    got = cst.binomtest(k, n, 0.5)
    assert np.isnan(cuarray.asnumpy(got.pvalue)).all() and np.isnan(cuarray.asnumpy(got.statistic)).all()
    assert np.isnan(cst.binomtest(2, 4, 1.5).k)
