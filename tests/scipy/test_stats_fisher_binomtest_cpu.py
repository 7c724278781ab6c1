"""fisher_exact and binomtest without a GPU: the modules (`_fisher` with NumPy in place of
cuarray's reads, stats_tests_host; `_binomtest` with `binom`'s NumPy copy, stats_distn_host)
against scipy.stats over grids (every alternative, tables with zeros and ties, the float path of
large tables, R x C tables; k = 0 and n, p at 0 and 1, batches, every interval method), the errors
and the signatures."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
ALTERNATIVES = ("two-sided", "less", "greater")


@pytest.fixture(scope="module")
def F(stats_host):
    return stats_host["_fisher"]


@pytest.fixture(scope="module")
def B(distn_host):
    return distn_host["_binomtest"]


def _quiet(f, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*args, **kw)


@pytest.mark.parametrize("scale", [3, 12, 60, 400])
def test_fisher_2x2_as_scipy(F, scale):
    # ours: exact integer sums, correctly rounded; SciPy's: Boost's pmf/cdf (a few ulps each) in at
    # most two sums -> a few ulps apart; the terms selected agree (SciPy's 1e-14 tolerance is far
    # above either's rounding). Small scales give zeros in the table and tied terms.
    rng = np.random.default_rng()
    for _ in range(12):
        c = rng.integers(0, scale, size=(2, 2))
        for alternative in (None,) + ALTERNATIVES:
            got, want = F.fisher_exact(c, alternative), sst.fisher_exact(c, alternative)
            np.testing.assert_allclose(float(got.statistic), want.statistic, rtol=1e-15, err_msg=str(c))
            np.testing.assert_allclose(float(got.pvalue), want.pvalue, rtol=1e-12, atol=0, err_msg=f"{c} {alternative}")


@pytest.mark.parametrize("table,statistic,pvalue", [
    ([[0, 0], [3, 4]], np.nan, 1.0), ([[0, 5], [0, 2]], np.nan, 1.0), ([[0, 0], [0, 0]], np.nan, 1.0),
    ([[4, 0], [0, 4]], np.inf, None), ([[0, 4], [4, 0]], 0.0, None), ([[3, 3], [3, 3]], 1.0, 1.0),
    ([[5, 0], [2, 3]], np.inf, None), ([[1, 9], [11, 3]], None, None)])
def test_fisher_edges(F, table, statistic, pvalue):
    for alternative in ALTERNATIVES:
        got, want = F.fisher_exact(table, alternative), sst.fisher_exact(table, alternative)
        np.testing.assert_allclose([float(got.statistic), float(got.pvalue)], [want.statistic, want.pvalue], rtol=1e-12)
    got = F.fisher_exact(table)
    if statistic is not None:
        np.testing.assert_equal(float(got.statistic), statistic)
    if pvalue is not None:
        assert float(got.pvalue) == pvalue


def test_fisher_large_tables_float_path(F):
    # N above the exact limit: each term a product of at most ~N/2 ratios (~1e4 roundings, 2e-12
    # relative) -> rtol 1e-9; the p-values are O(0.1), away from underflow
    assert F._EXACT_LIMIT < 40000
    rng = np.random.default_rng()
    for _ in range(2):
        c = np.array([[10000, 10000], [10000, 10000]]) + rng.integers(-150, 150, size=(2, 2))
        for alternative in ALTERNATIVES:
            np.testing.assert_allclose(float(F.fisher_exact(c, alternative).pvalue),
                                       sst.fisher_exact(c, alternative).pvalue, rtol=1e-9, err_msg=str(c))


def test_fisher_rxc_is_scipys_resampling_test(F):
    table = np.array([[3, 1, 4], [2, 5, 0]])
    for method in (sst.MonteCarloMethod(n_resamples=999, rng=np.random.default_rng(3)),
                   sst.PermutationMethod(n_resamples=999, rng=np.random.default_rng(3))):
        got = F.fisher_exact(table, method=method)
        want = sst.fisher_exact(table, method=type(method)(n_resamples=999, rng=np.random.default_rng(3)))
        assert (float(got.statistic), float(got.pvalue)) == (want.statistic, want.pvalue)
    assert [float(v) for v in F.fisher_exact([[1, 2, 3]])] == [1.0, 1.0]
    assert [float(v) for v in F.fisher_exact(np.zeros((3, 2), int))] == [1.0, 1.0]


@pytest.mark.parametrize("table,kw,match", [
    ([1, 2, 3, 4], {}, "two dimensions"), ([[1, -2], [3, 4]], {}, "nonnegative"),
    ([[1, 2], [3, 4]], {"alternative": "bigger"}, "should be one of"),
    ([[1, 2, 3], [3, 4, 5]], {"alternative": "less"}, "must be the default"),
    (np.zeros((0, 2), int), {}, "at least one row"),
    ([[1, 2, 3], [3, 4, 5]], {"method": "exact"}, "not recognized")])
def test_fisher_errors_as_scipy(F, table, kw, match):
    for f in (F.fisher_exact, sst.fisher_exact):
        with pytest.raises(ValueError, match=match):
            f(table, **kw)


def _binom_cases(rng, count):
    for _ in range(count):
        n = int(rng.choice([1, 2, 7, 30, 250]))
        k = int(rng.choice([0, n, rng.integers(0, n + 1), round(n * 0.5)]))
        p = float(rng.choice([0.0, 1.0, 0.5, rng.random(), 0.3]))
        yield k, n, p


def _close(got, want):
    # the pmf is exp(gammaln sums) (relative error ~1e-13 for n <= 250) where SciPy calls Boost; the
    # tails bdtr/bdtrc and Boost's to ~1e-14; the two-sided test's 1e-7 tolerance far above both.
    # Tails near the bottom of the double range (1e-300) underflow to 0 in one and not the other
    np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-10, atol=1e-250, equal_nan=True)


def test_binomtest_as_scipy(B):
    rng = np.random.default_rng()
    for k, n, p in _binom_cases(rng, 25):
        for alternative in ALTERNATIVES:
            got, want = _quiet(B.binomtest, k, n, p, alternative), sst.binomtest(k, n, p, alternative)
            assert (got.k, got.n, got.alternative) == (want.k, want.n, want.alternative)
            _close([got.statistic, got.pvalue, got.proportion_estimate], [want.statistic, want.pvalue, want.statistic])


def test_binomtest_intervals_as_scipy(B):
    # 'exact': both sides' roots by find_root to its default tolerances (~4 eps |x| + tiny), on tails
    # ~1e-13 apart with slopes O(n) -> the roots agree to ~1e-12; Wilson's: one formula
    rng = np.random.default_rng()
    for k, n, p in _binom_cases(rng, 8):
        for alternative in ALTERNATIVES:
            got, want = _quiet(B.binomtest, k, n, p, alternative), sst.binomtest(k, n, p, alternative)
            for method in ("exact", "wilson", "wilsoncc"):
                for level in (0.95, 0.5, 0.0, 1.0):
                    g, w = _quiet(got.proportion_ci, level, method), _quiet(want.proportion_ci, level, method)
                    np.testing.assert_allclose(np.asarray([g.low, g.high], dtype=float), [w.low, w.high],
                                               rtol=1e-9, atol=1e-12, equal_nan=True,
                                               err_msg=f"{k} {n} {p} {alternative} {method} {level}")


def test_binomtest_batched_is_elementwise(B):
    rng = np.random.default_rng()
    n = rng.integers(1, 300, size=(3, 1)).astype(float)
    k = np.floor(rng.random((3, 4)) * (n + 1))
    k[0, 0], k[1, 1] = 0, n[1, 0]
    p = rng.random(4)
    for alternative in ALTERNATIVES:
        got = _quiet(B.binomtest, k, n, p, alternative)
        assert got.pvalue.shape == (3, 4) and got.k.shape == (3, 4)
        want = [[sst.binomtest(int(k[i, j]), int(n[i, 0]), p[j], alternative).pvalue for j in range(4)]
                for i in range(3)]
        _close(got.pvalue, want)
        ci = _quiet(got.proportion_ci, 0.9, "wilson")
        wci = [[sst.binomtest(int(k[i, j]), int(n[i, 0]), p[j], alternative).proportion_ci(0.9, "wilson").low
                for j in range(4)] for i in range(3)]
        _close(ci.low, wci)


@pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.17 raises ValueError where 1.18 returns NaN")
@pytest.mark.parametrize("k,n,p", [(5, 4, 0.5), (-1, 4, 0.5), (1.5, 4, 0.5), (2, 0, 0.5), (2, 4.5, 0.5),
                                   (2, 4, -0.1), (2, 4, 1.5), ([1, 5], 4, 0.5)])
def test_binomtest_invalid_is_nan_as_scipy_118(B, k, n, p):
    got, want = _quiet(B.binomtest, k, n, p), _quiet(sst.binomtest, k, n, p)
    _close([got.statistic, got.pvalue], [want.statistic, want.pvalue])
    if np.ndim(want.statistic) == 0:
        assert np.isnan(got.k) and np.isnan(want.k)


def test_binomtest_dtypes(B):
    assert _quiet(B.binomtest, 3, 10).pvalue.dtype == np.float64
    # Python scalars are weak, NumPy's are not (SciPy 1.18's `xp_promote`)
    assert _quiet(B.binomtest, np.float32(3), np.float32(10), np.float32(0.25)).pvalue.dtype == np.float32
    assert _quiet(B.binomtest, np.array([3], np.int32), 10, 0.25).pvalue.dtype == np.float64
    assert _quiet(B.binomtest, np.array([3], np.float32), np.array([10], np.float32), 0.25).pvalue.dtype == np.float32
    with pytest.raises(TypeError, match="real numbers"):
        B.binomtest(np.array([1 + 1j]), 4)


def test_binomtest_errors_as_scipy(B):
    for f in (B.binomtest, sst.binomtest):
        with pytest.raises(ValueError, match="not recognized"):
            f(3, 10, 0.5, alternative="both")
        res = f(3, 10, 0.5)
        with pytest.raises(ValueError, match="must be one of"):
            res.proportion_ci(method="jeffreys")
        with pytest.raises(ValueError, match="must be in"):
            res.proportion_ci(confidence_level=1.5)


@pytest.mark.parametrize("name", ["fisher_exact", "binomtest"])
def test_signature_is_scipys(name):
    assert inspect.signature(getattr(cst, name)) == inspect.signature(getattr(sst, name))
