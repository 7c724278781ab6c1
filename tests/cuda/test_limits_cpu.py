"""The shared-memory limit comes from the device's properties (queried once per device), a
simulated device's where one stands in, and the named default where there is no device."""

from __future__ import annotations

import pytest

from cuarray.cuda import _backend, device, limits


@pytest.fixture
def simulated(monkeypatch):
    monkeypatch.setattr(device, "_first_use", [device._first_use[0]])
    monkeypatch.setattr(device, "_SM_COUNT", {})
    monkeypatch.setattr(device, "_SHARED_PER_BLOCK", {})
    yield lambda props: device.simulate(props)
    device.simulate(None)


def test_a_simulated_device_gives_its_properties_once_per_device(simulated):
    simulated({"multiprocessor_count": 7, "max_shared_memory_per_block": 12345})
    assert limits.shared_per_block() == 12345 and limits.shared_per_block(1) == 12345
    assert device._sm_count(0) == 7
    assert device._SHARED_PER_BLOCK == {0: 12345, 1: 12345}  # cached per device
    simulated({"multiprocessor_count": 8, "max_shared_memory_per_block": 99 * 1024})
    assert limits.shared_per_block() == 99 * 1024  # a new simulation forgets the cached values
    device._check_ordinal(5)  # no driver asked


@pytest.mark.skipif(_backend.is_available(), reason="a device answers for itself")
def test_without_a_device_the_named_default(simulated):
    simulated(None)
    assert limits.shared_per_block() == limits.SHARED_PER_BLOCK == 48 * 1024
    assert device._SHARED_PER_BLOCK == {}  # nothing cached: a device found later is asked


def test_opt_in_limit_and_the_kernel_attribute_on_a_simulated_device(simulated, monkeypatch):
    monkeypatch.setattr(device, "_SHARED_PER_BLOCK_OPTIN", {})
    monkeypatch.setattr(limits, "_allowed", {})
    simulated({"multiprocessor_count": 7, "max_shared_memory_per_block": 48 * 1024})
    assert limits.shared_per_block_optin() == 48 * 1024  # none given: the plain limit
    simulated({"multiprocessor_count": 7, "max_shared_memory_per_block": 48 * 1024,
               "max_shared_memory_per_block_optin": 227 * 1024})
    assert limits.shared_per_block_optin(1) == 227 * 1024 and device._SHARED_PER_BLOCK_OPTIN == {1: 227 * 1024}

    class K:
        handle = 0x1234

    limits.allow_dynamic_shared(K, 1000)  # within what every launch gets: nothing to set
    assert limits._allowed == {}
    limits.allow_dynamic_shared(K, 160000)
    assert limits._allowed == {(0x1234, 0): 160000}
    with pytest.raises(ValueError, match="232449 bytes of dynamic shared memory a block: device 0 allows 232448"):
        limits.allow_dynamic_shared(K, 227 * 1024 + 1)
    assert limits._allowed == {(0x1234, 0): 160000}


@pytest.mark.skipif(_backend.is_available(), reason="a device answers for itself")
def test_allow_dynamic_shared_wants_a_compiled_kernel(simulated, monkeypatch):
    simulated(None)
    monkeypatch.setattr(limits, "_allowed", {})
    limits.allow_dynamic_shared(object(), 48 * 1024)  # what every launch gets: nothing to check
    with pytest.raises(TypeError, match="compiled kernel"):
        limits.allow_dynamic_shared(object(), 100000)
    assert limits._allowed == {}
