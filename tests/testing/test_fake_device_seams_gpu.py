"""On a device: the fake device's recorder is a backend selected for its block, and the real
runtime's launch path, configs, kernels and hook are whole again after it (the same process
launches real kernels before, nothing real inside, and real kernels after)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray
from cuarray.cuda import backend, launch
from cuarray.testing import fake_device

pytestmark = pytest.mark.gpu


def _work(n):
    """An elementwise launch, a fused reduction and a kernel family's launch (sort): host results."""
    a = cuarray.arange(n, dtype=cuarray.float32)
    return (a * 2 + 1).get(), float((a * a).sum().get()), cuarray.sort(a[::-1]).get()


def _check(n, got):
    h = np.arange(n, dtype=np.float32)
    np.testing.assert_array_equal(got[0], h * 2 + 1)
    np.testing.assert_allclose(got[1], float((h.astype(np.float64) ** 2).sum()), rtol=1e-5)
    np.testing.assert_array_equal(got[2], h)


def test_real_launches_before_and_after_a_recording():
    n = 4099
    _check(n, _work(n))
    seen = []
    prev_hook = launch.set_launch_hook(lambda raw, s, c, k, args: (seen.append(k), raw(s, c, k, *args)))
    try:
        with fake_device.recording() as calls:
            assert backend.selected() is not backend.CUDA
            x = cuarray.empty(n, np.float32)
            cuarray.multiply(x, 2.0, out=x)
            assert calls and calls[-1][1][0] == "cfg", calls[-1]
            assert not seen, "the real launch hook saw a recorded launch"
        assert backend.selected() is backend.CUDA
        _check(n, _work(n))
        assert seen, "the launch hook set before the recording no longer sees launches"
        assert all(type(k) is not tuple and not isinstance(k, str) for k in seen), seen[:3]
        assert all(type(c).__name__ != "tuple" for c in launch._configs.values())
    finally:
        launch.set_launch_hook(prev_hook)
