"""boxcox, yeojohnson, yeojohnson_llf, boxcox_normmax, yeojohnson_normmax on the GPU against
scipy.stats: the transforms and the log-likelihood's three branches (float32/float64, N-D, axis None,
keepdims, NaNs omitted), the estimates and boxcox's interval, the ymax bound, errors."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")
import scipy  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray
SCIPY_118 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)
# Brent's minimizers of the same likelihood (xtol 1.48e-8 relative) computed with different
# rounding: a rounding e of the objective at a minimum of curvature c moves the minimizer by about
# sqrt(2 e / c) ~ 1e-7 here (e ~ 1e-14 |llf| with the device's summation order, c > n/10)
LMBDA_ATOL = 2e-6


def _cmp(got, want, rtol, atol=0.0, what=""):
    got = cuarray.asnumpy(got) if isinstance(got, cuarray.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (what, got.shape, got.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=str(what))


def _mixed(rng, n):
    return rng.standard_normal(n) * rng.uniform(0.5, 3) + rng.uniform(-1, 1)


def _lognormal(rng, n=60):
    return rng.lognormal(rng.uniform(-1, 1), rng.uniform(0.3, 1.0), size=n)


@pytest.mark.parametrize("lmbda", [0.0, 2.0, 0.5, -1.3])
def test_transforms(lmbda):
    rng = np.random.default_rng()
    z, x = _mixed(rng, 200).reshape(8, 25), _lognormal(rng)
    _cmp(cst.yeojohnson(G(z), lmbda), sst.yeojohnson(z, lmbda), 1e-13, what="yeojohnson")
    _cmp(cst.yeojohnson(G(z)[:, ::2], lmbda), sst.yeojohnson(z[:, ::2], lmbda), 1e-13, what="strided")
    # float32: exp of an exponent |u| < 9 with an ulp or two of error, so |u| ulps (see the CPU test)
    z32 = z.astype(np.float32)
    _cmp(cst.yeojohnson(G(z32), lmbda), sst.yeojohnson(z32, lmbda), 4e-6, what="float32")
    _cmp(cst.yeojohnson(G(np.arange(-3, 4)), lmbda), sst.yeojohnson(np.arange(-3, 4), lmbda), 1e-13, what="int")
    _cmp(cst.boxcox(G(x), lmbda), sst.boxcox(x, lmbda), 1e-13, what="boxcox")


@pytest.mark.parametrize("kind", ["mixed", "positive", "negative"])
def test_yeojohnson_llf(kind):
    rng = np.random.default_rng()
    x = {"mixed": _mixed(rng, 60), "positive": rng.lognormal(size=60), "negative": -rng.lognormal(size=60)}[kind]
    # the same sums of logs and variances (in logarithms for one-signed data), in another
    # summation order: a few ulps of the terms, which are within 100x of |llf| here
    for lmb in (0.0, 2.0, 0.5, -1.3):
        for data, kw in ((x, {}), (x.reshape(6, 10), {"axis": 1}), (x.reshape(6, 10), {"axis": None}),
                         (x.reshape(6, 10), {"axis": 0, "keepdims": True})):
            _cmp(cst.yeojohnson_llf(lmb, G(data), **kw), sst.yeojohnson_llf(lmb, data, **kw), 1e-10, what=(lmb, kw))
    y = x.reshape(6, 10).copy()
    y[2, 3] = np.nan
    _cmp(cst.yeojohnson_llf(0.7, G(y), axis=1, nan_policy="omit"), sst.yeojohnson_llf(0.7, y, axis=1, nan_policy="omit"),
         1e-10, what="omit")
    x32 = x.astype(np.float32)
    # float32 sums of n = 60 terms on each side: n ulps (6e-8) of the terms' total magnitude each
    scale = 30 * abs(np.log(np.var(sst.yeojohnson(x, 0.5)))) + 0.5 * np.sum(np.log1p(np.abs(x)))
    _cmp(cst.yeojohnson_llf(0.5, G(x32)), sst.yeojohnson_llf(0.5, x32), 0, atol=2 * 60 * 6e-8 * scale, what="float32")


def test_estimates():
    rng = np.random.default_rng()
    x, z = _lognormal(rng), _mixed(rng, 50)
    y, lmax = cst.boxcox(G(x))
    assert isinstance(lmax, np.float64)
    _cmp(lmax, sst.boxcox(x)[1], 0, LMBDA_ATOL, "boxcox lmbda")
    _cmp(y, sst.boxcox(x, lmax), 1e-13, what="boxcox y")
    for method in ("pearsonr", "mle", "all"):
        _cmp(cst.boxcox_normmax(G(x), method=method), sst.boxcox_normmax(x, method=method), 0, LMBDA_ATOL, method)
    y, lmax = cst.yeojohnson(G(z))
    _cmp(lmax, sst.yeojohnson(z)[1], 0, LMBDA_ATOL, "yeojohnson lmbda")
    _cmp(y, sst.yeojohnson(z, lmax), 1e-13, what="yeojohnson y")
    _cmp(cst.yeojohnson_normmax(G(-x)), sst.yeojohnson_normmax(-x), 0, LMBDA_ATOL, "negative")
    _cmp(cst.yeojohnson_normmax(G(z), brack=(-1, 1)), sst.yeojohnson_normmax(z, brack=(-1, 1)), 0, LMBDA_ATOL, "brack")
    x32 = x.astype(np.float32)
    _cmp(cst.boxcox(G(x32))[1], sst.boxcox(x32)[1], 0, LMBDA_ATOL, "float32")


def test_interval_and_bound():
    rng = np.random.default_rng()
    x = _lognormal(rng)
    got, want = cst.boxcox(G(x), alpha=0.05), sst.boxcox(x, alpha=0.05)
    np.testing.assert_allclose(got[2], want[2], rtol=0, atol=LMBDA_ATOL)
    # left-skewed data: the optimum (> 3) takes max(x) ~ 49 past ymax, so the bound binds
    w = 50 - rng.lognormal(1, 0.5, size=50)
    with pytest.warns(UserWarning, match="constrained optimum"):
        got = cst.boxcox_normmax(G(w), method="mle", ymax=1e3)
    with pytest.warns(UserWarning):
        want = sst.boxcox_normmax(w, method="mle", ymax=1e3)
    _cmp(got, want, 1e-12, what="ymax")


def test_errors_and_nans():
    for f, a, kw in ((cst.boxcox, (G(np.ones((2, 3))),), {}), (cst.boxcox, (G(np.ones(3)),), {}),
                     (cst.boxcox, (G(np.array([1.0, -1, 2])),), {}), (cst.yeojohnson_normmax, (G(np.array([1.0, np.inf])),), {}),
                     (cst.boxcox_normmax, (G(np.array([1.0, 2])),), {"method": "foo"})):
        with pytest.raises(ValueError):
            f(*a, **kw)
    x = _lognormal(np.random.default_rng())
    x[3] = np.nan
    with pytest.raises(ValueError, match="nan"):
        cst.boxcox(G(x), nan_policy="raise")
    y, lmax = cst.yeojohnson(G(x))
    assert np.isnan(lmax) and np.isnan(cuarray.asnumpy(y)).all()
    if SCIPY_118:
        _cmp(cst.boxcox(G(x), nan_policy="omit")[1], sst.boxcox(x, nan_policy="omit")[1], 0, LMBDA_ATOL, "omit")
    _cmp(cst.boxcox(G(np.array([]))), sst.boxcox(np.array([])), 0, what="empty")
