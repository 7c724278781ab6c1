"""cuarray.scipy.stats on the GPU against scipy.stats: fresh random samples, several axes."""

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
    np.testing.assert_allclose(np.asarray(got.get() if hasattr(got, "get") else got), want, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("axis", [0, 1, None])
def test_moments(axis):
    x = _rng("m", axis).gamma(2.0, size=(40, 30))
    for order in (0, 1, 2, 3, 4):
        _close(cst.moment(G(x), order, axis=axis), stats.moment(x, order, axis=axis))
    _close(cst.skew(G(x), axis=axis), stats.skew(x, axis=axis))
    _close(cst.skew(G(x), axis=axis, bias=False), stats.skew(x, axis=axis, bias=False))
    _close(cst.kurtosis(G(x), axis=axis), stats.kurtosis(x, axis=axis))
    _close(cst.kurtosis(G(x), axis=axis, fisher=False, bias=False), stats.kurtosis(x, axis=axis, fisher=False, bias=False))
    d, w = cst.describe(G(x), axis=axis), stats.describe(x, axis=axis)
    assert d.nobs == w.nobs
    for got, want in zip((d.minmax[0], d.minmax[1], d.mean, d.variance, d.skewness, d.kurtosis),
                         (w.minmax[0], w.minmax[1], w.mean, w.variance, w.skewness, w.kurtosis)):
        _close(got, want)


@pytest.mark.parametrize("axis", [0, -1, None])
def test_means_and_scores(axis):
    rng = _rng("means", axis)
    x = rng.uniform(0.5, 3, size=(20, 25))
    w = rng.uniform(0.1, 1, size=(20, 25))
    _close(cst.gmean(G(x), axis=axis), stats.gmean(x, axis=axis))
    _close(cst.hmean(G(x), axis=axis), stats.hmean(x, axis=axis))
    for p in (-2, 0.5, 3):
        _close(cst.pmean(G(x), p, axis=axis), stats.pmean(x, p, axis=axis))
    if axis is not None:
        _close(cst.gmean(G(x), axis=axis, weights=G(w)), stats.gmean(x, axis=axis, weights=w))
    _close(cst.zscore(G(x), axis=axis), stats.zscore(x, axis=axis))
    _close(cst.zscore(G(x), axis=axis, ddof=1), stats.zscore(x, axis=axis, ddof=1))
    y = rng.uniform(size=(20, 25))
    _close(cst.zmap(G(y), G(x), axis=axis), stats.zmap(y, x, axis=axis))
    _close(cst.trim_mean(G(x), 0.1, axis=axis), stats.trim_mean(x, 0.1, axis=axis))


def test_entropy():
    rng = _rng("entropy")
    p, q = rng.uniform(size=(10, 6)), rng.uniform(size=(10, 6))
    p[0, 0] = 0
    for axis in (0, 1):
        _close(cst.entropy(G(p), axis=axis), stats.entropy(p, axis=axis))
        _close(cst.entropy(G(p), G(q), axis=axis), stats.entropy(p, q, axis=axis))
        _close(cst.entropy(G(p), base=2, axis=axis), stats.entropy(p, base=2, axis=axis))


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata(method):
    rng = _rng("rank", method)
    x = rng.integers(0, 6, size=(7, 40)).astype(np.float64)
    np.testing.assert_array_equal(cst.rankdata(G(x), method=method).get(), stats.rankdata(x, method=method))
    np.testing.assert_array_equal(cst.rankdata(G(x), method=method, axis=1).get(),
                                  stats.rankdata(x, method=method, axis=1))
    x[2, 5] = np.nan
    np.testing.assert_array_equal(cst.rankdata(G(x), method=method, axis=1).get(),
                                  stats.rankdata(x, method=method, axis=1))


def test_mode():
    x = _rng("mode").integers(0, 5, size=(30, 8))
    for axis in (0, 1):
        m, c = cst.mode(G(x), axis=axis)
        wm, wc = stats.mode(x, axis=axis)
        np.testing.assert_array_equal(m.get(), wm)
        np.testing.assert_array_equal(c.get(), wc)


def test_boxcox_llf_and_correlations():
    rng = _rng("llf")
    x = rng.uniform(0.5, 5, 200)
    for lmb in (-1.5, 0.0, 0.5, 2.0):
        _close(cst.boxcox_llf(lmb, G(x)), stats.boxcox_llf(lmb, x), rtol=1e-9)
    y = x * 0.3 + rng.normal(size=200)
    _close(cst.pearsonr(G(x), G(y)).statistic, stats.pearsonr(x, y).statistic)
    _close(cst.spearmanr(G(x), G(y)).statistic, stats.spearmanr(x, y).statistic)
