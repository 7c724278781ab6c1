"""CUDA runtime-style helpers (`cupy.cuda.runtime` names) over cuda.bindings.

cuarray needs no cudart: each function asks the driver (or NVRTC, for the toolkit version) for
what the runtime call of the same name returns. Errors raise `CUDARuntimeError`.
"""

from __future__ import annotations

from . import _backend, _sync_hooks
from ._backend import CUDARuntimeError as CUDARuntimeError
from .device import get_device_count
from .device import _core_device, can_access_peer, Device, enable_peer_access, get_device_id, synchronize

__all__ = ["getDeviceCount", "driverGetVersion", "runtimeGetVersion", "getDevice", "setDevice",
           "deviceSynchronize", "deviceCanAccessPeer", "deviceEnablePeerAccess", "memGetInfo", "getDeviceProperties", "deviceGetAttribute", "streamCreate",
           "streamCreateWithFlags", "streamDestroy", "streamSynchronize", "streamNonBlocking",
           "streamDefault", "streamLegacy", "streamPerThread", "CUDARuntimeError", "is_available"]

is_available = _backend.is_available

# cudaStream_t values and flags, as cupy.cuda.runtime names them.
streamDefault = 0
streamNonBlocking = 1
streamLegacy = 1
streamPerThread = 2


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
    return get_device_id()


def setDevice(device: int) -> None:
    Device(device).use()


def deviceSynchronize() -> None:
    synchronize()


def deviceCanAccessPeer(device: int, peerDevice: int) -> int:
    """1 when `device` can reach `peerDevice`'s memory directly, else 0."""
    return int(can_access_peer(device, peerDevice))


def deviceEnablePeerAccess(peerDevice: int, flags: int = 0) -> None:
    """`cuarray.cuda.enable_peer_access(peerDevice)` for the current device, raising
    CUDARuntimeError where the hardware cannot (as cudaDeviceEnablePeerAccess does); enabling a
    pair twice is not an error here."""
    if not enable_peer_access(peerDevice):
        raise CUDARuntimeError("cudaErrorPeerAccessUnsupported: device {} cannot access device {}'s "
                               "memory".format(get_device_id(), peerDevice))


def memGetInfo() -> tuple[int, int]:
    return Device().mem_info


def deviceGetAttribute(attrib: int, device: int) -> int:
    """The value of CUDA device attribute number `attrib` (a ``cudaDevAttr*`` value)."""
    _core_device(device)
    drv = _backend.driver()
    return int(_backend.check(drv.cuDeviceGetAttribute(drv.CUdevice_attribute(int(attrib)), device)))


def getDeviceProperties(device: int) -> dict:
    """A dict of the device's properties under ``cudaDeviceProp``'s field names, as
    `cupy.cuda.runtime.getDeviceProperties` returns (``name`` is bytes, as there)."""
    dev = Device(device)
    attrs = dev.attributes
    free, total = dev.mem_info
    props = {"name": dev.name.encode(), "totalGlobalMem": total,
             "major": attrs.get("ComputeCapabilityMajor"), "minor": attrs.get("ComputeCapabilityMinor"),
             "pciBusID": attrs.get("PciBusId"), "pciDeviceID": attrs.get("PciDeviceId"),
             "pciDomainID": attrs.get("PciDomainId"), "multiProcessorCount": attrs.get("MultiProcessorCount"),
             "warpSize": attrs.get("WarpSize"), "maxThreadsPerBlock": attrs.get("MaxThreadsPerBlock"),
             "maxThreadsDim": (attrs.get("MaxBlockDimX"), attrs.get("MaxBlockDimY"), attrs.get("MaxBlockDimZ")),
             "maxGridSize": (attrs.get("MaxGridDimX"), attrs.get("MaxGridDimY"), attrs.get("MaxGridDimZ")),
             "sharedMemPerBlock": attrs.get("MaxSharedMemoryPerBlock"),
             "sharedMemPerBlockOptin": attrs.get("MaxSharedMemoryPerBlockOptin"),
             "sharedMemPerMultiprocessor": attrs.get("MaxSharedMemoryPerMultiprocessor"),
             "regsPerBlock": attrs.get("MaxRegistersPerBlock"),
             "regsPerMultiprocessor": attrs.get("MaxRegistersPerMultiprocessor"),
             "maxThreadsPerMultiProcessor": attrs.get("MaxThreadsPerMultiProcessor"),
             "clockRate": attrs.get("ClockRate"), "memoryClockRate": attrs.get("MemoryClockRate"),
             "memoryBusWidth": attrs.get("GlobalMemoryBusWidth"), "l2CacheSize": attrs.get("L2CacheSize"),
             "totalConstMem": attrs.get("TotalConstantMemory"), "ECCEnabled": attrs.get("EccEnabled"),
             "integrated": attrs.get("Integrated"), "concurrentKernels": attrs.get("ConcurrentKernels"),
             "managedMemory": attrs.get("ManagedMemory"), "unifiedAddressing": attrs.get("UnifiedAddressing"),
             "cooperativeLaunch": attrs.get("CooperativeLaunch"), "asyncEngineCount": attrs.get("AsyncEngineCount")}
    return props


def streamCreate() -> int:
    """A new blocking stream on the current device, as its ``cudaStream_t`` int; free it with
    `streamDestroy`."""
    return streamCreateWithFlags(streamDefault)


def streamCreateWithFlags(flag: int) -> int:
    _core_device()
    return int(_backend.check(_backend.driver().cuStreamCreate(int(flag))))


def streamDestroy(stream: int) -> None:
    _backend.check(_backend.driver().cuStreamDestroy(int(stream)))


def streamSynchronize(stream: int) -> None:
    _backend.check(_backend.driver().cuStreamSynchronize(int(stream)))
    _sync_hooks.run()
