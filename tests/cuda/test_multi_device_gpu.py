"""Two devices in one process: an array of device 0 used under Device(1) is copied there by
asarray/array/to_device (peer to peer where the hardware allows), after the work queued on
device 0; copy=False refuses. Skips with one GPU."""

import numpy as np
import pytest

import cuarray
from cuarray.testing import shaped_random

pytestmark = pytest.mark.gpu


@pytest.fixture
def two_devices():
    if cuarray.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    return cuarray.cuda.Device(0), cuarray.cuda.Device(1)


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int8", "bool"])
def test_asarray_copies_from_the_other_device(two_devices, dtype):
    d0, d1 = two_devices
    with d0:
        a = shaped_random((300, 200), cuarray, dtype, seed=1)
        view = a[::-2, 1::3]                      # negative-stride, non-contiguous view
        host, host_view = a.get(), view.get()
    with d1:
        b = cuarray.asarray(a)
        c = cuarray.array(view)
        e = cuarray.asarray(view, dtype="complex128")
        assert b.device == d1 and c.device == d1 and e.device == d1
        assert np.array_equal(b.get(), host) and np.array_equal(c.get(), host_view)
        assert np.array_equal(e.get(), host_view.astype("complex128"))
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            cuarray.asarray(a, copy=False)
    assert cuarray.asarray(a) is a                # same device: no copy


def test_copy_waits_for_work_on_the_source_device(two_devices):
    d0, d1 = two_devices
    with d0:
        x = cuarray.arange(1 << 24, dtype="float64")
        for _ in range(20):                       # a queue of work on device 0's stream
            x = x * 1.0000001 + 1.0
        want = x.get()
        x = cuarray.arange(1 << 24, dtype="float64")
        for _ in range(20):
            x = x * 1.0000001 + 1.0
    with d1:
        got = cuarray.asarray(x)                  # no synchronisation in between
        assert np.array_equal(got.get(), want)


def test_to_device(two_devices):
    d0, d1 = two_devices
    with d0:
        a = shaped_random((1000,), cuarray, "float32", seed=2)
    b = a.to_device(d1)
    assert b.device == d1 and np.array_equal(b.get(), a.get())
    assert a.to_device(d0) is a
    with d1:
        s = cuarray.cuda.Stream(non_blocking=True)
    c = a.to_device(1, stream=s)
    s.synchronize()
    assert c.device == d1 and np.array_equal(c.get(), a.get())
