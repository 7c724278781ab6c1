"""Issue 54, "spurious errors": calls NumPy answers that cuarray refused; each against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("axis", [0, -1])
def test_squeeze_0d(axis):
    a = np.array(3.5)
    got = cp.squeeze(cp.asarray(a), axis=axis)
    assert got.shape == () and float(got) == float(np.squeeze(a, axis=axis))
    assert cp.asarray(a).squeeze(axis=axis).shape == ()
    with pytest.raises(np.exceptions.AxisError):
        cp.squeeze(cp.asarray(a), axis=(0,))


@pytest.mark.parametrize("dt", ["uint8", "uint16", "uint32", "uint64"])
@pytest.mark.parametrize("kw", [{"range": (-5, 10)}, {"range": (-300, 10), "bins": 3},
                                {"bins": [-3, 0, 100, 300]}, {"bins": np.array([-3.0, 0, 100, 300])},
                                {"range": (-2, 300), "bins": "auto"}, {"range": (-1, 2 ** 40), "bins": 4}])
def test_histogram_unsigned_negative_edges(dt, kw):
    x = np.array([1, 5, 200, 0, 7, 255, 3], dt)
    want_h, want_e = np.histogram(x, **kw)
    bins = kw.get("bins", 10)
    kw2 = dict(kw)
    if isinstance(bins, np.ndarray):
        kw2["bins"] = cp.asarray(bins)
    got_h, got_e = cp.histogram(cp.asarray(x), **kw2)
    np.testing.assert_array_equal(got_h.get(), want_h)
    np.testing.assert_allclose(got_e.get(), want_e, rtol=1e-15)
    assert got_e.dtype == want_e.dtype


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"])
@pytest.mark.parametrize("value", [-1, 256, -129, 2 ** 64, -(2 ** 70)])
@pytest.mark.parametrize("dt", ["uint8", "int8", "uint64"])
def test_comparison_out_of_range_python_int(name, value, dt):
    x = np.array([0, 1, 127, 100, 3], dt)
    f, g = getattr(np, name), getattr(cp, name)
    gx = cp.asarray(x)
    np.testing.assert_array_equal(g(gx, value).get(), f(x, value))
    np.testing.assert_array_equal(g(value, gx).get(), f(value, x))
    o, go = np.zeros(5, bool), cp.zeros(5, dtype=bool)
    f(x, value, out=o)
    g(gx, value, out=go)
    np.testing.assert_array_equal(go.get(), o)
    w = np.array([True, False, True, False, True])
    before = np.ones(5, bool) ^ f(x, value)
    go = cp.asarray(before)
    g(gx, value, out=go, where=cp.asarray(w))
    # where= keeps out's value where the mask is False; NumPy's own where= call with an out-of-range
    # Python int segfaults (NumPy 2.4.6 and 2.5.2), so the expected value is that rule written out
    np.testing.assert_array_equal(go.get(), np.where(w, f(x, value), before))
    ops = {"equal": "__eq__", "not_equal": "__ne__", "less": "__lt__", "less_equal": "__le__",
           "greater": "__gt__", "greater_equal": "__ge__"}
    np.testing.assert_array_equal(getattr(gx, ops[name])(value).get(), getattr(x, ops[name])(value))


@pytest.mark.parametrize("shape,kw", [((2, 3), {"prepend": 0}), ((3,), {"append": [5, 6]}),
                                      ((3,), {"prepend": [1], "append": 2.5}), ((2, 3), {"prepend": np.int8(3)}),
                                      ((2, 3), {"append": [[1], [2]], "axis": 1}),
                                      ((2, 3), {"prepend": [[1, 2, 3]], "axis": 0})])
@pytest.mark.parametrize("dt", ["uint8", "float32", "int64"])
def test_diff_host_prepend_append(shape, kw, dt):
    x = np.arange(6, dtype=dt)[:int(np.prod(shape))].reshape(shape)
    want = np.diff(x, **kw)
    got = cp.diff(cp.asarray(x), **kw).get()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
