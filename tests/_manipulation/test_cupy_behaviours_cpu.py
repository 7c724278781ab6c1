"""Issue 54, CuPy behaviours: host-side halves on the fake device (no GPU)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cuarray as cp


def test_more_than_64_dims_is_numpy_value_error(recorded_launches):
    with pytest.raises(ValueError, match="maximum supported dimension for an ndarray is currently 64, found 65"):
        np.empty((1,) * 65)
    with pytest.raises(ValueError, match="maximum supported dimension for an ndarray is currently 64, found 65"):
        cp.empty((1,) * 65)
    with pytest.raises(ValueError, match="found 66"):
        cp.ndarray((1,) * 66, dtype="float32", order="F")
    assert cp.empty((1,) * 64).ndim == 64


def test_row_stack_warns_as_numpy_2(recorded_launches):
    with pytest.warns(DeprecationWarning, match="`row_stack` alias is deprecated. Use `np.vstack` directly."):
        with pytest.raises(ValueError):  # (the warning comes first; the copy would need a device)
            cp.row_stack([cp.empty(3), cp.empty(4)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError):
            cp.vstack([cp.empty(3), cp.empty(4)])


@pytest.mark.parametrize("make", [lambda a: a.T[::2], lambda a: a[:, ::-2], lambda a: a.transpose(1, 0, 2)[:, 1:],
                                  lambda a: a[::-1].transpose(2, 0, 1)])
def test_ravel_k_order_of_non_contiguous_views(recorded_launches, make):
    """The order NumPy's 'K' reads: the same element sequence as NumPy's, checked on the index
    arithmetic (each element's byte offset) rather than values."""
    host = np.arange(4 * 6 * 5, dtype=np.int64).reshape(4, 6, 5)
    dev = cp.empty((4, 6, 5), dtype=np.int64)
    h, d = make(host), make(dev)
    want = np.ravel(h, order="K")
    # cuarray's K view before its C-order copy: same shape/strides arithmetic as NumPy's element order
    from cuarray._manipulation import shape as shape_mod
    seen = []
    orig = shape_mod.reshape

    def spy(a, newshape, order="C"):
        seen.append((a._shape, a._strides, a.data.ptr - dev.data.ptr))
        return orig(a, newshape, order)

    shape_mod.reshape = spy
    try:
        cp.ravel(d, order="K")
    finally:
        shape_mod.reshape = orig
    shp, strides, off = seen[-1]
    offs = np.zeros(shp, np.int64) + off
    for ax, (n, st) in enumerate(zip(shp, strides)):
        sh = [1] * len(shp)
        sh[ax] = n
        offs = offs + (np.arange(n) * st).reshape(sh)
    np.testing.assert_array_equal(offs.ravel() // 8, want)


def test_fuse_takes_none_and_python_scalars(recorded_launches):
    @cp.fuse
    def f(x, y=None, s=1.0):
        return x * 2.0 + s if y is None else x * y + s

    x = cp.empty(8, dtype="float32")
    assert f(x, None).shape == (8,)
    assert f(x, None, 3).dtype == np.float32
    assert f(x, x, 2.5).shape == (8,)
    assert f(2.0, None, 1.0) == 5.0  # scalars only: the plain function, as cupy.fuse
    assert len(recorded_launches) == 3
