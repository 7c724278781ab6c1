"""cuFFT pass planning without a GPU: which axes, strides, embeds, batch and loop offsets each plan
gets, checked by running the planned passes through a NumPy emulation of cuFFT's advanced layout
(``b * dist + ((x * embed[1] + y) * embed[2] + z) * stride``) and comparing with numpy.fft.
Also the dtype rules, normalisation factors, NumPy-style argument handling and the plan cache's
LRU bookkeeping (with a fake plan: no cuFFT call)."""

from __future__ import annotations

import itertools
import math
import types

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

from cuarray.cuda.libs import cufft
from cuarray.fft import _fft, _layout, _transform

REAL_IN = (cufft.R2C, cufft.D2Z)
REAL_OUT = (cufft.C2R, cufft.Z2D)


def emulate(p, src, s_off, dst, d_off, direction):
    """Run Pass `p` on flat NumPy buffers as cuFFT would (offsets in elements)."""
    rank, n, inembed, istride, idist, onembed, ostride, odist, typ, batch = p.key
    iext, oext = list(n), list(n)
    if typ in REAL_IN:
        oext[-1] = n[-1] // 2 + 1
    if typ in REAL_OUT:
        iext[-1] = n[-1] // 2 + 1
    inembed = iext if inembed is None else inembed
    onembed = oext if onembed is None else onembed

    def lin(ext, embed, stride):
        st = [stride * math.prod(embed[j + 1:]) for j in range(len(ext))]
        return sum(g * s for g, s in zip(np.indices(ext), st))

    li, lo = lin(iext, inembed, istride), lin(oext, onembed, ostride)
    for io, oo in p.offsets:
        for b in range(batch):
            x = src[s_off + io // src.itemsize + b * idist + li]
            if typ in REAL_IN:
                y = np.fft.rfftn(x)
            elif typ in REAL_OUT:
                y = np.fft.irfftn(x, s=n, axes=range(len(n))) * math.prod(n)
            elif direction == cufft.FORWARD:
                y = np.fft.fftn(x)
            else:
                y = np.fft.ifftn(x) * math.prod(n)
            dst[d_off + oo // dst.itemsize + b * odist + lo] = y


def _flat_of(view):
    base = view
    while base.base is not None:
        base = base.base
    base = base.ravel(order="K").view(view.dtype)
    assert np.shares_memory(base, view)
    off = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // view.itemsize
    return base, off


def run_schedule(kind, view, axes, forward=True):
    """Plan `kind` over `axes` of the NumPy `view` as transform() would (no padding), run the
    plan through the emulator, return (result, steps, copied)."""
    in_dt, out_dt, _ = _transform.dtypes_of(kind, view.dtype, "t")
    assert view.dtype == in_dt
    sizes = [view.shape[ax] for ax in axes]
    if kind == "c2r":
        sizes[-1] = 2 * (view.shape[axes[-1]] - 1)
    out_shape = list(view.shape)
    if kind == "r2c":
        out_shape[axes[-1]] = sizes[-1] // 2 + 1
    elif kind == "c2r":
        out_shape[axes[-1]] = sizes[-1]
    out_shape = tuple(out_shape)
    direction = cufft.FORWARD if forward else cufft.INVERSE
    copied = False
    for attempt in range(2):
        src = types.SimpleNamespace(_shape=view.shape, _strides=view.strides)
        order = _layout.k_order(view.shape, view.strides)
        out_strides = _layout.dense_strides(out_shape, order, out_dt.itemsize)
        steps = _transform._schedule(kind, tuple(axes), tuple(sizes), direction, src, out_shape,
                                     out_strides, in_dt, out_dt)
        if steps is not None:
            break
        assert attempt == 0, "the transform-last layout must always plan"
        order = _layout.transform_last_order(view.ndim, axes)
        buf = np.empty(math.prod(view.shape), in_dt)
        new = as_strided(buf, view.shape, _layout.dense_strides(view.shape, order, in_dt.itemsize))
        new[...] = view
        view, copied = new, True
    sflat, soff = _flat_of(view)
    sflat = sflat.copy()
    out = np.zeros(math.prod(out_shape), out_dt)
    for what, p, d in steps:
        if what == "copy":
            res = as_strided(out, out_shape, out_strides)
            res[...] = as_strided(sflat[soff:], view.shape, view.strides).real if out_dt.kind == "f" else \
                as_strided(sflat[soff:], view.shape, view.strides)
            continue
        i_buf, i_off = (sflat, soff) if what.startswith("src") else (out, 0)
        o_buf, o_off = (out, 0) if what.endswith("out") else (sflat, soff)
        emulate(p, i_buf, i_off, o_buf, o_off, d)
    return as_strided(out, out_shape, out_strides), steps, copied


def reference(kind, x, axes, forward=True):
    n = [x.shape[ax] for ax in axes]
    if kind == "c2c":
        return np.fft.fftn(x, axes=axes) if forward else np.fft.ifftn(x, axes=axes) * math.prod(n)
    if kind == "r2c":
        return np.fft.rfftn(x, axes=axes)
    s = n[:-1] + [2 * (n[-1] - 1)]
    return np.fft.irfftn(x, s=s, axes=axes) * math.prod(s)


def _views(rng, dtype):
    a = rng.standard_normal((6, 5, 8)) + (1j * rng.standard_normal((6, 5, 8)) if dtype.kind == "c" else 0)
    a = a.astype(dtype)
    yield "C", a
    yield "T", a.T
    yield "perm", a.transpose(1, 0, 2)
    yield "slice", a[1:5, :, 1:7]
    yield "step", a[::2, :, ::2]
    yield "Fcopy", np.asfortranarray(a)


AXES = [(2,), (0,), (1,), (0, 2), (2, 0), (0, 1, 2), (1, 2), (0, 1)]


@pytest.mark.parametrize("kind", ["c2c", "r2c", "c2r"])
@pytest.mark.parametrize("axes", AXES, ids=str)
def test_passes_emulated(kind, axes):
    rng = np.random.default_rng(7)
    dtype = np.dtype(np.float32 if kind == "r2c" else np.complex64)
    for label, v in _views(rng, dtype):
        got, steps, _ = run_schedule(kind, v, list(axes), forward=(kind != "c2r"))
        expect = reference(kind, v.astype(np.complex128 if dtype.kind == "c" else np.float64), list(axes),
                           forward=(kind != "c2r"))
        np.testing.assert_allclose(got, expect, rtol=2e-4, atol=2e-4 * np.abs(expect).max(), err_msg=label)
        assert 1 <= len(steps) <= len(axes) + 1


def test_contiguous_batch_is_one_basic_plan():
    v = np.zeros((100000, 256), np.complex64)
    p = _layout.plan_pass(v.shape, v.strides, 8, v.shape, v.strides, 8, [1], [256], cufft.C2C, False)
    assert p.key == (1, (256,), None, 1, 256, None, 1, 256, cufft.C2C, 100000)
    assert p.offsets == ((0, 0),)


def test_strided_axis_uses_stride_not_copy():
    v = np.zeros((64, 1000), np.complex64)  # axis 0: stride 1000, batch distance 1
    p = _layout.plan_pass(v.shape, v.strides, 8, v.shape, v.strides, 8, [0], [64], cufft.C2C, False)
    assert p.key == (1, (64,), (64,), 1000, 1, (64,), 1000, 1, cufft.C2C, 1000)


def test_2d_in_one_plan_and_interleaved_batch():
    v = np.zeros((8192, 8192), np.complex64)
    p = _layout.plan_pass(v.shape, v.strides, 8, v.shape, v.strides, 8, [0, 1], [8192, 8192], cufft.C2C, False)
    assert p.key[:2] == (2, (8192, 8192)) and p.key[2] is None and p.key[-1] == 1
    v = np.zeros((4, 3, 10), np.complex64)  # axes 0 and 2 with axis 1 as the batch in between
    p = _layout.plan_pass(v.shape, v.strides, 8, v.shape, v.strides, 8, [0, 2], [4, 10], cufft.C2C, False)
    assert p.key == (2, (4, 10), (4, 30), 1, 10, (4, 30), 1, 10, cufft.C2C, 3)


def test_uncollapsible_batch_loops_or_refuses():
    v = np.zeros((3, 7, 5), np.complex64)[:, :, :4]  # batch axes 0 and 1 do not collapse in
    out = _layout.dense_strides((3, 7, 4), [0, 1, 2], 8)
    p = _layout.plan_pass(v.shape, v.strides, 8, (3, 7, 4), out, 8, [1], [7], cufft.C2C, False)
    assert p is not None and len(p.offsets) == 3  # the batch of 4 in the plan, 3 executions
    big = np.zeros((20, 7, 12), np.complex64)[:, :, :10]  # 10 executions of a batch of 20: too many
    out = _layout.dense_strides((20, 7, 10), [0, 1, 2], 8)
    assert _layout.plan_pass(big.shape, big.strides, 8, (20, 7, 10), out, 8, [1], [7], cufft.C2C, False) is None


def test_refuses_negative_zero_and_unaligned_strides():
    for strides in ((-80, 8), (0, 8), (80, 4)):
        assert _layout.plan_pass((4, 10), strides, 8, (4, 10), (80, 8), 8, [1], [10], cufft.C2C, False) is None


def test_more_than_three_axes_are_chunked():
    assert _transform._chunks([0, 1, 2, 3, 4], (5, 4, 3, 2, 1)) == [[2, 3, 4], [0, 1]]


# -- dtypes, norms, arguments ---------------------------------------------------------------------
@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bhilqBHILQefdFD"], ids=str)
def test_dtype_rules_match_numpy(dt):
    x = np.ones(8, dt)
    assert _transform.dtypes_of("c2c", dt, "fft")[2] == np.fft.fft(x).dtype
    assert _transform.dtypes_of("c2r", dt, "irfft")[2] == np.fft.irfft(x).dtype
    if dt.kind == "c":
        with pytest.raises(TypeError):
            _transform.dtypes_of("r2c", dt, "rfft")
    else:
        assert _transform.dtypes_of("r2c", dt, "rfft")[2] == np.fft.rfft(x).dtype


def test_scale():
    assert _transform.scale_of(None, True, 8) == 1.0
    assert _transform.scale_of("backward", False, 8) == 1 / 8
    assert _transform.scale_of("ortho", False, 16) == 0.25
    assert _transform.scale_of("forward", True, 8) == 1 / 8
    assert _transform.scale_of("forward", False, 8) == 1.0
    with pytest.raises(ValueError):
        _transform.scale_of("bad", True, 8)


def test_points_and_cook_args():
    assert _fft._points(np.int64(4)) == 4
    for bad, err in ((0, ValueError), (-1, ValueError), (2.5, TypeError), (True, TypeError)):
        with pytest.raises(err):
            _fft._points(bad)
    a = np.zeros((3, 4, 5))
    for s, axes, inv in itertools.product([None, (2, 3), (-1, 6)], [None, (0, 2), (-1, 0)], [False, True]):
        if s is not None and axes is None:
            continue
        # NumPy's private helper is the oracle for the sizes and axes.
        from numpy.fft._pocketfft import _cook_nd_args as np_cook
        ours, theirs = _fft._cook_nd_args(a, s, axes, inv), np_cook(a, s, axes, inv)
        assert (list(ours[0]), list(ours[1])) == (list(theirs[0]), list(theirs[1]))
    with pytest.raises(ValueError):
        _fft._cook_nd_args(a, (3,), (0, 1))
    with pytest.raises(IndexError):
        _fft._cook_nd_args(a, None, (0, 7))
    with pytest.warns(DeprecationWarning):
        _fft._cook_nd_args(a, (3, 4), None)
    with pytest.raises(ValueError):
        _fft._swap_direction("nope")


# -- plan cache bookkeeping -------------------------------------------------------------------------
class FakePlan:
    def __init__(self, key, device_id):
        self.key, self.work_size, self.transient, self.destroyed = key, key[0], False, False

    def destroy(self):
        self.destroyed = True


def test_plan_cache_lru(monkeypatch):
    monkeypatch.setattr(cufft, "Plan", FakePlan)
    c = cufft.PlanCache(0, size=2)
    p1, p2 = c.get((10, "a")), c.get((20, "b"))
    assert c.get((10, "a")) is p1 and c.hits == 1 and c.misses == 2
    p3 = c.get((30, "c"))  # evicts the least recently used: p2
    assert p2.destroyed and not p1.destroyed and len(c) == 2 and c.get_curr_memsize() == 40
    c.set_memsize(35)  # 10 + 30 > 35: evict p1
    assert p1.destroyed and len(c) == 1 and c.get_curr_memsize() == 30
    big = c.get((50, "d"))  # larger than the limit: used once, not cached
    assert big.transient and (50, "d") not in c and not p3.destroyed
    c.set_size(0)
    assert p3.destroyed and len(c) == 0
    assert c.get((1, "e")).transient
    c.set_size(-1)
    c.set_memsize(-1)
    for k in range(40):
        c.get((k, k))
    assert len(c) == 40
    c.clear()
    assert len(c) == 0 and c.get_curr_memsize() == 0
    with pytest.raises(ValueError):
        c.set_size(-5)
    c.show_info()


def test_describe_names_plan():
    key = (1, (4096,), None, 1, 4096, None, 1, 4096, cufft.C2C, 3)
    text = cufft.describe(key)
    assert "C2C" in text and "4096" in text and "batch=3" in text
    e = cufft.CuFFTError("execution", key, "CUFFT_INVALID_VALUE (4)")
    assert "execution" in str(e) and "C2C" in str(e) and isinstance(e, RuntimeError)


# -- kernels compile for sm_90 (NVRTC, no device) ---------------------------------------------------
@pytest.mark.parametrize("pair", ["eF", "fF", "?D", "qD", "FF", "DD", "Ff", "Dd", "fe", "FD"])
def test_scale_and_freq_kernels_compile(pair, monkeypatch):
    from cuarray.cuda import compiler
    from cuarray.fft import _helper

    try:
        compiler.compile_cubin("extern \"C\" __global__ void k() {}", arch="sm_90")
    except Exception as e:  # pragma: no cover - depends on the install
        pytest.skip("NVRTC unavailable: {}".format(e))
    captured = []

    class Fake:
        def __init__(self, dt):
            self._dtype, self._size, self._shape = np.dtype(dt), 4, (4,)

    def fake_run(self, arrays, scalars, shape):
        captured.append(self)

    monkeypatch.setattr(_transform.Definition, "run", fake_run)
    _transform._scaled_copy(Fake(pair[1]), Fake(pair[0]), 0.5)
    d = captured[-1]
    for layout, nd in (("flat", 1), ("vec", 1), ("nd", 2)):
        name, src = d.source(layout, nd, np.int32)
        compiler.compile_cubin(src, arch="sm_90", name=name)
    for kind in ("full", "half"):
        for dt in (np.float32, np.float64):
            name, src = _helper._freq_def(kind, np.dtype(dt)).source("flat", 1, np.int64)
            compiler.compile_cubin(src, arch="sm_90", name=name)
