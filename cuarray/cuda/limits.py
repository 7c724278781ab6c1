"""The CUDA limits the planners size grids and tiles by, in one place.

- `shared_per_block(device_id=None)`: the dynamic shared memory a block may use without opting in
  to more (the device property cudaDevAttrMaxSharedMemoryPerBlock), queried once per device and
  cached; a simulated device (`cuarray.testing.fake_device`) gives its own. A kernel that wants
  more must set its max-dynamic-shared-memory attribute first (`allow_dynamic_shared`).
- `shared_per_block_optin(device_id=None)`: the most a block may use after that opt-in
  (cudaDevAttrMaxSharedMemoryPerBlockOptin: 227 KiB on sm_90), or `shared_per_block` where
  there is no device.
- `allow_dynamic_shared(kernel, nbytes, device_id=None)`: that opt-in for one kernel, once per
  kernel, device and size (interp1d's staged knot table is the one kernel that asks).
- `SHARED_PER_BLOCK`: that property's value on every GPU cuarray supports (sm_70 and later,
  48 KiB), the named default where there is no device to ask (the CPU tests), and the value
  the planners bake into a kernel's specialisation use (sort_plan, ndimage's _filter_tile,
  sparse's _spgemm_plan: code generation, whose kernel names must not depend on the device).
- `MAX_GRID_X`: blocks along x at most (cudaDevAttrMaxGridDimX).
"""

from __future__ import annotations

from . import _backend
from . import device as _device
from . import caches as _caches

__all__ = ["SHARED_PER_BLOCK", "MAX_GRID_X", "shared_per_block", "shared_per_block_optin", "allow_dynamic_shared"]

SHARED_PER_BLOCK = 48 * 1024
MAX_GRID_X = 2**31 - 1


def shared_per_block(device_id: int | None = None) -> int:
    """cudaDevAttrMaxSharedMemoryPerBlock of `device_id` (default: the current device), from the
    device's properties (cached per device), or `SHARED_PER_BLOCK` when there is no device."""
    if device_id is None:
        device_id = _device.get_device_id()
    n = _device._SHARED_PER_BLOCK.get(device_id)
    if n is not None:
        return n
    if _device._simulated is None and not _backend.is_available():
        return SHARED_PER_BLOCK
    return _device._shared_per_block(device_id)


def shared_per_block_optin(device_id: int | None = None) -> int:
    """cudaDevAttrMaxSharedMemoryPerBlockOptin of `device_id` (default: the current device), cached
    per device; `shared_per_block` where there is no device."""
    if device_id is None:
        device_id = _device.get_device_id()
    n = _device._SHARED_PER_BLOCK_OPTIN.get(device_id)
    if n is None:
        asked = _device._simulated is not None or _backend.is_available()
        n = _device._shared_per_block_optin(device_id) if asked else shared_per_block(device_id)
    return n


_allowed: dict = {}  # (kernel handle, device) -> the dynamic shared bytes its attribute allows
_caches.register("kernel shared-memory limits", _allowed)


def allow_dynamic_shared(kernel, nbytes: int, device_id: int | None = None) -> None:
    """Let `kernel` (a compiled kernel: `.handle`, a CUkernel) launch with `nbytes` of dynamic
    shared memory on `device_id` (default: the current device): its
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, set through cuKernelSetAttribute where the
    bytes pass the 48 KiB a launch gets without it, once per kernel, device and larger size.
    ValueError past `shared_per_block_optin`."""
    nbytes = int(nbytes)
    if nbytes <= SHARED_PER_BLOCK:
        return
    if device_id is None:
        device_id = _device.get_device_id()
    handle = getattr(kernel, "handle", None)
    if handle is None and _device._simulated is None:
        raise TypeError("allow_dynamic_shared takes a compiled kernel (with a CUkernel .handle), got {!r}".format(kernel))
    key = (id(kernel) if handle is None else handle, device_id)
    if _allowed.get(key, 0) >= nbytes:
        return
    most = shared_per_block_optin(device_id)
    if nbytes > most:
        raise ValueError("{} bytes of dynamic shared memory a block: device {} allows {}".format(nbytes, device_id, most))
    if _device._simulated is not None:  # a simulated device: no driver to tell
        _allowed[key] = nbytes
        return
    drv = _backend.driver()
    _backend.check(drv.cuKernelSetAttribute(
        drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, nbytes, drv.CUkernel(kernel.handle),
        device_id))
    _allowed[key] = nbytes
