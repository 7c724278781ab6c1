"""sort, argsort, lexsort, sort_complex, partition, argpartition and the ndarray methods on the
device against NumPy's stable sort, bit for bit: every dtype, NaN/inf/-0.0 data and complex NaN
classes, ties, lengths through the block tiles and the device-wide path (and its pass skipping),
axes, layouts, empty and 0-d inputs, NumPy's errors. Fresh random data seeded by the test id."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray._core import sort as engine  # noqa: E402

ALL = [np.dtype(c) for c in "?bhiqBHIQefdFD"]


def seed_of(request) -> int:
    return zlib.crc32(request.node.nodeid.encode()) + np.random.SeedSequence().entropy % 1000


def make(dt, shape, seed, small=True):
    """Ties (small ranges), extremes, NaNs of both signs, -0.0, infs; complex NaN classes."""
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (max(info.min, -40), min(info.max, 40)) if small else (info.min, info.max)
        x = rng.integers(lo, hi, shape, endpoint=True, dtype=dt)
        if x.size > 4:
            x.flat[:2] = [info.min, info.max]
        return x
    x = np.round(rng.uniform(-30, 30, shape) * 2) / 2 if small else rng.standard_normal(shape) * 1e3
    if dt.kind == "c":
        x = x + 1j * (np.round(rng.uniform(-3, 3, shape)) if small else rng.standard_normal(shape))
    x = x.astype(dt)
    if x.size:
        flat = x.reshape(-1)
        k = max(1, flat.size // 17)
        idx = rng.choice(flat.size, size=min(flat.size, 6 * k), replace=False)
        part = np.array_split(idx, 6)
        if dt.kind == "c":
            r, i = flat.real.copy(), flat.imag.copy()
            r[part[0]] = np.nan
            i[part[1]] = np.nan
            r[part[2]] = -0.0
            i[part[3]] = -0.0
            r[part[4]] = np.inf
            i[part[5]] = -np.nan
            flat[:] = r + 1j * i
            flat.real[part[1][: len(part[1]) // 2]] = np.nan  # both parts NaN
        else:
            flat[part[0]] = np.nan
            flat[part[1]] = -np.nan
            flat[part[2]] = -0.0
            flat[part[3]] = 0.0
            flat[part[4]] = np.inf
            flat[part[5]] = -np.inf
    return x


def check_same(np_res, cu_res, nan_bits=True):
    """Equal dtype, shape and bits (`nan_bits=False`: NaNs need only be where NumPy's are)."""
    got = np.ascontiguousarray(cu_res.get())  # bytes compared in C order, whatever the layouts
    np_res = np.ascontiguousarray(np_res)
    assert got.dtype == np_res.dtype and got.shape == np_res.shape
    if not nan_bits and got.dtype.kind in "fc":
        for part in ((lambda v: v.real), (lambda v: v.imag)) if got.dtype.kind == "c" else ((lambda v: v),):
            g, e = part(got), part(np_res)
            np.testing.assert_array_equal(np.isnan(g), np.isnan(e))
            np.testing.assert_array_equal(np.where(np.isnan(g), 0, g).view("u1"), np.where(np.isnan(e), 0, e).view("u1"))
        return
    np.testing.assert_array_equal(got.view("u1") if got.dtype.kind in "fc" else got,
                                  np_res.view("u1") if np_res.dtype.kind in "fc" else np_res)


LENGTHS = [0, 1, 2, 7, 100, 513, 4096, 8192, 9000, 70000]


@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("n", LENGTHS)
def test_sort_argsort_1d(request, dt, n):
    x = make(dt, (n,), seed_of(request), small=n % 2 == 0)
    a = cuarray.asarray(x)
    check_same(np.argsort(x, kind="stable"), cuarray.argsort(a))
    check_same(np.sort(x, kind="stable"), cuarray.sort(a))


@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("shape,axis", [((3, 5), -1), ((40, 300), 1), ((6, 5000), -1), ((3, 9000), -1),
                                        ((5, 40, 7), 1), ((200, 3), 0), ((4, 6), None), ((2, 3, 4), 0),
                                        ((0, 5), -1), ((5, 0), 0)])
def test_axes(request, dt, shape, axis):
    x = make(dt, shape, seed_of(request))
    a = cuarray.asarray(x)
    check_same(np.sort(x, axis=axis, kind="stable"), cuarray.sort(a, axis=axis))
    check_same(np.argsort(x, axis=axis, kind="stable"), cuarray.argsort(a, axis=axis))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "ifdD"], ids=str)
def test_layouts(request, dt):
    x = make(dt, (30, 700), seed_of(request))
    a = cuarray.asarray(x)
    for sl in [np.s_[::-1, ::2], np.s_[:, ::-3], np.s_[5:20, 100:]]:
        check_same(np.sort(x[sl], kind="stable"), cuarray.sort(a[sl]))
        check_same(np.argsort(x[sl], axis=0, kind="stable"), cuarray.argsort(a[sl], axis=0))
    check_same(np.sort(x.T, kind="stable"), cuarray.sort(a.T))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "bqQd"], ids=str)
def test_device_wide_pass_skipping(request, dt):
    n = 300000
    rng = np.random.default_rng(seed_of(request))
    cases = [np.full(n, 3, dt), (np.arange(n) % 200).astype(dt), rng.integers(0, 2, n).astype(dt) * 7,
             np.arange(n)[::-1].astype(dt)]
    for x in cases:
        a = cuarray.asarray(x)
        check_same(np.sort(x, kind="stable"), cuarray.sort(a))
        check_same(np.argsort(x, kind="stable"), cuarray.argsort(a))


