"""theilslopes without a GPU: the module on NumPy (stats_tests_host) against scipy.stats over a
grid (with and without x, ties in x and y, both methods, alpha on either side of 0.5, N-D along an
axis with broadcasting, axis None, keepdims, float32/int input, NaNs propagated/omitted/raised,
too few points, all x equal); the errors and the signature."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def T(stats_host):
    return stats_host["_theilslopes"].theilslopes


def _run(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return tuple(np.asarray(v) for v in f(*a, **k))


def _same(got, want, dtype=None, rtol=1e-12):
    """The slopes are the same quotients, so the median and the interval's ends (order statistics)
    agree to a rounding; the intercept is a difference of medians: compared to its terms' size."""
    scale = np.abs(want[0]) + np.abs(want[1]) + 1.0
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == np.shape(w), (k, g.shape, np.shape(w))
        assert g.dtype == (dtype or np.asarray(w).dtype), (k, g.dtype, np.asarray(w).dtype)
        if k == 1:
            g, w = g / scale, w / scale
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol if k == 1 else 0, equal_nan=True, err_msg=str(k))


@pytest.mark.parametrize("n", [2, 3, 10, 31])
@pytest.mark.parametrize("method", ["separate", "joint"])
def test_1d_as_scipy(T, n, method):
    rng = np.random.default_rng()
    x = rng.standard_normal(n)
    y = 2 * x + rng.standard_normal(n)
    for alpha in (0.95, 0.1):
        _same(_run(T, y, x, alpha, method), _run(sst.theilslopes, y, x, alpha, method))
        _same(_run(T, y, alpha=alpha, method=method), _run(sst.theilslopes, y, alpha=alpha, method=method))
    xt, yt = np.round(x * 2), np.round(y)  # ties in x (no slope for a pair) and in y: Sen's tie terms
    _same(_run(T, yt, xt, method=method), _run(sst.theilslopes, yt, xt, method=method))


@pytest.mark.parametrize("keepdims", [False, True])
def test_nd_as_scipy(T, keepdims):
    rng = np.random.default_rng()
    y, x = rng.standard_normal((3, 12, 4)), rng.standard_normal((1, 12, 4))
    for axis in (1, -2):
        for kw in ({}, {"x": x}):
            _same(_run(T, y, axis=axis, keepdims=keepdims, **kw), _run(sst.theilslopes, y, axis=axis, keepdims=keepdims, **kw))
    _same(_run(T, y[0, :, 0], x[0, :, 0], keepdims=keepdims), _run(sst.theilslopes, y[0, :, 0], x[0, :, 0], keepdims=keepdims))
    _same(_run(T, y[0], keepdims=keepdims), _run(sst.theilslopes, y[0], keepdims=keepdims))  # axis None: raveled


def test_dtypes_as_scipy(T):
    rng = np.random.default_rng()
    y = (rng.standard_normal(15) * 10).astype(np.int64)
    _same(_run(T, y), _run(sst.theilslopes, y))
    y32, x32 = rng.standard_normal(15).astype(np.float32), rng.standard_normal(15).astype(np.float32)
    # float32 kept (SciPy 1.18; 1.17 gave float64): the oracle is SciPy's on the float64 values, the
    # slopes' quotients differing by float32's rounding (~1e-7 relative), their order with them
    want = _run(sst.theilslopes, y32.astype(np.float64), x32.astype(np.float64))
    got = _run(T, y32, x32)
    assert all(g.dtype == np.float32 for g in got)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(T, policy):
    rng = np.random.default_rng()
    y, x = rng.standard_normal((9, 4)), rng.standard_normal((9, 4))
    y[rng.random(y.shape) < 0.2] = np.nan
    y[0, 0] = np.nan
    for kw in ({}, {"x": x}):
        _same(_run(T, y, axis=0, nan_policy=policy, **kw), _run(sst.theilslopes, y, axis=0, nan_policy=policy, **kw))
    with pytest.raises(ValueError):
        T(y, nan_policy="raise")


def test_small_and_degenerate_as_scipy(T):
    for args in ((np.array([1.0]),), (np.array([1.0, 2.0]), np.array([3.0, 3.0])), (np.ones(5),),
                 (np.arange(4.0), np.array([1.0, 1.0, 1.0, 2.0]))):
        _same(_run(T, *args), _run(sst.theilslopes, *args))


def test_errors_as_scipy(T):
    y = np.arange(5.0)
    for f in (T, sst.theilslopes):
        with pytest.raises(ValueError, match="method must be either 'joint' or 'separate'"):
            f(y, method="mean")
        with pytest.raises(ValueError):
            f(y, np.arange(4.0))


def test_signature_is_scipys():
    ours, theirs = inspect.signature(cst.theilslopes), inspect.signature(sst.theilslopes)
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
