"""`fake_runtime`: the fake device (cuarray.testing.fake_device.recording: launches recorded, no
kernel runs) as two devices, with every host synchronisation, copy and driver call counted, for
the CPU tests of what Dask makes cuarray do per chunk. Two devices need nothing of the fake device
but `device.simulate` (no ordinal check, no context) and a driver for the few calls a copy between
devices makes (events, peer access): `FakeDriver`, which answers those and records every call."""

from __future__ import annotations

import types

import pytest

from cuarray.cuda import _backend, _sync_hooks
from cuarray.cuda import device as _device
from cuarray.testing.fake_device import FakeCompiles, recording_fake_compiles

# The driver calls a copy between devices makes; anything else (a synchronisation, a copy that
# does not go through the observed MemoryPointer methods) is recorded and answered with an error.
_ANSWERS = {"cuEventCreate": (0, 7), "cuEventRecord": (0,), "cuEventDestroy": (0,), "cuStreamWaitEvent": (0,),
            "cuDeviceGet": (0, 0), "cuDeviceCanAccessPeer": (0, 1), "cuCtxGetCurrent": (0, 9),
            "cuCtxEnablePeerAccess": (0,)}


class FakeDriver:
    """cuda.bindings.driver's enums, and functions that record (name, args) and answer `_ANSWERS`."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        if not name.startswith("cu"):
            from cuda.bindings import driver  # its enums only (no driver library is loaded for them)

            return getattr(driver, name)

        def call(*args):
            self.calls.append((name, args))
            if name not in _ANSWERS:
                raise AssertionError("unexpected driver call {}{}".format(name, args))
            return _ANSWERS[name]

        return call


class CountingCopies(FakeCompiles):
    """The observer: compiles are placeholders (FakeCompiles), copies recorded and not made:
    (kind, destination device, source device, bytes); a host side has device None."""

    def __init__(self):
        self.copies = []

    def copy(self, kind, call, dst, other, size, stream):
        self.copies.append((kind, getattr(dst, "device_id", None), getattr(other, "device_id", None), size))


@pytest.fixture
def fake_runtime(monkeypatch):
    drv = FakeDriver()
    obs = CountingCopies()
    syncs = []

    def sync_hook():
        syncs.append(1)

    monkeypatch.setattr(_backend, "driver", lambda: drv)
    monkeypatch.setattr(_device, "_first_use", [False])
    monkeypatch.setattr(_device, "_peer_access", {})
    monkeypatch.setattr(_device, "_seen_devices", set())
    # No primary context: on a machine with GPUs, a context retained by an earlier GPU test would
    # be made current through the fake driver. (Threads that ran here must end with the test:
    # their per-thread context records are fake.)
    monkeypatch.setattr(_device, "_primary", {})
    multi = _device.multi_device[0]  # (the engines hold this list itself: its item is restored)
    with recording_fake_compiles(obs) as launches:
        _sync_hooks.register(sync_hook)
        try:
            yield types.SimpleNamespace(driver=drv, copies=obs.copies, syncs=syncs, launches=launches)
        finally:
            _sync_hooks.unregister(sync_hook)
            _device.multi_device[0] = multi
