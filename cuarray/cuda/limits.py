"""The CUDA limits the planners size grids and tiles by, in one place (no device needed: these are
the same on every GPU cuarray supports, sm_70 and later).

- `SHARED_PER_BLOCK`: the dynamic shared memory a block may use without opting in to more
  (the device property cudaDevAttrMaxSharedMemoryPerBlock: 48 KiB). A kernel that wants more must
  set its max-dynamic-shared-memory attribute first; none of cuarray's does.
- `MAX_GRID_X`: blocks along x at most (cudaDevAttrMaxGridDimX).
"""

from __future__ import annotations

__all__ = ["SHARED_PER_BLOCK", "MAX_GRID_X"]

SHARED_PER_BLOCK = 48 * 1024
MAX_GRID_X = 2**31 - 1
