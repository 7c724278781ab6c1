"""percentile, quantile, nanpercentile, nanquantile on the device against NumPy, bit for bit:
every method, every real dtype, scalar/list/array q (weak and strong promotion), axes and
keepdims, out=, NaN rows, all-NaN rows, rows of one element, 0-d input; the radix selection
against a sort of the rows; NumPy's exceptions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._statistics import quantile_select  # noqa: E402

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
REAL = [np.dtype(c) for c in "bhiqBHIQefd"]
rng = np.random.default_rng()


def make(dt, shape, nans=0.0):
    if dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(max(info.min, -60), min(info.max, 60), shape).astype(dt)
        x.flat[:2] = [info.min, info.max] if x.size >= 2 else x.flat[:2]
        return x
    x = (np.round(rng.uniform(-30, 30, shape) * 4) / 4).astype(dt)
    if x.size > 3:
        x.flat[:3] = [-0.0, np.inf, -np.inf]
    if nans:
        x[rng.random(shape) < nans] = np.nan
    return x


def same(got, want):
    g = got.get() if isinstance(got, cuarray.ndarray) else got
    want = np.asarray(want)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape
    np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dt", REAL, ids=testing.dtype_id)
def test_methods_dtypes(method, dt):
    x = make(dt, (7, 33))
    for q in (0.0, 0.3, 1.0, [0.1, 0.5, 0.99]):
        for axis in (None, 1, 0):
            want = np.quantile(x, np.asarray(q) if isinstance(q, list) else q, axis=axis, method=method)
            same(cuarray.quantile(cuarray.asarray(x), q, axis=axis, method=method), want)


@pytest.mark.parametrize("name", ["percentile", "quantile", "nanpercentile", "nanquantile"])
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16], ids=str)
def test_nan_rows(name, dt):
    x = make(np.dtype(dt), (6, 5, 40), nans=0.1)
    x[1, 2] = np.nan  # an all-NaN row
    q = [0, 50, 90, 100] if "percent" in name else [0, 0.5, 0.9, 1.0]
    for axis, kd in ((2, False), ((0, 2), True), (None, False), (-1, True)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(np, name)(x, np.asarray(q), axis=axis, keepdims=kd)
            got = getattr(cuarray, name)(cuarray.asarray(x), q, axis=axis, keepdims=kd)
        same(got, want)


def test_q_forms_and_out():
    x = make(np.dtype(np.float32), (4, 50))
    d = cuarray.asarray(x)
    same(cuarray.percentile(d, 37.5), np.percentile(x, 37.5))
    same(cuarray.percentile(d, np.float64(37.5)), np.percentile(x, np.float64(37.5)))
    same(cuarray.percentile(d, cuarray.asarray(np.array([5.0, 95.0]))), np.percentile(x, np.array([5.0, 95.0])))
    same(cuarray.quantile(d, (0.2, 0.8), axis=1), np.quantile(x, (0.2, 0.8), axis=1))
    out = cuarray.empty((2, 4), np.float64)
    r = cuarray.quantile(d, [0.2, 0.8], axis=1, out=out)
    assert r is out
    same(out, np.quantile(x, [0.2, 0.8], axis=1))
    same(cuarray.quantile(cuarray.asarray(np.float32(3.5)), 0.5), np.quantile(np.float32(3.5), 0.5))
    same(cuarray.quantile(d[:, :1], 0.5, axis=1), np.quantile(x[:, :1], 0.5, axis=1))
    same(cuarray.quantile(d[::-1, ::3].T, 0.3, axis=0), np.quantile(x[::-1, ::3].T, 0.3, axis=0))


def test_select_against_sort_and_long_rows():
    for dt in (np.float32, np.int64, np.float64, np.int8):
        x = make(np.dtype(dt), (3, 200001))
        ranks = rng.integers(0, x.shape[1], (3, 20))
        got = quantile_select.select(cuarray.asarray(x), ranks).get()
        want = np.take_along_axis(np.sort(x, axis=1), ranks, axis=1)
        np.testing.assert_array_equal(got, want)
    x = make(np.dtype(np.float32), 1_000_003)
    same(cuarray.percentile(cuarray.asarray(x), [1, 50, 99]), np.percentile(x, [1, 50, 99]))


def test_errors():
    d = cuarray.asarray(np.arange(10.0))
    with pytest.raises(ValueError, match="Percentiles"):
        cuarray.percentile(d, 101)
    with pytest.raises(ValueError, match="Quantiles"):
        cuarray.quantile(d, [-0.1])
    with pytest.raises(ValueError, match="not a valid method"):
        cuarray.quantile(d, 0.5, method="foo")
    with pytest.raises(TypeError):
        cuarray.quantile(cuarray.asarray(np.ones(3, complex)), 0.5)
    with pytest.raises(np.exceptions.AxisError):
        cuarray.quantile(d, 0.5, axis=1)
    with pytest.raises(TypeError):
        cuarray.quantile(np.arange(3.0), 0.5)
