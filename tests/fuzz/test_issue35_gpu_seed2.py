"""Mismatches the GPU fuzzer found in the issue35b rows (seed 2, an H100, NumPy 2.5.2), as
regression tests: the CPU tests run cuarray's host path with no device (`host_path`,
tests/fuzz/conftest.py), the `gpu` tests compare values with NumPy. (What was not cuarray's fault
is in fuzz_regressions / fuzz_checks, tested in test_fuzz_cpu.py.)"""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
from cuarray._core import scan
from test_issue35_rows import _agrees


# -- place on a view that is not C-contiguous writes the view (it wrote into a reshaped copy) -----

_PLACE_VIEWS = {"transposed": lambda xp, a: a.reshape(2, 3).T, "negative-stride": lambda xp, a: a[::-1],
                "transposed-reversed": lambda xp, a: a.reshape(3, 2)[::-1].T}


@pytest.mark.parametrize("view", sorted(_PLACE_VIEWS))
@pytest.mark.parametrize("nvals", [1, 3])
def test_place_writes_into_a_non_contiguous_view(host_path, monkeypatch, view, nvals):
    # no NVRTC on the fake device: each scan kernel a placeholder, launched through its declaration
    monkeypatch.setattr(scan.ScanOp, "kernel", lambda self, layout, *a: scan.SCAN.bind(
        layout, ("scan", layout) + a, {t: scan._ctype(d) for t, d in (("in_t", self.in_dtype),
                                                                        ("out_t", self.out_dtype),
                                                                        ("acc_t", self.acc_dtype))}))
    a = _PLACE_VIEWS[view](cp, cp.empty(6, np.int16))
    cp.place(a, cp.empty(a.shape, bool), cp.empty(nvals, np.int16))
    kernel, args = host_path[-1][2], host_path[-1][3:]
    assert kernel[0].startswith("cuarray_copyto_where_")
    assert a.data.ptr in args  # the masked copy's output is the view's own memory


@pytest.mark.gpu
@pytest.mark.parametrize("view", sorted(_PLACE_VIEWS))
@pytest.mark.parametrize("nvals", [1, 2, 3, 7])
def test_place_into_a_non_contiguous_view_values(view, nvals):
    rng = np.random.default_rng(352)
    base = rng.integers(-100, 100, 6).astype(np.int16)
    vals = rng.integers(-100, 100, nvals).astype(np.int16)
    for _ in range(4):
        expected = _PLACE_VIEWS[view](np, base.copy())
        mask = rng.random(expected.shape) < 0.5
        np.place(expected, mask, vals)
        got = _PLACE_VIEWS[view](cp, cp.asarray(base))
        cp.place(got, cp.asarray(mask), cp.asarray(vals))
        np.testing.assert_array_equal(got.get(), expected)
    # the fuzzer's case: a mask of another shape (paired in C order) and bool values
    a = np.array([7, 7, 0, 8, -5, -7], np.int16).reshape(2, 3)
    m = np.array([True, False, False, False, True, False]).reshape(3, 2)
    v = np.array([True, False, True])
    ga = cp.asarray(a)
    np.place(a.T, m, v)
    cp.place(ga.T, cp.asarray(m), cp.asarray(v))
    np.testing.assert_array_equal(ga.get(), a)


@pytest.mark.parametrize("arr", ["list", "read-only"])
def test_place_refuses_what_numpy_refuses(host_path, arr):
    def call(xp):
        a = xp.zeros(3) if arr == "read-only" else [0.0, 0.0, 0.0]
        if arr == "read-only":
            a.flags.writeable = False
        xp.place(a, xp.zeros(3, bool), xp.ones(1))
    with pytest.raises(Exception) as want:
        call(np)
    with pytest.raises(type(want.value)):
        call(cp)


# -- ravel_multi_index of strided coordinate arrays (the nd kernel failed to compile) -----------

