"""stats.quantile on the GPU against scipy.stats: every method, weights, NaNs propagated and
omitted, p per slice and out of range, axis/None/keepdims, float32, strided input, empty slices."""

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
import scipy  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray
# SciPy 1.17's Harrell-Davis, once one slice is all NaN, NaNs every slice holding a NaN with 'omit'
# too; 1.18 and cuarray do not
HD_ALL_NAN_OK = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)
METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "harrell-davis", "_lower", "_midpoint",
           "_higher", "_nearest", "round_outward", "round_inward", "round_nearest")


def _cmp(got, want, dt, what):
    got, want = cuarray.asnumpy(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (what, got.shape, got.dtype, want.shape, want.dtype)
    # a lerp of two order statistics (a few ulps of values < 6); Harrell-Davis a sum of n <= 40
    # weighted values, weights summing to 1, betainc to ~1e-14 relative on the device
    np.testing.assert_allclose(got, want, rtol=0, atol=(1e-5 if dt == np.float32 else 1e-11), equal_nan=True,
                               err_msg=str(what))


def _scipy(*a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return sst.quantile(*a, **k)


@pytest.mark.parametrize("method", METHODS)
def test_methods_as_scipy(method):
    rng = np.random.default_rng()
    for dt in (np.float32, np.float64):
        x = rng.integers(0, 6, size=(4, 40)).astype(dt)  # ties
        x[rng.random(x.shape) < 0.05] = np.nan
        if method != "harrell-davis" or HD_ALL_NAN_OK:
            x[3, :] = np.nan  # a slice left empty by 'omit'
        x[0, :] = rng.random(40)  # a slice with no NaN
        p = rng.random((4, 3))
        p[1, 0], p[2, 1] = rng.choice([0.0, 1.0]), rng.choice([-0.5, 1.5, np.nan])
        for policy in ("propagate", "omit"):
            kw = dict(method=method, axis=-1, nan_policy=policy)
            _cmp(cst.quantile(G(x), G(p), **kw), _scipy(x, p, **kw), dt, (dt, kw))
            if method in METHODS[:9]:
                w = rng.integers(0, 3, size=x.shape).astype(dt)
                _cmp(cst.quantile(G(x), G(p), weights=G(w), **kw), _scipy(x, p, weights=w, **kw), dt, (dt, kw, "weights"))


@pytest.mark.parametrize("shape,p,kw", [
    ((4, 5), 0.3, {}), ((4, 5), 0.3, {"axis": None}), ((4, 5), [0.3, 0.6], {"axis": None, "keepdims": True}),
    ((4, 5, 3), [[[0.1]], [[0.9]]], {"axis": 0}), ((5,), [[0.1, 0.9], [0.2, 0.3]], {"axis": -1}),
    ((3, 5), 0.5, {"keepdims": True}), ((0,), 0.5, {}), ((2, 0), [0.5, 0.7], {"axis": -1}),
    ((6, 7), [[0.2, 0.7]], {"axis": 1, "method": "harrell-davis"}),
])
def test_shapes_as_scipy(shape, p, kw):
    x = np.random.default_rng().standard_normal(shape)
    pa = np.asarray(p)
    _cmp(cst.quantile(G(x), G(pa) if pa.ndim else p, **kw), _scipy(x, pa if pa.ndim else p, **kw), np.float64, kw)


def test_strided_int_and_lists():
    rng = np.random.default_rng()
    x = rng.integers(-5, 5, size=(30, 8))
    xs = G(x)[::2, ::-1]
    _cmp(cst.quantile(xs, 0.25, axis=0), _scipy(x[::2, ::-1], 0.25, axis=0), np.float64, "strided int")
    xf = np.asfortranarray(rng.random((7, 9)).astype(np.float32))
    _cmp(cst.quantile(G(xf), 0.5, axis=1), _scipy(xf, 0.5, axis=1), np.float32, "F-order float32")
    _cmp(cst.quantile([1.0, 2.0, 4.0], [0.5, 0.9]), _scipy([1.0, 2.0, 4.0], [0.5, 0.9]), np.float64, "lists")


def test_errors_as_scipy():
    x = G(np.ones(3))
    for p, kw in ((1, {}), (0.5, {"method": "x"}), (0.5, {"axis": 1}), (G(np.array([0.5, 0.6])), {"keepdims": False}),
                  (0.5, {"method": "_lower", "weights": G(np.ones(3))})):
        with pytest.raises(ValueError):
            cst.quantile(x, p, **kw)
    with pytest.raises(ValueError, match="nan"):
        cst.quantile(G(np.array([1.0, np.nan])), 0.5, nan_policy="raise")
    with pytest.raises(TypeError):
        cst.quantile(np.ones(3), 0.5)  # host data is not copied implicitly
