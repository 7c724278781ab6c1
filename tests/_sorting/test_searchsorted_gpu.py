"""searchsorted and digitize on the device against NumPy: every dtype, both sides, sorter, NaN and
-0.0 data, queries of another dtype, empty and 0-d queries, long sorted arrays (past the shared
search tree), decreasing bins, and NumPy's exceptions."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

ALL = [np.dtype(c) for c in "?bhiqBHIQefdFD"]
rng = np.random.default_rng()


def data(dt, n):
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        return rng.integers(0, 100, n).astype(dt)
    x = np.round(rng.uniform(-50, 50, n)).astype(dt)
    if n > 4:
        x[:3] = [np.nan, -0.0, np.inf] if dt.kind == "f" else [complex(np.nan, 1), complex(1, np.nan), -0.0]
    return x


@pytest.mark.parametrize("dt", ALL, ids=testing.dtype_id)
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("n", [0, 1, 7, 1000, 5000])
def test_searchsorted(dt, side, n):
    a = np.sort(data(dt, n))
    v = data(dt, 3000).reshape(3, 1000, 1)[:, ::3]
    got = cuarray.searchsorted(cuarray.asarray(a), cuarray.asarray(v), side=side)
    np.testing.assert_array_equal(got.get(), np.searchsorted(a, v, side=side))
    assert got.dtype == np.int64


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "bif"], ids=testing.dtype_id)
def test_sorter_and_method(dt):
    a = data(dt, 3000)
    s = np.argsort(a, kind="stable")
    v = data(dt, 500)
    for side in ("left", "right"):
        got = cuarray.asarray(a).searchsorted(cuarray.asarray(v), side=side, sorter=cuarray.asarray(s.astype(np.int32)))
        np.testing.assert_array_equal(got.get(), np.searchsorted(a, v, side=side, sorter=s))


def test_mixed_dtypes_and_scalars():
    a = np.array([1, 2, 3], dtype=np.int8)
    d = cuarray.asarray(a)
    for v in (300, 2.5, -1, True):
        assert int(cuarray.searchsorted(d, v).get()) == np.searchsorted(a, v)
    u = np.array([1, 5, 2**63], dtype=np.uint64)
    q = np.array([-1, 3], dtype=np.int64)
    np.testing.assert_array_equal(cuarray.searchsorted(cuarray.asarray(u), cuarray.asarray(q)).get(),
                                  np.searchsorted(u, q))
    assert cuarray.searchsorted(d, cuarray.asarray(np.zeros((0, 3)))).shape == (0, 3)


def test_errors():
    d = cuarray.asarray(np.arange(4.0))
    with pytest.raises(ValueError, match="search side"):
        cuarray.searchsorted(d, 1.0, side="l")
    with pytest.raises(ValueError):
        cuarray.searchsorted(d.reshape(2, 2), 1.0)
    with pytest.raises(ValueError):
        cuarray.searchsorted(cuarray.asarray(np.float64(1.0)), 1.0)
    with pytest.raises(ValueError, match="sorter.size"):
        cuarray.searchsorted(d, 1.0, sorter=cuarray.asarray(np.arange(3)))
    with pytest.raises(TypeError):
        cuarray.searchsorted(d, 1.0, sorter=cuarray.asarray(np.arange(4.0)))
    with pytest.raises(TypeError):
        cuarray.searchsorted(np.arange(3), 1)


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("bins", [[0.0, 1.0, 2.5, 4.0, 10.0], [10.0, 4.0, 2.5, 1.0, 0.0], [1.0, 1.0, 2.0], [3.0]])
def test_digitize(right, bins):
    x = np.array([0.2, 6.4, 3.0, 1.6, 10.0, -1.0, 1.0, 2.5, np.nan, 11.0])
    b = np.array(bins)
    got = cuarray.digitize(cuarray.asarray(x), cuarray.asarray(b), right=right)
    np.testing.assert_array_equal(got.get(), np.digitize(x, b, right=right))


def test_digitize_errors():
    with pytest.raises(ValueError, match="monotonically"):
        cuarray.digitize(cuarray.asarray(np.arange(3.0)), cuarray.asarray(np.array([1.0, 3.0, 2.0])))
    with pytest.raises(TypeError):
        cuarray.digitize(cuarray.asarray(np.ones(3, complex)), cuarray.asarray(np.arange(3.0)))


@pytest.mark.parametrize("bins", [[1.0, 2.0, np.nan], [1.0, np.nan, 2.0], [np.nan, np.nan], [2.0, 2.0, np.nan, 1.0],
                                  [np.nan, 1.0, 2.0], [3.0, 3.0, 2.0, np.nan]])
def test_digitize_nan_bins_as_numpy(bins):
    # NumPy's monotonicity scan accepts some bins with NaN (and calls [1, nan, 2] decreasing).
    x = np.random.default_rng().uniform(-1, 4, 20)
    b = np.array(bins)
    try:
        want = np.digitize(x, b)
    except ValueError:
        with pytest.raises(ValueError, match="monotonically"):
            cuarray.digitize(cuarray.asarray(x), cuarray.asarray(b))
        return
    np.testing.assert_array_equal(cuarray.digitize(cuarray.asarray(x), cuarray.asarray(b)).get(), want)
