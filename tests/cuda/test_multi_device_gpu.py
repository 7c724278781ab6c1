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


def test_work_on_the_second_device_matches_numpy(two_devices):
    # Kernels, cuBLAS handles and reduction workspaces of device 0 must not leak into device 1's
    # work: the same operations, run first on device 0, then on device 1.
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((257, 129)), rng.standard_normal((129, 65))
    idx = rng.integers(0, 257, 50)
    want = (np.sin(x) * 2 + 1, x.sum(axis=0), x.max(), x @ y, np.cumsum(x, axis=1), np.sort(x, axis=0),
            x[idx], x[x > 1])
    for dev in two_devices + two_devices[::-1]:
        with dev:
            a, b, i = cuarray.asarray(x), cuarray.asarray(y), cuarray.asarray(idx)
            got = (cuarray.sin(a) * 2 + 1, a.sum(axis=0), a.max(), a @ b, cuarray.cumsum(a, axis=1),
                   cuarray.sort(a, axis=0), a[i], a[a > 1])
            for g, w in zip(got, want):
                assert g.device == dev
                np.testing.assert_allclose(g.get(), w, rtol=1e-12, atol=1e-12)


def test_operations_refuse_operands_of_another_device(two_devices, monkeypatch):
    d0, d1 = two_devices
    monkeypatch.setattr(cuarray.cuda.device, "_peer_allowed", set())
    with d0:
        a = shaped_random((128, 64), cuarray, "float32", seed=4)
        idx = cuarray.arange(10)
    with d1:
        b = shaped_random((128, 64), cuarray, "float32", seed=5)
        for call in (lambda: a + b, lambda: b * a, lambda: a * 2, lambda: cuarray.sum(a), lambda: a.max(axis=1),
                     lambda: b @ a.T, lambda: cuarray.copyto(b, a), lambda: b.__setitem__(Ellipsis, a),
                     lambda: b[idx], lambda: cuarray.cumsum(a), lambda: cuarray.sort(a), lambda: a.astype("f8"),
                     lambda: cuarray.RawKernel('extern "C" __global__ void k(float* x) {}', "k")(1, 1, (a,))):
            with pytest.raises(ValueError, match="operand is on device 0 but the current device is 1"):
                call()
        c = a.copy()                              # CuPy's rule: a copy on the current device
        assert c.device == d1 and np.array_equal(c.get(), a.get())
    assert np.array_equal((a + 1).get(), a.get() + 1)   # on its own device all is well


def test_routines_on_raw_pointers_refuse_operands_of_another_device(two_devices, monkeypatch):
    # searchsorted, histograms, percentile selection, random out= and cuSPARSE hand raw pointers
    # to their kernels; each refuses before launching, and the devices stay usable afterwards.
    d0, d1 = two_devices
    monkeypatch.setattr(cuarray.cuda.device, "_peer_allowed", set())
    with d0:
        a = cuarray.sort(shaped_random((4096,), cuarray, "float32", seed=6))
        ints = cuarray.arange(4096) % 7
        m = cuarray.sparse.random(300, 200, density=0.05, format="csr", dtype="float32", random_state=1)
    with d1:
        b = shaped_random((4096,), cuarray, "float32", seed=7)
        x = shaped_random((200,), cuarray, "float32", seed=8)
        rng = cuarray.random.default_rng(3)
        for call in (lambda: cuarray.searchsorted(a, b), lambda: cuarray.histogram(a, bins=8, range=(0.0, 1.0)),
                     lambda: cuarray.bincount(ints), lambda: cuarray.percentile(a, 50.0),
                     lambda: m @ x):
            with pytest.raises(ValueError, match="operand is on device 0 but the current device is 1"):
                call()
    with d1:
        with pytest.raises(ValueError, match="operand is on device 0 but the current device is 1"):
            rng.random(out=a)
        assert np.array_equal(cuarray.searchsorted(b, b).get(), np.searchsorted(b.get(), b.get()))
    with d0:
        np.testing.assert_allclose((m @ cuarray.asarray(x)).get(), m.get() @ x.get(), rtol=1e-5, atol=1e-6)


def test_peer_access_functions_check_their_devices(two_devices):
    d0, d1 = two_devices
    rt = cuarray.cuda.runtime
    assert rt.deviceCanAccessPeer(0, 0) == 0
    assert rt.deviceCanAccessPeer(d0, d1) == rt.deviceCanAccessPeer(0, 1)
    for call in (lambda: rt.deviceCanAccessPeer(0, 99), lambda: rt.deviceCanAccessPeer(-1, 0),
                 lambda: cuarray.cuda.enable_peer_access(99)):
        with pytest.raises(cuarray.cuda.runtime.CUDARuntimeError, match="invalid device ordinal"):
            call()
    with d0:
        assert (cuarray.arange(4) + 1).get().tolist() == [1, 2, 3, 4]  # still usable


def test_peer_access_lets_kernels_read_the_other_device(two_devices, monkeypatch):
    d0, d1 = two_devices
    monkeypatch.setattr(cuarray.cuda.device, "_peer_allowed", set())
    with d1:
        if not cuarray.cuda.runtime.deviceCanAccessPeer(1, 0):
            pytest.skip("no peer access between devices 0 and 1")
    with d0:
        a = shaped_random((1000, 30), cuarray, "float64", seed=6)
        d0.synchronize()                          # ordering across devices is the caller's
    with d1:
        b = shaped_random((1000, 30), cuarray, "float64", seed=7)
        assert cuarray.cuda.enable_peer_access(0)
        s, t = b + a, cuarray.sum(a, axis=0)
        assert s.device == d1 and t.device == d1
        np.testing.assert_allclose(s.get(), b.get() + a.get())
        np.testing.assert_allclose(t.get(), a.get().sum(axis=0))
    with d0, pytest.raises(ValueError, match="operand is on device 1"):
        a + b                                     # only the direction enabled


def test_get_and_set_of_another_devices_array_follow_its_work(two_devices):
    d0, d1 = two_devices
    with d0:
        x = cuarray.arange(1 << 24, dtype="float64")
        for _ in range(20):
            x = x * 1.0000001 + 1.0
        want = x.get()
        x = cuarray.arange(1 << 24, dtype="float64")
        for _ in range(20):                       # queued on device 0, not waited for
            x = x * 1.0000001 + 1.0
    with d1:
        assert np.array_equal(x.get(), want)      # copied on device 0's stream, after its work
        host = np.random.default_rng(8).standard_normal(1 << 24)
        x.set(host)
    with d0:
        assert np.array_equal((x + 0).get(), host)
