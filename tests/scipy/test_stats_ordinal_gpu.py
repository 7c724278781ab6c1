"""somersd, weightedtau and siegelslopes on the GPU against SciPy: rankings with ties and tables,
every alternative; weighted tau with each kind of rank, additive or not, a weigher given, NaNs,
N-D along an axis, a size past one block of pairs; repeated-median slopes with both methods, N-D,
NaNs, float32."""

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

G = cuarray.asarray


def _run(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


def test_somersd_as_scipy():
    rng = np.random.default_rng()
    x, y = rng.integers(0, 4, 40), rng.integers(0, 5, 40)
    y = np.where(rng.random(40) < 0.5, x, y)
    t = rng.integers(0, 9, (4, 6))
    t[0, 0] += 1
    t[-1, -1] += 1
    for alt in ("two-sided", "less", "greater"):
        for args, hargs in (((G(x), G(y)), (x, y)), ((G(x * 0.5), G(-y)), (x * 0.5, -y)), ((G(t),), (t,))):
            got, want = _run(cst.somersd, *args, alternative=alt), _run(sst.somersd, *hargs, alternative=alt)
            table = cuarray.asnumpy(got.table)
            np.testing.assert_array_equal(table, want.table)
            assert table.dtype == want.table.dtype, (table.dtype, want.table.dtype)
            # d a ratio of exact integer sums; p = ndtr(z), z a few ulps off, |z| < 10
            np.testing.assert_allclose(float(got.statistic), want.statistic, rtol=1e-13, atol=1e-15, err_msg=alt)
            np.testing.assert_allclose(float(got.pvalue), want.pvalue, rtol=1e-10, atol=1e-300, err_msg=alt)
    with pytest.raises(ValueError, match="must be integer"):
        cst.somersd(G(np.array([[1, 0.5], [2, 3]])))
    assert np.isnan(float(_run(cst.somersd, G(np.ones(4)), G(np.arange(4.0))).statistic))


def _tau(got, want):
    # sums of <= n^2 positive weights in another order: ~n^2 eps relative to the denominator
    g = cuarray.asnumpy(got.statistic)
    assert g.shape == np.shape(want.statistic) and g.dtype == np.float64, (g.shape, g.dtype)
    np.testing.assert_allclose(g, want.statistic, rtol=0, atol=1e-10, equal_nan=True)
    assert np.isnan(cuarray.asnumpy(got.pvalue)).all()


def test_weightedtau_as_scipy():
    rng = np.random.default_rng()
    n = 30
    x, y = rng.integers(0, 6, n).astype(float), np.round(rng.standard_normal(n) * 2)
    x[[2, 9]] = np.nan  # NaN ranks below every number, as SciPy's
    r = rng.integers(0, 10, n)
    for rank, hrank in ((True, True), (False, False), (None, None), (G(r), r)):
        for additive in (True, False):
            _tau(_run(cst.weightedtau, G(x), G(y), rank, additive=additive),
                 _run(sst.weightedtau, x, y, hrank, additive=additive))
    w = lambda v: 1.0 / (v + 1) ** 2  # noqa: E731 (elementwise on a device array and on an int)
    _tau(_run(cst.weightedtau, G(x), G(y), weigher=w), _run(sst.weightedtau, x, y, weigher=w))
    xs, ys = rng.standard_normal((3, 20, 2)), rng.standard_normal((3, 20, 2))
    xs[0, 0, 0] = np.nan
    for policy in ("propagate", "omit"):
        _tau(_run(cst.weightedtau, G(xs), G(ys), axis=1, nan_policy=policy, keepdims=True),
             _run(sst.weightedtau, xs, ys, axis=1, nan_policy=policy, keepdims=True))
    _tau(_run(cst.weightedtau, G(xs.astype(np.float32)), G(ys.astype(np.float32)), None),
         _run(sst.weightedtau, xs.astype(np.float32), ys.astype(np.float32), None))


def test_weightedtau_several_blocks_as_scipy():
    rng = np.random.default_rng()
    n = 2500  # 2500^2 pairs: two blocks of 2^22
    x = rng.standard_normal(n)
    y = x + rng.standard_normal(n)
    _tau(cst.weightedtau(G(x), G(y)), sst.weightedtau(x, y))
    _tau(cst.weightedtau(G(x), G(y), None, additive=False), sst.weightedtau(x, y, None, additive=False))


@pytest.mark.parametrize("method", ["hierarchical", "separate"])
def test_siegelslopes_as_scipy(method):
    rng = np.random.default_rng()
    y, x = rng.standard_normal((3, 15, 2)), rng.standard_normal((1, 15, 2))
    y[0, 0, 0] = np.nan
    xr = np.round(x * 2)
    xr[0, 0] = xr[0, 1] + 1  # ties in x, never one x for a whole slice
    for policy in ("propagate", "omit"):
        for kw, hkw in (({}, {}), ({"x": G(x)}, {"x": x}), ({"x": G(xr)}, {"x": xr})):
            got = _run(cst.siegelslopes, G(y), axis=1, method=method, nan_policy=policy, **kw)
            want = _run(sst.siegelslopes, y, axis=1, method=method, nan_policy=policy, **hkw)
            # the same quotients and order statistics; the intercept a difference of medians
            scale = np.abs(want.slope) + np.abs(want.intercept) + 1
            for g, w in zip(got, want):
                g = cuarray.asnumpy(g)
                assert g.shape == w.shape and g.dtype == w.dtype
                np.testing.assert_allclose(g / scale, w / scale, rtol=1e-12, atol=1e-12, equal_nan=True)
    y32 = y[1, :, 0].astype(np.float32)
    got = cst.siegelslopes(G(y32), method=method)
    want = sst.siegelslopes(y32.astype(np.float64), method=method)
    assert all(g.dtype == np.float32 for g in got)
    np.testing.assert_allclose([float(v) for v in got], want, rtol=1e-5, atol=1e-5)  # float32 quotients
