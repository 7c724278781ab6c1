"""max/min of complex input holding several NaNs per slice: NumPy keeps the first NaN its iterator
meets (the reduced axes by decreasing |stride|, each in its own direction); the parallel reduction
keeps whichever it meets. _math/extrema_nan.py's second pass, run on the host: its module's copy with NumPy
stand-ins for the kernels, the reduction's NaN deliberately the last one in C order (a wrong NaN
the pass must replace), against NumPy over layouts (transposes, reversed axes, F order), axes,
keepdims, where= and initial=. The device: test_reductions_gpu.py."""

from __future__ import annotations

import types

import numpy as np
import pytest

from cuarray._core import reduction_ops as _r
from cuarray._creation import ranges
from cuarray._math import extrema_nan
from cuarray._statistics import order
from cuarray.testing.fake_device import host_modules


def _last_nan_reduce(name, a, axis, dtype, out, keepdims, initial, where):
    """NumPy's reduction, but each NaN result replaced by the slice's last NaN in C order."""
    kw = {} if initial is _r.NOVALUE else {"initial": initial}
    if where is not True:
        kw["where"] = where
    fn = np.max if name == "max" else np.min
    res = np.asarray(fn(a, axis=axis, keepdims=True, **kw))
    raxes = _r.normalize_axes(axis, a.ndim)
    mask = np.isnan(a) & (True if where is True else np.broadcast_to(where, a.shape))
    moved = np.moveaxis(a, raxes, range(a.ndim - len(raxes), a.ndim))
    mmask = np.moveaxis(mask, raxes, range(a.ndim - len(raxes), a.ndim))
    flat = moved.reshape(moved.shape[:a.ndim - len(raxes)] + (-1,))
    fmask = mmask.reshape(flat.shape)
    last = flat.shape[-1] - 1 - np.argmax(fmask[..., ::-1], axis=-1)
    wrong = np.take_along_axis(flat, last[..., None], -1)[..., 0].reshape(res.shape)
    res = np.where(np.isnan(res), wrong, res)
    if not keepdims:
        res = res.reshape(tuple(d for i, d in enumerate(a.shape) if i not in raxes))
    if out is not None:
        out[...] = res
        return out
    return res.copy()


@pytest.fixture(scope="module")
def host_order():
    r = types.SimpleNamespace(reduce_fast=_last_nan_reduce, NOVALUE=_r.NOVALUE, normalize_axes=_r.normalize_axes)
    return host_modules({ranges: {"arange": np.arange}, order: {"_r": r}, extrema_nan: {
        "_r": r, "isnan": np.isnan, "argmax": np.argmax,
        "floor_divide": np.floor_divide, "remainder": np.remainder, "logical_and": np.logical_and,
        "broadcast_to": np.broadcast_to, "fill": lambda a, v: a.fill(v),
        "copyto_where_unchecked": lambda dst, src, mask: np.copyto(dst, src, where=mask)}})[order]


def _same(got, want):
    g, w = np.atleast_1d(got), np.atleast_1d(want)
    return (g.shape == w.shape and np.array_equal(g.real, w.real, equal_nan=True)
            and np.array_equal(g.imag, w.imag, equal_nan=True))


def _layout(rng, dt):
    nd = int(rng.integers(1, 5))
    shape = tuple(int(n) for n in rng.integers(1, 5, nd))
    x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    nan = rng.random(shape) < 0.35
    x.real[nan & (rng.random(shape) < 0.6)] = np.nan
    x.imag[nan & (rng.random(shape) < 0.6)] = np.nan
    x.real[nan & ~np.isnan(x)] = np.nan
    y = x.transpose(rng.permutation(nd))
    y = y[tuple(slice(None, None, -1) if rng.random() < 0.4 else slice(None) for _ in range(nd))]
    return np.asfortranarray(y) if rng.random() < 0.3 else y


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_first_nan_in_numpys_order(host_order, dt):
    rng = np.random.default_rng()
    bad = []
    for _ in range(150):
        y = _layout(rng, dt)
        nd = y.ndim
        k = int(rng.integers(0, nd + 1))
        axis = None if k == 0 else tuple(int(i) for i in sorted(rng.choice(nd, int(rng.integers(1, nd + 1)),
                                                                            replace=False)))
        keepdims = bool(rng.random() < 0.3)
        for name in ("max", "min"):
            want = getattr(np, name)(y, axis=axis, keepdims=keepdims)
            got = getattr(host_order, name)(y, axis=axis, keepdims=keepdims)
            if not _same(got, want):
                bad.append((name, y.shape, y.strides, axis, got, want))
    assert not bad, "{} of 300 differ, first: {}".format(len(bad), bad[:3])


def test_fuzz_cases_and_where_initial_out(host_order):
    n = np.nan
    # min(a.T) of seed 11 index 30: NumPy's order is memory order (0.049 + nanj), not C order's
    a = np.array([-3.4e38, -0.26, complex(0.04895386, n), 1e-7 + 1.2j, complex(-1.799, n), 3.76, -1.05, 1.2j, -1.5,
                  3.2 + 1.2j], np.complex64).reshape(2, 5).T
    assert _same(host_order.min(a), np.min(a)) and np.min(a).real == np.float32(0.04895386)
    # a reversed axis keeps its direction (the logical first of b[:, ::-1] is nan+3j)
    b = np.array([complex(n, 1), 2, complex(n, 3), 4, 5, complex(n, 6)]).reshape(2, 3)[:, ::-1]
    assert _same(host_order.max(b), np.max(b)) and np.max(b).imag == 3
    # where= skips a masked NaN; initial= (not NaN) starts the slice; out= receives it
    c = np.array([[complex(n, 1), complex(n, 2), 3], [4, complex(n, 5), complex(n, 6)]])
    w = np.array([[False, True, True], [True, True, True]])
    for kw in ({"where": w, "initial": 0}, {"initial": -1, "axis": 1}, {"axis": 0, "keepdims": True}):
        assert _same(host_order.max(c, **kw), np.max(c, **kw)), kw
    out = np.empty(3, complex)
    assert host_order.min(c, axis=0, out=out) is out and _same(out, np.min(c, axis=0))
    # a NaN initial is NumPy's first element of every slice: the result, not the array's first NaN
    for kw in ({}, {"axis": 1}, {"axis": 0, "where": w}):
        assert _same(host_order.max(c, initial=complex(n, 9), **kw), np.max(c, initial=complex(n, 9), **kw)), kw
    # real input is left to the reduction (its NaNs compare as NaN)
    r = np.array([1.0, n, 2.0])
    assert np.isnan(host_order.max(r))


def test_nan_order():
    # decreasing |stride|, ties (a length-1 or broadcast axis) in C order
    assert extrema_nan.nan_order((8, -40, 16), (0, 1, 2)) == ([], [1, 2, 0])
    assert extrema_nan.nan_order((0, 8, 0), (0, 2)) == ([1], [0, 2])
    assert extrema_nan.nan_order((24, 8), (1,)) == ([0], [1])


@pytest.mark.parametrize("axis", [None, 0, -1])
def test_zero_d_input_takes_numpys_axes(host_order, axis):
    """NumPy reduces a 0-d array over axis 0 or -1; the pass has no NaN to choose there and must not
    check the axes again (an AxisError on the device, found by the fuzzer)."""
    a = np.array(complex(np.nan, 1.0), np.complex64)
    want = np.max(a, axis=axis)
    got = host_order.first_nan(a, axis, False, _r.NOVALUE, True, np.asarray(want).copy())
    assert _same(got, want)
