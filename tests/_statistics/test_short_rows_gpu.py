"""Reductions over short rows on the GPU (issue 32) against NumPy, fresh random data: rows of
2-200 elements with 16-byte vector loads by groups of 1-32 lanes (`reduction_plan._LANE_VECS`), and
the layouts that cannot take them (odd lengths, strided, reversed, offset, broadcast), for sum,
max, argmax, mean, var and the nan-variants, float16/32/64, int32 and complex64; empty and size-1
shapes; an elementwise producer fused into the load (eager `ReductionKernel`-style and lazy); the
same results with the lane groups switched off (`_LANE_VECS = 0`)."""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402


def seed_of(request) -> int:
    return zlib.crc32(request.node.nodeid.encode()) + np.random.SeedSequence().entropy % 1000


def _host(rng, shape, dt, nans=False, all_nan_row=True):
    dt = np.dtype(dt)
    if dt.kind == "i":
        h = rng.integers(-1000, 1000, shape).astype(dt)
    else:
        h = (rng.standard_normal(shape) * 10).astype(dt)
        if dt.kind == "c":
            h = h + 1j * (rng.standard_normal(shape) * 10).astype(dt)
    if nans and dt.kind in "fc" and h.size > 4:
        h.flat[rng.integers(0, h.size, max(1, h.size // 50))] = np.nan
        if all_nan_row and h.ndim == 2 and h.shape[1] > 1:
            h[min(3, h.shape[0] - 1), :] = np.nan  # an all-NaN row
    return h


def _compare(name, h, g, axis=1):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = getattr(np, name)(h.astype(np.float64) if h.dtype.kind == "f" and name in ("sum", "mean", "var",
                                                                                              "nansum", "nanmean")
                                     else h, axis=axis)
        except ValueError:  # max/argmax of empty rows: the same error type
            with pytest.raises(ValueError):
                getattr(cuarray, name)(g, axis=axis)
            return
        got = getattr(cuarray, name)(g, axis=axis)
    assert got.shape == want.shape
    if name.startswith("arg") or name.startswith("nanarg"):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
        return
    want_dt = getattr(np, name)(h[:1], axis=axis).dtype if h.shape[0] else got.dtype
    assert got.dtype == want_dt
    tol = {"e": 2e-2, "f": 2e-5, "F": 2e-5}.get(h.dtype.char, 1e-11)
    scale = np.nanmax(np.abs(h)) * h.shape[-1] if h.size and np.isfinite(np.nanmax(np.abs(h))) else 1.0
    np.testing.assert_allclose(got.get().astype(want.dtype), want, rtol=tol, atol=tol * scale)


ROWS = [2, 3, 4, 8, 12, 16, 20, 32, 40, 64, 96, 100, 128, 200]
OPS = ["sum", "max", "argmax", "mean", "var", "nansum", "nanmax", "nanargmin"]


@pytest.mark.parametrize("n_red", ROWS)
@pytest.mark.parametrize("dt", ["f4", "f8", "f2"])
def test_contiguous_rows(request, n_red, dt):
    rng = np.random.default_rng(seed_of(request))
    for n_out in (1, 7, 1007, 20_011):
        for name in OPS:
            if dt == "f2" and name in ("var",):
                continue
            h = _host(rng, (n_out, n_red), dt, nans=name.startswith("nan"), all_nan_row="arg" not in name)
            _compare(name, h, cuarray.asarray(h))


@pytest.mark.parametrize("dt", ["i4", "F"])
@pytest.mark.parametrize("n_red", [4, 16, 64, 100])
def test_other_dtypes(request, dt, n_red):
    rng = np.random.default_rng(seed_of(request))
    h = _host(rng, (5003, n_red), dt)
    for name in ("sum", "mean") + (("max", "argmax") if dt == "i4" else ()):
        _compare(name, h, cuarray.asarray(h))


@pytest.mark.parametrize("n_red", [4, 16, 64, 100])
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "var", "nanmax"])
def test_layouts(request, n_red, name):
    rng = np.random.default_rng(seed_of(request))
    h = _host(rng, (3001, 2 * n_red + 4), "f4", nans=name.startswith("nan"))
    g = cuarray.asarray(h)
    views = [np.s_[:, :n_red], np.s_[:, 4:4 + n_red], np.s_[:, 1:1 + n_red], np.s_[::-1, :n_red],
             np.s_[:, n_red - 1::-1], np.s_[:, ::2], np.s_[1::3, :n_red], np.s_[:0, :n_red], np.s_[:1, :n_red],
             np.s_[:, :1]]
    for v in views:
        _compare(name, h[v], g[v])
    hc = np.ascontiguousarray(h[:, :n_red])
    gc = cuarray.asarray(hc)
    for v in (np.s_[::-1], np.s_[1:], np.s_[2::2]):
        _compare(name, hc[v], gc[v])
    _compare(name, hc.T.copy().T, cuarray.asarray(hc.T.copy()).T)  # F-ordered rows: strided


def test_3d_and_keepdims(request):
    rng = np.random.default_rng(seed_of(request))
    h = _host(rng, (50, 37, 16), "f4")
    g = cuarray.asarray(h)
    for axis in (2, -1):
        _compare("sum", h, g, axis)
        _compare("argmax", h, g, axis)
    np.testing.assert_allclose(cuarray.max(g, axis=2, keepdims=True).get(), h.max(axis=2, keepdims=True))
    e = np.zeros((4, 0), "f4")
    assert cuarray.sum(cuarray.asarray(e), axis=1).shape == (4,)
    with pytest.raises(ValueError):
        cuarray.max(cuarray.asarray(e), axis=1)


def test_fused_producer(request):
    rng = np.random.default_rng(seed_of(request))
    h = rng.standard_normal((400_003, 2))
    g = cuarray.asarray(h)
    np.testing.assert_allclose(cuarray.exp(g).sum(axis=1).get(), np.exp(h).sum(axis=1), rtol=1e-12)
    h16 = rng.standard_normal((100_001, 16)).astype("f4")
    g16 = cuarray.asarray(h16)
    m = g16.mean(axis=1, keepdims=True)
    with cuarray.lazy():
        y = ((g16 - m) ** 2).sum(axis=1)
        z = cuarray.exp(g16 - g16.max(axis=1, keepdims=True)).sum(axis=1)
    mh = h16.astype(np.float64).mean(axis=1, keepdims=True)
    np.testing.assert_allclose(y.get(), ((h16 - mh) ** 2).sum(axis=1), rtol=1e-4)
    np.testing.assert_allclose(z.get(), np.exp(h16 - h16.max(axis=1, keepdims=True)).sum(axis=1), rtol=1e-5)


@pytest.mark.parametrize("lane_vecs", [0, 1, 2, 4])
def test_lane_group_settings_agree(request, setting, lane_vecs):
    """Every `_LANE_VECS` value the sweep tries gives NumPy's answer (argmax exactly)."""
    rng = np.random.default_rng(seed_of(request))
    setting("_LANE_VECS", lane_vecs)
    for n_red in (8, 16, 64, 96):
        h = _host(rng, (10_007, n_red), "f4")
        g = cuarray.asarray(h)
        for name in ("sum", "argmax", "max"):
            _compare(name, h, g)


@pytest.mark.parametrize("shape", [(2, 4_000_003), (3, 100_001), (5, 7), (7, 10_007), (8, 1000), (1, 5000)])
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "mean", "var", "nansum", "nanargmax"])
def test_short_first_axis(request, shape, name):
    """A thread per output walking 2-7 elements, in one unrolled round (`_SHORT_UNROLL`)."""
    rng = np.random.default_rng(seed_of(request))
    h = _host(rng, shape, "f4", nans=name == "nansum", all_nan_row=False)
    if name == "nanargmax":  # NaNs, never a whole column of them (NumPy raises there)
        h[:, ::13] = np.nan
        h[0, ::13] = 1.0  # one number per column
    g = cuarray.asarray(h)
    _compare(name, h, g, axis=0)
    _compare(name, h[:, ::3], g[:, ::3], axis=0)
    _compare(name, h[::-1, 1:], g[::-1, 1:], axis=0)
    _compare(name, h.T.copy().T, cuarray.asarray(h.T.copy()).T, axis=0)  # the walk is the fast axis


