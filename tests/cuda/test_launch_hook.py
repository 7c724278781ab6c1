"""`launch.enqueue` and the launch hook: every kernel launch of cuarray passes one point.

CPU part: cuda.core's launch is replaced by a recorder, so the hook's contract (it sees the
stream, config, kernel and arguments, and calls the real launch itself) is checked without a
device. GPU part: one op of each family, counting the launches the hook sees.
"""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend
from cuarray.cuda import _driver_objects
from cuarray.cuda import device as _device
from cuarray.cuda import launch
from cuarray.testing.fake_device import fake_core


@pytest.fixture
def recorded(monkeypatch):
    """cuda.core's launch replaced by a recorder; the hook state restored afterwards."""
    calls = []
    monkeypatch.setattr(launch, "_raw", lambda *a: calls.append(a))
    monkeypatch.setattr(launch, "_hook", None)
    launch._install()
    yield calls
    launch._hook = None
    launch._raw = None
    launch.reset()


def test_without_a_hook_enqueue_is_the_launch_itself(recorded):
    assert launch.enqueue is launch._raw  # no wrapper frame on the hot path
    launch.enqueue("s", "cfg", "k", 1, 2)
    assert recorded == [("s", "cfg", "k", 1, 2)]


def test_hook_sees_every_launch_and_calls_the_real_one(recorded):
    seen = []

    def hook(real, stream, config, kernel, args):
        seen.append((stream, config, kernel, args))
        real(stream, config, kernel, *args)

    assert launch.set_launch_hook(hook) is None
    assert launch.get_launch_hook() is hook
    launch.enqueue("s", "cfg", "k", 7, np.int32(3))
    assert seen == [("s", "cfg", "k", (7, np.int32(3)))]
    assert recorded == [("s", "cfg", "k", 7, np.int32(3))]
    assert launch.set_launch_hook(None) is hook
    assert launch.enqueue is launch._raw
    with pytest.raises(TypeError, match="must be callable"):
        launch.set_launch_hook("not a function")
    assert launch.get_launch_hook() is None and launch.enqueue is launch._raw  # unchanged


def test_launch_goes_through_enqueue(recorded, monkeypatch):
    """`launch.launch` (every non-prepared launch site) ends in the same enqueue: stream given."""
    seen = []
    launch.set_launch_hook(lambda real, s, c, k, a: seen.append((s, k, a)))

    class FakeStream:
        _cs = "core stream"
        device_id = -1  # a default stream: launches on the current device

    # This thread's context counts as current (no driver here): launch() then makes no driver call.
    monkeypatch.setattr(_device._tls, "active_context", _device._tls.device_id)

    monkeypatch.setattr(launch, "launch_config", lambda g, b, sm=0: ("cfg", g, b, sm))
    monkeypatch.setattr(launch, "_configs", {})
    launch.launch("kernel", 3, 128, (1, 2), stream=FakeStream())
    launch.launch("kernel", 0, 128, (1, 2), stream=FakeStream())  # a zero grid is never launched
    assert seen == [("core stream", "kernel", (1, 2))]


def test_first_enqueue_installs_cuda_core_launch(monkeypatch):
    calls = []

    core = fake_core(launch=lambda *a: calls.append(a))
    monkeypatch.setattr(_backend, "_core_override", None)  # restored after the test
    _backend.use_core(core)
    monkeypatch.setenv("CUARRAY_PURE_PYTHON_LAUNCH", "1")  # the C path: test_launch_native.py
    monkeypatch.setattr(launch, "_raw", None)
    monkeypatch.setattr(launch, "_hook", None)
    monkeypatch.setattr(launch, "enqueue", launch._first_enqueue)
    launch.enqueue("s", "c", "k")
    # cuda.core's launch, through the one function that hands it cuda.core's objects (these
    # foreign ones pass unchanged), behind the large-struct fallback
    assert calls == [("s", "c", "k")] and launch.enqueue.__wrapped__ is _driver_objects.core_launch


@pytest.mark.gpu
@pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))
def test_one_op_of_each_family_is_seen_by_the_hook():
    import cuarray

    x = cuarray.asarray(np.arange(1000, dtype=np.float32))
    y = cuarray.asarray(np.arange(1000, dtype=np.float32)[::-1].copy())
    idx = cuarray.asarray(np.array([3, 1, 2]))
    rng = cuarray.random.default_rng(0)
    ops = {
        "ufunc fast path": lambda: x + y,
        "ufunc general": lambda: cuarray.add(x[::2], 1.0, out=cuarray.empty(500, np.float32)),
        "reduction": lambda: x.sum(),
        "scan": lambda: cuarray.cumsum(x),
        "advanced indexing": lambda: x[idx],
        "sort": lambda: cuarray.sort(y),
        "random": lambda: rng.random(10),
        "concatenate": lambda: cuarray.concatenate([x, y, x, y, x, y]),
        "copy": lambda: x[::3].copy(),
    }
    for f in ops.values():  # compile everything first
        f()
    cuarray.cuda.synchronize()
    counts = {}

    def hook(real, stream, config, kernel, args):
        counts[current] = counts.get(current, 0) + 1
        real(stream, config, kernel, *args)

    prev = launch.set_launch_hook(hook)
    try:
        for current, f in ops.items():
            f()
    finally:
        launch.set_launch_hook(prev)
    cuarray.cuda.synchronize()
    assert {name: counts.get(name, 0) >= 1 for name in ops} == {name: True for name in ops}, counts
    np.testing.assert_array_equal((x + y).get(), np.full(1000, 999, np.float32))  # hook removed, still right
