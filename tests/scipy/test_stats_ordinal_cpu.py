"""somersd, weightedtau and siegelslopes without a GPU: the modules on NumPy (stats_tests_host)
against scipy.stats over a grid (rankings with ties, tables, every alternative; weightedtau's rank
True/False/None/array, additive or not, a custom weigher, NaNs as SciPy's lowest value, omitted or
raised, N-D along an axis with keepdims, integer and mixed dtypes, constant input; siegelslopes'
two methods with and without x, ties in x, NaNs, N-D); the errors and the signatures."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def O(stats_host):
    return stats_host["_ordinal"]


@pytest.fixture(scope="module")
def T(stats_host):
    return stats_host["_theilslopes"]


def _quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


# somersd: the same integer counts; d is a ratio of exact integer sums (float64 holds them
# exactly at these sizes), the p-value ndtr of z whose relative error is a few ulps, which ndtr's
# conditioning (|z|^2 ~ 100 at most here) turns into < 1e-12 relative.
def _same_somers(got, want):
    np.testing.assert_array_equal(np.asarray(got.table), want.table)
    assert np.asarray(got.table).dtype == want.table.dtype
    np.testing.assert_allclose(float(got.statistic), want.statistic, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(float(got.pvalue), want.pvalue, rtol=1e-10, atol=1e-300)
    assert float(got.correlation) == float(got.statistic)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_somersd_rankings_as_scipy(O, alternative):
    rng = np.random.default_rng()
    for n, kx, ky in ((30, 4, 5), (12, 12, 3), (50, 3, 3)):
        x, y = rng.integers(0, kx, n), rng.integers(0, ky, n)
        y = np.where(rng.random(n) < 0.5, x, y)  # some association, both signs over the draws
        _same_somers(O.somersd(x, y, alternative), sst.somersd(x, y, alternative))
        _same_somers(O.somersd(x * 0.5, -y, alternative), sst.somersd(x * 0.5, -y, alternative))


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_somersd_table_as_scipy(O, alternative):
    rng = np.random.default_rng()
    for shape in ((2, 2), (3, 5), (6, 4)):
        t = rng.integers(0, 9, shape)
        t[0, 0] = t[-1, -1] = 1 + t[0, 0]  # two nonzero cells at least
        _same_somers(O.somersd(t, alternative=alternative), sst.somersd(t, alternative=alternative))
        _same_somers(O.somersd(t.T.astype(float), alternative=alternative), sst.somersd(t.T.astype(float), alternative=alternative))
    t = [[27, 25, 14, 7, 0], [7, 14, 18, 35, 12], [1, 3, 2, 7, 17]]  # SciPy's example
    _same_somers(O.somersd(np.array(t)), sst.somersd(t))


def test_somersd_degenerate_as_scipy(O):
    for x, y in (([1, 1, 1], [1, 2, 3]), ([1, 2, 3], [4, 4, 4])):  # one row or column: NaN
        got, want = _quiet(O.somersd, np.array(x), np.array(y)), _quiet(sst.somersd, x, y)
        assert np.isnan(float(got.statistic)) and np.isnan(want.statistic)
        np.testing.assert_array_equal(np.asarray(got.table), want.table)
    got, want = _quiet(O.somersd, np.array([[1, 0], [0, 1]])), _quiet(sst.somersd, [[1, 0], [0, 1]])
    assert float(got.statistic) == want.statistic == 1.0  # S = 0: z infinite, p 0
    assert float(got.pvalue) == want.pvalue


def test_somersd_errors_as_scipy(O):
    for f in (O.somersd, sst.somersd):
        with pytest.raises(ValueError, match="non-negative"):
            f(np.array([[1, -1], [2, 3]]))
        with pytest.raises(ValueError, match="must be integer"):
            f(np.array([[1, 0.5], [2, 3]]))
        with pytest.raises(ValueError, match="At least two elements"):
            f(np.array([[0, 0], [0, 3]]))
        with pytest.raises(ValueError, match="Rankings must be of equal length"):
            f(np.array([1, 2, 3]), np.array([1, 2]))
        with pytest.raises(ValueError, match="1D or 2D"):
            f(np.ones((2, 2, 2)))
        with pytest.raises(ValueError, match="alternative"):
            f(np.array([[1, 2], [3, 4]]), alternative="both")


# weightedtau: the weighted pair counts are sums of at most n^2 positive weights (each a few ulps
# off SciPy's summation order), so tau = (C - D) / sqrt(...) differs by ~n^2 eps relative to its
# denominator; with n <= 40 and a denominator at least a tenth of the total weight (ties of 5
# levels at most), 1e-11 absolute bounds that with margin.
_TAU = dict(rtol=0, atol=1e-11)


def _tau(f, *a, **k):
    return np.asarray(_quiet(f, *a, **k).statistic)


def _same_tau(O, *a, **k):
    got, want = _tau(O.weightedtau, *a, **k), _tau(sst.weightedtau, *a, **k)
    assert got.shape == want.shape and got.dtype == want.dtype == np.float64, (got.shape, want.shape, got.dtype)
    np.testing.assert_allclose(got, want, equal_nan=True, err_msg=str(k), **_TAU)
    p = _quiet(O.weightedtau, *a, **k).pvalue
    assert np.all(np.isnan(np.asarray(p)))


@pytest.mark.parametrize("rank", [True, False, None, "array"])
@pytest.mark.parametrize("additive", [True, False])
def test_weightedtau_1d_as_scipy(O, rank, additive):
    rng = np.random.default_rng()
    n = 25
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    xt, yt = rng.integers(0, 5, n).astype(float), np.round(y * 2)  # ties in x, in y and joint
    yt[:4] = yt[4]
    xt[:3] = xt[4]
    r = rng.permutation(n) if rank == "array" else rank
    rt = rng.integers(0, 8, n).astype(float) if rank == "array" else rank  # tied ranks: dense
    for a, b, rr in ((x, y, r), (xt, yt, rt), (xt, y, r), (x.astype(np.float32), y.astype(np.float32), r)):
        _same_tau(O, a, b, rr, additive=additive)
    xn = xt.copy()
    xn[[1, 7]] = np.nan  # NaN: below every number, tied with each other ('propagate' keeps them)
    _same_tau(O, xn, yt, rt, additive=additive)
    if rank == "array":
        rn = rt.copy()
        rn[3] = np.nan
        _same_tau(O, x, y, rn, additive=additive)


def test_weightedtau_weigher_and_dtypes_as_scipy(O):
    rng = np.random.default_rng()
    x, y = rng.integers(0, 6, 20), rng.integers(-3, 3, 20)
    for w in (lambda r: np.exp(-r / 4.0), lambda r: 1.0 / (r + 1) ** 2):
        for rank in (True, None, False):
            _same_tau(O, x, y, rank, weigher=w)
            _same_tau(O, x, y, rank, weigher=w, additive=False)
    _same_tau(O, x, y.astype(float))  # mixed int and float
    _same_tau(O, x > 2, y)  # bool
    _same_tau(O, x.astype(np.int32), y.astype(np.int32))


@pytest.mark.parametrize("keepdims", [False, True])
def test_weightedtau_nd_as_scipy(O, keepdims):
    rng = np.random.default_rng()
    x, y = rng.integers(0, 6, (3, 15, 2)).astype(float), rng.standard_normal((1, 15, 2))
    r = rng.permutation(15)[None, :, None] * np.ones((3, 1, 2))
    for axis in (1, -2):
        for rank in (True, None, r):
            _same_tau(O, x, y, rank, axis=axis, keepdims=keepdims)
    _same_tau(O, x, y * np.ones((3, 1, 1)), keepdims=keepdims)  # axis None: raveled


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_weightedtau_nans_as_scipy(O, policy):
    rng = np.random.default_rng()
    x, y = rng.standard_normal((12, 3)), rng.standard_normal((12, 3))
    x[rng.random(x.shape) < 0.2] = np.nan
    x[0, 0] = y[1, 0] = np.nan
    _same_tau(O, x, y, axis=0, nan_policy=policy)
    _same_tau(O, x, y, None, axis=0, nan_policy=policy)
    for f in (O.weightedtau, sst.weightedtau):
        with pytest.raises(ValueError):
            f(x, y, nan_policy="raise")


def test_weightedtau_small_and_constant_as_scipy(O):
    for a, b in ((np.array([1.0]), np.array([2.0])), (np.array([]), np.array([])), (np.ones(5), np.arange(5.0)),
                 (np.arange(5.0), np.full(5, 2.0)), (np.array([1.0, 2.0]), np.array([2.0, 1.0])),
                 (np.ones((2, 1)), np.ones((2, 1)))):
        for rank in (True, None):
            _same_tau(O, a, b, rank)
    _same_tau(O, np.ones((2, 4)), np.arange(8.0).reshape(2, 4), axis=1)
    x = np.arange(6.0)
    _same_tau(O, x, x[::-1], weigher=lambda r: 0.0 * r)  # 0/0: SciPy's clip gives -1


def test_weightedtau_errors_as_scipy(O):
    for f in (O.weightedtau, sst.weightedtau):
        with pytest.raises(ValueError, match="rank-size 2"):
            f([1.0, 2, 3], [1.0, 2, 3], rank=[1, 2])
        with pytest.raises(ValueError, match="incompatible"):
            f([1.0, 2, 3], [1.0, 2])


# siegelslopes: the slopes are the same quotients and the medians the same order statistics, so
# the slope agrees to a rounding; the intercept is a difference of medians, compared to its
# terms' size.
def _same_siegel(got, want):
    scale = np.abs(want[0]) + np.abs(want[1]) + 1.0
    for k, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        assert g.shape == np.shape(w) and g.dtype == np.asarray(w).dtype, (k, g.shape, np.shape(w), g.dtype)
        np.testing.assert_allclose(g / scale, w / scale, rtol=1e-12, atol=1e-12, equal_nan=True, err_msg=str(k))


@pytest.mark.parametrize("method", ["hierarchical", "separate"])
def test_siegelslopes_as_scipy(T, method):
    rng = np.random.default_rng()
    for n in (2, 3, 10, 21):
        x = rng.standard_normal(n)
        y = 2 * x + rng.standard_normal(n)
        y[0] += 20  # an outlier the repeated medians ignore
        xr = np.round(x)
        xr[-1] = xr[0] + 1  # rounded x: pairs with no slope, but never one x for all (see below)
        for args in ((y, x), (y,), (y, xr)):
            _same_siegel(_quiet(T.siegelslopes, *args, method=method), _quiet(sst.siegelslopes, *args, method=method))
    y, x = rng.standard_normal((3, 9, 2)), rng.standard_normal((1, 9, 2))
    y[0, 0, 0] = np.nan
    for policy in ("propagate", "omit"):
        for kw in ({}, {"x": x}):
            _same_siegel(_quiet(T.siegelslopes, y, axis=1, method=method, nan_policy=policy, **kw),
                         _quiet(sst.siegelslopes, y, axis=1, method=method, nan_policy=policy, **kw))
    _same_siegel(_quiet(T.siegelslopes, y[1], keepdims=True, method=method),
                 _quiet(sst.siegelslopes, y[1], keepdims=True, method=method))


def test_siegelslopes_edges_as_scipy(T):
    # one x for all: SciPy 1.18 gives NaN (1.17 an uninitialised value from an empty quantile)
    assert np.isnan(np.asarray(T.siegelslopes(np.array([1.0, 2, 3]), np.array([2.0, 2, 2])))).all()
    for args in ((np.array([1.0]),), (np.arange(6),)):
        _same_siegel(_quiet(T.siegelslopes, *args), _quiet(sst.siegelslopes, *args))
    # float32 kept (SciPy 1.18; 1.17 gave float64): exact here, the slopes all 1
    got = T.siegelslopes(np.arange(6.0).astype(np.float32))
    assert all(np.asarray(g).dtype == np.float32 and float(g) == w for g, w in zip(got, (1.0, 0.0)))
    for f in (T.siegelslopes, sst.siegelslopes):
        with pytest.raises(ValueError, match="'hierarchical' or 'separate'"):
            f(np.arange(4.0), method="joint")


@pytest.mark.parametrize("name", ["somersd", "weightedtau", "siegelslopes"])
def test_signature_is_scipys(name):
    ours, theirs = inspect.signature(getattr(cst, name)), inspect.signature(getattr(sst, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]


def test_weightedtau_blocks_as_scipy(O, monkeypatch):
    rng = np.random.default_rng()
    x, y = rng.integers(0, 7, (2, 23)).astype(float), rng.standard_normal((2, 23))
    monkeypatch.setattr(O, "_BLOCK", 5 * 23 * 2)  # blocks of 5 rows of both slices, the last of 3
    for rank in (True, None, np.arange(23) % 4):
        _same_tau(O, x, y, rank, axis=1)
        _same_tau(O, x, y, rank, axis=1, additive=False)