@pytest.mark.gpu
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_multi_index_of_strided_coordinates(mode, order):
    rng = np.random.default_rng(353)
    dims = (3, 2, 5)
    span = 1 if mode == "raise" else 3  # wrap/clip: coordinates beyond both ends too
    coords = [rng.integers(-(span - 1) * d, span * d, (4, 6)) for d in dims]
    # a transposed, a reversed-and-transposed, and a broadcast column (the fuzzer's case: transposed)
    views = [lambda c: c.T, lambda c: c[::-1].T, lambda c: c[1:2, ::-1].T]

    def call(xp):
        return xp.ravel_multi_index([v(xp.asarray(c)) for v, c in zip(views, coords)], dims, mode=mode, order=order)
    expected = call(np)
    got = call(cp)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.get(), expected)
    for view in views[:2]:  # 2-d, as the fuzzer's
        two = [view(c) for c in coords[:2]]
        np.testing.assert_array_equal(
            cp.ravel_multi_index([cp.asarray(c) for c in two], dims[:2], mode=mode, order=order).get(),
            np.ravel_multi_index(two, dims[:2], mode=mode, order=order))


# -- iter() of a 0-d array raises at once, so iterable() is False (the generator raised at next()) --

@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0), (1, 2, 3)])
def test_iterable_and_iter_as_numpy(host_path, shape):
    a, h = cp.empty(shape, np.float16), np.empty(shape, np.float16)
    assert cp.iterable(a) is np.iterable(h)
    if shape:
        assert len(list(iter(a))) == shape[0]
        assert [x.shape for x in a] == [x.shape for x in h]
    else:
        with pytest.raises(TypeError, match="iteration over a 0-d array"):
            iter(a)


# -- average: the axis is checked first (a 0-d array has no axis 0), weights along several axes ---

@pytest.mark.parametrize("shape,wshape,axis", [
    ((), (), 0), ((), None, 0), ((), (), -1), ((), None, (0,)), ((3,), (3,), 1), ((3,), None, (0, 0)),
    ((2, 3, 4), (4, 2), (2, 0)), ((2, 3, 4), (2, 4), (2, 0)), ((2, 3, 4), (3,), 1), ((2, 3, 4), (3,), 0),
    ((2, 3, 4), (3, 1), 1), ((2, 3), (3,), None), ((2, 3), (3, 2), (1, 0)), ((2, 3), (2, 3), (0, 5))])
@pytest.mark.parametrize("returned", [False, True])
def test_average_checks_as_numpy(host_path, shape, wshape, axis, returned):
    def call(xp):
        w = None if wshape is None else xp.ones(wshape, np.float16)
        r = xp.average(xp.ones(shape, np.int64), axis=axis, weights=w, returned=returned)
        return r[0] if returned else r
    _agrees(call)


@pytest.mark.gpu
@pytest.mark.parametrize("wshape,axis", [((4, 2), (2, 0)), ((2, 4), (0, 2)), ((3,), 1), ((3,), -2), ((2, 3, 4), None)])
def test_average_weights_along_axes_values(wshape, axis):
    rng = np.random.default_rng(354)
    a = rng.standard_normal((2, 3, 4))
    w = rng.random(wshape) + 0.5
    for returned in (False, True):
        expected = np.average(a, axis=axis, weights=w, returned=returned)
        got = cp.average(cp.asarray(a), axis=axis, weights=cp.asarray(w), returned=returned)
        pairs = zip(expected, got) if returned else [(expected, got)]
        for e, g in pairs:
            assert g.shape == np.shape(e) and g.dtype == e.dtype
            np.testing.assert_allclose(g.get(), e, rtol=1e-12)


# -- fftshift over no axes of a 0-d array: NumPy's roll(x, [], ()) fails unpacking (ValueError);
#    cuarray raises the same (it returned the input). A 1-d array over axes=() is itself -----------

def test_numpy_fftshift_over_no_axes_fails_for_0d():
    for fn in (np.fft.fftshift, np.fft.ifftshift):
        for axes in (None, ()):
            with pytest.raises(ValueError, match="not enough values to unpack"):
                fn(np.array(9, np.uint32), axes=axes)


@pytest.mark.gpu
@pytest.mark.parametrize("fn", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, ()])
def test_fftshift_over_no_axes_as_numpy(fn, axes):
    h = np.array(6.84375, np.float16)
    with pytest.raises(ValueError, match="not enough values to unpack"):
        getattr(np.fft, fn)(h, axes=axes)
    with pytest.raises(ValueError, match="not enough values to unpack"):
        getattr(cp.fft, fn)(cp.asarray(h), axes=axes)
    with pytest.raises(ValueError, match="not enough values to unpack"):
        cp.roll(cp.asarray(h), [], ())
    x = np.random.default_rng().standard_normal(7)
    r = getattr(cp.fft, fn)(cp.asarray(x), axes=())
    np.testing.assert_array_equal(r.get(), getattr(np.fft, fn)(x, axes=()))
