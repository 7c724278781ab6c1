"""softmax / log_softmax on the GPU against scipy.special over the layouts that take a kernel (C
rows, F columns, one row, rows of 1..32, lines along a slow axis, float32/float64) and those that
do not (strided, negative strides, axes over ROW_MAX, empty, float16, int), with fresh random data
and edge rows (inf, -inf, NaN)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

special = pytest.importorskip("scipy.special")

import cuarray  # noqa: E402
from cuarray.scipy import special as cs  # noqa: E402
from cuarray.scipy.special import _softmax  # noqa: E402

RNG = np.random.default_rng()


def _check(x_host, gx, axis, dtype):
    rtol = 3e-6 if np.dtype(dtype) == np.float32 else 1e-12
    atol = 8 * np.finfo(np.float32 if np.dtype(dtype) == np.float32 else np.float64).eps
    with np.errstate(all="ignore"):
        for fn, ref in ((cs.softmax, special.softmax), (cs.log_softmax, special.log_softmax)):
            got = fn(gx, axis=axis)
            want = ref(x_host, axis=axis)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=atol if fn is cs.log_softmax else 1e-30)


def _data(shape, dtype):
    x = RNG.standard_normal(shape) * 10
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 8, 10, 16, 31, 32])
@pytest.mark.parametrize("rows", [1, 255, 1000, 4099])
def test_packed_rows(dtype, n, rows):
    x = _data((rows, n), dtype)
    g = cuarray.asarray(x)
    assert _softmax.line_layout(g, 1) == (rows, n, 1)
    _check(x, g, 1, dtype)
    _check(x, g, -1, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_layouts(dtype):
    x = _data((300, 7, 10), dtype)
    g = cuarray.asarray(x)
    assert _softmax.line_layout(g, 1) == (300, 7, 10) and _softmax.line_layout(g, 0) is None
    _check(x, g, 2, dtype)  # rows of 10: the row tile
    _check(x, g, 1, dtype)  # lines of 7, 10 apart: a thread per line
    _check(x, g, 0, dtype)  # 300 > ROW_MAX: composed
    _check(x, g, None, dtype)  # 21000 elements: composed
    _check(x, g, (0, 2), dtype)  # several axes: composed
    w = _data((10, 100_003), dtype)  # classes along axis 0
    _check(w, cuarray.asarray(w), 0, dtype)
    _check(w[:1], cuarray.asarray(w[:1]), 0, dtype)
    xt = np.ascontiguousarray(_data((10, 500), dtype)).T  # F-contiguous, softmax over axis 0 of x.T
    gt = cuarray.asarray(np.ascontiguousarray(xt.T)).T
    assert _softmax.line_layout(gt, 1) == (1, 10, 500) and _softmax.line_layout(gt, 0) is None
    _check(xt, gt, 1, dtype)
    _check(xt, gt, 0, dtype)
    y = _data((500, 10), dtype)
    gy = cuarray.asarray(np.asfortranarray(y.T))
    assert _softmax.line_layout(gy, 0) == (500, 10, 1)
    _check(np.asfortranarray(y.T), gy, 0, dtype)
    s = _data((400, 20), dtype)  # strided rows: s[:, ::2], s[::-1], s[:, ::-1]
    gs = cuarray.asarray(s)
    for sl in (np.s_[:, ::2], np.s_[::-1], np.s_[:, ::-1], np.s_[::3, 1:11]):
        _check(s[sl], gs[sl], 1, dtype)
    v = _data((13,), dtype)
    _check(v, cuarray.asarray(v), None, dtype)
    _check(v, cuarray.asarray(v), 0, dtype)
    w = _data((1, 1), dtype)
    _check(w, cuarray.asarray(w), 1, dtype)
    z = _data((4, 40), dtype)  # rows over ROW_MAX: composed
    _check(z, cuarray.asarray(z), 1, dtype)


def test_edges_and_dtypes():
    x = _data((64, 10), "float64")
    x[0, 3] = np.inf  # SciPy: the whole row is NaN (x - inf)
    x[1, 0] = -np.inf
    x[2, :] = -np.inf
    x[3, 5] = np.nan
    x[4, :2] = np.inf
    g = cuarray.asarray(x)
    _check(x, g, 1, "float64")
    _check(x[:, ::2], g[:, ::2], 1, "float64")  # the composed path, same edges
    xi = RNG.integers(-5, 5, (100, 6))
    _check(xi, cuarray.asarray(xi), 1, "float64")
    h = _data((50, 8), "float16")
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(cs.softmax(cuarray.asarray(h), axis=1).get(), special.softmax(h, axis=1),
                                   rtol=5e-3, atol=1e-4)
    e = np.zeros((0, 10))
    assert cs.softmax(cuarray.asarray(e), axis=1).shape == (0, 10)
    with pytest.raises(np.exceptions.AxisError):
        cs.softmax(cuarray.asarray(x), axis=2)
    with pytest.raises(np.exceptions.AxisError):
        special.softmax(x, axis=2)


def test_old_inf_rule_fixed():
    """softmax shifted by max where finite, else 0, gave [nan, 0] for [inf, 1]; SciPy: [nan, nan]."""
    x = np.array([[np.inf, 1.0], [1.0, 2.0]])
    with np.errstate(all="ignore"):
        want = special.softmax(x, axis=1)
        np.testing.assert_array_equal(cs.softmax(cuarray.asarray(x), axis=1).get(), want)
        strided = cuarray.asarray(np.repeat(x, 2, axis=1))[:, ::2]  # the composed path
        np.testing.assert_array_equal(cs.softmax(strided, axis=1).get(), want)
        cols = cuarray.asarray(np.ascontiguousarray(x.T))  # a thread per line
        np.testing.assert_array_equal(cs.softmax(cols, axis=0).get(), want.T)


def test_large_rows_count():
    """Many blocks and a last partial tile (over 2**31 elements is left to the CPU test of the
    planner: the kernel's row offsets are 64-bit)."""
    x = _data((2**22 + 5, 3), "float32")
    g = cuarray.asarray(x)
    np.testing.assert_allclose(cs.softmax(g, axis=1).get(), special.softmax(x, axis=1), rtol=3e-6, atol=1e-30)
    np.testing.assert_allclose(cs.softmax(g.T, axis=0).get(), special.softmax(x.T, axis=0), rtol=3e-6, atol=1e-30)
