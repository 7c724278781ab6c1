"""cuarray.scipy.stats on the GPU against scipy.stats: nan_policy, the p-values of pearsonr and
spearmanr (all alternatives), spearmanr of 2-D arrays, keepdims, float32 and integer input."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

stats = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _close(got, want, rtol=1e-10):
    np.testing.assert_allclose(np.asarray(got.get()), want, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("n", [3, 10, 200])
def test_pearsonr_pvalue(alternative, n):
    rng = _rng("pr", alternative, n)
    x = rng.normal(size=(n, 4))
    y = 0.3 * x + rng.normal(size=(n, 4))
    got = cst.pearsonr(G(x), G(y), alternative=alternative)
    want = stats.pearsonr(x, y, alternative=alternative)
    _close(got.statistic, want.statistic)
    _close(got.pvalue, want.pvalue, 1e-8)
    got = cst.pearsonr(G(x), G(y), axis=None)
    want = stats.pearsonr(x.ravel(), y.ravel())
    _close(got.statistic, want.statistic)


def test_pearsonr_float32_and_two_points():
    x = np.array([1.0, 2.0, 4.0, 3.0, 5.0], np.float32)
    y = np.array([2.0, 1.0, 4.0, 5.0, 3.0], np.float32)
    got, want = cst.pearsonr(G(x), G(y)), stats.pearsonr(x, y)
    assert got.statistic.dtype == np.asarray(want.statistic).dtype
    _close(got.statistic, want.statistic, 1e-6)
    _close(got.pvalue, want.pvalue, 1e-5)
    got, want = cst.pearsonr(G(x[:2]), G(y[:2])), stats.pearsonr(x[:2], y[:2])
    _close(got.pvalue, want.pvalue)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_spearmanr(alternative):
    rng = _rng("sp", alternative)
    x = rng.integers(0, 8, size=40).astype(np.float64)
    y = x + rng.normal(size=40) * 3
    got, want = cst.spearmanr(G(x), G(y), alternative=alternative), stats.spearmanr(x, y, alternative=alternative)
    _close(got.statistic, want.statistic)
    _close(got.pvalue, want.pvalue, 1e-8)


@pytest.mark.parametrize("axis", [0, 1])
def test_spearmanr_2d(axis):
    rng = _rng("sp2", axis)
    a = rng.normal(size=(30, 4)) if axis == 0 else rng.normal(size=(4, 30))
    got, want = cst.spearmanr(G(a), axis=axis), stats.spearmanr(a, axis=axis)
    _close(got.statistic, want.statistic)
    _close(got.pvalue, want.pvalue, 1e-8)
    two = a[:, :2] if axis == 0 else a[:2]
    got, want = cst.spearmanr(G(two), axis=axis), stats.spearmanr(two, axis=axis)
    assert got.statistic.shape == np.shape(want.statistic)
    _close(got.statistic, want.statistic)
    b = rng.normal(size=a.shape)
    got, want = cst.spearmanr(G(a), G(b), axis=axis), stats.spearmanr(a, b, axis=axis)
    _close(got.statistic, want.statistic)


def test_nan_policy():
    x = _rng("nan").normal(size=(6, 5))
    x[2, 3] = np.nan
    for fn in ("skew", "kurtosis", "moment", "zscore", "gmean", "trim_mean"):
        args = (0.1,) if fn == "trim_mean" else ()
        with pytest.raises(ValueError, match="contains nan"):
            getattr(cst, fn)(G(np.abs(x)), *args, nan_policy="raise")
        with pytest.raises(ValueError, match="contains nan"):
            getattr(stats, fn)(np.abs(x), *args, nan_policy="raise")
        clean = np.abs(np.nan_to_num(x)) + 1
        _close(getattr(cst, fn)(G(clean), *args, nan_policy="omit"), getattr(stats, fn)(clean, *args, nan_policy="omit"))
        # NaNs present: omitted per slice, as SciPy (raised NotImplementedError before issue 50)
        _close(getattr(cst, fn)(G(np.abs(x)), *args, nan_policy="omit"), getattr(stats, fn)(np.abs(x), *args, nan_policy="omit"))


@pytest.mark.parametrize("axis", [0, 1, None])
def test_trim_mean_keepdims_and_int(axis):
    x = _rng("tm", axis).integers(0, 100, size=(9, 7))
    got, want = cst.trim_mean(G(x), 0.2, axis=axis, keepdims=True), stats.trim_mean(x, 0.2, axis=axis, keepdims=True)
    assert got.shape == want.shape
    _close(got, want)


def test_float32_stays_float32():
    x = _rng("f32").uniform(0.5, 2, size=(50, 3)).astype(np.float32)
    for fn in ("skew", "kurtosis", "zscore", "gmean", "hmean", "trim_mean"):
        args = (0.1,) if fn == "trim_mean" else ()
        got, want = getattr(cst, fn)(G(x), *args), getattr(stats, fn)(x, *args)
        assert got.dtype == np.asarray(want).dtype, fn
        _close(got, want, 1e-4)


def test_moment_orders_gmean_flat_weights_mode_empty():
    rng = _rng("misc")
    x = rng.uniform(0.5, 2, size=(8, 6))
    w = rng.uniform(0.1, 1, size=(8, 6))
    _close(cst.moment(G(x), order=[1, 2, 3], axis=0), stats.moment(x, order=[1, 2, 3], axis=0))
    _close(cst.gmean(G(x), axis=None, weights=G(w)), stats.gmean(x, axis=None, weights=w))
    _close(cst.pmean(G(x), 2.0, axis=None, weights=G(w)), stats.pmean(x, 2.0, axis=None, weights=w))



def _scipy_at_least(major, minor):
    import re

    import scipy

    return tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", scipy.__version__).groups()) >= (major, minor)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # SciPy's SmallSampleWarning
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axis", [((0, 3), 0), ((3, 0), 0), ((3, 0), 1), ((0,), 0), ((0, 3), None),
                                        ((2, 0, 3), 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_mode_empty(dtype, shape, axis, keepdims):
    a = np.ones(shape, dtype)
    m, c = cst.mode(G(a), axis=axis, keepdims=keepdims)
    wm, wc = stats.mode(a, axis=axis, keepdims=keepdims)
    wm, wc = np.asarray(wm), np.asarray(wc)
    if not _scipy_at_least(1, 18) and wc.ndim:
        wc = wc.astype(np.asarray(0).dtype)  # SciPy 1.18's _mode_result (followed here); 1.17 kept floats
    assert (m.shape, m.dtype) == (wm.shape, wm.dtype)
    assert (c.shape, c.dtype) == (wc.shape, wc.dtype)
    np.testing.assert_array_equal(m.get(), wm)
    np.testing.assert_array_equal(c.get(), wc)


def test_mode_axis_none_keepdims():
    x = _rng("mode-none").integers(0, 4, size=(5, 6))
    for keepdims in (False, True):
        m, c = cst.mode(G(x), axis=None, keepdims=keepdims)
        wm, wc = stats.mode(x, axis=None, keepdims=keepdims)
        assert m.shape == np.shape(wm) and c.shape == np.shape(wc)
        np.testing.assert_array_equal(m.get(), wm)
        np.testing.assert_array_equal(c.get(), wc)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata_dtype(dtype, method):
    x = _rng("rank-dt", dtype, method).integers(0, 4, size=(3, 9)).astype(dtype)
    for a in (x, x[:, :0]):
        got, want = cst.rankdata(G(a), method=method, axis=1), stats.rankdata(a, method=method, axis=1)
        if not _scipy_at_least(1, 18):  # SciPy 1.18 (followed here): floating ranks for every method
            want = want.astype(np.result_type(a.dtype, np.float16) if a.dtype.kind == "f" else np.float64)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)


def test_spearmanr_float32_statistic_follows_rankdata():
    rng = _rng("sp-f32")
    x = rng.normal(size=(20, 3)).astype(np.float32)
    got, want = cst.spearmanr(G(x)), stats.spearmanr(x)
    np.testing.assert_allclose(got.statistic.get(), want.statistic, rtol=1e-5, atol=1e-6)
    if _scipy_at_least(1, 18):  # float32 ranks make a float32 statistic (1.17: float64 ranks)
        assert got.statistic.dtype == np.asarray(want.statistic).dtype
