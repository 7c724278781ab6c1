"""`DeviceScheduler` (Dask's threaded scheduler over several GPUs of one process) on the fake device
as two devices (conftest.py's `fake_runtime`: no kernel runs; copies, synchronisations and driver
calls recorded): a task runs on the device holding its inputs, a chunk never leaves its device
unless a task mixes devices, and then it crosses by one copy between the devices (peer access
turned on), never through the host, with no host synchronisation. Values: the GPU tests."""

from __future__ import annotations

import pytest

import cuarray
from cuarray.distributed.device_scheduler import DeviceScheduler, choose_device, place_task

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import cuarray.distributed  # noqa: E402

cuarray.distributed.register_dask()


def test_choose_device_follows_the_bytes_then_home():
    assert choose_device({}, 1) == 1
    assert choose_device({0: 100, 1: 40}, 1) == 0
    assert choose_device({0: 40, 1: 40}, 1) == 1 and choose_device({0: 40, 1: 40}, 3) == 0
    assert choose_device({2: 0}, 0) == 2  # zero-size inputs still say where they live


def test_outside_a_pool_thread_place_task_changes_nothing():
    info = ("task", {"k": 1})
    assert place_task(info) is info  # the scheduling thread reading back a result


def _two_device_array():
    """An (8, 6) float32 Dask array of four (2, 6) chunks: two on device 0, two on device 1
    (`from_array` copies its array: on the current device, as `ndarray.copy` does)."""
    parts = []
    for dev in (0, 1):
        with cuarray.cuda.Device(dev):
            parts.append(da.from_array(cuarray.ones((4, 6), dtype="float32"), chunks=(2, 6), asarray=False))
    return da.concatenate(parts)


def _devices_of(arrays):
    return [a.data.device_id for a in arrays]


def test_chunks_stay_on_their_device_and_only_mixed_tasks_copy_between_devices(fake_runtime):
    x = _two_device_array()
    del fake_runtime.copies[:]  # (from_array's own copies of its arrays, each on its device)
    with DeviceScheduler([0, 1]) as sched:
        y = (x * 2 + 1) / 3
        blocks = dask.compute(*y.to_delayed().ravel(), scheduler=sched)
        assert _devices_of(blocks) == [0, 0, 1, 1]
        assert fake_runtime.copies == []  # elementwise steps: nothing moved
        total = x.sum(split_every=2)  # chunks 0+1 on device 0, 2+3 on device 1, then one of each
        (out,) = dask.compute(total, scheduler=sched)
    assert isinstance(out, cuarray.ndarray) and out.shape == ()
    between = [c for c in fake_runtime.copies if c[1] != c[2]]
    assert [c[0] for c in between] == ["DtoD"] and {between[0][1], between[0][2]} == {0, 1}
    assert between[0][3] == 4  # one float32 partial sum crossed, not a chunk
    assert [c for c in fake_runtime.copies if c[0] != "DtoD"] == []  # nothing through the host
    assert fake_runtime.syncs == []
    calls = [name for name, _ in fake_runtime.driver.calls]
    assert "cuCtxEnablePeerAccess" in calls  # the copy between devices goes peer to peer
    assert not [n for n in calls if "Synchronize" in n or n.startswith("cuMemcpy")]


def test_tasks_without_inputs_run_on_their_threads_device(fake_runtime):
    with dask.config.set({"array.backend": "cuarray"}):
        x = da.ones((12, 4), chunks=(2, 4), dtype="float32")
    with DeviceScheduler([1], threads_per_device=2) as sched:
        blocks = dask.compute(*x.to_delayed().ravel(), scheduler=sched)
    assert _devices_of(blocks) == [1] * 6
    with DeviceScheduler([0, 1]) as sched:
        blocks = dask.compute(*x.to_delayed().ravel(), scheduler=sched)
    assert set(_devices_of(blocks)) <= {0, 1}


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="at least one device"):
        DeviceScheduler([])
    with pytest.raises(ValueError, match="threads_per_device"):
        DeviceScheduler([0], threads_per_device=0)


def test_zero_size_arrays_of_another_device_are_operands_like_any(fake_runtime):
    # Dask's meta arrays: zero-size views of chunks made under different devices meet in
    # `concatenate` when the graph is built. No memory is read: nothing to refuse.
    with cuarray.cuda.Device(1):
        m1, x1 = cuarray.empty((0, 6), dtype="float32"), cuarray.ones((2, 6), dtype="float32")
    m0 = cuarray.empty((0, 6), dtype="float32")
    assert cuarray.concatenate([m0, m1]).shape == (0, 6)
    assert (m0 + m1).shape == (0, 6)
    with pytest.raises(ValueError, match="an operand is on device 1 but the current device is 0"):
        cuarray.concatenate([m0, x1])  # a chunk of another device still is refused
