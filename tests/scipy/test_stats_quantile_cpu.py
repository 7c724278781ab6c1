"""stats.quantile without a GPU: the module on NumPy (stats_tests_host) against scipy.stats:
every method, frequency weights (zeros included), NaNs propagated and omitted, p out of [0, 1],
p broadcast per slice, axis/None/keepdims, empty slices, dtypes; its errors and signature."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
import scipy  # noqa: E402

from cuarray.scipy import stats as cst  # noqa: E402

METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "harrell-davis", "_lower", "_midpoint",
           "_higher", "_nearest", "round_outward", "round_inward", "round_nearest")
WEIGHTED = METHODS[:9]
# SciPy 1.17's Harrell-Davis, once one slice is all NaN, NaNs every slice holding a NaN with 'omit'
# too (it skips zeroing the NaNs there); 1.18 and cuarray do not
HD_ALL_NAN_OK = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_quantile"].quantile


def _same(got, want, dt):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    # a quantile is a lerp of two order statistics (a few ulps); Harrell-Davis a weighted sum of
    # n <= 9 of them with weights summing to 1 (n ulps of the largest |value|, here < 6)
    np.testing.assert_allclose(got, want, rtol=0, atol=(1e-5 if dt == np.float32 else 1e-12), equal_nan=True)


def _both(H, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # SciPy's 0 * inf in a masked lerp
        return H(*a, **k), sst.quantile(*a, **k)


@pytest.mark.parametrize("method", METHODS)
def test_as_scipy(H, method):
    rng = np.random.default_rng()
    for dt in (np.float32, np.float64):
        x = rng.integers(0, 6, size=(3, 9)).astype(dt)  # ties
        x[rng.random(x.shape) < 0.15] = np.nan
        if method != "harrell-davis" or HD_ALL_NAN_OK:
            x[2, :] = np.nan  # a slice left empty by 'omit'
        p = rng.random((3, 2))
        p[0, 0], p[1, 1] = rng.choice([0.0, 1.0]), rng.choice([-0.5, 1.5, np.nan])
        for policy in ("propagate", "omit"):
            _same(*_both(H, x, p, method=method, axis=-1, nan_policy=policy), dt)
            if method in WEIGHTED:
                w = rng.integers(0, 3, size=x.shape).astype(dt)  # zero weights too
                _same(*_both(H, x, p, method=method, axis=-1, nan_policy=policy, weights=w), dt)


CASES = [
    ((4, 5), 0.3, {}), ((4, 5), 0.3, {"axis": None}), ((4, 5), [0.3, 0.6], {"axis": None, "keepdims": True}),
    ((4, 5), 0.3, {"axis": None, "keepdims": True}), ((4, 5), [[0.3], [0.5]], {"axis": None}),
    ((4, 5), [0.3], {"axis": 1, "keepdims": False}), ((4, 5, 3), [[0.3, 0.2, 0.1]], {"axis": 1}),
    ((4, 5, 3), [[[0.1]], [[0.9]]], {"axis": 0}), ((5,), [[0.1, 0.9], [0.2, 0.3]], {"axis": -1}),
    ((5,), [[0.1], [0.2]], {"axis": -1}), ((3, 5), 0.5, {"keepdims": True}), ((0,), 0.5, {}),
    ((2, 0), [0.5, 0.7], {"axis": -1}), ((1,), 0.5, {"method": "harrell-davis"}),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_shapes_as_scipy(H, case):
    shape, p, kw = CASES[case]
    x = np.random.default_rng().standard_normal(shape)
    _same(*_both(H, x, np.asarray(p), **kw), np.float64)


def test_dtypes_as_scipy(H):
    rng = np.random.default_rng()
    for x, p, kw in ((np.arange(6), 0.5, {}), (np.arange(6, dtype=np.int8), np.float32(0.5), {}),
                     (rng.random(5).astype(np.float32), 0.5, {}), (rng.random(5).astype(np.float32), [0.5], {}),
                     (rng.random(5).astype(np.float32), 0.5, {"weights": np.ones(5, np.float32)}),
                     (rng.random(5).astype(np.float32), 0.5, {"weights": np.ones(5)}),
                     (rng.random(5), 0.5, {"weights": [1, 2, 0, 1, 1]}),
                     (rng.random((3, 5)), 0.5, {"weights": np.array([1, 2, 0, 1, 1.0]), "axis": -1})):
        _same(*_both(H, x, p, **kw), np.float64)


ERRORS = [
    (np.ones(3), 1, {}), (np.ones(3), [1, 2], {}), (np.array([1 + 1j]), 0.5, {}), (np.ones(3), 0.5, {"method": "x"}),
    (np.ones(3), 0.5, {"axis": 1}), (np.ones(3), 0.5, {"axis": 1.5}), (np.ones(3), [0.5, 0.6], {"keepdims": False}),
    (np.ones(3), 0.5, {"keepdims": 3}), (np.ones(3), 0.5, {"method": "_lower", "weights": np.ones(3)}),
    (np.array([1, np.nan]), 0.5, {"nan_policy": "raise"}), (np.ones(3), 0.5, {"weights": np.ones(3) * 1j}),
    (np.ones((2, 3)), np.ones((3, 1)) / 2, {"axis": 1}),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_scipy(H, case):
    x, p, kw = ERRORS[case]
    with pytest.raises(ValueError) as theirs:
        sst.quantile(x, p, **kw)
    with pytest.raises(ValueError) as ours:
        H(x, p, **kw)
    if "method" not in str(theirs.value):  # the set of methods prints in no fixed order
        assert str(ours.value) == str(theirs.value)


def test_signature_is_scipys():
    ours, theirs = inspect.signature(cst.quantile), inspect.signature(sst.quantile)
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
