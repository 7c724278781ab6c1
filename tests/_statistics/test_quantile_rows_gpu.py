"""The short-row quantile route on the device against NumPy, bit for bit: the block-a-row
selection (`quantile_select.rows_plan` holds) and the sorted-rows take, with per-row and shared
ranks, more targets than one launch takes, rows at and past the shared-memory cap; percentile and
the nan-variants through it with every method, weak and array q, NaNs, ties, signed zeros,
non-contiguous input, axis tuples, keepdims and out=, by selection and by a sort."""

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
from cuarray._statistics import quantile_select as qs  # noqa: E402
from cuarray._statistics import quantiles  # noqa: E402

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
REAL = [np.dtype(c) for c in "?bhiqBHIQefd"]
rng = np.random.default_rng()


def make(dt, shape, nans=0.0, ties=False):
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(max(info.min, -60), min(info.max, 60), shape).astype(dt)
        x.flat[:2] = [info.min, info.max] if x.size >= 2 else x.flat[:2]
        return x
    x = np.round(rng.uniform(-3, 3, shape) * 4) / 4 if ties else rng.uniform(-30, 30, shape)
    x = x.astype(dt)
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


@pytest.fixture(params=["select", "sort"])
def route(request):
    saved = quantiles.order_statistics_by(request.param)
    yield request.param
    quantiles.order_statistics_by(saved)


def _cap(dt):
    return qs.ROW_KEYS_MAX // (8 if dt.itemsize == 8 else 4)


@pytest.mark.parametrize("dt", REAL, ids=testing.dtype_id)
def test_select_and_take_against_a_sort(dt):
    for rows, n in ((1, 1), (5, 2), (300, 128), (7, 1000), (3, _cap(dt)), (3, _cap(dt) + 1)):
        x = make(dt, (rows, n), nans=0.05, ties=True)
        srt = np.sort(x, axis=1)
        for shape in ((rows, 5), (1, 5), (rows, 37), (1, 17)):  # per-row / shared ranks, chunks of 16
            ranks = rng.integers(0, n, shape)
            want = np.take_along_axis(srt, np.broadcast_to(ranks, (rows, shape[1])), axis=1)
            np.testing.assert_array_equal(qs.select(cuarray.asarray(x), ranks).get(), want)
            np.testing.assert_array_equal(qs.take(cuarray.asarray(srt), ranks).get(), want)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dt", [np.dtype(c) for c in "bHqefd"], ids=testing.dtype_id)
def test_methods_on_many_short_rows(method, dt, route):
    x = make(dt, (2000, 33), nans=0.02 if dt.kind == "f" else 0, ties=True)
    d = cuarray.asarray(x)
    for q in (0.0, 0.3, 0.5, 1.0, [0.1, 0.5, 0.99], np.array([0.25, 0.75], np.float32)):
        qq = np.asarray(q) if isinstance(q, list) else q
        same(cuarray.quantile(d, q, axis=1, method=method), np.quantile(x, qq, axis=1, method=method))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16], ids=str)
def test_bench_shape_and_weak_q(dt, route):
    x = make(np.dtype(dt), (4096, 128))
    x[7, 3] = np.nan
    d = cuarray.asarray(x)
    for q in (50.0, 10.0, 99.9, 100.0, 0.0, 33.3333333):
        same(cuarray.percentile(d, q, axis=1), np.percentile(x, q, axis=1))
    same(cuarray.percentile(d, (10.0, 50.0, 90.0), axis=1), np.percentile(x, (10.0, 50.0, 90.0), axis=1))


@pytest.mark.parametrize("name", ["percentile", "nanpercentile", "quantile", "nanquantile"])
def test_layouts_axes_keepdims_out(name, route):
    x = make(np.dtype(np.float32), (6, 40, 50), nans=0.05)
    x[2, 3] = np.nan  # an all-NaN row along the last axis
    q = [0, 25, 50, 100] if "percent" in name else [0, 0.25, 0.5, 1.0]
    d = cuarray.asarray(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis, kd in ((2, False), ((0, 2), True), (1, False), (-1, True)):
            same(getattr(cuarray, name)(d, q, axis=axis, keepdims=kd), getattr(np, name)(x, np.asarray(q), axis=axis,
                                                                                      keepdims=kd))
        same(getattr(cuarray, name)(d[:, ::3, ::-2], q[1], axis=2), getattr(np, name)(x[:, ::3, ::-2], q[1], axis=2))
        out = cuarray.empty((4, 6, 40), np.float64)
        assert getattr(cuarray, name)(d, q, axis=2, out=out) is out
        same(out, getattr(np, name)(x, np.asarray(q), axis=2))


def test_small_and_empty(route):
    for x in (np.float32(2.5), np.array([3.0]), np.zeros((0, 4), np.float32), np.array([[np.nan, 1.0]])):
        d = cuarray.asarray(x)
        axis = None if x.ndim < 2 else 1
        same(cuarray.percentile(d, 40.0, axis=axis), np.percentile(x, 40.0, axis=axis))
        same(cuarray.percentile(d, [40.0], axis=axis), np.percentile(x, [40.0], axis=axis))
