"""max/min/amax/amin/ptp and maximum.reduce/minimum.reduce of complex input holding several NaNs per slice, on the GPU: NumPy's
NaN (the first its iterator meets: the reduced axes by decreasing |stride|, each in its own
direction), over layouts, axes, keepdims, where=/initial=/out= and sizes past one block; the
fuzz cases of seed 11. The same pass on the host: test_complex_minmax_nan_cpu.py."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu


def _same(got, want):
    g, w = np.atleast_1d(got), np.atleast_1d(want)
    return (g.shape == w.shape and g.dtype == w.dtype and np.array_equal(g.real, w.real, equal_nan=True)
            and np.array_equal(g.imag, w.imag, equal_nan=True))


def _with_nans(rng, shape, dt, p=0.35):
    x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    nan = rng.random(shape) < p
    x.real[nan & (rng.random(shape) < 0.6)] = np.nan
    x.imag[nan & (rng.random(shape) < 0.6)] = np.nan
    x.real[nan & ~np.isnan(x)] = np.nan
    return x


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_first_nan_over_layouts_and_axes(dt):
    rng = np.random.default_rng()
    bad = []
    for _ in range(40):
        nd = int(rng.integers(1, 5))
        x = _with_nans(rng, tuple(int(n) for n in rng.integers(1, 6, nd)), dt)
        perm = tuple(int(i) for i in rng.permutation(nd))
        flips = tuple(slice(None, None, -1) if rng.random() < 0.4 else slice(None) for _ in range(nd))
        y = x.transpose(perm)[flips]
        gy = cp.asarray(x).transpose(perm)[flips]
        if rng.random() < 0.3:
            y, gy = np.asfortranarray(y), cp.asfortranarray(gy)
        k = int(rng.integers(0, nd + 1))
        axis = None if k == 0 else tuple(int(i) for i in sorted(rng.choice(nd, int(rng.integers(1, nd + 1)),
                                                                            replace=False)))
        keepdims = bool(rng.random() < 0.3)
        for name in ("max", "min", "amax", "amin", "maximum.reduce", "minimum.reduce"):
            want = functools.reduce(getattr, name.split("."), np)(y, axis=axis, keepdims=keepdims)
            got = functools.reduce(getattr, name.split("."), cp)(gy, axis=axis, keepdims=keepdims).get()
            if not _same(got, want):
                bad.append((name, y.shape, y.strides, axis, keepdims, got, want))
    assert not bad, "{} differ, first: {}".format(len(bad), bad[:3])


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_first_nan_large_and_keywords(dt):
    rng = np.random.default_rng()
    x = _with_nans(rng, (300, 513), dt, p=0.01)  # rows and a whole array past one block
    for arr, garr in ((x, cp.asarray(x)), (x.T, cp.asarray(x).T), (x[::-1, ::2], cp.asarray(x)[::-1, ::2])):
        for kw in ({}, {"axis": 0}, {"axis": 1}, {"axis": (0, 1), "keepdims": True}):
            for name in ("max", "min"):
                want, got = getattr(np, name)(arr, **kw), getattr(cp, name)(garr, **kw).get()
                assert _same(got, want), (name, arr.strides, kw, got, want)
        assert _same(cp.ptp(garr, axis=0).get(), np.ptp(arr, axis=0))
        assert _same(garr.max(axis=1).get(), arr.max(axis=1))
    w = rng.random(x.shape) < 0.5
    gx, gw = cp.asarray(x), cp.asarray(w)
    for kw in ({"axis": 0}, {"axis": 1}, {}):
        assert _same(cp.max(gx, where=gw, initial=0, **kw).get(), np.max(x, where=w, initial=0, **kw)), kw
        nan0 = complex(np.nan, 7)
        assert _same(cp.min(gx, initial=nan0, **kw).get(), np.min(x, initial=nan0, **kw)), kw
    out = cp.empty(x.shape[1], dt)
    assert cp.max(gx, axis=0, out=out) is out and _same(out.get(), np.max(x, axis=0))


def test_fuzz_seed_11_cases():
    n = np.nan
    a = np.array([-3.4028234663852886e+38, -0.2645721137523651, complex(0.04895385727286339, n),
                  1.1920928955078125e-07 + 1.2454955577850342j, complex(-1.7990247011184692, n), 3.764604091644287,
                  -1.0548887252807617, 1.2454955577850342j, -1.5, 3.2027292251586914 + 1.2454955577850342j],
                 np.complex64).reshape(2, 5)
    assert _same(cp.min(cp.asarray(a).T).get(), np.min(a.T))
    b = np.array([1, 1.877 - 1.877j, 3.4e38j, 0, complex(n, 0), 3.79 - 3.03j, complex(0, n), complex(n, 0),
                  -1.08 - 1.08j, -2.86 - 3.03j, complex(1, n), complex(-0.0, -np.inf), complex(np.inf, n),
                  2.02 - 2.02j, 0, complex(-np.inf, -np.inf)], np.complex64).reshape(2, 2, 4)
    assert _same(cp.amin(cp.asarray(b)[1:2, 1::-1, 3::-1], axis=None).get(), np.amin(b[1:2, 1::-1, 3::-1], axis=None))
