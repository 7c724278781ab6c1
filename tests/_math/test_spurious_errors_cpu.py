"""Issue 54, "spurious errors": NumPy answers, cuarray raised. The host halves on the fake device
(launches recorded, no GPU); diff and histogram with host values and the
comparisons' constant answers need the device's copies (the GPU file)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp


@pytest.mark.parametrize("axis", [0, -1, np.int64(0)])
def test_squeeze_0d_int_axis(recorded_launches, axis):
    a = cp.empty((), dtype="float32")
    assert np.squeeze(np.empty(()), axis=axis).shape == ()
    assert cp.squeeze(a, axis=axis).shape == ()
    assert a.squeeze(axis=axis).shape == ()


@pytest.mark.parametrize("axis", [(0,), 1, (-1,), (0, 0)])
def test_squeeze_0d_other_axes_raise(recorded_launches, axis):
    with pytest.raises(np.exceptions.AxisError):
        np.squeeze(np.empty(()), axis=axis)
    with pytest.raises(np.exceptions.AxisError):
        cp.squeeze(cp.empty(()), axis=axis)
