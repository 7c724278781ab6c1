"""Test configuration: the `gpu` marker skips, with the reason, when no CUDA device is usable."""

import os

import pytest

import cuarray


def pytest_report_header(config):
    reason = cuarray.cuda._backend.unavailable_reason()
    if reason is None:
        d = cuarray.cuda.Device()
        return "cuarray: GPU tests run on {} (sm_{})".format(d.name, d.compute_capability)
    return "cuarray: GPU tests skipped: {}".format(reason)


def pytest_collection_modifyitems(config, items):
    reason = cuarray.cuda._backend.unavailable_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason="needs a CUDA device: {}".format(reason))
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_leaked_stream():
    """A test that changes the current stream must not leak it into the next test."""
    yield
    default = cuarray.cuda.stream.default_stream()
    if cuarray.cuda.get_current_stream() is not default:
        default.use()


class HostOnlyBacking:
    """Segments at increasing fake addresses (`offset` bytes past 2**40): a MemoryPool over it
    allocates without a device."""

    def __init__(self, offset=0):
        self.next = (1 << 40) + offset

    def malloc(self, size, device_id):
        p = self.next
        self.next += size + 4096
        return p

    def free(self, ptr, size, device_id):
        pass

    def synchronize(self, device_id):
        pass

    def device_total(self, device_id):
        return 1 << 34


@pytest.fixture
def host_only_backing():
    return HostOnlyBacking


@pytest.fixture
def recorded_launches(monkeypatch):
    """The host path with no device: every launch is recorded (stream, config, kernel, args), a
    kernel is a placeholder `(name, layout, ndim, index type)`, memory comes from HostOnlyBacking.
    The shared kernel cache is fresh, so no placeholder reaches a later (GPU) test."""
    from cuarray._core import elementwise
    from cuarray.cuda import device, launch, memory, stream

    calls = []
    monkeypatch.setattr(launch, "_raw", lambda *a: calls.append(a))
    monkeypatch.setattr(launch, "_hook", None)
    monkeypatch.setattr(launch, "_configs", {})
    monkeypatch.setattr(launch, "launch_config", lambda g, b, sm=0: ("cfg", g, b, sm))
    launch._install()
    monkeypatch.setattr(stream.Stream.null, "_cs", "core stream")
    monkeypatch.setattr(stream.Stream.ptds, "_cs", "core stream (per thread)")
    # The current device's context counts as current in this thread: launches make no driver call.
    monkeypatch.setattr(device._tls, "active_context", device._tls.device_id)
    monkeypatch.setattr(elementwise.Definition, "_kernel",
                        lambda self, layout, nd, it: (self.name, layout, nd, it))
    monkeypatch.setattr(elementwise, "_shared_kernels", {})
    pool = memory.MemoryPool(backing=HostOnlyBacking())
    prev = memory.get_allocator()
    memory.set_allocator(pool.malloc)
    yield calls
    memory.set_allocator(prev)
    launch._raw = None
    launch.enqueue = launch._first_enqueue


def pytest_addoption(parser):
    """The GPU fuzzer's budget (tests/fuzz/test_fuzz_gpu.py): a time box, a number of calls, a seed."""
    group = parser.getgroup("cuarray fuzz")
    group.addoption("--fuzz-seconds", type=float, default=60.0, help="time box of the GPU fuzz run (s)")
    group.addoption("--fuzz-calls", type=int, default=None, help="stop after this many calls")
    group.addoption("--fuzz-seed", type=int, default=0, help="seed of the GPU fuzz run")
    group.addoption("--fuzz-rows", default="", help="comma-separated substrings: only matching catalog rows")