@pytest.mark.parametrize("dt", ["f4", "f8", "f2"])
@pytest.mark.parametrize("name", ["sum", "mean", "max", "var", "nansum", "nanmax"])
def test_middle_axis_kept(request, dt, name):
    """Reduced dims that do not collapse (axes 0 and 2), the last contiguous: 16-byte loads over
    the unravelled vector index (`_VEC_ND`); reversed/transposed/strided views and a last dim that
    is not a multiple of the vector take scalar loads."""
    rng = np.random.default_rng(seed_of(request))
    for shape in ((64, 1024, 256), (8, 30, 16), (5, 7, 6), (3, 1, 8)):
        if dt == "f2" and shape[0] * shape[2] > 4096 and name in ("sum", "mean", "var"):
            continue  # float16 accumulation over 16384 elements: NumPy's pairwise sum differs
        h = _host(rng, shape, dt, nans=name.startswith("nan"), all_nan_row=False)
        g = cuarray.asarray(h)
        for sl in (np.s_[:], np.s_[::-1], np.s_[:, ::2], np.s_[..., ::2], np.s_[:, :, 1:]):
            _compare(name, h[sl], g[sl], axis=(0, 2))
        _compare(name, h.transpose(1, 0, 2), g.transpose(1, 0, 2), axis=(1, 2))


def test_argmax_of_a_non_contiguous_whole(request):
    """axis=None over a view whose dims do not collapse: the flat C-order index, with vector loads."""
    rng = np.random.default_rng(seed_of(request))
    h = _host(rng, (40, 50, 64), "f4")
    g = cuarray.asarray(h)
    for sl in (np.s_[:, ::2], np.s_[::-1, :, :32], np.s_[:, 1:]):
        assert int(cuarray.argmax(g[sl])) == int(np.argmax(h[sl]))
        assert int(cuarray.argmin(g[sl])) == int(np.argmin(h[sl]))


def test_vec_nd_settings_agree(request, setting):
    rng = np.random.default_rng(seed_of(request))
    h = _host(rng, (64, 1024, 256), "f4")
    g = cuarray.asarray(h)
    out = {}
    for v in (0, 1):
        setting("_VEC_ND", v)
        out[v] = (g.mean(axis=(0, 2)).get(), g.max(axis=(0, 2)).get(), int(cuarray.argmax(g[:, 1:])))
    # Two summation orders in float32: means near 0 (cancellation) need a bound relative to the
    # terms' size, not to the result (8 of 1024 differed by 1e-5 relative on the H100).
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-5, atol=1e-6 * float(np.abs(h).mean()))
    np.testing.assert_array_equal(out[0][1], out[1][1])
    assert out[0][2] == out[1][2] == int(np.argmax(h[:, 1:]))
