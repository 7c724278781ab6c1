"""CUDA runtime-style helpers (`cupy.cuda.runtime` names) over cuda.bindings."""

from __future__ import annotations

from . import _backend
from .device import get_device_count

__all__ = ["getDeviceCount", "driverGetVersion", "runtimeGetVersion", "getDevice", "setDevice",
           "deviceSynchronize", "memGetInfo", "is_available"]

is_available = _backend.is_available


def getDeviceCount() -> int:
    """Number of CUDA devices (0 when there is no driver, instead of an error)."""
    return get_device_count()


def driverGetVersion() -> int:
    """The driver's CUDA version as an int, e.g. 13000 for 13.0."""
    _backend.ensure_initialized()
    return int(_backend.check(_backend.driver().cuDriverGetVersion()))


def runtimeGetVersion() -> int:
    """NVRTC's version (cuarray compiles with NVRTC and needs no cudart), e.g. 13000."""
    major, minor = _backend.check(_backend.nvrtc().nvrtcVersion())
    return int(major) * 1000 + int(minor) * 10


def getDevice() -> int:
    from .device import get_device_id

    return get_device_id()


def setDevice(device: int) -> None:
    from .device import Device

    Device(device).use()


def deviceSynchronize() -> None:
    from .device import synchronize

    synchronize()


def memGetInfo() -> tuple[int, int]:
    from .device import Device

    return Device().mem_info
