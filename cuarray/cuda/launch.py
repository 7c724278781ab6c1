"""HOT PATH: launching a compiled kernel.

Measured on an H200 (DEPENDENCIES.md 2.4): cuda.core's `launch` with a cached Kernel and a cached
LaunchConfig costs ~4 us; a fresh LaunchConfig adds 0.5 us, and going through `cuLaunchKernel`
ourselves gains nothing. So this module only caches LaunchConfigs and picks grids.

Kernel arguments must already be of their C type: numpy scalars (np.int32(n), np.float32(x), ...)
for values, Python ints for pointers (cuda.core passes a Python int as an 8-byte pointer).
"""

from __future__ import annotations

from . import _backend
from . import device as _device
from . import stream as _stream

__all__ = ["launch", "launch_config", "grid_for", "MAX_GRID_X"]

MAX_GRID_X = 2**31 - 1

_configs: dict = {}
_launch_fn = None


def launch_config(grid, block, shared_mem: int = 0):
    """A cached cuda.core LaunchConfig for (grid, block, shared_mem)."""
    key = (grid, block, shared_mem)
    cfg = _configs.get(key)
    if cfg is None:
        cfg = _configs[key] = _backend.core().LaunchConfig(grid=grid, block=block, shmem_size=shared_mem)
    return cfg


def launch(kernel, grid, block, args, shared_mem: int = 0, stream=None) -> None:
    """Launch a cuda.core Kernel on `stream` (default: the current stream).

    `grid` and `block` are ints or tuples. A zero-sized grid is never launched (CUDA rejects it);
    callers skip empty work before getting here, this is the last guard.
    """
    global _launch_fn
    if stream is None:
        stream = _stream.get_current_stream()
    cs = stream._cs
    if cs is None:
        cs = stream._core()
    cfg = _configs.get((grid, block, shared_mem))
    if cfg is None:
        if grid == 0 or (isinstance(grid, tuple) and 0 in grid):
            return
        cfg = launch_config(grid, block, shared_mem)
    fn = _launch_fn
    if fn is None:
        fn = _launch_fn = _backend.core().launch
    fn(cs, cfg, kernel, *args)


# Blocks resident per SM that a grid-stride loop aims for: enough warps in flight to hide memory
# latency on Hopper (2048 threads/SM = 8 blocks of 256).
_BLOCKS_PER_SM = 8


def grid_for(n: int, block: int = 256, per_thread: int = 1) -> int:
    """Blocks for `n` items, `per_thread` items per thread, with a grid-stride loop.

    Never more blocks than fill every SM `_BLOCKS_PER_SM` times over (the loop covers the rest);
    never fewer than needed when the work fits in one wave.
    """
    per_block = block * per_thread
    blocks = (n + per_block - 1) // per_block
    cap = _device._sm_count(_device.get_device_id()) * _BLOCKS_PER_SM
    if blocks > cap:
        blocks = cap
    return max(blocks, 1)