def test_wide_random_keys(request):
    rng = np.random.default_rng(seed_of(request))
    for dt in ("i8", "u8", "f8", "f4", "e"):  # every bit pattern: NaNs of all payloads too
        x = rng.integers(-2**63, 2**63 - 1, 200000, dtype=np.int64, endpoint=True).view(dt)
        a = cuarray.asarray(x)
        check_same(np.sort(x, kind="stable"), cuarray.sort(a))
        check_same(np.argsort(x, kind="stable"), cuarray.argsort(a))


def test_portions_over_2_28():
    n = 2**28 + 12345
    a = (cuarray.arange(n, dtype=np.int32) * 7919) % 1000003
    s = cuarray.sort(a)
    assert bool(cuarray.all(s[1:] >= s[:-1]))
    p = cuarray.argsort(a)
    assert bool(cuarray.all(a[p] == s))
    assert int(cuarray.sum(p)) == n * (n - 1) // 2


def test_zero_d_and_errors():
    x = np.array(3.5)
    a = cuarray.asarray(x)
    check_same(np.sort(x, axis=None), cuarray.sort(a, axis=None))
    check_same(np.argsort(x), cuarray.argsort(a))
    with pytest.raises(np.exceptions.AxisError):
        cuarray.sort(a)
    b = cuarray.arange(6).reshape(2, 3)
    with pytest.raises(np.exceptions.AxisError):
        cuarray.sort(b, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        cuarray.argsort(b, axis=-3)
    with pytest.raises(ValueError):
        cuarray.sort(b, kind="foo")
    with pytest.raises(ValueError):
        cuarray.sort(b, kind="quicksort", stable=True)
    with pytest.raises(ValueError):
        cuarray.sort(b, order="x")
    with pytest.raises(TypeError):
        cuarray.sort(np.arange(3))
    for k in ("quicksort", "mergesort", "heapsort", "stable", "Q"):
        check_same(np.sort(np.arange(6).reshape(2, 3)), cuarray.sort(b, kind=k))
    with pytest.raises(ValueError):
        cuarray.partition(b, 3)
    with pytest.raises(TypeError):
        cuarray.partition(b, 1.0)
    with pytest.raises(ValueError):
        cuarray.partition(b, 1, kind="foo")
    with pytest.raises(TypeError):
        cuarray.lexsort([])
    with pytest.raises(ValueError):
        cuarray.lexsort([cuarray.arange(3), cuarray.arange(4)])


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?hqefFD"], ids=str)
def test_methods_in_place(request, dt):
    x = make(dt, (7, 900), seed_of(request))
    a = cuarray.asarray(x)
    v = a[:, ::2]
    v.sort(axis=0)
    xv = x.copy()
    xv[:, ::2].sort(axis=0, kind="stable")
    check_same(xv, a)
    check_same(np.argsort(x, kind="stable"), cuarray.asarray(x).argsort())
    y = cuarray.asarray(x)
    y.partition(3)
    check_same(np.sort(x, kind="stable"), y)
    check_same(np.argsort(x, axis=0, kind="stable"), cuarray.asarray(x).argpartition((1, 5), axis=0))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "bhBHiefdFD?"], ids=str)
def test_sort_complex(request, dt):
    x = make(dt, (500,), seed_of(request))
    got = cuarray.sort_complex(cuarray.asarray(x))
    want = np.sort_complex(x)
    # NumPy's sort_complex uses its unstable default sort: -0.0/+0.0 ties may come out in any
    # order there. Values against it; bits against the stable sort of NumPy's cast.
    np.testing.assert_array_equal(got.get(), want)
    stable = np.sort(x.astype(want.dtype), kind="stable")
    # NaN payloads after the cast to complex may differ (the cast is not the sort's)
    check_same(stable, got, nan_bits=dt.kind == "c")


@pytest.mark.parametrize("shape", [(50,), (4, 3000), (3, 20000), (2, 3, 10)])
def test_lexsort(request, shape):
    rng = np.random.default_rng(seed_of(request))
    keys = [rng.integers(0, 3, shape).astype(np.int8), make(np.dtype("f"), shape, seed_of(request)),
            make(np.dtype("F"), shape, seed_of(request) + 1), rng.integers(0, 4, shape).astype(np.uint64)]
    check_same(np.lexsort(keys), cuarray.lexsort([cuarray.asarray(k) for k in keys]))
    check_same(np.lexsort(keys[:1]), cuarray.lexsort([cuarray.asarray(keys[0])]))
    if len(shape) > 1:
        check_same(np.lexsort(keys, axis=0), cuarray.lexsort([cuarray.asarray(k) for k in keys], axis=0))


@pytest.mark.parametrize("kdt,vdt", [("f", "q"), ("e", "D"), ("q", "b"), ("D", "f"), ("i", "H")])
def test_sort_pairs(request, kdt, vdt):
    k = make(np.dtype(kdt), (50000,), seed_of(request))
    v = make(np.dtype(vdt), (50000,), seed_of(request) + 1)
    ks, vs = engine.sort_pairs(cuarray.asarray(k), cuarray.asarray(v))
    order = np.argsort(k, kind="stable")
    check_same(k[order], ks)
    check_same(v[order], vs)
