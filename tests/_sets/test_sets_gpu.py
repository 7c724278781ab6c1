"""unique (every option, axis, NaN with and without equal_nan), unique_*, isin/in1d, intersect1d
(with indices), union1d, setdiff1d, setxor1d on the device against NumPy, bit for bit: every dtype,
duplicates, NaN/-0.0/inf, empty and 0-d inputs."""

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

ALL = [np.dtype(c) for c in "?bhiqBHIQefdFD"]
rng = np.random.default_rng()
D = cuarray.asarray


def make(dt, n, nans=True):
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    x = rng.integers(0, 40, n).astype(dt)
    if dt.kind in "fc" and n > 6 and nans:
        x[:4] = [np.nan, np.inf, np.nan, -np.inf]
        if dt.kind == "c":
            x[4] = complex(1, np.nan)
    return x


def same(got, want):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape, want.shape)
    np.testing.assert_array_equal(g, want)


def stable_unique(x, index, inverse, counts, **kw):
    """NumPy's unique with its stable sort. Without return_index NumPy sorts with quicksort, so
    which of several NaNs (equal_nan=False) gets which inverse index is arbitrary there; with
    return_index it uses mergesort, the order cuarray's stable sort gives."""
    res = np.unique(x, True, inverse, counts, **kw)
    return res if index else ((res[0],) + res[2:] if len(res) > 2 else res[0])


@pytest.mark.parametrize("dt", ALL, ids=testing.dtype_id)
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_options(dt, equal_nan):
    x = make(dt, 3000).reshape(30, 100)[:, ::2]
    for flags in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]:
        want = stable_unique(x, *flags, equal_nan=equal_nan)
        same(cuarray.unique(D(x), *flags, equal_nan=equal_nan), want)


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?iqfd"], ids=testing.dtype_id)
def test_unique_edge_and_forms(dt):
    for x in (make(dt, 0), make(dt, 1), np.array(make(dt, 1)[0])):
        same(cuarray.unique(D(x), True, True, True), np.unique(x, True, True, True))
    x = make(dt, 500)
    for name in ("unique_all", "unique_counts", "unique_inverse", "unique_values"):
        got, want = getattr(cuarray, name)(D(x)), getattr(np, name)(x)
        if name == "unique_values":
            same(got, np.sort(want))
        elif name == "unique_inverse":  # quicksort in NumPy (see stable_unique)
            same(tuple(got), stable_unique(x, False, True, False, equal_nan=False))
            assert tuple(got._fields) == tuple(want._fields)
        else:
            same(tuple(got), tuple(want))


@pytest.mark.parametrize("spec", ["M8[s]", "m8[h]"])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_datetime_nat(spec, equal_nan):
    """NaT with and without equal_nan: NumPy's hash-based unique (datetime64, values only) keeps one
    NaT even with equal_nan=False; its sort path (timedelta64, or any other output asked for) keeps
    every NaT unless equal_nan."""
    x = rng.integers(-50, 50, 400)
    x[rng.random(400) < 0.1] = np.iinfo(np.int64).min
    x = x.view(spec)
    # values only against NumPy's plain call: stable_unique asks for return_index, NumPy's sort path
    same(cuarray.unique(D(x), equal_nan=equal_nan), np.unique(x, equal_nan=equal_nan))
    for flags in [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]:
        same(cuarray.unique(D(x), *flags, equal_nan=equal_nan), stable_unique(x, *flags, equal_nan=equal_nan))
    same(cuarray.unique_values(D(x)), np.sort(np.unique_values(x)))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unique_axis(axis):
    x = rng.integers(0, 3, (40, 3)).astype(np.int32)
    x = x if axis == 0 else x.T
    same(cuarray.unique(D(x), True, True, True, axis=axis), np.unique(x, True, True, True, axis=axis))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bhiqfdFD"], ids=testing.dtype_id)
def test_isin(dt):
    e = make(dt, 1000).reshape(10, 100)
    t = make(dt, 37)[::2]
    for invert in (False, True):
        same(cuarray.isin(D(e), D(t), invert=invert), np.isin(e, t, invert=invert))
    same(cuarray.isin(D(e), D(t[:0])), np.isin(e, t[:0]))
    same(cuarray.isin(D(e.astype(np.float32)), D(np.array([3, 7]))), np.isin(e.astype(np.float32), [3, 7]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        same(cuarray.in1d(D(e), D(t)), np.isin(e, t).ravel())
    with pytest.raises(ValueError):
        cuarray.isin(D(e), D(t), kind="foo")


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bhiqBfdF"], ids=testing.dtype_id)
@pytest.mark.parametrize("assume_unique", [False, True])
def test_setops(dt, assume_unique):
    a, b = make(dt, 300), make(dt, 200)[5:]
    if assume_unique:
        a, b = np.unique(a), np.unique(b)
    da, db = D(a), D(b)
    same(cuarray.intersect1d(da, db, assume_unique), np.intersect1d(a, b, assume_unique))
    same(cuarray.intersect1d(da, db, assume_unique, return_indices=True),
         np.intersect1d(a, b, assume_unique, return_indices=True))
    same(cuarray.union1d(da, db), np.union1d(a, b))
    same(cuarray.setdiff1d(da, db, assume_unique), np.setdiff1d(a, b, assume_unique))
    same(cuarray.setxor1d(da, db, assume_unique), np.setxor1d(a, b, assume_unique))
    e = a[:0]
    for f in ("union1d", "setdiff1d", "setxor1d", "intersect1d"):
        same(getattr(cuarray, f)(D(e), db), getattr(np, f)(e, b))
        same(getattr(cuarray, f)(da, D(e)), getattr(np, f)(a, e))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_unique_values_keep_the_first_complex_nan(dt):
    """NumPy's values alone (unique, union1d) come from a hash set that keeps the input's first NaN
    (every complex NaN equal), not the sort's first (fuzz seed 11: unique kept -2.87 + nanj where
    NumPy keeps nan - 0.49j)."""
    n = np.nan
    for _ in range(10):
        x = rng.integers(-3, 3, 300).astype(dt)
        k = rng.random(x.size) < 0.3
        x.real[k & (rng.random(x.size) < 0.6)] = n
        x.imag[k & ~np.isnan(x)] = n
        x2 = x.reshape(20, 15)[::-1, 1::2]
        for xs, gs in ((x, D(x)), (x2, D(x).reshape(20, 15)[::-1, 1::2])):
            for kw in ({}, {"equal_nan": True}, {"equal_nan": False}):
                want, got = np.unique(xs, **kw), cuarray.unique(gs, **kw).get()
                assert got.shape == want.shape and np.array_equal(got.view(got.real.dtype), want.view(want.real.dtype),
                                                                  equal_nan=True), (kw, got[-3:], want[-3:])
        y = rng.integers(-5, 5, 7)
        want, got = np.union1d(x2, y), cuarray.union1d(D(x).reshape(20, 15)[::-1, 1::2], D(y)).get()
        assert got.shape == want.shape and np.array_equal(got.view(got.real.dtype), want.view(want.real.dtype),
                                                          equal_nan=True), (got[-3:], want[-3:])
